// The lock service's phases of a tick (docs/SCENARIO.md section 14, phases 1-3): its own scheduled
// events (restores, failovers, failed elections, clock steps), lease ends, blocking acquires
// that give up; and a waiter being served when the lock comes free.
#include "simulatorimpl.h"

namespace Core {

using namespace SimulatorDetail;

// Phases 1-3 of a tick (section 14): the lock service's own events, lease ends, waiters.
void Simulator::Impl::lockPhases(Tick now)
{
    // Nothing to do for a lock without events, waiters, a lock-delay or a key space to
    // count: the lazy bookkeeping then changes nothing anyone sees (the common case; it
    // keeps the loop as fast as it was before token sources).
    if (quietLock && lock.waiters().empty())
        return;
    // the snapshots restores will need: the state at the end of their `from` tick
    while (nextSnapshot < byFrom.size() && s->lock.restores[byFrom[nextSnapshot]].from < now) {
        const std::uint32_t r = byFrom[nextSnapshot++];
        lock.settle(s->lock.restores[r].from);
        snapshots[r] = lock;
    }
    if (now)
        lock.settle(now - 1);
    while (nextScheduled < schedule.size() && schedule[nextScheduled].tick == now) {
        const Scheduled &e = schedule[nextScheduled++];
        LockEvent le;
        le.tick = now;
        le.ref = e.ref;
        le.kind = e.kind;
        switch (e.kind) {
        case LockEventKind::Restore:
            restoreLock(e.ref, now, le);
            break;
        case LockEventKind::Failover:
            lock.failover();
            // the new leader starts every live session's timeout afresh (section 15.3)
            if (lock.rearm(now))
                recordRearm(now);
            break;
        case LockEventKind::FailedElection:
            lock.failedElection();
            break;
        case LockEventKind::Election:
            lock.election(); // service-term never re-arms (section 15.7)
            break;
        case LockEventKind::ClockStep:
            break; // the next wall-clock token reads the steps
        }
        le.counter = lock.counter();
        put(t->lockEvents, lockEvents, le);
    }
    lock.putsThrough(now);
    lock.expireThrough(now);
    serveWaiter(now, kNone);
    LockService::Waiter w;
    while (lock.giveUp(now, &w)) {
        std::uint32_t epoch = 0;
        const std::uint32_t inTheWay = inTheWayAt(now, w.client, &epoch);
        Refusal r{now, w.client, w.action, inTheWay, epoch, true};
        putRefusal(r);
        record(now, w.client, EventKind::Refusal, std::uint32_t(refusals - 1));
        // a refusal leaves the belief as it is (section 14, "Belief")
        Wait &rec = t->waits[lanes[w.client].wait];
        rec.to = now;
        rec.outcome = std::uint32_t(refusals - 1);
        resumeLane(w.client, now, kNone);
    }
}

// Who keeps `client` from the lock at `now`, as a refusal names it.
std::uint32_t Simulator::Impl::inTheWayAt(Tick now, std::uint32_t client,
                                          std::uint32_t *epoch) const
{
    *epoch = 0;
    if (lock.isLive(now)) {
        *epoch = lock.epoch();
        return lock.holder();
    }
    if (!lock.waiters().empty())
        return lock.waiters().front().client;
    if (now < lock.delayUntil() && lock.holder() != LockService::kNobody) {
        *epoch = lock.epoch();
        return lock.holder();
    }
    return client;
}

// A restore (section 14, "Restores"): the service as it was at the end of `from`; the
// leases granted since end now for the checker, their holders still believe.
void Simulator::Impl::restoreLock(std::uint32_t ref, Tick now, LockEvent &le)
{
    const LockRestore &r = s->lock.restores[ref];
    const LockService &snap = snapshots[ref];
    for (std::uint32_t e = snap.epochCount() + 1; e <= lock.epochCount(); ++e)
        t->leases[e - 1].end = std::min(t->leases[e - 1].end, now);
    if (lock.restore(snap, r.from, r.bump, now)) {
        // etcd, ZooKeeper: the snapshot's holder re-armed from now (section 15.3), the end the
        // checker uses too
        Lease &l = t->leases[snap.epoch() - 1];
        l.end = lock.expires();
        l.released = false;
        le.holder = snap.holder();
        le.expires = lock.expires();
        recordRearm(now);
    } else if (snap.holder() != LockService::kNobody && snap.expires() > now && snap.epoch()) {
        // the snapshot's holder holds again until its lease ends
        Lease &l = t->leases[snap.epoch() - 1];
        l.end = std::max(l.end, snap.expires());
        l.released = false;
        le.holder = snap.holder();
        le.expires = snap.expires();
    }
    for (const LockService::Waiter &w : lock.waiters())
        t->waits[lanes[w.client].wait].key = w.key;
}

// The live lease was re-armed at `now` (section 15.3): its record ends where the service's does.
void Simulator::Impl::recordRearm(Tick now)
{
    const std::uint32_t epoch = lock.epoch();
    t->leases[epoch - 1].end = lock.expires();
    put(t->rearms, rearms, Rearm{now, lock.expires(), lock.holder(), epoch});
}

// The first waiter gets the lock if it is free for it; `releaser` is the lane whose release
// freed it in phase 6 (kNone: phase 3).
void Simulator::Impl::serveWaiter(Tick now, std::uint32_t releaser)
{
    LockService::Waiter w;
    if (!lock.serveWaiter(now, &w))
        return;
    const std::uint32_t c = w.client;
    Lane &lane = lanes[c];
    putGrant(Grant{now, lock.expires(), lock.token(), lock.epoch(), c, w.action, false});
    record(now, c, EventKind::Grant, std::uint32_t(grants - 1));
    put(t->leases, leases, Lease{now, lock.expires(), lock.token(), lock.epoch(), c, false});
    endBelief(c, now, BeliefEnd::Regranted);
    lane.epoch = lock.epoch();
    lane.viewFrom = now;
    lane.viewTtl = w.ttl;
    if (pitfalls)
        setKeepalive(c, s->clients[c].actions[w.action].keepalive(), w.ttl, now, w.action);
    Wait &rec = t->waits[lane.wait];
    rec.to = now;
    rec.granted = true;
    rec.outcome = std::uint32_t(grants - 1);
    resumeLane(c, now, releaser);
    // The belief starts with the grant, although the client acts on it only from its turn
    // (a frozen waiter: its thaw): a partial run that stops in between then already holds
    // the belief the full run has (docs/SEMANTICS.md).
    startBelief(c, now, lane.epoch);
}

// A wait is over: the lane's held actions run at its turn (section 14, phase 6).
void Simulator::Impl::resumeLane(std::uint32_t c, Tick now, std::uint32_t releaser)
{
    Lane &lane = lanes[c];
    Tick at = releaser == kNone || c > releaser ? now : now + 1;
    const std::vector<Freeze> &f = t->freezes[c];
    auto it = std::upper_bound(f.begin(), f.end(), at,
                               [](Tick x, const Freeze &z) { return x < z.from; });
    if (it != f.begin() && at < (it - 1)->to)
        at = (it - 1)->to;
    lane.waiting = false;
    lane.wait = kNone;
    lane.resumeAt = at;
    if (lane.next < lane.plan.order.size())
        pushMin(laneQueue, {std::max(at, lane.plan.runAt[lane.next]), c});
}

} // namespace Core
