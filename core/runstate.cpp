#include "runstate.h"

#include "explain.h"
#include "simulator.h"

#include <algorithm>

namespace Core {

namespace {

// One past the last arrival at `storage` by the end of tick t (an index into its
// storageWrites, which are in arrival order).
std::size_t arrivedBy(const Trace &trace, std::uint32_t storage, Tick t)
{
    const std::vector<std::uint32_t> &arrived = trace.storageWrites[storage];
    const auto it =
        std::upper_bound(arrived.begin(), arrived.end(), t, [&](Tick tick, std::uint32_t w) {
            return tick < trace.writes[w].arrivedAt;
        });
    return std::size_t(it - arrived.begin());
}

// The last applied write among the first `n` arrivals at `storage`, or kNone.
std::uint32_t lastAppliedOf(const Trace &trace, std::uint32_t storage, std::size_t n)
{
    const std::vector<std::uint32_t> &arrived = trace.storageWrites[storage];
    while (n > 0) {
        --n;
        if (trace.writes[arrived[n]].applied)
            return arrived[n];
    }
    return kNone;
}

// First of a client's events (`evs`, in time order) at or after tick t.
std::size_t firstEventOf(const Trace &t, const std::vector<std::uint32_t> &evs, Tick tick)
{
    return std::size_t(
        std::lower_bound(evs.begin(), evs.end(), tick,
                         [&](std::uint32_t e, Tick v) { return t.events[e].tick < v; }) -
        evs.begin());
}

} // namespace

std::uint32_t runEventOf(const Scenario &s, const Trace &t, int client, int action)
{
    if (client < 0 || action < 0 || std::size_t(client) >= t.clientEvents.size() ||
        std::size_t(client) >= s.clients.size() ||
        std::size_t(action) >= s.clients[std::size_t(client)].actions.size())
        return kNone;
    const Action &a = s.clients[std::size_t(client)].actions[std::size_t(action)];
    const std::vector<std::uint32_t> &evs = t.clientEvents[std::size_t(client)];
    std::size_t i = firstEventOf(t, evs, a.at);
    for (std::size_t n = 0; i < evs.size() && n < 200000; ++i, ++n) {
        const Event &e = t.events[evs[i]];
        // (a checked write ran where it was sent; a read where it was sent)
        if (e.kind == EventKind::PauseEnd || e.kind == EventKind::WriteArrived ||
            e.kind == EventKind::Checked || e.kind == EventKind::ReadArrived)
            continue;
        if (actionOfEvent(t, evs[i]) == std::uint32_t(action))
            return evs[i];
    }
    return kNone;
}

std::uint32_t eventOf(const Trace &t, int client, Tick tick, EventKind kind, std::uint32_t ref)
{
    if (client < 0 || std::size_t(client) >= t.clientEvents.size())
        return kNone;
    const std::vector<std::uint32_t> &evs = t.clientEvents[std::size_t(client)];
    for (std::size_t i = firstEventOf(t, evs, tick);
         i < evs.size() && t.events[evs[i]].tick == tick; ++i)
        if (t.events[evs[i]].kind == kind && t.events[evs[i]].ref == ref)
            return evs[i];
    return kNone;
}

const Check *checkOfWrite(const Trace &trace, std::uint32_t write)
{
    for (const Check &c : trace.checks)
        if (c.write == write)
            return &c;
    return nullptr;
}

std::size_t arrivalPosition(const Trace &trace, std::uint32_t write)
{
    const Write &w = trace.writes[write];
    const std::vector<std::uint32_t> &arrived = trace.storageWrites[w.storage];
    const auto it = std::lower_bound(arrived.begin(), arrived.end(), write,
                                     [&](std::uint32_t a, std::uint32_t b) {
                                         const Tick ta = trace.writes[a].arrivedAt;
                                         const Tick tb = trace.writes[b].arrivedAt;
                                         return ta != tb ? ta < tb : a < b;
                                     });
    return std::size_t(it - arrived.begin());
}

std::uint32_t forgettingRestartBefore(const Trace &trace, std::uint32_t storage, Tick t)
{
    std::uint32_t found = kNone;
    for (std::uint32_t i = 0; i < trace.restarts.size(); ++i) {
        const StorageRestart &r = trace.restarts[i];
        if (r.tick > t)
            break;
        if (r.storage == storage && r.forgot)
            found = i;
    }
    return found;
}

Trace runBefore(const Scenario &scenario, const Trace &full, Tick before)
{
    if (!full.complete() || before > full.lastTick)
        return full; // nothing after it to hide
    Trace cut;
    Simulator(Simulator::kNoCheckpoints).runBefore(scenario, full.fencing, cut, before);
    cut.horizon = full.horizon;
    cut.lastTick = full.lastTick;
    return cut;
}

Tick runEnd(const Trace &trace)
{
    return std::max(trace.horizon, trace.lastTick + 1);
}

const Lease *leaseOfEpoch(const Trace &trace, std::uint32_t epoch)
{
    if (epoch == 0 || epoch > trace.leases.size())
        return nullptr;
    return &trace.leases[epoch - 1];
}

const Belief *beliefBefore(const Trace &trace, std::uint32_t client, Tick t)
{
    if (client >= trace.beliefs.size())
        return nullptr;
    const std::vector<Belief> &beliefs = trace.beliefs[client];
    auto it = std::lower_bound(beliefs.begin(), beliefs.end(), t,
                               [](const Belief &b, Tick tick) { return b.from < tick; });
    if (it == beliefs.begin())
        return nullptr;
    return &*(it - 1);
}

const Belief *beliefAt(const Trace &trace, std::uint32_t client, Tick t)
{
    // beliefs do not overlap: the last one that began at or before t, if it still holds
    const Belief *b = t == kForever ? nullptr : beliefBefore(trace, client, t + 1);
    return b && t < b->to ? b : nullptr;
}

const Freeze *freezeAt(const Trace &trace, std::uint32_t client, Tick t)
{
    if (client >= trace.freezes.size())
        return nullptr;
    const std::vector<Freeze> &fr = trace.freezes[client];
    auto it = std::upper_bound(fr.begin(), fr.end(), t,
                               [](Tick tick, const Freeze &f) { return tick < f.from; });
    if (it == fr.begin())
        return nullptr;
    --it;
    return t < it->to ? &*it : nullptr;
}

LockState lockStateAt(const Trace &trace, Tick t)
{
    LockState st;
    st.holder = trace.leaseAt(t);
    // leases are in grant order: the last one granted by now has the last token
    const auto granted = std::upper_bound(trace.leases.begin(), trace.leases.end(), t,
                                          [](Tick tick, const Lease &l) { return tick < l.start; });
    if (granted != trace.leases.begin())
        st.last = &*(granted - 1);
    return st;
}

ClientState clientStateAt(const Trace &trace, std::uint32_t client, Tick t)
{
    ClientState st;
    if (client < trace.clientEvents.size()) {
        // its last grant or renewal by then: what the simulator's lane remembers (a refusal, a
        // release or a restore leaves it as it was)
        const std::vector<std::uint32_t> &evs = trace.clientEvents[client];
        auto it = std::upper_bound(evs.begin(), evs.end(), t, [&](Tick tick, std::uint32_t e) {
            return tick < trace.events[e].tick;
        });
        while (it != evs.begin()) {
            const Event &e = trace.events[*(--it)];
            if (e.kind == EventKind::Grant || e.kind == EventKind::Renewal) {
                st.epoch = trace.grants[e.ref].epoch;
                st.token = trace.grants[e.ref].token;
                break;
            }
        }
    }
    st.belief = beliefAt(trace, client, t);
    if (st.belief) {
        st.believed = leaseOfEpoch(trace, st.belief->epoch);
        st.holds = st.believed && trace.leaseAt(t) == st.believed;
        const std::size_t index = std::size_t(st.belief - trace.beliefs[client].data());
        st.zombieWindow = trace.zombieWindow(client, index);
        st.zombie = trace.zombieBeliefAt(client, t) == st.belief;
    }
    st.frozen = freezeAt(trace, client, t);
    return st;
}

StorageGauge comparedGauge(const Scenario &scenario, const Trace &trace, std::uint32_t storage)
{
    const bool version = storage < scenario.storages.size() &&
                         scenario.storages[storage].check == StorageCheck::Version &&
                         trace.writeVersions.size() == trace.writes.size();
    return version ? StorageGauge::Version : StorageGauge::MaxToken;
}

StorageState storageStateAt(const Scenario &scenario, const Trace &trace, std::uint32_t storage,
                            Tick t)
{
    StorageState st;
    const std::size_t n = arrivedBy(trace, storage, t);
    if (n == 0)
        return st;
    const std::uint32_t last = trace.storageWrites[storage][n - 1];
    st.maxToken = StorageLevel(scenario, trace, storage, StorageGauge::MaxToken).at(t);
    if (!trace.writeVersions.empty())
        st.version = trace.writeVersions[last].version;
    st.lastWrite = lastAppliedOf(trace, storage, n);
    if (st.lastWrite != kNone)
        st.value = writeValue(scenario, trace.writes[st.lastWrite]);
    return st;
}

StorageLevel::StorageLevel(const Scenario &scenario, const Trace &trace, std::uint32_t storage,
                           StorageGauge gauge)
    : m_trace(&trace), m_storage(storage), m_gauge(gauge)
{
    (void)scenario; // the gauge already says what the storage's check is
    // only a volatile max_token is forgotten; a version and the stored data survive a restart
    if (gauge != StorageGauge::MaxToken)
        return;
    for (const StorageRestart &r : trace.restarts)
        if (r.storage == storage && r.forgot > 0)
            m_drops.push_back(r.tick);
}

StorageLevel::StorageLevel(const Scenario &scenario, const Trace &trace, std::uint32_t storage)
    : StorageLevel(scenario, trace, storage, comparedGauge(scenario, trace, storage))
{
}

std::uint64_t StorageLevel::highest() const
{
    const Trace &t = *m_trace;
    std::uint64_t top = 0;
    switch (m_gauge) {
    case StorageGauge::MaxToken:
        // it only rises between restarts: the end, or what a restart forgot
        if (m_storage < t.finals.size())
            top = t.finals[m_storage].maxToken;
        for (const StorageRestart &r : t.restarts)
            if (r.storage == m_storage)
                top = std::max<std::uint64_t>(top, r.forgot);
        break;
    case StorageGauge::Version:
        if (m_storage < t.finals.size())
            top = t.finals[m_storage].version;
        break;
    case StorageGauge::StoredToken:
        for (const std::uint32_t w : t.storageWrites[m_storage])
            if (t.writes[w].applied)
                top = std::max<std::uint64_t>(top, t.tokenOf(t.writes[w]));
        break;
    }
    return top;
}

std::uint64_t StorageLevel::at(Tick t) const
{
    const Trace &tr = *m_trace;
    if (m_storage >= tr.storageWrites.size())
        return 0;
    const std::size_t n = arrivedBy(tr, m_storage, t);
    if (m_gauge == StorageGauge::StoredToken) {
        const std::uint32_t w = lastAppliedOf(tr, m_storage, n);
        return w == kNone ? 0 : tr.tokenOf(tr.writes[w]);
    }
    if (n == 0)
        return 0;
    const Write &last = tr.writes[tr.storageWrites[m_storage][n - 1]];
    // a restart in the tick of an arrival comes first: only one after the last arrival drops it
    const auto drop = std::upper_bound(m_drops.begin(), m_drops.end(), last.arrivedAt);
    if (drop != m_drops.end() && *drop <= t)
        return 0;
    return afterWrite(tr.storageWrites[m_storage][n - 1]);
}

std::vector<StorageLevel::Step> StorageLevel::steps(Tick bucket) const
{
    const Trace &tr = *m_trace;
    bucket = std::max<Tick>(bucket, 1);
    std::vector<Step> out{{0, 0}};
    std::uint64_t current = 0; // out.back().level
    // where the bucket of out.back() ends: no division per change (a million of them)
    const auto endOfBucket = [bucket](Tick at) {
        return bucket == 1 ? at + 1 : (at / bucket + 1) * bucket;
    };
    Tick bucketEnd = endOfBucket(0);
    const auto change = [&](Tick at, std::uint64_t level) {
        if (level == current)
            return;
        current = level;
        if (at < bucketEnd) {
            out.back().level = level; // the same bucket: straight to the latest level
            if (out.size() > 1 && out[out.size() - 2].level == level) {
                out.pop_back(); // folded back to where it was: no change at all
                bucketEnd = endOfBucket(out.back().at);
            }
            return;
        }
        out.push_back({at, level});
        bucketEnd = endOfBucket(at);
    };
    if (m_storage >= tr.storageWrites.size())
        return out;
    std::size_t drop = 0;
    const bool stored = m_gauge == StorageGauge::StoredToken;
    for (const std::uint32_t w : tr.storageWrites[m_storage]) {
        const Write &write = tr.writes[w];
        // a restart comes before the arrivals of its tick
        for (; drop < m_drops.size() && m_drops[drop] <= write.arrivedAt; ++drop)
            change(m_drops[drop], 0);
        if (!stored)
            change(write.arrivedAt, afterWrite(w));
        else if (write.applied)
            change(write.arrivedAt, tr.tokenOf(write));
    }
    for (; drop < m_drops.size(); ++drop)
        change(m_drops[drop], 0);
    return out;
}

} // namespace Core
