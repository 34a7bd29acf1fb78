// Feeds arbitrary bytes to the scenario loader; whatever loads is simulated both ways and
// checked against the invariants a user relies on. Any crash, sanitizer report or failed
// check is a bug.

#include "scenariofile.h"
#include "simulator.h"

#include <cstdlib>

namespace {

void check(bool ok)
{
    if (!ok)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    Core::FileLimits limits;
    limits.maxActions = 20000; // keep each run fast; the limit path itself is exercised too
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const Core::LoadResult loaded = Core::ScenarioFile::parse(bytes, limits);
    if (!loaded.ok()) {
        check(!loaded.error.isEmpty());
        return 0;
    }
    const Core::Scenario &s = *loaded.scenario;

    // lossless: what we save loads back equal
    const Core::LoadResult again = Core::ScenarioFile::parse(Core::ScenarioFile::serialize(s), limits);
    check(again.ok() && *again.scenario == s);

    bool allLt = true;
    for (const Core::StorageSpec &st : s.storages)
        allLt = allLt && st.rule == Core::FenceRule::Lt;
    for (const bool fencing : {true, false}) {
        const Core::Trace t = Core::simulate(s, fencing);
        // fencing with the lt rule and a monotonic token source never lets stale data in
        if (fencing && allLt)
            check(t.summary.corrupted == 0);
        Core::Token last = 0;
        for (const Core::Grant &g : t.grants) {
            check(g.renewal ? g.token == last : g.token == last + 1);
            last = g.token;
        }
        check(t.summary.accepted + t.summary.rejected + t.summary.corrupted + t.summary.lockedOut ==
              t.writes.size());
        for (std::size_t i = 1; i < t.events.size(); ++i)
            check(t.events[i - 1].tick <= t.events[i].tick);
    }
    return 0;
}
