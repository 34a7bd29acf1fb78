// The loader's syntax-error reporting (line and column for broken JSON, exact places for the
// rest) and the loader against the DOM loader it replaced (QJsonDocument + a reader, kept below
// as the oracle): on the built-in scenarios, every test file, random scenarios, hand-picked edge
// cases and many thousands of mutations of them. Over 600 lines because the oracle is a whole
// second loader, kept here verbatim so that it cannot drift with the code it checks.

#include "jsonsyntax.h"
#include "lockoptionsfile.h"
#include "randomscenario.h"
#include "scenariofile.h"

#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

// The loader as it was before simdjson (QJsonDocument DOM + Reader), kept verbatim as the
// oracle: where both load a file, they must give the same Scenario.
namespace Reference {
using namespace Core;
namespace {

// One error travels up as this; the first problem found wins.
struct Problem
{
    QString text;
};

QString at(const QString &place, const QString &problem)
{
    return place + QLatin1String(": ") + problem;
}

// Line and column (1-based) of a byte offset, for JSON syntax errors.
std::pair<int, int> lineColumn(const QByteArray &json, qsizetype offset)
{
    int line = 1;
    int column = 1;
    offset = std::min(offset, json.size());
    for (qsizetype i = 0; i < offset; ++i) {
        if (json[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(json[i]) & 0xC0) != 0x80) {
            ++column; // count characters, not UTF-8 continuation bytes
        }
    }
    return {line, column};
}

// Checks Qt's parser is lenient about, made before it builds anything from the text: nesting
// deeper than `limit`, NUL bytes, and raw control characters inside strings (JSON requires
// them escaped; Qt would silently cut a string at a NUL). Returns the offset of the first
// problem and describes it, or -1.
qsizetype prescan(const QByteArray &json, int limit, QString *problem)
{
    int depth = 0;
    bool inString = false;
    const char *p = json.constData();
    for (qsizetype i = 0, n = json.size(); i < n; ++i) {
        const char c = p[i];
        if (c == '\0') {
            *problem = QStringLiteral("a NUL byte: this is not a text file");
            return i;
        }
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                *problem = QStringLiteral("a raw control character inside a string (JSON needs it "
                                          "escaped, e.g. \\n)");
                return i;
            }
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) {
                *problem = QStringLiteral("nested too deeply (more than %1 levels)").arg(limit);
                return i;
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return -1;
}

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("missing");
}

class Reader
{
public:
    explicit Reader(const FileLimits &limits) : m_limits(limits) {}

    Scenario read(const QJsonObject &root)
    {
        Scenario s;
        const QJsonValue version = root.value(QLatin1String("fencescope"));
        if (version.isUndefined())
            fail(QStringLiteral("fencescope"),
                 QStringLiteral("missing: this is not a FenceScope scenario file (expected "
                                "\"fencescope\": 1)"));
        if (!version.isDouble() || version.toDouble() != 1.0)
            fail(QStringLiteral("fencescope"),
                 QStringLiteral("unsupported format version %1 (this FenceScope reads version 1)")
                     .arg(describe(version)));

        s.title = optionalString(root, QStringLiteral("title"), {});
        s.description = optionalString(root, QStringLiteral("description"), {});
        const QJsonValue horizon = root.value(QLatin1String("horizon"));
        if (!horizon.isUndefined())
            s.horizon = positive(horizon, QStringLiteral("horizon"));
        const QJsonValue fencing = root.value(QLatin1String("fencing"));
        if (!fencing.isUndefined()) {
            if (!fencing.isBool())
                fail(QStringLiteral("fencing"),
                     QStringLiteral("must be true or false, not %1").arg(typeName(fencing)));
            s.fencing = fencing.toBool();
        }
        readLock(root.value(QLatin1String("lock")), s);
        readStorages(root.value(QLatin1String("storages")), s);
        readClients(root.value(QLatin1String("clients")), s);

        static const QStringList known = {
            QStringLiteral("fencescope"), QStringLiteral("title"),   QStringLiteral("description"),
            QStringLiteral("horizon"),    QStringLiteral("fencing"), QStringLiteral("lock"),
            QStringLiteral("storages"),   QStringLiteral("clients")};
        s.extra = unknownKeys(root, known);
        return s;
    }

private:
    [[noreturn]] void fail(const QString &place, const QString &problem)
    {
        throw Problem{at(place, problem)};
    }

    static QString describe(const QJsonValue &v)
    {
        if (v.isDouble()) {
            // integers Qt kept exactly are shown exactly: 2^53 + 1 must not read as 2^53
            constexpr qint64 notWhole = std::numeric_limits<qint64>::min();
            const qint64 exact = v.toInteger(notWhole);
            if (exact != notWhole)
                return QString::number(exact);
            return QString::number(v.toDouble(), 'g', 17);
        }
        if (v.isString())
            return QLatin1Char('"') + v.toString() + QLatin1Char('"');
        return typeName(v);
    }

    QString optionalString(const QJsonObject &o, const QString &key, const QString &place)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return {};
        if (!v.isString())
            fail(join(place, key), QStringLiteral("must be a string, not %1").arg(typeName(v)));
        return v.toString();
    }

    static QString join(const QString &place, const QString &key)
    {
        return place.isEmpty() ? key : place + QLatin1Char('.') + key;
    }

    static QString index(const QString &place, qsizetype i)
    {
        return place + QLatin1Char('[') + QString::number(i) + QLatin1Char(']');
    }

    // An integer tick count: 0 <= n <= 2^53 (beyond that JSON numbers are not exact).
    Tick integer(const QJsonValue &v, const QString &place, bool mustBePositive)
    {
        const QString what = mustBePositive ? QStringLiteral("must be a positive integer")
                                            : QStringLiteral("must be a non-negative integer");
        if (!v.isDouble())
            fail(place, QStringLiteral("%1, not %2").arg(what, typeName(v)));
        const double d = v.toDouble();
        if (!std::isfinite(d) || d != std::floor(d))
            fail(place, QStringLiteral("%1, not %2").arg(what, describe(v)));
        if (d < 0 || (mustBePositive && d == 0))
            fail(place, QStringLiteral("%1, not %2").arg(what, describe(v)));
        // Qt keeps integers that fit in 64 bits exactly, so 2^53 + 1 is caught here too
        const qint64 exact = v.toInteger(-1);
        if (d > double(kMaxFileInteger) || exact < 0 || quint64(exact) > kMaxFileInteger)
            fail(place, QStringLiteral("%1 no larger than 2^53 (9007199254740992), not %2")
                            .arg(what, describe(v)));
        return Tick(exact);
    }
    Tick positive(const QJsonValue &v, const QString &place) { return integer(v, place, true); }
    Tick nonNegative(const QJsonValue &v, const QString &place)
    {
        return integer(v, place, false);
    }

    QJsonObject object(const QJsonValue &v, const QString &place)
    {
        if (!v.isObject())
            fail(place, QStringLiteral("must be an object, not %1").arg(typeName(v)));
        return v.toObject();
    }

    QJsonArray array(const QJsonValue &v, const QString &place)
    {
        if (!v.isArray())
            fail(place, QStringLiteral("must be an array, not %1").arg(typeName(v)));
        return v.toArray();
    }

    QString name(const QJsonObject &o, const QString &place)
    {
        const QJsonValue v = o.value(QLatin1String("name"));
        const QString where = join(place, QStringLiteral("name"));
        if (v.isUndefined())
            fail(where, QStringLiteral("missing (every %1 needs a name)")
                            .arg(place.startsWith(QLatin1String("clients"))
                                     ? QStringLiteral("client")
                                     : QStringLiteral("storage")));
        if (!v.isString())
            fail(where, QStringLiteral("must be a string, not %1").arg(typeName(v)));
        const QString n = v.toString();
        if (n.trimmed().isEmpty())
            fail(where, QStringLiteral("must not be empty"));
        return n;
    }

    static QJsonObject unknownKeys(const QJsonObject &o, const QStringList &known)
    {
        QJsonObject extra;
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!known.contains(it.key()))
                extra.insert(it.key(), it.value());
        return extra;
    }

    void readLock(const QJsonValue &v, Scenario &s)
    {
        if (v.isUndefined())
            return;
        const QJsonObject lock = object(v, QStringLiteral("lock"));
        const QJsonValue tokens = lock.value(QLatin1String("tokens"));
        if (!tokens.isUndefined()) {
            if (!tokens.isString())
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("must be a string, not %1").arg(typeName(tokens)));
            if (!tokenSourceFromString(tokens.toString(), &s.tokens)) {
                QStringList known;
                for (int i = 0; i < kTokenSourceCount; ++i)
                    known << toString(TokenSource(i));
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("unknown token source \"%1\" (known: %2)")
                         .arg(tokens.toString(), known.join(QStringLiteral(", "))));
            }
        } else {
            s.tokens = TokenSource::Counter;
        }
        s.lockExtra = unknownKeys(lock, {QStringLiteral("tokens")});
    }

    void readStorages(const QJsonValue &v, Scenario &s)
    {
        if (v.isUndefined())
            return; // the default: one storage "db" with rule lt
        const QString place = QStringLiteral("storages");
        const QJsonArray list = array(v, place);
        if (list.isEmpty())
            fail(place, QStringLiteral("must list at least one storage (or be left out for the "
                                       "default \"db\")"));
        if (std::size_t(list.size()) > m_limits.maxStorages)
            fail(place, QStringLiteral("too many storages (%1; the limit is %2)")
                            .arg(list.size())
                            .arg(m_limits.maxStorages));
        s.storages.clear();
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString where = index(place, i);
            const QJsonObject o = object(list.at(i), where);
            StorageSpec spec;
            spec.name = name(o, where);
            if (s.storageIndex(spec.name) >= 0)
                fail(join(where, QStringLiteral("name")),
                     QStringLiteral("duplicate storage name \"%1\"").arg(spec.name));
            const QJsonValue rule = o.value(QLatin1String("rule"));
            if (!rule.isUndefined()) {
                const QString r = rule.isString() ? rule.toString() : QString();
                if (r == QLatin1String("lt"))
                    spec.rule = FenceRule::Lt;
                else if (r == QLatin1String("le"))
                    spec.rule = FenceRule::Le;
                else
                    fail(join(where, QStringLiteral("rule")),
                         QStringLiteral("must be \"lt\" or \"le\", not %1").arg(describe(rule)));
            }
            spec.extra = unknownKeys(o, {QStringLiteral("name"), QStringLiteral("rule")});
            s.storages.push_back(std::move(spec));
        }
    }

    void readClients(const QJsonValue &v, Scenario &s)
    {
        const QString place = QStringLiteral("clients");
        if (v.isUndefined())
            fail(place, QStringLiteral("missing: a scenario needs at least one client"));
        const QJsonArray list = array(v, place);
        if (list.isEmpty())
            fail(place, QStringLiteral("must list at least one client"));
        if (std::size_t(list.size()) > m_limits.maxClients)
            fail(place, QStringLiteral("too many clients (%1; the limit is %2)")
                            .arg(list.size())
                            .arg(m_limits.maxClients));
        QHash<QString, int> storageByName;
        for (std::size_t i = 0; i < s.storages.size(); ++i)
            storageByName.insert(s.storages[i].name, int(i));
        QHash<QString, int> seen;
        std::size_t total = 0;
        s.clients.reserve(std::size_t(list.size()));
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString where = index(place, i);
            const QJsonObject o = object(list.at(i), where);
            Client c;
            c.name = name(o, where);
            if (seen.contains(c.name))
                fail(join(where, QStringLiteral("name")),
                     QStringLiteral("duplicate client name \"%1\" (also clients[%2])")
                         .arg(c.name)
                         .arg(seen.value(c.name)));
            seen.insert(c.name, int(i));
            const QJsonValue actions = o.value(QLatin1String("actions"));
            if (!actions.isUndefined()) {
                const QString actionsPlace = join(where, QStringLiteral("actions"));
                const QJsonArray a = array(actions, actionsPlace);
                total += std::size_t(a.size());
                if (total > m_limits.maxActions)
                    fail(actionsPlace,
                         QStringLiteral("too many actions (more than %1 in the file)")
                             .arg(m_limits.maxActions));
                c.actions.reserve(std::size_t(a.size()));
                for (qsizetype j = 0; j < a.size(); ++j)
                    c.actions.push_back(readAction(a.at(j), index(actionsPlace, j), storageByName));
            }
            c.extra = unknownKeys(o, {QStringLiteral("name"), QStringLiteral("actions")});
            s.clients.push_back(std::move(c));
        }
    }

    Action readAction(const QJsonValue &v, const QString &place,
                      const QHash<QString, int> &storageByName)
    {
        const QJsonObject o = object(v, place);
        Action a;
        const QJsonValue atValue = o.value(QLatin1String("at"));
        if (atValue.isUndefined())
            fail(join(place, QStringLiteral("at")),
                 QStringLiteral("missing (every action needs the tick it happens at)"));
        a.at = nonNegative(atValue, join(place, QStringLiteral("at")));
        const QJsonValue what = o.value(QLatin1String("do"));
        const QString doPlace = join(place, QStringLiteral("do"));
        if (what.isUndefined())
            fail(doPlace, QStringLiteral("missing (one of acquire, release, pause, write)"));
        if (!what.isString())
            fail(doPlace, QStringLiteral("must be a string, not %1").arg(typeName(what)));
        const QString kind = what.toString();
        int knownKeys = 2;
        if (kind == QLatin1String("acquire")) {
            a.kind = ActionKind::Acquire;
            a.amount = required(o, place, QStringLiteral("ttl"), true);
            knownKeys = 3;
        } else if (kind == QLatin1String("release")) {
            a.kind = ActionKind::Release;
        } else if (kind == QLatin1String("pause")) {
            a.kind = ActionKind::Pause;
            a.amount = required(o, place, QStringLiteral("for"), true);
            knownKeys = 3;
        } else if (kind == QLatin1String("write")) {
            a.kind = ActionKind::Write;
            const QJsonValue value = o.value(QLatin1String("value"));
            const QString valuePlace = join(place, QStringLiteral("value"));
            if (value.isUndefined())
                fail(valuePlace, QStringLiteral("missing (a write needs the value it writes)"));
            if (!value.isString())
                fail(valuePlace, QStringLiteral("must be a string, not %1").arg(typeName(value)));
            a.value = value.toString();
            knownKeys = 3;
            const QJsonValue storage = o.value(QLatin1String("storage"));
            if (!storage.isUndefined()) {
                const QString sp = join(place, QStringLiteral("storage"));
                if (!storage.isString())
                    fail(sp, QStringLiteral("must be a storage name, not %1").arg(typeName(storage)));
                const auto it = storageByName.find(storage.toString());
                if (it == storageByName.end())
                    fail(sp, QStringLiteral("unknown storage \"%1\" (known: %2)")
                                 .arg(storage.toString(), storageNames(storageByName)));
                a.storage = std::uint32_t(it.value());
                ++knownKeys;
            }
            const QJsonValue delay = o.value(QLatin1String("delay"));
            if (!delay.isUndefined()) {
                a.amount = nonNegative(delay, join(place, QStringLiteral("delay")));
                ++knownKeys;
            }
        } else {
            fail(doPlace, QStringLiteral("unknown action \"%1\" (known: acquire, release, pause, "
                                         "write)")
                              .arg(kind));
        }
        // Cheap common case: no keys beyond the known ones.
        if (o.size() > knownKeys) {
            static const QStringList common = {QStringLiteral("at"), QStringLiteral("do")};
            QStringList known = common;
            switch (a.kind) {
            case ActionKind::Acquire:
                known << QStringLiteral("ttl");
                break;
            case ActionKind::Pause:
                known << QStringLiteral("for");
                break;
            case ActionKind::Write:
                known << QStringLiteral("value") << QStringLiteral("storage")
                      << QStringLiteral("delay");
                break;
            case ActionKind::Release:
            case ActionKind::Read: // (refused above: this reference reads v1, which has none)
                break;
            }
            a.setExtra(unknownKeys(o, known));
        }
        return a;
    }

    // In file order, so the message is the same on every run.
    static QString storageNames(const QHash<QString, int> &byName)
    {
        QStringList names(byName.size());
        for (auto it = byName.begin(); it != byName.end(); ++it)
            names[it.value()] = it.key();
        return names.join(QLatin1String(", "));
    }

    Tick required(const QJsonObject &o, const QString &place, const QString &key, bool positive)
    {
        const QJsonValue v = o.value(key);
        const QString where = join(place, key);
        if (v.isUndefined())
            fail(where, QStringLiteral("missing (%1)")
                            .arg(positive ? QStringLiteral("must be a positive integer")
                                          : QStringLiteral("must be a non-negative integer")));
        return integer(v, where, positive);
    }

    const FileLimits &m_limits;
};

QString mib(qint64 bytes)
{
    return QString::number(double(bytes) / double(1 << 20), 'f', 1) + QStringLiteral(" MiB");
}

} // namespace

LoadResult parse(const QByteArray &json, const FileLimits &limits)
{
    LoadResult result;
    if (json.size() > limits.maxFileBytes) {
        result.error = QStringLiteral("file: too large (%1; the limit is %2)")
                           .arg(mib(json.size()), mib(limits.maxFileBytes));
        return result;
    }
    if (json.startsWith("\xff\xfe") || json.startsWith("\xfe\xff")) {
        result.error = QStringLiteral("file: encoded as UTF-16; scenario files are UTF-8 (save it "
                                      "as UTF-8)");
        return result;
    }
    QString problem;
    const qsizetype bad = prescan(json, limits.maxDepth, &problem);
    if (bad >= 0) {
        const auto [line, column] = lineColumn(json, bad);
        result.error = QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(problem);
        return result;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const auto [line, column] = lineColumn(json, parseError.offset);
        result.error = QStringLiteral("line %1, column %2: not valid JSON (%3)")
                           .arg(line)
                           .arg(column)
                           .arg(parseError.errorString());
        return result;
    }
    if (!doc.isObject()) {
        result.error = QStringLiteral("file: must be a JSON object with \"fencescope\": 1 at the "
                                      "top, not %1")
                           .arg(doc.isArray() ? QStringLiteral("an array")
                                              : QStringLiteral("a bare value"));
        return result;
    }
    try {
        Reader reader(limits);
        result.scenario = reader.read(doc.object());
        // the version-1 extensions come from the kept keys, by the loader's own code (it is
        // the JSON layer this oracle checks, not lockoptionsfile.cpp: tst_scenariofile does)
        result.error = Core::LockOptionsFile::take(*result.scenario);
        if (!result.error.isEmpty())
            result.scenario.reset();
    } catch (const Problem &p) {
        result.error = p.text;
    } catch (const std::bad_alloc &) {
        result.error = QStringLiteral("file: not enough memory to load it");
    }
    return result;
}

} // namespace Reference

namespace {

// The differences from the oracle that are chosen, each with the one-line message that names
// it. Qt lets these through; a scenario file may not contain them.
bool documentedDifference(const QString &error)
{
    return error.contains(QLatin1String("duplicate key")) ||
           error.contains(QLatin1String("lone UTF-16 surrogate")) ||
           error.contains(QLatin1String("a number as JSON does not allow it")) ||
           error.contains(QLatin1String("an escape JSON does not know")) ||
           error.contains(QLatin1String("a backslash before a character JSON cannot escape"));
}

// Qt drops a byte order mark at the start of a key or string (QString::fromUtf8); the loader
// keeps it, so such files read differently (a "\uFEFFname" key is an unknown key, not "name").
bool hasInnerBom(const QByteArray &bytes)
{
    return bytes.indexOf("\xef\xbb\xbf", bytes.startsWith("\xef\xbb\xbf") ? 3 : 0) >= 0;
}

// The oracle predates docs/SCENARIO.md sections 11 and 12 and keeps their keys as unknown ones (or
// refuses a read): for a text that mentions one, only the syntax is compared here, and
// tst_scenariofile checks what those keys load to and every error they give.
bool usesPitfallKeys(const QByteArray &bytes)
{
    for (const char *key : {"\"keepalive\"", "\"check\"", "\"gap\"", "\"group\"", "\"read\"",
                            "\"clock\"", "\"bypass\"", "\"maxToken\"", "\"restarts\""})
        if (bytes.contains(key))
            return true;
    return false;
}

// Keys in the text of a well-formed document: strings followed by a colon.
qsizetype keysInText(const QByteArray &bytes)
{
    qsizetype keys = 0;
    bool inString = false;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
                qsizetype j = i + 1;
                while (j < bytes.size() && QByteArrayView(" \t\r\n").contains(bytes[j]))
                    ++j;
                keys += j < bytes.size() && bytes[j] == ':';
            }
        } else if (c == '"') {
            inString = true;
        }
    }
    return keys;
}

qsizetype keysInValue(const QJsonValue &v)
{
    qsizetype keys = 0;
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        keys += o.size();
        for (auto it = o.begin(); it != o.end(); ++it)
            keys += keysInValue(it.value());
    } else if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            keys += keysInValue(e);
    }
    return keys;
}

// A QJsonObject keeps one of each key: fewer keys in the document than in the text.
bool hasDuplicateKey(const QByteArray &bytes)
{
    const QJsonDocument doc = QJsonDocument::fromJson(bytes);
    return keysInValue(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array())) <
           keysInText(bytes);
}

// A failed comparison's message, or empty.
QString compareLoaders(const QByteArray &bytes, const Core::FileLimits &limits)
{
    const Core::LoadResult now = Core::ScenarioFile::parse(bytes, limits);
    if (now.ok() != now.error.isEmpty())
        return QStringLiteral("a result with both a scenario and an error, or neither");
    // refused before the JSON is read (UTF-16, size), as the oracle did
    if (now.error.startsWith(QLatin1String("file: encoded")) ||
        now.error.startsWith(QLatin1String("file: too large"))) {
        const Core::LoadResult before = Reference::parse(bytes, limits);
        return before.error == now.error ? QString() : QStringLiteral("before: ") + before.error;
    }
    const QString syntax = Core::JsonSyntax::problem(bytes, limits.maxDepth);
    // a line and column exactly when the second look finds a syntax error
    if (now.error.startsWith(QLatin1String("line ")) != !syntax.isEmpty() ||
        (!syntax.isEmpty() && now.error != syntax))
        return QStringLiteral("loader: \"%1\"\nsyntax: \"%2\"").arg(now.error, syntax);
    if (now.error.startsWith(QLatin1String("file: not valid JSON")))
        return QStringLiteral("the fast path refused what the second look accepts: ") + now.error;
    if (hasInnerBom(bytes) || usesPitfallKeys(bytes))
        return {};
    const Core::LoadResult before = Reference::parse(bytes, limits);
    if (before.ok() && now.ok()) {
        if (!(*before.scenario == *now.scenario))
            return QStringLiteral("scenarios differ");
        return {};
    }
    // a repeated key is refused, but another problem may be met first
    if (before.ok() && !documentedDifference(now.error) && !hasDuplicateKey(bytes))
        return QStringLiteral("only the oracle loaded it; now: \"%1\"").arg(now.error);
    if (now.ok())
        return QStringLiteral("only the loader loaded it; before: \"%1\"").arg(before.error);
    return {};
}

Core::FileLimits tightLimits()
{
    Core::FileLimits l;
    l.maxActions = 7;
    l.maxClients = 2;
    l.maxStorages = 2;
    l.maxDepth = 5;
    return l;
}

QString compareAll(const QByteArray &bytes)
{
    QString problem = compareLoaders(bytes, {});
    if (!problem.isEmpty())
        return QStringLiteral("[loader] ") + problem;
    problem = compareLoaders(bytes, tightLimits());
    if (!problem.isEmpty())
        return QStringLiteral("[loader, tight limits] ") + problem;
    return {};
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QList<QByteArray> fileInputs()
{
    QList<QByteArray> inputs;
    for (const QString &dir :
         {QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios"),
          QStringLiteral(FENCESCOPE_TESTDATA), QStringLiteral(FENCESCOPE_SOURCE_DIR "/fuzz/corpus"),
          QStringLiteral(FENCESCOPE_SOURCE_DIR "/fuzz/regressions")}) {
        QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (!path.endsWith(QLatin1String(".gitkeep")))
                inputs << readFile(path);
        }
    }
    return inputs;
}

// Random scenarios, saved, with unknown keys of every kind at every level.
QList<QByteArray> randomInputs(int count)
{
    QList<QByteArray> inputs;
    for (int seed = 1; seed <= count; ++seed) {
        TestSupport::RandomScenarioOptions o;
        o.lePercent = 20;
        Core::Scenario s = TestSupport::randomScenario(std::uint64_t(seed), o);
        if (seed % 3 == 0) {
            const QJsonArray nested{1, 1.5, -0.0, QStringLiteral("x\u00e9\U0001F600"), QJsonValue(),
                                    true, QJsonObject{{QStringLiteral("k"), 9007199254740993LL}}};
            s.extra.insert(QStringLiteral("later"), nested);
            s.lockExtra.insert(QStringLiteral("lease"), QStringLiteral("fixed"));
            s.storages.front().extra.insert(QStringLiteral("zone"), 2.25);
            s.clients.front().extra.insert(QStringLiteral("color"), QStringLiteral("#f00"));
            if (!s.clients.front().actions.empty())
                s.clients.front().actions.front().editExtra().insert(QStringLiteral("note"),
                                                               QJsonObject{{QStringLiteral("a"), 1}});
        }
        inputs << Core::ScenarioFile::serialize(s);
    }
    return inputs;
}

// Files that differ from a valid one in the ways the DOM reader was indifferent to.
QList<QByteArray> handPicked()
{
    QList<QByteArray> l;
    const char *const json[] = {
        // numbers
        "[1e3]", "[1.0]", "[1.5]", "[.5]", "[1.]", "[-]", "[1e]", "[1e+]", "[1e400]", "[1e-400]",
        "[-0]", "[-0.0]", "[9007199254740993]", "[18446744073709551615]", "[9223372036854775807]",
        "[9223372036854775808]", "[-9223372036854775808]", "[-9223372036854775809]",
        "[100000000000000000000]", "[1E2]", "[0.0000]", "[-.5]", "[1.5e]", "[01]", "[-01]",
        "[123456789012345678]", "[1234567890123456789]", "[+1]", "[0x10]", "[1e-2]", "[2.5E+3]",
        "[1", "[12", "[1.", "[1e5", "[-", "[0", "[NaN]", "[Infinity]", "[-Infinity]", "[1.e3]",
        // strings
        "[\"\\ud800x\"]", "[\"\\ud83d\\ude00\"]", "[\"\\udc00\\ud800\"]", "[\"\xef\xbf" "\xbe\"]",
        "[\"\xed\xa0\x80\"]", "[\"\\x\"]", "[\"\\\xc3\xa9\"]", "[\"a\xc3\"]", "[\"\\u00\"]",
        "[\"\\u12g4\"]", "[\"\\u0000\"]", "[\"\xf4\x90\x80\x80\"]", "[\"\xc0\x80\"]",
        "[\"\xe0\x80\x80\"]", "[\"\xf0\x9f\x98\"]", "[\"\xf0\x9f\x98\x80\"]", "[\"\xc3\xa9\"]",
        "[\"\\", "[\"\\\"", "[\"\\\"]", "[\"\\u", "[\"\\u1", "[\"\\u12", "[\"\\u123", "[\"\\u1234",
        "[\"\\u1234\"", "[\"\\u1234\"]", "[\"a\"", "[\"a", "[\"", "[\"\xff\"]", "[\"\x80\"]",
        "[\"\\/\\b\\f\\n\\r\\t\\\\\\\"\"]", "[\"\\U0041\"]", "[\"a\\\xc3\"]", "[\"\xe2\x82\"]",
        "[\"\xe2\x82\xac\"]", "[\"\xf4\x8f\xbf" "\xbf\"]", "[\"\xf5\x80\x80\x80\"]", "[\"\xc1\xbf" "\"]",
        // structure
        "", " ", "\xef\xbb\xbf", "\xef\xbb\xbf{}", "\xef\xbb\xbf[]", "\xef\xbb", "{}", "[]", "[] ",
        "[] x", "{", "[", "}", "]", "\"a\"", "1", "null", "true", "[nul]", "[nulll]", "[null",
        "[tru]", "[true", "[fals]", "[false", "[falsey]", "[n]", "[t]", "[f]", "[1,]", "[,1]",
        "[1,,2]", "[1 2]", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":}", "{\"a\":,}", "{\"a\"}", "{,}",
        "{\"a\":1 \"b\":2}", "{1:2}", "{\"a\":1,\"a\":2}", "{\"a\":[1,{\"b\":[]}],\"a\":{}}",
        "[[[[[[[[[[]]]]]]]]]]", "{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":{}}}}}}", "[{]", "[}", "{]",
        "{\"a\":1]", "[1}", "{\"a\":", "{\"a\"", "{\"a", "{\"", "[\t\n\r 1 \t\n\r]", "[\f1]",
        "[\v1]", "[1]\x00", "[\x00]", "[\"a\x01\"]", "[\"a\x00\"]", "[\"\\\x01\"]", "\xff\xfe[]",
        "\xfe\xff[]", "[1]\xef\xbb\xbf", "{\"\\u0061t\":1}", "{\"a\":1}{", "[][]",
    };
    for (const char *j : json)
        l << QByteArray(j);
    // NUL bytes inside literals need their length given
    l << QByteArray("[\"a\0b\"]", 7) << QByteArray("[1,\0]", 5) << QByteArray("\0", 1)
      << QByteArray("{\"a\":\"\\\0\"}", 10);
    // deep nesting around Qt's limit of 1024
    for (int depth : {63, 64, 65, 1023, 1024, 1025, 1100})
        l << QByteArray(depth, '[') + QByteArray(depth, ']');

    const QByteArray head = "{\"fencescope\": 1, \"storages\": [{\"name\": \"db\"}, {\"name\": "
                            "\"s2\", \"rule\": \"le\"}], \"clients\": [";
    const char *const clients[] = {
        // key order, repeated keys and escaped keys
        "{\"actions\": [{\"do\": \"acquire\", \"ttl\": 3, \"at\": 1}], \"name\": \"A\"}",
        "{\"name\": \"A\", \"name\": \"B\", \"actions\": []}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"oops\"}], \"actions\": []}",
        "{\"name\": \"A\", \"actions\": [], \"actions\": [{\"at\": 1, \"do\": \"oops\"}]}",
        "{\"actions\": [{\"at\": -1, \"do\": \"release\"}]}",
        "{\"actions\": [{\"at\": -1, \"do\": \"release\"}], \"name\": \"\"}",
        "{\"actions\": 5, \"name\": 7}",
        "{\"\\u006eame\": \"A\", \"actions\": [{\"\\u0061t\": 1, \"d\\u006f\": \"\\u0061cquire\", \"ttl\": 2}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"v\", \"storage\": \"s\\u0032\"}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", \"value\": \"v\", \"storage\": \"s3\"}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"acquire\", \"ttl\": 2, \"for\": 3, \"value\": [1, {\"x\": null}], \"storage\": 5, \"delay\": \"no\"}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"release\", \"ttl\": 2.5, \"at\": 3}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 1e3, \"do\": \"pause\", \"for\": 1.0}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 9007199254740993, \"do\": \"release\"}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 9007199254740992, \"do\": \"release\"}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 18446744073709551616, \"do\": \"release\"}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 0, \"do\": \"write\", \"value\": \"\\ud800\", \"delay\": 0}]}",
        "{\"name\": \"A\", \"actions\": [1, {\"at\": 0}], \"x\": {\"y\": [1, 2.5, \"z\"]}}",
        "{\"name\": \"A\", \"actions\": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}",
        "{\"name\": \"A\", \"actions\": [{\"at\": 0, \"do\": \"release\"}, {\"at\": 0, \"do\": \"release\"}, {\"at\": 0, \"do\": \"release\"}, {\"at\": 0, \"do\": \"release\"}]}, {\"name\": \"B\", \"actions\": [{\"at\": 0, \"do\": \"release\"}, {\"at\": 0, \"do\": \"release\"}, {\"at\": 0, \"do\": \"release\"}, {\"at\": 0, \"do\": \"nope\"}]}",
        "{\"name\": \"A\"}, {\"name\": \"A\"}", "{\"name\": \"A\"}, {\"name\": \"B\"}, {\"name\": 3}",
        "{\"name\": 3}, {\"name\": \"B\"}, {\"name\": \"C\"}", "5", "{\"name\": \"  \"}",
    };
    for (const char *c : clients)
        l << head + c + "]}";
    const char *const roots[] = {
        "{\"clients\": [{\"name\": \"A\", \"actions\": [{\"at\": 0, \"do\": \"write\", \"value\": \"v\", \"storage\": \"x\"}]}], \"storages\": [{\"name\": \"x\"}], \"fencescope\": 1}",
        "{\"clients\": [{\"name\": 1}], \"fencescope\": 2}",
        "{\"clients\": [{\"name\": 1}], \"storages\": [{\"name\": 1}], \"fencescope\": 1}",
        "{\"fencescope\": 1, \"fencescope\": 2, \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 2, \"fencescope\": 1, \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1.0, \"clients\": [{\"name\": \"A\"}], \"z\": 1, \"z\": [2], \"a\": {}}",
        "{\"fencescope\": \"1\", \"clients\": []}", "{\"fencescope\": 1e0, \"clients\": {}}",
        "{\"fencescope\": 1, \"clients\": [], \"title\": 3}",
        "{\"fencescope\": 1, \"lock\": {\"tokens\": \"counter\", \"tokens\": \"x\"}, \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1, \"lock\": {\"tokens\": 1, \"a\": [1]}, \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1, \"lock\": [], \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1, \"storages\": [], \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1, \"storages\": [{\"name\": \"a\"}, {\"name\": \"a\"}, {\"name\": \"b\"}], \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1, \"storages\": [{\"name\": \"a\", \"rule\": 1}], \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1, \"storages\": [{\"name\": \"\\ud800\"}], \"clients\": [{\"name\": \"A\", \"actions\": [{\"at\": 0, \"do\": \"write\", \"value\": \"v\", \"storage\": \"\xef\xbf" "\xbd\"}]}]}",
        "{\"fencescope\": 1, \"storages\": [{\"name\": \"\\ud800\"}], \"clients\": [{\"name\": \"A\", \"actions\": [{\"at\": 0, \"do\": \"write\", \"value\": \"v\", \"storage\": \"\\ud800\"}]}]}",
        "{\"fencescope\": 1, \"horizon\": 0, \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1, \"horizon\": 5, \"fencing\": 0, \"clients\": [{\"name\": \"A\"}]}",
        "{\"fencescope\": 1, \"fencing\": false, \"description\": \"d\", \"title\": \"t\", \"clients\": [{\"name\": \"A\"}]}",
        // keys and values that start with a raw byte order mark (QString::fromUtf8 drops it)
        "{\"fencescope\": 1, \"\xef\xbb\xbf" "fencing\": 0, \"\xef\xbb\xbfx\": 1, \"x\": 2, \"clients\": [{\"name\": \"A\", \"\xef\xbb\xbfname\": 1, \"\xef\xbb\xbf" "color\": 1, \"color\": 2, \"actions\": [{\"at\": 0, \"do\": \"\xef\xbb\xbf" "\x61" "\x63" "quire\", \"ttl\": 1, \"\xef\xbb\xbf" "for\": 1, \"for\": 2, \"\xef\xbb\xbfttl\": 5}, {\"at\": 1, \"do\": \"write\", \"value\": \"\xef\xbb\xbfv\", \"storage\": \"\xef\xbb\xbf" "\x64\x62\"}]}], \"storages\": [{\"name\": \"\xef\xbb\xbf" "\x64\x62\", \"\xef\xbb\xbfrule\": 3}], \"lock\": {\"\xef\xbb\xbftokens\": 1, \"\xef\xbb\xbfz\": 1}}",
        "{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"actions\": [{\"\xef\xbb\xbf" "\x61" "t\": 0, \"do\": \"release\"}]}]}",
        // found by the fuzzer: such keys inside a kept value
        "{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"x\": [{\"\xef\xbb\xbf" "k\": \"\xef\xbb\xbf" "v\", \"k\": 1}]}]}",
    };
    for (const char *r : roots)
        l << QByteArray(r);
    return l;
}

// Changes a valid file a little, the way a hand edit or a broken disk would.
QByteArray mutate(const QByteArray &base, TestSupport::Rng &rng)
{
    static const QList<QByteArray> pieces = {
        "\"", "\\", "{", "}", "[", "]", ",", ":", " ", "0", "-", "e", ".", "1", "u", "n",
        QByteArray(1, '\0'), "\x1f", "\x80", "\xc3", "\xed\xa0\x80", "\xf4", "\xef\xbb\xbf",
        "\\u", "\\ud800", "\\ude00", "null", "true", "[]", "{}", "-1", "1.5", "1e3", "0.0",
        "9007199254740993", "18446744073709551616", "\"x\"", "\"write\"", "\"acquire\"",
        "\"pause\"", "\"release\"", "\"db\"", "\"at\": 2, ", "\"do\": \"release\", ",
        "\"name\": \"A\", ", "\"ttl\": 0, ", "\"extra\": [1, {\"k\": 1.25}], ", "\"actions\": [], ",
        "\"storage\": \"s1\", ", "\"value\": 3, ", "\"delay\": 4, "};
    QByteArray b = base;
    const int edits = rng.chance(70) ? 1 : int(rng.between(2, 3));
    for (int e = 0; e < edits && !b.isEmpty(); ++e) {
        const auto at = qsizetype(rng.between(0, std::uint64_t(b.size() - 1)));
        switch (rng.between(0, 6)) {
        case 0: // overwrite a byte
            b[at] = pieces.at(qsizetype(rng.between(0, std::uint64_t(pieces.size() - 1))))[0];
            break;
        case 1: // insert a piece
            b.insert(at, pieces.at(qsizetype(rng.between(0, std::uint64_t(pieces.size() - 1)))));
            break;
        case 2: // delete a few bytes
            b.remove(at, qsizetype(rng.between(1, 4)));
            break;
        case 3: // cut the file short
            b.truncate(at);
            break;
        case 4: { // repeat a slice (duplicate keys, elements, brackets)
            const auto len = qsizetype(rng.between(1, 40));
            b.insert(at, b.mid(at, len));
            break;
        }
        case 5: { // replace the value after a colon
            const qsizetype colon = b.indexOf(':', at);
            if (colon < 0)
                break;
            qsizetype end = colon + 1;
            while (end < b.size() && b[end] != ',' && b[end] != '}')
                ++end;
            b.replace(colon + 1, end - colon - 1,
                      pieces.at(qsizetype(rng.between(0, std::uint64_t(pieces.size() - 1)))));
            break;
        }
        default: { // insert a member after an opening brace
            const qsizetype brace = b.indexOf('{', at);
            if (brace >= 0)
                b.insert(brace + 1, pieces.at(qsizetype(rng.between(42, std::uint64_t(pieces.size() - 1)))));
            break;
        }
        }
    }
    return b;
}

} // namespace

class TestJsonSyntax : public QObject
{
    Q_OBJECT
private slots:
    // ---- broken JSON: line and column, and what is wrong -------------------------------------

    void syntaxErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        const QByteArray ok = ", \"clients\": [{\"name\": \"A\"}]}";
        // Qt words the errors it finds, its column just past the character it stopped at; the
        // errors Qt lets through are placed at their first character. Cut short: the end.
        QTest::newRow("truncated in a string") << QByteArray("{\"fencescope\": 1, \"title\": \"abc")
                                               << "line 1, column 32: not valid JSON (unterminated string)";
        QTest::newRow("truncated after a comma")
            << QByteArray("{\"fencescope\": 1,") << "line 1, column 18: not valid JSON (unterminated object)";
        QTest::newRow("truncated object") << QByteArray("{") << "line 1, column 2: not valid JSON (unterminated object)";
        QTest::newRow("truncated array") << QByteArray("{\"fencescope\": 1, \"clients\": [")
                                         << "line 1, column 31: not valid JSON (unterminated array)";
        // escapes
        QTest::newRow("bad escape") << QByteArray("{\n  \"fencescope\": 1,\n  \"title\": \"a\\q\"\n}")
                                    << "line 3, column 14: not valid JSON (an escape JSON does not know: \\q)";
        QTest::newRow("bad \\u escape") << QByteArray("{\"fencescope\": 1, \"title\": \"\\u12g4\"" + ok)
                                        << "line 1, column 33: not valid JSON (invalid escape sequence)";
        // lone surrogates: Qt would keep them, but no UTF-8 file can hold them; at the backslash
        QTest::newRow("lone high surrogate")
            << QByteArray("{\"fencescope\": 1, \"title\": \"ab\\ud800\"" + ok)
            << "line 1, column 31: not valid JSON (a lone UTF-16 surrogate \\ud800 in a string; it "
               "needs its other half)";
        QTest::newRow("lone low surrogate")
            << QByteArray("{\"fencescope\": 1, \"title\": \"\\uDC00x\"" + ok)
            << "line 1, column 29: not valid JSON (a lone UTF-16 surrogate \\udc00 in a string; it "
               "needs its other half)";
        QTest::newRow("high surrogate, then no low one")
            << QByteArray("{\"fencescope\": 1, \"title\": \"\\ud83d\\u0041\"" + ok)
            << "line 1, column 29: not valid JSON (a lone UTF-16 surrogate \\ud83d in a string; it "
               "needs its other half)";
        // text that is not UTF-8, or not text
        QTest::newRow("invalid UTF-8") << QByteArray("{\"fencescope\": 1, \"title\": \"\xff\"" + ok)
                                       << "line 1, column 29: not valid JSON (invalid UTF8 string)";
        QTest::newRow("NUL byte") << QByteArray("{\"fencescope\": 1, \"title\": \"a\0b\"}", 33)
                                  << "line 1, column 30: a NUL byte: this is not a text file";
        QTest::newRow("raw control character")
            << QByteArray("{\"fencescope\": 1,\n\"title\": \"a\tb\"" + ok)
            << "line 2, column 12: a raw control character inside a string (JSON needs it "
               "escaped, e.g. \\n)";
        QTest::newRow("byte order mark between values")
            << QByteArray("{\"fencescope\": 1, \xef\xbb\xbf\"title\": \"t\"" + ok) << "line 1, column 20: not valid JSON (unterminated object)";
        // nesting: at the bracket that opens level 65
        QTest::newRow("deep arrays") << QByteArray(65, '[') + QByteArray(65, ']')
                                     << "line 1, column 65: nested too deeply (more than 64 levels)";
        QTest::newRow("deep and cut short") << QByteArray(100000, '{')
                                            << "line 1, column 3: not valid JSON (unterminated object)";
        // numbers as JSON writes them, and no others
        QTest::newRow("trailing dot") << QByteArray("{\"fencescope\": 1." + ok)
                                      << "line 1, column 16: not valid JSON (a number as JSON does "
                                         "not allow it, e.g. a leading '.' or a trailing '.')";
        QTest::newRow("leading dot") << QByteArray("{\"fencescope\": 1, \"x\": .5" + ok)
                                     << "line 1, column 24: not valid JSON (a number as JSON does "
                                        "not allow it, e.g. a leading '.' or a trailing '.')";
        QTest::newRow("leading zero") << QByteArray("{\"fencescope\": 01" + ok)
                                      << "line 1, column 16: not valid JSON (a number as JSON does "
                                         "not allow it, e.g. a leading '.' or a trailing '.')";
        QTest::newRow("huge number") << QByteArray("{\"fencescope\": 1, \"horizon\": 2e999" + ok)
                                     << "line 1, column 35: not valid JSON (illegal number)";
        QTest::newRow("NaN") << QByteArray("{\"fencescope\": NaN" + ok) << "line 1, column 16: not valid JSON (illegal number)";
        // structure
        QTest::newRow("missing colon") << QByteArray("{\"fencescope\" 1" + ok) << "line 1, column 16: not valid JSON (missing name separator)";
        QTest::newRow("missing comma") << QByteArray("[1 2]") << "line 1, column 5: not valid JSON (missing value separator)";
        QTest::newRow("trailing comma in an array") << QByteArray("{\"fencescope\": 1, \"x\": [1,]" + ok)
                                                    << "line 1, column 28: not valid JSON (object is missing after a comma)";
        QTest::newRow("garbage after") << QByteArray("{\"fencescope\": 1" + ok + "}") << "line 1, column 46: not valid JSON (garbage at the end of the document)";
        QTest::newRow("only whitespace") << QByteArray(" \n ") << "line 2, column 2: not valid JSON (illegal value)";
        // repeated keys are refused wherever they are, with the key's path
        QTest::newRow("duplicate top-level key")
            << QByteArray("{\"fencescope\": 1, \"fencescope\": 1" + ok)
            << "fencescope: duplicate key (a key may appear only once in an object)";
        QTest::newRow("duplicate action key")
            << QByteArray("{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"actions\": "
                          "[{\"at\": 1, \"do\": \"release\"}, {\"at\": 1, \"at\": 2, \"do\": \"release\"}]}]}")
            << "clients[0].actions[1].at: duplicate key (a key may appear only once in an object)";
        QTest::newRow("duplicate kept key")
            << QByteArray("{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"c\": 1, \"c\": 2}]}")
            << "clients[0].c: duplicate key (a key may appear only once in an object)";
        QTest::newRow("duplicate key deep in a kept value")
            << QByteArray("{\"fencescope\": 1, \"x\": {\"a\": [0, {\"k\": 1, \"k\": 2}]}" + ok)
            << "x.a[1].k: duplicate key (a key may appear only once in an object)";
        QTest::newRow("duplicate escaped key")
            << QByteArray("{\"fencescope\": 1, \"\\u0066encescope\": 1" + ok)
            << "fencescope: duplicate key (a key may appear only once in an object)";
    }
    void syntaxErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const Core::LoadResult r = Core::ScenarioFile::parse(json);
        QVERIFY(!r.ok());
        QCOMPARE(r.error, message);
        // the second look finds exactly the syntax errors; duplicate keys are the loader's
        const bool syntax = message.startsWith(QLatin1String("line "));
        QCOMPARE(Core::JsonSyntax::problem(json, 64), syntax ? message : QString());
    }

    // a problem with the content is reported only when the JSON is sound
    void syntaxErrorsWinOverContent()
    {
        const QByteArray json = "{\"fencescope\": 2, \"clients\": [{\"name\": \"A\"}] x";
        QCOMPARE(Core::ScenarioFile::parse(json).error,
                 QStringLiteral("line 1, column 47: not valid JSON (unterminated object)"));
        QCOMPARE(Core::ScenarioFile::parse(json.chopped(2) + "}").error,
                 QStringLiteral("fencescope: unsupported format version 2 (this FenceScope reads "
                                "version 1)"));
    }

    void byteOrderMarks()
    {
        // before the document: allowed and skipped
        const QByteArray plain = "{\"fencescope\": 1, \"clients\": [{\"name\": \"A\"}]}";
        const Core::LoadResult r = Core::ScenarioFile::parse("\xef\xbb\xbf" + plain);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.scenario->clients[0].name, QStringLiteral("A"));
        // at the start of a key it is part of the key: an unknown key, kept and saved
        const Core::LoadResult marked = Core::ScenarioFile::parse(
            "{\"fencescope\": 1, \"clients\": [{\"name\": \"A\", \"\xef\xbb\xbfname\": \"B\"}]}");
        QVERIFY2(marked.ok(), qPrintable(marked.error));
        const QString key = QChar(0xFEFF) + QStringLiteral("name");
        QCOMPARE(marked.scenario->clients[0].name, QStringLiteral("A"));
        QCOMPARE(marked.scenario->clients[0].extra.value(key).toString(), QStringLiteral("B"));
        const Core::LoadResult again =
            Core::ScenarioFile::parse(Core::ScenarioFile::serialize(*marked.scenario));
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(*again.scenario, *marked.scenario);
    }

    void surrogatePairsLoad()
    {
        const Core::LoadResult r = Core::ScenarioFile::parse(
            "{\"fencescope\": 1, \"title\": \"\\ud83d\\ude00\", \"clients\": [{\"name\": \"A\"}]}");
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.scenario->title, QString::fromUtf8("\xf0\x9f\x98\x80"));
    }

    void numbers()
    {
        const auto load = [](const char *x) {
            return Core::ScenarioFile::parse(QByteArray("{\"fencescope\": 1, \"x\": ") + x +
                                             ", \"clients\": [{\"name\": \"A\"}]}");
        };
        // kept as QJsonValue keeps them: exact 64-bit integers, doubles otherwise
        Core::LoadResult r = load("[9007199254740993, -9223372036854775808, 1e3, -0.5, "
                                  "18446744073709551616, 0.12345678901234567890123]");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QJsonArray x = r.scenario->extra.value(QStringLiteral("x")).toArray();
        QCOMPARE(x.at(0).toInteger(), 9007199254740993LL);
        QCOMPARE(x.at(1).toInteger(), std::numeric_limits<qint64>::min());
        QCOMPARE(x.at(2).toDouble(), 1000.0);
        QCOMPARE(x.at(3).toDouble(), -0.5);
        QCOMPARE(x.at(4).toDouble(), 18446744073709551616.0);
        QCOMPARE(x.at(5).toDouble(), 0.12345678901234568); // more digits than a double holds
        QCOMPARE(r.scenario->extra.value(QStringLiteral("x")).toArray().size(), 6);
        // too large or too small for a double
        r = load("1e400");
        QCOMPARE(r.error, QStringLiteral("line 1, column 29: not valid JSON (illegal number)"));
        r = load("-1e-400");
        QCOMPARE(r.error, QStringLiteral("line 1, column 31: not valid JSON (illegal number)"));
    }

    void fileOrder()
    {
        // the version is checked first, wherever it is; storages are known before the writes
        // that name them, wherever they are
        QCOMPARE(Core::ScenarioFile::parse(
                     "{\"clients\": [{\"name\": 5}], \"title\": 3, \"fencescope\": 2}")
                     .error,
                 QStringLiteral("fencescope: unsupported format version 2 (this FenceScope reads "
                                "version 1)"));
        const Core::LoadResult r = Core::ScenarioFile::parse(
            "{\"clients\": [{\"name\": \"A\", \"actions\": [{\"at\": 1, \"do\": \"write\", "
            "\"value\": \"v\", \"storage\": \"b\"}]}], \"storages\": [{\"name\": \"a\"}, "
            "{\"name\": \"b\"}], \"fencescope\": 1, \"z\": 1}");
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.scenario->clients[0].actions[0].storage, 1u);
        QCOMPARE(r.scenario->extra.value(QStringLiteral("z")).toInt(), 1);
    }

    // ---- the loader against the oracle --------------------------------------------------------

    void handPickedInputs()
    {
        int n = 0;
        for (const QByteArray &input : handPicked()) {
            const QString problem = compareAll(input);
            QVERIFY2(problem.isEmpty(),
                     qPrintable(QStringLiteral("input %1 %2: %3")
                                    .arg(n)
                                    .arg(QString::fromLatin1(input.left(200).toPercentEncoding(" {}[]\":,")))
                                    .arg(problem)));
            ++n;
        }
    }

    void filesAndRandomScenarios()
    {
        const QList<QByteArray> inputs = fileInputs() + randomInputs(300);
        QVERIFY(inputs.size() > 330);
        int loaded = 0;
        for (const QByteArray &input : inputs) {
            const QString problem = compareAll(input);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            loaded += Core::ScenarioFile::parse(input).ok();
        }
        QVERIFY(loaded >= 300); // the random ones all load
    }

    void mutatedInputs()
    {
        const QList<QByteArray> bases = fileInputs() + randomInputs(40) + handPicked();
        TestSupport::Rng rng(20240607);
        int valid = 0;
        int loaded = 0;
        int total = 0;
        // 100 rounds, 10 under FENCESCOPE_QUICK=1 (the sanitizer build, scripts/sanitize.sh)
        const int rounds = qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 10 : 100;
        for (int round = 0; round < rounds; ++round) {
            for (const QByteArray &base : bases) {
                if (base.size() > 20000)
                    continue; // the huge hostile files: once above is enough
                const QByteArray input = mutate(base, rng);
                const QString problem = compareAll(input);
                QVERIFY2(problem.isEmpty(),
                         qPrintable(QStringLiteral("%1\ninput: %2")
                                        .arg(problem, QString::fromLatin1(input.toPercentEncoding(
                                                          " {}[]\":,")))));
                valid += QJsonDocument::fromJson(input).isObject();
                loaded += Core::ScenarioFile::parse(input).ok();
                ++total;
            }
        }
        qInfo("%d mutated inputs: %d well-formed objects, %d loaded", total, valid, loaded);
        QVERIFY(total > rounds * 100);
        QVERIFY(valid > total / 20); // the mutations do not only make garbage
        QVERIFY(loaded > total / 50);
    }

    void largeFileMatches()
    {
        TestSupport::RandomScenarioOptions o;
        o.minActions = 3000;
        o.maxActions = 5000;
        o.minClients = 4;
        const QByteArray json = Core::ScenarioFile::serialize(TestSupport::randomScenario(7, o));
        QCOMPARE(compareAll(json), QString());
    }
};

QTEST_GUILESS_MAIN(TestJsonSyntax)
#include "tst_jsonsyntax.moc"
