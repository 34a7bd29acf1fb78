#include "mainwindow.h"

#include "tokensource.h"

#include "autosaver.h"
#include "document.h"
#include "editcommands.h"
#include "eventlogmodel.h"
#include "exportdialog.h"
#include "inspector.h"
#include "narrationpanel.h"
#include "playback.h"
#include "presentationcontrols.h"
#include "presentationpanel.h"
#include "aboutdialog.h"
#include "changethrottle.h"
#include "quicktour.h"
#include "shrinkpanel.h"
#include "statereport.h"
#include "sweeppanel.h"
#include "summarystrip.h"
#include "tickfield.h"
#include "timelinerenderer.h"
#include "toolicons.h"
#include "timelineview.h"
#include "tokenchart.h"
#include "viewstate.h"

#include "explain.h"
#include "scenariofile.h"
#include "simulator.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QWindow>

#include <algorithm>
#include <climits>

namespace {

constexpr int kMaxRecent = 8;
const char *const kRecentKey = "recentFiles";
const char *const kThemeKey = "theme";
const char *const kPresentationThemeKey = "presentation/theme";
const char *const kPresentationScaleKey = "presentation/fontScale";
constexpr double kPresentationScaleDefault = 1.6;

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

QString displayName(const QString &path)
{
    return path.isEmpty() ? MainWindow::tr("Untitled") : QFileInfo(path).fileName();
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_doc(new Document(this)), m_state(new ViewState(this)),
      m_playback(new Playback(m_state, this))
{
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    createViews();
    createActions();
    // the playback bar's buttons show actions, so it comes after them
    m_playbackBar = createPlaybackBar();
    static_cast<QVBoxLayout *>(centralWidget()->layout())->addWidget(m_playbackBar);
    createMenus();
    createToolBar();
    createDocks();
    connectSelection();
    // Enter on an item of the timeline: to the inspector's first field
    connect(static_cast<TimelineView *>(m_timeline), &TimelineView::inspectRequested, this, [this] {
        if (auto *dock = findChild<QDockWidget *>(QStringLiteral("inspectorDock"))) {
            dock->show();
            dock->raise();
        }
        m_inspector->atEdit()->setFocus(Qt::OtherFocusReason);
    });

    connect(m_doc, &Document::changed, this, &MainWindow::documentChanged);
    connect(m_doc, &Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &Document::filePathChanged, this, &MainWindow::updateTitle);

    // the first run follows the desktop's scheme (a dark window palette: the dark theme)
    const bool darkDesktop = QApplication::palette().color(QPalette::Window).lightness() < 128;
    const QString theme = QSettings()
                              .value(QLatin1String(kThemeKey),
                                     darkDesktop ? QStringLiteral("dark") : QStringLiteral("light"))
                              .toString();
    m_theme = Theme::byName(theme);
    {
        // the last export's "explain the selected outcome" choice, also after a restart
        QSettings settings;
        settings.beginGroup(ExportDialog::settingsGroup());
        m_explainInExport = settings.value(QStringLiteral("explain"), true).toBool();
    }
    for (QAction *a : m_themeGroup->actions())
        a->setChecked(a->data().toString() == m_theme.name);
    applyTheme();

    // Roomy on a desktop monitor, never larger than the screen: a lecture projector is often
    // 1280x800 or 1024x768, and a window hanging off its edge hides the story and inspector.
    QSize size(1600, 1000);
    if (const QScreen *screen = QGuiApplication::primaryScreen()) {
        const QSize room = screen->availableGeometry().size() * 0.96;
        size = size.boundedTo(room);
    }
    resize(size);
    if (auto *story = findChild<QDockWidget *>(QStringLiteral("storyDock")))
        resizeDocks({story}, {std::min(450, size.width() / 4)}, Qt::Horizontal);
    restoreWindowSettings();
    documentChanged(); // the document was filled before the connections existed
    afterLoad();
    updateTitle();

    // the quick tour on the first run (never in tests: setInteractive(false) comes first)
    QTimer::singleShot(0, this, [this] {
        if (m_interactive && QuickTour::shouldShowOnFirstRun())
            startQuickTour();
    });

    m_autosaver = new Autosaver(m_doc, Autosaver::defaultDir(), this);
    connect(m_autosaver, &Autosaver::failed, this, [this](const QString &message) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(message), 8000);
    });
    showIdleHint();
    if (const QString report = qEnvironmentVariable("FENCESCOPE_STATE_FILE"); !report.isEmpty())
        new StateReport(this, report);
}

MainWindow::~MainWindow() = default;

const Core::Scenario &MainWindow::scenario() const
{
    return m_doc->scenario();
}

// ---------------------------------------------------------------------------------------------
// Construction

void MainWindow::createViews()
{
    auto *central = new QWidget(this);
    auto *col = new QVBoxLayout(central);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(0);

    m_summary = new SummaryStrip(m_doc, central);
    col->addWidget(m_summary);

    auto *view = new TimelineView(m_doc, m_state, central);
    m_timeline = view;
    connect(view, &TimelineView::hoverTextChanged, this, &MainWindow::showHoverText);
    m_chart = new TokenChart(m_doc, m_state, central);
    connect(m_chart, &TokenChart::hoverTextChanged, this, &MainWindow::showHoverText);

    // the chart's plot starts where the timeline's lanes start, in both widgets' coordinates
    // Lanes never get cut off: when compare mode (or many clients) needs more height than
    // there is, the timeline scrolls vertically. Time scrolls through the ViewState (wheel,
    // drag), so there is no horizontal scroll bar.
    m_timelineScroll = new QScrollArea(central);
    m_timelineScroll->setObjectName(QStringLiteral("timelineScroll"));
    m_timelineScroll->setWidget(view);
    m_timelineScroll->setWidgetResizable(true);
    m_timelineScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_timelineScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_timelineScroll->setFrameShape(QFrame::NoFrame);
    m_timelineScroll->setFocusProxy(view);
    // the lock and storage lanes are pinned to the bottom of what shows (TimelineView::
    // options()): a scroll or a taller window moves them, so the whole view is painted again
    connect(m_timelineScroll->verticalScrollBar(), &QScrollBar::valueChanged, view,
            qOverload<>(&QWidget::update));
    m_timelineScroll->viewport()->installEventFilter(this);

    m_splitter = new QSplitter(Qt::Vertical, central);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_timelineScroll);
    m_splitter->addWidget(m_chart);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({560, 220});
    m_splitter->installEventFilter(this);
    col->addWidget(m_splitter, 1);

    m_presPanel = new PresentationPanel(m_doc, m_state, central);
    m_presPanel->hide();
    col->addWidget(m_presPanel, 1);
    setCentralWidget(central);

    // over everything else in presentation mode; keys go on working while it shows
    m_presControls = new PresentationControls(this);
    connect(m_presControls, &PresentationControls::back, this, &MainWindow::presentationPrevious);
    connect(m_presControls, &PresentationControls::next, this, &MainWindow::presentationNext);
    connect(m_presControls, &PresentationControls::exit, this, [this] { setPresenting(false); });
}

QWidget *MainWindow::createPlaybackBar()
{
    auto *bar = new QWidget(this);
    bar->setObjectName(QStringLiteral("playbackBar"));
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(8, 4, 8, 4);
    m_slider = new QSlider(Qt::Horizontal, bar);
    m_slider->setObjectName(QStringLiteral("playheadSlider"));
    m_slider->setToolTip(tr("Scrub the playhead: everything after it is dimmed. At the far right "
                            "the whole run is shown."));
    m_tickLabel = new QLabel(bar);
    m_tickLabel->setMinimumWidth(110);
    m_speed = new QComboBox(bar);
    m_speed->setObjectName(QStringLiteral("speed"));
    for (const double tps : {1.0, 2.0, 4.0, 8.0, 16.0, 64.0, 256.0, 1024.0})
        m_speed->addItem(tr("%1 ticks/s").arg(tps), tps);
    m_speed->setCurrentIndex(2);
    m_speed->setToolTip(tr("Playback speed"));
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this] { m_playback->setSpeed(m_speed->currentData().toDouble()); });
    m_playback->setSpeed(m_speed->currentData().toDouble());

    const auto button = [bar](QAction *a) {
        auto *b = new QToolButton(bar);
        b->setDefaultAction(a);
        b->setFocusPolicy(Qt::NoFocus); // Space plays; it must not click a focused button too
        return b;
    };
    auto *prev = button(m_prevAct);
    auto *play = button(m_playAct);
    auto *next = button(m_nextAct);
    auto *all = button(m_showAllAct);
    all->setToolButtonStyle(Qt::ToolButtonTextOnly);
    row->addWidget(prev);
    row->addWidget(play);
    row->addWidget(next);
    row->addWidget(m_slider, 1);
    row->addWidget(m_tickLabel);
    row->addWidget(all);
    row->addWidget(m_speed);

    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (v >= m_slider->maximum())
            m_state->clearPlayhead();
        else
            m_state->setPlayhead(Core::Tick(v));
    });
    connect(m_state, &ViewState::playheadChanged, this, &MainWindow::syncPlaybackBar);
    return bar;
}

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
            fitPresentation();
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
    auto *view = static_cast<TimelineView *>(m_timeline);
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
    file->addAction(m_saveAct);
    file->addAction(m_saveAsAct);
    file->addSeparator();
    file->addAction(m_exportAct);
    file->addAction(m_storyboardAct);
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
    // where tokens come from (SCENARIO.md section 9): one undo step, the same schedule
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

    QMenu *scenarios = menuBar()->addMenu(tr("S&cenarios"));
    scenarios->setObjectName(QStringLiteral("scenariosMenu"));
    for (const QString &name : Core::ScenarioFile::builtinNames()) {
        const Core::LoadResult r = Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
        QAction *a =
            scenarios->addAction(r.ok() && !r.scenario->title.isEmpty() ? r.scenario->title : name);
        a->setObjectName(QStringLiteral("preset-") + name);
        a->setData(name);
        connect(a, &QAction::triggered, this, [this, name] {
            if (maybeSave())
                openPreset(name);
        });
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
    const QString chosenTheme = presentationTheme().name;
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
            setPresentationSetting(QLatin1String(kPresentationThemeKey), name);
        });
    }
    QMenu *presSize = view->addMenu(tr("Presentation text si&ze"));
    auto *presSizes = new QActionGroup(presSize);
    const double chosenScale =
        QSettings()
            .value(QLatin1String(kPresentationScaleKey), kPresentationScaleDefault)
            .toDouble();
    for (const double scale : {1.3, 1.6, 2.0, 2.5}) {
        QAction *a = presSize->addAction(tr("%1×").arg(scale));
        a->setCheckable(true);
        a->setChecked(std::abs(scale - chosenScale) < 0.01);
        presSizes->addAction(a);
        connect(a, &QAction::triggered, this, [this, scale] {
            setPresentationSetting(QLatin1String(kPresentationScaleKey), scale);
        });
    }
    view->addSeparator();
    m_viewMenu = view;

    QMenu *play = menuBar()->addMenu(tr("&Playback"));
    play->addAction(m_playAct);
    play->addAction(m_prevAct);
    play->addAction(m_nextAct);
    play->addAction(m_showAllAct);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *tour = help->addAction(tr("Quick &tour"));
    tour->setObjectName(QStringLiteral("tour"));
    connect(tour, &QAction::triggered, this, &MainWindow::startQuickTour);
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

void MainWindow::createDocks()
{
    m_narration = new NarrationPanel(m_doc, m_state, this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_narration);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *story = new QDockWidget(tr("Story"), this);
    story->setObjectName(QStringLiteral("storyDock"));
    story->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, story);
    // A selection's explanation is what the user asked for: on a short story (a small screen, a
    // tall inspector below) it scrolls into view, its heading at the top when it does not fit,
    // once the panel has laid out the new text.
    connect(m_state, &ViewState::selectionChanged, scroll, [this, scroll] {
        QTimer::singleShot(0, scroll, [this, scroll] {
            if (!m_state->selection().isValid())
                return;
            scroll->widget()->layout()->activate();
            scroll->ensureWidgetVisible(m_narration->selectedExplanation(), 0, 6);
            scroll->ensureWidgetVisible(m_narration->selectedHeading(), 0, 6);
        });
    });

    m_inspector = new Inspector(m_doc, m_state, this);
    connect(m_inspector, &Inspector::deleteRequested, this, &MainWindow::deleteSelected);
    auto *insp = new QDockWidget(tr("Inspector"), this);
    insp->setObjectName(QStringLiteral("inspectorDock"));
    insp->setWidget(m_inspector);
    addDockWidget(Qt::RightDockWidgetArea, insp);

    m_logModel = new EventLogModel(m_doc, this);
    m_log = new QTableView(this);
    m_log->setObjectName(QStringLiteral("eventLog"));
    m_log->setModel(m_logModel);
    m_log->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_log->setSelectionMode(QAbstractItemView::SingleSelection);
    m_log->setAlternatingRowColors(true);
    m_log->setWordWrap(false);
    m_log->verticalHeader()->hide();
    // fixed row heights: the view never measures millions of rows
    m_log->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_log->verticalHeader()->setDefaultSectionSize(m_log->fontMetrics().height() + 8);
    QHeaderView *h = m_log->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setStretchLastSection(true);
    const int widths[] = {56, 70, 110, 60, 70, 110};
    for (int c = 0; c < 6; ++c)
        m_log->setColumnWidth(c, widths[c]);
    auto *log = new QDockWidget(tr("Event log"), this);
    log->setObjectName(QStringLiteral("eventLogDock"));
    log->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, log);

    // the bottom dock spans under the central area only; the story keeps the full height
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    resizeDocks({story, insp}, {560, 330}, Qt::Vertical); // its width: once the window's is known
    resizeDocks({log}, {logHeight()}, Qt::Vertical);

    m_viewMenu->addAction(story->toggleViewAction());
    m_viewMenu->addAction(insp->toggleViewAction());
    m_viewMenu->addAction(log->toggleViewAction());

    // Explore: sweeps over many seeded schedules shaped like the open scenario, and the search
    // for a failing schedule with its shrinking. A tab next to the event log; its chart or its
    // shrink steps open a schedule in the timeline.
    m_sweep = new SweepPanel(this);
    m_shrink = new ShrinkPanel(this);
    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("exploreTabs"));
    tabs->addTab(m_sweep, tr("&Sweep"));
    tabs->addTab(m_shrink, tr("Find and s&hrink"));
    auto *explore = new QDockWidget(tr("Explore"), this);
    explore->setObjectName(QStringLiteral("exploreDock"));
    explore->setWidget(tabs);
    addDockWidget(Qt::BottomDockWidgetArea, explore);
    tabifyDockWidget(log, explore);
    explore->hide(); // until asked for (View > Explore, Ctrl+K): its controls need height
    log->raise();
    // the panels read the scenario when they show and then follow it, paced like the other
    // whole-run views (a drag on a long run does not copy its scenario at every step)
    const auto follow = [this, explore] {
        if (!explore->isVisible())
            return;
        m_sweep->setScenario(m_doc->scenario());
        m_shrink->setScenario(m_doc->scenario());
    };
    new ChangeThrottle(m_doc, explore, follow);
    connect(explore, &QDockWidget::visibilityChanged, this, [follow](bool shown) {
        if (shown)
            follow();
    });
    const auto open = [this](const Core::Scenario &s) { openExplored(s); };
    connect(m_sweep, &SweepPanel::openScenario, this, open);
    connect(m_shrink, &ShrinkPanel::openScenario, this, open);
    connect(m_shrink, &ShrinkPanel::stepScenario, this, open);
    QAction *exploreAct = explore->toggleViewAction();
    exploreAct->setObjectName(QStringLiteral("explore"));
    exploreAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    exploreAct->setToolTip(tr("Sweeps and find-and-shrink (Ctrl+K)"));
    m_viewMenu->addAction(exploreAct);
    addAction(exploreAct);
}

void MainWindow::openExplored(const Core::Scenario &s)
{
    // asks only when there is unsaved work, so stepping through a shrink does not ask; the
    // schedule opens untitled (saving asks where)
    if (!maybeSave())
        return;
    m_doc->reset(s);
    afterLoad();
}

void MainWindow::connectSelection()
{
    // log row -> selection: the row's action is selected everywhere
    connect(m_log->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (m_syncingSelection || !current.isValid())
                    return;
                const int client = current.data(EventLogModel::ClientRole).toInt();
                const int action = current.data(EventLogModel::ActionRole).toInt();
                m_syncingSelection = true;
                m_state->setSelection({client, action});
                m_syncingSelection = false;
                // the log's rows can be ahead of a trace still being finished after a drag
                const std::uint32_t e = EventLogModel::eventOfRow(current.row());
                if (e < m_doc->trace().events.size())
                    revealTick(m_doc->trace().events[e].tick);
            });
    // selection -> log row (the action's outcome event) and the timeline scrolled to it
    connect(m_state, &ViewState::selectionChanged, this, [this](const Selection &sel) {
        if (m_syncingSelection)
            return;
        const Core::Trace &t = m_doc->trace();
        const std::uint32_t e =
            sel.isValid() ? Core::outcomeEvent(m_doc->scenario(), t, std::uint32_t(sel.client),
                                               std::uint32_t(sel.action))
                          : Core::kNone;
        m_syncingSelection = true;
        if (e == Core::kNone) {
            m_log->selectionModel()->clearSelection();
        } else {
            const QModelIndex idx = m_logModel->index(EventLogModel::rowOfEvent(e), 0);
            m_log->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
            m_log->scrollTo(idx);
            revealTick(t.events[e].tick);
        }
        m_syncingSelection = false;
    });
}

// ---------------------------------------------------------------------------------------------
// Document

bool MainWindow::compactHeight() const
{
    // a projector or a small laptop: 1280x800, 1366x768, 1024x768
    const QScreen *screen = QGuiApplication::primaryScreen();
    return screen && screen->availableGeometry().height() < 900;
}

int MainWindow::logHeight() const
{
    // the event log is the third thing to look at: on a short screen it starts with a few rows,
    // so the lanes (storage included) and the chart fit without scrolling
    return compactHeight() ? 112 : 230;
}

void MainWindow::fitSplitter()
{
    // the lanes get the height they need, the chart the rest (but never less than a readable
    // chart): no empty band under the last lane
    auto *view = qobject_cast<TimelineView *>(m_timeline);
    if (!view || !m_splitter)
        return;
    // the handle takes its share of the height too
    const int total =
        (m_splitter->height() > 100 ? m_splitter->height() : 780) - m_splitter->handleWidth();
    const TimelineLayout layout = TimelineRenderer::layout(
        m_doc->scenario(), view->options(), QRectF(0, 0, std::max(400, view->width()), 4000));
    const int want =
        std::max(layout.panels.empty() ? 300 : int(layout.panels.back().rect.bottom()) + 6,
                 view->sizeHint().height());
    // the scroll area shows a scroll bar rather than squeezing the lanes
    view->setMinimumHeight(want);
    if (isPresenting()) {
        fitPresentation();
        return;
    }
    // compare mode: the chart (secondary there) gives its height to the second stack of lanes;
    // on a short screen it gives some to the lanes too
    const int chartMin = m_state->compare() ? 100 : compactHeight() ? 115 : 200;
    m_chart->setMinimumHeight(m_state->compare() ? chartMin : 0);
    const int chart = std::max(chartMin, total - want);
    m_splitter->setSizes({total - chart, chart});
}

void MainWindow::documentChanged()
{
    const Core::Scenario &s = m_doc->scenario();
    m_fencingAct->setChecked(s.fencing);
    m_fencingAct->setText(s.fencing ? tr("Fencing: ON") : tr("Fencing: OFF"));
    // lanes change height only when clients or storages come and go
    const QSize lanes(int(s.clients.size()), int(s.storages.size()));
    if (lanes != m_fittedLanes) {
        m_fittedLanes = lanes;
        fitSplitter();
    }
    const bool anyLe =
        std::any_of(s.storages.begin(), s.storages.end(),
                    [](const Core::StorageSpec &st) { return st.rule == Core::FenceRule::Le; });
    m_rule->setCurrentIndex(anyLe ? 1 : 0);
    for (QAction *a : m_tokenGroup->actions())
        a->setChecked(a->data().toInt() == int(s.tokens));
    m_playback->setEnd(m_doc->trace().horizon);
    // the selection names an action: drop it when the action is gone
    const Selection sel = m_state->selection();
    if (sel.isValid() && (size_t(sel.client) >= s.clients.size() ||
                          size_t(sel.action) >= s.clients[size_t(sel.client)].actions.size()))
        m_state->clearSelection();
    else if (sel.isValid())
        emit m_state->selectionChanged(sel); // its outcome may be another row now
    syncPlaybackBar();
    updateTitle();
    // what the status bar said about the item under the mouse or about F may be stale now (the
    // item moved or is gone, fencing flipped): the hint, for the scenario as it is
    const QString shown = statusBar()->currentMessage();
    if (shown.isEmpty() || shown == m_hoverMessage || shown == m_idleHint)
        showIdleHint();
}

void MainWindow::showHoverText(const QString &text)
{
    if (!text.isEmpty()) {
        m_hoverMessage = text;
        statusBar()->showMessage(text);
    } else if (statusBar()->currentMessage() == m_hoverMessage) {
        showIdleHint(); // the mouse left the item: nothing describes what is not under it
    }
}

void MainWindow::showIdleHint()
{
    m_idleHint = m_doc->scenario().fencing
                     ? tr("Drag pauses, lease ends and writes on the timeline; press F to switch "
                          "fencing off and watch the stale write corrupt the data.")
                     : tr("Drag pauses, lease ends and writes on the timeline; press F to switch "
                          "fencing on and watch the stale write be rejected.");
    m_hoverMessage.clear();
    statusBar()->showMessage(m_idleHint);
}

void MainWindow::updateTitle()
{
    setWindowTitle(
        tr("%1[*] — %2 — FenceScope").arg(displayName(m_doc->filePath()), m_doc->scenario().title));
    setWindowModified(m_doc->isModified());
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // presentation mode watches the whole application: its keys win over every shortcut.
    // A real key press visits the QWindow first and then the focus widget: only the widget's
    // copy is acted on (claiming the window's would swallow the key before any widget saw it).
    if (isPresenting()) {
        const QEvent::Type type = event->type();
        if (type == QEvent::ShortcutOverride || type == QEvent::KeyPress) {
            auto *w = qobject_cast<QWidget *>(watched);
            // claiming the ShortcutOverride keeps Space, Home, End... from firing their
            // actions; the step happens once, on the widget's key press
            if (w && w->window() == this &&
                presentationKey(static_cast<QKeyEvent *>(event), type == QEvent::KeyPress)) {
                event->accept();
                return true;
            }
        } else if (type == QEvent::MouseMove || type == QEvent::TouchBegin ||
                   type == QEvent::MouseButtonPress) {
            // a mouse, a touch screen or a lost clicker: the on-screen buttons come up
            auto *w = qobject_cast<QWidget *>(watched);
            if (w && w->window() == this)
                m_presControls->reveal();
        } else if (type == QEvent::Resize && watched == m_timeline) {
            static_cast<TimelineView *>(m_timeline)->fitToWindow();
        }
    }
    if (m_timelineScroll && watched == m_timelineScroll->viewport() &&
        event->type() == QEvent::Resize)
        m_timeline->update();
    // the splitter's height settles after the window's (docks, toolbar): fit when it does
    if (watched == m_splitter && event->type() == QEvent::Resize)
        fitSplitter();
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::afterLoad()
{
    m_playback->pause();
    m_state->clearPlayhead();
    m_state->clearSelection();
    if (auto *view = qobject_cast<TimelineView *>(m_timeline); view && view->isVisible())
        view->fitToWindow();
    selectMostInteresting();
}

void MainWindow::selectMostInteresting()
{
    const Core::Trace &t = m_doc->trace();
    for (const Core::WriteResult wanted :
         {Core::WriteResult::Corrupted, Core::WriteResult::Rejected,
          Core::WriteResult::LockedOut}) {
        for (const Core::Write &w : t.writes) {
            if (w.result == wanted) {
                m_state->setSelection({int(w.client), int(w.action)});
                return;
            }
        }
    }
}

bool MainWindow::openFile(const QString &path)
{
    const Core::LoadResult r = Core::ScenarioFile::load(path);
    if (!r.ok()) {
        // the current scenario stays open, untouched
        reportError(tr("Cannot open scenario"),
                    tr("%1\n\n%2").arg(QDir::toNativeSeparators(path), r.error));
        return false;
    }
    m_doc->reset(*r.scenario, path);
    addRecentFile(path);
    afterLoad();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool MainWindow::openPreset(const QString &name)
{
    const Core::LoadResult r = Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
    if (!r.ok()) {
        reportError(tr("Cannot open scenario"), r.error);
        return false;
    }
    // a preset is a starting point, not a file of the user's: saving asks for a path
    m_doc->reset(*r.scenario);
    afterLoad();
    return true;
}

void MainWindow::openAtStart(const QString &path)
{
    if (!openFile(path))
        statusBar()->showMessage(tr("Could not open %1; showing the default scenario.").arg(path));
}

bool MainWindow::saveTo(const QString &path)
{
    QString error;
    if (!Core::ScenarioFile::save(m_doc->scenario(), path, &error)) {
        reportError(tr("Cannot save scenario"), error);
        return false;
    }
    m_doc->setFilePath(path);
    m_doc->markSaved();
    addRecentFile(path);
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

void MainWindow::newScenario()
{
    if (!maybeSave())
        return;
    m_doc->reset(Core::ScenarioFile::defaultScenario());
    afterLoad();
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString path = askOpenPath();
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::save()
{
    if (m_doc->filePath().isEmpty())
        return saveAs();
    return saveTo(m_doc->filePath());
}

bool MainWindow::saveAs()
{
    const QString path = askSavePath();
    return !path.isEmpty() && saveTo(path);
}

bool MainWindow::maybeSave()
{
    if (!m_doc->isModified())
        return true;
    switch (askUnsavedChanges()) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(QLatin1String(kRecentKey)).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecent)
        files.removeLast();
    settings.setValue(QLatin1String(kRecentKey), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (const QString &f : files) {
        QAction *a = m_recentMenu->addAction(QDir::toNativeSeparators(f));
        connect(a, &QAction::triggered, this, [this, f] {
            if (maybeSave())
                openFile(f);
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

// ---------------------------------------------------------------------------------------------
// Dialog hooks

void MainWindow::reportError(const QString &title, const QString &message)
{
    m_lastError = message;
    statusBar()->showMessage(message.section(QLatin1Char('\n'), -1), 8000);
    if (m_interactive)
        QMessageBox::warning(this, title, message);
}

QMessageBox::StandardButton MainWindow::askUnsavedChanges()
{
    if (!m_interactive)
        return m_unsavedAnswer;
    return QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("“%1” has unsaved changes. Save them first?").arg(displayName(m_doc->filePath())),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
}

QString MainWindow::askOpenPath()
{
    if (!m_interactive)
        return m_nextPath;
    return QFileDialog::getOpenFileName(this, tr("Open scenario"),
                                        QFileInfo(m_doc->filePath()).path(),
                                        tr("FenceScope scenarios (*.json);;All files (*)"));
}

QString MainWindow::askSavePath()
{
    if (!m_interactive)
        return m_nextPath;
    QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"),
                                                m_doc->filePath().isEmpty() ? tr("scenario.json")
                                                                            : m_doc->filePath(),
                                                tr("FenceScope scenarios (*.json)"));
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return path;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (maybeSave()) {
        m_playback->pause();
        saveWindowSettings();
        event->accept();
    } else {
        event->ignore();
    }
}

void MainWindow::saveWindowSettings()
{
    if (isPresenting())
        return; // full screen with the docks put away is not the window to come back to
    QSettings settings;
    settings.beginGroup(QStringLiteral("window"));
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState(kWindowStateVersion));
}

void MainWindow::restoreWindowSettings()
{
    // where the window was, its docks and toolbar; a geometry off every screen now (a projector
    // unplugged) is put back on one by restoreGeometry()
    QSettings settings;
    settings.beginGroup(QStringLiteral("window"));
    const QByteArray geometry = settings.value(QStringLiteral("geometry")).toByteArray();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = settings.value(QStringLiteral("state")).toByteArray();
    if (!state.isEmpty())
        restoreState(state, kWindowStateVersion);
}

void MainWindow::startQuickTour()
{
    if (findChild<QuickTour *>())
        return; // one at a time
    if (isPresenting())
        setPresenting(false); // the tour points at menus, toolbar and docks
    (new QuickTour(this, QuickTour::defaultSteps()))->start();
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
    if (maybeSave())
        openFile(urls.front().toLocalFile());
}

// ---------------------------------------------------------------------------------------------
// Playback

void MainWindow::stepNextEvent()
{
    Core::Tick t = 0;
    m_playback->pause();
    if (Playback::nextEventTick(m_doc->trace(), *m_state, &t)) {
        m_state->setPlayhead(t);
        revealTick(t);
    }
}

void MainWindow::stepPreviousEvent()
{
    Core::Tick t = 0;
    m_playback->pause();
    if (Playback::previousEventTick(m_doc->trace(), *m_state, &t)) {
        m_state->setPlayhead(t);
        revealTick(t);
    }
}

void MainWindow::syncPlaybackBar()
{
    const Core::Tick horizon = std::max<Core::Tick>(1, m_doc->trace().horizon);
    // a slider holds an int: very long runs scrub in coarser steps is not needed below 2^31
    const int max = int(std::min<Core::Tick>(horizon, Core::Tick(INT_MAX - 1)));
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, max);
    m_slider->setPageStep(std::max(1, max / 20));
    if (m_state->hasPlayhead()) {
        m_slider->setValue(int(std::min<Core::Tick>(m_state->playhead(), Core::Tick(max))));
        m_tickLabel->setText(tr("t = %1").arg(qulonglong(m_state->playhead())));
    } else {
        m_slider->setValue(max);
        m_tickLabel->setText(tr("whole run"));
    }
}

void MainWindow::revealTick(Core::Tick tick)
{
    auto *view = qobject_cast<TimelineView *>(m_timeline);
    if (!view)
        return;
    const double plotWidth =
        std::max(1.0, view->width() - TimelineRenderer::headerWidth(view->options()));
    const double first = m_state->firstTick();
    const double last = first + plotWidth / m_state->pixelsPerTick();
    const double margin = (last - first) * 0.05;
    if (double(tick) < first + margin || double(tick) > last - margin) {
        // centre it, but never scroll further left than tick 0 (or than already shown): an
        // early event in a run shown whole must not push half the screen into negative time
        const double centred = double(tick) - (last - first) / 2;
        m_state->setAxis(std::max(centred, std::min(first, 0.0)), m_state->pixelsPerTick());
    }
}

// ---------------------------------------------------------------------------------------------
// Editing

int MainWindow::targetClient() const
{
    const Selection sel = m_state->selection();
    if (sel.client >= 0 && size_t(sel.client) < m_doc->scenario().clients.size())
        return sel.client;
    return m_doc->scenario().clients.empty() ? -1 : 0;
}

Core::Tick MainWindow::targetTick() const
{
    if (m_state->hasPlayhead())
        return m_state->playhead();
    const Selection sel = m_state->selection();
    const Core::Scenario &s = m_doc->scenario();
    if (sel.isValid() && size_t(sel.client) < s.clients.size() &&
        size_t(sel.action) < s.clients[size_t(sel.client)].actions.size())
        return s.clients[size_t(sel.client)].actions[size_t(sel.action)].at + 1;
    // the middle of what is on screen
    auto *view = qobject_cast<TimelineView *>(m_timeline);
    const double width =
        view ? view->width() - TimelineRenderer::headerWidth(view->options()) : 400;
    const double mid = m_state->firstTick() + width / 2 / m_state->pixelsPerTick();
    return mid < 0 ? 0 : Core::Tick(mid);
}

void MainWindow::addScenarioAction(Core::ActionKind kind)
{
    const int c = targetClient();
    if (c < 0) {
        addClient();
        return;
    }
    const Core::Tick at = targetTick();
    const Core::Client &client = m_doc->scenario().clients[size_t(c)];
    Core::Action a;
    switch (kind) {
    case Core::ActionKind::Acquire:
        a = Core::Action::acquire(at, 10);
        break;
    case Core::ActionKind::Write:
        a = Core::Action::write(at, client.name);
        break;
    case Core::ActionKind::Pause:
        a = Core::Action::pause(at, 10);
        break;
    case Core::ActionKind::Release:
        a = Core::Action::release(at);
        break;
    case Core::ActionKind::Read:
        a = Core::Action::read(at);
        break;
    }
    const int index = EditCommands::insertionIndex(client, at);
    m_doc->undoStack()->push(EditCommands::insertAction(m_doc, c, index, a));
    m_state->setSelection({c, index});
}

void MainWindow::addClient()
{
    Core::Client c;
    c.name = EditCommands::freshClientName(m_doc->scenario());
    const int index = int(m_doc->scenario().clients.size());
    m_doc->undoStack()->push(EditCommands::insertClient(m_doc, index, c));
}

void MainWindow::removeClient()
{
    const int c = targetClient();
    // a scenario needs at least one client (the file format says so)
    if (c < 0 || m_doc->scenario().clients.size() <= 1)
        return;
    m_state->clearSelection();
    m_doc->undoStack()->push(EditCommands::removeClient(m_doc, c));
}

void MainWindow::deleteSelected()
{
    EditCommands::removeSelectedAction(m_doc, m_state);
}

void MainWindow::setRule(Core::FenceRule rule)
{
    const Core::Scenario &s = m_doc->scenario();
    QList<int> change;
    for (std::size_t i = 0; i < s.storages.size(); ++i)
        if (s.storages[i].rule != rule)
            change << int(i);
    if (change.isEmpty())
        return;
    // one undo step for all storages
    m_doc->undoStack()->beginMacro(tr("Rule %1").arg(Core::toString(rule)));
    for (const int i : change)
        m_doc->undoStack()->push(EditCommands::setStorageRule(m_doc, i, rule));
    m_doc->undoStack()->endMacro();
}

// ---------------------------------------------------------------------------------------------
// Theme

void MainWindow::setThemeByName(const QString &name)
{
    m_theme = Theme::byName(name);
    QSettings().setValue(QLatin1String(kThemeKey), m_theme.name);
    for (QAction *a : m_themeGroup->actions())
        a->setChecked(a->data().toString() == m_theme.name);
    applyTheme();
}

void MainWindow::applyTheme()
{
    const bool dark = m_theme.name == QLatin1String("dark");
    QPalette pal = QApplication::style()->standardPalette();
    if (dark) {
        const QColor base = m_theme.background;
        const QColor panel = base.lighter(118);
        pal.setColor(QPalette::Window, panel);
        pal.setColor(QPalette::WindowText, m_theme.foreground);
        pal.setColor(QPalette::Base, base);
        pal.setColor(QPalette::AlternateBase, m_theme.laneStripe);
        pal.setColor(QPalette::Text, m_theme.foreground);
        pal.setColor(QPalette::Button, panel);
        pal.setColor(QPalette::ButtonText, m_theme.foreground);
        pal.setColor(QPalette::ToolTipBase, panel);
        pal.setColor(QPalette::ToolTipText, m_theme.foreground);
        pal.setColor(QPalette::PlaceholderText, m_theme.muted);
        pal.setColor(QPalette::Highlight, m_theme.lease);
        pal.setColor(QPalette::HighlightedText, QColor(Qt::white));
        pal.setColor(QPalette::Disabled, QPalette::Text, m_theme.muted);
        pal.setColor(QPalette::Disabled, QPalette::WindowText, m_theme.muted);
        pal.setColor(QPalette::Disabled, QPalette::ButtonText, m_theme.muted);
    }
    setPalette(pal);
    if (auto *view = qobject_cast<TimelineView *>(m_timeline)) {
        view->setTheme(m_theme);
        m_chart->setHeaderWidth(TimelineRenderer::headerWidth(view->options()));
    }
    m_chart->setTheme(m_theme);
    m_logModel->setTheme(m_theme);
    m_summary->setTheme(m_theme);
    m_narration->setTheme(m_theme);
    m_presPanel->setTheme(m_theme);
    m_presControls->setTheme(m_theme);
    applyIcons();
}

void MainWindow::applyIcons()
{
    // the theme's text colour, so they read on every theme
    const QColor fg = palette().color(QPalette::WindowText);
    const QColor off = palette().color(QPalette::Disabled, QPalette::WindowText);
    using ToolIcons::Kind;
    const std::pair<QAction *, Kind> icons[] = {
        {m_openAct, Kind::Open},       {m_saveAct, Kind::Save},
        {m_undoAct, Kind::Undo},       {m_redoAct, Kind::Redo},
        {m_prevAct, Kind::Previous},   {m_nextAct, Kind::Next},
        {m_zoomInAct, Kind::ZoomIn},   {m_zoomOutAct, Kind::ZoomOut},
        {m_fitAct, Kind::Fit},         {m_presentAct, Kind::Present},
        {m_playAct, m_playback->isPlaying() ? Kind::Pause : Kind::Play}};
    for (const auto &[action, kind] : icons)
        action->setIcon(ToolIcons::make(kind, fg, off));
}

// ---------------------------------------------------------------------------------------------
// Export

ExportOptions MainWindow::exportOptions() const
{
    ExportOptions o;
    if (m_exportOptions)
        o = *m_exportOptions;
    else
        o.compare = m_state->compare();
    // what is selected now is what gets explained, unless the last export left it out
    o.explain = m_explainInExport ? m_state->selection() : Selection{};
    if (o.fromTick) {
        // "the visible range" means what is on screen now
        if (const auto range = visibleTickRange()) {
            o.fromTick = range->first;
            o.toTick = range->second;
        }
    }
    return o;
}

std::optional<std::pair<double, double>> MainWindow::visibleTickRange() const
{
    auto *view = qobject_cast<TimelineView *>(m_timeline);
    if (!view)
        return std::nullopt;
    const double plot = view->width() - TimelineRenderer::headerWidth(view->options());
    if (plot < 10)
        return std::nullopt;
    const double first = m_state->firstTick();
    return std::pair{first, first + plot / m_state->pixelsPerTick()};
}

QString MainWindow::exportPathGuess(const QString &suffix) const
{
    const QString path = m_doc->filePath();
    // next to the open file; an untitled or built-in scenario exports to the desktop's Pictures
    const QString dir =
        path.isEmpty() ? ExportDialog::defaultFolder() : QFileInfo(path).absolutePath();
    const QString base =
        path.isEmpty() ? QStringLiteral("fencescope") : QFileInfo(path).completeBaseName();
    return QDir(dir).filePath(suffix.isEmpty() ? base + QStringLiteral("-storyboard")
                                               : base + QLatin1Char('.') + suffix);
}

void MainWindow::exportWithDialog()
{
    m_playback->pause();
    const QString path =
        m_exportPath.isEmpty() ? exportPathGuess(QStringLiteral("png")) : m_exportPath;
    ExportOptions defaults = exportOptions();
    defaults.explain = m_state->selection();
    ExportDialog dialog(ExportDialog::Kind::Picture, m_doc, defaults, visibleTickRange(), m_theme,
                        path, this);
    dialog.setExplainChecked(m_explainInExport);
    if (!askExport(dialog))
        return;
    m_exportOptions = dialog.options();
    m_explainInExport = m_exportOptions->explain.isValid() || !m_state->selection().isValid();
    m_exportPath = dialog.path();
    // the dialog wrote the file when Export was pressed (a failure kept it open)
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(dialog.path())), 6000);
}

void MainWindow::exportStoryboardWithDialog()
{
    m_playback->pause();
    const QString path = m_storyboardPath.isEmpty() ? exportPathGuess(QString()) : m_storyboardPath;
    ExportDialog dialog(ExportDialog::Kind::Storyboard, m_doc, exportOptions(), visibleTickRange(),
                        m_theme, path, this);
    if (!askExport(dialog))
        return;
    m_storyboardPath = dialog.path();
    QString error;
    const std::vector<Core::Tick> ticks = dialog.frameTicks(&error);
    QStringList written;
    if (error.isEmpty())
        error = Exporter::exportStoryboard(dialog.path(), m_doc->scenario(), dialog.options(),
                                           ticks, &written);
    if (!error.isEmpty()) {
        reportError(tr("Cannot export storyboard"), error);
        return;
    }
    statusBar()->showMessage(tr("Wrote %n frame(s) to %1", nullptr, int(ticks.size()))
                                 .arg(QDir::toNativeSeparators(dialog.path())),
                             6000);
}

QImage MainWindow::copyAsImage()
{
    const QImage image = Exporter::renderImage(m_doc->scenario(), exportOptions());
    if (image.isNull()) {
        reportError(tr("Cannot copy picture"), tr("The picture could not be drawn (too large?)."));
        return image;
    }
    QGuiApplication::clipboard()->setImage(image);
    statusBar()->showMessage(tr("Copied a %1 × %2 picture").arg(image.width()).arg(image.height()),
                             4000);
    return image;
}

bool MainWindow::askExport(ExportDialog &dialog)
{
    if (!m_interactive)
        return m_exportHandler && m_exportHandler(dialog);
    return dialog.exec() == QDialog::Accepted;
}

QMessageBox::StandardButton MainWindow::askQuestion(const QString &title, const QString &text,
                                                    QMessageBox::StandardButtons buttons,
                                                    QMessageBox::StandardButton defaultButton)
{
    m_lastQuestion = text;
    if (!m_interactive)
        return m_questionAnswer;
    return QMessageBox::question(this, title, text, buttons, defaultButton);
}

// ---------------------------------------------------------------------------------------------
// Crash recovery

bool MainWindow::offerRecovery()
{
    const QString dir = QFileInfo(m_autosaver->file()).absolutePath();
    const QList<Autosaver::Recovery> found = Autosaver::orphans(dir);
    for (const Autosaver::Recovery &r : found) {
        const QDateTime when = r.savedAt.isValid() ? r.savedAt : QFileInfo(r.file).lastModified();
        const QString name =
            r.originalPath.isEmpty() ? tr("untitled") : QFileInfo(r.originalPath).fileName();
        const QMessageBox::StandardButton answer = askQuestion(
            tr("Restore unsaved work?"),
            tr("FenceScope closed unexpectedly. Restore the unsaved work from %1 (%2)?")
                .arg(QLocale().toString(when.toLocalTime(), QLocale::ShortFormat), name),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
        if (answer == QMessageBox::No) {
            Autosaver::discard(r);
            continue;
        }
        if (answer != QMessageBox::Yes || !maybeSave())
            continue; // kept: offered again at the next start
        // modified, with the original path: Save writes the recovered work back there
        m_doc->reset(r.scenario, r.originalPath);
        afterLoad();
        m_doc->undoStack()->resetClean();
        updateTitle();
        // our own autosave holds it before the orphan goes: a crash now loses nothing
        m_autosaver->saveNow();
        Autosaver::discard(r);
        statusBar()->showMessage(
            tr("Restored the unsaved work of %1; save it to keep it.").arg(name), 8000);
        return true; // one document per window: any others are offered next time
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Presentation mode

Theme MainWindow::presentationTheme() const
{
    const QSettings settings;
    Theme t = Theme::byName(
        settings.value(QLatin1String(kPresentationThemeKey), QStringLiteral("contrast"))
            .toString());
    if (t.name == QLatin1String("print"))
        t = Theme::highContrast();
    const double scale = std::clamp(
        settings.value(QLatin1String(kPresentationScaleKey), kPresentationScaleDefault).toDouble(),
        1.0, 3.0);
    t.fontScale = scale;
    t.lineScale = std::max(2.0, scale * 1.25);
    return t;
}

void MainWindow::setPresentationSetting(const QString &key, const QVariant &value)
{
    QSettings().setValue(key, value);
    if (isPresenting())
        fitPresentation();
}

void MainWindow::setPresenting(bool on)
{
    if (on == isPresenting()) {
        m_presentAct->setChecked(on);
        return;
    }
    auto *view = static_cast<TimelineView *>(m_timeline);
    if (on) {
        Presented p;
        p.dockState = saveState();
        p.windowState = windowState();
        p.geometry = geometry();
        p.menuBar = menuBar()->isVisibleTo(this);
        p.statusBar = statusBar()->isVisibleTo(this);
        p.theme = m_theme;
        p.firstTick = m_state->firstTick();
        p.pixelsPerTick = m_state->pixelsPerTick();
        p.playhead = m_state->playhead();
        p.selection = m_state->selection();
        p.splitterSizes = m_splitter->sizes();
        m_presented = p;
        m_playback->pause();
        // a highlighted outcome would give away the end of the story
        m_syncingSelection = true; // the event log keeps its row for when we come back
        m_state->clearSelection();
        m_syncingSelection = false;

        menuBar()->hide();
        statusBar()->hide();
        for (QToolBar *tb : findChildren<QToolBar *>())
            tb->hide();
        for (QDockWidget *d : findChildren<QDockWidget *>())
            d->hide();
        m_summary->hide();
        m_chart->hide();
        m_playbackBar->hide();
        m_presPanel->show();
        qApp->installEventFilter(this);
        m_presentAct->setChecked(true);
        // offscreen and on platforms without full screen this only resizes: harmless
        setWindowState(windowState() | Qt::WindowFullScreen);
        fitPresentation();
        presentationStart();
        view->setFocus();
        // the full-screen geometry arrives later on some platforms: fit again then
        QTimer::singleShot(0, this, [this] {
            if (isPresenting())
                fitPresentation();
        });
        return;
    }

    qApp->removeEventFilter(this);
    m_presControls->dismiss();
    const Presented p = *m_presented;
    m_presented.reset();
    m_presAtStart = false;
    view->setPlayheadBefore(false);
    m_presPanel->hide();
    m_timelineScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_splitter->setMinimumHeight(0);
    m_splitter->setMaximumHeight(QWIDGETSIZE_MAX);
    setWindowState(p.windowState);
    if (!(p.windowState & (Qt::WindowMaximized | Qt::WindowFullScreen)))
        setGeometry(p.geometry);
    menuBar()->setVisible(p.menuBar);
    statusBar()->setVisible(p.statusBar);
    for (QToolBar *tb : findChildren<QToolBar *>())
        tb->show();
    m_summary->show();
    m_chart->show();
    m_playbackBar->show();
    restoreState(p.dockState);
    m_theme = p.theme;
    applyTheme();
    m_splitter->setSizes(p.splitterSizes);
    m_state->setSelection(p.selection); // first: selecting may scroll to the outcome
    m_state->setAxis(p.firstTick, p.pixelsPerTick);
    m_state->setPlayhead(p.playhead);
    m_presentAct->setChecked(false);
    fitSplitter();
}

void MainWindow::fitPresentation()
{
    auto *view = qobject_cast<TimelineView *>(m_timeline);
    if (!view || !isPresenting())
        return;
    // the chosen text size, made smaller when the lanes (compare mode: two sets) would not
    // leave the explanation about a third of the screen
    Theme t = presentationTheme();
    TimelineRenderer::Options o = view->options();
    o.theme = t;
    o.theme.fontScale = 1;
    const double natural = TimelineRenderer::preferredSize(m_doc->scenario(), o, 900).height();
    // menus, toolbars and status bar are hidden: the window is the timeline and the panel
    const double room = std::max(200, height()) * 0.64;
    if (natural * t.fontScale > room - 12)
        t.fontScale = std::max(0.7, (room - 12) / natural); // the margin: rounding of fonts
    t.lineScale = std::max(2.0, t.fontScale * 1.25);
    if (m_theme.name != t.name || m_theme.fontScale != t.fontScale) {
        m_theme = t;
        applyTheme();
    }
    o.theme = m_theme;
    const int lanes =
        int(std::ceil(TimelineRenderer::preferredSize(m_doc->scenario(), o, 900).height())) + 4;
    view->setMinimumHeight(lanes);
    // the lanes get what they need (more clients than fit: scrolled), the explanation the rest
    const int timeline = std::min(lanes, int(room));
    m_splitter->setMinimumHeight(timeline);
    m_splitter->setMaximumHeight(timeline);
    m_timelineScroll->setVerticalScrollBarPolicy(lanes > timeline ? Qt::ScrollBarAsNeeded
                                                                  : Qt::ScrollBarAlwaysOff);
    view->fitToWindow();
}

bool MainWindow::presentationKey(QKeyEvent *event, bool act)
{
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    void (MainWindow::*step)() = nullptr;
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_PageDown:
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        step = &MainWindow::presentationNext;
        break;
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_PageUp:
    case Qt::Key_Backspace:
        step = &MainWindow::presentationPrevious;
        break;
    case Qt::Key_Home:
        step = &MainWindow::presentationStart;
        break;
    case Qt::Key_End:
        step = &MainWindow::presentationEnd;
        break;
    case Qt::Key_Escape:
    case Qt::Key_F11:
        if (act)
            setPresenting(false);
        return true;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus: {
        if (act) {
            const double now = presentationTheme().fontScale;
            const double next = event->key() == Qt::Key_Minus ? now - 0.2 : now + 0.2;
            setPresentationSetting(QLatin1String(kPresentationScaleKey),
                                   std::clamp(next, 1.0, 3.0));
        }
        return true;
    }
    default:
        return false;
    }
    if (act)
        (this->*step)();
    return true;
}

void MainWindow::presentationStart()
{
    const Core::Trace &t = m_doc->trace();
    m_playback->pause();
    m_presAtStart = true;
    static_cast<TimelineView *>(m_timeline)->setPlayheadBefore(true);
    m_state->setPlayhead(t.events.empty() ? 0 : t.events.front().tick);
    m_presPanel->setStep(PresentationPanel::Step::Start);
}

void MainWindow::presentationEnd()
{
    m_playback->pause();
    m_presAtStart = false;
    static_cast<TimelineView *>(m_timeline)->setPlayheadBefore(false);
    m_state->clearPlayhead();
    m_presPanel->setStep(PresentationPanel::Step::End);
}

void MainWindow::presentationNext()
{
    const Core::Trace &t = m_doc->trace();
    if (t.events.empty())
        return;
    Core::Tick tick = t.events.front().tick;
    if (!m_presAtStart && !Playback::nextEventTick(t, *m_state, &tick))
        return; // the last step stays: End shows everything
    m_presAtStart = false;
    static_cast<TimelineView *>(m_timeline)->setPlayheadBefore(false);
    m_playback->pause();
    m_state->setPlayhead(tick);
    m_presPanel->setStep(PresentationPanel::Step::AtTick);
}

void MainWindow::presentationPrevious()
{
    const Core::Trace &t = m_doc->trace();
    if (m_presAtStart || t.events.empty())
        return;
    Core::Tick tick = 0;
    if (Playback::previousEventTick(t, *m_state, &tick)) {
        m_playback->pause();
        m_state->setPlayhead(tick);
        m_presPanel->setStep(PresentationPanel::Step::AtTick);
    } else {
        presentationStart(); // before the first event: nothing shown yet
    }
}
