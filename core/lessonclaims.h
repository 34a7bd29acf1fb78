#pragma once

// Judging a lesson's claims on a run (docs/LESSONS.md, "Claims"). Every answer comes from the
// trace's own records and questions (a write's outcome event, the grants, the leases, the
// beliefs, the final states): nothing about the domain is worked out again here.

#include "lesson.h"
#include "trace.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace Core {

// What one claim comes to on one run.
struct ClaimVerdict
{
    // The claim does not fit this scenario or run: "place: problem", the place relative to the
    // claim ("write.client: unknown client \"C\" (known: A, B)"). Nothing else is set then.
    QString error;
    bool holds = false;
    // The event that settles the claim, true or false: a named write's arrival (or skip), a
    // named grant, the first write that has the outcome, the tick two holders overlap, a
    // storage's last change. kNone when only the end of the run settles it (then `decidedAt`
    // is the tick of the run's last event).
    Tick decidedAt = 0;
    std::uint32_t event = kNone;
    // The tick at which the run shows what the claim names (a named write's arrival or skip;
    // for a grant claim, the later of the grants it names), with what happens then, "A's write
    // \"A\" arrives": a question must freeze before it. kForever: the claim names nothing that
    // happens.
    Tick shownAt = kForever;
    QString shownWhat;
    // "some update is half applied" that holds: the first such group (index into
    // Trace::groups), which the reveal explains.
    std::uint32_t group = kNone;
};

// Judges `claim` on `trace`, the complete run of `scenario`.
ClaimVerdict judgeClaim(const Claim &claim, const Scenario &scenario, const Trace &trace);

// The tick of the run's last event (0 for a run with none): a question must freeze before it.
Tick lastEventTick(const Trace &trace);

// What a question comes to on one run.
struct QuestionVerdict
{
    std::vector<ClaimVerdict> options; // one per option, in order
    // The question does not fit the run: a claim names what the scenario lacks, or the freeze
    // tick shows the answer already. "place: problem", the place relative to the question
    // ("options[1].claim.write.client: ...", "freeze: ..."). What the loader refuses.
    QString error;
    // The question is not sound on this run: no option holds, several do (it says which), or
    // the right one is settled at or before the freeze, or after the view's range. What
    // `lesson check` reports and a question says before its reveal. Empty when sound.
    QString problem;
    int right = -1; // the option that holds, when exactly one does; else -1
    // The right option's deciding event: the reveal plays on to its tick.
    Tick reveal = 0;
    std::uint32_t revealEvent = kNone;

    bool sound() const { return error.isEmpty() && problem.isEmpty(); }
    std::vector<int> holding() const; // the options that hold, in order
};

// Judges every option of `question` on `trace`, the complete run of `scenario`, and checks the
// freeze tick against it; `view` (optional) is the scene's view, whose range the reveal must
// fall in.
QuestionVerdict judgeQuestion(const LessonQuestion &question, const Scenario &scenario,
                              const Trace &trace, const SceneView *view = nullptr);

// The reveal in the system's own words: the deciding event explained (explain.h), a half-applied
// group explained as one, or, when the whole run decides, the run's summary line.
QString revealExplanation(const Scenario &scenario, const Trace &trace,
                          const QuestionVerdict &verdict);

} // namespace Core
