#pragma once

// The story of a failure: what a write of an outcome must show to be the failure that outcome
// is about, as the search for a failing schedule and its shrinking keep it (shrink.h). A
// corrupted write by a client that never held the lock is a corruption by the checker, but
// not the failure fencing is about; a shrink that may drop every pause ends there. Decided here
// once, for every outcome of outcomes() (sweep.h); docs/SEMANTICS.md, "A found failure keeps its
// story", has the rule and an example.

#include "scenario.h"
#include "trace.h"

#include <QString>

#include <cstdint>

namespace Core {

enum class FailureStory : std::uint8_t
{
    // corrupted, rejected: a write made under a lock that was lost (isStaleWrite)
    StaleWrite,
    // lockedOut: the live holder's own write: its grant's write, arriving while its lease is
    // live (which section 6's "locked out" already asks)
    HoldersWrite,
    // partial, skipped: every one the checker counts
    Counted,
};

// The story of outcomes()[outcome].
FailureStory storyOf(std::size_t outcome);
// What the story asks, in a phrase: "a stale write: due while its writer held the lock, it
// arrived after that lease had ended"; for partial and skipped the outcome's label.
QString storyText(std::size_t outcome);

// A stale write: its writer was granted the lock (epoch != 0), the write was due (its action's
// tick) while that grant's lease was live, and it arrived after the lease had ended
// (Write::expired): a pause or the network held it past the lease. The lease is the trace's
// record of the epoch: renewals, re-arms and restores included, as the checker's `expired`.
bool isStaleWrite(const Scenario &scenario, const Trace &trace, const Write &write);

// How many writes (for partial: groups) of that outcome the run had that tell its story.
std::uint64_t storyCount(const Scenario &scenario, const Trace &trace, std::size_t outcome);
// The first write (index into trace.writes, in the order they were sent) of that outcome that
// tells its story; kNone when there is none, and for partial and skipped, which are not one
// write that arrived.
std::uint32_t firstStoryWrite(const Scenario &scenario, const Trace &trace, std::size_t outcome);

} // namespace Core
