// A run's start and its end: start() resets the trace (its buffers kept), reserves what the
// scenario will need and builds the schedules of the lock service and the storages;
// restoreStart() is the state at tick 0 (a re-run that cannot use a checkpoint begins there
// too); finish() closes a complete run: the last tick, the horizon, final storage states,
// groups, and what a later re-run needs to rejoin it.
#include "simulatorimpl.h"

namespace Core {

using namespace SimulatorDetail;

namespace {

template <typename T> void resetEach(std::vector<std::vector<T>> &lists, std::size_t n)
{
    lists.resize(n);
    for (std::vector<T> &l : lists)
        l.clear();
}

} // namespace

void Simulator::Impl::start(const Scenario &scenario, bool fencing, Trace &trace)
{
    s = &scenario;
    t = &trace;
    clearTrace(fencing);
    buildSchedule();
    const std::size_t nc = s->clients.size();
    const std::size_t ns = s->storages.size();
    resetEach(t->clientEvents, nc);
    resetEach(t->freezes, nc);
    resetEach(t->beliefs, nc);
    resetEach(t->storageWrites, ns);
    resetEach(t->storageIncidents, ns);
    lanes.resize(nc);

    // the plans count what to reserve, and whether an action uses sections 11 and 12
    pitfalls = s->setupUsesPitfalls();
    std::size_t writes = 0;
    std::size_t acquires = 0;
    std::size_t releases = 0;
    std::size_t edges = 0;
    std::vector<std::uint32_t> &storageWrites = writesPerStorage;
    storageWrites.assign(ns, 0);
    prepareLanes();
    findLastPauseStart();
    for (std::uint32_t c = 0; c < nc; ++c) {
        const Plan &plan = lanes[c].plan;
        pitfalls = pitfalls || plan.pitfalls;
        writes += plan.writes;
        acquires += plan.acquires;
        releases += plan.releases;
        edges += plan.edges.size();
        if (summaryOnly)
            continue; // no events are recorded
        for (std::size_t i = 0; i < ns; ++i)
            storageWrites[i] += plan.storageWrites[i];
        // exact sizes keep the trace near its minimum footprint (no doubling slack)
        t->clientEvents[c].reserve(plan.order.size() + plan.writes + plan.edges.size());
        prepareMemory(t->clientEvents[c]);
    }
    recycleWrites = summaryOnly && !pitfalls && writes >= kRecycleWritesFrom;
    if (!recycleWrites)
        t->writes.reserve(writes);
    if (!summaryOnly) // (a summary keeps no grants, releases or beliefs: putGrant())
        t->grants.reserve(acquires);
    if (acquires >= kReserveFrom) { // (small lists grow once, and keep their room from run to run)
        t->leases.reserve(acquires); // a lease for each grant that is not a renewal
        if (!summaryOnly) {
            t->releases.reserve(releases);
            for (std::uint32_t c = 0; c < nc; ++c) // a belief starts with a grant, after one ended
                t->beliefs[c].reserve(lanes[c].plan.acquires);
        }
    }
    prepareMemory(t->writes);
    prepareMemory(t->grants);
    if (!summaryOnly) {
        for (std::size_t i = 0; i < ns; ++i)
            t->storageWrites[i].reserve(storageWrites[i]);
        t->events.reserve(s->actionCount() - edges / 2 + writes + edges);
        for (auto &v : t->storageWrites)
            prepareMemory(v);
        prepareMemory(t->events);
    }
    restoreStart();
}

// Reuse the buffers of the previous trace: a drag re-simulates every frame, and fresh memory
// costs more in page faults than the simulation itself.
void Simulator::Impl::clearTrace(bool fencing)
{
    t->fencing = fencing;
    t->events.clear();
    t->grants.clear();
    t->refusals.clear();
    t->releases.clear();
    t->writes.clear();
    t->leases.clear();
    t->waits.clear();
    t->lockEvents.clear();
    t->rearms.clear();
    t->tokens = s->tokens;
    ending.valid = false;
    stale.clear();
    rejoins.clear();
}

// The same scenario and trace as the last start(): its schedules, lane plans and frozen
// stretches (in the trace) and the buffers reserved are still right; only the run starts again.
void Simulator::Impl::startAgain(bool fencing)
{
    clearTrace(fencing);
    restoreStart();
}

// The lock service's scheduled events, each only for the source it belongs to (the loader
// refuses the others), in phase-1 order: restores, then failovers and failed elections
// (section 14); clock steps change nothing but the next wall-clock token.
void Simulator::Impl::buildSchedule()
{
    schedule.clear();
    const LockOptions &o = s->lock;
    for (std::uint32_t i = 0; i < o.restores.size(); ++i)
        schedule.push_back({o.restores[i].at, LockEventKind::Restore, i});
    if (s->tokens == TokenSource::ZooKeeper)
        for (std::uint32_t i = 0; i < o.failovers.size(); ++i)
            schedule.push_back({o.failovers[i], LockEventKind::Failover, i});
    if (s->tokens == TokenSource::RaftTerm || s->tokens == TokenSource::ServiceTerm)
        for (std::uint32_t i = 0; i < o.failedElections.size(); ++i)
            schedule.push_back({o.failedElections[i], LockEventKind::FailedElection, i});
    if (s->tokens == TokenSource::ServiceTerm)
        for (std::uint32_t i = 0; i < o.elections.size(); ++i)
            schedule.push_back({o.elections[i], LockEventKind::Election, i});
    if (s->tokens == TokenSource::WallClock)
        for (std::uint32_t i = 0; i < o.clockSteps.size(); ++i)
            schedule.push_back({o.clockSteps[i].at, LockEventKind::ClockStep, i});
    // (at one tick: restores first, then the others; a failover, failed election or election
    // each adds to the counter, so their order among themselves changes nothing)
    std::stable_sort(schedule.begin(), schedule.end(), [](const Scheduled &a, const Scheduled &b) {
        return a.tick != b.tick ? a.tick < b.tick : a.kind < b.kind;
    });
    byFrom.resize(o.restores.size());
    for (std::uint32_t i = 0; i < byFrom.size(); ++i)
        byFrom[i] = i;
    std::stable_sort(byFrom.begin(), byFrom.end(), [&](std::uint32_t a, std::uint32_t b) {
        return o.restores[a].from < o.restores[b].from;
    });
    quietLock = schedule.empty() && o.lockDelay == 0 && s->tokens != TokenSource::Etcd &&
                s->tokens != TokenSource::ZooKeeper;
    restartSchedule.clear();
    for (std::uint32_t i = 0; i < s->storages.size(); ++i)
        for (std::uint32_t r = 0; r < s->storages[i].restarts.size(); ++r)
            restartSchedule.push_back({s->storages[i].restarts[r], i, r});
    std::stable_sort(restartSchedule.begin(), restartSchedule.end(),
                     [](const RestartAt &a, const RestartAt &b) { return a.tick < b.tick; });
}

// Back to tick 0, the trace's lists left as they are (put()).
void Simulator::Impl::restoreStart()
{
    const std::size_t ns = s->storages.size();
    t->summary = {};
    events = grants = refusals = releases = writes = leases = 0;
    waits = lockEvents = rearms = 0;
    nextScheduled = 0;
    nextSnapshot = 0;
    snapshots.assign(s->lock.restores.size(), LockService());
    minNext = 0;
    storages.clear();
    storages.reserve(ns);
    for (const StorageSpec &spec : s->storages)
        storages.emplace_back(t->fencing, spec.rule);
    newestApplied.assign(ns, 0);
    lastApplied.assign(ns, kNone);
    storageWrites.assign(ns, 0);
    storageIncidents.assign(ns, 0);
    lock = LockService(s->tokens, s->lock);
    for (Lane &lane : lanes) {
        lane.next = lane.nextEdge = 0;
        lane.epoch = 0;
        lane.believes = false;
        lane.waiting = false;
        lane.wait = kNone;
        lane.resumeAt = 0;
        lane.events = lane.beliefs = 0;
        lane.kaEvery = lane.kaTtl = lane.kaDue = 0;
        lane.kaEntry = lane.sendEntry = kForever;
        lane.kaAction = 0;
        lane.viewFrom = lane.viewTtl = 0;
        lane.sends.clear();
        lane.known.assign(pitfalls ? ns : 0, 0);
    }
    sendQueue.clear();
    keepQueue.clear();
    nextRestart = 0;
    versions.assign(ns, 0);
    sends = 0;
    freeWrites.clear();
    // lists of sections 11 and 12: a run with them always starts here, so they simply grow
    t->checks.clear();
    t->skips.clear();
    t->lost.clear();
    t->reads.clear();
    t->restarts.clear();
    t->writeVersions.clear();
    t->groups.clear();
    arrivals.clear();
    checkpoints.clear();
    nextCheckpoint = checkpointEvents == kNoCheckpoints ? SIZE_MAX : 0;
    rebuildQueues();
    complete = false;
    t->pendingFrom = 0;
    restartedFrom = 0;
    rejoinedAt = kForever;
    rejoinTick = kForever;
}

void Simulator::Impl::rebuildQueues()
{
    laneQueue.clear();
    pauseQueue.clear();
    for (std::uint32_t c = 0; c < lanes.size(); ++c) {
        const Lane &lane = lanes[c];
        if (!lane.waiting && lane.next < lane.plan.order.size())
            laneQueue.push_back({std::max(lane.plan.runAt[lane.next], lane.resumeAt), c});
        if (lane.nextEdge < lane.plan.edges.size())
            pauseQueue.push_back({lane.plan.edges[lane.nextEdge].tick, c});
    }
    std::make_heap(laneQueue.begin(), laneQueue.end(), std::greater<LaneAt>());
    std::make_heap(pauseQueue.begin(), pauseQueue.end(), std::greater<LaneAt>());
}

// Lists whose length is only known at the end grow by doubling; give back a large unused
// tail (a copy, on a first run; re-runs after an edit grow back into the same capacity).
template <typename T> void Simulator::Impl::trim(std::vector<T> &v)
{
    if (v.capacity() - v.size() > v.size() / 8 + 16)
        v.shrink_to_fit();
}

void Simulator::Impl::finish()
{
    complete = true;
    completeEvents = t->events.size();
    if (!summaryOnly) { // (a summary's lists are working memory, used again by the next run)
        trim(t->grants);
        trim(t->refusals);
        trim(t->releases);
        trim(t->leases);
        for (auto &v : t->storageIncidents)
            trim(v);
        for (auto &v : t->beliefs)
            trim(v);
    }
    t->pendingFrom = kForever;
    Tick last = 0;
    if (!t->events.empty())
        last = t->events.back().tick;
    if (!t->leases.empty())
        last = std::max(last, t->leases.back().end); // later leases end no earlier
    for (const std::vector<Freeze> &f : t->freezes)
        if (!f.empty())
            last = std::max(last, f.back().to);
    if (!t->lockEvents.empty())
        last = std::max(last, t->lockEvents.back().tick);
    if (!s->lock.restores.empty())
        for (const Lease &l : t->leases) // a restore may bring an earlier lease back
            last = std::max(last, l.end);
    if (!t->restarts.empty())
        last = std::max(last, t->restarts.back().tick);
    t->lastTick = last;
    t->horizon = s->horizon ? *s->horizon : last + 1 + last / 20;
    putFinals();
    if (pitfalls)
        findGroups();
    if (checkpointEvents == kNoCheckpoints || summaryOnly)
        return; // nothing to rejoin: a re-run starts again from tick 0
    ending.valid = true;
    ending.lock = lock;
    ending.storages = storages;
    ending.newestApplied = newestApplied;
    ending.lastApplied = lastApplied;
    ending.lanes.resize(lanes.size());
    for (std::size_t c = 0; c < lanes.size(); ++c)
        ending.lanes[c] = {0, 0, lanes[c].epoch, lanes[c].believes};
    ending.summary = t->summary;
}

// Each storage's state as the run leaves it: at its end, or where a run stopped before a tick
// (Simulator::runBefore).
void Simulator::Impl::putFinals()
{
    t->finals.resize(storages.size());
    for (std::size_t i = 0; i < storages.size(); ++i) {
        const std::uint32_t w = lastApplied[i];
        StorageState &f = t->finals[i];
        // the value is often the very string the last run left here (a sweep's fenced and
        // unfenced runs of a schedule, a drag's re-runs): its reference count is left alone
        if (w == kNone) {
            if (!f.value.isNull())
                f.value = QString();
        } else if (const QString &value = writeValue(*s, t->writes[w]);
                   !f.value.isSharedWith(value)) {
            f.value = value;
        }
        f.maxToken = storages[i].maxToken();
        f.version = versions[i];
        f.lastWrite = recycleWrites && w != kNone ? writeNumbers[w] : w;
    }
}

} // namespace Core
