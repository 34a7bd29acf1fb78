// MainWindow, part: its actions, menus and toolbar. Each action says what it does in a
// lambda; the state it shows (checked, enabled) follows the document and the view state.
// Built once, by the constructor (mainwindow.cpp).

#include "mainwindow.h"

#include "aboutdialog.h"
#include "document.h"
#include "editcommands.h"
#include "livedialog.h"
#include "playback.h"
#include "presentationcontroller.h"
#include "summarystrip.h"
#include "timelineview.h"
#include "viewstate.h"

#include "scenariofile.h"
#include "tokensource.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QGuiApplication>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <algorithm>

namespace {

// Every binding once: an action that lists a key twice (Ctrl+Shift+Z given by hand and again
// through QKeySequence::Redo on platforms whose Redo is Ctrl+Shift+Z) makes Qt call the key
// "ambiguous" and do nothing.
QList<QKeySequence> keys(std::initializer_list<QKeySequence> own,
                         QKeySequence::StandardKey standard = QKeySequence::UnknownKey)
{
    QList<QKeySequence> all(own);
    if (standard != QKeySequence::UnknownKey)
        all += QKeySequence::keyBindings(standard);
    QList<QKeySequence> unique;
    for (const QKeySequence &k : all)
        if (!k.isEmpty() && !unique.contains(k))
            unique << k;
    return unique;
}

} // namespace

void MainWindow::createActions()
{
    const auto make = [this](const QString &name, const QString &text,
                             const QKeySequence &key = {}) {
        auto *a = new QAction(text, this);
        a->setObjectName(name);
        if (!key.isEmpty())
            a->setShortcut(key);
        addAction(a); // shortcuts work with menus and toolbars hidden too
        return a;
    };

    m_newAct = make(QStringLiteral("new"), tr("&New"), QKeySequence::New);
    connect(m_newAct, &QAction::triggered, this, &MainWindow::newScenario);
    m_openAct = make(QStringLiteral("open"), tr("&Open…"), QKeySequence::Open);
    connect(m_openAct, &QAction::triggered, this, &MainWindow::open);
    m_saveAct = make(QStringLiteral("save"), tr("&Save"), QKeySequence::Save);
    connect(m_saveAct, &QAction::triggered, this, &MainWindow::save);
    m_saveAsAct = make(QStringLiteral("saveAs"), tr("Save &As…"), QKeySequence::SaveAs);
    connect(m_saveAsAct, &QAction::triggered, this, &MainWindow::saveAs);
    m_quitAct = make(QStringLiteral("quit"), tr("&Quit"), QKeySequence::Quit);
    connect(m_quitAct, &QAction::triggered, this, &QWidget::close);

    m_undoAct = m_doc->undoStack()->createUndoAction(this, tr("&Undo"));
    m_undoAct->setObjectName(QStringLiteral("undo"));
    m_undoAct->setShortcuts(keys({}, QKeySequence::Undo));
    addAction(m_undoAct);
    m_redoAct = m_doc->undoStack()->createRedoAction(this, tr("&Redo"));
    m_redoAct->setObjectName(QStringLiteral("redo"));
    m_redoAct->setShortcuts(keys({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)}, QKeySequence::Redo));
    addAction(m_redoAct);

    m_fencingAct = make(QStringLiteral("fencing"), tr("&Fencing"), QKeySequence(Qt::Key_F));
    m_fencingAct->setCheckable(true);
    m_fencingAct->setToolTip(tr("Fencing on/off (F): does the storage check tokens?"));
    connect(m_fencingAct, &QAction::triggered, this, [this](bool on) {
        if (on != m_doc->scenario().fencing)
            m_doc->undoStack()->push(EditCommands::setFencing(m_doc, on));
    });
    m_compareAct =
        make(QStringLiteral("compare"), tr("&Compare fenced / unfenced"), QKeySequence(Qt::Key_C));
    m_compareAct->setCheckable(true);
    m_compareAct->setToolTip(tr("Show the same schedule with fencing on and off, one above the "
                                "other (C)"));
    connect(m_compareAct, &QAction::toggled, m_state, &ViewState::setCompare);
    connect(m_state, &ViewState::compareChanged, this, [this](bool on) {
        if (isPresenting()) {
            m_presentation->fit();
            return;
        }
        // two stacks of lanes need the height: the event log steps aside while comparing
        // (View > Event log brings it back) and returns when compare mode ends
        if (auto *log = findChild<QDockWidget *>(QStringLiteral("eventLogDock"))) {
            if (on && log->isVisible()) {
                log->hide();
                m_logHiddenForCompare = true;
            } else if (!on && m_logHiddenForCompare) {
                log->show();
                resizeDocks({log}, {logHeight()}, Qt::Vertical);
                m_logHiddenForCompare = false;
            }
        }
        fitSplitter();
    });
    connect(m_state, &ViewState::compareChanged, m_compareAct, &QAction::setChecked);
    connect(m_state, &ViewState::compareSourceChanged, this, [this] {
        const std::optional<Core::TokenSource> src = m_state->compareSource();
        m_compareAct->setText(src ? tr("&Compare %1 / %2 tokens")
                                        .arg(Core::toString(m_doc->scenario().tokens), Core::toString(*src))
                                  : tr("&Compare fenced / unfenced"));
    });
    connect(m_state, &ViewState::compareChanged, m_summary, &SummaryStrip::setCompare);
    connect(m_state, &ViewState::compareSourceChanged, m_summary,
            [this] { m_summary->setCompareSource(m_state->compareSource()); });

    m_zoomInAct = make(QStringLiteral("zoomIn"), tr("Zoom &in"));
    m_zoomInAct->setShortcuts(
        keys({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}, QKeySequence::ZoomIn));
    m_zoomOutAct = make(QStringLiteral("zoomOut"), tr("Zoom &out"));
    m_zoomOutAct->setShortcuts(keys({QKeySequence(Qt::Key_Minus)}, QKeySequence::ZoomOut));
    m_fitAct = make(QStringLiteral("fit"), tr("&Fit to window"));
    m_fitAct->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_0), QKeySequence(Qt::Key_Home)});
    auto *view = m_timeline;
    connect(m_zoomInAct, &QAction::triggered, view, &TimelineView::zoomIn);
    connect(m_zoomOutAct, &QAction::triggered, view, &TimelineView::zoomOut);
    connect(m_fitAct, &QAction::triggered, view, &TimelineView::fitToWindow);

    m_playAct = make(QStringLiteral("play"), tr("&Play"), QKeySequence(Qt::Key_Space));
    m_playAct->setToolTip(tr("Play / pause (Space)"));
    connect(m_playAct, &QAction::triggered, m_playback, &Playback::toggle);
    connect(m_playback, &Playback::playingChanged, this, [this](bool playing) {
        m_playAct->setText(playing ? tr("&Pause") : tr("&Play"));
        applyIcons();
    });
    m_prevAct =
        make(QStringLiteral("previousEvent"), tr("P&revious event"), QKeySequence(Qt::Key_Left));
    m_prevAct->setToolTip(tr("Move the playhead to the previous event (Left)"));
    connect(m_prevAct, &QAction::triggered, this, &MainWindow::stepPreviousEvent);
    m_nextAct = make(QStringLiteral("nextEvent"), tr("&Next event"), QKeySequence(Qt::Key_Right));
    m_nextAct->setToolTip(tr("Move the playhead to the next event (Right)"));
    connect(m_nextAct, &QAction::triggered, this, &MainWindow::stepNextEvent);
    m_showAllAct = make(QStringLiteral("showAll"), tr("Show &all"), QKeySequence(Qt::Key_End));
    m_showAllAct->setToolTip(tr("Remove the playhead and show the whole run (End)"));
    connect(m_showAllAct, &QAction::triggered, this, [this] {
        m_playback->pause();
        m_state->clearPlayhead();
    });

    m_addClientAct = make(QStringLiteral("addClient"), tr("Add &client"));
    connect(m_addClientAct, &QAction::triggered, this, &MainWindow::addClient);
    m_removeClientAct = make(QStringLiteral("removeClient"), tr("Remove client"));
    connect(m_removeClientAct, &QAction::triggered, this, &MainWindow::removeClient);
    m_addAcquireAct = make(QStringLiteral("addAcquire"), tr("Add &acquire"));
    connect(m_addAcquireAct, &QAction::triggered, this,
            [this] { addScenarioAction(Core::ActionKind::Acquire); });
    m_addWriteAct = make(QStringLiteral("addWrite"), tr("Add &write"));
    connect(m_addWriteAct, &QAction::triggered, this,
            [this] { addScenarioAction(Core::ActionKind::Write); });
    m_addPauseAct = make(QStringLiteral("addPause"), tr("Add &pause"));
    connect(m_addPauseAct, &QAction::triggered, this,
            [this] { addScenarioAction(Core::ActionKind::Pause); });
    m_addReleaseAct = make(QStringLiteral("addRelease"), tr("Add r&elease"));
    connect(m_addReleaseAct, &QAction::triggered, this,
            [this] { addScenarioAction(Core::ActionKind::Release); });
    m_deleteAct = make(QStringLiteral("delete"), tr("&Delete action"), QKeySequence::Delete);
    connect(m_deleteAct, &QAction::triggered, this, &MainWindow::deleteSelected);

    m_exportAct =
        make(QStringLiteral("export"), tr("&Export Picture…"), QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAct->setToolTip(tr("Save the timeline as PNG, SVG or PDF for slides (Ctrl+E)"));
    connect(m_exportAct, &QAction::triggered, this, &MainWindow::exportWithDialog);
    m_storyboardAct = make(QStringLiteral("exportStoryboard"), tr("Export &Storyboard…"));
    m_storyboardAct->setToolTip(tr("One picture per step of the story: numbered PNGs or a "
                                   "multi-page PDF"));
    connect(m_storyboardAct, &QAction::triggered, this, &MainWindow::exportStoryboardWithDialog);
    m_animationAct = make(QStringLiteral("exportAnimation"), tr("Export Ani&mation…"));
    m_animationAct->setToolTip(tr("The run as it plays, a caption per step: an animated GIF or "
                                  "an MP4 or WebM video"));
    connect(m_animationAct, &QAction::triggered, this, &MainWindow::exportAnimationWithDialog);
    m_copyImageAct = make(QStringLiteral("copyImage"), tr("Copy as &Image"),
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyImageAct->setToolTip(tr("Put the picture (as the last export, or at 1920 px on white) "
                                  "on the clipboard"));
    connect(m_copyImageAct, &QAction::triggered, this, [this] { copyAsImage(); });
    m_presentAct = make(QStringLiteral("present"), tr("&Presentation"), QKeySequence(Qt::Key_F11));
    m_presentAct->setCheckable(true);
    m_presentAct->setToolTip(tr("Presentation: full screen, large text, one step per key press "
                                "(F11; Esc leaves)"));
    connect(m_presentAct, &QAction::triggered, this, &MainWindow::setPresenting);

    m_liveAct = make(QStringLiteral("runOnEtcd"), tr("Run on &etcd…"));
    m_liveAct->setToolTip(tr("Run the scenario on a real etcd, in real time, and compare what it "
                             "did with the prediction"));
    connect(m_liveAct, &QAction::triggered, this, [this] {
        if (!m_liveDialog)
            m_liveDialog = new LiveDialog(m_doc, m_state, this);
        m_liveDialog->show();
        m_liveDialog->raise();
        m_liveDialog->activateWindow();
    });

    // keys without modifiers must not fire while the user types in the inspector; line edits
    // and spin boxes claim them through ShortcutOverride, so window shortcuts are safe
    for (QAction *a : {m_fencingAct, m_compareAct, m_playAct, m_prevAct, m_nextAct, m_deleteAct})
        a->setShortcutContext(Qt::WindowShortcut);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newAct);
    file->addAction(m_openAct);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(m_openLessonAct);
    file->addAction(m_closeLessonAct);
    file->addAction(m_exportVotesAct);
    file->addSeparator();
    file->addAction(m_saveAct);
    file->addAction(m_saveAsAct);
    file->addSeparator();
    file->addAction(m_exportAct);
    file->addAction(m_storyboardAct);
    file->addAction(m_animationAct);
    file->addSeparator();
    file->addAction(m_quitAct);
    rebuildRecentMenu();

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undoAct);
    edit->addAction(m_redoAct);
    edit->addSeparator();
    edit->addAction(m_copyImageAct);
    edit->addSeparator();
    edit->addAction(m_addAcquireAct);
    edit->addAction(m_addWriteAct);
    edit->addAction(m_addPauseAct);
    edit->addAction(m_addReleaseAct);
    edit->addAction(m_deleteAct);
    edit->addSeparator();
    edit->addAction(m_addClientAct);
    edit->addAction(m_removeClientAct);

    QMenu *sim = menuBar()->addMenu(tr("&Simulation"));
    sim->addAction(m_fencingAct);
    QMenu *rule = sim->addMenu(tr("Storage &rule"));
    QAction *lt = rule->addAction(tr("token < max_token rejects (lt, correct)"));
    lt->setObjectName(QStringLiteral("ruleLt"));
    connect(lt, &QAction::triggered, this, [this] { setRule(Core::FenceRule::Lt); });
    QAction *le = rule->addAction(tr("token <= max_token rejects (le, too strict)"));
    le->setObjectName(QStringLiteral("ruleLe"));
    connect(le, &QAction::triggered, this, [this] { setRule(Core::FenceRule::Le); });
    // where tokens come from (docs/SCENARIO.md section 9): one undo step, the same schedule
    QMenu *tokens = sim->addMenu(tr("&Token source"));
    tokens->setObjectName(QStringLiteral("tokenSourceMenu"));
    m_tokenGroup = new QActionGroup(this);
    for (int i = 0; i < Core::kTokenSourceCount; ++i) {
        const auto src = Core::TokenSource(i);
        QAction *a = tokens->addAction(
            QStringLiteral("%1 (%2)").arg(Core::toString(src), Core::describeSource(src)));
        a->setObjectName(QStringLiteral("tokens-") + Core::toString(src));
        a->setCheckable(true);
        a->setData(i);
        m_tokenGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, src] {
            if (m_doc->scenario().tokens != src)
                m_doc->undoStack()->push(EditCommands::setTokenSource(m_doc, src));
        });
    }
    sim->addAction(m_compareAct);
    // What compare mode puts under the scenario's run: the same schedule unfenced, or under
    // another token source (issue of the lesson "which sources keep the order?")
    QMenu *against = sim->addMenu(tr("Compare &with"));
    against->setObjectName(QStringLiteral("compareWithMenu"));
    auto *againstGroup = new QActionGroup(this);
    const auto addAgainst = [this, against, againstGroup](const QString &text, const QString &name,
                                                          std::optional<Core::TokenSource> src) {
        QAction *a = against->addAction(text);
        a->setObjectName(name);
        a->setCheckable(true);
        a->setChecked(m_state->compareSource() == src);
        againstGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, src] {
            m_state->setCompareSource(src);
            m_state->setCompare(true);
        });
        connect(m_state, &ViewState::compareSourceChanged, a,
                [this, a, src] { a->setChecked(m_state->compareSource() == src); });
    };
    addAgainst(tr("Fencing off (the same schedule unfenced)"), QStringLiteral("compareWith-fencing"),
               std::nullopt);
    against->addSeparator();
    for (int i = 0; i < Core::kTokenSourceCount; ++i) {
        const auto src = Core::TokenSource(i);
        addAgainst(tr("%1 tokens (%2)").arg(Core::toString(src), Core::describeSource(src)),
                   QStringLiteral("compareWith-") + Core::toString(src), src);
    }
    sim->addSeparator();
    sim->addAction(m_liveAct);

    QMenu *scenarios = menuBar()->addMenu(tr("S&cenarios"));
    scenarios->setObjectName(QStringLiteral("scenariosMenu"));
    // grouped as a course takes them, a section each
    for (const Core::ScenarioFile::BuiltinGroup &group : Core::ScenarioFile::builtinGroups()) {
        scenarios->addSection(group.title);
        for (const QString &name : group.names) {
            const Core::LoadResult r =
                Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
            QAction *a = scenarios->addAction(r.ok() && !r.scenario->title.isEmpty()
                                                  ? r.scenario->title
                                                  : name);
            a->setObjectName(QStringLiteral("preset-") + name);
            a->setData(name);
            connect(a, &QAction::triggered, this, [this, name] {
                if (maybeSave())
                    openPreset(name);
            });
        }
    }

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_zoomInAct);
    view->addAction(m_zoomOutAct);
    view->addAction(m_fitAct);
    view->addSeparator();
    view->addAction(m_compareAct);
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
    view->addAction(m_presentAct);
    QMenu *presTheme = view->addMenu(tr("Presentation t&heme"));
    auto *presThemes = new QActionGroup(presTheme);
    const QString chosenTheme = m_presentation->theme().name;
    for (const auto &[name, label] :
         {std::pair{QStringLiteral("contrast"), tr("Lecture hall: black on white")},
          std::pair{QStringLiteral("dark"), tr("Dark")},
          std::pair{QStringLiteral("light"), tr("Light")}}) {
        QAction *a = presTheme->addAction(label);
        a->setObjectName(QStringLiteral("presentationTheme-") + name);
        a->setCheckable(true);
        a->setChecked(name == chosenTheme);
        presThemes->addAction(a);
        connect(a, &QAction::triggered, this, [this, name] {
            m_presentation->setSetting(QLatin1String(PresentationController::kThemeKey), name);
        });
    }
    QMenu *presSize = view->addMenu(tr("Presentation text si&ze"));
    auto *presSizes = new QActionGroup(presSize);
    const double chosenScale =
        QSettings()
            .value(QLatin1String(PresentationController::kScaleKey), PresentationController::kScaleDefault)
            .toDouble();
    for (const double scale : {1.3, 1.6, 2.0, 2.5}) {
        QAction *a = presSize->addAction(tr("%1×").arg(scale));
        a->setCheckable(true);
        a->setChecked(std::abs(scale - chosenScale) < 0.01);
        presSizes->addAction(a);
        connect(a, &QAction::triggered, this, [this, scale] {
            m_presentation->setSetting(QLatin1String(PresentationController::kScaleKey), scale);
        });
    }
    // a laptop and a projector: presentation opens full screen on the projector, and the
    // window comes back to the laptop's screen when it ends
    QMenu *presOn = view->addMenu(tr("Present &on"));
    presOn->setObjectName(QStringLiteral("presentOn"));
    connect(presOn, &QMenu::aboutToShow, this, [this, presOn] {
        presOn->clear();
        auto *group = new QActionGroup(presOn);
        const QString chosen =
            QSettings().value(QLatin1String(PresentationController::kScreenKey)).toString();
        const auto add = [&](const QString &label, const QString &name) {
            QAction *a = presOn->addAction(label);
            a->setCheckable(true);
            a->setData(name);
            a->setChecked(name == chosen);
            group->addAction(a);
            connect(a, &QAction::triggered, this, [name] {
                QSettings().setValue(QLatin1String(PresentationController::kScreenKey), name);
            });
        };
        add(tr("The window's screen"), QString());
        for (const QScreen *screen : QGuiApplication::screens())
            add(tr("%1 (%2×%3)")
                    .arg(screen->name())
                    .arg(screen->size().width())
                    .arg(screen->size().height()),
                screen->name());
    });
    QAction *reset = view->addAction(tr("&Reset layout"));
    reset->setObjectName(QStringLiteral("resetLayout"));
    reset->setToolTip(tr("The docks, the window's size and the lanes as on a first start"));
    connect(reset, &QAction::triggered, this, &MainWindow::resetLayout);
    view->addSeparator();
    m_viewMenu = view;

    QMenu *play = menuBar()->addMenu(tr("&Playback"));
    play->addAction(m_playAct);
    play->addAction(m_prevAct);
    play->addAction(m_nextAct);
    play->addAction(m_showAllAct);
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
        if (m_interactive)
            AboutDialog(this).exec();
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
            a->setToolTip(QStringLiteral("%1 (%2)").arg(a->iconText(),
                                                          a->shortcut().toString(QKeySequence::NativeText)));
    };
    iconOnly(m_openAct);
    iconOnly(m_saveAct);
    tb->addSeparator();
    iconOnly(m_undoAct);
    iconOnly(m_redoAct);
    tb->addSeparator();
    tb->addAction(m_fencingAct);
    tb->addWidget(new QLabel(tr("  Rule: "), tb));
    m_rule = new QComboBox(tb);
    m_rule->setObjectName(QStringLiteral("rule"));
    m_rule->addItem(tr("reject token < max (lt)"), int(Core::FenceRule::Lt));
    m_rule->addItem(tr("reject token <= max (le)"), int(Core::FenceRule::Le));
    m_rule->setToolTip(tr("How the storage compares an arriving token with max_token"));
    connect(m_rule, &QComboBox::activated, this,
            [this](int i) { setRule(Core::FenceRule(m_rule->itemData(i).toInt())); });
    tb->addWidget(m_rule);
    tb->addAction(m_compareAct);
    tb->addAction(m_presentAct);
    tb->addSeparator();
    auto *add = new QToolButton(tb);
    add->setObjectName(QStringLiteral("addButton"));
    add->setText(tr("Add"));
    add->setToolTip(tr("Add an acquire, a write, a pause or a release at the playhead, or a client"));
    add->setPopupMode(QToolButton::InstantPopup);
    add->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *addMenu = new QMenu(add);
    for (QAction *a : {m_addAcquireAct, m_addWriteAct, m_addPauseAct, m_addReleaseAct})
        addMenu->addAction(a);
    addMenu->addSeparator();
    addMenu->addAction(m_addClientAct);
    add->setMenu(addMenu);
    tb->addWidget(add);
    tb->addSeparator();
    iconOnly(m_zoomOutAct);
    iconOnly(m_zoomInAct);
    iconOnly(m_fitAct);
}
