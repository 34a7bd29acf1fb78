// A few words for one event, for every visible row of the event log: O(log n) each.
#include "explain.h"
#include "explaindetail.h"
#include "lockfacts.h"

#include "runstate.h"
#include "tokensource.h"

#include "simulator.h"

#include <QStringList>

#include <algorithm>

namespace Core {

namespace {

using namespace ExplainDetail;

} // namespace

QString briefEvent(const Scenario &s, const Trace &trace, std::uint32_t eventIndex)
{
    if (eventIndex >= trace.events.size())
        return {};
    const Event &e = trace.events[eventIndex];
    switch (e.kind) {
    case EventKind::Grant: {
        const Grant &g = trace.grants[e.ref];
        return QStringLiteral("new owner: token %1 until %2")
            .arg(tok(trace, g.token), at(g.expires));
    }
    case EventKind::Renewal: {
        const Grant &g = trace.grants[e.ref];
        if (g.keepalive)
            return QStringLiteral("keepalive: same token %1, now until %2")
                .arg(tok(trace, g.token), at(g.expires));
        return QStringLiteral("same token %1, now until %2")
            .arg(tok(trace, g.token), at(g.expires));
    }
    case EventKind::Refusal: {
        const Refusal &r = trace.refusals[e.ref];
        return QStringLiteral("%1 holds the lock").arg(clientName(s, r.holder));
    }
    case EventKind::Release:
        return trace.releases[e.ref].effective ? QStringLiteral("the lock is free")
                                               : QStringLiteral("not the holder: no effect");
    case EventKind::PauseStart: {
        const Action &p = s.clients[e.client].actions[e.ref];
        return QStringLiteral("frozen until %1").arg(at(p.at + p.length()));
    }
    case EventKind::PauseEnd:
        return QStringLiteral("wakes up; deferred actions run");
    case EventKind::WriteSent: {
        const Write &w = trace.writes[e.ref];
        if (w.arrivedAt == w.sentAt)
            return QStringLiteral("%1 to %2")
                .arg(quoted(writeValue(s, w)), storageName(s, w.storage));
        return QStringLiteral("%1 to %2, in flight until %3")
            .arg(quoted(writeValue(s, w)), storageName(s, w.storage), at(w.arrivedAt));
    }
    case EventKind::ReadSent:
    case EventKind::ReadArrived:
    case EventKind::Checked:
    case EventKind::Skipped:
    case EventKind::Lost:
        return briefPitfallEvent(s, trace, e);
    case EventKind::WriteArrived: {
        const Write &w = trace.writes[e.ref];
        if (s.storages[w.storage].check == StorageCheck::Version && !trace.writeVersions.empty()) {
            const WriteVersion &v = trace.writeVersions[e.ref];
            if (w.applied)
                return w.result == WriteResult::Corrupted
                           ? QStringLiteral("expected v%1, found v%2: overwrote unseen data")
                                 .arg(num(v.expected), num(v.version - 1))
                           : QStringLiteral("v%1 matched: stored, now v%2")
                                 .arg(num(v.expected), num(v.version));
            return QStringLiteral("expected version %1, found %2: rejected")
                .arg(num(v.expected), num(v.version));
        }
        if (s.clients[w.client].bypass && w.applied)
            return w.result == WriteResult::Corrupted
                       ? QStringLiteral("unchecked (bypass): overwrote newer data")
                       : QStringLiteral("unchecked (bypass): stored");
        if (trace.fencing && (s.storages[w.storage].check == StorageCheck::Owner ||
                              s.storages[w.storage].check == StorageCheck::Same))
            return briefOwnerOrSameWrite(s, trace, w);
        switch (w.result) {
        case WriteResult::Accepted:
            return trace.fencing
                       ? QStringLiteral("stored, max_token %1").arg(tok(trace, w.maxToken))
                       : QStringLiteral("stored (fencing off)");
        case WriteResult::Rejected:
            if (!w.tagged)
                return QStringLiteral("untagged: rejected");
            return QStringLiteral("token %1 %2 max %3: rejected, lock lost")
                .arg(tok(trace, trace.tokenOf(w)),
                     trace.tokenOf(w) == w.maxToken ? QStringLiteral("=") : QStringLiteral("<"),
                     tok(trace, w.maxToken));
        case WriteResult::Corrupted:
            if (w.overwrote != kNone && trace.tokens == TokenSource::KafkaEpoch)
                return QStringLiteral("appended after newer records (%1 from %2): duplicates")
                    .arg(quoted(writeValue(s, trace.writes[w.overwrote])),
                         clientName(s, trace.writes[w.overwrote].client));
            if (w.overwrote != kNone)
                return QStringLiteral("overwrote newer data (%1 from %2)")
                    .arg(quoted(writeValue(s, trace.writes[w.overwrote])),
                         clientName(s, trace.writes[w.overwrote].client));
            return QStringLiteral("overwrote newer data");
        case WriteResult::LockedOut:
            return QStringLiteral("live holder turned away (token %1, max %2)")
                .arg(tok(trace, trace.tokenOf(w)), tok(trace, w.maxToken));
        }
        break;
    }
    }
    return {};
}

} // namespace Core
