#pragma once

// Questions about the lock service a view asks of a Trace (docs/SCENARIO.md sections 10 and 14):
// when a lock-delay withholds the lock, and whether a restore hands out a token that was
// handed out before. Answered here once; the lock lane and any other view ask them.

#include "scenario.h"
#include "trace.h"

#include <optional>

namespace Core {

// First grant or renewal at or after tick t (grants are in time order).
std::size_t firstGrantAt(const Trace &t, Tick tick);

// The grant or renewal that set an epoch's current expiry: the last one of that epoch; nullptr
// for no such epoch. Grants are in time order and their epochs never decrease.
const Grant *lastGrantOfEpoch(const Trace &t, std::uint32_t epoch);
// The grant that began an epoch: its first; nullptr for no such epoch.
const Grant *firstGrantOfEpoch(const Trace &t, std::uint32_t epoch);
// The last grant or renewal an acquire (action `action` of `client`) brought about: its own,
// or the last renewal its keepalive schedule sent (Grant::action names the acquire that set
// the schedule). Its expiry is the lease end a change of that acquire's ttl moves. nullptr
// when the acquire was never granted (refused, gave up, not run).
const Grant *lastGrantOfAcquire(const Trace &t, std::uint32_t client, std::uint32_t action);

// A renewal by the client's keepalive schedule (Grant::keepalive), not by an acquire of its own.
inline bool isKeepalive(const Trace &t, const Event &e)
{
    return e.kind == EventKind::Renewal && t.grants[e.ref].keepalive;
}

// The end of an epoch's lease as the lock service had it at the end of tick t: set by its last
// grant or renewal up to t, or by a later re-arm (section 15.3: a new leader starts the timeout
// afresh). A renewal at the tick of a re-arm wins: clients act after the lock events of their
// tick. 0 for no such epoch; Trace::leases[epoch - 1].end is the end it finally had.
Tick leaseEndAt(const Trace &t, std::uint32_t epoch, Tick tick);

// The lock-delay that follows lease `lease` (index into Trace::leases): [its end, end +
// lockDelay), cut short by the next grant (a grant ends any lock-delay) and by a restore (which
// brings back the snapshot's own lock-delay). None after a release, after a lease that a
// restore ended (granted after the snapshot), or without lockDelay.
std::optional<TickRange> lockDelayAfter(const Scenario &s, const Trace &t, std::size_t lease);

// What a restore did to the tokens: the highest token handed out before it and the next token
// handed out after it. Dangerous when that next token is not above one already handed out:
// a storage that saw the old one accepts the new holder's stale twin (equal tokens pass).
struct RestoreReissue
{
    Token handedOut = 0; // highest token granted before the restore (0: none)
    Token next = 0;      // the first new grant's token after it
    bool hasNext = false;
    bool dangerous = false;
};

// For the restore `e` (a LockEvent of kind Restore). Only sources with a counter are rewound
// (random, wallclock and none keep theirs): the others are never dangerous here.
RestoreReissue restoreReissue(const Trace &t, const LockEvent &e);

} // namespace Core
