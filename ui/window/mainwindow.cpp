// MainWindow: assembles the views, the playback bar and the document; selection sync, playback
// stepping, editing and the theme. Its other parts, each a file of its own: mainwindow_actions.cpp
// (actions, menus, toolbar), mainwindow_layout.cpp (the views in the docks), mainwindow_files.cpp
// (the title, what follows a load). Objects of their own do the rest, the window's slots handing
// over: files (filecontroller.*), the docks and geometry (docklayout.*), every dialog
// (dialogs.*), presentation mode (presentationcontroller.*) and export (exportcontroller.*).

#include "window/mainwindow.h"

#include "document/autosaver.h"
#include "document/document.h"
#include "document/editcommands.h"
#include "timelinerenderer.h"
#include "views/eventlogmodel.h"
#include "views/exportdialog.h"
#include "views/inspector.h"
#include "views/narrationpanel.h"
#include "views/presentationcontrols.h"
#include "views/presentationpanel.h"
#include "views/summarystrip.h"
#include "views/tickfield.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "viewstate.h"
#include "window/docklayout.h"
#include "window/exportcontroller.h"
#include "window/playback.h"
#include "window/presentationcontroller.h"
#include "window/quicktour.h"
#include "window/statereport.h"
#include "window/toolicons.h"
#include "window/windowactions.h"

#include "explain.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace {

const char *const kThemeKey = "theme";

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_doc(new Document(this)), m_state(new ViewState(this)),
      m_playback(new Playback(m_state, this))
{
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    createViews();
    createActions();
    connectLessonActions();
    // the playback bar's buttons show actions, so it comes after them
    m_playbackBar = createPlaybackBar();
    static_cast<QVBoxLayout *>(centralWidget()->layout())->addWidget(m_playbackBar);
    createControllers();
    m_actions->layOut(m_simulationMenus, m_presentation);
    createDocks();
    createLessons();
    connectSelection();
    // Enter on an item of the timeline: to the inspector's first field
    connect(m_timeline, &TimelineView::inspectRequested, this, [this] {
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
    m_actions->checkTheme(m_theme.name);
    applyTheme();

    m_layout->start();
    documentChanged(); // the document was filled before the connections existed
    afterLoad();
    updateTitle();

    // the quick tour on the first run (never in tests: their dialogs are installed first)
    QTimer::singleShot(0, this, [this] {
        if (m_dialogs->isInteractive() && QuickTour::shouldShowOnFirstRun())
            startQuickTour();
    });

    m_autosaver = new Autosaver(m_doc, Autosaver::defaultDir(), this);
    connect(m_autosaver, &Autosaver::failed, this, [this](const QString &message) {
        statusBar()->showMessage(tr("Autosave failed: %1").arg(message), 8000);
    });
    createFiles();
    showIdleHint();
    if (const QString report = qEnvironmentVariable("FENCESCOPE_STATE_FILE"); !report.isEmpty())
        new StateReport(this, report);
}

MainWindow::~MainWindow()
{
    // A shown window is hidden in ~QWidget, after this class's part is gone: the field with the
    // focus then loses it and commits what was typed there (an inspector field), and the
    // document's change reached documentChanged on a window half destroyed (a crash in
    // statusBar()). From here on this window hears neither the document nor the view state.
    disconnect(m_doc, nullptr, this, nullptr);
    disconnect(m_state, nullptr, this, nullptr);
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
    auto *prev = button(m_actions->previous);
    auto *play = button(m_actions->play);
    auto *next = button(m_actions->next);
    auto *all = button(m_actions->showAll);
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

void MainWindow::documentChanged()
{
    const Core::Scenario &s = m_doc->scenario();
    m_actions->fencing->setChecked(s.fencing);
    m_actions->fencing->setText(s.fencing ? tr("Fencing: ON") : tr("Fencing: OFF"));
    // lanes change height when clients or storages come and go, or the lock service gets a
    // row of its own events (a preset with restores after one without)
    const int lanes = int(TimelineRenderer::preferredSize(s, m_timeline->options(), 900).height());
    if (lanes != m_fittedLanes) {
        m_fittedLanes = lanes;
        fitSplitter();
    }
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

void MainWindow::startQuickTour()
{
    if (findChild<QuickTour *>())
        return; // one at a time
    if (isPresenting())
        setPresenting(false); // the tour points at menus, toolbar and docks
    (new QuickTour(this, QuickTour::defaultSteps()))->start();
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
    auto *view = m_timeline;
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
    auto *view = m_timeline;
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
    m_actions->checkTheme(m_theme.name);
    applyTheme();
    // the lecture-hall theme's larger lanes: the splitter and the pinned lanes follow at once
    fitSplitter();
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
    if (auto *view = m_timeline) {
        view->setTheme(m_theme);
        m_chart->setHeaderWidth(TimelineRenderer::headerWidth(view->options()));
    }
    m_chart->setTheme(m_theme);
    m_logModel->setTheme(m_theme);
    m_summary->setTheme(m_theme);
    m_narration->setTheme(m_theme);
    // the side views' text grows with the theme too (the lecture hall)
    m_inspector->setFontScale(m_theme.fontScale);
    EventLogModel::applyFontScale(m_log, m_theme.fontScale);
    m_presPanel->setTheme(m_theme);
    m_presControls->setTheme(m_theme);
    applyLessonTheme();
    applyIcons();
}

void MainWindow::applyIcons()
{
    // the theme's text colour, so they read on every theme
    const QColor fg = palette().color(QPalette::WindowText);
    const QColor off = palette().color(QPalette::Disabled, QPalette::WindowText);
    using ToolIcons::Kind;
    const std::pair<QAction *, Kind> icons[] = {
        {m_actions->open, Kind::Open},
        {m_actions->save, Kind::Save},
        {m_actions->undo, Kind::Undo},
        {m_actions->redo, Kind::Redo},
        {m_actions->previous, Kind::Previous},
        {m_actions->next, Kind::Next},
        {m_actions->zoomIn, Kind::ZoomIn},
        {m_actions->zoomOut, Kind::ZoomOut},
        {m_actions->fit, Kind::Fit},
        {m_actions->present, Kind::Present},
        {m_actions->play, m_playback->isPlaying() ? Kind::Pause : Kind::Play}};
    for (const auto &[action, kind] : icons)
        action->setIcon(ToolIcons::make(kind, fg, off));
}
