// The simulation (docs/SCENARIO.md sections 1-6 and 14): the public API of core/simulator.h, the
// event loop (loop, nextTick) and a tick's domain rules for the clients and storages: actions,
// writes sent and arriving, the checker, beliefs, the records put into the trace. The rest of
// Simulator::Impl, declared in simulatorimpl.h, lives in the files that header lists.
#include "simulatorimpl.h"

namespace Core {

using namespace SimulatorDetail;

namespace {

// The tick after `t`: where a run "through t" stops (kForever: never).
Tick afterTick(Tick t)
{
    return t == kForever ? kForever : t + 1;
}

} // namespace

// The next tick to run. What makes the run last (section 14, "Run length", restated in 15.6) is
// an action, a pause's start, an arrival, a send, a give-up or a scheduled lock or storage
// event, or the horizon. A keepalive, a lease coming free for a waiter with nothing queued and
// a thaw happen only inside it: a tick that holds nothing but a pause's end after the run's
// end records that end and nothing else (beyondRun).
Tick Simulator::Impl::nextTick()
{
    Tick now = kForever;
    if (!arrivals.empty())
        now = arrivals.front().tick;
    if (!laneQueue.empty())
        now = std::min(now, laneQueue.front().tick);
    if (nextScheduled < schedule.size())
        now = std::min(now, schedule[nextScheduled].tick);
    if (pitfalls) {
        // sends and restarts keep the run going; keepalives happen only inside it (section
        // 14, "Run length"): before something else that is due, or before the horizon
        dropStale(sendQueue, &Lane::sendEntry);
        if (!sendQueue.empty())
            now = std::min(now, sendQueue.front().tick);
        if (nextRestart < restartSchedule.size())
            now = std::min(now, restartSchedule[nextRestart].tick);
        if (!lock.waiters().empty())
            now = std::min(now, lock.nextGiveUp());
        dropStale(keepQueue, &Lane::kaEntry);
        if (!keepQueue.empty()) {
            const Tick k = keepQueue.front().tick;
            if (k < now && (now != kForever || k < pausesUntil || (s->horizon && k < *s->horizon)))
                now = k;
        }
    }
    if (!lock.waiters().empty())
        now = nextForWaiters(now);
    if (pauseQueue.empty()) {
        beyondRun = false;
        return now;
    }
    const Tick pause = pauseQueue.front().tick;
    beyondRun = now == kForever && pause >= pausesUntil && !(s->horizon && pause < *s->horizon);
    return std::min(now, pause);
}

// The waiters' part of nextTick(): `now` is the next tick without them (and without pauses).
Tick Simulator::Impl::nextForWaiters(Tick now)
{
    now = std::min(now, lock.nextGiveUp());
    // The lock coming free for a waiter happens only inside the run: before something else
    // that is due, or before the horizon, or when the waiter has actions queued behind it
    // (section 14, "Run length").
    const Tick free = std::max(lock.nextFree(), minNext);
    if (free < now &&
        (now != kForever || free < pausesUntil || (s->horizon && free < *s->horizon) ||
         (waiterHasMore() && !keptAliveForever())))
        now = free;
    return now;
}

// One past the tick of the last pause that starts (a listed action: the run lasts until it); 0
// when there is none. A function of the plans.
void Simulator::Impl::findLastPauseStart()
{
    pausesUntil = 0;
    for (const Lane &lane : lanes) {
        const std::vector<PauseEdge> &edges = lane.plan.edges;
        for (auto it = edges.rbegin(); it != edges.rend(); ++it)
            if (it->start) {
                pausesUntil = std::max(pausesUntil, it->tick + 1);
                break;
            }
    }
}

// Entries of a lane queue whose lane no longer has that tick due (`entry`: the lane's
// field holding the tick of its one valid entry).
void Simulator::Impl::dropStale(std::vector<LaneAt> &heap, Tick Lane::*entry)
{
    while (!heap.empty() && lanes[heap.front().lane].*entry != heap.front().tick)
        popMin(heap);
}

// With nothing else left to happen (no pause ahead either): the holder's keepalives renew
// its lease before it ends, for ever, and waiters behind it never get the lock (section 14).
bool Simulator::Impl::keptAliveForever() const
{
    const std::uint32_t h = lock.holder();
    return pitfalls && h != LockService::kNobody && lanes[h].kaEvery &&
           lanes[h].kaEntry < lock.expires();
}

bool Simulator::Impl::waiterHasMore() const
{
    for (const LockService::Waiter &w : lock.waiters())
        if (lanes[w.client].next < lanes[w.client].plan.order.size())
            return true;
    return false;
}

// Runs whole ticks while the next one is before `before` and fewer than `budget` events have
// been recorded. Returns true when the run is complete.
bool Simulator::Impl::loop(Tick before, std::size_t budget)
{
    if (complete)
        return true;
    std::size_t stopAt = budget > SIZE_MAX - events ? SIZE_MAX : events + budget;
    bool past = false;
    for (;;) {
        const Tick now = nextTick();
        if (now == kForever)
            break;
        if (now >= rejoinTick && rejoin(now))
            return true;
        // Past `before` only while the last run may still be rejoined, and for a few
        // checkpoints' worth of events at most: a complete run lets every view follow.
        if (now >= before && !past) {
            past = true;
            if (rejoinTick != kForever)
                stopAt = std::min(stopAt, events + kRejoinTries * spacing());
        }
        if ((past && rejoinTick == kForever) || events >= stopAt) {
            cut();
            t->pendingFrom = now;
            return false;
        }
        if (events >= nextCheckpoint)
            takeCheckpoint(now);
        if (beyondRun) {
            // past the run's end: a thaw is drawn, and nothing happens then (section 15.6)
            recordPauseEdges(now);
            minNext = now + 1;
            continue;
        }

        // 0. the lock service's own phases: its events, lease ends, waiters (a quiet lock
        // has none; the test is here as well as in lockPhases() to spare the call)
        if (!quietLock || !lock.waiters().empty())
            lockPhases(now);
        // 1. storage restarts, then writes and reads arriving, in the order they were sent
        while (nextRestart < restartSchedule.size() && restartSchedule[nextRestart].tick == now)
            restartStorage(restartSchedule[nextRestart++]);
        while (!arrivals.empty() && arrivals.front().tick == now) {
            const std::uint32_t ref = popMin(arrivals).write;
            if (ref & kReadArrival)
                arriveRead(ref & ~kReadArrival, now);
            else
                arrive(ref, now);
        }
        // 2. pauses starting and ending (imposed from outside, never deferred)
        recordPauseEdges(now);
        // 3. the clients' actions, in lane order
        if (pitfalls)
            clientsPhase(now);
        while (!pitfalls && !laneQueue.empty() && laneQueue.front().tick == now) {
            const std::uint32_t c = laneQueue.front().lane;
            Lane &lane = lanes[c];
            // (a run never changes a plan: kept in registers across the calls below)
            const std::uint32_t *const order = lane.plan.order.data();
            const Tick *const runAt = lane.plan.runAt.data();
            const std::size_t planned = lane.plan.order.size();
            // after a wait, the held actions (due earlier) run now, in their order
            while (!lane.waiting && lane.next < planned && runAt[lane.next] <= now)
                runAction(c, order[lane.next++], now);
            if (!lane.waiting && lane.next < planned)
                replaceMin(laneQueue, {runAt[lane.next], c});
            else
                popMin(laneQueue);
        }
        minNext = now + 1;
    }
    cut();
    finish();
    return true;
}

void Simulator::Impl::recordPauseEdges(Tick now)
{
    while (!pauseQueue.empty() && pauseQueue.front().tick == now) {
        const std::uint32_t c = pauseQueue.front().lane;
        Lane &lane = lanes[c];
        const std::vector<PauseEdge> &edges = lane.plan.edges;
        for (; lane.nextEdge < edges.size() && edges[lane.nextEdge].tick == now; ++lane.nextEdge) {
            const PauseEdge &e = edges[lane.nextEdge];
            record(now, c, e.start ? EventKind::PauseStart : EventKind::PauseEnd, e.action);
        }
        if (lane.nextEdge < edges.size())
            replaceMin(pauseQueue, {edges[lane.nextEdge].tick, c});
        else
            popMin(pauseQueue);
    }
}

void Simulator::Impl::runAction(std::uint32_t c, std::uint32_t i, Tick now)
{
    const Action &a = s->clients[c].actions[i];
    Lane &lane = lanes[c];
    switch (a.kind) {
    case ActionKind::Acquire: {
        const bool kafka = s->tokens == TokenSource::KafkaEpoch;
        // Kafka: the coordinator fences the epoch that was live, the caller's own too
        const bool fences = kafka && lock.isLive(now) && leases;
        const std::uint32_t fenced = fences ? lock.holder() : kNone;
        const LockService::Reply r =
            lock.acquire(c, a.amount, now, a.wait || a.waitFor(), a.waitFor(), i);
        if (pitfalls && r.outcome != LockService::Outcome::Refusal)
            stopKeepalive(c); // it ran: a waiting client sends none (section 14)
        if (r.outcome == LockService::Outcome::Wait) {
            // no refusal: the lane waits, and its later actions behind it
            put(t->waits, waits, Wait{now, kForever, lock.waiters().back().key, c, i, 0, false});
            lane.waiting = true;
            lane.wait = std::uint32_t(waits - 1);
            break;
        }
        if (r.outcome == LockService::Outcome::Refusal) {
            putRefusal(Refusal{now, c, i, r.holder, r.epoch, false});
            record(now, c, EventKind::Refusal, std::uint32_t(refusals - 1));
            // a refusal leaves the belief as it is (section 14, "Belief")
            break;
        }
        if (fences) {
            t->leases[leases - 1].end = now;
            if (pitfalls && fenced != c)
                stopKeepalive(fenced); // the fenced producer's heartbeats stop
        }
        const bool renewal = r.outcome == LockService::Outcome::Renewal;
        putGrant(Grant{now, r.expires, r.token, r.epoch, c, i, renewal});
        record(now, c, renewal ? EventKind::Renewal : EventKind::Grant, std::uint32_t(grants - 1));
        lane.viewFrom = now;
        lane.viewTtl = a.amount;
        if (pitfalls)
            setKeepalive(c, a.keepalive(), a.amount, now, i);
        if (renewal) {
            t->leases[r.epoch - 1].end = r.expires; // (after a restore: not the last one)
        } else {
            slot(t->leases, leases) = Lease{now, r.expires, r.token, r.epoch, c, false};
            endBelief(c, now, BeliefEnd::Regranted);
        }
        lane.epoch = r.epoch;
        if (!lane.believes)
            startBelief(c, now, r.epoch);
        break;
    }
    case ActionKind::Release: {
        const bool effective = lock.release(c, now);
        const std::uint32_t epoch = effective ? lock.epoch() : 0;
        if (effective) {
            t->leases[leases - 1].end = now;
            t->leases[leases - 1].released = true;
        }
        putRelease(Release{now, c, i, epoch, effective});
        record(now, c, EventKind::Release, std::uint32_t(releases - 1));
        endBelief(c, now, BeliefEnd::Released);
        if (pitfalls)
            stopKeepalive(c);
        if (effective)
            serveWaiter(now, c); // right after the release (section 10)
        break;
    }
    case ActionKind::Write:
        if (a.check)
            checkWrite(c, i, now);
        else
            sendWrite(c, i, now, lane.epoch);
        break;
    case ActionKind::Read:
        sendRead(c, i, now);
        break;
    case ActionKind::Pause:
        break; // folded into the frozen stretches in prepareLane()
    }
}

// Sends a write of action `i` carrying the token of `epoch` (the one remembered now, or at
// its check).
void Simulator::Impl::sendWrite(std::uint32_t c, std::uint32_t i, Tick now, std::uint32_t epoch)
{
    const Action &a = s->clients[c].actions[i];
    std::uint32_t index;
    Write *slotted;
    if (!recycleWrites) {
        index = std::uint32_t(writes);
        slotted = &slot(t->writes, writes);
    } else {
        index = recycledWrite();
        slotted = &t->writes[index];
    }
    Write &w = *slotted;
    w.sentAt = now;
    w.arrivedAt = now + a.amount;
    w.maxToken = 0;
    w.epoch = epoch; // its token is the epoch's: Trace::tokenOf
    w.client = c;
    w.action = i;
    w.storage = a.storage;
    w.overwrote = kNone;
    w.result = WriteResult::Accepted;
    // with no token source the write still belongs to its grant's epoch (section 14)
    w.tagged = epoch != 0 && s->tokens != TokenSource::None;
    w.expired = false;
    w.applied = false;
    if (pitfalls && s->hasVersionStorage()) // the version it expects is fixed when sent
        t->writeVersions.push_back({lanes[c].known[a.storage], 0});
    record(now, c, EventKind::WriteSent, index);
    const auto seq = std::uint32_t(sends++);
    if (a.amount == 0)
        arrive(index, now); // no delay: the storage handles it at once
    else
        pushMin(arrivals, {w.arrivedAt, index, seq});
}

// A slot for the next write sent, in a run that uses them again (recycleWrites): a free one,
// or a new one at the end. Beside it, the write's number in send order (without section 12
// there are no reads, so the sends so far are the writes so far).
std::uint32_t Simulator::Impl::recycledWrite()
{
    std::uint32_t index;
    if (!freeWrites.empty()) {
        index = freeWrites.back();
        freeWrites.pop_back();
    } else {
        index = std::uint32_t(writes);
        slot(t->writes, writes);
        writeNumbers.resize(writes);
    }
    writeNumbers[index] = std::uint32_t(sends);
    return index;
}

void Simulator::Impl::arrive(std::uint32_t index, Tick now)
{
    Write &w = t->writes[index];
    if (pitfalls) {
        arriveWithPitfalls(index, now);
        return;
    }
    WriteStorage &storage = storages[w.storage];
    w.applied = storage.write(w.tagged ? std::optional<Token>(t->tokenOf(w)) : std::nullopt, index);
    w.maxToken = storage.maxToken();
    w.expired = w.epoch != 0 && now >= t->leases[w.epoch - 1].end;
    judge(index, now);
}

bool Simulator::Impl::liveNewest(const Write &w, Tick now) const
{
    return w.epoch != 0 && w.epoch == lock.epochCount() && w.epoch == lock.epoch() &&
           lock.isLive(now);
}

// The checker (section 6), once the storage has handled the write. `unseen`, for a version
// storage (section 12): the write expected an older version than it found.
void Simulator::Impl::judge(std::uint32_t index, Tick now, std::optional<bool> unseen)
{
    Write &w = t->writes[index];
    if (w.applied) {
        // epochs, not tokens, are the ground truth for "newer data was overwritten"
        std::uint32_t &newest = newestApplied[w.storage];
        w.result = judgeWrite(true, unseen ? *unseen : w.epoch < newest, false);
        newest = std::max(newest, w.epoch);
        w.overwrote = lastApplied[w.storage];
        lastApplied[w.storage] = index;
    } else {
        w.result = judgeWrite(false, false, liveNewest(w, now));
        // the reply tells the writer its lock is gone
        const Lane &lane = lanes[w.client];
        if (lane.believes && lane.epoch == w.epoch)
            endBelief(w.client, now, BeliefEnd::Rejected);
    }
    count(index, now);
    if (recycleWrites) { // done with: a write refused, or the one this applied one replaced
        const std::uint32_t done = w.applied ? w.overwrote : index;
        if (done != kNone)
            freeWrites.push_back(done);
    }
}

void Simulator::Impl::count(std::uint32_t index, Tick now)
{
    const Write &w = t->writes[index];
    switch (w.result) {
    case WriteResult::Accepted:
        ++t->summary.accepted;
        break;
    case WriteResult::Rejected:
        ++t->summary.rejected;
        break;
    case WriteResult::Corrupted:
        ++t->summary.corrupted;
        break;
    case WriteResult::LockedOut:
        ++t->summary.lockedOut;
        break;
    }
    if (summaryOnly)
        return;
    put(t->storageWrites[w.storage], storageWrites[w.storage], index);
    if (w.result != WriteResult::Accepted)
        put(t->storageIncidents[w.storage], storageIncidents[w.storage], index);
    record(now, w.client, EventKind::WriteArrived, index);
}

// The lane now believes it holds `epoch`'s lease (a summary keeps no record of it).
void Simulator::Impl::startBelief(std::uint32_t c, Tick now, std::uint32_t epoch)
{
    Lane &lane = lanes[c];
    if (!summaryOnly)
        put(t->beliefs[c], lane.beliefs, Belief{now, kForever, epoch, BeliefEnd::Never});
    lane.believes = true;
}

void Simulator::Impl::endBelief(std::uint32_t c, Tick now, BeliefEnd why)
{
    Lane &lane = lanes[c];
    if (!lane.believes)
        return;
    if (!summaryOnly) {
        Belief &b = t->beliefs[c][lane.beliefs - 1];
        b.to = now;
        b.end = why;
    }
    lane.believes = false;
}

void Simulator::Impl::record(Tick now, std::uint32_t c, EventKind kind, std::uint32_t ref)
{
    if (summaryOnly)
        return; // nothing in the run reads events back (findGroups() does without them)
    put(t->clientEvents[c], lanes[c].events, std::uint32_t(events));
    Event &e = slot(t->events, events);
    e.tick = now;
    e.ref = ref;
    e.client = static_cast<std::uint16_t>(c);
    e.kind = kind;
}

Simulator::Simulator(std::size_t checkpointEvents) : d(std::make_unique<Impl>())
{
    d->checkpointEvents = checkpointEvents;
}
Simulator::~Simulator() = default;

bool Simulator::run(const Scenario &scenario, bool fencing, Trace &trace, Tick through)
{
    d->summaryOnly = false;
    d->start(scenario, fencing, trace);
    return d->loop(afterTick(through), SIZE_MAX);
}

bool Simulator::runBefore(const Scenario &scenario, bool fencing, Trace &trace, Tick before)
{
    d->summaryOnly = false;
    d->start(scenario, fencing, trace);
    if (d->loop(before, SIZE_MAX))
        return true;
    d->putFinals(); // the storages as they stand before `before`
    return false;
}

const Summary &Simulator::summarize(const Scenario &scenario, bool fencing, Trace &trace)
{
    d->summaryOnly = true;
    d->start(scenario, fencing, trace);
    d->nextCheckpoint = SIZE_MAX; // no events are counted, and nothing is re-run
    d->loop(kForever, SIZE_MAX);
    return trace.summary;
}

const Summary &Simulator::summarizeAgain(bool fencing)
{
    Q_ASSERT(d->t && d->summaryOnly);
    d->startAgain(fencing);
    d->nextCheckpoint = SIZE_MAX;
    d->loop(kForever, SIZE_MAX);
    return d->t->summary;
}

bool Simulator::rerun(std::uint32_t client, Tick from, Tick through, std::uint32_t action)
{
    Q_ASSERT(d->t);
    if (!d->t)
        return false; // nothing has run yet
    d->rerun(client, from, action);
    return d->loop(afterTick(through), SIZE_MAX);
}

bool Simulator::resume(Tick through, std::size_t events)
{
    Q_ASSERT(d->t);
    if (!d->t)
        return false;
    return d->loop(afterTick(through), events);
}

bool Simulator::complete() const
{
    return d->complete;
}

std::size_t Simulator::eventsLeftEstimate() const
{
    if (d->complete)
        return 0;
    const std::size_t done = d->t ? d->t->events.size() : 0;
    return d->completeEvents > done ? d->completeEvents - done : 0;
}

Tick Simulator::restartedFrom() const
{
    return d->restartedFrom;
}

Tick Simulator::rejoinedAt() const
{
    return d->rejoinedAt;
}

Trace simulate(const Scenario &scenario)
{
    return simulate(scenario, scenario.fencing);
}

Trace simulate(const Scenario &scenario, bool fencing)
{
    Trace trace;
    simulateInto(scenario, fencing, trace);
    return trace;
}

void simulateInto(const Scenario &scenario, bool fencing, Trace &trace)
{
    Simulator().run(scenario, fencing, trace);
}

Summary summarize(const Scenario &scenario, bool fencing)
{
    Trace trace;
    return Simulator(Simulator::kNoCheckpoints).summarize(scenario, fencing, trace);
}

bool unfencedRunsAlike(const Trace &fenced)
{
    // a write not applied is judged rejected or locked out (judge()), nothing else
    return fenced.fencing && fenced.complete() && fenced.summary.rejected == 0 &&
           fenced.summary.lockedOut == 0;
}

const QString &writeValue(const Scenario &scenario, const Write &write)
{
    return scenario.clients[write.client].actions[write.action].value;
}

Tick ownLeaseEnd(const Scenario &scenario, const Grant &grant)
{
    return scenario.clients[grant.client].clock.leaseEndsAt(grant.at, grant.expires - grant.at);
}

} // namespace Core
