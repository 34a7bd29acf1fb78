#include "trace.h"

#include <algorithm>

namespace Core {

const Lease *Trace::leaseAt(Tick t) const
{
    // leases are in grant order, so their starts are sorted
    auto it = std::upper_bound(leases.begin(), leases.end(), t,
                               [](Tick tick, const Lease &l) { return tick < l.start; });
    if (it == leases.begin())
        return nullptr;
    const Lease &l = *(it - 1);
    return t < l.end ? &l : nullptr;
}

std::uint32_t Trace::firstEventAt(Tick t) const
{
    auto it = std::lower_bound(events.begin(), events.end(), t,
                               [](const Event &e, Tick tick) { return e.tick < tick; });
    return std::uint32_t(it - events.begin());
}

std::uint32_t Trace::lastEventAtOrBefore(Tick t) const
{
    auto it = std::upper_bound(events.begin(), events.end(), t,
                               [](Tick tick, const Event &e) { return tick < e.tick; });
    return it == events.begin() ? kNone : std::uint32_t(it - events.begin() - 1);
}

TickRange Trace::zombieWindow(std::uint32_t client, std::size_t belief) const
{
    if (client >= beliefs.size() || belief >= beliefs[client].size())
        return {};
    const Belief &b = beliefs[client][belief];
    if (b.epoch < 1 || b.epoch > leases.size())
        return {};
    const Tick leaseEnd = std::max(leases[b.epoch - 1].end, b.from);
    if (b.to <= leaseEnd || client >= clientEvents.size())
        return {};
    // Back from the belief's end to the lease's: the last write sent on this belief (its
    // epoch). A write at the very tick the belief ended counts only when its reply ended it
    // (a rejection); at a release, a refusal or a new grant the client knows, or moves on.
    const bool throughEnd = b.end == BeliefEnd::Rejected;
    const std::vector<std::uint32_t> &evs = clientEvents[client];
    auto it = std::upper_bound(evs.begin(), evs.end(), b.to, [&](Tick tick, std::uint32_t e) {
        return throughEnd ? tick < events[e].tick : tick <= events[e].tick;
    });
    while (it != evs.begin()) {
        const Event &e = events[*(--it)];
        if (e.tick < leaseEnd)
            break;
        if (e.kind == EventKind::WriteSent && writes[e.ref].epoch == b.epoch)
            return {leaseEnd, e.tick + 1};
    }
    return {};
}

std::vector<TickRange> Trace::zombieWindows(std::uint32_t client) const
{
    std::vector<TickRange> out;
    if (client >= beliefs.size())
        return out;
    for (std::size_t i = 0; i < beliefs[client].size(); ++i) {
        const TickRange r = zombieWindow(client, i);
        if (!r.empty())
            out.push_back(r);
    }
    return out;
}

const Belief *Trace::zombieBeliefAt(std::uint32_t client, Tick t) const
{
    if (client >= beliefs.size())
        return nullptr;
    const std::vector<Belief> &bs = beliefs[client];
    // beliefs do not overlap: the last one that began at or before t
    auto it = std::upper_bound(bs.begin(), bs.end(), t,
                               [](Tick tick, const Belief &b) { return tick < b.from; });
    if (it == bs.begin())
        return nullptr;
    const std::size_t i = std::size_t(it - bs.begin()) - 1;
    const TickRange r = zombieWindow(client, i);
    return t >= r.from && t < r.to ? &bs[i] : nullptr;
}

QString toString(WriteResult result)
{
    switch (result) {
    case WriteResult::Accepted:
        return QStringLiteral("accepted");
    case WriteResult::Rejected:
        return QStringLiteral("rejected");
    case WriteResult::Corrupted:
        return QStringLiteral("corrupted");
    case WriteResult::LockedOut:
        return QStringLiteral("lockedOut");
    }
    return {};
}

QString toString(EventKind kind)
{
    switch (kind) {
    case EventKind::Grant:
        return QStringLiteral("grant");
    case EventKind::Renewal:
        return QStringLiteral("renewal");
    case EventKind::Refusal:
        return QStringLiteral("refusal");
    case EventKind::Release:
        return QStringLiteral("release");
    case EventKind::PauseStart:
        return QStringLiteral("pauseStart");
    case EventKind::PauseEnd:
        return QStringLiteral("pauseEnd");
    case EventKind::WriteSent:
        return QStringLiteral("writeSent");
    case EventKind::WriteArrived:
        return QStringLiteral("writeArrived");
    case EventKind::ReadSent:
        return QStringLiteral("readSent");
    case EventKind::ReadArrived:
        return QStringLiteral("readArrived");
    case EventKind::Checked:
        return QStringLiteral("checked");
    case EventKind::Skipped:
        return QStringLiteral("skipped");
    case EventKind::Lost:
        return QStringLiteral("lost");
    }
    return {};
}

QString toString(LostReason reason)
{
    return reason == LostReason::Keepalive ? QStringLiteral("keepalive") : QStringLiteral("check");
}

QString toString(LockEventKind kind)
{
    switch (kind) {
    case LockEventKind::Restore:
        return QStringLiteral("restore");
    case LockEventKind::Failover:
        return QStringLiteral("failover");
    case LockEventKind::FailedElection:
        return QStringLiteral("failedElection");
    case LockEventKind::ClockStep:
        return QStringLiteral("clockStep");
    case LockEventKind::Election:
        return QStringLiteral("election");
    }
    return {};
}

} // namespace Core
