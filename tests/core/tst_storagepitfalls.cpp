// docs/SCENARIO.md sections 12-14, the storages' pitfalls: a max_token forgotten in a restart,
// version storages (compare-and-set) with the reads they judge by, and groups left half
// applied; then what the explanations (section 13's words) and the run report say of every
// pitfall, the clients' too. One hand-worked schedule per rule and corner; every expected line
// was worked out from the spec by hand, the comments show how. The clients' pitfalls and the
// seeded properties of all of them: tst_pitfalls.

#include "explain.h"
#include "pitfallschedules.h"
#include "runreport.h"
#include "simulator.h"
#include "testprinters.h"

#include <QTemporaryFile>
#include <QTest>

#include <cstdio>

using namespace PitfallSchedules;

class TestStoragePitfalls : public QObject
{
    Q_OBJECT

private slots:
    // A JournalNode-style store that forgets an unpersisted max_token: B's token 2 is lost in
    // the restart at 15, and A's stale token 1 at 20 gets through (corrupted). Durable: rejected.
    // A restart in the tick of an arrival comes first (phase 4 before 5).
    void volatileMaxTokenForgottenOnRestart()
    {
        const auto make = [](bool durable, Tick restart) {
            Scenario s = scenario({lane("A", {acquire(0, 10), Action::pause(1, 19), write(20, "A")}),
                                   lane("B", {acquire(12, 10), write(13, "B")})});
            s.storages[0].durable = durable;
            s.storages[0].restarts = {restart};
            return s;
        };
        Scenario v = make(false, 15);
        Trace t = simulate(v);
        QCOMPARE(arrivals(v, t), QStringList({"B B 13->13 t2 e2 accepted max2 live",
                                              "A A 20->20 t1 e1 corrupted max1 expired"}));
        QCOMPARE(t.restarts.size(), std::size_t(1));
        QCOMPARE(t.restarts[0].forgot, Token(2));
        QCOMPARE(storageStateAt(v, t, 0, 14).maxToken, Token(2));
        QCOMPARE(storageStateAt(v, t, 0, 15).maxToken, Token(0));
        QCOMPARE(storageStateAt(v, t, 0, 20).maxToken, Token(1));
        QCOMPARE(storageStateAt(v, t, 0, 20).value, QStringLiteral("A"));

        Scenario d = make(true, 15);
        t = simulate(d);
        QCOMPARE(arrivals(d, t).last(), QStringLiteral("A A 20->20 t1 e1 rejected max2 expired"));
        QCOMPARE(t.restarts[0].forgot, Token(0));
        QCOMPARE(storageStateAt(d, t, 0, 16).maxToken, Token(2));

        Scenario same = make(false, 20); // restart at 20, then A's write arrives at 20
        QCOMPARE(arrivals(same, simulate(same)).last(),
                 QStringLiteral("A A 20->20 t1 e1 corrupted max1 expired"));
        Scenario atB = make(false, 13); // before B's write: nothing to forget yet
        t = simulate(atB);
        QCOMPARE(t.restarts[0].forgot, Token(0));
        QCOMPARE(arrivals(atB, t).last(), QStringLiteral("A A 20->20 t1 e1 rejected max2 expired"));
        // a restart after everything else still makes the run that long
        Scenario lateRestart = make(true, 30);
        QCOMPARE(simulate(lateRestart).lastTick, Tick(30));
    }

    // Compare-and-set on a version. A reads v0 at 1, writes at 2 (expects 0: applied, v1, A now
    // knows 1). B reads v1 at 13 and writes at 14 (v2). A, frozen [3,15), writes at 15 still
    // expecting 1: fenced, rejected and told v2 (A's lease is gone: rejected, not lockedOut);
    // unfenced, applied over data it never saw: corrupted, v3.
    void versionCompareAndSet()
    {
        for (const bool fencing : {true, false}) {
            Scenario s = scenario({lane("A", {acquire(0, 10), Action::read(1), write(2, "A"),
                                              Action::pause(3, 12), write(15, "A2")}),
                                   lane("B", {acquire(12, 10), Action::read(13), write(14, "B")})},
                                  fencing);
            s.storages[0].check = StorageCheck::Version;
            const Trace t = simulate(s);
            QCOMPARE(reads(s, t), QStringList({"A 1->1 v0", "B 13->13 v1"}));
            QCOMPARE(arrivals(s, t),
                     QStringList({"A A 2->2 t1 e1 accepted max0 live",
                                  "B B 14->14 t2 e2 accepted max0 live",
                                  fencing ? QStringLiteral("A A2 15->15 t1 e1 rejected max0 expired")
                                          : QStringLiteral("A A2 15->15 t1 e1 corrupted max0 expired")}));
            QCOMPARE(versions(s, t), QStringList({"A exp0 v1", "B exp1 v2",
                                                  fencing ? "A2 exp1 v2" : "A2 exp1 v3"}));
            QCOMPARE(t.finals[0].version, std::uint64_t(fencing ? 2 : 3));
            QCOMPARE(t.finals[0].value, fencing ? QStringLiteral("B") : QStringLiteral("A2"));
        }
    }

    // Judged by what the writer read, not by epochs: an expired client that read the current
    // version is accepted; a client that never held the lock (untagged) may apply; the live
    // holder refused because someone wrote in between is lockedOut.
    void versionJudgedByWhatWasRead()
    {
        Scenario s = scenario({lane("A", {acquire(0, 5), Action::read(8), write(9, "late")}),
                               lane("U", {write(1, "u")})});
        s.storages[0].check = StorageCheck::Version;
        Trace t = simulate(s);
        QCOMPARE(arrivals(s, t), QStringList({"U u 1->1 untagged e0 accepted max0 live",
                                              "A late 9->9 t1 e1 accepted max0 expired"}));
        QCOMPARE(versions(s, t), QStringList({"u exp0 v1", "late exp1 v2"}));

        Scenario l = scenario({lane("A", {acquire(0, 20), write(5, "a")}),
                               lane("U", {write(1, "u")})});
        l.storages[0].check = StorageCheck::Version;
        t = simulate(l);
        // A never read: expects 0, the version is 1 after U: refused while A is the live holder
        QCOMPARE(arrivals(l, t).last(), QStringLiteral("A a 5->5 t1 e1 lockedOut max0 live"));
        QCOMPARE(t.beliefs[0][0].end, BeliefEnd::Rejected);
    }

    // A read racing a write: B's read is sent at 10 (arrives 15), A's write at 12 (arrives 15).
    // At 15 they arrive in the order they were sent: the read sees v0, before the write. A
    // bypass write skips the comparison and still raises the version.
    void readRacingAWrite()
    {
        Scenario s = scenario({lane("A", {acquire(0, 20), write(12, "a", 0, 3)}),
                               lane("B", {Action::read(10, 0, 5)}), lane("J", {write(16, "j")})});
        s.storages[0].check = StorageCheck::Version;
        s.clients[2].bypass = true;
        const Trace t = simulate(s);
        QCOMPARE(reads(s, t), QStringList({"B 10->15 v0"}));
        QCOMPARE(versions(s, t), QStringList({"a exp0 v1", "j exp0 v2"}));
        // J expected 0 over v1: a bypass write that overwrote data it never saw
        QCOMPARE(arrivals(s, t).last(), QStringLiteral("J j 16->16 untagged e0 corrupted max0 live"));
    }

    // Two resources under one lock. A, frozen [1,15), writes its update to db and cache at 15;
    // B (token 2) wrote cache at 12. Fenced: db accepts token 1 (db has seen nothing newer),
    // cache rejects it: half applied. Unfenced both apply (cache corrupted): not partial.
    void groupLeftHalfApplied()
    {
        for (const bool fencing : {true, false}) {
            Scenario s = scenario({lane("A", {acquire(0, 10), Action::pause(1, 14),
                                              grouped(15, "A", 0, "order"),
                                              grouped(15, "A", 1, "order")}),
                                   lane("B", {acquire(11, 10), write(12, "B", 1)})},
                                  fencing);
            s.storages = {StorageSpec::named(QStringLiteral("db")), StorageSpec::named(QStringLiteral("cache"))};
            const Trace t = simulate(s);
            QCOMPARE(groups(s, t), fencing ? QStringLiteral("A/order [db] [cache] partial")
                                           : QStringLiteral("A/order [db,cache] []"));
            QCOMPARE(t.summary.partial, std::uint64_t(fencing ? 1 : 0));
            QCOMPARE(t.summary.safe(), false); // half applied, or corrupted
        }
    }

    // Groups: keyed by client and name, lane order then first appearance; a group on one
    // storage is never partial; a storage written twice counts once by its last write; a
    // skipped write counts as not applied.
    void groupCorners()
    {
        Scenario s = scenario({lane("A", {acquire(0, 10), grouped(1, "x", 0, "one"),
                                          grouped(2, "y", 0, "one"), grouped(3, "z", 0, "two")}),
                               lane("B", {grouped(4, "b", 0, "one")})});
        Trace t = simulate(s);
        // B never held the lock: its untagged write is rejected
        QCOMPARE(groups(s, t), QStringLiteral("A/one [db] []; A/two [db] []; B/one [] [db]"));
        QCOMPARE(t.summary.partial, std::uint64_t(0));

        Scenario k = scenario({lane("A", {acquire(0, 5), Action::pause(1, 10),
                                          grouped(11, "d", 0, "g"), checked(11, "c", 0)})});
        k.storages = {StorageSpec::named(QStringLiteral("db")), StorageSpec::named(QStringLiteral("cache"))};
        k.clients[0].actions[3].storage = 1;
        k.clients[0].actions[3].setGroup(QStringLiteral("g"));
        t = simulate(k);
        QCOMPARE(skips(k, t), QStringList({"A c@11"}));
        QCOMPARE(groups(k, t), QStringLiteral("A/g [db] [cache] partial"));

        // db, cache, db: db stands where its last write does
        Scenario twice = scenario({lane("A", {acquire(0, 10), grouped(1, "x", 0, "g"),
                                              grouped(2, "y", 1, "g"), grouped(3, "z", 0, "g")})});
        twice.storages = {StorageSpec::named(QStringLiteral("db")),
                          StorageSpec::named(QStringLiteral("cache"))};
        QCOMPARE(groups(twice, simulate(twice)), QStringLiteral("A/g [cache,db] []"));
    }

    // The explanations name each pitfall in the learner's words.
    void explanationsNameThePitfall()
    {
        // a rejected compare-and-set: "expected version 3, found 4"
        std::vector<Action> a{acquire(0, 50)};
        for (Tick i = 0; i < 3; ++i)
            a.push_back(write(1 + i, "x"));
        a.push_back(Action::read(4));
        Action late = write(9, "late");
        a.push_back(late);
        Scenario v = scenario({lane("A", a), lane("B", {Action::read(5), write(6, "b")})});
        v.storages[0].check = StorageCheck::Version;
        v.clients[1].actions[1] = write(6, "b"); // B read v3 at 5, wrote v4 at 6
        // A wrote x three times (v1..v3, each reply updates what it knows), read v3 at 4; B
        // read v3 and wrote v4; A's write at 9 expects 3 and finds 4
        Trace t = simulate(v);
        QCOMPARE(versions(v, t),
                 QStringList({"x exp0 v1", "x exp1 v2", "x exp2 v3", "b exp3 v4", "late exp3 v4"}));
        const auto last = std::uint32_t(t.writes.size() - 1);
        QVERIFY2(explainWrite(v, t, last).contains(QLatin1String("expected version 3, found 4")),
                 qPrintable(explainWrite(v, t, last)));
        QVERIFY(t.writes[last].result == WriteResult::LockedOut); // A still holds the lock

        // a half-applied group
        Scenario g = scenario({lane("A", {acquire(0, 10), Action::pause(1, 14),
                                          grouped(15, "A", 0, "order"),
                                          grouped(15, "A", 1, "order")}),
                               lane("B", {acquire(11, 10), write(12, "B", 1)})});
        g.storages = {StorageSpec::named(QStringLiteral("db")), StorageSpec::named(QStringLiteral("cache"))};
        t = simulate(g);
        const QString group = explainGroup(g, t, 0);
        QVERIFY2(group.contains(QLatin1String("db accepted, cache rejected")), qPrintable(group));
        QVERIFY(group.contains(QLatin1String("two-phase commit or a compensation")));
        QVERIFY(summarize(g, t).contains(QLatin1String("1 update half applied")));

        // told: lease gone, where the keepalive failed
        Scenario k = scenario({lane("A", {acquire(0, 9, 3), Action::pause(4, 10), write(14, "A")}),
                               lane("B", {acquire(12, 10), write(13, "B")})});
        t = simulate(k);
        std::uint32_t lostEvent = kNone;
        for (std::uint32_t i = 0; i < t.events.size(); ++i)
            if (t.events[i].kind == EventKind::Lost)
                lostEvent = i;
        QVERIFY(lostEvent != kNone);
        QCOMPARE(briefEvent(k, t, lostEvent), QStringLiteral("told: lease gone"));
        QVERIFY(explainEvent(k, t, lostEvent).contains(QLatin1String("B holds the lock now")));
        QVERIFY(explainEvent(k, t, 1).contains(QLatin1String("keepalive renewed")));

        // a pause after the check
        Scenario c = scenario({lane("A", {acquire(0, 10), checked(8, "A", 2), Action::pause(9, 10)}),
                               lane("B", {acquire(12, 10), write(13, "B")})});
        t = simulate(c);
        QVERIFY(explainWrite(c, t, 1).contains(QLatin1String("the pause came after the check")));

        // a bypass write and a forgotten max_token
        Scenario b = scenario({lane("B", {acquire(0, 10), write(1, "B")}), lane("J", {write(2, "J")})});
        b.clients[1].bypass = true;
        t = simulate(b);
        QVERIFY(explainWrite(b, t, 1).contains(QLatin1String("unfenced path")));
        Scenario r = scenario({lane("A", {acquire(0, 10), Action::pause(1, 19), write(20, "A")}),
                               lane("B", {acquire(12, 10), write(13, "B")})});
        r.storages[0].durable = false;
        r.storages[0].restarts = {15};
        t = simulate(r);
        QVERIFY(explainWrite(r, t, 1).contains(QLatin1String("forgot its max_token 2")));
    }

    // The report of section 13: keepalive grants, skipped, lost, groups, reads, versions.
    void reportCarriesTheAdditions()
    {
        Scenario s = scenario({lane("A", {acquire(0, 9, 3), Action::pause(4, 10), write(14, "A")}),
                               lane("B", {acquire(12, 10), Action::read(12), write(13, "B")})});
        s.storages[0].check = StorageCheck::Version;
        const Trace t = simulate(s);
        QTemporaryFile file;
        QVERIFY(file.open());
        std::FILE *f = std::fopen(file.fileName().toLocal8Bit().constData(), "w");
        QVERIFY(f);
        QVERIFY(writeRunReport(f, s, t, false));
        std::fclose(f);
        const QByteArray json = file.readAll();
        QVERIFY2(json.contains(R"({ "client": "A", "at": 3, "token": 1, "epoch": 1, "renewal": true, "expires": 12, "keepalive": true })"),
                 json.constData());
        QVERIFY(json.contains(R"("lost": [
    { "client": "A", "at": 14, "reason": "keepalive" }
  ])"));
        QVERIFY(json.contains(R"("skipped": [])"));
        QVERIFY(json.contains(R"("groups": [])"));
        QVERIFY(json.contains(R"({ "client": "B", "storage": "db", "sentAt": 12, "arrivedAt": 12, "version": 0 })"));
        // B read v0 and wrote v1; A never read: expects 0, finds 1, rejected
        QVERIFY(json.contains(R"("result": "accepted", "maxToken": 0, "expired": false, "expected": 0, "version": 1 })"));
        QVERIFY(json.contains(R"("result": "rejected", "maxToken": 0, "expired": true, "expected": 0, "version": 1 })"));
        QVERIFY(json.contains(R"("db": { "value": "B", "maxToken": 0, "version": 1 })"));
        QVERIFY(json.contains(R"("lockedOut": 0, "skipped": 0, "partial": 0 })"));
    }
};

QTEST_GUILESS_MAIN(TestStoragePitfalls)
#include "tst_storagepitfalls.moc"
