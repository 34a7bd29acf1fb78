// One file on purpose (over 600 lines): the run loop, its checkpoints and re-joins, and every
// phase of a tick (SCENARIO.md section 14) share one Impl's state; split, each part would
// reach into the others' fields.
#include "simulator.h"

#include "lockservice.h"
#include "storage.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace Core {

namespace {

struct PauseEdge
{
    Tick tick;
    std::uint32_t action;
    bool start;
};

// A write (or, with kReadArrival set, a read) in flight. Ties at a tick go in send order: for
// writes alone their numbering is that order; reads and writes share `seq`.
inline constexpr std::uint32_t kReadArrival = 0x80000000u;
struct Arrival
{
    Tick tick;
    std::uint32_t write; // index into Trace::writes, or kReadArrival | index into Trace::reads
    std::uint32_t seq;   // sends (writes and reads) before it
    bool operator>(const Arrival &o) const { return tick != o.tick ? tick > o.tick : seq > o.seq; }
};

// A check-then-write that passed its check and waits out its gap (section 11).
struct PendingSend
{
    Tick at; // the tick it sends (after thawing)
    std::uint32_t action;
    std::uint32_t epoch; // the grant whose token it remembered at the check
    std::uint32_t check; // index into Trace::checks
};

// A client's next due action (or pause edge): at one tick, lanes go in client order.
struct LaneAt
{
    Tick tick;
    std::uint32_t lane;
    bool operator>(const LaneAt &o) const { return tick != o.tick ? tick > o.tick : lane > o.lane; }
};

template <typename T> void pushMin(std::vector<T> &heap, const T &v)
{
    heap.push_back(v);
    std::push_heap(heap.begin(), heap.end(), std::greater<T>());
}

// The smallest entry is replaced by `v`, which sinks to its place: one sift instead of a pop
// and a push, for a lane that has run its actions at this tick and is due again later.
template <typename T> void replaceMin(std::vector<T> &heap, const T &v)
{
    const std::size_t n = heap.size();
    std::size_t i = 0;
    for (;;) {
        std::size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && heap[child] > heap[child + 1])
            ++child;
        if (!(v > heap[child]))
            break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = v;
}

template <typename T> T popMin(std::vector<T> &heap)
{
    std::pop_heap(heap.begin(), heap.end(), std::greater<T>());
    T v = heap.back();
    heap.pop_back();
    return v;
}

// A big trace list is written once from front to back, into fresh memory on a first run. Every
// first touch of a 4 KiB page is a fault, and on a virtual machine faults cost more than the
// simulation itself. So: ask for transparent huge pages (one fault per 2 MiB, for the 2 MiB
// aligned middle), and populate the rest in one call instead of page by page. Both are hints:
// where the kernel does not know them, nothing changes.
template <typename T> void prepareMemory(std::vector<T> &v)
{
#ifdef __linux__
    constexpr std::uintptr_t kPage = 4096;
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t end = begin + v.capacity() * sizeof(T);
    if (end - begin < 16 * kPage)
        return; // small lists: not worth a system call
#ifdef MADV_HUGEPAGE
    const std::uintptr_t hugeFrom = (begin + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t hugeTo = end & ~(kHuge - 1);
    if (hugeTo > hugeFrom)
        madvise(reinterpret_cast<void *>(hugeFrom), hugeTo - hugeFrom, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    const std::uintptr_t from = (begin + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t to = end & ~(kPage - 1);
    if (to > from)
        madvise(reinterpret_cast<void *>(from), to - from, MADV_POPULATE_WRITE);
#endif
#else
    (void)v;
#endif
}

template <typename T> void resetEach(std::vector<std::vector<T>> &lists, std::size_t n)
{
    lists.resize(n);
    for (std::vector<T> &l : lists)
        l.clear();
}

// Number of leading entries of a sorted list that come before tick t.
template <typename T, typename TickOf>
std::size_t countBefore(const std::vector<T> &sorted, Tick t, TickOf tickOf)
{
    return std::size_t(std::partition_point(sorted.begin(), sorted.end(),
                                            [&](const T &x) { return tickOf(x) < t; }) -
                       sorted.begin());
}

} // namespace

struct Simulator::Impl
{
    // A client's actions in the order they run: a function of the scenario (prepareLane).
    struct Plan
    {
        std::vector<std::uint32_t> order; // non-pause actions in run order
        std::vector<Tick> runAt;          // the tick each of them runs (after thawing); sorted
        std::vector<PauseEdge> edges;     // pause starts and ends, in the order they happen
    };

    struct Lane
    {
        Plan plan;
        // run state
        std::size_t next = 0;
        std::size_t nextEdge = 0;
        // the last grant it got (its token is that epoch's); 0: never granted, writes go untagged
        std::uint32_t epoch = 0;
        bool believes = false;
        // a blocking acquire is waiting (its record: Trace::waits[wait]); the lane's later
        // actions wait behind it, and the lane is in no queue
        bool waiting = false;
        std::uint32_t wait = kNone;
        // after a wait: the tick the held actions run (its turn, or its thaw)
        Tick resumeAt = 0;
        std::uint32_t waitActions = 0; // blocking acquires in the plan (no rejoining with any)
        // records of this run in the trace's per-client lists (see put())
        std::uint32_t events = 0;
        std::uint32_t beliefs = 0;
        // Sections 11 and 12 (used only when the scenario has them, see `pitfalls`):
        // the keepalive schedule: every kaEvery ticks (0: none) with the ttl of its acquire
        Tick kaEvery = 0;
        Tick kaTtl = 0;
        Tick kaDue = 0;          // the next keepalive is due (lock-service ticks)
        Tick kaEntry = kForever; // the tick of its entry in keepQueue (kForever: none)
        std::uint32_t kaAction = 0;
        // its own view of its lease: its last grant or renewal, and that one's ttl
        Tick viewFrom = 0;
        Tick viewTtl = 0;
        std::vector<PendingSend> sends; // passed checks waiting out their gap, by tick
        Tick sendEntry = kForever;      // the tick of its entry in sendQueue
        std::vector<std::uint64_t> known; // per storage: the version it last knew there
    };

    // A scheduled event of the lock service itself, in the order phase 1 of a tick runs them.
    struct Scheduled
    {
        Tick tick;
        LockEventKind kind;
        std::uint32_t ref;
    };

    using WriteStorage = BasicStorage<std::uint32_t>;

    // Everything needed to go back to the start of a tick: the run state, and how long each
    // of the trace's lists was (they only grow; the few records edited later are kept whole).
    struct Checkpoint
    {
        struct LaneMark
        {
            std::uint32_t events;
            std::uint32_t beliefs;
            std::uint32_t epoch;
            bool believes;
            bool waiting = false;
            std::uint32_t wait = kNone;
            std::size_t next = 0;
            Tick resumeAt = 0;
        };
        struct StorageMark
        {
            WriteStorage storage;
            std::uint32_t writes;
            std::uint32_t incidents;
            std::uint32_t newestApplied;
            std::uint32_t lastApplied;
        };
        Tick tick = 0;
        std::size_t events = 0, grants = 0, refusals = 0, releases = 0, writes = 0, leases = 0;
        std::size_t waits = 0, lockEvents = 0, nextScheduled = 0;
        Tick minNext = 0;
        Lease lastLease; // renewals and releases extend or end it later
        Summary summary;
        LockService lock;
        std::vector<Arrival> inFlight;
        std::vector<LaneMark> lanes;
        std::vector<StorageMark> storages;
    };

    // How the last complete run ended: what a re-run that rejoins it ends with too.
    struct Ending
    {
        bool valid = false; // the trace holds that run, untouched since
        LockService lock;
        std::vector<WriteStorage> storages;
        std::vector<std::uint32_t> newestApplied, lastApplied;
        std::vector<Checkpoint::LaneMark> lanes; // epoch and belief only
        Summary summary;
    };

    // A checkpoint of the last complete run, after the edit, at which a re-run may find itself
    // in the same state; and the records that were still open there as that run left them
    // (the re-run overwrites them before it gets there).
    struct Rejoin
    {
        std::size_t checkpoint = 0; // index into `stale`
        Lease lease;
        std::vector<Belief> beliefs; // per lane; meaningful where the lane believed then
        std::vector<Write> writes;   // per write in flight then, as in Checkpoint::inFlight
    };

    // Re-running from a checkpoint costs up to this many events before the edited tick.
    static constexpr std::size_t kDefaultSpacing = 4096;
    // A re-run compares its state with the last complete run's at this many checkpoints after
    // the edit. If they still differ then, they usually always will (an extra grant shifts
    // every later epoch), and a comparison costs about as much as a few hundred events.
    static constexpr std::size_t kRejoinTries = 8;
    std::size_t checkpointEvents = 0; // 0: the default spacing

    const Scenario *s = nullptr;
    Trace *t = nullptr;
    LockService lock;
    // storages remember which write they hold; the value is looked up in the scenario
    std::vector<WriteStorage> storages;
    std::vector<std::uint32_t> newestApplied; // per storage: newest epoch applied so far
    std::vector<std::uint32_t> lastApplied;   // per storage: last applied write
    std::vector<std::uint32_t> storageWrites; // per storage: records of this run (put())
    std::vector<std::uint32_t> storageIncidents;
    std::vector<Lane> lanes;
    Plan spare;                     // the edited lane's previous plan, during rerun()
    std::vector<Arrival> arrivals;  // min-heap: writes in flight
    std::vector<LaneAt> laneQueue;  // min-heap: lanes with an action due
    std::vector<LaneAt> pauseQueue; // min-heap: lanes with a pause edge due
    // Sections 11 and 12. A scenario that uses none of them runs exactly the loop it ran
    // before them; one that does always re-runs from tick 0 (their state is in no checkpoint).
    bool pitfalls = false;
    std::vector<LaneAt> sendQueue; // min-heap: lanes with a check-then-write send due
    std::vector<LaneAt> keepQueue; // min-heap: lanes with a keepalive due (stale entries skipped)
    struct RestartAt
    {
        Tick tick;
        std::uint32_t storage;
        std::uint32_t ref;
    };
    std::vector<RestartAt> restartSchedule; // storage restarts, in time then storage order
    std::size_t nextRestart = 0;
    std::vector<std::uint64_t> versions; // per storage: writes applied there so far
    std::size_t sends = 0;               // writes and reads sent (the order of arrivals)
    std::vector<Checkpoint> checkpoints;
    std::vector<std::uint32_t> byTimeScratch;    // prepareLane's scratch list
    std::vector<std::uint32_t> writesPerStorage; // start()'s
    std::size_t nextCheckpoint = 0;              // take one when the trace has this many events
    // Records of this run in the trace's lists. After going back to a checkpoint the lists keep
    // their length and the run writes over the old records (put()), so the last complete run's
    // tail is still there if the run finds itself back in that run's state (rejoin()).
    std::size_t events = 0, grants = 0, refusals = 0, releases = 0, writes = 0, leases = 0;
    std::size_t waits = 0, lockEvents = 0;
    // the lock service's own events (restores, failovers, ...), and the next one due
    std::vector<Scheduled> schedule;
    std::size_t nextScheduled = 0;
    // restores' snapshots, taken at the end of their `from` tick as the run passes it
    std::vector<LockService> snapshots; // per restore
    std::vector<std::uint32_t> byFrom;  // restores in order of `from`
    std::size_t nextSnapshot = 0;
    Tick minNext = 0; // every tick before this one has been run
    bool quietLock = false; // see lockPhases()
    bool complete = false;
    std::size_t completeEvents = 0; // events of the last complete run
    Tick restartedFrom = 0;
    Tick rejoinedAt = kForever;
    Ending ending;
    std::vector<Checkpoint> stale; // the last complete run's checkpoints after the edit
    std::vector<Rejoin> rejoins;
    std::size_t nextRejoin = 0;
    Tick rejoinTick = kForever; // tick of rejoins[nextRejoin]'s checkpoint

    template <typename T, typename N> static void put(std::vector<T> &list, N &count, const T &x)
    {
        if (count < list.size())
            list[count] = x;
        else
            list.push_back(x);
        ++count;
    }
    // The record put() would write next, for the caller to fill field by field: every field,
    // since it may hold an old run's record. (Copying a record built on the stack reads it back
    // wider than it was written, and that stalls the store: the hot records are filled in place.)
    template <typename T, typename N> static T &slot(std::vector<T> &list, N &count)
    {
        if (count < list.size())
            return list[count++];
        ++count;
        return list.emplace_back();
    }

    void start(const Scenario &scenario, bool fencing, Trace &trace)
    {
        s = &scenario;
        t = &trace;
        // Reuse the buffers of the previous trace: a drag re-simulates every frame, and fresh
        // memory costs more in page faults than the simulation itself.
        t->fencing = fencing;
        t->events.clear();
        t->grants.clear();
        t->refusals.clear();
        t->releases.clear();
        t->writes.clear();
        t->leases.clear();
        t->waits.clear();
        t->lockEvents.clear();
        t->tokens = s->tokens;
        pitfalls = s->usesPitfalls();
        buildSchedule();
        const std::size_t nc = s->clients.size();
        const std::size_t ns = s->storages.size();
        resetEach(t->clientEvents, nc);
        resetEach(t->freezes, nc);
        resetEach(t->beliefs, nc);
        resetEach(t->storageWrites, ns);
        resetEach(t->storageIncidents, ns);
        lanes.resize(nc);
        ending.valid = false;
        stale.clear();
        rejoins.clear();

        std::size_t writes = 0;
        std::size_t acquires = 0;
        std::size_t edges = 0;
        std::vector<std::uint32_t> &storageWrites = writesPerStorage;
        storageWrites.assign(ns, 0);
        for (std::uint32_t c = 0; c < nc; ++c) {
            prepareLane(c, lanes[c].plan);
            const Plan &plan = lanes[c].plan;
            std::size_t laneWrites = 0;
            for (std::uint32_t i : plan.order) {
                const Action &a = s->clients[c].actions[i];
                if (a.kind == ActionKind::Write) {
                    ++laneWrites;
                    ++storageWrites[a.storage];
                } else if (a.kind == ActionKind::Acquire) {
                    ++acquires;
                }
            }
            writes += laneWrites;
            edges += plan.edges.size();
            // exact sizes keep the trace near its minimum footprint (no doubling slack)
            t->clientEvents[c].reserve(plan.order.size() + laneWrites + plan.edges.size());
            prepareMemory(t->clientEvents[c]);
        }
        for (std::size_t i = 0; i < ns; ++i)
            t->storageWrites[i].reserve(storageWrites[i]);
        t->writes.reserve(writes);
        t->grants.reserve(acquires);
        t->events.reserve(s->actionCount() - edges / 2 + writes + edges);
        for (auto &v : t->storageWrites)
            prepareMemory(v);
        prepareMemory(t->writes);
        prepareMemory(t->grants);
        prepareMemory(t->events);
        restoreStart();
    }

    // The lock service's scheduled events, each only for the source it belongs to (the loader
    // refuses the others), in phase-1 order: restores, then failovers and failed elections
    // (section 14); clock steps change nothing but the next wall-clock token.
    void buildSchedule()
    {
        schedule.clear();
        const LockOptions &o = s->lock;
        for (std::uint32_t i = 0; i < o.restores.size(); ++i)
            schedule.push_back({o.restores[i].at, LockEventKind::Restore, i});
        if (s->tokens == TokenSource::ZooKeeper)
            for (std::uint32_t i = 0; i < o.failovers.size(); ++i)
                schedule.push_back({o.failovers[i], LockEventKind::Failover, i});
        if (s->tokens == TokenSource::RaftTerm)
            for (std::uint32_t i = 0; i < o.failedElections.size(); ++i)
                schedule.push_back({o.failedElections[i], LockEventKind::FailedElection, i});
        if (s->tokens == TokenSource::WallClock)
            for (std::uint32_t i = 0; i < o.clockSteps.size(); ++i)
                schedule.push_back({o.clockSteps[i].at, LockEventKind::ClockStep, i});
        std::stable_sort(schedule.begin(), schedule.end(),
                         [](const Scheduled &a, const Scheduled &b) {
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
    void restoreStart()
    {
        const std::size_t ns = s->storages.size();
        t->summary = {};
        events = grants = refusals = releases = writes = leases = 0;
        waits = lockEvents = 0;
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

    // Run order of one client's actions into `plan`, and its frozen stretches into the trace:
    // a function of the scenario. Runs again for the edited client on every drag step, so the
    // usual case (actions listed in time order, pauses not overlapping) avoids sorting and
    // temporary lists.
    void prepareLane(std::uint32_t c, Plan &plan)
    {
        const std::vector<Action> &actions = s->clients[c].actions;
        // Actions run in order of `at`, ties in listed order. Files are usually sorted already,
        // so only sort when they are not.
        const bool listedInOrder =
            std::is_sorted(actions.begin(), actions.end(),
                           [](const Action &a, const Action &b) { return a.at < b.at; });
        std::vector<std::uint32_t> &byTime = byTimeScratch;
        byTime.clear();
        if (!listedInOrder) {
            byTime.resize(actions.size());
            for (std::uint32_t i = 0; i < byTime.size(); ++i)
                byTime[i] = i;
            std::stable_sort(byTime.begin(), byTime.end(), [&](std::uint32_t a, std::uint32_t b) {
                return actions[a].at < actions[b].at;
            });
        }
        const auto n = std::uint32_t(actions.size());
        const auto nth = [&](std::uint32_t k) { return listedInOrder ? k : byTime[k]; };

        // Frozen stretches: the union of the pause windows [p, p + d).
        std::vector<Freeze> &freezes = t->freezes[c];
        freezes.clear();
        plan.edges.clear();
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t i = nth(k);
            const Action &a = actions[i];
            if (a.kind != ActionKind::Pause)
                continue;
            const Tick end = a.at + a.amount;
            plan.edges.push_back({a.at, i, true});
            plan.edges.push_back({end, i, false});
            if (!freezes.empty() && a.at <= freezes.back().to)
                freezes.back().to = std::max(freezes.back().to, end);
            else
                freezes.push_back({a.at, end});
        }
        // At one tick: a thaw before a new pause, then in listed order.
        const auto edgeBefore = [](const PauseEdge &a, const PauseEdge &b) {
            if (a.tick != b.tick)
                return a.tick < b.tick;
            if (a.start != b.start)
                return !a.start;
            return a.action < b.action;
        };
        if (!std::is_sorted(plan.edges.begin(), plan.edges.end(), edgeBefore))
            std::sort(plan.edges.begin(), plan.edges.end(), edgeBefore);

        // Everything else runs at its tick, or when the client thaws if frozen then. Deferred
        // actions keep their order and come before those due at the thaw tick, which sorting
        // by `at` already gives.
        plan.order.clear();
        plan.runAt.clear();
        lanes[c].waitActions = 0;
        plan.order.reserve(actions.size() - plan.edges.size() / 2);
        plan.runAt.reserve(actions.size() - plan.edges.size() / 2);
        std::size_t f = 0;
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t i = nth(k);
            const Action &a = actions[i];
            if (a.kind == ActionKind::Pause)
                continue;
            while (f < freezes.size() && freezes[f].to <= a.at)
                ++f;
            const bool frozen = f < freezes.size() && freezes[f].from <= a.at;
            plan.order.push_back(i);
            plan.runAt.push_back(frozen ? freezes[f].to : a.at);
            lanes[c].waitActions += a.kind == ActionKind::Acquire && (a.wait || a.waitFor);
        }
    }

    // The first tick from which two plans of a lane, one of whose actions (`action`) was edited,
    // do the same things at the same ticks: everything they differ in happens before it.
    static Tick plansAgreeFrom(const Plan &a, const Plan &b, std::uint32_t action)
    {
        Tick from = 0;
        std::size_t i = a.order.size(), j = b.order.size();
        while (i && j && a.order[i - 1] == b.order[j - 1] && a.runAt[i - 1] == b.runAt[j - 1])
            --i, --j;
        if (i)
            from = std::max(from, a.runAt[i - 1] + 1);
        if (j)
            from = std::max(from, b.runAt[j - 1] + 1);
        i = a.edges.size(), j = b.edges.size();
        while (i && j && a.edges[i - 1].tick == b.edges[j - 1].tick &&
               a.edges[i - 1].action == b.edges[j - 1].action &&
               a.edges[i - 1].start == b.edges[j - 1].start)
            --i, --j;
        if (i)
            from = std::max(from, a.edges[i - 1].tick + 1);
        if (j)
            from = std::max(from, b.edges[j - 1].tick + 1);
        // the edited action may run at the same tick and still do something else (a new TTL)
        for (const Plan *p : {&a, &b}) {
            const auto it = std::find(p->order.begin(), p->order.end(), action);
            if (it != p->order.end())
                from = std::max(from, p->runAt[std::size_t(it - p->order.begin())] + 1);
        }
        return from;
    }

    void rebuildQueues()
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

    Tick nextTick()
    {
        Tick now = kForever;
        if (!arrivals.empty())
            now = arrivals.front().tick;
        if (!pauseQueue.empty())
            now = std::min(now, pauseQueue.front().tick);
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
                if (k < now && (now != kForever || (s->horizon && k < *s->horizon)))
                    now = k;
            }
        }
        if (lock.waiters().empty())
            return now;
        now = std::min(now, lock.nextGiveUp());
        // The lock coming free for a waiter happens only inside the run: before something else
        // that is due, or before the horizon, or when the waiter has actions queued behind it
        // (section 14, "Run length").
        const Tick free = std::max(lock.nextFree(), minNext);
        if (free < now && (now != kForever || (s->horizon && free < *s->horizon) ||
                           (waiterHasMore() && !keptAliveForever())))
            now = free;
        return now;
    }

    // Entries of a lane queue whose lane no longer has that tick due (`entry`: the lane's
    // field holding the tick of its one valid entry).
    void dropStale(std::vector<LaneAt> &heap, Tick Lane::*entry)
    {
        while (!heap.empty() && lanes[heap.front().lane].*entry != heap.front().tick)
            popMin(heap);
    }

    // With nothing else left to happen (no pause ahead either): the holder's keepalives renew
    // its lease before it ends, for ever, and waiters behind it never get the lock (section 14).
    bool keptAliveForever() const
    {
        const std::uint32_t h = lock.holder();
        return pitfalls && h != LockService::kNobody && lanes[h].kaEvery &&
               lanes[h].kaEntry < lock.expires();
    }

    // The tick a lane does something due at `at`: then, or when it thaws if frozen then.
    Tick thawOf(std::uint32_t c, Tick at) const
    {
        const std::vector<Freeze> &f = t->freezes[c];
        auto it = std::upper_bound(f.begin(), f.end(), at,
                                   [](Tick x, const Freeze &z) { return x < z.from; });
        if (it != f.begin() && at < (it - 1)->to)
            return (it - 1)->to;
        return at;
    }

    bool waiterHasMore() const
    {
        for (const LockService::Waiter &w : lock.waiters())
            if (lanes[w.client].next < lanes[w.client].plan.order.size())
                return true;
        return false;
    }

    // Phases 1-3 of a tick (section 14): the lock service's own events, lease ends, waiters.
    void lockPhases(Tick now)
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
                break;
            case LockEventKind::FailedElection:
                lock.failedElection();
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
            put(t->refusals, refusals, r);
            record(now, w.client, EventKind::Refusal, std::uint32_t(refusals - 1));
            // a refusal leaves the belief as it is (section 14, "Belief")
            Wait &rec = t->waits[lanes[w.client].wait];
            rec.to = now;
            rec.outcome = std::uint32_t(refusals - 1);
            resumeLane(w.client, now, kNone);
        }
    }

    // Who keeps `client` from the lock at `now`, as a refusal names it.
    std::uint32_t inTheWayAt(Tick now, std::uint32_t client, std::uint32_t *epoch) const
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
    void restoreLock(std::uint32_t ref, Tick now, LockEvent &le)
    {
        const LockRestore &r = s->lock.restores[ref];
        const LockService &snap = snapshots[ref];
        for (std::uint32_t e = snap.epochCount() + 1; e <= lock.epochCount(); ++e)
            t->leases[e - 1].end = std::min(t->leases[e - 1].end, now);
        lock.restore(snap, r.from, r.bump, now);
        if (snap.holder() != LockService::kNobody && snap.expires() > now && snap.epoch()) {
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

    // The first waiter gets the lock if it is free for it; `releaser` is the lane whose release
    // freed it in phase 6 (kNone: phase 3).
    void serveWaiter(Tick now, std::uint32_t releaser)
    {
        LockService::Waiter w;
        if (!lock.serveWaiter(now, &w))
            return;
        const std::uint32_t c = w.client;
        Lane &lane = lanes[c];
        put(t->grants, grants,
            Grant{now, lock.expires(), lock.token(), lock.epoch(), c, w.action, false});
        record(now, c, EventKind::Grant, std::uint32_t(grants - 1));
        put(t->leases, leases, Lease{now, lock.expires(), lock.token(), lock.epoch(), c, false});
        endBelief(c, now, BeliefEnd::Regranted);
        lane.epoch = lock.epoch();
        lane.viewFrom = now;
        lane.viewTtl = w.ttl;
        if (pitfalls)
            setKeepalive(c, s->clients[c].actions[w.action].keepalive, w.ttl, now, w.action);
        Wait &rec = t->waits[lane.wait];
        rec.to = now;
        rec.granted = true;
        rec.outcome = std::uint32_t(grants - 1);
        resumeLane(c, now, releaser);
        // The belief starts with the grant, although the client acts on it only from its turn
        // (a frozen waiter: its thaw): a partial run that stops in between then already holds
        // the belief the full run has (docs/SEMANTICS.md).
        put(t->beliefs[c], lane.beliefs, Belief{now, kForever, lane.epoch, BeliefEnd::Never});
        lane.believes = true;
    }

    // A wait is over: the lane's held actions run at its turn (section 14, phase 6).
    void resumeLane(std::uint32_t c, Tick now, std::uint32_t releaser)
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

    // Runs whole ticks while the next one is at most `through` and fewer than `budget` events
    // have been recorded. Returns true when the run is complete.
    bool loop(Tick through, std::size_t budget)
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
            // Past `through` only while the last run may still be rejoined, and for a few
            // checkpoints' worth of events at most: a complete run lets every view follow.
            if (now > through && !past) {
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

            // 0. the lock service's own phases: its events, lease ends, waiters
            lockPhases(now);
            // 1. storage restarts, then writes and reads arriving, in the order they were sent
            while (nextRestart < restartSchedule.size() &&
                   restartSchedule[nextRestart].tick == now)
                restartStorage(restartSchedule[nextRestart++]);
            while (!arrivals.empty() && arrivals.front().tick == now) {
                const std::uint32_t ref = popMin(arrivals).write;
                if (ref & kReadArrival)
                    arriveRead(ref & ~kReadArrival, now);
                else
                    arrive(ref, now);
            }
            // 2. pauses starting and ending (imposed from outside, never deferred)
            while (!pauseQueue.empty() && pauseQueue.front().tick == now) {
                const std::uint32_t c = pauseQueue.front().lane;
                Lane &lane = lanes[c];
                const std::vector<PauseEdge> &edges = lane.plan.edges;
                for (; lane.nextEdge < edges.size() && edges[lane.nextEdge].tick == now;
                     ++lane.nextEdge) {
                    const PauseEdge &e = edges[lane.nextEdge];
                    record(now, c, e.start ? EventKind::PauseStart : EventKind::PauseEnd, e.action);
                }
                if (lane.nextEdge < edges.size())
                    replaceMin(pauseQueue, {edges[lane.nextEdge].tick, c});
                else
                    popMin(pauseQueue);
            }
            // 3. the clients' actions, in lane order
            if (pitfalls)
                clientsPhase(now);
            while (!pitfalls && !laneQueue.empty() && laneQueue.front().tick == now) {
                const std::uint32_t c = laneQueue.front().lane;
                Lane &lane = lanes[c];
                const Plan &plan = lane.plan;
                // after a wait, the held actions (due earlier) run now, in their order
                while (!lane.waiting && lane.next < plan.order.size() &&
                       plan.runAt[lane.next] <= now)
                    runAction(c, plan.order[lane.next++], now);
                if (!lane.waiting && lane.next < plan.order.size())
                    replaceMin(laneQueue, {plan.runAt[lane.next], c});
                else
                    popMin(laneQueue);
            }
            minNext = now + 1;
        }
        cut();
        finish();
        return true;
    }

    void takeCheckpoint(Tick now)
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
            k.storages.push_back({storages[i], storageWrites[i], storageIncidents[i],
                                  newestApplied[i], lastApplied[i]});
        nextCheckpoint = k.events + spacing();
    }

    std::size_t spacing() const
    {
        // A checkpoint costs memory in proportion to clients, storages and writes in flight;
        // spacing them at least that far apart keeps all of them below the trace's own size.
        return checkpointEvents ? checkpointEvents
                                : std::max(kDefaultSpacing,
                                           4 * (lanes.size() + storages.size() + arrivals.size()));
    }

    void restore(const Checkpoint &k)
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

    void rerun(std::uint32_t client, Tick from, std::uint32_t action)
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
        pitfalls = s->usesPitfalls();
        const bool mayRejoin = !pitfalls && !hadPitfalls && ending.valid && action != kNone &&
                               s->tokens == TokenSource::Counter && waitActions == 0 &&
                               s->lock.restores.empty();
        const Tick agreeFrom = mayRejoin ? plansAgreeFrom(lanes[client].plan, spare, action) : 0;
        std::swap(lanes[client].plan, spare);

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
    void keepRejoins(Tick agreeFrom)
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
    bool rejoin(Tick now)
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

    bool sameAs(const Checkpoint &k, const Rejoin &r)
    {
        if (events != k.events || grants != k.grants || refusals != k.refusals ||
            releases != k.releases || writes != k.writes || leases != k.leases ||
            waits != k.waits || lockEvents != k.lockEvents || nextScheduled != k.nextScheduled)
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
    void cut()
    {
        t->events.resize(events);
        t->grants.resize(grants);
        t->refusals.resize(refusals);
        t->releases.resize(releases);
        t->writes.resize(writes);
        t->leases.resize(leases);
        t->waits.resize(waits);
        t->lockEvents.resize(lockEvents);
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

    void runAction(std::uint32_t c, std::uint32_t i, Tick now)
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
                lock.acquire(c, a.amount, now, a.wait || a.waitFor, a.waitFor, i);
            if (pitfalls && r.outcome != LockService::Outcome::Refusal)
                stopKeepalive(c); // it ran: a waiting client sends none (section 14)
            if (r.outcome == LockService::Outcome::Wait) {
                // no refusal: the lane waits, and its later actions behind it
                put(t->waits, waits,
                    Wait{now, kForever, lock.waiters().back().key, c, i, 0, false});
                lane.waiting = true;
                lane.wait = std::uint32_t(waits - 1);
                break;
            }
            if (r.outcome == LockService::Outcome::Refusal) {
                put(t->refusals, refusals, Refusal{now, c, i, r.holder, r.epoch, false});
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
            slot(t->grants, grants) = Grant{now, r.expires, r.token, r.epoch, c, i, renewal};
            record(now, c, renewal ? EventKind::Renewal : EventKind::Grant,
                   std::uint32_t(grants - 1));
            lane.viewFrom = now;
            lane.viewTtl = a.amount;
            if (pitfalls)
                setKeepalive(c, a.keepalive, a.amount, now, i);
            if (renewal) {
                t->leases[r.epoch - 1].end = r.expires; // (after a restore: not the last one)
            } else {
                slot(t->leases, leases) = Lease{now, r.expires, r.token, r.epoch, c, false};
                endBelief(c, now, BeliefEnd::Regranted);
            }
            lane.epoch = r.epoch;
            if (!lane.believes) {
                put(t->beliefs[c], lane.beliefs, Belief{now, kForever, r.epoch, BeliefEnd::Never});
                lane.believes = true;
            }
            break;
        }
        case ActionKind::Release: {
            const bool effective = lock.release(c, now);
            const std::uint32_t epoch = effective ? lock.epoch() : 0;
            if (effective) {
                t->leases[leases - 1].end = now;
                t->leases[leases - 1].released = true;
            }
            put(t->releases, releases, Release{now, c, i, epoch, effective});
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
    void sendWrite(std::uint32_t c, std::uint32_t i, Tick now, std::uint32_t epoch)
    {
        const Action &a = s->clients[c].actions[i];
        const auto index = std::uint32_t(writes);
        Write &w = slot(t->writes, writes);
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

    void sendRead(std::uint32_t c, std::uint32_t i, Tick now)
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

    void arriveRead(std::uint32_t index, Tick now)
    {
        Read &r = t->reads[index];
        r.version = versions[r.storage];
        r.arrived = true;
        lanes[r.client].known[r.storage] = r.version;
        record(now, r.client, EventKind::ReadArrived, index);
    }

    // Check-then-write (section 11): the client judges its own lease by its own clock.
    void checkWrite(std::uint32_t c, std::uint32_t i, Tick now)
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
        const Tick at = thawOf(c, now + a.gap);
        t->checks[check].sendAt = at;
        if (at == now) {
            t->checks[check].write = std::uint32_t(writes);
            sendWrite(c, i, now, lane.epoch);
            return;
        }
        // the send does not hold up the client's later actions
        const PendingSend p{at, i, lane.epoch, check};
        auto it = std::upper_bound(lane.sends.begin(), lane.sends.end(), p,
                                   [](const PendingSend &x, const PendingSend &y) {
                                       return x.at < y.at;
                                   });
        lane.sends.insert(it, p);
        queueSends(c);
    }

    void queueSends(std::uint32_t c)
    {
        Lane &lane = lanes[c];
        if (!lane.sends.empty() && lane.sendEntry != lane.sends.front().at) {
            lane.sendEntry = lane.sends.front().at;
            pushMin(sendQueue, {lane.sendEntry, c});
        }
    }

    // An acquire that ran sets the keepalive schedule (`every` 0: none, section 14).
    void setKeepalive(std::uint32_t c, Tick every, Tick ttl, Tick now, std::uint32_t action)
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

    void stopKeepalive(std::uint32_t c)
    {
        lanes[c].kaEvery = 0;
        lanes[c].kaEntry = kForever;
    }

    // One keepalive: a renewal of the live lease, or the news that it is gone.
    void keepalive(std::uint32_t c, Tick now)
    {
        Lane &lane = lanes[c];
        if (lock.renew(c, lane.kaTtl, now)) {
            const std::uint32_t epoch = lock.epoch();
            put(t->grants, grants,
                Grant{now, lock.expires(), lock.token(), epoch, c, lane.kaAction, true, true});
            record(now, c, EventKind::Renewal, std::uint32_t(grants - 1));
            t->leases[epoch - 1].end = lock.expires();
            lane.epoch = epoch;
            lane.viewFrom = now;
            lane.viewTtl = lane.kaTtl;
            if (!lane.believes) {
                put(t->beliefs[c], lane.beliefs, Belief{now, kForever, epoch, BeliefEnd::Never});
                lane.believes = true;
            }
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
    void clientsPhase(Tick now)
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

    void runLane(std::uint32_t c, Tick now)
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

    void restartStorage(const RestartAt &r)
    {
        const Token forgot = s->storages[r.storage].durable
                                 ? 0
                                 : storages[r.storage].forgetMaxToken(); // a volatile promise
        t->restarts.push_back({r.tick, forgot, r.storage, r.ref});
    }

    void arrive(std::uint32_t index, Tick now)
    {
        Write &w = t->writes[index];
        if (pitfalls) {
            arriveWithPitfalls(index, now);
            return;
        }
        WriteStorage &storage = storages[w.storage];
        w.applied =
            storage.write(w.tagged ? std::optional<Token>(t->tokenOf(w)) : std::nullopt, index);
        w.maxToken = storage.maxToken();
        w.expired = w.epoch != 0 && now >= t->leases[w.epoch - 1].end;
        judge(index, now);
    }

    // Section 12: bypass writes skip the check; version storages compare-and-set on the
    // version the writer knew and are judged by it; every storage counts its versions.
    void arriveWithPitfalls(std::uint32_t index, Tick now)
    {
        Write &w = t->writes[index];
        WriteStorage &storage = storages[w.storage];
        const bool bypass = s->clients[w.client].bypass;
        const bool byVersion = s->storages[w.storage].check == StorageCheck::Version;
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
        } else {
            w.applied = storage.write(
                w.tagged ? std::optional<Token>(t->tokenOf(w)) : std::nullopt, index);
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

    bool liveNewest(const Write &w, Tick now) const
    {
        return w.epoch != 0 && w.epoch == lock.epochCount() && w.epoch == lock.epoch() &&
               lock.isLive(now);
    }

    // The checker (section 6), once the storage has handled the write. `unseen`, for a version
    // storage (section 12): the write expected an older version than it found.
    void judge(std::uint32_t index, Tick now, std::optional<bool> unseen = std::nullopt)
    {
        Write &w = t->writes[index];
        if (w.applied) {
            // epochs, not tokens, are the ground truth for "newer data was overwritten"
            std::uint32_t &newest = newestApplied[w.storage];
            const bool stale = unseen ? *unseen : w.epoch < newest;
            w.result = stale ? WriteResult::Corrupted : WriteResult::Accepted;
            newest = std::max(newest, w.epoch);
            w.overwrote = lastApplied[w.storage];
            lastApplied[w.storage] = index;
        } else {
            w.result = liveNewest(w, now) ? WriteResult::LockedOut : WriteResult::Rejected;
            // the reply tells the writer its lock is gone
            const Lane &lane = lanes[w.client];
            if (lane.believes && lane.epoch == w.epoch)
                endBelief(w.client, now, BeliefEnd::Rejected);
        }
        count(index, now);
    }

    void count(std::uint32_t index, Tick now)
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
        put(t->storageWrites[w.storage], storageWrites[w.storage], index);
        if (w.result != WriteResult::Accepted)
            put(t->storageIncidents[w.storage], storageIncidents[w.storage], index);
        record(now, w.client, EventKind::WriteArrived, index);
    }

    // Section 12's groups, keyed by client and name, in lane order and then by the first
    // appearance of the name in the client's actions. A storage written twice in one group
    // counts once, by its last write in the file, and stands where that write does.
    void findGroups()
    {
        t->groups.clear();
        t->summary.partial = 0;
        std::vector<std::uint32_t> writeOf; // per action of one client: its write, or kNone
        for (std::uint32_t c = 0; c < s->clients.size(); ++c) {
            const std::vector<Action> &actions = s->clients[c].actions;
            const std::size_t first = t->groups.size();
            for (const Action &a : actions)
                if (a.kind == ActionKind::Write && !a.group.isEmpty() &&
                    std::none_of(t->groups.begin() + std::ptrdiff_t(first), t->groups.end(),
                                 [&](const GroupOutcome &g) { return g.name == a.group; }))
                    t->groups.push_back({a.group, c, {}, {}, {}, false});
            if (first == t->groups.size())
                continue;
            writeOf.assign(actions.size(), kNone);
            for (std::uint32_t e : t->clientEvents[c])
                if (t->events[e].kind == EventKind::WriteSent)
                    writeOf[t->writes[t->events[e].ref].action] = t->events[e].ref;
            for (std::size_t g = first; g < t->groups.size(); ++g) {
                GroupOutcome &out = t->groups[g];
                std::vector<std::pair<std::uint32_t, bool>> byStorage; // in file order
                for (std::uint32_t i = 0; i < actions.size(); ++i) {
                    const Action &a = actions[i];
                    if (a.kind != ActionKind::Write || a.group != out.name)
                        continue;
                    const std::uint32_t w = writeOf[i];
                    if (w != kNone)
                        out.writes.push_back(w);
                    const bool applied = w != kNone && t->writes[w].applied;
                    byStorage.erase(std::remove_if(byStorage.begin(), byStorage.end(),
                                                   [&](const auto &x) {
                                                       return x.first == a.storage;
                                                   }),
                                    byStorage.end());
                    byStorage.push_back({a.storage, applied});
                }
                std::sort(out.writes.begin(), out.writes.end());
                for (const auto &[storage, applied] : byStorage)
                    (applied ? out.applied : out.notApplied).push_back(storage);
                out.partial = !out.applied.empty() && !out.notApplied.empty();
                t->summary.partial += out.partial;
            }
        }
    }

    void endBelief(std::uint32_t c, Tick now, BeliefEnd why)
    {
        Lane &lane = lanes[c];
        if (!lane.believes)
            return;
        Belief &b = t->beliefs[c][lane.beliefs - 1];
        b.to = now;
        b.end = why;
        lane.believes = false;
    }

    void record(Tick now, std::uint32_t c, EventKind kind, std::uint32_t ref)
    {
        put(t->clientEvents[c], lanes[c].events, std::uint32_t(events));
        Event &e = slot(t->events, events);
        e.tick = now;
        e.ref = ref;
        e.client = static_cast<std::uint16_t>(c);
        e.kind = kind;
    }

    // Lists whose length is only known at the end grow by doubling; give back a large unused
    // tail (a copy, on a first run; re-runs after an edit grow back into the same capacity).
    template <typename T> static void trim(std::vector<T> &v)
    {
        if (v.capacity() - v.size() > v.size() / 8 + 16)
            v.shrink_to_fit();
    }

    void finish()
    {
        complete = true;
        completeEvents = t->events.size();
        trim(t->grants);
        trim(t->refusals);
        trim(t->releases);
        trim(t->leases);
        for (auto &v : t->storageIncidents)
            trim(v);
        for (auto &v : t->beliefs)
            trim(v);
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
        t->finals.resize(storages.size());
        for (std::size_t i = 0; i < storages.size(); ++i) {
            const std::uint32_t w = lastApplied[i];
            t->finals[i] = {w == kNone ? QString() : writeValue(*s, t->writes[w]),
                            storages[i].maxToken(), versions[i], w};
        }
        if (pitfalls)
            findGroups();
        if (checkpointEvents == kNoCheckpoints)
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
};

Simulator::Simulator(std::size_t checkpointEvents) : d(std::make_unique<Impl>())
{
    d->checkpointEvents = checkpointEvents;
}
Simulator::~Simulator() = default;

bool Simulator::run(const Scenario &scenario, bool fencing, Trace &trace, Tick through)
{
    d->start(scenario, fencing, trace);
    return d->loop(through, SIZE_MAX);
}

bool Simulator::rerun(std::uint32_t client, Tick from, Tick through, std::uint32_t action)
{
    Q_ASSERT(d->t);
    if (!d->t)
        return false; // nothing has run yet
    d->rerun(client, from, action);
    return d->loop(through, SIZE_MAX);
}

bool Simulator::resume(Tick through, std::size_t events)
{
    Q_ASSERT(d->t);
    if (!d->t)
        return false;
    return d->loop(through, events);
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

StorageState storageStateAt(const Scenario &scenario, const Trace &trace, std::uint32_t storage,
                            Tick t)
{
    StorageState st;
    const std::vector<std::uint32_t> &arrived = trace.storageWrites[storage];
    auto it = std::upper_bound(arrived.begin(), arrived.end(), t, [&](Tick tick, std::uint32_t w) {
        return tick < trace.writes[w].arrivedAt;
    });
    if (it == arrived.begin())
        return st;
    const Write &last = trace.writes[*(it - 1)];
    st.maxToken = last.maxToken;
    if (!trace.writeVersions.empty())
        st.version = trace.writeVersions[*(it - 1)].version;
    // a volatile max_token is 0 after a restart since that arrival (a restart in the tick of an
    // arrival comes first)
    if (!scenario.storages[storage].durable)
        for (const StorageRestart &r : trace.restarts)
            if (r.storage == storage && r.tick > last.arrivedAt && r.tick <= t)
                st.maxToken = 0;
    while (it != arrived.begin()) {
        --it;
        const Write &w = trace.writes[*it];
        if (w.applied) {
            st.value = writeValue(scenario, w);
            st.lastWrite = *it;
            break;
        }
    }
    return st;
}

} // namespace Core
