// MainWindow, part: the window layout. The docks, the screen-size heuristics that share the
// height between lanes, chart and log, and the window geometry kept in QSettings.

#include "window/mainwindow.h"

#include "document/changethrottle.h"
#include "document/document.h"
#include "timelinerenderer.h"
#include "views/eventlogmodel.h"
#include "views/inspector.h"
#include "views/lessonstage.h"
#include "views/narrationpanel.h"
#include "views/shrinkpanel.h"
#include "views/sweeppanel.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "viewstate.h"
#include "window/presentationcontroller.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLayout>
#include <QMenu>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace {
// The token chart's least height when the pinned lanes need the rest: its axis and one step.
constexpr int kLeastChart = 60;
} // namespace

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
    // once the panel has laid out the new text (the explanation wins where both do not fit).
    connect(m_state, &ViewState::selectionChanged, scroll, [this, scroll] {
        QTimer::singleShot(0, scroll, [this, scroll] {
            if (!m_state->selection().isValid())
                return;
            // (the nested layouts too: a narrow dock wraps the new text over more lines)
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            scroll->widget()->layout()->activate();
            // the heading first, then the explanation: where both do not fit, the explanation
            scroll->ensureWidgetVisible(m_narration->selectedHeading(), 0, 6);
            scroll->ensureWidgetVisible(m_narration->selectedExplanation(), 0, 6);
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
    // asked for, it comes to the front of its tab group with room for its chart, taken from
    // the token chart and never from the lanes' screen
    connect(exploreAct, &QAction::triggered, this, [this, explore](bool shown) {
        if (!shown)
            return;
        explore->raise();
        resizeDocks({explore}, {exploreHeight()}, Qt::Vertical);
    });
    exploreAct->setObjectName(QStringLiteral("explore"));
    exploreAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    exploreAct->setToolTip(tr("Sweeps and find-and-shrink (Ctrl+K)"));
    m_viewMenu->addAction(exploreAct);
    addAction(exploreAct);
}

// ---------------------------------------------------------------------------------------------
// Screen size

bool MainWindow::compactHeight() const
{
    // a projector or a small laptop: 1280x800, 1366x768, 1024x768
    const QScreen *screen = QGuiApplication::primaryScreen();
    return screen && screen->availableGeometry().height() < 900;
}

int MainWindow::exploreHeight() const
{
    // the controls scroll; the chart beside them needs about this much to be read
    return std::clamp(height() * 2 / 5, 160, 320);
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
    auto *view = m_timeline;
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
        m_presentation->fit();
        return;
    }
    // compare mode: the chart (secondary there) gives its height to the second stack of lanes;
    // on a short screen it gives some to the lanes too
    const int chartMin = m_state->compare() ? 100 : compactHeight() ? 115 : 200;
    // the lock and storage lanes stay pinned in view: a shorter chart before they scroll away
    // (the contrast theme's large text at 1024x768)
    const int pinned = int(std::ceil(TimelineRenderer::pinnedHeight(
                           m_doc->scenario(), view->options(), std::max(400, view->width())))) +
                       4;
    const int chart =
        std::max(kLeastChart, std::min(std::max(chartMin, total - want), total - pinned));
    // (an explicit minimum, or the splitter keeps the chart's own, taller with large text)
    m_chart->setMinimumHeight(std::min(chartMin, chart));
    m_splitter->setSizes({total - chart, chart});
}

// ---------------------------------------------------------------------------------------------
// Window settings

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
    // (the restored sizes apply once the window is laid out)
    QTimer::singleShot(0, this, &MainWindow::capDocks);
}

void MainWindow::capDocks()
{
    // A dock left tall (Explore on a big screen) or wide must not leave the lanes a sliver
    // of a smaller screen: the bottom docks at most two fifths of the window's height, the
    // right ones at most two fifths of its width.
    for (QDockWidget *d : findChildren<QDockWidget *>()) {
        if (d->isFloating() || !d->isVisibleTo(this))
            continue;
        const Qt::DockWidgetArea area = dockWidgetArea(d);
        if (area == Qt::BottomDockWidgetArea && d->height() > height() * 2 / 5)
            resizeDocks({d}, {std::max(logHeight(), height() / 4)}, Qt::Vertical);
        else if (area == Qt::RightDockWidgetArea && d->width() > width() * 2 / 5)
            resizeDocks({d}, {std::min(450, width() / 4)}, Qt::Horizontal);
    }
}

void MainWindow::resetLayout()
{
    // the docks as a first start has them, the window sized to the screen, the lanes fitted
    if (isPresenting())
        return;
    setWindowState(windowState() & ~(Qt::WindowMaximized | Qt::WindowFullScreen));
    restoreState(m_defaultLayout, kWindowStateVersion);
    resize(defaultWindowSize());
    if (auto *story = findChild<QDockWidget *>(QStringLiteral("storyDock")))
        resizeDocks({story}, {std::min(450, width() / 4)}, Qt::Horizontal);
    if (auto *log = findChild<QDockWidget *>(QStringLiteral("eventLogDock")))
        resizeDocks({log}, {logHeight()}, Qt::Vertical);
    fitSplitter();
    m_timeline->fitToWindow();
}

QSize MainWindow::defaultWindowSize() const
{
    // Roomy on a desktop monitor, never larger than the screen: a lecture projector is often
    // 1280x800 or 1024x768, and a window hanging off its edge hides the story and inspector.
    QSize size(1600, 1000);
    if (const QScreen *s = screen() ? screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(s->availableGeometry().size() * 0.96);
    return size;
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_timelineScroll->viewport() && event->type() == QEvent::Resize)
        m_timeline->update();
    // the splitter's height settles after the window's (docks, toolbar): fit when it does
    if (watched == m_splitter && event->type() == QEvent::Resize)
        fitSplitter();
    if (m_lessonStageScroll && watched == m_lessonStage &&
        (event->type() == QEvent::ShowToParent || event->type() == QEvent::HideToParent))
        m_lessonStageScroll->setVisible(event->type() == QEvent::ShowToParent);
    return QMainWindow::eventFilter(watched, event);
}
