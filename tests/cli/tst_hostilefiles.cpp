// Every file of the corrupted-input corpus through the real CLI: refused with one line naming
// the place, or (for the odd-but-valid few) simulated; never a crash, never a hang.

#include "hostilefiles.h"

#include <QFileInfo>
#include <QProcess>
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
};

QTEST_GUILESS_MAIN(TestHostileFiles)
#include "tst_hostilefiles.moc"
