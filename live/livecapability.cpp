#include "livecapability.h"

#include "lanescript.h"
#include "tokensource.h"

#include <numeric>

namespace Live {

namespace {

QString sourceRefusal(Core::TokenSource source)
{
    switch (source) {
    case Core::TokenSource::Counter:
    case Core::TokenSource::Etcd:
        return {};
    case Core::TokenSource::ZooKeeper:
        return QStringLiteral("its tokens are ZooKeeper zxids and its failovers ZooKeeper's: a "
                              "live run's tokens are etcd's revisions");
    case Core::TokenSource::RaftTerm:
        return QStringLiteral("its tokens are the terms of a Raft group's leaders: a live run's "
                              "tokens are etcd's revisions");
    case Core::TokenSource::KafkaEpoch:
        return QStringLiteral("its tokens are Kafka producer epochs, whose acquires are never "
                              "refused: etcd's lock refuses a held lock");
    case Core::TokenSource::Chubby:
        return QStringLiteral("its tokens are Chubby sequencers: a live run's tokens are etcd's "
                              "revisions");
    case Core::TokenSource::None:
        return QStringLiteral("Redlock hands out no token, and etcd's lock always does (its "
                              "key's create_revision)");
    case Core::TokenSource::Random:
        return QStringLiteral("its tokens are random numbers: etcd's revisions only grow");
    case Core::TokenSource::WallClock:
        return QStringLiteral("its tokens are a server's wall clock with a step back: etcd's "
                              "revisions only grow");
    case Core::TokenSource::ServiceTerm:
        return QStringLiteral("its tokens are the term of the lock service's own leader: a live "
                              "run's tokens are etcd's revisions");
    }
    return {};
}

QString clientName(const Core::Scenario &s, std::uint32_t c)
{
    return c < s.clients.size() ? s.clients[c].name : QStringLiteral("?");
}

// What depends on whether a lease has ended, and its words: "B's acquire".
bool dependsOnLease(const Core::Trace &t, std::uint32_t e, const std::vector<bool> &waiterGrant)
{
    const Core::Event &ev = t.events[e];
    switch (ev.kind) {
    case Core::EventKind::Grant:
        return !waiterGrant[ev.ref]; // (a waiter is granted because the lease ended)
    case Core::EventKind::Renewal:
    case Core::EventKind::Refusal:
    case Core::EventKind::Release:
    case Core::EventKind::WriteArrived:
    case Core::EventKind::Lost:
        return true;
    default:
        return false;
    }
}

QString eventWords(const Core::Scenario &s, const Core::Trace &t, std::uint32_t e)
{
    const Core::Event &ev = t.events[e];
    QString who = clientName(s, ev.client);
    switch (ev.kind) {
    case Core::EventKind::Grant:
    case Core::EventKind::Refusal:
        return QStringLiteral("%1's acquire").arg(who);
    case Core::EventKind::Renewal:
        return t.grants[ev.ref].keepalive ? QStringLiteral("%1's keepalive").arg(who)
                                          : QStringLiteral("%1's acquire").arg(who);
    case Core::EventKind::Release:
        return QStringLiteral("%1's release").arg(who);
    case Core::EventKind::WriteArrived:
        return QStringLiteral("%1's write '%2' arriving")
            .arg(who, s.clients[ev.client].actions[t.writes[ev.ref].action].value);
    case Core::EventKind::Lost:
        return QStringLiteral("%1's keepalive").arg(who);
    default:
        return who;
    }
}

} // namespace

QStringList refusals(const Core::Scenario &s, const Core::Trace &predicted)
{
    QStringList out;
    const QString source = sourceRefusal(s.tokens);
    if (!source.isEmpty())
        out << source;
    if (!s.lock.restores.empty())
        out << QStringLiteral("it restores the lock service from a snapshot: a live run does "
                              "not restore etcd");
    if (s.lock.lockDelay > 0)
        out << QStringLiteral("its lock-delay is Chubby's: etcd's lock has none");
    for (const Core::Client &c : s.clients)
        if (!c.clock.isDefault())
            out << QStringLiteral("client %1 has a clock of its own: a live run's clients share "
                                  "the machine's clock")
                       .arg(c.name);
    for (const Core::StorageSpec &st : s.storages)
        if (!st.restarts.empty())
            out << QStringLiteral("storage %1 restarts: a live run's storages are keys in etcd, "
                                  "which keeps them")
                       .arg(st.name);
    if (s.clients.size() > kMaxClients)
        out << QStringLiteral("it has %1 clients: a live run starts a process for each, at most "
                              "%2")
                   .arg(s.clients.size())
                   .arg(kMaxClients);
    if (s.actionCount() > kMaxActions)
        out << QStringLiteral("it has %1 actions: a live run takes at most %2")
                   .arg(s.actionCount())
                   .arg(kMaxActions);
    // a delay is the network's: a live run holds the write in its client's process, so a pause
    // of that client must not fall in it
    const auto inFlightWhilePaused = [&](std::uint32_t c, Core::Tick from, Core::Tick to) {
        for (const Core::Freeze &f : predicted.freezes[c])
            if (f.from < to && f.to > from)
                return true;
        return false;
    };
    for (const Core::Write &w : predicted.writes)
        if (w.arrivedAt > w.sentAt && inFlightWhilePaused(w.client, w.sentAt, w.arrivedAt)) {
            out << QStringLiteral("%1's write '%2' is in flight while %1 is paused: a live run "
                                  "holds a delayed write in its client's process")
                       .arg(clientName(s, w.client), s.clients[w.client].actions[w.action].value);
            break;
        }
    for (const Core::Read &r : predicted.reads)
        if (r.arrivedAt > r.sentAt && inFlightWhilePaused(r.client, r.sentAt, r.arrivedAt)) {
            out << QStringLiteral("%1's read at t=%2 is in flight while %1 is paused: a live run "
                                  "holds a delayed read in its client's process")
                       .arg(clientName(s, r.client))
                       .arg(r.sentAt);
            break;
        }
    // etcd's keepalive renews a lease for the TTL it was granted with (lessor.go's Renew)
    for (const Core::Grant &g : predicted.grants) {
        if (!g.renewal)
            continue;
        const Core::Grant *first = nullptr;
        for (const Core::Grant &h : predicted.grants)
            if (h.epoch == g.epoch && !h.renewal) {
                first = &h;
                break;
            }
        if (first && g.expires - g.at != first->expires - first->at) {
            out << QStringLiteral("%1's %2 at t=%3 renews its lease for %4 ticks, but it was "
                                  "granted for %5: etcd renews a lease for the TTL it was "
                                  "granted with")
                       .arg(clientName(s, g.client),
                            g.keepalive ? QStringLiteral("keepalive") : QStringLiteral("acquire"))
                       .arg(g.at)
                       .arg(g.expires - g.at)
                       .arg(first->expires - first->at);
            break;
        }
    }
    return out;
}

Core::Scenario prediction(const Core::Scenario &s, std::uint64_t revision)
{
    Core::Scenario p = s;
    p.tokens = Core::TokenSource::Etcd;
    p.lock = Core::lockOptionsFor(Core::TokenSource::Etcd, s.lock);
    p.lock.revision = revision;
    return p;
}

TickPlan planTicks(const Core::Scenario &s, const Core::Trace &t, std::optional<qint64> wantedUs)
{
    TickPlan plan;
    plan.lastTick = t.lastTick;
    // every ttl a whole number of seconds: the tick is a multiple of 1 s / gcd(ttls)
    Core::Tick g = 0;
    for (const Core::Client &c : s.clients)
        for (const Core::Action &a : c.actions)
            if (a.kind == Core::ActionKind::Acquire)
                g = std::gcd(g, a.amount);
    // the smallest gap between a lease that ends by expiry and what depends on it after
    std::vector<bool> waiterGrant(t.grants.size(), false);
    for (const Core::Wait &w : t.waits)
        if (w.granted)
            waiterGrant[w.outcome] = true;
    Core::Tick margin = 0;
    const Core::Lease *tightLease = nullptr;
    std::uint32_t tightEvent = Core::kNone;
    for (const Core::Lease &l : t.leases) {
        if (l.released)
            continue;
        for (std::uint32_t e = t.firstEventAt(l.end); e < t.events.size(); ++e) {
            if (!dependsOnLease(t, e, waiterGrant))
                continue;
            const Core::Tick gap = t.events[e].tick - l.end;
            if (!tightLease || gap < margin) {
                margin = gap;
                tightLease = &l;
                tightEvent = e;
            }
            break;
        }
    }
    plan.margin = margin;
    const auto tightWords = [&] {
        return QStringLiteral("%1 at t=%2 comes %3 after %4's lease ends at t=%5")
            .arg(eventWords(s, t, tightEvent))
            .arg(t.events[tightEvent].tick)
            .arg(margin == 1 ? QStringLiteral("1 tick") : QStringLiteral("%1 ticks").arg(margin))
            .arg(clientName(s, tightLease->client))
            .arg(tightLease->end);
    };
    if (tightLease && margin == 0) {
        plan.error = QStringLiteral("%1: etcd ends a lease up to half a second late, so no tick "
                                    "leaves %2 ms between them")
                         .arg(tightWords())
                         .arg(kLeaseEndMarginMs);
        return plan;
    }
    const qint64 needUs =
        tightLease ? (kLeaseEndMarginMs * 1000 + qint64(margin) - 1) / qint64(margin) : 0;
    if (wantedUs) {
        for (const Core::Client &c : s.clients)
            for (const Core::Action &a : c.actions)
                if (a.kind == Core::ActionKind::Acquire && !wholeSeconds(a.amount, *wantedUs)) {
                    plan.error = QStringLiteral("with a %1 tick, %2's ttl of %3 ticks is not a "
                                                "whole number of seconds, as etcd's TTLs are")
                                     .arg(tickText(*wantedUs), c.name)
                                     .arg(a.amount);
                    return plan;
                }
        if (tightLease && *wantedUs < needUs) {
            plan.error = QStringLiteral("with a %1 tick, %2, %3 ms: it needs at least %4 ms, as "
                                        "etcd ends a lease up to half a second late")
                             .arg(tickText(*wantedUs), tightWords())
                             .arg(qint64(margin) * *wantedUs / 1000)
                             .arg(kLeaseEndMarginMs);
            return plan;
        }
        if (*wantedUs < kMinTickUs) {
            plan.error = QStringLiteral("a tick of %1 is too short: at least %2")
                             .arg(tickText(*wantedUs), tickText(kMinTickUs));
            return plan;
        }
        plan.tickUs = *wantedUs;
    } else {
        const qint64 need = std::max(needUs, kMinTickUs);
        if (g == 0) {
            plan.tickUs = need;
        } else {
            // the smallest k with 1 s * k / g >= need
            const qint64 k = std::max<qint64>(1, (need * qint64(g) + 999999) / 1000000);
            plan.tickUs = std::llround(1e6 * double(k) / double(g));
        }
    }
    if (double(plan.lastTick) * double(plan.tickUs) / 1000 > double(kMaxRunMs)) {
        plan.error = QStringLiteral("at a %1 tick its %2 ticks take %3 s: a live run lasts at "
                                    "most %4 minutes")
                         .arg(tickText(plan.tickUs))
                         .arg(plan.lastTick)
                         .arg(qRound(plan.seconds()))
                         .arg(kMaxRunMs / 60000);
        plan.tickUs = 0;
    }
    return plan;
}

QString tickText(qint64 tickUs)
{
    if (tickUs % 1000 == 0)
        return QStringLiteral("%1 ms").arg(tickUs / 1000);
    return QStringLiteral("%1 ms").arg(double(tickUs) / 1000, 0, 'f', 3);
}

} // namespace Live
