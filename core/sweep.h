#pragma once

// Sweeps: how often does a failure happen as one quantity of a schedule varies? For each value
// (a point) the scenario itself, or N seeded schedules near it (its own actions, each moved a
// few ticks) or shaped like it (schedulegen.h), are simulated fenced and unfenced and checked;
// a point counts the schedules with at least one write of each outcome. Runs on every core,
// can be cancelled and resumed, and gives the same numbers for a seed on any number of threads:
// schedule number r of every point is drawn from scheduleSeed(seed, r) whoever simulates it,
// and counts are sums.

#include "scenario.h"
#include "schedulegen.h"
#include "trace.h"

#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace Core {

// A quantity a sweep can vary: one entry of quantities(). Adding one is one entry there.
struct Quantity
{
    QString name;  // on the command line: --vary pause=1..40
    QString label; // on a chart axis
    Tick min = 0;  // valid values
    Tick max = 0;
    void (*apply)(Scenario &scenario, Tick value) = nullptr;
    // "" when the quantity changes something in the scenario, else why not ("the scenario has
    // no checked write"); nullptr: it always applies
    QString (*missing)(const Scenario &scenario) = nullptr;
};

const std::vector<Quantity> &quantities();
// A first range to try for a quantity (the sweep panel's values when it is chosen): a clock
// rate of 1..40 thousandths would say nothing, 500..1500 around real speed does.
struct SuggestedRange
{
    Tick from = 0;
    Tick to = 0;
    Tick step = 1;
};
SuggestedRange suggestedRange(const Quantity &quantity);
const Quantity *findQuantity(const QString &name); // nullptr when unknown
QStringList quantityNames();

// A failure (or outcome) a sweep counts and a search looks for: one entry of outcomes().
struct OutcomeSpec
{
    QString name;                                          // "corrupted"
    QString label;                                         // "corrupted write"
    std::uint64_t (*writes)(const Trace &trace) = nullptr; // how many writes (groups) had it
};

// corrupted, lockedOut, rejected (writes), partial (groups half applied), skipped (checked
// writes that sent nothing): the order of the CSV and JSON columns
inline constexpr std::size_t kOutcomeCount = 5;
const std::array<OutcomeSpec, kOutcomeCount> &outcomes();
int outcomeIndex(const QString &name); // -1 when unknown

// The 95% Wilson score interval of `successes` out of `trials` (z = 1.96); [0, 1] for none.
struct Interval
{
    double low = 0;
    double high = 1;
};
Interval wilsonInterval(std::uint64_t successes, std::uint64_t trials);

struct SweepAxis
{
    const Quantity *quantity = nullptr;
    std::vector<Tick> values;
};

// The most an action of a schedule near the scenario moves: the bound of the other durations.
inline constexpr Tick kMaxJitter = 1'000'000;

// What the schedules of a point are (schedulesSentence() says it in a sentence).
enum class SweepSchedules : std::uint8_t
{
    // The scenario itself, once per point.
    Fixed,
    // The scenario's own actions, each client's in their order, each moved by a seeded amount
    // of at most `jitter` ticks earlier or later (nearSchedule(), schedulegen.h): the story
    // stays, so the quantity varied is what decides.
    Near,
    // Random schedules shaped like the scenario (generateSchedule(), schedulegen.h): the same
    // clients and kinds of actions, each action at a random tick. Everything moves at once,
    // so one quantity rarely decides.
    Shaped,
};
QString toString(SweepSchedules schedules); // "fixed", "near", "shaped"
std::optional<SweepSchedules> sweepSchedulesFromString(const QString &name);

struct SweepSpec
{
    Scenario scenario; // the schedule itself (Fixed), or what the schedules are drawn from
    SweepAxis vary;
    SweepAxis vary2; // no quantity: a single curve
    SweepSchedules schedules = SweepSchedules::Near;
    std::uint32_t runs = 100; // schedules per point (Near, Shaped)
    Tick jitter = 1;          // Near: the most an action moves, in ticks (1..1000000)
    std::uint64_t seed = 1;

    bool random() const { return schedules != SweepSchedules::Fixed; }
    std::size_t pointCount() const;
    std::uint32_t runsPerPoint() const { return random() ? runs : 1; }
    // Point p varies vary.values[p % n] and vary2.values[p / n]: each curve is contiguous.
    Tick x(std::size_t point) const;
    std::optional<Tick> x2(std::size_t point) const;
};

// Checks the axes (a known quantity that applies to the scenario, values in its range, at most
// 10000 points, keepalives the loader would accept), the runs and the jitter. Returns "" or an
// error naming the problem.
QString validate(const SweepSpec &spec);

// One sentence saying what the schedules of a point are ("Each point runs 100 schedules near
// the scenario: ..."): the sweep panel shows it under its choices, `fencescope-cli sweep` puts
// it in its JSON and on a terminal.
QString schedulesSentence(const SweepSpec &spec);

struct OutcomeStat
{
    std::uint32_t schedules = 0;    // with at least one such write
    std::uint32_t firstRun = kNone; // the first such schedule
    std::uint32_t worstRun = kNone; // the one with the most such writes (the first of those)
    std::uint64_t worstWrites = 0;
    std::uint64_t writes = 0; // over all schedules

    void add(std::uint32_t run, std::uint64_t count);
    void merge(const OutcomeStat &other);
    friend bool operator==(const OutcomeStat &a, const OutcomeStat &b)
    {
        return a.schedules == b.schedules && a.firstRun == b.firstRun && a.worstRun == b.worstRun &&
               a.worstWrites == b.worstWrites && a.writes == b.writes;
    }
};

struct PointResult
{
    std::uint32_t runs = 0; // schedules simulated; runsPerPoint() once done
    bool done = false;
    std::array<OutcomeStat, kOutcomeCount> fenced{};
    std::array<OutcomeStat, kOutcomeCount> unfenced{};

    const std::array<OutcomeStat, kOutcomeCount> &side(bool fencing) const
    {
        return fencing ? fenced : unfenced;
    }
    friend bool operator==(const PointResult &a, const PointResult &b)
    {
        return a.runs == b.runs && a.done == b.done && a.fenced == b.fenced &&
               a.unfenced == b.unfenced;
    }
};

struct SweepResult
{
    std::vector<PointResult> points; // one per point of the spec
    bool complete() const;
    std::size_t donePoints() const;
    friend bool operator==(const SweepResult &a, const SweepResult &b)
    {
        return a.points == b.points;
    }
};

struct SweepProgress
{
    std::uint64_t schedules = 0; // simulated so far, this call and the finished points before
    std::uint64_t total = 0;
};

// Runs the points of `spec` (which must pass validate()) not yet done in `result` (empty: a fresh
// sweep) on `threads` threads (0: one per core). Stops soon after *cancel turns true: finished
// points keep their numbers and done flag, unfinished points are cleared, so calling again resumes.
// `progress`, when given, is called on the calling thread about ten times a second and once at the
// end. Returns false when cancelled.
bool runSweep(const SweepSpec &spec, SweepResult *result, int threads = 0,
              const std::atomic<bool> *cancel = nullptr,
              const std::function<void(const SweepProgress &)> &progress = {});

// The scenario of a point with its quantities applied, and schedule `run` of that point (the
// point's scenario itself when Fixed), titled and described so it can be opened alone.
Scenario pointScenario(const SweepSpec &spec, std::size_t point);
Scenario sweepSchedule(const SweepSpec &spec, std::size_t point, std::uint32_t run);
// "pause = 12" or "pause = 12, ttl = 10"
QString pointLabel(const SweepSpec &spec, std::size_t point);

} // namespace Core
