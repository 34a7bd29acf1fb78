// What the simulator's files share (an internal header: only core/simulator*.cpp and
// core/laneplan.cpp include it). Simulator::Impl holds one run's whole state; its member
// functions live in the file of their part of the run:
//   simulator.cpp             the public API, the event loop and a tick's domain rules
//   simulatorlock.cpp         the lock service's phases of a tick (events, expiry, waiters)
//   simulatorpitfalls.cpp     docs/SCENARIO.md sections 11 and 12 (checks, keepalives, reads,
//                             versions, restarts, bypass, groups)
//   simulatorsetup.cpp        a run's start (buffers, schedules, tick 0) and its end
//   laneplan.cpp              each lane's run order and frozen stretches
//   simulatorcheckpoints.cpp  checkpoints, re-runs from them and rejoining the last run
#pragma once

#include "fastload/memoryhints.h"
#include "lockservice.h"
#include "simulator.h"
#include "storage.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace Core::SimulatorDetail {

// Huge pages for a big list's room, and its pages populated in one call (fastload/memoryhints.h,
// the loader's memory hints, which the simulator's big lists share).
template <typename T> void prepareMemory(const std::vector<T> &v)
{
    Core::prepareMemory(v.data(), v.capacity() * sizeof(T));
}

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

// The entry rises from the end to its place (std::push_heap's sift, so the heap is the same).
// `v` is taken by value: a small record passes in registers, while one built field by field on
// the stack and read back whole stalls the load that copies it (store forwarding).
template <typename T> void pushMin(std::vector<T> &heap, T v)
{
    std::size_t i = heap.size();
    heap.emplace_back();
    while (i > 0) {
        const std::size_t parent = (i - 1) / 2;
        if (!(heap[parent] > v))
            break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = v;
}

// The smallest entry is replaced by `v`, which sinks to its place: one sift instead of a pop
// and a push, for a lane that has run its actions at this tick and is due again later.
template <typename T> void replaceMin(std::vector<T> &heap, T v)
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

// The smallest entry goes, and the last one sinks from the top to its place. The entries come
// out in the order std::pop_heap gives: no two entries of a heap are ordered alike unless they
// are equal (ties at a tick go by lane or by send), whatever the heap's layout.
template <typename T> T popMin(std::vector<T> &heap)
{
    const T v = heap.front();
    const T last = heap.back();
    heap.pop_back();
    if (!heap.empty())
        replaceMin(heap, last);
    return v;
}

} // namespace Core::SimulatorDetail

namespace Core {

struct Simulator::Impl
{
    using PauseEdge = SimulatorDetail::PauseEdge;
    using Arrival = SimulatorDetail::Arrival;
    using PendingSend = SimulatorDetail::PendingSend;
    using LaneAt = SimulatorDetail::LaneAt;

    // A client's actions in the order they run: a function of the scenario (prepareLane).
    struct Plan
    {
        std::vector<std::uint32_t> order; // non-pause actions in run order
        std::vector<Tick> runAt;          // the tick each of them runs (after thawing); sorted
        std::vector<PauseEdge> edges;     // pause starts and ends, in the order they happen
        // counted on the way, for start() and rerun()
        std::vector<std::uint32_t> storageWrites; // the lane's writes to each storage
        std::uint32_t writes = 0;
        std::uint32_t acquires = 0;
        std::uint32_t releases = 0;
        bool pitfalls = false; // some action uses sections 11 or 12 (Action::usesPitfalls)
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
        std::vector<PendingSend> sends;   // passed checks waiting out their gap, by tick
        Tick sendEntry = kForever;        // the tick of its entry in sendQueue
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
        std::size_t waits = 0, lockEvents = 0, rearms = 0, nextScheduled = 0;
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

    // From this many acquires on, start() reserves the lists of leases, releases and beliefs.
    static constexpr std::size_t kReserveFrom = 4096;
    // From this many actions on, prepareLanes() plans on two threads.
    static constexpr std::size_t kPlanInTwoFrom = 200000;
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
    std::size_t waits = 0, lockEvents = 0, rearms = 0;
    // the lock service's own events (restores, failovers, ...), and the next one due
    std::vector<Scheduled> schedule;
    std::size_t nextScheduled = 0;
    // restores' snapshots, taken at the end of their `from` tick as the run passes it
    std::vector<LockService> snapshots; // per restore
    std::vector<std::uint32_t> byFrom;  // restores in order of `from`
    std::size_t nextSnapshot = 0;
    Tick minNext = 0;       // every tick before this one has been run
    Tick pausesUntil = 0;   // one past the last pause's start: the run lasts until then
    bool beyondRun = false; // the tick nextTick() gave is past the run's end (only a thaw)
    bool quietLock = false; // see lockPhases()
    bool complete = false;
    // Simulator::summarize(): no events, no per-lane or per-storage lists of records, nothing
    // kept to re-run from; every rule of the run is the same, so the summary is too.
    bool summaryOnly = false;
    // A large summary-only run without sections 11 and 12 keeps a write's record only while it
    // is in flight or its storage's last applied write: then its slot in Trace::writes is used
    // again (freeWrites), so the list is as long as the most writes held at once, not a record
    // for every write (at 1M actions, 35 MB of fresh memory). Its number in send order, for
    // StorageState::lastWrite, is kept beside it (writeNumbers).
    static constexpr std::size_t kRecycleWritesFrom = 65536;
    bool recycleWrites = false;
    std::vector<std::uint32_t> freeWrites;
    std::vector<std::uint32_t> writeNumbers; // per slot, when recycling
    std::uint32_t recycledWrite();
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
    // A refusal: a summary counts it and keeps no record (nothing it reports reads one, and at
    // a million actions the list grew to megabytes of fresh memory, copied at each doubling).
    void putRefusal(const Refusal &r)
    {
        if (summaryOnly)
            ++refusals;
        else
            put(t->refusals, refusals, r);
    }
    // Grants (renewals too), releases and beliefs, the same way: a summary counts grants and
    // releases and keeps no record of them or of beliefs. Nothing in a run reads these records
    // back (only checkpoints, which a summary has none of); at a million actions they were
    // 11 MB of fresh memory, written once, each first touch of a page a fault.
    void putGrant(const Grant &g)
    {
        if (summaryOnly)
            ++grants;
        else
            slot(t->grants, grants) = g;
    }
    void putRelease(const Release &r)
    {
        if (summaryOnly)
            ++releases;
        else
            put(t->releases, releases, r);
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

    // A run's start and end (simulatorsetup.cpp)
    void start(const Scenario &scenario, bool fencing, Trace &trace);
    void clearTrace(bool fencing);
    void startAgain(bool fencing);
    void buildSchedule();
    void restoreStart();
    void rebuildQueues();
    template <typename T> static void trim(std::vector<T> &v);
    void finish();

    // Lane plans (laneplan.cpp)
    void prepareLane(std::uint32_t c, Plan &plan) { prepareLane(c, plan, byTimeScratch); }
    void prepareLane(std::uint32_t c, Plan &plan, std::vector<std::uint32_t> &byTime);
    void prepareLanes();
    static Tick plansAgreeFrom(const Plan &a, const Plan &b, std::uint32_t action);
    Tick thawOf(std::uint32_t c, Tick at) const;

    // The loop and a tick's domain rules (simulator.cpp)
    Tick nextTick();
    Tick nextForWaiters(Tick now);
    void findLastPauseStart();
    void recordPauseEdges(Tick now);
    void dropStale(std::vector<LaneAt> &heap, Tick Lane::*entry);
    bool keptAliveForever() const;
    bool waiterHasMore() const;
    bool loop(Tick before, std::size_t budget);
    void runAction(std::uint32_t c, std::uint32_t i, Tick now);
    void sendWrite(std::uint32_t c, std::uint32_t i, Tick now, std::uint32_t epoch);
    void arrive(std::uint32_t index, Tick now);
    bool liveNewest(const Write &w, Tick now) const;
    void judge(std::uint32_t index, Tick now, std::optional<bool> unseen = std::nullopt);
    void count(std::uint32_t index, Tick now);
    void startBelief(std::uint32_t c, Tick now, std::uint32_t epoch);
    void endBelief(std::uint32_t c, Tick now, BeliefEnd why);
    void record(Tick now, std::uint32_t c, EventKind kind, std::uint32_t ref);

    // The lock service's phases (simulatorlock.cpp)
    void lockPhases(Tick now);
    std::uint32_t inTheWayAt(Tick now, std::uint32_t client, std::uint32_t *epoch) const;
    void restoreLock(std::uint32_t ref, Tick now, LockEvent &le);
    void recordRearm(Tick now);
    void serveWaiter(Tick now, std::uint32_t releaser);
    void resumeLane(std::uint32_t c, Tick now, std::uint32_t releaser);

    // Sections 11 and 12 (simulatorpitfalls.cpp)
    void sendRead(std::uint32_t c, std::uint32_t i, Tick now);
    void arriveRead(std::uint32_t index, Tick now);
    void checkWrite(std::uint32_t c, std::uint32_t i, Tick now);
    void queueSends(std::uint32_t c);
    void setKeepalive(std::uint32_t c, Tick every, Tick ttl, Tick now, std::uint32_t action);
    void stopKeepalive(std::uint32_t c);
    void keepalive(std::uint32_t c, Tick now);
    void clientsPhase(Tick now);
    void runLane(std::uint32_t c, Tick now);
    void restartStorage(const RestartAt &r);
    void arriveWithPitfalls(std::uint32_t index, Tick now);
    void findGroups();

    // Checkpoints, re-runs and rejoins (simulatorcheckpoints.cpp)
    void takeCheckpoint(Tick now);
    std::size_t spacing() const;
    void restore(const Checkpoint &k);
    void rerun(std::uint32_t client, Tick from, std::uint32_t action);
    void keepRejoins(Tick agreeFrom);
    bool rejoin(Tick now);
    bool sameAs(const Checkpoint &k, const Rejoin &r);
    void putFinals();
    void cut();
};

} // namespace Core
