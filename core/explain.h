#pragma once

// Plain-language text for the events of a Trace: what happened, and why, in the words of the
// fencing-token literature. Used by the narration panel, the event log, tooltips and the CLI.
// Only reads the trace; never simulates again (a trace may hold millions of events).

#include "scenario.h"
#include "trace.h"

#include <QString>

#include <cstdint>

namespace Core {

// A full explanation of one event (a sentence or three), e.g. for a rejection: "t=30: A wrote
// 'A' with token 1, but the storage db had already accepted token 2 from B at t=13, so it
// rejected the write and told A its lock was lost (max token 2)."
QString explainEvent(const Scenario &scenario, const Trace &trace, std::uint32_t eventIndex);
// The full explanation of one write's outcome (index into Trace::writes).
QString explainWrite(const Scenario &scenario, const Trace &trace, std::uint32_t writeIndex);
// A few words for one event, cheap enough for every visible row of a table: O(log n).
QString briefEvent(const Scenario &scenario, const Trace &trace, std::uint32_t eventIndex);
// A group of writes across storages (index into Trace::groups): what each storage did, and
// for a half-applied one, why that is a failure ("db accepted, cache rejected: ...").
QString explainGroup(const Scenario &scenario, const Trace &trace, std::uint32_t group);
// One line for the whole run: "Fencing on: 1 accepted, 1 rejected, 0 corrupted, 0 locked out.
// Safety held."
QString summarize(const Scenario &scenario, const Trace &trace);

// The event that tells the story of tick `tick` best (a write's arrival over a grant, over a
// refusal, a release, a pause, a write sent), for a step of a presentation or a storyboard
// frame; kNone when nothing happens then. The first of equals wins. O(log n + events at tick).
std::uint32_t mainEventAt(const Trace &trace, Tick tick);

// The action of the scenario behind an event (index into its client's actions).
std::uint32_t actionOfEvent(const Trace &trace, std::uint32_t eventIndex);
// The event that tells an action's outcome: a write's arrival, an acquire's grant, renewal or
// refusal, a release, a pause's start. kNone if the action has not run in this trace.
std::uint32_t outcomeEvent(const Scenario &scenario, const Trace &trace, std::uint32_t client,
                           std::uint32_t action);
// The write that raised the storage's max_token to the value `writeIndex` saw, among the writes
// that arrived there before it; kNone if there is none. Binary search: with fencing on,
// max_token never decreases over a storage's arrivals.
std::uint32_t maxTokenSource(const Trace &trace, std::uint32_t writeIndex);

} // namespace Core
