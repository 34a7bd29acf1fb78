#include "lockfacts.h"

#include "tokensource.h"

#include <algorithm>

namespace Core {

std::size_t firstGrantAt(const Trace &t, Tick tick)
{
    return std::size_t(std::lower_bound(t.grants.begin(), t.grants.end(), tick,
                                        [](const Grant &g, Tick v) { return g.at < v; }) -
                       t.grants.begin());
}

const Grant *lastGrantOfEpoch(const Trace &t, std::uint32_t epoch)
{
    auto it = std::upper_bound(t.grants.begin(), t.grants.end(), epoch,
                               [](std::uint32_t e, const Grant &g) { return e < g.epoch; });
    if (it == t.grants.begin() || (it - 1)->epoch != epoch)
        return nullptr;
    return &*(it - 1);
}

const Grant *firstGrantOfEpoch(const Trace &t, std::uint32_t epoch)
{
    auto it = std::lower_bound(t.grants.begin(), t.grants.end(), epoch,
                               [](const Grant &g, std::uint32_t e) { return g.epoch < e; });
    if (it == t.grants.end() || it->epoch != epoch)
        return nullptr;
    return &*it;
}

const Grant *lastGrantOfAcquire(const Trace &t, std::uint32_t client, std::uint32_t action)
{
    if (client >= t.clientEvents.size())
        return nullptr;
    // the client's own events, from the last: its keepalive renewals come after its grant
    const std::vector<std::uint32_t> &evs = t.clientEvents[client];
    for (auto it = evs.rbegin(); it != evs.rend(); ++it) {
        const Event &e = t.events[*it];
        if ((e.kind == EventKind::Grant || e.kind == EventKind::Renewal) &&
            t.grants[e.ref].action == action)
            return &t.grants[e.ref];
    }
    return nullptr;
}

Tick leaseEndAt(const Trace &t, std::uint32_t epoch, Tick tick)
{
    if (epoch < 1 || epoch > t.leases.size())
        return 0;
    // grants are in time order, and an epoch's renewals come before the next epoch's grant
    const Grant *set = nullptr;
    auto it = std::upper_bound(t.grants.begin(), t.grants.end(), tick,
                               [](Tick v, const Grant &g) { return v < g.at; });
    while (it != t.grants.begin()) {
        --it;
        if (it->epoch == epoch) {
            set = &*it;
            break;
        }
        if (it->epoch < epoch)
            break;
    }
    if (!set)
        return t.leases[epoch - 1].end;
    Tick end = set->expires;
    for (const Rearm &r : t.rearms) // in time order; one per failover or restore and live lease
        if (r.epoch == epoch && r.at > set->at && r.at <= tick)
            end = r.expires;
    return end;
}

// The lock-delay (docs/SCENARIO.md sections 10 and 14) that follows lease `lease` (index into
// Trace::leases): [its end, end + lockDelay), cut short by the next grant (a grant ends any
// lock-delay) and by a restore (which brings back the snapshot's own lock-delay). None after a
// release, after a lease that a restore ended (granted after the snapshot), or without
// lockDelay. Leases granted by a restore's snapshot are taken as they are.
std::optional<TickRange> lockDelayAfter(const Scenario &s, const Trace &t, std::size_t lease)
{
    const Tick d = s.lock.lockDelay;
    if (d == 0 || lease >= t.leases.size())
        return std::nullopt;
    const Lease &l = t.leases[lease];
    if (l.released || l.end == kForever)
        return std::nullopt;
    Tick to = l.end > kForever - d ? kForever : l.end + d;
    for (const LockRestore &r : s.lock.restores) {
        if (r.at == l.end && l.start > r.from)
            return std::nullopt; // forgotten by the restore: it did not expire
        if (r.at > l.end && r.at < to)
            to = r.at;
    }
    for (std::size_t g = firstGrantAt(t, l.end); g < t.grants.size() && t.grants[g].at < to; ++g)
        if (!t.grants[g].renewal) {
            to = t.grants[g].at;
            break;
        }
    if (to <= l.end)
        return std::nullopt;
    return TickRange{l.end, to};
}

// For the restore `e` (a LockEvent of kind Restore). Only sources with a counter are rewound
// (random, wallclock and none keep theirs): the others are never dangerous here. Walks the
// grants before the restore once: restores are few and drawn only when visible.
RestoreReissue restoreReissue(const Trace &t, const LockEvent &e)
{
    RestoreReissue r;
    const std::size_t at = firstGrantAt(t, e.tick);
    for (std::size_t g = 0; g < at; ++g)
        r.handedOut = std::max(r.handedOut, t.grants[g].token);
    for (std::size_t g = at; g < t.grants.size(); ++g)
        if (!t.grants[g].renewal) {
            r.next = t.grants[g].token;
            r.hasNext = true;
            break;
        }
    r.dangerous = hasCounter(t.tokens) && r.hasNext && at > 0 && r.next <= r.handedOut;
    return r;
}

} // namespace Core
