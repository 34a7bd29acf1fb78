// `fencescope-cli live`, driven as a real process: the run report of the observed run with its
// "live" member, --repeat, --etcd URL, and the one-line refusals and failures with their exit
// status. Every process the CLI starts is marked by an environment variable only this test
// sets, and its run folders go to a base of the test's own: nothing may be left of either.

#include "etcdgateway.h"
#include "etcdserver.h"
#include "livesupport.h"
#include "presetfile.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Result
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QString scenarioPath(const char *name)
{
    return QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/%1.json")
        .arg(QLatin1String(name));
}

QJsonObject parse(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (!doc.isObject())
        qWarning("not a JSON object: %s\n%s", qPrintable(error.errorString()), json.constData());
    return doc.object();
}

QStringList results(const QJsonObject &report)
{
    QStringList out;
    for (const QJsonValue &w : report[QLatin1String("writes")].toArray())
        out << w[QLatin1String("value")].toString() + QLatin1Char(' ') +
                   w[QLatin1String("result")].toString();
    return out;
}

} // namespace

class TestLiveCli : public QObject
{
    Q_OBJECT

private:
    Result cli(const QStringList &args, const QProcessEnvironment &extra = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("FENCESCOPE_LIVE_TMP"), m_base.path());
        env.insert(QStringLiteral("FENCESCOPE_TEST_MARKER"), m_marker);
        for (const QString &k : extra.keys())
            env.insert(k, extra.value(k));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(FENCESCOPE_CLI), args);
        Result r;
        if (!p.waitForStarted(10000) || !p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

    // Nothing the CLI started is running, and no run folder is left.
    void nothingLeft()
    {
        QTRY_COMPARE_WITH_TIMEOUT(
            TestSupport::processesWithEnvironment("FENCESCOPE_TEST_MARKER=" + m_marker.toUtf8())
                .size(),
            std::size_t(0), 5000);
        QCOMPARE(QDir(m_base.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList());
    }

    QTemporaryDir m_base;
    QString m_marker = QString::number(QDateTime::currentMSecsSinceEpoch());

private slots:
    void initTestCase()
    {
        QVERIFY(m_base.isValid());
        // (as root, PostgreSQL runs as the postgres user, who must get through to its folder,
        // as through $TMPDIR or /dev/shm)
        QVERIFY(QFile::setPermissions(m_base.path(), QFile::ReadOwner | QFile::WriteOwner |
                                                         QFile::ExeOwner | QFile::ExeGroup |
                                                         QFile::ExeOther));
    }

    // A short preset on a throwaway etcd: the run report of section 8 of what etcd did, the
    // tokens its revisions, and what the run was. A holds the lock from t=0 (ttl 10 at the
    // default tick of 200 ms: 2 s), writes A1 at 2, renews at 3 (the same token) and writes A2
    // at 4: both accepted, equal tokens pass rule lt.
    void runReport()
    {
        const Result r = cli({QStringLiteral("live"), scenarioPath("reentrant-holder-lt")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.isEmpty());
        const QJsonObject report = parse(r.out);
        QCOMPARE(report[QLatin1String("title")].toString(),
                 TestSupport::preset("reentrant-holder-lt").title);
        QCOMPARE(report[QLatin1String("tokens")].toString(), QStringLiteral("etcd"));
        const QJsonArray grants = report[QLatin1String("grants")].toArray();
        QCOMPARE(grants.size(), 2);
        QCOMPARE(grants[1][QLatin1String("renewal")].toBool(), true);
        QCOMPARE(grants[1][QLatin1String("token")].toInt(),
                 grants[0][QLatin1String("token")].toInt());
        QCOMPARE(results(report),
                 (QStringList{QStringLiteral("A1 accepted"), QStringLiteral("A2 accepted")}));
        QCOMPARE(
            report[QLatin1String("final")][QLatin1String("db")][QLatin1String("value")].toString(),
            QStringLiteral("A2"));
        const QJsonObject live = report[QLatin1String("live")].toObject();
        QVERIFY(live[QLatin1String("etcd")].toString().startsWith(QLatin1String("3.4.")));
        QCOMPARE(live[QLatin1String("tickMs")].toDouble(), 200.0);
        QCOMPARE(live[QLatin1String("complete")].toBool(), true);
        QVERIFY(live[QLatin1String("stopped")].isNull());
        const QString verdict = live[QLatin1String("verdict")].toString();
        QVERIFY2(verdict == QLatin1String("agreed") || verdict == QLatin1String("unjudged"),
                 qPrintable(verdict));
        const QJsonObject prediction = live[QLatin1String("prediction")].toObject();
        QCOMPARE(prediction[QLatin1String("writes")].toArray().size(), 2);
        nothingLeft();
    }

    void repeat()
    {
        const Result r = cli({QStringLiteral("live"), scenarioPath("reentrant-holder-le"),
                              QStringLiteral("--repeat"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject report = parse(r.out);
        QCOMPARE(report[QLatin1String("runs")].toInt(), 2);
        QCOMPARE(report[QLatin1String("agreed")].toInt() +
                     report[QLatin1String("disagreed")].toInt() +
                     report[QLatin1String("unjudged")].toInt(),
                 2);
        QCOMPARE(report[QLatin1String("partial")].toInt(), 0);
        const QJsonArray runs = report[QLatin1String("results")].toArray();
        QCOMPARE(runs.size(), 2);
        // le: A's second write with the same token is turned away: locked out, each time
        for (const QJsonValue &run : runs)
            QCOMPARE(run[QLatin1String("summary")][QLatin1String("lockedOut")].toInt(), 1);
        nothingLeft();
    }

    // --etcd URL: a running etcd (started here), used as it is; the run's keys go afterwards.
    void givenEtcd()
    {
        Live::EtcdServer etcd;
        QSignalSpy ready(&etcd, &Live::EtcdServer::ready);
        etcd.start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 30000);
        const QString url = etcd.url().toString();
        const Result r = cli({QStringLiteral("live"), scenarioPath("reentrant-holder-lt"),
                              QStringLiteral("--etcd"), url});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(parse(r.out)[QLatin1String("live")][QLatin1String("url")].toString(), url);
        Live::EtcdGateway gateway(etcd.url());
        bool answered = false;
        QJsonObject left;
        gateway.call(
            QStringLiteral("/v3/kv/range"),
            {{QStringLiteral("key"), Live::EtcdGateway::bytes(QStringLiteral("fencescope/"))},
             {QStringLiteral("range_end"), Live::EtcdGateway::bytes(QStringLiteral("fencescope0"))},
             {QStringLiteral("count_only"), true}},
            [&](const QJsonObject &o, const QString &) {
                left = o;
                answered = true;
            });
        QTRY_VERIFY(answered);
        QCOMPARE(Live::EtcdGateway::number(left[QLatin1String("count")]), std::uint64_t(0));
        etcd.stop();
        nothingLeft();
    }

    // The storage in a throwaway PostgreSQL: the same story, etcd's tokens without the
    // storage's revisions among them (A's grant is the run's first change, its renewal keeps it).
    void postgresStore()
    {
        const Result r = cli({QStringLiteral("live"), scenarioPath("reentrant-holder-lt"),
                              QStringLiteral("--store"), QStringLiteral("postgres")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject report = parse(r.out);
        QCOMPARE(report[QLatin1String("live")][QLatin1String("store")].toString(),
                 QStringLiteral("postgres"));
        QCOMPARE(results(report),
                 (QStringList{QStringLiteral("A1 accepted"), QStringLiteral("A2 accepted")}));
        QCOMPARE(
            report[QLatin1String("final")][QLatin1String("db")][QLatin1String("maxToken")].toInt(),
            report[QLatin1String("grants")][0][QLatin1String("token")].toInt());
        const Result bad = cli({QStringLiteral("live"), scenarioPath("default"),
                                QStringLiteral("--store"), QStringLiteral("sqlite")});
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err,
                 QByteArray("fencescope-cli: --store takes etcd or postgres, not \"sqlite\"\n"));
        nothingLeft();
    }

    void refusedPreset()
    {
        const Result r = cli({QStringLiteral("live"), scenarioPath("zookeeper-failover")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith(
                     "fencescope-cli: live: " + scenarioPath("zookeeper-failover").toUtf8() +
                     ": cannot run on etcd: its tokens are ZooKeeper zxids"),
                 r.err.constData());
        nothingLeft();
    }

    void tickTooShort()
    {
        const Result r = cli({QStringLiteral("live"), scenarioPath("default"),
                              QStringLiteral("--tick-ms"), QStringLiteral("200")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("with a 200 ms tick, B's acquire at t=12 comes 2 ticks after A's "
                                "lease ends at t=10, 400 ms: it needs at least 600 ms"),
                 r.err.constData());
        const Result bad = cli({QStringLiteral("live"), scenarioPath("default"),
                                QStringLiteral("--tick-ms"), QStringLiteral("50")});
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err, QByteArray("fencescope-cli: --tick-ms takes milliseconds from 200 to "
                                     "60000 (at most three decimals), not \"50\"\n"));
        nothingLeft();
    }

    void etcdMissing()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("FENCESCOPE_ETCD"), QStringLiteral("/nonexistent/etcd"));
        const Result r = cli({QStringLiteral("live"), scenarioPath("default")}, env);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err, QByteArray("fencescope-cli: live: etcd is not installed: install the "
                                   "package etcd-server (sudo apt-get install etcd-server), or "
                                   "give --etcd URL of a running etcd\n"));
        nothingLeft();
    }

    // fencescope-cli loads no QtNetwork (and its Kerberos, libproxy, ...): live runs in the
    // live helper, which does.
    void onlyTheLiveHelperLoadsQtNetwork()
    {
        const auto libraries = [](const QString &program) {
            QProcess p;
            QProcessEnvironment env;
            env.insert(QStringLiteral("LD_TRACE_LOADED_OBJECTS"), QStringLiteral("1"));
            p.setProcessEnvironment(env);
            p.start(program, {});
            p.waitForFinished(10000);
            return p.readAllStandardOutput();
        };
        const QByteArray cli = libraries(QStringLiteral(FENCESCOPE_CLI));
        QVERIFY2(cli.contains("libQt6Core.so"), cli.constData());
        QVERIFY2(!cli.contains("libQt6Network.so"), cli.constData());
        QVERIFY(libraries(TestSupport::liveHelper()).contains("libQt6Network.so"));
    }

    void help()
    {
        const Result overview = cli({QStringLiteral("--help")});
        QVERIFY(overview.out.contains("  live "));
        QVERIFY(overview.out.contains("fencescope-cli live FILE [--etcd auto|URL]"));
        const Result r = cli({QStringLiteral("help"), QStringLiteral("live")});
        QCOMPARE(r.exitCode, 0);
        for (const char *option :
             {"--etcd auto|URL", "--tick-ms MS", "--fencing on|off", "--repeat N"})
            QVERIFY2(r.out.contains(option), option);
        const Result own = cli({QStringLiteral("live"), QStringLiteral("--help")});
        QCOMPARE(own.exitCode, 0);
        QCOMPARE(own.out, r.out);
    }
};

QTEST_GUILESS_MAIN(TestLiveCli)
#include "tst_livecli.moc"
