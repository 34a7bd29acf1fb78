#pragma once

// The scenario file's keys for token sources and the lock service's own failures (docs/SCENARIO.md
// sections 9, 10 and 14, "Validation"): `lock.first`, `revision`, `puts`, `failovers`,
// `failedElections`, `elections`, `seed`, `clockOffset`, `clockSteps`, `restores`, `lockDelay`, and
// an acquire's `wait` and `waitFor`. The loader keeps keys it does not parse itself as JSON values
// (Scenario::lockExtra, Action::extra); take() moves these out of them into the scenario,
// checking every one, and the writer puts them back where save() writes the lock and actions.

#include "jsonout.h"
#include "scenario.h"

#include <QString>

namespace Core::LockOptionsFile {

// Limits on the lists (each refused past it with its own message).
inline constexpr int kMaxScheduledTicks = 100'000; // failovers, failedElections, elections
inline constexpr int kMaxClockSteps = 1000;
inline constexpr int kMaxRestores = 100;

// After the loader has read `s` (with s.tokens set): moves and checks the keys above. Returns
// "place: problem" for the first problem, in the order lock, then clients in file order; an
// empty string when all is well. On a problem `s` is half-moved: the caller drops it.
QString take(Scenario &s);
// take() in its two parts, for a reader that keeps no actions: the lock's keys, then one
// acquire's wait keys (`client` and `index` name its place).
QString takeLock(Scenario &s);
QString takeWait(Action &a, std::size_t client, std::size_t index);

// For save: the lock's keys after "tokens" (only those that differ from their defaults), and
// an acquire's wait keys, each as ", key: value".
void writeLock(JsonOut &out, const Scenario &s);
// A list of clock steps as the file spells it: [{ "at": 5, "by": -3 }, ...].
void writeClockSteps(JsonOut &out, const std::vector<ClockStep> &steps);
void writeAcquire(JsonOut &out, const Action &a);

} // namespace Core::LockOptionsFile
