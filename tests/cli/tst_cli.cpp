// fencescope-cli, driven as a real process: the run report of docs/SCENARIO.md section 8, exit
// status 0/2/1 with exactly one line on stderr for bad input or usage, `check`, and `-` for
// standard input. Expected reports are worked out by hand from the scenario files (see the
// comments), not copied from the program.

#include "cliprocess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Result = CliProcess::Result;

Result cli(const QStringList &args, const QByteArray &input = {}, const QString &stdoutFile = {})
{
    CliProcess::Options o;
    o.input = input;
    o.stdoutFile = stdoutFile;
    o.timeoutMs = 60000;
    return CliProcess::run(QStringLiteral(FENCESCOPE_CLI), args, o);
}

QString scenarioPath(const QString &name)
{
    return QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/%1.json").arg(name);
}

QString dataPath(const QString &name)
{
    return QStringLiteral(FENCESCOPE_TESTDATA "/%1").arg(name);
}

QJsonObject parseObject(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        qWarning("not a JSON object: %s\n%s", qPrintable(error.errorString()), json.constData());
    return doc.object();
}

QJsonObject object(const char *json)
{
    return parseObject(QByteArray(json));
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

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

    static void expectUsageError(const Result &r, const QString &line)
    {
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        QCOMPARE(r.err.count('\n'), 1); // exactly one line
        QVERIFY(r.err.endsWith('\n'));
        QCOMPARE(QString::fromUtf8(r.err.trimmed()), line);
    }

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

    // Each built-in scenario, worked out by hand from its file:
    //
    // default: A token 1 [0,10), frozen [1,30). B refused at 5, token 2 at 12 [12,22), writes
    //   at 13 (max 2). A writes at 30 with token 1 -> rejected. Unfenced: A's epoch-1 write
    //   lands after epoch 2 -> corrupted, value A.
    // delayed-packet: A token 1 [0,10) sends at 3 with delay 17 (arrives 20). B refused at 5,
    //   token 2 at 11 [11,21), writes at 12 (max 2). A's packet at 20: 1 < 2 -> rejected.
    //   Unfenced: applied after epoch 2 -> corrupted, value A.
    // renewal-keeps-token: A token 1 [0,10) writes A1 at 2 (max 1), renews at 8 -> [0,18),
    //   token 1. B refused at 11. A2 at 12 with token 1 = max -> accepted. B token 2 at 20,
    //   writes at 21 (max 2). 3 accepted either way (epochs 1, 1, 2 never go backwards).
    // three-owners: A token 1 [0,8) frozen [2,32): its write at 3 runs at 32. B token 2 at 10
    //   [10,18) writes B at 11 (max 2), frozen [12,27): B2 at 13 runs at 27. C token 3 at 20
    //   [20,30) writes C at 21 (max 3). B2 (token 2) at 27 and A (token 1) at 32 rejected.
    //   Unfenced: both land after epoch 3 -> corrupted; the last is A's.
    // le-locks-out-holder: A token 1 [0,20). A1 at 2: 1 > 0 -> max 1. A2 at 4: 1 <= 1 -> not
    //   applied while A holds the live newest epoch -> lockedOut. B token 2 at 25 [25,30),
    //   writes at 26: 2 > 1 -> accepted. Unfenced: all three applied in epoch order.
    // The presets of the token sources and lock-service failures are worked out write by write
    // in tests/core/tst_presets.cpp; in short:
    // kleppmann-gc-pause: default's story with tokens 33, 34: A (33) rejected after B (34).
    // etcd-revisions: A rev 2; B waits from 7 with key rev 5 (puts at 3, 6), granted at 10;
    //   A's 2 < 5 rejected.
    // zookeeper-failover: A 0x1_00000001; the failover at 8 re-arms A to 18; B 0x2_00000004 at
    //   19: A rejected.
    // raft-term: A term 1, failed election at 11, B term 3: A rejected.
    // service-term: A and B both term 1: A's late write passes 1 >= 1, corrupted fenced.
    // etcd-owner-txn: A's write at 15 after its lease: the service holds no grant of A's,
    //   rejected; B's at 19 accepted (max 4). Unfenced both accepted.
    // chubby-sequencer: A's write at 15 while B holds generation 2: rejected; B's at 16 (max 2).
    // different-is-not-lower: B records 2; A's 1 rejected, C's 3 locked out. Unfenced A's write
    //   after B's corrupts, C's lands last.
    // kafka-zombie-producer: A epoch 0, B epoch 1 at 5 fences A; A's send at 12 rejected.
    // chubby-lock-delay (fencing off in the file): A's write at 15 lands before B's grant at
    //   20 (lock-delay [10,20)): both accepted either way.
    // redlock-no-token: untagged writes; fenced: B lockedOut, A rejected, nothing applied.
    // random-tokens: seed 7 draws A 3511274219185730 > B 151215513962381: A corrupts, fenced.
    // wallclock-step-back: A 1000, B 992 after the step -20: A corrupts, fenced.
    // etcd-restore: the restore to revision 3 hands out rev 4 again (A at 21); B's stale
    //   rev-4 write at 24 corrupts, fenced. etcd-restore-bump: A gets rev 14, B rejected.
    void builtinScenarios_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("fencing");
        QTest::addColumn<QByteArray>("summary");
        QTest::addColumn<QByteArray>("finals");

        QTest::newRow("default on") << "default" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 2}})");
        QTest::newRow("default off") << "default" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("delayed-packet on") << "delayed-packet" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 2}})");
        QTest::newRow("delayed-packet off") << "delayed-packet" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("renewal-keeps-token on") << "renewal-keeps-token" << "on"
            << QByteArray(R"({"accepted": 3, "rejected": 0, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 2}})");
        QTest::newRow("renewal-keeps-token off") << "renewal-keeps-token" << "off"
            << QByteArray(R"({"accepted": 3, "rejected": 0, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 0}})");
        QTest::newRow("three-owners on") << "three-owners" << "on"
            << QByteArray(R"({"accepted": 2, "rejected": 2, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "C", "maxToken": 3}})");
        QTest::newRow("three-owners off") << "three-owners" << "off"
            << QByteArray(R"({"accepted": 2, "rejected": 0, "corrupted": 2, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("le-locks-out-holder on") << "le-locks-out-holder" << "on"
            << QByteArray(R"({"accepted": 2, "rejected": 0, "corrupted": 0, "lockedOut": 1, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 2}})");
        QTest::newRow("le-locks-out-holder off") << "le-locks-out-holder" << "off"
            << QByteArray(R"({"accepted": 3, "rejected": 0, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 0}})");
        QTest::newRow("kleppmann-gc-pause on") << "kleppmann-gc-pause" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 34}})");
        QTest::newRow("kleppmann-gc-pause off") << "kleppmann-gc-pause" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("etcd-revisions on") << "etcd-revisions" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 5}})");
        QTest::newRow("etcd-revisions off") << "etcd-revisions" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("zookeeper-failover on") << "zookeeper-failover" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 8589934596}})");
        QTest::newRow("zookeeper-failover off") << "zookeeper-failover" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("raft-term on") << "raft-term" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 3}})");
        QTest::newRow("raft-term off") << "raft-term" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("service-term on") << "service-term" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 1}})");
        QTest::newRow("etcd-owner-txn on") << "etcd-owner-txn" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"kv": {"value": "B", "maxToken": 4}})");
        QTest::newRow("etcd-owner-txn off") << "etcd-owner-txn" << "off"
            << QByteArray(R"({"accepted": 2, "rejected": 0, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"kv": {"value": "B", "maxToken": 0}})");
        QTest::newRow("chubby-sequencer on") << "chubby-sequencer" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"file": {"value": "B", "maxToken": 2}})");
        QTest::newRow("different-is-not-lower on") << "different-is-not-lower" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 1, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 2}})");
        QTest::newRow("different-is-not-lower off") << "different-is-not-lower" << "off"
            << QByteArray(R"({"accepted": 2, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "C", "maxToken": 0}})");
        QTest::newRow("kafka-zombie-producer on") << "kafka-zombie-producer" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"topic": {"value": "B", "maxToken": 1}})");
        QTest::newRow("kafka-zombie-producer off") << "kafka-zombie-producer" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"topic": {"value": "A", "maxToken": 0}})");
        QTest::newRow("chubby-lock-delay on") << "chubby-lock-delay" << "on"
            << QByteArray(R"({"accepted": 2, "rejected": 0, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 2}})");
        QTest::newRow("chubby-lock-delay off") << "chubby-lock-delay" << "off"
            << QByteArray(R"({"accepted": 2, "rejected": 0, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B", "maxToken": 0}})");
        QTest::newRow("redlock-no-token on") << "redlock-no-token" << "on"
            << QByteArray(R"({"accepted": 0, "rejected": 1, "corrupted": 0, "lockedOut": 1, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "", "maxToken": 0}})");
        QTest::newRow("redlock-no-token off") << "redlock-no-token" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("random-tokens on") << "random-tokens" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 3511274219185730}})");
        QTest::newRow("random-tokens off") << "random-tokens" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("wallclock-step-back on") << "wallclock-step-back" << "on"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 1000}})");
        QTest::newRow("wallclock-step-back off") << "wallclock-step-back" << "off"
            << QByteArray(R"({"accepted": 1, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A", "maxToken": 0}})");
        QTest::newRow("etcd-restore on") << "etcd-restore" << "on"
            << QByteArray(R"({"accepted": 3, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B2", "maxToken": 4}})");
        QTest::newRow("etcd-restore off") << "etcd-restore" << "off"
            << QByteArray(R"({"accepted": 3, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B2", "maxToken": 0}})");
        QTest::newRow("etcd-restore-bump on") << "etcd-restore-bump" << "on"
            << QByteArray(R"({"accepted": 3, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "A2", "maxToken": 14}})");
        QTest::newRow("etcd-restore-bump off") << "etcd-restore-bump" << "off"
            << QByteArray(R"({"accepted": 3, "rejected": 0, "corrupted": 1, "lockedOut": 0, "skipped": 0, "partial": 0})")
            << QByteArray(R"({"db": {"value": "B2", "maxToken": 0}})");
    }
    void builtinScenarios()
    {
        QFETCH(QString, name);
        QFETCH(QString, fencing);
        QFETCH(QByteArray, summary);
        QFETCH(QByteArray, finals);
        const Result r = cli({QStringLiteral("run"), scenarioPath(name), QStringLiteral("--fencing"), fencing});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QJsonObject o = parseObject(r.out);
        QCOMPARE(o.value(QStringLiteral("fencing")).toBool(), fencing == QLatin1String("on"));
        QCOMPARE(o.value(QStringLiteral("summary")).toObject(), parseObject(summary));
        QCOMPARE(o.value(QStringLiteral("final")).toObject(), parseObject(finals));
        // summary counts agree with the listed writes
        QMap<QString, int> counted;
        for (const QJsonValue &w : o.value(QStringLiteral("writes")).toArray())
            ++counted[w.toObject().value(QStringLiteral("result")).toString()];
        const QJsonObject sum = o.value(QStringLiteral("summary")).toObject();
        for (const QString &key : sum.keys())
            QCOMPARE(counted.value(key), sum.value(key).toInt());
        // --summary prints the same summary
        const Result s = cli({QStringLiteral("run"), scenarioPath(name), QStringLiteral("--fencing"),
                              fencing, QStringLiteral("--summary")});
        QCOMPARE(parseObject(s.out).value(QStringLiteral("summary")).toObject(), parseObject(summary));
    }

    void everyBuiltinFileIsWorkedOut()
    {
        // a new file in resources/scenarios needs its hand-worked test in tst_presets (the
        // presets of sections 11-12 are worked out there both ways)
        QStringList names = QDir(QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios"))
                                .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (QString &n : names)
            n.chop(5);
        // (QDir sorts the file names: "etcd-restore-bump.json" before "etcd-restore.json")
        QCOMPARE(names, QStringList({"bypass-background-job", "check-then-write-gap", "chubby-lock-delay", "chubby-sequencer", "compare-and-set-version", "default", "delayed-packet", "different-is-not-lower", "etcd-owner-txn", "etcd-restore-bump", "etcd-restore", "etcd-revisions", "journalnode-durable-max-token", "journalnode-volatile-max-token", "kafka-zombie-producer", "keepalive-gc-pause", "kleppmann-gc-pause", "le-locks-out-holder", "raft-term", "random-tokens-check-and-set", "random-tokens", "redlock-no-token", "reentrant-holder-le", "reentrant-holder-lt", "renewal-keeps-token", "service-term", "slow-client-clock", "three-owners", "two-resources-partial", "wallclock-step-back", "zookeeper-failover"}));
    }

    void threeOwnersInDetail()
    {
        // the deferred writes of three-owners, as worked out above
        const Result r = cli({QStringLiteral("run"), scenarioPath(QStringLiteral("three-owners"))});
        const QJsonObject o = parseObject(r.out);
        QCOMPARE(o.value(QStringLiteral("writes")).toArray(), QJsonDocument::fromJson(R"([
            { "client": "B", "value": "B", "storage": "db", "sentAt": 11, "arrivedAt": 11,
              "token": 2, "epoch": 2, "result": "accepted", "maxToken": 2, "expired": false },
            { "client": "C", "value": "C", "storage": "db", "sentAt": 21, "arrivedAt": 21,
              "token": 3, "epoch": 3, "result": "accepted", "maxToken": 3, "expired": false },
            { "client": "B", "value": "B2", "storage": "db", "sentAt": 27, "arrivedAt": 27,
              "token": 2, "epoch": 2, "result": "rejected", "maxToken": 3, "expired": true },
            { "client": "A", "value": "A", "storage": "db", "sentAt": 32, "arrivedAt": 32,
              "token": 1, "epoch": 1, "result": "rejected", "maxToken": 3, "expired": true } ])").array());
        QCOMPARE(o.value(QStringLiteral("grants")).toArray(), QJsonDocument::fromJson(R"([
            { "client": "A", "at": 0, "token": 1, "epoch": 1, "renewal": false, "expires": 8 },
            { "client": "B", "at": 10, "token": 2, "epoch": 2, "renewal": false, "expires": 18 },
            { "client": "C", "at": 20, "token": 3, "epoch": 3, "renewal": false, "expires": 30 } ])").array());
        QCOMPARE(o.value(QStringLiteral("refusals")).toArray(), QJsonArray());
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

    // ---- one option, one behaviour in every command ------------------------------------------

    // The same bad value gives the same line whichever command has the option, and whether the
    // value follows as the next argument or after "=".
    void sameOptionSameErrorInEveryCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("line");
        const QString def = scenarioPath(QStringLiteral("default"));
        const QString out = QStringLiteral("/nonexistent-folder/out.png");
        struct Bad
        {
            const char *option;
            const char *value;
            QString line;
        };
        const QList<Bad> picture = {
            {"--fencing", "maybe", QStringLiteral("--fencing takes on or off, not \"maybe\"")},
            {"--width", "wide",
             QStringLiteral("--width takes pixels from 320 to 16384, not \"wide\"")},
            {"--width", "100",
             QStringLiteral("--width takes pixels from 320 to 16384, not \"100\"")},
            {"--scale", "0", QStringLiteral("--scale takes a factor from 0.25 to 8, not \"0\"")},
            {"--from", "-3", QStringLiteral("--from takes a tick, not \"-3\"")},
            {"--to", "soon", QStringLiteral("--to takes a tick, not \"soon\"")},
            {"--theme", "neon",
             QStringLiteral("--theme takes light|dark|print|contrast, not \"neon\"")},
        };
        for (const char *command : {"export", "storyboard", "animate"}) {
            for (const Bad &b : picture) {
                const QString name = QStringLiteral("%1 %2 %3").arg(command, b.option, b.value);
                QTest::newRow(qPrintable(name + QStringLiteral(" (two words)")))
                    << QStringList({command, def, "-o", out, b.option, b.value})
                    << QStringLiteral("fencescope-cli: ") + b.line;
                QTest::newRow(qPrintable(name + QStringLiteral(" (=)")))
                    << QStringList({command, def, "-o", out,
                                    QStringLiteral("%1=%2").arg(b.option, b.value)})
                    << QStringLiteral("fencescope-cli: ") + b.line;
            }
            // given last, without a value: judged as the empty value
            QTest::newRow(qPrintable(QStringLiteral("%1 --fencing last").arg(command)))
                << QStringList({command, def, "-o", out, "--fencing"})
                << QStringLiteral("fencescope-cli: --fencing takes on or off, not \"\"");
            QTest::newRow(qPrintable(QStringLiteral("%1 --width last").arg(command)))
                << QStringList({command, def, "-o", out, "--width"})
                << QStringLiteral(
                       "fencescope-cli: --width takes pixels from 320 to 16384, not \"\"");
            QTest::newRow(qPrintable(QStringLiteral("%1 -o last").arg(command)))
                << QStringList({command, def, "-o"})
                << QStringLiteral("fencescope-cli: -o needs a value");
            QTest::newRow(qPrintable(QStringLiteral("%1 --output=").arg(command)))
                << QStringList({command, def, "--output="})
                << QStringLiteral("fencescope-cli: -o needs a value");
            QTest::newRow(qPrintable(QStringLiteral("%1 --compare=yes").arg(command)))
                << QStringList({command, def, "-o", out, "--compare=yes"})
                << QStringLiteral("fencescope-cli: --compare takes no value, not \"yes\"");
            QTest::newRow(qPrintable(QStringLiteral("%1 unknown option").arg(command)))
                << QStringList({command, def, "-o", out, "--colour"})
                << QStringLiteral("fencescope-cli: %1: unknown option --colour").arg(command);
            QTest::newRow(qPrintable(QStringLiteral("%1 two files").arg(command)))
                << QStringList({command, def, "-o", out, def})
                << QStringLiteral("fencescope-cli: %1: one FILE only, got also %2")
                       .arg(command, def);
        }
        QTest::newRow("run --fencing=maybe")
            << QStringList({"run", def, "--fencing=maybe"})
            << QStringLiteral("fencescope-cli: --fencing takes on or off, not \"maybe\"");
        QTest::newRow("run --summary=yes")
            << QStringList({"run", def, "--summary=yes"})
            << QStringLiteral("fencescope-cli: --summary takes no value, not \"yes\"");
        QTest::newRow("check unknown option")
            << QStringList({"check", def, "--fencing", "on"})
            << QStringLiteral("fencescope-cli: check: unknown option --fencing");
        QTest::newRow("export --at list")
            << QStringList({"export", def, "-o", out, "--at=1,2"})
            << QStringLiteral("fencescope-cli: --at takes a tick, not \"1,2\"");
        QTest::newRow("storyboard --at list")
            << QStringList({"storyboard", def, "-o", out, "--at", "1,x"})
            << QStringLiteral("fencescope-cli: --at takes ticks (T or T1,T2,...), not \"1,x\"");
        QTest::newRow("export without file")
            << QStringList({"export", "-o", out})
            << QStringLiteral("fencescope-cli: export: missing FILE (usage: fencescope-cli export "
                              "FILE -o OUT.(png|svg|pdf) [options])");
        QTest::newRow("storyboard without -o")
            << QStringList({"storyboard", def})
            << QStringLiteral("fencescope-cli: storyboard: missing -o DIR_OR_PDF (usage: "
                              "fencescope-cli storyboard FILE -o DIR_OR_PDF [options])");
        QTest::newRow("unknown top-level option")
            << QStringList({"--colour", "run", def})
            << QStringLiteral("fencescope-cli: unknown option --colour; try --help");
        QTest::newRow("help for an unknown command")
            << QStringList({"help", "simulate"})
            << QStringLiteral("fencescope-cli: unknown command \"simulate\" (run, check, export, "
                              "storyboard, animate, sweep, find, lesson check, lesson "
                              "handout, live); try --help");
        QTest::newRow("animate --fps")
            << QStringList({"animate", def, "-o", out, "--fps", "0"})
            << QStringLiteral(
                   "fencescope-cli: --fps takes a whole number from 1 to 60, not \"0\"");
        QTest::newRow("animate --step-seconds")
            << QStringList({"animate", def, "-o", out, "--step-seconds=0.1"})
            << QStringLiteral(
                   "fencescope-cli: --step-seconds takes seconds from 0.5 to 60, not \"0.1\"");
        QTest::newRow("animate --loop")
            << QStringList({"animate", def, "-o", out, "--loop", "-1"})
            << QStringLiteral(
                   "fencescope-cli: --loop takes a whole number from 0 to 65535, not \"-1\"");
        // each step's caption is the animation's own
        QTest::newRow("animate --caption")
            << QStringList({"animate", def, "-o", out, "--caption", "hello"})
            << QStringLiteral("fencescope-cli: animate: unknown option --caption");
        QTest::newRow("animate without -o")
            << QStringList({"animate", def})
            << QStringLiteral("fencescope-cli: animate: missing -o OUT.(gif|mp4|webm) (usage: "
                              "fencescope-cli animate FILE|--lesson LESSON -o "
                              "OUT.(gif|mp4|webm) [options])");
    }
    void sameOptionSameErrorInEveryCommand()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, line);
        expectUsageError(cli(args), line);
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

    // Every command's help, three ways, lists every option the command takes.
    void commandHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("options");
        const QStringList picture = {"--fencing on|off",
                                     "--compare",
                                     "--width PX",
                                     "--scale S",
                                     "--from TICK",
                                     "--to TICK",
                                     "--theme light|dark|print|contrast",
                                     "--caption TEXT",
                                     "--no-title",
                                     "--no-legend",
                                     "--no-caption"};
        QTest::newRow("run") << "run" << QStringList({"--fencing on|off", "--summary"});
        QTest::newRow("check") << "check" << QStringList();
        QTest::newRow("export") << "export"
                                << QStringList({"-o, --output OUT.(png|svg|pdf)", "--at TICK"}) +
                                       picture;
        QTest::newRow("storyboard")
            << "storyboard"
            << QStringList({"-o, --output DIR_OR_PDF", "--every-event", "--at T1,T2,..."}) +
                   picture;
        QStringList animated = picture;
        animated.removeAll(QStringLiteral("--caption TEXT"));
        animated.removeAll(QStringLiteral("--no-caption"));
        QTest::newRow("animate") << "animate"
                                 << QStringList({"-o, --output OUT.(gif|mp4|webm)", "--fps N",
                                                 "--step-seconds S", "--loop N"}) +
                                        animated;
        // (in the live helper, like the pictures in theirs)
        QTest::newRow("live") << "live"
                              << QStringList({"--etcd auto|URL", "--store etcd|postgres",
                                              "--tick-ms MS", "--fencing on|off", "--repeat N"});
    }
    void commandHelp()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, options);
        const Result dashes = cli({command, QStringLiteral("--help")});
        QCOMPARE(dashes.exitCode, 0);
        QVERIFY(dashes.err.isEmpty());
        const QString text = QString::fromUtf8(dashes.out);
        QVERIFY2(text.startsWith(QStringLiteral("usage: fencescope-cli %1 FILE").arg(command)),
                 qPrintable(text));
        for (const QString &o : options + QStringList{"-h, --help"})
            QVERIFY2(text.contains(QStringLiteral("\n  ") + o + QStringLiteral("  ")),
                     qPrintable(o + QStringLiteral(" not in:\n") + text));
        // help before or after FILE, short or long, or as `help COMMAND`: the same text
        const Result shortForm =
            cli({command, scenarioPath(QStringLiteral("default")), QStringLiteral("-h")});
        QCOMPARE(shortForm.exitCode, 0);
        QCOMPARE(shortForm.out, dashes.out);
        const Result word = cli({QStringLiteral("help"), command});
        QCOMPARE(word.exitCode, 0);
        QCOMPARE(word.out, dashes.out);
        // and the overview has the command's synopsis and its line in the list
        const QString overview = QString::fromUtf8(cli({QStringLiteral("help")}).out);
        QVERIFY(overview.contains(QStringLiteral("fencescope-cli %1 FILE").arg(command)));
        QVERIFY(overview.contains(QStringLiteral("\n  %1 ").arg(command)));
    }

    void version()
    {
        const Result r = cli({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QCOMPARE(r.out, QByteArray("fencescope-cli " FENCESCOPE_VERSION "\n"));
    }

    // The desktop application prints its version and help without a display and opens no window.
    void appVersionAndHelpWithoutDisplay()
    {
        for (const QStringList &args :
             {QStringList{"--version"}, QStringList{"-v"}, QStringList{"--help"}}) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove(QStringLiteral("QT_QPA_PLATFORM"));
            env.remove(QStringLiteral("DISPLAY"));
            env.remove(QStringLiteral("WAYLAND_DISPLAY"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(FENCESCOPE_APP), args);
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 0);
            const QByteArray out = p.readAllStandardOutput();
            if (args.first() == QLatin1String("--help")) {
                QVERIFY2(out.startsWith("Usage: ") && out.contains("[FILE]"), out.constData());
                QVERIFY(out.contains("--version"));
            } else {
                QCOMPARE(out, QByteArray("fencescope " FENCESCOPE_VERSION "\n"));
            }
        }
    }

    void appBadArguments()
    {
        for (const QStringList &args : {QStringList{"--colour"}, QStringList{"a.json", "b.json"}}) {
            QProcess p;
            p.start(QStringLiteral(FENCESCOPE_APP), args); // offscreen, from the test's environment
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitCode(), 2);
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(err.contains(args.size() == 1 ? "fencescope: Unknown option 'colour'."
                                                   : "fencescope: one FILE only, got also b.json"),
                     err.constData());
        }
    }

    // ---- exit status 0 and 1 ----------------------------------------------------------------

    void help()
    {
        const Result r = cli({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("usage: fencescope-cli run FILE"));
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
