// MainWindow, part: presentation mode and export, each an object of its own
// (presentationcontroller.*, exportcontroller.*), made here from the window's parts; the
// window's slots hand over to them.

#include "window/mainwindow.h"

#include "document/lessonsession.h"
#include "views/animationdialog.h"
#include "views/exportdialog.h"
#include "views/summarystrip.h"
#include "views/tokenchart.h"
#include "window/exportcontroller.h"
#include "window/lessoncontroller.h"
#include "window/presentationcontroller.h"
#include "window/windowactions.h"

#include <QStatusBar>

void MainWindow::createControllers()
{
    PresentationController::Parts parts;
    parts.window = this;
    parts.doc = m_doc;
    parts.state = m_state;
    parts.playback = m_playback;
    parts.view = m_timeline;
    parts.scroll = m_timelineScroll;
    parts.splitter = m_splitter;
    parts.panel = m_presPanel;
    parts.controls = m_presControls;
    parts.action = m_actions->present;
    parts.putAway = {m_summary, m_chart, m_playbackBar};
    parts.keys = {m_actions->compare, m_actions->fencing};
    PresentationController::Hooks hooks;
    hooks.theme = [this] { return m_theme; };
    hooks.setTheme = [this](const Theme &t) {
        m_theme = t;
        applyTheme();
    };
    hooks.fitWindow = [this] { fitSplitter(); };
    hooks.clearSelectionQuietly = [this] {
        m_syncingSelection = true; // the event log keeps its row for when presenting ends
        m_state->clearSelection();
        m_syncingSelection = false;
    };
    m_presentation = new PresentationController(parts, hooks, this);

    ExportController::Hooks exportHooks;
    exportHooks.theme = [this] { return m_theme; };
    exportHooks.askExport = [this](ExportDialog &dialog) { return m_dialogs->askExport(dialog); };
    exportHooks.askAnimation = [this](AnimationDialog &dialog) {
        return m_dialogs->askAnimation(dialog);
    };
    exportHooks.reportError = [this](const QString &title, const QString &message) {
        reportError(title, message);
    };
    exportHooks.showStatus = [this](const QString &text, int ms) {
        statusBar()->showMessage(text, ms);
    };
    exportHooks.lesson = [this]() -> const Core::Lesson * {
        return m_lessons && m_lessons->session() ? &m_lessons->session()->lesson() : nullptr;
    };
    m_export =
        new ExportController({this, m_doc, m_state, m_playback, m_timeline}, exportHooks, this);
}

// Presentation mode and export are controllers of their own; the window's slots hand over.
bool MainWindow::isPresenting() const
{
    return m_presentation->isPresenting();
}
void MainWindow::setPresenting(bool on)
{
    m_presentation->setPresenting(on);
}
void MainWindow::exportWithDialog()
{
    m_export->exportPicture();
}
void MainWindow::exportStoryboardWithDialog()
{
    m_export->exportStoryboard();
}
void MainWindow::exportAnimationWithDialog()
{
    m_export->exportAnimation();
}
QImage MainWindow::copyAsImage()
{
    return m_export->copyAsImage();
}
