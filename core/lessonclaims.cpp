// Judging a lesson's claims (lessonclaims.h). Names are looked up in the scenario each time, so
// a claim follows its write through any drag; outcomes, tokens, leases, beliefs and final
// states are read from the trace's own records and questions.

#include "lessonclaims.h"

#include "explain.h"
#include "tokensource.h"

#include <QStringList>

#include <algorithm>

namespace Core {
namespace {

QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

QString clientNames(const Scenario &s)
{
    QStringList names;
    for (const Client &c : s.clients)
        names << c.name;
    return names.join(QLatin1String(", "));
}

QString storageNames(const Scenario &s)
{
    QStringList names;
    for (const StorageSpec &st : s.storages)
        names << st.name;
    return names.join(QLatin1String(", "));
}

// Thrown inside judgeClaim and caught there: one line per check.
struct Unfit
{
    QString text;
};

[[noreturn]] void unfit(const QString &place, const QString &problem)
{
    throw Unfit{place + QLatin1String(": ") + problem};
}

std::uint32_t clientOf(const Scenario &s, const QString &name, const QString &place)
{
    const int c = s.clientIndex(name);
    if (c < 0)
        unfit(place,
              QStringLiteral("unknown client %1 (known: %2)").arg(quoted(name), clientNames(s)));
    return std::uint32_t(c);
}

QString writesWord(std::size_t n)
{
    return n == 1 ? QStringLiteral("write") : QStringLiteral("writes");
}

// The write action `w` names: its index in its client's actions.
std::uint32_t actionOf(const WriteRef &w, const Scenario &s, std::uint32_t client,
                       const QString &place)
{
    int storage = -1;
    if (!w.storage.isEmpty()) {
        storage = s.storageIndex(w.storage);
        if (storage < 0)
            unfit(place + QLatin1String(".storage"),
                  QStringLiteral("unknown storage %1 (known: %2)")
                      .arg(quoted(w.storage), storageNames(s)));
    }
    if (!w.value && w.nth == 0)
        unfit(place, QStringLiteral("name the write by its \"value\" or its \"nth\""));
    // the client's writes that fit, in the order they run: by tick, ties in listed order
    const std::vector<Action> &actions = s.clients[client].actions;
    std::vector<std::uint32_t> fits;
    for (std::uint32_t i = 0; i < actions.size(); ++i) {
        const Action &a = actions[i];
        if (a.kind == ActionKind::Write && (storage < 0 || a.storage == std::uint32_t(storage)) &&
            (!w.value || a.value == *w.value))
            fits.push_back(i);
    }
    std::stable_sort(fits.begin(), fits.end(), [&](std::uint32_t a, std::uint32_t b) {
        return actions[a].at < actions[b].at;
    });
    const QString what = (w.value ? QLatin1Char(' ') + quoted(*w.value) : QString()) +
                         (storage >= 0 ? QStringLiteral(" to ") + w.storage : QString());
    if (w.nth) {
        if (w.nth > fits.size())
            unfit(place + QLatin1String(".nth"),
                  fits.empty() ? QStringLiteral("%1 has no write%2").arg(w.client, what)
                               : QStringLiteral("%1 has only %2 %3%4, not %5")
                                     .arg(w.client)
                                     .arg(fits.size())
                                     .arg(writesWord(fits.size()), what)
                                     .arg(w.nth));
        return fits[w.nth - 1];
    }
    if (fits.empty())
        unfit(place + QLatin1String(".value"),
              QStringLiteral("%1 has no write%2").arg(w.client, what));
    if (fits.size() > 1)
        unfit(place + QLatin1String(".value"),
              QStringLiteral("%1 has %2 writes%3: say which with \"storage\" or \"nth\"")
                  .arg(w.client)
                  .arg(fits.size())
                  .arg(what));
    return fits.front();
}

// The event recording grant `g` (an index into trace.grants).
std::uint32_t grantEvent(const Trace &t, std::uint32_t g)
{
    for (std::uint32_t e = t.firstEventAt(t.grants[g].at);
         e < t.events.size() && t.events[e].tick == t.grants[g].at; ++e)
        if ((t.events[e].kind == EventKind::Grant || t.events[e].kind == EventKind::Renewal) &&
            t.events[e].ref == g)
            return e;
    return kNone;
}

// The event at `tick` of `kind` whose record is `ref`.
std::uint32_t eventOf(const Trace &t, Tick tick, EventKind kind, std::uint32_t ref)
{
    for (std::uint32_t e = t.firstEventAt(tick); e < t.events.size() && t.events[e].tick == tick;
         ++e)
        if (t.events[e].kind == kind && t.events[e].ref == ref)
            return e;
    return kNone;
}

// The grant `g` names (an index into trace.grants), or kNone when the run has no such grant.
std::uint32_t grantOf(const GrantRef &g, const Scenario &s, const Trace &t, const QString &place)
{
    const std::uint32_t client = clientOf(s, g.client, place + QLatin1String(".client"));
    const std::vector<Action> &actions = s.clients[client].actions;
    if (std::none_of(actions.begin(), actions.end(),
                     [](const Action &a) { return a.kind == ActionKind::Acquire; }))
        unfit(place + QLatin1String(".client"),
              QStringLiteral("%1 never acquires the lock").arg(g.client));
    std::vector<std::uint32_t> mine; // its grants, not its renewals, in the order they happened
    for (std::uint32_t i = 0; i < t.grants.size(); ++i)
        if (t.grants[i].client == client && !t.grants[i].renewal)
            mine.push_back(i);
    if (g.nth == 0 && mine.size() > 1)
        unfit(place, QStringLiteral("%1 is granted the lock %2 times in this run: say which with "
                                    "\"nth\"")
                         .arg(g.client)
                         .arg(mine.size()));
    const std::uint32_t n = std::max<std::uint32_t>(g.nth, 1);
    return n <= mine.size() ? mine[n - 1] : kNone;
}

ClaimOutcome outcomeOf(WriteResult r)
{
    switch (r) {
    case WriteResult::Accepted:
        return ClaimOutcome::Accepted;
    case WriteResult::Rejected:
        return ClaimOutcome::Rejected;
    case WriteResult::Corrupted:
        return ClaimOutcome::Corrupted;
    case WriteResult::LockedOut:
        return ClaimOutcome::LockedOut;
    }
    return ClaimOutcome::Accepted;
}

struct Settled
{
    Tick tick = 0;
    std::uint32_t event = kNone;
    std::uint32_t group = kNone; // a half-applied group's index
};

// The tick a group of writes is settled: when the last of its writes arrived or was skipped.
Settled groupSettled(const Scenario &s, const Trace &t, const GroupOutcome &g)
{
    Settled last;
    for (const std::uint32_t w : g.writes) {
        if (t.writes[w].arrivedAt >= last.tick) {
            last.tick = t.writes[w].arrivedAt;
            last.event = eventOf(t, last.tick, EventKind::WriteArrived, w);
        }
    }
    for (std::uint32_t k = 0; k < t.skips.size(); ++k) {
        const Skip &skip = t.skips[k];
        if (skip.client == g.client &&
            s.clients[skip.client].actions[skip.action].group() == g.name && skip.at >= last.tick) {
            last.tick = skip.at;
            last.event = eventOf(t, skip.at, EventKind::Skipped, k);
        }
    }
    return last;
}

// The first write (or skip, or half-applied group) with `outcome`, or nothing.
std::optional<Settled> firstWith(ClaimOutcome outcome, const Scenario &s, const Trace &t)
{
    if (outcome == ClaimOutcome::Partial) {
        std::optional<Settled> first;
        for (std::uint32_t i = 0; i < t.groups.size(); ++i) {
            if (!t.groups[i].partial)
                continue;
            Settled at = groupSettled(s, t, t.groups[i]);
            at.group = i;
            if (!first || at.tick < first->tick)
                first = at;
        }
        return first;
    }
    for (std::uint32_t e = 0; e < t.events.size(); ++e) {
        const Event &ev = t.events[e];
        if (outcome == ClaimOutcome::Skipped ? ev.kind == EventKind::Skipped
                                             : ev.kind == EventKind::WriteArrived &&
                                                   outcomeOf(t.writes[ev.ref].result) == outcome)
            return Settled{ev.tick, e};
    }
    return std::nullopt;
}

// Stretches of time owned by clients: whether two clients' stretches overlap, and from when.
struct Stretch
{
    Tick from;
    Tick to;
    std::uint32_t client;
};

std::optional<Stretch> firstOverlap(std::vector<Stretch> stretches)
{
    std::stable_sort(stretches.begin(), stretches.end(),
                     [](const Stretch &a, const Stretch &b) { return a.from < b.from; });
    // the latest end so far, and the latest end of any other client than its own
    struct End
    {
        Tick to = 0;
        std::uint32_t client = kNone;
    } first, second;
    for (const Stretch &s : stretches) {
        if (s.to <= s.from)
            continue;
        const Tick other = first.client != s.client ? first.to : second.to;
        if (s.from < other)
            return s;
        if (s.client == first.client) {
            first.to = std::max(first.to, s.to);
        } else if (s.to > first.to) {
            second = first;
            first = {s.to, s.client};
        } else if (s.client == second.client) {
            second.to = std::max(second.to, s.to);
        } else if (s.to > second.to) {
            second = {s.to, s.client};
        }
    }
    return std::nullopt;
}

// The grant or renewal of `client` at `tick` (where a lease or a belief starts).
std::uint32_t startEvent(const Trace &t, std::uint32_t client, Tick tick)
{
    for (std::uint32_t e = t.firstEventAt(tick); e < t.events.size() && t.events[e].tick == tick;
         ++e)
        if (t.events[e].client == client &&
            (t.events[e].kind == EventKind::Grant || t.events[e].kind == EventKind::Renewal))
            return e;
    return kNone;
}

void judgeWrite(const Claim &c, const Scenario &s, const Trace &t, ClaimVerdict &v)
{
    const std::uint32_t client = clientOf(s, c.write.client, QStringLiteral("write.client"));
    const std::uint32_t action = actionOf(c.write, s, client, QStringLiteral("write"));
    const std::uint32_t e = outcomeEvent(s, t, client, action);
    const QString name = writeRefText(c.write);
    if (e == kNone)
        return; // it never ran: no outcome, so none of the claimed ones
    const Event &ev = t.events[e];
    if (ev.kind == EventKind::Skipped) {
        v.holds = c.outcome == ClaimOutcome::Skipped;
        v.shownWhat = name + QStringLiteral(" is skipped");
    } else if (ev.kind == EventKind::WriteArrived) {
        v.holds = c.outcome == outcomeOf(t.writes[ev.ref].result);
        v.shownWhat = name + QStringLiteral(" arrives");
    } else {
        return; // still on its way (not in a complete run)
    }
    v.decidedAt = v.shownAt = ev.tick;
    v.event = e;
}

void judgeFinal(const Claim &c, const Scenario &s, const Trace &t, ClaimVerdict &v)
{
    const int storage = s.storageIndex(c.storage);
    if (storage < 0)
        unfit(QStringLiteral("storage"), QStringLiteral("unknown storage %1 (known: %2)")
                                             .arg(quoted(c.storage), storageNames(s)));
    const StorageState &end = t.finals[std::size_t(storage)];
    v.holds = c.finalValue ? end.value == *c.finalValue : end.maxToken == c.finalMaxToken;
    // settled by the storage's last change: its last arrival, or a later restart (a restart
    // comes before the arrivals of its tick); one that never changes is settled by the end
    bool changed = false;
    const std::vector<std::uint32_t> &arrivals = t.storageWrites[std::size_t(storage)];
    if (!arrivals.empty()) {
        const std::uint32_t w = arrivals.back();
        v.decidedAt = t.writes[w].arrivedAt;
        v.event = eventOf(t, v.decidedAt, EventKind::WriteArrived, w);
        changed = true;
    }
    for (const StorageRestart &r : t.restarts) {
        if (r.storage == std::uint32_t(storage) && (!changed || r.tick > v.decidedAt)) {
            v.decidedAt = r.tick;
            v.event = kNone;
            changed = true;
        }
    }
    if (!changed)
        v.decidedAt = lastEventTick(t);
}

void judgeGrant(const Claim &c, const Scenario &s, const Trace &t, ClaimVerdict &v)
{
    const std::uint32_t g = grantOf(c.grant, s, t, QStringLiteral("grant"));
    const bool compared =
        c.test == TokenTest::Above || c.test == TokenTest::Below || c.test == TokenTest::Same;
    const QString otherKey = c.test == TokenTest::Above   ? QStringLiteral("above")
                             : c.test == TokenTest::Below ? QStringLiteral("below")
                                                          : QStringLiteral("same");
    const std::uint32_t o = compared ? grantOf(c.other, s, t, otherKey) : kNone;
    // what it says shows once every grant it names has been made: at the later one (a
    // comparison with a grant already on screen is still a question)
    for (const auto &[grant, ref] : {std::pair{g, c.grant}, std::pair{o, c.other}}) {
        if (grant == kNone)
            continue;
        if (t.grants[grant].at >= v.decidedAt) {
            v.decidedAt = t.grants[grant].at;
            v.event = grantEvent(t, grant);
            v.shownAt = t.grants[grant].at;
            v.shownWhat = grantRefText(ref) + QStringLiteral(" is made");
        }
    }
    if (g == kNone || (compared && o == kNone)) {
        v.shownAt = kForever;
        v.shownWhat.clear();
        // a grant that never happens carries nothing: only the end of the run says so
        v.decidedAt = lastEventTick(t);
        v.event = kNone;
        return;
    }
    const bool tokens = t.tokens != TokenSource::None;
    const Token mine = t.grants[g].token;
    switch (c.test) {
    case TokenTest::Equals:
        v.holds = tokens && mine == c.token;
        break;
    case TokenTest::Written:
        v.holds = formatToken(t.tokens, mine) == c.tokenText;
        break;
    case TokenTest::NoToken:
        v.holds = !tokens;
        break;
    case TokenTest::Above:
        v.holds = tokens && mine > t.grants[o].token;
        break;
    case TokenTest::Below:
        v.holds = tokens && mine < t.grants[o].token;
        break;
    case TokenTest::Same:
        v.holds = tokens && mine == t.grants[o].token;
        break;
    }
}

void judgeSomeOrNo(const Claim &c, const Scenario &s, const Trace &t, ClaimVerdict &v)
{
    const std::optional<Settled> first = firstWith(c.outcome, s, t);
    v.holds = (c.kind == ClaimKind::Some) == first.has_value();
    if (first) {
        v.decidedAt = first->tick;
        v.event = first->event;
        if (v.holds)
            v.group = first->group;
    } else {
        v.decidedAt = lastEventTick(t);
    }
}

void judgeOverlap(const Claim &c, const Trace &t, ClaimVerdict &v)
{
    std::vector<Stretch> stretches;
    if (c.kind == ClaimKind::Lock) {
        // the lock service's leases, as its lane draws them
        for (const Lease &l : t.leases)
            stretches.push_back({l.start, l.end, l.client});
    } else {
        for (std::uint32_t client = 0; client < t.beliefs.size(); ++client)
            for (const Belief &b : t.beliefs[client])
                stretches.push_back({b.from, b.to, client});
    }
    const std::optional<Stretch> overlap = firstOverlap(std::move(stretches));
    v.holds = c.exclusive != overlap.has_value();
    if (overlap) {
        v.decidedAt = overlap->from;
        v.event = startEvent(t, overlap->client, overlap->from);
    } else {
        v.decidedAt = lastEventTick(t);
    }
}

QString listLetters(const std::vector<int> &options)
{
    QStringList letters;
    for (const int o : options)
        letters << optionLetter(std::size_t(o));
    if (letters.size() == 2)
        return letters.join(QLatin1String(" and "));
    const QString last = letters.takeLast();
    return letters.join(QLatin1String(", ")) + QLatin1String(" and ") + last;
}

} // namespace

Tick lastEventTick(const Trace &trace)
{
    return trace.events.empty() ? 0 : trace.events.back().tick;
}

ClaimVerdict judgeClaim(const Claim &claim, const Scenario &scenario, const Trace &trace)
{
    ClaimVerdict v;
    try {
        switch (claim.kind) {
        case ClaimKind::Write:
            judgeWrite(claim, scenario, trace, v);
            if (v.event == kNone)
                v.decidedAt = lastEventTick(trace);
            break;
        case ClaimKind::Final:
            judgeFinal(claim, scenario, trace, v);
            break;
        case ClaimKind::Grant:
            judgeGrant(claim, scenario, trace, v);
            break;
        case ClaimKind::Some:
        case ClaimKind::No:
            judgeSomeOrNo(claim, scenario, trace, v);
            break;
        case ClaimKind::Lock:
        case ClaimKind::Belief:
            judgeOverlap(claim, trace, v);
            break;
        }
    } catch (const Unfit &u) {
        ClaimVerdict bad;
        bad.error = u.text;
        return bad;
    }
    return v;
}

std::vector<int> QuestionVerdict::holding() const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < options.size(); ++i)
        if (options[i].error.isEmpty() && options[i].holds)
            out.push_back(int(i));
    return out;
}

QuestionVerdict judgeQuestion(const LessonQuestion &q, const Scenario &scenario, const Trace &trace,
                              const SceneView *view)
{
    QuestionVerdict r;
    for (const LessonOption &o : q.options)
        r.options.push_back(judgeClaim(o.claim, scenario, trace));
    for (std::size_t i = 0; i < r.options.size(); ++i) {
        if (!r.options[i].error.isEmpty()) {
            r.error = QStringLiteral("options[%1].claim.%2").arg(i).arg(r.options[i].error);
            return r;
        }
    }
    // the freeze must leave every claim's answer to come
    for (std::size_t i = 0; i < r.options.size(); ++i) {
        const ClaimVerdict &v = r.options[i];
        if (v.shownAt <= q.freeze) {
            r.error = QStringLiteral("freeze: must be before t=%1, when %2 (option %3 names it): "
                                     "the answer would already be on screen; not %4")
                          .arg(v.shownAt)
                          .arg(v.shownWhat, optionLetter(i))
                          .arg(q.freeze);
            return r;
        }
    }
    const Tick last = lastEventTick(trace);
    if (q.freeze >= last) {
        r.error = QStringLiteral("freeze: must be before the run's last event at t=%1: after it "
                                 "there is nothing left to predict; not %2")
                      .arg(last)
                      .arg(q.freeze);
        return r;
    }
    const std::vector<int> holding = r.holding();
    if (holding.empty()) {
        r.problem = QStringLiteral("no option holds in this run; a question needs exactly one");
        return r;
    }
    if (holding.size() > 1) {
        r.problem = QStringLiteral("options %1 %2 hold in this run; a question needs exactly one")
                        .arg(listLetters(holding),
                             holding.size() == 2 ? QStringLiteral("both") : QStringLiteral("all"));
        return r;
    }
    r.right = holding.front();
    const ClaimVerdict &right = r.options[std::size_t(r.right)];
    r.reveal = right.decidedAt;
    r.revealEvent = right.event;
    if (r.reveal <= q.freeze)
        r.problem = QStringLiteral("option %1 holds, but what settles it happens at t=%2, not "
                                   "after the freeze at t=%3: the answer is on screen before "
                                   "the reveal")
                        .arg(optionLetter(std::size_t(r.right)))
                        .arg(r.reveal)
                        .arg(q.freeze);
    else if (view && view->to && r.reveal > *view->to)
        r.problem = QStringLiteral("option %1 holds, but what settles it happens at t=%2, after "
                                   "the end of the scene's view (to %3): the reveal would be off "
                                   "screen")
                        .arg(optionLetter(std::size_t(r.right)))
                        .arg(r.reveal)
                        .arg(*view->to);
    return r;
}

QString revealExplanation(const Scenario &scenario, const Trace &trace,
                          const QuestionVerdict &verdict)
{
    const std::uint32_t group =
        verdict.right >= 0 ? verdict.options[std::size_t(verdict.right)].group : kNone;
    if (group != kNone && group < trace.groups.size())
        return explainGroup(scenario, trace, group);
    if (verdict.revealEvent != kNone && verdict.revealEvent < trace.events.size())
        return explainEvent(scenario, trace, verdict.revealEvent);
    return summarize(scenario, trace);
}

} // namespace Core
