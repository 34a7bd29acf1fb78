#pragma once

#include "scenario.h"
#include "runstate.h"
#include "trace.h"

#include <cstdint>
#include <memory>

namespace Core {

// A simulation that can be re-run from the middle. It keeps checkpoints of its state every few
// thousand events, so after an edit that changes nothing before tick `from` it goes back to
// the last checkpoint before `from` instead of the start; and it can stop at a tick and go on
// later, so a drag re-simulates only as far as the screen shows and finishes the rest between
// frames. The scenario and the trace must outlive the simulator's use of them.
class Simulator
{
public:
    // A checkpoint every `checkpointEvents` events (fewer: faster re-runs, more memory); 0:
    // every 4096 events, further apart when writes in flight make checkpoints large;
    // kNoCheckpoints: none at all, for runs that are never re-run from the middle (a sweep's
    // many short ones), and rerun() then starts again from tick 0.
    static constexpr std::size_t kNoCheckpoints = SIZE_MAX;
    explicit Simulator(std::size_t checkpointEvents = 0);
    ~Simulator();
    Simulator(const Simulator &) = delete;
    Simulator &operator=(const Simulator &) = delete;

    // Simulates `scenario` from the start into `trace` (its buffers reused), through the end of
    // tick `through`. Returns true when the run is complete (Trace::pendingFrom == kForever).
    bool run(const Scenario &scenario, bool fencing, Trace &trace, Tick through = kForever);
    // The same, stopping before tick `before`: nothing of that tick or later has happened (0:
    // nothing at all), and Trace::finals holds each storage as it stands then. What
    // presentation mode and a lesson's question show of a run.
    bool runBefore(const Scenario &scenario, bool fencing, Trace &trace, Tick before);
    // Simulates `scenario` from the start to its end recording only what a summary needs: the
    // counts of trace.summary, exactly as run() gives them, and trace.fencing, tokens, finals
    // and complete(). No events, refusals, lane or storage lists, no checkpoints: the trace's
    // other lists are working memory (buffers reused), not a trace to show or query, and rerun()
    // and resume() must not follow. For sweeps and `fencescope-cli run --summary`.
    const Summary &summarize(const Scenario &scenario, bool fencing, Trace &trace);
    // summarize() again of the last summarize()'s scenario, unchanged since, into the same trace,
    // with `fencing` (a sweep's unfenced run of the schedule it just ran fenced): the same
    // summary as summarize(scenario, fencing, trace), without planning the lanes again.
    const Summary &summarizeAgain(bool fencing);
    // The scenario of the last run() was edited in place: only `client`'s actions changed, and
    // only at or after tick `from` (both their old and their new `at`); clients, storages and
    // action counts are the same. Re-simulates from the last checkpoint at or before `from`.
    // When `action` names the one action that changed and the last run was complete, the
    // re-run also stops early if, at one of that run's checkpoints after the change, it finds
    // itself in the same state: the rest of that run, still in the trace, is kept as it is.
    // It may go on past `through` to the few checkpoints where that can happen.
    bool rerun(std::uint32_t client, Tick from, Tick through = kForever,
               std::uint32_t action = kNone);
    // Goes on with a partial run, through tick `through` or until about `events` more events
    // are recorded (it stops between ticks).
    bool resume(Tick through = kForever, std::size_t events = SIZE_MAX);
    bool complete() const;
    // For a partial run: how many events are probably left, judged by the last complete run
    // (an edit rarely changes the length of a run much); 0 when complete.
    std::size_t eventsLeftEstimate() const;
    // The tick the last run() or rerun() started simulating from (the checkpoint it went back to).
    Tick restartedFrom() const;
    // The tick at which the last rerun() found the previous run's state and kept the rest of
    // it; kForever when it simulated on to its end (or stopped).
    Tick rejoinedAt() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Runs the scenario on a virtual clock (docs/SCENARIO.md sections 1-6). Deterministic: the same
// scenario gives the same trace, every time. O(n log n) in the number of actions at worst.
// The scenario must be valid (as the loader guarantees): storage indices in range, ttl > 0.
Trace simulate(const Scenario &scenario);
// The same schedule with fencing forced on or off (compare mode, `--fencing`).
Trace simulate(const Scenario &scenario, bool fencing);
// The same, into an existing trace whose buffers are reused.
void simulateInto(const Scenario &scenario, bool fencing, Trace &trace);
// The summary of that run (Simulator::summarize), without a trace.
Summary summarize(const Scenario &scenario, bool fencing);

// True when `fenced`, a complete fenced run, is also what the unfenced run of its scenario
// does, event for event, with the same summary: fencing decides one thing only, whether a
// storage applies a write, and this run applied every write. (Records that only fencing fills
// still differ: max_token, the token a restart forgot, Trace::fencing.) A sweep then skips the
// unfenced run.
bool unfencedRunsAlike(const Trace &fenced);

// The value a write carried.
const QString &writeValue(const Scenario &scenario, const Write &write);
// The tick at which the grant's (or renewal's) client judges that lease expired by its own
// clock (section 11): the second "expires" mark, after the real one when the clock is slow.
Tick ownLeaseEnd(const Scenario &scenario, const Grant &grant);

// Section 12's groups of a run's writes into trace.groups, and the summary's count of partial
// ones: keyed by client and name, a storage written twice in one group counted once, by its
// last write in the file. `noEvents`: a summary-only run's trace, whose every write record is
// a write sent (it has no events to find them by).
void collectGroups(const Scenario &scenario, Trace &trace, bool noEvents = false);

// (A storage's state at a tick, storageStateAt, is in runstate.h with the rest of the state.)

} // namespace Core
