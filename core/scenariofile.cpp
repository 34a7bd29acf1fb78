#include "scenariofile.h"

#include "jsonout.h"
#include "jsonreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>

namespace Core {
namespace {

// One error travels up as this; the first problem found wins.
struct Problem
{
    QString text;
};

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

QString oddityProblem(JsonReader::Oddity oddity, int limit)
{
    switch (oddity) {
    case JsonReader::Oddity::NulByte:
        return QStringLiteral("a NUL byte: this is not a text file");
    case JsonReader::Oddity::ControlCharacter:
        return QStringLiteral("a raw control character inside a string (JSON needs it escaped, "
                              "e.g. \\n)");
    case JsonReader::Oddity::TooDeep:
        return QStringLiteral("nested too deeply (more than %1 levels)").arg(limit);
    case JsonReader::Oddity::None:
        break;
    }
    return {};
}

// The checks Qt's parser is lenient about, over raw bytes: nesting deeper than `limit`, NUL
// bytes, and raw control characters inside strings (JSON requires them escaped; Qt would
// silently cut a string at a NUL). JsonReader notes the same things while it validates a
// well-formed document; this scan is for the malformed ones, where it must win over the syntax
// error. Returns the offset of the first problem, or -1.
qsizetype prescan(const QByteArray &json, int limit, JsonReader::Oddity *oddity)
{
    int depth = 0;
    bool inString = false;
    const char *p = json.constData();
    for (qsizetype i = 0, n = json.size(); i < n; ++i) {
        const char c = p[i];
        if (c == '\0') {
            *oddity = JsonReader::Oddity::NulByte;
            return i;
        }
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                *oddity = JsonReader::Oddity::ControlCharacter;
                return i;
            }
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) {
                *oddity = JsonReader::Oddity::TooDeep;
                return i;
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return -1;
}

QString located(const QByteArray &json, qsizetype offset, const QString &problem)
{
    const auto [line, column] = lineColumn(json, offset);
    return QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(problem);
}

QString typeName(QJsonValue::Type type)
{
    switch (type) {
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

// Places are composed only when a problem is reported: a million actions must not cost a
// million strings.
QString join(const QString &place, const char *key)
{
    return place + QLatin1Char('.') + QLatin1String(key);
}
QString storagePlace(qsizetype i)
{
    return QStringLiteral("storages[%1]").arg(i);
}
QString clientPlace(qsizetype i)
{
    return QStringLiteral("clients[%1]").arg(i);
}
QString actionPlace(qsizetype client, qsizetype action)
{
    return QStringLiteral("clients[%1].actions[%2]").arg(client).arg(action);
}

// Keys this version does not know, collected as the DOM reader kept them. One oddity of Qt is
// kept too: a key that starts with a raw UTF-8 byte order mark does not match the key without
// it, but reads back without it (QString::fromUtf8 drops it). So the DOM reader dropped such a
// key when its readable name was a known one, and otherwise kept it under that name, winning
// over the same name without the mark (it sorts after it). Such keys are held until the known
// names are certain (an action's depend on its kind).
class Extras
{
public:
    void add(JsonReader &json, const JsonString &key)
    {
        if (key.bom()) {
            m_marked.emplace_back(json.decode(key), json.position());
            json.skipValue();
        } else {
            m_object.insert(json.decode(key), json.readValue());
        }
    }
    void addMarked(const QString &name, qsizetype offset) { m_marked.emplace_back(name, offset); }
    void insert(const QString &name, const QJsonValue &value) { m_object.insert(name, value); }

    QJsonObject take(JsonReader &json, std::initializer_list<const char *> known)
    {
        for (const auto &[name, offset] : m_marked) {
            bool isKnown = false;
            for (const char *k : known)
                isKnown = isKnown || name == QLatin1String(k);
            if (!isKnown)
                m_object.insert(name, json.valueAt(offset));
        }
        return std::move(m_object);
    }

private:
    QJsonObject m_object;
    std::vector<std::pair<QString, qsizetype>> m_marked;
};

// Reads the scenario from a validated document, value by value. The checks run in the order of
// the DOM reader this replaced (a fixed order of keys, whatever their order in the file), so
// the first problem reported is the same; a repeated key counts with its last value, as in a
// QJsonObject. Arrays are read element by element while the element count is still unknown:
// a problem in an element is held until the end of the array, because "too many" about the
// whole array is reported before anything inside it.
class Reader
{
public:
    Reader(JsonReader &json, const FileLimits &limits) : m_json(json), m_limits(limits) {}

    Scenario read(const std::vector<JsonReader::Member> &members)
    {
        enum Slot { Version, Title, Description, Horizon, Fencing, Lock, Storages, Clients, Slots };
        static const char *const names[Slots] = {"fencescope", "title",   "description",
                                                 "horizon",    "fencing", "lock",
                                                 "storages",   "clients"};
        qsizetype offsets[Slots];
        std::fill(std::begin(offsets), std::end(offsets), qsizetype(-1));
        std::vector<const JsonReader::Member *> unknown;
        for (const JsonReader::Member &m : members) {
            int slot = m.bom ? Slots : 0;
            while (slot < Slots && m.key != QLatin1String(names[slot]))
                ++slot;
            if (slot < Slots)
                offsets[slot] = m.offset;
            else
                unknown.push_back(&m);
        }

        Scenario s;
        const JsonToken version = tokenAt(offsets[Version]);
        if (!version.present())
            fail(QStringLiteral("fencescope"),
                 QStringLiteral("missing: this is not a FenceScope scenario file (expected "
                                "\"fencescope\": 1)"));
        if (version.type != QJsonValue::Double || version.number.toDouble() != 1.0)
            fail(QStringLiteral("fencescope"),
                 QStringLiteral("unsupported format version %1 (this FenceScope reads version 1)")
                     .arg(describe(version)));

        s.title = optionalString(tokenAt(offsets[Title]), QStringLiteral("title"));
        s.description = optionalString(tokenAt(offsets[Description]), QStringLiteral("description"));
        const JsonToken horizon = tokenAt(offsets[Horizon]);
        if (horizon.present())
            s.horizon = integer(horizon, [] { return QStringLiteral("horizon"); }, true);
        const JsonToken fencing = tokenAt(offsets[Fencing]);
        if (fencing.present()) {
            if (fencing.type != QJsonValue::Bool)
                fail(QStringLiteral("fencing"),
                     QStringLiteral("must be true or false, not %1").arg(typeName(fencing.type)));
            s.fencing = fencing.boolean;
        }
        readLock(tokenAt(offsets[Lock]), s);
        readStorages(tokenAt(offsets[Storages]), s);
        readClients(tokenAt(offsets[Clients]), s);

        Extras extra;
        for (const JsonReader::Member *m : unknown) {
            if (m->bom)
                extra.addMarked(m->key, m->offset);
            else // in file order: the last one wins
                extra.insert(m->key, m_json.valueAt(m->offset));
        }
        s.extra = extra.take(m_json, {"fencescope", "title", "description", "horizon", "fencing",
                                      "lock", "storages", "clients"});
        return s;
    }

private:
    [[noreturn]] static void fail(const QString &place, const QString &problem)
    {
        throw Problem{place + QLatin1String(": ") + problem};
    }

    // The value at `offset` (-1: absent); containers are left unread, only located.
    JsonToken tokenAt(qsizetype offset)
    {
        if (offset < 0)
            return {};
        m_json.seek(offset);
        const QJsonValue::Type type = m_json.peekType();
        if (type == QJsonValue::Object || type == QJsonValue::Array) {
            JsonToken t;
            t.type = type;
            t.offset = offset;
            return t;
        }
        return m_json.readToken();
    }

    bool isKey(const JsonString &key, const char *name, std::size_t length) const
    {
        if (!key.escaped)
            return key.rawEquals(name, length);
        return m_json.decode(key) == QLatin1String(name, qsizetype(length));
    }
    template <std::size_t N>
    bool isKey(const JsonString &key, const char (&name)[N]) const
    {
        return isKey(key, name, N - 1);
    }
    // A string value as its QString reads (unlike a key, without a leading byte order mark).
    bool textIs(const JsonString &text, const char *name, std::size_t length) const
    {
        if (!text.escaped && !text.bom())
            return text.rawEquals(name, length);
        return m_json.decode(text) == QLatin1String(name, qsizetype(length));
    }

    QString describe(const JsonToken &v) const
    {
        if (v.type == QJsonValue::Double) {
            // integers Qt keeps exactly are shown exactly: 2^53 + 1 must not read as 2^53
            constexpr qint64 notWhole = std::numeric_limits<qint64>::min();
            const qint64 exact = v.number.toInteger(notWhole);
            if (exact != notWhole)
                return QString::number(exact);
            return QString::number(v.number.toDouble(), 'g', 17);
        }
        if (v.type == QJsonValue::String)
            return QLatin1Char('"') + m_json.decode(v.string) + QLatin1Char('"');
        return typeName(v.type);
    }

    QString optionalString(const JsonToken &v, const QString &place) const
    {
        if (!v.present())
            return {};
        if (v.type != QJsonValue::String)
            fail(place, QStringLiteral("must be a string, not %1").arg(typeName(v.type)));
        return m_json.decode(v.string);
    }

    // An integer tick count: 0 <= n <= 2^53 (beyond that JSON numbers are not exact).
    template <typename Place>
    Tick integer(const JsonToken &v, Place place, bool mustBePositive) const
    {
        const auto what = [mustBePositive] {
            return mustBePositive ? QStringLiteral("must be a positive integer")
                                  : QStringLiteral("must be a non-negative integer");
        };
        if (v.type != QJsonValue::Double)
            fail(place(), QStringLiteral("%1, not %2").arg(what(), typeName(v.type)));
        const double d = v.number.toDouble();
        if (!std::isfinite(d) || d != std::floor(d))
            fail(place(), QStringLiteral("%1, not %2").arg(what(), describe(v)));
        if (d < 0 || (mustBePositive && d == 0))
            fail(place(), QStringLiteral("%1, not %2").arg(what(), describe(v)));
        // integers are kept exactly when they fit in 64 bits, so 2^53 + 1 is caught here too
        const qint64 exact = v.number.toInteger(-1);
        if (d > double(kMaxFileInteger) || exact < 0 || quint64(exact) > kMaxFileInteger)
            fail(place(), QStringLiteral("%1 no larger than 2^53 (9007199254740992), not %2")
                              .arg(what(), describe(v)));
        return Tick(exact);
    }

    template <typename Place>
    Tick required(const JsonToken &v, Place place, const char *key, bool positive) const
    {
        if (!v.present())
            fail(join(place(), key),
                 QStringLiteral("missing (%1)")
                     .arg(positive ? QStringLiteral("must be a positive integer")
                                   : QStringLiteral("must be a non-negative integer")));
        return integer(v, [&] { return join(place(), key); }, positive);
    }

    QString name(const JsonToken &v, const QString &place, bool client) const
    {
        if (!v.present())
            fail(join(place, "name"),
                 QStringLiteral("missing (every %1 needs a name)")
                     .arg(client ? QStringLiteral("client") : QStringLiteral("storage")));
        if (v.type != QJsonValue::String)
            fail(join(place, "name"),
                 QStringLiteral("must be a string, not %1").arg(typeName(v.type)));
        const QString n = m_json.decode(v.string);
        if (n.trimmed().isEmpty())
            fail(join(place, "name"), QStringLiteral("must not be empty"));
        return n;
    }

    // Calls read(index) for each element of the array at the read position while that can
    // still matter: after the first problem, or past `limit`, elements are only counted.
    // Returns the count and the first problem, which the caller reports after its checks on
    // the count.
    template <typename Read>
    qsizetype elements(std::size_t limit, std::optional<Problem> *held, Read read)
    {
        qsizetype count = 0;
        m_json.forEachElement([&] {
            const qsizetype i = count++;
            if (*held || std::size_t(count) > limit) {
                m_json.skipValue();
                return;
            }
            const JsonReader::Bookmark start = m_json.bookmark();
            try {
                read(i);
            } catch (Problem &p) {
                *held = std::move(p);
                m_json.rewind(start);
                m_json.skipValue();
            }
        });
        return count;
    }

    void readLock(const JsonToken &v, Scenario &s)
    {
        if (!v.present())
            return;
        if (v.type != QJsonValue::Object)
            fail(QStringLiteral("lock"),
                 QStringLiteral("must be an object, not %1").arg(typeName(v.type)));
        m_json.seek(v.offset);
        JsonToken tokens;
        Extras extra;
        m_json.forEachMember([&](const JsonString &key) {
            if (isKey(key, "tokens"))
                tokens = m_json.readToken();
            else
                extra.add(m_json, key);
        });
        if (tokens.present()) {
            if (tokens.type != QJsonValue::String)
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("must be a string, not %1").arg(typeName(tokens.type)));
            const QString t = m_json.decode(tokens.string);
            if (t != QLatin1String("counter"))
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("unknown token source \"%1\" (known: counter)").arg(t));
        }
        s.tokens = TokenSource::Counter;
        s.lockExtra = extra.take(m_json, {"tokens"});
    }

    void readStorages(const JsonToken &v, Scenario &s)
    {
        if (!v.present())
            return; // the default: one storage "db" with rule lt
        const QString place = QStringLiteral("storages");
        if (v.type != QJsonValue::Array)
            fail(place, QStringLiteral("must be an array, not %1").arg(typeName(v.type)));
        s.storages.clear();
        m_json.seek(v.offset);
        std::optional<Problem> held;
        const qsizetype count =
            elements(m_limits.maxStorages, &held, [&](qsizetype i) { readStorage(i, s); });
        if (count == 0)
            fail(place, QStringLiteral("must list at least one storage (or be left out for the "
                                       "default \"db\")"));
        if (std::size_t(count) > m_limits.maxStorages)
            fail(place, QStringLiteral("too many storages (%1; the limit is %2)")
                            .arg(count)
                            .arg(m_limits.maxStorages));
        if (held)
            throw *held;
    }

    void readStorage(qsizetype i, Scenario &s)
    {
        if (m_json.peekType() != QJsonValue::Object)
            fail(storagePlace(i),
                 QStringLiteral("must be an object, not %1").arg(typeName(m_json.peekType())));
        JsonToken nameToken;
        JsonToken rule;
        Extras extra;
        m_json.forEachMember([&](const JsonString &key) {
            if (isKey(key, "name"))
                nameToken = m_json.readToken();
            else if (isKey(key, "rule"))
                rule = m_json.readToken();
            else
                extra.add(m_json, key);
        });
        StorageSpec spec;
        spec.name = name(nameToken, storagePlace(i), false);
        if (s.storageIndex(spec.name) >= 0)
            fail(join(storagePlace(i), "name"),
                 QStringLiteral("duplicate storage name \"%1\"").arg(spec.name));
        if (rule.present()) {
            const QString r = rule.type == QJsonValue::String ? m_json.decode(rule.string) : QString();
            if (r == QLatin1String("lt"))
                spec.rule = FenceRule::Lt;
            else if (r == QLatin1String("le"))
                spec.rule = FenceRule::Le;
            else
                fail(join(storagePlace(i), "rule"),
                     QStringLiteral("must be \"lt\" or \"le\", not %1").arg(describe(rule)));
        }
        spec.extra = extra.take(m_json, {"name", "rule"});
        s.storages.push_back(std::move(spec));
    }

    void readClients(const JsonToken &v, Scenario &s)
    {
        const QString place = QStringLiteral("clients");
        if (!v.present())
            fail(place, QStringLiteral("missing: a scenario needs at least one client"));
        if (v.type != QJsonValue::Array)
            fail(place, QStringLiteral("must be an array, not %1").arg(typeName(v.type)));
        m_storages = &s.storages;
        m_storageUtf8.clear();
        m_storageUtf8Exact = true;
        for (const StorageSpec &st : s.storages) {
            m_storageUtf8.push_back(st.name.toUtf8());
            // a name with a lone surrogate does not survive UTF-8; compare those as QStrings
            m_storageUtf8Exact = m_storageUtf8Exact &&
                                 QString::fromUtf8(m_storageUtf8.back()) == st.name;
        }
        QHash<QString, int> seen;
        std::size_t total = 0;
        m_json.seek(v.offset);
        const qsizetype size = m_json.elementCount(v.offset);
        if (size > 0)
            s.clients.reserve(std::min(std::size_t(size), m_limits.maxClients));
        std::optional<Problem> held;
        const qsizetype count = elements(m_limits.maxClients, &held, [&](qsizetype i) {
            readClient(i, s, seen, total);
        });
        if (count == 0)
            fail(place, QStringLiteral("must list at least one client"));
        if (std::size_t(count) > m_limits.maxClients)
            fail(place, QStringLiteral("too many clients (%1; the limit is %2)")
                            .arg(count)
                            .arg(m_limits.maxClients));
        if (held)
            throw *held;
    }

    struct Actions
    {
        bool present = false;
        QJsonValue::Type type = QJsonValue::Undefined;
        qsizetype count = 0;
        std::vector<Action> list;
        std::optional<Problem> held;
    };

    void readClient(qsizetype i, Scenario &s, QHash<QString, int> &seen, std::size_t &total)
    {
        if (m_json.peekType() != QJsonValue::Object)
            fail(clientPlace(i),
                 QStringLiteral("must be an object, not %1").arg(typeName(m_json.peekType())));
        JsonToken nameToken;
        Actions actions;
        Extras extra;
        // "actions" may come before "name" in the file; its problems wait for the name's
        m_json.forEachMember([&](const JsonString &key) {
            if (isKey(key, "name")) {
                nameToken = m_json.readToken();
            } else if (isKey(key, "actions")) {
                actions = Actions();
                readActions(i, total, actions);
            } else {
                extra.add(m_json, key);
            }
        });
        Client c;
        c.name = name(nameToken, clientPlace(i), true);
        const auto previous = seen.constFind(c.name);
        if (previous != seen.constEnd())
            fail(join(clientPlace(i), "name"),
                 QStringLiteral("duplicate client name \"%1\" (also clients[%2])")
                     .arg(c.name)
                     .arg(previous.value()));
        seen.insert(c.name, int(i));
        if (actions.present) {
            if (actions.type != QJsonValue::Array)
                fail(join(clientPlace(i), "actions"),
                     QStringLiteral("must be an array, not %1").arg(typeName(actions.type)));
            total += std::size_t(actions.count);
            if (total > m_limits.maxActions)
                fail(join(clientPlace(i), "actions"),
                     QStringLiteral("too many actions (more than %1 in the file)")
                         .arg(m_limits.maxActions));
            if (actions.held)
                throw *actions.held;
            c.actions = std::move(actions.list);
        }
        c.extra = extra.take(m_json, {"name", "actions"});
        s.clients.push_back(std::move(c));
    }

    void readActions(qsizetype client, std::size_t totalBefore, Actions &actions)
    {
        actions.present = true;
        actions.type = m_json.peekType();
        if (actions.type != QJsonValue::Array) {
            m_json.skipValue();
            return;
        }
        // past the limit the whole array is refused: no need to read what is beyond it
        const std::size_t room =
            totalBefore < m_limits.maxActions ? m_limits.maxActions - totalBefore : 0;
        const qsizetype size = m_json.elementCount(m_json.position());
        if (size > 0)
            actions.list.reserve(std::min(std::size_t(size), room));
        actions.count = elements(room, &actions.held, [&](qsizetype j) {
            actions.list.push_back(readAction(client, j));
        });
    }

    enum Field { At, Do, Ttl, For, Value, Storage, Delay, Fields };

    static int actionField(const JsonString &key)
    {
        const char *k = key.begin;
        switch (key.end - key.begin) {
        case 2:
            if (k[0] == 'a' && k[1] == 't')
                return At;
            if (k[0] == 'd' && k[1] == 'o')
                return Do;
            break;
        case 3:
            if (key.rawEquals("ttl", 3))
                return Ttl;
            if (key.rawEquals("for", 3))
                return For;
            break;
        case 5:
            if (key.rawEquals("value", 5))
                return Value;
            if (key.rawEquals("delay", 5))
                return Delay;
            break;
        case 7:
            if (key.rawEquals("storage", 7))
                return Storage;
            break;
        default:
            break;
        }
        return -1;
    }
    static const char *fieldName(int field)
    {
        static const char *const names[Fields] = {"at",    "do",      "ttl",  "for",
                                                  "value", "storage", "delay"};
        return names[field];
    }
    int actionFieldOf(const JsonString &key) const
    {
        if (!key.escaped)
            return actionField(key);
        const QString k = m_json.decode(key);
        for (int f = 0; f < Fields; ++f)
            if (k == QLatin1String(fieldName(f)))
                return f;
        return -1;
    }

    Action readAction(qsizetype client, qsizetype index)
    {
        const auto place = [client, index] { return actionPlace(client, index); };
        if (m_json.peekType() != QJsonValue::Object)
            fail(place(),
                 QStringLiteral("must be an object, not %1").arg(typeName(m_json.peekType())));
        JsonToken f[Fields];
        Action a;
        std::optional<Extras> marked; // rare: only for keys with a byte order mark
        m_json.forEachMember([&](const JsonString &key) {
            const int field = actionFieldOf(key);
            if (field >= 0) {
                f[field] = m_json.readToken();
            } else if (key.bom()) {
                if (!marked)
                    marked.emplace();
                marked->add(m_json, key);
            } else {
                a.extra.insert(m_json.decode(key), m_json.readValue());
            }
        });

        if (!f[At].present())
            fail(join(place(), "at"),
                 QStringLiteral("missing (every action needs the tick it happens at)"));
        a.at = integer(f[At], [&] { return join(place(), "at"); }, false);
        const JsonToken &what = f[Do];
        if (!what.present())
            fail(join(place(), "do"),
                 QStringLiteral("missing (one of acquire, release, pause, write)"));
        if (what.type != QJsonValue::String)
            fail(join(place(), "do"),
                 QStringLiteral("must be a string, not %1").arg(typeName(what.type)));
        const auto kindIs = [&](const char *name, std::size_t length) {
            return textIs(what.string, name, length);
        };
        bool known[Fields] = {true, true, false, false, false, false, false};
        if (kindIs("acquire", 7)) {
            a.kind = ActionKind::Acquire;
            a.amount = required(f[Ttl], place, "ttl", true);
            known[Ttl] = true;
        } else if (kindIs("release", 7)) {
            a.kind = ActionKind::Release;
        } else if (kindIs("pause", 5)) {
            a.kind = ActionKind::Pause;
            a.amount = required(f[For], place, "for", true);
            known[For] = true;
        } else if (kindIs("write", 5)) {
            a.kind = ActionKind::Write;
            readWrite(f, place, a);
            known[Value] = known[Storage] = known[Delay] = true;
        } else {
            fail(join(place(), "do"),
                 QStringLiteral("unknown action \"%1\" (known: acquire, release, pause, write)")
                     .arg(m_json.decode(what.string)));
        }
        // keys of other kinds of action are unknown keys here, kept like any other
        for (int field = Ttl; field < Fields; ++field)
            if (!known[field] && f[field].present())
                a.extra.insert(QLatin1String(fieldName(field)), m_json.valueAt(f[field].offset));
        if (marked) {
            const QJsonObject more =
                a.kind == ActionKind::Acquire ? marked->take(m_json, {"at", "do", "ttl"})
                : a.kind == ActionKind::Pause ? marked->take(m_json, {"at", "do", "for"})
                : a.kind == ActionKind::Write
                    ? marked->take(m_json, {"at", "do", "value", "storage", "delay"})
                    : marked->take(m_json, {"at", "do"});
            for (auto it = more.begin(); it != more.end(); ++it)
                a.extra.insert(it.key(), it.value());
        }
        return a;
    }

    template <typename Place>
    void readWrite(const JsonToken (&f)[Fields], Place place, Action &a) const
    {
        const JsonToken &value = f[Value];
        if (!value.present())
            fail(join(place(), "value"),
                 QStringLiteral("missing (a write needs the value it writes)"));
        if (value.type != QJsonValue::String)
            fail(join(place(), "value"),
                 QStringLiteral("must be a string, not %1").arg(typeName(value.type)));
        a.value = m_json.decode(value.string);
        const JsonToken &storage = f[Storage];
        if (storage.present()) {
            if (storage.type != QJsonValue::String)
                fail(join(place(), "storage"),
                     QStringLiteral("must be a storage name, not %1").arg(typeName(storage.type)));
            const int found = storageIndex(storage.string);
            if (found < 0)
                fail(join(place(), "storage"),
                     QStringLiteral("unknown storage \"%1\" (known: %2)")
                         .arg(m_json.decode(storage.string), storageNames()));
            a.storage = std::uint32_t(found);
        }
        if (f[Delay].present())
            a.amount = integer(f[Delay], [&] { return join(place(), "delay"); }, false);
    }

    int storageIndex(const JsonString &name) const
    {
        if (!name.escaped && !name.bom() && m_storageUtf8Exact) {
            // the common case, without making a QString per write
            for (std::size_t i = 0; i < m_storageUtf8.size(); ++i)
                if (name.rawEquals(m_storageUtf8[i].constData(),
                                   std::size_t(m_storageUtf8[i].size())))
                    return int(i);
            return -1;
        }
        const QString n = m_json.decode(name);
        for (std::size_t i = 0; i < m_storages->size(); ++i)
            if ((*m_storages)[i].name == n)
                return int(i);
        return -1;
    }

    // In file order, so the message is the same on every run.
    QString storageNames() const
    {
        QStringList names;
        for (const StorageSpec &st : *m_storages)
            names << st.name;
        return names.join(QLatin1String(", "));
    }

    JsonReader &m_json;
    const FileLimits &m_limits;
    const std::vector<StorageSpec> *m_storages = nullptr;
    std::vector<QByteArray> m_storageUtf8;
    bool m_storageUtf8Exact = true;
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
    try {
        JsonReader reader(json);
        reader.setDepthLimit(limits.maxDepth);
        std::vector<JsonReader::Member> root;
        QJsonValue::Type type = QJsonValue::Undefined;
        try {
            type = reader.validate(&root);
        } catch (const JsonSyntaxError &e) {
            // NUL bytes, raw control characters and deep nesting are reported first, wherever
            // they are: they say more about the file than the syntax error they often cause
            JsonReader::Oddity oddity = JsonReader::Oddity::None;
            const qsizetype bad = prescan(json, limits.maxDepth, &oddity);
            if (bad >= 0)
                result.error = located(json, bad, oddityProblem(oddity, limits.maxDepth));
            else
                result.error = located(json, e.offset,
                                       QStringLiteral("not valid JSON (%1)").arg(e.errorString()));
            return result;
        }
        if (reader.oddity() != JsonReader::Oddity::None) {
            result.error = located(json, reader.oddityOffset(),
                                   oddityProblem(reader.oddity(), limits.maxDepth));
            return result;
        }
        if (type != QJsonValue::Object) {
            result.error = QStringLiteral("file: must be a JSON object with \"fencescope\": 1 at "
                                          "the top, not %1")
                               .arg(type == QJsonValue::Array ? QStringLiteral("an array")
                                                              : QStringLiteral("a bare value"));
            return result;
        }
        Reader scenarioReader(reader, limits);
        result.scenario = scenarioReader.read(root);
    } catch (const Problem &p) {
        result.error = p.text;
    } catch (const JsonSyntaxError &e) {
        // not reachable: the document was validated before it was read
        result.error = located(json, e.offset,
                               QStringLiteral("not valid JSON (%1)").arg(e.errorString()));
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
