#pragma once

// Finding the visible slice of a lane's sorted lists: binary search, galloping from the last
// answer when jumping to the next pixel column, and the per-column answers shared by lanes.
// Also the small drawing facts about events that the passes and the hit test share; what a
// trace says (an epoch's grants, a keepalive, an action's event, the ranking of outcomes) is
// core's, named here too.

#include "explain.h"
#include "lockfacts.h"
#include "outcomes.h"
#include "runstate.h"
#include "scenario.h"
#include "trace.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace Render {

using Core::Tick;

// --- searching the sorted per-lane lists -------------------------------------------------

// First of a client's events at or after tick t.
inline std::size_t firstClientEvent(const Core::Trace &t, const std::vector<std::uint32_t> &evs,
                                    Tick tick)
{
    return std::size_t(
        std::lower_bound(evs.begin(), evs.end(), tick,
                         [&](std::uint32_t e, Tick v) { return t.events[e].tick < v; }) -
        evs.begin());
}

// First write arriving at a storage at or after tick t.
inline std::size_t firstArrival(const Core::Trace &t, const std::vector<std::uint32_t> &ws,
                                Tick tick)
{
    return std::size_t(
        std::lower_bound(ws.begin(), ws.end(), tick,
                         [&](std::uint32_t w, Tick v) { return t.writes[w].arrivedAt < v; }) -
        ws.begin());
}

// First lease still live at tick t. Leases never overlap (one lock), so their ends are sorted.
inline std::size_t firstLeaseEndingAfter(const Core::Trace &t, Tick tick)
{
    return std::size_t(std::upper_bound(t.leases.begin(), t.leases.end(), tick,
                                        [](Tick v, const Core::Lease &l) { return v < l.end; }) -
                       t.leases.begin());
}

inline std::size_t firstFreezeEndingAfter(const std::vector<Core::Freeze> &fs, Tick tick)
{
    return std::size_t(std::upper_bound(fs.begin(), fs.end(), tick,
                                        [](Tick v, const Core::Freeze &f) { return v < f.to; }) -
                       fs.begin());
}

inline std::size_t firstBeliefEndingAfter(const std::vector<Core::Belief> &bs, Tick tick)
{
    return std::size_t(std::upper_bound(bs.begin(), bs.end(), tick,
                                        [](Tick v, const Core::Belief &b) { return v < b.to; }) -
                       bs.begin());
}

// First index in [lo, hi) whose key is >= v (hi when none), by bisection.
template <class Key> inline std::size_t bisect(std::size_t lo, std::size_t hi, Tick v, Key key)
{
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (key(mid) < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// First index in [from, to) whose key is >= v, searching outwards from `from`: a few probes
// when the answer is near, as it is when jumping to the next pixel column.
template <class Key> inline std::size_t gallop(std::size_t from, std::size_t to, Tick v, Key key)
{
    std::size_t lo = from;
    std::size_t hi = from;
    std::size_t step = 1;
    while (hi < to && key(hi) < v) {
        lo = hi + 1;
        hi = std::min(to, hi + step);
        step *= 2;
    }
    return bisect(lo, hi, v, key);
}

// The same answer as gallop(), searched from a guess of how far it lies: zoomed out, pixel
// columns hold about as many items each, so the last jump is a good guess for the next one and
// a few probes near it replace the ~2 log2(n) of galloping from `from` (each probe into a
// million-event trace is a cache miss).
template <class Key>
inline std::size_t gallopNear(std::size_t from, std::size_t to, Tick v, std::size_t guess, Key key)
{
    const std::size_t mid = from + std::min(guess, to - from);
    if (mid < to && key(mid) < v)
        return gallop(mid + 1, to, v, key);
    // the answer lies in [from, mid]: gallop downwards from mid, then bisect
    std::size_t lo = from;
    std::size_t hi = mid;
    std::size_t step = 1;
    while (hi > from) {
        const std::size_t probe = hi - std::min(step, hi - from);
        if (key(probe) < v) {
            lo = probe + 1;
            break;
        }
        hi = probe;
        step *= 2;
    }
    return bisect(lo, hi, v, key);
}

// Answers of a search per pixel column, for lanes that jump over the same columns twice (a
// storage's max_token line and its outcome glyphs) or for all lanes alike (the first event of
// the trace after each column). An answer found from `from` serves any later `from` beyond it.
class ColumnJumps
{
public:
    ColumnJumps(int firstColumn, int lastColumn)
        : m_base(firstColumn),
          m_at(std::size_t(std::max(0, lastColumn - firstColumn + 1)), kUnknown),
          m_from(m_at.size())
    {
    }
    template <class Search> std::size_t at(int col, std::size_t from, Search search)
    {
        const std::size_t slot = std::size_t(std::int64_t(col) - m_base);
        if (slot < m_at.size() && m_at[slot] != kUnknown && m_from[slot] <= from)
            return std::max(from, m_at[slot]);
        const std::size_t answer = search(from);
        if (slot < m_at.size()) {
            m_at[slot] = answer;
            m_from[slot] = from;
        }
        return answer;
    }

private:
    static constexpr std::size_t kUnknown = std::numeric_limits<std::size_t>::max();
    std::int64_t m_base;
    std::vector<std::size_t> m_at;
    std::vector<std::size_t> m_from;
};

// The tick an action's marker is due at: a checked write sends `gap` ticks after its check
// (the bracket shows that wait); any later is a deferral, drawn as one.
inline Tick dueTick(const Core::Action &a)
{
    if (a.kind == Core::ActionKind::Write && a.check)
        return a.at + a.gap();
    return a.at;
}

// A marker on a client lane (a keepalive renewal is a tick on the lease bar instead).
inline bool isMarker(Core::EventKind k)
{
    return k == Core::EventKind::Grant || k == Core::EventKind::Renewal ||
           k == Core::EventKind::Refusal || k == Core::EventKind::Release ||
           k == Core::EventKind::WriteSent;
}

// What a trace says is answered in core (lockfacts.h, outcomes.h, runstate.h); the passes and the
// hit test may name these either way, Render:: or Core::.
using Core::eventOf;
using Core::firstGrantOfEpoch;
using Core::isKeepalive;
using Core::lastGrantOfEpoch;
using Core::runEventOf;
using Core::severity;

} // namespace Render
