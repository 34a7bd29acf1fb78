// MainWindow, part: what its actions do. The actions themselves (names, keys, tooltips) and the
// menus and toolbar they sit in are WindowActions' (windowactions.*); here each is connected to
// what it does, and the state it shows (checked, enabled) follows the document and the view
// state. Built once, by the constructor (mainwindow.cpp); the lessons' actions are connected in
// mainwindow_lessons.cpp.

#include "window/mainwindow.h"

#include "document/document.h"
#include "document/editcommands.h"
#include "views/livedialog.h"
#include "views/summarystrip.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/docklayout.h"
#include "window/filecontroller.h"
#include "window/playback.h"
#include "window/presentationcontroller.h"
#include "window/simulationmenus.h"
#include "window/windowactions.h"

#include "tokensource.h"

#include <QAction>
#include <QUndoStack>

void MainWindow::createActions()
{
    m_actions = new WindowActions(this, m_doc->undoStack());
    m_simulationMenus = new SimulationMenus(
        m_doc, m_state, [this](Core::FenceRule rule) { setRule(rule); }, this);
    connect(m_actions->newFile, &QAction::triggered, this, &MainWindow::newScenario);
    connect(m_actions->open, &QAction::triggered, this, &MainWindow::open);
    connect(m_actions->save, &QAction::triggered, this, &MainWindow::save);
    connect(m_actions->saveAs, &QAction::triggered, this, &MainWindow::saveAs);
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->fencing, &QAction::triggered, this, [this](bool on) {
        if (on != m_doc->scenario().fencing)
            m_doc->undoStack()->push(EditCommands::setFencing(m_doc, on));
    });
    connect(m_actions->compare, &QAction::toggled, m_state, &ViewState::setCompare);
    connect(m_state, &ViewState::compareChanged, this, [this](bool on) {
        if (isPresenting())
            m_presentation->fit();
        // (presenting on a screen of its own, the window stays as it is: it compares too)
        if (isPresenting() && !m_presentation->onOwnScreen())
            return;
        m_layout->setComparing(on); // the event log steps aside
    });
    connect(m_state, &ViewState::compareChanged, m_actions->compare, &QAction::setChecked);
    connect(m_state, &ViewState::compareSourceChanged, this, [this] {
        const std::optional<Core::TokenSource> src = m_state->compareSource();
        m_actions->compare->setText(
            src ? tr("&Compare %1 / %2 tokens")
                      .arg(Core::toString(m_doc->scenario().tokens), Core::toString(*src))
                : tr("&Compare fenced / unfenced"));
    });
    connect(m_state, &ViewState::compareChanged, m_summary, &SummaryStrip::setCompare);
    connect(m_state, &ViewState::compareSourceChanged, m_summary,
            [this] { m_summary->setCompareSource(m_state->compareSource()); });
    auto *view = m_timeline;
    connect(m_actions->zoomIn, &QAction::triggered, view, &TimelineView::zoomIn);
    connect(m_actions->zoomOut, &QAction::triggered, view, &TimelineView::zoomOut);
    connect(m_actions->fit, &QAction::triggered, view, &TimelineView::fitToWindow);
    connect(m_actions->play, &QAction::triggered, m_playback, &Playback::toggle);
    connect(m_playback, &Playback::playingChanged, this, [this](bool playing) {
        m_actions->play->setText(playing ? tr("&Pause") : tr("&Play"));
        applyIcons();
    });
    connect(m_actions->previous, &QAction::triggered, this, &MainWindow::stepPreviousEvent);
    connect(m_actions->next, &QAction::triggered, this, &MainWindow::stepNextEvent);
    connect(m_actions->showAll, &QAction::triggered, this, [this] {
        m_playback->pause();
        m_state->clearPlayhead();
    });
    connect(m_actions->addClient, &QAction::triggered, this, &MainWindow::addClient);
    connect(m_actions->removeClient, &QAction::triggered, this, &MainWindow::removeClient);
    connect(m_actions->addAcquire, &QAction::triggered, this,
            [this] { addScenarioAction(Core::ActionKind::Acquire); });
    connect(m_actions->addWrite, &QAction::triggered, this,
            [this] { addScenarioAction(Core::ActionKind::Write); });
    connect(m_actions->addPause, &QAction::triggered, this,
            [this] { addScenarioAction(Core::ActionKind::Pause); });
    connect(m_actions->addRelease, &QAction::triggered, this,
            [this] { addScenarioAction(Core::ActionKind::Release); });
    connect(m_actions->deleteAction, &QAction::triggered, this, &MainWindow::deleteSelected);
    connect(m_actions->exportPicture, &QAction::triggered, this, &MainWindow::exportWithDialog);
    connect(m_actions->storyboard, &QAction::triggered, this,
            &MainWindow::exportStoryboardWithDialog);
    connect(m_actions->animation, &QAction::triggered, this,
            &MainWindow::exportAnimationWithDialog);
    connect(m_actions->copyImage, &QAction::triggered, this, [this] { copyAsImage(); });
    connect(m_actions->present, &QAction::triggered, this, &MainWindow::setPresenting);
    connect(m_actions->live, &QAction::triggered, this, [this] {
        if (!m_liveDialog)
            m_liveDialog = new LiveDialog(m_doc, m_state, this);
        m_liveDialog->show();
        m_liveDialog->raise();
        m_liveDialog->activateWindow();
    });
    connect(m_actions, &WindowActions::presetChosen, this, [this](const QString &name) {
        if (m_files->maybeSave())
            m_files->openPreset(name);
    });
    connect(m_actions, &WindowActions::themeChosen, this, &MainWindow::setThemeByName);
    connect(m_actions->resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);
    connect(m_actions->tour, &QAction::triggered, this, &MainWindow::startQuickTour);
    connect(m_actions->about, &QAction::triggered, this, [this] {
        if (m_dialogs->isInteractive())
            m_dialogs->showAbout();
    });
}
