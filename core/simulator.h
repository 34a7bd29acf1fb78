#pragma once

#include "scenario.h"
#include "trace.h"

namespace Core {

// Runs the scenario on a virtual clock (SCENARIO.md sections 1-6). Deterministic: the same
// scenario gives the same trace, every time. O(n log n) in the number of actions at worst.
// The scenario must be valid (as the loader guarantees): storage indices in range, ttl > 0.
Trace simulate(const Scenario &scenario);
// The same schedule with fencing forced on or off (compare mode, `--fencing`).
Trace simulate(const Scenario &scenario, bool fencing);
// The same, into an existing trace whose buffers are reused (re-simulation while dragging).
void simulateInto(const Scenario &scenario, bool fencing, Trace &trace);

// The value a write carried.
const QString &writeValue(const Scenario &scenario, const Write &write);
// A storage's state at the end of tick t, including its value.
StorageState storageStateAt(const Scenario &scenario, const Trace &trace, std::uint32_t storage,
                            Tick t);

} // namespace Core
