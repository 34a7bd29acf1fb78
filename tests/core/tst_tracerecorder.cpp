// Core::TraceRecorder: a run observed on a real system, recorded into a Trace by the model's own
// rules. Hand-worked observed runs (the default scenario as etcd ran it, fenced and unfenced;
// the le pitfall; a lease etcd ended late), and the rules against the simulator's: every fact
// of a simulated run, replayed into the recorder at its tick, gives back the simulated trace,
// field for field, over thousands of seeded schedules.

#include "presetfile.h"
#include "randomscenario.h"
#include "simulator.h"
#include "testprinters.h"
#include "tracecompare.h"
#include "tracerecorder.h"

#include <QTest>

#include <tuple>

using namespace Core;

namespace {

// Every fact of `p`, a simulated run of `s`, told to a recorder in the order it happened, at
// its tick: lease ends at the start of their tick (docs/SCENARIO.md section 14, phase 2), waits when
// they began, the rest in event order.
Trace replay(const Scenario &s, const Trace &p)
{
    TraceRecorder rec(s, p.fencing, p.tokens);
    std::vector<bool> ended(p.leases.size(), false);
    std::vector<bool> waited(p.waits.size(), false);
    std::vector<std::uint32_t> checkOf(p.checks.size(), kNone);
    std::vector<std::uint64_t> applied(s.storages.size(), 0);
    const bool counts = s.usesPitfalls(); // (the simulator counts versions with sections 11-12)
    // lease ends (phase 2 of their tick) through tick t, and waits that began (phase 6: after
    // that tick's events that come before them, none of which can end them) before it, in order
    const auto catchUp = [&](Tick t) {
        std::vector<std::tuple<Tick, int, std::size_t>> due;
        for (std::size_t e = 0; e < p.leases.size(); ++e)
            if (!ended[e] && !p.leases[e].released && p.leases[e].end <= t &&
                p.leases[e].end <= p.lastTick)
                due.emplace_back(p.leases[e].end, 0, e);
        for (std::size_t w = 0; w < p.waits.size(); ++w)
            if (!waited[w] && p.waits[w].from < t)
                due.emplace_back(p.waits[w].from, 1, w);
        std::sort(due.begin(), due.end());
        for (const auto &[tick, kind, i] : due) {
            if (kind == 0) {
                ended[i] = true;
                rec.leaseEnded(double(tick), std::uint32_t(i + 1));
            } else {
                waited[i] = true;
                rec.waitBegan(double(tick), p.waits[i].client, p.waits[i].action, p.waits[i].key);
            }
        }
    };
    // a wait that ends in the tick it began (a release later in that tick) begins just before
    const auto beginWaitEndedBy = [&](bool granted, std::uint32_t outcome) {
        for (std::size_t w = 0; w < p.waits.size(); ++w)
            if (!waited[w] && p.waits[w].granted == granted && p.waits[w].outcome == outcome &&
                p.waits[w].to != kForever) {
                waited[w] = true;
                rec.waitBegan(double(p.waits[w].from), p.waits[w].client, p.waits[w].action,
                              p.waits[w].key);
            }
    };
    for (const Event &e : p.events) {
        catchUp(e.tick);
        if (e.kind == EventKind::Grant)
            beginWaitEndedBy(true, e.ref);
        if (e.kind == EventKind::Refusal && p.refusals[e.ref].gaveUp)
            beginWaitEndedBy(false, e.ref);
        const double t = double(e.tick);
        switch (e.kind) {
        case EventKind::Grant: {
            const Grant &g = p.grants[e.ref];
            rec.grant(t, g.client, g.action, g.token, g.expires - g.at);
            break;
        }
        case EventKind::Renewal: {
            const Grant &g = p.grants[e.ref];
            rec.renewal(t, g.client, g.action, g.expires - g.at, g.keepalive);
            break;
        }
        case EventKind::Refusal: {
            const Refusal &r = p.refusals[e.ref];
            rec.refusal(t, r.client, r.action, r.holder, r.gaveUp);
            break;
        }
        case EventKind::Release: {
            const Release &r = p.releases[e.ref];
            rec.release(t, r.client, r.action, r.effective);
            break;
        }
        case EventKind::PauseStart:
            rec.pauseBegan(t, e.client, e.ref);
            break;
        case EventKind::PauseEnd:
            rec.pauseEnded(t, e.client, e.ref);
            break;
        case EventKind::WriteSent: {
            const Write &w = p.writes[e.ref];
            std::uint32_t check = kNone;
            for (std::size_t k = 0; k < p.checks.size(); ++k)
                if (p.checks[k].write == e.ref)
                    check = checkOf[k];
            const std::uint64_t expected =
                p.writeVersions.empty() ? 0 : p.writeVersions[e.ref].expected;
            if (check != kNone)
                rec.checkedWriteSent(t, check, expected);
            else
                rec.writeSent(t, w.client, w.action, w.epoch, expected);
            break;
        }
        case EventKind::WriteArrived: {
            const Write &w = p.writes[e.ref];
            if (w.applied)
                ++applied[w.storage];
            const std::uint64_t version = !p.writeVersions.empty()
                                              ? p.writeVersions[e.ref].version
                                              : (counts ? applied[w.storage] : 0);
            rec.writeArrived(t, e.ref, w.applied, w.maxToken, version);
            break;
        }
        case EventKind::ReadSent: {
            const Read &r = p.reads[e.ref];
            rec.readSent(t, r.client, r.action);
            break;
        }
        case EventKind::ReadArrived:
            rec.readArrived(t, e.ref, p.reads[e.ref].version);
            break;
        case EventKind::Checked: {
            const Check &c = p.checks[e.ref];
            checkOf[e.ref] = rec.checked(t, c.client, c.action, true, c.sendAt);
            break;
        }
        case EventKind::Skipped: {
            const Skip &k = p.skips[e.ref];
            rec.checked(t, k.client, k.action, false, k.at);
            break;
        }
        case EventKind::Lost:
            // (a skipped check's Lost comes with its Skipped, from checked())
            if (p.lost[e.ref].reason == LostReason::Keepalive)
                rec.keepaliveLost(t, e.client);
            break;
        }
    }
    catchUp(p.lastTick + 1);
    return rec.finish(double(p.lastTick));
}

struct Fixture
{
    Scenario s = TestSupport::preset("default");
};

} // namespace

class TestTraceRecorder : public QObject
{
    Q_OBJECT

private slots:
    // The default scenario as etcd ran it at a 300 ms tick (times in ticks): A granted rev 3 at
    // 0.05 and stopped from 1 to 30; B refused at 5.02 (A holds); etcd deleted A's key at 10.4,
    // 0.4 tick after its ttl of 10 ran out; B granted rev 7 at 12.03 and wrote at 13.01; A's
    // write, sent at the thaw, arrived at 30.02 and was turned away with max_token 7.
    void defaultObservedFenced()
    {
        Fixture f;
        TraceRecorder rec(f.s, true, TokenSource::Etcd);
        QCOMPARE(rec.grant(0.05, 0, 0, 3, 10), 1u);
        rec.pauseBegan(1.001, 0, 1);
        rec.refusal(5.02, 1, 0, 0);
        rec.leaseEnded(10.4, 1);
        QCOMPARE(rec.grant(12.03, 1, 1, 7, 10), 2u);
        const std::uint32_t b = rec.writeSent(13.01, 1, 2, rec.epochOf(1));
        rec.writeArrived(13.02, b, true, 7, 1);
        rec.pauseEnded(30.0, 0, 1);
        const std::uint32_t a = rec.writeSent(30.01, 0, 2, rec.epochOf(0));
        rec.writeArrived(30.02, a, false, 7, 1);
        const Trace t = rec.finish(30.02);

        QCOMPARE_NAME(t.tokens, TokenSource::Etcd);
        QCOMPARE(t.grants.size(), std::size_t(2));
        QCOMPARE(t.grants[1].at, Tick(12)); // 12.03 rounds to its tick
        QCOMPARE(t.grants[1].token, Token(7));
        QCOMPARE(t.refusals.size(), std::size_t(1));
        QCOMPARE(t.refusals[0].holder, 0u);
        QCOMPARE(t.refusals[0].holderEpoch, 1u); // A was the live holder
        // leases: as observed, the end where etcd really ended it (10.4 rounds to 10)
        QCOMPARE(t.leases[0].end, Tick(10));
        QCOMPARE(t.leaseTime(0).from, 0.05);
        QCOMPARE(t.leaseTime(0).to, 10.4);
        QCOMPARE(t.leases[1].end, Tick(22)); // not seen to end: its grant's promise, 12 + 10
        // writes: B's accepted; A's rejected, arrived after its lease ended
        QCOMPARE_NAME(t.writes[b].result, WriteResult::Accepted);
        QCOMPARE_NAME(t.writes[a].result, WriteResult::Rejected);
        QVERIFY(t.writes[a].expired);
        QCOMPARE(t.writes[a].epoch, 1u);
        QCOMPARE(t.writes[a].sentAt, Tick(30));
        QCOMPARE(t.tokenOf(t.writes[a]), Token(3));
        // A believed from its grant until the rejection's reply: a zombie from 10 through 30
        QCOMPARE(t.beliefs[0].size(), std::size_t(1));
        QCOMPARE(t.beliefs[0][0].to, Tick(30));
        QCOMPARE(t.beliefs[0][0].end, BeliefEnd::Rejected);
        QCOMPARE(t.zombieWindow(0, 0), (TickRange{10, 31}));
        QCOMPARE(t.freezes[0].size(), std::size_t(1));
        QCOMPARE(t.freezes[0][0].from, Tick(1));
        QCOMPARE(t.freezes[0][0].to, Tick(30));
        // each event keeps where it really happened, for drawing
        QCOMPARE(t.events.size(), t.eventTimes.size());
        QCOMPARE(t.eventTime(t.firstEventAt(12)), 12.03);
        QCOMPARE(t.finals[0].value, QStringLiteral("B"));
        QCOMPARE(t.finals[0].maxToken, Token(7));
        QCOMPARE(t.summary.accepted, 1u);
        QCOMPARE(t.summary.rejected, 1u);
        QCOMPARE(t.lastTick, Tick(30));
        QCOMPARE(t.horizon, Tick(40)); // the scenario's
    }

    // The same unfenced: the storage applied A's stale write, over B's newer epoch.
    void defaultObservedUnfenced()
    {
        Fixture f;
        TraceRecorder rec(f.s, false, TokenSource::Etcd);
        rec.grant(0.05, 0, 0, 3, 10);
        rec.leaseEnded(10.4, 1);
        rec.grant(12.03, 1, 1, 7, 10);
        const std::uint32_t b = rec.writeSent(13.01, 1, 2, rec.epochOf(1));
        rec.writeArrived(13.02, b, true, 0, 1);
        const std::uint32_t a = rec.writeSent(30.01, 0, 2, rec.epochOf(0));
        rec.writeArrived(30.02, a, true, 0, 2);
        const Trace t = rec.finish(30.02);
        QCOMPARE_NAME(t.writes[a].result, WriteResult::Corrupted);
        QCOMPARE(t.writes[a].overwrote, b);
        QCOMPARE(t.storageIncidents[0], std::vector<std::uint32_t>{a});
        QCOMPARE(t.finals[0].value, QStringLiteral("A"));
        QCOMPARE(t.summary.corrupted, 1u);
        QVERIFY(!t.summary.safe());
        QCOMPARE(t.beliefs[0][0].end, BeliefEnd::Never); // nobody told A
    }

    // The le pitfall observed: the live holder's second write with its own token is turned away
    // while it holds the newest epoch: locked out, not rejected.
    void lockedOutIsTheLiveHoldersRejection()
    {
        const Scenario s = TestSupport::preset("le-locks-out-holder");
        TraceRecorder rec(s, true, TokenSource::Etcd);
        rec.grant(0.02, 0, 0, 3, 20);
        const std::uint32_t w1 = rec.writeSent(2.0, 0, 1, rec.epochOf(0));
        rec.writeArrived(2.01, w1, true, 3, 1);
        const std::uint32_t w2 = rec.writeSent(4.0, 0, 2, rec.epochOf(0));
        rec.writeArrived(4.01, w2, false, 3, 1);
        const Trace t = rec.finish(4.01);
        QCOMPARE_NAME(t.writes[w1].result, WriteResult::Accepted);
        QCOMPARE_NAME(t.writes[w2].result, WriteResult::LockedOut);
        QVERIFY(!t.writes[w2].expired);
        QCOMPARE(t.beliefs[0][0].end, BeliefEnd::Rejected); // the reply still tells it
    }

    // What counts is when etcd ended the lease, not the ttl: a write at 10.3 of a lease granted
    // at 0 with ttl 10 and ended at 10.6 arrived while it was live (not expired); the next one,
    // at 10.8, after (expired). Both apply: the storage alone decides that.
    void observedLeaseEndDecidesExpired()
    {
        Scenario s;
        Client a;
        a.name = QStringLiteral("A");
        a.actions = {Action::acquire(0, 10), Action::write(10, QStringLiteral("x")),
                     Action::write(11, QStringLiteral("y"))};
        s.clients = {a};
        TraceRecorder rec(s, true, TokenSource::Etcd);
        rec.grant(0.0, 0, 0, 2, 10);
        const std::uint32_t x = rec.writeSent(10.3, 0, 1, 1);
        rec.writeArrived(10.3, x, true, 2, 1);
        rec.leaseEnded(10.6, 1);
        const std::uint32_t y = rec.writeSent(10.8, 0, 2, 1);
        rec.writeArrived(10.8, y, true, 2, 2);
        const Trace t = rec.finish(10.8);
        QVERIFY(!t.writes[x].expired);
        QVERIFY(t.writes[y].expired);
        QCOMPARE_NAME(t.writes[y].result, WriteResult::Accepted); // nothing newer was applied
        QCOMPARE(t.writes[y].arrivedAt, Tick(11));                // 10.8 rounds up
        QCOMPARE(t.leases[0].end, Tick(11));                      // and so does 10.6
    }

    // Facts that come a little out of order keep their order: ticks never go back.
    void ticksNeverGoBack()
    {
        Fixture f;
        TraceRecorder rec(f.s, true, TokenSource::Etcd);
        rec.grant(5.6, 0, 0, 3, 10); // tick 6
        rec.refusal(5.4, 1, 0, 0);   // told after, seen a little before: kept at 5.6
        const Trace t = rec.finish(6);
        QCOMPARE(t.events[1].tick, Tick(6));
        QCOMPARE(t.eventTime(1), 5.6);
    }

    // The rules against the simulator's: a simulated run replayed into the recorder at its ticks
    // is the same trace, for every preset that can run on etcd and thousands of seeded
    // schedules with etcd's tokens, blocking acquires, puts, keepalives, checks, version
    // storages, reads, groups and bypass clients, fenced and unfenced.
    void replayIsTheSimulatedRun_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name :
             {"default", "delayed-packet", "renewal-keeps-token", "three-owners",
              "le-locks-out-holder", "kleppmann-gc-pause", "etcd-revisions", "keepalive-gc-pause",
              "check-then-write-gap", "bypass-background-job", "two-resources-partial",
              "compare-and-set-version", "reentrant-holder-lt", "reentrant-holder-le",
              "etcd-owner-txn", "different-is-not-lower"}) {
            QTest::newRow(name) << QString::fromLatin1(name);
        }
    }
    void replayIsTheSimulatedRun()
    {
        QFETCH(QString, name);
        const Scenario scenario = TestSupport::preset(name.toLatin1().constData());
        for (bool fencing : {true, false}) {
            const Trace p = simulate(scenario, fencing);
            QString why;
            QVERIFY2(TestSupport::sameTrace(replay(scenario, p), p, &why), qPrintable(why));
        }
    }

    void replayIsTheSimulatedRunOnRandomSchedules()
    {
        TestSupport::RandomScenarioOptions o;
        o.tokens = TokenSource::Etcd;
        o.sourceEvents = true;
        o.waitPercent = 25;
        o.lePercent = 20;
        TestSupport::PitfallOptions pitfalls;
        pitfalls.keepalivePercent = 30;
        pitfalls.checkPercent = 25;
        pitfalls.versionPercent = 25;
        pitfalls.readPercent = 30;
        pitfalls.groupPercent = 20;
        pitfalls.bypassPercent = 15;
        int checked = 0;
        for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
            o.fencing = seed % 2 == 0;
            Scenario s = TestSupport::randomScenario(seed, o);
            if (seed % 3 != 0)
                TestSupport::addPitfalls(s, seed, pitfalls);
            s.horizon.reset();
            const Trace p = simulate(s);
            QString why;
            const Trace r = replay(s, p);
            if (!TestSupport::sameTrace(r, p, &why))
                QFAIL(qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(why)));
            ++checked;
        }
        QCOMPARE(checked, 3000);
    }
};

QTEST_GUILESS_MAIN(TestTraceRecorder)
#include "tst_tracerecorder.moc"
