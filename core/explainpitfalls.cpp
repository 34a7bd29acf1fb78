// The explanations of docs/SCENARIO.md sections 11 and 12: what a keepalive, a check, a read, a
// compare-and-set, a bypass write, a restart and a half-applied group did, and why.

#include "explaindetail.h"

#include "runstate.h"
#include "simulator.h"

#include <QStringList>

#include <algorithm>

namespace Core::ExplainDetail {

QString explainRead(const Scenario &s, const Trace &trace, const Read &r, bool arrived)
{
    Q_UNUSED(trace)
    const QString who = clientName(s, r.client);
    const QString storage = storageName(s, r.storage);
    if (!arrived)
        return QStringLiteral("%1: %2 asked the storage %3 for its version; the reply comes at %4.")
            .arg(at(r.sentAt), who, storage, at(r.arrivedAt));
    return QStringLiteral("%1: %2 read the storage %3 at version %4. A compare-and-set write "
                          "from %2 there now expects version %4: it applies only if nobody "
                          "wrote in between.")
        .arg(at(r.arrivedAt), who, storage, num(r.version));
}

QString explainCheck(const Scenario &s, const Trace &trace, const Check &c)
{
    const QString who = clientName(s, c.client);
    const Action &a = s.clients[c.client].actions[c.action];
    QString text = QStringLiteral("%1: %2 checked its lease before writing %3, by its own clock, "
                                  "and found it still live.")
                       .arg(at(c.at), who, quoted(a.value));
    if (c.sendAt > c.at + a.gap())
        text += QStringLiteral(" It meant to send %1 ticks later, but a pause froze it in between: "
                               "it sends at %2, when it thaws, without checking again. The check "
                               "came before the pause, so it proves nothing (checking the lease "
                               "instead of fencing, Kleppmann 2016); only a fencing token "
                               "protects the storage.")
                    .arg(num(a.gap()), at(c.sendAt));
    else if (a.gap())
        text += QStringLiteral(" It sends %1 ticks later, at %2, without checking again: a pause "
                               "in that gap would make the check worthless.")
                    .arg(num(a.gap()), at(c.sendAt));
    Q_UNUSED(trace)
    return text;
}

QString explainSkip(const Scenario &s, const Trace &trace, const Skip &k)
{
    Q_UNUSED(trace)
    const QString who = clientName(s, k.client);
    const Action &a = s.clients[k.client].actions[k.action];
    if (!k.believed)
        return QStringLiteral("%1: %2 checked before writing %3 and skipped it: it does not believe "
                              "it holds the lock.")
            .arg(at(k.at), who, quoted(a.value));
    return QStringLiteral("%1: %2 checked its lease before writing %3 and found it expired by its "
                          "own clock, so it sent nothing and knows it lost the lock. A check "
                          "catches a pause before it, never one after it.")
        .arg(at(k.at), who, quoted(a.value));
}

QString explainLost(const Scenario &s, const Trace &trace, const Lost &l)
{
    const QString who = clientName(s, l.client);
    if (l.reason == LostReason::Check)
        return QStringLiteral("%1: %2's check found its lease gone: it stops believing it holds "
                              "the lock.")
            .arg(at(l.at), who);
    QString text = QStringLiteral("%1: %2's keepalive found its lease gone (told: lease gone). "
                                  "It had stopped sending keepalives while it was frozen, and the "
                                  "lease ran out meanwhile.")
                       .arg(at(l.at), who);
    if (const Lease *now = trace.leaseAt(l.at); now && now->client != l.client)
        text += QStringLiteral(" %1 holds the lock now with token %2.")
                    .arg(clientName(s, now->client), tok(trace, now->token));
    text += QStringLiteral(" Its belief ends here; it does not acquire again by itself.");
    return text;
}

QString explainKeepalive(const Scenario &s, const Trace &trace, const Grant &g)
{
    const Action &a = s.clients[g.client].actions[g.action];
    return QStringLiteral("%1: %2's keepalive renewed its lease: same token %3, now until %4. It "
                          "sends one every %5 ticks while it is not frozen (etcd's client sends "
                          "them every TTL/3); a pause stops them.")
        .arg(at(g.at), clientName(s, g.client), tok(trace, g.token), at(g.expires),
             num(a.keepalive()));
}

QString explainVersionWrite(const Scenario &s, const Trace &trace, std::uint32_t index)
{
    const Write &w = trace.writes[index];
    const WriteVersion &v = trace.writeVersions[index];
    const QString who = clientName(s, w.client);
    const QString storage = storageName(s, w.storage);
    const bool bypass = s.clients[w.client].bypass;
    const QString opening = QStringLiteral("%1: %2 wrote %3 to %4, a compare-and-set on the "
                                           "version (as S3 If-Match or an etcd Txn on "
                                           "mod_revision), expecting version %5")
                                .arg(at(w.arrivedAt), who, quoted(writeValue(s, w)), storage,
                                     num(v.expected));
    switch (w.result) {
    case WriteResult::Accepted: {
        QString text = opening + QStringLiteral(". The storage was at version %1, so it applied the "
                                        "write: now version %2.")
                             .arg(num(v.expected), num(v.version));
        if (w.expired)
            text += QStringLiteral(" %1's lease had ended, but nobody had written since it read: "
                                   "compare-and-set guards the data, not the ownership.")
                        .arg(who);
        return text;
    }
    case WriteResult::Corrupted:
        return opening +
               QStringLiteral(", but the storage was already at version %1. %2 applied it anyway "
                              "(now version %3): it overwrote data %4 never saw.")
                   .arg(num(v.version - 1),
                        bypass ? QStringLiteral("The write bypasses the check, so the storage")
                               : QStringLiteral("With fencing off nothing compares, so the "
                                                "storage"),
                        num(v.version), who);
    case WriteResult::Rejected:
    case WriteResult::LockedOut: {
        QString text = opening + QStringLiteral(", found %1: rejected, and %2 is told the current "
                                                "version (expected version %3, found %1).")
                                     .arg(num(v.version), who, num(v.expected));
        if (w.result == WriteResult::LockedOut)
            text += QStringLiteral(" %1 still holds the lock: it must read again and retry.")
                        .arg(who);
        else
            text += QStringLiteral(" Someone wrote after %1 last read it; %1's view is stale.")
                        .arg(who);
        return text;
    }
    }
    return {};
}

// Section 15.4 and 15.5: an `owner` storage asked the lock service, a `same` storage compared
// with the one token it recorded.
QString explainOwnerOrSameWrite(const Scenario &s, const Trace &trace, std::uint32_t index)
{
    const Write &w = trace.writes[index];
    const QString who = clientName(s, w.client);
    const QString storage = storageName(s, w.storage);
    const bool owner = s.storages[w.storage].check == StorageCheck::Owner;
    const Lease *lease =
        w.epoch && w.epoch <= trace.leases.size() ? &trace.leases[w.epoch - 1] : nullptr;
    const QString token = w.tagged ? QStringLiteral("with token ") + tok(trace, trace.tokenOf(w))
                                   : QStringLiteral("without a token");
    QString text = QStringLiteral("%1: %2's write of %3 %4 arrived at %5")
                       .arg(at(w.arrivedAt), who, quoted(writeValue(s, w)), token, storage);
    if (w.arrivedAt != w.sentAt)
        text += QStringLiteral(" (sent at %1)").arg(at(w.sentAt));
    if (!trace.fencing) {
        text += QStringLiteral(", which checks nothing with fencing off, and applied it.");
    } else if (owner) {
        text += QStringLiteral(", which asks the lock service before it writes (as etcd's Txn "
                               "guarded by the Mutex's IsOwner(), or a Chubby server calling "
                               "CheckSequencer).");
        if (w.applied)
            text += QStringLiteral(" The service holds %1's grant with a live lease, so the "
                                   "storage applied it.")
                        .arg(who);
        else if (!w.tagged)
            text += QStringLiteral(" The write carries no token to ask about: rejected.");
        else if (const Lease *now = trace.leaseAt(w.arrivedAt); now && now->epoch != w.epoch)
            text += QStringLiteral(" The service answers that %1 holds the lock now (token %2), "
                                   "not %3's grant: rejected.")
                        .arg(clientName(s, now->client), tok(trace, now->token), who);
        else
            text += QStringLiteral(" The service answers that %1's lease ended at %2: rejected, "
                                   "although nobody newer holds the lock yet.")
                        .arg(who, at(lease ? lease->end : 0));
    } else {
        text += QStringLiteral(", which accepts only the token it saw first (etcd's contrib/lock "
                               "storage compares versions for equality).");
        if (w.applied && w.maxToken == trace.tokenOf(w) && w.overwrote == kNone)
            text += QStringLiteral(" It had seen none yet, so it recorded token %1 and applied "
                                   "the write.")
                        .arg(tok(trace, w.maxToken));
        else if (w.applied)
            text += QStringLiteral(" Token %1 is the recorded one: applied.")
                        .arg(tok(trace, w.maxToken));
        else if (!w.tagged)
            text += QStringLiteral(" The write carries no token: rejected.");
        else
            text += QStringLiteral(" It recorded token %1, and %2 is different: rejected.")
                        .arg(tok(trace, w.maxToken), tok(trace, trace.tokenOf(w)));
    }
    switch (w.result) {
    case WriteResult::Accepted:
        break;
    case WriteResult::Rejected:
        if (w.expired && lease)
            text += QStringLiteral(" %1's lease had ended at %2; it kept acting on a lock it no "
                                   "longer held.")
                        .arg(who, at(lease->end));
        break;
    case WriteResult::LockedOut:
        text += owner ? QStringLiteral(" %1 is the live holder of the newest grant, yet it is "
                                       "turned away: a liveness failure.")
                            .arg(who)
                      : QStringLiteral(" %1 is the live holder of the newest grant: once any "
                                       "owner has written, every later owner is locked out. "
                                       "Different is not lower: the rule must reject only a "
                                       "lower token.")
                            .arg(who);
        break;
    case WriteResult::Corrupted:
        if (w.overwrote != kNone) {
            const Write &old = trace.writes[w.overwrote];
            text +=
                QStringLiteral(" It overwrote %1, written by %2 at %3")
                    .arg(quoted(writeValue(s, old)), clientName(s, old.client), at(old.arrivedAt));
        }
        text += !trace.fencing ? QStringLiteral(": newer data is lost.")
                : owner ? QStringLiteral(": newer data is lost. A restore brought an old grant "
                                         "back into the lock service, and the storage trusts "
                                         "what the service says.")
                        : QStringLiteral(": newer data is lost. Two owners carried the same "
                                         "token, and the storage cannot tell them apart.");
        break;
    }
    return text;
}

QString briefOwnerOrSameWrite(const Scenario &s, const Trace &trace, const Write &w)
{
    if (s.storages[w.storage].check == StorageCheck::Owner) {
        if (w.applied)
            return w.result == WriteResult::Corrupted
                       ? QStringLiteral("lock service holds its old grant: overwrote newer data")
                       : QStringLiteral("lock service: the holder's grant, stored");
        return w.result == WriteResult::LockedOut
                   ? QStringLiteral("lock service refused the live holder")
                   : QStringLiteral("lock service: not its grant now, rejected");
    }
    if (w.applied)
        return w.result == WriteResult::Corrupted
                   ? QStringLiteral("same token %1: overwrote newer data")
                         .arg(tok(trace, w.maxToken))
                   : QStringLiteral("token %1 is the recorded one: stored")
                         .arg(tok(trace, w.maxToken));
    if (!w.tagged)
        return QStringLiteral("untagged: rejected");
    return QStringLiteral("token %1 ≠ recorded %2: %3")
        .arg(tok(trace, trace.tokenOf(w)), tok(trace, w.maxToken),
             w.result == WriteResult::LockedOut ? QStringLiteral("live holder locked out")
                                                : QStringLiteral("rejected"));
}

QString pitfallNotes(const Scenario &s, const Trace &trace, std::uint32_t index)
{
    const Write &w = trace.writes[index];
    QString text;
    if (s.clients[w.client].bypass && w.applied)
        text += QStringLiteral(" %1 is on an unfenced path (a background job, an old code path): "
                               "its writes skip the token check and leave max_token alone. One "
                               "writer that does not check is enough to lose data.")
                    .arg(clientName(s, w.client));
    if (!s.storages[w.storage].durable && w.applied && w.result == WriteResult::Corrupted) {
        const std::uint32_t r = forgettingRestartBefore(trace, w.storage, w.arrivedAt);
        if (r != kNone)
            text += QStringLiteral(" The storage %1 restarted at %2 and forgot its max_token %3: "
                                   "it kept it in memory only, not with the data. A store must "
                                   "persist its promise before answering (HDFS's JournalNodes "
                                   "persist the promised epoch).")
                        .arg(storageName(s, w.storage), at(trace.restarts[r].tick),
                             tok(trace, trace.restarts[r].forgot));
    }
    if (const Check *c = checkOfWrite(trace, index);
        c && c->sendAt > c->at + s.clients[w.client].actions[w.action].gap() && w.expired)
        text += QStringLiteral(" %1 had checked its lease at %2 and found it live; the pause "
                               "came after the check.")
                    .arg(clientName(s, w.client), at(c->at));
    return text;
}

QString briefPitfallEvent(const Scenario &s, const Trace &trace, const Event &e)
{
    switch (e.kind) {
    case EventKind::ReadSent: {
        const Read &r = trace.reads[e.ref];
        return r.arrivedAt == r.sentAt
                   ? QStringLiteral("reads %1").arg(storageName(s, r.storage))
                   : QStringLiteral("reads %1, reply at %2")
                         .arg(storageName(s, r.storage), at(r.arrivedAt));
    }
    case EventKind::ReadArrived:
        return QStringLiteral("%1 is at version %2")
            .arg(storageName(s, trace.reads[e.ref].storage), num(trace.reads[e.ref].version));
    case EventKind::Checked: {
        const Check &c = trace.checks[e.ref];
        return c.sendAt == c.at ? QStringLiteral("lease live by its clock: writes")
                                : QStringLiteral("lease live by its clock: sends at %1")
                                      .arg(at(c.sendAt));
    }
    case EventKind::Skipped:
        return QStringLiteral("lease gone by its clock: write skipped");
    case EventKind::Lost:
        return trace.lost[e.ref].reason == LostReason::Keepalive
                   ? QStringLiteral("told: lease gone")
                   : QStringLiteral("knows it lost the lock");
    default:
        return {};
    }
}

} // namespace Core::ExplainDetail

namespace Core {

using namespace ExplainDetail;

QString explainGroup(const Scenario &s, const Trace &trace, std::uint32_t group)
{
    if (group >= trace.groups.size())
        return {};
    const GroupOutcome &g = trace.groups[group];
    QStringList parts;
    for (std::uint32_t i : g.applied)
        parts << QStringLiteral("%1 accepted").arg(storageName(s, i));
    for (std::uint32_t i : g.notApplied)
        parts << QStringLiteral("%1 rejected").arg(storageName(s, i));
    const QString who = clientName(s, g.client);
    if (g.partial)
        return QStringLiteral("%1's update %2 across %3 storages: %4. The update is half applied; "
                              "one lock and one token do not make two resources change together. "
                              "It needs two-phase commit or a compensation.")
            .arg(who, quoted(g.name), num(g.applied.size() + g.notApplied.size()),
                 parts.join(QStringLiteral(", ")));
    if (g.notApplied.empty())
        return QStringLiteral("%1's update %2: %3. Applied everywhere.")
            .arg(who, quoted(g.name), parts.join(QStringLiteral(", ")));
    return QStringLiteral("%1's update %2: %3. Applied nowhere, so at least nothing is half done.")
        .arg(who, quoted(g.name), parts.join(QStringLiteral(", ")));
}

} // namespace Core
