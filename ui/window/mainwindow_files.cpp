// MainWindow, part: files. The window's title and what follows a load; open, save, recent
// files and crash recovery are the FileController's (filecontroller.*), which the window's
// slots, its close and its drops hand over to.

#include "window/mainwindow.h"

#include "document/document.h"
#include "outcomes.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/docklayout.h"
#include "window/filecontroller.h"
#include "window/lessoncontroller.h"
#include "window/playback.h"
#include "window/windowactions.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTimer>

void MainWindow::createFiles()
{
    FileController::Hooks hooks;
    hooks.dialogs = [this]() -> Dialogs & { return *m_dialogs; };
    hooks.reportError = [this](const QString &title, const QString &message) {
        reportError(title, message);
    };
    hooks.showStatus = [this](const QString &text, int ms) { statusBar()->showMessage(text, ms); };
    hooks.afterLoad = [this] { afterLoad(); };
    hooks.updateTitle = [this] { updateTitle(); };
    hooks.openLesson = [this](const QString &path) { return openLesson(path); };
    m_files = new FileController({m_doc, m_autosaver, m_actions->recentMenu()}, hooks, this);
}

void MainWindow::updateTitle()
{
    setWindowTitle(
        tr("%1[*] — %2 — FenceScope")
            .arg(FileController::displayName(m_doc->filePath()), m_doc->scenario().title));
    setWindowModified(m_doc->isModified());
}

void MainWindow::afterLoad()
{
    // another scenario than a lesson's scene: the lesson stays open, its questions wait
    if (m_lessons)
        m_lessons->scenarioReplaced();
    m_playback->pause();
    m_state->clearPlayhead();
    m_state->clearSelection();
    if (auto *view = m_timeline; view && view->isVisible())
        view->fitToWindow();
    // the write the run is best read from (core's choice): the timeline selects it and the
    // story explains it first
    if (const Core::Write *w = Core::mostTellingWrite(m_doc->trace()))
        m_state->setSelection({int(w->client), int(w->action)});
    // the story of a scenario just opened is read from its title: back to its top, after the
    // selection above has brought its explanation into view (a zero timer, queued after that)
    if (auto *story = findChild<QDockWidget *>(QStringLiteral("storyDock")))
        if (auto *scroll = qobject_cast<QScrollArea *>(story->widget()))
            QTimer::singleShot(0, scroll, [scroll] { scroll->verticalScrollBar()->setValue(0); });
}

void MainWindow::openAtStart(const QString &path)
{
    m_files->openAtStart(path);
}

void MainWindow::newScenario()
{
    m_files->newScenario();
}

void MainWindow::open()
{
    m_files->open();
}

bool MainWindow::save()
{
    return m_files->save();
}

bool MainWindow::saveAs()
{
    return m_files->saveAs();
}

bool MainWindow::offerRecovery()
{
    return m_files->offerRecovery();
}

void MainWindow::reportError(const QString &title, const QString &message)
{
    statusBar()->showMessage(message.section(QLatin1Char('\n'), -1), 8000);
    m_dialogs->reportError(title, message);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_files->maybeSave() && m_lessons->maybeSave()) {
        m_playback->pause();
        m_layout->saveWindowSettings();
        event->accept();
    } else {
        event->ignore();
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile())
        return;
    event->acceptProposedAction();
    if (m_files->maybeSave())
        m_files->openFile(urls.front().toLocalFile());
}
