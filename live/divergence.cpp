#include "divergence.h"

#include "simulator.h"
#include "tokensource.h"

#include <algorithm>

namespace Live {

namespace {

QString name(const Core::Scenario &s, std::uint32_t c)
{
    return s.clients[c].name;
}

// An action in words: "A's write 'x' at t=13", "B's acquire at t=12".
QString actionWords(const Core::Scenario &s, std::uint32_t c, std::uint32_t i)
{
    const Core::Action &a = s.clients[c].actions[i];
    if (a.kind == Core::ActionKind::Write)
        return QStringLiteral("%1's write '%2' at t=%3").arg(name(s, c), a.value).arg(a.at);
    return QStringLiteral("%1's %2 at t=%3").arg(name(s, c), Core::toString(a.kind)).arg(a.at);
}

QString seconds(double s)
{
    return QStringLiteral("%1 s").arg(s, 0, 'f', 2);
}

// What one action came to in a run, in words that compare: "granted", "refused", ...; empty
// when it did not run.
QString outcome(const Core::Trace &t, std::uint32_t c, std::uint32_t i, Core::Tick *at)
{
    for (const Core::Wait &w : t.waits)
        if (w.client == c && w.action == i) {
            *at = w.to == Core::kForever ? w.from : w.to;
            if (w.to == Core::kForever)
                return QStringLiteral("still waiting");
            return w.granted ? QStringLiteral("granted after waiting")
                             : QStringLiteral("gave up waiting");
        }
    for (const Core::Grant &g : t.grants)
        if (g.client == c && g.action == i && !g.keepalive) {
            *at = g.at;
            return g.renewal ? QStringLiteral("renewed") : QStringLiteral("granted");
        }
    for (const Core::Refusal &r : t.refusals)
        if (r.client == c && r.action == i) {
            *at = r.at;
            return QStringLiteral("refused");
        }
    for (const Core::Release &r : t.releases)
        if (r.client == c && r.action == i) {
            *at = r.at;
            return r.effective ? QStringLiteral("released") : QStringLiteral("released nothing");
        }
    for (const Core::Skip &k : t.skips)
        if (k.client == c && k.action == i) {
            *at = k.at;
            return QStringLiteral("skipped");
        }
    for (std::uint32_t w = 0; w < t.writes.size(); ++w) {
        const Core::Write &wr = t.writes[w];
        if (wr.client != c || wr.action != i)
            continue;
        *at = wr.arrivedAt;
        const bool arrived =
            std::find(t.storageWrites[wr.storage].begin(), t.storageWrites[wr.storage].end(), w) !=
            t.storageWrites[wr.storage].end();
        if (!arrived)
            return QStringLiteral("still in flight");
        return Core::toString(wr.result) + (wr.expired ? QStringLiteral(" (expired)") : QString());
    }
    for (const Core::Read &r : t.reads)
        if (r.client == c && r.action == i) {
            *at = r.arrivedAt;
            return r.arrived ? QStringLiteral("read version %1").arg(r.version)
                             : QStringLiteral("still in flight");
        }
    return {};
}

// The lease that was live at `at` in the prediction but that etcd had not yet ended, or the
// other way round: why an acquire or a write could have gone otherwise.
QString leaseReason(const Core::Scenario &s, const Core::Trace &p, const Core::Trace &o, double at)
{
    const std::size_t n = std::min(p.leases.size(), o.leases.size());
    for (std::size_t e = 0; e < n; ++e) {
        const double predictedEnd = double(p.leases[e].end);
        const double observedEnd = o.leaseTime(e).to;
        if (predictedEnd <= at && at < observedEnd)
            return QStringLiteral(": etcd had not yet ended %1's lease (it ended it at t=%2, "
                                  "the model at t=%3)")
                .arg(name(s, o.leases[e].client))
                .arg(observedEnd, 0, 'f', 1)
                .arg(p.leases[e].end);
    }
    return {};
}

} // namespace

std::vector<Divergence> compareRuns(const Core::Scenario &s, const Core::Trace &p,
                                    const Core::Trace &o, const RunLog &log)
{
    std::vector<Divergence> out;
    // what ran late first: a late run is not judged, and its differences may be why
    for (const RunLog::Late &l : log.late) {
        Divergence d{DivergenceKind::Late, false, l.client, l.action, l.tick, {}};
        if (l.client == Core::kNone)
            d.text = QStringLiteral("a pause edge at t=%1 came %2 late (more than a quarter "
                                    "tick): the run is not judged")
                         .arg(l.tick)
                         .arg(seconds(l.seconds));
        else if (l.slow)
            d.text = QStringLiteral("%1 took %2, a tick or more: the run is not judged")
                         .arg(actionWords(s, l.client, l.action), seconds(l.seconds));
        else
            d.text = QStringLiteral("%1 ran %2 late (more than a quarter tick): the run is not "
                                    "judged")
                         .arg(actionWords(s, l.client, l.action), seconds(l.seconds));
        out.push_back(d);
    }
    for (const auto &[c, i] : log.waitersExpired)
        out.push_back({DivergenceKind::Outcome, true, c, i, s.clients[c].actions[i].at,
                       QStringLiteral("%1: its key went while it waited, as its lease was not "
                                      "kept alive (the process was stopped); the model's waiter "
                                      "keeps its place")
                           .arg(actionWords(s, c, i))});

    // every action's outcome
    for (std::uint32_t c = 0; c < s.clients.size(); ++c)
        for (std::uint32_t i = 0; i < s.clients[c].actions.size(); ++i) {
            if (s.clients[c].actions[i].kind == Core::ActionKind::Pause)
                continue;
            Core::Tick pAt = 0, oAt = 0;
            const QString want = outcome(p, c, i, &pAt);
            const QString got = outcome(o, c, i, &oAt);
            if (want == got)
                continue;
            const QString reason = leaseReason(s, p, o, double(oAt));
            out.push_back(
                {DivergenceKind::Outcome, true, c, i, oAt,
                 QStringLiteral("%1: predicted %2, observed %3%4")
                     .arg(actionWords(s, c, i), want.isEmpty() ? QStringLiteral("nothing") : want,
                          got.isEmpty() ? QStringLiteral("nothing (it did not run)") : got,
                          reason)});
        }

    // the order of grants, and their tokens
    std::vector<const Core::Grant *> pg, og;
    for (const Core::Grant &g : p.grants)
        if (!g.renewal)
            pg.push_back(&g);
    for (const Core::Grant &g : o.grants)
        if (!g.renewal)
            og.push_back(&g);
    bool sameOrder = pg.size() == og.size();
    for (std::size_t k = 0; sameOrder && k < pg.size(); ++k)
        sameOrder = pg[k]->client == og[k]->client;
    if (!sameOrder) {
        QStringList want, got;
        for (const Core::Grant *g : pg)
            want << name(s, g->client);
        for (const Core::Grant *g : og)
            got << name(s, g->client);
        out.push_back(
            {DivergenceKind::Order, true, Core::kNone, Core::kNone, og.empty() ? 0 : og.front()->at,
             QStringLiteral("the lock went to %1, predicted %2")
                 .arg(got.isEmpty() ? QStringLiteral("nobody") : got.join(QLatin1String(", ")),
                      want.isEmpty() ? QStringLiteral("nobody") : want.join(QLatin1String(", ")))});
    } else {
        const auto countBelow = [](const std::vector<std::uint64_t> &revs, std::uint64_t r) {
            return std::uint64_t(
                std::count_if(revs.begin(), revs.end(), [r](std::uint64_t x) { return x < r; }));
        };
        for (std::size_t k = 0; k < og.size(); ++k) {
            const Core::Token want = pg[k]->token, got = og[k]->token;
            if (want == got)
                continue;
            // revisions before this token that the model does not count: the storages' writes
            // in the same etcd, and changes made outside this run (another user of the etcd)
            const std::uint64_t storage = countBelow(log.storageRevisions, got);
            const std::uint64_t own =
                countBelow(log.lockRevisions, got) + countBelow(log.putRevisions, got) + storage;
            const std::uint64_t total = got > log.startRevision ? got - log.startRevision - 1 : 0;
            const std::uint64_t outside = total > own ? total - own : 0;
            const bool explained = got == want + storage + outside;
            QStringList why;
            if (storage)
                why << QStringLiteral("%1 of the storages' writes in the same etcd").arg(storage);
            if (outside)
                why << QStringLiteral("%1 changes made outside this run").arg(outside);
            Divergence d{
                DivergenceKind::TokenGap, !explained, og[k]->client, og[k]->action, og[k]->at, {}};
            if (explained)
                d.text = QStringLiteral("%1's token is %2, predicted %3: %4 came before it")
                             .arg(name(s, og[k]->client),
                                  Core::formatToken(Core::TokenSource::Etcd, got),
                                  Core::formatToken(Core::TokenSource::Etcd, want),
                                  why.join(QLatin1String(" and ")));
            else
                d.text = QStringLiteral("%1's token is %2, predicted %3: the lock's keys changed "
                                        "otherwise than the model counts")
                             .arg(name(s, og[k]->client),
                                  Core::formatToken(Core::TokenSource::Etcd, got),
                                  Core::formatToken(Core::TokenSource::Etcd, want));
            out.push_back(d);
        }
    }

    // when etcd ended each lease, against its TTL
    const std::size_t leases = std::min(p.leases.size(), o.leases.size());
    for (std::size_t e = 0; e < leases; ++e) {
        const Core::Lease &pl = p.leases[e];
        const Core::Lease &ol = o.leases[e];
        if (pl.released || ol.released || pl.client != ol.client || ol.end > o.lastTick + 1)
            continue;
        const double late = (o.leaseTime(e).to - double(pl.end)) * log.tickSeconds;
        if (std::abs(late) < 0.05)
            continue;
        // a grant that came late (a waiter's, after a late lease end) moves its end too
        const double grantLate = (o.leaseTime(e).from - double(pl.start)) * log.tickSeconds;
        const QString grant = grantLate >= 0.05
                                  ? QStringLiteral("%1 got the lock %2 later than the model says, "
                                                   "and ")
                                        .arg(name(s, ol.client), seconds(grantLate))
                                  : QString();
        const QString where = QStringLiteral("at t=%1, the model at t=%2")
                                  .arg(o.leaseTime(e).to, 0, 'f', 1)
                                  .arg(pl.end);
        std::uint32_t acquire = Core::kNone; // the acquire whose lease it is
        for (const Core::Grant &g : o.grants)
            if (g.epoch == ol.epoch && !g.renewal)
                acquire = g.action;
        out.push_back({DivergenceKind::LeaseEnd, false, ol.client, acquire, ol.end,
                       late > 0 ? QStringLiteral("etcd ended %1's lease %2 late (%3): %4etcd's "
                                                 "lessor looks for expired leases every 500 ms")
                                      .arg(name(s, ol.client), seconds(late), where, grant)
                                : QStringLiteral("etcd ended %1's lease %2 early (%3)")
                                      .arg(name(s, ol.client), seconds(-late), where)});
    }

    // final values
    for (std::uint32_t st = 0;
         st < s.storages.size() && st < p.finals.size() && st < o.finals.size(); ++st) {
        const Core::StorageState &pf = p.finals[st];
        const Core::StorageState &of = o.finals[st];
        const QString sname = s.storages[st].name;
        if (pf.value != of.value)
            out.push_back({DivergenceKind::Final, true, Core::kNone, Core::kNone, o.lastTick,
                           QStringLiteral("%1 ends with '%2', predicted '%3'")
                               .arg(sname, of.value, pf.value)});
        // max_token compares through the epoch that set it: tokens themselves may have gaps
        Core::Token expected = 0;
        for (std::size_t e = 0; e < p.leases.size() && e < o.leases.size(); ++e)
            if (pf.maxToken != 0 && p.leases[e].token == pf.maxToken)
                expected = o.leases[e].token;
        if (of.maxToken != expected && s.storages[st].check == Core::StorageCheck::Token)
            out.push_back({DivergenceKind::Final, true, Core::kNone, Core::kNone, o.lastTick,
                           QStringLiteral("%1 ends with max_token %2, predicted %3")
                               .arg(sname)
                               .arg(of.maxToken)
                               .arg(pf.maxToken)});
        const bool byVersion = s.storages[st].check == Core::StorageCheck::Version;
        // (every storage counts its applied writes, but only a version storage compares them)
        if (byVersion && pf.version != of.version)
            out.push_back({DivergenceKind::Final, true, Core::kNone, Core::kNone, o.lastTick,
                           QStringLiteral("%1 ends at version %2, predicted %3")
                               .arg(sname)
                               .arg(of.version)
                               .arg(pf.version)});
        if (st < log.readBack.size()) {
            const Core::StorageState &rb = log.readBack[st];
            if (rb.value != of.value || (byVersion && rb.version != of.version) ||
                (s.storages[st].check == Core::StorageCheck::Token && rb.maxToken != of.maxToken))
                out.push_back({DivergenceKind::Final, true, Core::kNone, Core::kNone, o.lastTick,
                               QStringLiteral("%1 read back at the end holds '%2' (max_token %3, "
                                              "version %4), not what its writes' replies said")
                                   .arg(sname, rb.value)
                                   .arg(rb.maxToken)
                                   .arg(rb.version)});
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Divergence &a, const Divergence &b) { return a.tick < b.tick; });
    return out;
}

Verdict verdictOf(const std::vector<Divergence> &ds, bool complete)
{
    if (!complete)
        return Verdict::Partial;
    if (std::any_of(ds.begin(), ds.end(),
                    [](const Divergence &d) { return d.kind == DivergenceKind::Late; }))
        return Verdict::Unjudged;
    if (std::any_of(ds.begin(), ds.end(), [](const Divergence &d) { return d.disagreement; }))
        return Verdict::Disagreed;
    return Verdict::Agreed;
}

QString toString(Verdict v)
{
    switch (v) {
    case Verdict::Agreed:
        return QStringLiteral("agreed");
    case Verdict::Disagreed:
        return QStringLiteral("disagreed");
    case Verdict::Unjudged:
        return QStringLiteral("unjudged");
    case Verdict::Partial:
        break;
    }
    return QStringLiteral("partial");
}

QString toString(DivergenceKind k)
{
    switch (k) {
    case DivergenceKind::Outcome:
        return QStringLiteral("outcome");
    case DivergenceKind::Order:
        return QStringLiteral("order");
    case DivergenceKind::TokenGap:
        return QStringLiteral("tokenGap");
    case DivergenceKind::LeaseEnd:
        return QStringLiteral("leaseEnd");
    case DivergenceKind::Final:
        return QStringLiteral("final");
    case DivergenceKind::Late:
        return QStringLiteral("late");
    case DivergenceKind::Stopped:
        break;
    }
    return QStringLiteral("stopped");
}

} // namespace Live
