// fencescope-cli, driven as a real process: the run report of docs/SCENARIO.md section 8, exit
// status 0/2/1 with exactly one line on stderr for bad input, `check`, and `-` for standard
// input. Expected reports are worked out by hand from the scenario files (see the comments), not
// copied from the program. Every built-in scenario's report: tst_clibuiltins; the options, usage
// errors and help of every command: tst_cliusage.

#include "clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using namespace CliRun;

// docs/SCENARIO.md section 8, with the real title of the section 7 file.
// Section 8's example; sections 13 and 14 add skipped, lost, groups and reads, section 15.3
// rearms (always present), and the summary's skipped and partial counts.
const char kSpecReport[] = R"({
  "title": "Paused client wakes after its lease expired", "fencing": true,
  "grants":   [ { "client": "A", "at": 0, "token": 1, "epoch": 1, "renewal": false, "expires": 10 },
                { "client": "B", "at": 12, "token": 2, "epoch": 2, "renewal": false, "expires": 22 } ],
  "refusals": [ { "client": "B", "at": 5, "holder": "A" } ],
  "writes": [
    { "client": "B", "value": "B", "storage": "db", "sentAt": 13, "arrivedAt": 13,
      "token": 2, "epoch": 2, "result": "accepted", "maxToken": 2, "expired": false },
    { "client": "A", "value": "A", "storage": "db", "sentAt": 30, "arrivedAt": 30,
      "token": 1, "epoch": 1, "result": "rejected", "maxToken": 2, "expired": true } ],
  "skipped": [], "lost": [], "groups": [], "reads": [], "rearms": [],
  "final": { "db": { "value": "B", "maxToken": 2 } },
  "summary": { "accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0,
               "skipped": 0, "partial": 0 }
})";

// The same schedule unfenced: both writes applied, max_token never moves, A's epoch 1 lands
// after epoch 2 and overwrites B.
const char kSpecReportUnfenced[] = R"({
  "title": "Paused client wakes after its lease expired", "fencing": false,
  "grants":   [ { "client": "A", "at": 0, "token": 1, "epoch": 1, "renewal": false, "expires": 10 },
                { "client": "B", "at": 12, "token": 2, "epoch": 2, "renewal": false, "expires": 22 } ],
  "refusals": [ { "client": "B", "at": 5, "holder": "A" } ],
  "writes": [
    { "client": "B", "value": "B", "storage": "db", "sentAt": 13, "arrivedAt": 13,
      "token": 2, "epoch": 2, "result": "accepted", "maxToken": 0, "expired": false },
    { "client": "A", "value": "A", "storage": "db", "sentAt": 30, "arrivedAt": 30,
      "token": 1, "epoch": 1, "result": "corrupted", "maxToken": 0, "expired": true } ],
  "skipped": [], "lost": [], "groups": [], "reads": [], "rearms": [],
  "final": { "db": { "value": "A", "maxToken": 0 } },
  "summary": { "accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0,
               "skipped": 0, "partial": 0 }
})";

// tests/data/untagged-two-storages.json with --fencing on. Arrival order: u@0, a1@2, a3@4,
// a2@5 (sent 3, delay 2), b@6.
// u: A never held the lock -> untagged -> rejected (max 0). a1: db (lt) 1 >= 0 -> accepted,
// max 1. a3: log (le) 1 > 0 -> accepted, max 1. a2: log (le) 1 <= 1 -> refused while A is the
// live holder of epoch 1 (lease [1,11)) -> lockedOut. b: B never held it -> untagged, rejected
// with max 1.
const char kUntaggedFenced[] = R"({
  "title": "Untagged writes and two storages", "fencing": true,
  "grants": [ { "client": "A", "at": 1, "token": 1, "epoch": 1, "renewal": false, "expires": 11 } ],
  "refusals": [],
  "writes": [
    { "client": "A", "value": "u", "storage": "log", "sentAt": 0, "arrivedAt": 0,
      "token": null, "epoch": 0, "result": "rejected", "maxToken": 0, "expired": false },
    { "client": "A", "value": "a1", "storage": "db", "sentAt": 2, "arrivedAt": 2,
      "token": 1, "epoch": 1, "result": "accepted", "maxToken": 1, "expired": false },
    { "client": "A", "value": "a3", "storage": "log", "sentAt": 4, "arrivedAt": 4,
      "token": 1, "epoch": 1, "result": "accepted", "maxToken": 1, "expired": false },
    { "client": "A", "value": "a2", "storage": "log", "sentAt": 3, "arrivedAt": 5,
      "token": 1, "epoch": 1, "result": "lockedOut", "maxToken": 1, "expired": false },
    { "client": "B", "value": "b", "storage": "log", "sentAt": 6, "arrivedAt": 6,
      "token": null, "epoch": 0, "result": "rejected", "maxToken": 1, "expired": false } ],
  "skipped": [], "lost": [], "groups": [], "reads": [], "rearms": [],
  "final": { "db": { "value": "a1", "maxToken": 1 }, "log": { "value": "a3", "maxToken": 1 } },
  "summary": { "accepted": 2, "rejected": 2, "corrupted": 0, "lockedOut": 1,
               "skipped": 0, "partial": 0 }
})";

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QStringLiteral(FENCESCOPE_CLI)), FENCESCOPE_CLI);
    }

    // ---- run: docs/SCENARIO.md section 8 --------------------------------------------------------

    void runMatchesTheSpecDocument()
    {
        const Result r = cli({QStringLiteral("run"), scenarioPath(QStringLiteral("default"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        // Note: section 8 of docs/SCENARIO.md lists only A's grant; the file's B also gets token 2
        // at 12 and "grants" holds every grant, so both are expected here.
        QCOMPARE(parseObject(r.out), object(kSpecReport));
    }

    void runUnfenced_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("--fencing off") << QStringList({"--fencing", "off"});
        QTest::newRow("--fencing=off") << QStringList({"--fencing=off"});
        QTest::newRow("option first") << QStringList({"--fencing", "off"});
    }
    void runUnfenced()
    {
        QFETCH(QStringList, options);
        QStringList args{QStringLiteral("run")};
        if (QByteArray(QTest::currentDataTag()) == "option first")
            args << options << scenarioPath(QStringLiteral("default"));
        else
            args << scenarioPath(QStringLiteral("default")) << options;
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(parseObject(r.out), object(kSpecReportUnfenced));
    }

    void fencingOnOverridesTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("off.json"));
        QByteArray text = readAll(scenarioPath(QStringLiteral("default")));
        text.replace("\"fencing\": true", "\"fencing\": false");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        Result r = cli({QStringLiteral("run"), path});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(parseObject(r.out).value(QStringLiteral("fencing")), QJsonValue(false));
        QCOMPARE(parseObject(r.out).value(QStringLiteral("summary")).toObject().value(
                     QStringLiteral("corrupted")),
                 QJsonValue(1));
        r = cli({QStringLiteral("run"), path, QStringLiteral("--fencing"), QStringLiteral("on")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(parseObject(r.out), object(kSpecReport));
    }

    void untaggedWritesPrintNullTokens()
    {
        const Result r = cli({QStringLiteral("run"), dataPath(QStringLiteral("untagged-two-storages.json")),
                              QStringLiteral("--fencing=on")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(parseObject(r.out), object(kUntaggedFenced));

        // the file's own setting, unfenced: everything applied, max_token stays 0. On log the
        // untagged b (epoch 0) lands after epoch 1 was applied -> corrupted; the rest accepted.
        const Result open = cli({QStringLiteral("run"), dataPath(QStringLiteral("untagged-two-storages.json"))});
        QCOMPARE(open.exitCode, 0);
        const QJsonObject o = parseObject(open.out);
        QCOMPARE(o.value(QStringLiteral("summary")).toObject(),
                 object(R"({"accepted": 4, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})"));
        QCOMPARE(o.value(QStringLiteral("final")).toObject(),
                 object(R"({"db": {"value": "a1", "maxToken": 0}, "log": {"value": "b", "maxToken": 0}})"));
        const QJsonArray writes = o.value(QStringLiteral("writes")).toArray();
        QCOMPARE(writes.size(), 5);
        QVERIFY(writes.at(0).toObject().value(QStringLiteral("token")).isNull());
        QCOMPARE(writes.at(4).toObject().value(QStringLiteral("result")).toString(),
                 QStringLiteral("corrupted"));
    }

    void summaryOnly()
    {
        const Result r = cli({QStringLiteral("run"), QStringLiteral("--summary"),
                              scenarioPath(QStringLiteral("default"))});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = parseObject(r.out);
        QCOMPARE(o.keys(), QStringList({"fencing", "final", "summary", "title"}));
        QJsonObject expected = object(kSpecReport);
        for (const char *key : {"grants", "refusals", "writes", "skipped", "lost", "groups", "reads", "rearms"})
            expected.remove(QLatin1String(key));
        QCOMPARE(o, expected);
    }

    // --summary and --fencing in either form, before or after FILE, and FILE after "--"
    void runOptionForms()
    {
        const QString def = scenarioPath(QStringLiteral("default"));
        const QJsonObject unfenced = object(kSpecReportUnfenced);
        for (const QStringList &args :
             {QStringList{"run", def, "--fencing", "off"}, QStringList{"run", "--fencing=off", def},
              QStringList{"run", "--fencing", "off", "--", def}}) {
            const Result r = cli(args);
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(parseObject(r.out), unfenced);
        }
        const Result on = cli({QStringLiteral("run"), QStringLiteral("--fencing=on"), def});
        QCOMPARE(parseObject(on.out), object(kSpecReport));
        // the last of a repeated option counts
        const Result twice = cli({QStringLiteral("run"), def, QStringLiteral("--fencing=on"),
                                  QStringLiteral("--fencing"), QStringLiteral("off")});
        QCOMPARE(parseObject(twice.out), unfenced);
        const Result summary = cli({QStringLiteral("run"), def, QStringLiteral("--fencing=off"),
                                    QStringLiteral("--summary")});
        QCOMPARE(parseObject(summary.out).value(QStringLiteral("summary")),
                 unfenced.value(QStringLiteral("summary")));
        QCOMPARE(parseObject(summary.out).keys(),
                 QStringList({"fencing", "final", "summary", "title"}));
    }

    void renewalInTheReport()
    {
        const Result r = cli({QStringLiteral("run"), scenarioPath(QStringLiteral("renewal-keeps-token"))});
        const QJsonObject o = parseObject(r.out);
        QCOMPARE(o.value(QStringLiteral("grants")).toArray(), QJsonDocument::fromJson(R"([
            { "client": "A", "at": 0, "token": 1, "epoch": 1, "renewal": false, "expires": 10 },
            { "client": "A", "at": 8, "token": 1, "epoch": 1, "renewal": true, "expires": 18 },
            { "client": "B", "at": 20, "token": 2, "epoch": 2, "renewal": false, "expires": 30 } ])").array());
        QCOMPARE(o.value(QStringLiteral("refusals")).toArray(),
                 QJsonDocument::fromJson(R"([ { "client": "B", "at": 11, "holder": "A" } ])").array());
    }

    void standardInput()
    {
        const QByteArray text = readAll(scenarioPath(QStringLiteral("default")));
        Result r = cli({QStringLiteral("run"), QStringLiteral("-")}, text);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(parseObject(r.out), object(kSpecReport));
        r = cli({QStringLiteral("check"), QStringLiteral("-")}, text);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.out),
                 QStringLiteral("-: ok (\"Paused client wakes after its lease expired\", 2 clients, "
                                "1 storages, 6 actions)\n"));
        r = cli({QStringLiteral("run"), QStringLiteral("-")}, "{\"fencescope\": 1, \"clients\": []}");
        expectUsageError(r, QStringLiteral("fencescope-cli: -: clients: must list at least one client"));
    }

    // A path that is a pipe (bash's <(...)) or /dev/stdin is read to its end like "-", also when
    // the writer sends the file in two parts with a pause between (a single read would see the
    // first part only: "line 1, column 2: not valid JSON").
    void pipesAndDevicesAreStreams()
    {
        const QString file = scenarioPath(QStringLiteral("default"));
        const QString twoParts =
            QStringLiteral("{ head -c 1 \"$1\"; sleep 0.3; tail -c +2 \"$1\"; }");
        QProcess p;
        const auto bash = [&](const QString &script, const QStringList &args) {
            p.start(QStringLiteral("bash"),
                    QStringList{QStringLiteral("-c"), script, QStringLiteral(FENCESCOPE_CLI)} + args);
            QVERIFY(p.waitForFinished(60000));
        };
        bash(QStringLiteral("\"$0\" run <(%1)").arg(twoParts), {file});
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(parseObject(p.readAllStandardOutput()), object(kSpecReport));
        bash(QStringLiteral("%1 | \"$0\" check /dev/stdin").arg(twoParts), {file});
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()),
                 QStringLiteral("/dev/stdin: ok (\"Paused client wakes after its lease expired\", "
                                "2 clients, 1 storages, 6 actions)\n"));
        // a broken stream is still named by its path
        bash(QStringLiteral("\"$0\" run <(printf '{\"fencescope\": 2}')"), {});
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(p.readAllStandardError().contains("fencescope: unsupported format version 2"),
                 "a stream's problem is the file's, not a syntax error of a first read");
    }

    // ---- check ------------------------------------------------------------------------------

    void checkOk()
    {
        const QString path = scenarioPath(QStringLiteral("three-owners"));
        const Result r = cli({QStringLiteral("check"), path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QCOMPARE(QString::fromUtf8(r.out),
                 path + QStringLiteral(": ok (\"Three successive owners\", 3 clients, 1 storages, "
                                       "9 actions)\n"));
    }

    // check reads every action without keeping it: the same line as run for every refused
    // file, the same counts for every file that loads
    void checkSaysWhatRunSays()
    {
        QStringList files;
        for (const QString &sub : {QStringLiteral("invalid"), QStringLiteral("hostile")}) {
            const QDir dir(dataPath(sub));
            for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files))
                files << dir.filePath(name);
        }
        QVERIFY(files.size() > 40);
        int refused = 0;
        for (const QString &file : files) {
            const Result run = cli({QStringLiteral("run"), file, QStringLiteral("--summary")});
            const Result check = cli({QStringLiteral("check"), file});
            QVERIFY2(run.exitCode == 0 || run.exitCode == 2, qPrintable(file));
            QCOMPARE(check.exitCode, run.exitCode);
            if (run.exitCode == 2) {
                ++refused;
                QCOMPARE(check.err, run.err);
                QVERIFY(check.out.isEmpty());
            } else {
                QVERIFY2(check.out.startsWith((file + QStringLiteral(": ok (")).toUtf8()),
                         check.out.constData());
            }
        }
        QVERIFY(refused > 30);
    }

    // "-" for a picture would be a file named "-" of no known format: refused, with the reason
    void picturesAreNotWrittenToStandardOutput()
    {
        const QString def = scenarioPath(QStringLiteral("default"));
        expectUsageError(cli({QStringLiteral("export"), def, QStringLiteral("-o"), QStringLiteral("-")}),
                         QStringLiteral("fencescope-cli: export: cannot write a picture to standard "
                                        "output (give a file ending in .png, .svg or .pdf)"));
        expectUsageError(
            cli({QStringLiteral("storyboard"), def, QStringLiteral("-o"), QStringLiteral("-")}),
            QStringLiteral("fencescope-cli: storyboard: cannot write pictures to standard output "
                           "(give a folder or a file ending in .pdf)"));
        QVERIFY(!QFile::exists(QStringLiteral("-")));
    }

    // ---- exit status 2: invalid input, one line on stderr naming the place ------------------

    void invalidInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("line");
        const QString ttl = dataPath(QStringLiteral("invalid/ttl-zero.json"));
        QTest::newRow("run ttl zero")
            << QStringList({"run", ttl})
            << QStringLiteral("fencescope-cli: %1: clients[1].actions[2].ttl: must be a positive integer, not 0").arg(ttl);
        QTest::newRow("check ttl zero")
            << QStringList({"check", ttl})
            << QStringLiteral("fencescope-cli: %1: clients[1].actions[2].ttl: must be a positive integer, not 0").arg(ttl);
        const QString notJson = dataPath(QStringLiteral("invalid/not-json.json"));
        // the missing comma after line 3 is noticed at line 4 (Qt reports just past the
        // opening quote of "clients")
        QTest::newRow("not json")
            << QStringList({"run", notJson})
            << QStringLiteral("fencescope-cli: %1: line 4, column 4: not valid JSON (unterminated object)").arg(notJson);
        const QString storage = dataPath(QStringLiteral("invalid/unknown-storage.json"));
        QTest::newRow("unknown storage")
            << QStringList({"run", storage, "--summary"})
            << QStringLiteral("fencescope-cli: %1: clients[0].actions[1].storage: unknown storage \"disk\" (known: ...").arg(storage);
        const QString dup = dataPath(QStringLiteral("invalid/duplicate-client.json"));
        QTest::newRow("duplicate client")
            << QStringList({"check", dup})
            << QStringLiteral("fencescope-cli: %1: clients[2].name: duplicate client name \"A\" (also clients[0])").arg(dup);
        const QString v2 = dataPath(QStringLiteral("invalid/version-2.json"));
        QTest::newRow("version 2")
            << QStringList({"run", v2})
            << QStringLiteral("fencescope-cli: %1: fencescope: unsupported format version 2 (this FenceScope reads version 1)").arg(v2);
        const QString array = dataPath(QStringLiteral("invalid/top-array.json"));
        QTest::newRow("top array")
            << QStringList({"run", array})
            << QStringLiteral("fencescope-cli: %1: file: must be a JSON object with \"fencescope\": 1 at the top, not an array").arg(array);
        const QString empty = dataPath(QStringLiteral("invalid/empty.json"));
        QTest::newRow("empty file")
            << QStringList({"run", empty})
            << QStringLiteral("fencescope-cli: %1: line 1, column 1: not valid JSON (illegal value)").arg(empty);
        const QString missing = dataPath(QStringLiteral("no-such-file.json"));
        QTest::newRow("missing file")
            << QStringList({"run", missing})
            << QStringLiteral("fencescope-cli: %1: file: cannot open %1 (No such file or directory)").arg(missing);
        const QString folder = dataPath(QStringLiteral("invalid"));
        QTest::newRow("folder")
            << QStringList({"check", folder})
            << QStringLiteral("fencescope-cli: %1: file: %1 is a folder, not a scenario file").arg(folder);

        // usage
        const QString def = scenarioPath(QStringLiteral("default"));
        QTest::newRow("no command") << QStringList()
                                    << QStringLiteral("fencescope-cli: missing command (run, check...");
        QTest::newRow("unknown command") << QStringList({"simulate", def})
                                         << QStringLiteral("fencescope-cli: unknown command \"simulate\" (run, check...");
        QTest::newRow("unknown option") << QStringList({"run", def, "--colour"})
                                        << QStringLiteral("fencescope-cli: run: unknown option --colour");
        QTest::newRow("run without file")
            << QStringList({"run"})
            << QStringLiteral("fencescope-cli: run: missing FILE (usage: fencescope-cli run FILE [--fencing on|off] [--summary])");
        QTest::newRow("two files") << QStringList({"run", def, def})
                                   << QStringLiteral("fencescope-cli: run: one FILE only, got also %1").arg(def);
        QTest::newRow("bad fencing value") << QStringList({"run", def, "--fencing", "maybe"})
                                           << QStringLiteral("fencescope-cli: --fencing takes on or off, not \"maybe\"");
        QTest::newRow("bad fencing=value") << QStringList({"run", def, "--fencing=yes"})
                                           << QStringLiteral("fencescope-cli: --fencing takes on or off, not \"yes\"");
        QTest::newRow("fencing without value") << QStringList({"run", def, "--fencing"})
                                               << QStringLiteral("fencescope-cli: --fencing takes on or off, not \"\"");
        // check counts its FILE as run does
        QTest::newRow("check without file")
            << QStringList({"check"})
            << QStringLiteral(
                   "fencescope-cli: check: missing FILE (usage: fencescope-cli check FILE)");
        QTest::newRow("check two files")
            << QStringList({"check", def, def})
            << QStringLiteral("fencescope-cli: check: one FILE only, got also %1").arg(def);
    }
    void invalidInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, line);
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.err.endsWith('\n'));
        const QString got = QString::fromUtf8(r.err.trimmed());
        // "..." at the end: only the start is fixed (the order of known storages is not, and
        // the list of commands grows)
        if (line.endsWith(QLatin1String("...")))
            QVERIFY2(got.startsWith(line.chopped(3)), qPrintable(got));
        else
            QCOMPARE(got, line);
    }

    void invalidJsonMessageIsOneLine()
    {
        // a scenario whose error text could contain a newline (a client name with one) still
        // gives one line
        const Result r = cli({QStringLiteral("run"), QStringLiteral("-")},
                             "{\"fencescope\": 1, \"clients\": [{\"name\": \"a\\nb\"}, {\"name\": \"a\\nb\"}]}");
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.err.startsWith("fencescope-cli: -: clients[1].name: duplicate client name"));
    }

    // ---- run: the report additions for token sources (docs/SCENARIO.md sections 9, 10, 13) ------

    // etcd, restored at 9 from the snapshot of 5 (revision 3: A's lease ended at 5 and its key
    // with it; a snapshot inside A's lease would re-arm A, section 15.3):
    //   t0 A rev 2   t5 A's lease expires: 3   t6 B rev 4, writes b7 with 4: accepted
    //   t9 restore: revision 3, nobody holds; B's lease ends at 9 for the checker
    //   t10 C creates revision 4 again and writes c with 4: accepted (equal to max 4)
    //   t11 D waits behind C (its key: 5), waitFor 2   t12 B's b12 with 4: applied over C's
    //   data (corrupted, expired)   t13 D gives up (its key deleted: 6), refused by C
    void runReportsTokenSources()
    {
        const Result r = cli({QStringLiteral("run"), dataPath(QStringLiteral("tokens/etcd-restore-wait.json"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QJsonObject o = parseObject(r.out);
        QCOMPARE(o.value(QStringLiteral("tokens")).toString(), QStringLiteral("etcd"));
        QCOMPARE(o.value(QStringLiteral("grants")).toArray(), QJsonDocument::fromJson(R"([
            { "client": "A", "at": 0, "token": 2, "epoch": 1, "renewal": false, "expires": 5 },
            { "client": "B", "at": 6, "token": 4, "epoch": 2, "renewal": false, "expires": 16 },
            { "client": "C", "at": 10, "token": 4, "epoch": 3, "renewal": false, "expires": 20 }
        ])").array());
        QCOMPARE(o.value(QStringLiteral("refusals")).toArray(), QJsonDocument::fromJson(R"([
            { "client": "D", "at": 13, "holder": "C", "gaveUp": true } ])").array());
        QCOMPARE(o.value(QStringLiteral("waits")).toArray(), QJsonDocument::fromJson(R"([
            { "client": "D", "at": 11, "until": 13, "granted": false } ])").array());
        QCOMPARE(o.value(QStringLiteral("lockEvents")).toArray(), QJsonDocument::fromJson(R"([
            { "at": 9, "event": "restore", "from": 5, "bump": 0, "holder": null, "counter": 3 } ])").array());
        const QJsonArray writes = o.value(QStringLiteral("writes")).toArray();
        QCOMPARE(writes.size(), 3);
        QCOMPARE(writes[2].toObject(), object(R"({"client": "B", "value": "b12", "storage": "db",
            "sentAt": 12, "arrivedAt": 12, "token": 4, "epoch": 2, "result": "corrupted",
            "maxToken": 4, "expired": true})"));
        QCOMPARE(o.value(QStringLiteral("summary")).toObject(),
                 object(R"({"accepted": 2, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})"));
    }

    // none: grants and writes carry token null; the write keeps its grant's epoch, and with
    // fencing on the live holder is locked out (no token to check).
    void runReportsNoToken()
    {
        const Result r = cli({QStringLiteral("run"), dataPath(QStringLiteral("tokens/none.json"))});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = parseObject(r.out);
        QCOMPARE(o.value(QStringLiteral("tokens")).toString(), QStringLiteral("none"));
        QCOMPARE(o.value(QStringLiteral("grants")).toArray(), QJsonDocument::fromJson(R"([
            { "client": "A", "at": 0, "token": null, "epoch": 1, "renewal": false, "expires": 10 } ])").array());
        QCOMPARE(o.value(QStringLiteral("writes")).toArray(), QJsonDocument::fromJson(R"([
            { "client": "A", "value": "a", "storage": "db", "sentAt": 1, "arrivedAt": 1,
              "token": null, "epoch": 1, "result": "lockedOut", "maxToken": 0, "expired": false } ])").array());
        QVERIFY(!o.contains(QStringLiteral("waits")));
        QVERIFY(!o.contains(QStringLiteral("lockEvents")));
    }

    // ---- exit status 0 and 1 ----------------------------------------------------------------

    void unwritableOutputIsExitOne()
    {
        // standard output on a full disk: not the input's fault -> 1, with a message
        const Result r = cli({QStringLiteral("run"), scenarioPath(QStringLiteral("default"))}, {},
                             QStringLiteral("/dev/full"));
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, QByteArray("fencescope-cli: cannot write the report to standard output\n"));
    }

    void simulatedOutcomeDoesNotChangeTheExitStatus()
    {
        // corrupted writes are a result, not an error
        const Result r = cli({QStringLiteral("run"), scenarioPath(QStringLiteral("three-owners")),
                              QStringLiteral("--fencing"), QStringLiteral("off")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(parseObject(r.out).value(QStringLiteral("summary")).toObject().value(
                     QStringLiteral("corrupted")),
                 QJsonValue(2));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
