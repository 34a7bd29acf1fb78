#pragma once

// Questions about the lock service that the lock lane asks of a Trace: when a lock-delay
// withholds the lock, and whether a restore hands out a token that was handed out before.
// They are domain facts and belong with the trace queries in core (Core::lockDelayAfter,
// Core::restoreReissue); they live here, header-only and kept apart from the drawing, until
// core answers them, and then this file goes.

#include "scenario.h"
#include "tokensource.h"
#include "trace.h"

#include <algorithm>
#include <optional>

namespace LockServiceFacts {

// First grant or renewal at or after tick t (grants are in time order).
inline std::size_t firstGrantAt(const Core::Trace &t, Core::Tick tick)
{
    return std::size_t(
        std::lower_bound(t.grants.begin(), t.grants.end(), tick,
                         [](const Core::Grant &g, Core::Tick v) { return g.at < v; }) -
        t.grants.begin());
}

// The lock-delay (SCENARIO.md sections 10 and 14) that follows lease `lease` (index into
// Trace::leases): [its end, end + lockDelay), cut short by the next grant (a grant ends any
// lock-delay) and by a restore (which brings back the snapshot's own lock-delay). None after a
// release, after a lease that a restore ended (granted after the snapshot), or without
// lockDelay. Leases granted by a restore's snapshot are taken as they are.
inline std::optional<Core::TickRange> lockDelayAfter(const Core::Scenario &s, const Core::Trace &t,
                                                     std::size_t lease)
{
    const Core::Tick d = s.lock.lockDelay;
    if (d == 0 || lease >= t.leases.size())
        return std::nullopt;
    const Core::Lease &l = t.leases[lease];
    if (l.released || l.end == Core::kForever)
        return std::nullopt;
    Core::Tick to = l.end > Core::kForever - d ? Core::kForever : l.end + d;
    for (const Core::LockRestore &r : s.lock.restores) {
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
    return Core::TickRange{l.end, to};
}

// What a restore did to the tokens: the highest token handed out before it and the next token
// handed out after it. Dangerous when that next token is not above one already handed out:
// a storage that saw the old one accepts the new holder's stale twin (equal tokens pass).
struct RestoreReissue
{
    Core::Token handedOut = 0; // highest token granted before the restore (0: none)
    Core::Token next = 0;      // the first new grant's token after it
    bool hasNext = false;
    bool dangerous = false;
};

// For the restore `e` (a LockEvent of kind Restore). Only sources with a counter are rewound
// (random, wallclock and none keep theirs): the others are never dangerous here. Walks the
// grants before the restore once: restores are few and drawn only when visible.
inline RestoreReissue restoreReissue(const Core::Trace &t, const Core::LockEvent &e)
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
    r.dangerous = Core::hasCounter(t.tokens) && r.hasNext && at > 0 && r.next <= r.handedOut;
    return r;
}

} // namespace LockServiceFacts
