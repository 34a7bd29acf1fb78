// The built-in scenarios of the token sources and lock-service failures (SCENARIO.md sections 9
// and 10): each preset loaded from the resources and simulated both ways, fenced and unfenced,
// and where it has one with its pitfall removed. Every expected value below was worked out by
// hand from the spec; the comment above each test shows how.

#include "scenariofile.h"
#include "simulator.h"
#include "tracetext.h"
#include "tokensource.h"

#include <QTest>

using namespace Core;
using TestSupport::grants;
using TestSupport::arrivals;

namespace {

Scenario preset(const char *name)
{
    const LoadResult r =
        ScenarioFile::load(QStringLiteral(":/scenarios/%1.json").arg(QLatin1String(name)));
    if (!r.ok())
        qFatal("%s: %s", name, qPrintable(r.error));
    return *r.scenario;
}

QStringList refusals(const Scenario &s, const Trace &t)
{
    QStringList out;
    for (const Refusal &r : t.refusals)
        out << QStringLiteral("%1@%2 by %3 e%4")
                   .arg(s.clients[r.client].name)
                   .arg(r.at)
                   .arg(s.clients[r.holder].name)
                   .arg(r.holderEpoch);
    return out;
}

// The first storage at the end: "value max<max_token>".
QString final(const Trace &t)
{
    return QStringLiteral("%1 max%2").arg(t.finals.at(0).value).arg(t.finals.at(0).maxToken);
}

} // namespace

class TestPresets : public QObject
{
    Q_OBJECT
private slots:
    // Kleppmann 2016 with lock.first 33: A token 33 [0,10), frozen [1,30), its write at 2 runs
    // at 30. B token 34 at 12 [12,22) writes at 13 (max 34). A's 33 < 34 -> rejected; unfenced
    // it lands after epoch 2 -> corrupted.
    void kleppmannGcPause()
    {
        const Scenario s = preset("kleppmann-gc-pause");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t33 e1 grant exp10"),
                                             QStringLiteral("B@12 t34 e2 grant exp22")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 13->13 t34 e2 accepted max34 live"),
                              QStringLiteral("A A 30->30 t33 e1 rejected max34 expired")}));
        QCOMPARE(final(on), QStringLiteral("B max34"));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t33 e1 corrupted max0 expired"));
        QCOMPARE(final(off), QStringLiteral("A max0"));
    }

    // etcd, revision 1, a put every 3 ticks (3, 6, 9, ...):
    //   t0 A's key -> rev 2 (token 2)   t3 put -> 3   t6 put -> 4
    //   t7 B's Lock() creates its key -> 5 and waits   t9 put -> 6
    //   t10 A's lease ends, its key deleted -> 7; B, the first waiter, granted with token 5
    //   [10,20). B writes at 13 (max 5); A's write (frozen [1,30)) at 30 with 2 < 5 -> rejected.
    void etcdRevisions()
    {
        const Scenario s = preset("etcd-revisions");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t2 e1 grant exp10"),
                                             QStringLiteral("B@10 t5 e2 grant exp20")}));
        QVERIFY(on.refusals.empty());
        QCOMPARE(on.waits.size(), std::size_t(1));
        QCOMPARE(on.waits[0].from, Tick(7));
        QCOMPARE(on.waits[0].to, Tick(10));
        QCOMPARE(on.waits[0].key, Token(5));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 13->13 t5 e2 accepted max5 live"),
                              QStringLiteral("A A 30->30 t2 e1 rejected max5 expired")}));
        QCOMPARE(final(on), QStringLiteral("B max5"));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t2 e1 corrupted max0 expired"));
        QCOMPARE(final(off), QStringLiteral("A max0"));
    }

    // ZooKeeper, zxid (1 << 32) | 0 at start, a failover at 8:
    //   t0 A's znode 0x1_00000001   t5 B refused: its own znode created and deleted -> 0x1_00000003
    //   t8 new leader -> 0x2_00000000   t10 A's session expires, znode deleted -> 0x2_00000001
    //   t12 B's znode 0x2_00000002 = 8589934594 > 4294967297: A's late write is rejected.
    void zookeeperFailover()
    {
        const Scenario s = preset("zookeeper-failover");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t4294967297 e1 grant exp10"),
                                             QStringLiteral("B@12 t8589934594 e2 grant exp22")}));
        QCOMPARE(refusals(s, on), QStringList({QStringLiteral("B@5 by A e1")}));
        QCOMPARE(formatToken(TokenSource::ZooKeeper, 8589934594ull),
                 QStringLiteral("0x2_00000002"));
        QCOMPARE(arrivals(s, on),
                 QStringList(
                     {QStringLiteral("B B 13->13 t8589934594 e2 accepted max8589934594 live"),
                      QStringLiteral("A A 30->30 t4294967297 e1 rejected max8589934594 expired")}));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t4294967297 e1 corrupted max0 expired"));
        QCOMPARE(final(off), QStringLiteral("A max0"));
    }

    // Raft term: A granted in term 1; t11 a failed election -> term 2; B granted at 12 -> term 3.
    void raftTerm()
    {
        const Scenario s = preset("raft-term");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t1 e1 grant exp10"),
                                             QStringLiteral("B@12 t3 e2 grant exp22")}));
        QCOMPARE(refusals(s, on), QStringList({QStringLiteral("B@5 by A e1")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 13->13 t3 e2 accepted max3 live"),
                              QStringLiteral("A A 30->30 t1 e1 rejected max3 expired")}));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t1 e1 corrupted max0 expired"));
        QCOMPARE(final(off), QStringLiteral("A max0"));
    }

    // Kafka: A InitProducerId at 0 -> epoch 0, frozen [2,12), its send at 3 runs at 12. B at 5
    // -> epoch 1, A's lease ends at 5 (fenced). B writes at 6 (max 1); A's epoch 0 < 1 ->
    // rejected (PRODUCER_FENCED). With a stall of 2 ([2,4)) A sends at 4 before B exists: 0 >= 0.
    void kafkaZombieProducer()
    {
        Scenario s = preset("kafka-zombie-producer");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t0 e1 grant exp30"),
                                             QStringLiteral("B@5 t1 e2 grant exp35")}));
        QCOMPARE(on.leases.at(0).end, Tick(5));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 6->6 t1 e2 accepted max1 live"),
                              QStringLiteral("A A 12->12 t0 e1 rejected max1 expired")}));
        QCOMPARE(final(on), QStringLiteral("B max1"));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 12->12 t0 e1 corrupted max0 expired"));
        QCOMPARE(final(off), QStringLiteral("A max0"));

        QVERIFY(s.clients[0].actions[1].kind == ActionKind::Pause);
        s.clients[0].actions[1].amount = 2;
        QCOMPARE(arrivals(s, simulate(s, true)),
                 QStringList({QStringLiteral("A A 4->4 t0 e1 accepted max0 live"),
                              QStringLiteral("B B 6->6 t1 e2 accepted max1 live")}));
    }

    // Chubby, lock-delay 10, fencing off in the file. A generation 1 [0,10), frozen [1,15): its
    // write at 2 runs at 15. A's lease expires at 10 unreleased: lock-delay [10,20). B's
    // blocking acquire at 12 waits and is granted at 20 (generation 2), its queued write at 13
    // runs then. A's write lands first: nothing newer to overwrite -> accepted both ways.
    // Without the delay B is granted at 12 and writes at 13: A's write at 15 overwrites it
    // (unfenced) or is rejected (sequencer checked). A pause past the delay ([1,25)): B writes
    // at 20, A at 25 -> the same.
    void chubbyLockDelay()
    {
        Scenario s = preset("chubby-lock-delay");
        QVERIFY(!s.fencing);
        const Trace off = simulate(s);
        QCOMPARE(grants(s, off), QStringList({QStringLiteral("A@0 t1 e1 grant exp10"),
                                              QStringLiteral("B@20 t2 e2 grant exp30")}));
        QCOMPARE(formatToken(TokenSource::Chubby, 2), QStringLiteral("lock:exclusive:2"));
        QCOMPARE(arrivals(s, off),
                 QStringList({QStringLiteral("A A 15->15 t1 e1 accepted max0 expired"),
                              QStringLiteral("B B 20->20 t2 e2 accepted max0 live")}));
        QCOMPARE(final(off), QStringLiteral("B max0"));
        const Trace on = simulate(s, true);
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("A A 15->15 t1 e1 accepted max1 expired"),
                              QStringLiteral("B B 20->20 t2 e2 accepted max2 live")}));

        Scenario noDelay = s;
        noDelay.lock.lockDelay = 0;
        QCOMPARE(grants(noDelay, simulate(noDelay, false)).last(),
                 QStringLiteral("B@12 t2 e2 grant exp22"));
        QCOMPARE(arrivals(noDelay, simulate(noDelay, false)),
                 QStringList({QStringLiteral("B B 13->13 t2 e2 accepted max0 live"),
                              QStringLiteral("A A 15->15 t1 e1 corrupted max0 expired")}));
        QCOMPARE(arrivals(noDelay, simulate(noDelay, true)).last(),
                 QStringLiteral("A A 15->15 t1 e1 rejected max2 expired"));

        Scenario longPause = s;
        QVERIFY(longPause.clients[0].actions[1].kind == ActionKind::Pause);
        longPause.clients[0].actions[1].amount = 24;
        QCOMPARE(arrivals(longPause, simulate(longPause, false)),
                 QStringList({QStringLiteral("B B 20->20 t2 e2 accepted max0 live"),
                              QStringLiteral("A A 25->25 t1 e1 corrupted max0 expired")}));
        QCOMPARE(arrivals(longPause, simulate(longPause, true)).last(),
                 QStringLiteral("A A 25->25 t1 e1 rejected max2 expired"));
    }

    // Redlock, no tokens: every write untagged. Fenced: B's write at 13 (live holder of epoch
    // 2) is lockedOut, A's at 30 (epoch 1, expired) rejected, nothing applied. Unfenced: both
    // applied, A's after epoch 2 -> corrupted. With counter tokens it is the default story.
    void redlockNoToken()
    {
        Scenario s = preset("redlock-no-token");
        const Trace on = simulate(s, true);
        QCOMPARE(on.grants.size(), std::size_t(2));
        QCOMPARE(refusals(s, on), QStringList({QStringLiteral("B@5 by A e1")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 13->13 untagged e2 lockedOut max0 live"),
                              QStringLiteral("A A 30->30 untagged e1 rejected max0 expired")}));
        QCOMPARE(final(on), QStringLiteral(" max0"));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off),
                 QStringList({QStringLiteral("B B 13->13 untagged e2 accepted max0 live"),
                              QStringLiteral("A A 30->30 untagged e1 corrupted max0 expired")}));
        QCOMPARE(final(off), QStringLiteral("A max0"));

        s.tokens = TokenSource::Counter;
        QCOMPARE(arrivals(s, simulate(s, true)),
                 QStringList({QStringLiteral("B B 13->13 t2 e2 accepted max2 live"),
                              QStringLiteral("A A 30->30 t1 e1 rejected max2 expired")}));
    }

    // Random, seed 7 (section 9's generator, computed independently): grant 1 draws
    // 3511274219185730, grant 2 draws 151215513962381. B writes first (max = B's); A's larger
    // token is accepted -> corrupted with fencing on. Seed 1 draws 5103132997656652 then
    // 6717404888216030: rising by chance, so A is rejected.
    void randomTokens()
    {
        Scenario s = preset("random-tokens");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on),
                 QStringList({QStringLiteral("A@0 t3511274219185730 e1 grant exp10"),
                              QStringLiteral("B@12 t151215513962381 e2 grant exp22")}));
        QCOMPARE(
            arrivals(s, on),
            QStringList(
                {QStringLiteral("B B 13->13 t151215513962381 e2 accepted max151215513962381 live"),
                 QStringLiteral(
                     "A A 30->30 t3511274219185730 e1 corrupted max3511274219185730 expired")}));
        QCOMPARE(final(on), QStringLiteral("A max3511274219185730"));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t3511274219185730 e1 corrupted max0 expired"));

        s.lock.seed = 1;
        QCOMPARE(
            arrivals(s, simulate(s, true)).last(),
            QStringLiteral("A A 30->30 t5103132997656652 e1 rejected max6717404888216030 expired"));
    }

    // Wall clock, offset 1000, a step of -20 at 11: A at 0 -> 1000; B at 12 -> 12 + 1000 - 20 =
    // 992. B writes (max 992); A's 1000 >= 992 applies after epoch 2 -> corrupted, fenced.
    // Without the step B gets 1012 and A is rejected.
    void wallclockStepBack()
    {
        Scenario s = preset("wallclock-step-back");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t1000 e1 grant exp10"),
                                             QStringLiteral("B@12 t992 e2 grant exp22")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 13->13 t992 e2 accepted max992 live"),
                              QStringLiteral("A A 30->30 t1000 e1 corrupted max1000 expired")}));
        QCOMPARE(final(on), QStringLiteral("A max1000"));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t1000 e1 corrupted max0 expired"));

        s.lock.clockSteps.clear();
        QCOMPARE(arrivals(s, simulate(s, true)).last(),
                 QStringLiteral("A A 30->30 t1000 e1 rejected max1012 expired"));
    }

    // etcd restored at 20 from the end of tick 1 (holder A until 10, revision 2):
    //   t0 A -> rev 2   t10 A's key deleted -> 3   t12 B -> rev 4 [12,22), B1 at 13 (max 4)
    //   B frozen [14,24): B2 due at 15 runs at 24.
    //   t20 restore: rev 2, holder A until 10 -> its key deleted in phase 2 -> 3; B's lease ends
    //   at 20 for the checker.   t21 A -> rev 4 again (epoch 3), A2 at 22: 4 >= 4 accepted.
    //   t24 B2 with 4 >= 4 applied over epoch 3 -> corrupted although fenced.
    // With bump 10: the restored revision is 12, the deletion 13, A's key 14 > 4: B2 rejected.
    void etcdRestore()
    {
        const Scenario s = preset("etcd-restore");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t2 e1 grant exp10"),
                                             QStringLiteral("B@12 t4 e2 grant exp22"),
                                             QStringLiteral("A@21 t4 e3 grant exp31")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("A A1 1->1 t2 e1 accepted max2 live"),
                              QStringLiteral("B B1 13->13 t4 e2 accepted max4 live"),
                              QStringLiteral("A A2 22->22 t4 e3 accepted max4 live"),
                              QStringLiteral("B B2 24->24 t4 e2 corrupted max4 expired")}));
        QCOMPARE(final(on), QStringLiteral("B2 max4"));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("B B2 24->24 t4 e2 corrupted max0 expired"));

        const Scenario bumped = preset("etcd-restore-bump");
        QCOMPARE(bumped.lock.restores.size(), std::size_t(1));
        QCOMPARE(bumped.lock.restores[0].bump, Token(10));
        Scenario same = bumped;
        same.lock.restores[0].bump = 0;
        same.title = s.title;
        same.description = s.description;
        QCOMPARE(same, s); // the same schedule, only the bump differs
        const Trace safe = simulate(bumped, true);
        QCOMPARE(grants(bumped, safe).last(), QStringLiteral("A@21 t14 e3 grant exp31"));
        QCOMPARE(arrivals(bumped, safe),
                 QStringList({QStringLiteral("A A1 1->1 t2 e1 accepted max2 live"),
                              QStringLiteral("B B1 13->13 t4 e2 accepted max4 live"),
                              QStringLiteral("A A2 22->22 t14 e3 accepted max14 live"),
                              QStringLiteral("B B2 24->24 t4 e2 rejected max14 expired")}));
        QCOMPARE(final(safe), QStringLiteral("A2 max14"));
        const Trace unfenced = simulate(bumped, false);
        QCOMPARE(arrivals(bumped, unfenced).last(),
                 QStringLiteral("B B2 24->24 t4 e2 corrupted max0 expired"));
        QCOMPARE(final(unfenced), QStringLiteral("B2 max0"));
    }

    // Every preset loads, fits on one screen and keeps to 2-3 clients.
    void presetsAreSmall()
    {
        for (const QString &name : ScenarioFile::builtinNames()) {
            const Scenario s = preset(qPrintable(name));
            QVERIFY2(s.clients.size() >= 1 && s.clients.size() <= 3, qPrintable(name));
            QVERIFY2(s.horizon && *s.horizon <= 60, qPrintable(name));
            QVERIFY2(!s.description.isEmpty(), qPrintable(name));
        }
    }
};

QTEST_GUILESS_MAIN(TestPresets)
#include "tst_presets.moc"
