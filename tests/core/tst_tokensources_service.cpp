// The lock service of docs/SCENARIO.md section 15, under each token source: the service's term
// shared by grants, ZooKeeper's failover re-arming live sessions, a lease's end at a tick,
// restores that re-arm the snapshot's holder, and blocking acquires (waiters served at expiry
// and release, in order, giving up, frozen). Every expected value below was worked out from the
// spec by hand; the comments show how.
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

namespace {

// ZooKeeper's failovers under live sessions, worked out where each test uses it: A acquires at 0
// (ttl 10); B at 12 and 16 (ttl 2); C at 18 (ttl 5) and renews at 20 (ttl 3); failovers at 4
// (twice), 15 and 21.
Scenario failoverSchedule()
{
    Scenario s = scenario(TokenSource::ZooKeeper,
                          {lane(QStringLiteral("A"), {acquire(0, 10)}),
                           lane(QStringLiteral("B"), {acquire(12, 2), acquire(16, 2)}),
                           lane(QStringLiteral("C"), {acquire(18, 5), acquire(20, 3)})});
    s.lock.failovers = {4, 4, 15, 21};
    return s;
}

} // namespace

class TestTokenSourcesService : public QObject
{
    Q_OBJECT
private slots:
    // service-term: the term starts at 1; elections at 4 and 9, a failed election at 9 too.
    //   t0 A term 1 [0,3)   t3 B term 1 [3,6): a new owner, the same token
    //   t4 election -> 2    t6 A term 2 [6,8)   t9 election and failed election -> 4
    //   t10 B term 4.  A restore at 12 from tick 7 brings the term back to 2; bump 5 -> 7:
    //   C at 13 gets term 7 (B's lease ends at 12 for the checker).
    void serviceTermIsSharedByGrants()
    {
        Scenario s = scenario(TokenSource::ServiceTerm,
                              {lane(QStringLiteral("A"), {acquire(0, 3), acquire(6, 2)}),
                               lane(QStringLiteral("B"), {acquire(3, 3), acquire(10, 2)}),
                               lane(QStringLiteral("C"), {acquire(13, 2)})});
        s.lock.elections = {4, 9};
        s.lock.failedElections = {9};
        s.lock.restores = {{12, 7, 5}};
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t1 e1 grant exp3"),
                                            QStringLiteral("B@3 t1 e2 grant exp6"),
                                            QStringLiteral("A@6 t2 e3 grant exp8"),
                                            QStringLiteral("B@10 t4 e4 grant exp12"),
                                            QStringLiteral("C@13 t7 e5 grant exp15")}));
        QCOMPARE(t.lockEvents.size(), std::size_t(4));
        QVERIFY(t.lockEvents[0].kind == LockEventKind::Election);
        QCOMPARE(t.lockEvents[0].counter, Token(2));
        QCOMPARE(t.lockEvents[2].counter, Token(4)); // (one per listing at 9: +2)
        QVERIFY(t.lockEvents[3].kind == LockEventKind::Restore);
        QCOMPARE(t.lockEvents[3].counter, Token(7));
        QVERIFY(t.rearms.empty()); // service-term never re-arms (section 15.7)
        QCOMPARE(t.leases[3].end, Tick(12));
        QCOMPARE(toString(LockEventKind::Election), QStringLiteral("election"));
        QCOMPARE(describeToken(TokenSource::ServiceTerm, 3),
                 QStringLiteral("term 3 of the lock service's own Raft leader (every grant of that "
                                "term shares it)"));
        QVERIFY(!isMonotonic(TokenSource::ServiceTerm));
    }

    // ZooKeeper failovers re-arm the live session (section 15.3): A [0,10) ttl 10, failovers
    // at 4 (twice) and 15. t4: re-armed to 14, reported twice (the second leaves 14). B's
    // acquire at 12 is refused by A; A's keepalive-less lease ends at 14; t15: nothing live.
    // B at 16 is granted. A renewal resets the ttl a re-arm uses: C renews at 20 with ttl 3
    // (lease [18,23)), a failover at 21 re-arms it to 24.
    void zookeeperFailoverRearmsLiveSessions()
    {
        Scenario s = failoverSchedule();
        const Trace t = simulate(s);
        QCOMPARE(t.rearms.size(), std::size_t(3));
        QCOMPARE(t.rearms[0].at, Tick(4));
        QCOMPARE(t.rearms[0].expires, Tick(14));
        QCOMPARE(t.rearms[1].expires, Tick(14));
        QCOMPARE(t.rearms[0].client, 0u);
        QCOMPARE(t.rearms[2].at, Tick(21));
        QCOMPARE(t.rearms[2].client, 2u);
        QCOMPARE(t.rearms[2].expires, Tick(24));
        QCOMPARE(refusals(s, t), QStringList({QStringLiteral("B@12 by A e1")}));
        QCOMPARE(t.leases[0].end, Tick(14));
        QCOMPARE(t.leases[2].end, Tick(24));
        QCOMPARE(t.grants[0].expires, Tick(10)); // the holder is not told: its grant is as it was
        // the same file with counter tokens: failovers belong to ZooKeeper, nothing re-arms
        s.tokens = TokenSource::Counter;
        s.lock.failovers.clear();
        QVERIFY(simulate(s).rearms.empty());
    }

    // The end the lock service had for a lease at a tick (Core::leaseEndAt), on the schedule
    // above: A's grant set 10, the failover at 4 re-armed it to 14. C's grant at 18 set 23, its
    // renewal at 20 (ttl 3) 23 again, the failover at 21 re-armed it to 21 + 3 = 24.
    void leaseEndAtATick()
    {
        const Trace t = simulate(failoverSchedule());
        QCOMPARE(leaseEndAt(t, 1, 0), Tick(10));
        QCOMPARE(leaseEndAt(t, 1, 3), Tick(10));
        QCOMPARE(leaseEndAt(t, 1, 4), Tick(14));
        QCOMPARE(leaseEndAt(t, 1, 12), Tick(14));
        QCOMPARE(leaseEndAt(t, 1, 30), Tick(14));
        QCOMPARE(leaseEndAt(t, 3, 18), Tick(23));
        QCOMPARE(leaseEndAt(t, 3, 20), Tick(23));
        QCOMPARE(leaseEndAt(t, 3, 21), Tick(24));
        QCOMPARE(leaseEndAt(t, 0, 5), Tick(0)); // no epoch
        QCOMPARE(leaseEndAt(t, 9, 5), Tick(0));

        // A failover and a renewal at one tick: the failover (phase 1) re-arms A's lease to
        // 8 + 10 = 18, then A's renewal (phase 6) counts from itself, 8 + 5 = 13.
        Scenario same = scenario(TokenSource::ZooKeeper,
                                 {lane(QStringLiteral("A"), {acquire(0, 10), acquire(8, 5)})});
        same.lock.failovers = {8};
        const Trace u = simulate(same);
        QCOMPARE(u.rearms.size(), std::size_t(1));
        QCOMPARE(u.rearms[0].expires, Tick(18));
        QCOMPARE(leaseEndAt(u, 1, 7), Tick(10));
        QCOMPARE(leaseEndAt(u, 1, 8), Tick(13));
        QCOMPARE(u.leases[0].end, Tick(13));
    }

    // An etcd or ZooKeeper restore re-arms the snapshot's holder when its lease was live at the
    // end of `from` (section 15.3), also when it ended in between: A [0,6), B waits from 2.
    // Restore at 9 from tick 3: A is re-armed to 9 + 6 = 15 (its key stays), so B, which was
    // granted at 6, loses its lease at 9 for the checker, and C's acquire at 10 is refused by A.
    // Counter tokens keep section 14's rule: A's lease ended at 6 <= 9, nobody holds at 9, and C
    // is granted at 10.
    void restoreRearmsTheSnapshotHolder_data()
    {
        QTest::addColumn<int>("source");
        QTest::addColumn<bool>("rearms");
        QTest::newRow("etcd") << int(TokenSource::Etcd) << true;
        QTest::newRow("zookeeper") << int(TokenSource::ZooKeeper) << true;
        QTest::newRow("counter") << int(TokenSource::Counter) << false;
        QTest::newRow("chubby") << int(TokenSource::Chubby) << false;
    }
    void restoreRearmsTheSnapshotHolder()
    {
        QFETCH(int, source);
        QFETCH(bool, rearms);
        Scenario s = scenario(TokenSource(source), {lane(QStringLiteral("A"), {acquire(0, 6)}),
                                                    lane(QStringLiteral("B"), {waiting(2, 10)}),
                                                    lane(QStringLiteral("C"), {acquire(10, 4)})});
        s.lock.restores = {{9, 3, 0}};
        const Trace t = simulate(s);
        QCOMPARE(t.leases[1].start, Tick(6));
        QCOMPARE(t.leases[1].end, Tick(9));
        if (rearms) {
            QCOMPARE(t.rearms.size(), std::size_t(1));
            QCOMPARE(t.rearms[0].at, Tick(9));
            QCOMPARE(t.rearms[0].expires, Tick(15));
            QCOMPARE(t.leases[0].end, Tick(15));
            QCOMPARE(refusals(s, t), QStringList({QStringLiteral("C@10 by A e1")}));
            QCOMPARE(t.lockEvents[0].holder, 0u);
            QCOMPARE(t.lockEvents[0].expires, Tick(15));
        } else {
            QVERIFY(t.rearms.empty());
            QCOMPARE(t.leases[0].end, Tick(6));
            QVERIFY(t.refusals.empty());
            QCOMPARE(t.grants.back().at, Tick(10));
        }
    }

    // A blocking acquire waits without a refusal and is granted when the lease ends (phase 3),
    // its held write running at its turn that tick. etcd: B's key is revision 3 (created when it
    // began to wait), and that is its token.
    void waiterIsGrantedAtExpiry_data()
    {
        QTest::addColumn<int>("source");
        QTest::addColumn<Token>("bToken");
        QTest::newRow("counter") << int(TokenSource::Counter) << Token(2);
        QTest::newRow("etcd") << int(TokenSource::Etcd) << Token(3);
    }
    void waiterIsGrantedAtExpiry()
    {
        QFETCH(int, source);
        QFETCH(Token, bToken);
        const Scenario s = scenario(TokenSource(source),
                                    {lane(QStringLiteral("A"), {acquire(0, 5)}),
                                     lane(QStringLiteral("B"), {waiting(1, 5), write(2, "b")})});
        const Trace t = simulate(s);
        QVERIFY(t.refusals.empty());
        QCOMPARE(t.grants.size(), std::size_t(2));
        QCOMPARE(t.grants[1].at, Tick(5));
        QCOMPARE(t.grants[1].token, bToken);
        QCOMPARE(t.writes[0].sentAt, Tick(5));
        QCOMPARE_NAME(t.writes[0].result, WriteResult::Accepted);
        QCOMPARE(waits(s, t), QStringList({QStringLiteral("B 1->5 granted key%1")
                                               .arg(source == int(TokenSource::Etcd) ? 3 : 0)}));
        QCOMPARE(t.beliefs[1].size(), std::size_t(1));
        QCOMPARE(t.beliefs[1][0].from, Tick(5));
    }

    // A release hands the lock to the first waiter right away; the waiter's held actions run
    // this tick if its lane comes after the releaser's, else the next tick.
    void releaseServesTheFirstWaiter()
    {
        const Scenario later = scenario(
            TokenSource::Counter, {lane(QStringLiteral("A"), {acquire(0, 10), release(3)}),
                                   lane(QStringLiteral("B"), {waiting(1, 5), write(2, "b")})});
        const Trace t = simulate(later);
        QCOMPARE(grants(later, t).last(), QStringLiteral("B@3 t2 e2 grant exp8"));
        QCOMPARE(arrivals(later, t),
                 QStringList({QStringLiteral("B b 3->3 t2 e2 accepted max2 live")}));

        const Scenario earlier = scenario(
            TokenSource::Counter, {lane(QStringLiteral("A"), {waiting(1, 5), write(2, "a")}),
                                   lane(QStringLiteral("B"), {acquire(0, 10), release(3)})});
        const Trace u = simulate(earlier);
        QCOMPARE(grants(earlier, u).last(), QStringLiteral("A@3 t2 e2 grant exp8"));
        QCOMPARE(arrivals(earlier, u),
                 QStringList({QStringLiteral("A a 4->4 t2 e2 accepted max2 live")}));
    }

    // waitFor 3 from tick 1: B gives up at 4 (a refusal naming A) and its write goes untagged.
    // If the lock comes free at that very tick, the grant comes first (phase 3).
    void waitForGivesUp()
    {
        const Scenario s = scenario(TokenSource::Counter,
                                    {lane(QStringLiteral("A"), {acquire(0, 10)}),
                                     lane(QStringLiteral("B"), {waiting(1, 5, 3), write(2, "b")})});
        const Trace t = simulate(s);
        QCOMPARE(refusals(s, t), QStringList({QStringLiteral("B@4 by A e1 gave up")}));
        QCOMPARE(waits(s, t), QStringList({QStringLiteral("B 1->4 gave up key0")}));
        QCOMPARE(arrivals(s, t),
                 QStringList({QStringLiteral("B b 4->4 untagged e0 rejected max0 live")}));

        const Scenario justInTime = scenario(
            TokenSource::Counter, {lane(QStringLiteral("A"), {acquire(0, 4)}),
                                   lane(QStringLiteral("B"), {waiting(1, 5, 3), write(2, "b")})});
        const Trace u = simulate(justInTime);
        QVERIFY(u.refusals.empty());
        QCOMPARE(grants(justInTime, u).last(), QStringLiteral("B@4 t2 e2 grant exp9"));
    }

    // A frozen waiter is granted at the lease end (its lease starts then) and learns at thaw.
    void frozenWaiterLearnsAtThaw()
    {
        const Scenario s =
            scenario(TokenSource::Counter,
                     {lane(QStringLiteral("A"), {acquire(0, 5)}),
                      lane(QStringLiteral("B"), {waiting(1, 5), pause(2, 6), write(3, "b")})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t).last(), QStringLiteral("B@5 t2 e2 grant exp10"));
        QCOMPARE(arrivals(s, t),
                 QStringList({QStringLiteral("B b 8->8 t2 e2 accepted max2 live")}));
        QCOMPARE(t.beliefs[1][0].from, Tick(5)); // from the grant (docs/SEMANTICS.md)
    }

    // Waiters are served in order, and come first: D, which does not wait, is refused at 5 by
    // the waiter granted then; C (waiting since 2) gets the lock when B's lease ends at 8.
    // With lock-delay 3 after A's expiry at 5, the first waiter is served at 8, and an acquire
    // at 6 is refused naming that waiter (a waiter's epoch: 0).
    void waitersInOrderAndFirst()
    {
        const Scenario s = scenario(TokenSource::Counter,
                                    {lane(QStringLiteral("A"), {acquire(0, 5)}),
                                     lane(QStringLiteral("B"), {waiting(1, 3), write(2, "b")}),
                                     lane(QStringLiteral("C"), {waiting(2, 3), write(3, "c")}),
                                     lane(QStringLiteral("D"), {acquire(5, 3)})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({QStringLiteral("A@0 t1 e1 grant exp5"),
                                            QStringLiteral("B@5 t2 e2 grant exp8"),
                                            QStringLiteral("C@8 t3 e3 grant exp11")}));
        QCOMPARE(refusals(s, t), QStringList({QStringLiteral("D@5 by B e2")}));

        Scenario delayed = scenario(TokenSource::Counter,
                                    {lane(QStringLiteral("A"), {acquire(0, 5)}),
                                     lane(QStringLiteral("B"), {waiting(1, 5), write(2, "b")}),
                                     lane(QStringLiteral("C"), {acquire(6, 3)})});
        delayed.lock.lockDelay = 3;
        const Trace u = simulate(delayed);
        QCOMPARE(grants(delayed, u).last(), QStringLiteral("B@8 t2 e2 grant exp13"));
        QCOMPARE(refusals(delayed, u), QStringList({QStringLiteral("C@6 by B e0")}));
    }

    // A waiter with nothing queued behind it does not keep the run going; a horizon does.
    void waitingAloneEndsTheRun()
    {
        Scenario s = scenario(TokenSource::Counter, {lane(QStringLiteral("A"), {acquire(0, 5)}),
                                                     lane(QStringLiteral("B"), {waiting(1, 5)})});
        const Trace t = simulate(s);
        QCOMPARE(t.grants.size(), std::size_t(1));
        QCOMPARE(waits(s, t), QStringList({QStringLiteral("B 1->end waiting key0")}));
        s.horizon = 20;
        const Trace u = simulate(s);
        QCOMPARE(grants(s, u).last(), QStringLiteral("B@5 t2 e2 grant exp10"));
    }
};

QTEST_GUILESS_MAIN(TestTokenSourcesService)
#include "tst_tokensources_service.moc"
