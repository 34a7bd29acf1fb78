// docs/SCENARIO.md sections 11 and 12, used only when a scenario has them (Impl::pitfalls):
// check-then-write with its gap, keepalives, reads and versions, storage restarts, writes that
// bypass the fence, groups of writes. With them the clients' phase runs lane by lane
// (clientsPhase) instead of the plain loop's.
#include "simulatorimpl.h"

namespace Core {

using namespace SimulatorDetail;

void Simulator::Impl::sendRead(std::uint32_t c, std::uint32_t i, Tick now)
{
    const Action &a = s->clients[c].actions[i];
    const auto index = std::uint32_t(t->reads.size());
    t->reads.push_back({now, now + a.amount, 0, c, i, a.storage, false});
    record(now, c, EventKind::ReadSent, index);
    const auto seq = std::uint32_t(sends++);
    if (a.amount == 0)
        arriveRead(index, now); // the reply is instant
    else
        pushMin(arrivals, {now + a.amount, kReadArrival | index, seq});
}

void Simulator::Impl::arriveRead(std::uint32_t index, Tick now)
{
    Read &r = t->reads[index];
    r.version = versions[r.storage];
    r.arrived = true;
    lanes[r.client].known[r.storage] = r.version;
    record(now, r.client, EventKind::ReadArrived, index);
}

// Check-then-write (section 11): the client judges its own lease by its own clock.
void Simulator::Impl::checkWrite(std::uint32_t c, std::uint32_t i, Tick now)
{
    Lane &lane = lanes[c];
    const Action &a = s->clients[c].actions[i];
    const ClientClock &clock = s->clients[c].clock;
    const bool live = lane.believes && clock.local(now) - clock.local(lane.viewFrom) <
                                           static_cast<std::int64_t>(lane.viewTtl);
    const auto check = std::uint32_t(t->checks.size());
    t->checks.push_back({now, now, c, i, lane.epoch, kNone, live});
    if (!live) {
        const auto skip = std::uint32_t(t->skips.size());
        t->skips.push_back({now, c, i, lane.epoch, lane.believes});
        ++t->summary.skipped;
        record(now, c, EventKind::Skipped, skip);
        if (lane.believes) {
            t->lost.push_back({now, c, lane.epoch, LostReason::Check});
            record(now, c, EventKind::Lost, std::uint32_t(t->lost.size() - 1));
            endBelief(c, now, BeliefEnd::Skipped);
        }
        return;
    }
    record(now, c, EventKind::Checked, check);
    const Tick at = thawOf(c, now + a.gap());
    t->checks[check].sendAt = at;
    if (at == now) {
        t->checks[check].write = std::uint32_t(writes);
        sendWrite(c, i, now, lane.epoch);
        return;
    }
    // the send does not hold up the client's later actions
    const PendingSend p{at, i, lane.epoch, check};
    auto it =
        std::upper_bound(lane.sends.begin(), lane.sends.end(), p,
                         [](const PendingSend &x, const PendingSend &y) { return x.at < y.at; });
    lane.sends.insert(it, p);
    queueSends(c);
}

void Simulator::Impl::queueSends(std::uint32_t c)
{
    Lane &lane = lanes[c];
    if (!lane.sends.empty() && lane.sendEntry != lane.sends.front().at) {
        lane.sendEntry = lane.sends.front().at;
        pushMin(sendQueue, {lane.sendEntry, c});
    }
}

// An acquire that ran sets the keepalive schedule (`every` 0: none, section 14).
void Simulator::Impl::setKeepalive(std::uint32_t c, Tick every, Tick ttl, Tick now,
                                   std::uint32_t action)
{
    Lane &lane = lanes[c];
    lane.kaEvery = every;
    lane.kaTtl = ttl;
    lane.kaAction = action;
    if (!every) {
        lane.kaEntry = kForever;
        return;
    }
    lane.kaDue = now + every;
    lane.kaEntry = thawOf(c, lane.kaDue);
    pushMin(keepQueue, {lane.kaEntry, c});
}

void Simulator::Impl::stopKeepalive(std::uint32_t c)
{
    lanes[c].kaEvery = 0;
    lanes[c].kaEntry = kForever;
}

// One keepalive: a renewal of the live lease, or the news that it is gone.
void Simulator::Impl::keepalive(std::uint32_t c, Tick now)
{
    Lane &lane = lanes[c];
    if (lock.renew(c, lane.kaTtl, now)) {
        const std::uint32_t epoch = lock.epoch();
        putGrant(Grant{now, lock.expires(), lock.token(), epoch, c, lane.kaAction, true, true});
        record(now, c, EventKind::Renewal, std::uint32_t(grants - 1));
        t->leases[epoch - 1].end = lock.expires();
        lane.epoch = epoch;
        lane.viewFrom = now;
        lane.viewTtl = lane.kaTtl;
        if (!lane.believes)
            startBelief(c, now, epoch);
        setKeepalive(c, lane.kaEvery, lane.kaTtl, now, lane.kaAction);
        return;
    }
    t->lost.push_back({now, c, lane.epoch, LostReason::Keepalive});
    record(now, c, EventKind::Lost, std::uint32_t(t->lost.size() - 1));
    endBelief(c, now, BeliefEnd::Told);
    stopKeepalive(c); // it does not acquire again by itself
}

// Phase 6 when sections 11 and 12 are in use (section 14): lanes in order, each with its
// deferred actions, one keepalive, the sends due, then the actions listed at this tick.
void Simulator::Impl::clientsPhase(Tick now)
{
    for (;;) {
        dropStale(sendQueue, &Lane::sendEntry);
        dropStale(keepQueue, &Lane::kaEntry);
        std::uint32_t c = kNone;
        for (const std::vector<LaneAt> *q : {&laneQueue, &sendQueue, &keepQueue})
            if (!q->empty() && q->front().tick == now)
                c = std::min(c, q->front().lane);
        if (c == kNone)
            return;
        const auto at = [&](const std::vector<LaneAt> &q) {
            return !q.empty() && q.front().tick == now && q.front().lane == c;
        };
        const bool hadLane = at(laneQueue);
        if (hadLane)
            popMin(laneQueue);
        if (at(sendQueue)) {
            popMin(sendQueue);
            lanes[c].sendEntry = kForever;
        }
        if (at(keepQueue)) {
            popMin(keepQueue);
            lanes[c].kaEntry = kForever;
        }
        runLane(c, now);
        Lane &lane = lanes[c];
        if (hadLane && !lane.waiting && lane.next < lane.plan.order.size())
            pushMin(laneQueue, {lane.plan.runAt[lane.next], c});
        queueSends(c);
    }
}

void Simulator::Impl::runLane(std::uint32_t c, Tick now)
{
    Lane &lane = lanes[c];
    const Plan &plan = lane.plan;
    const std::vector<Action> &actions = s->clients[c].actions;
    const auto due = [&](bool deferredOnly) {
        return !lane.waiting && lane.next < plan.order.size() && plan.runAt[lane.next] <= now &&
               (!deferredOnly || actions[plan.order[lane.next]].at < now);
    };
    while (due(true))
        runAction(c, plan.order[lane.next++], now);
    if (!lane.waiting && lane.kaEvery && thawOf(c, lane.kaDue) <= now)
        keepalive(c, now);
    while (!lane.sends.empty() && lane.sends.front().at <= now) {
        const PendingSend p = lane.sends.front();
        lane.sends.erase(lane.sends.begin());
        t->checks[p.check].write = std::uint32_t(writes);
        sendWrite(c, p.action, now, p.epoch);
    }
    while (due(false))
        runAction(c, plan.order[lane.next++], now);
}

void Simulator::Impl::restartStorage(const RestartAt &r)
{
    const Token forgot = s->storages[r.storage].durable
                             ? 0
                             : storages[r.storage].forgetMaxToken(); // a volatile promise
    t->restarts.push_back({r.tick, forgot, r.storage, r.ref});
}

// Section 12: bypass writes skip the check; version storages compare-and-set on the
// version the writer knew and are judged by it; every storage counts its versions. Section 15:
// an `owner` storage asks the lock service, a `same` storage keeps the first token it saw.
void Simulator::Impl::arriveWithPitfalls(std::uint32_t index, Tick now)
{
    Write &w = t->writes[index];
    WriteStorage &storage = storages[w.storage];
    const bool bypass = s->clients[w.client].bypass;
    const StorageCheck check = s->storages[w.storage].check;
    const bool byVersion = check == StorageCheck::Version;
    std::uint64_t &version = versions[w.storage];
    const std::uint64_t current = version;
    const std::uint64_t expected = byVersion ? t->writeVersions[index].expected : 0;
    if (byVersion) {
        // no token rule at all: max_token stays 0, untagged writes may apply
        w.applied = !t->fencing || bypass || expected == current;
        if (w.applied)
            storage.writeUnchecked(index);
    } else if (bypass) {
        storage.writeUnchecked(index); // an unfenced path: max_token is left alone
        w.applied = true;
    } else if (check == StorageCheck::Owner) {
        // the storage asks the lock service whether it holds this write's grant, live by its
        // own state (section 15.4: restores and re-arms included)
        const bool owned = w.epoch != 0 && lock.epoch() == w.epoch && lock.holder() == w.client &&
                           lock.isLive(now);
        w.applied = storage.writeIfOwner(
            owned, w.tagged ? std::optional<Token>(t->tokenOf(w)) : std::nullopt, index);
    } else if (check == StorageCheck::Same) {
        w.applied = storage.writeIfSame(
            w.tagged ? std::optional<Token>(t->tokenOf(w)) : std::nullopt, index);
    } else {
        w.applied =
            storage.write(w.tagged ? std::optional<Token>(t->tokenOf(w)) : std::nullopt, index);
    }
    w.maxToken = storage.maxToken();
    w.expired = w.epoch != 0 && now >= t->leases[w.epoch - 1].end;
    if (w.applied)
        lanes[w.client].known[w.storage] = ++version; // the reply tells the new version
    if (!t->writeVersions.empty())
        t->writeVersions[index].version = version;
    // a version storage is judged by what the writer had read, not by epochs
    judge(index, now, byVersion ? std::optional<bool>(expected < current) : std::nullopt);
}

// Section 12's groups, keyed by client and name, in lane order and then by the first
// appearance of the name in the client's actions. A storage written twice in one group
// counts once, by its last write in the file, and stands where that write does.
void Simulator::Impl::findGroups()
{
    collectGroups(*s, *t, summaryOnly);
}

void collectGroups(const Scenario &scenario, Trace &trace, bool noEvents)
{
    trace.groups.clear();
    trace.summary.partial = 0;
    std::vector<std::uint32_t> writeOf; // per action of one client: its write, or kNone
    for (std::uint32_t c = 0; c < scenario.clients.size(); ++c) {
        const std::vector<Action> &actions = scenario.clients[c].actions;
        const std::size_t first = trace.groups.size();
        for (const Action &a : actions)
            if (a.kind == ActionKind::Write && !a.group().isEmpty() &&
                std::none_of(trace.groups.begin() + std::ptrdiff_t(first), trace.groups.end(),
                             [&](const GroupOutcome &g) { return g.name == a.group(); }))
                trace.groups.push_back({a.group(), c, {}, {}, {}, false});
        if (first == trace.groups.size())
            continue;
        writeOf.assign(actions.size(), kNone);
        if (noEvents) { // every write record is one write sent
            for (std::uint32_t w = 0; w < trace.writes.size(); ++w)
                if (trace.writes[w].client == c)
                    writeOf[trace.writes[w].action] = w;
        }
        for (std::uint32_t e : trace.clientEvents[c])
            if (trace.events[e].kind == EventKind::WriteSent)
                writeOf[trace.writes[trace.events[e].ref].action] = trace.events[e].ref;
        for (std::size_t g = first; g < trace.groups.size(); ++g) {
            GroupOutcome &out = trace.groups[g];
            std::vector<std::pair<std::uint32_t, bool>> byStorage; // in file order
            for (std::uint32_t i = 0; i < actions.size(); ++i) {
                const Action &a = actions[i];
                if (a.kind != ActionKind::Write || a.group() != out.name)
                    continue;
                const std::uint32_t w = writeOf[i];
                if (w != kNone)
                    out.writes.push_back(w);
                const bool applied = w != kNone && trace.writes[w].applied;
                byStorage.erase(std::remove_if(byStorage.begin(), byStorage.end(),
                                               [&](const auto &x) { return x.first == a.storage; }),
                                byStorage.end());
                byStorage.push_back({a.storage, applied});
            }
            std::sort(out.writes.begin(), out.writes.end());
            for (const auto &[storage, applied] : byStorage)
                (applied ? out.applied : out.notApplied).push_back(storage);
            out.partial = !out.applied.empty() && !out.notApplied.empty();
            trace.summary.partial += out.partial;
        }
    }
}

} // namespace Core
