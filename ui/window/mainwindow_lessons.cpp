// MainWindow, part: lessons. What the lessons' actions do (File > Open Lesson, Help > Lessons,
// the scene steps in Playback; WindowActions makes them), the Lesson dock and the lesson
// editor's dock, presentation's stage under the timeline, and the LessonController that runs
// them (lessoncontroller.h).

#include "window/mainwindow.h"

#include "document/lessonsession.h"
#include "views/lessoneditor.h"
#include "views/lessonpanel.h"
#include "views/lessonstage.h"
#include "views/presentationpanel.h"
#include "views/summarystrip.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "window/exportcontroller.h"
#include "window/filecontroller.h"
#include "window/lessoncontroller.h"
#include "window/presentationcontroller.h"
#include "window/roompoll.h"
#include "window/windowactions.h"

#include "lessonfile.h"
#include "savefile.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QVBoxLayout>

void MainWindow::connectLessonActions()
{
    connect(m_actions->openLesson, &QAction::triggered, this, &MainWindow::openLessonWithDialog);
    connect(m_actions->closeLesson, &QAction::triggered, this, [this] { m_lessons->close(); });
    connect(m_actions->exportVotes, &QAction::triggered, this, &MainWindow::exportRoomVotes);
    connect(m_actions->previousScene, &QAction::triggered, this,
            [this] { m_lessons->previousScene(); });
    connect(m_actions->nextScene, &QAction::triggered, this, [this] { m_lessons->nextScene(); });
    connect(m_actions, &WindowActions::lessonChosen, this, &MainWindow::openBuiltinLesson);
}

void MainWindow::createLessons()
{
    // presentation's stage: under the timeline, where the step's sentence is otherwise
    m_lessonStageScroll = new QScrollArea(centralWidget());
    m_lessonStageScroll->setObjectName(QStringLiteral("lessonStageScroll"));
    m_lessonStageScroll->setWidgetResizable(true);
    m_lessonStageScroll->setFrameShape(QFrame::NoFrame);
    m_lessonStageScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_lessonStage = new LessonStage(m_lessonStageScroll);
    m_lessonStageScroll->setWidget(m_lessonStage);
    auto *col = static_cast<QVBoxLayout *>(centralWidget()->layout());
    col->insertWidget(col->indexOf(m_presPanel) + 1, m_lessonStageScroll, 1);
    m_lessonStage->hide();
    m_lessonStageScroll->hide();
    m_lessonStage->installEventFilter(this); // the scroll area shows and hides with it

    m_lessonPanel = new LessonPanel(this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_lessonPanel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *dock = new QDockWidget(tr("Lesson"), this);
    dock->setObjectName(QStringLiteral("lessonDock"));
    dock->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    if (auto *story = findChild<QDockWidget *>(QStringLiteral("storyDock")))
        tabifyDockWidget(story, dock);
    dock->hide(); // until a lesson opens

    m_lessonEditor = new LessonEditor(m_doc, m_state, this);
    m_lessonEditor->setVisibleRange([this] { return m_export->visibleTickRange(); });
    auto *editor = new QDockWidget(tr("Lesson editor"), this);
    editor->setObjectName(QStringLiteral("lessonEditorDock"));
    editor->setWidget(m_lessonEditor);
    addDockWidget(Qt::RightDockWidgetArea, editor);
    tabifyDockWidget(dock, editor);
    editor->hide();
    m_actions->viewMenu()->addAction(dock->toggleViewAction());
    QAction *editorAct = editor->toggleViewAction();
    editorAct->setObjectName(QStringLiteral("lessonEditor"));
    m_actions->viewMenu()->addAction(editorAct);

    LessonController::Parts parts;
    parts.window = this;
    parts.doc = m_doc;
    parts.state = m_state;
    parts.playback = m_playback;
    parts.view = m_timeline;
    parts.presentation = m_presentation;
    parts.presentationPanel = m_presPanel;
    parts.panel = m_lessonPanel;
    parts.stage = m_lessonStage;
    parts.dock = dock;
    parts.editorDock = editor;
    parts.curtained = {m_summary, m_chart};
    for (const char *name : {"storyDock", "inspectorDock", "eventLogDock", "exploreDock"})
        if (auto *d = findChild<QDockWidget *>(QLatin1String(name)))
            parts.curtained << d;
    LessonController::Hooks hooks;
    hooks.reportError = [this](const QString &title, const QString &message) {
        reportError(title, message);
    };
    hooks.askUnsaved = [this](const QString &title) {
        return m_dialogs->askQuestion(
            tr("Unsaved lesson"),
            tr("The lesson “%1” has unsaved changes. Save them first?").arg(title),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };
    hooks.askSavePath = [this](const QString &suggested) {
        return m_dialogs->askSaveLessonPath(suggested);
    };
    hooks.showStatus = [this](const QString &text) { statusBar()->showMessage(text, 4000); };
    hooks.maybeSaveScenario = [this] { return m_files->maybeSave(); };
    m_lessons = new LessonController(parts, hooks, this);
    m_roomPoll = new RoomPoll(m_lessons, m_lessonStage, this);
    m_roomPoll->setObjectName(QStringLiteral("roomPoll"));
    m_lessons->setRoomPoll(m_roomPoll);
    // the address phones reach, when not the first network's (a hotspot's, or 127.0.0.1)
    const QByteArray pollAddress = qgetenv("FENCESCOPE_POLL_ADDRESS");
    if (!pollAddress.isEmpty())
        m_roomPoll->setAddress(QHostAddress(QString::fromLatin1(pollAddress)));

    connect(m_lessons, &LessonController::sessionChanged, this, [this](LessonSession *s) {
        m_lessonEditor->setSession(s);
        m_actions->closeLesson->setEnabled(s != nullptr);
        m_actions->exportVotes->setEnabled(s != nullptr);
        const auto steps = [this, s] {
            m_actions->previousScene->setEnabled(s && s->scene() > 0);
            m_actions->nextScene->setEnabled(s && s->scene() + 1 < s->sceneCount());
        };
        steps();
        if (s) {
            connect(s, &LessonSession::sceneChanged, this, steps);
            connect(s, &LessonSession::sceneMoved, this, steps);
            connect(s, &LessonSession::lessonChanged, this, steps);
        }
    });
    connect(m_lessonEditor, &LessonEditor::saveRequested, m_lessons, &LessonController::save);
    connect(m_lessonEditor, &LessonEditor::saveAsRequested, m_lessons, &LessonController::saveAs);
    connect(m_lessonEditor, &LessonEditor::newLessonRequested, m_lessons,
            &LessonController::openNew);
}

void MainWindow::exportRoomVotes()
{
    const QString title = tr("Export room votes");
    const QString path = dialogs().askSaveCsvPath(title, tr("room-votes.csv"));
    if (path.isEmpty())
        return;
    if (const auto failed = Core::saveWhole(path, m_roomPoll->csv().toUtf8()))
        dialogs().reportError(title, tr("Cannot write %1: %2").arg(path, failed->reason));
}

void MainWindow::applyLessonTheme()
{
    if (m_lessonPanel)
        m_lessonPanel->setTheme(m_theme);
    if (m_lessonStage)
        m_lessonStage->setTheme(m_theme);
    if (m_lessonEditor)
        m_lessonEditor->setFontScale(m_theme.fontScale);
}

bool MainWindow::openLesson(const QString &path)
{
    if (!m_lessons->open(path))
        return false;
    statusBar()->showMessage(tr("Opened the lesson %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool MainWindow::openBuiltinLesson(const QString &name)
{
    return m_lessons->openBuiltin(name);
}

void MainWindow::openLessonWithDialog()
{
    const QString path = m_dialogs->askOpenLessonPath();
    if (!path.isEmpty())
        openLesson(path);
}
