// Incremental re-runs for drags: checkpoints of the run state every few thousand events,
// going back to the last one before an edit (rerun, restore), and rejoining: when a re-run
// finds itself in the state the last complete run had at one of its checkpoints, the rest of
// that run, still in the trace, is kept (keepRejoins, rejoin, sameAs). cut() ends the trace's
// lists where a run's records end.
#include "simulatorimpl.h"

namespace Core {

using namespace SimulatorDetail;

namespace {

// Number of leading entries of a sorted list that come before tick t.
template <typename T, typename TickOf>
std::size_t countBefore(const std::vector<T> &sorted, Tick t, TickOf tickOf)
{
    return std::size_t(std::partition_point(sorted.begin(), sorted.end(),
                                            [&](const T &x) { return tickOf(x) < t; }) -
                       sorted.begin());
}

} // namespace

void Simulator::Impl::takeCheckpoint(Tick now)
{
    Checkpoint &k = checkpoints.emplace_back();
    k.tick = now;
    k.events = events;
    k.grants = grants;
    k.refusals = refusals;
    k.releases = releases;
    k.writes = writes;
    k.leases = leases;
    k.waits = waits;
    k.lockEvents = lockEvents;
    k.rearms = rearms;
    k.nextScheduled = nextScheduled;
    k.minNext = minNext;
    if (leases)
        k.lastLease = t->leases[leases - 1];
    k.summary = t->summary;
    k.lock = lock;
    k.inFlight = arrivals;
    k.lanes.reserve(lanes.size());
    for (const Lane &lane : lanes)
        k.lanes.push_back({lane.events, lane.beliefs, lane.epoch, lane.believes, lane.waiting,
                           lane.wait, lane.next, lane.resumeAt});
    k.storages.reserve(storages.size());
    for (std::size_t i = 0; i < storages.size(); ++i)
        k.storages.push_back(
            {storages[i], storageWrites[i], storageIncidents[i], newestApplied[i], lastApplied[i]});
    nextCheckpoint = k.events + spacing();
}

std::size_t Simulator::Impl::spacing() const
{
    // A checkpoint costs memory in proportion to clients, storages and writes in flight;
    // spacing them at least that far apart keeps all of them below the trace's own size.
    return checkpointEvents
               ? checkpointEvents
               : std::max(kDefaultSpacing, 4 * (lanes.size() + storages.size() + arrivals.size()));
}

void Simulator::Impl::restore(const Checkpoint &k)
{
    events = k.events;
    grants = k.grants;
    refusals = k.refusals;
    releases = k.releases;
    writes = k.writes;
    sends = writes; // (a run with reads never goes back to a checkpoint)
    leases = k.leases;
    waits = k.waits;
    lockEvents = k.lockEvents;
    rearms = k.rearms;
    nextScheduled = k.nextScheduled;
    minNext = k.minNext;
    if (k.leases)
        t->leases[k.leases - 1] = k.lastLease;
    t->summary = k.summary;
    lock = k.lock;
    arrivals = k.inFlight;
    // in flight: their fate is decided again when they arrive
    for (const Arrival &a : arrivals) {
        Write &w = t->writes[a.write];
        w.maxToken = 0;
        w.overwrote = kNone;
        w.result = WriteResult::Accepted;
        w.expired = false;
        w.applied = false;
    }
    for (std::size_t c = 0; c < lanes.size(); ++c) {
        const Checkpoint::LaneMark &m = k.lanes[c];
        Lane &lane = lanes[c];
        lane.events = m.events;
        lane.beliefs = m.beliefs;
        if (m.believes) { // it was open then
            Belief &b = t->beliefs[c][m.beliefs - 1];
            b.to = kForever;
            b.end = BeliefEnd::Never;
        }
        lane.epoch = m.epoch;
        lane.believes = m.believes;
        lane.waiting = m.waiting;
        lane.wait = m.wait;
        lane.resumeAt = m.resumeAt;
        if (m.waiting) { // its wait was still open then
            Wait &w = t->waits[m.wait];
            w.to = kForever;
            w.granted = false;
            w.outcome = 0;
        }
        // What ran before the checkpoint is the same in the edited plan: it all has
        // `at` < `from`, and the edit moved actions at or after `from` only. A wait holds
        // actions back, so the count is kept rather than found from the ticks.
        lane.next = m.next;
        lane.nextEdge =
            countBefore(lane.plan.edges, k.tick, [](const PauseEdge &e) { return e.tick; });
    }
    for (std::size_t i = 0; i < storages.size(); ++i) {
        const Checkpoint::StorageMark &m = k.storages[i];
        storages[i] = m.storage;
        storageWrites[i] = m.writes;
        storageIncidents[i] = m.incidents;
        newestApplied[i] = m.newestApplied;
        lastApplied[i] = m.lastApplied;
    }
    rebuildQueues();
    complete = false;
    t->pendingFrom = k.tick;
    restartedFrom = k.tick;
    rejoinedAt = kForever;
}

void Simulator::Impl::rerun(std::uint32_t client, Tick from, std::uint32_t action)
{
    // Rejoining needs the last complete run still in the trace and the one edited action
    // known. The plans tell from when on the edited lane does what it did in that run.
    // Only with counter tokens (token = epoch): the kept tail's storages compared tokens of
    // earlier epochs, which sameAs() does not look at.
    // Nor with blocking acquires or restores: their state (waiters, open waits, snapshots)
    // is not part of what sameAs() compares.
    prepareLane(client, spare); // (also counts the edited lane's blocking acquires)
    std::uint32_t waitActions = 0;
    for (const Lane &lane : lanes)
        waitActions += lane.waitActions;
    // Sections 11 and 12 keep state no checkpoint holds: such a run starts again from 0.
    const bool hadPitfalls = pitfalls;
    // (the other lanes' plans are the scenario's still: only this client was edited)
    pitfalls = s->setupUsesPitfalls() || spare.pitfalls;
    for (std::uint32_t c = 0; c < lanes.size(); ++c)
        pitfalls = pitfalls || (c != client && lanes[c].plan.pitfalls);
    const bool mayRejoin = !pitfalls && !hadPitfalls && ending.valid && action != kNone &&
                           s->tokens == TokenSource::Counter && waitActions == 0 &&
                           s->lock.restores.empty();
    const Tick agreeFrom = mayRejoin ? plansAgreeFrom(lanes[client].plan, spare, action) : 0;
    std::swap(lanes[client].plan, spare);
    findLastPauseStart();

    // the last checkpoint at or before `from`: everything before it is unchanged
    auto it = std::partition_point(checkpoints.begin(), checkpoints.end(),
                                   [&](const Checkpoint &k) { return k.tick <= from; });
    // A restore rewrites lease records before the checkpoint's last one (the leases
    // granted since its snapshot, the snapshot holder's), and its snapshots are taken as
    // the run passes them: a run with restores always starts again from tick 0.
    if (!s->lock.restores.empty() || pitfalls || hadPitfalls)
        it = checkpoints.begin();
    stale.clear();
    rejoins.clear();
    if (mayRejoin) {
        stale.assign(std::make_move_iterator(it), std::make_move_iterator(checkpoints.end()));
        keepRejoins(agreeFrom);
    }
    ending.valid = false;
    if (it == checkpoints.begin()) {
        restoreStart();
    } else {
        restore(*(it - 1));
        nextCheckpoint = (it - 1)->events; // retaken at once, later ones are stale
        checkpoints.erase(it - 1, checkpoints.end());
    }
    nextRejoin = 0;
    rejoinTick = rejoins.empty() ? kForever : stale[rejoins.front().checkpoint].tick;
}

// Before the re-run writes over them: the records still open at the first few stale
// checkpoints from `agreeFrom` on, as the last complete run left them.
void Simulator::Impl::keepRejoins(Tick agreeFrom)
{
    for (std::size_t i = 0; i < stale.size() && rejoins.size() < kRejoinTries; ++i) {
        const Checkpoint &k = stale[i];
        if (k.tick < agreeFrom)
            continue;
        Rejoin &r = rejoins.emplace_back();
        r.checkpoint = i;
        if (k.leases)
            r.lease = t->leases[k.leases - 1];
        r.beliefs.resize(lanes.size());
        for (std::size_t c = 0; c < lanes.size(); ++c)
            if (k.lanes[c].believes)
                r.beliefs[c] = t->beliefs[c][k.lanes[c].beliefs - 1];
        r.writes.reserve(k.inFlight.size());
        for (const Arrival &a : k.inFlight)
            r.writes.push_back(t->writes[a.write]);
    }
}

// At the start of tick `now`: when the run is where the last complete run was at this tick
// (same records counted, same state, same writes in flight), the rest of that run is this
// run's rest too. Its records are still in the trace past this run's counts, so the run is
// complete at once: only the records that were open here, and the counts, need setting.
bool Simulator::Impl::rejoin(Tick now)
{
    while (nextRejoin < rejoins.size() && stale[rejoins[nextRejoin].checkpoint].tick < now)
        ++nextRejoin;
    if (nextRejoin >= rejoins.size()) {
        rejoinTick = kForever;
        return false;
    }
    const Rejoin &r = rejoins[nextRejoin];
    const Checkpoint &k = stale[r.checkpoint];
    if (k.tick != now) {
        rejoinTick = k.tick;
        return false;
    }
    ++nextRejoin;
    rejoinTick =
        nextRejoin < rejoins.size() ? stale[rejoins[nextRejoin].checkpoint].tick : kForever;
    if (!sameAs(k, r))
        return false;

    for (std::size_t c = 0; c < lanes.size(); ++c)
        if (k.lanes[c].believes)
            t->beliefs[c][k.lanes[c].beliefs - 1] = r.beliefs[c];
    for (std::size_t j = 0; j < k.inFlight.size(); ++j)
        t->writes[k.inFlight[j].write] = r.writes[j];
    if (k.leases)
        t->leases[k.leases - 1] = r.lease;
    // counts differ from the old run's by what the edit changed before this tick
    const Summary mine = t->summary, then = k.summary;
    const auto shift = [&](Summary a) {
        a.accepted += mine.accepted - then.accepted;
        a.rejected += mine.rejected - then.rejected;
        a.corrupted += mine.corrupted - then.corrupted;
        a.lockedOut += mine.lockedOut - then.lockedOut;
        return a;
    };
    t->summary = shift(ending.summary);
    for (std::size_t i = r.checkpoint; i < stale.size(); ++i) {
        stale[i].summary = shift(stale[i].summary);
        checkpoints.push_back(std::move(stale[i]));
    }
    // the old run's end state, with every list at its old length
    lock = ending.lock;
    storages = ending.storages;
    newestApplied = ending.newestApplied;
    lastApplied = ending.lastApplied;
    for (std::size_t c = 0; c < lanes.size(); ++c) {
        Lane &lane = lanes[c];
        lane.next = lane.plan.order.size();
        lane.nextEdge = lane.plan.edges.size();
        lane.epoch = ending.lanes[c].epoch;
        lane.believes = ending.lanes[c].believes;
        lane.events = std::uint32_t(t->clientEvents[c].size());
        lane.beliefs = std::uint32_t(t->beliefs[c].size());
    }
    for (std::size_t i = 0; i < storages.size(); ++i) {
        storageWrites[i] = std::uint32_t(t->storageWrites[i].size());
        storageIncidents[i] = std::uint32_t(t->storageIncidents[i].size());
    }
    events = t->events.size();
    grants = t->grants.size();
    refusals = t->refusals.size();
    releases = t->releases.size();
    writes = t->writes.size();
    sends = writes;
    leases = t->leases.size();
    waits = t->waits.size();
    lockEvents = t->lockEvents.size();
    rearms = t->rearms.size();
    nextScheduled = schedule.size();
    arrivals.clear();
    laneQueue.clear();
    pauseQueue.clear();
    stale.clear();
    rejoins.clear();
    nextRejoin = 0;
    rejoinTick = kForever;
    rejoinedAt = now;
    finish();
    return true;
}

bool Simulator::Impl::sameAs(const Checkpoint &k, const Rejoin &r)
{
    if (events != k.events || grants != k.grants || refusals != k.refusals ||
        releases != k.releases || writes != k.writes || leases != k.leases || waits != k.waits ||
        lockEvents != k.lockEvents || rearms != k.rearms || nextScheduled != k.nextScheduled)
        return false;
    if (!(lock == k.lock) || arrivals.size() != k.inFlight.size())
        return false;
    // The lease still open goes on changing; earlier ones ended before the next grant, so
    // before this tick, and a write that carries one of them later is late either way.
    if (leases) {
        const Lease &a = t->leases[leases - 1], &b = k.lastLease;
        if (a.start != b.start || a.end != b.end || a.token != b.token || a.epoch != b.epoch ||
            a.client != b.client || a.released != b.released)
            return false;
    }
    for (std::size_t c = 0; c < lanes.size(); ++c) {
        const Lane &lane = lanes[c];
        const Checkpoint::LaneMark &m = k.lanes[c];
        if (lane.events != m.events || lane.beliefs != m.beliefs || lane.epoch != m.epoch ||
            lane.believes != m.believes)
            return false;
        if (m.believes) {
            const Belief &b = t->beliefs[c][m.beliefs - 1];
            if (b.from != r.beliefs[c].from || b.epoch != r.beliefs[c].epoch)
                return false;
        }
    }
    for (std::size_t i = 0; i < storages.size(); ++i) {
        const Checkpoint::StorageMark &m = k.storages[i];
        if (!(storages[i] == m.storage) || storageWrites[i] != m.writes ||
            storageIncidents[i] != m.incidents || newestApplied[i] != m.newestApplied ||
            lastApplied[i] != m.lastApplied)
            return false;
    }
    // the same writes in flight, sent alike (heaps built in another order may differ)
    std::vector<Arrival> mine = arrivals;
    std::sort(mine.begin(), mine.end(), std::greater<Arrival>());
    std::vector<std::uint32_t> at(k.inFlight.size());
    for (std::size_t j = 0; j < k.inFlight.size(); ++j)
        at[j] = std::uint32_t(j);
    std::sort(at.begin(), at.end(),
              [&](std::uint32_t a, std::uint32_t b) { return k.inFlight[a] > k.inFlight[b]; });
    for (std::size_t j = 0; j < mine.size(); ++j) {
        const Arrival &a = mine[j], &b = k.inFlight[at[j]];
        if (a.tick != b.tick || a.write != b.write)
            return false;
        const Write &x = t->writes[a.write], &y = r.writes[at[j]];
        if (x.sentAt != y.sentAt || x.arrivedAt != y.arrivedAt || x.epoch != y.epoch ||
            x.client != y.client || x.action != y.action || x.storage != y.storage ||
            x.tagged != y.tagged)
            return false;
    }
    return true;
}

// The run stops here: the trace's lists end where this run's records do.
void Simulator::Impl::cut()
{
    t->events.resize(events);
    // (a summary keeps no grants, refusals, releases or beliefs, it counts them: putGrant())
    t->grants.resize(summaryOnly ? 0 : grants);
    t->refusals.resize(summaryOnly ? 0 : refusals);
    t->releases.resize(summaryOnly ? 0 : releases);
    t->writes.resize(writes);
    t->leases.resize(leases);
    t->waits.resize(waits);
    t->lockEvents.resize(lockEvents);
    t->rearms.resize(rearms);
    for (std::size_t c = 0; c < lanes.size(); ++c) {
        t->clientEvents[c].resize(lanes[c].events);
        t->beliefs[c].resize(lanes[c].beliefs);
    }
    for (std::size_t i = 0; i < storages.size(); ++i) {
        t->storageWrites[i].resize(storageWrites[i]);
        t->storageIncidents[i].resize(storageIncidents[i]);
    }
    // a partial run can only go on, never rejoin
    stale.clear();
    rejoins.clear();
    rejoinTick = kForever;
}

} // namespace Core
