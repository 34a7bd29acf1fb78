// Every preset that can run on etcd, run on a real one, fenced and unfenced, at its default
// tick: the observed outcomes (each write's result in arrival order, the final values) are the
// ones worked out below by hand from the preset's story, reality agrees with the prediction
// (every divergence is a note the report explains), tokens only grow, and nothing is left
// behind. The runs share one etcd the test starts on free ports, and start one after another
// as each is under way, so they overlap: a few tens of seconds in all. Where a run's action ran
// late (a busy machine), it is run again alone, as the run itself says it cannot be judged.
//
// A few of them run with their storages in PostgreSQL (--store postgres) as well.
//
// FENCESCOPE_LIVE_FULL=1 adds the long form: each preset alone on an etcd of its own, where a
// token differs from the prediction only by the storages' writes.

#include "etcdserver.h"
#include "liverun.h"
#include "livesupport.h"
#include "presetfile.h"
#include "simulator.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace Core;

namespace {

struct Case
{
    const char *preset;
    bool fencing;
    const char *writes;    // "client:value result" in arrival order
    const char *finals;    // each storage's final value
    bool postgres = false; // the storages in PostgreSQL (--store postgres)
};

// Worked out from each preset's story (README's table, the files' descriptions).
const Case kCases[] = {
    // A is stopped from 1 to 30 with its lease of 10 gone; B gets the lock at 12 and writes at
    // 13; A's write, due at 2, goes out at its thaw with its old token
    {"default", true, "B:B accepted, A:A rejected", "B"},
    {"default", false, "B:B accepted, A:A corrupted", "A"},
    // no pause: A's write from 3 takes 17 ticks to arrive, after B's at 12
    {"delayed-packet", true, "B:B accepted, A:A rejected", "B"},
    {"delayed-packet", false, "B:B accepted, A:A corrupted", "A"},
    // A renews at 8 (the same token) and writes again at 12; B is refused at 11, gets it at 20
    {"renewal-keeps-token", true, "A:A1 accepted, A:A2 accepted, B:B accepted", "B"},
    {"renewal-keeps-token", false, "A:A1 accepted, A:A2 accepted, B:B accepted", "B"},
    // B writes at 11, C at 21; B's second write wakes at 27, A's at 32, both stale
    {"three-owners", true, "B:B accepted, C:C accepted, B:B2 rejected, A:A rejected", "C"},
    {"three-owners", false, "B:B accepted, C:C accepted, B:B2 corrupted, A:A corrupted", "A"},
    // le: A's second write with its own token, while it holds the lock, is turned away
    {"le-locks-out-holder", true, "A:A1 accepted, A:A2 lockedOut, B:B accepted", "B"},
    {"le-locks-out-holder", false, "A:A1 accepted, A:A2 accepted, B:B accepted", "B"},
    {"kleppmann-gc-pause", true, "B:B accepted, A:A rejected", "B"},
    {"kleppmann-gc-pause", false, "B:B accepted, A:A corrupted", "A"},
    // B waits from 7 and is granted when etcd deletes A's key; A's write goes out at 30
    {"etcd-revisions", true, "B:B accepted, A:A rejected", "B"},
    {"etcd-revisions", false, "B:B accepted, A:A corrupted", "A"},
    // A's keepalives stop in its pause (10-25); B gets the lock at 19 and writes at 20; A's
    // write goes out at the thaw before its keepalive tells it the lease is gone
    {"keepalive-gc-pause", true, "B:B accepted, A:A rejected", "B"},
    {"keepalive-gc-pause", false, "B:B accepted, A:A corrupted", "A"},
    // A's check at 8 passes; its send, due at 12, goes out at its thaw at 19, after B's at 14
    {"check-then-write-gap", true, "B:B accepted, A:A rejected", "B"},
    {"check-then-write-gap", false, "B:B accepted, A:A corrupted", "A"},
    // the job's write skips the check: over B's newer data, fenced or not
    {"bypass-background-job", true, "B:B accepted, job:job corrupted", "job"},
    {"bypass-background-job", false, "B:B accepted, job:job corrupted", "job"},
    // A's db write at 8 lands; its index write, due at 10, goes out at 19 after B's two
    {"two-resources-partial", true, "A:A accepted, B:B accepted, B:B accepted, A:A rejected",
     "B,B"},
    {"two-resources-partial", false, "A:A accepted, B:B accepted, B:B accepted, A:A corrupted",
     "B,A"},
    // A read version 0 at 1; B read 0 and wrote at 13 (version 1); A's write at 17 expects 0
    {"compare-and-set-version", true, "B:B accepted, A:A rejected", "B"},
    {"compare-and-set-version", false, "B:B accepted, A:A corrupted", "A"},
    {"reentrant-holder-lt", true, "A:A1 accepted, A:A2 accepted", "A2"},
    {"reentrant-holder-lt", false, "A:A1 accepted, A:A2 accepted", "A2"},
    {"reentrant-holder-le", true, "A:A1 accepted, A:A2 lockedOut", "A1"},
    {"reentrant-holder-le", false, "A:A1 accepted, A:A2 accepted", "A2"},
    // section 15.4: etcd's own fenced write, a Txn guarded by the writer's key: A's key went
    // with its lease at 10, so its write at its thaw at 15 is refused before anyone holds the
    // lock again; B's at 19 lands
    {"etcd-owner-txn", true, "A:A rejected, B:B accepted", "B"},
    {"etcd-owner-txn", false, "A:A accepted, B:B accepted", "B"},
    // section 15.5: the store records B's token at 12 and refuses every other: A's stale one
    // at 20, and C's at 23 although C holds the lock (locked out)
    {"different-is-not-lower", true, "B:B accepted, A:A rejected, C:C lockedOut", "B"},
    {"different-is-not-lower", false, "B:B accepted, A:A corrupted, C:C accepted", "C"},
    // the same stories with the storages in PostgreSQL: UPDATE ... WHERE max_token <= token
    {"default", true, "B:B accepted, A:A rejected", "B", true},
    {"default", false, "B:B accepted, A:A corrupted", "A", true},
    {"le-locks-out-holder", true, "A:A1 accepted, A:A2 lockedOut, B:B accepted", "B", true},
    {"compare-and-set-version", true, "B:B accepted, A:A rejected", "B", true},
    {"two-resources-partial", true, "A:A accepted, B:B accepted, B:B accepted, A:A rejected", "B,B",
     true},
    {"different-is-not-lower", true, "B:B accepted, A:A rejected, C:C lockedOut", "B", true},
};

QString observedWrites(const Live::LiveResult &r)
{
    QStringList out;
    const Trace &t = r.observed;
    for (const Event &e : t.events)
        if (e.kind == EventKind::WriteArrived) {
            const Write &w = t.writes[e.ref];
            out << QStringLiteral("%1:%2 %3")
                       .arg(r.scenario.clients[w.client].name, writeValue(r.scenario, w),
                            toString(w.result));
        }
    return out.join(QLatin1String(", "));
}

QString observedFinals(const Live::LiveResult &r)
{
    QStringList out;
    for (const StorageState &f : r.observed.finals)
        out << f.value;
    return out.join(QLatin1Char(','));
}

QString divergences(const Live::LiveResult &r)
{
    QStringList out;
    for (const Live::Divergence &d : r.divergences)
        out << QStringLiteral("  %1%2: %3")
                   .arg(d.disagreement ? QStringLiteral("DISAGREEMENT ") : QString(),
                        Live::toString(d.kind), d.text);
    return out.join(QLatin1Char('\n'));
}

QString caseName(const Case &c)
{
    return QStringLiteral("%1 %2").arg(
        QLatin1String(c.preset), c.fencing ? QStringLiteral("fenced") : QStringLiteral("unfenced"));
}

} // namespace

class TestLivePresets : public QObject
{
    Q_OBJECT

    TestSupport::OwnRunBase m_ownBase; // (first: every run of this test makes its folders there)

private:
    // Runs `cases` on `etcd` (empty: each on a throwaway etcd of its own), each started once the
    // one before is under way. Returns their results in order.
    std::vector<Live::LiveResult> runAll(const std::vector<const Case *> &cases, const QUrl &etcd)
    {
        std::vector<Live::LiveResult> results(cases.size());
        std::vector<std::unique_ptr<Live::LiveRun>> runs;
        std::size_t done = 0;
        QEventLoop loop;
        std::function<void(std::size_t)> startAt = [&](std::size_t i) {
            if (i >= cases.size())
                return;
            Live::LiveOptions o;
            o.etcd = etcd;
            o.fencing = cases[i]->fencing;
            o.store = cases[i]->postgres ? Live::Store::Postgres : Live::Store::Etcd;
            o.laneProgram = TestSupport::liveHelper();
            runs.push_back(
                std::make_unique<Live::LiveRun>(TestSupport::preset(cases[i]->preset), o));
            Live::LiveRun *run = runs.back().get();
            auto next = std::make_shared<bool>(false);
            const auto startNext = [&startAt, i, next] {
                if (!*next) {
                    *next = true;
                    startAt(i + 1);
                }
            };
            connect(run, &Live::LiveRun::progress, &loop, startNext);
            connect(run, &Live::LiveRun::finished, &loop,
                    [&, i, startNext](const Live::LiveResult &r) {
                        results[i] = r;
                        startNext();
                        if (++done == cases.size())
                            loop.quit();
                    });
            run->start();
        };
        startAt(0);
        QTimer::singleShot(300000, &loop, &QEventLoop::quit);
        loop.exec();
        for (const auto &run : runs)
            if (run->isRunning())
                run->cancel();
        return results;
    }

    // What every run must show.
    void checkResult(const Case &c, const Live::LiveResult &r)
    {
        const QString name = caseName(c);
        QVERIFY2(r.ran(), qPrintable(name + QLatin1String(": ") + r.error));
        QVERIFY2(r.complete, qPrintable(name + QLatin1String(": ") + r.stopped));
        QCOMPARE(r.etcdVersion.left(4), QStringLiteral("3.4."));
        QVERIFY2(
            r.verdict == Live::Verdict::Agreed,
            qPrintable(QStringLiteral("%1: %2\n%3").arg(name, r.verdictText(), divergences(r))));
        QCOMPARE(observedWrites(r), QString::fromLatin1(c.writes));
        QCOMPARE(observedFinals(r), QString::fromLatin1(c.finals));
        // storages in PostgreSQL take no revision of etcd's: no token gap comes from them
        if (c.postgres)
            for (const Live::Divergence &d : r.divergences)
                QVERIFY2(!d.text.contains(QLatin1String("storages' writes")), qPrintable(d.text));
        // tokens only grow, grant after grant (etcd's revisions)
        Token last = 0;
        for (const Grant &g : r.observed.grants)
            if (!g.renewal) {
                QVERIFY2(g.token > last, qPrintable(name));
                last = g.token;
            }
    }

private slots:
    void initTestCase()
    {
        m_foldersBefore = TestSupport::runFolders();
        QVERIFY2(!Live::EtcdServer::program().isEmpty(),
                 qPrintable(Live::EtcdServer::missingMessage()));
        m_etcd = std::make_unique<Live::EtcdServer>();
        QSignalSpy ready(m_etcd.get(), &Live::EtcdServer::ready);
        QSignalSpy failed(m_etcd.get(), &Live::EtcdServer::failed);
        m_etcd->start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() || !failed.isEmpty(), 30000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    }

    void presetsOnEtcd()
    {
        std::vector<const Case *> cases;
        for (const Case &c : kCases)
            cases.push_back(&c);
        QElapsedTimer clock;
        clock.start();
        std::vector<Live::LiveResult> results = runAll(cases, m_etcd->url());
        qInfo("%zu runs on one etcd: %.1f s", cases.size(), clock.elapsed() / 1000.0);
        // a run that could not be judged (an action ran late) runs again alone, twice at most
        for (std::size_t i = 0; i < cases.size(); ++i)
            for (int again = 0; again < 2 && results[i].verdict == Live::Verdict::Unjudged;
                 ++again) {
                qInfo("%s ran late, again alone:\n%s", qPrintable(caseName(*cases[i])),
                      qPrintable(divergences(results[i])));
                results[i] = runAll({cases[i]}, m_etcd->url()).front();
            }
        for (std::size_t i = 0; i < cases.size(); ++i)
            checkResult(*cases[i], results[i]);
        // nothing of the runs is left: the one etcd is the test's
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{m_etcd->processId()});
        if (qEnvironmentVariableIsEmpty("FENCESCOPE_LIVE_FULL"))
            return;
        // the long form: each alone on an etcd of its own, where tokens differ from the
        // prediction only by the storages' own writes
        for (const Case *c : cases) {
            const Live::LiveResult r = runAll({c}, QUrl()).front();
            checkResult(*c, r);
            QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{m_etcd->processId()});
            for (const Live::Divergence &d : r.divergences)
                if (d.kind == Live::DivergenceKind::TokenGap)
                    QVERIFY2(!d.text.contains(QLatin1String("outside")), qPrintable(d.text));
        }
    }

    void cleanupTestCase()
    {
        m_etcd.reset();
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{});
        QCOMPARE(TestSupport::runFolders(), m_foldersBefore);
    }

private:
    std::unique_ptr<Live::EtcdServer> m_etcd;
    QStringList m_foldersBefore;
};

QTEST_GUILESS_MAIN(TestLivePresets)
#include "tst_livepresets.moc"
