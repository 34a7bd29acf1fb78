// fencescope-cli run on every built-in scenario, driven as a real process, both ways (fencing on
// and off): the summary and the final storages of each worked out by hand from its file (the
// comment below shows how), the summary's counts agreeing with the writes listed, and one run
// in full detail.

#include "clirun.h"

#include <QDir>
#include <QJsonArray>
#include <QMap>
#include <QTest>

using namespace CliRun;

class TestCliBuiltins : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QStringLiteral(FENCESCOPE_CLI)), FENCESCOPE_CLI);
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
};

QTEST_GUILESS_MAIN(TestCliBuiltins)
#include "tst_clibuiltins.moc"
