#include "document.h"

#include "scenariofile.h"
#include "simulator.h"

#include <QUndoStack>

Document::Document(QObject *parent)
    : QObject(parent), m_trace(std::make_unique<Core::Trace>()),
      m_other(std::make_unique<Core::Trace>()), m_undo(new QUndoStack(this))
{
    connect(m_undo, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
    reset(Core::ScenarioFile::defaultScenario());
}

Document::~Document() = default;

const Core::Trace &Document::traceFor(bool fencing) const
{
    if (fencing == m_scenario.fencing)
        return *m_trace;
    if (!m_otherValid) {
        Core::simulateInto(m_scenario, fencing, *m_other);
        m_otherValid = true;
    }
    return *m_other;
}

bool Document::isModified() const
{
    return !m_undo->isClean();
}

void Document::reset(const Core::Scenario &scenario, const QString &path)
{
    m_scenario = scenario;
    m_undo->clear();
    resimulate();
    setFilePath(path);
    emit modifiedChanged(false);
}

void Document::setFilePath(const QString &path)
{
    if (m_path == path)
        return;
    m_path = path;
    emit filePathChanged(path);
}

void Document::markSaved()
{
    m_undo->setClean();
}

void Document::edit(const std::function<void(Core::Scenario &)> &change)
{
    change(m_scenario);
    resimulate();
}

void Document::resimulate()
{
    // into the existing trace: its buffers are reused, which keeps drags within a frame
    Core::simulateInto(m_scenario, m_scenario.fencing, *m_trace);
    m_otherValid = false;
    emit changed();
}
