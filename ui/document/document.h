#pragma once

// The open scenario, its undo stack and its latest traces. Every edit goes through edit()
// (normally from a QUndoCommand in editcommands.h); the document re-simulates and emits
// changed(). Views redraw from trace(); nobody edits a trace.

#include "scenario.h"
#include "simulator.h"
#include "trace.h"

#include <QObject>

#include <functional>
#include <memory>
#include <vector>

class QTimer;
class QUndoStack;
struct ComparedRuns;

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
    // The same schedule, with the scenario's own fencing switch, under another token source
    // (compare mode's "compare with" a source): the scenario with Core::lockOptionsFor(source) and
    // its run. Computed on demand, kept up to date by every later edit while it is asked for.
    const Core::Scenario &scenarioWithSource(Core::TokenSource source) const;
    const Core::Trace &traceWithSource(Core::TokenSource source) const;
    // One of the runs above (trace(), traceFor(), traceWithSource()) as it stands before tick
    // `before`: a partial trace holding nothing of that tick or later (0: nothing at all).
    // Presentation mode and a lesson's question show runs so: what has not happened yet
    // cannot be drawn. Computed on demand, kept until the next edit. Any other trace is
    // given back as it is.
    const Core::Trace &traceBefore(const Core::Trace &full, Core::Tick before) const;
    // Two runs from outside the document's own simulations for compare mode (a run observed on
    // etcd under its prediction), each with its name and title (comparison.h); null when there
    // are none. The next change of the scenario drops them: they are runs of what it was.
    const ComparedRuns *comparedRuns() const { return m_compared.get(); }
    void setComparedRuns(std::shared_ptr<const ComparedRuns> runs);

    QUndoStack *undoStack() const { return m_undo; }
    QString filePath() const { return m_path; }
    // Unsaved changes worth asking about. A scenario without a file (a preset, New) whose only
    // change is the fencing switch is not modified: F is what a demo flips.
    bool isModified() const;

    // Replace everything (open, new, preset): clears undo history.
    void reset(const Core::Scenario &scenario, const QString &path = {});
    void setFilePath(const QString &path);
    void markSaved();

    // Apply a change to the scenario and re-simulate from the start.
    void edit(const std::function<void(Core::Scenario &)> &change);
    // Replace one action (drags, the inspector, undo of those). Re-simulates only from the last
    // checkpoint before the action's old or new tick and, during a drag, only through
    // `showThrough` (the end of what the timeline shows) before changed() is emitted; the
    // rest of the run follows in slices between frames, and changed() is emitted again when
    // the traces are complete.
    void setAction(int client, int index, const Core::Action &action,
                   Core::Tick showThrough = Core::kForever);
    // Finish a partial re-simulation now (tests, export, save).
    void settle();
    // A drag previews its edits with setAction(..., showThrough) until it ends here (finished
    // or cancelled); views that need the whole trace refresh less often meanwhile.
    bool isPreviewing() const { return m_previewing; }
    void endPreview();
    bool isSettled() const
    {
        return m_trace->complete() && (!m_otherValid || m_other->complete()) &&
               (!m_altValid || m_alt->complete());
    }

signals:
    // Scenario and traces replaced. During a drag the trace may be partial (Trace::complete()
    // is false): everything before Trace::pendingFrom is exact, the rest follows.
    void changed();
    void filePathChanged(const QString &path);
    void modifiedChanged(bool modified);

private:
    void resimulate();
    void updateModified();
    void continueSimulation();

    Core::Scenario m_scenario;
    std::unique_ptr<Core::Trace> m_trace;
    std::unique_ptr<Core::Trace> m_other; // the opposite fencing, computed lazily
    // the simulators keep checkpoints of their traces (mutable: the other trace is lazy)
    std::unique_ptr<Core::Simulator> m_sim;
    mutable std::unique_ptr<Core::Simulator> m_otherSim;
    mutable bool m_otherValid = false;
    // the schedule under another token source (lazy like m_other)
    mutable Core::Scenario m_altScenario;
    std::unique_ptr<Core::Trace> m_alt;
    mutable std::unique_ptr<Core::Simulator> m_altSim;
    mutable bool m_altValid = false;
    // runs cut before a tick (traceBefore): a few, for the steps of a presentation
    struct Cut
    {
        const Core::Trace *full = nullptr;
        Core::Tick before = 0;
        std::unique_ptr<Core::Trace> trace;
    };
    mutable std::vector<Cut> m_cuts;
    std::shared_ptr<const ComparedRuns> m_compared;
    bool m_previewing = false;
    QUndoStack *m_undo;
    QTimer *m_finish; // finishes partial runs between frames
    QString m_path;
    Core::Scenario m_clean; // as opened or last saved
    bool m_modified = false;
};
