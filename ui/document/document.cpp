#include "document/document.h"

#include "document/comparison.h"

#include "scenariofile.h"
#include "simulator.h"
#include "tokensource.h"

#include <QTimer>
#include <QUndoStack>

#include <algorithm>

namespace {
// Events simulated per slice while finishing a partial run: a few ms, so input stays responsive.
constexpr std::size_t kSliceEvents = 80000;
// A drag step finishes the run at once when this little is left (about a millisecond): then
// every view follows the drag, not only the timeline.
constexpr std::size_t kInlineEvents = 30000;
} // namespace

Document::Document(QObject *parent)
    : QObject(parent), m_trace(std::make_unique<Core::Trace>()),
      m_other(std::make_unique<Core::Trace>()), m_sim(std::make_unique<Core::Simulator>()),
      m_otherSim(std::make_unique<Core::Simulator>()), m_alt(std::make_unique<Core::Trace>()),
      m_altSim(std::make_unique<Core::Simulator>()), m_undo(new QUndoStack(this)),
      m_finish(new QTimer(this))
{
    m_finish->setInterval(0);
    connect(m_finish, &QTimer::timeout, this, &Document::continueSimulation);
    // judged when the undo history moves (a push, undo, redo), not on every drag step
    connect(m_undo, &QUndoStack::indexChanged, this, &Document::updateModified);
    connect(m_undo, &QUndoStack::cleanChanged, this, &Document::updateModified);
    reset(Core::ScenarioFile::defaultScenario());
}

Document::~Document() = default;

const Core::Trace &Document::traceFor(bool fencing) const
{
    if (fencing == m_scenario.fencing)
        return *m_trace;
    if (!m_otherValid) {
        m_otherSim->run(m_scenario, fencing, *m_other);
        m_otherValid = true;
    }
    return *m_other;
}

const Core::Scenario &Document::scenarioWithSource(Core::TokenSource source) const
{
    if (!m_altValid || m_altScenario.tokens != source) {
        m_cuts.erase(std::remove_if(m_cuts.begin(), m_cuts.end(),
                                    [this](const Cut &c) { return c.full == m_alt.get(); }),
                     m_cuts.end());
        m_altScenario = m_scenario;
        m_altScenario.tokens = source;
        m_altScenario.lock = Core::lockOptionsFor(source, m_scenario.lock);
        m_altSim->run(m_altScenario, m_altScenario.fencing, *m_alt);
        m_altValid = true;
    }
    return m_altScenario;
}

const Core::Trace &Document::traceWithSource(Core::TokenSource source) const
{
    scenarioWithSource(source);
    return *m_alt;
}

const Core::Trace &Document::traceBefore(const Core::Trace &full, Core::Tick before) const
{
    const Core::Scenario *scenario = nullptr;
    if (&full == m_trace.get() || &full == m_other.get())
        scenario = &m_scenario;
    else if (&full == m_alt.get() && m_altValid)
        scenario = &m_altScenario;
    if (!scenario || !full.complete() || before > full.lastTick)
        return full;
    for (auto it = m_cuts.begin(); it != m_cuts.end(); ++it)
        if (it->full == &full && it->before == before) {
            // the newest last: what a caller asked for just now is never the one dropped
            std::rotate(it, it + 1, m_cuts.end());
            return *m_cuts.back().trace;
        }
    // a presentation walks back and forth over a few steps: keep the last several
    constexpr std::size_t kKept = 8;
    if (m_cuts.size() >= kKept)
        m_cuts.erase(m_cuts.begin());
    // on the whole run's axis: the view hides what lies after the playhead
    Cut cut{&full, before, std::make_unique<Core::Trace>(Core::runBefore(*scenario, full, before))};
    m_cuts.push_back(std::move(cut));
    return *m_cuts.back().trace;
}

bool Document::isModified() const
{
    return m_modified;
}

void Document::updateModified()
{
    bool modified = !m_undo->isClean();
    // Edits that come back to the scenario as it was saved leave nothing to save. A scenario
    // with no file of its own (a built-in preset, New) whose only change is the fencing switch
    // has nothing worth saving either: F is what a demo flips, and switching to the next preset
    // must not ask. A file of the user's keeps the switch it saves.
    // (A stack whose clean state was dropped, as after a crash recovery, has no saved scenario to
    // come back to: it stays modified until saved.)
    if (modified && m_undo->cleanIndex() >= 0) {
        Core::Scenario now = m_scenario;
        if (m_path.isEmpty())
            now.fencing = m_clean.fencing;
        modified = !(now == m_clean);
    }
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void Document::reset(const Core::Scenario &scenario, const QString &path)
{
    m_scenario = scenario;
    m_clean = scenario;
    m_undo->clear();
    resimulate();
    setFilePath(path);
    m_modified = false;
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
    m_clean = m_scenario;
    m_undo->setClean();
    updateModified();
}

void Document::edit(const std::function<void(Core::Scenario &)> &change)
{
    change(m_scenario);
    resimulate();
}

void Document::setComparedRuns(std::shared_ptr<const ComparedRuns> runs)
{
    m_compared = std::move(runs);
    emit changed();
}

void Document::setAction(int client, int index, const Core::Action &action, Core::Tick showThrough)
{
    m_compared.reset();
    Core::Action &a = m_scenario.clients[size_t(client)].actions[size_t(index)];
    const Core::Tick from = std::min(a.at, action.at);
    a = action;
    // A drag changes one action: nothing before `from` changes, so the simulators go back to
    // their last checkpoint before it and stop where the screen ends, or sooner when the run
    // is back where the last one was (then the rest is kept); when little is left after that,
    // they finish at once.
    const auto rerun = [&](Core::Simulator &sim) {
        if (!sim.rerun(std::uint32_t(client), from, showThrough, std::uint32_t(index)) &&
            sim.eventsLeftEstimate() <= kInlineEvents)
            sim.resume();
    };
    m_cuts.clear();
    rerun(*m_sim);
    if (m_otherValid)
        rerun(*m_otherSim);
    if (m_altValid) {
        // the same edit in the copy under the other source (its simulator reads that copy)
        m_altScenario.clients[size_t(client)].actions[size_t(index)] = action;
        rerun(*m_altSim);
    }
    m_previewing = showThrough != Core::kForever;
    if (isSettled())
        m_finish->stop();
    else
        m_finish->start();
    emit changed();
}

void Document::settle()
{
    if (isSettled())
        return;
    m_finish->stop();
    m_cuts.clear();
    m_sim->resume();
    if (m_otherValid)
        m_otherSim->resume();
    if (m_altValid)
        m_altSim->resume();
    emit changed();
}

void Document::endPreview()
{
    if (!m_previewing)
        return;
    m_previewing = false;
    emit changed(); // paced views catch up with the drag's last step
}

void Document::continueSimulation()
{
    // one slice per turn of the event loop, the shown trace first
    m_cuts.clear();
    if (!m_trace->complete())
        m_sim->resume(Core::kForever, kSliceEvents);
    else if (m_otherValid && !m_other->complete())
        m_otherSim->resume(Core::kForever, kSliceEvents);
    else if (m_altValid && !m_alt->complete())
        m_altSim->resume(Core::kForever, kSliceEvents);
    if (isSettled()) {
        m_finish->stop();
        emit changed();
    }
}

void Document::resimulate()
{
    // into the existing trace: its buffers are reused
    m_finish->stop();
    m_previewing = false;
    m_compared.reset();
    m_cuts.clear();
    m_sim->run(m_scenario, m_scenario.fencing, *m_trace);
    m_otherValid = false;
    m_altValid = false;
    emit changed();
}
