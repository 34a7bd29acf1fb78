// Reading the values of a scenario file (scenariofilevalues.h).

#include "scenariofilevalues.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringDecoder>

#include <algorithm>
#include <charconv>

namespace Core::ScenarioFormat {

[[noreturn]] void fail(const QString &place, const QString &problem)
{
    throw Problem{place + QLatin1String(": ") + problem};
}

Key keyOf(od::field &field, KeySet set, std::string_view *unescaped)
{
    const Key raw = rawKey(field.key().raw());
    if (raw != Key::Unknown && (set >> std::size_t(raw) & 1))
        return raw;
    *unescaped = get(field.unescaped_key());
    for (std::size_t k = 0; k < kKeys; ++k)
        if ((set >> k & 1) && *unescaped == kKeyNames[k])
            return Key(k);
    return Key::Unknown;
}

QString toQString(std::string_view s)
{
    // QString::fromUtf8 drops a leading byte order mark; in a key or a string it is text
    if (s.size() >= 3 && s.substr(0, 3) == "\xef\xbb\xbf") {
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom);
        return utf8(QByteArrayView(s.data(), qsizetype(s.size())));
    }
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString join(const QString &place, Key key)
{
    return place.isEmpty() ? keyName(key) : place + QLatin1Char('.') + keyName(key);
}
QString storagePlace(std::size_t i)
{
    return QStringLiteral("storages[%1]").arg(i);
}
QString clientPlace(std::size_t i)
{
    return QStringLiteral("clients[%1]").arg(i);
}
QString actionPlace(std::size_t client, std::size_t action)
{
    return QStringLiteral("clients[%1].actions[%2]").arg(client).arg(action);
}

QString pathText(const PathStep *step)
{
    if (!step)
        return {};
    QString up = pathText(step->parent);
    if (!step->key)
        return up + QStringLiteral("[%1]").arg(step->index);
    return up.isEmpty() ? *step->key : up + QLatin1Char('.') + *step->key;
}

[[noreturn]] void duplicate(const QString &place)
{
    fail(place, QStringLiteral("duplicate key (a key may appear only once in an object)"));
}

QString typeName(od::json_type type)
{
    switch (type) {
    case od::json_type::null:
        return QStringLiteral("null");
    case od::json_type::boolean:
        return QStringLiteral("a boolean");
    case od::json_type::number:
        return QStringLiteral("a number");
    case od::json_type::string:
        return QStringLiteral("a string");
    case od::json_type::array:
        return QStringLiteral("an array");
    case od::json_type::object:
        return QStringLiteral("an object");
    }
    return QStringLiteral("missing");
}

Number readNumber(od::value &v)
{
    std::string_view text = v.raw_json_token();
    {
        // the common case, in one pass: up to 18 digits without a leading zero (no overflow
        // possible), then nothing but the whitespace before the next token
        const char *p = text.data();
        const char *end = p + text.size();
        if (p < end && *p >= '1' && *p <= '9') {
            std::int64_t value = 0;
            const char *last = p + std::min<std::ptrdiff_t>(end - p, 18);
            while (p < last && *p >= '0' && *p <= '9')
                value = value * 10 + (*p++ - '0');
            while (p < end && isSpace(*p))
                ++p;
            if (p == end) {
                Number n;
                n.isInteger = true;
                n.integer = value;
                return n;
            }
        }
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                             text.back() == '\t'))
        text.remove_suffix(1);
    // the grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    const char *p = text.data();
    const char *end = p + text.size();
    const bool negative = p < end && *p == '-';
    p += negative;
    const char *digits = p;
    if (p == end || *p < '0' || *p > '9')
        throw Malformed{simdjson::NUMBER_ERROR};
    if (*p == '0')
        ++p;
    else
        while (p < end && *p >= '0' && *p <= '9')
            ++p;
    const std::size_t integerDigits = std::size_t(p - digits);
    bool whole = true;
    if (p < end && *p == '.') {
        whole = false;
        const char *fraction = ++p;
        while (p < end && *p >= '0' && *p <= '9')
            ++p;
        if (p == fraction)
            throw Malformed{simdjson::NUMBER_ERROR};
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        whole = false;
        ++p;
        if (p < end && (*p == '+' || *p == '-'))
            ++p;
        const char *exponent = p;
        while (p < end && *p >= '0' && *p <= '9')
            ++p;
        if (p == exponent)
            throw Malformed{simdjson::NUMBER_ERROR};
    }
    if (p != end)
        throw Malformed{simdjson::NUMBER_ERROR};
    Number n;
    if (whole && integerDigits <= 18) { // the common case: no overflow possible
        std::int64_t value = 0;
        for (const char *d = digits; d < digits + integerDigits; ++d)
            value = value * 10 + (*d - '0');
        n.isInteger = true;
        n.integer = negative ? -value : value;
        return n;
    }
    if (whole) {
        std::int64_t value = 0;
        const auto r = std::from_chars(text.data(), end, value);
        if (r.ec == std::errc() && r.ptr == end) {
            n.isInteger = true;
            n.integer = value;
            return n;
        }
    }
    const auto r = std::from_chars(text.data(), end, n.real);
    if (r.ec != std::errc() || r.ptr != end)
        throw Malformed{simdjson::NUMBER_ERROR}; // out of a double's range
    // as Qt stores it: a whole double within 64 bits is an integer (qnumeric_p.h
    // convertDoubleTo), so it is shown and saved exactly; 2^63 is exact as a double
    if (n.real >= -9223372036854775808.0 && n.real < 9223372036854775808.0 &&
        double(qint64(n.real)) == n.real) {
        n.isInteger = true;
        n.integer = qint64(n.real);
    }
    return n;
}

void enter(int depth, const FileLimits &limits)
{
    if (depth > limits.maxDepth)
        throw Malformed{simdjson::DEPTH_ERROR};
}

QJsonValue toJson(od::value v, int depth, const FileLimits &limits, const PathStep *path)
{
    switch (get(v.type())) {
    case od::json_type::object: {
        enter(depth, limits);
        QJsonObject o;
        for (auto member : get(v.get_object())) {
            od::field f = get(std::move(member));
            const QString key = toQString(get(f.unescaped_key()));
            const PathStep step{path, &key, 0};
            if (o.contains(key))
                duplicate(pathText(&step));
            o.insert(key, toJson(f.value(), depth + 1, limits, &step));
        }
        return o;
    }
    case od::json_type::array: {
        enter(depth, limits);
        QJsonArray a;
        std::size_t i = 0;
        for (auto element : get(v.get_array())) {
            const PathStep step{path, nullptr, i++};
            a.append(toJson(get(std::move(element)), depth + 1, limits, &step));
        }
        return a;
    }
    case od::json_type::number:
        return readNumber(v).toJson();
    case od::json_type::string:
        return toQString(get(v.get_string()));
    case od::json_type::boolean:
        return get(v.get_bool());
    case od::json_type::null:
        if (!get(v.is_null()))
            throw Malformed{};
        return QJsonValue::Null;
    }
    throw Malformed{};
}

std::string_view readString(od::value &v)
{
    // the token runs from the opening quote to the next structural character: the string and
    // the whitespace after it (inside a string nothing is structural)
    const std::string_view token = withoutTrailingSpace(v.raw_json_token());
    if (token.size() >= 2 && token.back() == '"') {
        const std::string_view inner = token.substr(1, token.size() - 2);
        // a loop, not memchr: most strings here are a few bytes long
        bool escaped = false;
        for (const char c : inner)
            escaped |= c == '\\';
        if (!escaped) {
            // consumed as a string all the same: a value left unread is skipped more leniently,
            // and `"title": "a": "b" }` would pass for a title
            get(v.get_raw_json_string());
            return inner;
        }
    }
    return get(v.get_string());
}

void readToken(Token &t, od::value v, int depth, const FileLimits &limits, QJsonValue *slot)
{
    t.present = true;
    t.type = get(v.type());
    switch (t.type) {
    case od::json_type::number:
        t.number = readNumber(v);
        break;
    case od::json_type::string:
        t.text = readString(v);
        break;
    case od::json_type::boolean:
        t.boolean = get(v.get_bool());
        break;
    case od::json_type::null:
        if (!get(v.is_null()))
            throw Malformed{};
        break;
    default:
        if (slot) {
            *slot = toJson(v, depth, limits, nullptr);
            t.container = slot;
        } else {
            toJson(v, depth, limits, nullptr);
        }
        break;
    }
}

Token readToken(od::value v, int depth, const FileLimits &limits)
{
    Token t;
    readToken(t, v, depth, limits, nullptr);
    return t;
}

std::int64_t signedInteger(const Token &v, const QString &place)
{
    const QString what = QStringLiteral("must be an integer");
    if (!v.present)
        fail(place, QStringLiteral("missing (%1)").arg(what));
    if (v.type != od::json_type::number)
        fail(place, QStringLiteral("%1, not %2").arg(what, typeName(v.type)));
    const Number &n = v.number;
    const double d = n.toDouble();
    if (!n.isInteger && (!std::isfinite(d) || d != std::floor(d)))
        fail(place, QStringLiteral("%1, not %2").arg(what, n.describe()));
    const auto max = qint64(kMaxFileInteger);
    if (!n.isInteger || n.integer < -max || n.integer > max)
        fail(place, QStringLiteral("%1 within 2^53 (9007199254740992) either way, not %2")
                        .arg(what, n.describe()));
    return n.integer;
}

} // namespace Core::ScenarioFormat
