// Every file of the corrupted-input corpus through the real CLI: refused with one line naming
// the place, or (for the odd-but-valid few) simulated; never a crash, never a hang.

#include "hostilefiles.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestHostileFiles : public QObject
{
    Q_OBJECT
private slots:
    void corpusIsThere() { QVERIFY(HostileFiles::all().size() >= 30); }

    void cliRefusesOrRuns_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &f : HostileFiles::all())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void cliRefusesOrRuns()
    {
        QFETCH(QString, file);
        for (const QString &command : {QStringLiteral("check"), QStringLiteral("run")}) {
            QProcess p;
            QStringList args{command, file};
            if (command == QLatin1String("run"))
                args << QStringLiteral("--summary");
            p.start(QStringLiteral(FENCESCOPE_CLI), args);
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit); // no crash, no abort
            const QByteArray err = p.readAllStandardError();
            if (HostileFiles::valid().contains(QFileInfo(file).fileName())) {
                QCOMPARE(p.exitCode(), 0);
                QVERIFY(err.isEmpty());
            } else {
                QCOMPARE(p.exitCode(), 2);
                QCOMPARE(err.count('\n'), 1);
                // the message names the file and then a place: a key path, a line, or "file"
                QVERIFY2(err.contains(QFileInfo(file).fileName().toUtf8() + ": "), err.constData());
            }
        }
    }

    // The keys of docs/SCENARIO.md sections 11 and 12, wrong, through the real CLI: the whole
    // message on one line, after the file's name. (Written here, not in tests/data/invalid: the
    // loader oracle of tst_jsonsyntax reads that folder and does not know these keys yet.)
    void cliNamesThePlaceOfANewKey_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("keepalive 0")
            << QByteArray(R"({"fencescope": 1, "clients": [{"name": "A", "actions": [
                   {"at": 0, "do": "acquire", "ttl": 9, "keepalive": 0}]}]})")
            << "clients[0].actions[0].keepalive: must be a positive integer, not 0";
        QTest::newRow("gap without check")
            << QByteArray(R"({"fencescope": 1, "clients": [{"name": "A", "actions": [
                   {"at": 0, "do": "acquire", "ttl": 9}, {"at": 1, "do": "write", "value": "v", "gap": 3}]}]})")
            << "clients[0].actions[1].gap: only with \"check\": true";
        QTest::newRow("clock rate")
            << QByteArray(
                   R"({"fencescope": 1, "clients": [{"name": "A"}, {"name": "B", "clock": {"rate": 0.0005}}]})")
            << "clients[1].clock.rate: must be a number from 0.001 to 100 with at most three "
               "decimals, not 0.0005";
        QTest::newRow("maxToken")
            << QByteArray(
                   R"({"fencescope": 1, "storages": [{"name": "jn", "maxToken": "fsync"}], "clients": [{"name": "A"}]})")
            << "storages[0].maxToken: must be \"durable\" or \"volatile\", not \"fsync\"";
        QTest::newRow("restart")
            << QByteArray(
                   R"({"fencescope": 1, "storages": [{"name": "jn", "restarts": [3, -1]}], "clients": [{"name": "A"}]})")
            << "storages[0].restarts[1]: must be a non-negative integer, not -1";
        QTest::newRow("read of an unknown storage")
            << QByteArray(
                   R"({"fencescope": 1, "clients": [{"name": "A", "actions": [{"at": 0, "do": "read", "storage": "s3"}]}]})")
            << "clients[0].actions[0].storage: unknown storage \"s3\" (known: db)";
    }
    void cliNamesThePlaceOfANewKey()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("new-key.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
        f.close();
        for (const QString &command : {QStringLiteral("check"), QStringLiteral("run")}) {
            QProcess p;
            p.start(QStringLiteral(FENCESCOPE_CLI), {command, path});
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 2);
            QCOMPARE(QString::fromUtf8(p.readAllStandardError()),
                     QStringLiteral("fencescope-cli: %1: %2\n").arg(path, message));
            QVERIFY(p.readAllStandardOutput().isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestHostileFiles)
#include "tst_hostilefiles.moc"
