#pragma once

// The steps of a run as a story: the ticks a presentation, a storyboard and an animation stop
// at, what each step is about, and its sentence. A step is a tick at which a client acts, a
// write or read arrives, or the lock service or a storage goes through something a learner
// should see: a restore, a failover, a failed election, a clock step, a storage restart, the
// end of a lock-delay. Background puts (etcd) are not steps of their own: the step they fall in
// mentions them. Answered here once; every view that steps through a run asks here.

#include "scenario.h"
#include "trace.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace Core {

struct StoryStep
{
    // What the step is mainly about; the rest of its tick is told in lines of their own.
    enum class Subject : std::uint8_t {
        Event,          // ref: index into Trace::events (Core::mainEventAt of the tick)
        LockEvent,      // ref: index into Trace::lockEvents
        StorageRestart, // ref: index into Trace::restarts
        LockDelayEnd,   // ref: index into Trace::leases, the lease whose lock-delay ends
    };
    Tick tick = 0;
    Subject subject = Subject::Event;
    std::uint32_t ref = kNone;

    friend bool operator==(const StoryStep &a, const StoryStep &b)
    {
        return a.tick == b.tick && a.subject == b.subject && a.ref == b.ref;
    }
};

// Every step of the trace, in time order, one per tick. O(events + lock events + restarts +
// leases). A partial trace gives the steps of what it holds.
std::vector<StoryStep> storySteps(const Scenario &scenario, const Trace &trace);
// Only the ticks of those steps.
std::vector<Tick> storyStepTicks(const Scenario &scenario, const Trace &trace);
// The step at tick t, or a step with ref kNone when nothing a step is made of happens then.
StoryStep storyStepAt(const Scenario &scenario, const Trace &trace, Tick t);

// The step's sentence (a full explanation of its subject).
QString explainStep(const Scenario &scenario, const Trace &trace, const StoryStep &step);
// Everything else of the step's tick, a short line each ("B: new owner: token 2 until t=22"),
// and the background puts since the step before (`since`: that step's tick; none before the
// first, pass kForever), which are told here and never made steps of their own.
QStringList stepDetails(const Scenario &scenario, const Trace &trace, const StoryStep &step,
                        Tick since = kForever);

// The setting of a run before anything happens, without a word of how it ends: who takes part,
// where the tokens come from, what each storage checks. "A and B share one lock with counter
// tokens (1, 2, 3, ...) and write to db, which rejects a token below the highest it has
// seen."
QString explainSetup(const Scenario &scenario);

// The sentences of the lock service's and the storages' own events, also for tooltips.
QString explainLockEvent(const Scenario &scenario, const Trace &trace, std::uint32_t lockEvent);
QString explainRestart(const Scenario &scenario, const Trace &trace, std::uint32_t restart);
QString explainLockDelayEnd(const Scenario &scenario, const Trace &trace, std::uint32_t lease);

} // namespace Core
