// What can run on a real etcd, and at which tick, decided before anything starts
// (live/livecapability.h): every built-in scenario sorted into runs or refused with its reason,
// the default tick of the live presets worked out by hand, and the margins a given tick misses.

#include "livecapability.h"
#include "liverun.h"
#include "presetfile.h"
#include "simulator.h"
#include "testprinters.h"

#include <QDir>
#include <QTest>

using namespace Core;

namespace {

const char *const kRunnable[] = {"bypass-background-job",
                                 "check-then-write-gap",
                                 "compare-and-set-version",
                                 "default",
                                 "delayed-packet",
                                 "different-is-not-lower",
                                 "etcd-owner-txn",
                                 "etcd-revisions",
                                 "keepalive-gc-pause",
                                 "kleppmann-gc-pause",
                                 "le-locks-out-holder",
                                 "reentrant-holder-le",
                                 "reentrant-holder-lt",
                                 "renewal-keeps-token",
                                 "three-owners",
                                 "two-resources-partial"};

// Each refused preset and a few words its reason must hold.
const std::pair<const char *, const char *> kRefused[] = {
    {"chubby-lock-delay", "Chubby sequencers"},
    {"chubby-sequencer", "Chubby sequencers"},
    {"service-term", "the term of the lock service's own leader"},
    {"etcd-restore", "restores the lock service from a snapshot"},
    {"etcd-restore-bump", "restores the lock service from a snapshot"},
    {"journalnode-durable-max-token", "storage jn restarts"},
    {"journalnode-volatile-max-token", "storage jn restarts"},
    {"kafka-zombie-producer", "Kafka producer epochs"},
    {"raft-term", "terms of a Raft group's leaders"},
    {"random-tokens", "random numbers"},
    {"random-tokens-check-and-set", "random numbers"},
    {"redlock-no-token", "Redlock hands out no token"},
    {"slow-client-clock", "client A has a clock of its own"},
    {"wallclock-step-back", "wall clock with a step back"},
    {"zookeeper-failover", "ZooKeeper zxids"},
};

QStringList refusalsOf(const Scenario &s)
{
    return Live::refusals(s, simulate(Live::prediction(s), s.fencing));
}

Live::TickPlan planOf(const Scenario &s, std::optional<qint64> wantedUs = std::nullopt)
{
    const Scenario p = Live::prediction(s);
    return Live::planTicks(p, simulate(p, s.fencing), wantedUs);
}

Client lane(const char *name, std::vector<Action> actions)
{
    Client c;
    c.name = QString::fromLatin1(name);
    c.actions = std::move(actions);
    return c;
}

} // namespace

class TestLiveCapability : public QObject
{
    Q_OBJECT

private slots:
    // Every built-in scenario is in one list or the other: a new preset needs a decision.
    void everyPresetIsSorted()
    {
        QStringList known;
        for (const char *n : kRunnable)
            known << QString::fromLatin1(n);
        for (const auto &[n, why] : kRefused)
            known << QString::fromLatin1(n);
        QStringList presets;
        for (const QString &f :
             QDir(QStringLiteral(":/scenarios")).entryList({QStringLiteral("*.json")}))
            presets << f.chopped(5);
        known.sort();
        presets.sort();
        QCOMPARE(known, presets);
    }

    void runnablePresetsRun_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *n : kRunnable)
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void runnablePresetsRun()
    {
        QFETCH(QString, name);
        const Scenario s = TestSupport::preset(name.toLatin1().constData());
        QCOMPARE(refusalsOf(s), QStringList());
        for (bool fencing : {true, false}) {
            Live::LiveOptions o;
            o.fencing = fencing;
            o.laneProgram = QStringLiteral("/bin/true"); // (only checked to be a program)
            Live::TickPlan plan;
            QCOMPARE(Live::LiveRun::check(s, o, &plan), QString());
            QVERIFY(plan.tickUs >= Live::kMinTickUs);
        }
    }

    void refusedPresetsSayWhy_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("why");
        for (const auto &[n, why] : kRefused)
            QTest::newRow(n) << QString::fromLatin1(n) << QString::fromLatin1(why);
    }
    void refusedPresetsSayWhy()
    {
        QFETCH(QString, name);
        QFETCH(QString, why);
        const Scenario s = TestSupport::preset(name.toLatin1().constData());
        const QStringList reasons = refusalsOf(s);
        QVERIFY2(reasons.join(QLatin1Char('|')).contains(why),
                 qPrintable(reasons.join(QLatin1Char('|'))));
        Live::LiveOptions o;
        o.laneProgram = QStringLiteral("/bin/true");
        bool refused = false;
        const QString message = Live::LiveRun::check(s, o, nullptr, &refused);
        QVERIFY(refused);
        QVERIFY(message.startsWith(QLatin1String("cannot run on etcd: ")));
        QVERIFY(message.contains(why));
    }

    // The default tick, by hand: every ttl whole seconds (a multiple of 1 s / gcd of the ttls)
    // and 600 ms from each lease end to the next acquire, release, keepalive or arrival after it.
    void defaultTicks_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("tickUs");
        QTest::addColumn<Tick>("margin");
        QTest::addColumn<Tick>("lastTick");
        // ttls 10: 100 ms steps; A's lease ends at 10, B's acquire at 12: 2 ticks, so 300 ms
        QTest::newRow("default") << QStringLiteral("default") << qint64(300000) << Tick(2)
                                 << Tick(30);
        // ttls 9: 1/9 s steps; A's kept-alive lease ends at 18, B's acquire at 19: 1 tick, so
        // 600 ms at least, the sixth step: 6 s / 9
        QTest::newRow("keepalive-gc-pause")
            << QStringLiteral("keepalive-gc-pause") << qint64(666667) << Tick(1) << Tick(28);
        // A's renewed lease ends at 13 and nothing follows: the shortest tick, 200 ms
        QTest::newRow("reentrant-holder-lt")
            << QStringLiteral("reentrant-holder-lt") << qint64(200000) << Tick(0) << Tick(13);
        // A's lease ends at 10; B, waiting, is granted then (that is no race); B's write
        // arrives at 13: 3 ticks, 200 ms
        QTest::newRow("etcd-revisions")
            << QStringLiteral("etcd-revisions") << qint64(200000) << Tick(3) << Tick(30);
        // ttls 20 and 5: 200 ms steps; A's lease ends at 20, B acquires at 25: 5 ticks
        QTest::newRow("le-locks-out-holder")
            << QStringLiteral("le-locks-out-holder") << qint64(200000) << Tick(5) << Tick(30);
        // ttls 8, 8, 10: 500 ms steps; A's lease ends at 8, B acquires at 10: 2 ticks; A's
        // write waits for its thaw at 32
        QTest::newRow("three-owners")
            << QStringLiteral("three-owners") << qint64(500000) << Tick(2) << Tick(32);
    }
    void defaultTicks()
    {
        QFETCH(QString, name);
        QFETCH(qint64, tickUs);
        QFETCH(Tick, margin);
        QFETCH(Tick, lastTick);
        const Live::TickPlan plan = planOf(TestSupport::preset(name.toLatin1().constData()));
        QCOMPARE(plan.error, QString());
        QCOMPARE(plan.tickUs, tickUs);
        QCOMPARE(plan.margin, margin);
        QCOMPARE(plan.lastTick, lastTick);
    }

    void givenTicks()
    {
        const Scenario s = TestSupport::preset("default");
        QCOMPARE(planOf(s, 400000).tickUs, qint64(400000));
        QCOMPARE(planOf(s, 250000).error,
                 QStringLiteral("with a 250 ms tick, A's ttl of 10 ticks is not a whole number "
                                "of seconds, as etcd's TTLs are"));
        QCOMPARE(planOf(s, 200000).error,
                 QStringLiteral("with a 200 ms tick, B's acquire at t=12 comes 2 ticks after "
                                "A's lease ends at t=10, 400 ms: it needs at least 600 ms, as etcd "
                                "ends a lease up to half a second late"));
        QCOMPARE(planOf(s, 200000).tickUs, qint64(0));
    }

    // B acquires at the very tick A's lease ends: etcd may or may not have ended it then.
    void noTickForARaceAtTheLeaseEnd()
    {
        Scenario s;
        s.clients = {lane("A", {Action::acquire(0, 10)}), lane("B", {Action::acquire(10, 10)})};
        const Live::TickPlan plan = planOf(s);
        QCOMPARE(plan.tickUs, qint64(0));
        QCOMPARE(plan.error, QStringLiteral("B's acquire at t=10 comes 0 ticks after A's lease "
                                            "ends at t=10: etcd ends a lease up to half a second "
                                            "late, so no tick leaves 600 ms between them"));
    }

    void tooLongARun()
    {
        Scenario s;
        s.clients = {lane("A", {Action::acquire(0, 10), Action::write(9000, QStringLiteral("x"))})};
        const Live::TickPlan plan = planOf(s);
        QCOMPARE(plan.tickUs, qint64(0));
        QVERIFY2(plan.error.contains(QLatin1String("a live run lasts at most 10 minutes")),
                 qPrintable(plan.error));
    }

    // A delay is the network's, but a live run holds the write in its client's process.
    void delayedWriteDuringItsClientsPause()
    {
        Scenario s;
        s.clients = {lane("A", {Action::acquire(0, 10), Action::write(2, QStringLiteral("x"), 0, 5),
                                Action::pause(3, 2)})};
        QCOMPARE(refusalsOf(s),
                 QStringList{QStringLiteral("A's write 'x' is in flight while A is paused: a live "
                                            "run holds a delayed write in its client's process")});
    }

    // An owner storage asks etcd for the writer's key: its storages stay in etcd.
    void ownerStorageNotOnPostgres()
    {
        Live::LiveOptions o;
        o.store = Live::Store::Postgres;
        o.laneProgram = QStringLiteral("/bin/true");
        bool refused = false;
        QCOMPARE(Live::LiveRun::check(TestSupport::preset("etcd-owner-txn"), o, nullptr, &refused),
                 QStringLiteral("cannot run on PostgreSQL: storage kv asks etcd for the writer's "
                                "lock key (check owner): keep it in etcd"));
        QVERIFY(refused);
    }

    // etcd's keepalive renews a lease for the TTL it was granted with.
    void renewalForAnotherTtl()
    {
        Scenario s;
        s.clients = {lane("A", {Action::acquire(0, 10), Action::acquire(3, 5)})};
        QCOMPARE(refusalsOf(s),
                 QStringList{QStringLiteral("A's acquire at t=3 renews its lease for 5 ticks, but "
                                            "it was granted for 10: etcd renews a lease for the "
                                            "TTL it was granted with")});
    }

    // The prediction: etcd's revisions from where the store is, whatever the file's source.
    void predictionCountsFromTheStoresRevision()
    {
        const Scenario k = TestSupport::preset("kleppmann-gc-pause"); // counter from 33
        const Scenario p = Live::prediction(k, 4);
        QCOMPARE_NAME(p.tokens, TokenSource::Etcd);
        const Trace t = simulate(p, true);
        QCOMPARE(t.grants[0].token, Token(5)); // the first change after revision 4
        QCOMPARE(t.grants[1].token, Token(7)); // A's key deleted at its expiry (6), B's created
    }
};

QTEST_GUILESS_MAIN(TestLiveCapability)
#include "tst_livecapability.moc"
