// Find and shrink (core/shrink.h). The shrinker's results are checked here without trusting
// it: each still fails when simulated, and every single removal of an action and every one-tick
// shortening of a duration is simulated here to show that the failure then disappears. A
// failure keeps its story (core/failurestory.h), judged here by the test's own reading of the
// trace: a stale write, unless any write of the outcome is asked for.

#include "failurestory.h"
#include "presetfile.h"
#include "randomscenario.h"
#include "scenariofile.h"
#include "shrink.h"
#include "simulator.h"
#include "sweep.h"

#include <QTest>

using namespace Core;

namespace {

std::uint64_t corrupted(const Scenario &s, bool fencing)
{
    return simulate(s, fencing).summary.corrupted;
}

// The test's own reading of a stale write: granted (epoch != 0), due (its action's tick) while
// that epoch's lease was live, arrived after the lease ended.
bool staleWrite(const Scenario &s, const Trace &t, const Write &w)
{
    if (w.epoch == 0 || !w.expired)
        return false;
    const Tick due = s.clients[w.client].actions[w.action].at;
    const Lease &lease = t.leases[w.epoch - 1];
    return lease.start <= due && due < lease.end;
}

std::uint64_t failures(const Scenario &s, const FailureTarget &target)
{
    const Trace t = simulate(s, target.fencing);
    const QString &name = outcomes()[target.outcome].name;
    if (target.any || (name != QLatin1String("corrupted") && name != QLatin1String("rejected")))
        return outcomes()[target.outcome].writes(t); // (a lock-out is the holder's own write)
    const WriteResult result =
        name == QLatin1String("corrupted") ? WriteResult::Corrupted : WriteResult::Rejected;
    std::uint64_t n = 0;
    for (const Write &w : t.writes)
        n += w.result == result && staleWrite(s, t, w);
    return n;
}

// Empty when `s` fails and is 1-minimal for `target`; else what breaks it. Every removal of
// one action, and every one-tick shortening of a duration, of a checked write's gap and of a
// keepalive period (not below 1: 0 is no keepalive), is simulated here.
QString oneMinimalFailure(const Scenario &s, const FailureTarget &target)
{
    if (failures(s, target) == 0)
        return QStringLiteral("does not fail");
    for (std::size_t c = 0; c < s.clients.size(); ++c) {
        for (std::size_t a = 0; a < s.clients[c].actions.size(); ++a) {
            const QString where = QStringLiteral("action %1 of client %2").arg(a).arg(c);
            Scenario without = s;
            without.clients[c].actions.erase(without.clients[c].actions.begin() + long(a));
            if (failures(without, target) > 0)
                return QStringLiteral("still fails without ") + where;
            const Action &action = s.clients[c].actions[a];
            if (action.kind == ActionKind::Write && action.check && action.gap() > 0) {
                Scenario shorter = s;
                shorter.clients[c].actions[a].setGap(action.gap() - 1);
                if (failures(shorter, target) > 0)
                    return QStringLiteral("still fails with the gap of %1 one tick shorter")
                        .arg(where);
            }
            if (action.kind == ActionKind::Acquire && action.keepalive() > 1) {
                Scenario shorter = s;
                shorter.clients[c].actions[a].setKeepalive(action.keepalive() - 1);
                if (failures(shorter, target) > 0)
                    return QStringLiteral("still fails with the keepalive of %1 one tick shorter")
                        .arg(where);
            }
            const Tick floor =
                action.kind == ActionKind::Write || action.kind == ActionKind::Read ? 0 : 1;
            if (action.kind == ActionKind::Release || action.amount <= floor)
                continue;
            Scenario shorter = s;
            --shorter.clients[c].actions[a].amount;
            if (failures(shorter, target) > 0)
                return QStringLiteral("still fails with %1 one tick shorter").arg(where);
        }
    }
    return {};
}

QString oneMinimalFailure(const Scenario &s, bool fencing)
{
    return oneMinimalFailure(s, FailureTarget{0, fencing});
}

using TestSupport::preset;

// The loader takes the scenario back as it is: every shrink step left a valid file.
QString reloads(const Scenario &s)
{
    const LoadResult back = ScenarioFile::parse(ScenarioFile::serialize(s));
    if (!back.ok())
        return back.error;
    return *back.scenario == s ? QString() : QStringLiteral("reloads different");
}

bool hasMove(const ShrinkResult &r, ShrinkMove move)
{
    for (const ShrinkStep &step : r.steps)
        if (step.move == move)
            return true;
    return false;
}

void checkSteps(const Scenario &start, const ShrinkResult &r, const FailureTarget &target)
{
    QCOMPARE(replaySteps(start, r.steps, r.steps.size()), r.shrunk);
    for (std::size_t i = 0; i <= r.steps.size(); ++i)
        QVERIFY2(failures(replaySteps(start, r.steps, i), target) > 0,
                 qPrintable(QStringLiteral("step %1").arg(i)));
    for (const ShrinkStep &step : r.steps)
        QVERIFY(!step.text.isEmpty());
}

void checkSteps(const Scenario &start, const ShrinkResult &r, bool fencing)
{
    checkSteps(start, r, FailureTarget{0, fencing});
}

} // namespace

class tst_Shrink : public QObject
{
    Q_OBJECT

private slots:
    // The seed's scenario, unfenced: A's stale write overwrites B's, and keeps doing so while
    // it shrinks. By hand, in the shrinker's order (passes of: clients from the last, actions
    // from the last, then durations and ticks from the first, each one tick down first, then
    // bisected). A pause at t freezes everything due from t on, its own tick's actions too.
    // Pass 1: B's first acquire goes (its second still gives B the newer epoch); nothing else
    // can (without A's acquire its write is untagged, no story; without the pause it goes out
    // at 2 on a live lease). A's TTL 10 -> 3: its write, due at 2, must fall inside its lease.
    // A's pause 29 -> 13: the thaw 1 + 13 comes after B's write at 13 (at 13 A's lane goes
    // first). B's TTL -> 1. A's write moves to 1 (at 0 it would go out before the pause); B's
    // acquire to 3, when A's lease [0, 3) has ended; B's write to 3, right after it.
    // Pass 2: A's TTL 3 -> 2 (due 1 inside [0, 2)); the pause 13 -> 3 (thaw 4 after B's write at
    // 3); B's acquire and write to 2. Pass 3: the pause 3 -> 2 (thaw 3 after B's write at 2).
    // Pass 4 changes nothing: a TTL of 1 leaves the write due at 1 outside [0, 1); a 1-tick
    // pause thaws at 2, B's tick, where A goes first; the pause at 0 would freeze the acquire.
    // Left: A takes the lock with a 2-tick lease, freezes at 1 for 2 ticks with its write due
    // at 1; B takes it at 2 and writes; A's write goes out at 3 with token 1, a tick after its
    // lease ended: the pause outlasts the lease.
    void seedScenarioKeepsItsStory()
    {
        const Scenario seed = ScenarioFile::defaultScenario();
        const FailureTarget target{0, false};
        QVERIFY(!target.any); // the story is the default
        QVERIFY(hasFailure(seed, target));
        const ShrinkResult r = shrink(seed, target);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.shrunk.clients.size(), std::size_t(2));
        Action pause = Action::pause(1, 2);
        QCOMPARE(r.shrunk.clients[0].actions,
                 std::vector<Action>(
                     {Action::acquire(0, 2), pause, Action::write(1, QStringLiteral("A"))}));
        QCOMPARE(
            r.shrunk.clients[1].actions,
            std::vector<Action>({Action::acquire(2, 1), Action::write(2, QStringLiteral("B"))}));
        QCOMPARE(oneMinimalFailure(r.shrunk, target), QString());
        checkSteps(seed, r, target);
        const QStringList steps = [&r] {
            QStringList out;
            for (const ShrinkStep &step : r.steps)
                out << step.text;
            return out;
        }();
        QCOMPARE(steps,
                 QStringList({
                     QStringLiteral("removed B's acquire at t=5"),
                     QStringLiteral("shortened the TTL of A's acquire at t=0 from 10 to 3"),
                     QStringLiteral("shortened the length of A's pause at t=1 from 29 to 13"),
                     QStringLiteral("shortened the TTL of B's acquire at t=12 from 10 to 1"),
                     QStringLiteral("moved A's write \"A\" at t=2 to t=1"),
                     QStringLiteral("moved B's acquire at t=12 to t=3"),
                     QStringLiteral("moved B's write \"B\" at t=13 to t=3"),
                     QStringLiteral("shortened the TTL of A's acquire at t=0 from 3 to 2"),
                     QStringLiteral("shortened the length of A's pause at t=1 from 13 to 3"),
                     QStringLiteral("moved B's acquire at t=3 to t=2"),
                     QStringLiteral("moved B's write \"B\" at t=3 to t=2"),
                     QStringLiteral("shortened the length of A's pause at t=1 from 3 to 2"),
                 }));
        // the story, read off the trace: A granted [0, 2), frozen [1, 3), its write due at 1
        // sent at 3 with token 1 after B's token 2 at 2
        const Trace t = simulate(r.shrunk, false);
        QCOMPARE(t.leases.size(), std::size_t(2));
        QCOMPARE(t.leases[0].start, Tick(0));
        QCOMPARE(t.leases[0].end, Tick(2));
        QCOMPARE(t.freezes[0].size(), std::size_t(1));
        QCOMPARE(t.freezes[0][0].from, Tick(1));
        QCOMPARE(t.freezes[0][0].to, Tick(3)); // past the lease's end
        QCOMPARE(t.writes.size(), std::size_t(2));
        const Write &stale = t.writes[1];
        QCOMPARE(stale.client, 0u);
        QCOMPARE(stale.sentAt, Tick(3));
        QCOMPARE(t.tokenOf(stale), Token(1));
        QVERIFY(stale.expired);
        QVERIFY(stale.result == WriteResult::Corrupted);
        QCOMPARE(firstStoryWrite(r.shrunk, t, 0), 1u);
    }

    // The same shrink when any corrupted write will do: the old result, where A writes
    // without ever taking the lock. Worked through by hand in the shrinker's order: B's first
    // acquire goes, then A's acquire (an untagged write after B's tagged one is still
    // corrupted); A's pause shrinks to 13 (the write must go out after B's at 13), B's TTL to
    // 1, A's write moves to t=1, B's acquire and write to t=0; then A's pause only has to
    // carry the write past t=0: 1 tick, and then not at all.
    void seedScenarioAnyCorruption()
    {
        const Scenario seed = ScenarioFile::defaultScenario();
        const FailureTarget target{0, false, true};
        QVERIFY(hasFailure(seed, target));
        QVERIFY(!hasFailure(seed, {0, true, true}));
        const ShrinkResult r = shrink(seed, target);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.shrunk.clients.size(), std::size_t(2));
        QCOMPARE(r.shrunk.clients[0].actions,
                 std::vector<Action>({Action::write(1, QStringLiteral("A"))}));
        QCOMPARE(
            r.shrunk.clients[1].actions,
            std::vector<Action>({Action::acquire(0, 1), Action::write(0, QStringLiteral("B"))}));
        QCOMPARE(oneMinimalFailure(r.shrunk, target), QString());
        checkSteps(seed, r, target);
        QCOMPARE(r.steps.front().text, QStringLiteral("removed B's acquire at t=5"));
        QCOMPARE(r.steps[1].text, QStringLiteral("removed A's acquire at t=0"));
        QVERIFY(r.simulations > r.steps.size());
        // that write is no stale one: A never held the lock
        QVERIFY(!hasFailure(r.shrunk, {0, false}));
    }

    // The seed's shape, searched with seed 3 and shrunk, story kept. Schedule 1070 is the first
    // with a stale corrupted write; whatever it held, the shrunk schedule is 1-minimal, and
    // this one is: A: acquire at 0 (ttl 3), pause at 2 for 2, write "A2" at 2; B: acquire at 3
    // (ttl 1), write "B2" at 3. A's lease is [0, 3); its write, due at 2 inside it, is frozen
    // in [2, 4) and goes out at the thaw 4 with token 1, after B's token-2 write at 3: corrupted.
    // A TTL of 2 leaves the write due outside the lease; a 1-tick pause thaws at 3, where A's
    // lane goes first; without the acquire the write is untagged, without the pause it goes out
    // at 2 on a live lease, without B's acquire or write nothing newer lands first.
    // Any corruption (the search as it was) ends with A writing untagged at 1 over B's write.
    void foundAndShrunkKeepsTheStory()
    {
        const Scenario shape = ScenarioFile::defaultScenario();
        const FailureTarget target{0, false};
        const FindResult found = findFailure(shape, target, 3, 100000);
        QVERIFY(found.schedule);
        QCOMPARE(found.run, std::uint64_t(1070));
        QVERIFY(failures(*found.schedule, target) > 0);
        QVERIFY(found.schedule->description.contains(QLatin1String(
            "the first of 1071 tried with a stale corrupted write with fencing off")));
        // the schedules before it had no stale corrupted write (some had another corruption)
        const ScheduleShape sh = shapeOf(shape);
        std::uint64_t otherCorruptions = 0;
        for (std::uint64_t run = 0; run < found.run; ++run) {
            const Scenario s = generateSchedule(sh, scheduleSeed(3, run));
            QCOMPARE(failures(s, target), std::uint64_t(0));
            otherCorruptions += corrupted(s, false) > 0;
        }
        QVERIFY(otherCorruptions > 0);
        const ShrinkResult r = shrink(*found.schedule, target);
        QCOMPARE(oneMinimalFailure(r.shrunk, target), QString());
        checkSteps(*found.schedule, r, target);
        QCOMPARE(r.shrunk.clients[0].actions,
                 std::vector<Action>({Action::acquire(0, 3), Action::pause(2, 2),
                                      Action::write(2, QStringLiteral("A2"))}));
        QCOMPARE(
            r.shrunk.clients[1].actions,
            std::vector<Action>({Action::acquire(3, 1), Action::write(3, QStringLiteral("B2"))}));

        const FailureTarget any{0, false, true};
        const FindResult first = findFailure(shape, any, 3, 100000);
        QCOMPARE(first.run, std::uint64_t(2)); // README's example
        const ShrinkResult old = shrink(*first.schedule, any);
        QCOMPARE(old.shrunk.clients[0].actions,
                 std::vector<Action>({Action::write(1, QStringLiteral("A1"))}));
        QCOMPARE(
            old.shrunk.clients[1].actions,
            std::vector<Action>({Action::acquire(0, 1), Action::write(0, QStringLiteral("B1"))}));
    }

    // The story of each outcome, decided once in core: corrupted and rejected a stale write,
    // lockedOut the live holder's own write, partial and skipped as the checker counts them.
    void storyOfEachOutcome()
    {
        QCOMPARE(storyOf(std::size_t(outcomeIndex(QStringLiteral("corrupted")))),
                 FailureStory::StaleWrite);
        QCOMPARE(storyOf(std::size_t(outcomeIndex(QStringLiteral("rejected")))),
                 FailureStory::StaleWrite);
        QCOMPARE(storyOf(std::size_t(outcomeIndex(QStringLiteral("lockedOut")))),
                 FailureStory::HoldersWrite);
        QCOMPARE(storyOf(std::size_t(outcomeIndex(QStringLiteral("partial")))),
                 FailureStory::Counted);
        QCOMPARE(storyOf(std::size_t(outcomeIndex(QStringLiteral("skipped")))),
                 FailureStory::Counted);
        QCOMPARE(targetText({0, false}), QStringLiteral("stale corrupted write"));
        QCOMPARE(targetText({0, false, true}), QStringLiteral("corrupted write"));
        QCOMPARE(targetText({std::size_t(outcomeIndex(QStringLiteral("lockedOut"))), true}),
                 QStringLiteral("locked-out write of the live holder"));
        QCOMPARE(targetText({std::size_t(outcomeIndex(QStringLiteral("partial"))), true}),
                 QStringLiteral("half-applied update"));
    }

    // Which writes are stale, worked out by hand on small runs (one storage, counter tokens).
    void staleWrites()
    {
        const auto run = [](std::vector<Action> a, std::vector<Action> b) {
            Scenario s;
            s.storages = {StorageSpec::named(QStringLiteral("db"))};
            Client ca, cb;
            ca.name = QStringLiteral("A");
            ca.actions = std::move(a);
            cb.name = QStringLiteral("B");
            cb.actions = std::move(b);
            s.clients = {ca, cb};
            return s;
        };
        const auto staleOf = [](const Scenario &s, bool fencing) {
            const Trace t = simulate(s, fencing);
            std::vector<bool> out;
            for (const Write &w : t.writes)
                out.push_back(isStaleWrite(s, t, w));
            return out;
        };
        // the seed itself: A's write, due at 2 inside [0, 10), goes out at 30
        const Scenario seed = ScenarioFile::defaultScenario();
        QCOMPARE(staleOf(seed, true), std::vector<bool>({false, true})); // B's, then A's
        // A writes at 2 after its lease [0, 1) ended: expired, but not made under the lock
        const Scenario late = run({Action::acquire(0, 1), Action::write(2, QStringLiteral("A"))},
                                  {Action::acquire(1, 5), Action::write(1, QStringLiteral("B"))});
        QCOMPARE(simulate(late, false).writes[1].expired, true);
        QCOMPARE(simulate(late, false).summary.corrupted, std::uint64_t(1));
        QCOMPARE(staleOf(late, false), std::vector<bool>({false, false}));
        // the network holds it: due at 5 inside [0, 10), a 10-tick delay, arrives at 15
        const Scenario slow =
            run({Action::acquire(0, 10), Action::write(5, QStringLiteral("A"), 0, 10)},
                {Action::acquire(12, 5), Action::write(12, QStringLiteral("B"))});
        QCOMPARE(staleOf(slow, true), std::vector<bool>({true, false})); // sent first
        QVERIFY(simulate(slow, true).writes[0].result == WriteResult::Rejected);
        // a renewal at 3 makes the lease [0, 8): due at 6 inside it, 5 ticks of delay
        const Scenario renewed = run({Action::acquire(0, 5), Action::acquire(3, 5),
                                      Action::write(6, QStringLiteral("A"), 0, 5)},
                                     {});
        QCOMPARE(simulate(renewed, true).leases.front().end, Tick(8));
        QCOMPARE(staleOf(renewed, true), std::vector<bool>({true}));
        // an untagged write is never one: B never held the lock (A's, after its pause, is)
        const Scenario untagged = run(
            {Action::acquire(0, 10), Action::pause(1, 20), Action::write(2, QStringLiteral("A"))},
            {Action::write(5, QStringLiteral("B"))});
        QCOMPARE(staleOf(untagged, true), std::vector<bool>({false, true}));
        // storyCount: the seed fenced has one stale rejected write, and no other story
        const Trace t = simulate(seed, true);
        QCOMPARE(storyCount(seed, t, std::size_t(outcomeIndex(QStringLiteral("rejected")))),
                 std::uint64_t(1));
        QCOMPARE(storyCount(seed, t, 0), std::uint64_t(0));
        QCOMPARE(firstStoryWrite(seed, t, std::size_t(outcomeIndex(QStringLiteral("rejected")))),
                 1u);
        // an untagged write rejected is no story; the checker still counts it
        const Trace u = simulate(untagged, true);
        QCOMPARE(u.summary.rejected, std::uint64_t(1));
        QCOMPARE(storyCount(untagged, u, std::size_t(outcomeIndex(QStringLiteral("rejected")))),
                 std::uint64_t(0));
    }

    void findThenShrink_data()
    {
        QTest::addColumn<quint64>("seed");
        for (quint64 seed : {1, 2, 3, 17, 99})
            QTest::newRow(qPrintable(QString::number(seed))) << seed;
    }
    void findThenShrink()
    {
        QFETCH(quint64, seed);
        Scenario shape = ScenarioFile::defaultScenario();
        shape.clients.push_back(shape.clients[1]);
        shape.clients.back().name = QStringLiteral("C");
        shape.clients[1].actions.push_back(Action::release(8));
        shape.clients[1].actions.push_back(Action::pause(9, 4));
        const FindResult found = findFailure(shape, {0, false}, seed, 10000);
        QVERIFY(found.schedule);
        QCOMPARE(found.tried, found.run + 1);
        QVERIFY(failures(*found.schedule, {0, false}) > 0);
        QVERIFY(!found.schedule->fencing);
        // the same search finds the same schedule
        const FindResult again = findFailure(shape, {0, false}, seed, 10000);
        QCOMPARE(again.run, found.run);
        QCOMPARE(*again.schedule, *found.schedule);
        // the schedules before it had no stale corrupted write
        const ScheduleShape sh = shapeOf(shape);
        for (std::uint64_t run = 0; run < found.run; ++run)
            QCOMPARE(failures(generateSchedule(sh, scheduleSeed(seed, run)), {0, false}),
                     std::uint64_t(0));
        QCOMPARE(found.schedule->clients,
                 generateSchedule(sh, scheduleSeed(seed, found.run)).clients);

        const ShrinkResult r = shrink(*found.schedule, {0, false});
        QVERIFY(r.shrunk.actionCount() <= found.schedule->actionCount());
        QCOMPARE(oneMinimalFailure(r.shrunk, false), QString());
        checkSteps(*found.schedule, r, false);
    }

    // A long random schedule (3 clients, 200 actions, two storages, delays) shrinks too, with
    // its story and with any corruption.
    void longSchedule_data()
    {
        QTest::addColumn<bool>("any");
        QTest::newRow("story") << false;
        QTest::newRow("any") << true;
    }
    void longSchedule()
    {
        QFETCH(bool, any);
        const FailureTarget target{0, false, any};
        TestSupport::RandomScenarioOptions o;
        o.minClients = o.maxClients = 3;
        o.minStorages = o.maxStorages = 2;
        o.span = 400;
        o.minActions = 66;
        o.maxActions = 68;
        o.fencing = false;
        int shrunk = 0;
        for (std::uint64_t seed = 1; shrunk < 3 && seed < 200; ++seed) {
            const Scenario s = TestSupport::randomScenario(seed, o);
            if (failures(s, target) == 0)
                continue;
            QVERIFY(s.actionCount() >= 198);
            const ShrinkResult r = shrink(s, target);
            QVERIFY(r.shrunk.actionCount() < 10);
            QCOMPARE(oneMinimalFailure(r.shrunk, target), QString());
            checkSteps(s, r, target);
            ++shrunk;
        }
        QCOMPARE(shrunk, 3);
    }

    // With fencing on, rule lt and counter tokens there is nothing to find.
    void fencedCounterNeverCorrupts()
    {
        Scenario shape = ScenarioFile::defaultScenario();
        shape.clients.push_back(shape.clients[0]);
        shape.clients.back().name = QStringLiteral("C");
        const FindResult found = findFailure(shape, {0, true}, 1, 20000);
        QVERIFY(!found.schedule);
        QCOMPARE(found.tried, std::uint64_t(20000));
        // the same search with fencing off finds one at once
        QVERIFY(findFailure(shape, {0, false}, 1, 20000).schedule);
    }

    // Other outcomes: the too-strict rule `le` locks the live holder out when it writes twice.
    void lockedOut()
    {
        Scenario shape = ScenarioFile::defaultScenario();
        shape.storages[0].rule = FenceRule::Le;
        const FailureTarget target{std::size_t(outcomeIndex(QStringLiteral("lockedOut"))), true};
        const FindResult found = findFailure(shape, target, 4, 10000);
        QVERIFY(found.schedule);
        const ShrinkResult r = shrink(*found.schedule, target);
        QVERIFY(simulate(r.shrunk, true).summary.lockedOut > 0);
        // one acquire and two writes with its token: the second is locked out
        QCOMPARE(r.shrunk.actionCount(), std::size_t(3));
    }

    // journalnode-volatile-max-token's shape, fencing on: schedules where a restart makes the
    // storage forget max_token let a stale write through. The search finds one, the shrinker
    // keeps the storage (volatile, its restart) and takes the rest apart to 1-minimal.
    void fencedCorruptionOfAVolatileStorage()
    {
        const Scenario shape = preset("journalnode-volatile-max-token");
        const FailureTarget target{0, true};
        const FindResult found = findFailure(shape, target, 1, 100000);
        QVERIFY(found.schedule);
        QVERIFY(corrupted(*found.schedule, true) > 0);
        QVERIFY(found.schedule->storages == shape.storages);
        const ShrinkResult r = shrink(*found.schedule, target);
        QVERIFY(!r.cancelled);
        QCOMPARE(oneMinimalFailure(r.shrunk, target), QString());
        checkSteps(*found.schedule, r, target);
        QVERIFY(r.shrunk.storages == shape.storages);
        QCOMPARE(reloads(r.shrunk), QString());
        // the same shape with a durable max_token has nothing to find
        Scenario durable = shape;
        durable.storages[0].durable = true;
        QVERIFY(!findFailure(durable, target, 1, 5000).schedule);
    }

    // check-then-write-gap itself, unfenced. By hand: A's acquire, its checked write and
    // pause, and B's acquire and write all stay (without any of them A's write is skipped,
    // goes out before B's, or is not stale). The gap shrinks from 4 while the send still
    // leaves after B's write of t=14: due at 8 + g inside the pause's frozen stretch [9, 19)
    // (g >= 1) it waits for the thaw at 19. So 4 -> 1, one tick first (3), then bisected.
    void gapOfCheckThenWriteShrinks()
    {
        const Scenario s = preset("check-then-write-gap");
        const FailureTarget target{0, false};
        const ShrinkResult r = shrink(s, target);
        QCOMPARE(oneMinimalFailure(r.shrunk, target), QString());
        checkSteps(s, r, target);
        QVERIFY(hasMove(r, ShrinkMove::ShortenGap));
        bool gapTo1 = false;
        for (const ShrinkStep &step : r.steps)
            gapTo1 |= step.move == ShrinkMove::ShortenGap && step.from == 4 && step.to == 1;
        QVERIFY(gapTo1);
        QCOMPARE(r.shrunk.actionCount(), s.actionCount());
        QCOMPARE(reloads(r.shrunk), QString());
        // and a search over its shape finds and shrinks an unfenced corruption too, while
        // fenced (rule lt, counter, durable) there is none: the storage's check closes the gap
        const FindResult found = findFailure(s, target, 2, 100000);
        QVERIFY(found.schedule);
        const ShrinkResult fr = shrink(*found.schedule, target);
        QCOMPARE(oneMinimalFailure(fr.shrunk, target), QString());
        QVERIFY(!findFailure(s, {0, true}, 2, 5000).schedule);
    }

    // keepalive-gc-pause with a 5-tick pause (thaw at 15): A's keepalive every 3 ticks keeps
    // its lease past 15, so B is refused at 15 and 19 and writes untagged over A's write
    // (tst_sweep works out every period). Every period whose last renewal before the pause
    // is at 7..9 does the same: 2 (at 8) and 1 (at 9) too, so the period shrinks. B's write is
    // no stale one (B never held the lock): a corruption the search finds only when any will
    // do.
    void keepalivePeriodShrinks()
    {
        Scenario s = preset("keepalive-gc-pause");
        s.clients[0].actions[1].amount = 5;
        const FailureTarget target{0, false, true};
        QVERIFY(hasFailure(s, target));
        QVERIFY(!hasFailure(s, {0, false}));
        const ShrinkResult r = shrink(s, target);
        QCOMPARE(oneMinimalFailure(r.shrunk, target), QString());
        checkSteps(s, r, target);
        QVERIFY(hasMove(r, ShrinkMove::ShortenKeepalive));
        QCOMPARE(reloads(r.shrunk), QString());
    }

    // two-resources-partial's shape, fencing on: a half-applied group across the two storages.
    void partialGroup()
    {
        const Scenario shape = preset("two-resources-partial");
        const FailureTarget target{std::size_t(outcomeIndex(QStringLiteral("partial"))), true};
        QVERIFY(hasFailure(shape, target));
        const FindResult found = findFailure(shape, target, 1, 100000);
        QVERIFY(found.schedule);
        const ShrinkResult r = shrink(*found.schedule, target);
        QCOMPARE(oneMinimalFailure(r.shrunk, target), QString());
        checkSteps(*found.schedule, r, target);
        QCOMPARE(reloads(r.shrunk), QString());
        const Trace t = simulate(r.shrunk, true);
        QCOMPARE(t.summary.partial, std::uint64_t(1));
        // a half-applied group has a write applied and one not: two writes of one group
        std::size_t inGroup = 0;
        for (const Action &a : r.shrunk.clients[t.groups.front().client].actions)
            inGroup += a.kind == ActionKind::Write && a.group() == t.groups.front().name;
        QCOMPARE(inGroup, std::size_t(2));
    }

    void cancelStopsAtOnce()
    {
        std::atomic<bool> cancel{true};
        const FindResult found =
            findFailure(ScenarioFile::defaultScenario(), {0, false}, 1, 100, &cancel);
        QCOMPARE(found.tried, std::uint64_t(0));
        const ShrinkResult r = shrink(ScenarioFile::defaultScenario(), {0, false}, &cancel);
        QVERIFY(r.cancelled);
        QCOMPARE(r.shrunk, ScenarioFile::defaultScenario());
    }
};

QTEST_GUILESS_MAIN(tst_Shrink)
#include "tst_shrink.moc"
