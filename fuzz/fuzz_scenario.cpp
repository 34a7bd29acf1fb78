// Feeds arbitrary bytes to the scenario loader; whatever loads is simulated both ways and
// checked against the invariants a user relies on. The loader is also checked against a second,
// independent parse (QJsonDocument) and against the second look that words syntax errors
// (JsonSyntax), and the check (ScenarioFile::checkBytes) against the loader: any crash,
// sanitizer report or failed check is a bug.

#include "jsonsyntax.h"
#include "scenariofile.h"
#include "simulator.h"
#include "tracecompare.h"

#include <QJsonDocument>

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace {

// Says which check failed before aborting, so that a crash report points at the invariant.
void check(bool ok, int line = __builtin_LINE())
{
    if (!ok) {
        std::fprintf(stderr, "fuzz_scenario.cpp:%d: check failed\n", line);
        std::abort();
    }
}

bool contains(const QString &text, const char *part)
{
    return text.contains(QLatin1String(part));
}

// What a scenario file may not contain although Qt's parser takes it (README "Scenario
// files"); the second look names each of these, and only these, where Qt sees no error.
bool documentedDifference(const QString &syntax)
{
    return contains(syntax, "a NUL byte") || contains(syntax, "a raw control character") ||
           contains(syntax, "lone UTF-16 surrogate") || contains(syntax, "nested too deeply") ||
           contains(syntax, "a number as JSON does not allow it") ||
           contains(syntax, "an escape JSON does not know") ||
           contains(syntax, "a backslash before a character JSON cannot escape");
}

void checkAgainstQt(const QByteArray &bytes, const Core::FileLimits &limits,
                    const Core::LoadResult &loaded)
{
    QJsonParseError qtError{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &qtError);
    const QString syntax = Core::JsonSyntax::problem(bytes, limits.maxDepth);
    // the fast path never refuses what the second look accepts
    check(!loaded.error.startsWith(QLatin1String("file: not valid JSON")));
    if (loaded.ok()) {
        check(syntax.isEmpty());
        check(doc.isObject()); // what loads, Qt reads too
        return;
    }
    check(!loaded.error.isEmpty());
    if (loaded.error.startsWith(QLatin1String("file: encoded")) ||
        loaded.error.startsWith(QLatin1String("file: too large")))
        return;
    // a line and column exactly for the syntax errors, and the same words as the second look
    check(loaded.error.startsWith(QLatin1String("line ")) == !syntax.isEmpty());
    if (!syntax.isEmpty())
        check(loaded.error == syntax);
    // where Qt sees no error, the second look names one of the documented differences
    if (!syntax.isEmpty() && qtError.error == QJsonParseError::NoError)
        check(documentedDifference(syntax));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    Core::FileLimits limits;
    limits.maxActions = 20000; // keep each run fast; the limit path itself is exercised too
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const Core::LoadResult loaded = Core::ScenarioFile::parse(bytes, limits);
    checkAgainstQt(bytes, limits, loaded);
    // a buffer with room for simdjson's padding is parsed in place, the rest through a padded
    // copy: both must give the same scenario or the same error
    QByteArray roomy;
    roomy.reserve(qsizetype(size) + 64);
    roomy.append(bytes);
    const Core::LoadResult inPlace = Core::ScenarioFile::parse(roomy, limits);
    check(inPlace.error == loaded.error && inPlace.scenario == loaded.scenario);
    // the check reads every action into one scratch action: the same error, the same counts
    const Core::CheckResult checked = Core::ScenarioFile::checkBytes(bytes, limits);
    check(checked.error == loaded.error);
    if (!loaded.ok())
        return 0;
    check(checked.title == loaded.scenario->title &&
          checked.clients == loaded.scenario->clients.size() &&
          checked.storages == loaded.scenario->storages.size() &&
          checked.actions == loaded.scenario->actionCount());
    const Core::Scenario &s = *loaded.scenario;

    // lossless: what we save loads back equal, and saves the same again
    const QByteArray saved = Core::ScenarioFile::serialize(s);
    const Core::LoadResult again = Core::ScenarioFile::parse(saved, limits);
    check(again.ok());
    check(*again.scenario == s);
    check(Core::ScenarioFile::serialize(*again.scenario) == saved);

    bool allLt = true;
    for (const Core::StorageSpec &st : s.storages)
        allLt = allLt && st.rule == Core::FenceRule::Lt;
    // (a restore may hand out an old token again, with or without enough bump: left out here,
    // tests/core/tst_tokensources.cpp checks restores)
    const bool monotonic = Core::isMonotonic(s.tokens) && s.lock.restores.empty();
    // the pitfalls of sections 11 and 12 that do let stale data in: a bypass client, a
    // max_token forgotten in a restart
    bool holes = false;
    for (const Core::Client &c : s.clients)
        holes = holes || c.bypass;
    for (const Core::StorageSpec &st : s.storages)
        holes = holes || (!st.durable && !st.restarts.empty());
    for (const bool fencing : {true, false}) {
        const Core::Trace t = Core::simulate(s, fencing);
        // fencing with the lt rule and a monotonic token source never lets stale data in
        if (fencing && allLt && monotonic && !holes)
            check(t.summary.corrupted == 0);
        // a counter counts from lock.first; every monotonic source only grows (a renewal keeps
        // its token)
        std::optional<Core::Token> last;
        if (s.tokens == Core::TokenSource::Counter && s.lock.first > 0)
            last = s.lock.first - 1;
        for (const Core::Grant &g : t.grants) {
            if (s.tokens == Core::TokenSource::Counter && monotonic && last)
                check(g.renewal ? g.token == *last : g.token == *last + 1);
            else if (monotonic && last)
                check(g.renewal ? g.token == *last : g.token > *last);
            last = g.token;
        }
        check(t.summary.accepted + t.summary.rejected + t.summary.corrupted + t.summary.lockedOut ==
              t.writes.size());
        for (std::size_t i = 1; i < t.events.size(); ++i)
            check(t.events[i - 1].tick <= t.events[i].tick);
    }

    // A drag on this scenario: one action moved and stretched, re-run from a checkpoint (and
    // maybe rejoining the last run), must give exactly what a fresh run gives.
    std::size_t actions = 0;
    for (const Core::Client &c : s.clients)
        actions += c.actions.size();
    if (actions > 0 && actions <= 5000) {
        Core::Scenario edited = s;
        std::size_t pick = size % actions;
        std::uint32_t client = 0;
        while (pick >= edited.clients[client].actions.size())
            pick -= edited.clients[client++].actions.size();
        Core::Action &a = edited.clients[client].actions[pick];
        const Core::Tick from = a.at;
        const Core::Tick step = 1 + size % 7;
        if (a.at + step < Core::kMaxFileInteger)
            a.at += step;
        if (a.kind != Core::ActionKind::Release && a.amount + 1 < Core::kMaxFileInteger)
            a.amount += 1;
        Core::Simulator sim(1 + size % 16);
        Core::Trace t;
        Core::Scenario live = s;
        sim.run(live, live.fencing, t);
        live = edited;
        sim.rerun(client, from, Core::kForever, std::uint32_t(pick));
        QString why;
        check(TestSupport::sameTrace(t, Core::simulate(edited, edited.fencing), &why));
    }
    return 0;
}
