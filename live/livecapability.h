#pragma once

// What can run on a real etcd, and at which tick, decided before anything starts.
//
// Each reason a scenario cannot run is one line here, in one place: the CLI's refusal, the
// app's Run on etcd dialog and the tests read them.
//
// Time: a tick is a number of real milliseconds. etcd's lease TTLs are whole seconds, and
// etcd ends an expired lease late: its lessor looks for expired leases every 500 ms (the
// runLoop of lease/lessor.go), then deletes the lease's keys through Raft. So the tick must
// make every TTL a whole number of seconds, and leave kLeaseEndMarginMs between each lease
// end and the next acquire, release, keepalive or write arrival after it, whose outcome
// depends on whether the lease has ended.

#include "scenario.h"
#include "trace.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace Live {

inline constexpr qint64 kLeaseEndMarginMs = 600;
// A quarter tick is how late an action may start before the run says so, and an acquire is
// two or three calls to etcd: below 200 ms a tick, that is within a busy machine's noise.
inline constexpr qint64 kMinTickUs = 200'000;
// Longer than this a live run is not a lesson any more.
inline constexpr qint64 kMaxRunMs = 10 * 60 * 1000;
inline constexpr std::size_t kMaxClients = 16;
inline constexpr std::size_t kMaxActions = 400;

// Why `scenario` cannot run on etcd: one line each (empty: it can). `predicted`, its run with
// etcd's tokens (prediction()), tells what only the run shows (a renewal for a different ttl).
QStringList refusals(const Core::Scenario &scenario, const Core::Trace &predicted);

// The scenario as the prediction runs it: etcd's revisions as tokens, the store at `revision`
// before the run's first change. Every other lock option of another source goes back to its
// default, as Simulation > Token source does.
Core::Scenario prediction(const Core::Scenario &scenario, std::uint64_t revision = 1);

struct TickPlan
{
    qint64 tickUs = 0; // 0: none fits (error says why)
    QString error;
    // the smallest gap, in ticks, between a lease end and what depends on it (0: none)
    Core::Tick margin = 0;
    Core::Tick lastTick = 0; // the prediction's last tick: how long the run lasts
    double seconds() const { return double(lastTick) * double(tickUs) / 1e6; }
};

// The tick for `predicted` (the prediction's run): `wantedUs` when given and it fits, else the
// smallest tick of at least kMinTickUs that makes every TTL whole seconds and keeps every margin.
TickPlan planTicks(const Core::Scenario &scenario, const Core::Trace &predicted,
                   std::optional<qint64> wantedUs = std::nullopt);

// "300 ms", "666.667 ms"
QString tickText(qint64 tickUs);

} // namespace Live
