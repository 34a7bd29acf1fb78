#pragma once

// A question made from a run, not written by hand (docs/LESSONS.md, "Questions made from a
// run"): "what happens to this write?" with the outcomes a write can have as options. A student
// asks it of a write in a run they changed ("Predict"), and a teacher adds it to a scene from
// the timeline ("ask what happens to this write"). Its options are claims like any other, so
// the simulator grades it, and a run in which the write has no outcome makes no option hold.

#include "lesson.h"
#include "trace.h"

#include <cstdint>

namespace Core {

// The write action `action` of `client` named so that it survives a drag (lesson.h): by its
// value when no other write of the client has that value, else by its value and its place
// among the client's writes of that value ("A's second write \"A\""). The action must be a
// write of the scenario.
WriteRef writeRefFor(const Scenario &scenario, std::uint32_t client, std::uint32_t action);

// "What happens to A's write \"A\"?": one option per outcome a write can meet (accepted,
// rejected, corrupted, locked out; skipped too for a write that checks its lease first), frozen
// at the end of the tick before `trace` settles the write (its arrival, or the check that
// skipped it). A write that has no outcome in `trace` (its client never got to it) is frozen
// before the run's last event; the question then has no option that holds, and says so.
LessonQuestion writeQuestion(const Scenario &scenario, const Trace &trace, std::uint32_t client,
                             std::uint32_t action);

} // namespace Core
