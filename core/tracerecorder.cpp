#include "tracerecorder.h"

#include "simulator.h"

#include <algorithm>
#include <cmath>

namespace Core {

TraceRecorder::TraceRecorder(const Scenario &scenario, bool fencing, TokenSource tokens)
    : m_s(scenario), m_lanes(scenario.clients.size())
{
    m_t.fencing = fencing;
    m_t.tokens = tokens;
    m_t.clientEvents.resize(scenario.clients.size());
    m_t.freezes.resize(scenario.clients.size());
    m_t.beliefs.resize(scenario.clients.size());
    const std::size_t storages = scenario.storages.size();
    m_t.storageWrites.resize(storages);
    m_t.storageIncidents.resize(storages);
    m_newestApplied.assign(storages, 0);
    m_lastApplied.assign(storages, kNone);
    m_versions.assign(storages, 0);
    m_maxTokens.assign(storages, 0);
    for (std::size_t c = 0; c < m_lanes.size(); ++c)
        m_lanes[c].pauseFrom.assign(scenario.clients[c].actions.size(), -1);
}

// Each fact at the tick it is nearest to ("rounded to its tick"). Facts come in the order they
// happened, so their ticks never go back.
Tick TraceRecorder::tickOf(double at) const
{
    return Tick(std::llround(std::max(at, 0.0)));
}

void TraceRecorder::record(double at, std::uint32_t client, EventKind kind, std::uint32_t ref)
{
    m_last = std::max(m_last, at);
    m_t.clientEvents[client].push_back(std::uint32_t(m_t.events.size()));
    m_t.events.push_back({tickOf(m_last), ref, static_cast<std::uint16_t>(client), kind});
    m_t.eventTimes.push_back(m_last);
}

void TraceRecorder::startBelief(std::uint32_t client, double at, std::uint32_t epoch)
{
    Lane &lane = m_lanes[client];
    m_t.beliefs[client].push_back({tickOf(at), kForever, epoch, BeliefEnd::Never});
    lane.beliefs = std::uint32_t(m_t.beliefs[client].size());
    lane.believes = true;
}

void TraceRecorder::endBelief(std::uint32_t client, double at, BeliefEnd why)
{
    Lane &lane = m_lanes[client];
    if (!lane.believes)
        return;
    Belief &b = m_t.beliefs[client][lane.beliefs - 1];
    b.to = tickOf(at);
    b.end = why;
    lane.believes = false;
}

std::uint32_t TraceRecorder::grant(double at, std::uint32_t client, std::uint32_t action,
                                   Token token, Tick ttl)
{
    const Tick now = tickOf(std::max(at, m_last));
    const std::uint32_t epoch = ++m_epochs;
    m_t.leases.push_back({now, now + ttl, token, epoch, client, false});
    m_t.leaseTimes.push_back({std::max(at, m_last), std::max(at, m_last) + double(ttl)});
    m_leaseEnded.push_back(false);
    m_live = true;
    const auto index = std::uint32_t(m_t.grants.size());
    m_t.grants.push_back({now, now + ttl, token, epoch, client, action, false, false});
    record(at, client, EventKind::Grant, index);
    Lane &lane = m_lanes[client];
    if (lane.waiting) {
        Wait &w = m_t.waits[lane.wait];
        w.to = now;
        w.granted = true;
        w.outcome = index;
        lane.waiting = false;
    }
    endBelief(client, at, BeliefEnd::Regranted);
    lane.epoch = epoch;
    startBelief(client, at, epoch);
    return epoch;
}

void TraceRecorder::renewal(double at, std::uint32_t client, std::uint32_t action, Tick ttl,
                            bool keepalive)
{
    Lane &lane = m_lanes[client];
    const std::uint32_t epoch = lane.epoch;
    if (epoch == 0)
        return; // nothing to renew: the caller reports a grant instead
    const Tick now = tickOf(std::max(at, m_last));
    Lease &l = m_t.leases[epoch - 1];
    l.end = now + ttl;
    m_t.leaseTimes[epoch - 1].to = std::max(at, m_last) + double(ttl);
    m_t.grants.push_back({now, now + ttl, l.token, epoch, client, action, true, keepalive});
    record(at, client, EventKind::Renewal, std::uint32_t(m_t.grants.size() - 1));
    if (!lane.believes)
        startBelief(client, at, epoch);
}

void TraceRecorder::refusal(double at, std::uint32_t client, std::uint32_t action,
                            std::uint32_t holder, bool gaveUp)
{
    // the holder's epoch when it is the live holder, 0 when a waiter was in the way
    const std::uint32_t holderEpoch =
        m_live && m_t.leases[m_epochs - 1].client == holder ? m_epochs : 0;
    const auto index = std::uint32_t(m_t.refusals.size());
    m_t.refusals.push_back(
        {tickOf(std::max(at, m_last)), client, action, holder, holderEpoch, gaveUp});
    record(at, client, EventKind::Refusal, index);
    Lane &lane = m_lanes[client];
    if (gaveUp && lane.waiting) {
        Wait &w = m_t.waits[lane.wait];
        w.to = m_t.refusals.back().at;
        w.outcome = index;
        lane.waiting = false;
    }
    // a refusal leaves the belief as it is (section 14, "Belief")
}

void TraceRecorder::waitBegan(double at, std::uint32_t client, std::uint32_t action, Token key)
{
    m_last = std::max(m_last, at);
    Lane &lane = m_lanes[client];
    lane.wait = std::uint32_t(m_t.waits.size());
    lane.waiting = true;
    m_t.waits.push_back({tickOf(m_last), kForever, key, client, action, 0, false});
}

void TraceRecorder::release(double at, std::uint32_t client, std::uint32_t action, bool effective)
{
    Lane &lane = m_lanes[client];
    const std::uint32_t epoch = effective ? lane.epoch : 0;
    const Tick now = tickOf(std::max(at, m_last));
    if (epoch != 0) {
        m_t.leases[epoch - 1].end = now;
        m_t.leases[epoch - 1].released = true;
        m_t.leaseTimes[epoch - 1].to = std::max(at, m_last);
        m_leaseEnded[epoch - 1] = true;
        if (epoch == m_epochs)
            m_live = false;
    }
    m_t.releases.push_back({now, client, action, epoch, epoch != 0});
    record(at, client, EventKind::Release, std::uint32_t(m_t.releases.size() - 1));
    endBelief(client, at, BeliefEnd::Released);
}

void TraceRecorder::leaseEnded(double at, std::uint32_t epoch)
{
    if (epoch == 0 || epoch > m_epochs || m_leaseEnded[epoch - 1])
        return;
    m_last = std::max(m_last, at);
    m_t.leases[epoch - 1].end = tickOf(m_last);
    m_t.leaseTimes[epoch - 1].to = m_last;
    m_leaseEnded[epoch - 1] = true;
    if (epoch == m_epochs)
        m_live = false;
}

void TraceRecorder::pauseBegan(double at, std::uint32_t client, std::uint32_t action)
{
    record(at, client, EventKind::PauseStart, action);
    m_lanes[client].pauseFrom[action] = m_last;
}

void TraceRecorder::pauseEnded(double at, std::uint32_t client, std::uint32_t action)
{
    record(at, client, EventKind::PauseEnd, action);
    Lane &lane = m_lanes[client];
    if (lane.pauseFrom[action] >= 0)
        lane.pauses.push_back({lane.pauseFrom[action], m_last});
    lane.pauseFrom[action] = -1;
}

std::uint32_t TraceRecorder::writeSent(double at, std::uint32_t client, std::uint32_t action,
                                       std::uint32_t epoch, std::uint64_t expected)
{
    const Action &a = m_s.clients[client].actions[action];
    const Tick now = tickOf(std::max(at, m_last));
    Write w;
    w.sentAt = now;
    w.arrivedAt = now + a.delay(); // until it arrives: when it is due to
    w.epoch = epoch;
    w.client = client;
    w.action = action;
    w.storage = a.storage;
    // with no token source the write still belongs to its grant's epoch (section 14)
    w.tagged = epoch != 0 && m_t.tokens != TokenSource::None;
    const auto index = std::uint32_t(m_t.writes.size());
    m_t.writes.push_back(w);
    if (m_s.hasVersionStorage())
        m_t.writeVersions.push_back({expected, 0});
    record(at, client, EventKind::WriteSent, index);
    return index;
}

void TraceRecorder::writeArrived(double at, std::uint32_t index, bool applied, Token maxToken,
                                 std::uint64_t version)
{
    m_last = std::max(m_last, at);
    Write &w = m_t.writes[index];
    w.arrivedAt = tickOf(m_last);
    w.applied = applied;
    w.maxToken = maxToken;
    w.expired = w.epoch != 0 && m_leaseEnded[w.epoch - 1];
    const bool byVersion = m_s.storages[w.storage].check == StorageCheck::Version;
    // a version storage is judged by what the writer had read (section 12), others by epochs
    const std::uint64_t current = applied && version > 0 ? version - 1 : version;
    const bool overNewer = byVersion ? m_t.writeVersions[index].expected < current
                                     : w.epoch < m_newestApplied[w.storage];
    const bool liveNewest =
        w.epoch != 0 && w.epoch == m_epochs && m_live && m_t.leases[w.epoch - 1].client == w.client;
    w.result = judgeWrite(applied, overNewer, liveNewest);
    m_versions[w.storage] = version;
    m_maxTokens[w.storage] = maxToken;
    if (!m_t.writeVersions.empty())
        m_t.writeVersions[index].version = version;
    if (applied) {
        m_newestApplied[w.storage] = std::max(m_newestApplied[w.storage], w.epoch);
        w.overwrote = m_lastApplied[w.storage];
        m_lastApplied[w.storage] = index;
    } else if (m_lanes[w.client].believes && m_lanes[w.client].epoch == w.epoch) {
        endBelief(w.client, m_last, BeliefEnd::Rejected); // the reply tells it the lock is gone
    }
    Summary &sum = m_t.summary;
    switch (w.result) {
    case WriteResult::Accepted:
        ++sum.accepted;
        break;
    case WriteResult::Rejected:
        ++sum.rejected;
        break;
    case WriteResult::Corrupted:
        ++sum.corrupted;
        break;
    case WriteResult::LockedOut:
        ++sum.lockedOut;
        break;
    }
    m_t.storageWrites[w.storage].push_back(index);
    if (w.result != WriteResult::Accepted)
        m_t.storageIncidents[w.storage].push_back(index);
    record(m_last, w.client, EventKind::WriteArrived, index);
}

std::uint32_t TraceRecorder::readSent(double at, std::uint32_t client, std::uint32_t action)
{
    const Action &a = m_s.clients[client].actions[action];
    const Tick now = tickOf(std::max(at, m_last));
    const auto index = std::uint32_t(m_t.reads.size());
    m_t.reads.push_back({now, now + a.delay(), 0, client, action, a.storage, false});
    record(at, client, EventKind::ReadSent, index);
    return index;
}

void TraceRecorder::readArrived(double at, std::uint32_t index, std::uint64_t version)
{
    m_last = std::max(m_last, at);
    Read &r = m_t.reads[index];
    r.arrivedAt = tickOf(m_last);
    r.version = version;
    r.arrived = true;
    record(m_last, r.client, EventKind::ReadArrived, index);
}

std::uint32_t TraceRecorder::checked(double at, std::uint32_t client, std::uint32_t action,
                                     bool passed, Tick sendAt)
{
    Lane &lane = m_lanes[client];
    const Tick now = tickOf(std::max(at, m_last));
    const auto check = std::uint32_t(m_t.checks.size());
    m_t.checks.push_back({now, std::max(now, sendAt), client, action, lane.epoch, kNone, passed});
    if (passed) {
        record(at, client, EventKind::Checked, check);
        return check;
    }
    m_t.skips.push_back({now, client, action, lane.epoch, lane.believes});
    ++m_t.summary.skipped;
    record(at, client, EventKind::Skipped, std::uint32_t(m_t.skips.size() - 1));
    if (lane.believes) {
        m_t.lost.push_back({now, client, lane.epoch, LostReason::Check});
        record(at, client, EventKind::Lost, std::uint32_t(m_t.lost.size() - 1));
        endBelief(client, at, BeliefEnd::Skipped);
    }
    return check;
}

std::uint32_t TraceRecorder::checkedWriteSent(double at, std::uint32_t check,
                                              std::uint64_t expected)
{
    const std::uint32_t write = writeSent(at, m_t.checks[check].client, m_t.checks[check].action,
                                          m_t.checks[check].epoch, expected);
    Check &c = m_t.checks[check];
    c.write = write;
    c.sendAt = m_t.writes[write].sentAt;
    return write;
}

void TraceRecorder::keepaliveLost(double at, std::uint32_t client)
{
    Lane &lane = m_lanes[client];
    m_t.lost.push_back({tickOf(std::max(at, m_last)), client, lane.epoch, LostReason::Keepalive});
    record(at, client, EventKind::Lost, std::uint32_t(m_t.lost.size() - 1));
    endBelief(client, at, BeliefEnd::Told);
}

Trace TraceRecorder::finish(double last)
{
    m_last = std::max(m_last, last);
    Trace t = m_t;
    // each client's frozen stretches: the union of its pauses (one still under way ends here)
    for (std::size_t c = 0; c < m_lanes.size(); ++c) {
        std::vector<std::pair<double, double>> spans = m_lanes[c].pauses;
        for (double from : m_lanes[c].pauseFrom)
            if (from >= 0)
                spans.push_back({from, m_last});
        std::sort(spans.begin(), spans.end());
        std::vector<Freeze> &out = t.freezes[c];
        for (const auto &[from, to] : spans) {
            const Tick a = tickOf(from);
            const Tick b = std::max(tickOf(to), a);
            if (!out.empty() && a <= out.back().to)
                out.back().to = std::max(out.back().to, b);
            else
                out.push_back({a, b});
        }
    }
    Tick lastTick = t.events.empty() ? 0 : t.events.back().tick;
    for (const Lease &l : t.leases)
        lastTick = std::max(lastTick, l.end);
    for (const std::vector<Freeze> &f : t.freezes)
        if (!f.empty())
            lastTick = std::max(lastTick, f.back().to);
    t.lastTick = lastTick;
    t.horizon = m_s.horizon ? *m_s.horizon : lastTick + 1 + lastTick / 20; // as simulated
    t.finals.resize(m_s.storages.size());
    for (std::size_t i = 0; i < t.finals.size(); ++i) {
        StorageState &f = t.finals[i];
        const std::uint32_t w = m_lastApplied[i];
        f.value = w == kNone ? QString() : writeValue(m_s, t.writes[w]);
        f.maxToken = m_maxTokens[i];
        f.version = m_versions[i];
        f.lastWrite = w;
    }
    collectGroups(m_s, t);
    t.pendingFrom = kForever;
    return t;
}

} // namespace Core
