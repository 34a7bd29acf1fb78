// Token sources and the lock service's own failures (docs/SCENARIO.md sections 9, 10 and 14): one
// small hand-worked schedule per source and rule, the worked examples of docs/SEMANTICS.md and
// the explanations' words for each mechanism. Section 15 (the service's term, failover re-arms,
// waiters) is tst_tokensources_service's; the properties over random schedules are
// tst_tokensources_properties's. Every expected value below was worked out from the spec by
// hand; the comments show how.
#include "explain.h"
#include "lockfacts.h"
#include "randomscenario.h"
#include "simulator.h"
#include "testprinters.h"
#include "tokenschedules.h"
#include "tokensource.h"
#include "tracetext.h"

#include <QSet>
#include <QTest>

using namespace TokenSchedules;

class TestTokenSources : public QObject
{
    Q_OBJECT
private slots:
    // Kleppmann's example: tokens 33 and 34 (lock.first = 33).
    void everySourceNamedAndCounted()
    {
        // a source added to the enum but not to kTokenSourceNames is past the count, where no
        // menu, loop or file reads it: its description (a switch the compiler makes complete)
        // is there, so this fails (docs/ARCHITECTURE.md, "Adding a token source")
        QVERIFY2(describeSource(TokenSource(kTokenSourceCount)).isEmpty(),
                 "a token source past kTokenSourceNames: name it there");
        QSet<QString> names;
        for (int i = 0; i < kTokenSourceCount; ++i) {
            const QString name = toString(TokenSource(i));
            TokenSource back = TokenSource::Counter;
            QVERIFY(tokenSourceFromString(name, &back));
            QCOMPARE(int(back), i);
            QVERIFY2(!describeSource(TokenSource(i)).isEmpty(), qPrintable(name));
            names.insert(name);
        }
        QCOMPARE(names.size(), kTokenSourceCount);
        QCOMPARE(toString(TokenSource::Counter), QStringLiteral("counter"));
        QCOMPARE(toString(TokenSource::ServiceTerm), QStringLiteral("service-term"));
    }

    void counterStartsAtFirst()
    {
        Scenario s =
            scenario(TokenSource::Counter,
                     {lane(QStringLiteral("A"), {acquire(0, 10), pause(1, 29), write(30, "A")}),
                      lane(QStringLiteral("B"), {acquire(12, 10), write(13, "B")})});
        s.lock.first = 33;
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t33 e1 grant exp10"),
                                            QStringLiteral("B@12 t34 e2 grant exp22")}));
        QCOMPARE(arrivals(s, t),
                 QStringList({QStringLiteral("B B 13->13 t34 e2 accepted max34 live"),
                              QStringLiteral("A A 30->30 t33 e1 rejected max34 expired")}));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t33 e1 corrupted max0 expired"));
    }

    // etcd: revision 1 at start, puts every 4 ticks.
    //   t0 A grant: rev 2 (token 2)   t2 B refused: +2 -> 4   t4 put -> 5
    //   t5 A's lease expires, key deleted -> 6   t6 B grant -> 7 (token 7)   t7 B release -> 8
    //   t8 put -> 9   t9 A grant -> 10 (token 10)
    void etcdRevisionsHaveGaps_data()
    {
        QTest::addColumn<Token>("revision");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("revision 1") << Token(1)
                                    << QStringList({QStringLiteral("A@0 t2 e1 grant exp5"),
                                                    QStringLiteral("B@6 t7 e2 grant exp11"),
                                                    QStringLiteral("A@9 t10 e3 grant exp14")});
        QTest::newRow("revision 100") << Token(100)
                                      << QStringList({QStringLiteral("A@0 t101 e1 grant exp5"),
                                                      QStringLiteral("B@6 t106 e2 grant exp11"),
                                                      QStringLiteral("A@9 t109 e3 grant exp14")});
    }
    void etcdRevisionsHaveGaps()
    {
        QFETCH(Token, revision);
        QFETCH(QStringList, expected);
        Scenario s =
            scenario(TokenSource::Etcd,
                     {lane(QStringLiteral("A"), {acquire(0, 5), acquire(9, 5)}),
                      lane(QStringLiteral("B"), {acquire(2, 5), acquire(6, 5), release(7)})});
        s.lock.revision = revision;
        s.lock.putsEvery = 4;
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), expected);
        QCOMPARE(refusals(s, t), QStringList({QStringLiteral("B@2 by A e1")}));
        QCOMPARE(formatToken(TokenSource::Etcd, 7), QStringLiteral("rev 7"));
    }

    // ZooKeeper: zxid (1 << 32) | 0 at start, a failover at tick 6.
    //   t0 A grant: 0x1_00000001   t2 B refused: +2 -> 0x1_00000003   t5 expiry -> 0x1_00000004
    //   t6 failover -> 0x2_00000000, B grant -> 0x2_00000001   t8 B release -> 0x2_00000002
    //   t9 A grant -> 0x2_00000003
    void zookeeperZxidAcrossFailover()
    {
        Scenario s =
            scenario(TokenSource::ZooKeeper,
                     {lane(QStringLiteral("A"), {acquire(0, 5), acquire(9, 5)}),
                      lane(QStringLiteral("B"), {acquire(2, 5), acquire(6, 5), release(8)})});
        s.lock.failovers = {6};
        const Trace t = simulate(s);
        const Token e1 = Token(1) << 32, e2 = Token(2) << 32;
        QCOMPARE(t.grants.size(), std::size_t(3));
        QCOMPARE(t.grants[0].token, e1 | 1);
        QCOMPARE(t.grants[1].token, e2 | 1);
        QCOMPARE(t.grants[2].token, e2 | 3);
        QCOMPARE(t.grants[2].token, Token(8589934595ull));
        QCOMPARE(t.lockEvents.size(), std::size_t(1));
        QCOMPARE(t.lockEvents[0].tick, Tick(6));
        QVERIFY(t.lockEvents[0].kind == LockEventKind::Failover);
        QCOMPARE(t.lockEvents[0].counter, e2);
        QCOMPARE(formatToken(TokenSource::ZooKeeper, e1 | 1), QStringLiteral("0x1_00000001"));
        QCOMPARE(formatToken(TokenSource::ZooKeeper, e2 | 3), QStringLiteral("0x2_00000003"));
        QCOMPARE(describeToken(TokenSource::ZooKeeper, e2 | 3),
                 QStringLiteral("zxid 0x2_00000003 (ZooKeeper epoch 2, change #3)"));
    }

    // Raft: term 1 for the first grant, failed elections at 3 and 4 (terms 2, 3), B at 6 gets
    // term 4, A at 12 (B's lease ended at 11) term 5.
    void raftTermSkipsFailedElections()
    {
        Scenario s = scenario(TokenSource::RaftTerm,
                              {lane(QStringLiteral("A"), {acquire(0, 5), acquire(12, 5)}),
                               lane(QStringLiteral("B"), {acquire(6, 5)})});
        s.lock.failedElections = {3, 4};
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t1 e1 grant exp5"),
                                            QStringLiteral("B@6 t4 e2 grant exp11"),
                                            QStringLiteral("A@12 t5 e3 grant exp17")}));
        QCOMPARE(t.lockEvents.size(), std::size_t(2));
        QCOMPARE(t.lockEvents[1].counter, Token(3));
        QCOMPARE(formatToken(TokenSource::RaftTerm, 4), QStringLiteral("term 4"));
    }

    // Kafka: every InitProducerId is a grant, the holder's own too, and fences the live epoch.
    //   t0 A epoch 0   t1 A writes 0: accepted   t2 A again: epoch 1 (A's first lease ends)
    //   t3 B: epoch 2 (A's second lease ends), B writes 2: accepted
    //   t4 A writes with epoch 1: 1 < 2, PRODUCER_FENCED (rejected), its lease ended at 3
    void kafkaFencesTheZombieProducer()
    {
        Scenario s = scenario(TokenSource::KafkaEpoch,
                              {lane(QStringLiteral("A"), {acquire(0, 10), write(1, "a1"),
                                                          acquire(2, 10), write(4, "a4")}),
                               lane(QStringLiteral("B"), {waiting(3, 10), write(3, "b3")})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t0 e1 grant exp10"),
                                            QStringLiteral("A@2 t1 e2 grant exp12"),
                                            QStringLiteral("B@3 t2 e3 grant exp13")}));
        QCOMPARE(arrivals(s, t),
                 QStringList({QStringLiteral("A a1 1->1 t0 e1 accepted max0 live"),
                              QStringLiteral("B b3 3->3 t2 e3 accepted max2 live"),
                              QStringLiteral("A a4 4->4 t1 e2 rejected max2 expired")}));
        QCOMPARE(t.leases[0].end, Tick(2));
        QCOMPARE(t.leases[1].end, Tick(3));
        QCOMPARE(t.leases[2].end, Tick(13));
        QVERIFY(t.waits.empty()); // Kafka never refuses, so never waits
        QVERIFY(t.refusals.empty());
    }

    // Chubby with lock-delay 4: generation 1, 2, ... per grant.
    //   t0 A gen 1, lease to 5; it expires: nobody else before 9
    //   t6 B refused (A's lock-delay)   t9 B gen 2, lease to 11; expires: nobody else before 15
    //   t12 A refused (B's lock-delay)   t15 A gen 3   t16 A releases: no delay, B gen 4
    void chubbyLockDelayFollowsAnExpiryOnly()
    {
        Scenario s =
            scenario(TokenSource::Chubby,
                     {lane(QStringLiteral("A"),
                           {acquire(0, 5), acquire(12, 5), acquire(15, 5), release(16)}),
                      lane(QStringLiteral("B"), {acquire(6, 2), acquire(9, 2), acquire(16, 5)})});
        s.lock.lockDelay = 4;
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t1 e1 grant exp5"),
                                            QStringLiteral("B@9 t2 e2 grant exp11"),
                                            QStringLiteral("A@15 t3 e3 grant exp20"),
                                            QStringLiteral("B@16 t4 e4 grant exp21")}));
        QCOMPARE(refusals(s, t),
                 QStringList({QStringLiteral("B@6 by A e1"), QStringLiteral("A@12 by B e2")}));
        QCOMPARE(formatToken(TokenSource::Chubby, 4), QStringLiteral("lock:exclusive:4"));

        // the expired holder itself may take the lock again during its own lock-delay
        Scenario again = scenario(TokenSource::Chubby,
                                  {lane(QStringLiteral("A"), {acquire(0, 5), acquire(6, 5)}),
                                   lane(QStringLiteral("B"), {acquire(7, 5)})});
        again.lock.lockDelay = 4;
        const Trace u = simulate(again);
        QCOMPARE(grants(again, u), QStringList({QStringLiteral("A@0 t1 e1 grant exp5"),
                                                QStringLiteral("A@6 t2 e2 grant exp11")}));
        QCOMPARE(refusals(again, u), QStringList({QStringLiteral("B@7 by A e2")}));
    }

    // Redlock: no token. With fencing on every write is untagged and rejected; the live holder
    // of the newest epoch is locked out. A never-granted client's write keeps epoch 0.
    void noneHasNoToken()
    {
        const Scenario s =
            scenario(TokenSource::None, {lane(QStringLiteral("A"), {acquire(0, 10), write(1, "a")}),
                                         lane(QStringLiteral("B"), {write(2, "b")})});
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t),
                 QStringList({QStringLiteral("A a 1->1 untagged e1 lockedOut max0 live"),
                              QStringLiteral("B b 2->2 untagged e0 rejected max0 live")}));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off),
                 QStringList({QStringLiteral("A a 1->1 untagged e1 accepted max0 live"),
                              QStringLiteral("B b 2->2 untagged e0 corrupted max0 live")}));
        QCOMPARE(formatToken(TokenSource::None, 0), QStringLiteral("no token"));
    }

    // random, with the generator of section 9 (values computed independently): seed 42 draws
    // 6679422623415662 then 1440344771546335, so the paused first holder's token is higher and
    // its stale write is applied over the newer one.
    void randomTokensAreUnordered()
    {
        QCOMPARE(randomToken(1, 1), Token(5103132997656652ull));
        QCOMPARE(randomToken(1, 2), Token(6717404888216030ull));
        QCOMPARE(randomToken(1, 3), Token(8746015278458443ull));
        QCOMPARE(randomToken(42, 3), Token(2509415892804084ull));
        Scenario s =
            scenario(TokenSource::Random,
                     {lane(QStringLiteral("A"), {acquire(0, 5), pause(1, 10), write(2, "a")}),
                      lane(QStringLiteral("B"), {acquire(6, 10), write(7, "b")})});
        s.lock.seed = 42;
        const Trace t = simulate(s);
        QCOMPARE(
            arrivals(s, t),
            QStringList(
                {QStringLiteral("B b 7->7 t1440344771546335 e2 accepted max1440344771546335 live"),
                 QStringLiteral("A a 11->11 t6679422623415662 e1 corrupted "
                                "max6679422623415662 expired")}));
        s.lock.seed = 1; // the default: 5103132997656652 < 6717404888216030, rejected
        QCOMPARE_NAME(simulate(s).writes[1].result, WriteResult::Rejected);
    }

    // Wall clock: offset 1000, an NTP step back by 8 at tick 10.
    //   t6 B: 1006   t12 A: 12 + 1000 - 8 = 1004, A writes: accepted (max 1004)
    //   t13 B thaws and writes 1006 >= 1004: applied over A's newer data
    void wallClockStepBackCorrupts()
    {
        Scenario s =
            scenario(TokenSource::WallClock,
                     {lane(QStringLiteral("A"), {acquire(12, 5), write(12, "a")}),
                      lane(QStringLiteral("B"), {acquire(6, 5), pause(7, 6), write(8, "b")})});
        s.lock.clockSteps = {{10, -8}};
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({QStringLiteral("B@6 t1006 e1 grant exp11"),
                                            QStringLiteral("A@12 t1004 e2 grant exp17")}));
        QCOMPARE(arrivals(s, t),
                 QStringList({QStringLiteral("A a 12->12 t1004 e2 accepted max1004 live"),
                              QStringLiteral("B b 13->13 t1006 e1 corrupted max1006 expired")}));
        s.lock.clockSteps.clear(); // no step: A gets 1012 and B's write is turned away
        QCOMPARE(simulate(s).grants[1].token, Token(1012));
        QCOMPARE_NAME(simulate(s).writes[1].result, WriteResult::Rejected);
        QCOMPARE(formatToken(TokenSource::WallClock, 1012), QStringLiteral("clock 1012"));
    }

    // A restore at 9 from the snapshot of tick 5 (A's lease ended at 5, next token 2): B's grant
    // at 6 (token 2) is forgotten, B's lease ends at 9 for the checker, C gets token 2 again
    // without a bump and B's late write overwrites C's; with bump 1 C gets 3 and B is fenced.
    // (A snapshot of a tick in A's lease would re-arm A with etcd, section 15.3: see
    // restoreRearmsTheSnapshotHolder.)
    void restoreWithAndWithoutBump_data()
    {
        QTest::addColumn<int>("source");
        QTest::addColumn<Token>("bump");
        QTest::addColumn<Token>("cToken");
        QTest::addColumn<QString>("bLate");
        QTest::newRow("counter, no bump")
            << int(TokenSource::Counter) << Token(0) << Token(2)
            << QStringLiteral("B b12 12->12 t2 e2 corrupted max2 expired");
        QTest::newRow("counter, bump 1")
            << int(TokenSource::Counter) << Token(1) << Token(3)
            << QStringLiteral("B b12 12->12 t2 e2 rejected max3 expired");
        // etcd: t0 A rev 2, t5 expiry -> 3, t6 B rev 4; snapshot: rev 3, no key, so C at 10
        // creates revision 4 again
        QTest::newRow("etcd, no bump")
            << int(TokenSource::Etcd) << Token(0) << Token(4)
            << QStringLiteral("B b12 12->12 t4 e2 corrupted max4 expired");
        QTest::newRow("etcd, bump 1") << int(TokenSource::Etcd) << Token(1) << Token(5)
                                      << QStringLiteral("B b12 12->12 t4 e2 rejected max5 expired");
    }
    void restoreWithAndWithoutBump()
    {
        QFETCH(int, source);
        QFETCH(Token, bump);
        QFETCH(Token, cToken);
        QFETCH(QString, bLate);
        Scenario s =
            scenario(TokenSource(source),
                     {lane(QStringLiteral("A"), {acquire(0, 5)}),
                      lane(QStringLiteral("B"), {acquire(6, 10), write(7, "b7"), write(12, "b12")}),
                      lane(QStringLiteral("C"), {acquire(10, 10), write(11, "c")})});
        s.lock.restores = {{9, 5, bump}};
        const Trace t = simulate(s);
        QCOMPARE(t.grants.size(), std::size_t(3));
        QCOMPARE(t.grants[2].token, cToken);
        QCOMPARE(t.grants[2].epoch, 3u); // epochs go on counting
        QCOMPARE(t.leases[1].end, Tick(9));
        QCOMPARE(arrivals(s, t).last(), bLate);
        QCOMPARE(t.lockEvents.size(), std::size_t(1));
        QVERIFY(t.lockEvents[0].kind == LockEventKind::Restore);
        QCOMPARE(t.lockEvents[0].holder, kNone); // A's lease in the snapshot ended at 5
    }

    // The snapshot's holder holds again if its lease outlives the restore: A's lease to 20 was
    // released at 5; restored at 8 from tick 4, A holds until 20 and C is refused by A.
    void restoreBringsTheSnapshotHolderBack()
    {
        Scenario s =
            scenario(TokenSource::Counter, {lane(QStringLiteral("A"), {acquire(0, 20), release(5)}),
                                            lane(QStringLiteral("B"), {acquire(6, 10)}),
                                            lane(QStringLiteral("C"), {acquire(9, 5)})});
        s.lock.restores = {{8, 4, 0}};
        const Trace t = simulate(s);
        QCOMPARE(refusals(s, t), QStringList({QStringLiteral("C@9 by A e1")}));
        QCOMPARE(t.leases[0].end, Tick(20));
        QVERIFY(!t.leases[0].released);
        QCOMPARE(t.leases[1].end, Tick(8));
        QCOMPARE(t.lockEvents[0].holder, 0u);
        QCOMPARE(t.lockEvents[0].expires, Tick(20));
    }

    // The worked examples of docs/SEMANTICS.md.
    void semanticsExamples()
    {
        // every refusal changes an etcd key space by 2, a lock-delay's too
        Scenario delay = scenario(TokenSource::Etcd,
                                  {lane(QStringLiteral("A"), {acquire(0, 5)}),
                                   lane(QStringLiteral("B"), {acquire(6, 5), acquire(9, 5)})});
        delay.lock.lockDelay = 4;
        QCOMPARE(grants(delay, simulate(delay)),
                 QStringList({QStringLiteral("A@0 t2 e1 grant exp5"),
                              QStringLiteral("B@9 t6 e2 grant exp14")}));

        // after a restore, the older holder's turned-away write is rejected, not locked out
        Scenario restored =
            scenario(TokenSource::Counter,
                     {lane(QStringLiteral("A"), {acquire(0, 20), release(5), write(9, "a")}),
                      lane(QStringLiteral("B"), {acquire(6, 10), write(7, "b")})});
        restored.lock.restores = {{8, 4, 0}};
        QCOMPARE(arrivals(restored, simulate(restored)),
                 QStringList({QStringLiteral("B b 7->7 t2 e2 accepted max2 live"),
                              QStringLiteral("A a 9->9 t1 e1 rejected max2 live")}));

        // re-created waiter keys come after the bump: 2 + 100, then B's key 103; the restore
        // re-arms A (live at the end of tick 2) until 10 + 30 = 40 (section 15.3)
        Scenario rekeyed = scenario(TokenSource::Etcd,
                                    {lane(QStringLiteral("A"), {acquire(0, 30)}),
                                     lane(QStringLiteral("B"), {waiting(5, 5), write(6, "b")})});
        rekeyed.lock.restores = {{10, 2, 100}};
        const Trace k = simulate(rekeyed);
        QCOMPARE(grants(rekeyed, k).last(), QStringLiteral("B@40 t103 e2 grant exp45"));
        QCOMPARE(waits(rekeyed, k), QStringList({QStringLiteral("B 5->40 granted key103")}));
        QCOMPARE(k.lockEvents[0].counter, Token(103));

        // equal wall-clock tokens at one tick
        const Scenario sameTick = scenario(TokenSource::WallClock,
                                           {lane(QStringLiteral("A"), {acquire(5, 10), release(5)}),
                                            lane(QStringLiteral("B"), {acquire(5, 10)})});
        QCOMPARE(grants(sameTick, simulate(sameTick)),
                 QStringList({QStringLiteral("A@5 t1005 e1 grant exp15"),
                              QStringLiteral("B@5 t1005 e2 grant exp15")}));
    }

    // Explanations name each mechanism in its system's words.
    void explanationsNameTheMechanism()
    {
        const auto grantText = [](const Scenario &s, std::size_t grant) {
            const Trace t = simulate(s);
            for (std::uint32_t e = 0; e < t.events.size(); ++e)
                if (t.events[e].kind == EventKind::Grant && t.events[e].ref == grant)
                    return explainEvent(s, t, e);
            return QString();
        };
        const auto two = [](TokenSource src) {
            return scenario(src, {lane(QStringLiteral("A"), {acquire(0, 5)}),
                                  lane(QStringLiteral("B"), {acquire(6, 5)})});
        };
        QVERIFY(grantText(two(TokenSource::Etcd), 1).contains(QStringLiteral("create_revision")));
        QVERIFY(grantText(two(TokenSource::ZooKeeper), 1)
                    .contains(QStringLiteral("zxid 0x1_00000003")));
        QVERIFY(
            grantText(two(TokenSource::RaftTerm), 1).contains(QStringLiteral("elected in term 2")));
        QVERIFY(
            grantText(two(TokenSource::KafkaEpoch), 1).contains(QStringLiteral("PRODUCER_FENCED")));
        QVERIFY(grantText(two(TokenSource::Chubby), 1)
                    .contains(QStringLiteral("sequencer lock:exclusive:2")));
        QVERIFY(grantText(two(TokenSource::None), 1).contains(QStringLiteral("Redlock")));
        QVERIFY(grantText(two(TokenSource::Random), 1).contains(QStringLiteral("in no order")));
        // counter keeps its words
        QVERIFY(grantText(two(TokenSource::Counter), 1)
                    .endsWith(QStringLiteral("it gets a higher token than any before.")));

        // a corruption after a restore without bump names the restore
        Scenario s =
            scenario(TokenSource::Counter,
                     {lane(QStringLiteral("A"), {acquire(0, 5)}),
                      lane(QStringLiteral("B"), {acquire(6, 10), write(7, "b7"), write(12, "b12")}),
                      lane(QStringLiteral("C"), {acquire(10, 10), write(11, "c")})});
        s.lock.restores = {{9, 3, 0}};
        const Trace t = simulate(s);
        QCOMPARE_NAME(t.writes[2].result, WriteResult::Corrupted);
        QVERIFY2(explainWrite(s, t, 2).contains(
                     QStringLiteral("restored at t=9 from its snapshot of t=3 with bump 0")),
                 qPrintable(explainWrite(s, t, 2)));

        // refusals by a lock-delay and by a waiter, and a give-up
        Scenario delayed = scenario(TokenSource::Chubby,
                                    {lane(QStringLiteral("A"), {acquire(0, 5)}),
                                     lane(QStringLiteral("B"), {acquire(6, 5), waiting(7, 5, 4)}),
                                     lane(QStringLiteral("C"), {acquire(8, 5)})});
        delayed.lock.lockDelay = 20;
        const Trace d = simulate(delayed);
        QCOMPARE(refusals(delayed, d),
                 QStringList({QStringLiteral("B@6 by A e1"), QStringLiteral("C@8 by B e0"),
                              QStringLiteral("B@11 by A e1 gave up")}));
        QStringList texts;
        for (std::uint32_t e = 0; e < d.events.size(); ++e)
            if (d.events[e].kind == EventKind::Refusal)
                texts << explainEvent(delayed, d, e);
        QVERIFY2(texts[0].contains(QStringLiteral("lock-delay keeps the lock from everyone else "
                                                  "until t=25")),
                 qPrintable(texts[0]));
        QVERIFY2(texts[1].contains(QStringLiteral("B is waiting for it first")),
                 qPrintable(texts[1]));
        QVERIFY2(texts[2].contains(QStringLiteral("gave up waiting")), qPrintable(texts[2]));
    }
};

QTEST_GUILESS_MAIN(TestTokenSources)
#include "tst_tokensources.moc"
