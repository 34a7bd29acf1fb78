#pragma once

// Find a failing schedule and shrink it: search seeded schedules shaped like a scenario for one
// where a chosen outcome happens (say a corrupted write with fencing off) and tells its story
// (failurestory.h: a stale write, unless any such write is asked for), then take it apart
// while the failure persists: drop clients and actions, shorten TTLs, pauses, delays, the gaps
// of checked writes and the periods of keepalives, move actions earlier. The result is
// 1-minimal: removing any one action, or shortening any one duration (gaps and keepalive
// periods included) by one tick, makes the failure disappear. Every step leaves a scenario the
// loader accepts: a keepalive period stays >= 1, a gap stays on its checked write, a group or a
// read only loses members or gets shorter. Every accepted change is a step that can
// be replayed on the schedule found.

#include "scenario.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace Core {

struct FailureTarget
{
    std::size_t outcome = 0; // index into outcomes() (sweep.h): 0 is corrupted
    bool fencing = false;
    // false: only a write that tells the outcome's story counts (storyCount, failurestory.h);
    // true: any write the checker gives that outcome
    bool any = false;
};

// True when simulating the scenario with target.fencing gives at least one such write.
bool hasFailure(const Scenario &scenario, const FailureTarget &target);
// What the target looks for, in a phrase: "stale corrupted write", "locked-out write of the
// live holder", "half-applied update"; with any, "corrupted write".
QString targetText(const FailureTarget &target);

// The failure in a run of `scenario` with target.fencing, in the simulator's words: the
// explanation of the first write that is one (that tells the story, unless any), of the first
// half-applied group, or of the first skipped write's skip. "" when the run has none.
QString explainFailure(const Scenario &scenario, const FailureTarget &target);

struct FindResult
{
    std::optional<Scenario> schedule; // the first failing schedule, titled and described
    std::uint64_t run = 0;            // its number: drawn from scheduleSeed(seed, run)
    std::uint64_t tried = 0;
};

// Tries schedules 0, 1, ... of the scenario's shape, at most `maxTries`, until one fails.
FindResult findFailure(const Scenario &shape, const FailureTarget &target, std::uint64_t seed,
                       std::uint64_t maxTries, const std::atomic<bool> *cancel = nullptr);

enum class ShrinkMove : std::uint8_t
{
    RemoveClient, // the client's lane and every action in it
    RemoveAction,
    Shorten,          // an acquire's TTL, a pause's length, a write's or read's delay: from -> to
    MoveEarlier,      // an action's tick: from -> to
    ShortenGap,       // a checked write's gap: from -> to (>= 0)
    ShortenKeepalive, // an acquire's keepalive period: from -> to (>= 1)
};

struct ShrinkStep
{
    ShrinkMove move = ShrinkMove::RemoveAction;
    std::uint32_t client = 0; // indices in the scenario before the step
    std::uint32_t action = 0;
    Tick from = 0;
    Tick to = 0;
    QString text; // "removed B's write "B2" at t=13"
};

struct ShrinkResult
{
    Scenario shrunk;
    std::vector<ShrinkStep> steps;
    std::uint64_t simulations = 0;
    bool cancelled = false; // stopped early: shrunk still fails but may not be 1-minimal
};

// Shrinks a failing scenario (hasFailure(scenario, target) must hold).
ShrinkResult shrink(const Scenario &scenario, const FailureTarget &target,
                    const std::atomic<bool> *cancel = nullptr);

// The shrunk schedule titled and described for opening alone: the found schedule's description
// (seed and search) followed by every step.
Scenario describedResult(const Scenario &found, const ShrinkResult &result);

// Replays one step on the scenario it was taken from.
void applyStep(Scenario &scenario, const ShrinkStep &step);
// The scenario after the first `count` steps of a shrink of `start`.
Scenario replaySteps(const Scenario &start, const std::vector<ShrinkStep> &steps,
                     std::size_t count);

} // namespace Core
