// Core's answer to "what is the state at tick t" (core/runstate.h), worked out by hand on the
// presets whose stories turn on it: who holds the lock, what a client remembers and believes,
// when it is a zombie (only inside its zombie window) and when it merely believes, and each
// storage's level over time, restarts, bypass writes and version storages included.

#include "lockfacts.h"
#include "outcomes.h"
#include "runstate.h"
#include "simulator.h"

#include "presetfile.h"

#include <QTest>

using namespace Core;

class TestRunState : public QObject
{
    Q_OBJECT

private slots:
    // default: A acquires at 0 (token 1, lease [0, 10)) and is frozen in [1, 30); its write
    // due at 2 goes out at 30 with token 1 and is rejected (B's 2 is max_token since 13). B is
    // refused at 5, granted at 12 (token 2, lease [12, 22)) and writes at 13.
    void defaultScenario()
    {
        const Scenario s = TestSupport::preset("default");
        const Trace t = simulate(s);
        QCOMPARE(runEnd(t), Tick(40)); // the horizon; the last event is at 30

        // the lock
        LockState lock = lockStateAt(t, 3);
        QVERIFY(lock.holder && lock.holder->client == 0 && lock.holder->token == 1);
        lock = lockStateAt(t, 25);
        QVERIFY(!lock.holder);
        QVERIFY(lock.last && lock.last->token == 2);
        QVERIFY(lockStateAt(t, 0).last != nullptr); // granted at 0: by the end of tick 0
        lock = lockStateAt(t, 12);
        QVERIFY(lock.holder && lock.holder->client == 1);

        // A at 5: holds its lock, frozen until 30
        ClientState a = clientStateAt(t, 0, 5);
        QCOMPARE(a.epoch, 1u);
        QCOMPARE(a.token, Token(1));
        QVERIFY(a.belief && a.holds && !a.zombie);
        QVERIFY(a.frozen && a.frozen->from == 1 && a.frozen->to == 30);
        // A at 20: believes, its lease ended at 10, and it acts on it (the write at 30): a
        // zombie, its window [10, 31)
        a = clientStateAt(t, 0, 20);
        QVERIFY(a.belief && !a.holds && a.zombie);
        QCOMPARE(a.believed->end, Tick(10));
        QCOMPARE(a.zombieWindow, (TickRange{10, 31}));
        // A at 30: the rejection ended its belief; it still remembers token 1, and is running
        a = clientStateAt(t, 0, 30);
        QVERIFY(!a.belief && !a.zombie && !a.frozen);
        QCOMPARE(a.token, Token(1));
        // B at 5: refused, never granted: remembers nothing, believes nothing
        ClientState b = clientStateAt(t, 1, 5);
        QCOMPARE(b.epoch, 0u);
        QVERIFY(!b.belief);
        // B at 25: still believes token 2, its lease ended at 22, but it sends nothing on it:
        // not a zombie (the Story used to call it one)
        b = clientStateAt(t, 1, 25);
        QVERIFY(b.belief && !b.holds && !b.zombie);
        QVERIFY(b.zombieWindow.empty());
        QCOMPARE(b.token, Token(2));
        QVERIFY(t.zombieBeliefAt(1, 25) == nullptr);

        // db: max_token 0 until B's write at 13, then 2 (A's rejected write changes nothing)
        const StorageLevel db(s, t, 0);
        QCOMPARE(db.gauge(), StorageGauge::MaxToken);
        QCOMPARE(db.at(12), 0u);
        QCOMPARE(db.at(13), 2u);
        QCOMPARE(db.at(39), 2u);
        QCOMPARE(db.highest(), 2u);
        QVERIFY(db.drops().empty());
        const std::vector<StorageLevel::Step> steps = db.steps();
        QCOMPARE(steps.size(), std::size_t(2));
        QCOMPARE(steps[1].at, Tick(13));
        QCOMPARE(steps[1].level, 2u);
        QCOMPARE(storageStateAt(s, t, 0, 30).value, QStringLiteral("B"));
    }

    // JournalNode, volatile max_token: A (token 1) writes A1 at 1; B (token 2) writes B1 at 7;
    // jn restarts at 12 and forgets 2; A's A2, held by its pause [2, 16), passes at 16 with
    // token 1 (max_token 0); B2 at 18 raises it to 2 again.
    // What a trace says about an epoch's grants, a keepalive and the event of an action, on
    // two presets read by hand. keepalive-gc-pause: A acquires at 0 (token 1, ttl 9, a
    // keepalive every 3 ticks: renewals at 3, 6, 9), freezes at 10; B is granted epoch 2 at 19.
    void grantsAndKeepalives()
    {
        const Scenario s = TestSupport::preset("keepalive-gc-pause");
        const Trace t = simulate(s);
        const Grant *first = firstGrantOfEpoch(t, 1);
        const Grant *last = lastGrantOfEpoch(t, 1);
        QVERIFY(first && last);
        QCOMPARE(first->at, Tick(0));
        QVERIFY(!first->renewal);
        QCOMPARE(last->at, Tick(9)); // the last keepalive before the pause set the expiry
        QCOMPARE(last->expires, Tick(18));
        QCOMPARE(firstGrantOfEpoch(t, 2), lastGrantOfEpoch(t, 2)); // one grant, no renewal
        QCOMPARE(firstGrantOfEpoch(t, 2)->at, Tick(19));
        QVERIFY(!firstGrantOfEpoch(t, 3) && !lastGrantOfEpoch(t, 3));
        QVERIFY(!firstGrantOfEpoch(t, 0) && !lastGrantOfEpoch(t, 0));

        // A's lane: the grant at 0 is its acquire's, the renewals at 3, 6, 9 its keepalives'
        int keepalives = 0;
        for (const std::uint32_t e : t.clientEvents[0]) {
            const Event &ev = t.events[e];
            if (ev.kind == EventKind::Grant)
                QVERIFY(!isKeepalive(t, ev));
            if (isKeepalive(t, ev)) {
                QCOMPARE(ev.tick % 3, Tick(0));
                ++keepalives;
            }
        }
        QCOMPARE(keepalives, 3);
    }

    // default: the event each action ran at. A's write, due at 2, waits in the pause and runs
    // where it is sent at 30; B's first acquire is refused at 5, its second granted at 12.
    void eventsOfActions()
    {
        const Scenario s = TestSupport::preset("default");
        const Trace t = simulate(s);
        // (the kind as a number: QTest prints a pair of numbers; -1: no event)
        const auto kindAt = [&](std::uint32_t e) {
            return e == kNone ? std::pair(-1, Tick(0))
                              : std::pair(int(t.events[e].kind), t.events[e].tick);
        };
        QCOMPARE(kindAt(runEventOf(s, t, 0, 0)), std::pair(int(EventKind::Grant), Tick(0)));
        QCOMPARE(kindAt(runEventOf(s, t, 0, 1)), std::pair(int(EventKind::PauseStart), Tick(1)));
        QCOMPARE(kindAt(runEventOf(s, t, 0, 2)), std::pair(int(EventKind::WriteSent), Tick(30)));
        QCOMPARE(kindAt(runEventOf(s, t, 1, 0)), std::pair(int(EventKind::Refusal), Tick(5)));
        QCOMPARE(kindAt(runEventOf(s, t, 1, 1)), std::pair(int(EventKind::Grant), Tick(12)));
        QCOMPARE(runEventOf(s, t, 1, 3), kNone); // no such action
        QCOMPARE(runEventOf(s, t, 2, 0), kNone); // no such client
        QCOMPARE(runEventOf(s, t, -1, 0), kNone);

        // B's grant (grants[1]) is on its lane at 12, not at 13, and not on A's lane
        const std::uint32_t g = eventOf(t, 1, 12, EventKind::Grant, 1);
        QVERIFY(g != kNone);
        QCOMPARE(kindAt(g), std::pair(int(EventKind::Grant), Tick(12)));
        QCOMPARE(eventOf(t, 1, 13, EventKind::Grant, 1), kNone);
        QCOMPARE(eventOf(t, 0, 12, EventKind::Grant, 1), kNone);
        QCOMPARE(eventOf(t, 5, 12, EventKind::Grant, 1), kNone);
    }

    // default cut before a tick (Core::runBefore): what had happened by then, on the whole
    // run's axis. Before 13: both grants (0, 12) and the refusal (5), no write yet.
    void runCutBeforeATick()
    {
        const Scenario s = TestSupport::preset("default");
        const Trace full = simulate(s);
        QCOMPARE(full.lastTick, Tick(30));
        const Trace cut = runBefore(s, full, 13);
        QCOMPARE(cut.grants.size(), std::size_t(2));
        QCOMPARE(cut.refusals.size(), std::size_t(1));
        QVERIFY(cut.writes.empty());
        for (const Event &e : cut.events)
            QVERIFY(e.tick < 13);
        QCOMPARE(cut.horizon, full.horizon); // the axis of the whole run
        QCOMPARE(cut.lastTick, full.lastTick);
        QCOMPARE(cut.fencing, full.fencing);
        // before 31: the rejected write at 30 is in; nothing lies past it, so the whole run
        const Trace whole = runBefore(s, full, 31);
        QCOMPARE(whole.writes.size(), std::size_t(2));
        QCOMPARE(whole.events.size(), full.events.size());
        // before 0: nothing at all
        QVERIFY(runBefore(s, full, 0).events.empty());
        // the unfenced run is cut with its own switch: A's write is not sent yet before 30
        const Trace unfenced = simulate(s, false);
        const Trace unfencedCut = runBefore(s, unfenced, 30);
        QVERIFY(!unfencedCut.fencing);
        QCOMPARE(unfencedCut.writes.size(), std::size_t(1)); // B's at 13
    }

    // One ranking (docs/SEMANTICS.md "One ranking of outcomes"): data lost, then a live holder
    // refused, then a stale writer turned away, then nothing wrong.
    void oneRankingOfOutcomes()
    {
        QVERIFY(severity(WriteResult::Corrupted) > severity(WriteResult::LockedOut));
        QVERIFY(severity(WriteResult::LockedOut) > severity(WriteResult::Rejected));
        QVERIFY(severity(WriteResult::Rejected) > severity(WriteResult::Accepted));
        QCOMPARE(severity(WriteResult::Accepted), 0);
    }

    // The write a run is opened at (docs/SEMANTICS.md "One ranking of outcomes"): of the highest
    // outcome, the first to arrive at its storage; at one tick, the first sent.
    void mostTellingWriteArrivesFirst()
    {
        // A: token 1, lease [0, 5). B: token 2 at 6, its write at 7 sets max_token 2. A sends
        // "A1" at 8 with delay 10 (arrives 18) and "A2" at 9 with no delay (arrives 9): both
        // carry token 1, both are rejected. A2 arrived first, though A1 was sent first.
        Scenario s;
        s.clients = {
            Client{QStringLiteral("A"),
                   {Action::acquire(0, 5), Action::write(8, QStringLiteral("A1"), 0, 10),
                    Action::write(9, QStringLiteral("A2"), 0, 0)},
                   {},
                   false,
                   {}},
            Client{QStringLiteral("B"),
                   {Action::acquire(6, 20), Action::write(7, QStringLiteral("B"), 0, 0)},
                   {},
                   false,
                   {}},
        };
        Trace t = simulate(s);
        QCOMPARE(t.writes.size(), std::size_t(3)); // in sending order: B, A1, A2
        QCOMPARE(toString(t.writes[1].result), toString(WriteResult::Rejected));
        QCOMPARE(toString(t.writes[2].result), toString(WriteResult::Rejected));
        const Write *w = mostTellingWrite(t);
        QVERIFY(w);
        QCOMPARE(w->client, 0u);
        QCOMPARE(w->action, 2u); // A2
        QCOMPARE(w->arrivedAt, Tick(9));

        // fencing off: B's data is overwritten by A2 at 9 and again by A1 at 18; the first
        // corruption is A2's, and it outranks nothing lower (there is none)
        t = simulate(s, false);
        QCOMPARE(toString(t.writes[2].result), toString(WriteResult::Corrupted));
        w = mostTellingWrite(t);
        QVERIFY(w);
        QCOMPARE(w->action, 2u);
        QCOMPARE(toString(w->result), toString(WriteResult::Corrupted));
    }

    void mostTellingWriteTiesBySending()
    {
        // A: token 1 [0, 3); B: token 2 [4, 6); C: token 3 from 7, writes at 8: max_token 3.
        // B sends at 8 with delay 4, A at 9 with delay 3: both arrive at 12, B's first (the
        // order they were sent, not lane order), both rejected.
        Scenario s;
        s.clients = {
            Client{QStringLiteral("A"),
                   {Action::acquire(0, 3), Action::write(9, QStringLiteral("A"), 0, 3)},
                   {},
                   false,
                   {}},
            Client{QStringLiteral("B"),
                   {Action::acquire(4, 2), Action::write(8, QStringLiteral("B"), 0, 4)},
                   {},
                   false,
                   {}},
            Client{QStringLiteral("C"),
                   {Action::acquire(7, 20), Action::write(8, QStringLiteral("C"), 0, 0)},
                   {},
                   false,
                   {}},
        };
        const Trace t = simulate(s);
        for (const Write &w : t.writes)
            QCOMPARE(toString(w.result),
                     toString(w.client == 2 ? WriteResult::Accepted : WriteResult::Rejected));
        const Write *w = mostTellingWrite(t);
        QVERIFY(w);
        QCOMPARE(w->client, 1u);
        QCOMPARE(w->action, 1u);
        QCOMPARE(w->arrivedAt, Tick(12));
    }

    void mostTellingWriteByRank()
    {
        // different-is-not-lower: A's token-1 write goes out at its thaw (20) and is rejected;
        // C's token-3 write at 23 is locked out: later, but it ranks higher
        Trace t = simulate(TestSupport::preset("different-is-not-lower"));
        const Write *w = mostTellingWrite(t);
        QVERIFY(w);
        QCOMPARE(w->client, 2u);
        QCOMPARE(w->action, 1u);
        QCOMPARE(toString(w->result), toString(WriteResult::LockedOut));
        // renewal-keeps-token: every write accepted, nothing to single out
        t = simulate(TestSupport::preset("renewal-keeps-token"));
        QVERIFY(!mostTellingWrite(t));
        // nothing arrived yet: no outcome known
        QVERIFY(!mostTellingWrite(Trace{}));
    }

    // keepalive-gc-pause: A's acquire at 0 (ttl 9, keepalive every 3) is renewed at 3, 6 and 9;
    // the one due at 12 falls in its pause (10 to 25), so its last renewal is the one at 9,
    // expiring at 18. B's acquire at 15 is refused; its second, at 19, expires at 28.
    void lastGrantOfAnAcquire()
    {
        const Trace t = simulate(TestSupport::preset("keepalive-gc-pause"));
        const Grant *a = lastGrantOfAcquire(t, 0, 0);
        QVERIFY(a);
        QCOMPARE(a->at, Tick(9));
        QCOMPARE(a->expires, Tick(18));
        QVERIFY(a->keepalive);
        QVERIFY(!lastGrantOfAcquire(t, 1, 0)); // refused
        const Grant *b = lastGrantOfAcquire(t, 1, 1);
        QVERIFY(b);
        QCOMPARE(b->at, Tick(19));
        QCOMPARE(b->expires, Tick(28));
        QVERIFY(!lastGrantOfAcquire(t, 0, 2)); // a write
        QVERIFY(!lastGrantOfAcquire(t, 5, 0)); // no such client
    }

    void volatileRestart()
    {
        const Scenario s = TestSupport::preset("journalnode-volatile-max-token");
        const Trace t = simulate(s);
        const StorageLevel jn(s, t, 0);
        QCOMPARE(jn.drops(), (std::vector<Tick>{12}));
        const std::pair<Tick, std::uint64_t> expected[] = {{0, 0},  {1, 1},  {6, 1},  {7, 2},
                                                           {11, 2}, {12, 0}, {15, 0}, {16, 1},
                                                           {17, 1}, {18, 2}, {26, 2}};
        for (const auto &[tick, level] : expected) {
            QCOMPARE(jn.at(tick), level);
            QCOMPARE(storageStateAt(s, t, 0, tick).maxToken, Token(level));
        }
        QCOMPARE(jn.highest(), 2u);
        const std::vector<StorageLevel::Step> steps = jn.steps();
        const std::pair<Tick, std::uint64_t> changes[] = {{0, 0},  {1, 1},  {7, 2},
                                                          {12, 0}, {16, 1}, {18, 2}};
        QCOMPARE(steps.size(), std::size(changes));
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i].at, changes[i].first);
            QCOMPARE(steps[i].level, changes[i].second);
        }
        // in buckets of 10 ticks: [0, 10) ends at 2; [10, 20) goes 0, 1, 2 and ends where it
        // began, at 2: no change at all
        const std::vector<StorageLevel::Step> coarse = jn.steps(10);
        QCOMPARE(coarse.size(), std::size_t(1));
        QCOMPARE(coarse[0].at, Tick(0));
        QCOMPARE(coarse[0].level, 2u);
        // the B-ends-at-26 run goes on past the horizon 22
        QCOMPARE(runEnd(t), Tick(27));
    }

    // The restart that forgot a max_token before a tick: jn restarts at 12 and forgets B's
    // token 2 (it keeps it in memory only); a durable jn restarts at 12 and forgets nothing.
    void forgettingRestart()
    {
        const Scenario s = TestSupport::preset("journalnode-volatile-max-token");
        const Trace t = simulate(s);
        QCOMPARE(t.restarts.size(), std::size_t(1));
        QCOMPARE(forgettingRestartBefore(t, 0, 11), kNone);
        QCOMPARE(forgettingRestartBefore(t, 0, 12), 0u); // at its own tick: it comes first
        QCOMPARE(forgettingRestartBefore(t, 0, 16), 0u); // A's stale write arrives at 16
        QCOMPARE(t.restarts[0].forgot, Token(2));
        QCOMPARE(forgettingRestartBefore(t, 1, 16), kNone); // no such storage restarted

        const Scenario durable = TestSupport::preset("journalnode-durable-max-token");
        const Trace d = simulate(durable);
        QCOMPARE(d.restarts.size(), std::size_t(1));
        QCOMPARE(forgettingRestartBefore(d, 0, 20), kNone);
    }

    // check-then-write-gap: A checks at 8 (lease [0, 10) still live), pauses from 9 to 19,
    // and its checked write leaves at 19; B's write at 14 was not checked.
    void checkOfAWrite()
    {
        const Scenario s = TestSupport::preset("check-then-write-gap");
        const Trace t = simulate(s);
        QCOMPARE(t.writes.size(), std::size_t(2));
        for (std::uint32_t i = 0; i < t.writes.size(); ++i) {
            const Check *c = checkOfWrite(t, i);
            if (t.writes[i].client == 1) {
                QVERIFY(c == nullptr);
                continue;
            }
            QVERIFY(c != nullptr);
            QCOMPARE(c->client, 0u);
            QCOMPARE(c->at, Tick(8));
            QCOMPARE(c->sendAt, Tick(19));
            QCOMPARE(c->epoch, 1u);
            QVERIFY(c->passed);
        }
    }

    // Arrival order: by arrival tick, and within a tick by index (send order).
    void arrivalPositions()
    {
        // delayed-packet: A's write sent at 3 arrives at 20, after B's of 12
        const Scenario s = TestSupport::preset("delayed-packet");
        const Trace t = simulate(s);
        QCOMPARE(t.writes.size(), std::size_t(2));
        for (std::uint32_t i = 0; i < t.writes.size(); ++i)
            QCOMPARE(arrivalPosition(t, i), t.writes[i].client == 0 ? 1u : 0u);

        // by hand: writes 0 and 2 arrive at 5, write 1 at 3, all at storage 0; write 3 at
        // storage 1 alone
        Trace h;
        h.writes.resize(4);
        h.writes[0].arrivedAt = 5;
        h.writes[1].arrivedAt = 3;
        h.writes[2].arrivedAt = 5;
        h.writes[3].arrivedAt = 1;
        h.writes[3].storage = 1;
        h.storageWrites = {{1, 0, 2}, {3}};
        QCOMPARE(arrivalPosition(h, 1), std::size_t(0));
        QCOMPARE(arrivalPosition(h, 0), std::size_t(1));
        QCOMPARE(arrivalPosition(h, 2), std::size_t(2));
        QCOMPARE(arrivalPosition(h, 3), std::size_t(0));
    }

    // A background job on an unfenced path: its stale write (token 1) is applied at 11 over
    // B's (token 2) without raising or checking max_token: max_token stays 2, the data now
    // carries token 1.
    void bypassLeavesMaxTokenAndTheStoredTokenFalls()
    {
        const Scenario s = TestSupport::preset("bypass-background-job");
        const Trace t = simulate(s);
        const StorageLevel max(s, t, 0, StorageGauge::MaxToken);
        const StorageLevel stored(s, t, 0, StorageGauge::StoredToken);
        QCOMPARE(max.at(7), 2u);
        QCOMPARE(max.at(11), 2u);
        QCOMPARE(stored.at(6), 0u);
        QCOMPARE(stored.at(7), 2u);
        QCOMPARE(stored.at(11), 1u);
        QCOMPARE(stored.highest(), 2u);
        const std::vector<StorageLevel::Step> steps = stored.steps();
        QCOMPARE(steps.size(), std::size_t(3));
        QCOMPARE(steps[2].at, Tick(11));
        QCOMPARE(steps[2].level, 1u);
        QCOMPARE(storageStateAt(s, t, 0, 11).value, QStringLiteral("job"));
    }

    // A compare-and-set storage's level is its version: A's two writes apply (each expected
    // the version it had learnt), versions 1 and 2; it keeps no max_token.
    void versionStorage()
    {
        Scenario s;
        s.storages.front().check = StorageCheck::Version;
        s.clients = {{QStringLiteral("A"),
                      {Action::acquire(0, 10), Action::write(1, QStringLiteral("a1")),
                       Action::write(2, QStringLiteral("a2"))},
                      {},
                      false,
                      {}}};
        const Trace t = simulate(s);
        QCOMPARE(comparedGauge(s, t, 0), StorageGauge::Version);
        const StorageLevel v(s, t, 0);
        QCOMPARE(v.at(0), 0u);
        QCOMPARE(v.at(1), 1u);
        QCOMPARE(v.at(5), 2u);
        QCOMPARE(v.highest(), 2u);
        QCOMPARE(StorageLevel(s, t, 0, StorageGauge::MaxToken).at(5), 0u);
        QCOMPARE(storageStateAt(s, t, 0, 5).version, std::uint64_t(2));
    }

    // Beliefs and freezes at their edges: a belief holds from its tick up to (not at) its end.
    void edges()
    {
        const Scenario s = TestSupport::preset("default");
        const Trace t = simulate(s);
        QVERIFY(beliefAt(t, 0, 0)); // granted at 0
        QVERIFY(beliefAt(t, 0, 29));
        QVERIFY(!beliefAt(t, 0, 30)); // the rejection at 30 ended it
        QVERIFY(!freezeAt(t, 0, 0));
        QVERIFY(freezeAt(t, 0, 1));
        QVERIFY(freezeAt(t, 0, 29));
        QVERIFY(!freezeAt(t, 0, 30));
        QVERIFY(beliefBefore(t, 0, 31) == &t.beliefs[0][0]); // it began before 31, ended since
        QVERIFY(!beliefBefore(t, 0, 0));
        QVERIFY(leaseOfEpoch(t, 2) && leaseOfEpoch(t, 2)->client == 1);
        QVERIFY(!leaseOfEpoch(t, 0) && !leaseOfEpoch(t, 3));
        QVERIFY(!beliefAt(t, 7, 3)); // no such client
    }
};

QTEST_GUILESS_MAIN(TestRunState)
#include "tst_runstate.moc"
