#include "failurestory.h"

#include "sweep.h"

namespace Core {

namespace {

// The write result an outcome counts, for the outcomes that are one write's result.
std::optional<WriteResult> resultOf(std::size_t outcome)
{
    const QString &name = outcomes()[outcome].name;
    if (name == QLatin1String("corrupted"))
        return WriteResult::Corrupted;
    if (name == QLatin1String("rejected"))
        return WriteResult::Rejected;
    if (name == QLatin1String("lockedOut"))
        return WriteResult::LockedOut;
    return std::nullopt; // partial, skipped
}

bool tellsStory(const Scenario &scenario, const Trace &trace, const Write &w, FailureStory story)
{
    switch (story) {
    case FailureStory::StaleWrite:
        return isStaleWrite(scenario, trace, w);
    case FailureStory::HoldersWrite:
        return w.epoch != 0 && !w.expired;
    case FailureStory::Counted:
        break;
    }
    return true;
}

} // namespace

FailureStory storyOf(std::size_t outcome)
{
    const std::optional<WriteResult> result = resultOf(outcome);
    if (!result)
        return FailureStory::Counted;
    // a stale writer's write is what a storage must turn away (rejected) and what overwrites
    // newer data when it does not (corrupted); a lock-out hurts the holder itself
    return *result == WriteResult::LockedOut ? FailureStory::HoldersWrite
                                             : FailureStory::StaleWrite;
}

QString storyText(std::size_t outcome)
{
    switch (storyOf(outcome)) {
    case FailureStory::StaleWrite:
        return QStringLiteral("a stale write: due while its writer held the lock, it arrived "
                              "after that lease had ended");
    case FailureStory::HoldersWrite:
        return QStringLiteral("the live holder's own write: it arrived while its writer held "
                              "the newest grant");
    case FailureStory::Counted:
        break;
    }
    return outcomes()[outcome].label;
}

bool isStaleWrite(const Scenario &scenario, const Trace &trace, const Write &w)
{
    if (w.epoch == 0 || !w.expired || w.epoch > trace.leases.size() ||
        w.client >= scenario.clients.size() ||
        w.action >= scenario.clients[w.client].actions.size())
        return false;
    const Lease &lease = trace.leases[w.epoch - 1];
    const Tick due = scenario.clients[w.client].actions[w.action].at;
    return lease.start <= due && due < lease.end;
}

std::uint64_t storyCount(const Scenario &scenario, const Trace &trace, std::size_t outcome)
{
    const std::optional<WriteResult> result = resultOf(outcome);
    if (!result)
        return outcomes()[outcome].writes(trace);
    const FailureStory story = storyOf(outcome);
    std::uint64_t n = 0;
    for (const Write &w : trace.writes)
        n += w.arrivedAt < trace.pendingFrom && w.result == *result &&
             tellsStory(scenario, trace, w, story);
    return n;
}

std::uint32_t firstStoryWrite(const Scenario &scenario, const Trace &trace, std::size_t outcome)
{
    const std::optional<WriteResult> result = resultOf(outcome);
    if (!result)
        return kNone;
    const FailureStory story = storyOf(outcome);
    for (std::size_t i = 0; i < trace.writes.size(); ++i) {
        const Write &w = trace.writes[i];
        if (w.arrivedAt < trace.pendingFrom && w.result == *result &&
            tellsStory(scenario, trace, w, story))
            return std::uint32_t(i);
    }
    return kNone;
}

} // namespace Core
