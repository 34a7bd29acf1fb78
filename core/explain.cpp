// Explanations in words: the event switch, the lock's events (grants, refusals, releases,
// pauses), the run's summary and which event tells a tick or an action best. A write's fate is
// in explainwrites.cpp, a row's few words in explainbrief.cpp, sections 11-12 in
// explainpitfalls.cpp.
#include "explain.h"
#include "explaindetail.h"
#include "lockfacts.h"

#include "runstate.h"
#include "tokensource.h"

#include "simulator.h"

#include <QStringList>

#include <algorithm>

namespace Core {

namespace ExplainDetail {

QString num(std::uint64_t v)
{
    return QString::number(qulonglong(v));
}

QString at(Tick t)
{
    return QStringLiteral("t=") + num(t);
}

QString quoted(const QString &value)
{
    return QLatin1Char('\'') + value + QLatin1Char('\'');
}

// A token in its source's own form ("7", "rev 7", "0x1_00000003", "lock:exclusive:7", ...).
QString tok(const Trace &trace, Token token)
{
    return formatToken(trace.tokens, token);
}

QString clientName(const Scenario &s, std::uint32_t c)
{
    return c < s.clients.size() ? s.clients[c].name : QStringLiteral("?");
}

QString storageName(const Scenario &s, std::uint32_t i)
{
    return i < s.storages.size() ? s.storages[i].name : QStringLiteral("?");
}

} // namespace ExplainDetail

namespace {

using namespace ExplainDetail;

// How the source made this grant's token, in its system's words ("" for the plain counter).
// `reissued`: a restore made the token one handed out before, so the order the source keeps
// in normal operation is not claimed.
QString grantMechanism(const Scenario &s, const Trace &trace, const Grant &g, bool reissued)
{
    switch (trace.tokens) {
    case TokenSource::Counter:
        return {};
    case TokenSource::Etcd:
        return QStringLiteral(" etcd created the lock key at store revision %1: its "
                              "create_revision is the token.")
                   .arg(num(g.token)) +
               (reissued ? QString()
                         : QStringLiteral(" Every change to the key space adds 1 to the "
                                          "revision, so a later owner's key has a higher one."));
    case TokenSource::ZooKeeper:
        return QStringLiteral(" ZooKeeper created the lock znode with zxid %1 (its czxid, leader "
                              "epoch %2, change #%3)%4")
            .arg(tok(trace, g.token), num(g.token >> 32), num(g.token & 0xffffffffu),
                 reissued ? QStringLiteral(".")
                          : QStringLiteral(": zxids are totally ordered, across leader "
                                           "failovers too."));
    case TokenSource::RaftTerm:
        return QStringLiteral(" The lock is the leadership of a Raft group: %1 is the leader "
                              "elected in term %2, and replicas reject messages from lower terms "
                              "(the Raft paper, section 5.1).")
            .arg(clientName(s, g.client), num(g.token));
    case TokenSource::ServiceTerm:
        return QStringLiteral(" The token is term %1 of the lock service's own Raft leader, and "
                              "every grant that leader makes in term %1 carries it: a term orders "
                              "the service's leaders, not the lock's owners.")
            .arg(num(g.token));
    case TokenSource::KafkaEpoch:
        return QStringLiteral(" InitProducerId bumped the producer epoch to %1: the transaction "
                              "coordinator fences every older epoch of this transactional.id "
                              "(it answers PRODUCER_FENCED, and aborts a transaction the old "
                              "epoch had open, KIP-98); partition leaders answer a lower epoch "
                              "with INVALID_PRODUCER_EPOCH (since Kafka 2.7, KAFKA-10687).")
            .arg(num(g.token));
    case TokenSource::Chubby:
        return QStringLiteral(" Chubby's sequencer %1 names the lock, its mode and generation %2; "
                              "a server can check it, or ask Chubby with CheckSequencer (Burrows "
                              "2006, sections 2.4 and 2.6).")
            .arg(tok(trace, g.token), num(g.token));
    case TokenSource::None:
        return QStringLiteral(" Redlock hands the holder a unique random value, but no fencing "
                              "token that grows with each owner (Kleppmann 2016): no storage can "
                              "tell this owner from an older one.");
    case TokenSource::Random:
        return QStringLiteral(" The token is a random number: unique, but in no order, so a newer "
                              "owner may well get a lower token than an older one.");
    case TokenSource::WallClock: {
        QString text = QStringLiteral(" The token is the lock server's clock at the grant (%1)")
                           .arg(num(g.token));
        const std::int64_t steps =
            wallClockAt(s.lock, g.at) - std::int64_t(g.at) - std::int64_t(s.lock.clockOffset);
        if (steps < 0)
            text += QStringLiteral(", after NTP stepped it back by %1 in all: a later owner can "
                                   "get a lower token than an earlier one.")
                        .arg(num(std::uint64_t(-steps)));
        else
            text += QStringLiteral("; wall clocks can be stepped back, and then tokens go "
                                   "backwards.");
        return text;
    }
    }
    return {};
}

QString explainGrant(const Scenario &s, const Trace &trace, const Grant &g)
{
    const QString who = clientName(s, g.client);
    if (g.keepalive)
        return explainKeepalive(s, trace, g);
    if (g.renewal)
        return QStringLiteral(
                   "%1: %2 renewed its lease while still holding the lock: same token %3, "
                   "now valid until %4. A renewal is not a new owner, so the token does "
                   "not change and the storage keeps accepting it.")
            .arg(at(g.at), who, tok(trace, g.token), at(g.expires));
    QString text =
        QStringLiteral("%1: the lock service granted the lock to %2 with token %3, lease "
                       "until %4 (ttl %5).")
            .arg(at(g.at), who, tok(trace, g.token), at(g.expires), num(g.expires - g.at));
    const Lease *prev = g.epoch > 1 ? leaseOfEpoch(trace, g.epoch - 1) : nullptr;
    bool reissued = false;
    if (!prev) {
        text += QStringLiteral(" Nobody had held the lock before, so this is the first token.");
    } else {
        const QString prevWho = clientName(s, prev->client);
        if (prev->released)
            text += QStringLiteral(" %1 had released it at %2").arg(prevWho, at(prev->end));
        else if (prev->client == g.client)
            text += QStringLiteral(" %1's own earlier lease (token %2) had run out at %3")
                        .arg(prevWho, tok(trace, prev->token), at(prev->end));
        else
            text += QStringLiteral(" %1's lease (token %2) had run out at %3")
                        .arg(prevWho, tok(trace, prev->token), at(prev->end));
        // the highest token handed out before this grant: a restore can hand one out again
        Token highest = 0;
        for (std::size_t e = 0; e + 1 < g.epoch && e < trace.leases.size(); ++e)
            highest = std::max(highest, trace.leases[e].token);
        const bool ordered =
            trace.tokens == TokenSource::Counter || trace.tokens == TokenSource::Chubby ||
            trace.tokens == TokenSource::Etcd || trace.tokens == TokenSource::ZooKeeper ||
            trace.tokens == TokenSource::RaftTerm;
        const bool restored =
            std::any_of(trace.lockEvents.begin(), trace.lockEvents.end(), [&](const LockEvent &e) {
                return e.kind == LockEventKind::Restore && e.tick <= g.at;
            });
        reissued = ordered && g.token <= highest && restored;
        if (trace.tokens == TokenSource::ServiceTerm && prev->token == g.token)
            text += QStringLiteral(", so this is a new owner, but the lock service's leader is "
                                   "still in term %1: the new owner gets the same token.")
                        .arg(num(g.token));
        else if (ordered && g.token > highest)
            text += QStringLiteral(", so this is a new owner and it gets a higher token than "
                                   "any before.");
        else if (reissued)
            text += QStringLiteral(", so this is a new owner, but its token is not above %1, "
                                   "handed out before: the lock service was restored from an "
                                   "older snapshot and counts again from there.")
                        .arg(tok(trace, highest));
        else
            text += QStringLiteral(", so this is a new owner.");
    }
    for (const Wait &w : trace.waits)
        if (w.granted && w.outcome < trace.grants.size() && &trace.grants[w.outcome] == &g)
            text += QStringLiteral(" %1 had been waiting for it since %2 (a blocking acquire, as "
                                   "etcd's Lock() or Curator's acquire()).")
                        .arg(who, at(w.from));
    return text + grantMechanism(s, trace, g, reissued);
}

QString explainRefusal(const Scenario &s, const Trace &trace, const Refusal &r)
{
    const Lease *l = leaseOfEpoch(trace, r.holderEpoch);
    const QString who = clientName(s, r.client);
    const QString opening =
        r.gaveUp ? QStringLiteral("%1: %2 gave up waiting for the lock (its "
                                  "waitFor ran out)")
                       .arg(at(r.at), who)
                 : QStringLiteral("%1: %2 asked for the lock but was refused").arg(at(r.at), who);
    if (r.holderEpoch == 0)
        return QStringLiteral("%1: %2 is waiting for it first, and waiters are served in the order "
                              "they began to wait.")
            .arg(opening, clientName(s, r.holder));
    if (l && r.at >= l->end && !l->released)
        return QStringLiteral("%1: %2's lease (token %3) expired at %4 without a release, and "
                              "Chubby's lock-delay keeps the lock from everyone else until %5, in "
                              "case %2 is only slow and still acting on it.")
            .arg(opening, clientName(s, r.holder), tok(trace, l->token), at(l->end),
                 at(l->end + s.lock.lockDelay));
    return QStringLiteral("%1: %2 holds it with token %3 until %4. The lock service never hands "
                          "out a lock whose lease is live.")
        .arg(opening, clientName(s, r.holder), tok(trace, l ? l->token : 0),
             at(leaseEndAt(trace, r.holderEpoch, r.at)));
}

QString explainRelease(const Scenario &s, const Trace &trace, const Release &r)
{
    const QString who = clientName(s, r.client);
    if (r.effective) {
        const Lease *l = leaseOfEpoch(trace, r.epoch);
        const QString next = [&] {
            switch (trace.tokens) {
            case TokenSource::None:
                return QStringLiteral("the next owner gets no token either (nothing can fence)");
            case TokenSource::Random:
                return QStringLiteral("the next owner gets a new random token, not necessarily "
                                      "a higher one");
            case TokenSource::WallClock:
                return QStringLiteral("the next owner's token is the lock server's clock then, "
                                      "higher only if that clock did not step back");
            case TokenSource::KafkaEpoch:
                return QStringLiteral("the next InitProducerId bumps the epoch");
            default:
                return QStringLiteral("the next owner gets a higher token");
            }
        }();
        if (trace.tokens == TokenSource::None)
            return QStringLiteral("%1: %2 released the lock. It is free from now on; %3.")
                .arg(at(r.at), who, next);
        return QStringLiteral("%1: %2 released the lock (token %3). It is free from now on; %4.")
            .arg(at(r.at), who, tok(trace, l ? l->token : 0), next);
    }
    const Lease *live = trace.leaseAt(r.at);
    if (live && live->client != r.client)
        return QStringLiteral("%1: %2 tried to release the lock, but %3 holds it (token %4), so "
                              "nothing changed.")
            .arg(at(r.at), who, clientName(s, live->client), tok(trace, live->token));
    return QStringLiteral("%1: %2 tried to release the lock, but it was not the live holder (its "
                          "lease had already ended), so nothing changed.")
        .arg(at(r.at), who);
}

QString explainPauseStart(const Scenario &s, const Trace &trace, std::uint32_t c, std::uint32_t a)
{
    const Action &pause = s.clients[c].actions[a];
    const Tick from = pause.at;
    const Tick to = pause.at + pause.length();
    const QString who = clientName(s, c);
    QString text =
        QStringLiteral("%1: %2 froze for %3 ticks, until %4 (a GC pause or a stopped VM). "
                       "It cannot notice time passing.")
            .arg(at(from), who, num(pause.length()), at(to));
    QStringList deferred;
    int more = 0;
    for (const Action &x : s.clients[c].actions) {
        if (x.kind == ActionKind::Pause || x.at < from || x.at >= to)
            continue;
        if (deferred.size() >= 3) {
            ++more;
            continue;
        }
        QString what = toString(x.kind);
        if (x.kind == ActionKind::Write)
            what += QLatin1Char(' ') + quoted(x.value);
        deferred << QStringLiteral("%1 due at %2").arg(what, at(x.at));
    }
    if (!deferred.isEmpty()) {
        QString list = deferred.join(QStringLiteral(", "));
        if (more > 0)
            list += QStringLiteral(" and %1 more").arg(more);
        text += QStringLiteral(" Deferred until it wakes: %1.").arg(list);
    }
    const Belief *b = beliefBefore(trace, c, from + 1);
    if (b && (b->to == kForever || b->to > from)) {
        const Lease *l = leaseOfEpoch(trace, b->epoch);
        if (l && l->end > from && l->end < to)
            text +=
                QStringLiteral(" Its lease (token %1) runs out at %2 while it sleeps, and it will "
                               "wake up still believing it holds the lock.")
                    .arg(tok(trace, l->token), at(l->end));
    }
    return text;
}

QString explainPauseEnd(const Scenario &s, const Trace &trace, std::uint32_t c, std::uint32_t a,
                        Tick now)
{
    const Action &pause = s.clients[c].actions[a];
    const QString who = clientName(s, c);
    QString text =
        QStringLiteral("%1: %2 wakes up after its pause from %3.").arg(at(now), who, at(pause.at));
    const Belief *b = beliefBefore(trace, c, now);
    if (b && (b->to == kForever || b->to >= now)) {
        const Lease *l = leaseOfEpoch(trace, b->epoch);
        // a zombie only if it acts on the stale belief (the trace's zombie window)
        if (l && l->end <= now && trace.zombieBeliefAt(c, now))
            text +=
                QStringLiteral(" It still believes it holds the lock with token %1, but that "
                               "lease ended at %2: it is a zombie, and its next write carries a "
                               "stale token.")
                    .arg(tok(trace, l->token), at(l->end));
        else if (l && l->end <= now)
            text += QStringLiteral(" It still believes it holds the lock with token %1, but that "
                                   "lease ended at %2. It sends nothing on that lock, so it does "
                                   "no harm: no zombie.")
                        .arg(tok(trace, l->token), at(l->end));
        else if (l)
            text += QStringLiteral(" Its lease (token %1) is still live until %2.")
                        .arg(tok(trace, l->token), at(l->end));
    }
    return text;
}

} // namespace

std::uint32_t mainEventAt(const Trace &trace, Tick tick)
{
    // what a learner asks first: what the storage did, then who got the lock, ...
    const auto weight = [](EventKind k) {
        switch (k) {
        case EventKind::WriteArrived:
            return 6;
        case EventKind::Grant:
        case EventKind::Renewal:
            return 5;
        case EventKind::Refusal:
            return 4;
        case EventKind::Release:
            return 3;
        case EventKind::PauseStart:
        case EventKind::PauseEnd:
            return 2;
        case EventKind::WriteSent:
        case EventKind::ReadSent:
            return 1;
        case EventKind::Lost:
        case EventKind::Skipped:
            return 5;
        case EventKind::Checked:
        case EventKind::ReadArrived:
            return 2;
        }
        return 0;
    };
    std::uint32_t best = kNone;
    for (std::uint32_t i = trace.firstEventAt(tick);
         i < trace.events.size() && trace.events[i].tick == tick; ++i)
        if (best == kNone || weight(trace.events[i].kind) > weight(trace.events[best].kind))
            best = i;
    return best;
}

QString explainEvent(const Scenario &s, const Trace &trace, std::uint32_t eventIndex)
{
    if (eventIndex >= trace.events.size())
        return {};
    const Event &e = trace.events[eventIndex];
    switch (e.kind) {
    case EventKind::Grant:
    case EventKind::Renewal:
        return explainGrant(s, trace, trace.grants[e.ref]);
    case EventKind::Refusal:
        return explainRefusal(s, trace, trace.refusals[e.ref]);
    case EventKind::Release:
        return explainRelease(s, trace, trace.releases[e.ref]);
    case EventKind::PauseStart:
        return explainPauseStart(s, trace, e.client, e.ref);
    case EventKind::PauseEnd:
        return explainPauseEnd(s, trace, e.client, e.ref, e.tick);
    case EventKind::WriteSent:
        return explainWriteSent(s, trace, e.ref);
    case EventKind::WriteArrived:
        return explainWrite(s, trace, e.ref);
    case EventKind::ReadSent:
    case EventKind::ReadArrived:
        return explainRead(s, trace, trace.reads[e.ref], e.kind == EventKind::ReadArrived);
    case EventKind::Checked:
        return explainCheck(s, trace, trace.checks[e.ref]);
    case EventKind::Skipped:
        return explainSkip(s, trace, trace.skips[e.ref]);
    case EventKind::Lost:
        return explainLost(s, trace, trace.lost[e.ref]);
    }
    return {};
}

QString summarize(const Scenario &s, const Trace &trace)
{
    Q_UNUSED(s)
    const Summary &m = trace.summary;
    QString text =
        QStringLiteral("Fencing %1: %2 accepted, %3 rejected, %4 corrupted, %5 locked out.")
            .arg(trace.fencing ? QStringLiteral("on") : QStringLiteral("off"), num(m.accepted),
                 num(m.rejected), num(m.corrupted), num(m.lockedOut));
    if (m.skipped)
        text += m.skipped == 1 ? QStringLiteral(" 1 checked write skipped.")
                               : QStringLiteral(" %1 checked writes skipped.").arg(num(m.skipped));
    if (m.partial)
        text +=
            m.partial == 1
                ? QStringLiteral(" 1 update half applied across storages.")
                : QStringLiteral(" %1 updates half applied across storages.").arg(num(m.partial));
    if (m.safe())
        text += QStringLiteral(" Safety held.");
    else if (m.corrupted == 0)
        text += QStringLiteral(" Safety violated: storages disagree.");
    else
        text += m.corrupted == 1
                    ? QStringLiteral(" Safety violated: 1 write overwrote newer data.")
                    : QStringLiteral(" Safety violated: %1 writes overwrote newer data.")
                          .arg(num(m.corrupted));
    return text;
}

std::uint32_t actionOfEvent(const Trace &trace, std::uint32_t eventIndex)
{
    if (eventIndex >= trace.events.size())
        return kNone;
    const Event &e = trace.events[eventIndex];
    switch (e.kind) {
    case EventKind::Grant:
    case EventKind::Renewal:
        return trace.grants[e.ref].action;
    case EventKind::Refusal:
        return trace.refusals[e.ref].action;
    case EventKind::Release:
        return trace.releases[e.ref].action;
    case EventKind::PauseStart:
    case EventKind::PauseEnd:
        return e.ref;
    case EventKind::WriteSent:
    case EventKind::WriteArrived:
        return trace.writes[e.ref].action;
    case EventKind::ReadSent:
    case EventKind::ReadArrived:
        return trace.reads[e.ref].action;
    case EventKind::Checked:
        return trace.checks[e.ref].action;
    case EventKind::Skipped:
        return trace.skips[e.ref].action;
    case EventKind::Lost:
        return kNone;
    }
    return kNone;
}

std::uint32_t outcomeEvent(const Scenario &s, const Trace &trace, std::uint32_t client,
                           std::uint32_t action)
{
    if (client >= s.clients.size() || client >= trace.clientEvents.size() ||
        action >= s.clients[client].actions.size())
        return kNone;
    const std::vector<std::uint32_t> &mine = trace.clientEvents[client];
    const auto from = [&](Tick t) {
        return std::lower_bound(mine.begin(), mine.end(), t, [&](std::uint32_t e, Tick tick) {
            return trace.events[e].tick < tick;
        });
    };
    // an action runs at its tick or later (when its client thaws), never earlier
    const Action &a = s.clients[client].actions[action];
    for (auto it = from(a.at); it != mine.end(); ++it) {
        const Event &e = trace.events[*it];
        if (e.kind == EventKind::PauseEnd || e.kind == EventKind::WriteArrived ||
            e.kind == EventKind::ReadArrived)
            continue;
        if (actionOfEvent(trace, *it) != action)
            continue;
        if (e.kind == EventKind::Checked) {
            // a passed check: the outcome is its write's, once sent
            const Check &c = trace.checks[e.ref];
            if (c.write == kNone)
                return *it;
            continue;
        }
        if (e.kind == EventKind::ReadSent) {
            const Read &r = trace.reads[e.ref];
            for (auto jt = from(r.arrivedAt); jt != mine.end(); ++jt)
                if (trace.events[*jt].kind == EventKind::ReadArrived &&
                    trace.events[*jt].ref == e.ref)
                    return *jt;
            return *it;
        }
        if (e.kind != EventKind::WriteSent)
            return *it;
        const Write &w = trace.writes[e.ref];
        for (auto jt = from(w.arrivedAt); jt != mine.end(); ++jt) {
            const Event &arrival = trace.events[*jt];
            if (arrival.kind == EventKind::WriteArrived && arrival.ref == e.ref)
                return *jt;
        }
        return *it;
    }
    return kNone;
}

} // namespace Core
