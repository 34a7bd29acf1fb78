#include "trace.h"

#include <algorithm>

namespace Core {

const Lease *Trace::leaseAt(Tick t) const
{
    // leases are in grant order, so their starts are sorted
    auto it = std::upper_bound(leases.begin(), leases.end(), t,
                               [](Tick tick, const Lease &l) { return tick < l.start; });
    if (it == leases.begin())
        return nullptr;
    const Lease &l = *(it - 1);
    return t < l.end ? &l : nullptr;
}

std::uint32_t Trace::firstEventAt(Tick t) const
{
    auto it = std::lower_bound(events.begin(), events.end(), t,
                               [](const Event &e, Tick tick) { return e.tick < tick; });
    return std::uint32_t(it - events.begin());
}

std::uint32_t Trace::lastEventAtOrBefore(Tick t) const
{
    auto it = std::upper_bound(events.begin(), events.end(), t,
                               [](Tick tick, const Event &e) { return tick < e.tick; });
    return it == events.begin() ? kNone : std::uint32_t(it - events.begin() - 1);
}

QString toString(WriteResult result)
{
    switch (result) {
    case WriteResult::Accepted:
        return QStringLiteral("accepted");
    case WriteResult::Rejected:
        return QStringLiteral("rejected");
    case WriteResult::Corrupted:
        return QStringLiteral("corrupted");
    case WriteResult::LockedOut:
        return QStringLiteral("lockedOut");
    }
    return {};
}

QString toString(EventKind kind)
{
    switch (kind) {
    case EventKind::Grant:
        return QStringLiteral("grant");
    case EventKind::Renewal:
        return QStringLiteral("renewal");
    case EventKind::Refusal:
        return QStringLiteral("refusal");
    case EventKind::Release:
        return QStringLiteral("release");
    case EventKind::PauseStart:
        return QStringLiteral("pauseStart");
    case EventKind::PauseEnd:
        return QStringLiteral("pauseEnd");
    case EventKind::WriteSent:
        return QStringLiteral("writeSent");
    case EventKind::WriteArrived:
        return QStringLiteral("writeArrived");
    }
    return {};
}

} // namespace Core
