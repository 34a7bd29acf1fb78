#pragma once

// Reading the values of a scenario file from simdjson's On-Demand parser: a known key's value
// as a Token, numbers from their text (exactly as Qt would hold them), kept values of unknown
// keys as QJsonValue, ticks and integers with the loader's messages, and the places messages
// name. Shared by the reader (scenariofileread.cpp) and the entry points (scenariofile.cpp).
// Internal to the core.

#include "scenario.h"
#include "scenariofile.h"
#include "scenariofilekeys.h"

#include <QJsonValue>
#include <QString>

#include <simdjson.h>

#include <cmath>
#include <cstdint>
#include <string_view>

namespace Core::ScenarioFormat {

namespace od = simdjson::ondemand;

// A problem with the content, named by the path of the offending key.
struct Problem
{
    QString text;
};

// The fast path cannot word this one (a syntax error, or nesting too deep): the second look
// at the file will.
struct Malformed
{
    simdjson::error_code code = simdjson::TAPE_ERROR;
};

[[noreturn]] void fail(const QString &place, const QString &problem);

template <typename T> T get(simdjson::simdjson_result<T> &&r)
{
    T v{};
    if (const simdjson::error_code e = std::move(r).get(v))
        throw Malformed{e};
    return v;
}

// The field's key among `set`, matched on the raw bytes first (no copy), then unescaped for
// keys written with escapes; `unescaped` receives the key of an unknown one.
Key keyOf(od::field &field, KeySet set, std::string_view *unescaped);

QString toQString(std::string_view s);

// ---- places, composed only when a problem is reported

QString join(const QString &place, Key key);
QString storagePlace(std::size_t i);                         // storages[i]
QString clientPlace(std::size_t i);                          // clients[i]
QString actionPlace(std::size_t client, std::size_t action); // clients[c].actions[a]

// The path of a value inside a kept (unknown) value, for a duplicate key deep inside it.
struct PathStep
{
    const PathStep *parent;
    const QString *key; // or
    std::size_t index;
};
QString pathText(const PathStep *step);

[[noreturn]] void duplicate(const QString &place);

QString typeName(od::json_type type);

inline bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// A raw token (simdjson's raw_json_token(): up to the next structural character) without the
// whitespace after its value.
inline std::string_view withoutTrailingSpace(std::string_view token)
{
    while (token.size() > 1 && isSpace(token.back()))
        token.remove_suffix(1);
    return token;
}

// A number as QJsonValue holds it: exact when the text is an integer that fits 64 bits signed,
// a double otherwise.
struct Number
{
    bool isInteger = false;
    qint64 integer = 0;
    double real = 0;

    double toDouble() const { return isInteger ? double(integer) : real; }
    QJsonValue toJson() const { return isInteger ? QJsonValue(integer) : QJsonValue(real); }
    QString describe() const
    {
        // integers are shown exactly: 2^53 + 1 must not read as 2^53
        return isInteger ? QString::number(integer) : QString::number(real, 'g', 17);
    }
};

// The number at v, read from its text: simdjson 3.0.1 misreads numbers of more than 19 digits
// (0.12345678901234567890123 came back as 4.8e-05), and a number is the one kind of value its
// first pass does not check. Integers that fit 64 bits are exact; the rest go through
// std::from_chars, which rounds correctly. Overflow and underflow are refused, as Qt does.
Number readNumber(od::value &v);

// Depth of a value: the root object is level 1.
void enter(int depth, const FileLimits &limits);

// Any value, for a key this version does not know (kept and written back on save).
QJsonValue toJson(od::value v, int depth, const FileLimits &limits, const PathStep *path);

// The string at v, read in place when it has no escapes (most have none): the bytes between its
// quotes, which stage 1 checked for UTF-8 and control characters. Escaped strings are unescaped
// (and their escapes checked) by simdjson. Valid while the parser and the input live.
std::string_view readString(od::value &v);

// A known key's value as read, before it is checked. A plain value, cheap to make a million
// times; an object or array is converted where a known key may turn out to be kept (a ttl on
// a write is an unknown key of that write), into a slot its reader owns.
struct Token
{
    bool present = false;
    od::json_type type = od::json_type::null;
    bool boolean = false;
    Number number;
    std::string_view text;                 // valid while the parser lives
    const QJsonValue *container = nullptr; // object or array, when read into a slot

    QJsonValue toJson() const
    {
        switch (type) {
        case od::json_type::number:
            return number.toJson();
        case od::json_type::string:
            return toQString(text);
        case od::json_type::boolean:
            return boolean;
        case od::json_type::null:
            return QJsonValue::Null;
        default:
            return container ? *container : QJsonValue();
        }
    }
    QString describe() const
    {
        if (type == od::json_type::number)
            return number.describe();
        if (type == od::json_type::string)
            return QLatin1Char('"') + toQString(text) + QLatin1Char('"');
        return typeName(type);
    }
};

// Reads v into t. An object or array is converted in full either way (its duplicate keys and
// depth are checked as in a kept value); it is kept in `slot` when there is one.
void readToken(Token &t, od::value v, int depth, const FileLimits &limits, QJsonValue *slot);

Token readToken(od::value v, int depth, const FileLimits &limits);

// An integer tick count: 0 <= n <= 2^53 (beyond that JSON numbers are not exact).
template <typename Place> Tick integer(const Token &v, Place place, bool mustBePositive)
{
    const auto what = [mustBePositive] {
        return mustBePositive ? QStringLiteral("must be a positive integer")
                              : QStringLiteral("must be a non-negative integer");
    };
    if (v.type != od::json_type::number)
        fail(place(), QStringLiteral("%1, not %2").arg(what(), typeName(v.type)));
    const Number &n = v.number;
    if (n.isInteger) {
        if (n.integer < 0 || (mustBePositive && n.integer == 0))
            fail(place(), QStringLiteral("%1, not %2").arg(what(), n.describe()));
        if (quint64(n.integer) > kMaxFileInteger)
            fail(place(), QStringLiteral("%1 no larger than 2^53 (9007199254740992), not %2")
                              .arg(what(), n.describe()));
        return Tick(n.integer);
    }
    const double d = n.real;
    if (!std::isfinite(d) || d != std::floor(d) || d < 0 || (mustBePositive && d == 0))
        fail(place(), QStringLiteral("%1, not %2").arg(what(), n.describe()));
    if (d > double(kMaxFileInteger))
        fail(place(), QStringLiteral("%1 no larger than 2^53 (9007199254740992), not %2")
                          .arg(what(), n.describe()));
    return Tick(d);
}

template <typename Place> Tick required(const Token &v, Place place, bool positive)
{
    if (!v.present)
        fail(place(), QStringLiteral("missing (%1)")
                          .arg(positive ? QStringLiteral("must be a positive integer")
                                        : QStringLiteral("must be a non-negative integer")));
    return integer(v, place, positive);
}

// A step's `by`: any integer within 2^53 either way.
std::int64_t signedInteger(const Token &v, const QString &place);

// The rule a client's clock.rate is judged by (parseRateText words it the same).
inline constexpr char kRateRule[] =
    "must be a number from 0.001 to 100 with at most three decimals";

} // namespace Core::ScenarioFormat
