#pragma once

// Simulation > Run on etcd: the open scenario run on a real etcd, in real time (live/,
// docs/LIVE.md). Before anything starts it says whether the scenario can run and at which
// tick; while it runs it shows how far ("t=12 of 30, real 3.6 s") and can be cancelled, the
// window staying responsive; at the end compare mode shows the prediction over what etcd did
// (Document::setComparedRuns), and the dialog says whether reality agreed and lists every
// divergence with its explanation (activating one selects its action on the timeline).

#include "liverun.h"

#include <QDialog>

#include <memory>

class Document;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QRadioButton;
class ViewState;

class LiveDialog : public QDialog
{
    Q_OBJECT
public:
    LiveDialog(Document *doc, ViewState *state, QWidget *parent = nullptr);
    ~LiveDialog() override;

    bool isRunning() const;
    // The last run's result (result.ran() false before any).
    const Live::LiveResult &result() const { return m_result; }
    // The options the dialog's fields make.
    Live::LiveOptions options() const;

    // (tests drive these as a user would)
    QPushButton *startButton() const { return m_start; }
    QPushButton *cancelButton() const { return m_cancel; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *verdictLabel() const { return m_verdict; }
    QLabel *reasonLabel() const { return m_reason; }
    QListWidget *divergenceList() const { return m_list; }
    QDoubleSpinBox *tickField() const { return m_tick; }
    QComboBox *storeField() const { return m_store; }

signals:
    void runFinished();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void refresh();
    void recheck();
    void start();
    void finished(const Live::LiveResult &result);
    void showDivergence(int row);

    Document *m_doc;
    ViewState *m_state;
    QLabel *m_title;
    QLabel *m_reason;
    QComboBox *m_fencing;
    QComboBox *m_store;
    QDoubleSpinBox *m_tick;
    QRadioButton *m_ownEtcd;
    QRadioButton *m_givenEtcd;
    QLineEdit *m_url;
    QProgressBar *m_progress;
    QLabel *m_status;
    QLabel *m_verdict;
    QListWidget *m_list;
    QPushButton *m_start;
    QPushButton *m_cancel;
    std::unique_ptr<Live::LiveRun> m_run;
    Core::Scenario m_ranScenario; // as it was when the run started
    Live::LiveResult m_result;
    qint64 m_plannedTickUs = 0;
};
