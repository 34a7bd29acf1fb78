#pragma once

// The main window: the timeline with the token chart under it, the summary strip above, the
// playback bar below, and docks for the story (narration), the inspector and the event log.
// Owns the Document and the ViewState every view shares; menus and toolbar turn into edit
// commands, view-state changes or file operations.
//
// Every message box and file dialog goes through dialogs() (window/dialogs.h): the real ones
// by default; tests install their own with setDialogs(), and nothing modal is shown there.

#include "theme.h"
#include "viewstate.h"

#include "scenario.h"

#include "window/dialogs.h"

#include <QMainWindow>

#include <memory>
#include <utility>

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
class QSplitter;
class QToolButton;
class QScrollArea;
class Autosaver;
class AnimationDialog;
class ExportDialog;
class PresentationPanel;
class PresentationControls;

class LiveDialog;
class ShrinkPanel;
class SweepPanel;
class LessonController;
class LessonEditor;
class LessonPanel;
class LessonStage;
class RoomPoll;
class PresentationController;
class ExportController;
class FileController;
class DockLayout;
class SimulationMenus;
class WindowActions;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens FILE given on the command line; a broken file shows its error and the default
    // scenario stays open.
    void openAtStart(const QString &path);

    // The window's model. Its widgets and collaborators (the file, export and presentation
    // controllers, ...) are its own: a test finds them as children (tests/common/windowparts.h).
    Document *document() const { return m_doc; }
    ViewState *viewState() const { return m_state; }

    // Who answers the window's questions (see the top of this file).
    Dialogs &dialogs() const { return *m_dialogs; }
    // A setter, not a constructor argument: a test makes the window as a value and scripts its
    // dialogs before anything asks (nothing in the constructor does).
    void setDialogs(std::unique_ptr<Dialogs> dialogs) { m_dialogs = std::move(dialogs); }

    // Presentation mode (View > Presentation, F11; PresentationController): full screen,
    // large theme, only the timeline and a large explanation; arrows and Page Up/Down step
    // from event to event.
    bool isPresenting() const;

    // Lessons (LessonController, docs/LESSONS.md): File > Open Lesson, Help > Lessons, the
    // Lesson dock (a student's desk), the lesson editor's dock, and presentation's walk
    // through a lesson's scenes. A FILE named *.fencescope-lesson.json at start is a lesson.
    LessonController *lessons() const { return m_lessons; }
    bool openLesson(const QString &path);
    bool openBuiltinLesson(const QString &name);

    // Autosave of unsaved work, and its recovery after a crash: offers autosaves left by sessions
    // that died (one question each, through askQuestion); restores at most one, as a modified
    // document with its original path. Returns true when one was restored. Called once after show()
    // at startup.
    bool offerRecovery();

public slots:
    // Help > Quick tour (also on the first run): a guide over the real window.
    void startQuickTour();
    void newScenario();
    void open();
    bool save();
    bool saveAs();
    void setThemeByName(const QString &name);
    // View > Reset layout: the docks, the window's size and the lanes as on a first start.
    void resetLayout();
    void stepNextEvent();
    void stepPreviousEvent();
    void exportWithDialog();
    void exportStoryboardWithDialog();
    void exportAnimationWithDialog();
    // Renders the picture with the current export options onto the clipboard.
    QImage copyAsImage();
    void setPresenting(bool on);
    // File > Open Lesson…
    void openLessonWithDialog();

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createViews();
    // What the window's actions do (mainwindow_actions.cpp); WindowActions makes them and lays
    // out the menus and toolbar.
    void createActions();
    void createDocks();
    QWidget *createPlaybackBar();
    void connectSelection();

    // Shows an error through dialogs(), its last line in the status bar as well.
    void reportError(const QString &title, const QString &message);
    void updateTitle();
    void documentChanged();
    void applyTheme();
    void syncPlaybackBar();
    void revealTick(Core::Tick tick);
    // The DockLayout's, once the docks are made (mainwindow_layout.cpp).
    void fitSplitter();
    void afterLoad();
    // The status bar: the hovered item's text, else a hint that matches the fencing switch.
    void showHoverText(const QString &text);
    void showIdleHint();
    // Toolbar and playback icons in the theme's text colour.
    void applyIcons();
    void createControllers();
    // The FileController, once the menus and the autosaver exist (mainwindow_files.cpp).
    void createFiles();
    // Lessons (mainwindow_lessons.cpp): what their actions do, then the docks, presentation's
    // stage and the controller (after the docks).
    void connectLessonActions();
    void createLessons();
    void applyLessonTheme();
    void exportRoomVotes();

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

    TimelineView *m_timeline = nullptr;
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
    SweepPanel *m_sweep = nullptr;
    QString m_hoverMessage; // the status bar's text when it describes the hovered item
    QString m_idleHint;
    ShrinkPanel *m_shrink = nullptr;
    SimulationMenus *m_simulationMenus = nullptr;

    QScrollArea *m_timelineScroll = nullptr;
    QWidget *m_playbackBar = nullptr;
    PresentationPanel *m_presPanel = nullptr;
    PresentationControls *m_presControls = nullptr;
    Autosaver *m_autosaver = nullptr;
    LiveDialog *m_liveDialog = nullptr;

    PresentationController *m_presentation = nullptr;
    LessonController *m_lessons = nullptr;
    RoomPoll *m_roomPoll = nullptr;
    LessonPanel *m_lessonPanel = nullptr;
    LessonStage *m_lessonStage = nullptr;
    // The stage's own scroll area: shown with the stage; a stage taller than the room fit()
    // gave it scrolls instead of making the window taller than its screen.
    QScrollArea *m_lessonStageScroll = nullptr;
    LessonEditor *m_lessonEditor = nullptr;
    ExportController *m_export = nullptr;
    FileController *m_files = nullptr;
    DockLayout *m_layout = nullptr;
    WindowActions *m_actions = nullptr; // every action, the menus and the toolbar

    int m_fittedLanes = -1; // the lanes' height the splitter was last fitted to
    bool m_syncingSelection = false;
    std::unique_ptr<Dialogs> m_dialogs = std::make_unique<WidgetDialogs>(this);
};
