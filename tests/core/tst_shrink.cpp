// Find and shrink (core/shrink.h). The shrinker's results are checked here without trusting
// it: each still fails when simulated, and every single removal of an action and every one-tick
// shortening of a duration is simulated here to show that the failure then disappears.

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

// Empty when `s` fails and is 1-minimal for a corrupted write with fencing `fencing`; else
// what breaks it.
QString oneMinimalFailure(const Scenario &s, bool fencing)
{
    if (corrupted(s, fencing) == 0)
        return QStringLiteral("does not fail");
    for (std::size_t c = 0; c < s.clients.size(); ++c) {
        for (std::size_t a = 0; a < s.clients[c].actions.size(); ++a) {
            Scenario without = s;
            without.clients[c].actions.erase(without.clients[c].actions.begin() + long(a));
            if (corrupted(without, fencing) > 0)
                return QStringLiteral("still fails without action %1 of client %2").arg(a).arg(c);
            const Action &action = s.clients[c].actions[a];
            const Tick floor = action.kind == ActionKind::Write ? 0 : 1;
            if (action.kind == ActionKind::Release || action.amount <= floor)
                continue;
            Scenario shorter = s;
            --shorter.clients[c].actions[a].amount;
            if (corrupted(shorter, fencing) > 0)
                return QStringLiteral("still fails with action %1 of client %2 one tick shorter")
                    .arg(a)
                    .arg(c);
        }
    }
    return {};
}

void checkSteps(const Scenario &start, const ShrinkResult &r, bool fencing)
{
    QCOMPARE(replaySteps(start, r.steps, r.steps.size()), r.shrunk);
    for (std::size_t i = 0; i <= r.steps.size(); ++i)
        QVERIFY2(corrupted(replaySteps(start, r.steps, i), fencing) > 0,
                 qPrintable(QStringLiteral("step %1").arg(i)));
    for (const ShrinkStep &step : r.steps)
        QVERIFY(!step.text.isEmpty());
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
