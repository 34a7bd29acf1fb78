#include "simulator.h"

#include "lockservice.h"
#include "storage.h"

#include <algorithm>
#include <cstdint>
#include <functional>

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

struct Arrival
{
    Tick tick;
    std::uint32_t write; // writes are numbered in send order, which breaks ties
    bool operator>(const Arrival &o) const
    {
        return tick != o.tick ? tick > o.tick : write > o.write;
    }
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
    struct Lane
    {
        // from the scenario (prepareLane)
        std::vector<std::uint32_t> order; // non-pause actions in run order
        std::vector<Tick> runAt;          // the tick each of them runs (after thawing); sorted
        std::vector<PauseEdge> edges;     // pause starts and ends, in the order they happen
        // run state
        std::size_t next = 0;
        std::size_t nextEdge = 0;
        // the last grant it got (its token is that epoch's); 0: never granted, writes go untagged
        std::uint32_t epoch = 0;
        bool believes = false;
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
        Lease lastLease; // renewals and releases extend or end it later
        Summary summary;
        LockService lock;
        std::vector<Arrival> inFlight;
        std::vector<LaneMark> lanes;
        std::vector<StorageMark> storages;
    };

    // Re-running from a checkpoint costs up to this many events before the edited tick.
    static constexpr std::size_t kDefaultSpacing = 4096;
    std::size_t checkpointEvents = 0; // 0: the default spacing

    const Scenario *s = nullptr;
    Trace *t = nullptr;
    LockService lock;
    // storages remember which write they hold; the value is looked up in the scenario
    std::vector<WriteStorage> storages;
    std::vector<std::uint32_t> newestApplied; // per storage: newest epoch applied so far
    std::vector<std::uint32_t> lastApplied;   // per storage: last applied write
    std::vector<Lane> lanes;
    std::vector<Arrival> arrivals;  // min-heap: writes in flight
    std::vector<LaneAt> laneQueue;  // min-heap: lanes with an action due
    std::vector<LaneAt> pauseQueue; // min-heap: lanes with a pause edge due
    std::vector<Checkpoint> checkpoints;
    std::vector<std::uint32_t> byTimeScratch; // prepareLane's scratch list
    std::size_t nextCheckpoint = 0;           // take one when the trace has this many events
    bool complete = false;
    std::size_t completeEvents = 0; // events of the last complete run
    Tick restartedFrom = 0;

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
        t->summary = {};
        const std::size_t nc = s->clients.size();
        const std::size_t ns = s->storages.size();
        resetEach(t->clientEvents, nc);
        resetEach(t->freezes, nc);
        resetEach(t->beliefs, nc);
        resetEach(t->storageWrites, ns);
        resetEach(t->storageIncidents, ns);
        storages.clear();
        storages.reserve(ns);
        for (const StorageSpec &spec : s->storages)
            storages.emplace_back(fencing, spec.rule);
        newestApplied.assign(ns, 0);
        lastApplied.assign(ns, kNone);
        lock = LockService();
        lanes.resize(nc);
        arrivals.clear();
        checkpoints.clear();
        nextCheckpoint = 0;

        std::size_t writes = 0;
        std::size_t acquires = 0;
        std::size_t edges = 0;
        std::vector<std::size_t> storageWrites(ns, 0);
        for (std::uint32_t c = 0; c < nc; ++c) {
            prepareLane(c);
            Lane &lane = lanes[c];
            lane.next = lane.nextEdge = 0;
            lane.epoch = 0;
            lane.believes = false;
            std::size_t laneWrites = 0;
            for (std::uint32_t i : lane.order) {
                const Action &a = s->clients[c].actions[i];
                if (a.kind == ActionKind::Write) {
                    ++laneWrites;
                    ++storageWrites[a.storage];
                } else if (a.kind == ActionKind::Acquire) {
                    ++acquires;
                }
            }
            writes += laneWrites;
            edges += lane.edges.size();
            // exact sizes keep the trace near its minimum footprint (no doubling slack)
            t->clientEvents[c].reserve(lane.order.size() + laneWrites + lane.edges.size());
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
        rebuildQueues();
        complete = false;
        t->pendingFrom = 0;
        restartedFrom = 0;
    }

    // Run order of one client's actions and its frozen stretches: a function of the scenario.
    // Runs again for the edited client on every drag step, so the usual case (actions listed in
    // time order, pauses not overlapping) avoids sorting and temporary lists.
    void prepareLane(std::uint32_t c)
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
        Lane &lane = lanes[c];
        std::vector<Freeze> &freezes = t->freezes[c];
        freezes.clear();
        lane.edges.clear();
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t i = nth(k);
            const Action &a = actions[i];
            if (a.kind != ActionKind::Pause)
                continue;
            const Tick end = a.at + a.amount;
            lane.edges.push_back({a.at, i, true});
            lane.edges.push_back({end, i, false});
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
        if (!std::is_sorted(lane.edges.begin(), lane.edges.end(), edgeBefore))
            std::sort(lane.edges.begin(), lane.edges.end(), edgeBefore);

        // Everything else runs at its tick, or when the client thaws if frozen then. Deferred
        // actions keep their order and come before those due at the thaw tick, which sorting
        // by `at` already gives.
        lane.order.clear();
        lane.runAt.clear();
        lane.order.reserve(actions.size() - lane.edges.size() / 2);
        lane.runAt.reserve(actions.size() - lane.edges.size() / 2);
        std::size_t f = 0;
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t i = nth(k);
            const Action &a = actions[i];
            if (a.kind == ActionKind::Pause)
                continue;
            while (f < freezes.size() && freezes[f].to <= a.at)
                ++f;
            const bool frozen = f < freezes.size() && freezes[f].from <= a.at;
            lane.order.push_back(i);
            lane.runAt.push_back(frozen ? freezes[f].to : a.at);
        }
    }

    void rebuildQueues()
    {
        laneQueue.clear();
        pauseQueue.clear();
        for (std::uint32_t c = 0; c < lanes.size(); ++c) {
            const Lane &lane = lanes[c];
            if (lane.next < lane.order.size())
                laneQueue.push_back({lane.runAt[lane.next], c});
            if (lane.nextEdge < lane.edges.size())
                pauseQueue.push_back({lane.edges[lane.nextEdge].tick, c});
        }
        std::make_heap(laneQueue.begin(), laneQueue.end(), std::greater<LaneAt>());
        std::make_heap(pauseQueue.begin(), pauseQueue.end(), std::greater<LaneAt>());
    }

    Tick nextTick() const
    {
        Tick now = kForever;
        if (!arrivals.empty())
            now = arrivals.front().tick;
        if (!pauseQueue.empty())
            now = std::min(now, pauseQueue.front().tick);
        if (!laneQueue.empty())
            now = std::min(now, laneQueue.front().tick);
        return now;
    }

    // Runs whole ticks while the next one is at most `through` and fewer than `budget` events
    // have been recorded. Returns true when the run is complete.
    bool loop(Tick through, std::size_t budget)
    {
        if (complete)
            return true;
        const std::size_t stopAt = budget == SIZE_MAX ? SIZE_MAX : t->events.size() + budget;
        for (;;) {
            const Tick now = nextTick();
            if (now == kForever)
                break;
            if (now > through || t->events.size() >= stopAt) {
                t->pendingFrom = now;
                return false;
            }
            if (t->events.size() >= nextCheckpoint)
                takeCheckpoint(now);

            // 1. writes arriving at storages, in the order they were sent
            while (!arrivals.empty() && arrivals.front().tick == now)
                arrive(popMin(arrivals).write, now);
            // 2. pauses starting and ending (imposed from outside, never deferred)
            while (!pauseQueue.empty() && pauseQueue.front().tick == now) {
                const std::uint32_t c = pauseQueue.front().lane;
                Lane &lane = lanes[c];
                for (; lane.nextEdge < lane.edges.size() && lane.edges[lane.nextEdge].tick == now;
                     ++lane.nextEdge) {
                    const PauseEdge &e = lane.edges[lane.nextEdge];
                    record(now, c, e.start ? EventKind::PauseStart : EventKind::PauseEnd, e.action);
                }
                if (lane.nextEdge < lane.edges.size())
                    replaceMin(pauseQueue, {lane.edges[lane.nextEdge].tick, c});
                else
                    popMin(pauseQueue);
            }
            // 3. the clients' actions, in lane order
            while (!laneQueue.empty() && laneQueue.front().tick == now) {
                const std::uint32_t c = laneQueue.front().lane;
                Lane &lane = lanes[c];
                while (lane.next < lane.order.size() && lane.runAt[lane.next] == now)
                    runAction(c, lane.order[lane.next++], now);
                if (lane.next < lane.order.size())
                    replaceMin(laneQueue, {lane.runAt[lane.next], c});
                else
                    popMin(laneQueue);
            }
        }
        finish();
        return true;
    }

    void takeCheckpoint(Tick now)
    {
        Checkpoint &k = checkpoints.emplace_back();
        k.tick = now;
        k.events = t->events.size();
        k.grants = t->grants.size();
        k.refusals = t->refusals.size();
        k.releases = t->releases.size();
        k.writes = t->writes.size();
        k.leases = t->leases.size();
        if (!t->leases.empty())
            k.lastLease = t->leases.back();
        k.summary = t->summary;
        k.lock = lock;
        k.inFlight = arrivals;
        k.lanes.reserve(lanes.size());
        for (std::size_t c = 0; c < lanes.size(); ++c) {
            const Lane &lane = lanes[c];
            k.lanes.push_back({std::uint32_t(t->clientEvents[c].size()),
                               std::uint32_t(t->beliefs[c].size()), lane.epoch, lane.believes});
        }
        k.storages.reserve(storages.size());
        for (std::size_t i = 0; i < storages.size(); ++i)
            k.storages.push_back({storages[i], std::uint32_t(t->storageWrites[i].size()),
                                  std::uint32_t(t->storageIncidents[i].size()), newestApplied[i],
                                  lastApplied[i]});
        // A checkpoint costs memory in proportion to clients, storages and writes in flight;
        // spacing them at least that far apart keeps all of them below the trace's own size.
        nextCheckpoint =
            k.events + (checkpointEvents
                            ? checkpointEvents
                            : std::max(kDefaultSpacing,
                                       4 * (lanes.size() + storages.size() + arrivals.size())));
    }

    void restore(const Checkpoint &k)
    {
        t->events.resize(k.events);
        t->grants.resize(k.grants);
        t->refusals.resize(k.refusals);
        t->releases.resize(k.releases);
        t->writes.resize(k.writes);
        t->leases.resize(k.leases);
        if (k.leases)
            t->leases.back() = k.lastLease;
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
            t->clientEvents[c].resize(m.events);
            t->beliefs[c].resize(m.beliefs);
            if (m.believes) { // it was open then
                t->beliefs[c].back().to = kForever;
                t->beliefs[c].back().end = BeliefEnd::Never;
            }
            lane.epoch = m.epoch;
            lane.believes = m.believes;
            lane.next = countBefore(lane.runAt, k.tick, [](Tick r) { return r; });
            lane.nextEdge =
                countBefore(lane.edges, k.tick, [](const PauseEdge &e) { return e.tick; });
        }
        for (std::size_t i = 0; i < storages.size(); ++i) {
            const Checkpoint::StorageMark &m = k.storages[i];
            storages[i] = m.storage;
            t->storageWrites[i].resize(m.writes);
            t->storageIncidents[i].resize(m.incidents);
            newestApplied[i] = m.newestApplied;
            lastApplied[i] = m.lastApplied;
        }
        rebuildQueues();
        complete = false;
        t->pendingFrom = k.tick;
        restartedFrom = k.tick;
    }

    void rerun(std::uint32_t client, Tick from)
    {
        prepareLane(client);
        // the last checkpoint at or before `from`: everything before it is unchanged
        auto it = std::partition_point(checkpoints.begin(), checkpoints.end(),
                                       [&](const Checkpoint &k) { return k.tick <= from; });
        if (it == checkpoints.begin()) {
            start(*s, t->fencing, *t);
            return;
        }
        restore(*(it - 1));
        nextCheckpoint = (it - 1)->events; // retaken at once, later ones are stale
        checkpoints.erase(it - 1, checkpoints.end());
    }

    void runAction(std::uint32_t c, std::uint32_t i, Tick now)
    {
        const Action &a = s->clients[c].actions[i];
        Lane &lane = lanes[c];
        switch (a.kind) {
        case ActionKind::Acquire: {
            const LockService::Reply r = lock.acquire(c, a.amount, now);
            if (r.outcome == LockService::Outcome::Refusal) {
                t->refusals.push_back({now, c, i, r.holder, r.epoch});
                record(now, c, EventKind::Refusal, std::uint32_t(t->refusals.size() - 1));
                endBelief(c, now, BeliefEnd::Refused);
                break;
            }
            const bool renewal = r.outcome == LockService::Outcome::Renewal;
            t->grants.push_back({now, r.expires, r.token, r.epoch, c, i, renewal});
            record(now, c, renewal ? EventKind::Renewal : EventKind::Grant,
                   std::uint32_t(t->grants.size() - 1));
            if (renewal) {
                t->leases.back().end = r.expires;
            } else {
                t->leases.push_back({now, r.expires, r.token, r.epoch, c, false});
                endBelief(c, now, BeliefEnd::Regranted);
            }
            lane.epoch = r.epoch;
            if (!lane.believes) {
                t->beliefs[c].push_back({now, kForever, r.epoch, BeliefEnd::Never});
                lane.believes = true;
            }
            break;
        }
        case ActionKind::Release: {
            const bool effective = lock.release(c, now);
            const std::uint32_t epoch = effective ? lock.epoch() : 0;
            if (effective) {
                t->leases.back().end = now;
                t->leases.back().released = true;
            }
            t->releases.push_back({now, c, i, epoch, effective});
            record(now, c, EventKind::Release, std::uint32_t(t->releases.size() - 1));
            endBelief(c, now, BeliefEnd::Released);
            break;
        }
        case ActionKind::Write: {
            Write w;
            w.sentAt = now;
            w.arrivedAt = now + a.amount;
            w.tagged = lane.epoch != 0;
            w.epoch = lane.epoch; // its token is the epoch's: Trace::tokenOf
            w.client = c;
            w.action = i;
            w.storage = a.storage;
            const auto index = std::uint32_t(t->writes.size());
            t->writes.push_back(w);
            record(now, c, EventKind::WriteSent, index);
            if (a.amount == 0)
                arrive(index, now); // no delay: the storage handles it at once
            else
                pushMin(arrivals, {w.arrivedAt, index});
            break;
        }
        case ActionKind::Pause:
            break; // folded into the frozen stretches in prepareLane()
        }
    }

    void arrive(std::uint32_t index, Tick now)
    {
        Write &w = t->writes[index];
        WriteStorage &storage = storages[w.storage];
        w.applied =
            storage.write(w.tagged ? std::optional<Token>(t->tokenOf(w)) : std::nullopt, index);
        w.maxToken = storage.maxToken();
        w.expired = w.tagged && now >= t->leases[w.epoch - 1].end;
        if (w.applied) {
            // epochs, not tokens, are the ground truth for "newer data was overwritten"
            std::uint32_t &newest = newestApplied[w.storage];
            w.result = w.epoch < newest ? WriteResult::Corrupted : WriteResult::Accepted;
            newest = std::max(newest, w.epoch);
            w.overwrote = lastApplied[w.storage];
            lastApplied[w.storage] = index;
        } else {
            const bool liveNewest = w.epoch != 0 && w.epoch == lock.epoch() && lock.isLive(now);
            w.result = liveNewest ? WriteResult::LockedOut : WriteResult::Rejected;
            // the reply tells the writer its lock is gone
            const Lane &lane = lanes[w.client];
            if (lane.believes && lane.epoch == w.epoch)
                endBelief(w.client, now, BeliefEnd::Rejected);
        }
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
        t->storageWrites[w.storage].push_back(index);
        if (w.result != WriteResult::Accepted)
            t->storageIncidents[w.storage].push_back(index);
        record(now, w.client, EventKind::WriteArrived, index);
    }

    void endBelief(std::uint32_t c, Tick now, BeliefEnd why)
    {
        Lane &lane = lanes[c];
        if (!lane.believes)
            return;
        Belief &b = t->beliefs[c].back();
        b.to = now;
        b.end = why;
        lane.believes = false;
    }

    void record(Tick now, std::uint32_t c, EventKind kind, std::uint32_t ref)
    {
        t->clientEvents[c].push_back(std::uint32_t(t->events.size()));
        t->events.push_back({now, ref, static_cast<std::uint16_t>(c), kind});
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
        t->lastTick = last;
        t->horizon = s->horizon ? *s->horizon : last + 1 + last / 20;
        t->finals.resize(storages.size());
        for (std::size_t i = 0; i < storages.size(); ++i) {
            const std::uint32_t w = lastApplied[i];
            t->finals[i] = {w == kNone ? QString() : writeValue(*s, t->writes[w]),
                            storages[i].maxToken(), w};
        }
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

bool Simulator::rerun(std::uint32_t client, Tick from, Tick through)
{
    Q_ASSERT(d->t);
    d->rerun(client, from);
    return d->loop(through, SIZE_MAX);
}

bool Simulator::resume(Tick through, std::size_t events)
{
    Q_ASSERT(d->t);
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

const QString &writeValue(const Scenario &scenario, const Write &write)
{
    return scenario.clients[write.client].actions[write.action].value;
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
    st.maxToken = trace.writes[*(it - 1)].maxToken;
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
