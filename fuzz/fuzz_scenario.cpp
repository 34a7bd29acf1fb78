// Feeds arbitrary bytes to the scenario loader; whatever loads is simulated both ways and
// checked against the invariants a user relies on. The loader's JSON reader is also checked
// against QJsonDocument: the same verdict, error and offset, and the same values. Any crash,
// sanitizer report or failed check is a bug.

#include "jsonreader.h"
#include "scenariofile.h"
#include "simulator.h"
#include "tracecompare.h"

#include <QCborValue>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Says which check failed before aborting, so that a crash report points at the invariant.
void check(bool ok, int line = __builtin_LINE())
{
    if (!ok) {
        std::fprintf(stderr, "fuzz_scenario.cpp:%d: check failed\n", line);
        std::abort();
    }
}

// Equal including what QJsonValue::operator== forgives (an integer kept as a double); objects
// by iteration, as Qt may keep two keys that read the same.
bool same(const QJsonValue &a, const QJsonValue &b)
{
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case QJsonValue::Double:
        return QCborValue::fromJsonValue(a).isInteger() == QCborValue::fromJsonValue(b).isInteger() &&
               a.toInteger(-1) == b.toInteger(-1) &&
               (a.toDouble() == b.toDouble() || (std::isnan(a.toDouble()) && std::isnan(b.toDouble())));
    case QJsonValue::String:
        return a.toString() == b.toString();
    case QJsonValue::Array: {
        const QJsonArray x = a.toArray();
        const QJsonArray y = b.toArray();
        if (x.size() != y.size())
            return false;
        for (qsizetype i = 0; i < x.size(); ++i)
            if (!same(x.at(i), y.at(i)))
                return false;
        return true;
    }
    case QJsonValue::Object: {
        const auto entries = [](const QJsonObject &o) {
            std::vector<std::pair<QString, QJsonValue>> list;
            for (auto it = o.begin(); it != o.end(); ++it)
                list.emplace_back(it.key(), it.value());
            std::stable_sort(list.begin(), list.end(),
                             [](const auto &p, const auto &q) { return p.first < q.first; });
            return list;
        };
        const auto x = entries(a.toObject());
        const auto y = entries(b.toObject());
        if (x.size() != y.size())
            return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (x[i].first != y[i].first || !same(x[i].second, y[i].second))
                return false;
        return true;
    }
    default:
        return a == b;
    }
}

void checkAgainstQt(const QByteArray &bytes)
{
    QJsonParseError qtError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &qtError);
    Core::JsonReader reader(bytes);
    try {
        reader.validate(nullptr);
    } catch (const Core::JsonSyntaxError &e) {
        check(qtError.error == e.error && qtError.offset == e.offset);
        return;
    }
    check(qtError.error == QJsonParseError::NoError);
    qsizetype start = bytes.startsWith("\xef\xbb\xbf") && bytes.size() > 3 ? 3 : 0;
    while (bytes.at(start) != '[' && bytes.at(start) != '{')
        ++start;
    const QJsonValue mine = reader.valueAt(start);
    check(same(mine, doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array())));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    Core::FileLimits limits;
    limits.maxActions = 20000; // keep each run fast; the limit path itself is exercised too
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    checkAgainstQt(bytes);
    const Core::LoadResult loaded = Core::ScenarioFile::parse(bytes, limits);
    if (!loaded.ok()) {
        check(!loaded.error.isEmpty());
        return 0;
    }
    const Core::Scenario &s = *loaded.scenario;

    // lossless: what we save loads back equal. Two exceptions come from Qt: a kept key that
    // starts with a raw byte order mark reads (and is saved) without it, and a lone surrogate
    // from a \u escape is saved as U+FFFD (QString::toUtf8). So the first save may normalize
    // those; from then on saving must be lossless.
    const Core::LoadResult again = Core::ScenarioFile::parse(Core::ScenarioFile::serialize(s), limits);
    check(again.ok());
    if (!(*again.scenario == s)) {
        check(bytes.contains("\xef\xbb\xbf") || bytes.contains("\\u"));
        const Core::LoadResult third =
            Core::ScenarioFile::parse(Core::ScenarioFile::serialize(*again.scenario), limits);
        check(third.ok() && *third.scenario == *again.scenario);
    }

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
