// The check (ScenarioFile::checkBytes, checkFile) against the loader (parse, load): it reads
// every action into one scratch action instead of keeping it, and must say exactly what the
// loader says of the same bytes (the same message, the same place) and count what it loads.
// Every file of the test data, the fuzz corpus and regressions and the built-in scenarios, and
// thousands of mutations of them, through both; the cases where the check keeps a problem for
// later (an acquire's wait keys, the keepalive bound) one by one. tst_scenariofile puts every
// input of its own tables through both as well.
// A large file is read in parts, by a thread for each core (core/fastload/): the same
// inputs read in parts of a few actions each must give the same scenario, the same counts and
// the same message, and a valid file must be read in parts, not fall back to reading alone.
// Under FENCESCOPE_QUICK=1 (the sanitizer suite, scripts/sanitize.sh) each input gets a tenth of
// the mutations (a fifth when read in parts); every input is still read as it is.
// Over 600 lines: those tests run on this file's inputs and mutations, which stay in one place.

#include "fastload/fastload.h"
#include "randomscenario.h"
#include "scenariofile.h"
#include "scenariofileread.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Core;
using Core::ScenarioFormat::ActionTally;

namespace {

// A file read in `parts` parts in chunks of about `block` bytes, by the reader's own parts (as
// parsePadded() reads a large one, but whatever its size).
std::optional<Scenario> readInParts(simdjson::ondemand::parser &parser, const char *data,
                                    std::size_t size, const FileLimits &limits, ActionTally &tally,
                                    bool keep, int parts, std::size_t block)
{
    return FastLoad::readInParts(parser, data, size, limits, tally, keep, parts, block,
                                 ScenarioFormat::partReader);
}

// "" when the check agrees with the loader, else what differs.
QString difference(const LoadResult &loaded, const CheckResult &checked)
{
    if (loaded.error != checked.error)
        return QStringLiteral("load: \"%1\"\ncheck: \"%2\"").arg(loaded.error, checked.error);
    if (loaded.ok() != checked.ok())
        return QStringLiteral("ok differs");
    if (!loaded.ok())
        return {};
    const Scenario &s = *loaded.scenario;
    if (s.title != checked.title || s.clients.size() != checked.clients ||
        s.storages.size() != checked.storages || s.actionCount() != checked.actions)
        return QStringLiteral("load: \"%1\" %2 clients %3 storages %4 actions\n"
                              "check: \"%5\" %6 clients %7 storages %8 actions")
            .arg(s.title)
            .arg(s.clients.size())
            .arg(s.storages.size())
            .arg(s.actionCount())
            .arg(checked.title)
            .arg(checked.clients)
            .arg(checked.storages)
            .arg(checked.actions);
    return {};
}

QString bytesDifference(const QByteArray &bytes, const FileLimits &limits = {})
{
    return difference(ScenarioFile::parse(bytes, limits), ScenarioFile::checkBytes(bytes, limits));
}

// Limits a small file reaches: the action, client and storage limits, and nesting.
FileLimits tightLimits()
{
    FileLimits l;
    l.maxActions = 5;
    l.maxClients = 2;
    l.maxStorages = 1;
    l.maxDepth = 5;
    return l;
}

// The same limits, with every file read in `parts` parts, in chunks of `block` bytes.
FileLimits inParts(FileLimits l, int parts, std::size_t block)
{
    l.partsFrom = 0;
    l.parts = parts;
    l.partBytes = block;
    return l;
}

// "" when reading in parts (load and check) says what reading alone says.
QString partsDifference(const QByteArray &bytes, const FileLimits &limits, int parts,
                        std::size_t block)
{
    FileLimits alone = limits;
    alone.parts = 1;
    const LoadResult loaded = ScenarioFile::parse(bytes, alone);
    const FileLimits split = inParts(limits, parts, block);
    const LoadResult loadedInParts = ScenarioFile::parse(bytes, split);
    const QString where = QStringLiteral(" (%1 parts, chunks of %2 bytes)").arg(parts).arg(block);
    if (loaded.error != loadedInParts.error)
        return QStringLiteral("alone: \"%1\"\nin parts: \"%2\"")
                   .arg(loaded.error, loadedInParts.error) +
               where;
    if (loaded.ok() && *loaded.scenario != *loadedInParts.scenario)
        return QStringLiteral("the scenarios differ") + where;
    const QString checked = difference(loaded, ScenarioFile::checkBytes(bytes, split));
    return checked.isEmpty() ? checked : checked + where;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// `full` mutations of an input, or `quick` under FENCESCOPE_QUICK
int mutationCount(int full, int quick)
{
    return qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? quick : full;
}

QStringList inputFiles()
{
    QStringList files;
    for (const QString &dir :
         {QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios"),
          QStringLiteral(FENCESCOPE_TESTDATA), QStringLiteral(FENCESCOPE_SOURCE_DIR "/fuzz/corpus"),
          QStringLiteral(FENCESCOPE_SOURCE_DIR "/fuzz/regressions")}) {
        QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            // (lesson files are not scenario files: tst_lessonfile reads them)
            if (!path.endsWith(QLatin1String(".gitkeep")) &&
                !path.endsWith(QLatin1String(".fencescope-lesson.json")))
                files << path;
        }
    }
    files.sort();
    return files;
}

// Odd values for a mutated key: wrong types, out of range, names that exist and do not.
QJsonValue oddValue(TestSupport::Rng &rng)
{
    static const QList<QJsonValue> values{QJsonValue(-1),
                                          QJsonValue(0),
                                          QJsonValue(1),
                                          QJsonValue(3),
                                          QJsonValue(1.5),
                                          QJsonValue(9007199254740993.0),
                                          QJsonValue(QStringLiteral("x")),
                                          QJsonValue(QStringLiteral("")),
                                          QJsonValue(QStringLiteral("db")),
                                          QJsonValue(QStringLiteral("acquire")),
                                          QJsonValue(QStringLiteral("write")),
                                          QJsonValue(QStringLiteral("read")),
                                          QJsonValue(QStringLiteral("le")),
                                          QJsonValue(QStringLiteral("etcd")),
                                          QJsonValue(QStringLiteral("version")),
                                          QJsonValue(true),
                                          QJsonValue(false),
                                          QJsonValue(QJsonValue::Null),
                                          QJsonValue(QJsonArray{}),
                                          QJsonValue(QJsonArray{1, 0}),
                                          QJsonValue(QJsonObject{}),
                                          QJsonValue(QJsonObject{{QStringLiteral("at"), 1}})};
    return values[qsizetype(rng.next() % quint64(values.size()))];
}

// Keys to add where a mutation adds one: the format's own and a few it does not know.
QString someKey(TestSupport::Rng &rng)
{
    static const QStringList keys{
        QStringLiteral("at"),        QStringLiteral("do"),        QStringLiteral("ttl"),
        QStringLiteral("for"),       QStringLiteral("value"),     QStringLiteral("storage"),
        QStringLiteral("delay"),     QStringLiteral("keepalive"), QStringLiteral("check"),
        QStringLiteral("gap"),       QStringLiteral("group"),     QStringLiteral("wait"),
        QStringLiteral("waitFor"),   QStringLiteral("name"),      QStringLiteral("clock"),
        QStringLiteral("rate"),      QStringLiteral("steps"),     QStringLiteral("restarts"),
        QStringLiteral("tokens"),    QStringLiteral("first"),     QStringLiteral("restores"),
        QStringLiteral("lockDelay"), QStringLiteral("horizon"),   QStringLiteral("later")};
    return keys[qsizetype(rng.next() % quint64(keys.size()))];
}

// One change somewhere inside v: a value replaced, a key added or removed, an element dropped.
QJsonValue mutated(const QJsonValue &v, TestSupport::Rng &rng, int depth = 0)
{
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        const QStringList keys = o.keys();
        const std::uint64_t what = rng.next() % 8;
        if (keys.isEmpty() || what == 0) {
            o.insert(someKey(rng), oddValue(rng));
            return o;
        }
        const QString key = keys[qsizetype(rng.next() % quint64(keys.size()))];
        if (what == 1)
            o.remove(key);
        else if (what == 2 || depth > 6)
            o.insert(key, oddValue(rng));
        else
            o.insert(key, mutated(o.value(key), rng, depth + 1));
        return o;
    }
    if (v.isArray()) {
        QJsonArray a = v.toArray();
        if (a.isEmpty())
            return rng.chance(50) ? QJsonValue(a) : oddValue(rng);
        const auto i = qsizetype(rng.next() % quint64(a.size()));
        const std::uint64_t what = rng.next() % 6;
        if (what == 0)
            a.removeAt(i);
        else if (what == 1)
            a.append(a.at(i)); // a duplicate at the end, out of time order
        else
            a.replace(i, mutated(a.at(i), rng, depth + 1));
        return a;
    }
    return oddValue(rng);
}

// Byte-level damage: a byte dropped, replaced or a token inserted.
QByteArray damaged(QByteArray bytes, TestSupport::Rng &rng)
{
    static const QList<QByteArray> tokens{"\"",   "{",      "}",    "[",     "]",  ",",
                                          ":",    "-",      "0",    "1e999", "\\", " ",
                                          "null", "\"x\":", "\xff", "\x01"};
    if (bytes.isEmpty())
        return tokens[qsizetype(rng.next() % quint64(tokens.size()))];
    const auto at = qsizetype(rng.next() % quint64(bytes.size()));
    switch (rng.next() % 3) {
    case 0:
        bytes.remove(at, 1);
        break;
    case 1:
        bytes[at] = tokens[qsizetype(rng.next() % quint64(tokens.size()))].at(0);
        break;
    default:
        bytes.insert(at, tokens[qsizetype(rng.next() % quint64(tokens.size()))]);
        break;
    }
    return bytes;
}

QByteArray withClients(const char *clients)
{
    return QByteArray("{\"fencescope\": 1, \"clients\": ") + clients + "}";
}

} // namespace

class TestScenarioFileCheck : public QObject
{
    Q_OBJECT

private slots:
    void everyFileSaysTheSame_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = inputFiles();
        QVERIFY(files.size() >= 60); // the corpora are there
        for (const QString &path : files)
            QTest::newRow(qPrintable(path.mid(int(sizeof(FENCESCOPE_SOURCE_DIR))))) << path;
    }
    void everyFileSaysTheSame()
    {
        QFETCH(QString, path);
        const QByteArray bytes = readFile(path);
        // from the file (mapped) and from bytes in memory, with the default and tight limits
        QCOMPARE(difference(ScenarioFile::load(path), ScenarioFile::checkFile(path)), QString());
        QCOMPARE(bytesDifference(bytes), QString());
        QCOMPARE(difference(ScenarioFile::load(path, tightLimits()),
                            ScenarioFile::checkFile(path, tightLimits())),
                 QString());
        QCOMPARE(bytesDifference(bytes, tightLimits()), QString());
    }

    void everyBuiltinChecksWithItsCounts()
    {
        for (const QString &name : ScenarioFile::builtinNames()) {
            const QString path = ScenarioFile::builtinPath(name);
            const LoadResult loaded = ScenarioFile::load(path);
            QVERIFY2(loaded.ok(), qPrintable(name + QLatin1String(": ") + loaded.error));
            const CheckResult checked = ScenarioFile::checkFile(path);
            QVERIFY2(checked.ok(), qPrintable(checked.error));
            QCOMPARE(checked.actions, loaded.scenario->actionCount());
            QVERIFY(checked.actions > 0);
            QCOMPARE(checked.clients, loaded.scenario->clients.size());
        }
    }

    void mutationsSayTheSame()
    {
        QList<QByteArray> seeds;
        for (const QString &path : inputFiles()) {
            const QByteArray bytes = readFile(path);
            if (QJsonDocument::fromJson(bytes).isObject())
                seeds << bytes;
        }
        for (int seed = 1; seed <= 20; ++seed) {
            TestSupport::RandomScenarioOptions o;
            o.lePercent = 20;
            seeds << ScenarioFile::serialize(TestSupport::randomScenario(std::uint64_t(seed), o));
        }
        QVERIFY(seeds.size() > 40);
        TestSupport::Rng rng(20261202);
        int refused = 0;
        int runs = 0;
        for (const QByteArray &seed : seeds) {
            const QJsonObject root = QJsonDocument::fromJson(seed).object();
            for (int i = 0; i < mutationCount(60, 6); ++i) {
                QJsonValue v = root;
                for (std::uint64_t n = 1 + rng.next() % 3; n > 0; --n)
                    v = mutated(v, rng);
                const QByteArray json = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
                const FileLimits limits = rng.chance(20) ? tightLimits() : FileLimits();
                const LoadResult loaded = ScenarioFile::parse(json, limits);
                refused += !loaded.ok();
                ++runs;
                const QString diff = difference(loaded, ScenarioFile::checkBytes(json, limits));
                QVERIFY2(diff.isEmpty(), qPrintable(diff + QLatin1String("\nfor ") + json));
            }
            for (int i = 0; i < mutationCount(20, 2); ++i) {
                const QByteArray bytes = damaged(seed, rng);
                const QString diff = bytesDifference(bytes);
                QVERIFY2(diff.isEmpty(), qPrintable(diff + QLatin1String("\nfor ") + bytes));
            }
        }
        // the mutations reach both sides: many refused, many still loading
        QVERIFY2(refused > runs / 4 && refused < runs * 9 / 10,
                 qPrintable(QStringLiteral("%1 of %2 refused").arg(refused).arg(runs)));
    }

    // The check reads an acquire's wait keys as it goes, and keeps the first problem: a later
    // problem of the reader's still wins, and so does one with the lock, as in the loader.
    void problemsKeptForLaterComeInTheLoadersOrder_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("wait, then a bad tick later")
            << withClients(R"([{"name": "A", "actions": [
                {"at": 1, "do": "acquire", "ttl": 5, "wait": 3},
                {"at": -1, "do": "release"}]}])")
            << "clients[0].actions[1].at: must be a non-negative integer, not -1";
        QTest::newRow("wait, then an unknown storage in the next client")
            << withClients(R"([{"name": "A", "actions": [{"at": 1, "do": "acquire", "ttl": 5,
                "waitFor": 0}]}, {"name": "B", "actions": [{"at": 1, "do": "write", "value": "v",
                "storage": "nope"}]}])")
            << "clients[1].actions[0].storage: unknown storage \"nope\" (known: db)";
        QTest::newRow("two waits: the first")
            << withClients(R"([{"name": "A", "actions": [
                {"at": 1, "do": "acquire", "ttl": 5, "waitFor": 0}]},
                {"name": "B", "actions": [{"at": 1, "do": "acquire", "ttl": 5, "wait": 1}]}])")
            << "clients[0].actions[0].waitFor: must be a positive integer, not 0";
        QTest::newRow("a wait, and the lock's problem after it in the file")
            << QByteArray(R"({"fencescope": 1, "clients": [{"name": "A", "actions": [
                {"at": 1, "do": "acquire", "ttl": 5, "wait": 1}]}],
                "lock": {"lockDelay": -2}})")
            << "lock.lockDelay: must be a non-negative integer, not -2";
        QTest::newRow("a wait's problem before the keepalive bound")
            << withClients(R"([{"name": "A", "actions": [
                {"at": 0, "do": "acquire", "ttl": 5, "keepalive": 1, "waitFor": 9007199254740992},
                {"at": 1, "do": "acquire", "ttl": 5, "wait": "no"}]}])")
            << "clients[0].actions[1].wait: must be true or false, not a string";
        QTest::newRow("keepalive bound from a restart")
            << QByteArray(R"({"fencescope": 1, "storages": [{"name": "db", "restarts": [9000000]}],
                "clients": [{"name": "A", "actions": [{"at": 0, "do": "acquire", "ttl": 5,
                "keepalive": 1}]}]})")
            << "clients[0].actions[0].keepalive: too many keepalives: with every keepalive this "
               "short, a run this long could renew more than 4000000 times (use a longer "
               "keepalive or a shorter horizon)";
        // (read in parts of one action, the first keepalive is the second part's)
        QTest::newRow("keepalive bound: the first keepalive in the file is named")
            << QByteArray(R"({"fencescope": 1, "storages": [{"name": "db", "restarts": [9000000]}],
                "clients": [{"name": "A", "actions": [{"at": 0, "do": "release"},
                {"at": 0, "do": "acquire", "ttl": 5, "keepalive": 1}]}, {"name": "B", "actions": [
                {"at": 0, "do": "release"}, {"at": 0, "do": "acquire", "ttl": 5,
                "keepalive": 1}]}]})")
            << "clients[0].actions[1].keepalive: too many keepalives: with every keepalive this "
               "short, a run this long could renew more than 4000000 times (use a longer "
               "keepalive or a shorter horizon)";
        QTest::newRow("keepalive bound from a waitFor, named at the second keepalive")
            << withClients(R"([{"name": "A", "actions": [
                {"at": 0, "do": "acquire", "ttl": 5, "keepalive": 2},
                {"at": 0, "do": "acquire", "ttl": 5, "waitFor": 4000000}]},
                {"name": "B", "actions": [{"at": 0, "do": "acquire", "ttl": 5, "keepalive": 2}]}])")
            << "clients[1].actions[0].keepalive: too many keepalives: with every keepalive this "
               "short, a run this long could renew more than 4000000 times (use a longer "
               "keepalive or a shorter horizon)";
    }
    void problemsKeptForLaterComeInTheLoadersOrder()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QCOMPARE(ScenarioFile::parse(json).error, message);
        QCOMPARE(ScenarioFile::checkBytes(json).error, message);
    }

    // Every file and mutations of it read in parts (2 to 4 threads, chunks of 1 to 3 bytes, so
    // that even in a small file every action is a chunk of its own) say what reading alone says.
    void readingInPartsSaysTheSame()
    {
        TestSupport::Rng rng(20261203);
        int runs = 0;
        for (const QString &path : inputFiles()) {
            const QByteArray bytes = readFile(path);
            for (const FileLimits &limits : {FileLimits(), tightLimits()}) {
                const QString diff =
                    partsDifference(bytes, limits, 2 + int(rng.next() % 3), 1 + rng.next() % 3);
                QVERIFY2(diff.isEmpty(), qPrintable(path + QLatin1String(": ") + diff));
            }
            const QJsonDocument doc = QJsonDocument::fromJson(bytes);
            for (int i = 0; i < mutationCount(15, 3); ++i) {
                QByteArray json;
                if (doc.isObject() && i % 3 != 0) {
                    QJsonValue v = doc.object();
                    for (std::uint64_t n = 1 + rng.next() % 3; n > 0; --n)
                        v = mutated(v, rng);
                    json = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
                } else {
                    json = damaged(bytes, rng);
                }
                const FileLimits limits = rng.chance(20) ? tightLimits() : FileLimits();
                const QString diff =
                    partsDifference(json, limits, 2 + int(rng.next() % 3), 1 + rng.next() % 3);
                QVERIFY2(diff.isEmpty(), qPrintable(diff + QLatin1String("\nfor ") + json));
                ++runs;
            }
        }
        QVERIFY(runs > mutationCount(500, 100));
    }

    // The problems a part keeps for later (a wait's keys, the keepalive bound) are merged in
    // file order: with chunks of a byte, every action is a chunk of its own, and the threads
    // take them in no particular order.
    void problemsKeptForLaterInParts_data() { problemsKeptForLaterComeInTheLoadersOrder_data(); }
    void problemsKeptForLaterInParts()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        for (int parts = 2; parts <= 3; ++parts) {
            QCOMPARE(ScenarioFile::parse(json, inParts(FileLimits(), parts, 1)).error, message);
            QCOMPARE(ScenarioFile::checkBytes(json, inParts(FileLimits(), parts, 1)).error,
                     message);
        }
    }

    // A valid file is read in parts (not read again alone, which would give the same result
    // slower): the parts' reader itself returns the scenario reading alone gives, with the
    // same tally, for clients of many actions and one client of all of them, with chunks of an
    // action each up to chunks larger than the file, and most actions read in chunks.
    void validFilesAreReadInParts_data()
    {
        QTest::addColumn<int>("clients");
        QTest::addColumn<int>("parts");
        QTest::addColumn<int>("block");
        QTest::newRow("5 clients, 2 parts, chunks of 1 byte") << 5 << 2 << 1;
        QTest::newRow("5 clients, 2 parts, chunks of 300 bytes") << 5 << 2 << 300;
        QTest::newRow("5 clients, 3 parts, chunks of 2000 bytes") << 5 << 3 << 2000;
        QTest::newRow("1 client, 2 parts, chunks of 500 bytes") << 1 << 2 << 500;
        QTest::newRow("1 client, 4 parts, chunks of 4000 bytes") << 1 << 4 << 4000;
        QTest::newRow("2 clients, 2 parts, one chunk larger than the file") << 2 << 2 << 10000000;
    }
    void validFilesAreReadInParts()
    {
        QFETCH(int, clients);
        QFETCH(int, parts);
        QFETCH(int, block);
        TestSupport::RandomScenarioOptions o;
        o.minClients = o.maxClients = clients;
        o.minActions = 150;
        o.maxActions = 400;
        o.waitPercent = 20;
        o.sourceEvents = true;
        Scenario s = TestSupport::randomScenario(std::uint64_t(clients * 100 + block), o);
        // the keys of sections 11 and 12 on some actions, and a key the format does not know
        int n = 0;
        for (Client &c : s.clients)
            for (Action &a : c.actions) {
                ++n;
                if (a.kind == ActionKind::Acquire && n % 5 == 0)
                    a.setKeepalive(3);
                if (a.kind == ActionKind::Write && n % 4 == 0) {
                    a.check = true;
                    a.setGap(2);
                }
                if (a.kind == ActionKind::Write && n % 7 == 0)
                    a.setGroup(QStringLiteral("g"));
                if (n % 9 == 0)
                    a.editExtra().insert(QStringLiteral("note"), n);
            }
        const QByteArray json = ScenarioFile::serialize(s);
        FileLimits alone;
        alone.parts = 1;
        const LoadResult loaded = ScenarioFile::parse(json, alone);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QVERIFY(loaded.scenario->actionCount() > std::size_t(150 * clients - 1));

        const simdjson::padded_string padded(json.constData(), std::size_t(json.size()));
        for (const bool keep : {true, false}) {
            ActionTally tallyAlone;
            simdjson::ondemand::parser one;
            simdjson::ondemand::document doc = one.iterate(padded);
            const Scenario expected = ScenarioFormat::readScenario(doc, alone, tallyAlone, keep);
            ActionTally tally;
            simdjson::ondemand::parser parser;
            const std::optional<Scenario> got =
                readInParts(parser, padded.data(), padded.size(), alone, tally, keep, parts,
                            std::size_t(block));
            QVERIFY2(got.has_value(), "a part failed on a valid file");
            QVERIFY(*got == expected);
            // (before the lock's options are taken from its kept keys: parse() does that)
            QCOMPARE(got->actionCount(), keep ? loaded.scenario->actionCount() : 0);
            QCOMPARE(tally.actions, tallyAlone.actions);
            QCOMPARE(tally.waitProblem, tallyAlone.waitProblem);
            QCOMPARE(tally.keepalives.total(expected, 1u << 30, nullptr),
                     tallyAlone.keepalives.total(expected, 1u << 30, nullptr));
            // most actions were read by the threads in chunks; in one chunk larger than the
            // file, none (the file is all outer document)
            // (most of them in the plain shape; those with the keys of sections 11 and 12,
            // a wait or a key the format does not know, in full)
            if (block < 10000) {
                QVERIFY2(tally.inChunks > tally.actions / 2,
                         qPrintable(QStringLiteral("%1 of %2 actions in chunks")
                                        .arg(tally.inChunks)
                                        .arg(tally.actions)));
                QVERIFY(tally.plainInChunks > tally.inChunks / 3);
                QVERIFY(tally.plainInChunks < tally.inChunks);
            } else {
                QCOMPARE(tally.inChunks, std::size_t(0));
            }
        }
        // through the file's own entry points, mapped from disk, with the default limits but
        // for the size: the same as reading alone
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
        f.close();
        const FileLimits split = inParts(FileLimits(), parts, std::size_t(block));
        const LoadResult fromDisk = ScenarioFile::load(path, split);
        QVERIFY2(fromDisk.ok(), qPrintable(fromDisk.error));
        QVERIFY(*fromDisk.scenario == *loaded.scenario);
        QCOMPARE(ScenarioFile::checkFile(path, split).actions, loaded.scenario->actionCount());
    }

    // A part that fails gives nothing and leaves the tally alone: the file is then read again
    // alone, which names the problem, wherever in the parts it was.
    void aFailingPartGivesNothing()
    {
        TestSupport::RandomScenarioOptions o;
        o.minClients = o.maxClients = 3;
        o.minActions = o.maxActions = 40;
        const Scenario s = TestSupport::randomScenario(11, o);
        const QByteArray good = ScenarioFile::serialize(s);
        FileLimits alone;
        alone.parts = 1;
        // the good file is read mostly in chunks with chunks of a byte
        ActionTally goodTally;
        const simdjson::padded_string goodPadded(good.constData(), std::size_t(good.size()));
        simdjson::ondemand::parser goodParser;
        QVERIFY(readInParts(goodParser, goodPadded.data(), goodPadded.size(), alone, goodTally,
                            true, 2, 1));
        QVERIFY(goodTally.inChunks > goodTally.actions / 2);
        // a bad tick in each client's middle action: with chunks of a byte, a chunk of its own,
        // read by whichever thread takes it
        for (int client = 0; client < 3; ++client) {
            QJsonObject root = QJsonDocument::fromJson(good).object();
            QJsonArray clients = root.value(QStringLiteral("clients")).toArray();
            QJsonObject c = clients.at(client).toObject();
            QJsonArray actions = c.value(QStringLiteral("actions")).toArray();
            QJsonObject a = actions.at(20).toObject();
            a.insert(QStringLiteral("at"), -4);
            actions.replace(20, a);
            c.insert(QStringLiteral("actions"), actions);
            clients.replace(client, c);
            root.insert(QStringLiteral("clients"), clients);
            const QByteArray bad = QJsonDocument(root).toJson();
            const QString message =
                QStringLiteral("clients[%1].actions[20].at: must be a non-negative integer, not -4")
                    .arg(client);
            QCOMPARE(ScenarioFile::parse(bad, alone).error, message);
            const simdjson::padded_string padded(bad.constData(), std::size_t(bad.size()));
            for (const bool keep : {true, false}) {
                ActionTally tally;
                simdjson::ondemand::parser parser;
                QVERIFY(
                    !readInParts(parser, padded.data(), padded.size(), alone, tally, keep, 2, 1));
                QCOMPARE(tally.actions, std::size_t(0));
                QVERIFY(tally.waitProblem.isEmpty());
                QCOMPARE(ScenarioFile::parse(bad, inParts(FileLimits(), 2, 1)).error, message);
                QCOMPARE(ScenarioFile::checkBytes(bad, inParts(FileLimits(), 2, 1)).error, message);
            }
            // a syntax error inside the same action: worded with its line and column
            QByteArray broken = good;
            const qsizetype at = broken.indexOf("\"at\"", broken.size() / 2);
            QVERIFY(at > 0);
            broken.insert(at, "}");
            QCOMPARE(ScenarioFile::parse(broken, inParts(FileLimits(), 2, 1)).error,
                     ScenarioFile::parse(broken, alone).error);
        }
    }

    // A cut is only a guess, and the outer reader proves it. Here an action keeps an array of
    // objects that are actions to the letter: a chunk cut out of it reads as a run of whole
    // actions, but the outer reader does not meet it between two actions of a client, so the
    // parts' reading gives nothing and the file is read again alone, to the same scenario.
    void aCutInsideAnActionsOwnArrayIsCaught()
    {
        QByteArray json = R"({ "fencescope": 1, "clients": [ { "name": "A", "actions": [
            { "at": 1, "do": "acquire", "ttl": 5 },
            { "at": 2, "do": "write", "value": "x", "steps": [)";
        for (int i = 0; i < 200; ++i)
            json += QByteArray(i ? ", " : "") + R"({ "at": )" + QByteArray::number(i) +
                    R"(, "do": "pause", "for": 1 })";
        json += R"(] },
            { "at": 3, "do": "release" } ] } ] })";
        FileLimits alone;
        alone.parts = 1;
        const LoadResult expected = ScenarioFile::parse(json, alone);
        QVERIFY2(expected.ok(), qPrintable(expected.error));
        const simdjson::padded_string padded(json.constData(), std::size_t(json.size()));
        for (const std::size_t block : {std::size_t(1), std::size_t(40), std::size_t(400)}) {
            ActionTally tally;
            simdjson::ondemand::parser parser;
            QVERIFY(
                !readInParts(parser, padded.data(), padded.size(), alone, tally, true, 2, block));
            QCOMPARE(tally.actions, std::size_t(0));
            const LoadResult got = ScenarioFile::parse(json, inParts(FileLimits(), 2, block));
            QVERIFY2(got.ok(), qPrintable(got.error));
            QVERIFY(*got.scenario == *expected.scenario);
        }
    }

    // Values that hold what a cut looks for ("}, {") put some cuts inside strings: the chunks
    // from there do not parse, stay in the outer document, and the file is read in parts all
    // the same, to what reading alone gives.
    void cutsInsideStringsStayOuter()
    {
        TestSupport::RandomScenarioOptions o;
        o.minClients = o.maxClients = 3;
        o.minActions = o.maxActions = 120;
        Scenario s = TestSupport::randomScenario(23, o);
        int n = 0;
        for (Client &c : s.clients)
            for (Action &a : c.actions)
                if (a.kind == ActionKind::Write && ++n % 2 == 0)
                    a.value = QStringLiteral("}, { \"at\": 1 }, {");
        QVERIFY(n > 20);
        const QByteArray json = ScenarioFile::serialize(s);
        QVERIFY(json.contains("}, {"));
        FileLimits alone;
        alone.parts = 1;
        const LoadResult expected = ScenarioFile::parse(json, alone);
        QVERIFY2(expected.ok(), qPrintable(expected.error));
        const simdjson::padded_string padded(json.constData(), std::size_t(json.size()));
        for (const std::size_t block : {std::size_t(1), std::size_t(7), std::size_t(300)}) {
            ActionTally tally;
            simdjson::ondemand::parser parser;
            const std::optional<Scenario> got =
                readInParts(parser, padded.data(), padded.size(), alone, tally, true, 2, block);
            QVERIFY2(got.has_value(), "a cut inside a string was taken for one between actions");
            QVERIFY(tally.inChunks > 0);
            QVERIFY(*got == *expected.scenario);
            QCOMPARE(partsDifference(json, FileLimits(), 2, block), QString());
        }
    }

    // A chunk's action in the plain shape is read by a shortcut (Loader::readPlainAction);
    // anything else near it is read in full. Either way the same as reading alone: each action
    // here sits between plain ones, in a chunk of its own (chunks of a byte: every action
    // between a client's first and its last, which stay in the outer document).
    void plainActionsInChunks_data()
    {
        QTest::addColumn<QByteArray>("action");
        QTest::addColumn<bool>("plain");
        const auto row = [](const char *name, const char *action, bool plain) {
            QTest::newRow(name) << QByteArray(action) << plain;
        };
        row("release", R"({ "at": 0, "do": "release" })", true);
        row("acquire", R"({ "at": 3, "do": "acquire", "ttl": 5 })", true);
        row("keys in any order", R"({ "ttl": 5, "do": "acquire", "at": 3 })", true);
        row("compact", R"({"at":3,"do":"write","value":"x"})", true);
        // (backslashes in plain literals: moc misreads them in raw ones)
        row("spaced", "{ \"at\" :\t3 ,\n \"do\": \"write\" , \"value\": \"x\"\r\n}", true);
        row("pause", R"({ "at": 3, "do": "pause", "for": 4 })", true);
        row("write", R"({ "at": 3, "do": "write", "value": "x" })", true);
        row("write everything",
            R"({ "at": 3, "do": "write", "value": "", "storage": "cache", "delay": 0 })", true);
        row("write to the first storage",
            R"({ "at": 3, "do": "write", "value": "x", "storage": "db" })", true);
        row("read", R"({ "at": 3, "do": "read" })", true);
        row("read everything", R"({ "at": 3, "do": "read", "storage": "cache", "delay": 2 })",
            true);
        row("2^53", R"({ "at": 9007199254740992, "do": "release" })", true);
        row("escaped value", "{ \"at\": 3, \"do\": \"write\", \"value\": \"a\\\"b\\u00e9\" }",
            true);
        row("escaped kind", "{ \"at\": 3, \"do\": \"wr\\u0069te\", \"value\": \"x\" }", false);
        row("ttl 0", R"({ "at": 3, "do": "acquire", "ttl": 0 })", false);
        row("no ttl", R"({ "at": 3, "do": "acquire" })", false);
        row("ttl 5.0", R"({ "at": 3, "do": "acquire", "ttl": 5.0 })", false);
        row("ttl 5e0", R"({ "at": 3, "do": "acquire", "ttl": 5e0 })", false);
        row("ttl 05", R"({ "at": 3, "do": "acquire", "ttl": 05 })", false);
        row("ttl -5", R"({ "at": 3, "do": "acquire", "ttl": -5 })", false);
        row("ttl as text", R"({ "at": 3, "do": "acquire", "ttl": "5" })", false);
        row("ttl an object", R"({ "at": 3, "do": "acquire", "ttl": { "a": 1 } })", false);
        row("at -1", R"({ "at": -1, "do": "release" })", false);
        row("at 00", R"({ "at": 00, "do": "release" })", false);
        row("2^53 + 1", R"({ "at": 9007199254740993, "do": "release" })", false);
        row("17 digits", R"({ "at": 12345678901234567, "do": "release" })", false);
        row("20 digits", R"({ "at": 12345678901234567890, "do": "release" })", false);
        row("no at", R"({ "do": "release" })", false);
        row("no kind", R"({ "at": 3 })", false);
        row("kind a number", R"({ "at": 3, "do": 1 })", false);
        row("unknown kind", R"({ "at": 3, "do": "fly" })", false);
        row("kind with a space", R"({ "at": 3, "do": "write ", "value": "x" })", false);
        row("kind in capitals", R"({ "at": 3, "do": "Write", "value": "x" })", false);
        row("kind cut short", R"({ "at": 3, "do": "writ", "value": "x" })", false);
        row("for on an acquire", R"({ "at": 3, "do": "acquire", "ttl": 5, "for": 2 })", false);
        row("ttl on a release", R"({ "at": 3, "do": "release", "ttl": 5 })", false);
        row("storage on a release", R"({ "at": 3, "do": "release", "storage": "db" })", false);
        row("ttl on a pause", R"({ "at": 3, "do": "pause", "ttl": 4 })", false);
        row("pause 0", R"({ "at": 3, "do": "pause", "for": 0 })", false);
        row("ttl on a write", R"({ "at": 3, "do": "write", "value": "x", "ttl": { "a": [1] } })",
            false);
        row("no value", R"({ "at": 3, "do": "write" })", false);
        row("value a number", R"({ "at": 3, "do": "write", "value": 7 })", false);
        row("unknown storage", R"({ "at": 3, "do": "write", "value": "x", "storage": "nope" })",
            false);
        row("storage a number", R"({ "at": 3, "do": "write", "value": "x", "storage": 0 })", false);
        row("escaped storage", "{ \"at\": 3, \"do\": \"read\", \"storage\": \"c\\u0061che\" }",
            false);
        row("storage with a space", R"({ "at": 3, "do": "read", "storage": "db " })", false);
        row("storage cut short", R"({ "at": 3, "do": "read", "storage": "cach" })", false);
        row("two storages", R"({ "at": 3, "do": "read", "storage": "db", "storage": "cache" })",
            false);
        row("delay null", R"({ "at": 3, "do": "write", "value": "x", "delay": null })", false);
        row("delay an array", R"({ "at": 3, "do": "write", "value": "x", "delay": [1] })", false);
        row("value on a read", R"({ "at": 3, "do": "read", "value": "x" })", false);
        row("escaped key", "{ \"a\\u0074\": 3, \"do\": \"release\" }", false);
        row("duplicate key", R"({ "at": 3, "at": 4, "do": "release" })", false);
        row("duplicate kind", R"({ "at": 3, "do": "release", "do": "release" })", false);
        row("unknown key", R"({ "at": 3, "do": "release", "note": 1 })", false);
        row("keepalive", R"({ "at": 3, "do": "acquire", "ttl": 5, "keepalive": 2 })", false);
        row("wait", R"({ "at": 3, "do": "acquire", "ttl": 5, "wait": true })", false);
        row("check", R"({ "at": 3, "do": "write", "value": "x", "check": true })", false);
        row("empty", R"({})", false);
        row("trailing comma", R"({ "at": 3, "do": "release", })", false);
        row("missing comma", R"({ "at": 3 "do": "release" })", false);
        row("missing value", R"({ "at": 3, "do": })", false);
    }
    void plainActionsInChunks()
    {
        QFETCH(QByteArray, action);
        QFETCH(bool, plain);
        const QByteArray p = R"({ "at": 1, "do": "pause", "for": 1 })";
        const QByteArray json = R"({ "fencescope": 1, "storages": [ { "name": "db" },
            { "name": "cache" } ], "clients": [ { "name": "A", "actions": [ )" +
                                p + ", " + p + ", " + action + ", " + p + ", " + p + " ] } ] }";
        for (const FileLimits &limits : {FileLimits(), tightLimits()}) {
            QCOMPARE(partsDifference(json, limits, 2, 1), QString());
            FileLimits lower = limits;
            lower.maxDepth = 4; // (an action is at depth 5)
            QCOMPARE(partsDifference(json, lower, 2, 1), QString());
        }
        FileLimits alone;
        alone.parts = 1;
        const simdjson::padded_string padded(json.constData(), std::size_t(json.size()));
        for (const bool keep : {true, false}) {
            ActionTally tally;
            simdjson::ondemand::parser parser;
            const std::optional<Scenario> got =
                readInParts(parser, padded.data(), padded.size(), alone, tally, keep, 2, 1);
            if (!plain)
                continue; // (it is read in full, and may fail: then the file is read alone)
            QVERIFY(got.has_value());
            QCOMPARE(tally.inChunks, std::size_t(3));
            QCOMPARE(tally.plainInChunks, std::size_t(3));
        }
    }

    // The action limit counts over all clients in both; the check counts as far as the load.
    void actionLimitAndCounts()
    {
        TestSupport::RandomScenarioOptions o;
        o.minActions = 30;
        o.maxActions = 40;
        o.minClients = 3;
        const QByteArray json = ScenarioFile::serialize(TestSupport::randomScenario(7, o));
        const LoadResult loaded = ScenarioFile::parse(json);
        QVERIFY(loaded.ok());
        const std::size_t n = loaded.scenario->actionCount();
        QVERIFY(n >= 90);
        QCOMPARE(ScenarioFile::checkBytes(json).actions, n);
        FileLimits l;
        l.maxActions = n;
        QVERIFY(ScenarioFile::checkBytes(json, l).ok());
        l.maxActions = n - 1;
        const CheckResult over = ScenarioFile::checkBytes(json, l);
        QVERIFY(!over.ok());
        QVERIFY2(
            over.error.endsWith(
                QStringLiteral(".actions: too many actions (more than %1 in the file)").arg(n - 1)),
            qPrintable(over.error));
        QCOMPARE(over.error, ScenarioFile::parse(json, l).error);
    }

    // A file the check cannot open or read says what load() says.
    void fileProblems()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString missing = dir.filePath(QStringLiteral("nope.json"));
        QCOMPARE(ScenarioFile::checkFile(missing).error,
                 QStringLiteral("file: cannot open %1 (No such file or directory)").arg(missing));
        QCOMPARE(ScenarioFile::checkFile(dir.path()).error,
                 QStringLiteral("file: %1 is a folder, not a scenario file").arg(dir.path()));
        FileLimits l;
        l.maxFileBytes = 10;
        const QString builtin = ScenarioFile::builtinPath(QStringLiteral("default"));
        QCOMPARE(ScenarioFile::checkFile(builtin, l).error, ScenarioFile::load(builtin, l).error);
        QVERIFY(
            ScenarioFile::checkFile(builtin, l).error.startsWith(QLatin1String("file: too large")));
    }
};

QTEST_GUILESS_MAIN(TestScenarioFileCheck)
#include "tst_scenariofilecheck.moc"
