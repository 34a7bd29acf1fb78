#include "storysteps.h"

#include "explain.h"
#include "explaindetail.h"
#include "lockfacts.h"
#include "tokensource.h"

#include <algorithm>

namespace Core {

using namespace ExplainDetail;

namespace {

// Which subject tells a tick best when several happen in it: what a storage did to a write
// first (it is what the run is about), then what the lock service or a storage went through
// (it explains what follows), then the clients' own actions.
int weight(const Trace &t, const StoryStep &s)
{
    switch (s.subject) {
    case StoryStep::Subject::Event:
        return t.events[s.ref].kind == EventKind::WriteArrived ? 20 : 0;
    case StoryStep::Subject::LockEvent:
        switch (t.lockEvents[s.ref].kind) {
        case LockEventKind::Restore:
            return 15;
        case LockEventKind::Failover:
            return 14;
        case LockEventKind::FailedElection:
            return 13;
        case LockEventKind::ClockStep:
            return 12;
        case LockEventKind::Election:
            return 13;
        }
        return 10;
    case StoryStep::Subject::StorageRestart:
        return 11;
    case StoryStep::Subject::LockDelayEnd:
        return 10;
    }
    return 0;
}

// The end of a lock-delay that ran its full length: one cut short by a grant or a restore is
// told by that grant or restore at the same tick.
std::vector<StoryStep> lockDelayEnds(const Scenario &s, const Trace &t)
{
    std::vector<StoryStep> ends;
    if (s.lock.lockDelay == 0)
        return ends;
    for (std::size_t i = 0; i < t.leases.size(); ++i) {
        const std::optional<TickRange> r = lockDelayAfter(s, t, i);
        if (r && r->to - r->from == s.lock.lockDelay && r->to <= t.lastTick &&
            (t.complete() ? true : r->to < t.pendingFrom))
            ends.push_back({r->to, StoryStep::Subject::LockDelayEnd, std::uint32_t(i)});
    }
    std::sort(ends.begin(), ends.end(),
              [](const StoryStep &a, const StoryStep &b) { return a.tick < b.tick; });
    return ends;
}

// The lock service's and the storages' own steps, in time order.
std::vector<StoryStep> serviceSteps(const Scenario &s, const Trace &t)
{
    std::vector<StoryStep> steps;
    for (std::uint32_t i = 0; i < t.lockEvents.size(); ++i)
        steps.push_back({t.lockEvents[i].tick, StoryStep::Subject::LockEvent, i});
    for (std::uint32_t i = 0; i < t.restarts.size(); ++i)
        steps.push_back({t.restarts[i].tick, StoryStep::Subject::StorageRestart, i});
    for (const StoryStep &e : lockDelayEnds(s, t))
        steps.push_back(e);
    std::stable_sort(steps.begin(), steps.end(),
                     [](const StoryStep &a, const StoryStep &b) { return a.tick < b.tick; });
    return steps;
}

} // namespace

std::vector<StoryStep> storySteps(const Scenario &scenario, const Trace &trace)
{
    const std::vector<StoryStep> service = serviceSteps(scenario, trace);
    std::vector<StoryStep> steps;
    std::size_t e = 0;
    std::size_t v = 0;
    while (e < trace.events.size() || v < service.size()) {
        const Tick tick = std::min(e < trace.events.size() ? trace.events[e].tick : kForever,
                                   v < service.size() ? service[v].tick : kForever);
        StoryStep best{tick, StoryStep::Subject::Event, kNone};
        if (e < trace.events.size() && trace.events[e].tick == tick) {
            best.ref = mainEventAt(trace, tick);
            while (e < trace.events.size() && trace.events[e].tick == tick)
                ++e;
        }
        for (; v < service.size() && service[v].tick == tick; ++v)
            if (best.ref == kNone || weight(trace, service[v]) > weight(trace, best))
                best = service[v];
        steps.push_back(best);
    }
    return steps;
}

std::vector<Tick> storyStepTicks(const Scenario &scenario, const Trace &trace)
{
    std::vector<Tick> ticks;
    for (const StoryStep &s : storySteps(scenario, trace))
        ticks.push_back(s.tick);
    return ticks;
}

StoryStep storyStepAt(const Scenario &scenario, const Trace &trace, Tick t)
{
    // (the steps of one tick only: the whole list is not needed)
    StoryStep best{t, StoryStep::Subject::Event, mainEventAt(trace, t)};
    for (const StoryStep &s : serviceSteps(scenario, trace))
        if (s.tick == t && (best.ref == kNone || weight(trace, s) > weight(trace, best)))
            best = s;
    return best;
}

QString explainStep(const Scenario &scenario, const Trace &trace, const StoryStep &step)
{
    if (step.ref == kNone)
        return {};
    switch (step.subject) {
    case StoryStep::Subject::Event:
        return explainEvent(scenario, trace, step.ref);
    case StoryStep::Subject::LockEvent:
        return explainLockEvent(scenario, trace, step.ref);
    case StoryStep::Subject::StorageRestart:
        return explainRestart(scenario, trace, step.ref);
    case StoryStep::Subject::LockDelayEnd:
        return explainLockDelayEnd(scenario, trace, step.ref);
    }
    return {};
}

QStringList stepDetails(const Scenario &scenario, const Trace &trace, const StoryStep &step,
                        Tick since)
{
    QStringList lines;
    const Tick now = step.tick;
    // the lock service's and storages' own events of this tick that are not the subject: each
    // keeps its whole sentence, they are what a presentation exists to show
    for (const StoryStep &s : serviceSteps(scenario, trace))
        if (s.tick == now && !(s == step))
            lines << explainStep(scenario, trace, s);
    for (std::uint32_t i = trace.firstEventAt(now);
         i < trace.events.size() && trace.events[i].tick == now; ++i)
        if (!(step.subject == StoryStep::Subject::Event && step.ref == i))
            lines << QStringLiteral("%1: %2").arg(clientName(scenario, trace.events[i].client),
                                                  briefEvent(scenario, trace, i));
    // etcd's unrelated puts, at the start of every k-th tick (docs/SCENARIO.md section 9)
    const Tick k = scenario.tokens == TokenSource::Etcd ? scenario.lock.putsEvery : 0;
    if (k > 0) {
        const Tick before = since == kForever ? 0 : since / k;
        const Tick puts = now / k > before ? now / k - before : 0;
        if (puts == 1)
            lines << QStringLiteral("An unrelated put at %1 raised etcd's store revision by 1: "
                                    "the next token will be higher than it would have been, "
                                    "with a gap.")
                         .arg(at(now / k * k));
        else if (puts > 1)
            lines << QStringLiteral("%1 unrelated puts since %2 (every %3 ticks) each raised "
                                    "etcd's store revision by 1: tokens leave gaps, and still "
                                    "only grow.")
                         .arg(num(puts), at(since == kForever ? 0 : since), num(k));
    }
    return lines;
}

namespace {

// What a new leader did to the leases live at `tick` (docs/SCENARIO.md section 15.3): each one's
// timeout started afresh. Empty when none was re-armed then.
QString rearmedAt(const Scenario &s, const Trace &t, Tick tick)
{
    QStringList leases;
    for (const Rearm &r : t.rearms)
        if (r.at == tick)
            leases << QStringLiteral("%1's now ends at %2").arg(clientName(s, r.client), at(r.expires));
    if (leases.isEmpty())
        return {};
    return QStringLiteral(" The new leader starts every live session's timeout afresh: %1. The "
                          "holder is not told.")
        .arg(leases.join(QStringLiteral(", ")));
}

} // namespace

QString explainLockEvent(const Scenario &s, const Trace &t, std::uint32_t index)
{
    if (index >= t.lockEvents.size())
        return {};
    const LockEvent &e = t.lockEvents[index];
    switch (e.kind) {
    case LockEventKind::Restore: {
        if (e.ref >= s.lock.restores.size())
            return {};
        const LockRestore &r = s.lock.restores[e.ref];
        QString text = QStringLiteral("%1: the lock service was restored from its snapshot of "
                                      "%2. It forgets every grant made after %2; the clients "
                                      "that got them still believe they hold the lock, and "
                                      "their tokens are still in the storages.")
                           .arg(at(e.tick), at(r.from));
        if (e.holder != kNone && e.holder < s.clients.size())
            text += QStringLiteral(" In the snapshot %1 holds the lock.")
                        .arg(clientName(s, e.holder));
        else
            text += QStringLiteral(" In the snapshot the lock is free.");
        if (r.bump > 0)
            text += QStringLiteral(" Its counter was raised by %1 (a bump).").arg(num(r.bump));
        const RestoreReissue re = restoreReissue(t, e);
        text += rearmedAt(s, t, e.tick);
        if (re.hasNext && re.dangerous)
            text += QStringLiteral(" Its next token, %1, is not above %2, already handed out: "
                                   "a storage that saw the old token accepts the new one.")
                        .arg(tok(t, re.next), tok(t, re.handedOut));
        else if (re.hasNext && hasCounter(t.tokens))
            text += QStringLiteral(" Its next token, %1, is above every token handed out "
                                   "before it.")
                        .arg(tok(t, re.next));
        return text;
    }
    case LockEventKind::Failover:
        return QStringLiteral("%1: a new ZooKeeper leader took over. The zxid's epoch went up by "
                              "one and its counter started again from 0, so the next zxid is "
                              "%2: still above every earlier one.")
                   .arg(at(e.tick), tok(t, e.counter + 1)) +
               rearmedAt(s, t, e.tick);
    case LockEventKind::Election:
        return QStringLiteral("%1: the lock service's own Raft group elected a new leader: its "
                              "term is now %2. Grants from here on carry %2; grants between two "
                              "elections share a term, so a term orders the service's leaders, "
                              "not the lock's owners.")
            .arg(at(e.tick), tok(t, e.counter));
    case LockEventKind::FailedElection:
        return QStringLiteral("%1: an election failed (a split vote): a term passed with no "
                              "leader. The next leader's term is %2.")
            .arg(at(e.tick), tok(t, e.counter + 1));
    case LockEventKind::ClockStep: {
        if (e.ref >= s.lock.clockSteps.size())
            return {};
        const std::int64_t by = s.lock.clockSteps[e.ref].by;
        const QString clock = QString::number(qlonglong(wallClockAt(s.lock, e.tick)));
        if (by < 0)
            return QStringLiteral("%1: NTP stepped the lock server's clock back by %2, to %3. "
                                  "Tokens read from that clock can now be lower than, or equal "
                                  "to, tokens already handed out.")
                .arg(at(e.tick), num(std::uint64_t(-by)), clock);
        return QStringLiteral("%1: NTP stepped the lock server's clock forward by %2, to %3. "
                              "Tokens read from it jump ahead.")
            .arg(at(e.tick), num(std::uint64_t(by)), clock);
    }
    }
    return {};
}

QString explainRestart(const Scenario &s, const Trace &t, std::uint32_t index)
{
    if (index >= t.restarts.size() || t.restarts[index].storage >= s.storages.size())
        return {};
    const StorageRestart &r = t.restarts[index];
    const QString name = storageName(s, r.storage);
    if (r.forgot > 0)
        return QStringLiteral("%1: %2 restarted. Its data survived, but max_token %3 was kept in "
                              "memory only and is forgotten (now 0): a stale token passes "
                              "again.")
            .arg(at(r.tick), name, tok(t, r.forgot));
    if (s.storages[r.storage].durable)
        return QStringLiteral("%1: %2 restarted. Its data and max_token (persisted with the "
                              "data) survived.")
            .arg(at(r.tick), name);
    return QStringLiteral("%1: %2 restarted. Its data survived; max_token was 0, nothing to "
                          "forget.")
        .arg(at(r.tick), name);
}

QString explainLockDelayEnd(const Scenario &s, const Trace &t, std::uint32_t lease)
{
    const std::optional<TickRange> r = lockDelayAfter(s, t, lease);
    if (!r)
        return {};
    return QStringLiteral("%1: the lock-delay after %2's lease is over. The lease expired at %3 "
                          "without a release, so the lock service kept the lock from everyone "
                          "else for %4 ticks, in case %2 was still writing; now it can be "
                          "granted again.")
        .arg(at(r->to), clientName(s, t.leases[lease].client), at(r->from),
             num(s.lock.lockDelay));
}

namespace {

// "A", "A and B", "A, B and C"
QString names(const QStringList &list)
{
    if (list.size() <= 1)
        return list.join(QString());
    return QStringList(list.mid(0, list.size() - 1)).join(QStringLiteral(", ")) +
           QStringLiteral(" and ") + list.back();
}

QString storageSetup(const Scenario &s, const StorageSpec &spec)
{
    QString check;
    if (!s.fencing)
        check = QStringLiteral("which checks no token (fencing is off)");
    else if (spec.check == StorageCheck::Version)
        check = QStringLiteral("which applies a write only if its version is still the one the "
                               "writer read (compare-and-set)");
    else if (spec.rule == FenceRule::Le)
        check = QStringLiteral("which rejects a token not above the highest it has seen");
    else
        check = QStringLiteral("which rejects a token below the highest it has seen");
    if (s.fencing && spec.check == StorageCheck::Token && !spec.durable)
        check += QStringLiteral(", kept in memory only");
    return spec.name + QStringLiteral(", ") + check;
}

} // namespace

QString explainSetup(const Scenario &s)
{
    QStringList clients;
    for (const Client &c : s.clients)
        clients << c.name;
    QString text = QStringLiteral("%1 %2 one lock; its tokens are %3.")
                       .arg(names(clients), s.clients.size() == 1 ? QStringLiteral("uses")
                                                                  : QStringLiteral("share"),
                            describeSource(s.tokens));
    QStringList storages;
    for (const StorageSpec &spec : s.storages)
        storages << storageSetup(s, spec);
    text += QStringLiteral(" %1 to %2.")
                .arg(s.clients.size() == 1 ? QStringLiteral("It writes") : QStringLiteral("They write"),
                     storages.join(QStringLiteral("; and to ")));
    return text;
}

} // namespace Core
