#pragma once

// The open scenario, its undo stack and its latest traces. Every edit goes through edit()
// (normally from a QUndoCommand in editcommands.h); the document re-simulates and emits
// changed(). Views redraw from trace(); nobody edits a trace.

#include "scenario.h"
#include "trace.h"

#include <QObject>

#include <functional>
#include <memory>

class QUndoStack;

class Document : public QObject
{
    Q_OBJECT
public:
    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    const Core::Scenario &scenario() const { return m_scenario; }
    // The trace with the scenario's own fencing switch.
    const Core::Trace &trace() const { return *m_trace; }
    // The same schedule with fencing forced on or off (compare mode); computed on demand,
    // cached until the next edit.
    const Core::Trace &traceFor(bool fencing) const;

    QUndoStack *undoStack() const { return m_undo; }
    QString filePath() const { return m_path; }
    bool isModified() const;

    // Replace everything (open, new, preset): clears undo history.
    void reset(const Core::Scenario &scenario, const QString &path = {});
    void setFilePath(const QString &path);
    void markSaved();

    // Apply a change to the scenario and re-simulate. Used by undo commands, and directly by
    // drags for the live preview (the finished drag then pushes one command).
    void edit(const std::function<void(Core::Scenario &)> &change);

signals:
    void changed(); // scenario and traces replaced
    void filePathChanged(const QString &path);
    void modifiedChanged(bool modified);

private:
    void resimulate();

    Core::Scenario m_scenario;
    std::unique_ptr<Core::Trace> m_trace;
    std::unique_ptr<Core::Trace> m_other; // the opposite fencing, computed lazily
    mutable bool m_otherValid = false;
    QUndoStack *m_undo;
    QString m_path;
};
