#pragma once

// Long seeded schedules for benchmarks: clients take turns at the lock with leases, pause
// now and then past their lease, and write with occasional network delays. Deterministic
// for a seed.

#include "randomscenario.h" // TestSupport::Rng, the tests' seeded generator
#include "scenario.h"

#include <cstdint>

namespace Bench {

inline std::uint64_t below(TestSupport::Rng &rng, std::uint64_t n)
{
    return rng.next() % n;
}

inline Core::Scenario makeSchedule(std::size_t actions, int clients, std::uint64_t seed)
{
    TestSupport::Rng rng(seed);
    Core::Scenario s;
    s.title = QStringLiteral("Generated schedule (%1 actions, seed %2)").arg(actions).arg(seed);
    s.storages = {Core::StorageSpec::named(QStringLiteral("db")),
                  Core::StorageSpec::named(QStringLiteral("cache"))};
    s.clients.resize(std::size_t(clients));
    for (int c = 0; c < clients; ++c) {
        s.clients[std::size_t(c)].name = QStringLiteral("C%1").arg(c);
        s.clients[std::size_t(c)].actions.reserve(actions / std::size_t(clients) + 1);
    }
    const QString values[] = {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")};
    // Each round, one client is the intended owner: acquire, a few writes, sometimes a pause
    // that outlives its lease, sometimes a release. Others try to acquire meanwhile.
    Core::Tick t = 0;
    std::size_t made = 0;
    while (made < actions) {
        const int owner = int(below(rng, std::uint64_t(clients)));
        auto &own = s.clients[std::size_t(owner)].actions;
        const Core::Tick ttl = 5 + below(rng, 10);
        own.push_back(Core::Action::acquire(t, ttl));
        ++made;
        const Core::Tick roundEnd = t + ttl + below(rng, 4);
        for (Core::Tick w = t + 1; w < roundEnd && made < actions; w += 1 + below(rng, 3)) {
            const std::uint64_t r = below(rng, 20);
            if (r == 0) {
                own.push_back(Core::Action::pause(w, ttl + below(rng, 10)));
            } else if (r == 1) {
                auto &other = s.clients[std::size_t(below(rng, std::uint64_t(clients)))].actions;
                other.push_back(Core::Action::acquire(w, 1 + below(rng, 10)));
            } else {
                own.push_back(Core::Action::write(w, values[below(rng, 3)],
                                                  std::uint32_t(below(rng, 2)),
                                                  below(rng, 8) == 0 ? 1 + below(rng, 12) : 0));
            }
            ++made;
        }
        if (below(rng, 4) == 0 && made < actions) {
            own.push_back(Core::Action::release(roundEnd));
            ++made;
        }
        t = roundEnd + 1;
    }
    return s;
}

} // namespace Bench
