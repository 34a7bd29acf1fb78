// Core benchmarks: simulate and load. GUI benchmarks live in bench_ui.cpp.

#include "schedulegenerator.h"
#include "scenariofile.h"
#include "simulator.h"

#include <benchmark/benchmark.h>

#include <map>
#include <vector>

namespace {

const Core::Scenario &schedule(std::size_t actions)
{
    static std::map<std::size_t, Core::Scenario> cache;
    auto it = cache.find(actions);
    if (it == cache.end())
        it = cache.emplace(actions, Bench::makeSchedule(actions, 6, 42)).first;
    return it->second;
}

// a vector nested in the trace: its own size and its heap block
template <typename T> std::size_t vectorBytes(const std::vector<T> &v)
{
    return sizeof(std::vector<T>) + v.capacity() * sizeof(T);
}

std::size_t traceBytes(const Core::Trace &t)
{
    std::size_t b = sizeof(Core::Trace);
    b += t.events.capacity() * sizeof(Core::Event);
    b += t.grants.capacity() * sizeof(Core::Grant);
    b += t.refusals.capacity() * sizeof(Core::Refusal);
    b += t.releases.capacity() * sizeof(Core::Release);
    b += t.writes.capacity() * sizeof(Core::Write);
    b += t.leases.capacity() * sizeof(Core::Lease);
    for (const auto &v : t.clientEvents)
        b += vectorBytes(v);
    for (const auto &v : t.freezes)
        b += vectorBytes(v);
    for (const auto &v : t.beliefs)
        b += vectorBytes(v);
    for (const auto &v : t.storageWrites)
        b += vectorBytes(v);
    for (const auto &v : t.storageIncidents)
        b += vectorBytes(v);
    return b;
}

void BM_Simulate(benchmark::State &state)
{
    const Core::Scenario &s = schedule(std::size_t(state.range(0)));
    std::size_t bytes = 0;
    for (auto _ : state) {
        Core::Trace t = Core::simulate(s);
        bytes = traceBytes(t);
        benchmark::DoNotOptimize(t.summary.accepted);
    }
    const double actions = double(s.actionCount());
    state.counters["actions/s"] =
        benchmark::Counter(actions * double(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["trace B/action"] = double(bytes) / actions;
}
BENCHMARK(BM_Simulate)->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

// The same run recording only its summary (`fencescope-cli run --summary`), into fresh memory
// as the CLI's one run is.
void BM_Summarize(benchmark::State &state)
{
    const Core::Scenario &s = schedule(std::size_t(state.range(0)));
    for (auto _ : state) {
        const Core::Summary sum = Core::summarize(s, s.fencing);
        benchmark::DoNotOptimize(sum.accepted);
    }
    const double actions = double(s.actionCount());
    state.counters["actions/s"] =
        benchmark::Counter(actions * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Summarize)->Arg(1000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

// Steady state, as after an edit the document cannot narrow down (undo of an insertion, the
// fencing switch): the whole run again, into the same trace and simulator.
void BM_Resimulate(benchmark::State &state)
{
    const Core::Scenario &s = schedule(std::size_t(state.range(0)));
    Core::Simulator sim;
    Core::Trace t;
    sim.run(s, true, t);
    for (auto _ : state) {
        sim.run(s, true, t);
        benchmark::DoNotOptimize(t.summary.accepted);
    }
    state.counters["actions/s"] = benchmark::Counter(double(s.actionCount()) * double(state.iterations()),
                                                     benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Resimulate)->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

// One action edited halfway through the run (a pause moved by a tick, back and forth), as a
// drag or an inspector edit does it: re-run from the last checkpoint before it, either to the
// end (0: complete) or, as a drag step, through 800 ticks past it (1: the screen and as much
// again). Both stop early when the run is back in the last run's state (it rejoins it); 2 runs
// to the end without that shortcut, as an edit that changes every later epoch must.
void BM_Rerun(benchmark::State &state)
{
    Core::Scenario s = schedule(std::size_t(state.range(0)));
    const bool partial = state.range(1) == 1;
    const bool mayRejoin = state.range(1) != 2;
    Core::Simulator sim;
    Core::Trace t;
    sim.run(s, true, t);
    // the first pause at or after the middle of the run
    std::uint32_t client = 0;
    std::size_t index = SIZE_MAX;
    const Core::Tick middle = t.lastTick / 2;
    for (std::size_t c = 0; c < s.clients.size() && index == SIZE_MAX; ++c)
        for (std::size_t i = 0; i < s.clients[c].actions.size(); ++i)
            if (s.clients[c].actions[i].kind == Core::ActionKind::Pause && s.clients[c].actions[i].at >= middle) {
                client = std::uint32_t(c);
                index = i;
                break;
            }
    Core::Action &pause = s.clients[client].actions[index];
    Core::Tick delta = 1;
    std::size_t events = 0;
    std::size_t rejoined = 0;
    for (auto _ : state) {
        const Core::Tick from = std::min(pause.at, pause.at + delta);
        pause.at += delta;
        delta = delta == 1 ? Core::Tick(-1) : 1;
        sim.rerun(client, from, partial ? from + 800 : Core::kForever,
                  mayRejoin ? std::uint32_t(index) : Core::kNone);
        const std::size_t end =
            sim.rejoinedAt() == Core::kForever ? t.events.size() : t.firstEventAt(sim.rejoinedAt());
        events += end - t.firstEventAt(sim.restartedFrom());
        rejoined += sim.rejoinedAt() != Core::kForever;
    }
    state.counters["events re-run"] = double(events) / double(state.iterations());
    state.counters["rejoined %"] = 100.0 * double(rejoined) / double(state.iterations());
    state.SetLabel(partial     ? "drag step: through 800 ticks past the edit"
                   : mayRejoin ? "to the end of the run"
                               : "to the end, never rejoining");
}
BENCHMARK(BM_Rerun)
    ->ArgsProduct({{1000, 10000, 100000, 1000000}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond);

// Drag steps on every kind of action, picked at random over the run: moved by a tick, or a
// pause, lease (TTL) or network delay made a tick longer, then undone. How often the re-run
// rejoins the last run (and so finishes after a few thousand events) and what a step costs on
// average, to the end of the run: the case of a drag with the whole run on screen.
void BM_RerunRandomEdits(benchmark::State &state)
{
    Core::Scenario s = schedule(std::size_t(state.range(0)));
    const int kind = int(state.range(1)); // 0: move by a tick, 1: one tick longer
    Core::Simulator sim;
    Core::Trace t;
    sim.run(s, true, t);
    TestSupport::Rng rng(7);
    std::size_t rejoined = 0;
    std::size_t steps = 0;
    for (auto _ : state) {
        std::uint32_t c = 0, i = 0;
        do { // a release has nothing to make longer
            c = std::uint32_t(rng.next() % s.clients.size());
            i = std::uint32_t(rng.next() % s.clients[c].actions.size());
        } while (kind == 1 && s.clients[c].actions[i].kind == Core::ActionKind::Release);
        Core::Action &a = s.clients[c].actions[i];
        const Core::Action before = a;
        if (kind == 0)
            a.at += 1;
        else
            a.amount += 1;
        sim.rerun(c, before.at, Core::kForever, i);
        rejoined += sim.rejoinedAt() != Core::kForever;
        a = before; // the drag goes back: rejoins (or not) the same way
        sim.rerun(c, before.at, Core::kForever, i);
        rejoined += sim.rejoinedAt() != Core::kForever;
        steps += 2;
    }
    state.counters["rejoined %"] =
        100.0 * double(rejoined) / double(std::max<std::size_t>(steps, 1));
    state.SetLabel(kind == 0 ? "an action moved by a tick, and back (2 steps)"
                             : "a pause, TTL or delay a tick longer, and back (2 steps)");
}
BENCHMARK(BM_RerunRandomEdits)
    ->ArgsProduct({{100000, 1000000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

void BM_Load(benchmark::State &state)
{
    const QByteArray json = Core::ScenarioFile::serialize(schedule(std::size_t(state.range(0))));
    for (auto _ : state) {
        Core::LoadResult r = Core::ScenarioFile::parse(json);
        benchmark::DoNotOptimize(r.scenario);
    }
    state.counters["MB/s"] = benchmark::Counter(double(json.size()) * double(state.iterations()) / 1e6,
                                                benchmark::Counter::kIsRate);
    state.counters["file MB"] = double(json.size()) / 1e6;
}
BENCHMARK(BM_Load)->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

} // namespace
