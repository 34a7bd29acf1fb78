// Plain-language explanations, checked against hand-written fragments on the built-in
// scenarios (each fragment was worked out from the scenario file, not copied from the output).

#include "explain.h"
#include "scenariofile.h"
#include "simulator.h"
#include "testprinters.h"

#include <QTest>

using namespace Core;

namespace {

Scenario builtin(const QString &name)
{
    LoadResult r = ScenarioFile::load(QStringLiteral(":/scenarios/%1.json").arg(name));
    if (!r.ok())
        qFatal("cannot load built-in scenario %s: %s", qPrintable(name), qPrintable(r.error));
    return *r.scenario;
}

// The first event of `kind` by `client` (lane index), or kNone.
std::uint32_t findEvent(const Trace &t, EventKind kind, std::uint16_t client, std::uint32_t skip = 0)
{
    for (std::uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == kind && t.events[i].client == client && skip-- == 0)
            return i;
    return kNone;
}

std::uint32_t firstWrite(const Trace &t, WriteResult result)
{
    for (std::uint32_t i = 0; i < t.writes.size(); ++i)
        if (t.writes[i].result == result)
            return i;
    return kNone;
}

} // namespace

class TestExplain : public QObject
{
    Q_OBJECT

    static void verifyContains(const QString &text, const QStringList &fragments)
    {
        for (const QString &f : fragments)
            QVERIFY2(text.contains(f), qPrintable(QStringLiteral("missing \"%1\" in: %2").arg(f, text)));
    }

private slots:
    void rejectionNamesTheWriteThatRaisedMaxToken()
    {
        const Scenario s = builtin(QStringLiteral("default"));
        const Trace t = simulate(s, true);
        const std::uint32_t w = firstWrite(t, WriteResult::Rejected);
        QVERIFY(w != kNone);
        const QString text = explainWrite(s, t, w);
        QVERIFY2(text.startsWith(QStringLiteral(
                     "t=30: A wrote 'A' with token 1, but the storage db had already accepted "
                     "token 2 from B at t=13, so it rejected the write and told A its lock was lost "
                     "(max token 2).")),
                 qPrintable(text));
        verifyContains(text, {QStringLiteral("ended at t=10")});
        // the arrival event explains the same write
        const std::uint32_t arrival = findEvent(t, EventKind::WriteArrived, 0);
        QCOMPARE(explainEvent(s, t, arrival), text);
        QCOMPARE(briefEvent(s, t, arrival), QStringLiteral("token 1 < max 2: rejected, lock lost"));
    }

    void maxTokenSourceIsTheRaisingWrite()
    {
        const Scenario s = builtin(QStringLiteral("three-owners"));
        const Trace t = simulate(s, true);
        // writes in send order: B 'B' (2), C 'C' (3), B 'B2' (2), A 'A' (1)
        QCOMPARE(t.writes.size(), size_t(4));
        const std::uint32_t c = 1;
        QCOMPARE(writeValue(s, t.writes[c]), QStringLiteral("C"));
        QCOMPARE(maxTokenSource(t, 2), c);
        QCOMPARE(maxTokenSource(t, 3), c);
        QCOMPARE(maxTokenSource(t, 0), kNone); // B's own write raised it; nothing before
        // fencing off: nothing raises max_token
        const Trace off = simulate(s, false);
        QCOMPARE(maxTokenSource(off, 3), kNone);
    }

    void corruptionSaysWhatWasLostAndWhyFencingStopsIt()
    {
        const Scenario s = builtin(QStringLiteral("default"));
        const Trace t = simulate(s, false);
        const std::uint32_t w = firstWrite(t, WriteResult::Corrupted);
        QVERIFY(w != kNone);
        verifyContains(explainWrite(s, t, w),
                       {QStringLiteral("t=30: A wrote 'A' with token 1"),
                        QStringLiteral("fencing off"),
                        QStringLiteral("silently overwrote 'B', written by B at t=13 with token 2"),
                        QStringLiteral("B's data is lost"),
                        QStringLiteral("With fencing on, token 1 < max 2 would have been rejected")});
    }

    void corruptionOfACorruptionNamesTheNewestOwner()
    {
        // A's write lands on B2 (itself stale): the data lost is C's, token 3
        const Scenario s = builtin(QStringLiteral("three-owners"));
        const Trace t = simulate(s, false);
        const QString text = explainWrite(s, t, 3);
        verifyContains(text, {QStringLiteral("overwrote 'B2', written by B at t=27"),
                              QStringLiteral("A newer owner, C with token 3, had written 'C' there at t=21"),
                              QStringLiteral("token 1 < max 3 would have been rejected")});
    }

    void lockedOutExplainsTheTooStrictRule()
    {
        const Scenario s = builtin(QStringLiteral("le-locks-out-holder"));
        const Trace t = simulate(s, true);
        const std::uint32_t w = firstWrite(t, WriteResult::LockedOut);
        QVERIFY(w != kNone);
        verifyContains(explainWrite(s, t, w),
                       {QStringLiteral("t=4: A wrote 'A2' with token 1 while still the live lock holder"),
                        QStringLiteral("rule le turns away tokens equal to max_token (1)"),
                        QStringLiteral("A's own write at t=2 had set"),
                        QStringLiteral("liveness failure"),
                        QStringLiteral("rule lt accepts equal tokens")});
    }

    void acceptedSaysWhatItReplaced()
    {
        const Scenario s = builtin(QStringLiteral("renewal-keeps-token"));
        const Trace t = simulate(s, true);
        // A2 (token 1, equal to max 1) is accepted and replaces A1
        const QString text = explainWrite(s, t, 1);
        verifyContains(text, {QStringLiteral("t=12: A wrote 'A2' with token 1"),
                              QStringLiteral("accepted it: token 1 is not below"),
                              QStringLiteral("max_token is now 1"),
                              QStringLiteral("It replaced 'A1', written by A at t=2.")});
        const Trace off = simulate(s, false);
        verifyContains(explainWrite(s, off, 0), {QStringLiteral("fencing off"),
                                                QStringLiteral("no data was lost")});
    }

    void grantAfterExpiryAndFirstGrant()
    {
        const Scenario s = builtin(QStringLiteral("default"));
        const Trace t = simulate(s);
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::Grant, 0)),
                       {QStringLiteral("t=0: the lock service granted the lock to A with token 1, "
                                       "lease until t=10 (ttl 10)"),
                        QStringLiteral("first token")});
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::Grant, 1)),
                       {QStringLiteral("t=12: the lock service granted the lock to B with token 2"),
                        QStringLiteral("A's lease (token 1) had run out at t=10"),
                        QStringLiteral("higher token")});
    }

    void renewalKeepsTheToken()
    {
        const Scenario s = builtin(QStringLiteral("renewal-keeps-token"));
        const Trace t = simulate(s);
        const std::uint32_t e = findEvent(t, EventKind::Renewal, 0);
        QVERIFY(e != kNone);
        verifyContains(explainEvent(s, t, e),
                       {QStringLiteral("t=8: A renewed its lease"), QStringLiteral("same token 1"),
                        QStringLiteral("until t=18"), QStringLiteral("not a new owner")});
        QCOMPARE(briefEvent(s, t, e), QStringLiteral("same token 1, now until t=18"));
    }

    void refusalNamesHolderAndExpiryAtThatTime()
    {
        const Scenario s = builtin(QStringLiteral("renewal-keeps-token"));
        const Trace t = simulate(s);
        // B is refused at t=11: A's renewed lease runs until t=18 (not the original t=10)
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::Refusal, 1)),
                       {QStringLiteral("t=11: B asked for the lock but was refused: A holds it with "
                                       "token 1 until t=18")});
        const Scenario d = builtin(QStringLiteral("default"));
        const Trace dt = simulate(d);
        verifyContains(explainEvent(d, dt, findEvent(dt, EventKind::Refusal, 1)),
                       {QStringLiteral("A holds it with token 1 until t=10")});
    }

    // zookeeper-failover.json: A's session [0,10); the failover at 8 starts it afresh, to
    // 8 + 10 = 18 (docs/SCENARIO.md section 15.3). B is refused at 5, before the failover, and
    // at 12, after it: each refusal names the end A's lease had then.
    void refusalAfterAFailoverNamesTheReArmedEnd()
    {
        const Scenario s = builtin(QStringLiteral("zookeeper-failover"));
        const Trace t = simulate(s);
        QCOMPARE(t.refusals.size(), std::size_t(2));
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::Refusal, 1)),
                       {QStringLiteral("t=5: B asked for the lock but was refused: A holds it with "
                                       "token 0x1_00000001 until t=10.")});
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::Refusal, 1, 1)),
                       {QStringLiteral("t=12: B asked for the lock but was refused: A holds it "
                                       "with token 0x1_00000001 until t=18.")});
    }

    void pauseTellsWhatIsDeferredAndWhatExpires()
    {
        const Scenario s = builtin(QStringLiteral("three-owners"));
        const Trace t = simulate(s);
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::PauseStart, 0)),
                       {QStringLiteral("t=2: A froze for 30 ticks, until t=32"),
                        QStringLiteral("Deferred until it wakes: write 'A' due at t=3"),
                        QStringLiteral("lease (token 1) runs out at t=8")});
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::PauseEnd, 0)),
                       {QStringLiteral("t=32: A wakes up"),
                        QStringLiteral("still believes it holds the lock with token 1"),
                        QStringLiteral("ended at t=8")});
    }

    // Worked out from default.json: A's lease [0,10) ends in its pause [1,30); the write due
    // at 2 goes out at 30 with token 1 and is rejected at once, which ends A's belief at 30.
    // B's lease [12,22) outlives its only write (13); its belief never ends but does nothing.
    void zombieWindowIsWhereAStaleBeliefActs()
    {
        const Scenario s = builtin(QStringLiteral("default"));
        for (const bool fencing : {true, false}) {
            const Trace t = simulate(s, fencing);
            QCOMPARE(t.beliefs[0].size(), std::size_t(1));
            QCOMPARE(t.zombieWindow(0, 0), (TickRange{10, 31}));
            QCOMPARE(t.zombieWindows(0).size(), std::size_t(1));
            QVERIFY(t.zombieWindows(1).empty()); // B's belief outlives its lease quietly
            QVERIFY(t.beliefs[1].back().to > t.leases[1].end);
            QVERIFY(!t.zombieBeliefAt(0, 9));
            QVERIFY(t.zombieBeliefAt(0, 10));
            QVERIFY(t.zombieBeliefAt(0, 30));
            QVERIFY(!t.zombieBeliefAt(0, 31));
            QVERIFY(!t.zombieBeliefAt(1, 30));
            QVERIFY(t.zombieWindows(7).empty()); // no such client: nothing, no crash
            QVERIFY(t.zombieWindow(0, 5).empty());
        }
        // a pause shorter than the lease: the write goes out in time, no zombie at all
        Scenario shorter = s;
        shorter.clients[0].actions[1].amount = 5;
        QVERIFY(simulate(shorter).zombieWindows(0).empty());
        // a client that released knows it has no lock: its late write is no zombie's
        Scenario released = s;
        released.clients[0].actions = {Action::acquire(0, 10), Action::release(3),
                                       Action::write(5, QStringLiteral("A"), 0, 0)};
        QVERIFY(simulate(released).zombieWindows(0).empty());
        // a sleeper that wakes and writes late, with a delay: the window ends at the send
        Scenario late = s;
        late.clients[0].actions = {Action::acquire(0, 10), Action::pause(1, 29),
                                   Action::write(35, QStringLiteral("A"), 0, 3)};
        const std::vector<TickRange> lateWindows = simulate(late, false).zombieWindows(0);
        QCOMPARE(lateWindows.size(), std::size_t(1));
        QCOMPARE(lateWindows.front(), (TickRange{10, 36}));
    }

    void wakingWithoutActingIsNoZombie()
    {
        Scenario s = builtin(QStringLiteral("default"));
        s.clients[0].actions.pop_back(); // A sleeps through its lease but never writes
        const Trace t = simulate(s);
        const QString text = explainEvent(s, t, findEvent(t, EventKind::PauseEnd, 0));
        verifyContains(text, {QStringLiteral("still believes it holds the lock with token 1"),
                              QStringLiteral("ended at t=10"), QStringLiteral("no zombie")});
        QVERIFY2(!text.contains(QStringLiteral("it is a zombie")), qPrintable(text));
        const Trace d = simulate(builtin(QStringLiteral("default")));
        verifyContains(explainEvent(builtin(QStringLiteral("default")), d,
                                    findEvent(d, EventKind::PauseEnd, 0)),
                       {QStringLiteral("it is a zombie")});
    }

    // The main event of a tick: a write's arrival before anything else, then grants.
    void mainEventOfATick()
    {
        const Scenario s = builtin(QStringLiteral("default"));
        const Trace t = simulate(s);
        // t=30: A wakes (pause end), sends and its write arrives: the arrival tells the story
        const std::uint32_t m = mainEventAt(t, 30);
        QVERIFY(m != kNone);
        QCOMPARE_NAME(t.events[m].kind, EventKind::WriteArrived);
        QCOMPARE(t.events[m].tick, Tick(30));
        // t=12: B's grant is the only event
        QCOMPARE_NAME(t.events[mainEventAt(t, 12)].kind, EventKind::Grant);
        QCOMPARE_NAME(t.events[mainEventAt(t, 5)].kind, EventKind::Refusal);
        QCOMPARE(mainEventAt(t, 3), kNone); // nothing happens at 3
        QCOMPARE(mainEventAt(t, kForever), kNone);
    }

    void delayedWriteArrivesAfterItsLease()
    {
        const Scenario s = builtin(QStringLiteral("delayed-packet"));
        const Trace t = simulate(s, true);
        const std::uint32_t sent = findEvent(t, EventKind::WriteSent, 0);
        verifyContains(explainEvent(s, t, sent),
                       {QStringLiteral("t=3: A sent 'A' to the storage db with token 1"),
                        QStringLiteral("17 ticks"), QStringLiteral("arrives at t=20"),
                        QStringLiteral("lease (token 1) has ended at t=10")});
        QVERIFY(t.writes[0].expired);
        verifyContains(explainWrite(s, t, 0),
                       {QStringLiteral("t=20: A's write of 'A' with token 1, sent at t=3"),
                        QStringLiteral("already accepted token 2 from B at t=12"),
                        QStringLiteral("(max token 2)")});
    }

    void releaseEffectiveAndNot()
    {
        Scenario s = builtin(QStringLiteral("default"));
        s.clients[1].actions.push_back(Action::release(15));
        s.clients[0].actions.push_back(Action::release(31)); // A is no longer the holder
        const Trace t = simulate(s);
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::Release, 1)),
                       {QStringLiteral("t=15: B released the lock (token 2)"),
                        QStringLiteral("free")});
        verifyContains(explainEvent(s, t, findEvent(t, EventKind::Release, 0)),
                       {QStringLiteral("t=31: A tried to release the lock"),
                        QStringLiteral("nothing changed")});
    }

    void untaggedWriteIsRejectedWhenFenced()
    {
        Scenario s = builtin(QStringLiteral("default"));
        s.clients[1].actions.insert(s.clients[1].actions.begin(),
                                    Action::write(1, QStringLiteral("early")));
        const Trace t = simulate(s, true);
        verifyContains(explainWrite(s, t, 0),
                       {QStringLiteral("t=1: B wrote 'early' without a token"),
                        QStringLiteral("never granted the lock"), QStringLiteral("rejected")});
    }

    void summaryLine()
    {
        const Scenario s = builtin(QStringLiteral("default"));
        QCOMPARE(summarize(s, simulate(s, true)),
                 QStringLiteral("Fencing on: 1 accepted, 1 rejected, 0 corrupted, 0 locked out. "
                                "Safety held."));
        QCOMPARE(summarize(s, simulate(s, false)),
                 QStringLiteral("Fencing off: 1 accepted, 0 rejected, 1 corrupted, 0 locked out. "
                                "Safety violated: 1 write overwrote newer data."));
        const Scenario three = builtin(QStringLiteral("three-owners"));
        QVERIFY(summarize(three, simulate(three, false))
                    .endsWith(QStringLiteral("Safety violated: 2 writes overwrote newer data.")));
    }

    void everyEventOfEveryPresetHasText()
    {
        for (const QString &name : ScenarioFile::builtinNames()) {
            const Scenario s = builtin(name);
            for (const bool fencing : {true, false}) {
                const Trace t = simulate(s, fencing);
                for (std::uint32_t i = 0; i < t.events.size(); ++i) {
                    const QString tick = QStringLiteral("t=%1").arg(t.events[i].tick);
                    QVERIFY2(explainEvent(s, t, i).contains(tick), qPrintable(name));
                    QVERIFY(!briefEvent(s, t, i).isEmpty());
                }
                QVERIFY(explainEvent(s, t, std::uint32_t(t.events.size())).isEmpty());
            }
        }
    }

    void outcomeEventRoundTrips()
    {
        for (const QString &name : ScenarioFile::builtinNames()) {
            const Scenario s = builtin(name);
            const Trace t = simulate(s);
            for (std::uint32_t c = 0; c < s.clients.size(); ++c) {
                for (std::uint32_t a = 0; a < s.clients[c].actions.size(); ++a) {
                    const std::uint32_t e = outcomeEvent(s, t, c, a);
                    QVERIFY2(e != kNone, qPrintable(name));
                    QCOMPARE(t.events[e].client, c);
                    QCOMPARE(actionOfEvent(t, e), a);
                    const EventKind k = t.events[e].kind;
                    QVERIFY(k != EventKind::WriteSent && k != EventKind::PauseEnd);
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestExplain)
#include "tst_explain.moc"
