#pragma once

// What the check's tests share (tests/core/tst_scenariofilecheck*.cpp): every input file, the
// mutations and damage made of them, the differences between loading and checking, alone and
// in parts, and the problems the check keeps for later.

#include "fastload/fastload.h"
#include "randomscenario.h"
#include "scenariofile.h"
#include "scenariofileread.h"

#include <QByteArray>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTest>

#include <optional>

namespace ScenarioFileInputs {

using namespace Core;
using Core::ScenarioFormat::ActionTally;

// A file read in `parts` parts in chunks of about `block` bytes, by the reader's own parts (as
// parsePadded() reads a large one, but whatever its size).
inline std::optional<Scenario> readInParts(simdjson::ondemand::parser &parser, const char *data,
                                           std::size_t size, const FileLimits &limits,
                                           ActionTally &tally, bool keep, int parts,
                                           std::size_t block)
{
    return FastLoad::readInParts(parser, data, size, limits, tally, keep, parts, block,
                                 ScenarioFormat::partReader);
}

// "" when the check agrees with the loader, else what differs.
inline QString difference(const LoadResult &loaded, const CheckResult &checked)
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

inline QString bytesDifference(const QByteArray &bytes, const FileLimits &limits = {})
{
    return difference(ScenarioFile::parse(bytes, limits), ScenarioFile::checkBytes(bytes, limits));
}

// Limits a small file reaches: the action, client and storage limits, and nesting.
inline FileLimits tightLimits()
{
    FileLimits l;
    l.maxActions = 5;
    l.maxClients = 2;
    l.maxStorages = 1;
    l.maxDepth = 5;
    return l;
}

// The same limits, with every file read in `parts` parts, in chunks of `block` bytes.
inline FileLimits inParts(FileLimits l, int parts, std::size_t block)
{
    l.partsFrom = 0;
    l.parts = parts;
    l.partBytes = block;
    return l;
}

// "" when reading in parts (load and check) says what reading alone says.
inline QString partsDifference(const QByteArray &bytes, const FileLimits &limits, int parts,
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

inline QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// `full` mutations of an input, or `quick` under FENCESCOPE_QUICK
inline int mutationCount(int full, int quick)
{
    return qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? quick : full;
}

inline QStringList inputFiles()
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
inline QJsonValue oddValue(TestSupport::Rng &rng)
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
inline QString someKey(TestSupport::Rng &rng)
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
inline QJsonValue mutated(const QJsonValue &v, TestSupport::Rng &rng, int depth = 0)
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
inline QByteArray damaged(QByteArray bytes, TestSupport::Rng &rng)
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

inline QByteArray withClients(const char *clients)
{
    return QByteArray("{\"fencescope\": 1, \"clients\": ") + clients + "}";
}

// The check reads an acquire's wait keys as it goes, and keeps the first problem: a later
// problem of the reader's still wins, and so does one with the lock, as in the loader. Rows
// "json" and "message".
inline void addProblemsKeptForLater()
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

} // namespace ScenarioFileInputs
