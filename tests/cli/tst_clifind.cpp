// fencescope-cli find, driven as a real process: the failing schedule it finds for each kind of
// failure asked for, shrunk (or not), the scenario file it writes (which loads, fails as
// promised and tells how it was made), the same file for the same search, and exit status 1
// with nothing written when there is nothing to find.

#include "clirun.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Result = CliProcess::Result;
using CliRun::parseObject;
using CliRun::readAll;
using CliRun::scenarioPath;

Result cli(const QStringList &args)
{
    return CliProcess::run(QStringLiteral(FENCESCOPE_CLI), args);
}

int actionCount(const QJsonObject &scenario)
{
    int n = 0;
    for (const QJsonValue &c : scenario.value(QStringLiteral("clients")).toArray())
        n += int(c.toObject().value(QStringLiteral("actions")).toArray().size());
    return n;
}

} // namespace

class TestCliFind : public QObject
{
    Q_OBJECT

private slots:
    void findWritesAShrunkScenario()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("found.json"));
        const QStringList args{QStringLiteral("find"),      scenarioPath(QStringLiteral("default")),
                               QStringLiteral("--failure"), QStringLiteral("corrupted"),
                               QStringLiteral("--fencing"), QStringLiteral("off"),
                               QStringLiteral("--seed"),    QStringLiteral("3"),
                               QStringLiteral("-o"),        out};
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QByteArray());
        const QStringList lines =
            QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        // tst_shrink works the search and the shrink out: schedule 1070 is the first with a
        // stale corrupted write, 12 steps take it to A's acquire (ttl 3), its pause at 2 for 2
        // ticks, its write due at 2; B's acquire and write at 3
        QCOMPARE(lines.value(0), QStringLiteral("found schedule 1070 of seed 3 (a stale "
                                                "corrupted write with fencing off, 6 actions) "
                                                "after 1071 tries"));
        QVERIFY(lines.value(1).startsWith(QLatin1String("shrunk to 5 actions in 12 steps (")));
        QCOMPARE(lines.size(), 2 + 12 + 1);
        QCOMPARE(lines.value(2).left(5), QStringLiteral("  1. "));
        // the failure in the simulator's words: A's write, after B's token 2
        QVERIFY2(lines.last().startsWith(QLatin1String("the failure: t=4: A wrote 'A2' with "
                                                       "token 1")),
                 qPrintable(lines.last()));

        // a scenario file that loads, fails as promised, and tells how it was made
        const QJsonObject file = parseObject(readAll(out));
        QCOMPARE(file.value(QStringLiteral("fencing")), QJsonValue(false));
        const QString description = file.value(QStringLiteral("description")).toString();
        QVERIFY2(description.contains(QLatin1String("of seed 3 shaped like \"Paused client wakes")),
                 qPrintable(description));
        QVERIFY(description.contains(QLatin1String("Shrunk to 1-minimal")));
        QVERIFY(description.contains(lines.value(2).mid(5)));
        QVERIFY(description.contains(QLatin1String(
            "the first of 1071 tried with a stale corrupted write with fencing off")));
        const Result run = cli({QStringLiteral("run"), out});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = parseObject(run.out);
        QCOMPARE(report.value(QStringLiteral("summary"))
                     .toObject()
                     .value(QStringLiteral("corrupted"))
                     .toInt(),
                 1);
        // the stale write: A's, granted token 1, expired, after B's token 2
        const QJsonObject stale =
            report.value(QStringLiteral("writes")).toArray().last().toObject();
        QCOMPARE(stale.value(QStringLiteral("client")).toString(), QStringLiteral("A"));
        QCOMPARE(stale.value(QStringLiteral("token")).toInt(), 1);
        QCOMPARE(stale.value(QStringLiteral("expired")).toBool(), true);
        QCOMPARE(stale.value(QStringLiteral("result")).toString(), QStringLiteral("corrupted"));

        // any corrupted write will do: the first such schedule, 2, shrinks to A writing
        // untagged (README's example as it was)
        const Result any = cli(args + QStringList{QStringLiteral("--any")});
        QCOMPARE(any.exitCode, 0);
        QVERIFY(any.out.startsWith("found schedule 2 of seed 3 (a corrupted write with fencing "
                                   "off, 6 actions) after 3 tries\nshrunk to 3 actions in 6 "
                                   "steps"));
        QVERIFY(any.out.contains("\nthe failure: t=1: A wrote 'A1' without a token"));
        QVERIFY(readAll(out).contains("\"do\": \"write\", \"value\": \"A1\""));

        // the same search again: the same lines, the same file
        const Result again = cli(args);
        QCOMPARE(again.out, r.out);
        const QByteArray first = readAll(out);
        QCOMPARE(cli(args).exitCode, 0);
        QCOMPARE(readAll(out), first);

        // unshrunk: the schedule as found, larger; its failure named
        const Result raw = cli(args + QStringList{QStringLiteral("--no-shrink")});
        QCOMPARE(raw.exitCode, 0);
        QCOMPARE(raw.out.count('\n'), 2);
        QVERIFY(raw.out.startsWith(r.out.left(r.out.indexOf('\n') + 1))); // the same first line
        QVERIFY(raw.out.contains("\nthe failure: "));
        QVERIFY(actionCount(parseObject(readAll(out))) > actionCount(parseObject(first)));
        QVERIFY(lines.value(0).contains(
            QStringLiteral(", %1 actions)").arg(actionCount(parseObject(readAll(out))))));
    }

    // A fenced corruption on a pitfall preset: the volatile max_token of a JournalNode that
    // restarts. Found, shrunk, saved; the file still corrupts with fencing on, keeps the
    // volatile storage and its restart.
    void findFencedCorruptionOnVolatileStorage()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("found.json"));
        const Result r = cli(
            {QStringLiteral("find"), scenarioPath(QStringLiteral("journalnode-volatile-max-token")),
             QStringLiteral("--failure"), QStringLiteral("corrupted"), QStringLiteral("--fencing"),
             QStringLiteral("on"), QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("(a stale corrupted write with fencing on"), r.out.constData());
        QVERIFY(r.out.contains("\nshrunk to "));
        const QJsonObject file = parseObject(readAll(out));
        const QJsonObject storage =
            file.value(QStringLiteral("storages")).toArray().first().toObject();
        QCOMPARE(storage.value(QStringLiteral("maxToken")), QJsonValue(QStringLiteral("volatile")));
        QCOMPARE(storage.value(QStringLiteral("restarts")).toArray(), QJsonArray({12}));
        const Result run = cli({QStringLiteral("run"), out, QStringLiteral("--summary")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(parseObject(run.out)
                    .value(QStringLiteral("summary"))
                    .toObject()
                    .value(QStringLiteral("corrupted"))
                    .toInt() > 0);
    }

    // --failure partial on two-resources-partial: a half-applied update, with fencing on.
    void findPartial()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("partial.json"));
        const Result r = cli(
            {QStringLiteral("find"), scenarioPath(QStringLiteral("two-resources-partial")),
             QStringLiteral("--failure"), QStringLiteral("partial"), QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("(a half-applied update with fencing on"), r.out.constData());
        const Result run = cli({QStringLiteral("run"), out, QStringLiteral("--summary")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(parseObject(run.out)
                     .value(QStringLiteral("summary"))
                     .toObject()
                     .value(QStringLiteral("partial"))
                     .toInt(),
                 1);
    }

    // Fenced with rule lt and counter tokens: nothing to find, exit 1, no file.
    void findNothing()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("found.json"));
        const Result r =
            cli({QStringLiteral("find"), scenarioPath(QStringLiteral("default")),
                 QStringLiteral("--runs"), QStringLiteral("3000"), QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(r.err, QByteArray("fencescope-cli: find: no stale corrupted write with fencing "
                                   "on in 3000 schedules of seed 1\n"));
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestCliFind)
#include "tst_clifind.moc"
