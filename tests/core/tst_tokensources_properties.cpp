// Properties of the token sources over seeded random schedules (docs/SCENARIO.md sections 9,
// 10, 14 and 15): which sources never let a write corrupt under which rule, and which do
// sometimes. FENCESCOPE_QUICK=1 cuts the schedule count for slow (sanitizer) builds.
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

class TestTokenSourcesProperties : public QObject
{
    Q_OBJECT
private slots:
    // With fencing on and rule `lt`, a monotonic source never lets a write corrupt: with lock
    // failures of its own, blocking acquires, lock-delays, and one restore whose bump covers
    // everything handed out.
    void monotonicSourcesNeverCorrupt_data()
    {
        QTest::addColumn<int>("source");
        QTest::addColumn<bool>("restore");
        for (TokenSource src :
             {TokenSource::Counter, TokenSource::Etcd, TokenSource::ZooKeeper,
              TokenSource::RaftTerm, TokenSource::KafkaEpoch, TokenSource::Chubby}) {
            QTest::newRow(qPrintable(toString(src))) << int(src) << false;
            QTest::newRow(qPrintable(toString(src) + QStringLiteral(", restore with bump")))
                << int(src) << true;
        }
    }
    void monotonicSourcesNeverCorrupt()
    {
        QFETCH(int, source);
        QFETCH(bool, restore);
        RandomScenarioOptions o;
        o.tokens = TokenSource(source);
        o.sourceEvents = true;
        o.waitPercent = 30;
        o.maxLockDelay = 6;
        o.maxRestores = restore ? 1 : 0;
        o.restoreBump = kEnoughBump;
        std::uint64_t writes = 0, rejected = 0, restores = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            const Scenario s = randomScenario(900000 + std::uint64_t(i), o);
            const Trace t = simulate(s, true);
            QVERIFY2(t.summary.corrupted == 0, qPrintable(s.title));
            // tokens of grants only grow; a renewal keeps its epoch's
            Token highest = 0;
            for (std::size_t g = 0; g < t.grants.size(); ++g) {
                const Grant &x = t.grants[g];
                QVERIFY2(x.renewal ? x.token == t.leases[x.epoch - 1].token
                                   : g == 0 || x.token > highest,
                         qPrintable(s.title));
                highest = std::max(highest, x.token);
            }
            writes += t.writes.size();
            rejected += t.summary.rejected;
            restores += s.lock.restores.size();
        }
        QVERIFY(rejected > writes / 20); // stale writers were there, and were turned away
        if (restore)
            QVERIFY(restores > std::uint64_t(scheduleCount()) / 3);
    }

    // Section 15 over seeded schedules. An `owner` storage applies a write only while the lock
    // service holds its grant live, and without restores a grant never comes back: no source,
    // ordered or not, corrupts one (random, wallclock and service-term tokens included).
    void ownerNeverCorruptsWithoutRestores_data()
    {
        QTest::addColumn<int>("source");
        for (int i = 0; i < kTokenSourceCount; ++i)
            QTest::newRow(qPrintable(toString(TokenSource(i)))) << i;
    }
    void ownerNeverCorruptsWithoutRestores()
    {
        QFETCH(int, source);
        RandomScenarioOptions o;
        o.tokens = TokenSource(source);
        o.sourceEvents = true;
        o.clockStepsBack = true;
        o.waitPercent = 20;
        o.maxLockDelay = 4;
        o.ownerPercent = 100;
        std::uint64_t applied = 0, notApplied = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            const Scenario s = randomScenario(930000 + std::uint64_t(i), o);
            const Trace t = simulate(s, true);
            QVERIFY2(t.summary.corrupted == 0, qPrintable(s.title));
            for (const Write &w : t.writes) {
                // applied only while its grant was the live one: inside its lease (at the very
                // tick of a release or of a Kafka fence, the write came before it)
                const Lease *l = w.epoch ? &t.leases[w.epoch - 1] : nullptr;
                const bool endedThen = l && w.arrivedAt == l->end &&
                                       (l->released || s.tokens == TokenSource::KafkaEpoch);
                const bool live =
                    w.tagged && l && w.arrivedAt >= l->start && (w.arrivedAt < l->end || endedThen);
                if (w.applied)
                    QVERIFY2(live, qPrintable(s.title));
                (w.applied ? applied : notApplied) += 1;
            }
        }
        if (TokenSource(source) != TokenSource::None)
            QVERIFY(applied > std::uint64_t(scheduleCount()) && notApplied > applied / 10);
        else
            QCOMPARE(applied, std::uint64_t(0));
    }

    // service-term tokens under `lt` do corrupt with fencing on: two owners of one term share a
    // token, and the older one's late write passes.
    void serviceTermCorruptsUnderLt()
    {
        RandomScenarioOptions o;
        o.tokens = TokenSource::ServiceTerm;
        o.sourceEvents = true;
        int corrupting = 0, sharedTerm = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            const Scenario s = randomScenario(940000 + std::uint64_t(i), o);
            const Trace t = simulate(s, true);
            for (const Write &w : t.writes) {
                if (w.result != WriteResult::Corrupted)
                    continue;
                // every corruption is by an equal token: the term never goes back
                QVERIFY2(t.tokenOf(w) == w.maxToken, qPrintable(s.title));
                QVERIFY2(t.tokenOf(t.writes[w.overwrote]) == t.tokenOf(w), qPrintable(s.title));
            }
            corrupting += t.summary.corrupted > 0;
            for (std::size_t e = 1; e < t.leases.size(); ++e)
                sharedTerm += t.leases[e].token == t.leases[e - 1].token;
        }
        QVERIFY2(corrupting > scheduleCount() / 200, qPrintable(QString::number(corrupting)));
        QVERIFY(sharedTerm > scheduleCount());
    }

    // A `same` storage applies one token only, the first it applied; once any owner has
    // written, every later owner is locked out while it holds the lock.
    void sameLocksOutLaterOwners()
    {
        RandomScenarioOptions o;
        o.samePercent = 100;
        int lockedOut = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            const Scenario s = randomScenario(950000 + std::uint64_t(i), o);
            const Trace t = simulate(s, true);
            std::vector<Token> first(s.storages.size(), 0);
            std::vector<bool> seen(s.storages.size(), false);
            for (const Event &e : t.events) {
                if (e.kind != EventKind::WriteArrived)
                    continue;
                const Write &w = t.writes[e.ref];
                if (!w.tagged) {
                    QVERIFY2(!w.applied, qPrintable(s.title));
                    continue;
                }
                const Token token = t.tokenOf(w);
                QCOMPARE(w.applied, !seen[w.storage] || token == first[w.storage]);
                if (w.applied && !seen[w.storage]) {
                    seen[w.storage] = true;
                    first[w.storage] = token;
                }
                if (w.result == WriteResult::LockedOut)
                    QVERIFY2(seen[w.storage] && token > first[w.storage], qPrintable(s.title));
            }
            lockedOut += t.summary.lockedOut > 0;
            QVERIFY2(t.summary.corrupted == 0,
                     qPrintable(s.title)); // counter tokens: one owner each
        }
        QVERIFY2(lockedOut > scheduleCount() / 10, qPrintable(QString::number(lockedOut)));
    }

    // Re-arms keep ZooKeeper and etcd safe: with failovers, and a restore whose bump covers
    // every token handed out, fenced `lt` runs never corrupt; every re-arm is a live lease set
    // to its tick plus the ttl of the grant or renewal that set it last.
    void rearmsKeepZookeeperAndEtcdSafe_data()
    {
        QTest::addColumn<int>("source");
        QTest::newRow("zookeeper") << int(TokenSource::ZooKeeper);
        QTest::newRow("etcd") << int(TokenSource::Etcd);
    }
    void rearmsKeepZookeeperAndEtcdSafe()
    {
        QFETCH(int, source);
        RandomScenarioOptions o;
        o.tokens = TokenSource(source);
        o.sourceEvents = true;
        o.waitPercent = 20;
        o.maxLockDelay = 4;
        o.maxRestores = 1;
        o.restoreBump = kEnoughBump;
        std::uint64_t rearms = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            Scenario s = randomScenario(960000 + std::uint64_t(i), o);
            if (o.tokens == TokenSource::ZooKeeper && s.lock.failovers.empty())
                s.lock.failovers = {std::uint64_t(i % 40)};
            const Trace t = simulate(s, true);
            QVERIFY2(t.summary.corrupted == 0, qPrintable(s.title));
            for (const Rearm &r : t.rearms) {
                // the last grant or renewal of that epoch that the service still knows set its
                // ttl: one before the re-arm's tick (phase 1 comes before any grant of the
                // tick), or up to the snapshot of a restore at that tick
                Tick known = r.at - 1;
                for (const LockRestore &x : s.lock.restores)
                    if (x.at == r.at)
                        known = x.from;
                // (a restore before the re-arm forgot the renewals after its snapshot)
                const auto forgotten = [&](const Grant &g) {
                    for (const LockRestore &x : s.lock.restores)
                        if (x.from < g.at && g.at < x.at && x.at <= r.at)
                            return true;
                    return false;
                };
                Tick ttl = 0;
                for (const Grant &g : t.grants)
                    if (g.epoch == r.epoch && g.at <= known && !forgotten(g))
                        ttl = g.expires - g.at;
                QVERIFY2(ttl > 0 && r.expires == r.at + ttl, qPrintable(s.title));
            }
            rearms += t.rearms.size();
        }
        QVERIFY(rearms > std::uint64_t(scheduleCount()) / 10);
    }

    // Without a token nothing is applied with fencing on.
    void noneNeverAppliesWithFencing()
    {
        RandomScenarioOptions o;
        o.tokens = TokenSource::None;
        o.waitPercent = 20;
        std::uint64_t writes = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            const Scenario s = randomScenario(910000 + std::uint64_t(i), o);
            const Trace t = simulate(s, true);
            for (const Write &w : t.writes)
                QVERIFY2(!w.applied && !w.tagged, qPrintable(s.title));
            writes += t.writes.size();
        }
        QVERIFY(writes > std::uint64_t(scheduleCount()));
    }

    // Tokens that are not ordered do corrupt, fencing or not: the test finds such schedules.
    void unorderedTokensCorruptSometimes_data()
    {
        QTest::addColumn<int>("source");
        QTest::addColumn<int>("restores");
        QTest::newRow("random") << int(TokenSource::Random) << 0;
        QTest::newRow("wallclock, steps back") << int(TokenSource::WallClock) << 0;
        QTest::newRow("counter, restores without bump") << int(TokenSource::Counter) << 2;
        QTest::newRow("etcd, restores without bump") << int(TokenSource::Etcd) << 2;
        QTest::newRow("zookeeper, restores without bump") << int(TokenSource::ZooKeeper) << 2;
    }
    void unorderedTokensCorruptSometimes()
    {
        QFETCH(int, source);
        QFETCH(int, restores);
        RandomScenarioOptions o;
        o.tokens = TokenSource(source);
        o.sourceEvents = true;
        o.clockStepsBack = true;
        o.maxRestores = restores;
        o.restoreBump = 0;
        int corrupting = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            const Scenario s = randomScenario(920000 + std::uint64_t(i), o);
            corrupting += simulate(s, true).summary.corrupted > 0;
        }
        QVERIFY2(corrupting > scheduleCount() / 200, qPrintable(QString::number(corrupting)));
    }
};

QTEST_GUILESS_MAIN(TestTokenSourcesProperties)
#include "tst_tokensources_properties.moc"
