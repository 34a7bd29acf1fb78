#pragma once

// Where a run observed on etcd went otherwise than its prediction, and why. Some differences
// are what a real etcd does and the model leaves out: a lease ended late (the lessor's expiry
// sweep), token gaps (the storages' own writes share the store's revision). Those are notes.
// The rest are disagreements: a write's result, a final value, the order of tokens. A run in
// which an action ran late is not judged either way.

#include "scenario.h"
#include "trace.h"

#include <QString>

#include <vector>

namespace Live {

enum class DivergenceKind : std::uint8_t
{
    Outcome,  // an action's outcome differs (a write's result, a grant, a refusal, ...)
    Order,    // the grants came in another order
    TokenGap, // a token differs from the predicted one by revisions the model does not count
    LeaseEnd, // etcd ended a lease at another time than its TTL says
    Final,    // a storage's final value, max_token or version differs
    Late,     // an action began more than a quarter tick late, or took a tick: not judged
    Stopped,  // the run stopped before its end
};

struct Divergence
{
    DivergenceKind kind = DivergenceKind::Outcome;
    bool disagreement = false; // reality disagreed with the model (not a note)
    std::uint32_t client = Core::kNone;
    std::uint32_t action = Core::kNone;
    Core::Tick tick = 0; // where to look, in the observed run
    QString text;        // what happened, and why
};

enum class Verdict : std::uint8_t
{
    Agreed,    // every outcome, final value and the token order as predicted
    Disagreed, // at least one disagreement
    Unjudged,  // an action ran late: neither
    Partial,   // the run stopped early
};

// What the coordinator knows of a run beyond its trace.
struct RunLog
{
    std::uint64_t startRevision = 0;             // etcd's revision before the run
    std::vector<std::uint64_t> lockRevisions;    // changes of the lock's keys, by this run
    std::vector<std::uint64_t> putRevisions;     // the scenario's unrelated puts
    std::vector<std::uint64_t> storageRevisions; // the storages' applied writes
    struct Late
    {
        std::uint32_t client = Core::kNone; // kNone: the coordinator's own (a pause, a put)
        std::uint32_t action = Core::kNone;
        Core::Tick tick = 0;
        double seconds = 0; // how late it began, or (slow) how long it took
        bool slow = false;  // it began in time, but had not ended a tick later
    };
    std::vector<Late> late;
    // what etcd held at the end, read back (empty when it could not be read)
    std::vector<Core::StorageState> readBack;
    // a waiter's key went while it waited (its lease was not kept alive): client, action
    std::vector<std::pair<std::uint32_t, std::uint32_t>> waitersExpired;
    double tickSeconds = 1;
};

std::vector<Divergence> compareRuns(const Core::Scenario &scenario, const Core::Trace &predicted,
                                    const Core::Trace &observed, const RunLog &log);
Verdict verdictOf(const std::vector<Divergence> &divergences, bool complete);
QString toString(Verdict verdict);     // "agreed", "disagreed", "unjudged", "partial"
QString toString(DivergenceKind kind); // "outcome", "order", "tokenGap", ...

} // namespace Live
