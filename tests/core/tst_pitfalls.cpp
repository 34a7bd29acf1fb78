// docs/SCENARIO.md sections 11-14, the clients' pitfalls: keepalives, check-then-write, client
// clocks and bypass clients (a restored grant and a volatile restart as a bypass client meets
// them). One hand-worked schedule per rule and corner; every expected line was worked out from
// the spec by hand, the comments show how. Then the properties over seeded random schedules of
// every pitfall, the storages' too: the mitigations never corrupt, each pitfall corrupts
// somewhere. The storages' pitfalls, and what the explanations and the run report say of each:
// tst_storagepitfalls.
// The seeded random schedules (10,000 seeds a case) are 1,000 under FENCESCOPE_QUICK=1 (the
// sanitizer build, scripts/sanitize.sh); the counts they must reach are per seed.

#include "explain.h"
#include "pitfallschedules.h"
#include "randomscenario.h"
#include "scenariofile.h"
#include "simulator.h"
#include "testprinters.h"

#include <QTest>

using namespace PitfallSchedules;

namespace {

std::uint64_t seedCount()
{
    return qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 1000 : 10000;
}

QStringList keepaliveFlags(const Trace &t)
{
    QStringList out;
    for (const Grant &g : t.grants)
        out << (g.keepalive ? QStringLiteral("k") : QStringLiteral("-"));
    return out;
}

} // namespace

class TestPitfalls : public QObject
{
    Q_OBJECT

private slots:
    // A: acquire 0 ttl 9 keepalive 3, frozen [4,14), writes at 14. B: acquire 12, write 13.
    // Keepalive due 3 (not frozen): renewal, expires 12. Due 6 falls in the pause: at the thaw
    // 14, after the deferred actions (none). The lease ended at 12, B got token 2 at 12, so the
    // keepalive at 14 fails: A is told (lost) and its belief ends there. Then A's write listed
    // at 14 goes out with token 1: rejected (fenced), corrupted (unfenced).
    void keepaliveStoppedByAPause()
    {
        for (const bool fencing : {true, false}) {
            Scenario s = scenario({lane("A", {acquire(0, 9, 3), Action::pause(4, 10),
                                              write(14, "A")}),
                                   lane("B", {acquire(12, 10), write(13, "B")})},
                                  fencing);
            const Trace t = simulate(s);
            QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp9", "A@3 t1 e1 renewal exp12",
                                                "B@12 t2 e2 grant exp22"}));
            QCOMPARE(keepaliveFlags(t), QStringList({"-", "k", "-"}));
            QCOMPARE(lost(s, t), QStringList({"A@14 keepalive"}));
            QCOMPARE(beliefs(t, 0), QStringLiteral("e1 [0,14)"));
            QCOMPARE(t.beliefs[0][0].end, BeliefEnd::Told);
            if (fencing)
                QCOMPARE(arrivals(s, t), QStringList({"B B 13->13 t2 e2 accepted max2 live",
                                                      "A A 14->14 t1 e1 rejected max2 expired"}));
            else
                QCOMPARE(arrivals(s, t), QStringList({"B B 13->13 t2 e2 accepted max0 live",
                                                      "A A 14->14 t1 e1 corrupted max0 expired"}));
        }
    }

    // A keepalive due in a pause that ends before the lease does renews at the thaw, after the
    // deferred write (due 4, runs 6); the next ones are due 3 ticks after each renewal. The run
    // ends with B's write at 20: keepalives happen only inside the run, so the one due at 21
    // never happens.
    void keepaliveDueInAShortPauseRenewsAtTheThaw()
    {
        Scenario s = scenario({lane("A", {acquire(0, 10, 3), Action::pause(2, 4), write(4, "a")}),
                               lane("B", {write(20, "b")})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t),
                 QStringList({"A@0 t1 e1 grant exp10", "A@6 t1 e1 renewal exp16",
                              "A@9 t1 e1 renewal exp19", "A@12 t1 e1 renewal exp22",
                              "A@15 t1 e1 renewal exp25", "A@18 t1 e1 renewal exp28"}));
        // at 6: the thaw, the deferred write, then the keepalive
        QStringList at6;
        for (const Event &e : t.events)
            if (e.tick == 6 && e.client == 0)
                at6 << toString(e.kind);
        QCOMPARE(at6, QStringList({"pauseEnd", "writeSent", "writeArrived", "renewal"}));
        QVERIFY(t.lost.empty());
    }

    // Nothing else happening: keepalives do not make a run longer; with a horizon they go on
    // up to horizon - 1. A keepalive due at the tick the lease ends comes after the lease end
    // (phase 2 before phase 6): it fails.
    void keepalivesOnlyInsideTheRun()
    {
        Scenario s = scenario({lane("A", {acquire(0, 9, 3)})});
        QCOMPARE(grants(s, simulate(s)), QStringList({"A@0 t1 e1 grant exp9"}));
        s.horizon = 10;
        QCOMPARE(grants(s, simulate(s)),
                 QStringList({"A@0 t1 e1 grant exp9", "A@3 t1 e1 renewal exp12",
                              "A@6 t1 e1 renewal exp15", "A@9 t1 e1 renewal exp18"}));
        Scenario late = scenario({lane("A", {acquire(0, 3, 3)})});
        late.horizon = 10;
        const Trace t = simulate(late);
        QCOMPARE(grants(late, t), QStringList({"A@0 t1 e1 grant exp3"}));
        QCOMPARE(lost(late, t), QStringList({"A@3 keepalive"}));
    }

    // Section 15.6: a thaw is no event of the run. A acquires at 0 (ttl 5, keepalive 2) and is
    // frozen [1,11): its keepalive due at 2 would run at the thaw. The last listed action is the
    // pause at 1, so the run ends at 1: no keepalive, no "told", though the thaw is drawn (its
    // pauseEnd event). With horizon 12 the thaw at 11 is inside: the keepalive there finds the
    // lease gone (ended at 5).
    void aThawAfterTheRunDoesNothing()
    {
        Scenario s = scenario({lane("A", {acquire(0, 5, 2), Action::pause(1, 10)})});
        Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp5"}));
        QVERIFY(t.lost.empty());
        QVERIFY(t.events.back().kind == EventKind::PauseEnd);
        QCOMPARE(t.events.back().tick, Tick(11));
        s.horizon = 12;
        t = simulate(s);
        QCOMPARE(lost(s, t), QStringList({"A@11 keepalive"}));
    }

    // Section 15.6 for a waiter with nothing queued behind it: A holds [0,5), B waits from 1,
    // C pauses [2,12). The run ends at 2 (C's pause), so the lock coming free at 5 is past it:
    // B is never granted (its wait is open, until null). With horizon 8, B is granted at 5.
    void aWaitersGrantAfterTheRunIsNotPartOfIt()
    {
        Action wait = Action::acquire(1, 4);
        wait.wait = true;
        Scenario s = scenario(
            {lane("A", {acquire(0, 5)}), lane("B", {wait}), lane("C", {Action::pause(2, 10)})});
        Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp5"}));
        QCOMPARE(t.waits.size(), std::size_t(1));
        QCOMPARE(t.waits[0].to, kForever);
        s.horizon = 8;
        t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp5", "B@5 t2 e2 grant exp9"}));
    }

    // Section 15.6: a bypass write skips the `owner` and `same` checks and records nothing.
    // same: the job (bypass, token 1 [0,3)) writes at 1: applied, nothing recorded; B (token 2
    // at 4) writes at 5: nothing recorded yet, so 2 is recorded and applied; the job's second
    // write at 6 is applied over it without a check: corrupted. owner: the same, B's write
    // applies because the service holds B's grant.
    void bypassSkipsOwnerAndSame()
    {
        for (const StorageCheck check : {StorageCheck::Same, StorageCheck::Owner}) {
            Scenario s = scenario({lane("job", {acquire(0, 3), write(1, "j1"), write(6, "j2")}),
                                   lane("B", {acquire(4, 10), write(5, "b")})});
            s.clients[0].bypass = true;
            s.storages[0].check = check;
            const Trace t = simulate(s);
            QCOMPARE(arrivals(s, t), QStringList({"job j1 1->1 t1 e1 accepted max0 live",
                                                  "B b 5->5 t2 e2 accepted max2 live",
                                                  "job j2 6->6 t1 e1 corrupted max2 expired"}));
            QCOMPARE(t.finals[0].maxToken, Token(2));
        }
    }

    // Section 15.4: an owner storage trusts the lock service, also a restored one. Counter: A
    // [0,20) releases at 5; B token 2 at 6 [6,16) writes at 7 (the service holds B's grant:
    // applied, max 2). A restore at 8 from tick 4 brings A's grant back (live until 20, section
    // 14), so A's write at 9 applies over epoch 2's data: corrupted with fencing on (max stays 2:
    // the largest token applied). A token storage rejects it (1 < 2).
    void ownerTrustsARestoredGrant()
    {
        Scenario s = scenario({lane("A", {acquire(0, 20), Action::release(5), write(9, "a")}),
                               lane("B", {acquire(6, 10), write(7, "b")})});
        s.lock.restores = {{8, 4, 0}};
        s.storages[0].check = StorageCheck::Owner;
        QCOMPARE(arrivals(s, simulate(s)), QStringList({"B b 7->7 t2 e2 accepted max2 live",
                                                        "A a 9->9 t1 e1 corrupted max2 live"}));
        s.storages[0].check = StorageCheck::Token;
        QCOMPARE(arrivals(s, simulate(s)).last(),
                 QStringLiteral("A a 9->9 t1 e1 rejected max2 live"));
    }

    // Section 15.7: a volatile `same` storage forgets its recorded token at a restart. A [0,10)
    // writes at 1 (records 1), releases at 6; B token 2 at 7 writes at 8. With a restart at 5,
    // nothing is recorded at 8: B's 2 is recorded and applied (max 2). Durable, B's 2 != 1: the
    // live holder of the newest epoch is locked out (max 1). Owner storages start from 0 too.
    void sameForgetsOnAVolatileRestart()
    {
        Scenario s = scenario({lane("A", {acquire(0, 10), write(1, "a"), Action::release(6)}),
                               lane("B", {acquire(7, 10), write(8, "b")})});
        s.storages[0].check = StorageCheck::Same;
        s.storages[0].restarts = {5};
        s.storages[0].durable = false;
        Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A a 1->1 t1 e1 accepted max1 live",
                                              "B b 8->8 t2 e2 accepted max2 live"}));
        QCOMPARE(t.restarts.at(0).forgot, Token(1));
        s.storages[0].durable = true;
        t = simulate(s);
        QCOMPARE(arrivals(s, t).last(), QStringLiteral("B b 8->8 t2 e2 lockedOut max1 live"));
        QCOMPARE(t.finals[0].maxToken, Token(1));
    }

    // A release, an acquire without keepalive, and a waiting acquire each stop the schedule; a
    // refused acquire does not.
    void whatStopsAKeepalive()
    {
        Scenario released = scenario({lane("A", {acquire(0, 10, 2), Action::release(3)})});
        released.horizon = 12;
        QCOMPARE(grants(released, simulate(released)),
                 QStringList({"A@0 t1 e1 grant exp10", "A@2 t1 e1 renewal exp12"}));
        Scenario plain = scenario({lane("A", {acquire(0, 10, 2), acquire(3, 4)})});
        plain.horizon = 12;
        QCOMPARE(grants(plain, simulate(plain)),
                 QStringList({"A@0 t1 e1 grant exp10", "A@2 t1 e1 renewal exp12",
                              "A@3 t1 e1 renewal exp7"}));
        // A (ttl 2, keepalive every 5) lost the lock at 2 to B. Its acquire at 3 is refused
        // and leaves the schedule: the keepalive due at 5 finds the lease gone. A waiting
        // acquire at 3 instead stops it: no keepalive at 5.
        for (const bool wait : {false, true}) {
            Action again = Action::acquire(3, 4);
            again.wait = wait;
            Scenario s = scenario({lane("A", {acquire(0, 2, 5), again}),
                                   lane("B", {acquire(2, 10)})});
            s.horizon = 8;
            const Trace t = simulate(s);
            QCOMPARE(grants(s, t),
                     QStringList({"A@0 t1 e1 grant exp2", "B@2 t2 e2 grant exp12"}));
            QCOMPARE(lost(s, t), wait ? QStringList() : QStringList({"A@5 keepalive"}));
            QCOMPARE(t.refusals.size(), std::size_t(wait ? 0 : 1));
        }
    }

    // A waiting client sends no keepalive; a waiter kept out by a lease kept alive for ever
    // does not keep the run going (section 14, "Run length").
    void waiterBehindAKeptAliveLease()
    {
        Action wait = Action::acquire(1, 5);
        wait.wait = true;
        Scenario s = scenario({lane("A", {acquire(0, 5, 2)}), lane("B", {wait, write(2, "b")})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp5"}));
        QCOMPARE(t.waits.size(), std::size_t(1));
        QCOMPARE(t.waits[0].to, kForever);
        QVERIFY(t.writes.empty());
        // with a horizon the keepalives run up to it, and B still never gets the lock
        s.horizon = 9;
        const Trace h = simulate(s);
        QCOMPARE(grants(s, h), QStringList({"A@0 t1 e1 grant exp5", "A@2 t1 e1 renewal exp7",
                                            "A@4 t1 e1 renewal exp9", "A@6 t1 e1 renewal exp11",
                                            "A@8 t1 e1 renewal exp13"}));
        QVERIFY(h.writes.empty());
    }

    // Check-then-write with a pause in the gap, the seed's first pitfall. A checks at 8 (8 < 10:
    // live), sends 2 ticks later, but is frozen [9,19): the send goes at the thaw 19 with token
    // 1, after B got token 2 at 12 and wrote at 13. Without the pause it sends at 10 and the
    // lease... ends at 10, but the storage has not seen token 2 yet: accepted.
    void pauseInTheGap()
    {
        for (const bool fencing : {true, false}) {
            Scenario s = scenario({lane("A", {acquire(0, 10), checked(8, "A", 2),
                                              Action::pause(9, 10)}),
                                   lane("B", {acquire(12, 10), write(13, "B")})},
                                  fencing);
            const Trace t = simulate(s);
            QCOMPARE(t.checks.size(), std::size_t(1));
            QCOMPARE(t.checks[0].at, Tick(8));
            QCOMPARE(t.checks[0].sendAt, Tick(19));
            QVERIFY(t.checks[0].passed);
            QVERIFY(t.skips.empty());
            QVERIFY(t.lost.empty());
            QCOMPARE(arrivals(s, t),
                     QStringList({QStringLiteral("B B 13->13 t2 e2 accepted max%1 live")
                                      .arg(fencing ? 2 : 0),
                                  fencing ? QStringLiteral("A A 19->19 t1 e1 rejected max2 expired")
                                          : QStringLiteral("A A 19->19 t1 e1 corrupted max0 expired")}));
        }
        Scenario nopause = scenario({lane("A", {acquire(0, 10), checked(8, "A", 2)}),
                                     lane("B", {acquire(12, 10), write(13, "B")})});
        QCOMPARE(arrivals(nopause, simulate(nopause)),
                 QStringList({"A A 10->10 t1 e1 accepted max1 expired",
                              "B B 13->13 t2 e2 accepted max2 live"}));
    }

    // The send does not hold up later actions: A's plain write at 9 goes before the checked
    // write's send at 11.
    void aSendDoesNotHoldUpLaterActions()
    {
        Scenario s = scenario({lane("A", {acquire(0, 20), checked(1, "late", 10), write(9, "x")})});
        QCOMPARE(arrivals(s, simulate(s)), QStringList({"A x 9->9 t1 e1 accepted max1 live",
                                                        "A late 11->11 t1 e1 accepted max1 live"}));
    }

    // A frozen [2,12) thaws at 12 with its lease (ttl 10) gone by its own clock: the checked
    // write is skipped, nothing is sent, and the client learns it lost the lock. This holds with
    // fencing off too: the check catches a pause before it, never one after it.
    void checkSkipsAfterAPause()
    {
        for (const bool fencing : {true, false}) {
            Scenario s = scenario({lane("A", {acquire(0, 10), Action::pause(2, 10),
                                              checked(12, "A")}),
                                   lane("B", {acquire(11, 10), write(12, "B")})},
                                  fencing);
            const Trace t = simulate(s);
            QCOMPARE(skips(s, t), QStringList({"A A@12"}));
            QCOMPARE(lost(s, t), QStringList({"A@12 check"}));
            QCOMPARE(t.summary.skipped, std::uint64_t(1));
            QCOMPARE(t.summary.corrupted, std::uint64_t(0));
            QCOMPARE(arrivals(s, t).size(), 1);
            QCOMPARE(t.beliefs[0].back().end, BeliefEnd::Skipped);
        }
        // a client that never held the lock has no belief: skipped, not lost
        Scenario never = scenario({lane("A", {checked(3, "A")})});
        const Trace t = simulate(never);
        QCOMPARE(skips(never, t), QStringList({"A A@3"}));
        QVERIFY(t.lost.empty());
    }

    // The client's clock: rate 0.5 makes A believe its ttl-10 lease until local time 10, tick
    // 20. At 15 (local 7) its checked write passes and carries token 1 after B's token 2.
    void slowClockBelievesAnExpiredLease()
    {
        Scenario s = scenario({lane("A", {acquire(0, 10), checked(15, "A")}),
                               lane("B", {acquire(12, 10), write(13, "B")})});
        s.clients[0].clock.rateMilli = 500;
        const Trace t = simulate(s);
        QVERIFY(t.skips.empty());
        QCOMPARE(arrivals(s, t), QStringList({"B B 13->13 t2 e2 accepted max2 live",
                                              "A A 15->15 t1 e1 rejected max2 expired"}));
        QCOMPARE(ownLeaseEnd(s, t.grants[0]), Tick(20));
        QCOMPARE(t.grants[0].expires, Tick(10));
        // at rate 1 the same check skips: 15 - 0 >= 10
        s.clients[0].clock.rateMilli = 1000;
        QCOMPARE(simulate(s).summary.skipped, std::uint64_t(1));
    }

    // Steps both ways. Forward 6 at 5: local(7) = 13, 13 - 0 >= 10, skipped although the lease
    // is live. Back 8 at 5: local(12) = 4 < 10, passes; its own end is tick 18 (local 10).
    void clockStepsBothWays()
    {
        Scenario fwd = scenario({lane("A", {acquire(0, 10), checked(7, "A")})});
        fwd.clients[0].clock.steps = {{5, 6}};
        QCOMPARE(fwd.clients[0].clock.local(7), std::int64_t(13));
        QCOMPARE(simulate(fwd).summary.skipped, std::uint64_t(1));
        QCOMPARE(ownLeaseEnd(fwd, simulate(fwd).grants[0]), Tick(5));

        Scenario back = scenario({lane("A", {acquire(0, 10), checked(12, "A")})});
        back.clients[0].clock.steps = {{5, -8}};
        const Trace t = simulate(back);
        QVERIFY(t.skips.empty());
        QCOMPARE(arrivals(back, t), QStringList({"A A 12->12 t1 e1 accepted max1 expired"}));
        QCOMPARE(ownLeaseEnd(back, t.grants[0]), Tick(18));
        // rate 1.5: floor(1.5 * 7) = 10 -> a ttl-10 lease is over at tick 7 in its view
        ClientClock fast;
        fast.rateMilli = 1500;
        QCOMPARE(fast.local(7), std::int64_t(10));
        QCOMPARE(fast.leaseEndsAt(0, 10), Tick(7));
        QCOMPARE(fast.leaseEndsAt(3, 10), Tick(10)); // local(3) = 4, local(10) = 15
    }

    // A bypass client's writes skip the check: J never held the lock, its untagged write is
    // applied over B's epoch 2 (corrupted) and max_token stays 2. Without bypass it is rejected.
    void bypassIsAnUnfencedPath()
    {
        Scenario s = scenario({lane("A", {acquire(0, 10), write(1, "A1")}),
                               lane("B", {acquire(11, 10), write(12, "B")}),
                               lane("J", {write(13, "J")})});
        s.clients[2].bypass = true;
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A A1 1->1 t1 e1 accepted max1 live",
                                              "B B 12->12 t2 e2 accepted max2 live",
                                              "J J 13->13 untagged e0 corrupted max2 live"}));
        QCOMPARE(t.finals[0].value, QStringLiteral("J"));
        s.clients[2].bypass = false;
        QCOMPARE(arrivals(s, simulate(s)).last(),
                 QStringLiteral("J J 13->13 untagged e0 rejected max2 live"));
    }

    // Properties over 10,000 seeded schedules per source (section 6's invariant, extended):
    // fencing on, rule lt, a monotonic source, durable max_token and no bypass: nothing ever
    // corrupts, with keepalives, checks, client clocks, version storages, reads and groups
    // mixed in.
    void mitigationsNeverCorrupt_data()
    {
        QTest::addColumn<int>("source");
        for (int i = 0; i < kTokenSourceCount; ++i)
            if (isMonotonic(TokenSource(i)))
                QTest::newRow(qPrintable(toString(TokenSource(i)))) << i;
    }
    void mitigationsNeverCorrupt()
    {
        QFETCH(int, source);
        TestSupport::RandomScenarioOptions o;
        o.tokens = TokenSource(source);
        o.sourceEvents = true;
        o.waitPercent = 10;
        TestSupport::PitfallOptions p;
        p.keepalivePercent = 40;
        p.checkPercent = 40;
        p.clockPercent = 40;
        p.versionPercent = 30;
        p.readPercent = 40;
        p.groupPercent = 30;
        std::uint64_t writes = 0, keepalives = 0, skipped = 0, versioned = 0, partial = 0;
        for (std::uint64_t seed = 1; seed <= seedCount(); ++seed) {
            Scenario s = TestSupport::randomScenario(seed, o);
            TestSupport::addPitfalls(s, seed, p);
            const Trace t = simulate(s, true);
            QVERIFY2(t.summary.corrupted == 0, qPrintable(QStringLiteral("seed %1").arg(seed)));
            writes += t.writes.size();
            skipped += t.summary.skipped;
            partial += t.summary.partial;
            versioned += t.writeVersions.size();
            for (const Grant &g : t.grants)
                keepalives += g.keepalive;
        }
        // the mix really was exercised
        QVERIFY(writes > 5 * seedCount());
        QVERIFY(keepalives > seedCount() / 10);
        QVERIFY(skipped > seedCount() / 10);
        QVERIFY(versioned > seedCount());
        // groups half applied are no corruption, but they happen
        QVERIFY(partial > seedCount() / 100);
    }

    // Each pitfall switched on, alone, corrupts in some of the same schedules: the test finds
    // them. Fencing stays on, rule lt, counter tokens.
    void eachPitfallCorruptsSomewhere_data()
    {
        QTest::addColumn<int>("pitfall");
        QTest::newRow("bypass") << 0;
        QTest::newRow("volatile max_token") << 1;
    }
    void eachPitfallCorruptsSomewhere()
    {
        QFETCH(int, pitfall);
        TestSupport::PitfallOptions p;
        (pitfall == 0 ? p.bypassPercent : p.volatilePercent) = 50;
        std::uint64_t corrupting = 0;
        for (std::uint64_t seed = 1; seed <= seedCount(); ++seed) {
            Scenario s = TestSupport::randomScenario(seed);
            TestSupport::addPitfalls(s, seed, p);
            const Trace t = simulate(s, true);
            if (t.summary.corrupted == 0)
                continue;
            ++corrupting;
            // and every corrupted write is the pitfall's doing: a volatile storage, or one a
            // bypass write reached first (it applied a newer epoch without raising max_token,
            // so an older token still passes after it)
            for (const Write &w : t.writes) {
                if (w.result != WriteResult::Corrupted)
                    continue;
                if (pitfall == 1) {
                    QVERIFY(!s.storages[w.storage].durable);
                    continue;
                }
                bool bypassed = s.clients[w.client].bypass;
                for (const Write &x : t.writes)
                    bypassed |= s.clients[x.client].bypass && x.applied &&
                                x.storage == w.storage && x.arrivedAt <= w.arrivedAt;
                QVERIFY(bypassed);
            }
        }
        QVERIFY2(corrupting > seedCount() / 100, qPrintable(QString::number(corrupting)));
    }

    // Check-then-write never stops a stale write whose pause falls inside the gap: a check
    // that passed always sends, with the token it remembered at the check, and some of those
    // sends arrive after their lease ended.
    void checkNeverStopsAPauseInTheGap()
    {
        TestSupport::PitfallOptions p;
        p.checkPercent = 100;
        std::uint64_t pausedInGap = 0, lateAnyway = 0;
        for (std::uint64_t seed = 1; seed <= seedCount(); ++seed) {
            Scenario s = TestSupport::randomScenario(seed);
            TestSupport::addPitfalls(s, seed, p);
            const Trace t = simulate(s, true);
            for (const Check &c : t.checks) {
                if (!c.passed)
                    continue;
                const Tick gapEnd = c.at + s.clients[c.client].actions[c.action].gap();
                bool paused = false;
                for (const Freeze &f : t.freezes[c.client])
                    paused |= f.from > c.at && f.from <= gapEnd;
                if (!paused)
                    continue;
                ++pausedInGap;
                QVERIFY2(c.write != kNone, qPrintable(QStringLiteral("seed %1").arg(seed)));
                const Write &w = t.writes[c.write];
                QCOMPARE(w.epoch, c.epoch);
                QCOMPARE(w.sentAt, c.sendAt);
                QVERIFY(w.sentAt >= gapEnd);
                lateAnyway += w.expired;
            }
        }
        QVERIFY(pausedInGap > seedCount() / 20);
        QVERIFY(lateAnyway > seedCount() / 200);
    }

    // Keepalives are events of their own: a file whose keepalives could renew more often than
    // the action limit allows is refused at the keepalive, not simulated for ever.
    void keepalivesAreBounded()
    {
        const QByteArray huge = R"({"fencescope": 1, "horizon": 9007199254740000, "clients": [
            {"name": "A", "actions": [{"at": 0, "do": "acquire", "ttl": 5, "keepalive": 1}]}]})";
        const LoadResult r = ScenarioFile::parse(huge);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.startsWith(QLatin1String("clients[0].actions[0].keepalive: too many "
                                                  "keepalives")),
                 qPrintable(r.error));
        FileLimits small;
        small.maxActions = 100;
        const QByteArray fine = R"({"fencescope": 1, "horizon": 50, "clients": [
            {"name": "A", "actions": [{"at": 0, "do": "acquire", "ttl": 5, "keepalive": 1}]}]})";
        QVERIFY2(ScenarioFile::parse(fine, small).ok(), qPrintable(ScenarioFile::parse(fine, small).error));
        // 50 + 5 ticks of run at most, every tick: 56 renewals fit 100, not 40
        small.maxActions = 40;
        QVERIFY(!ScenarioFile::parse(fine, small).ok());
    }
};

QTEST_GUILESS_MAIN(TestPitfalls)
#include "tst_pitfalls.moc"
