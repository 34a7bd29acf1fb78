// The steps a presentation, a storyboard and an animation walk through (core/storysteps.h):
// every tick at which a client acts or a write arrives, and every tick at which the lock service
// or a storage goes through something of its own, each told by its own sentence.

#include "presetfile.h"
#include "testprinters.h"

#include "scenariofile.h"
#include "simulator.h"
#include "storysteps.h"

#include <QtTest>

using namespace Core;
using Subject = StoryStep::Subject;

class TestStorySteps : public QObject
{
    Q_OBJECT

    static Scenario preset(const char *name) { return TestSupport::preset(name); }

private slots:
    // The default scenario, worked out by hand: A's grant (0), A's pause (1), B refused (5),
    // B's grant (12), B's write accepted (13), A's stale write rejected on waking (30). Nothing
    // of the lock service's own: the same six steps as its events.
    void defaultScenarioHasTheSixStepsOfItsEvents()
    {
        const Scenario s = preset("default");
        const Trace t = simulate(s);
        QCOMPARE(storyStepTicks(s, t), (std::vector<Tick>{0, 1, 5, 12, 13, 30}));
        for (const StoryStep &step : storySteps(s, t))
            QVERIFY(step.subject == Subject::Event);
        const StoryStep last = storySteps(s, t).back();
        QCOMPARE_NAME(t.events[last.ref].kind, EventKind::WriteArrived);
        QCOMPARE_NAME(t.writes[t.events[last.ref].ref].result, WriteResult::Rejected);
    }

    // The ZooKeeper failover at t=8 happens while no client acts: it is a step of its own, told
    // by the lock service's sentence.
    void aFailoverIsAStep()
    {
        const Scenario s = preset("zookeeper-failover");
        const Trace t = simulate(s);
        const std::vector<Tick> ticks = storyStepTicks(s, t);
        QVERIFY(std::find(ticks.begin(), ticks.end(), Tick(8)) != ticks.end());
        const StoryStep step = storyStepAt(s, t, 8);
        QVERIFY(step.subject == Subject::LockEvent);
        QCOMPARE_NAME(t.lockEvents[step.ref].kind, LockEventKind::Failover);
        const QString text = explainStep(s, t, step);
        QVERIFY2(text.startsWith(QStringLiteral("t=8: a new ZooKeeper leader")), qPrintable(text));
        // the zxid's epoch 2, counter 1: the first token after the failover
        QVERIFY2(text.contains(QStringLiteral("0x2_00000001")), qPrintable(text));
    }

    // The JournalNode's restart at t=12 (A frozen, B holding, nobody acting) is a step, and its
    // sentence says what was forgotten: max_token 2, raised by B's write at 7.
    void aStorageRestartIsAStep()
    {
        const Scenario s = preset("journalnode-volatile-max-token");
        const Trace t = simulate(s);
        QCOMPARE(storyStepTicks(s, t), (std::vector<Tick>{0, 1, 2, 6, 7, 12, 16, 18}));
        const StoryStep step = storyStepAt(s, t, 12);
        QVERIFY(step.subject == Subject::StorageRestart);
        QCOMPARE(step.ref, 0u);
        const QString text = explainStep(s, t, step);
        QVERIFY2(text.startsWith(QStringLiteral("t=12: jn restarted")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("max_token 2")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("forgotten")), qPrintable(text));
        // t=16: A thaws and its stale A2 lands on the forgetful storage: the write is the subject
        const StoryStep at16 = storyStepAt(s, t, 16);
        QVERIFY(at16.subject == Subject::Event);
        QCOMPARE_NAME(t.events[at16.ref].kind, EventKind::WriteArrived);
        QCOMPARE_NAME(t.writes[t.events[at16.ref].ref].result, WriteResult::Corrupted);
    }

    // A storage's restart at the tick a write arrives there: the write tells the step, the
    // restart keeps its whole sentence among the step's other lines.
    void aRestartUnderAWriteIsToldInTheDetails()
    {
        Scenario s = preset("journalnode-volatile-max-token");
        s.storages[0].restarts = {16};
        const Trace t = simulate(s);
        const StoryStep step = storyStepAt(s, t, 16);
        QVERIFY(step.subject == Subject::Event);
        const QStringList lines = stepDetails(s, t, step);
        QVERIFY2(!lines.filter(QStringLiteral("t=16: jn restarted")).isEmpty(),
                 qPrintable(lines.join(QLatin1Char('\n'))));
    }

    // Chubby's lock-delay: A's lease ends at 10 without a release, so nobody else gets the lock
    // before 20. In the preset B waits and is granted at 20 and writes at once: the write tells
    // the step, and the lock-delay's end keeps its whole sentence among its lines.
    void theEndOfALockDelayIsToldAtItsTick()
    {
        const Scenario s = preset("chubby-lock-delay");
        const Trace t = simulate(s);
        const StoryStep step = storyStepAt(s, t, 20);
        QVERIFY(step.subject == Subject::Event);
        QCOMPARE_NAME(t.events[step.ref].kind, EventKind::WriteArrived);
        const QStringList lines = stepDetails(s, t, step);
        const QString joined = lines.join(QLatin1Char('\n'));
        QVERIFY2(joined.contains(QStringLiteral("t=20: the lock-delay after A's lease is over")),
                 qPrintable(joined));
        QVERIFY2(joined.contains(QStringLiteral("B: new owner")), qPrintable(joined));
    }

    // With nobody waiting (B asks at 25 instead), the lock-delay's end at 20 is a step alone.
    void theEndOfALockDelayIsAStep()
    {
        Scenario s = preset("chubby-lock-delay");
        s.clients[1].actions[0] = Action::acquire(25, 10);
        s.clients[1].actions[1] = Action::write(26, QStringLiteral("B"));
        const Trace t = simulate(s);
        const std::vector<Tick> ticks = storyStepTicks(s, t);
        QVERIFY(std::find(ticks.begin(), ticks.end(), Tick(20)) != ticks.end());
        const StoryStep step = storyStepAt(s, t, 20);
        QVERIFY(step.subject == Subject::LockDelayEnd);
        QCOMPARE(t.leases[step.ref].client, 0u); // A's lease
        const QString text = explainStep(s, t, step);
        QVERIFY2(text.startsWith(QStringLiteral("t=20: the lock-delay after A's lease is over")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("expired at t=10")), qPrintable(text));
    }

    // A lock-delay cut short by a grant is that grant's story: no step of its own.
    void aLockDelayCutShortIsNoStep()
    {
        Scenario s = preset("chubby-lock-delay");
        s.lock.lockDelay = 30; // longer than the run: it never ends by itself in it
        const Trace t = simulate(s);
        for (const StoryStep &step : storySteps(s, t))
            QVERIFY(step.subject != Subject::LockDelayEnd);
    }

    // etcd's background puts (every 3 ticks) are never steps; the step they fall in says how
    // many happened since the step before.
    void backgroundPutsAreToldNotStepped()
    {
        const Scenario s = preset("etcd-revisions");
        const Trace t = simulate(s);
        const std::vector<Tick> ticks = storyStepTicks(s, t);
        QVERIFY(std::find(ticks.begin(), ticks.end(), Tick(3)) == ticks.end());
        QVERIFY(std::find(ticks.begin(), ticks.end(), Tick(6)) == ticks.end());
        // A's grant at 0, its pause at 1, then B begins to wait at 7: puts at 3 and 6 between
        const StoryStep at1 = storyStepAt(s, t, 1);
        const auto next = std::upper_bound(ticks.begin(), ticks.end(), Tick(1));
        QVERIFY(next != ticks.end());
        const StoryStep after = storyStepAt(s, t, *next);
        const QStringList lines = stepDetails(s, t, after, at1.tick);
        const Tick puts = *next / 3 - 1 / 3; // every third tick in (1, next]
        QVERIFY(puts >= 1);
        const QString joined = lines.join(QLatin1Char('\n'));
        QVERIFY2(joined.contains(puts == 1 ? QStringLiteral("An unrelated put at")
                                           : QStringLiteral("%1 unrelated puts since t=1")
                                                 .arg(puts)),
                 qPrintable(joined));
        // a step at a tick with no put since the one before mentions none
        const QStringList none = stepDetails(s, t, storyStepAt(s, t, 0), Tick(0));
        QVERIFY(none.filter(QStringLiteral("unrelated put")).isEmpty());
    }

    // A partial run gives the steps of what it holds: the same list, cut.
    void aRunCutBeforeATickHasTheStepsBeforeIt()
    {
        const Scenario s = preset("journalnode-volatile-max-token");
        for (const Tick before : {Tick(0), Tick(1), Tick(7), Tick(12), Tick(13), Tick(40)}) {
            Trace cut;
            Simulator(Simulator::kNoCheckpoints).runBefore(s, s.fencing, cut, before);
            std::vector<Tick> expected;
            for (const Tick t : {0, 1, 2, 6, 7, 12, 16, 18})
                if (t < before)
                    expected.push_back(t);
            QCOMPARE(storyStepTicks(s, cut), expected);
            if (before == 0)
                QVERIFY(cut.events.empty());
        }
    }

    // Before anything happens: the setting, without how it ends.
    void theSetupTellsNoEnding()
    {
        const Scenario s = preset("default");
        const QString text = explainSetup(s);
        QCOMPARE(text, QStringLiteral("A and B share one lock; its tokens are a counter that "
                                      "grows by 1 per grant. They write to db, which rejects a "
                                      "token below the highest it has seen."));
        Scenario off = s;
        off.fencing = false;
        QVERIFY(explainSetup(off).contains(QStringLiteral("checks no token")));
    }
};

QTEST_GUILESS_MAIN(TestStorySteps)
#include "tst_storysteps.moc"
