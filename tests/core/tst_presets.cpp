// Over 600 lines on purpose: one hand-worked case per rule or user path of the unit below, kept
// together so the rules read as one list; split, the shared fixtures would be copied.
// The built-in scenarios of the token sources, the lock service's failures and the clients' and
// storages' pitfalls (docs/SCENARIO.md sections 9-12): each preset loaded from the resources and
// simulated both ways, fenced and unfenced, and where it has one with its pitfall removed. Every
// expected value below was worked out by hand from the spec; the comment above each test shows
// how. Over 600 lines: one hand-worked test per preset, and they read best side by side.

#include "explain.h"
#include "presetfile.h"
#include "scenariofile.h"
#include "simulator.h"
#include "testprinters.h"
#include "tokensource.h"
#include "tracetext.h"

#include <QTest>

using namespace Core;
using TestSupport::grants;
using TestSupport::groups;
using TestSupport::lost;
using TestSupport::reads;
using TestSupport::skips;
using TestSupport::versions;
using TestSupport::arrivals;

namespace {

using TestSupport::preset;

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

// "-" for a grant or a plain renewal, "k" for a keepalive renewal, in grant order.
QString keepalives(const Trace &t)
{
    QString out;
    for (const Grant &g : t.grants)
        out += g.keepalive ? QLatin1Char('k') : QLatin1Char('-');
    return out;
}

} // namespace

class TestPresets : public QObject
{
    Q_OBJECT
private slots:
    // The Scenarios menu's groups, as a course takes them: every built-in scenario in exactly
    // one of the three, the default first; none left over for "More" (a new preset is placed).
    void everyPresetIsInOneGroupOfTheCourse()
    {
        const std::vector<Core::ScenarioFile::BuiltinGroup> groups =
            Core::ScenarioFile::builtinGroups();
        QCOMPARE(groups.size(), std::size_t(3));
        QCOMPARE(groups[0].title, QStringLiteral("Basics"));
        QCOMPARE(groups[1].title, QStringLiteral("Where tokens come from"));
        QCOMPARE(groups[2].title, QStringLiteral("How fencing goes wrong"));
        QCOMPARE(groups[0].names.front(), QStringLiteral("default"));
        QStringList all;
        for (const auto &g : groups)
            all << g.names;
        QStringList names = Core::ScenarioFile::builtinNames();
        QCOMPARE(all.size(), names.size());
        all.sort();
        names.sort();
        QCOMPARE(all, names);
    }

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

    // ZooKeeper, zxid (1 << 32) | 0 at start, a failover at 8 (section 15.3 re-arms A):
    //   t0 A's znode 0x1_00000001 [0,10)   t5 B refused: its own znode created and deleted ->
    //   0x1_00000003   t8 new leader -> 0x2_00000000, and A's session, live (10 > 8), is re-armed
    //   to 8 + 10 = 18   t12 B refused again (A holds until 18) -> 0x2_00000002
    //   t18 A's session expires, znode deleted -> 0x2_00000003
    //   t19 B's znode 0x2_00000004 = 8589934596 > 4294967297: A's late write is rejected.
    // Without the failover A's lease ends at 10 (-> 0x1_00000004) and B's acquire at 12 is
    // granted 0x1_00000005 = 4294967301.
    void zookeeperFailover()
    {
        Scenario s = preset("zookeeper-failover");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t4294967297 e1 grant exp10"),
                                             QStringLiteral("B@19 t8589934596 e2 grant exp29")}));
        QCOMPARE(refusals(s, on),
                 QStringList({QStringLiteral("B@5 by A e1"), QStringLiteral("B@12 by A e1")}));
        QCOMPARE(on.rearms.size(), std::size_t(1));
        QCOMPARE(on.rearms[0].at, Tick(8));
        QCOMPARE(on.rearms[0].expires, Tick(18));
        QCOMPARE(on.leases.at(0).end, Tick(18));
        QCOMPARE(formatToken(TokenSource::ZooKeeper, 8589934596ull),
                 QStringLiteral("0x2_00000004"));
        QCOMPARE(arrivals(s, on),
                 QStringList(
                     {QStringLiteral("B B 20->20 t8589934596 e2 accepted max8589934596 live"),
                      QStringLiteral("A A 30->30 t4294967297 e1 rejected max8589934596 expired")}));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t4294967297 e1 corrupted max0 expired"));
        QCOMPARE(final(off), QStringLiteral("A max0"));

        s.lock.failovers.clear();
        const Trace plain = simulate(s, true);
        QVERIFY(plain.rearms.empty());
        QCOMPARE(grants(s, plain),
                 QStringList({QStringLiteral("A@0 t4294967297 e1 grant exp10"),
                              QStringLiteral("B@12 t4294967301 e2 grant exp22"),
                              QStringLiteral("B@19 t4294967301 e2 renewal exp29")}));
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

        // a topic is append-only: the explanation says the zombie's records are duplicates
        const QString text = explainWrite(s, off, off.writes.size() - 1);
        QVERIFY2(text.contains(QStringLiteral("duplicates, not an overwrite")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("overwrote")));

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

    // etcd restored at 20 from the end of tick 11 (nobody holds the lock then, revision 3):
    //   t0 A -> rev 2 [0,10)   t10 A's key deleted -> 3   t12 B -> rev 4 [12,22), B1 at 13 (max
    //   4)   B frozen [14,24): B2 due at 15 runs at 24.
    //   t20 restore: rev 3, no holder, no re-arm; B's lease ends at 20 for the checker.
    //   t21 A -> rev 4 again (epoch 3), A2 at 22: 4 >= 4 accepted.
    //   t24 B2 with 4 >= 4 applied over epoch 3 -> corrupted although fenced.
    // With bump 10: the restored revision is 13, A's key 14 > 4: B2 rejected.
    void etcdRestore()
    {
        const Scenario s = preset("etcd-restore");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t2 e1 grant exp10"),
                                             QStringLiteral("B@12 t4 e2 grant exp22"),
                                             QStringLiteral("A@21 t4 e3 grant exp31")}));
        QVERIFY(on.rearms.empty());
        QCOMPARE(on.leases.at(1).end, Tick(20));
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

        // The old schedule, a snapshot of t=1 while A held the lock until 10: the restore at 20
        // re-arms A until 20 + 10 = 30 (section 15.3), so A's acquire at 21 is a renewal with
        // its old revision 2, and A2 (2 < 4) is rejected: no revision is handed out twice.
        Scenario held = s;
        held.lock.restores[0].from = 1;
        const Trace rearmed = simulate(held, true);
        QCOMPARE(rearmed.rearms.size(), std::size_t(1));
        QCOMPARE(rearmed.rearms[0].at, Tick(20));
        QCOMPARE(rearmed.rearms[0].expires, Tick(30));
        QCOMPARE(grants(held, rearmed).last(), QStringLiteral("A@21 t2 e1 renewal exp31"));
        QCOMPARE(arrivals(held, rearmed).at(2),
                 QStringLiteral("A A2 22->22 t2 e1 rejected max4 live"));
    }

    // ---- section 15: service terms, stores that ask the lock service or want one token ----

    // service-term, no election: the term is 1 throughout. A term 1 [0,10), frozen [1,30), its
    // write due 2 runs at 30. B term 1 at 12 [12,22) writes at 13 (max 1). A's 1 >= 1 applies
    // after epoch 2: corrupted with fencing on. With an election at 11 B gets term 2 and A's
    // 1 < 2 is rejected. Unfenced: corrupted.
    void serviceTerm()
    {
        Scenario s = preset("service-term");
        QVERIFY(s.tokens == TokenSource::ServiceTerm);
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t1 e1 grant exp10"),
                                             QStringLiteral("B@12 t1 e2 grant exp22")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 13->13 t1 e2 accepted max1 live"),
                              QStringLiteral("A A 30->30 t1 e1 corrupted max1 expired")}));
        QCOMPARE(formatToken(TokenSource::ServiceTerm, 1), QStringLiteral("term 1"));
        QCOMPARE(arrivals(s, simulate(s, false)).last(),
                 QStringLiteral("A A 30->30 t1 e1 corrupted max0 expired"));
        s.lock.elections = {11};
        const Trace elected = simulate(s, true);
        QCOMPARE(grants(s, elected).last(), QStringLiteral("B@12 t2 e2 grant exp22"));
        QCOMPARE(arrivals(s, elected).last(),
                 QStringLiteral("A A 30->30 t1 e1 rejected max2 expired"));
    }

    // etcd with an owner storage. A rev 2 [0,10), frozen [1,15): its write due 2 runs at 15.
    // t10 A's key deleted -> 3. At 15 the service holds no live grant of A's: rejected (not
    // applied, nothing newer holds the lock: rejected, not locked out; max 0). B at 18 -> rev 4
    // [18,28), writes at 19: holder of that grant, applied (max 4). A token storage takes A's
    // write at 15 (2 >= 0, nothing newer written: accepted, expired); unfenced too.
    void etcdOwnerTxn()
    {
        Scenario s = preset("etcd-owner-txn");
        QVERIFY(s.storages[0].check == StorageCheck::Owner);
        const QStringList grantLines = {QStringLiteral("A@0 t2 e1 grant exp10"),
                                        QStringLiteral("B@18 t4 e2 grant exp28")};
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), grantLines);
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("A A 15->15 t2 e1 rejected max0 expired"),
                              QStringLiteral("B B 19->19 t4 e2 accepted max4 live")}));
        QCOMPARE(final(on), QStringLiteral("B max4"));
        QCOMPARE(arrivals(s, simulate(s, false)),
                 QStringList({QStringLiteral("A A 15->15 t2 e1 accepted max0 expired"),
                              QStringLiteral("B B 19->19 t4 e2 accepted max0 live")}));
        s.storages[0].check = StorageCheck::Token;
        QCOMPARE(arrivals(s, simulate(s, true)),
                 QStringList({QStringLiteral("A A 15->15 t2 e1 accepted max2 expired"),
                              QStringLiteral("B B 19->19 t4 e2 accepted max4 live")}));
    }

    // Chubby with an owner storage (CheckSequencer). A generation 1 [0,10), frozen [1,15): its
    // write due 2 runs at 15. B generation 2 at 12 [12,22), writes at 16. At 15 the service
    // holds B's grant: A rejected (max 0). B at 16: applied (max 2). Comparing generations
    // instead, A's 1 >= 0 is applied at 15 (nothing newer written yet: accepted), then B's 2.
    void chubbySequencer()
    {
        Scenario s = preset("chubby-sequencer");
        QVERIFY(s.storages[0].check == StorageCheck::Owner);
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t1 e1 grant exp10"),
                                             QStringLiteral("B@12 t2 e2 grant exp22")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("A A 15->15 t1 e1 rejected max0 expired"),
                              QStringLiteral("B B 16->16 t2 e2 accepted max2 live")}));
        QCOMPARE(arrivals(s, simulate(s, false)).first(),
                 QStringLiteral("A A 15->15 t1 e1 accepted max0 expired"));
        s.storages[0].check = StorageCheck::Token;
        QCOMPARE(arrivals(s, simulate(s, true)),
                 QStringList({QStringLiteral("A A 15->15 t1 e1 accepted max1 expired"),
                              QStringLiteral("B B 16->16 t2 e2 accepted max2 live")}));
    }

    // A `same` storage. A token 1 [0,10), frozen [1,20): its write due 2 runs at 20. B token 2
    // [11,21) writes at 12: nothing recorded, so 2 is recorded and applied. A at 20: 1 != 2,
    // rejected (expired). C token 3 [22,32) writes at 23: 3 != 2, the live holder of the newest
    // epoch is turned away: lockedOut. With the rule lt instead: B accepted (max 2), A 1 < 2
    // rejected, C 3 >= 2 accepted (max 3). Unfenced: A's write after epoch 2 is corrupted.
    void differentIsNotLower()
    {
        Scenario s = preset("different-is-not-lower");
        QVERIFY(s.storages[0].check == StorageCheck::Same);
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t1 e1 grant exp10"),
                                             QStringLiteral("B@11 t2 e2 grant exp21"),
                                             QStringLiteral("C@22 t3 e3 grant exp32")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 12->12 t2 e2 accepted max2 live"),
                              QStringLiteral("A A 20->20 t1 e1 rejected max2 expired"),
                              QStringLiteral("C C 23->23 t3 e3 lockedOut max2 live")}));
        QCOMPARE(final(on), QStringLiteral("B max2"));
        QCOMPARE(arrivals(s, simulate(s, false)),
                 QStringList({QStringLiteral("B B 12->12 t2 e2 accepted max0 live"),
                              QStringLiteral("A A 20->20 t1 e1 corrupted max0 expired"),
                              QStringLiteral("C C 23->23 t3 e3 accepted max0 live")}));
        s.storages[0].check = StorageCheck::Token;
        QCOMPARE(arrivals(s, simulate(s, true)),
                 QStringList({QStringLiteral("B B 12->12 t2 e2 accepted max2 live"),
                              QStringLiteral("A A 20->20 t1 e1 rejected max2 expired"),
                              QStringLiteral("C C 23->23 t3 e3 accepted max3 live")}));
    }

    // ---- clients' and storages' pitfalls (docs/SCENARIO.md sections 11, 12 and 14) --------------

    // A: acquire 0 ttl 9 keepalive 3, frozen [10,25), its write due 11 runs at 25.
    //   keepalives at 3, 6, 9 renew (expiry 12, 15, 18); the one due 12 falls in the pause.
    //   t15 B refused (A live until 18).   t19 B granted token 2, writes at 20 (max 2).
    //   t25 the thaw: the deferred write first (token 1 < 2: rejected; unfenced: corrupted),
    //   then the overdue keepalive finds the lease gone: A is told (lost) at 25.
    void keepaliveGcPause()
    {
        const Scenario s = preset("keepalive-gc-pause");
        for (const bool fencing : {true, false}) {
            const Trace t = simulate(s, fencing);
            QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t1 e1 grant exp9"),
                                                QStringLiteral("A@3 t1 e1 renewal exp12"),
                                                QStringLiteral("A@6 t1 e1 renewal exp15"),
                                                QStringLiteral("A@9 t1 e1 renewal exp18"),
                                                QStringLiteral("B@19 t2 e2 grant exp28")}));
            QCOMPARE(keepalives(t), QStringLiteral("-kkk-"));
            QCOMPARE(refusals(s, t), QStringList({QStringLiteral("B@15 by A e1")}));
            QCOMPARE(lost(s, t), QStringList({QStringLiteral("A@25 keepalive")}));
            QCOMPARE(
                arrivals(s, t),
                fencing ? QStringList({QStringLiteral("B B 20->20 t2 e2 accepted max2 live"),
                                       QStringLiteral("A A 25->25 t1 e1 rejected max2 expired")})
                        : QStringList({QStringLiteral("B B 20->20 t2 e2 accepted max0 live"),
                                       QStringLiteral("A A 25->25 t1 e1 corrupted max0 expired")}));
        }
        // the pause ended before the lease (frozen [10,16)): at the thaw the deferred write
        // (token 1, max 1), then the overdue keepalive renews (16 + 9 = 25). B is refused at
        // 15 and again at 19, so it was never granted: its write at 20 goes out untagged and
        // is rejected (not expired: it had no lease to outlive).
        Scenario shorter = s;
        shorter.clients[0].actions[1].amount = 6;
        const Trace t = simulate(shorter, true);
        QCOMPARE(grants(shorter, t).mid(4, 1),
                 QStringList({QStringLiteral("A@16 t1 e1 renewal exp25")}));
        QCOMPARE(refusals(shorter, t),
                 QStringList({QStringLiteral("B@15 by A e1"), QStringLiteral("B@19 by A e1")}));
        QVERIFY(t.lost.empty());
        QCOMPARE(arrivals(shorter, t),
                 QStringList({QStringLiteral("A A 16->16 t1 e1 accepted max1 live"),
                              QStringLiteral("B B 20->20 untagged e0 rejected max1 live")}));
        QCOMPARE(t.summary.corrupted, 0u);
    }

    // A: lease [0,10). Its checked write at 8 passes the check (8 < 10 by its clock) and is
    // sent at 8 + gap 4 = 12, which falls in the pause [9,19): sent at 19 with token 1.
    // B: token 2 at 12, writes at 14 (max 2). A's write: rejected; unfenced: corrupted.
    // With the pause before the check ([5,15)), the check runs at the thaw (15): the lease
    // expired by A's clock (15 >= 10), so the write is skipped and A is told (lost, check).
    void checkThenWriteGap()
    {
        const Scenario s = preset("check-then-write-gap");
        QVERIFY(s.clients[0].actions[1].check);
        QCOMPARE(s.clients[0].actions[1].gap(), Tick(4));
        for (const bool fencing : {true, false}) {
            const Trace t = simulate(s, fencing);
            QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t1 e1 grant exp10"),
                                                QStringLiteral("B@12 t2 e2 grant exp22")}));
            QVERIFY(t.skips.empty() && t.lost.empty());
            QCOMPARE(
                arrivals(s, t),
                fencing ? QStringList({QStringLiteral("B B 14->14 t2 e2 accepted max2 live"),
                                       QStringLiteral("A A 19->19 t1 e1 rejected max2 expired")})
                        : QStringList({QStringLiteral("B B 14->14 t2 e2 accepted max0 live"),
                                       QStringLiteral("A A 19->19 t1 e1 corrupted max0 expired")}));
        }
        Scenario early = s;
        early.clients[0].actions[2].at = 5; // the pause [5,15) before the check
        for (const bool fencing : {true, false}) {
            const Trace t = simulate(early, fencing);
            QCOMPARE(skips(early, t), QStringList({QStringLiteral("A A@15")}));
            QCOMPARE(lost(early, t), QStringList({QStringLiteral("A@15 check")}));
            QCOMPARE(arrivals(early, t).size(), 1); // only B's
            QCOMPARE(t.summary.skipped, 1u);
            QCOMPARE(t.summary.corrupted, 0u);
        }
    }

    // A's clock runs at rate 0.5: at tick 15 it reads floor(7.5) = 7, so its 10-tick lease
    // granted at 0 is live in its view (7 - 0 < 10) although it ended at 10. B: token 2 at 11,
    // writes at 12 (max 2). A's checked write at 15 is sent with token 1: rejected, or
    // corrupted unfenced. At rate 1 the check sees 15 - 0 >= 10 and skips.
    void slowClientClock()
    {
        const Scenario s = preset("slow-client-clock");
        QCOMPARE(s.clients[0].clock.rateMilli, 500u);
        QCOMPARE(s.clients[0].clock.local(15), std::int64_t(7));
        for (const bool fencing : {true, false}) {
            const Trace t = simulate(s, fencing);
            QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t1 e1 grant exp10"),
                                                QStringLiteral("B@11 t2 e2 grant exp21")}));
            QVERIFY(t.skips.empty());
            QCOMPARE(
                arrivals(s, t),
                fencing ? QStringList({QStringLiteral("B B 12->12 t2 e2 accepted max2 live"),
                                       QStringLiteral("A A 15->15 t1 e1 rejected max2 expired")})
                        : QStringList({QStringLiteral("B B 12->12 t2 e2 accepted max0 live"),
                                       QStringLiteral("A A 15->15 t1 e1 corrupted max0 expired")}));
        }
        Scenario inStep = s;
        inStep.clients[0].clock.rateMilli = 1000;
        for (const bool fencing : {true, false}) {
            const Trace t = simulate(inStep, fencing);
            QCOMPARE(skips(inStep, t), QStringList({QStringLiteral("A A@15")}));
            QCOMPARE(lost(inStep, t), QStringList({QStringLiteral("A@15 check")}));
            QCOMPARE(arrivals(inStep, t).size(), 1);
            QCOMPARE(t.summary.corrupted, 0u);
        }
    }

    // job: token 1 [0,5), frozen [1,11), its write due 2 runs at 11. B: token 2 at 6, writes
    // at 7 (max 2). The job's write bypasses the check: applied over epoch 2 (corrupted) even
    // fenced, and max_token stays 2. Without bypass, fenced: 1 < 2, rejected.
    void bypassBackgroundJob()
    {
        const Scenario s = preset("bypass-background-job");
        QVERIFY(s.clients[0].bypass);
        for (const bool fencing : {true, false}) {
            const Trace t = simulate(s, fencing);
            QCOMPARE(grants(s, t), QStringList({QStringLiteral("job@0 t1 e1 grant exp5"),
                                                QStringLiteral("B@6 t2 e2 grant exp16")}));
            QCOMPARE(
                arrivals(s, t),
                fencing
                    ? QStringList({QStringLiteral("B B 7->7 t2 e2 accepted max2 live"),
                                   QStringLiteral("job job 11->11 t1 e1 corrupted max2 expired")})
                    : QStringList({QStringLiteral("B B 7->7 t2 e2 accepted max0 live"),
                                   QStringLiteral("job job 11->11 t1 e1 corrupted max0 expired")}));
            QCOMPARE(final(t), fencing ? QStringLiteral("job max2") : QStringLiteral("job max0"));
        }
        Scenario throughTheCheck = s;
        throughTheCheck.clients[0].bypass = false;
        const Trace t = simulate(throughTheCheck, true);
        QCOMPARE(arrivals(throughTheCheck, t).last(),
                 QStringLiteral("job job 11->11 t1 e1 rejected max2 expired"));
        QCOMPARE(final(t), QStringLiteral("B max2"));
    }

    // A: token 1 [0,5), A1 at 1 (max 1), frozen [2,16): A2 due 3 runs at 16.
    // B: token 2 at 6 [6,26), B1 at 7 (max 2), B2 at 18.
    // t12 the storage restarts: volatile, max_token 0 (the value B1 survives); durable, 2.
    // A2 at 16: volatile 1 >= 0 applied over epoch 2 -> corrupted (max 1), fenced;
    //           durable 1 < 2 rejected. B2 at 18: 2 >= max, accepted (max 2) either way.
    void journalNodeMaxToken()
    {
        const Scenario forgetful = preset("journalnode-volatile-max-token");
        const Scenario kept = preset("journalnode-durable-max-token");
        QVERIFY(!forgetful.storages[0].durable);
        QVERIFY(kept.storages[0].durable);
        QCOMPARE(forgetful.storages[0].restarts, std::vector<Tick>{12});
        Scenario same = forgetful;
        same.storages[0].durable = true;
        same.title = kept.title;
        same.description = kept.description;
        QCOMPARE(same, kept); // one schedule, only the durability differs
        const QStringList grantLines = {QStringLiteral("A@0 t1 e1 grant exp5"),
                                        QStringLiteral("B@6 t2 e2 grant exp26")};

        const Trace forgot = simulate(forgetful, true);
        QCOMPARE(grants(forgetful, forgot), grantLines);
        QCOMPARE(forgot.restarts.size(), std::size_t(1));
        QCOMPARE(forgot.restarts[0].tick, Tick(12));
        QCOMPARE(forgot.restarts[0].forgot, Token(2));
        QCOMPARE(arrivals(forgetful, forgot),
                 QStringList({QStringLiteral("A A1 1->1 t1 e1 accepted max1 live"),
                              QStringLiteral("B B1 7->7 t2 e2 accepted max2 live"),
                              QStringLiteral("A A2 16->16 t1 e1 corrupted max1 expired"),
                              QStringLiteral("B B2 18->18 t2 e2 accepted max2 live")}));
        QCOMPARE(final(forgot), QStringLiteral("B2 max2"));

        const Trace remembered = simulate(kept, true);
        QCOMPARE(grants(kept, remembered), grantLines);
        QCOMPARE(remembered.restarts.size(), std::size_t(1));
        QCOMPARE(remembered.restarts[0].forgot, Token(0));
        QCOMPARE(arrivals(kept, remembered),
                 QStringList({QStringLiteral("A A1 1->1 t1 e1 accepted max1 live"),
                              QStringLiteral("B B1 7->7 t2 e2 accepted max2 live"),
                              QStringLiteral("A A2 16->16 t1 e1 rejected max2 expired"),
                              QStringLiteral("B B2 18->18 t2 e2 accepted max2 live")}));
        QCOMPARE(final(remembered), QStringLiteral("B2 max2"));

        for (const Scenario &s : {forgetful, kept}) {
            const Trace off = simulate(s, false);
            QCOMPARE(arrivals(s, off),
                     QStringList({QStringLiteral("A A1 1->1 t1 e1 accepted max0 live"),
                                  QStringLiteral("B B1 7->7 t2 e2 accepted max0 live"),
                                  QStringLiteral("A A2 16->16 t1 e1 corrupted max0 expired"),
                                  QStringLiteral("B B2 18->18 t2 e2 accepted max0 live")}));
        }
    }

    // A version storage: A reads v0 at 1, frozen [2,17), its write due 3 is sent at 17
    // expecting v0. B: token 2 at 11, reads v0 at 12, writes at 13 expecting v0 -> v1,
    // accepted. A at 17: expects v0, current v1 -> rejected (A's lease is over: not locked
    // out); unfenced it applies over v1 -> corrupted, v2. The tokens play no part (max 0).
    // B's write moved to 18: A's applies on the version it read (accepted though expired), and
    // B's, expecting v0 at v1, is turned away while B holds the newest lease: lockedOut.
    void compareAndSetVersion()
    {
        const Scenario s = preset("compare-and-set-version");
        QVERIFY(s.storages[0].check == StorageCheck::Version);
        QCOMPARE(s.clients[0].actions[1], Action::read(1));
        const QStringList grantLines = {QStringLiteral("A@0 t1 e1 grant exp10"),
                                        QStringLiteral("B@11 t2 e2 grant exp21")};
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), grantLines);
        QCOMPARE(reads(s, on),
                 QStringList({QStringLiteral("A 1->1 v0"), QStringLiteral("B 12->12 v0")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("B B 13->13 t2 e2 accepted max0 live"),
                              QStringLiteral("A A 17->17 t1 e1 rejected max0 expired")}));
        QCOMPARE(versions(s, on),
                 QStringList({QStringLiteral("B exp0 v1"), QStringLiteral("A exp0 v1")}));
        QCOMPARE(on.finals[0].value, QStringLiteral("B"));
        QCOMPARE(on.finals[0].version, 1u);

        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off),
                 QStringList({QStringLiteral("B B 13->13 t2 e2 accepted max0 live"),
                              QStringLiteral("A A 17->17 t1 e1 corrupted max0 expired")}));
        QCOMPARE(versions(s, off),
                 QStringList({QStringLiteral("B exp0 v1"), QStringLiteral("A exp0 v2")}));
        QCOMPARE(off.finals[0].value, QStringLiteral("A"));

        Scenario later = s;
        later.clients[1].actions[2].at = 18;
        const Trace t = simulate(later, true);
        QCOMPARE(arrivals(later, t),
                 QStringList({QStringLiteral("A A 17->17 t1 e1 accepted max0 expired"),
                              QStringLiteral("B B 18->18 t2 e2 lockedOut max0 live")}));
    }

    // random, seed 7: A draws 3511274219185730 (grant 1), B 151215513962381 (grant 2, at 12;
    // docs/SCENARIO.md section 9's formula). A reads v0 at 1 and is frozen [2,30): its write due 3
    // goes out at 30 expecting v0. B reads v0 at 12 (after its grant, listed order) and writes
    // at 13 -> v1. A at 30: v0 != v1, rejected; unfenced: corrupted, v2. With the storage
    // comparing tokens instead: B's sets max 151215513962381, A's larger stale token is
    // accepted over it (corrupted) with fencing on.
    void randomTokensCheckAndSet()
    {
        const Scenario s = preset("random-tokens-check-and-set");
        QVERIFY(s.tokens == TokenSource::Random);
        const QStringList grantLines = {QStringLiteral("A@0 t3511274219185730 e1 grant exp10"),
                                        QStringLiteral("B@12 t151215513962381 e2 grant exp22")};
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), grantLines);
        QCOMPARE(reads(s, on),
                 QStringList({QStringLiteral("A 1->1 v0"), QStringLiteral("B 12->12 v0")}));
        QCOMPARE(
            arrivals(s, on),
            QStringList({QStringLiteral("B B 13->13 t151215513962381 e2 accepted max0 live"),
                         QStringLiteral("A A 30->30 t3511274219185730 e1 rejected max0 expired")}));
        QCOMPARE(on.finals[0].value, QStringLiteral("B"));
        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 30->30 t3511274219185730 e1 corrupted max0 expired"));
        QCOMPARE(versions(s, off).last(), QStringLiteral("A exp0 v2"));

        Scenario byToken = s;
        byToken.storages[0].check = StorageCheck::Token;
        const Trace t = simulate(byToken, true);
        QCOMPARE(
            arrivals(byToken, t),
            QStringList(
                {QStringLiteral("B B 13->13 t151215513962381 e2 accepted max151215513962381 live"),
                 QStringLiteral(
                     "A A 30->30 t3511274219185730 e1 corrupted max3511274219185730 expired")}));
    }

    // Group "order" over db and index. A: token 1 [0,10), db at 8 (max 1), frozen [9,19): its
    // index write due 10 runs at 19. B: token 2 at 11, db and index at 12 (max 2 each).
    // A's index write at 19: 1 < 2 rejected -> A's group applied [db], not [index]: partial.
    // Unfenced: applied over B's (corrupted), the group complete; db says B, index says A.
    void twoResourcesPartial()
    {
        const Scenario s = preset("two-resources-partial");
        const Trace on = simulate(s, true);
        QCOMPARE(grants(s, on), QStringList({QStringLiteral("A@0 t1 e1 grant exp10"),
                                             QStringLiteral("B@11 t2 e2 grant exp21")}));
        QCOMPARE(arrivals(s, on),
                 QStringList({QStringLiteral("A A 8->8 t1 e1 accepted max1 live"),
                              QStringLiteral("B B 12->12 t2 e2 accepted max2 live"),
                              QStringLiteral("B B 12->12 t2 e2 accepted max2 live"),
                              QStringLiteral("A A 19->19 t1 e1 rejected max2 expired")}));
        QCOMPARE(groups(s, on),
                 QStringLiteral("A/order [db] [index] partial; B/order [db,index] []"));
        QCOMPARE(on.summary.partial, 1u);
        QCOMPARE(on.summary.corrupted, 0u);
        QVERIFY(!on.summary.safe());

        const Trace off = simulate(s, false);
        QCOMPARE(arrivals(s, off).last(),
                 QStringLiteral("A A 19->19 t1 e1 corrupted max0 expired"));
        QCOMPARE(groups(s, off), QStringLiteral("A/order [db,index] []; B/order [db,index] []"));
        QCOMPARE(off.summary.partial, 0u);
        QCOMPARE(off.summary.corrupted, 1u);
        QCOMPARE(off.finals[0].value, QStringLiteral("B"));
        QCOMPARE(off.finals[1].value, QStringLiteral("A"));
    }

    // A: token 1 at 0, A1 at 2, acquires again at 3 while it holds the lock (a renewal: token
    // 1, expiry 13), A2 at 4. lt: 1 >= 1, both accepted. le: A2 has 1 <= 1 and is turned away
    // from the live holder: lockedOut. Unfenced: nothing is checked, both accepted.
    void reentrantHolder()
    {
        const Scenario lt = preset("reentrant-holder-lt");
        const Scenario le = preset("reentrant-holder-le");
        QCOMPARE_NAME(le.storages[0].rule, FenceRule::Le);
        Scenario same = le;
        same.storages[0].rule = FenceRule::Lt;
        same.title = lt.title;
        same.description = lt.description;
        QCOMPARE(same, lt);
        const QStringList grantLines = {QStringLiteral("A@0 t1 e1 grant exp10"),
                                        QStringLiteral("A@3 t1 e1 renewal exp13")};
        const Trace ltOn = simulate(lt, true);
        QCOMPARE(grants(lt, ltOn), grantLines);
        QCOMPARE(arrivals(lt, ltOn),
                 QStringList({QStringLiteral("A A1 2->2 t1 e1 accepted max1 live"),
                              QStringLiteral("A A2 4->4 t1 e1 accepted max1 live")}));
        const Trace leOn = simulate(le, true);
        QCOMPARE(grants(le, leOn), grantLines);
        QCOMPARE(arrivals(le, leOn),
                 QStringList({QStringLiteral("A A1 2->2 t1 e1 accepted max1 live"),
                              QStringLiteral("A A2 4->4 t1 e1 lockedOut max1 live")}));
        for (const Scenario &s : {lt, le})
            QCOMPARE(arrivals(s, simulate(s, false)),
                     QStringList({QStringLiteral("A A1 2->2 t1 e1 accepted max0 live"),
                                  QStringLiteral("A A2 4->4 t1 e1 accepted max0 live")}));
    }

    // The explanations of section 15 say why, in the systems' words: the shared term, the lock
    // service's answer to an owner storage, the recorded token of a same storage.
    void sectionFifteenExplanations()
    {
        const auto writeText = [](const Scenario &s, const Trace &t, const char *value) {
            for (std::uint32_t i = 0; i < t.writes.size(); ++i)
                if (writeValue(s, t.writes[i]) == QLatin1String(value))
                    return explainWrite(s, t, i);
            return QString();
        };
        const Scenario term = preset("service-term");
        const Trace termRun = simulate(term, true);
        QVERIFY(writeText(term, termRun, "A")
                    .contains(QStringLiteral("term 1 of the lock service's "
                                             "own leader")));
        QCOMPARE(briefEvent(term, termRun, termRun.clientEvents[1][0]),
                 QStringLiteral("new owner: token term 1 until t=22"));
        const Scenario owner = preset("etcd-owner-txn");
        const Trace ownerRun = simulate(owner, true);
        const QString a = writeText(owner, ownerRun, "A");
        QVERIFY2(a.contains(QStringLiteral("IsOwner()")) &&
                     a.contains(QStringLiteral("lease ended at t=10: rejected")),
                 qPrintable(a));
        const Scenario same = preset("different-is-not-lower");
        const Trace sameRun = simulate(same, true);
        const QString c = writeText(same, sameRun, "C");
        QVERIFY2(c.contains(QStringLiteral("recorded token 2, and 3 is different")) &&
                     c.contains(QStringLiteral("Different is not lower")),
                 qPrintable(c));
        const QString b = writeText(same, sameRun, "B");
        QVERIFY2(b.contains(QStringLiteral("recorded token 2 and applied")), qPrintable(b));
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
