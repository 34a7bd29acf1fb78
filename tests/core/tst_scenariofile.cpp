// Scenario file version 1 (docs/SCENARIO.md sections 7, 9-12 and 14): every invalid-input rule with
// the place it must name, the documented limits, lossless round trips, unknown keys, atomic
// saves, and the built-in scenarios; every input also through the check (checkBytes, checkFile),
// which must say the same. Over 600 lines: the loader's rules are one table each, and
// splitting the tables over files would only scatter them.

#include "lockoptionsfile.h"
#include "randomscenario.h"
#include "scenariofile.h"
#include "simulator.h"
#include "testprinters.h"
#include "tokensource.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

#include <csignal>
#include <optional>
#include <sys/resource.h>

using namespace Core;

namespace {

// Every parse and load of this test goes through the check as well (ScenarioFile::checkBytes,
// checkFile), which must say exactly what the loader says and count what it loads; cleanup()
// fails the test function where it did not.
QStringList g_checkDifferences;

void compareWithCheck(const QString &input, const LoadResult &loaded, const CheckResult &checked)
{
    QString diff;
    if (loaded.error != checked.error)
        diff = QStringLiteral("load says \"%1\", check says \"%2\"").arg(loaded.error, checked.error);
    else if (loaded.ok() &&
             (loaded.scenario->title != checked.title ||
              loaded.scenario->clients.size() != checked.clients ||
              loaded.scenario->storages.size() != checked.storages ||
              loaded.scenario->actionCount() != checked.actions))
        diff = QStringLiteral("check counts %1 clients, %2 storages, %3 actions")
                   .arg(checked.clients)
                   .arg(checked.storages)
                   .arg(checked.actions);
    if (!diff.isEmpty())
        g_checkDifferences << input.left(200) + QLatin1String(": ") + diff;
}

LoadResult parseAndCheck(const QByteArray &json, const FileLimits &limits = {})
{
    LoadResult loaded = ScenarioFile::parse(json, limits);
    compareWithCheck(QString::fromUtf8(json), loaded, ScenarioFile::checkBytes(json, limits));
    return loaded;
}

LoadResult loadAndCheck(const QString &path, const FileLimits &limits = {})
{
    LoadResult loaded = ScenarioFile::load(path, limits);
    compareWithCheck(path, loaded, ScenarioFile::checkFile(path, limits));
    return loaded;
}

// A minimal valid file with `clients` spliced in.
QByteArray withClients(const char *clients)
{
    return QByteArray("{\"fencescope\": 1, \"clients\": ") + clients + "}";
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// The writer leaves out what is the default anyway: a write's or a read's storage when it is
// the first one, a delay of 0, a durable max_token and a token check. Drop those from a
// hand-written file before comparing it as JSON.
QJsonObject withoutDefaultWriteKeys(QJsonObject root)
{
    const QString first = root.value(QStringLiteral("storages"))
                              .toArray()
                              .at(0)
                              .toObject()
                              .value(QStringLiteral("name"))
                              .toString(QStringLiteral("db"));
    QJsonArray clients = root.value(QStringLiteral("clients")).toArray();
    for (qsizetype c = 0; c < clients.size(); ++c) {
        QJsonObject client = clients.at(c).toObject();
        QJsonArray actions = client.value(QStringLiteral("actions")).toArray();
        for (qsizetype i = 0; i < actions.size(); ++i) {
            QJsonObject a = actions.at(i).toObject();
            if (a.value(QStringLiteral("storage")).toString() == first)
                a.remove(QStringLiteral("storage"));
            if (a.value(QStringLiteral("delay")) == QJsonValue(0))
                a.remove(QStringLiteral("delay"));
            actions.replace(i, a);
        }
        client.insert(QStringLiteral("actions"), actions);
        clients.replace(c, client);
    }
    root.insert(QStringLiteral("clients"), clients);
    // and a storage's defaults of section 12, which a preset may spell out to be read
    QJsonArray storages = root.value(QStringLiteral("storages")).toArray();
    for (qsizetype i = 0; i < storages.size(); ++i) {
        QJsonObject st = storages.at(i).toObject();
        if (st.value(QStringLiteral("maxToken")).toString() == QLatin1String("durable"))
            st.remove(QStringLiteral("maxToken"));
        if (st.value(QStringLiteral("check")).toString() == QLatin1String("token"))
            st.remove(QStringLiteral("check"));
        storages.replace(i, st);
    }
    if (root.contains(QStringLiteral("storages")))
        root.insert(QStringLiteral("storages"), storages);
    return root;
}

QStringList resourceScenarioFiles()
{
    QDir dir(QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios"));
    QStringList out;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        out << dir.filePath(name);
    return out;
}

} // namespace

class TestScenarioFile : public QObject
{
    Q_OBJECT

private slots:
    void cleanup()
    {
        const QStringList differences = g_checkDifferences;
        g_checkDifferences.clear();
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
    }

    // ---- refused input: one message naming the place ----------------------------------------

    void invalidInput_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");

        // not JSON: line and column (Qt reports the offset just past the offending character;
        // columns count characters, so the three 2-byte é count once: byte counting would
        // give column 23)
        QTest::newRow("not json") << QByteArray("{\n  \"fencescope\": 1,\n  \"title\": \"ééé\", x\n}")
                                  << "line 3, column 20: not valid JSON (unterminated object)";
        QTest::newRow("missing comma") << QByteArray("{\n  \"fencescope\": 1\n  \"title\": \"x\"\n}")
                                       << "line 3, column 4: not valid JSON (unterminated object)";
        QTest::newRow("trailing comma")
            << QByteArray("{\"fencescope\":1,\"clients\":[{\"name\":\"A\"}],}")
            << "line 1, column 43: not valid JSON (object is missing after a comma)";
        QTest::newRow("garbage after")
            << QByteArray("{\"fencescope\":1,\"clients\":[{\"name\":\"A\"}]} x")
            << "line 1, column 43: not valid JSON (garbage at the end of the document)";
        QTest::newRow("empty") << QByteArray() << "line 1, column 1: not valid JSON (illegal value)";
        QTest::newRow("top array") << QByteArray("[{\"fencescope\": 1}]")
                                   << "file: must be a JSON object with \"fencescope\": 1 at the "
                                      "top, not an array";

        // the format version
        QTest::newRow("no version") << QByteArray("{\"clients\": [{\"name\": \"A\"}]}")
                                    << "fencescope: missing: this is not a FenceScope scenario "
                                       "file (expected \"fencescope\": 1)";
        QTest::newRow("version 2") << QByteArray("{\"fencescope\": 2, \"clients\": [{\"name\": \"A\"}]}")
                                   << "fencescope: unsupported format version 2 (this FenceScope "
                                      "reads version 1)";
        QTest::newRow("version string")
            << QByteArray("{\"fencescope\": \"1\", \"clients\": [{\"name\": \"A\"}]}")
            << "fencescope: unsupported format version \"1\" (this FenceScope reads version 1)";
        QTest::newRow("version 1.5")
            << QByteArray("{\"fencescope\": 1.5, \"clients\": [{\"name\": \"A\"}]}")
            << "fencescope: unsupported format version 1.5 (this FenceScope reads version 1)";

        // wrong types at the top
        QTest::newRow("title type") << QByteArray("{\"fencescope\": 1, \"title\": 5, \"clients\": [{\"name\": \"A\"}]}")
                                    << "title: must be a string, not a number";
        QTest::newRow("description type")
            << QByteArray("{\"fencescope\": 1, \"description\": [], \"clients\": [{\"name\": \"A\"}]}")
            << "description: must be a string, not an array";
        QTest::newRow("fencing type")
            << QByteArray("{\"fencescope\": 1, \"fencing\": \"yes\", \"clients\": [{\"name\": \"A\"}]}")
            << "fencing: must be true or false, not a string";
        QTest::newRow("horizon zero")
            << QByteArray("{\"fencescope\": 1, \"horizon\": 0, \"clients\": [{\"name\": \"A\"}]}")
            << "horizon: must be a positive integer, not 0";
        QTest::newRow("lock type") << QByteArray("{\"fencescope\": 1, \"lock\": [], \"clients\": [{\"name\": \"A\"}]}")
                                   << "lock: must be an object, not an array";
        QTest::newRow("unknown token source")
            << QByteArray("{\"fencescope\": 1, \"lock\": {\"tokens\": \"zxid\"}, \"clients\": "
                          "[{\"name\": \"A\"}]}")
            << "lock.tokens: unknown token source \"zxid\" (known: counter, etcd, zookeeper, "
               "raft-term, kafka-epoch, chubby, none, random, wallclock, service-term)";
        QTest::newRow("token source type")
            << QByteArray("{\"fencescope\": 1, \"lock\": {\"tokens\": 1}, \"clients\": [{\"name\": \"A\"}]}")
            << "lock.tokens: must be a string, not a number";

        // storages
        QTest::newRow("storages empty")
            << QByteArray("{\"fencescope\": 1, \"storages\": [], \"clients\": [{\"name\": \"A\"}]}")
            << "storages: must list at least one storage (or be left out for the default \"db\")";
        QTest::newRow("storages type")
            << QByteArray("{\"fencescope\": 1, \"storages\": {}, \"clients\": [{\"name\": \"A\"}]}")
            << "storages: must be an array, not an object";
        QTest::newRow("storage not object")
            << QByteArray("{\"fencescope\": 1, \"storages\": [{\"name\": \"a\"}, \"b\"], \"clients\": [{\"name\": \"A\"}]}")
            << "storages[1]: must be an object, not a string";
        QTest::newRow("storage without name")
            << QByteArray("{\"fencescope\": 1, \"storages\": [{\"rule\": \"lt\"}], \"clients\": [{\"name\": \"A\"}]}")
            << "storages[0].name: missing (every storage needs a name)";
        QTest::newRow("duplicate storage")
            << QByteArray("{\"fencescope\": 1, \"storages\": [{\"name\": \"db\"}, {\"name\": \"x\"}, {\"name\": \"db\"}], \"clients\": [{\"name\": \"A\"}]}")
            << "storages[2].name: duplicate storage name \"db\"";
        QTest::newRow("bad rule")
            << QByteArray("{\"fencescope\": 1, \"storages\": [{\"name\": \"db\", \"rule\": \"lte\"}], \"clients\": [{\"name\": \"A\"}]}")
            << "storages[0].rule: must be \"lt\" or \"le\", not \"lte\"";
        QTest::newRow("rule type")
            << QByteArray("{\"fencescope\": 1, \"storages\": [{\"name\": \"db\", \"rule\": true}], \"clients\": [{\"name\": \"A\"}]}")
            << "storages[0].rule: must be \"lt\" or \"le\", not a boolean";

        // clients
        QTest::newRow("clients missing") << QByteArray("{\"fencescope\": 1}")
                                         << "clients: missing: a scenario needs at least one client";
        QTest::newRow("clients empty") << withClients("[]") << "clients: must list at least one client";
        QTest::newRow("clients type") << withClients("{\"name\": \"A\"}")
                                      << "clients: must be an array, not an object";
        QTest::newRow("client not object") << withClients("[{\"name\": \"A\"}, 7]")
                                           << "clients[1]: must be an object, not a number";
        QTest::newRow("client without name") << withClients("[{\"actions\": []}]")
                                             << "clients[0].name: missing (every client needs a name)";
        QTest::newRow("client name type") << withClients("[{\"name\": null}]")
                                          << "clients[0].name: must be a string, not null";
        QTest::newRow("client name empty") << withClients("[{\"name\": \"A\"}, {\"name\": \"\"}]")
                                           << "clients[1].name: must not be empty";
        QTest::newRow("client name blank") << withClients("[{\"name\": \"  \"}]")
                                           << "clients[0].name: must not be empty";
        QTest::newRow("duplicate client")
            << withClients("[{\"name\": \"A\"}, {\"name\": \"B\"}, {\"name\": \"A\"}]")
            << "clients[2].name: duplicate client name \"A\" (also clients[0])";
        QTest::newRow("actions type") << withClients("[{\"name\": \"A\", \"actions\": {}}]")
                                      << "clients[0].actions: must be an array, not an object";

        // actions: the README's own example, with the exact place
        QTest::newRow("ttl zero")
            << withClients("[{\"name\": \"A\", \"actions\": []},"
                           " {\"name\": \"B\", \"actions\": [{\"at\": 1, \"do\": \"release\"},"
                           " {\"at\": 2, \"do\": \"pause\", \"for\": 3},"
                           " {\"at\": 3, \"do\": \"acquire\", \"ttl\": 0}]}]")
            << "clients[1].actions[2].ttl: must be a positive integer, not 0";
        QTest::newRow("action not object") << withClients("[{\"name\": \"A\", \"actions\": [5]}]")
                                           << "clients[0].actions[0]: must be an object, not a number";
        QTest::newRow("at missing") << withClients("[{\"name\": \"A\", \"actions\": [{\"do\": \"release\"}]}]")
                                    << "clients[0].actions[0].at: missing (every action needs the "
                                       "tick it happens at)";
        QTest::newRow("at negative")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 0, \"do\": \"release\"}, {\"at\": -1, \"do\": \"release\"}]}]")
            << "clients[0].actions[1].at: must be a non-negative integer, not -1";
        QTest::newRow("at fraction") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1.5, \"do\": \"release\"}]}]")
                                     << "clients[0].actions[0].at: must be a non-negative integer, not 1.5";
        QTest::newRow("at string") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": \"1\", \"do\": \"release\"}]}]")
                                   << "clients[0].actions[0].at: must be a non-negative integer, not a string";
        QTest::newRow("at 2^53+1")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 9007199254740993, \"do\": \"release\"}]}]")
            << "clients[0].actions[0].at: must be a non-negative integer no larger than 2^53 "
               "(9007199254740992), not 9007199254740993";
        QTest::newRow("at 1e300")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1e300, \"do\": \"release\"}]}]")
            << "clients[0].actions[0].at: must be a non-negative integer no larger than 2^53 "
               "(9007199254740992), not 1.0000000000000001e+300";
        QTest::newRow("at 2^64")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 18446744073709551616, \"do\": \"release\"}]}]")
            << "clients[0].actions[0].at: must be a non-negative integer no larger than 2^53 "
               "(9007199254740992), not 1.8446744073709552e+19";
        QTest::newRow("do missing")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1}]}]")
            << "clients[0].actions[0].do: missing (one of acquire, release, "
               "pause, write, read)";
        QTest::newRow("do type") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": 3}]}]")
                                 << "clients[0].actions[0].do: must be a string, not a number";
        QTest::newRow("unknown action")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"jump\"}]}]")
            << "clients[0].actions[0].do: unknown action \"jump\" (known: acquire, release, pause, "
               "write, read)";
        QTest::newRow("ttl missing") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"acquire\"}]}]")
                                     << "clients[0].actions[0].ttl: missing (must be a positive integer)";
        QTest::newRow("ttl negative") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"acquire\", \"ttl\": -4}]}]")
                                      << "clients[0].actions[0].ttl: must be a positive integer, not -4";
        QTest::newRow("ttl 2^53+1")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"acquire\", \"ttl\": 9007199254740993}]}]")
            << "clients[0].actions[0].ttl: must be a positive integer no larger than 2^53 "
               "(9007199254740992), not 9007199254740993";
        QTest::newRow("for missing") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"pause\"}]}]")
                                     << "clients[0].actions[0].for: missing (must be a positive integer)";
        QTest::newRow("for zero") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"pause\", \"for\": 0}]}]")
                                  << "clients[0].actions[0].for: must be a positive integer, not 0";
        QTest::newRow("value missing") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\"}]}]")
                                       << "clients[0].actions[0].value: missing (a write needs the value it writes)";
        QTest::newRow("value type") << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": 3}]}]")
                                    << "clients[0].actions[0].value: must be a string, not a number";
        QTest::newRow("delay negative")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"x\", \"delay\": -2}]}]")
            << "clients[0].actions[0].delay: must be a non-negative integer, not -2";
        QTest::newRow("delay fraction")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"x\", \"delay\": 0.5}]}]")
            << "clients[0].actions[0].delay: must be a non-negative integer, not 0.5";
        QTest::newRow("unknown storage")
            << QByteArray("{\"fencescope\": 1, \"storages\": [{\"name\": \"db\"}],"
                          " \"clients\": [{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"x\", \"storage\": \"cache\"}]}]}")
            << "clients[0].actions[0].storage: unknown storage \"cache\" (known: db)";
        QTest::newRow("unknown default storage")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"x\", \"storage\": \"other\"}]}]")
            << "clients[0].actions[0].storage: unknown storage \"other\" (known: db)";
        QTest::newRow("storage type")
            << withClients("[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"x\", \"storage\": 0}]}]")
            << "clients[0].actions[0].storage: must be a storage name, not a number";
    }

    void invalidInput()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const LoadResult r = parseAndCheck(json);
        QVERIFY(!r.ok()); // never half a scenario
        QCOMPARE(r.error, message);
    }

    // ---- token sources and the lock service's failures (docs/SCENARIO.md sections 9, 10, 14) ----

    void lockOptionsInvalidInput_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        const auto lock = [](const char *json) {
            return QByteArray("{\"fencescope\": 1, \"lock\": ") + json +
                   ", \"clients\": [{\"name\": \"A\"}]}";
        };
        const auto acquire = [](const char *keys) {
            return QByteArray("{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"actions\": "
                              "[{\"at\": 0, \"do\": \"acquire\", \"ttl\": 5, ") +
                   keys + "}]}]}";
        };
        QTest::newRow("unknown source")
            << lock(R"({"tokens": "paxos"})")
            << "lock.tokens: unknown token source \"paxos\" (known: counter, etcd, zookeeper, "
               "raft-term, kafka-epoch, chubby, none, random, wallclock, service-term)";
        QTest::newRow("first, not counter") << lock(R"({"tokens": "etcd", "first": 33})")
                                            << "lock.first: only for lock.tokens \"counter\", not \"etcd\"";
        QTest::newRow("first negative") << lock(R"({"first": -1})")
                                        << "lock.first: must be a non-negative integer, not -1";
        QTest::newRow("revision, not etcd") << lock(R"({"tokens": "chubby", "revision": 3})")
                                            << "lock.revision: only for lock.tokens \"etcd\", not \"chubby\"";
        QTest::newRow("revision fraction") << lock(R"({"tokens": "etcd", "revision": 1.5})")
                                           << "lock.revision: must be a non-negative integer, not 1.5";
        QTest::newRow("puts every 0") << lock(R"({"tokens": "etcd", "puts": {"every": 0}})")
                                      << "lock.puts.every: must be a positive integer, not 0";
        QTest::newRow("puts not an object") << lock(R"({"tokens": "etcd", "puts": 3})")
                                            << "lock.puts: must be an object, not 3";
        QTest::newRow("puts without every") << lock(R"({"tokens": "etcd", "puts": {}})")
                                            << "lock.puts.every: missing (must be a positive integer)";
        QTest::newRow("failovers, not zookeeper")
            << lock(R"({"failovers": [3]})")
            << "lock.failovers: only for lock.tokens \"zookeeper\", not \"counter\"";
        QTest::newRow("failover negative") << lock(R"({"tokens": "zookeeper", "failovers": [4, -1]})")
                                           << "lock.failovers[1]: must be a non-negative integer, not -1";
        QTest::newRow("failed elections not an array")
            << lock(R"({"tokens": "raft-term", "failedElections": 3})")
            << "lock.failedElections: must be an array, not 3";
        // section 15: elections belong to service-term, failed elections to it and raft-term
        QTest::newRow("failed elections, counter")
            << lock(R"({"failedElections": [3]})")
            << "lock.failedElections: only for lock.tokens \"raft-term\" or \"service-term\", not "
               "\"counter\"";
        QTest::newRow("elections, raft-term")
            << lock(R"({"tokens": "raft-term", "elections": [3]})")
            << "lock.elections: only for lock.tokens \"service-term\", not \"raft-term\"";
        QTest::newRow("elections negative")
            << lock(R"({"tokens": "service-term", "elections": [1, -2]})")
            << "lock.elections[1]: must be a non-negative integer, not -2";
        QTest::newRow("elections not an array")
            << lock(R"({"tokens": "service-term", "elections": {"at": 3}})")
            << "lock.elections: must be an array, not an object";
        QTest::newRow("seed beyond 2^53")
            << lock(R"({"tokens": "random", "seed": 9007199254740993})")
            << "lock.seed: must be a non-negative integer no larger than 2^53 (9007199254740992), "
               "not 9007199254740993";
        QTest::newRow("clockOffset, not wallclock")
            << lock(R"({"clockOffset": 5})")
            << "lock.clockOffset: only for lock.tokens \"wallclock\", not \"counter\"";
        QTest::newRow("clock step makes a token negative")
            << lock(R"({"tokens": "wallclock", "clockOffset": 5, "clockSteps": [{"at": 2, "by": -10}]})")
            << "lock.clockSteps: the lock server's clock would be -3 at tick 2: a token must not "
               "be negative";
        QTest::newRow("clock step without by")
            << lock(R"({"tokens": "wallclock", "clockSteps": [{"at": 2}]})")
            << "lock.clockSteps[0].by: missing";
        QTest::newRow("clock step by beyond 2^53")
            << lock(R"({"tokens": "wallclock", "clockSteps": [{"at": 2, "by": -9007199254740993}]})")
            << "lock.clockSteps[0].by: must be an integer within 2^53 (9007199254740992) either "
               "way, not -9007199254740993";
        QTest::newRow("restore from not before at")
            << lock(R"({"tokens": "etcd", "restores": [{"at": 5, "from": 1}, {"at": 5, "from": 5}]})")
            << "lock.restores[1].from: must be less than at (5), not 5";
        QTest::newRow("bump without a counter")
            << lock(R"({"tokens": "random", "restores": [{"at": 5, "from": 1, "bump": 10}]})")
            << "lock.restores[0].bump: not for lock.tokens \"random\": it has no counter to bump";
        QTest::newRow("restore without at") << lock(R"({"restores": [{"from": 1}]})")
                                            << "lock.restores[0].at: missing (must be a non-negative integer)";
        QTest::newRow("restore with an unknown key")
            << lock(R"({"restores": [{"at": 5, "from": 1, "when": "now"}]})")
            << "lock.restores[0].when: unknown key (known: at, from, bump)";
        QTest::newRow("lockDelay negative") << lock(R"({"lockDelay": -2})")
                                            << "lock.lockDelay: must be a non-negative integer, not -2";
        QTest::newRow("wait not a boolean") << acquire(R"("wait": "yes")")
                                            << "clients[0].actions[0].wait: must be true or false, not a string";
        QTest::newRow("waitFor 0") << acquire(R"("waitFor": 0)")
                                   << "clients[0].actions[0].waitFor: must be a positive integer, not 0";
        QTest::newRow("waitFor with wait false")
            << acquire(R"("wait": false, "waitFor": 3)")
            << "clients[0].actions[0].waitFor: needs a blocking acquire, but wait is false";
    }
    void lockOptionsInvalidInput()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const LoadResult r = parseAndCheck(json);
        QVERIFY(!r.ok());
        QCOMPARE(r.error, message);
    }

    void lockOptionsLimits()
    {
        QByteArray many = "[0";
        for (int i = 1; i <= LockOptionsFile::kMaxScheduledTicks; ++i)
            many += ", " + QByteArray::number(i);
        many += "]";
        const QByteArray json = "{\"fencescope\": 1, \"lock\": {\"tokens\": \"zookeeper\", "
                                "\"failovers\": " + many + "}, \"clients\": [{\"name\": \"A\"}]}";
        const LoadResult r = parseAndCheck(json);
        QVERIFY(!r.ok());
        QCOMPARE(r.error, QStringLiteral("lock.failovers: too many entries (100001; the limit is 100000)"));
        QByteArray steps = "[";
        for (int i = 0; i <= LockOptionsFile::kMaxClockSteps; ++i)
            steps += (i ? ", " : "") + QByteArray("{\"at\": 1, \"by\": 1}");
        steps += "]";
        const LoadResult s = parseAndCheck(
            "{\"fencescope\": 1, \"lock\": {\"tokens\": \"wallclock\", \"clockSteps\": " + steps +
            "}, \"clients\": [{\"name\": \"A\"}]}");
        QCOMPARE(s.error, QStringLiteral("lock.clockSteps: too many entries (1001; the limit is 1000)"));
    }

    void lockOptionsLoad()
    {
        const LoadResult r = parseAndCheck(R"({"fencescope": 1,
            "lock": {"tokens": "etcd", "revision": 100, "puts": {"every": 4},
                     "restores": [{"at": 9, "from": 3, "bump": 1000}], "lockDelay": 2},
            "clients": [{"name": "A", "actions": [
                {"at": 0, "do": "acquire", "ttl": 5, "waitFor": 3},
                {"at": 1, "do": "acquire", "ttl": 5, "wait": true},
                {"at": 2, "do": "acquire", "ttl": 5, "wait": false},
                {"at": 3, "do": "write", "value": "x", "wait": true}]}]})");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Scenario &s = *r.scenario;
        QVERIFY(s.tokens == TokenSource::Etcd);
        QCOMPARE(s.lock.revision, Token(100));
        QCOMPARE(s.lock.putsEvery, Tick(4));
        QCOMPARE(s.lock.restores.size(), std::size_t(1));
        QCOMPARE(s.lock.restores[0].bump, Token(1000));
        QCOMPARE(s.lock.lockDelay, Tick(2));
        QVERIFY(s.lockExtra.isEmpty());
        const std::vector<Action> &a = s.clients[0].actions;
        QVERIFY(a[0].wait); // waitFor implies wait
        QCOMPARE(a[0].waitFor(), Tick(3));
        QVERIFY(a[1].wait && a[1].waitFor() == 0);
        QVERIFY(!a[2].wait);
        QVERIFY(a[0].extra().isEmpty() && a[1].extra().isEmpty() && a[2].extra().isEmpty());
        // on a write, "wait" means nothing to this version: kept as it was
        QCOMPARE(a[3].extra().value(QStringLiteral("wait")), QJsonValue(true));
    }

    // Section 15's keys load, are kept and are written back: elections, failed elections of a
    // service term, owner and same storages.
    void sectionFifteenKeys()
    {
        const LoadResult r = parseAndCheck(R"({"fencescope": 1,
            "lock": {"tokens": "service-term", "elections": [9, 4, 4], "failedElections": [7]},
            "storages": [{"name": "kv", "check": "owner"}, {"name": "db", "check": "same"},
                         {"name": "t", "check": "token"}],
            "clients": [{"name": "A"}]})");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Scenario &s = *r.scenario;
        QVERIFY(s.tokens == TokenSource::ServiceTerm);
        QCOMPARE(s.lock.elections, std::vector<Tick>({4, 4, 9}));
        QCOMPARE(s.lock.failedElections, std::vector<Tick>({7}));
        QVERIFY(s.storages[0].check == StorageCheck::Owner);
        QVERIFY(s.storages[1].check == StorageCheck::Same);
        QVERIFY(s.storages[2].check == StorageCheck::Token);
        QVERIFY(s.lockExtra.isEmpty());
        const QByteArray saved = ScenarioFile::serialize(s);
        QVERIFY(saved.contains(R"("elections": [4, 4, 9], "failedElections": [7])"));
        QVERIFY(saved.contains(R"("check": "owner")") && saved.contains(R"("check": "same")"));
        const LoadResult again = parseAndCheck(saved);
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(*again.scenario, s);
        // switching the source drops what belongs to the other one
        QVERIFY(lockOptionsFor(TokenSource::RaftTerm, s.lock).elections.empty());
        QCOMPARE(lockOptionsFor(TokenSource::RaftTerm, s.lock).failedElections,
                 std::vector<Tick>({7}));
        QVERIFY(lockOptionsFor(TokenSource::Counter, s.lock).failedElections.empty());
    }

    void roundTripOfTokenSources()
    {
        for (int src = 0; src < kTokenSourceCount; ++src) {
            TestSupport::RandomScenarioOptions o;
            o.tokens = TokenSource(src);
            o.sourceEvents = true;
            o.clockStepsBack = true;
            o.waitPercent = 40;
            o.maxRestores = 3;
            o.restoreBump = 77;
            o.maxLockDelay = 9;
            o.ownerPercent = 30;
            o.samePercent = 30;
            for (std::uint64_t seed = 0; seed < 200; ++seed) {
                const Scenario s = TestSupport::randomScenario(5000 + seed, o);
                const LoadResult r = parseAndCheck(ScenarioFile::serialize(s));
                QVERIFY2(r.ok(), qPrintable(r.error + QStringLiteral(" in ") + s.title));
                QVERIFY2(*r.scenario == s, qPrintable(s.title + QStringLiteral(" ") + toString(s.tokens)));
            }
        }
    }

    // ---- clients and storages of docs/SCENARIO.md sections 11, 12 and 14 ------------------------

    void pitfallKeysInvalidInput_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        // A's actions: an acquire at 0, then the given action at 1
        const auto action = [](const char *json) {
            return QByteArray("{\"fencescope\": 1, \"storages\": [{\"name\": \"db\"}, {\"name\": "
                              "\"log\"}], \"clients\": [{\"name\": \"A\", \"actions\": [{\"at\": "
                              "0, \"do\": \"acquire\", \"ttl\": 5}, ") +
                   json + "]}]}";
        };
        // the keys given on client B (the second client)
        const auto client = [](const char *keys) {
            return QByteArray("{\"fencescope\": 1, \"clients\": [{\"name\": \"A\"}, {\"name\": "
                              "\"B\", ") +
                   keys + "}]}";
        };
        const auto storage = [](const char *keys) {
            return QByteArray("{\"fencescope\": 1, \"storages\": [{\"name\": \"db\", ") + keys +
                   "}], \"clients\": [{\"name\": \"A\"}]}";
        };
        const QString rate = QStringLiteral("clients[1].clock.rate: must be a number from 0.001 "
                                            "to 100 with at most three decimals, not ");

        // keepalive: a positive integer within 2^53, on an acquire only
        QTest::newRow("keepalive 0")
            << action(R"({"at": 1, "do": "acquire", "ttl": 5, "keepalive": 0})")
            << "clients[0].actions[1].keepalive: must be a positive integer, not 0";
        QTest::newRow("keepalive negative")
            << action(R"({"at": 1, "do": "acquire", "ttl": 5, "keepalive": -3})")
            << "clients[0].actions[1].keepalive: must be a positive integer, not -3";
        QTest::newRow("keepalive fraction")
            << action(R"({"at": 1, "do": "acquire", "ttl": 5, "keepalive": 1.5})")
            << "clients[0].actions[1].keepalive: must be a positive integer, not 1.5";
        QTest::newRow("keepalive string")
            << action(R"({"at": 1, "do": "acquire", "ttl": 5, "keepalive": "3"})")
            << "clients[0].actions[1].keepalive: must be a positive integer, not a string";
        QTest::newRow("keepalive beyond 2^53")
            << action(R"({"at": 1, "do": "acquire", "ttl": 5, "keepalive": 9007199254740993})")
            << "clients[0].actions[1].keepalive: must be a positive integer no larger than 2^53 "
               "(9007199254740992), not 9007199254740993";
        QTest::newRow("keepalive on a write")
            << action(R"({"at": 1, "do": "write", "value": "v", "keepalive": 3})")
            << "clients[0].actions[1].keepalive: only on an acquire (it renews the lease that "
               "acquire gets), not on a write";
        QTest::newRow("keepalive on a release")
            << action(R"({"at": 1, "do": "release", "keepalive": 3})")
            << "clients[0].actions[1].keepalive: only on an acquire (it renews the lease that "
               "acquire gets), not on a release";

        // check, gap and group: on a write only
        QTest::newRow("check on an acquire")
            << action(R"({"at": 1, "do": "acquire", "ttl": 5, "check": true})")
            << "clients[0].actions[1].check: only on a write (the client checks its lease before "
               "writing), not on an acquire";
        QTest::newRow("check not a boolean")
            << action(R"({"at": 1, "do": "write", "value": "v", "check": "yes"})")
            << "clients[0].actions[1].check: must be true or false, not \"yes\"";
        QTest::newRow("check null")
            << action(R"({"at": 1, "do": "write", "value": "v", "check": null})")
            << "clients[0].actions[1].check: must be true or false, not null";
        QTest::newRow("gap without check")
            << action(R"({"at": 1, "do": "write", "value": "v", "gap": 2})")
            << "clients[0].actions[1].gap: only with \"check\": true";
        QTest::newRow("gap with check false")
            << action(R"({"at": 1, "do": "write", "value": "v", "check": false, "gap": 2})")
            << "clients[0].actions[1].gap: only with \"check\": true";
        QTest::newRow("gap before check in the file") // the order of the keys does not matter
            << action(R"({"gap": -1, "at": 1, "do": "write", "value": "v", "check": true})")
            << "clients[0].actions[1].gap: must be a non-negative integer, not -1";
        QTest::newRow("gap beyond 2^53")
            << action(
                   R"({"at": 1, "do": "write", "value": "v", "check": true, "gap": 9007199254740993})")
            << "clients[0].actions[1].gap: must be a non-negative integer no larger than 2^53 "
               "(9007199254740992), not 9007199254740993";
        QTest::newRow("gap on a read")
            << action(R"({"at": 1, "do": "read", "gap": 1})")
            << "clients[0].actions[1].gap: only on a write (the ticks between a write's check and "
               "its send), not on a read";
        QTest::newRow("group empty")
            << action(R"({"at": 1, "do": "write", "value": "v", "group": ""})")
            << "clients[0].actions[1].group: must be a non-empty string, not \"\"";
        QTest::newRow("group number")
            << action(R"({"at": 1, "do": "write", "value": "v", "group": 3})")
            << "clients[0].actions[1].group: must be a non-empty string, not 3";
        QTest::newRow("group on a pause")
            << action(R"({"at": 1, "do": "pause", "for": 2, "group": "g"})")
            << "clients[0].actions[1].group: only on a write (one update across storages), not on "
               "a pause";

        // read: storage and delay as a write's, no value
        QTest::newRow("read with a value") << action(R"({"at": 1, "do": "read", "value": "v"})")
                                           << "clients[0].actions[1].value: not on a read (a read "
                                              "learns a storage's version; it writes no value)";
        QTest::newRow("read of an unknown storage")
            << action(R"({"at": 1, "do": "read", "storage": "cache"})")
            << "clients[0].actions[1].storage: unknown storage \"cache\" (known: db, log)";
        QTest::newRow("read storage not a string")
            << action(R"({"at": 1, "do": "read", "storage": 1})")
            << "clients[0].actions[1].storage: must be a storage name, not a number";
        QTest::newRow("read delay negative")
            << action(R"({"at": 1, "do": "read", "delay": -1})")
            << "clients[0].actions[1].delay: must be a non-negative integer, not -1";
        QTest::newRow("read without at")
            << action(R"({"do": "read"})")
            << "clients[0].actions[1].at: missing (every action needs the tick it happens at)";
        QTest::newRow("unknown action names read")
            << action(R"({"at": 1, "do": "cas"})")
            << "clients[0].actions[1].do: unknown action \"cas\" (known: acquire, release, pause, "
               "write, read)";

        // clock: the rate by its decimal text
        QTest::newRow("clock not an object")
            << client(R"("clock": 2)")
            << "clients[1].clock: must be an object (rate, steps), not 2";
        QTest::newRow("rate 0") << client(R"("clock": {"rate": 0})") << rate + "0";
        QTest::newRow("rate 0.000") << client(R"("clock": {"rate": 0.000})") << rate + "0.000";
        QTest::newRow("rate 0.0005") << client(R"("clock": {"rate": 0.0005})") << rate + "0.0005";
        QTest::newRow("rate 1.0005") << client(R"("clock": {"rate": 1.0005})") << rate + "1.0005";
        QTest::newRow("rate 5e-4") << client(R"("clock": {"rate": 5e-4})") << rate + "5e-4";
        // a double would hold this as 0.1; its decimal value has 19 decimals
        QTest::newRow("rate 0.1000000000000000001")
            << client(R"("clock": {"rate": 0.1000000000000000001})")
            << rate + "0.1000000000000000001";
        QTest::newRow("rate 100.001")
            << client(R"("clock": {"rate": 100.001})") << rate + "100.001";
        QTest::newRow("rate 1e3") << client(R"("clock": {"rate": 1e3})") << rate + "1e3";
        QTest::newRow("rate 2^53")
            << client(R"("clock": {"rate": 9007199254740992})") << rate + "9007199254740992";
        QTest::newRow("rate negative") << client(R"("clock": {"rate": -1})") << rate + "-1";
        QTest::newRow("rate -0") << client(R"("clock": {"rate": -0})") << rate + "-0";
        QTest::newRow("rate string") << client(R"("clock": {"rate": "1.5"})") << rate + "\"1.5\"";
        QTest::newRow("rate true") << client(R"("clock": {"rate": true})") << rate + "a boolean";
        QTest::newRow("clock unknown key")
            << client(R"("clock": {"rate": 1, "offset": 3})")
            << "clients[1].clock.offset: unknown key (known: rate, steps)";
        QTest::newRow("clock duplicate key")
            << client(R"("clock": {"rate": 1, "rate": 2})")
            << "clients[1].clock.rate: duplicate key (a key may appear only once in an object)";
        QTest::newRow("steps not an array")
            << client(R"("clock": {"steps": {"at": 1, "by": 2}})")
            << "clients[1].clock.steps: must be an array, not an object";
        QTest::newRow("step not an object")
            << client(R"("clock": {"steps": [{"at": 1, "by": 2}, 5]})")
            << "clients[1].clock.steps[1]: must be an object (at, by), not 5";
        QTest::newRow("step without at")
            << client(R"("clock": {"steps": [{"by": 2}]})")
            << "clients[1].clock.steps[0].at: missing (must be a non-negative integer)";
        QTest::newRow("step without by")
            << client(R"("clock": {"steps": [{"at": 2}]})")
            << "clients[1].clock.steps[0].by: missing (must be an integer)";
        QTest::newRow("step at negative")
            << client(R"("clock": {"steps": [{"at": -2, "by": 1}]})")
            << "clients[1].clock.steps[0].at: must be a non-negative integer, not -2";
        QTest::newRow("step by fraction")
            << client(R"("clock": {"steps": [{"at": 2, "by": -0.5}]})")
            << "clients[1].clock.steps[0].by: must be an integer, not -0.5";
        QTest::newRow("step by string")
            << client(R"("clock": {"steps": [{"at": 2, "by": "3"}]})")
            << "clients[1].clock.steps[0].by: must be an integer, not a string";
        QTest::newRow("step by beyond -2^53")
            << client(R"("clock": {"steps": [{"at": 2, "by": -9007199254740993}]})")
            << "clients[1].clock.steps[0].by: must be an integer within 2^53 (9007199254740992) "
               "either way, not -9007199254740993";
        QTest::newRow("step by beyond 2^64")
            << client(R"("clock": {"steps": [{"at": 2, "by": 18446744073709551616}]})")
            << "clients[1].clock.steps[0].by: must be an integer within 2^53 (9007199254740992) "
               "either way, not 1.8446744073709552e+19";
        QTest::newRow("step unknown key")
            << client(R"("clock": {"steps": [{"at": 2, "by": 1, "slew": 1}]})")
            << "clients[1].clock.steps[0].slew: unknown key (known: at, by)";

        // bypass
        QTest::newRow("bypass string") << client(R"("bypass": "true")")
                                       << "clients[1].bypass: must be true or false, not \"true\"";
        QTest::newRow("bypass number")
            << client(R"("bypass": 1)") << "clients[1].bypass: must be true or false, not 1";

        // storages
        QTest::newRow("storage check unknown") << storage(R"("check": "cas")")
                                               << "storages[0].check: must be \"token\", "
                                                  "\"version\", \"owner\" or \"same\", not \"cas\"";
        QTest::newRow("storage check boolean")
            << storage(R"("check": true)")
            << "storages[0].check: must be \"token\", \"version\", \"owner\" or \"same\", not a "
               "boolean";
        QTest::newRow("maxToken unknown")
            << storage(R"("maxToken": "lost")")
            << "storages[0].maxToken: must be \"durable\" or \"volatile\", not \"lost\"";
        QTest::newRow("maxToken null")
            << storage(R"("maxToken": null)")
            << "storages[0].maxToken: must be \"durable\" or \"volatile\", not null";
        QTest::newRow("restarts not an array")
            << storage(R"("restarts": 3)") << "storages[0].restarts: must be an array, not 3";
        QTest::newRow("restart negative")
            << storage(R"("restarts": [4, -1])")
            << "storages[0].restarts[1]: must be a non-negative integer, not -1";
        QTest::newRow("restart fraction")
            << storage(R"("restarts": [2.5])")
            << "storages[0].restarts[0]: must be a non-negative integer, not 2.5";
        QTest::newRow("restart beyond 2^53")
            << storage(R"("restarts": [9007199254740993])")
            << "storages[0].restarts[0]: must be a non-negative integer no larger than 2^53 "
               "(9007199254740992), not 9007199254740993";
        QTest::newRow("restart string")
            << storage(R"("restarts": ["3"])")
            << "storages[0].restarts[0]: must be a non-negative integer, not a string";
        QTest::newRow("second storage") // the place names the storage
            << QByteArray(
                   R"({"fencescope": 1, "storages": [{"name": "a"}, {"name": "b", "maxToken": "ram"}],
                              "clients": [{"name": "A"}]})")
            << "storages[1].maxToken: must be \"durable\" or \"volatile\", not \"ram\"";
    }
    void pitfallKeysInvalidInput()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const LoadResult r = parseAndCheck(json);
        QVERIFY(!r.ok()); // never half a scenario
        QCOMPARE(r.error, message);
    }

    void pitfallKeysLimits()
    {
        // the rate's decimal value, however it is spelled
        const auto rateOf = [](const char *rate) -> std::optional<std::uint32_t> {
            const LoadResult r = parseAndCheck(
                QByteArray("{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"clock\": "
                           "{\"rate\": ") +
                rate + "}}]}");
            if (!r.ok())
                return std::nullopt;
            return r.scenario->clients[0].clock.rateMilli;
        };
        QCOMPARE(rateOf("0.001"), std::optional<std::uint32_t>(1));
        QCOMPARE(rateOf("100"), std::optional<std::uint32_t>(100000));
        QCOMPARE(rateOf("100.000"), std::optional<std::uint32_t>(100000));
        QCOMPARE(rateOf("1.500"), std::optional<std::uint32_t>(1500));
        QCOMPARE(rateOf("1.5000000000000000000000"), std::optional<std::uint32_t>(1500));
        QCOMPARE(rateOf("0.999"), std::optional<std::uint32_t>(999));
        QCOMPARE(rateOf("12.345"), std::optional<std::uint32_t>(12345));
        QCOMPARE(rateOf("1e-3"), std::optional<std::uint32_t>(1));
        QCOMPARE(rateOf("15E-1"), std::optional<std::uint32_t>(1500));
        QCOMPARE(rateOf("1e2"), std::optional<std::uint32_t>(100000));
        QCOMPARE(rateOf("0.0001e+1"), std::optional<std::uint32_t>(1));
        QCOMPARE(rateOf("00.5"), std::nullopt); // not JSON: a leading zero
        QCOMPARE(rateOf("1e-1000000000000"), std::nullopt);
        QCOMPARE(rateOf("100.0001"), std::nullopt);

        // every tick and count up to 2^53; a step's by down to -2^53 (with the action limit
        // lifted: it also bounds the keepalives such a run could send, tst_pitfalls)
        FileLimits unlimited;
        unlimited.maxActions = std::numeric_limits<std::size_t>::max();
        const LoadResult r = parseAndCheck(R"({"fencescope": 1,
            "storages": [{"name": "db", "restarts": [9007199254740992, 0]}],
            "clients": [{"name": "A",
                "clock": {"steps": [{"at": 9007199254740992, "by": -9007199254740992},
                                    {"at": 0, "by": 9007199254740992}]},
                "actions": [
                {"at": 0, "do": "acquire", "ttl": 5, "keepalive": 9007199254740992},
                {"at": 0, "do": "acquire", "ttl": 5, "keepalive": 1},
                {"at": 1, "do": "write", "value": "v", "check": true, "gap": 9007199254740992},
                {"at": 1, "do": "write", "value": "v", "check": true, "gap": 0},
                {"at": 1, "do": "read", "delay": 9007199254740992}]}]})",
                                                 unlimited);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Tick max = Tick(1) << 53;
        const Scenario &s = *r.scenario;
        QCOMPARE(s.storages[0].restarts, (std::vector<Tick>{0, max})); // sorted
        QCOMPARE(s.clients[0].clock.steps,
                 (std::vector<ClockStep>{{0, std::int64_t(max)}, {max, -std::int64_t(max)}}));
        const std::vector<Action> &a = s.clients[0].actions;
        QCOMPARE(a[0].keepalive(), max);
        QCOMPARE(a[1].keepalive(), Tick(1));
        QCOMPARE(a[2].gap(), max);
        QVERIFY(a[3].check && a[3].gap() == 0);
        QCOMPARE(a[4].delay(), max);

        // the lists have the limits of the lock's lists (LockOptionsFile)
        QByteArray many = "[0";
        for (int i = 1; i <= LockOptionsFile::kMaxScheduledTicks; ++i)
            many += ", " + QByteArray::number(i);
        QCOMPARE(
            parseAndCheck("{\"fencescope\": 1, \"storages\": [{\"name\": \"db\", "
                                "\"restarts\": " +
                                many + "]}], \"clients\": [{\"name\": \"A\"}]}")
                .error,
            QStringLiteral("storages[0].restarts: too many entries (100001; the limit is 100000)"));
        QByteArray steps = "[";
        for (int i = 0; i <= LockOptionsFile::kMaxClockSteps; ++i)
            steps += (i ? ", " : "") + QByteArray("{\"at\": 1, \"by\": 1}");
        QCOMPARE(
            parseAndCheck("{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"clock\": "
                                "{\"steps\": " +
                                steps + "]}}]}")
                .error,
            QStringLiteral("clients[0].clock.steps: too many entries (1001; the limit is 1000)"));
        steps.chop(QByteArray(", {\"at\": 1, \"by\": 1}").size());
        QVERIFY(
            parseAndCheck("{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"clock\": "
                                "{\"steps\": " +
                                steps + "]}}]}")
                .ok()); // exactly 1000
    }

    void pitfallKeysLoad()
    {
        const LoadResult r = parseAndCheck(R"({"fencescope": 1,
            "storages": [{"name": "db", "maxToken": "volatile", "restarts": [9, 3, 9]},
                         {"name": "objects", "check": "version", "rule": "le", "maxToken": "durable"},
                         {"name": "plain", "check": "token"}],
            "clients": [
              {"name": "A", "bypass": false, "clock": {"rate": 0.5,
                  "steps": [{"at": 7, "by": 1}, {"at": 2, "by": -4}, {"at": 7, "by": 2}]},
               "actions": [
                {"at": 0, "do": "acquire", "ttl": 9, "keepalive": 3, "wait": true},
                {"at": 1, "do": "read"},
                {"at": 2, "do": "read", "storage": "objects", "delay": 2, "ttl": 4, "note": "x"},
                {"at": 3, "do": "write", "value": "a", "check": true, "gap": 2, "group": "pair"},
                {"at": 3, "do": "write", "value": "b", "storage": "objects", "group": "pair",
                 "check": false}]},
              {"name": "job", "bypass": true, "clock": {}, "actions": [
                {"at": 4, "do": "write", "value": "c", "storage": "plain"}]}]})");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Scenario &s = *r.scenario;
        QVERIFY(!s.storages[0].durable);
        QCOMPARE(s.storages[0].restarts, (std::vector<Tick>{3, 9, 9}));
        QVERIFY(s.storages[0].check == StorageCheck::Token);
        QVERIFY(s.storages[1].check == StorageCheck::Version);
        QCOMPARE_NAME(s.storages[1].rule,
                      FenceRule::Le); // kept, though a version storage ignores it
        QVERIFY(s.storages[1].durable);
        QVERIFY(s.storages[2].check == StorageCheck::Token);
        for (const StorageSpec &st : s.storages)
            QVERIFY(st.extra.isEmpty());

        const Client &a = s.clients[0];
        QVERIFY(!a.bypass);
        QCOMPARE(a.clock.rateMilli, 500u);
        // in order of at; the two steps at 7 in the file's order
        QCOMPARE(a.clock.steps, (std::vector<ClockStep>{{2, -4}, {7, 1}, {7, 2}}));
        QVERIFY(a.extra.isEmpty());
        QCOMPARE(a.actions[0].keepalive(), Tick(3));
        QVERIFY(a.actions[0].wait); // lock options go on as before
        QVERIFY(a.actions[0].extra().isEmpty());
        QCOMPARE(a.actions[1], Action::read(1)); // the first storage, no delay
        Action read = Action::read(2, 1, 2);
        // an acquire's ttl means nothing on a read: kept, as on a write
        read.editExtra().insert(QStringLiteral("ttl"), 4);
        read.editExtra().insert(QStringLiteral("note"), QStringLiteral("x"));
        QCOMPARE(a.actions[2], read);
        Action checked = Action::write(3, QStringLiteral("a"));
        checked.check = true;
        checked.setGap(2);
        checked.setGroup(QStringLiteral("pair"));
        QCOMPARE(a.actions[3], checked);
        Action second = Action::write(3, QStringLiteral("b"), 1);
        second.setGroup(QStringLiteral("pair"));
        QCOMPARE(a.actions[4], second);

        const Client &job = s.clients[1];
        QVERIFY(job.bypass);
        QVERIFY(job.clock.isDefault()); // an empty clock is the lock service's
        QCOMPARE(job.actions[0], Action::write(4, QStringLiteral("c"), 2));
        QVERIFY(s.usesPitfalls());
        QVERIFY(s.hasVersionStorage());
    }

    void roundTripOfPitfallKeys()
    {
        Scenario s;
        s.title = QStringLiteral("every key of sections 11 and 12");
        s.storages.resize(2);
        s.storages[0].name = QStringLiteral("db");
        s.storages[1].name = QStringLiteral("objects");
        s.storages[0].durable = false;
        s.storages[0].restarts = {4, 4, 12};
        s.storages[1].check = StorageCheck::Version;
        s.storages[1].rule = FenceRule::Le;
        Client a;
        a.name = QStringLiteral("A");
        a.clock.rateMilli = 1250;
        a.clock.steps = {{3, -7}, {3, 2}, {20, 9007199254740992}};
        Action acquire = Action::acquire(0, 9);
        acquire.setKeepalive(3);
        Action checked = Action::write(2, QStringLiteral("x"), 1, 1);
        checked.check = true;
        checked.setGap(4);
        checked.setGroup(QString::fromUtf8("two \"stores\" é"));
        Action checkedNoGap = Action::write(3, QStringLiteral("y"));
        checkedNoGap.check = true;
        Action grouped = Action::write(3, QStringLiteral("z"));
        grouped.setGroup(checked.group());
        a.actions = {acquire, Action::read(1, 1, 2), Action::read(1),
                     checked, checkedNoGap,          grouped};
        Client job;
        job.name = QStringLiteral("job");
        job.actions = {Action::write(5, QStringLiteral("j"))};
        job.bypass = true;
        Client slow;
        slow.name = QStringLiteral("slow");
        slow.clock.rateMilli = 1; // 0.001
        Client fast;
        fast.name = QStringLiteral("fast");
        fast.clock.rateMilli = 100000; // 100
        fast.clock.steps = {{0, -9007199254740992}};
        s.clients = {a, job, slow, fast};

        const QByteArray text = ScenarioFile::serialize(s);
        const LoadResult r = parseAndCheck(text);
        QVERIFY2(r.ok(), qPrintable(r.error + QStringLiteral("\n") + QString::fromUtf8(text)));
        QCOMPARE(*r.scenario, s);
        QCOMPARE(ScenarioFile::serialize(*r.scenario), text); // stable

        // the saved file, key by key, as worked out by hand: defaults are left out
        // (moc misreads \" inside a raw string: the group's JSON text is put in afterwards)
        const QJsonObject expected =
            QJsonDocument::fromJson(QByteArray(R"({
          "fencescope": 1, "title": "every key of sections 11 and 12", "fencing": true,
          "lock": {"tokens": "counter"},
          "storages": [{"name": "db", "rule": "lt", "maxToken": "volatile", "restarts": [4, 4, 12]},
                       {"name": "objects", "rule": "le", "check": "version"}],
          "clients": [
            {"name": "A", "clock": {"rate": 1.25, "steps": [{"at": 3, "by": -7}, {"at": 3, "by": 2},
                                                           {"at": 20, "by": 9007199254740992}]},
             "actions": [
              {"at": 0, "do": "acquire", "ttl": 9, "keepalive": 3},
              {"at": 1, "do": "read", "storage": "objects", "delay": 2},
              {"at": 1, "do": "read"},
              {"at": 2, "do": "write", "value": "x", "storage": "objects", "delay": 1,
               "check": true, "gap": 4, "group": "@GROUP@"},
              {"at": 3, "do": "write", "value": "y", "check": true},
              {"at": 3, "do": "write", "value": "z", "group": "@GROUP@"}]},
            {"name": "job", "bypass": true, "actions": [{"at": 5, "do": "write", "value": "j"}]},
            {"name": "slow", "clock": {"rate": 0.001}, "actions": []},
            {"name": "fast", "clock": {"rate": 100, "steps": [{"at": 0, "by": -9007199254740992}]},
             "actions": []}]})")
                                        .replace("@GROUP@", "two \\\"stores\\\" \xc3\xa9"))
                .object();
        QVERIFY(!expected.isEmpty());
        QCOMPARE(QJsonDocument::fromJson(text).object(), expected);
        // the rates as the shortest decimals (a double's text could read 1.2500000000000002)
        QVERIFY(text.contains("\"clock\": { \"rate\": 1.25, \"steps\""));
        QVERIFY(text.contains("\"clock\": { \"rate\": 0.001 }"));
        QVERIFY(text.contains("\"clock\": { \"rate\": 100, \"steps\""));
    }

    void versionOneFilesSaveWithoutTheNewKeys()
    {
        // a scenario that uses nothing of sections 11 and 12 is written as before: every key
        // the writer knows, and none of the new ones (the built-in files' round trip above
        // checks the text of the files that predate them)
        for (std::uint64_t seed = 0; seed < 50; ++seed) {
            const Scenario s = TestSupport::randomScenario(seed);
            QVERIFY(!s.usesPitfalls());
            const QByteArray text = ScenarioFile::serialize(s);
            for (const char *key :
                 {"\"keepalive\"", "\"check\"", "\"gap\"", "\"group\"", "\"clock\"", "\"bypass\"",
                  "\"maxToken\"", "\"restarts\"", "\"read\""})
                QVERIFY2(!text.contains(key), key);
        }
        // each new key set to its default explicitly loads as if it were left out
        const LoadResult r = parseAndCheck(R"({"fencescope": 1,
            "storages": [{"name": "db", "check": "token", "maxToken": "durable", "restarts": []}],
            "clients": [{"name": "A", "bypass": false, "clock": {"rate": 1, "steps": []},
                "actions": [{"at": 0, "do": "write", "value": "v", "check": false}]}]})");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const LoadResult plain = parseAndCheck(R"({"fencescope": 1,
            "clients": [{"name": "A", "actions": [{"at": 0, "do": "write", "value": "v"}]}]})");
        QVERIFY2(plain.ok(), qPrintable(plain.error));
        QCOMPARE(*r.scenario, *plain.scenario);
        QCOMPARE(ScenarioFile::serialize(*r.scenario), ScenarioFile::serialize(*plain.scenario));
    }

    void integersUpTo2Pow53AreAccepted()
    {
        const QByteArray json = withClients(
            "[{\"name\": \"A\", \"actions\": ["
            "{\"at\": 9007199254740992, \"do\": \"acquire\", \"ttl\": 9007199254740992},"
            "{\"at\": 9007199254740992, \"do\": \"pause\", \"for\": 9007199254740992},"
            "{\"at\": 0, \"do\": \"write\", \"value\": \"v\", \"delay\": 9007199254740992},"
            "{\"at\": 1e3, \"do\": \"release\"}]}]");
        const LoadResult r = parseAndCheck(json.chopped(1) + ", \"horizon\": 9007199254740992}");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Scenario &s = *r.scenario;
        const Tick max = Tick(1) << 53;
        QCOMPARE(s.clients[0].actions[0].at, max);
        QCOMPARE(s.clients[0].actions[0].ttl(), max);
        QCOMPARE(s.clients[0].actions[1].length(), max);
        QCOMPARE(s.clients[0].actions[2].delay(), max);
        QCOMPARE(s.clients[0].actions[3].at, Tick(1000)); // integer-valued, written with exponent
        QCOMPARE(*s.horizon, max);
        // simulates without overflow: the acquire at 2^53 is frozen by the pause starting at
        // the same tick, runs when it thaws at 2^54 and expires at 2^54 + 2^53
        const Trace t = simulate(s);
        QCOMPARE(t.grants.size(), std::size_t(1));
        QCOMPARE(t.grants[0].at, max * 2);
        QCOMPARE(t.grants[0].expires, max * 3);
        QCOMPARE(t.writes[0].arrivedAt, max);
    }

    void defaultsWhenLeftOut()
    {
        const LoadResult r = parseAndCheck(withClients(
            "[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"v\"}]},"
            " {\"name\": \"B\"}]"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Scenario &s = *r.scenario;
        QCOMPARE(s.title, QString());
        QVERIFY(!s.horizon.has_value());
        QVERIFY(s.fencing);
        QVERIFY(s.tokens == TokenSource::Counter);
        QCOMPARE(s.storages.size(), std::size_t(1));
        QCOMPARE(s.storages[0].name, QStringLiteral("db"));
        QCOMPARE_NAME(s.storages[0].rule, FenceRule::Lt);
        QCOMPARE(s.clients.size(), std::size_t(2));
        QVERIFY(s.clients[1].actions.empty());
        QCOMPARE(s.clients[0].actions[0].storage, 0u);
        QCOMPARE(s.clients[0].actions[0].delay(), Tick(0));

        // a write's storage defaults to the first storage, whatever its name
        const LoadResult two = parseAndCheck(QByteArray(
            "{\"fencescope\": 1, \"fencing\": false, \"storages\": [{\"name\": \"main\", \"rule\": \"le\"}, {\"name\": \"db\"}],"
            " \"clients\": [{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"v\"},"
            " {\"at\": 2, \"do\": \"write\", \"value\": \"w\", \"storage\": \"db\", \"delay\": 4}]}]}"));
        QVERIFY2(two.ok(), qPrintable(two.error));
        QVERIFY(!two.scenario->fencing);
        QCOMPARE_NAME(two.scenario->storages[0].rule, FenceRule::Le);
        QCOMPARE(two.scenario->clients[0].actions[0].storage, 0u);
        QCOMPARE(two.scenario->clients[0].actions[1].storage, 1u);
        QCOMPARE(two.scenario->clients[0].actions[1].delay(), Tick(4));
    }

    // ---- files ------------------------------------------------------------------------------

    void fileErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // a missing file
        const QString missing = dir.filePath(QStringLiteral("nope.json"));
        LoadResult r = loadAndCheck(missing);
        QVERIFY(!r.ok());
        QCOMPARE(r.error, QStringLiteral("file: cannot open %1 (No such file or directory)").arg(missing));
        // a directory
        r = loadAndCheck(dir.path());
        QVERIFY(!r.ok());
        QCOMPARE(r.error, QStringLiteral("file: %1 is a folder, not a scenario file").arg(dir.path()));
        // an empty file
        const QString empty = dir.filePath(QStringLiteral("empty.json"));
        QVERIFY(writeAll(empty, {}));
        r = loadAndCheck(empty);
        QVERIFY(!r.ok());
        QCOMPARE(r.error, QStringLiteral("line 1, column 1: not valid JSON (illegal value)"));
        // a top-level array
        const QString array = dir.filePath(QStringLiteral("array.json"));
        QVERIFY(writeAll(array, "[]"));
        r = loadAndCheck(array);
        QCOMPARE(r.error, QStringLiteral("file: must be a JSON object with \"fencescope\": 1 at "
                                         "the top, not an array"));
    }

    void limits()
    {
        const QByteArray four = withClients(
            "[{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"release\"}, {\"at\": 2, \"do\": \"release\"}]},"
            " {\"name\": \"B\", \"actions\": [{\"at\": 1, \"do\": \"release\"}, {\"at\": 2, \"do\": \"release\"}]}]");
        FileLimits l;
        l.maxActions = 4;
        QVERIFY(parseAndCheck(four, l).ok());
        l.maxActions = 3; // counted over all clients: B's list takes the total to 4
        QCOMPARE(parseAndCheck(four, l).error,
                 QStringLiteral("clients[1].actions: too many actions (more than 3 in the file)"));

        l = FileLimits();
        l.maxClients = 2;
        QVERIFY(parseAndCheck(four, l).ok());
        l.maxClients = 1;
        QCOMPARE(parseAndCheck(four, l).error,
                 QStringLiteral("clients: too many clients (2; the limit is 1)"));

        const QByteArray storages = QByteArray(
            "{\"fencescope\": 1, \"storages\": [{\"name\": \"a\"}, {\"name\": \"b\"}], \"clients\": [{\"name\": \"A\"}]}");
        l = FileLimits();
        l.maxStorages = 2;
        QVERIFY(parseAndCheck(storages, l).ok());
        l.maxStorages = 1;
        QCOMPARE(parseAndCheck(storages, l).error,
                 QStringLiteral("storages: too many storages (2; the limit is 1)"));

        // file size: parse() and load() both check; 3 MiB against a 2 MiB limit
        l = FileLimits();
        l.maxFileBytes = qint64(2) << 20;
        QByteArray big = withClients("[{\"name\": \"A\"}]");
        big.chop(1);
        big += ", \"padding\": \"" + QByteArray(3 << 20, 'x') + "\"}";
        QCOMPARE(parseAndCheck(big, l).error,
                 QStringLiteral("file: too large (3.0 MiB; the limit is 2.0 MiB)"));
        QVERIFY(parseAndCheck(big).ok()); // fine under the default 256 MiB
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QVERIFY(writeAll(path, big));
        QCOMPARE(loadAndCheck(path, l).error,
                 QStringLiteral("file: too large (3.0 MiB; the limit is 2.0 MiB)"));

        // nesting: the default scenario needs 5 levels (root, clients, client, actions,
        // action); with a limit of 4 the first action object (line 11, column 7) is too deep
        const QByteArray def = readAll(QStringLiteral(":/scenarios/default.json"));
        l = FileLimits();
        l.maxDepth = 5;
        QVERIFY(parseAndCheck(def, l).ok());
        l.maxDepth = 4;
        QCOMPARE(parseAndCheck(def, l).error,
                 QStringLiteral("line 11, column 7: nested too deeply (more than 4 levels)"));

        // the default limit of 64 levels: an unknown key nesting 63 arrays under the root is
        // kept; 64 arrays make the 65th level, at the 64th '[' (column 20 + 64 = 84)
        const QByteArray prefix = "{\"fencescope\":1,\"x\":";
        const auto nested = [&](int n) {
            return prefix + QByteArray(n, '[') + QByteArray(n, ']') +
                   ",\"clients\":[{\"name\":\"A\"}]}";
        };
        QVERIFY(parseAndCheck(nested(63)).ok());
        QCOMPARE(parseAndCheck(nested(64)).error,
                 QStringLiteral("line 1, column 84: nested too deeply (more than 64 levels)"));
        // brackets inside strings do not count
        QVERIFY(parseAndCheck(prefix + "\"" + QByteArray(100, '[') + "\\\"\",\"clients\":[{\"name\":\"A\"}]}").ok());
        // a deep bomb is refused without a crash
        QVERIFY(!parseAndCheck(QByteArray(1 << 20, '[')).ok());
    }

    // ---- round trips and unknown keys -------------------------------------------------------

    void roundTripOfBuiltinFiles()
    {
        const QStringList files = resourceScenarioFiles();
        QCOMPARE(files.size(), 31); // every built-in file, README "Scenario files"
        for (const QString &path : files) {
            const LoadResult r = loadAndCheck(path);
            QVERIFY2(r.ok(), qPrintable(path + QStringLiteral(": ") + r.error));
            const QByteArray text = ScenarioFile::serialize(*r.scenario);
            const LoadResult again = parseAndCheck(text);
            QVERIFY2(again.ok(), qPrintable(again.error));
            QCOMPARE(*again.scenario, *r.scenario);
            QCOMPARE(ScenarioFile::serialize(*again.scenario), text); // stable
            // and it says the same as the original file, key by key
            QCOMPARE(QJsonDocument::fromJson(text).object(),
                     withoutDefaultWriteKeys(QJsonDocument::fromJson(readAll(path)).object()));
        }
    }

    void roundTripOfRandomScenarios()
    {
        TestSupport::RandomScenarioOptions o;
        o.lePercent = 30;
        o.shufflePercent = 50;
        for (std::uint64_t seed = 0; seed < 2000; ++seed) {
            Scenario s = TestSupport::randomScenario(seed, o);
            if (seed % 3 == 0)
                s.horizon = seed + 1;
            if (seed % 5 == 0)
                s.description = QStringLiteral("seed %1").arg(seed);
            s.fencing = seed % 2 == 0;
            const LoadResult r = parseAndCheck(ScenarioFile::serialize(s));
            QVERIFY2(r.ok(), qPrintable(r.error));
            QVERIFY2(*r.scenario == s, qPrintable(s.title));
        }
    }

    void roundTripOfAwkwardStrings()
    {
        Scenario s;
        s.title = QStringLiteral("quotes \" backslash \\ slash / tab \t newline \n cr \r");
        s.description = QString::fromUtf8("unicode é ü 漢字 emoji \xF0\x9F\x94\x92 control \x01\x1f");
        s.storages.assign(2, StorageSpec());
        s.storages[0].name = QStringLiteral("d\"b");
        s.storages[0].rule = FenceRule::Le;
        s.storages[1].name = QString::fromUtf8("stö rage");
        s.clients = {Client{QString::fromUtf8("Ä \\ \""), {Action::write(0, QString(), 1, 3),
                                                           Action::write(1, QStringLiteral("\n"), 0, 0)},
                            {}, false, {}}};
        const LoadResult r = parseAndCheck(ScenarioFile::serialize(s));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(*r.scenario, s);
    }

    void unknownKeysAreKeptAtEveryLevel()
    {
        const QByteArray json = R"({
          "fencescope": 1,
          "future": { "nested": [1, 2.5, "x", null, true, {"deep": []}] },
          "title": "t",
          "lock": { "tokens": "counter", "replicas": 3 },
          "storages": [ { "name": "db", "rule": "lt", "region": "eu", "shards": [1, 2] } ],
          "clients": [
            { "name": "A", "color": "#ff0000", "actions": [
              { "at": 0, "do": "acquire", "ttl": 10, "note": "first" },
              { "at": 1, "do": "pause", "for": 2, "reason": "gc" },
              { "at": 4, "do": "write", "value": "v", "storage": "db", "delay": 1, "size": 1.25 },
              { "at": 5, "do": "release", "why": null } ] }
          ],
          "zzz": false
        })";
        const LoadResult r = parseAndCheck(json);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Scenario &s = *r.scenario;
        QCOMPARE(s.extra.size(), 2);
        QCOMPARE(s.extra.value(QStringLiteral("future")).toObject().value(QStringLiteral("nested")).toArray().size(), 6);
        QCOMPARE(s.extra.value(QStringLiteral("zzz")), QJsonValue(false));
        QCOMPARE(s.lockExtra.value(QStringLiteral("replicas")).toInt(), 3);
        QCOMPARE(s.storages[0].extra.value(QStringLiteral("region")).toString(), QStringLiteral("eu"));
        QCOMPARE(s.clients[0].extra.value(QStringLiteral("color")).toString(), QStringLiteral("#ff0000"));
        const auto &a = s.clients[0].actions;
        QCOMPARE(a[0].extra().value(QStringLiteral("note")).toString(), QStringLiteral("first"));
        QCOMPARE(a[1].extra().value(QStringLiteral("reason")).toString(), QStringLiteral("gc"));
        QCOMPARE(a[2].extra().value(QStringLiteral("size")).toDouble(), 1.25);
        QCOMPARE(a[2].extra().size(), 1); // value, storage and delay are known keys
        QVERIFY(a[3].extra().contains(QStringLiteral("why")));
        QVERIFY(a[3].extra().value(QStringLiteral("why")).isNull());

        // serialize keeps every key: the saved file equals the original as JSON
        const QByteArray text = ScenarioFile::serialize(s);
        const LoadResult again = parseAndCheck(text);
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(*again.scenario, s);
        QJsonObject expected = withoutDefaultWriteKeys(QJsonDocument::fromJson(json).object());
        // the writer spells out the defaults it fills in
        expected.insert(QStringLiteral("fencing"), true);
        QCOMPARE(QJsonDocument::fromJson(text).object(), expected);
    }

    // ---- saving -----------------------------------------------------------------------------

    void saveAndLoad()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.json"));
        const Scenario s = TestSupport::randomScenario(42);
        QString error;
        QVERIFY2(ScenarioFile::save(s, path, &error), qPrintable(error));
        QVERIFY(error.isEmpty());
        const LoadResult r = loadAndCheck(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(*r.scenario, s);
        // overwrite in place
        const Scenario other = TestSupport::randomScenario(43);
        QVERIFY(ScenarioFile::save(other, path, &error));
        QCOMPARE(*loadAndCheck(path).scenario, other);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList({"s.json"}));
    }

    void saveIntoAMissingFolderFails()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("no/such/folder/s.json"));
        QString error;
        QVERIFY(!ScenarioFile::save(TestSupport::randomScenario(1), path, &error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot save ") + path), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }

    void saveBelowARegularFileFails()
    {
        // root ignores permissions, so make the parent "folder" a regular file instead
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("plain"));
        QVERIFY(writeAll(file, "keep me"));
        QString error;
        QVERIFY(!ScenarioFile::save(TestSupport::randomScenario(1), file + QStringLiteral("/s.json"),
                                    &error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot save ")), qPrintable(error));
        QCOMPARE(readAll(file), QByteArray("keep me"));
    }

    void failedSaveLeavesTheOldFileIntact()
    {
        // Make the write itself fail half way, for root too: a file size limit (RLIMIT_FSIZE)
        // smaller than the new file. The old, smaller file must survive unchanged and no
        // temporary file may be left behind.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.json"));
        const Scenario small = ScenarioFile::defaultScenario();
        QVERIFY(ScenarioFile::save(small, path));
        const QByteArray before = readAll(path);

        TestSupport::RandomScenarioOptions o;
        o.minActions = o.maxActions = 200;
        const Scenario large = TestSupport::randomScenario(7, o);
        QVERIFY(ScenarioFile::serialize(large).size() > 4 * before.size());

        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN); // get EFBIG, not a signal
        rlimit tight = old;
        tight.rlim_cur = rlim_t(before.size() + 100);
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &tight), 0);
        QString error;
        const bool saved = ScenarioFile::save(large, path, &error);
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);

        QVERIFY(!saved);
        QVERIFY2(error.startsWith(QStringLiteral("cannot save ") + path), qPrintable(error));
        QCOMPARE(readAll(path), before);
        QCOMPARE(*loadAndCheck(path).scenario, small);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList({"s.json"}));
    }

    // ---- the built-in scenarios -------------------------------------------------------------

    void defaultScenarioIsTheSpecExample()
    {
        const Scenario d = ScenarioFile::defaultScenario();
        const LoadResult r = loadAndCheck(ScenarioFile::builtinPath(QStringLiteral("default")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(d, *r.scenario);
        QCOMPARE(d.clients.size(), std::size_t(2));
        QCOMPARE(d.clients[0].name, QStringLiteral("A"));
        QCOMPARE(d.clients[1].name, QStringLiteral("B"));
        QCOMPARE(d.title, QStringLiteral("Paused client wakes after its lease expired"));
        QCOMPARE(*d.horizon, Tick(40));
        QVERIFY(d.fencing);
        QCOMPARE(d.storages.size(), std::size_t(1));
        QCOMPARE(d.storages[0].name, QStringLiteral("db"));
        // the actions of docs/SCENARIO.md section 7, except that A's write is scheduled inside the
        // pause (at 2, deferred to the thaw at 30) so that it follows the pause when it is dragged
        QCOMPARE(d.clients[0].actions, (std::vector<Action>{Action::acquire(0, 10), Action::pause(1, 29),
                                                             Action::write(2, QStringLiteral("A"))}));
        QCOMPARE(d.clients[1].actions,
                 (std::vector<Action>{Action::acquire(5, 10), Action::acquire(12, 10),
                                      Action::write(13, QStringLiteral("B"), 0, 0)}));
    }

    void builtinsAreCompiledInAndMatchTheSources()
    {
        const QStringList names = ScenarioFile::builtinNames();
        QCOMPARE(names.first(), QStringLiteral("default"));
        QCOMPARE(names.size(), resourceScenarioFiles().size());
        for (const QString &name : names) {
            const QString resource = ScenarioFile::builtinPath(name);
            QCOMPARE(readAll(resource),
                     readAll(QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/%1.json").arg(name)));
            const LoadResult r = loadAndCheck(resource);
            QVERIFY2(r.ok(), qPrintable(name + QStringLiteral(": ") + r.error));
            QVERIFY(!r.scenario->title.isEmpty());
            QVERIFY(!r.scenario->description.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestScenarioFile)
#include "tst_scenariofile.moc"
