// Animations of the default scenario at the defaults (1280 px, 15 frames a second, each step
// held by its caption), written to a file as fencescope-cli animate writes them: the whole
// export, frames drawn and encoded. Budgets (docs/PERFORMANCE.md): under 5 s each on the
// 2-core VM; the GIF under 2 MB, the MP4 under 1 MB.

#include "animation.h"
#include "scenariofile.h"

#include <QFileInfo>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

namespace {

void BM_Animate(benchmark::State &state)
{
    const char *const suffixes[] = {"gif", "mp4", "webm"};
    const QString suffix = QLatin1String(suffixes[state.range(0)]);
    const Core::Scenario s = Core::ScenarioFile::defaultScenario();
    const AnimationOptions o;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("default.") + suffix);
    for (auto _ : state) {
        const QString error = Animation::exportTo(path, s, o);
        if (!error.isEmpty()) {
            state.SkipWithError(qPrintable(error));
            return;
        }
    }
    const Animation::Plan plan = Animation::plan(s, o);
    state.counters["MB"] = double(QFileInfo(path).size()) / 1e6;
    state.counters["frames"] = double(plan.frames.size());
    state.counters["seconds"] = plan.seconds();
    state.SetLabel(QStringLiteral("%1, %2x%3")
                       .arg(suffix)
                       .arg(plan.size.width())
                       .arg(plan.size.height())
                       .toStdString());
}
BENCHMARK(BM_Animate)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

} // namespace
