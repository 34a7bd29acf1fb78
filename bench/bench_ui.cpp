// Renderer, drag and export benchmarks on the real widget and renderer, offscreen, plus the
// sweep (many small schedules) on one core and on all cores.

#include "document/document.h"
#include "exporter.h"
#include "exportruns.h"
#include "schedulegenerator.h"
#include "scripteddialogs.h"
#include "simulator.h"
#include "timelinerenderer.h"
#include "views/sweeppanel.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "viewstate.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QtConcurrent>

#include <benchmark/benchmark.h>

#include <map>
#include <memory>

namespace {

// The first pause of the schedule: what the drag benchmarks move back and forth.
std::pair<int, int> firstPause(const Core::Scenario &s)
{
    for (std::size_t c = 0; c < s.clients.size(); ++c)
        for (std::size_t i = 0; i < s.clients[c].actions.size(); ++i)
            if (s.clients[c].actions[i].kind == Core::ActionKind::Pause)
                return {int(c), int(i)};
    return {-1, -1};
}

struct Fixture
{
    std::unique_ptr<Document> doc;
    std::unique_ptr<ViewState> state;
    std::unique_ptr<TimelineView> view;
};

// A window-sized view on an N-action schedule, zoomed like a person would look at it: the
// first 400 ticks ("zoomed") or everything ("fit").
Fixture &fixture(std::size_t actions, bool fit)
{
    // never destroyed: widgets must not outlive QApplication's destruction at exit
    static auto &cache = *new std::map<std::pair<std::size_t, bool>, Fixture>;
    Fixture &f = cache[{actions, fit}];
    if (!f.doc) {
        f.doc = std::make_unique<Document>();
        f.doc->reset(Bench::makeSchedule(actions, 6, 42));
        f.state = std::make_unique<ViewState>();
        f.view = std::make_unique<TimelineView>(f.doc.get(), f.state.get());
        f.view->resize(1600, 900);
        if (fit)
            f.view->fitToWindow();
        else
            f.state->setAxis(0, (1600.0 - 200) / 400.0);
    }
    return f;
}

// A repaint of an unchanged view (expose, hover, playhead): the renderer's recorded picture
// and static layer are re-used. Repaints after an edit are in BM_DragStep.
void BM_Paint(benchmark::State &state)
{
    Fixture &f = fixture(std::size_t(state.range(0)), state.range(1) != 0);
    QImage image(f.view->size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        f.view->render(&image);
        benchmark::ClobberMemory();
    }
    state.SetLabel(state.range(1) ? "fit: whole run visible" : "zoomed: 400 ticks visible");
}
BENCHMARK(BM_Paint)
    ->ArgsProduct({{1000, 10000, 100000, 1000000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// One drag step: the pause moves one tick (re-simulated by the document as far as the view
// shows) and the view repaints. The rest of the run is finished between frames, not here.
void BM_DragStep(benchmark::State &state)
{
    const bool fit = state.range(1) != 0;
    Fixture &f = fixture(std::size_t(state.range(0)), fit);
    const auto [client, index] = firstPause(f.doc->scenario());
    QImage image(f.view->size(), QImage::Format_ARGB32_Premultiplied);
    Core::Tick delta = 1;
    for (auto _ : state) {
        // as TimelineView's drag does it: one action replaced, simulated as far as it shows
        Core::Action a = f.doc->scenario().clients[std::size_t(client)].actions[std::size_t(index)];
        a.at += delta;
        f.doc->setAction(client, index, a, f.view->previewThrough());
        delta = delta == 1 ? Core::Tick(-1) : 1; // back and forth
        f.view->render(&image);
        benchmark::ClobberMemory();
    }
    f.doc->settle();
    state.SetLabel(fit ? "fit: whole run visible, so simulated to its end"
                       : "zoomed: 400 ticks visible");
}
BENCHMARK(BM_DragStep)
    ->ArgsProduct({{1000, 10000, 100000, 1000000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// What the mouse finds as it crosses the view (hover text, the grab of a drag): one hit test
// per point of a grid over the lanes, across the whole view.
void BM_HitTest(benchmark::State &state)
{
    Fixture &f = fixture(std::size_t(state.range(0)), state.range(1) != 0);
    const TimelineRenderer renderer;
    const TimelineRenderer::Options o;
    const QRectF rect(f.view->rect());
    const TimeAxis axis = f.view->axis();
    std::vector<QPointF> points;
    for (double y = 30; y < rect.height(); y += 11)
        for (double x = 210; x < rect.width(); x += 97)
            points.push_back(QPointF(x, y));
    std::size_t items = 0;
    for (auto _ : state)
        for (const QPointF &pos : points)
            items +=
                renderer.hitTest(f.doc->scenario(), f.doc->trace(), axis, rect, o, pos).isItem();
    benchmark::DoNotOptimize(items);
    state.SetItemsProcessed(std::int64_t(state.iterations() * points.size()));
    state.SetLabel(state.range(1) ? "fit: whole run visible" : "zoomed: 400 ticks visible");
}
BENCHMARK(BM_HitTest)->ArgsProduct({{1000, 100000}, {0, 1}})->Unit(benchmark::kMillisecond);

// The token chart built again from a complete trace (after an edit, a theme change): one pass
// over the run's events. While a drag is in progress it follows only when this is under
// ChangeThrottle's budget (5 ms); otherwise it catches up when the drag ends.
void BM_ChartRebuild(benchmark::State &state)
{
    Fixture &f = fixture(std::size_t(state.range(0)), false);
    TokenChart chart(f.doc.get(), f.state.get());
    chart.resize(1600, 300);
    for (auto _ : state)
        emit f.doc->changed(); // not a drag: the chart rebuilds at once
}
BENCHMARK(BM_ChartRebuild)->Arg(1000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

void BM_Export(benchmark::State &state)
{
    const Core::Scenario s = Bench::makeSchedule(std::size_t(state.range(0)), 6, 42);
    ExportOptions o;
    o.width = 1600;
    o.fromTick = 0;
    o.toTick = 400;
    const bool svg = state.range(1) != 0;
    // the picture of a run the caller holds (the Document's, the CLI's one simulation): the
    // exporter draws it and simulates nothing
    const TestRuns runs(s, o);
    for (auto _ : state) {
        if (svg)
            benchmark::DoNotOptimize(Exporter::renderSvg(s, runs, o));
        else
            benchmark::DoNotOptimize(Exporter::renderImage(s, runs, o));
    }
    state.SetLabel(svg ? "SVG, 400 ticks" : "PNG image, 400 ticks");
}
BENCHMARK(BM_Export)->ArgsProduct({{1000, 100000, 1000000}, {0, 1}})->Unit(benchmark::kMillisecond);

// Sweep: many small seeded schedules (40 actions, 3 clients), each simulated fenced and
// checked, on `threads` cores. Each task takes a batch of schedules and re-uses one simulator
// and one trace for all of them: a 40-action schedule is so small that a fresh trace's
// allocations and a task hand-off per schedule would cost as much as simulating it.
void BM_Sweep(benchmark::State &state)
{
    const int threads = int(state.range(0));
    const int schedules = 20000;
    std::vector<Core::Scenario> batch;
    batch.reserve(schedules);
    for (int i = 0; i < schedules; ++i)
        batch.push_back(Bench::makeSchedule(40, 3, std::uint64_t(i)));
    constexpr int kBatch = 500;
    std::vector<std::pair<int, int>> ranges;
    for (int i = 0; i < schedules; i += kBatch)
        ranges.emplace_back(i, std::min(schedules, i + kBatch));
    QThreadPool pool;
    pool.setMaxThreadCount(threads);
    std::uint64_t unsafe = 0;
    for (auto _ : state) {
        const std::function<int(const std::pair<int, int> &)> check =
            [&](const std::pair<int, int> &r) {
                Core::Simulator sim;
                Core::Trace trace;
                int corrupted = 0;
                for (int i = r.first; i < r.second; ++i) {
                    sim.run(batch[std::size_t(i)], true, trace);
                    corrupted += !trace.summary.safe();
                }
                return corrupted;
            };
        const auto counts = QtConcurrent::blockingMapped<std::vector<int>>(&pool, ranges, check);
        for (int c : counts)
            unsafe += std::uint64_t(c);
    }
    if (unsafe != 0)
        state.SkipWithError("a fenced schedule corrupted data");
    state.counters["schedules/s"] = benchmark::Counter(
        double(schedules) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sweep)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2);

} // namespace

namespace {

// The same drag step in the whole main window: the timeline, token chart, event log, story
// and summary all follow the edit; the window repaints through its backing store, as on screen.
void BM_WindowDragStep(benchmark::State &state)
{
    static auto &windows = *new std::map<std::size_t, std::unique_ptr<MainWindow>>; // see fixture()
    auto &w = windows[std::size_t(state.range(0))];
    if (!w) {
        w = std::make_unique<MainWindow>();
        scriptDialogs(*w);
        w->resize(1600, 1000);
        // the Story as wide as the app starts it in a 1600-pixel window (DockLayout: a quarter
        // of the width, at most 450): the window was made at the offscreen screen's smaller
        // size, and the docks would keep that window's widths
        if (auto *story = w->findChild<QDockWidget *>(QStringLiteral("storyDock")))
            w->resizeDocks({story}, {400}, Qt::Horizontal);
        w->document()->reset(Bench::makeSchedule(std::size_t(state.range(0)), 6, 42));
        w->show();
        QCoreApplication::processEvents();
        w->viewState()->setAxis(0, 3.5); // zoomed in where the pause is, after the first fit
        QCoreApplication::processEvents();
    }
    Document *doc = w->document();
    const auto [client, index] = firstPause(doc->scenario());
    Core::Tick delta = 1;
    std::vector<double> frames; // ms: a drag stutters on its slowest frames, not its mean
    QElapsedTimer frame;
    for (auto _ : state) {
        frame.start();
        Core::Action a = doc->scenario().clients[std::size_t(client)].actions[std::size_t(index)];
        a.at += delta;
        doc->setAction(client, index, a,
                       static_cast<TimelineView *>(part<TimelineView>(*w))->previewThrough());
        delta = delta == 1 ? Core::Tick(-1) : 1;
        // one frame: the views follow the edit, the window repaints what changed (the backing
        // store of the offscreen platform), and at most one slice of the run's rest is done
        QCoreApplication::processEvents();
        frames.push_back(double(frame.nsecsElapsed()) / 1e6);
    }
    doc->settle();
    std::sort(frames.begin(), frames.end());
    if (!frames.empty()) {
        state.counters["p95 ms"] = frames[frames.size() * 95 / 100];
        state.counters["max ms"] = frames.back();
    }
}
BENCHMARK(BM_WindowDragStep)->Arg(1000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

} // namespace

namespace {

// The window while a sweep runs on every core (View > Explore: sweep panel, 40 points of 20k
// random schedules of the default scenario's shape): each iteration is one frame of a person
// scrubbing the playhead, so the timeline, the summary and the story repaint, and the sweep's
// progress arrives. The frame times say whether the window keeps 60 fps (16.7 ms) meanwhile.
void BM_WindowDuringSweep(benchmark::State &state)
{
    static auto *w = [] { // see fixture()
        auto *window = new MainWindow;
        scriptDialogs(*window);
        window->resize(1600, 1000);
        window->show();
        // View > Explore: the sweep panel reads the scenario when its dock shows
        window->findChild<QAction *>(QStringLiteral("explore"))->trigger();
        window->findChild<QDockWidget *>(QStringLiteral("exploreDock"))->raise();
        QCoreApplication::processEvents();
        return window;
    }();
    auto *panel = w->findChild<SweepPanel *>();
    const auto set = [panel](const char *name, int value) {
        panel->findChild<QSpinBox *>(QLatin1String(name))->setValue(value);
    };
    set("from", 1);
    set("to", 40);
    set("runs", 20000);
    auto *run = panel->findChild<QPushButton *>(QStringLiteral("run"));
    // running() follows the future through queued events: the panel's signal says when it ends
    bool sweeping = false;
    const QMetaObject::Connection ended = QObject::connect(panel, &SweepPanel::sweepFinished,
                                                           [&sweeping](bool) { sweeping = false; });
    std::vector<double> frames;
    QElapsedTimer frame;
    Core::Tick tick = 0;
    int sweeps = 0;
    for (auto _ : state) {
        if (!sweeping) {
            run->click();
            sweeping = true;
            ++sweeps;
        }
        frame.start();
        tick = (tick + 1) % 40;
        w->viewState()->setPlayhead(tick);
        part<TimelineView>(*w)->repaint();
        QCoreApplication::processEvents();
        frames.push_back(double(frame.nsecsElapsed()) / 1e6);
    }
    panel->findChild<QPushButton *>(QStringLiteral("cancel"))->click();
    while (sweeping)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QObject::disconnect(ended);
    QCoreApplication::processEvents();
    std::sort(frames.begin(), frames.end());
    if (!frames.empty()) {
        const auto late =
            std::count_if(frames.begin(), frames.end(), [](double ms) { return ms > 1000.0 / 60; });
        state.counters["p50 ms"] = frames[frames.size() / 2];
        state.counters["p95 ms"] = frames[frames.size() * 95 / 100];
        state.counters["max ms"] = frames.back();
        state.counters["over 16.7 ms"] = double(late) / double(frames.size());
        state.counters["sweeps"] = sweeps;
    }
}
BENCHMARK(BM_WindowDuringSweep)->Iterations(600)->Unit(benchmark::kMillisecond);

} // namespace
