// When a live run goes wrong: etcd killed in the middle of a run, a client's process killed, a
// port found taken, etcd not installed, a run cancelled, a folder left by a killed app. Each
// gives its message, keeps what was observed so far (shown as partial), and leaves no child
// process and no run folder behind (checked in /proc and in the run folders' base).

#include "childprocess.h"
#include "etcdserver.h"
#include "liverun.h"
#include "livesupport.h"
#include "presetfile.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Core;

namespace {

Live::LiveOptions options()
{
    Live::LiveOptions o;
    o.laneProgram = TestSupport::liveHelper();
    return o;
}

// Runs `s` and calls `at(run)` once, when the run reaches tick `tick`; returns the result.
Live::LiveResult runUntil(const Scenario &s, Tick tick,
                          const std::function<void(Live::LiveRun &)> &at)
{
    Live::LiveRun run(s, options());
    Live::LiveResult result;
    bool finished = false, done = false;
    QObject::connect(&run, &Live::LiveRun::progress, &run, [&](Tick t, Tick, double) {
        if (!done && t >= tick) {
            done = true;
            at(run);
        }
    });
    QObject::connect(&run, &Live::LiveRun::finished, &run, [&](const Live::LiveResult &r) {
        result = r;
        finished = true;
    });
    run.start();
    QElapsedTimer clock;
    clock.start();
    while (!finished && clock.elapsed() < 60000)
        QTest::qWait(50);
    return result;
}

} // namespace

class TestLiveFaults : public QObject
{
    Q_OBJECT

    TestSupport::OwnRunBase m_ownBase; // (first: every run of this test makes its folders there)

private slots:
    void initTestCase() { m_foldersBefore = TestSupport::runFolders(); }

    // The default scenario at 300 ms a tick; etcd is killed at t=14, after B's write at 13.
    void etcdKilledMidRun()
    {
        const Live::LiveResult r =
            runUntil(TestSupport::preset("default"), 14, [](Live::LiveRun &run) {
                const std::vector<qint64> children = run.childProcesses();
                QVERIFY(!children.empty());
                ::kill(pid_t(children.front()), SIGKILL); // etcd's is the first
            });
        QVERIFY(r.ran());
        QVERIFY(!r.complete);
        QVERIFY2(r.stopped.startsWith(QLatin1String("etcd was killed at t=14")) ||
                     r.stopped.startsWith(QLatin1String("etcd was killed at t=15")),
                 qPrintable(r.stopped));
        QCOMPARE(Live::toString(r.verdict), QStringLiteral("partial"));
        QVERIFY(
            r.verdictText().startsWith(QLatin1String("The run stopped early (etcd was killed")));
        // what was observed so far: both grants, B's write; not A's, due at its thaw at 30
        QCOMPARE(r.observed.grants.size(), std::size_t(2));
        QCOMPARE(r.observed.writes.size(), std::size_t(1));
        QCOMPARE(r.observed.writes[0].client, 1u);
        QVERIFY(r.observed.lastTick < 30);
        QCOMPARE(Live::toString(r.divergences.back().kind), QStringLiteral("stopped"));
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{});
        QCOMPARE(TestSupport::runFolders(), m_foldersBefore);
    }

    // B's process is killed at t=8, after its refusal at 5 and before its grant at 12.
    void clientKilledMidRun()
    {
        const Live::LiveResult r =
            runUntil(TestSupport::preset("default"), 8, [](Live::LiveRun &run) {
                const std::vector<qint64> children = run.childProcesses();
                QCOMPARE(children.size(), std::size_t(3)); // etcd, A, B
                ::kill(pid_t(children.back()), SIGKILL);
            });
        QVERIFY(r.ran());
        QVERIFY(!r.complete);
        QVERIFY2(r.stopped.startsWith(QLatin1String("client B's process was killed at t=8")),
                 qPrintable(r.stopped));
        QCOMPARE(r.observed.grants.size(), std::size_t(1));   // A's
        QCOMPARE(r.observed.refusals.size(), std::size_t(1)); // B's at 5
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{});
        QCOMPARE(TestSupport::runFolders(), m_foldersBefore);
    }

    void cancelled()
    {
        const Live::LiveResult r = runUntil(TestSupport::preset("reentrant-holder-lt"), 3,
                                            [](Live::LiveRun &run) { run.cancel(); });
        QVERIFY(!r.complete);
        QVERIFY2(r.stopped.startsWith(QLatin1String("cancelled at t=3")), qPrintable(r.stopped));
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{});
        QCOMPARE(TestSupport::runFolders(), m_foldersBefore);
    }

    // etcd's client port is taken by someone else: it starts on another.
    void portTaken()
    {
        QTcpServer taker;
        QVERIFY(taker.listen(QHostAddress::LocalHost, 0));
        Live::EtcdServer etcd;
        etcd.setFirstClientPort(taker.serverPort());
        QSignalSpy ready(&etcd, &Live::EtcdServer::ready);
        QSignalSpy failed(&etcd, &Live::EtcdServer::failed);
        etcd.start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() || !failed.isEmpty(), 30000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QCOMPARE(etcd.attempts(), 2);
        QVERIFY(etcd.url().port() != taker.serverPort());
        QVERIFY(etcd.url().port() != 2379);
        etcd.stop();
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{});
        QCOMPARE(TestSupport::runFolders(), m_foldersBefore);
    }

    // No etcd: the one line says which package to install, and nothing starts.
    void etcdMissing()
    {
        qputenv("FENCESCOPE_ETCD", "/nonexistent/etcd");
        Live::LiveRun run(TestSupport::preset("default"), options());
        QSignalSpy finished(&run, &Live::LiveRun::finished);
        run.start();
        QTRY_COMPARE(finished.size(), 1);
        qunsetenv("FENCESCOPE_ETCD");
        const Live::LiveResult r = finished.at(0).at(0).value<Live::LiveResult>();
        QVERIFY(!r.ran());
        QCOMPARE(r.error, Live::EtcdServer::missingMessage());
        QVERIFY(r.error.contains(QLatin1String("etcd-server")));
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{});
        QCOMPARE(TestSupport::runFolders(), m_foldersBefore);
    }

    // No PostgreSQL for --store postgres: the one line says which package, before anything.
    void postgresMissing()
    {
        qputenv("FENCESCOPE_POSTGRES_BIN", "/nonexistent");
        Live::LiveOptions o = options();
        o.store = Live::Store::Postgres;
        const QString problem = Live::LiveRun::check(TestSupport::preset("default"), o);
        qunsetenv("FENCESCOPE_POSTGRES_BIN");
        QCOMPARE(problem, QStringLiteral("PostgreSQL is not installed: install the package "
                                         "postgresql (sudo apt-get install postgresql)"));
    }

    // The app killed in the middle of a run: its etcd and its lanes die with it (they asked
    // the kernel for SIGKILL when their parent goes), its folder stays, and the next start
    // removes it. The app here is the live helper running `live`, its folders in a base of the
    // test's own, each of its processes marked by an environment variable.
    void killedAppLeavesNothingRunning()
    {
        QTemporaryDir base;
        QVERIFY(base.isValid());
        const QByteArray marker =
            "FENCESCOPE_TEST_MARKER=" + QByteArray::number(QDateTime::currentMSecsSinceEpoch());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("FENCESCOPE_LIVE_TMP"), base.path());
        env.insert(QString::fromLatin1(marker.split('=').first()),
                   QString::fromLatin1(marker.split('=').last()));
        QProcess app;
        app.setProcessEnvironment(env);
        app.start(TestSupport::liveHelper(),
                  {QStringLiteral("live"),
                   QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/default.json")});
        QVERIFY(app.waitForStarted());
        // running: the app, etcd and the two lanes
        QTRY_COMPARE_WITH_TIMEOUT(TestSupport::processesWithEnvironment(marker).size(),
                                  std::size_t(4), 30000);
        const QStringList folders =
            QDir(base.path())
                .entryList({Live::RunFolder::namePattern()}, QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(folders.size(), 1);
        ::kill(pid_t(app.processId()), SIGKILL);
        QVERIFY(app.waitForFinished());
        QTRY_COMPARE_WITH_TIMEOUT(TestSupport::processesWithEnvironment(marker).size(),
                                  std::size_t(0), 10000);
        QVERIFY(QFileInfo::exists(base.filePath(folders.front())));
        // the next start: a live run's folder of this process is kept, the stale one goes
        qputenv("FENCESCOPE_LIVE_TMP", base.path().toUtf8());
        {
            Live::RunFolder mine;
            QVERIFY(mine.isValid());
            QCOMPARE(Live::RunFolder::removeStale(), 1);
            QVERIFY(!QFileInfo::exists(base.filePath(folders.front())));
            QVERIFY(QFileInfo::exists(mine.path()));
        }
        qputenv("FENCESCOPE_LIVE_TMP", m_ownBase.path().toUtf8());
    }

    void cleanupTestCase()
    {
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{});
        QCOMPARE(TestSupport::runFolders(), m_foldersBefore);
    }

private:
    QStringList m_foldersBefore;
};

QTEST_GUILESS_MAIN(TestLiveFaults)
#include "tst_livefaults.moc"
