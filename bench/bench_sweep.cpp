// Sweep engine and shrinker (core/sweep.h, core/shrink.h): schedules per second of a whole
// sweep (generated, simulated fenced and unfenced, checked, counted) on 1 and 2 threads, also
// with keepalives, checks, a client clock and a group in the shape, and the time to shrink a
// 200-action failing schedule to 1-minimal.

#include "schedulegenerator.h"
#include "shrink.h"
#include "simulator.h"
#include "sweep.h"

#include <benchmark/benchmark.h>

namespace {

// 3 clients and about 20 actions: the default size of a sweep's schedules.
Core::SweepSpec sweepSpec()
{
    Core::SweepSpec spec;
    spec.scenario = Bench::makeSchedule(20, 3, 1);
    spec.vary = {Core::findQuantity(QStringLiteral("pause")),
                 {2, 5, 8, 11, 14, 17, 20, 23, 26, 29}};
    spec.runs = 20000;
    spec.seed = 1;
    return spec;
}

void BM_SweepEngine(benchmark::State &state)
{
    const int threads = int(state.range(0));
    const Core::SweepSpec spec = sweepSpec();
    std::uint64_t corrupted = 0;
    for (auto _ : state) {
        Core::SweepResult result;
        Core::runSweep(spec, &result, threads);
        for (const Core::PointResult &p : result.points)
            corrupted += p.fenced[0].schedules;
    }
    if (corrupted != 0)
        state.SkipWithError("a fenced schedule corrupted data");
    const double schedules = double(spec.pointCount()) * spec.runs;
    state.counters["schedules/s"] =
        benchmark::Counter(schedules * double(state.iterations()), benchmark::Counter::kIsRate);
    state.SetLabel(QStringLiteral("%1 actions, fenced and unfenced")
                       .arg(spec.scenario.actionCount())
                       .toStdString());
}
BENCHMARK(BM_SweepEngine)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2);

// The same sweep with what sections 11-12 add in the shape: keepalives on the first client's
// acquires, checks with gaps on the second's writes, a slow clock on the third, a group: the
// generator draws more and the simulator runs the pitfall paths.
void BM_SweepEnginePitfalls(benchmark::State &state)
{
    const int threads = int(state.range(0));
    Core::SweepSpec spec = sweepSpec();
    for (Core::Action &a : spec.scenario.clients[0].actions)
        if (a.kind == Core::ActionKind::Acquire)
            a.setKeepalive(3);
    for (Core::Action &a : spec.scenario.clients[1].actions)
        if (a.kind == Core::ActionKind::Write) {
            a.check = true;
            a.setGap(2);
            a.setGroup(QStringLiteral("order"));
        }
    spec.scenario.clients[2].clock.rateMilli = 700;
    for (auto _ : state) {
        Core::SweepResult result;
        Core::runSweep(spec, &result, threads);
        benchmark::DoNotOptimize(result.points.data());
    }
    const double schedules = double(spec.pointCount()) * spec.runs;
    state.counters["schedules/s"] =
        benchmark::Counter(schedules * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SweepEnginePitfalls)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2);

// The first of the generated 200-action schedules that corrupts data unfenced.
const Core::Scenario &failing200()
{
    static const Core::Scenario s = [] {
        for (std::uint64_t seed = 1;; ++seed) {
            Core::Scenario c = Bench::makeSchedule(200, 3, seed);
            if (Core::simulate(c, false).summary.corrupted > 0)
                return c;
        }
    }();
    return s;
}

void BM_Shrink(benchmark::State &state)
{
    const Core::Scenario &s = failing200();
    Core::ShrinkResult r;
    for (auto _ : state)
        r = Core::shrink(s, {0, false});
    state.SetLabel(QStringLiteral("%1 -> %2 actions, %3 steps, %4 simulations")
                       .arg(s.actionCount())
                       .arg(r.shrunk.actionCount())
                       .arg(r.steps.size())
                       .arg(r.simulations)
                       .toStdString());
}
BENCHMARK(BM_Shrink)->Unit(benchmark::kMillisecond);

} // namespace
