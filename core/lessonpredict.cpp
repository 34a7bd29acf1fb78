// Questions made from a run (lessonpredict.h).

#include "lessonpredict.h"

#include "lessonclaims.h"

#include <algorithm>
#include <vector>

namespace Core {

WriteRef writeRefFor(const Scenario &scenario, std::uint32_t client, std::uint32_t action)
{
    const std::vector<Action> &actions = scenario.clients[client].actions;
    const Action &mine = actions[action];
    WriteRef ref;
    ref.client = scenario.clients[client].name;
    ref.value = mine.value;
    // the client's writes of the same value in the order they run (by tick, ties in listed
    // order), as a claim counts them (lessonclaims.cpp)
    std::vector<std::uint32_t> same;
    for (std::uint32_t i = 0; i < actions.size(); ++i)
        if (actions[i].kind == ActionKind::Write && actions[i].value == mine.value)
            same.push_back(i);
    if (same.size() > 1) {
        std::stable_sort(same.begin(), same.end(), [&](std::uint32_t a, std::uint32_t b) {
            return actions[a].at < actions[b].at;
        });
        ref.nth = std::uint32_t(std::find(same.begin(), same.end(), action) - same.begin()) + 1;
    }
    return ref;
}

LessonQuestion writeQuestion(const Scenario &scenario, const Trace &trace, std::uint32_t client,
                             std::uint32_t action)
{
    const WriteRef ref = writeRefFor(scenario, client, action);
    LessonQuestion q;
    q.prompt = QStringLiteral("What happens to %1?").arg(writeRefText(ref));
    std::vector<ClaimOutcome> outcomes{ClaimOutcome::Accepted, ClaimOutcome::Rejected,
                                       ClaimOutcome::Corrupted, ClaimOutcome::LockedOut};
    // a write that checks its lease first may send nothing at all (docs/SCENARIO.md section 11)
    if (scenario.clients[client].actions[action].check)
        outcomes.push_back(ClaimOutcome::Skipped);
    for (const ClaimOutcome o : outcomes) {
        LessonOption option;
        option.claim.kind = ClaimKind::Write;
        option.claim.write = ref;
        option.claim.outcome = o;
        q.options.push_back(option);
    }
    // frozen just before the run settles the write: what it shows then, the room predicts
    const ClaimVerdict v = judgeClaim(q.options.front().claim, scenario, trace);
    const Tick settled = v.shownAt != kForever ? v.shownAt : lastEventTick(trace);
    q.freeze = settled > 0 ? settled - 1 : 0;
    return q;
}

} // namespace Core
