#include "outcomes.h"

namespace Core {

const Write *mostTellingWrite(const Trace &trace)
{
    // the WriteArrived events are the arrivals in the order the storages handled them; the
    // writes themselves are kept in the order they were sent
    const Write *best = nullptr;
    int rank = 0;
    for (const Event &e : trace.events) {
        if (e.kind != EventKind::WriteArrived)
            continue;
        const Write &w = trace.writes[e.ref];
        if (severity(w.result) > rank) {
            best = &w;
            rank = severity(w.result);
            if (rank == severity(WriteResult::Corrupted))
                break; // nothing ranks higher
        }
    }
    return best;
}

} // namespace Core
