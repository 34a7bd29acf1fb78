// Find and shrink (core/shrink.h). The shrinker's results are checked here without trusting
// it: each still fails when simulated, and every single removal of an action and every one-tick
// shortening of a duration is simulated here to show that the failure then disappears.

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

std::uint64_t failures(const Scenario &s, const FailureTarget &target)
{
    return outcomes()[target.outcome].writes(simulate(s, target.fencing));
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
    // The seed's scenario, unfenced: A's stale write overwrites B's. Worked through by hand,
    // in the shrinker's order (clients from the last, actions from the last): B's first acquire
    // goes (its second still gives B the newer epoch), then A's acquire (an untagged write
    // after B's tagged one is still corrupted); A's pause shrinks to 13 (the write must go out
    // after B's at 13), B's TTL to 1, A's write moves to t=1, B's acquire and write to t=0;
    // then A's pause only has to carry the write past t=0: 1 tick, and then not at all.
    void seedScenario()
    {
        const Scenario seed = ScenarioFile::defaultScenario();
        const FailureTarget target{0, false};
        QVERIFY(hasFailure(seed, target));
        QVERIFY(!hasFailure(seed, {0, true}));
        const ShrinkResult r = shrink(seed, target);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.shrunk.clients.size(), std::size_t(2));
        QCOMPARE(r.shrunk.clients[0].actions,
                 std::vector<Action>({Action::write(1, QStringLiteral("A"))}));
        QCOMPARE(
            r.shrunk.clients[1].actions,
            std::vector<Action>({Action::acquire(0, 1), Action::write(0, QStringLiteral("B"))}));
        QCOMPARE(oneMinimalFailure(r.shrunk, false), QString());
        checkSteps(seed, r, false);
        QCOMPARE(r.steps.front().text, QStringLiteral("removed B's acquire at t=5"));
        QVERIFY(r.simulations > r.steps.size());
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
        QVERIFY(corrupted(*found.schedule, false) > 0);
        QVERIFY(!found.schedule->fencing);
        // the same search finds the same schedule
        const FindResult again = findFailure(shape, {0, false}, seed, 10000);
        QCOMPARE(again.run, found.run);
        QCOMPARE(*again.schedule, *found.schedule);
        // the schedules before it did not fail
        const ScheduleShape sh = shapeOf(shape);
        for (std::uint64_t run = 0; run < found.run; ++run)
            QCOMPARE(corrupted(generateSchedule(sh, scheduleSeed(seed, run)), false),
                     std::uint64_t(0));
        QCOMPARE(found.schedule->clients,
                 generateSchedule(sh, scheduleSeed(seed, found.run)).clients);

        const ShrinkResult r = shrink(*found.schedule, {0, false});
        QVERIFY(r.shrunk.actionCount() <= found.schedule->actionCount());
        QCOMPARE(oneMinimalFailure(r.shrunk, false), QString());
        checkSteps(*found.schedule, r, false);
    }

    // A long random schedule (3 clients, 200 actions, two storages, delays) shrinks too.
    void longSchedule()
    {
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
            if (corrupted(s, false) == 0)
                continue;
            QVERIFY(s.actionCount() >= 198);
            const ShrinkResult r = shrink(s, {0, false});
            QVERIFY(r.shrunk.actionCount() < 10);
            QCOMPARE(oneMinimalFailure(r.shrunk, false), QString());
            checkSteps(s, r, false);
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
    // is at 7..9 does the same: 2 (at 8) and 1 (at 9) too, so the period shrinks.
    void keepalivePeriodShrinks()
    {
        Scenario s = preset("keepalive-gc-pause");
        s.clients[0].actions[1].amount = 5;
        const FailureTarget target{0, false};
        QVERIFY(hasFailure(s, target));
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
