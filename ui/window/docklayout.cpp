#include "window/docklayout.h"

#include "document/document.h"
#include "timelinerenderer.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "viewstate.h"

#include <QAction>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace {

// The token chart's least height when the pinned lanes need the rest: its axis and one step.
constexpr int kLeastChart = 60;

} // namespace

DockLayout::DockLayout(Parts parts, Hooks hooks, QObject *parent)
    : QObject(parent), m_parts(parts), m_hooks(std::move(hooks))
{
}

QDockWidget *DockLayout::addDocks(QWidget *story, QWidget *inspector, QWidget *log,
                                  QWidget *explore)
{
    QMainWindow *w = m_parts.window;
    const auto dock = [w](const QString &title, const QString &name, QWidget *widget,
                          Qt::DockWidgetArea area) {
        auto *d = new QDockWidget(title, w);
        d->setObjectName(name);
        d->setWidget(widget);
        w->addDockWidget(area, d);
        return d;
    };
    QDockWidget *storyDock =
        dock(tr("Story"), QStringLiteral("storyDock"), story, Qt::RightDockWidgetArea);
    QDockWidget *inspectorDock =
        dock(tr("Inspector"), QStringLiteral("inspectorDock"), inspector, Qt::RightDockWidgetArea);
    QDockWidget *logDock =
        dock(tr("Event log"), QStringLiteral("eventLogDock"), log, Qt::BottomDockWidgetArea);

    // the bottom dock spans under the central area only; the story keeps the full height
    w->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    // (the story's width: once the window's is known)
    w->resizeDocks({storyDock, inspectorDock}, {560, 330}, Qt::Vertical);
    w->resizeDocks({logDock}, {logHeight()}, Qt::Vertical);

    m_parts.viewMenu->addAction(storyDock->toggleViewAction());
    m_parts.viewMenu->addAction(inspectorDock->toggleViewAction());
    m_parts.viewMenu->addAction(logDock->toggleViewAction());

    // Explore: a tab next to the event log
    QDockWidget *exploreDock =
        dock(tr("Explore"), QStringLiteral("exploreDock"), explore, Qt::BottomDockWidgetArea);
    w->tabifyDockWidget(logDock, exploreDock);
    exploreDock->hide(); // until asked for (View > Explore, Ctrl+K): its controls need height
    logDock->raise();
    QAction *exploreAct = exploreDock->toggleViewAction();
    // asked for, it comes to the front of its tab group with room for its chart, taken from
    // the token chart and never from the lanes' screen
    connect(exploreAct, &QAction::triggered, this, [this, exploreDock](bool shown) {
        if (shown) {
            exploreDock->raise();
            m_parts.window->resizeDocks({exploreDock}, {exploreHeight()}, Qt::Vertical);
        }
        fitSplitter(); // (the token chart's least height depends on it)
    });
    exploreAct->setObjectName(QStringLiteral("explore"));
    exploreAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    exploreAct->setToolTip(tr("Sweeps and find-and-shrink (Ctrl+K)"));
    m_parts.viewMenu->addAction(exploreAct);
    w->addAction(exploreAct);
    return exploreDock;
}

void DockLayout::start()
{
    QMainWindow *w = m_parts.window;
    m_defaultLayout = w->saveState(kWindowStateVersion);
    const QSize size = defaultWindowSize();
    w->resize(size);
    if (auto *story = w->findChild<QDockWidget *>(QStringLiteral("storyDock")))
        w->resizeDocks({story}, {std::min(450, size.width() / 4)}, Qt::Horizontal);
    restoreWindowSettings();
}

// ---------------------------------------------------------------------------------------------
// Screen size

bool DockLayout::compactHeight() const
{
    // a projector or a small laptop: 1280x800, 1366x768, 1024x768
    const QScreen *screen = QGuiApplication::primaryScreen();
    return screen && screen->availableGeometry().height() < 900;
}

int DockLayout::exploreHeight() const
{
    // the controls scroll; the chart beside them needs about this much to be read. On a short
    // screen (a 1280x800 projector) its least, so one client lane still shows above the pinned
    // lock and storage lanes (tst_explorelayout)
    const int h = m_parts.window->height();
    return compactHeight() ? 160 : std::clamp(h * 2 / 5, 160, 320);
}

int DockLayout::logHeight() const
{
    // the event log is the third thing to look at: on a short screen it starts with a few rows,
    // so the lanes (storage included) and the chart fit without scrolling
    return compactHeight() ? 112 : 230;
}

void DockLayout::fitSplitter()
{
    TimelineView *view = m_parts.view;
    QSplitter *splitter = m_parts.splitter;
    // the handle takes its share of the height too
    const int total =
        (splitter->height() > 100 ? splitter->height() : 780) - splitter->handleWidth();
    const TimelineLayout layout = TimelineRenderer::layout(
        m_parts.doc->scenario(), view->options(), QRectF(0, 0, std::max(400, view->width()), 4000));
    const int want =
        std::max(layout.panels.empty() ? 300 : int(layout.panels.back().rect.bottom()) + 6,
                 view->sizeHint().height());
    // the scroll area shows a scroll bar rather than squeezing the lanes
    view->setMinimumHeight(want);
    if (m_hooks.isPresenting()) {
        m_hooks.fitPresentation();
        return;
    }
    // compare mode: the chart (secondary there) gives its height to the second stack of lanes;
    // on a short screen it gives some to the lanes too
    // With Explore open on a short screen the sweep's own chart is the one being read: it takes
    // the token chart's place, so at least one client lane shows above the pinned lock and
    // storage lanes (tst_explorelayout). The token chart comes back when Explore closes.
    const auto *explore = m_parts.window->findChild<QDockWidget *>(QStringLiteral("exploreDock"));
    const bool exploring = compactHeight() && explore && explore->isVisible();
    // (only a chart this hid is shown again: a lesson at a student's desk hides it too)
    if (exploring && m_parts.chart->isVisibleTo(m_parts.window)) {
        m_parts.chart->hide();
        m_chartHiddenForExplore = true;
    } else if (!exploring && m_chartHiddenForExplore) {
        m_parts.chart->show();
        m_chartHiddenForExplore = false;
    }
    if (exploring)
        return;
    const int chartMin = m_parts.state->compare() ? 100 : compactHeight() ? 115 : 200;
    // the lock and storage lanes stay pinned in view: a shorter chart before they scroll away
    // (the contrast theme's large text at 1024x768)
    const int pinned =
        int(std::ceil(TimelineRenderer::pinnedHeight(m_parts.doc->scenario(), view->options(),
                                                     std::max(400, view->width())))) +
        4;
    const int chart =
        std::max(kLeastChart, std::min(std::max(chartMin, total - want), total - pinned));
    // (an explicit minimum, or the splitter keeps the chart's own, taller with large text)
    m_parts.chart->setMinimumHeight(std::min(chartMin, chart));
    splitter->setSizes({total - chart, chart});
}

void DockLayout::setComparing(bool on)
{
    QMainWindow *w = m_parts.window;
    if (auto *log = w->findChild<QDockWidget *>(QStringLiteral("eventLogDock"))) {
        if (on && log->isVisible()) {
            log->hide();
            m_logHiddenForCompare = true;
        } else if (!on && m_logHiddenForCompare) {
            log->show();
            w->resizeDocks({log}, {logHeight()}, Qt::Vertical);
            m_logHiddenForCompare = false;
        }
    }
    fitSplitter();
}

// ---------------------------------------------------------------------------------------------
// Window settings

void DockLayout::saveWindowSettings()
{
    if (m_hooks.isPresenting())
        return; // full screen with the docks put away is not the window to come back to
    QSettings settings;
    settings.beginGroup(QStringLiteral("window"));
    settings.setValue(QStringLiteral("geometry"), m_parts.window->saveGeometry());
    settings.setValue(QStringLiteral("state"), m_parts.window->saveState(kWindowStateVersion));
}

void DockLayout::restoreWindowSettings()
{
    // where the window was, its docks and toolbar; a geometry off every screen now (a projector
    // unplugged) is put back on one by restoreGeometry()
    QSettings settings;
    settings.beginGroup(QStringLiteral("window"));
    const QByteArray geometry = settings.value(QStringLiteral("geometry")).toByteArray();
    if (!geometry.isEmpty())
        m_parts.window->restoreGeometry(geometry);
    const QByteArray state = settings.value(QStringLiteral("state")).toByteArray();
    if (!state.isEmpty())
        m_parts.window->restoreState(state, kWindowStateVersion);
    // (the restored sizes apply once the window is laid out)
    QTimer::singleShot(0, this, &DockLayout::capDocks);
}

void DockLayout::capDocks()
{
    // A dock left tall (Explore on a big screen) or wide must not leave the lanes a sliver
    // of a smaller screen: the bottom docks at most two fifths of the window's height, the
    // right ones at most two fifths of its width.
    QMainWindow *w = m_parts.window;
    for (QDockWidget *d : w->findChildren<QDockWidget *>()) {
        if (d->isFloating() || !d->isVisibleTo(w))
            continue;
        const Qt::DockWidgetArea area = w->dockWidgetArea(d);
        if (area == Qt::BottomDockWidgetArea && d->height() > w->height() * 2 / 5)
            w->resizeDocks({d}, {std::max(logHeight(), w->height() / 4)}, Qt::Vertical);
        else if (area == Qt::RightDockWidgetArea && d->width() > w->width() * 2 / 5)
            w->resizeDocks({d}, {std::min(450, w->width() / 4)}, Qt::Horizontal);
    }
}

void DockLayout::resetLayout()
{
    // the docks as a first start has them, the window sized to the screen, the lanes fitted
    if (m_hooks.isPresenting())
        return;
    QMainWindow *w = m_parts.window;
    w->setWindowState(w->windowState() & ~(Qt::WindowMaximized | Qt::WindowFullScreen));
    w->restoreState(m_defaultLayout, kWindowStateVersion);
    w->resize(defaultWindowSize());
    if (auto *story = w->findChild<QDockWidget *>(QStringLiteral("storyDock")))
        w->resizeDocks({story}, {std::min(450, w->width() / 4)}, Qt::Horizontal);
    if (auto *log = w->findChild<QDockWidget *>(QStringLiteral("eventLogDock")))
        w->resizeDocks({log}, {logHeight()}, Qt::Vertical);
    fitSplitter();
    m_parts.view->fitToWindow();
}

QSize DockLayout::defaultWindowSize() const
{
    // Roomy on a desktop monitor, never larger than the screen: a lecture projector is often
    // 1280x800 or 1024x768, and a window hanging off its edge hides the story and inspector.
    QSize size(1600, 1000);
    const QWidget *w = m_parts.window;
    if (const QScreen *s = w->screen() ? w->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(s->availableGeometry().size() * 0.96);
    return size;
}
