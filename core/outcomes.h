#pragma once

// The one ranking of a write's outcomes (WriteResult, trace.h), most telling first:
//   corrupted  safety broken: it overwrote newer data (docs/SCENARIO.md section 6)
//   lockedOut  liveness broken: the live holder of the newest epoch was refused
//   rejected   fencing doing its job: a stale writer turned away
//   accepted
// A picture shows the higher one where several share a pixel, and a scenario just opened
// selects its first write of the highest rank (mostTellingWrite): one order for both
// (docs/SEMANTICS.md "One ranking of outcomes").

#include "trace.h"

namespace Core {

// 3 corrupted, 2 locked out, 1 rejected, 0 accepted: higher is louder.
inline int severity(WriteResult r)
{
    switch (r) {
    case WriteResult::Corrupted:
        return 3;
    case WriteResult::LockedOut:
        return 2;
    case WriteResult::Rejected:
        return 1;
    case WriteResult::Accepted:
        return 0;
    }
    return 0;
}

// The write a run is opened at: of the writes whose outcome is known, the first of the highest
// rank, "first" meaning the first to arrive at its storage. Arrival is where an outcome is
// decided: by tick, and at one tick in the order the writes were sent, the order in which the
// storages handle them (docs/SCENARIO.md, phases of a tick) and the report lists them. nullptr
// when every write was accepted, or none has arrived.
const Write *mostTellingWrite(const Trace &trace);

} // namespace Core
