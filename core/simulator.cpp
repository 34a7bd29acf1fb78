#include "simulator.h"

#include "lockservice.h"
#include "storage.h"

#include <algorithm>
#include <queue>

namespace Core {

namespace {

struct PauseEdge
{
    Tick tick;
    std::uint32_t client;
    std::uint32_t action;
    bool start;
};

struct Lane
{
    std::vector<std::uint32_t> order; // non-pause actions in run order
    std::vector<Tick> runAt;          // the tick each of them runs (after thawing)
    std::size_t next = 0;
    Token token = 0;
    std::uint32_t epoch = 0; // 0: never granted, writes go untagged
    bool believes = false;
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

struct LaneAt
{
    Tick tick;
    std::uint32_t lane;
    bool operator>(const LaneAt &o) const { return tick != o.tick ? tick > o.tick : lane > o.lane; }
};

class Simulation
{
public:
    Simulation(const Scenario &s, bool fencing, Trace &out) : m_s(s), m_t(out)
    {
        // Reuse the buffers of the previous trace: a drag re-simulates every frame, and fresh
        // memory costs more in page faults than the simulation itself.
        m_t.fencing = fencing;
        m_t.events.clear();
        m_t.grants.clear();
        m_t.refusals.clear();
        m_t.releases.clear();
        m_t.writes.clear();
        m_t.leases.clear();
        m_t.summary = {};
        const std::size_t nc = s.clients.size();
        const std::size_t ns = s.storages.size();
        resetEach(m_t.clientEvents, nc);
        resetEach(m_t.freezes, nc);
        resetEach(m_t.beliefs, nc);
        resetEach(m_t.storageWrites, ns);
        resetEach(m_t.storageIncidents, ns);
        m_storages.reserve(ns);
        for (const StorageSpec &spec : s.storages)
            m_storages.emplace_back(fencing, spec.rule);
        m_newestApplied.assign(ns, 0);
        m_lastApplied.assign(ns, kNone);
        m_lanes.resize(nc);
    }

    void run()
    {
        prepare();
        loop();
        finish();
    }

private:
    template<typename T>
    static void resetEach(std::vector<std::vector<T>> &lists, std::size_t n)
    {
        lists.resize(n);
        for (std::vector<T> &l : lists)
            l.clear();
    }

    void prepare()
    {
        std::size_t writes = 0;
        std::size_t acquires = 0;
        for (std::uint32_t c = 0; c < m_s.clients.size(); ++c) {
            const std::vector<Action> &actions = m_s.clients[c].actions;
            // Actions run in order of `at`, ties in listed order. Files are usually sorted
            // already, so only sort when they are not.
            std::vector<std::uint32_t> byTime(actions.size());
            for (std::uint32_t i = 0; i < byTime.size(); ++i)
                byTime[i] = i;
            const auto earlier = [&](std::uint32_t a, std::uint32_t b) {
                return actions[a].at < actions[b].at;
            };
            if (!std::is_sorted(byTime.begin(), byTime.end(), earlier))
                std::stable_sort(byTime.begin(), byTime.end(), earlier);

            // Frozen stretches: the union of the pause windows [p, p + d).
            std::vector<Freeze> &freezes = m_t.freezes[c];
            for (std::uint32_t i : byTime) {
                const Action &a = actions[i];
                if (a.kind != ActionKind::Pause)
                    continue;
                const Tick end = a.at + a.amount;
                m_pauseEdges.push_back({a.at, c, i, true});
                m_pauseEdges.push_back({end, c, i, false});
                if (!freezes.empty() && a.at <= freezes.back().to)
                    freezes.back().to = std::max(freezes.back().to, end);
                else
                    freezes.push_back({a.at, end});
            }

            // Everything else runs at its tick, or when the client thaws if frozen then.
            // Deferred actions keep their order and come before those due at the thaw tick,
            // which sorting by `at` already gives.
            Lane &lane = m_lanes[c];
            lane.order.reserve(actions.size());
            lane.runAt.reserve(actions.size());
            std::size_t f = 0;
            std::size_t laneWrites = 0;
            for (std::uint32_t i : byTime) {
                const Action &a = actions[i];
                if (a.kind == ActionKind::Pause)
                    continue;
                while (f < freezes.size() && freezes[f].to <= a.at)
                    ++f;
                const bool frozen = f < freezes.size() && freezes[f].from <= a.at;
                lane.order.push_back(i);
                lane.runAt.push_back(frozen ? freezes[f].to : a.at);
                if (a.kind == ActionKind::Write)
                    ++laneWrites;
                else if (a.kind == ActionKind::Acquire)
                    ++acquires;
            }
            writes += laneWrites;
            // exact sizes keep the trace near its minimum footprint (no doubling slack)
            m_t.clientEvents[c].reserve(actions.size() + laneWrites + (actions.size() - lane.order.size()));
            if (!lane.order.empty())
                m_laneQueue.push({lane.runAt.front(), c});
        }
        // At one tick: a thaw before a new pause of the same client, lanes in order.
        std::sort(m_pauseEdges.begin(), m_pauseEdges.end(),
                  [](const PauseEdge &a, const PauseEdge &b) {
                      if (a.tick != b.tick)
                          return a.tick < b.tick;
                      if (a.client != b.client)
                          return a.client < b.client;
                      if (a.start != b.start)
                          return !a.start;
                      return a.action < b.action;
                  });
        m_t.writes.reserve(writes);
        m_t.grants.reserve(acquires);
        m_t.events.reserve(m_s.actionCount() + writes + m_pauseEdges.size());
    }

    void loop()
    {
        std::size_t pe = 0;
        for (;;) {
            Tick now = kForever;
            if (!m_arrivals.empty())
                now = m_arrivals.top().tick;
            if (pe < m_pauseEdges.size())
                now = std::min(now, m_pauseEdges[pe].tick);
            if (!m_laneQueue.empty())
                now = std::min(now, m_laneQueue.top().tick);
            if (now == kForever)
                break;

            // 1. writes arriving at storages, in the order they were sent
            while (!m_arrivals.empty() && m_arrivals.top().tick == now) {
                const std::uint32_t w = m_arrivals.top().write;
                m_arrivals.pop();
                arrive(w, now);
            }
            // 2. pauses starting and ending (imposed from outside, never deferred)
            for (; pe < m_pauseEdges.size() && m_pauseEdges[pe].tick == now; ++pe) {
                const PauseEdge &e = m_pauseEdges[pe];
                record(now, e.client, e.start ? EventKind::PauseStart : EventKind::PauseEnd,
                     e.action);
            }
            // 3. the clients' actions, in lane order
            while (!m_laneQueue.empty() && m_laneQueue.top().tick == now) {
                const std::uint32_t c = m_laneQueue.top().lane;
                m_laneQueue.pop();
                Lane &lane = m_lanes[c];
                while (lane.next < lane.order.size() && lane.runAt[lane.next] == now)
                    runAction(c, lane.order[lane.next++], now);
                if (lane.next < lane.order.size())
                    m_laneQueue.push({lane.runAt[lane.next], c});
            }
        }
    }

    void runAction(std::uint32_t c, std::uint32_t i, Tick now)
    {
        const Action &a = m_s.clients[c].actions[i];
        Lane &lane = m_lanes[c];
        switch (a.kind) {
        case ActionKind::Acquire: {
            const LockService::Reply r = m_lock.acquire(c, a.amount, now);
            if (r.outcome == LockService::Outcome::Refusal) {
                m_t.refusals.push_back({now, c, i, r.holder, r.epoch});
                record(now, c, EventKind::Refusal, std::uint32_t(m_t.refusals.size() - 1));
                endBelief(c, now, BeliefEnd::Refused);
                break;
            }
            const bool renewal = r.outcome == LockService::Outcome::Renewal;
            m_t.grants.push_back({now, r.expires, r.token, r.epoch, c, i, renewal});
            record(now, c, renewal ? EventKind::Renewal : EventKind::Grant,
                 std::uint32_t(m_t.grants.size() - 1));
            if (renewal) {
                m_t.leases.back().end = r.expires;
            } else {
                m_t.leases.push_back({now, r.expires, r.token, r.epoch, c, false});
                endBelief(c, now, BeliefEnd::Regranted);
            }
            lane.token = r.token;
            lane.epoch = r.epoch;
            if (!lane.believes) {
                m_t.beliefs[c].push_back({now, kForever, r.epoch, BeliefEnd::Never});
                lane.believes = true;
            }
            break;
        }
        case ActionKind::Release: {
            const bool effective = m_lock.release(c, now);
            const std::uint32_t epoch = effective ? m_lock.epoch() : 0;
            if (effective) {
                m_t.leases.back().end = now;
                m_t.leases.back().released = true;
            }
            m_t.releases.push_back({now, c, i, epoch, effective});
            record(now, c, EventKind::Release, std::uint32_t(m_t.releases.size() - 1));
            endBelief(c, now, BeliefEnd::Released);
            break;
        }
        case ActionKind::Write: {
            Write w;
            w.sentAt = now;
            w.arrivedAt = now + a.amount;
            w.tagged = lane.epoch != 0;
            w.token = lane.token;
            w.epoch = lane.epoch;
            w.client = c;
            w.action = i;
            w.storage = a.storage;
            const auto index = std::uint32_t(m_t.writes.size());
            m_t.writes.push_back(w);
            record(now, c, EventKind::WriteSent, index);
            if (a.amount == 0)
                arrive(index, now); // no delay: the storage handles it at once
            else
                m_arrivals.push({w.arrivedAt, index});
            break;
        }
        case ActionKind::Pause:
            break; // folded into the frozen stretches in prepare()
        }
    }

    void arrive(std::uint32_t index, Tick now)
    {
        Write &w = m_t.writes[index];
        WriteStorage &storage = m_storages[w.storage];
        w.applied = storage.write(w.tagged ? std::optional<Token>(w.token) : std::nullopt, index);
        w.maxToken = storage.maxToken();
        w.expired = w.tagged && now >= m_t.leases[w.epoch - 1].end;
        if (w.applied) {
            // epochs, not tokens, are the ground truth for "newer data was overwritten"
            std::uint32_t &newest = m_newestApplied[w.storage];
            w.result = w.epoch < newest ? WriteResult::Corrupted : WriteResult::Accepted;
            newest = std::max(newest, w.epoch);
            w.overwrote = m_lastApplied[w.storage];
            m_lastApplied[w.storage] = index;
        } else {
            const bool liveNewest = w.epoch != 0 && w.epoch == m_lock.epoch() && m_lock.isLive(now);
            w.result = liveNewest ? WriteResult::LockedOut : WriteResult::Rejected;
            // the reply tells the writer its lock is gone
            const Lane &lane = m_lanes[w.client];
            if (lane.believes && lane.epoch == w.epoch)
                endBelief(w.client, now, BeliefEnd::Rejected);
        }
        switch (w.result) {
        case WriteResult::Accepted:
            ++m_t.summary.accepted;
            break;
        case WriteResult::Rejected:
            ++m_t.summary.rejected;
            break;
        case WriteResult::Corrupted:
            ++m_t.summary.corrupted;
            break;
        case WriteResult::LockedOut:
            ++m_t.summary.lockedOut;
            break;
        }
        m_t.storageWrites[w.storage].push_back(index);
        if (w.result != WriteResult::Accepted)
            m_t.storageIncidents[w.storage].push_back(index);
        record(now, static_cast<std::uint16_t>(w.client), EventKind::WriteArrived, index);
    }

    void endBelief(std::uint32_t c, Tick now, BeliefEnd why)
    {
        Lane &lane = m_lanes[c];
        if (!lane.believes)
            return;
        Belief &b = m_t.beliefs[c].back();
        b.to = now;
        b.end = why;
        lane.believes = false;
    }

    void record(Tick now, std::uint32_t c, EventKind kind, std::uint32_t ref)
    {
        m_t.clientEvents[c].push_back(std::uint32_t(m_t.events.size()));
        m_t.events.push_back({now, ref, static_cast<std::uint16_t>(c), kind});
    }

    void finish()
    {
        Tick last = 0;
        if (!m_t.events.empty())
            last = m_t.events.back().tick;
        if (!m_t.leases.empty())
            last = std::max(last, m_t.leases.back().end); // later leases end no earlier
        for (const std::vector<Freeze> &f : m_t.freezes)
            if (!f.empty())
                last = std::max(last, f.back().to);
        m_t.lastTick = last;
        m_t.horizon = m_s.horizon ? *m_s.horizon : last + 1 + last / 20;
        m_t.finals.resize(m_storages.size());
        for (std::size_t i = 0; i < m_storages.size(); ++i) {
            const std::uint32_t last = m_lastApplied[i];
            m_t.finals[i] = {last == kNone ? QString() : writeValue(m_s, m_t.writes[last]),
                             m_storages[i].maxToken(), last};
        }
    }

    const Scenario &m_s;
    Trace &m_t;
    LockService m_lock;
    // storages remember which write they hold; the value is looked up in the scenario
    using WriteStorage = BasicStorage<std::uint32_t>;
    std::vector<WriteStorage> m_storages;
    std::vector<std::uint32_t> m_newestApplied; // per storage: newest epoch applied so far
    std::vector<std::uint32_t> m_lastApplied;   // per storage: last applied write
    std::vector<Lane> m_lanes;
    std::vector<PauseEdge> m_pauseEdges;
    std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> m_arrivals;
    std::priority_queue<LaneAt, std::vector<LaneAt>, std::greater<LaneAt>> m_laneQueue;
};

} // namespace

Trace simulate(const Scenario &scenario)
{
    return simulate(scenario, scenario.fencing);
}

Trace simulate(const Scenario &scenario, bool fencing)
{
    Trace trace;
    Simulation(scenario, fencing, trace).run();
    return trace;
}

void simulateInto(const Scenario &scenario, bool fencing, Trace &trace)
{
    Simulation(scenario, fencing, trace).run();
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
    auto it = std::upper_bound(arrived.begin(), arrived.end(), t,
                               [&](Tick tick, std::uint32_t w) {
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
