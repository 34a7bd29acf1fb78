// fencescope-cli sweep, driven as a real process: the numbers of a fixed sweep of the seed's
// scenario worked out by hand, the same output for a seed on any number of threads, CSV and
// JSON, "-" for standard output (find's too), and exit status 0/2/1 with one line on stderr
// for sweep's and find's bad usage. What find finds and the file it writes: tst_clifind.

#include "clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

using Result = CliProcess::Result;
using CliRun::parseObject;
using CliRun::readAll;
using CliRun::scenarioPath;

Result cliIn(const QString &folder, const QStringList &args)
{
    CliProcess::Options o;
    o.workingDirectory = folder; // empty: the test's own
    return CliProcess::run(QStringLiteral(FENCESCOPE_CLI), args, o);
}

Result cli(const QStringList &args)
{
    return cliIn({}, args);
}

// CSV rows as column name -> values, one per row.
QMap<QString, QStringList> columns(const QByteArray &csv)
{
    QMap<QString, QStringList> table;
    QStringList lines = QString::fromUtf8(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return table;
    const QStringList header = lines.takeFirst().split(QLatin1Char(','));
    for (const QString &line : lines) {
        const QStringList cells = line.split(QLatin1Char(','));
        for (int i = 0; i < header.size(); ++i)
            table[header[i]] << cells.value(i);
    }
    return table;
}

} // namespace

class TestCliSweep : public QObject
{
    Q_OBJECT

private slots:
    // The seed's scenario itself: A's write goes out at 1 + pause and lands after B's epoch-2
    // write at 13 from pause 13 on (corrupted unfenced, rejected fenced); see tst_sweep.
    void fixedSweepOfTheSeedScenario()
    {
        const Result r = cli({QStringLiteral("sweep"), scenarioPath(QStringLiteral("default")),
                              QStringLiteral("--vary"), QStringLiteral("pause=10..16"),
                              QStringLiteral("--fixed")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QByteArray()); // not a terminal: no progress
        const auto table = columns(r.out);
        QCOMPARE(table.value(QStringLiteral("pause")),
                 QStringList({"10", "11", "12", "13", "14", "15", "16"}));
        QCOMPARE(table.value(QStringLiteral("runs")), QStringList(7, QStringLiteral("1")));
        QCOMPARE(table.value(QStringLiteral("unfenced_corrupted")),
                 QStringList({"0", "0", "0", "1", "1", "1", "1"}));
        QCOMPARE(table.value(QStringLiteral("fenced_corrupted")),
                 QStringList(7, QStringLiteral("0")));
        QCOMPARE(table.value(QStringLiteral("fenced_rejected")),
                 QStringList({"0", "0", "0", "1", "1", "1", "1"}));
        QCOMPARE(table.value(QStringLiteral("unfenced_corrupted_first")),
                 QStringList({"", "", "", "0", "0", "0", "0"}));
        // Wilson, 1 of 1: d = 1 + 3.8416 = 4.8416, centre = 2.9208 / d = 0.603272,
        // half = 1.96 / d * sqrt(3.8416 / 4) = 0.396728: [0.206543, 1]; 0 of 1: [0, 0.793457]
        QCOMPARE(table.value(QStringLiteral("unfenced_corrupted_low")).value(3),
                 QStringLiteral("0.206543"));
        QCOMPARE(table.value(QStringLiteral("unfenced_corrupted_high")).value(0),
                 QStringLiteral("0.793457"));
        QCOMPARE(table.value(QStringLiteral("unfenced_corrupted_share")).value(3),
                 QStringLiteral("1.000000"));
        QVERIFY(r.out.startsWith("pause,runs,unfenced_corrupted,unfenced_corrupted_share,"
                                 "unfenced_corrupted_low,unfenced_corrupted_high,"
                                 "unfenced_corrupted_first,unfenced_corrupted_worst,"
                                 "unfenced_lockedOut,"));
    }

    void sameOutputOnAnyThreadCount()
    {
        // 3,000 schedules a point; 300 under FENCESCOPE_QUICK (sanitizer builds)
        const QString runs = qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? QStringLiteral("300")
                                                                           : QStringLiteral("3000");
        const QStringList args{QStringLiteral("sweep"),
                               scenarioPath(QStringLiteral("three-owners")),
                               QStringLiteral("--vary"),
                               QStringLiteral("pause=1..40:6"),
                               QStringLiteral("--vary2=ttl=5,10,20"),
                               QStringLiteral("--runs"),
                               runs,
                               QStringLiteral("--seed"),
                               QStringLiteral("7")};
        const Result one =
            cli(args + QStringList{QStringLiteral("--threads"), QStringLiteral("1")});
        const Result two =
            cli(args + QStringList{QStringLiteral("--threads"), QStringLiteral("2")});
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(two.exitCode, 0);
        QCOMPARE(one.out, two.out);
        QCOMPARE(cli(args).out, one.out);
        const auto table = columns(one.out);
        QCOMPARE(table.value(QStringLiteral("pause")).size(), 7 * 3);
        QCOMPARE(table.value(QStringLiteral("ttl")).mid(6, 3), QStringList({"5", "10", "10"}));
        QCOMPARE(table.value(QStringLiteral("runs")), QStringList(21, runs));
        QCOMPARE(table.value(QStringLiteral("fenced_corrupted")),
                 QStringList(21, QStringLiteral("0")));
        QVERIFY(table.value(QStringLiteral("unfenced_corrupted")) !=
                QStringList(21, QStringLiteral("0")));
        // another seed, other schedules
        QStringList other = args;
        other[other.indexOf(QStringLiteral("7"))] = QStringLiteral("8");
        QVERIFY(cli(other).out != one.out);
    }

    void jsonAndCsvFile()
    {
        const QStringList args{QStringLiteral("sweep"),  scenarioPath(QStringLiteral("default")),
                               QStringLiteral("--vary"), QStringLiteral("delay=0,5"),
                               QStringLiteral("--runs"), QStringLiteral("500")};
        const Result json = cli(args + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = parseObject(json.out);
        QCOMPARE(o.value(QStringLiteral("runs")).toInt(), 500);
        QCOMPARE(o.value(QStringLiteral("seed")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("schedules")).toString(), QStringLiteral("near"));
        QCOMPARE(o.value(QStringLiteral("jitter")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("about")).toString(),
                 QStringLiteral("Each point runs 500 schedules near the scenario: its own "
                                "actions, each client's in their order, each moved by a seeded "
                                "amount of at most 1 tick, earlier or later, with delay set to "
                                "the point's value."));
        QCOMPARE(o.value(QStringLiteral("vary")).toObject().value(QStringLiteral("quantity")),
                 QJsonValue(QStringLiteral("delay")));
        QVERIFY(o.value(QStringLiteral("vary2")).isNull());
        const QJsonArray points = o.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 2);
        const auto table = columns(cli(args).out);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject p = points[i].toObject();
            QCOMPARE(p.value(QStringLiteral("x")).toInt(), i * 5);
            const QJsonObject c = p.value(QStringLiteral("unfenced"))
                                      .toObject()
                                      .value(QStringLiteral("corrupted"))
                                      .toObject();
            // the same numbers as the CSV
            QCOMPARE(QString::number(c.value(QStringLiteral("schedules")).toInt()),
                     table.value(QStringLiteral("unfenced_corrupted")).value(i));
            QCOMPARE(QString::number(c.value(QStringLiteral("low")).toDouble(), 'f', 6),
                     table.value(QStringLiteral("unfenced_corrupted_low")).value(i));
            const double share = c.value(QStringLiteral("share")).toDouble();
            QCOMPARE(share, c.value(QStringLiteral("schedules")).toInt() / 500.0);
            QVERIFY(c.value(QStringLiteral("low")).toDouble() <= share);
            QVERIFY(c.value(QStringLiteral("high")).toDouble() >= share);
        }

        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("sweep.csv"));
        const Result file = cli(args + QStringList{QStringLiteral("--csv"), csv});
        QCOMPARE(file.exitCode, 0);
        QCOMPARE(file.out, QByteArray());
        QCOMPARE(readAll(csv), cli(args).out);
    }

    // The seed's scenario near itself (the default), pause 9..15: 0 up to a 10-tick pause, 1
    // from 14, between them the shares tst_sweep works out by hand (5/81, 24/81, 61/81 of the
    // schedules); shaped like it (the old random schedules) about 18% everywhere. --jitter and
    // --schedules name the mode in the JSON, and what its schedules are.
    void nearAndShapedSchedules()
    {
        const QStringList args{QStringLiteral("sweep"),  scenarioPath(QStringLiteral("default")),
                               QStringLiteral("--vary"), QStringLiteral("pause=9..15"),
                               QStringLiteral("--runs"), QStringLiteral("810")};
        const Result near = cli(args);
        QCOMPARE(near.exitCode, 0);
        QCOMPARE(near.err, QByteArray()); // not a terminal: no sentence, no progress
        QCOMPARE(near.out,
                 cli(args + QStringList{QStringLiteral("--schedules"), QStringLiteral("near"),
                                        QStringLiteral("--jitter"), QStringLiteral("1")})
                     .out);
        const QStringList counts = columns(near.out).value(QStringLiteral("unfenced_corrupted"));
        QCOMPARE(counts.size(), 7);
        QCOMPARE(counts.mid(0, 2), QStringList({"0", "0"}));     // 9, 10
        QCOMPARE(counts.mid(5, 2), QStringList({"810", "810"})); // 14, 15
        const double expected[] = {5 / 81.0, 24 / 81.0, 61 / 81.0};
        for (int i = 0; i < 3; ++i) {
            const double k = counts.value(2 + i).toDouble();
            const double sd = std::sqrt(810 * expected[i] * (1 - expected[i]));
            QVERIFY2(std::abs(k - 810 * expected[i]) < 4 * sd, qPrintable(counts.value(2 + i)));
        }

        const Result shaped =
            cli(args + QStringList{QStringLiteral("--schedules"), QStringLiteral("shaped")});
        QCOMPARE(shaped.exitCode, 0);
        for (const QString &share :
             columns(shaped.out).value(QStringLiteral("unfenced_corrupted_share")))
            QVERIFY2(share.toDouble() > 0.1 && share.toDouble() < 0.3, qPrintable(share));

        const QJsonObject wide =
            parseObject(cli(args + QStringList{QStringLiteral("--jitter"), QStringLiteral("3"),
                                               QStringLiteral("--json")})
                            .out);
        QCOMPARE(wide.value(QStringLiteral("jitter")).toInt(), 3);
        QVERIFY(wide.value(QStringLiteral("about"))
                    .toString()
                    .contains(QLatin1String("at most 3 ticks, earlier or later")));
        const QJsonObject fixed = parseObject(
            cli({QStringLiteral("sweep"), scenarioPath(QStringLiteral("default")),
                 QStringLiteral("--vary"), QStringLiteral("pause=13"),
                 QStringLiteral("--schedules"), QStringLiteral("fixed"), QStringLiteral("--json")})
                .out);
        QCOMPARE(fixed.value(QStringLiteral("schedules")).toString(), QStringLiteral("fixed"));
        QVERIFY(fixed.value(QStringLiteral("jitter")).isNull());
        QCOMPARE(fixed.value(QStringLiteral("runs")).toInt(), 1);
        QCOMPARE(fixed.value(QStringLiteral("about")).toString(),
                 QStringLiteral("Each point runs the scenario itself once, with pause set to the "
                                "point's value."));
    }

    void badUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("line");
        const QString def = scenarioPath(QStringLiteral("default"));
        QTest::newRow("no --vary")
            << QStringList({"sweep", def})
            << QStringLiteral("fencescope-cli: sweep: missing --vary Q=VALUES (usage: "
                              "fencescope-cli sweep FILE --vary Q=VALUES [options])");
        QTest::newRow("unknown quantity")
            << QStringList({"sweep", def, "--vary", "wind=1..3"})
            << QStringLiteral("fencescope-cli: --vary: unknown quantity \"wind\" (pause, ttl, "
                              "delay, clients, keepalive, gap, clock, lockDelay, bump)");
        QTest::newRow("clock out of range")
            << QStringList({"sweep", scenarioPath(QStringLiteral("slow-client-clock")), "--vary",
                            "clock=0..1000:100", "--fixed"})
            << QStringLiteral("fencescope-cli: --vary: clock takes 1..100000, not 0");
        QTest::newRow("gap without checks")
            << QStringList({"sweep", def, "--vary", "gap=0..3"})
            << QStringLiteral("fencescope-cli: sweep: gap: the scenario has no checked write "
                              "(\"check\": true)");
        QTest::newRow("bump without restores")
            << QStringList({"sweep", def, "--vary", "pause=1..3", "--vary2", "bump=0,1"})
            << QStringLiteral("fencescope-cli: sweep: bump: the scenario has no lock restore "
                              "(lock.restores)");
        QTest::newRow("out of range")
            << QStringList({"sweep", def, "--vary", "ttl=0..3"})
            << QStringLiteral("fencescope-cli: --vary: ttl takes 1..1000000, not 0");
        QTest::newRow("not a range")
            << QStringList({"sweep", def, "--vary2", "ttl=1..x", "--vary", "pause=1"})
            << QStringLiteral("fencescope-cli: --vary2: \"1..x\" is not FROM..TO, FROM..TO:STEP "
                              "or V1,V2,...");
        QTest::newRow("step 0")
            << QStringList({"sweep", def, "--vary", "pause=1..9:0"})
            << QStringLiteral("fencescope-cli: --vary: \"1..9:0\": the step must be at least 1");
        QTest::newRow("same quantity twice")
            << QStringList({"sweep", def, "--vary", "pause=1..9", "--vary2", "pause=3"})
            << QStringLiteral("fencescope-cli: sweep: pause is varied twice");
        QTest::newRow("csv and json")
            << QStringList({"sweep", def, "--vary", "pause=1", "--json", "--csv", "x.csv"})
            << QStringLiteral("fencescope-cli: sweep: choose --csv or --json, not both");
        QTest::newRow("runs 0") << QStringList({"sweep", def, "--vary", "pause=1", "--runs", "0"})
                                << QStringLiteral("fencescope-cli: --runs takes a whole number "
                                                  "from 1 to 10000000, not \"0\"");
        QTest::newRow("fixed with runs")
            << QStringList({"sweep", def, "--vary", "pause=1", "--fixed", "--runs", "5"})
            << QStringLiteral("fencescope-cli: sweep: --fixed runs FILE itself once per point, "
                              "not --runs schedules");
        QTest::newRow("schedules fixed with runs")
            << QStringList(
                   {"sweep", def, "--vary", "pause=1", "--schedules", "fixed", "--runs", "5"})
            << QStringLiteral("fencescope-cli: sweep: --schedules fixed runs FILE itself once "
                              "per point, not --runs schedules");
        QTest::newRow("unknown schedules")
            << QStringList({"sweep", def, "--vary", "pause=1", "--schedules", "random"})
            << QStringLiteral("fencescope-cli: --schedules takes near, shaped or fixed, not "
                              "\"random\"");
        QTest::newRow("fixed and near")
            << QStringList({"sweep", def, "--vary", "pause=1", "--fixed", "--schedules", "near"})
            << QStringLiteral("fencescope-cli: sweep: --fixed is --schedules fixed, not "
                              "--schedules near");
        QTest::newRow("jitter of shaped schedules")
            << QStringList(
                   {"sweep", def, "--vary", "pause=1", "--schedules", "shaped", "--jitter", "2"})
            << QStringLiteral("fencescope-cli: sweep: --jitter moves the actions of near "
                              "schedules, not of --schedules shaped");
        QTest::newRow("jitter of the scenario itself")
            << QStringList({"sweep", def, "--vary", "pause=1", "--fixed", "--jitter", "2"})
            << QStringLiteral("fencescope-cli: sweep: --jitter moves the actions of near "
                              "schedules, not of --schedules fixed");
        QTest::newRow("jitter 0") << QStringList(
                                         {"sweep", def, "--vary", "pause=1", "--jitter", "0"})
                                  << QStringLiteral("fencescope-cli: --jitter takes a whole "
                                                    "number from 1 to 1000000, not \"0\"");
        QTest::newRow("missing file")
            << QStringList({"sweep", "/nonexistent/x.json", "--vary", "pause=1"})
            << QStringLiteral("fencescope-cli: /nonexistent/x.json: file: cannot open "
                              "/nonexistent/x.json (No such file or directory)");
        QTest::newRow("unwritable csv")
            << QStringList({"sweep", def, "--vary", "pause=1", "--csv", "/nonexistent/x.csv"})
            << QStringLiteral("fencescope-cli: sweep: cannot write /nonexistent/x.csv: ");
        QTest::newRow("find without -o")
            << QStringList({"find", def})
            << QStringLiteral("fencescope-cli: find: missing -o OUT.json (usage: fencescope-cli "
                              "find FILE -o OUT.json [options])");
        QTest::newRow("unknown failure")
            << QStringList({"find", def, "-o", "x.json", "--failure", "slow"})
            << QStringLiteral("fencescope-cli: --failure takes corrupted, lockedOut, rejected, "
                              "partial or skipped, not \"slow\"");
    }
    void badUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, line);
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QByteArray());
        QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1, r.err.constData());
        const QString err = QString::fromUtf8(r.err).trimmed();
        if (line.endsWith(QLatin1String(": ")))
            QVERIFY2(err.startsWith(line), qPrintable(err)); // the system's reason follows
        else
            QCOMPARE(err, line);
    }

    // "-" is standard output, as it is standard input for FILE: no file named "-" is made
    void dashIsStandardOutput()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString def = scenarioPath(QStringLiteral("default"));
        const QStringList sweep{QStringLiteral("sweep"),  def,
                                QStringLiteral("--vary"), QStringLiteral("delay=0,5"),
                                QStringLiteral("--runs"), QStringLiteral("50")};
        const Result toStdout = cliIn(dir.path(), sweep + QStringList{"--csv", "-"});
        QCOMPARE(toStdout.exitCode, 0);
        QCOMPARE(toStdout.err, QByteArray());
        QVERIFY(toStdout.out.startsWith("delay,runs,")); // the CSV's header
        QCOMPARE(toStdout.out, cli(sweep).out);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("-"))));

        // find -o -: the scenario on standard output, what was found on standard error
        const QStringList find{QStringLiteral("find"),      def,
                               QStringLiteral("--failure"), QStringLiteral("corrupted"),
                               QStringLiteral("--fencing"), QStringLiteral("off"),
                               QStringLiteral("--seed"),    QStringLiteral("3")};
        const QString file = dir.filePath(QStringLiteral("found.json"));
        const Result saved = cli(find + QStringList{"-o", file});
        QCOMPARE(saved.exitCode, 0);
        const Result found = cliIn(dir.path(), find + QStringList{"-o", "-"});
        QCOMPARE(found.exitCode, 0);
        QCOMPARE(found.out, readAll(file)); // byte for byte what -o FILE saves
        QCOMPARE(found.err, saved.out);
        QVERIFY(found.err.startsWith("found schedule "));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("-"))));
    }

    // check-then-write-gap, its gap varied (tst_sweep works it out): gap 0 sends at the check,
    // t=8; from gap 1 on the send falls in the pause's frozen stretch [9, 19), waits for the
    // thaw and lands after B's token-2 write of 14: corrupted unfenced, rejected fenced, never
    // corrupted fenced. The
    // columns of the outcomes of sections 11-12 are there, skipped and partial 0 here.
    void fixedSweepOfTheGap()
    {
        const Result r =
            cli({QStringLiteral("sweep"), scenarioPath(QStringLiteral("check-then-write-gap")),
                 QStringLiteral("--vary"), QStringLiteral("gap=0..5"), QStringLiteral("--fixed")});
        QCOMPARE(r.exitCode, 0);
        const auto table = columns(r.out);
        QCOMPARE(table.value(QStringLiteral("gap")), QStringList({"0", "1", "2", "3", "4", "5"}));
        QCOMPARE(table.value(QStringLiteral("unfenced_corrupted")),
                 QStringList({"0", "1", "1", "1", "1", "1"}));
        QCOMPARE(table.value(QStringLiteral("fenced_rejected")),
                 QStringList({"0", "1", "1", "1", "1", "1"}));
        QCOMPARE(table.value(QStringLiteral("fenced_corrupted")), QStringList(6, "0"));
        QCOMPARE(table.value(QStringLiteral("fenced_skipped")), QStringList(6, "0"));
        QCOMPARE(table.value(QStringLiteral("unfenced_partial")), QStringList(6, "0"));
        QCOMPARE(table.value(QStringLiteral("fenced_partial_worst")), QStringList(6, ""));
        // five outcomes of six columns per side, after the axis and runs
        QCOMPARE(QString::fromUtf8(r.out.left(r.out.indexOf('\n'))).split(QLatin1Char(',')).size(),
                 2 + 2 * 5 * 6);
    }

    // slow-client-clock, the clock rate in thousandths: A checks at t=15 a lease of 10 got at
    // 0 and believes it while floor(rate * 15 / 1000) < 10: up to 666, then skips its write.
    void clockAndSkippedInJson()
    {
        const Result r =
            cli({QStringLiteral("sweep"), scenarioPath(QStringLiteral("slow-client-clock")),
                 QStringLiteral("--vary"), QStringLiteral("clock=665,666,667,1000"),
                 QStringLiteral("--fixed"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = parseObject(r.out);
        QCOMPARE(doc.value(QStringLiteral("vary")).toObject().value(QStringLiteral("quantity")),
                 QJsonValue(QStringLiteral("clock")));
        const QJsonArray points = doc.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 4);
        const int skipped[] = {0, 0, 1, 1};
        for (int i = 0; i < 4; ++i) {
            const QJsonObject fenced =
                points[i].toObject().value(QStringLiteral("fenced")).toObject();
            QCOMPARE(fenced.value(QStringLiteral("skipped"))
                         .toObject()
                         .value(QStringLiteral("schedules"))
                         .toInt(),
                     skipped[i]);
            QCOMPARE(fenced.value(QStringLiteral("rejected"))
                         .toObject()
                         .value(QStringLiteral("schedules"))
                         .toInt(),
                     1 - skipped[i]);
            QVERIFY(fenced.contains(QStringLiteral("partial")));
        }
    }

    void help()
    {
        const Result overview = cli({QStringLiteral("--help")});
        QVERIFY(overview.out.contains(
            "\n       fencescope-cli sweep FILE --vary Q=VALUES [--vary2 Q=VALUES] [--runs N]"));
        QVERIFY(overview.out.contains("\n  find            find a failing schedule"));
        const Result sweep = cli({QStringLiteral("help"), QStringLiteral("sweep")});
        QCOMPARE(sweep.exitCode, 0);
        for (const char *option :
             {"--vary Q=VALUES", "--vary2 Q=VALUES", "--runs N", "--seed N", "--threads N",
              "--schedules KIND", "--jitter N", "--fixed", "--csv OUT", "--json"})
            QVERIFY2(sweep.out.contains(QByteArray("\n  ") + option), option);
        const Result find = cli({QStringLiteral("find"), QStringLiteral("--help")});
        QVERIFY(find.out.startsWith("usage: fencescope-cli find FILE -o OUT.json [--failure"));
        QVERIFY(find.out.contains("\n  --any "));
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_clisweep.moc"
