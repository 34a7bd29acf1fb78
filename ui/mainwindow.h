#pragma once

// The main window: the timeline with the token chart under it, the summary strip above, the
// playback bar below, and docks for the story (narration), the inspector and the event log.
// Owns the Document and the ViewState every view shares; menus and toolbar turn into edit
// commands, view-state changes or file operations.
//
// Dialogs are testable: every message box and file dialog goes through a virtual hook
// (reportError, askUnsavedChanges, askOpenPath, askSavePath). With setInteractive(false)
// nothing modal is ever shown: errors are recorded in lastError(), the unsaved-changes
// question gets unsavedAnswer(), and file dialogs return nextPath(). Tests use that; a
// subclass may override the hooks instead.

#include "theme.h"

#include "scenario.h"

#include <QMainWindow>
#include <QMessageBox>

class Document;
class ViewState;
class Playback;
class TimelineView;
class TokenChart;
class EventLogModel;
class NarrationPanel;
class Inspector;
class SummaryStrip;
class QTableView;
class QSlider;
class QComboBox;
class QLabel;
class QMenu;
class QActionGroup;
class QSplitter;
class QToolButton;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens FILE given on the command line; a broken file shows its error and the default
    // scenario stays open.
    void openAtStart(const QString &path);
    // Opens a scenario file (no unsaved-changes question: callers ask first). A broken file
    // is reported and the current scenario stays open, unchanged. Returns success.
    bool openFile(const QString &path);
    // Writes the scenario atomically to `path` and makes it the document's file.
    bool saveTo(const QString &path);
    // Loads a built-in scenario by name (ScenarioFile::builtinNames()).
    bool openPreset(const QString &name);

    Document *document() const { return m_doc; }
    ViewState *viewState() const { return m_state; }
    Playback *playback() const { return m_playback; }
    TokenChart *tokenChart() const { return m_chart; }
    QTableView *eventLog() const { return m_log; }
    EventLogModel *eventLogModel() const { return m_logModel; }
    NarrationPanel *narration() const { return m_narration; }
    Inspector *inspector() const { return m_inspector; }
    SummaryStrip *summaryStrip() const { return m_summary; }
    QWidget *timeline() const { return m_timeline; }
    const Core::Scenario &scenario() const;
    const Theme &theme() const { return m_theme; }

    // Test hooks (see the top of this file).
    void setInteractive(bool on) { m_interactive = on; }
    bool isInteractive() const { return m_interactive; }
    QString lastError() const { return m_lastError; }
    void setUnsavedAnswer(QMessageBox::StandardButton b) { m_unsavedAnswer = b; }
    void setNextPath(const QString &path) { m_nextPath = path; }

    // Selects the most telling outcome: the first corrupted write, else the first rejected,
    // else the first locked out; nothing if all went well.
    void selectMostInteresting();

public slots:
    void newScenario();
    void open();
    bool save();
    bool saveAs();
    void setThemeByName(const QString &name);
    void stepNextEvent();
    void stepPreviousEvent();

protected:
    virtual void reportError(const QString &title, const QString &message);
    virtual QMessageBox::StandardButton askUnsavedChanges();
    virtual QString askOpenPath();
    virtual QString askSavePath();

    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createViews();
    void createActions();
    void createMenus();
    void createToolBar();
    void createDocks();
    QWidget *createPlaybackBar();
    void connectSelection();

    // Asks about unsaved changes; true when it is fine to replace the document.
    bool maybeSave();
    void updateTitle();
    void documentChanged();
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void applyTheme();
    void syncPlaybackBar();
    void revealTick(Core::Tick tick);
    void fitSplitter();
    void afterLoad();

    // Editing actions from menus and toolbar.
    int targetClient() const;
    Core::Tick targetTick() const;
    void addScenarioAction(Core::ActionKind kind);
    void addClient();
    void removeClient();
    void deleteSelected();
    void setRule(Core::FenceRule rule);

    Document *m_doc;
    ViewState *m_state;
    Playback *m_playback;
    Theme m_theme = Theme::light();

    QWidget *m_timeline = nullptr;
    TokenChart *m_chart = nullptr;
    QSplitter *m_splitter = nullptr;
    SummaryStrip *m_summary = nullptr;
    NarrationPanel *m_narration = nullptr;
    Inspector *m_inspector = nullptr;
    EventLogModel *m_logModel = nullptr;
    QTableView *m_log = nullptr;
    QSlider *m_slider = nullptr;
    QLabel *m_tickLabel = nullptr;
    QComboBox *m_speed = nullptr;
    QComboBox *m_rule = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QActionGroup *m_themeGroup = nullptr;

    QAction *m_newAct = nullptr;
    QAction *m_openAct = nullptr;
    QAction *m_saveAct = nullptr;
    QAction *m_saveAsAct = nullptr;
    QAction *m_quitAct = nullptr;
    QAction *m_undoAct = nullptr;
    QAction *m_redoAct = nullptr;
    QAction *m_fencingAct = nullptr;
    QAction *m_compareAct = nullptr;
    QAction *m_zoomInAct = nullptr;
    QAction *m_zoomOutAct = nullptr;
    QAction *m_fitAct = nullptr;
    QAction *m_playAct = nullptr;
    QAction *m_prevAct = nullptr;
    QAction *m_nextAct = nullptr;
    QAction *m_showAllAct = nullptr;
    QAction *m_addClientAct = nullptr;
    QAction *m_removeClientAct = nullptr;
    QAction *m_addAcquireAct = nullptr;
    QAction *m_addWriteAct = nullptr;
    QAction *m_addPauseAct = nullptr;
    QAction *m_addReleaseAct = nullptr;
    QAction *m_deleteAct = nullptr;

    QSize m_fittedLanes; // clients x storages the splitter was last fitted to
    bool m_interactive = true;
    bool m_syncingSelection = false;
    QString m_lastError;
    QMessageBox::StandardButton m_unsavedAnswer = QMessageBox::Cancel;
    QString m_nextPath;
};
