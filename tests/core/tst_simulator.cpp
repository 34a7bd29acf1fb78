// simulate() against docs/SCENARIO.md sections 1-6 and 8, one hand-worked schedule per rule.
// Every expected value below was worked out from the spec by hand; the comments show how.
//
// Writes are compared as one line each: "client value sent->arrived token epoch result
// maxToken expired", which keeps the expectations readable and failures obvious.
// Over 600 lines: one worked schedule for each rule of those sections, each short, all sharing
// these helpers; the sections after 8 have files of their own (tst_tokensources, tst_pitfalls).

#include "randomscenario.h"
#include "scenariofile.h"
#include "simulator.h"
#include "tracetext.h"
#include "testprinters.h"

#include <QTest>

using namespace Core;
using TestSupport::grants;

namespace {

Client lane(const QString &name, std::vector<Action> actions)
{
    return Client{name, std::move(actions), {}, false, {}};
}

Scenario scenario(std::vector<Client> clients, bool fencing = true,
                  std::vector<StorageSpec> storages = {})
{
    Scenario s;
    s.title = QStringLiteral("hand-worked");
    s.fencing = fencing;
    if (!storages.empty())
        s.storages = std::move(storages);
    s.clients = std::move(clients);
    return s;
}

StorageSpec storage(const QString &name, FenceRule rule = FenceRule::Lt)
{
    return StorageSpec{name, rule, {}, true, {}, {}};
}

Action write(Tick at, const char *value, Tick delay = 0, std::uint32_t storage = 0)
{
    return Action::write(at, QString::fromUtf8(value), storage, delay);
}

QString describe(const Scenario &s, const Trace &t, const Write &w)
{
    return QStringLiteral("%1 %2 %3->%4 %5 e%6 %7 max%8 %9")
        .arg(s.clients[w.client].name, writeValue(s, w))
        .arg(w.sentAt)
        .arg(w.arrivedAt)
        .arg(w.tagged ? QStringLiteral("t%1").arg(t.tokenOf(w)) : QStringLiteral("untagged"))
        .arg(w.epoch)
        .arg(toString(w.result))
        .arg(w.maxToken)
        .arg(w.expired ? QStringLiteral("expired") : QStringLiteral("live"));
}

// Writes in arrival order (docs/SCENARIO.md §8), one line each.
QStringList arrivals(const Scenario &s, const Trace &t)
{
    QStringList out;
    for (const Event &e : t.events)
        if (e.kind == EventKind::WriteArrived)
            out << describe(s, t, t.writes[e.ref]);
    return out;
}

QStringList refusals(const Scenario &s, const Trace &t)
{
    QStringList out;
    for (const Refusal &r : t.refusals)
        out << QStringLiteral("%1@%2 by %3")
                   .arg(s.clients[r.client].name)
                   .arg(r.at)
                   .arg(s.clients[r.holder].name);
    return out;
}

QStringList leases(const Trace &t)
{
    QStringList out;
    for (const Lease &l : t.leases)
        out << QStringLiteral("e%1 c%2 t%3 [%4,%5)%6")
                   .arg(l.epoch)
                   .arg(l.client)
                   .arg(l.token)
                   .arg(l.start)
                   .arg(l.end)
                   .arg(l.released ? QStringLiteral(" released") : QString());
    return out;
}

QString freezes(const Trace &t, std::size_t client)
{
    QStringList out;
    for (const Freeze &f : t.freezes[client])
        out << QStringLiteral("[%1,%2)").arg(f.from).arg(f.to);
    return out.join(QLatin1Char(' '));
}

QString beliefs(const Trace &t, std::size_t client)
{
    static const char *const ends[] = {"never", "regranted", "refused", "rejected", "released"};
    QStringList out;
    for (const Belief &b : t.beliefs[client])
        out << QStringLiteral("e%1 [%2,%3) %4")
                   .arg(b.epoch)
                   .arg(b.from)
                   .arg(b.to == kForever ? QStringLiteral("inf") : QString::number(b.to))
                   .arg(QLatin1String(ends[int(b.end)]));
    return out.join(QLatin1String("; "));
}

QString events(const Scenario &s, const Trace &t)
{
    QStringList out;
    for (const Event &e : t.events)
        out << QStringLiteral("%1:%2:%3").arg(e.tick).arg(s.clients[e.client].name, toString(e.kind));
    return out.join(QLatin1Char(' '));
}

// The scenario of docs/SCENARIO.md section 7, built by hand.
Scenario specExample()
{
    Scenario s = scenario({lane(QStringLiteral("A"),
                                {Action::acquire(0, 10), Action::pause(1, 29), write(30, "A")}),
                           lane(QStringLiteral("B"), {Action::acquire(5, 10), Action::acquire(12, 10),
                                                      write(13, "B")})});
    s.title = QStringLiteral("Paused client wakes after its lease expired");
    s.horizon = 40;
    return s;
}

} // namespace

class TestSimulator : public QObject
{
    Q_OBJECT

private slots:
    // ---- docs/SCENARIO.md sections 7 and 8 ------------------------------------------------------

    void specExampleFenced()
    {
        const Scenario s = specExample();
        const Trace t = simulate(s);
        QVERIFY(t.fencing);
        // A: grant token 1 at 0, live [0,10). B at 5: A live -> refused. B at 12: expired ->
        // grant token 2, expires 22.
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10", "B@12 t2 e2 grant exp22"}));
        QCOMPARE(refusals(s, t), QStringList({"B@5 by A"}));
        // B writes at 13 with token 2 (max 0 -> 2). A frozen [1,30) writes at 30 with token 1:
        // 1 < 2 rejected, its lease ended at 10.
        QCOMPARE(arrivals(s, t), QStringList({"B B 13->13 t2 e2 accepted max2 live",
                                              "A A 30->30 t1 e1 rejected max2 expired"}));
        QCOMPARE(t.finals.size(), std::size_t(1));
        QCOMPARE(t.finals[0].value, QStringLiteral("B"));
        QCOMPARE(t.finals[0].maxToken, Token(2));
        QCOMPARE(t.summary.accepted, 1u);
        QCOMPARE(t.summary.rejected, 1u);
        QCOMPARE(t.summary.corrupted, 0u);
        QCOMPARE(t.summary.lockedOut, 0u);
        QVERIFY(t.summary.safe());
    }

    void specExampleUnfencedCorruptsToA()
    {
        const Scenario s = specExample();
        for (const Trace &t : {simulate(s, false), [&] {
                 Scenario off = s;
                 off.fencing = false;
                 return simulate(off);
             }()}) {
            QVERIFY(!t.fencing);
            QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10", "B@12 t2 e2 grant exp22"}));
            // no check at the resource: both applied, max_token stays 0; A's epoch 1 lands
            // after epoch 2 was applied -> corrupted
            QCOMPARE(arrivals(s, t), QStringList({"B B 13->13 t2 e2 accepted max0 live",
                                                  "A A 30->30 t1 e1 corrupted max0 expired"}));
            QCOMPARE(t.finals[0].value, QStringLiteral("A"));
            QCOMPARE(t.finals[0].maxToken, Token(0));
            QCOMPARE(t.summary.accepted, 1u);
            QCOMPARE(t.summary.rejected, 0u);
            QCOMPARE(t.summary.corrupted, 1u);
            QCOMPARE(t.summary.lockedOut, 0u);
            QVERIFY(!t.summary.safe());
            QCOMPARE(t.writes[1].overwrote, 0u); // A's write replaced B's
        }
    }

    void fencingOverride()
    {
        Scenario s = specExample();
        s.fencing = false;
        QCOMPARE(simulate(s, true).summary.rejected, 1u);
        QCOMPARE(simulate(s).summary.corrupted, 1u);
    }

    // ---- §1 and §2: leases and the lock service ---------------------------------------------

    void leaseIsLiveUpToButExcludingExpiry()
    {
        // A live [0,10): B refused at 9, granted at 10 with a new token
        const Scenario s = scenario({lane("A", {Action::acquire(0, 10)}),
                                     lane("B", {Action::acquire(9, 5), Action::acquire(10, 5)})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10", "B@10 t2 e2 grant exp15"}));
        QCOMPARE(refusals(s, t), QStringList({"B@9 by A"}));
    }

    void sameClientAtExpiryGetsANewToken()
    {
        // 9 < 10: renewal, same token, expiry 9 + 10 = 19; at 19 the renewed lease has expired,
        // so the same client gets a grant with token 2 (not a renewal)
        const Scenario s = scenario({lane("A", {Action::acquire(0, 10), Action::acquire(9, 10),
                                                Action::acquire(19, 10)})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10", "A@9 t1 e1 renewal exp19",
                                            "A@19 t2 e2 grant exp29"}));
        QCOMPARE(leases(t), QStringList({"e1 c0 t1 [0,19)", "e2 c0 t2 [19,29)"}));
    }

    void renewalMayShortenTheLease()
    {
        // renewal at 2 with ttl 3: expiry = 2 + 3 = 5, earlier than the original 10
        const Scenario s = scenario({lane("A", {Action::acquire(0, 10), Action::acquire(2, 3)}),
                                     lane("B", {Action::acquire(4, 1), Action::acquire(5, 10)})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10", "A@2 t1 e1 renewal exp5",
                                            "B@5 t2 e2 grant exp15"}));
        QCOMPARE(refusals(s, t), QStringList({"B@4 by A"}));
        QCOMPARE(leases(t), QStringList({"e1 c0 t1 [0,5)", "e2 c1 t2 [5,15)"}));
    }

    void refusalLeavesTheTokenUnchanged()
    {
        // B: token 1 [0,5). A: token 2 at 5. B refused at 6 keeps token 1 and writes with it
        // at 7; the storage has seen nothing yet, so 1 >= 0 is applied (expired, epoch 1 newest
        // applied so far -> accepted). A then writes with token 2.
        const Scenario s = scenario({lane("A", {Action::acquire(5, 10), write(8, "a")}),
                                     lane("B", {Action::acquire(0, 5), Action::acquire(6, 3),
                                                write(7, "b")})});
        const Trace t = simulate(s);
        QCOMPARE(refusals(s, t), QStringList({"B@6 by A"}));
        QCOMPARE(arrivals(s, t), QStringList({"B b 7->7 t1 e1 accepted max1 expired",
                                              "A a 8->8 t2 e2 accepted max2 live"}));
        // a refusal does not end the belief (docs/SCENARIO.md section 14, "Belief"): nothing tells
        // B otherwise, its write is even accepted
        QCOMPARE(beliefs(t, 1), QStringLiteral("e1 [0,inf) never"));
    }

    void refusedClientThatNeverHeldWritesUntagged()
    {
        const Scenario s = scenario(
            {lane("A", {Action::acquire(0, 10)}), lane("B", {Action::acquire(1, 10), write(2, "b")})});
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"B b 2->2 untagged e0 rejected max0 live"}));
        QVERIFY(t.beliefs[1].empty());
    }

    void releaseByHolderEndsTheLeaseAtThatTick()
    {
        // A releases at 4; B (a later lane) acquires at 4 and gets token 2
        const Scenario s = scenario({lane("A", {Action::acquire(0, 10), Action::release(4)}),
                                     lane("B", {Action::acquire(4, 10)})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10", "B@4 t2 e2 grant exp14"}));
        QCOMPARE(leases(t), QStringList({"e1 c0 t1 [0,4) released", "e2 c1 t2 [4,14)"}));
        QCOMPARE(t.releases.size(), std::size_t(1));
        QVERIFY(t.releases[0].effective);
        QCOMPARE(t.releases[0].epoch, 1u);
        QCOMPARE(t.releases[0].at, Tick(4));
        QCOMPARE(t.releases[0].action, 1u);
        QCOMPARE(t.leaseAt(3)->epoch, 1u);
        QCOMPARE(t.leaseAt(4)->epoch, 2u);
        QCOMPARE(beliefs(t, 0), QStringLiteral("e1 [0,4) released"));
    }

    void releaseInALaterLaneComesTooLate()
    {
        // same tick, but B's lane comes first: A still holds the lock when B asks
        const Scenario s = scenario({lane("B", {Action::acquire(4, 10)}),
                                     lane("A", {Action::acquire(0, 10), Action::release(4)})});
        const Trace t = simulate(s);
        QCOMPARE(refusals(s, t), QStringList({"B@4 by A"}));
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10"}));
        QCOMPARE(leases(t), QStringList({"e1 c1 t1 [0,4) released"}));
        QVERIFY(t.leaseAt(4) == nullptr);
    }

    void releaseByNonHolderDoesNothing()
    {
        // B is not the holder at 3; A's expired lease cannot be released at 12
        const Scenario s = scenario(
            {lane("A", {Action::acquire(0, 10), Action::release(12)}),
             lane("B", {Action::release(3), Action::acquire(4, 1), Action::acquire(10, 1)})});
        const Trace t = simulate(s);
        QCOMPARE(refusals(s, t), QStringList({"B@4 by A"}));
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10", "B@10 t2 e2 grant exp11"}));
        QCOMPARE(leases(t), QStringList({"e1 c0 t1 [0,10)", "e2 c1 t2 [10,11)"}));
        QCOMPARE(t.releases.size(), std::size_t(2));
        QVERIFY(!t.releases[0].effective); // B at 3
        QCOMPARE(t.releases[0].client, 1u);
        QVERIFY(!t.releases[1].effective); // A at 12
        QCOMPARE(t.releases[1].client, 0u);
    }

    // ---- §5: order within a tick ------------------------------------------------------------

    void arrivingWritesComeBeforeClientActions()
    {
        // A's write sent at 5 with delay 5 arrives at 10, before B's actions at 10: the storage
        // has seen nothing, token 1 is applied (A's lease ended at 10 -> expired). Then B gets
        // token 2 and writes. Had B acted first, A's write would have been rejected.
        const Scenario s = scenario({lane("A", {Action::acquire(0, 10), write(5, "a", 5)}),
                                     lane("B", {Action::acquire(10, 10), write(10, "b")})});
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A a 5->10 t1 e1 accepted max1 expired",
                                              "B b 10->10 t2 e2 accepted max2 live"}));
        QCOMPARE(t.finals[0].value, QStringLiteral("b"));
    }

    void arrivingWritesInSendOrderThenLane()
    {
        // all four arrive at 8. Send order: b-early (2), a-later (3), then a-tie and b-tie
        // (both sent at 4: lane order, A first). Unfenced: the last one wins.
        const Scenario s = scenario({lane("A", {write(3, "a-later", 5), write(4, "a-tie", 4)}),
                                     lane("B", {write(2, "b-early", 6), write(4, "b-tie", 4)})},
                                    false);
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"B b-early 2->8 untagged e0 accepted max0 live",
                                              "A a-later 3->8 untagged e0 accepted max0 live",
                                              "A a-tie 4->8 untagged e0 accepted max0 live",
                                              "B b-tie 4->8 untagged e0 accepted max0 live"}));
        QCOMPARE(t.finals[0].value, QStringLiteral("b-tie"));
    }

    void clientsActInLaneOrder()
    {
        // both acquire at 0: lane 0 wins; both write at 5: lane 1's value is last
        for (bool swapped : {false, true}) {
            Client a = lane("A", {Action::acquire(0, 10), write(5, "a")});
            Client b = lane("B", {Action::acquire(0, 10), write(5, "b")});
            const Scenario s = swapped ? scenario({b, a}, false) : scenario({a, b}, false);
            const Trace t = simulate(s);
            QCOMPARE(grants(s, t).size(), 1);
            QCOMPARE(s.clients[t.grants[0].client].name, swapped ? QStringLiteral("B")
                                                                 : QStringLiteral("A"));
            QCOMPARE(t.finals[0].value, swapped ? QStringLiteral("a") : QStringLiteral("b"));
        }
    }

    void delayZeroWriteIsHandledDuringItsAction()
    {
        // rule le: a1 raises max_token to 1. a2 at 5 carries token 1 again (1 <= 1: refused).
        // It is handled at once, before A's release listed after it: A is then still the live
        // holder of the newest epoch -> lockedOut, not expired.
        const std::vector<StorageSpec> le{storage("db", FenceRule::Le)};
        Scenario s = scenario({lane("A", {Action::acquire(0, 10), write(2, "a1"), write(5, "a2"),
                                          Action::release(5)})},
                              true, le);
        Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A a1 2->2 t1 e1 accepted max1 live",
                                              "A a2 5->5 t1 e1 lockedOut max1 live"}));
        QCOMPARE(t.summary.lockedOut, 1u);

        // release listed first: the lease ended at 5 before a2 is handled -> rejected, expired
        s = scenario({lane("A", {Action::acquire(0, 10), write(2, "a1"), Action::release(5),
                                 write(5, "a2")})},
                     true, le);
        t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A a1 2->2 t1 e1 accepted max1 live",
                                              "A a2 5->5 t1 e1 rejected max1 expired"}));
    }

    void delayZeroWriteComesAfterEarlierArrivals()
    {
        // "old" sent at 1 with delay 4 arrives at 5 before A's delay-0 write at 5, which is
        // handled before lane B's delay-0 write at 5
        const Scenario s = scenario({lane("A", {write(5, "a")}),
                                     lane("B", {write(1, "old", 4), write(5, "b")})},
                                    false);
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"B old 1->5 untagged e0 accepted max0 live",
                                              "A a 5->5 untagged e0 accepted max0 live",
                                              "B b 5->5 untagged e0 accepted max0 live"}));
        QCOMPARE(t.storageWrites[0], (std::vector<std::uint32_t>{0, 1, 2}));
    }

    // ---- §3: pauses -------------------------------------------------------------------------

    void deferredActionsRunAtThawBeforeThatTicksActions()
    {
        // listed out of order on purpose. Sorted by at: acquire@0, pause@1 [1,10), w3, w5,
        // w5b (tie with w5: listed order), at10. w3, w5, w5b are deferred to 10 and run there
        // in their order before at10.
        const Scenario s = scenario({lane("A", {Action::acquire(0, 100), write(10, "at10"),
                                                Action::pause(1, 9), write(5, "w5"), write(3, "w3"),
                                                write(5, "w5b")})});
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A w3 10->10 t1 e1 accepted max1 live",
                                              "A w5 10->10 t1 e1 accepted max1 live",
                                              "A w5b 10->10 t1 e1 accepted max1 live",
                                              "A at10 10->10 t1 e1 accepted max1 live"}));
        QCOMPARE(t.finals[0].value, QStringLiteral("at10"));
        QCOMPARE(freezes(t, 0), QStringLiteral("[1,10)"));
    }

    void pauseWindowIsHalfOpen()
    {
        // pause [1,5): the write at 0 runs at 0, the one at 1 (listed before the pause, same
        // tick) is frozen -> 5, at 4 -> 5, at exactly 5 not deferred (runs at 5, after them)
        const Scenario s = scenario({lane("A", {write(0, "w0"), write(1, "w1"), Action::pause(1, 4),
                                                write(4, "w4"), write(5, "w5"), write(6, "w6")})},
                                    false);
        const Trace t = simulate(s);
        QStringList sent;
        for (const Write &w : t.writes)
            sent << QStringLiteral("%1@%2").arg(writeValue(s, w)).arg(w.sentAt);
        QCOMPARE(sent, QStringList({"w0@0", "w1@5", "w4@5", "w5@5", "w6@6"}));
        QCOMPARE(freezes(t, 0), QStringLiteral("[1,5)"));
    }

    void overlappingPausesFreezeTheirUnion()
    {
        // [1,6) and [3,13) -> frozen [1,13): the write at 6 is not free yet, runs at 13 with
        // the one at 12, before the one at 13
        const Scenario s = scenario({lane("A", {Action::pause(3, 10), Action::pause(1, 5),
                                                write(6, "w6"), write(13, "w13"), write(12, "w12")})},
                                    false);
        const Trace t = simulate(s);
        QCOMPARE(freezes(t, 0), QStringLiteral("[1,13)"));
        QStringList order;
        for (const QString &line : arrivals(s, t))
            order << line.section(QLatin1Char(' '), 1, 2);
        QCOMPARE(order, QStringList({"w6 13->13", "w12 13->13", "w13 13->13"}));
        // pause starts and ends per pause action
        QCOMPARE(events(s, t), QStringLiteral("1:A:pauseStart 3:A:pauseStart 6:A:pauseEnd "
                                              "13:A:pauseEnd 13:A:writeSent 13:A:writeArrived "
                                              "13:A:writeSent 13:A:writeArrived 13:A:writeSent "
                                              "13:A:writeArrived"));
    }

    void nestedAdjacentAndDisjointPauses()
    {
        // nested [1,11) ⊃ [2,5): the write at 5 waits until 11
        Scenario s = scenario({lane("A", {Action::pause(1, 10), Action::pause(2, 3), write(5, "x")})},
                              false);
        Trace t = simulate(s);
        QCOMPARE(freezes(t, 0), QStringLiteral("[1,11)"));
        QCOMPARE(t.writes[0].sentAt, Tick(11));

        // adjacent [1,6) + [6,10) = [1,10): the write at 6 waits until 10
        s = scenario({lane("A", {Action::pause(1, 5), Action::pause(6, 4), write(6, "x"),
                                 write(10, "y")})},
                     false);
        t = simulate(s);
        QCOMPARE(freezes(t, 0), QStringLiteral("[1,10)"));
        QCOMPARE(t.writes[0].sentAt, Tick(10));
        QCOMPARE(t.writes[1].sentAt, Tick(10));
        // at 6 the first pause ends before the second starts
        QCOMPARE(events(s, t), QStringLiteral("1:A:pauseStart 6:A:pauseEnd 6:A:pauseStart "
                                              "10:A:pauseEnd 10:A:writeSent 10:A:writeArrived "
                                              "10:A:writeSent 10:A:writeArrived"));

        // disjoint [1,3) and [4,6): the write at 3 runs in the gap, the one at 4 at 6
        s = scenario({lane("A", {Action::pause(4, 2), Action::pause(1, 2), write(3, "x"),
                                 write(4, "y")})},
                     false);
        t = simulate(s);
        QCOMPARE(freezes(t, 0), QStringLiteral("[1,3) [4,6)"));
        QCOMPARE(t.writes[0].sentAt, Tick(3));
        QCOMPARE(t.writes[1].sentAt, Tick(6));
    }

    void deferredAcquireAndDelayedWrite()
    {
        // B frozen [1,8): its acquire at 3 runs at 8 (A's lease [0,5) is over: token 2), its
        // write at 4 with delay 3 is sent at 8 and arrives at 11
        const Scenario s = scenario({lane("A", {Action::acquire(0, 5)}),
                                     lane("B", {Action::pause(1, 7), Action::acquire(3, 10),
                                                write(4, "b", 3)})});
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp5", "B@8 t2 e2 grant exp18"}));
        QCOMPARE(arrivals(s, t), QStringList({"B b 8->11 t2 e2 accepted max2 live"}));
    }

    // ---- §3 and §6: delays, tokens remembered at send time ----------------------------------

    void delayedWriteCarriesTheTokenItWasSentWith()
    {
        // A: token 1 [0,5); sends "old" at 3 with delay 10 (arrives 13). At 6 A gets token 2
        // and writes "new" (max 2). "old" arrives at 13 with token 1: 1 < 2 -> rejected; its
        // epoch 1 is no longer the newest and its lease ended at 5 -> expired.
        // (A itself is the live holder of the newest epoch at 13, but the write is not: the
        // write's epoch decides, as the project README documents.)
        const Scenario s = scenario({lane("A", {Action::acquire(0, 5), write(3, "old", 10),
                                                Action::acquire(6, 20), write(7, "new")})});
        Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A new 7->7 t2 e2 accepted max2 live",
                                              "A old 3->13 t1 e1 rejected max2 expired"}));
        t = simulate(s, false);
        QCOMPARE(arrivals(s, t), QStringList({"A new 7->7 t2 e2 accepted max0 live",
                                              "A old 3->13 t1 e1 corrupted max0 expired"}));
        QCOMPARE(t.finals[0].value, QStringLiteral("old"));
    }

    void expiredFlagBoundary()
    {
        // lease [0,10): arriving at 9 is live, at exactly 10 expired (still accepted: 1 >= 1)
        const Scenario s = scenario({lane("A", {Action::acquire(0, 10), write(9, "in"),
                                                write(8, "out", 2)})});
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A in 9->9 t1 e1 accepted max1 live",
                                              "A out 8->10 t1 e1 accepted max1 expired"}));
    }

    // ---- untagged writes --------------------------------------------------------------------

    void untaggedWrites()
    {
        // A writes before it ever held the lock, then holds token 1 and writes; B never holds
        const Scenario s = scenario({lane("A", {write(0, "u"), Action::acquire(1, 10), write(2, "t")}),
                                     lane("B", {write(3, "u2")})});
        Trace t = simulate(s);
        // fenced: untagged is always rejected; the reply carries the current max_token
        QCOMPARE(arrivals(s, t), QStringList({"A u 0->0 untagged e0 rejected max0 live",
                                              "A t 2->2 t1 e1 accepted max1 live",
                                              "B u2 3->3 untagged e0 rejected max1 live"}));
        // unfenced: applied; epoch 0 after an applied epoch 1 overwrote newer data
        t = simulate(s, false);
        QCOMPARE(arrivals(s, t), QStringList({"A u 0->0 untagged e0 accepted max0 live",
                                              "A t 2->2 t1 e1 accepted max0 live",
                                              "B u2 3->3 untagged e0 corrupted max0 live"}));
        QCOMPARE(t.finals[0].value, QStringLiteral("u2"));
    }

    // ---- §4: the rule le against lt ---------------------------------------------------------

    void leLocksOutTheLiveHolderButNotAStaleWriter()
    {
        // A: token 1 live [0,5). "1" raises max to 1. "2" at 3: le refuses 1 <= 1, A is the
        // live holder of the newest epoch -> lockedOut. "3" at 5 arrives after the lease ended
        // -> rejected (expired). B: token 2 at 6 > 1 -> accepted under le too.
        const auto schedule = [](FenceRule rule) {
            return scenario({lane("A", {Action::acquire(0, 5), write(1, "1"), write(3, "2"),
                                        write(5, "3")}),
                             lane("B", {Action::acquire(6, 10), write(7, "b")})},
                            true, {storage("db", rule)});
        };
        Scenario s = schedule(FenceRule::Le);
        Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A 1 1->1 t1 e1 accepted max1 live",
                                              "A 2 3->3 t1 e1 lockedOut max1 live",
                                              "A 3 5->5 t1 e1 rejected max1 expired",
                                              "B b 7->7 t2 e2 accepted max2 live"}));
        QCOMPARE(t.summary.lockedOut, 1u);
        QCOMPARE(t.summary.rejected, 1u);
        // the lockedOut reply also ends A's belief (it is told its lock is gone)
        QCOMPARE(beliefs(t, 0), QStringLiteral("e1 [0,3) rejected"));

        s = schedule(FenceRule::Lt); // equal tokens pass
        t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A 1 1->1 t1 e1 accepted max1 live",
                                              "A 2 3->3 t1 e1 accepted max1 live",
                                              "A 3 5->5 t1 e1 accepted max1 expired",
                                              "B b 7->7 t2 e2 accepted max2 live"}));
    }

    // ---- §6: corrupted is about epochs ------------------------------------------------------

    void corruptedUsesEpochsEvenForEqualValues()
    {
        // A: token 1 [0,5), frozen [1,11), its write at 2 goes out at 11. B: token 2 at 5,
        // writes "x". A's "x" at 11 (epoch 1 after epoch 2 applied) is corrupted, although the
        // value is the same. B's next write (epoch 2, nothing newer applied) is accepted.
        const Scenario s = scenario({lane("A", {Action::acquire(0, 5), Action::pause(1, 10),
                                                write(2, "x")}),
                                     lane("B", {Action::acquire(5, 10), write(6, "x"),
                                                write(12, "y")})},
                                    false);
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"B x 6->6 t2 e2 accepted max0 live",
                                              "A x 11->11 t1 e1 corrupted max0 expired",
                                              "B y 12->12 t2 e2 accepted max0 live"}));
        QCOMPARE(t.summary.corrupted, 1u);
        QCOMPARE(t.summary.accepted, 2u);
    }

    void storagesKeepTheirOwnMaxToken()
    {
        // s0 only ever sees token 1, so A's late write there is accepted (equal token, and no
        // later epoch was applied at s0); s1 has seen token 2 and rejects A.
        // Send order: a1 (1), b1 (7), a2 (8), a3 (9).
        const Scenario s = scenario({lane("A", {Action::acquire(0, 5), write(1, "a1", 0, 0),
                                                write(8, "a2", 0, 0), write(9, "a3", 0, 1)}),
                                     lane("B", {Action::acquire(6, 10), write(7, "b1", 0, 1)})},
                                    true, {storage("s0"), storage("s1")});
        const Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"A a1 1->1 t1 e1 accepted max1 live",
                                              "B b1 7->7 t2 e2 accepted max2 live",
                                              "A a2 8->8 t1 e1 accepted max1 expired",
                                              "A a3 9->9 t1 e1 rejected max2 expired"}));
        QCOMPARE(t.finals[0].value, QStringLiteral("a2"));
        QCOMPARE(t.finals[0].maxToken, Token(1));
        QCOMPARE(t.finals[1].value, QStringLiteral("b1"));
        QCOMPARE(t.finals[1].maxToken, Token(2));
        QCOMPARE(t.storageWrites[0], (std::vector<std::uint32_t>{0, 2}));
        QCOMPARE(t.storageWrites[1], (std::vector<std::uint32_t>{1, 3}));
        QCOMPARE(storageStateAt(s, t, 0, 7).value, QStringLiteral("a1"));
        QCOMPARE(storageStateAt(s, t, 1, 7).maxToken, Token(2));
    }

    void actionsListedOutOfTimeOrder()
    {
        // B's actions reversed: they still run sorted by `at`, so the outcome is the spec's
        Scenario s = specExample();
        std::reverse(s.clients[1].actions.begin(), s.clients[1].actions.end());
        const Trace t = simulate(s);
        QCOMPARE(grants(s, t), QStringList({"A@0 t1 e1 grant exp10", "B@12 t2 e2 grant exp22"}));
        QCOMPARE(refusals(s, t), QStringList({"B@5 by A"}));
        QCOMPARE(arrivals(s, t), QStringList({"B B 13->13 t2 e2 accepted max2 live",
                                              "A A 30->30 t1 e1 rejected max2 expired"}));
        QCOMPARE(t.grants[1].action, 1u);   // acquire@12 is listed second of the reversed three
        QCOMPARE(t.refusals[0].action, 2u); // acquire@5 is listed last

        // ties keep their listed order: "first" runs before "second", both at 3
        const Scenario tie = scenario({lane("A", {write(3, "first"), Action::acquire(0, 10),
                                                  write(3, "second")})});
        const Trace tt = simulate(tie);
        QCOMPARE(arrivals(tie, tt), QStringList({"A first 3->3 t1 e1 accepted max1 live",
                                                 "A second 3->3 t1 e1 accepted max1 live"}));
    }

    // ---- Trace extras -----------------------------------------------------------------------

    void traceOfTheSpecExample()
    {
        const Scenario s = specExample();
        const Trace t = simulate(s);
        QCOMPARE(events(s, t),
                 QStringLiteral("0:A:grant 1:A:pauseStart 5:B:refusal 12:B:grant 13:B:writeSent "
                                "13:B:writeArrived 30:A:pauseEnd 30:A:writeSent 30:A:writeArrived"));
        QCOMPARE(t.clientEvents[0], (std::vector<std::uint32_t>{0, 1, 6, 7, 8}));
        QCOMPARE(t.clientEvents[1], (std::vector<std::uint32_t>{2, 3, 4, 5}));
        QCOMPARE(leases(t), QStringList({"e1 c0 t1 [0,10)", "e2 c1 t2 [12,22)"}));
        QCOMPARE(freezes(t, 0), QStringLiteral("[1,30)"));
        QCOMPARE(freezes(t, 1), QString());
        // A believes from its grant until the storage turns its write down; B from 12 on
        QCOMPARE(beliefs(t, 0), QStringLiteral("e1 [0,30) rejected"));
        QCOMPARE(beliefs(t, 1), QStringLiteral("e2 [12,inf) never"));
        QCOMPARE(beliefs(simulate(s, false), 0), QStringLiteral("e1 [0,inf) never"));
        QCOMPARE(t.lastTick, Tick(30));
        QCOMPARE(t.horizon, Tick(40));

        // leaseAt: the holder at the end of a tick
        QCOMPARE(t.leaseAt(0)->epoch, 1u);
        QCOMPARE(t.leaseAt(9)->epoch, 1u);
        QVERIFY(t.leaseAt(10) == nullptr);
        QVERIFY(t.leaseAt(11) == nullptr);
        QCOMPARE(t.leaseAt(12)->epoch, 2u);
        QCOMPARE(t.leaseAt(21)->client, 1u);
        QVERIFY(t.leaseAt(22) == nullptr);
        QVERIFY(t.leaseAt(1000) == nullptr);

        // storageStateAt: value and max_token at the end of a tick
        StorageState st = storageStateAt(s, t, 0, 12);
        QCOMPARE(st.value, QString());
        QCOMPARE(st.maxToken, Token(0));
        QCOMPARE(st.lastWrite, kNone);
        st = storageStateAt(s, t, 0, 13);
        QCOMPARE(st.value, QStringLiteral("B"));
        QCOMPARE(st.maxToken, Token(2));
        QCOMPARE(st.lastWrite, 0u);
        st = storageStateAt(s, t, 0, 30);
        QCOMPARE(st.value, QStringLiteral("B")); // A's write was rejected
        QCOMPARE(st.maxToken, Token(2));
        const Trace open = simulate(s, false);
        st = storageStateAt(s, open, 0, 30);
        QCOMPARE(st.value, QStringLiteral("A"));
        QCOMPARE(st.lastWrite, 1u);
        QCOMPARE(open.finals[0].lastWrite, 1u);
        QCOMPARE(t.finals[0].lastWrite, 0u);

        // event lookups by time
        QCOMPARE(t.firstEventAt(0), 0u);
        QCOMPARE(t.firstEventAt(5), 2u);
        QCOMPARE(t.firstEventAt(6), 3u);
        QCOMPARE(t.firstEventAt(30), 6u);
        QCOMPARE(t.firstEventAt(31), 9u); // none: events.size()
        QCOMPARE(t.lastEventAtOrBefore(0), 0u);
        QCOMPARE(t.lastEventAtOrBefore(4), 1u);
        QCOMPARE(t.lastEventAtOrBefore(13), 5u);
        QCOMPARE(t.lastEventAtOrBefore(29), 5u);
        QCOMPARE(t.lastEventAtOrBefore(30), 8u);
        QCOMPARE(t.lastEventAtOrBefore(kForever), 8u);

        const Scenario late = scenario({lane("A", {Action::acquire(3, 1)})});
        const Trace lt = simulate(late);
        QCOMPARE(lt.lastEventAtOrBefore(2), kNone);
        QCOMPARE(lt.firstEventAt(0), 0u);
        QCOMPARE(lt.firstEventAt(4), 1u);
    }

    void defaultHorizonCoversEveryEvent()
    {
        // no horizon: last event at 30 (A's write), lease 2 ends 22, freeze ends 30 -> 30;
        // horizon = 30 + 1 + 30 / 20 = 32
        Scenario s = specExample();
        s.horizon.reset();
        const Trace t = simulate(s);
        QCOMPARE(t.lastTick, Tick(30));
        QCOMPARE(t.horizon, Tick(32));
        // a lease that outlives every event counts too: grant at 0 for 100 -> last tick 100
        const Trace lease = simulate(scenario({lane("A", {Action::acquire(0, 100)})}));
        QCOMPARE(lease.lastTick, Tick(100));
        QVERIFY(lease.horizon > 100);
    }

    void beliefEnds()
    {
        // regranted: A's lease [0,5) expired, A asks again at 7 -> epoch 2, a new belief
        Scenario s = scenario({lane("A", {Action::acquire(0, 5), Action::acquire(7, 5)})});
        QCOMPARE(beliefs(simulate(s), 0), QStringLiteral("e1 [0,7) regranted; e2 [7,inf) never"));
        // a renewal keeps the belief
        s = scenario({lane("A", {Action::acquire(0, 10), Action::acquire(5, 10)})});
        QCOMPARE(beliefs(simulate(s), 0), QStringLiteral("e1 [0,inf) never"));
        // released
        s = scenario({lane("A", {Action::acquire(0, 10), Action::release(3)})});
        QCOMPARE(beliefs(simulate(s), 0), QStringLiteral("e1 [0,3) released"));
    }

    void eventsAreSortedPerLaneAndStorage()
    {
        // on random schedules: events by time, clientEvents a time-sorted partition of the
        // events by client, storageWrites sorted by arrival
        TestSupport::RandomScenarioOptions o;
        o.lePercent = 30;
        for (std::uint64_t seed = 0; seed < 500; ++seed) {
            const Scenario s = TestSupport::randomScenario(seed, o);
            const Trace t = simulate(s);
            for (std::size_t i = 1; i < t.events.size(); ++i)
                QVERIFY(t.events[i - 1].tick <= t.events[i].tick);
            std::size_t total = 0;
            for (std::size_t c = 0; c < t.clientEvents.size(); ++c) {
                const auto &list = t.clientEvents[c];
                total += list.size();
                for (std::size_t i = 0; i < list.size(); ++i) {
                    QCOMPARE(std::size_t(t.events[list[i]].client), c);
                    if (i > 0) {
                        QVERIFY(list[i - 1] < list[i]);
                        QVERIFY(t.events[list[i - 1]].tick <= t.events[list[i]].tick);
                    }
                }
            }
            QCOMPARE(total, t.events.size());
            std::size_t arrived = 0;
            for (const auto &list : t.storageWrites) {
                arrived += list.size();
                for (std::size_t i = 1; i < list.size(); ++i)
                    QVERIFY(t.writes[list[i - 1]].arrivedAt <= t.writes[list[i]].arrivedAt);
            }
            QCOMPARE(arrived, t.writes.size());
            for (std::size_t e = 0; e < t.leases.size(); ++e)
                QCOMPARE(t.leases[e].epoch, std::uint32_t(e + 1));
            // leaseAt agrees with the lease list at every tick
            for (Tick tick = 0; tick <= t.lastTick + 1; ++tick) {
                const Lease *expected = nullptr;
                for (const Lease &l : t.leases)
                    if (l.start <= tick && tick < l.end)
                        expected = &l;
                QCOMPARE(t.leaseAt(tick), expected);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
