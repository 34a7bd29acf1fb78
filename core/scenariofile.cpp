#include "scenariofile.h"

#include "jsonout.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <cmath>
#include <limits>

namespace Core {
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
            if (tokens.toString() != QLatin1String("counter"))
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("unknown token source \"%1\" (known: counter)")
                         .arg(tokens.toString()));
        }
        s.tokens = TokenSource::Counter;
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
                break;
            }
            a.extra = unknownKeys(o, known);
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

void writeExtra(JsonOut &out, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        out.raw(", ").string(it.key()).raw(": ").value(it.value());
    }
}

} // namespace

namespace ScenarioFile {

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
    } catch (const Problem &p) {
        result.error = p.text;
    } catch (const std::bad_alloc &) {
        result.error = QStringLiteral("file: not enough memory to load it");
    }
    return result;
}

LoadResult load(const QString &path, const FileLimits &limits)
{
    LoadResult result;
    QFile file(path);
    const QFileInfo info(path);
    if (info.isDir()) {
        result.error = QStringLiteral("file: %1 is a folder, not a scenario file").arg(path);
        return result;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        result.error = QStringLiteral("file: cannot open %1 (%2)").arg(path, file.errorString());
        return result;
    }
    if (file.size() > limits.maxFileBytes) {
        result.error = QStringLiteral("file: too large (%1; the limit is %2)")
                           .arg(mib(file.size()), mib(limits.maxFileBytes));
        return result;
    }
    // +1 so that a file that grew (or a device that reports no size) is still caught
    const QByteArray bytes = file.read(limits.maxFileBytes + 1);
    if (file.error() != QFileDevice::NoError) {
        result.error = QStringLiteral("file: cannot read %1 (%2)").arg(path, file.errorString());
        return result;
    }
    return parse(bytes, limits);
}

QByteArray serialize(const Scenario &s)
{
    JsonOut out;
    out.raw("{\n  ").key("fencescope").number(1);
    out.raw(",\n  ").key("title").string(s.title);
    if (!s.description.isEmpty())
        out.raw(",\n  ").key("description").string(s.description);
    if (s.horizon)
        out.raw(",\n  ").key("horizon").number(*s.horizon);
    out.raw(",\n  ").key("fencing").boolean(s.fencing);
    out.raw(",\n  ").key("lock").raw("{ ").key("tokens").string(toString(s.tokens));
    writeExtra(out, s.lockExtra);
    out.raw(" }");
    out.raw(",\n  ").key("storages").raw("[");
    for (std::size_t i = 0; i < s.storages.size(); ++i) {
        const StorageSpec &st = s.storages[i];
        out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("name").string(st.name);
        out.raw(", ").key("rule").string(toString(st.rule));
        writeExtra(out, st.extra);
        out.raw(" }");
    }
    out.raw(" ]");
    out.raw(",\n  ").key("clients").raw("[");
    for (std::size_t c = 0; c < s.clients.size(); ++c) {
        const Client &client = s.clients[c];
        out.raw(c ? ",\n    " : "\n    ").raw("{ ").key("name").string(client.name);
        writeExtra(out, client.extra);
        out.raw(", ").key("actions").raw("[");
        for (std::size_t i = 0; i < client.actions.size(); ++i) {
            const Action &a = client.actions[i];
            out.raw(i ? ",\n      " : "\n      ").raw("{ ").key("at").number(a.at);
            out.raw(", ").key("do").string(toString(a.kind));
            switch (a.kind) {
            case ActionKind::Acquire:
                out.raw(", ").key("ttl").number(a.amount);
                break;
            case ActionKind::Pause:
                out.raw(", ").key("for").number(a.amount);
                break;
            case ActionKind::Write:
                out.raw(", ").key("value").string(a.value);
                if (a.storage != 0 && a.storage < s.storages.size())
                    out.raw(", ").key("storage").string(s.storages[a.storage].name);
                if (a.amount != 0)
                    out.raw(", ").key("delay").number(a.amount);
                break;
            case ActionKind::Release:
                break;
            }
            writeExtra(out, a.extra);
            out.raw(" }");
        }
        out.raw(client.actions.empty() ? "] }" : " ] }");
    }
    out.raw(" ]");
    writeExtra(out, s.extra);
    out.raw("\n}\n");
    return QByteArray(out.buffer().data(), qsizetype(out.buffer().size()));
}

bool save(const Scenario &scenario, const QString &path, QString *error)
{
    QSaveFile file(path);
    const QByteArray bytes = serialize(scenario);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("cannot save %1 (%2)").arg(path, file.errorString());
        return false;
    }
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot save %1 (%2); the previous file is unchanged")
                         .arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

QString builtinPath(const QString &name)
{
    return QStringLiteral(":/scenarios/%1.json").arg(name);
}

QStringList builtinNames()
{
    return {QStringLiteral("default"), QStringLiteral("delayed-packet"),
            QStringLiteral("renewal-keeps-token"), QStringLiteral("three-owners"),
            QStringLiteral("le-locks-out-holder")};
}

Scenario defaultScenario()
{
    LoadResult r = load(builtinPath(QStringLiteral("default")));
    if (r.ok())
        return std::move(*r.scenario);
    // Only reachable if the resource failed to link in (tests cover that it does not).
    Scenario s;
    s.title = r.error;
    s.clients.push_back({QStringLiteral("A"), {}, {}});
    return s;
}

} // namespace ScenarioFile
} // namespace Core
