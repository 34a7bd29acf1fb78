#pragma once

// Find and shrink: search seeded schedules shaped like the open scenario for one with the
// chosen failure, keeping its story (a stale write for a corrupted or rejected one, unless
// "any write" is ticked; the story is shown under the choice), shrink it to 1-minimal, and show
// every step and the failure's write in the simulator's words. Selecting a step (or replaying
// them one after the other) emits the scenario as it was after that step; Open emits the
// result with the seed, the search and the steps in its description.

#include "scenario.h"
#include "shrink.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include <atomic>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;

class ShrinkPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ShrinkPanel(QWidget *parent = nullptr);
    ~ShrinkPanel() override;

    void setScenario(const Core::Scenario &scenario);
    bool running() const { return m_watcher.isRunning(); }
    bool found() const { return m_found.has_value(); }
    const Core::ShrinkResult &result() const { return m_result; }
    // The schedule found, before any step.
    const Core::Scenario &foundSchedule() const { return *m_found; }
    void setReplayInterval(int ms) { m_replay.setInterval(ms); }
    // After the first `steps` steps (0: as found).
    Core::Scenario scenarioAt(std::size_t steps) const;

signals:
    void stepScenario(const Core::Scenario &scenario, const QString &step);
    void openScenario(const Core::Scenario &scenario, const QString &description);
    void searchFinished(bool found);

private:
    struct Outcome
    {
        Core::FindResult find;
        Core::ShrinkResult shrink;
    };

    void start();
    void finished();
    void updateStory();
    Core::FailureTarget target() const;
    void rowChanged(int row);
    void replayNext();

    Core::Scenario m_scenario;
    Core::FailureTarget m_target; // of the last search
    std::optional<Core::Scenario> m_found;
    Core::ShrinkResult m_result;
    std::atomic<bool> m_cancel{false};
    QFutureWatcher<Outcome> m_watcher;
    QTimer m_replay;

    QComboBox *m_failure;
    QCheckBox *m_any; // any write with the outcome, not only one that tells its story
    QLabel *m_story;  // what the search looks for, in a sentence
    QCheckBox *m_fencing;
    QSpinBox *m_seed;
    QSpinBox *m_tries;
    QPushButton *m_find;
    QPushButton *m_cancelButton;
    QPushButton *m_replayButton;
    QPushButton *m_open;
    QListWidget *m_steps;
    QLabel *m_status;
};
