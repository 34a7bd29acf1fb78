#pragma once

// Field-by-field comparison of two traces, naming the first field that differs.

#include "trace.h"

#include <QString>

namespace TestSupport {

// Every field of two traces.
inline bool sameTrace(const Core::Trace &a, const Core::Trace &b, QString *why)
{
#define SAME(expr)                                                                                 \
    if (!(expr)) {                                                                                 \
        *why = QStringLiteral(#expr);                                                              \
        return false;                                                                              \
    }
    SAME(a.fencing == b.fencing);
    SAME(a.tokens == b.tokens);
    SAME(a.pendingFrom == b.pendingFrom);
    SAME(a.horizon == b.horizon);
    SAME(a.lastTick == b.lastTick);
    SAME(a.events.size() == b.events.size());
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const Core::Event &x = a.events[i], &y = b.events[i];
        SAME(x.tick == y.tick && x.ref == y.ref && x.client == y.client && x.kind == y.kind);
    }
    SAME(a.grants.size() == b.grants.size());
    for (std::size_t i = 0; i < a.grants.size(); ++i) {
        const Core::Grant &x = a.grants[i], &y = b.grants[i];
        SAME(x.at == y.at && x.expires == y.expires && x.token == y.token && x.epoch == y.epoch &&
             x.client == y.client && x.action == y.action && x.renewal == y.renewal &&
             x.keepalive == y.keepalive);
    }
    SAME(a.refusals.size() == b.refusals.size());
    for (std::size_t i = 0; i < a.refusals.size(); ++i) {
        const Core::Refusal &x = a.refusals[i], &y = b.refusals[i];
        SAME(x.at == y.at && x.client == y.client && x.action == y.action && x.holder == y.holder &&
             x.holderEpoch == y.holderEpoch && x.gaveUp == y.gaveUp);
    }
    SAME(a.waits.size() == b.waits.size());
    for (std::size_t i = 0; i < a.waits.size(); ++i) {
        const Core::Wait &x = a.waits[i], &y = b.waits[i];
        SAME(x.from == y.from && x.to == y.to && x.key == y.key && x.client == y.client &&
             x.action == y.action && x.outcome == y.outcome && x.granted == y.granted);
    }
    SAME(a.lockEvents.size() == b.lockEvents.size());
    for (std::size_t i = 0; i < a.lockEvents.size(); ++i) {
        const Core::LockEvent &x = a.lockEvents[i], &y = b.lockEvents[i];
        SAME(x.tick == y.tick && x.counter == y.counter && x.ref == y.ref && x.kind == y.kind &&
             x.holder == y.holder && x.expires == y.expires);
    }
    SAME(a.releases.size() == b.releases.size());
    for (std::size_t i = 0; i < a.releases.size(); ++i) {
        const Core::Release &x = a.releases[i], &y = b.releases[i];
        SAME(x.at == y.at && x.client == y.client && x.action == y.action && x.epoch == y.epoch &&
             x.effective == y.effective);
    }
    SAME(a.writes.size() == b.writes.size());
    for (std::size_t i = 0; i < a.writes.size(); ++i) {
        const Core::Write &x = a.writes[i], &y = b.writes[i];
        SAME(x.sentAt == y.sentAt && x.arrivedAt == y.arrivedAt && a.tokenOf(x) == b.tokenOf(y) &&
             x.maxToken == y.maxToken && x.epoch == y.epoch && x.client == y.client &&
             x.action == y.action && x.storage == y.storage && x.overwrote == y.overwrote &&
             x.result == y.result && x.tagged == y.tagged && x.expired == y.expired &&
             x.applied == y.applied);
    }
    SAME(a.leases.size() == b.leases.size());
    for (std::size_t i = 0; i < a.leases.size(); ++i) {
        const Core::Lease &x = a.leases[i], &y = b.leases[i];
        SAME(x.start == y.start && x.end == y.end && x.token == y.token && x.epoch == y.epoch &&
             x.client == y.client && x.released == y.released);
    }
    SAME(a.clientEvents == b.clientEvents);
    SAME(a.freezes.size() == b.freezes.size());
    for (std::size_t c = 0; c < a.freezes.size(); ++c) {
        SAME(a.freezes[c].size() == b.freezes[c].size());
        for (std::size_t i = 0; i < a.freezes[c].size(); ++i)
            SAME(a.freezes[c][i].from == b.freezes[c][i].from &&
                 a.freezes[c][i].to == b.freezes[c][i].to);
    }
    SAME(a.beliefs.size() == b.beliefs.size());
    for (std::size_t c = 0; c < a.beliefs.size(); ++c) {
        SAME(a.beliefs[c].size() == b.beliefs[c].size());
        for (std::size_t i = 0; i < a.beliefs[c].size(); ++i) {
            const Core::Belief &x = a.beliefs[c][i], &y = b.beliefs[c][i];
            SAME(x.from == y.from && x.to == y.to && x.epoch == y.epoch && x.end == y.end);
        }
    }
    SAME(a.storageWrites == b.storageWrites);
    SAME(a.storageIncidents == b.storageIncidents);
    SAME(a.finals.size() == b.finals.size());
    for (std::size_t i = 0; i < a.finals.size(); ++i)
        SAME(a.finals[i].value == b.finals[i].value &&
             a.finals[i].maxToken == b.finals[i].maxToken &&
             a.finals[i].lastWrite == b.finals[i].lastWrite &&
             a.finals[i].version == b.finals[i].version);
    SAME(a.summary.accepted == b.summary.accepted && a.summary.rejected == b.summary.rejected &&
         a.summary.corrupted == b.summary.corrupted && a.summary.lockedOut == b.summary.lockedOut &&
         a.summary.skipped == b.summary.skipped && a.summary.partial == b.summary.partial);
    // sections 11 and 12
    SAME(a.checks.size() == b.checks.size());
    for (std::size_t i = 0; i < a.checks.size(); ++i) {
        const Core::Check &x = a.checks[i], &y = b.checks[i];
        SAME(x.at == y.at && x.sendAt == y.sendAt && x.client == y.client &&
             x.action == y.action && x.epoch == y.epoch && x.write == y.write &&
             x.passed == y.passed);
    }
    SAME(a.skips.size() == b.skips.size());
    for (std::size_t i = 0; i < a.skips.size(); ++i)
        SAME(a.skips[i].at == b.skips[i].at && a.skips[i].client == b.skips[i].client &&
             a.skips[i].action == b.skips[i].action && a.skips[i].epoch == b.skips[i].epoch &&
             a.skips[i].believed == b.skips[i].believed);
    SAME(a.lost.size() == b.lost.size());
    for (std::size_t i = 0; i < a.lost.size(); ++i)
        SAME(a.lost[i].at == b.lost[i].at && a.lost[i].client == b.lost[i].client &&
             a.lost[i].epoch == b.lost[i].epoch && a.lost[i].reason == b.lost[i].reason);
    SAME(a.reads.size() == b.reads.size());
    for (std::size_t i = 0; i < a.reads.size(); ++i) {
        const Core::Read &x = a.reads[i], &y = b.reads[i];
        SAME(x.sentAt == y.sentAt && x.arrivedAt == y.arrivedAt && x.version == y.version &&
             x.client == y.client && x.action == y.action && x.storage == y.storage &&
             x.arrived == y.arrived);
    }
    SAME(a.restarts.size() == b.restarts.size());
    for (std::size_t i = 0; i < a.restarts.size(); ++i)
        SAME(a.restarts[i].tick == b.restarts[i].tick &&
             a.restarts[i].forgot == b.restarts[i].forgot &&
             a.restarts[i].storage == b.restarts[i].storage && a.restarts[i].ref == b.restarts[i].ref);
    SAME(a.writeVersions.size() == b.writeVersions.size());
    for (std::size_t i = 0; i < a.writeVersions.size(); ++i)
        SAME(a.writeVersions[i].expected == b.writeVersions[i].expected &&
             a.writeVersions[i].version == b.writeVersions[i].version);
    SAME(a.groups.size() == b.groups.size());
    for (std::size_t i = 0; i < a.groups.size(); ++i) {
        const Core::GroupOutcome &x = a.groups[i], &y = b.groups[i];
        SAME(x.name == y.name && x.client == y.client && x.applied == y.applied &&
             x.notApplied == y.notApplied && x.writes == y.writes && x.partial == y.partial);
    }
#undef SAME
    return true;
}

} // namespace TestSupport
