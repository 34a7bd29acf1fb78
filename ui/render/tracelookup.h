#pragma once

// Finding the visible slice of a lane's sorted lists: binary search, galloping from the last
// answer when jumping to the next pixel column, and the per-column answers shared by lanes.
// Also the small facts about events that the passes and the hit test share.

#include "explain.h"
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

// The event of `kind` with record `ref` on client `c`'s lane at `tick`; kNone if none.
inline std::uint32_t eventOf(const Core::Trace &t, int c, Tick tick, Core::EventKind kind,
                             std::uint32_t ref)
{
    const std::vector<std::uint32_t> &evs = t.clientEvents[std::size_t(c)];
    for (std::size_t i = firstClientEvent(t, evs, tick);
         i < evs.size() && t.events[evs[i]].tick == tick; ++i)
        if (t.events[evs[i]].kind == kind && t.events[evs[i]].ref == ref)
            return evs[i];
    return Core::kNone;
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

// The grant or renewal that set an epoch's current expiry: the last one of that epoch.
// Grants are in time order and their epochs never decrease.
inline const Core::Grant *lastGrantOfEpoch(const Core::Trace &t, std::uint32_t epoch)
{
    auto it = std::upper_bound(t.grants.begin(), t.grants.end(), epoch,
                               [](std::uint32_t e, const Core::Grant &g) { return e < g.epoch; });
    if (it == t.grants.begin() || (it - 1)->epoch != epoch)
        return nullptr;
    return &*(it - 1);
}

inline const Core::Grant *firstGrantOfEpoch(const Core::Trace &t, std::uint32_t epoch)
{
    auto it = std::lower_bound(t.grants.begin(), t.grants.end(), epoch,
                               [](const Core::Grant &g, std::uint32_t e) { return g.epoch < e; });
    if (it == t.grants.end() || it->epoch != epoch)
        return nullptr;
    return &*it;
}

// How loudly an outcome must show when several share a pixel.
inline int severity(Core::WriteResult r)
{
    switch (r) {
    case Core::WriteResult::Corrupted:
        return 3;
    case Core::WriteResult::LockedOut:
        return 2;
    case Core::WriteResult::Rejected:
        return 1;
    case Core::WriteResult::Accepted:
        return 0;
    }
    return 0;
}

// The tick an action's marker is due at: a checked write sends `gap` ticks after its check
// (the bracket shows that wait); any later is a deferral, drawn as one.
inline Tick dueTick(const Core::Action &a)
{
    if (a.kind == Core::ActionKind::Write && a.check)
        return a.at + a.gap();
    return a.at;
}

// A renewal by the client's keepalive schedule: drawn as a tick on the lease bar, not as a
// marker of the acquire that set the schedule.
inline bool isKeepalive(const Core::Trace &t, const Core::Event &e)
{
    return e.kind == Core::EventKind::Renewal && t.grants[e.ref].keepalive;
}

inline bool isMarker(Core::EventKind k)
{
    return k == Core::EventKind::Grant || k == Core::EventKind::Renewal ||
           k == Core::EventKind::Refusal || k == Core::EventKind::Release ||
           k == Core::EventKind::WriteSent;
}

// The event where an action ran (grant/renewal/refusal, release, write sent, pause start):
// the first event at or after its scheduled tick that belongs to it. kNone if it has not run.
// Deferred actions run when the client thaws, so the search starts at `at`.
inline std::uint32_t runEventOf(const Core::Scenario &s, const Core::Trace &t, int client,
                                int action)
{
    if (client < 0 || action < 0 || std::size_t(client) >= t.clientEvents.size() ||
        std::size_t(client) >= s.clients.size() ||
        std::size_t(action) >= s.clients[std::size_t(client)].actions.size())
        return Core::kNone;
    const Core::Action &a = s.clients[std::size_t(client)].actions[std::size_t(action)];
    const std::vector<std::uint32_t> &evs = t.clientEvents[std::size_t(client)];
    std::size_t i = firstClientEvent(t, evs, a.at);
    // Bounded: a frozen stretch can pile many deferred actions onto one tick, but the
    // selection halo must not turn a paint into a scan of the whole lane.
    for (std::size_t n = 0; i < evs.size() && n < 200000; ++i, ++n) {
        const Core::Event &e = t.events[evs[i]];
        // (a checked write ran where it was sent; a read where it was sent)
        if (e.kind == Core::EventKind::PauseEnd || e.kind == Core::EventKind::WriteArrived ||
            e.kind == Core::EventKind::Checked || e.kind == Core::EventKind::ReadArrived)
            continue;
        if (Core::actionOfEvent(t, evs[i]) == std::uint32_t(action))
            return evs[i];
    }
    return Core::kNone;
}

} // namespace Render
