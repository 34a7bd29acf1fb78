#pragma once

// Seeded random schedules for property tests (and benchmarks): several clients acquiring with
// random TTLs, pausing, releasing and writing with random network delays to 1-3 storages.
// Header-only and fully deterministic: the same seed gives the same Scenario on every machine
// (splitmix64, no std::random_device, no std distributions whose output varies by library).

#include "scenario.h"
#include "tokensource.h"

#include <QString>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace TestSupport {

// splitmix64 (Steele, Lea, Flood 2014): one 64-bit state, good enough mixing for test input.
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
    // Uniform enough in [lo, hi] (the modulo bias is irrelevant for test schedules).
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi)
    {
        return lo + next() % (hi - lo + 1);
    }
    bool chance(unsigned percent) { return next() % 100 < percent; }

private:
    std::uint64_t m_state;
};

struct RandomScenarioOptions
{
    int minClients = 1;
    int maxClients = 5;
    int minStorages = 1;
    int maxStorages = 3;
    int minActions = 1; // per client
    int maxActions = 12;
    Core::Tick span = 60; // actions are scheduled at ticks in [0, span)
    Core::Tick maxTtl = 20;
    Core::Tick maxPause = 25;
    Core::Tick maxDelay = 20;
    unsigned lePercent = 0;         // chance that a storage uses the too-strict `le` rule
    unsigned zeroDelayPercent = 50; // chance that a write has no network delay
    unsigned shufflePercent = 20;   // chance that a client's actions are listed out of time order
    bool fencing = true;

    // The lock service (docs/SCENARIO.md sections 9 and 10). Drawn from a second generator, so a
    // seed's schedule is the same with or without them.
    Core::TokenSource tokens = Core::TokenSource::Counter;
    bool sourceEvents = false;   // the source's own options: first, revision, puts, failovers,
                                 // failed elections, seed, clock offset and steps
    bool clockStepsBack = false; // wallclock: steps may be negative (by -30..30, else 0..30)
    unsigned waitPercent = 0;    // chance that an acquire blocks (a third of them with waitFor)
    int maxRestores = 0;
    Core::Token restoreBump = 0; // the bump of every restore (only for sources with a counter)
    Core::Tick maxLockDelay = 0;
    // Section 15: the chance that a storage asks the lock service (`check: "owner"`) or keeps
    // the one token it saw first (`check: "same"`); drawn from the second generator as well.
    unsigned ownerPercent = 0;
    unsigned samePercent = 0;
};

// Enough bump for one restore of any source in these schedules: more than every change the
// counter can have seen since, ZooKeeper failovers (2^32 each) included.
inline constexpr Core::Token kEnoughBump = Core::Token(1) << 40;

// Sorted distinct ticks in [lo, hi], up to `max` of them.
inline std::vector<Core::Tick> randomTicks(Rng &rng, int max, Core::Tick lo, Core::Tick hi)
{
    std::vector<Core::Tick> ticks;
    const auto n = int(rng.between(0, std::uint64_t(max)));
    ticks.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i)
        ticks.push_back(rng.between(lo, hi));
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
    return ticks;
}

inline void addLockOptions(Core::Scenario &s, std::uint64_t seed, const RandomScenarioOptions &o)
{
    using namespace Core;
    Rng rng(seed ^ 0x6a09e667f3bcc909ull);
    s.tokens = o.tokens;
    LockOptions &lock = s.lock;
    if (o.sourceEvents) {
        switch (o.tokens) {
        case TokenSource::Counter:
            lock.first = rng.between(0, 40);
            break;
        case TokenSource::Etcd:
            lock.revision = rng.between(0, 100);
            lock.putsEvery = rng.chance(70) ? rng.between(1, 10) : 0;
            break;
        case TokenSource::ZooKeeper:
            lock.failovers = randomTicks(rng, 3, 0, o.span);
            break;
        case TokenSource::RaftTerm:
            lock.failedElections = randomTicks(rng, 3, 0, o.span);
            break;
        case TokenSource::ServiceTerm:
            lock.elections = randomTicks(rng, 3, 0, o.span);
            lock.failedElections = randomTicks(rng, 1, 0, o.span);
            break;
        case TokenSource::Random:
            lock.seed = rng.between(0, kMaxFileInteger);
            break;
        case TokenSource::WallClock: {
            lock.clockOffset = rng.between(100, 2000);
            for (Tick at : randomTicks(rng, 3, 0, o.span)) {
                const auto by = std::int64_t(rng.between(0, 30));
                lock.clockSteps.push_back({at, o.clockStepsBack && rng.chance(50) ? -by : by});
            }
            break;
        }
        default:
            break;
        }
    }
    if (o.maxRestores > 0 && o.span > 1) {
        const auto n = int(rng.between(0, std::uint64_t(o.maxRestores)));
        for (int i = 0; i < n; ++i) {
            LockRestore r;
            r.at = rng.between(1, o.span - 1);
            r.from = rng.between(0, r.at - 1);
            r.bump = hasCounter(o.tokens) ? o.restoreBump : 0;
            lock.restores.push_back(r);
        }
        std::stable_sort(lock.restores.begin(), lock.restores.end(),
                         [](const LockRestore &a, const LockRestore &b) { return a.at < b.at; });
    }
    if (o.maxLockDelay)
        lock.lockDelay = rng.between(0, o.maxLockDelay);
    if (o.ownerPercent || o.samePercent) {
        for (StorageSpec &st : s.storages) {
            const std::uint64_t pick = rng.between(0, 99);
            if (pick < o.ownerPercent)
                st.check = StorageCheck::Owner;
            else if (pick < o.ownerPercent + o.samePercent)
                st.check = StorageCheck::Same;
        }
    }
    if (o.waitPercent) {
        for (Client &c : s.clients) {
            for (Action &a : c.actions) {
                if (a.kind != ActionKind::Acquire || !rng.chance(o.waitPercent))
                    continue;
                a.wait = true;
                if (rng.chance(33))
                    a.setWaitFor(rng.between(1, 20));
            }
        }
    }
}

// Sections 11 and 12 over a random schedule, drawn from a third generator so the schedule
// itself stays the seed's. The first group are mitigations and mechanisms that never make a
// fenced `lt` run with a monotonic source corrupt; the last two are the pitfalls.
struct PitfallOptions
{
    unsigned keepalivePercent = 0; // acquires that keep alive every 1..ttl ticks
    unsigned checkPercent = 0;     // writes that check first, with a gap of 0..10
    unsigned clockPercent = 0;     // clients with their own clock: rate 0.25..4, steps
    unsigned versionPercent = 0;   // storages that compare versions (compare-and-set)
    unsigned readPercent = 0;      // writes with a read of their storage some ticks before
    unsigned groupPercent = 0;     // writes in one of two groups of their client
    unsigned bypassPercent = 0;    // clients on an unfenced path
    unsigned volatilePercent = 0;  // storages with a volatile max_token and 1-3 restarts
};

inline void addPitfalls(Core::Scenario &s, std::uint64_t seed, const PitfallOptions &o,
                        Core::Tick span = 60)
{
    using namespace Core;
    Rng rng(seed ^ 0xbb67ae8584caa73bull);
    for (StorageSpec &st : s.storages) {
        if (rng.chance(o.versionPercent))
            st.check = StorageCheck::Version;
        if (rng.chance(o.volatilePercent)) {
            st.durable = false;
            st.restarts = randomTicks(rng, 3, 1, span);
            if (st.restarts.empty())
                st.restarts.push_back(rng.between(1, span));
        }
    }
    for (Client &c : s.clients) {
        c.bypass = rng.chance(o.bypassPercent);
        if (rng.chance(o.clockPercent)) {
            c.clock.rateMilli = std::uint32_t(rng.between(250, 4000));
            for (Tick at : randomTicks(rng, 2, 0, span)) {
                const auto by = std::int64_t(rng.between(0, 20));
                c.clock.steps.push_back({at, rng.chance(50) ? -by : by});
            }
        }
        std::vector<Action> reads;
        for (Action &a : c.actions) {
            if (a.kind == ActionKind::Acquire && rng.chance(o.keepalivePercent))
                a.setKeepalive(rng.between(1, a.amount));
            if (a.kind != ActionKind::Write)
                continue;
            if (rng.chance(o.checkPercent)) {
                a.check = true;
                a.setGap(rng.between(0, 10));
            }
            if (rng.chance(o.groupPercent))
                a.setGroup(rng.chance(50) ? QStringLiteral("g1") : QStringLiteral("g2"));
            if (rng.chance(o.readPercent)) {
                const Tick back = rng.between(0, 5);
                reads.push_back(Action::read(a.at > back ? a.at - back : 0, a.storage,
                                             rng.chance(50) ? 0 : rng.between(1, 5)));
            }
        }
        c.actions.insert(c.actions.end(), reads.begin(), reads.end());
        std::stable_sort(c.actions.begin(), c.actions.end(),
                         [](const Action &a, const Action &b) { return a.at < b.at; });
    }
}

inline Core::Scenario randomScenario(std::uint64_t seed, const RandomScenarioOptions &o = {})
{
    using namespace Core;
    Rng rng(seed);
    Scenario s;
    s.title = QStringLiteral("random %1").arg(seed);
    s.fencing = o.fencing;

    const auto storages =
        int(rng.between(std::uint64_t(o.minStorages), std::uint64_t(o.maxStorages)));
    s.storages.clear();
    for (int i = 0; i < storages; ++i) {
        StorageSpec spec;
        spec.name = QStringLiteral("s%1").arg(i);
        spec.rule = rng.chance(o.lePercent) ? FenceRule::Le : FenceRule::Lt;
        s.storages.push_back(spec);
    }

    const auto clients = int(rng.between(std::uint64_t(o.minClients), std::uint64_t(o.maxClients)));
    for (int c = 0; c < clients; ++c) {
        Client client;
        client.name = QStringLiteral("c%1").arg(c);
        const auto n = int(rng.between(std::uint64_t(o.minActions), std::uint64_t(o.maxActions)));
        std::vector<Action> actions;
        actions.reserve(std::size_t(n));
        for (int i = 0; i < n; ++i) {
            const Tick at = rng.between(0, o.span - 1);
            const std::uint64_t kind = rng.between(0, 99);
            if (kind < 30) {
                actions.push_back(Action::acquire(at, rng.between(1, o.maxTtl)));
            } else if (kind < 40) {
                actions.push_back(Action::release(at));
            } else if (kind < 55) {
                actions.push_back(Action::pause(at, rng.between(1, o.maxPause)));
            } else {
                const Tick delay = rng.chance(o.zeroDelayPercent) ? 0 : rng.between(1, o.maxDelay);
                const auto storage = std::uint32_t(rng.between(0, std::uint64_t(storages - 1)));
                actions.push_back(Action::write(at, QStringLiteral("%1.%2").arg(client.name).arg(i),
                                                storage, delay));
            }
        }
        if (!rng.chance(o.shufflePercent)) {
            // usually listed in time order, as a user draws them; ties keep their random order
            std::stable_sort(actions.begin(), actions.end(),
                             [](const Action &a, const Action &b) { return a.at < b.at; });
        }
        client.actions = std::move(actions);
        s.clients.push_back(std::move(client));
    }
    addLockOptions(s, seed, o);
    return s;
}

} // namespace TestSupport
