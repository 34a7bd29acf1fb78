// MainWindow, part: what its actions do, its menus and toolbar. The actions themselves (names,
// keys, tooltips) are WindowActions' (windowactions.*); here each is connected to what it does,
// and the state it shows (checked, enabled) follows the document and the view state. Built
// once, by the constructor (mainwindow.cpp).

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

#include "scenariofile.h"
#include "tokensource.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <algorithm>

void MainWindow::createActions()
{
    m_actions = new WindowActions(this, m_doc->undoStack());
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
        if (isPresenting()) {
            m_presentation->fit();
            return;
        }
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
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_actions->newFile);
    file->addAction(m_actions->open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(m_openLessonAct);
    file->addAction(m_closeLessonAct);
    file->addAction(m_exportVotesAct);
    file->addSeparator();
    file->addAction(m_actions->save);
    file->addAction(m_actions->saveAs);
    file->addSeparator();
    file->addAction(m_actions->exportPicture);
    file->addAction(m_actions->storyboard);
    file->addAction(m_actions->animation);
    file->addSeparator();
    file->addAction(m_actions->quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_actions->undo);
    edit->addAction(m_actions->redo);
    edit->addSeparator();
    edit->addAction(m_actions->copyImage);
    edit->addSeparator();
    edit->addAction(m_actions->addAcquire);
    edit->addAction(m_actions->addWrite);
    edit->addAction(m_actions->addPause);
    edit->addAction(m_actions->addRelease);
    edit->addAction(m_actions->deleteAction);
    edit->addSeparator();
    edit->addAction(m_actions->addClient);
    edit->addAction(m_actions->removeClient);

    QMenu *sim = menuBar()->addMenu(tr("&Simulation"));
    sim->addAction(m_actions->fencing);
    m_simulationMenus = new SimulationMenus(
        m_doc, m_state, [this](Core::FenceRule rule) { setRule(rule); }, this);
    m_simulationMenus->addRuleAndTokens(sim);
    sim->addAction(m_actions->compare);
    m_simulationMenus->addCompareWith(sim);
    sim->addSeparator();
    sim->addAction(m_actions->live);

    QMenu *scenarios = menuBar()->addMenu(tr("S&cenarios"));
    scenarios->setObjectName(QStringLiteral("scenariosMenu"));
    // grouped as a course takes them, a section each
    for (const Core::ScenarioFile::BuiltinGroup &group : Core::ScenarioFile::builtinGroups()) {
        scenarios->addSection(group.title);
        for (const QString &name : group.names) {
            const Core::LoadResult r =
                Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
            QAction *a = scenarios->addAction(
                r.ok() && !r.scenario->title.isEmpty() ? r.scenario->title : name);
            a->setObjectName(QStringLiteral("preset-") + name);
            a->setData(name);
            connect(a, &QAction::triggered, this, [this, name] {
                if (m_files->maybeSave())
                    m_files->openPreset(name);
            });
        }
    }

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_actions->zoomIn);
    view->addAction(m_actions->zoomOut);
    view->addAction(m_actions->fit);
    view->addSeparator();
    view->addAction(m_actions->compare);
    view->addSeparator();
    QMenu *themes = view->addMenu(tr("&Theme"));
    m_themeGroup = new QActionGroup(this);
    for (const auto &[name, label] :
         {std::pair{QStringLiteral("light"), tr("&Light")},
          std::pair{QStringLiteral("dark"), tr("&Dark")},
          std::pair{QStringLiteral("contrast"), tr("Lecture &hall (large)")}}) {
        QAction *a = themes->addAction(label);
        a->setObjectName(QStringLiteral("theme-") + name);
        a->setCheckable(true);
        a->setData(name);
        m_themeGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, name] { setThemeByName(name); });
    }
    view->addSeparator();
    view->addAction(m_actions->present);
    m_presentation->addMenus(view);
    QAction *reset = view->addAction(tr("&Reset layout"));
    reset->setObjectName(QStringLiteral("resetLayout"));
    reset->setToolTip(tr("The docks, the window's size and the lanes as on a first start"));
    connect(reset, &QAction::triggered, this, &MainWindow::resetLayout);
    view->addSeparator();
    m_viewMenu = view;

    QMenu *play = menuBar()->addMenu(tr("&Playback"));
    play->addAction(m_actions->play);
    play->addAction(m_actions->previous);
    play->addAction(m_actions->next);
    play->addAction(m_actions->showAll);
    play->addSeparator();
    play->addAction(m_prevSceneAct);
    play->addAction(m_nextSceneAct);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *tour = help->addAction(tr("Quick &tour"));
    tour->setObjectName(QStringLiteral("tour"));
    connect(tour, &QAction::triggered, this, &MainWindow::startQuickTour);
    help->addMenu(m_lessonsMenu);
    QAction *about = help->addAction(tr("&About FenceScope"));
    about->setObjectName(QStringLiteral("about"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] {
        if (m_dialogs->isInteractive())
            m_dialogs->showAbout();
    });
}

void MainWindow::createToolBar()
{
    // It fits 1280 px (a projector) with nothing pushed behind the » extension: the file,
    // undo and zoom actions are icons (their names are in tooltips and menus), the lesson's
    // switches keep their words, and the Add actions share one menu button.
    QToolBar *tb = addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("mainToolBar"));
    tb->setMovable(false);
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    const auto iconOnly = [tb](QAction *a) {
        tb->addAction(a);
        if (auto *b = qobject_cast<QToolButton *>(tb->widgetForAction(a)))
            b->setToolButtonStyle(Qt::ToolButtonIconOnly);
        if (a->toolTip() == a->iconText() && !a->shortcut().isEmpty())
            a->setToolTip(QStringLiteral("%1 (%2)").arg(
                a->iconText(), a->shortcut().toString(QKeySequence::NativeText)));
    };
    iconOnly(m_actions->open);
    iconOnly(m_actions->save);
    tb->addSeparator();
    iconOnly(m_actions->undo);
    iconOnly(m_actions->redo);
    tb->addSeparator();
    tb->addAction(m_actions->fencing);
    tb->addWidget(new QLabel(tr("  Rule: "), tb));
    m_rule = new QComboBox(tb);
    m_rule->setObjectName(QStringLiteral("rule"));
    m_rule->addItem(tr("reject token < max (lt)"), int(Core::FenceRule::Lt));
    m_rule->addItem(tr("reject token <= max (le)"), int(Core::FenceRule::Le));
    m_rule->setToolTip(tr("How the storage compares an arriving token with max_token"));
    connect(m_rule, &QComboBox::activated, this,
            [this](int i) { setRule(Core::FenceRule(m_rule->itemData(i).toInt())); });
    tb->addWidget(m_rule);
    tb->addAction(m_actions->compare);
    tb->addAction(m_actions->present);
    tb->addSeparator();
    auto *add = new QToolButton(tb);
    add->setObjectName(QStringLiteral("addButton"));
    add->setText(tr("Add"));
    add->setToolTip(
        tr("Add an acquire, a write, a pause or a release at the playhead, or a client"));
    add->setPopupMode(QToolButton::InstantPopup);
    add->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *addMenu = new QMenu(add);
    for (QAction *a :
         {m_actions->addAcquire, m_actions->addWrite, m_actions->addPause, m_actions->addRelease})
        addMenu->addAction(a);
    addMenu->addSeparator();
    addMenu->addAction(m_actions->addClient);
    add->setMenu(addMenu);
    tb->addWidget(add);
    tb->addSeparator();
    iconOnly(m_actions->zoomOut);
    iconOnly(m_actions->zoomIn);
    iconOnly(m_actions->fit);
}
