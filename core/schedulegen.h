#pragma once

// Seeded schedules drawn from a scenario, for sweeps and the failure search. Near it: the
// scenario's own actions, each client's in their order, each moved a few ticks (nearSchedule).
// Shaped like it (the rest of this header): seeded random schedules shaped like a scenario: the
// same clients and storages, each client drawing as many actions as it has, of the kinds it uses,
// at ticks in the scenario's span and with TTLs, pause lengths and network delays in the scenario's
// ranges. What sections 9-12 add comes along: the clients' clocks and bypass flags, the storages
// (check, durability, restarts), the token source and lock options stay as they are; acquires draw
// keepalives, writes checks and gaps and groups, in the scenario's shares and ranges, and reads go
// to its version storages (to any storage when it has none). Sweeps and the failure search run many
// of them. Fully deterministic: a seed gives the same schedule on every machine and thread
// (splitmix64, no std distributions whose output varies by library).

#include "scenario.h"

#include <array>
#include <cstdint>
#include <vector>

namespace Core {

// splitmix64 (Steele, Lea, Flood 2014): one 64-bit state, enough mixing for schedules.
class Rng
{
public:
    explicit Rng(std::uint64_t seed) : m_state(seed) {}

    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // In [lo, hi]; the modulo bias is irrelevant for schedules of a few hundred ticks.
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi)
    {
        return hi <= lo ? lo : lo + next() % (hi - lo + 1);
    }

private:
    std::uint64_t m_state;
};

// n % d for one divisor d >= 1 and many n, by a multiplication instead of a division (which
// takes several times as long): Granlund and Montgomery, "Division by invariant integers using
// multiplication" (1994), figure 4.1. Exact for every 64-bit n, so a draw taken through it is
// the draw `%` gives.
class Remainder
{
public:
    explicit Remainder(std::uint64_t d = 1);
    std::uint64_t of(std::uint64_t n) const
    {
        __extension__ using Wide = unsigned __int128;
        const auto high = std::uint64_t((Wide(m_magic) * n) >> 64);
        const std::uint64_t quotient = (high + ((n - high) >> m_shift1)) >> m_shift2;
        return n - quotient * m_divisor;
    }
    std::uint64_t divisor() const { return m_divisor; }

private:
    std::uint64_t m_divisor;
    std::uint64_t m_magic;
    unsigned m_shift1;
    unsigned m_shift2;
};

// The seed of schedule number `run` of a search or sweep seeded with `seed`: a function of the
// two numbers only, so which thread draws it does not matter.
std::uint64_t scheduleSeed(std::uint64_t seed, std::uint64_t run);

struct ScheduleShape
{
    struct Span
    {
        Tick min = 0;
        Tick max = 0;
    };
    struct ClientShape
    {
        std::size_t actions = 0;
        // cumulative counts of acquire, release, pause, write, read among the client's actions
        std::array<std::size_t, 5> kindsUpTo{};
        std::vector<QString> values; // the value of a write drawn as action i
    };

    Scenario base; // the scenario without its actions: title, fencing, storages, client names
    std::vector<ClientShape> clients;
    Tick span = 1; // actions at ticks [0, span)
    Span ttl{1, 10};
    Span pause{1, 20};
    Span delay{0, 0};
    // Drawn only when the scenario has them (so a schedule without draws the numbers it
    // always did): an acquire keeps alive with probability keepalives / acquires, every
    // `keepalive` ticks; a write is checked with probability checks / writes, with a gap from
    // `gap`, and joins one of `groups` with probability grouped / writes.
    std::size_t acquires = 0;
    std::size_t keepalives = 0;
    Span keepalive{1, 1};
    std::size_t writes = 0;
    std::size_t checks = 0;
    Span gap{0, 0};
    std::size_t grouped = 0;
    std::vector<QString> groups; // the scenario's group names, in order of first appearance
    Span readDelay{0, 0};
    std::vector<std::uint32_t> readStorages; // where reads go: the version storages, else all
};

// The shape of a scenario. A kind (or key) the scenario has no action of keeps the default
// range above.
ScheduleShape shapeOf(const Scenario &scenario);
// A copy whose drawn strings (write values, group names) share no data with `shape`: every
// schedule drawn from it assigns them, and a reference count that two threads write bounces
// between their cores. (A sweep's threads each draw with a ScheduleDrawer, which goes further.)
ScheduleShape unsharedCopy(const ScheduleShape &shape);

// Schedule `seed` of that shape, into `out` (its buffers reused from one call to the next).
// `out` must be empty, or hold a schedule of this same shape: only the actions are drawn again.
void generateSchedule(const ScheduleShape &shape, std::uint64_t seed, Scenario *out);
Scenario generateSchedule(const ScheduleShape &shape, std::uint64_t seed);

namespace ScheduleDetail {

// What a schedule's draws take remainders by: the counts of a shape and the widths of its
// ranges (1 where a range has one value: nothing is drawn for it), each as a `Mod`, whose
// of(n) is n % that number.
template <typename Mod> struct Divisors
{
    Mod span, storages, readStorages, groups, acquires, writes;
    Mod ttl, keepalive, pause, delay, gap, readDelay;
    std::vector<Mod> kinds; // per client: its number of actions
};

} // namespace ScheduleDetail

// The schedules of one shape drawn again and again into one scenario, as a thread of a sweep
// does: the very schedules of generateSchedule(), drawn with no write value's reference count
// touched and no division. Each write value is a string of the drawer's own, in exactly one
// place at a time: in its pool, or in the action that holds it, and it moves between the two
// by swapping. (Group names, of a few writes, are assigned from its own copy of the shape.)
class ScheduleDrawer
{
public:
    // Starts over with `shape` (an unsharedCopy: the strings drawn are the drawer's own).
    void setShape(const ScheduleShape &shape);
    // Schedule `seed` of the shape, valid until the next call.
    const Scenario &draw(std::uint64_t seed);

private:
    ScheduleShape m_shape;
    ScheduleDetail::Divisors<Remainder> m_divisors; // worked out once per shape
    Scenario m_schedule;
    std::vector<std::vector<QString>> m_pool;       // per client: values held by no action
    std::vector<std::vector<std::uint32_t>> m_held; // per client and action: its value's index
};

// Schedules near a scenario: its own actions, each moved by a seeded whole number of ticks in
// [-jitter, jitter], in their order. Each client's actions are taken in the order they run (by
// tick, ties as listed) and listed so; none goes before tick 0, and an action moved to or
// before the tick of the one ahead of it goes to the tick after that one's (to that one's tick
// when they shared a tick): actions keep their order and share only the ticks they shared.
// Nothing else changes: durations, values, keys, storages, the lock's own events and the
// clients' clocks. Draws one number per action, client by client, from Rng(seed).
class NearDrawer
{
public:
    // Starts over with `base` and a jitter of at least 1.
    void setBase(const Scenario &base, Tick jitter);
    // Schedule `seed` near the base, valid until the next call. Only the ticks are written:
    // no string of the base is touched (a sweep's threads each draw with their own drawer).
    const Scenario &draw(std::uint64_t seed);

private:
    Scenario m_schedule;
    std::vector<std::vector<Tick>> m_at; // per client: the base's ticks, in run order
    Tick m_jitter = 1;
};

Scenario nearSchedule(const Scenario &base, Tick jitter, std::uint64_t seed);

} // namespace Core
