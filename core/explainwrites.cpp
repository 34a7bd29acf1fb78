// A write's fate in words (docs/SCENARIO.md sections 1-10): accepted, rejected, overwrote newer
// data, a live holder turned away, a packet the network held; and which write raised the
// max_token a write met. The event switch and the lock's events are in explain.cpp.
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

FenceRule ruleOf(const Scenario &s, std::uint32_t storage)
{
    return storage < s.storages.size() ? s.storages[storage].rule : FenceRule::Lt;
}

// "with token 1", or why there is none.
QString tokenPhrase(const Scenario &s, const Trace &trace, const Write &w)
{
    if (!w.tagged && w.epoch != 0)
        return QStringLiteral("without a token (the lock service hands out none, as Redlock)");
    if (!w.tagged)
        return QStringLiteral("without a token (%1 was never granted the lock)")
            .arg(clientName(s, w.client));
    return QStringLiteral("with token ") + tok(trace, trace.tokenOf(w));
}

// "t=30: A wrote 'A' with token 1" — or, for a delayed packet, when it was sent and arrived.
QString writeOpening(const Scenario &s, const Trace &trace, const Write &w)
{
    const QString who = clientName(s, w.client);
    const QString value = quoted(writeValue(s, w));
    if (w.arrivedAt == w.sentAt)
        return QStringLiteral("%1: %2 wrote %3 %4")
            .arg(at(w.arrivedAt), who, value, tokenPhrase(s, trace, w));
    return QStringLiteral(
               "%1: %2's write of %3 %4, sent at %5 and held up %6 ticks by the network, "
               "arrived")
        .arg(at(w.arrivedAt), who, value, tokenPhrase(s, trace, w), at(w.sentAt),
             num(w.arrivedAt - w.sentAt));
}

// Why a newer owner's token was not higher than an older one's (a corruption or a lock-out
// under fencing): the source's own failure, in its words.
QString whyTokensWentBack(const Scenario &s, const Trace &trace, std::uint32_t olderEpoch,
                          std::uint32_t newerEpoch)
{
    const Lease *older = leaseOfEpoch(trace, olderEpoch);
    const Lease *newer = leaseOfEpoch(trace, newerEpoch);
    if (!older || !newer)
        return {};
    for (const LockEvent &e : trace.lockEvents) {
        if (e.kind != LockEventKind::Restore || e.tick <= older->start || e.tick > newer->start)
            continue;
        const LockRestore &r = s.lock.restores[e.ref];
        return QStringLiteral(" The lock service was restored at %1 from its snapshot of %2 with "
                              "bump %3, so it handed out tokens again that it had handed out "
                              "before: a restore is safe only with a bump above every token "
                              "given out since the snapshot (etcd issue 16028: etcdutl snapshot "
                              "restore --bump-revision with --mark-compacted).")
            .arg(at(e.tick), at(r.from), num(r.bump));
    }
    switch (trace.tokens) {
    case TokenSource::ServiceTerm:
        return QStringLiteral(" Both owners were granted in term %1 of the lock service's own "
                              "leader, so both carry token %1, and the rule lt accepts equal "
                              "tokens: a term orders leaders, not lock owners.")
            .arg(num(newer->token));
    case TokenSource::Random:
        return QStringLiteral(" Random tokens are unique but unordered: the newer owner's token %1 "
                              "is not above the older one's %2.")
            .arg(tok(trace, newer->token), tok(trace, older->token));
    case TokenSource::WallClock:
        return QStringLiteral(" Wall-clock tokens follow the lock server's clock, which NTP can "
                              "step back: the newer owner's token %1 is not above the older "
                              "one's %2.")
            .arg(tok(trace, newer->token), tok(trace, older->token));
    default:
        return {};
    }
}

QString explainAccepted(const Scenario &s, const Trace &trace, const Write &w)
{
    const QString who = clientName(s, w.client);
    const QString storage = storageName(s, w.storage);
    QString text;
    if (!trace.fencing) {
        text = QStringLiteral("%1, and the storage %2, which does not check tokens (fencing off), "
                              "applied it.")
                   .arg(writeOpening(s, trace, w), storage);
    } else {
        const FenceRule rule = ruleOf(s, w.storage);
        text =
            QStringLiteral("%1, and the storage %2 accepted it: token %3 is %4 the highest token "
                           "it had seen, so max_token is now %5.")
                .arg(writeOpening(s, trace, w), storage, tok(trace, trace.tokenOf(w)),
                     rule == FenceRule::Lt ? QStringLiteral("not below") : QStringLiteral("above"),
                     tok(trace, w.maxToken));
    }
    if (w.overwrote != kNone) {
        const Write &old = trace.writes[w.overwrote];
        text += QStringLiteral(" It replaced %1, written by %2 at %3.")
                    .arg(quoted(writeValue(s, old)), clientName(s, old.client), at(old.arrivedAt));
    }
    if (w.expired) {
        const Lease *l = leaseOfEpoch(trace, w.epoch);
        text +=
            QStringLiteral(" %1's lease had already ended at %2, but no newer owner had written "
                           "there, so the storage could not tell and nothing was lost.")
                .arg(who, at(l ? l->end : 0));
    } else if (!trace.fencing) {
        // unfenced and harmless: nothing newer was there to lose
        text += QStringLiteral(" Nothing newer had been written there, so no data was lost.");
    }
    return text;
}

QString explainRejected(const Scenario &s, const Trace &trace, std::uint32_t index)
{
    const Write &w = trace.writes[index];
    const QString who = clientName(s, w.client);
    const QString storage = storageName(s, w.storage);
    if (!w.tagged)
        return QStringLiteral("%1, so the fenced storage %2 rejected it: an untagged write cannot "
                              "prove it holds the lock.")
            .arg(writeOpening(s, trace, w), storage);

    const std::uint32_t source = maxTokenSource(trace, index);
    QString seen;
    if (source != kNone) {
        const Write &r = trace.writes[source];
        seen = QStringLiteral("the storage %1 had already accepted token %2 from %3 at %4")
                   .arg(storage, tok(trace, trace.tokenOf(r)), clientName(s, r.client),
                        at(r.arrivedAt));
    } else {
        seen = QStringLiteral("the storage %1 had already seen token %2")
                   .arg(storage, tok(trace, w.maxToken));
    }
    QString why;
    if (trace.tokenOf(w) == w.maxToken && ruleOf(s, w.storage) == FenceRule::Le)
        why = QStringLiteral(" and its rule le turns away equal tokens");
    QString text = QStringLiteral("%1, but %2%3, so it rejected the write and told %4 its lock was "
                                  "lost (max token %5).")
                       .arg(writeOpening(s, trace, w), seen, why, who, tok(trace, w.maxToken));
    if (w.expired) {
        const Lease *l = leaseOfEpoch(trace, w.epoch);
        if (l)
            text += QStringLiteral(" %1's lease with token %2 had ended at %3; it kept acting on a "
                                   "lock it no longer held.")
                        .arg(who, tok(trace, trace.tokenOf(w)), at(l->end));
    }
    return text;
}

QString explainCorrupted(const Scenario &s, const Trace &trace, std::uint32_t index)
{
    const Write &w = trace.writes[index];
    const QString who = clientName(s, w.client);
    const QString storage = storageName(s, w.storage);
    QString text = trace.fencing
                       ? QStringLiteral("%1, and the storage %2 applied it although newer data was "
                                        "already there.")
                             .arg(writeOpening(s, trace, w), storage)
                       : QStringLiteral("%1, and the storage %2, which does not check tokens "
                                        "(fencing off), applied it.")
                             .arg(writeOpening(s, trace, w), storage);
    if (w.overwrote != kNone && trace.tokens == TokenSource::KafkaEpoch) {
        // a topic is append-only (the checker still counts it corrupted: newer data undone)
        const Write &old = trace.writes[w.overwrote];
        text += QStringLiteral(" A topic is append-only: the zombie's records land after %1, "
                               "written by %2 at %3 with epoch %4, and a consumer reads both, the "
                               "stale ones last: duplicates, not an overwrite.")
                    .arg(quoted(writeValue(s, old)), clientName(s, old.client), at(old.arrivedAt),
                         tok(trace, trace.tokenOf(old)));
    } else if (w.overwrote != kNone) {
        const Write &old = trace.writes[w.overwrote];
        text += QStringLiteral(" It silently overwrote %1, written by %2 at %3")
                    .arg(quoted(writeValue(s, old)), clientName(s, old.client), at(old.arrivedAt));
        text += old.tagged ? QStringLiteral(" with token %1.").arg(tok(trace, trace.tokenOf(old)))
                           : QStringLiteral(".");
    }

    // The newest owner's data that this write undid, and the max_token a fenced storage would
    // have held: both from the writes applied there before it.
    const std::vector<std::uint32_t> &arrived = trace.storageWrites[w.storage];
    const std::size_t pos = arrivalPosition(trace, index);
    std::uint32_t newest = kNone;
    Token maxTagged = 0;
    for (std::size_t i = 0; i < pos && i < arrived.size(); ++i) {
        const Write &o = trace.writes[arrived[i]];
        if (!o.applied || !o.tagged)
            continue;
        maxTagged = std::max(maxTagged, trace.tokenOf(o));
        if (newest == kNone || o.epoch > trace.writes[newest].epoch)
            newest = arrived[i];
    }
    if (newest != kNone && trace.writes[newest].epoch > w.epoch) {
        const Write &n = trace.writes[newest];
        if (newest != w.overwrote)
            text += QStringLiteral(" A newer owner, %1 with token %2, had written %3 there at %4.")
                        .arg(clientName(s, n.client), tok(trace, trace.tokenOf(n)),
                             quoted(writeValue(s, n)), at(n.arrivedAt));
        text +=
            QStringLiteral(" %1 still believed it held the lock, but %2 owned it now: %2's data "
                           "is lost.")
                .arg(who, clientName(s, n.client));
        if (trace.fencing)
            text += whyTokensWentBack(s, trace, w.epoch, n.epoch);
    }
    if (!trace.fencing) {
        if (w.tagged && maxTagged > 0)
            text += QStringLiteral(" With fencing on, token %1 < max %2 would have been rejected "
                                   "and %3 told that its lock was lost.")
                        .arg(tok(trace, trace.tokenOf(w)), tok(trace, maxTagged), who);
        else
            text +=
                QStringLiteral(" With fencing on, this untagged write would have been rejected.");
    }
    return text;
}

QString explainLockedOut(const Scenario &s, const Trace &trace, std::uint32_t index)
{
    const Write &w = trace.writes[index];
    const QString who = clientName(s, w.client);
    const QString storage = storageName(s, w.storage);
    const std::uint32_t source = maxTokenSource(trace, index);
    QString setBy;
    if (source != kNone) {
        const Write &r = trace.writes[source];
        setBy =
            r.client == w.client
                ? QStringLiteral(", which %1's own write at %2 had set").arg(who, at(r.arrivedAt))
                : QStringLiteral(", which %1's write at %2 had set")
                      .arg(clientName(s, r.client), at(r.arrivedAt));
    }
    QString text = QStringLiteral("%1 while still the live lock holder, but the storage %2 "
                                  "rejected it.")
                       .arg(writeOpening(s, trace, w), storage);
    if (ruleOf(s, w.storage) == FenceRule::Le) {
        text +=
            QStringLiteral(" Its rule le turns away tokens equal to max_token (%1)%2. This is a "
                           "liveness failure, not a safety one: the rule is too strict. The "
                           "correct rule lt accepts equal tokens, so the same holder can write "
                           "many times.")
                .arg(tok(trace, w.maxToken), setBy);
    } else {
        if (!w.tagged) {
            text += QStringLiteral(" A fenced storage turns away every untagged write, so "
                                   "without tokens even the rightful holder is locked out (a "
                                   "liveness failure).");
        } else {
            text += QStringLiteral(" Token %1 is below max_token %2%3: tokens went backwards, so "
                                   "the rightful holder is locked out (a liveness failure).")
                        .arg(tok(trace, trace.tokenOf(w)), tok(trace, w.maxToken), setBy);
            if (source != kNone)
                text += whyTokensWentBack(s, trace, trace.writes[source].epoch, w.epoch);
        }
    }
    return text;
}

} // namespace

namespace ExplainDetail {

QString explainWriteSent(const Scenario &s, const Trace &trace, std::uint32_t index)
{
    const Write &w = trace.writes[index];
    if (w.arrivedAt == w.sentAt)
        return explainWrite(s, trace, index);
    const QString who = clientName(s, w.client);
    QString text =
        QStringLiteral("%1: %2 sent %3 to the storage %4 %5; the network holds the packet "
                       "for %6 ticks, so it arrives at %7.")
            .arg(at(w.sentAt), who, quoted(writeValue(s, w)), storageName(s, w.storage),
                 tokenPhrase(s, trace, w), num(w.arrivedAt - w.sentAt), at(w.arrivedAt));
    if (w.expired) {
        const Lease *l = leaseOfEpoch(trace, w.epoch);
        if (l)
            text += QStringLiteral(" By then %1's lease (token %2) has ended at %3.")
                        .arg(who, tok(trace, l->token), at(l->end));
    }
    return text;
}

} // namespace ExplainDetail

std::uint32_t maxTokenSource(const Trace &trace, std::uint32_t writeIndex)
{
    if (writeIndex >= trace.writes.size())
        return kNone;
    const Write &w = trace.writes[writeIndex];
    // fencing off leaves max_token at 0: nothing raised it
    if (!trace.fencing || w.maxToken == 0)
        return kNone;
    const std::vector<std::uint32_t> &arrived = trace.storageWrites[w.storage];
    const std::size_t pos = arrivalPosition(trace, writeIndex);
    const auto end = arrived.begin() + std::ptrdiff_t(std::min(pos, arrived.size()));
    // max_token changes only when an applied write sets it to its token, so the first arrival
    // that saw max_token >= w.maxToken is the one that raised it there
    const auto it = std::partition_point(arrived.begin(), end, [&](std::uint32_t i) {
        return trace.writes[i].maxToken < w.maxToken;
    });
    if (it == end)
        return kNone;
    return *it;
}

QString explainWrite(const Scenario &s, const Trace &trace, std::uint32_t writeIndex)
{
    if (writeIndex >= trace.writes.size())
        return {};
    const Write &w = trace.writes[writeIndex];
    if (s.storages[w.storage].check == StorageCheck::Version && !trace.writeVersions.empty())
        return explainVersionWrite(s, trace, writeIndex);
    if ((s.storages[w.storage].check == StorageCheck::Owner ||
         s.storages[w.storage].check == StorageCheck::Same) &&
        !s.clients[w.client].bypass)
        return explainOwnerOrSameWrite(s, trace, writeIndex);
    const QString notes =
        trace.checks.empty() && trace.restarts.empty() && !s.clients[w.client].bypass
            ? QString()
            : pitfallNotes(s, trace, writeIndex);
    switch (w.result) {
    case WriteResult::Accepted:
        return explainAccepted(s, trace, w) + notes;
    case WriteResult::Rejected:
        return explainRejected(s, trace, writeIndex) + notes;
    case WriteResult::Corrupted:
        return explainCorrupted(s, trace, writeIndex) + notes;
    case WriteResult::LockedOut:
        return explainLockedOut(s, trace, writeIndex) + notes;
    }
    return {};
}

} // namespace Core
