// The scenario loader: one pass of simdjson's On-Demand parser over the file builds the Scenario
// and checks it; only a file that fails is looked at a second time (jsonsyntax.cpp) to word a
// syntax error with its line and column. Over 600 lines because the loader and the writer share
// the one list of known keys and are kept side by side.

#include "scenariofile.h"

#include "jsonout.h"
#include "jsonsyntax.h"
#include "lockoptionsfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QSaveFile>
#include <QStringDecoder>

#include <simdjson.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace Core {
namespace {

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

[[noreturn]] void fail(const QString &place, const QString &problem)
{
    throw Problem{place + QLatin1String(": ") + problem};
}

template <typename T> T get(simdjson::simdjson_result<T> &&r)
{
    T v{};
    if (const simdjson::error_code e = std::move(r).get(v))
        throw Malformed{e};
    return v;
}

// A large buffer about to be filled from front to back: every first touch of a 4 KiB page is a
// fault, and on a virtual machine faults cost more than parsing what is written there. Asks for
// transparent huge pages for its 2 MiB aligned middle (one fault per 2 MiB). Only a hint.
void adviseHugePages(const void *data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t from = (begin + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t to = (begin + bytes) & ~(kHuge - 1);
    if (to > from)
        madvise(reinterpret_cast<void *>(from), to - from, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

// ---- the keys this version knows: one list, for reading, for telling them from kept keys and
// for writing

enum class Key : std::uint8_t
{
    // the root
    Fencescope,
    Title,
    Description,
    Horizon,
    Fencing,
    Lock,
    Storages,
    Clients,
    // lock, storages[i], clients[i]
    Tokens,
    Name,
    Rule,
    Actions,
    // clients[i].actions[j]
    At,
    Do,
    Ttl,
    For,
    Value,
    Storage,
    Delay,
    // clients[i].actions[j], SCENARIO.md sections 11 and 12 (right after Delay: one range)
    Keepalive,
    Check, // also storages[i]
    Gap,
    Group,
    // clients[i], its clock and the clock's steps
    Clock,
    Bypass,
    Rate,
    Steps,
    By,
    // storages[i]
    MaxToken,
    Restarts,
    Unknown
};
constexpr std::size_t kKeys = std::size_t(Key::Unknown);
constexpr std::array<std::string_view, kKeys> kKeyNames = {
    "fencescope", "title",     "description", "horizon", "fencing",  "lock",
    "storages",   "clients",   "tokens",      "name",    "rule",     "actions",
    "at",         "do",        "ttl",         "for",     "value",    "storage",
    "delay",      "keepalive", "check",       "gap",     "group",    "clock",
    "bypass",     "rate",      "steps",       "by",      "maxToken", "restarts"};

// Which keys an object of each kind knows.
using KeySet = std::uint32_t;
static_assert(kKeys <= 32, "one bit per key");
constexpr KeySet keys(std::initializer_list<Key> list)
{
    KeySet set = 0;
    for (Key k : list)
        set |= KeySet(1) << std::size_t(k);
    return set;
}
constexpr KeySet kRootKeys = keys({Key::Fencescope, Key::Title, Key::Description, Key::Horizon,
                                   Key::Fencing, Key::Lock, Key::Storages, Key::Clients});
constexpr KeySet kLockKeys = keys({Key::Tokens});
constexpr KeySet kStorageKeys =
    keys({Key::Name, Key::Rule, Key::Check, Key::MaxToken, Key::Restarts});
constexpr KeySet kClientKeys = keys({Key::Name, Key::Actions, Key::Clock, Key::Bypass});
constexpr KeySet kClockKeys = keys({Key::Rate, Key::Steps});
constexpr KeySet kStepKeys = keys({Key::At, Key::By});
constexpr KeySet kActionKeys = keys({Key::At, Key::Do, Key::Ttl, Key::For, Key::Value, Key::Storage,
                                     Key::Delay, Key::Keepalive, Key::Check, Key::Gap, Key::Group});

// A key as the writer spells it: the reader's list is the writer's (each name is a literal, so
// its bytes end in a NUL).
const char *keyText(Key k)
{
    return kKeyNames[std::size_t(k)].data();
}

QString keyName(Key k)
{
    return QString::fromLatin1(kKeyNames[std::size_t(k)].data(),
                               qsizetype(kKeyNames[std::size_t(k)].size()));
}

// A known key and its closing quote as the two 8-byte words a raw key is compared with.
struct PackedKey
{
    std::uint64_t word[2] = {};
    std::uint64_t mask[2] = {};
};
constexpr std::uint64_t byteAt(std::size_t i, unsigned char c)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return std::uint64_t(c) << (8 * (7 - i));
#else
    return std::uint64_t(c) << (8 * i);
#endif
}
constexpr std::array<PackedKey, kKeys> packKeys()
{
    std::array<PackedKey, kKeys> packed{};
    for (std::size_t k = 0; k < kKeys; ++k) {
        const std::string_view name = kKeyNames[k];
        for (std::size_t i = 0; i <= name.size(); ++i) {
            const unsigned char c = i < name.size() ? name[i] : '"';
            packed[k].word[i / 8] |= byteAt(i % 8, c);
            packed[k].mask[i / 8] |= byteAt(i % 8, 0xff);
        }
    }
    return packed;
}
// (a name of 16 bytes or more would not compile: word[2] is out of range in a constant)
constexpr std::array<PackedKey, kKeys> kPackedKeys = packKeys();

// Whether the raw key at `raw` (just past its opening quote) is `k`'s name and its closing
// quote. The raw key is followed by its value, the end of the object and the padding, so
// reading 16 bytes from its start stays inside the buffer.
inline bool rawIs(const char *raw, Key k)
{
    const PackedKey &p = kPackedKeys[std::size_t(k)];
    std::uint64_t have = 0;
    std::memcpy(&have, raw, 8);
    if ((have & p.mask[0]) != p.word[0])
        return false;
    if (p.mask[1] == 0)
        return true;
    std::memcpy(&have, raw + 8, 8);
    return (have & p.mask[1]) == p.word[1];
}

// The known key spelled by the raw bytes, without escapes; Unknown otherwise. A switch on the
// first byte: a million actions have five keys each, and trying every known key was the
// loader's largest cost.
Key rawKey(const char *raw)
{
    switch (raw[0]) {
    case 'a':
        return rawIs(raw, Key::At)        ? Key::At
               : rawIs(raw, Key::Actions) ? Key::Actions
                                          : Key::Unknown;
    case 'b':
        return rawIs(raw, Key::Bypass) ? Key::Bypass : rawIs(raw, Key::By) ? Key::By : Key::Unknown;
    case 'c':
        return rawIs(raw, Key::Clients) ? Key::Clients
               : rawIs(raw, Key::Check) ? Key::Check
               : rawIs(raw, Key::Clock) ? Key::Clock
                                        : Key::Unknown;
    case 'd':
        return rawIs(raw, Key::Do)            ? Key::Do
               : rawIs(raw, Key::Delay)       ? Key::Delay
               : rawIs(raw, Key::Description) ? Key::Description
                                              : Key::Unknown;
    case 'f':
        return rawIs(raw, Key::For)          ? Key::For
               : rawIs(raw, Key::Fencing)    ? Key::Fencing
               : rawIs(raw, Key::Fencescope) ? Key::Fencescope
                                             : Key::Unknown;
    case 'g':
        return rawIs(raw, Key::Gap) ? Key::Gap : rawIs(raw, Key::Group) ? Key::Group : Key::Unknown;
    case 'h':
        return rawIs(raw, Key::Horizon) ? Key::Horizon : Key::Unknown;
    case 'k':
        return rawIs(raw, Key::Keepalive) ? Key::Keepalive : Key::Unknown;
    case 'l':
        return rawIs(raw, Key::Lock) ? Key::Lock : Key::Unknown;
    case 'm':
        return rawIs(raw, Key::MaxToken) ? Key::MaxToken : Key::Unknown;
    case 'n':
        return rawIs(raw, Key::Name) ? Key::Name : Key::Unknown;
    case 'r':
        return rawIs(raw, Key::Rule)       ? Key::Rule
               : rawIs(raw, Key::Rate)     ? Key::Rate
               : rawIs(raw, Key::Restarts) ? Key::Restarts
                                           : Key::Unknown;
    case 's':
        return rawIs(raw, Key::Storage)    ? Key::Storage
               : rawIs(raw, Key::Storages) ? Key::Storages
               : rawIs(raw, Key::Steps)    ? Key::Steps
                                           : Key::Unknown;
    case 't':
        return rawIs(raw, Key::Ttl)      ? Key::Ttl
               : rawIs(raw, Key::Title)  ? Key::Title
               : rawIs(raw, Key::Tokens) ? Key::Tokens
                                         : Key::Unknown;
    case 'v':
        return rawIs(raw, Key::Value) ? Key::Value : Key::Unknown;
    default:
        return Key::Unknown;
    }
}

// The field's key among `set`, matched on the raw bytes first (no copy), then unescaped for
// keys written with escapes; `unescaped` receives the key of an unknown one.
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

// ---- places, composed only when a problem is reported

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

// The path of a value inside a kept (unknown) value, for a duplicate key deep inside it.
struct PathStep
{
    const PathStep *parent;
    const QString *key; // or
    std::size_t index;
};
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

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
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

// Depth of a value: the root object is level 1.
void enter(int depth, const FileLimits &limits)
{
    if (depth > limits.maxDepth)
        throw Malformed{simdjson::DEPTH_ERROR};
}

// Any value, for a key this version does not know (kept and written back on save).
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

// The string at v, read in place when it has no escapes (most have none): the bytes between its
// quotes, which stage 1 checked for UTF-8 and control characters. Escaped strings are unescaped
// (and their escapes checked) by simdjson. Valid while the parser and the input live.
std::string_view readString(od::value &v)
{
    // the token runs from the opening quote to the next structural character: the string and
    // the whitespace after it (inside a string nothing is structural)
    std::string_view token = v.raw_json_token();
    while (token.size() > 1 && isSpace(token.back()))
        token.remove_suffix(1);
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

// The number spelled by `text` (JSON's grammar, already checked) times 1000, when that is a
// whole number below a million; exact, on the decimal digits: 1.500 and 15e-1 are 1500,
// 0.0005 is none.
std::optional<std::uint32_t> thousandths(std::string_view text)
{
    if (text.empty() || text.front() == '-')
        return std::nullopt;
    std::string digits;  // value = digits * 10^scale
    long long scale = 3; // times 1000
    std::size_t p = 0;
    for (; p < text.size() && text[p] >= '0' && text[p] <= '9'; ++p)
        digits += text[p];
    if (p < text.size() && text[p] == '.')
        for (++p; p < text.size() && text[p] >= '0' && text[p] <= '9'; ++p, --scale)
            digits += text[p];
    if (p < text.size() && (text[p] == 'e' || text[p] == 'E')) {
        ++p;
        const bool down = p < text.size() && text[p] == '-';
        p += p < text.size() && (text[p] == '-' || text[p] == '+');
        long long exponent = 0;
        for (; p < text.size() && text[p] >= '0' && text[p] <= '9'; ++p)
            exponent = std::min(exponent * 10 + (text[p] - '0'), 1'000'000'000LL);
        scale += down ? -exponent : exponent;
    }
    const std::size_t lead = digits.find_first_not_of('0');
    if (lead == std::string::npos)
        return 0u;
    digits.erase(0, lead);
    while (digits.back() == '0') {
        digits.pop_back();
        ++scale;
    }
    if (scale < 0 || std::size_t(scale) + digits.size() > 6)
        return std::nullopt; // a fraction of a thousandth, or a million or more
    std::uint32_t milli = 0;
    for (const char d : digits)
        milli = milli * 10 + std::uint32_t(d - '0');
    for (long long i = 0; i < scale; ++i)
        milli *= 10;
    return milli;
}

// Whether `text` is a whole JSON number token: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool isJsonNumber(std::string_view text)
{
    std::size_t p = 0;
    const auto digits = [&] {
        const std::size_t from = p;
        while (p < text.size() && text[p] >= '0' && text[p] <= '9')
            ++p;
        return p > from;
    };
    if (p < text.size() && text[p] == '-')
        ++p;
    if (p < text.size() && text[p] == '0')
        ++p;
    else if (p >= text.size() || text[p] < '1' || text[p] > '9' || !digits())
        return false;
    if (p < text.size() && text[p] == '.' && (++p, !digits()))
        return false;
    if (p < text.size() && (text[p] == 'e' || text[p] == 'E')) {
        ++p;
        if (p < text.size() && (text[p] == '+' || text[p] == '-'))
            ++p;
        if (!digits())
            return false;
    }
    return p == text.size();
}

const char kRateRule[] = "must be a number from 0.001 to 100 with at most three decimals";

// Strings that repeat (write values, mostly "x" or "ok") share one QString.
class StringCache
{
public:
    QString get(std::string_view s)
    {
        if (s.size() > kShort)
            return toQString(s);
        for (Entry &e : m_entries)
            if (e.bytes == s)
                return e.text;
        Entry &slot = m_entries[m_next++ % m_entries.size()];
        slot.bytes.assign(s);
        slot.text = toQString(s);
        return slot.text;
    }

private:
    static constexpr std::size_t kShort = 32;
    struct Entry
    {
        std::string bytes{"\xff"}; // matches no valid UTF-8
        QString text;
    };
    std::array<Entry, 8> m_entries;
    std::size_t m_next = 0;
};

// What a check keeps of the actions instead of the actions: each is read into one scratch
// action, with every check the loader makes, and then only counted and summed up.
struct ActionTally
{
    Action scratch;
    std::size_t actions = 0;
    QString waitProblem; // the first of LockOptionsFile::take()'s problems with an action
    KeepaliveBound keepalives;

    void add(std::size_t client, std::size_t index, Action &a)
    {
        if (waitProblem.isEmpty())
            waitProblem = LockOptionsFile::takeWait(a, client, index);
        keepalives.add(client, index, a);
    }
};

// Reads the scenario from the document, in file order: the format version is checked before
// anything else is read, and the storages before the clients that name them; where a file puts
// them later, the parser goes back for what it skipped. With a tally, the clients' actions are
// read and checked one by one into its scratch action and left out of the scenario.
class Loader
{
public:
    Loader(const FileLimits &limits, ActionTally *tally) : m_limits(limits), m_tally(tally) {}

    // The actions read so far, over all clients (kept or tallied).
    std::size_t actionCount() const { return m_actions; }

    Scenario read(od::document &doc)
    {
        Scenario s;
        std::vector<bool> done;
        bool versionOk = false;
        bool storagesDone = false;
        bool clientsSeen = false;
        std::array<int, kKeys> seen{};
        for (int pass = 0;; ++pass) {
            if (pass > 0)
                doc.rewind();
            od::object root = get(doc.get_object());
            std::size_t index = 0;
            bool left = false;
            for (auto member : root) {
                od::field field = get(std::move(member));
                const std::size_t i = index++;
                if (pass == 0)
                    done.push_back(false);
                if (done[i])
                    continue;
                std::string_view unknown;
                const Key k = keyOf(field, kRootKeys, &unknown);
                if (pass == 0 && k != Key::Unknown && ++seen[std::size_t(k)] > 1)
                    duplicate(keyName(k));
                const bool ready = k == Key::Fencescope ||
                                   (versionOk && (k != Key::Clients || storagesDone ||
                                                  (pass > 0 && !seen[std::size_t(Key::Storages)])));
                if (!ready) {
                    left = true;
                    continue;
                }
                done[i] = true;
                od::value v = field.value();
                switch (k) {
                case Key::Fencescope:
                    checkVersion(readToken(v, 2, m_limits));
                    versionOk = true;
                    break;
                case Key::Title:
                    s.title = optionalString(v, Key::Title);
                    break;
                case Key::Description:
                    s.description = optionalString(v, Key::Description);
                    break;
                case Key::Horizon:
                    s.horizon = integer(
                        readToken(v, 2, m_limits), [] { return QStringLiteral("horizon"); }, true);
                    break;
                case Key::Fencing: {
                    const Token t = readToken(v, 2, m_limits);
                    if (t.type != od::json_type::boolean)
                        fail(QStringLiteral("fencing"),
                             QStringLiteral("must be true or false, not %1").arg(typeName(t.type)));
                    s.fencing = t.boolean;
                    break;
                }
                case Key::Lock:
                    readLock(v, s);
                    break;
                case Key::Storages:
                    readStorages(v, s);
                    storagesDone = true;
                    break;
                case Key::Clients:
                    readClients(v, s);
                    clientsSeen = true;
                    break;
                default:
                    keep(s.extra, toQString(unknown), v, 2, QString());
                    break;
                }
            }
            const char *trailing = nullptr;
            if (pass == 0 && doc.current_location().get(trailing) != simdjson::OUT_OF_BOUNDS)
                throw Malformed{}; // something after the document
            if (!versionOk)
                fail(QStringLiteral("fencescope"),
                     QStringLiteral("missing: this is not a FenceScope scenario file (expected "
                                    "\"fencescope\": 1)"));
            if (!left)
                break;
            if (pass > 3)
                throw Malformed{}; // not reachable: each pass reads what the last one left
        }
        if (!clientsSeen)
            fail(QStringLiteral("clients"),
                 QStringLiteral("missing: a scenario needs at least one client"));
        return s;
    }

private:
    void checkVersion(const Token &version)
    {
        if (version.type != od::json_type::number || version.number.toDouble() != 1.0)
            fail(QStringLiteral("fencescope"),
                 QStringLiteral("unsupported format version %1 (this FenceScope reads version 1)")
                     .arg(version.describe()));
    }

    QString optionalString(od::value v, Key key)
    {
        const Token t = readToken(v, 2, m_limits);
        if (t.type != od::json_type::string)
            fail(keyName(key), QStringLiteral("must be a string, not %1").arg(typeName(t.type)));
        return toQString(t.text);
    }

    // An unknown key, kept with its value.
    void keep(QJsonObject &extra, const QString &key, od::value v, int depth, const QString &place)
    {
        const PathStep top{nullptr, &place, 0};
        const PathStep step{place.isEmpty() ? nullptr : &top, &key, 0};
        if (extra.contains(key))
            duplicate(pathText(&step));
        extra.insert(key, toJson(v, depth, m_limits, &step));
    }

    // The object's members: f(Key, value) for known keys (each at most once), kept otherwise.
    template <typename Place, typename F>
    void members(od::value v, KeySet set, int depth, QJsonObject &extra, Place place, F f)
    {
        enter(depth, m_limits);
        std::uint32_t seen = 0;
        for (auto member : get(v.get_object())) {
            od::field field = get(std::move(member));
            std::string_view unknown;
            const Key k = keyOf(field, set, &unknown);
            if (k == Key::Unknown) {
                keep(extra, toQString(unknown), field.value(), depth + 1, place());
                continue;
            }
            const std::uint32_t bit = 1u << std::size_t(k);
            if (seen & bit)
                duplicate(join(place(), k));
            seen |= bit;
            f(k, field.value());
        }
    }

    // Calls read(i, element) for each element while the count is within `limit`; past it,
    // elements are only counted. Returns the count.
    template <typename Read>
    std::size_t elements(od::value v, int depth, std::size_t limit, Read read)
    {
        enter(depth, m_limits);
        std::size_t count = 0;
        for (auto element : get(v.get_array())) {
            od::value e = get(std::move(element));
            const std::size_t i = count++;
            if (count <= limit)
                read(i, e);
        }
        return count;
    }

    void readLock(od::value v, Scenario &s)
    {
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(QStringLiteral("lock"),
                 QStringLiteral("must be an object, not %1").arg(typeName(type)));
        Token tokens;
        members(
            v, kLockKeys, 2, s.lockExtra, [] { return QStringLiteral("lock"); },
            [&](Key, od::value value) { tokens = readToken(value, 3, m_limits); });
        if (tokens.present) {
            if (tokens.type != od::json_type::string)
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("must be a string, not %1").arg(typeName(tokens.type)));
            if (!tokenSourceFromString(toQString(tokens.text), &s.tokens)) {
                QStringList known;
                for (int i = 0; i < kTokenSourceCount; ++i)
                    known << toString(TokenSource(i));
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("unknown token source \"%1\" (known: %2)")
                         .arg(toQString(tokens.text), known.join(QStringLiteral(", "))));
            }
        } else {
            s.tokens = TokenSource::Counter;
        }
        // the source's options stay in lockExtra for now: LockOptionsFile::take() reads them
        // once the whole file is in, knowing the source
    }

    void readStorages(od::value v, Scenario &s)
    {
        const QString place = QStringLiteral("storages");
        const od::json_type type = get(v.type());
        if (type != od::json_type::array)
            fail(place, QStringLiteral("must be an array, not %1").arg(typeName(type)));
        s.storages.clear();
        m_storageUtf8.clear();
        const std::size_t count = elements(
            v, 2, m_limits.maxStorages, [&](std::size_t i, od::value &e) { readStorage(i, e, s); });
        if (count == 0)
            fail(place, QStringLiteral("must list at least one storage (or be left out for the "
                                       "default \"db\")"));
        if (count > m_limits.maxStorages)
            fail(place, QStringLiteral("too many storages (%1; the limit is %2)")
                            .arg(count)
                            .arg(m_limits.maxStorages));
    }

    void readStorage(std::size_t i, od::value &v, Scenario &s)
    {
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(storagePlace(i), QStringLiteral("must be an object, not %1").arg(typeName(type)));
        Token nameToken;
        Token rule;
        Token check;
        Token maxToken;
        StorageSpec spec;
        members(
            v, kStorageKeys, 3, spec.extra, [i] { return storagePlace(i); },
            [&](Key k, od::value value) {
                switch (k) {
                case Key::Name:
                    nameToken = readToken(value, 4, m_limits);
                    break;
                case Key::Rule:
                    rule = readToken(value, 4, m_limits);
                    break;
                case Key::Check:
                    check = readToken(value, 4, m_limits);
                    break;
                case Key::MaxToken:
                    maxToken = readToken(value, 4, m_limits);
                    break;
                default: // Restarts
                    spec.restarts = ticks(value, 4, join(storagePlace(i), Key::Restarts));
                    break;
                }
            });
        spec.name = name(nameToken, storagePlace(i), false);
        if (s.storageIndex(spec.name) >= 0)
            fail(join(storagePlace(i), Key::Name),
                 QStringLiteral("duplicate storage name \"%1\"").arg(spec.name));
        if (rule.present) {
            const std::string_view r = rule.type == od::json_type::string ? rule.text : "";
            if (r == "lt")
                spec.rule = FenceRule::Lt;
            else if (r == "le")
                spec.rule = FenceRule::Le;
            else
                fail(join(storagePlace(i), Key::Rule),
                     QStringLiteral("must be \"lt\" or \"le\", not %1").arg(rule.describe()));
        }
        if (check.present) {
            const std::string_view c = check.type == od::json_type::string ? check.text : "";
            if (c == "token")
                spec.check = StorageCheck::Token;
            else if (c == "version")
                spec.check = StorageCheck::Version;
            else
                fail(join(storagePlace(i), Key::Check),
                     QStringLiteral("must be \"token\" or \"version\", not %1")
                         .arg(check.describe()));
        }
        if (maxToken.present) {
            const std::string_view m = maxToken.type == od::json_type::string ? maxToken.text : "";
            if (m == "durable")
                spec.durable = true;
            else if (m == "volatile")
                spec.durable = false;
            else
                fail(join(storagePlace(i), Key::MaxToken),
                     QStringLiteral("must be \"durable\" or \"volatile\", not %1")
                         .arg(maxToken.describe()));
        }
        m_storageUtf8.emplace_back(nameToken.text);
        s.storages.push_back(std::move(spec));
    }

    QString name(const Token &v, const QString &place, bool client) const
    {
        if (!v.present)
            fail(join(place, Key::Name),
                 QStringLiteral("missing (every %1 needs a name)")
                     .arg(client ? QStringLiteral("client") : QStringLiteral("storage")));
        if (v.type != od::json_type::string)
            fail(join(place, Key::Name),
                 QStringLiteral("must be a string, not %1").arg(typeName(v.type)));
        QString n = toQString(v.text);
        if (n.trimmed().isEmpty())
            fail(join(place, Key::Name), QStringLiteral("must not be empty"));
        return n;
    }

    void readClients(od::value v, Scenario &s)
    {
        const QString place = QStringLiteral("clients");
        const od::json_type type = get(v.type());
        if (type != od::json_type::array)
            fail(place, QStringLiteral("must be an array, not %1").arg(typeName(type)));
        if (m_storageUtf8.empty()) // the default storage
            for (const StorageSpec &st : s.storages)
                m_storageUtf8.push_back(st.name.toStdString());
        m_storageNames = &s.storages;
        QHash<QString, std::size_t> seen;
        const std::size_t count =
            elements(v, 2, m_limits.maxClients,
                     [&](std::size_t i, od::value &e) { readClient(i, e, s, seen); });
        if (count == 0)
            fail(place, QStringLiteral("must list at least one client"));
        if (count > m_limits.maxClients)
            fail(place, QStringLiteral("too many clients (%1; the limit is %2)")
                            .arg(count)
                            .arg(m_limits.maxClients));
    }

    void readClient(std::size_t i, od::value &v, Scenario &s, QHash<QString, std::size_t> &seen)
    {
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(clientPlace(i), QStringLiteral("must be an object, not %1").arg(typeName(type)));
        Token nameToken;
        Client c;
        std::optional<Problem> held; // a wrong "actions" waits for the name's problems
        members(
            v, kClientKeys, 3, c.extra, [i] { return clientPlace(i); },
            [&](Key k, od::value value) {
                if (k == Key::Name) {
                    nameToken = readToken(value, 4, m_limits);
                    return;
                }
                if (k == Key::Clock) {
                    readClock(value, join(clientPlace(i), Key::Clock), c.clock);
                    return;
                }
                if (k == Key::Bypass) {
                    const Token t = readToken(value, 4, m_limits);
                    if (t.type != od::json_type::boolean)
                        fail(join(clientPlace(i), Key::Bypass),
                             QStringLiteral("must be true or false, not %1").arg(t.describe()));
                    c.bypass = t.boolean;
                    return;
                }
                const od::json_type t = get(value.type());
                if (t == od::json_type::array)
                    readActions(i, value, c.actions);
                else
                    held = Problem{join(clientPlace(i), Key::Actions) +
                                   QStringLiteral(": must be an array, not %1").arg(typeName(t))};
            });
        c.name = name(nameToken, clientPlace(i), true);
        const auto previous = seen.constFind(c.name);
        if (previous != seen.constEnd())
            fail(join(clientPlace(i), Key::Name),
                 QStringLiteral("duplicate client name \"%1\" (also clients[%2])")
                     .arg(c.name)
                     .arg(previous.value()));
        seen.insert(c.name, i);
        if (held)
            throw *held;
        s.clients.push_back(std::move(c));
    }

    // Fails naming the first key of `unknown`, which members() kept: an object of the format's
    // own (a clock, a clock step) has no room for keys of later versions.
    static void noUnknownKeys(const QJsonObject &unknown, const QString &place, const char *known)
    {
        if (!unknown.isEmpty())
            fail(place + QLatin1Char('.') + unknown.begin().key(),
                 QStringLiteral("unknown key (known: %1)").arg(QLatin1String(known)));
    }

    // A list of ticks, sorted (at one tick, one event is as good as many; the simulator reads
    // them in order).
    std::vector<Tick> ticks(od::value v, int depth, const QString &place)
    {
        if (get(v.type()) != od::json_type::array)
            fail(place, QStringLiteral("must be an array, not %1")
                            .arg(readToken(v, depth, m_limits).describe()));
        std::vector<Tick> out;
        const std::size_t limit = LockOptionsFile::kMaxScheduledTicks;
        const std::size_t count = elements(v, depth, limit, [&](std::size_t j, od::value &e) {
            out.push_back(integer(
                readToken(e, depth + 1, m_limits),
                [&] { return QStringLiteral("%1[%2]").arg(place).arg(j); }, false));
        });
        if (count > limit)
            fail(place,
                 QStringLiteral("too many entries (%1; the limit is %2)").arg(count).arg(limit));
        std::sort(out.begin(), out.end());
        return out;
    }

    // clients[i].clock: {"rate": r, "steps": [{"at": t, "by": d}, ...]}, both optional.
    void readClock(od::value v, const QString &place, ClientClock &clock)
    {
        if (get(v.type()) != od::json_type::object)
            fail(place, QStringLiteral("must be an object (rate, steps), not %1")
                            .arg(readToken(v, 4, m_limits).describe()));
        QJsonObject unknown;
        members(
            v, kClockKeys, 4, unknown, [&place] { return place; },
            [&](Key k, od::value value) {
                if (k == Key::Rate)
                    clock.rateMilli = rate(value, join(place, Key::Rate));
                else
                    clock.steps = clockSteps(value, join(place, Key::Steps));
            });
        noUnknownKeys(unknown, place, "rate, steps");
    }

    // A clock rate in thousandths, judged by the decimal text as written (a double would take
    // 0.1000000000000000001 for 0.1).
    std::uint32_t rate(od::value v, const QString &place)
    {
        if (get(v.type()) != od::json_type::number)
            fail(place, QStringLiteral("%1, not %2")
                            .arg(QLatin1String(kRateRule), readToken(v, 5, m_limits).describe()));
        readNumber(v); // the grammar: a syntax error is worded as one
        std::string_view text = v.raw_json_token();
        while (!text.empty() && isSpace(text.back()))
            text.remove_suffix(1);
        QString problem;
        const std::optional<std::uint32_t> milli = parseRateText(toQString(text), &problem);
        if (!milli)
            fail(place, problem);
        return *milli;
    }

    std::vector<ClockStep> clockSteps(od::value v, const QString &place)
    {
        if (get(v.type()) != od::json_type::array)
            fail(place, QStringLiteral("must be an array, not %1")
                            .arg(readToken(v, 5, m_limits).describe()));
        std::vector<ClockStep> out;
        const std::size_t limit = LockOptionsFile::kMaxClockSteps;
        const std::size_t count = elements(v, 5, limit, [&](std::size_t j, od::value &e) {
            const QString at = QStringLiteral("%1[%2]").arg(place).arg(j);
            if (get(e.type()) != od::json_type::object)
                fail(at, QStringLiteral("must be an object (at, by), not %1")
                             .arg(readToken(e, 6, m_limits).describe()));
            Token when;
            Token by;
            QJsonObject unknown;
            members(
                e, kStepKeys, 6, unknown, [&at] { return at; },
                [&](Key k, od::value value) {
                    (k == Key::At ? when : by) = readToken(value, 7, m_limits);
                });
            noUnknownKeys(unknown, at, "at, by");
            ClockStep step;
            step.at = required(
                when, [&] { return join(at, Key::At); }, false);
            step.by = signedInteger(by, join(at, Key::By));
            out.push_back(step);
        });
        if (count > limit)
            fail(place,
                 QStringLiteral("too many entries (%1; the limit is %2)").arg(count).arg(limit));
        // in order of `at`, as the simulator reads them; steps at one tick keep the file's order
        std::stable_sort(out.begin(), out.end(),
                         [](const ClockStep &a, const ClockStep &b) { return a.at < b.at; });
        return out;
    }

    void readActions(std::size_t client, od::value &v, std::vector<Action> &list)
    {
        const std::size_t room =
            m_actions < m_limits.maxActions ? m_limits.maxActions - m_actions : 0;
        enter(4, m_limits);
        od::array array = get(v.get_array());
        std::size_t count = 0;
        if (m_tally) {
            for (auto element : array) {
                od::value e = get(std::move(element));
                const std::size_t j = count++;
                if (count <= room) {
                    Action &a = m_tally->scratch;
                    a = Action();
                    readAction(client, j, e, a);
                    m_tally->add(client, j, a);
                }
            }
        } else {
            // Counted first, so the list is allocated once at its size and advised to huge
            // pages before anything is written there: growing it moved every action a second
            // time, into pages touched one 4 KiB fault at a time (on a virtual machine, more
            // than the reading).
            list.reserve(std::min(get(array.count_elements()), room));
            adviseHugePages(list.data(), list.capacity() * sizeof(Action));
            for (auto element : array) {
                od::value e = get(std::move(element));
                const std::size_t j = count++;
                // built where it stays: a failed action fails the whole file anyway
                if (count <= room)
                    readAction(client, j, e, list.emplace_back());
            }
        }
        m_actions += count;
        if (m_actions > m_limits.maxActions)
            fail(join(clientPlace(client), Key::Actions),
                 QStringLiteral("too many actions (more than %1 in the file)")
                     .arg(m_limits.maxActions));
    }

    void readAction(std::size_t client, std::size_t index, od::value &v, Action &a)
    {
        const auto place = [client, index] { return actionPlace(client, index); };
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(place(), QStringLiteral("must be an object, not %1").arg(typeName(type)));
        constexpr auto first = std::size_t(Key::At);
        // the fields are kept from one action to the next: each is overwritten when read
        auto &f = m_fields;
        for (Token &t : f)
            t.present = false;
        std::uint32_t read = 0; // the keys present, one bit each from "at" on
        members(v, kActionKeys, 5, a.extra, place, [&](Key k, od::value value) {
            const std::size_t i = std::size_t(k) - first;
            readToken(f[i], value, 6, m_limits, &m_containers[i]);
            read |= 1u << i;
        });
        const auto field = [&](Key k) -> const Token & { return f[std::size_t(k) - first]; };
        const auto at = [&](Key k) { return [&place, k] { return join(place(), k); }; };

        if (!field(Key::At).present)
            fail(join(place(), Key::At),
                 QStringLiteral("missing (every action needs the tick it happens at)"));
        a.at = integer(field(Key::At), at(Key::At), false);
        const Token &what = field(Key::Do);
        if (!what.present)
            fail(join(place(), Key::Do),
                 QStringLiteral("missing (one of acquire, release, pause, write, read)"));
        if (what.type != od::json_type::string)
            fail(join(place(), Key::Do),
                 QStringLiteral("must be a string, not %1").arg(typeName(what.type)));
        std::uint32_t known = 0; // of the keys after "do", those this kind of action has
        const auto bit = [](Key k) { return 1u << (std::size_t(k) - first); };
        if (what.text == "acquire") {
            a.kind = ActionKind::Acquire;
            a.amount = required(field(Key::Ttl), at(Key::Ttl), true);
            known = bit(Key::Ttl);
        } else if (what.text == "release") {
            a.kind = ActionKind::Release;
        } else if (what.text == "pause") {
            a.kind = ActionKind::Pause;
            a.amount = required(field(Key::For), at(Key::For), true);
            known = bit(Key::For);
        } else if (what.text == "write") {
            a.kind = ActionKind::Write;
            readWrite(field(Key::Value), place, a);
            readTarget(field(Key::Storage), field(Key::Delay), place, a);
            known = bit(Key::Value) | bit(Key::Storage) | bit(Key::Delay);
        } else if (what.text == "read") {
            a.kind = ActionKind::Read;
            if (field(Key::Value).present)
                fail(join(place(), Key::Value),
                     QStringLiteral("not on a read (a read learns a storage's version; it "
                                    "writes no value)"));
            readTarget(field(Key::Storage), field(Key::Delay), place, a);
            known = bit(Key::Storage) | bit(Key::Delay);
        } else {
            fail(join(place(), Key::Do),
                 QStringLiteral("unknown action \"%1\" (known: acquire, release, pause, write, "
                                "read)")
                     .arg(toQString(what.text)));
        }
        // sections 11 and 12: each key belongs to one kind of action and is refused elsewhere
        constexpr std::uint32_t kPitfallKeys =
            1u << (std::size_t(Key::Keepalive) - first) | 1u << (std::size_t(Key::Check) - first) |
            1u << (std::size_t(Key::Gap) - first) | 1u << (std::size_t(Key::Group) - first);
        if (read & kPitfallKeys)
            readPitfallKeys(field(Key::Keepalive), field(Key::Check), field(Key::Gap),
                            field(Key::Group), place, a);
        // v1 keys of other kinds of action are unknown keys here, kept like any other
        if (read & ~known & ~(bit(Key::At) | bit(Key::Do)) & ~kPitfallKeys)
            for (auto k = std::size_t(Key::Ttl); k <= std::size_t(Key::Delay); ++k)
                if (!(known & bit(Key(k))) && field(Key(k)).present)
                    a.extra.insert(keyName(Key(k)), field(Key(k)).toJson());
    }

    // An acquire's keepalive; a write's check, gap and group.
    template <typename Place>
    void readPitfallKeys(const Token &keepalive, const Token &check, const Token &gap,
                         const Token &group, Place place, Action &a)
    {
        const auto only = [&](Key k, ActionKind kind, const char *why) {
            const QString here = toString(a.kind);
            const bool vowel = a.kind == ActionKind::Acquire;
            fail(join(place(), k),
                 QStringLiteral("only on %1 (%2), not on %3 %4")
                     .arg(kind == ActionKind::Acquire ? QStringLiteral("an acquire")
                                                      : QStringLiteral("a write"),
                          QLatin1String(why), vowel ? QStringLiteral("an") : QStringLiteral("a"),
                          here));
        };
        if (keepalive.present) {
            if (a.kind != ActionKind::Acquire)
                only(Key::Keepalive, ActionKind::Acquire, "it renews the lease that acquire gets");
            a.keepalive = integer(
                keepalive, [&] { return join(place(), Key::Keepalive); }, true);
        }
        if (check.present) {
            if (a.kind != ActionKind::Write)
                only(Key::Check, ActionKind::Write, "the client checks its lease before writing");
            if (check.type != od::json_type::boolean)
                fail(join(place(), Key::Check),
                     QStringLiteral("must be true or false, not %1").arg(check.describe()));
            a.check = check.boolean;
        }
        if (gap.present) {
            if (a.kind != ActionKind::Write)
                only(Key::Gap, ActionKind::Write, "the ticks between a write's check and its send");
            if (!a.check)
                fail(join(place(), Key::Gap), QStringLiteral("only with \"check\": true"));
            a.gap = integer(
                gap, [&] { return join(place(), Key::Gap); }, false);
        }
        if (group.present) {
            if (a.kind != ActionKind::Write)
                only(Key::Group, ActionKind::Write, "one update across storages");
            if (group.type != od::json_type::string || group.text.empty())
                fail(join(place(), Key::Group),
                     QStringLiteral("must be a non-empty string, not %1").arg(group.describe()));
            a.group = m_values.get(group.text);
        }
    }

    template <typename Place> void readWrite(const Token &value, Place place, Action &a)
    {
        if (!value.present)
            fail(join(place(), Key::Value),
                 QStringLiteral("missing (a write needs the value it writes)"));
        if (value.type != od::json_type::string)
            fail(join(place(), Key::Value),
                 QStringLiteral("must be a string, not %1").arg(typeName(value.type)));
        a.value = m_values.get(value.text);
    }

    // A write's or a read's storage (the first one when left out) and network delay.
    template <typename Place>
    void readTarget(const Token &storage, const Token &delay, Place place, Action &a)
    {
        if (storage.present) {
            if (storage.type != od::json_type::string)
                fail(join(place(), Key::Storage),
                     QStringLiteral("must be a storage name, not %1").arg(typeName(storage.type)));
            std::size_t found = 0;
            while (found < m_storageUtf8.size() && m_storageUtf8[found] != storage.text)
                ++found;
            if (found == m_storageUtf8.size())
                fail(join(place(), Key::Storage),
                     QStringLiteral("unknown storage \"%1\" (known: %2)")
                         .arg(toQString(storage.text), storageNames()));
            a.storage = std::uint32_t(found);
        }
        if (delay.present)
            a.amount = integer(
                delay, [&] { return join(place(), Key::Delay); }, false);
    }

    // In file order, so the message is the same on every run.
    QString storageNames() const
    {
        QStringList names;
        for (const StorageSpec &st : *m_storageNames)
            names << st.name;
        return names.join(QLatin1String(", "));
    }

    const FileLimits &m_limits;
    ActionTally *m_tally;
    std::vector<std::string> m_storageUtf8; // the storages' names as the file spells them
    const std::vector<StorageSpec> *m_storageNames = nullptr;
    std::size_t m_actions = 0;
    StringCache m_values;
    std::array<Token, std::size_t(Key::Group) - std::size_t(Key::At) + 1> m_fields;
    std::array<QJsonValue, std::size_t(Key::Group) - std::size_t(Key::At) + 1> m_containers;
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

// A client's clock, when it is not the lock service's: ", clock: {...}".
void writeClock(JsonOut &out, const ClientClock &clock)
{
    if (clock.isDefault())
        return;
    out.raw(", ").key(keyText(Key::Clock)).raw("{ ");
    const char *comma = "";
    if (clock.rateMilli != 1000) {
        out.key(keyText(Key::Rate)).raw(rateText(clock.rateMilli).toLatin1().constData());
        comma = ", ";
    }
    if (!clock.steps.empty()) {
        out.raw(comma).key(keyText(Key::Steps)).raw("[");
        for (std::size_t i = 0; i < clock.steps.size(); ++i) {
            const ClockStep &st = clock.steps[i];
            out.raw(i ? ", " : "")
                .raw("{ ")
                .key(keyText(Key::At))
                .number(st.at)
                .raw(", ")
                .key(keyText(Key::By));
            if (st.by < 0)
                out.raw("-").number(std::uint64_t(0) - std::uint64_t(st.by));
            else
                out.number(std::uint64_t(st.by));
            out.raw(" }");
        }
        out.raw("]");
    }
    out.raw(" }");
}

QString tooLarge(qint64 size, const FileLimits &limits)
{
    return QStringLiteral("file: too large (%1; the limit is %2)")
        .arg(mib(size), mib(limits.maxFileBytes));
}

// `data` is followed by at least SIMDJSON_PADDING readable bytes. With a tally, the scenario
// returned has clients without actions (for check(), which only counts it).
LoadResult parsePadded(const char *data, std::size_t size, const FileLimits &limits,
                       ActionTally *tally)
{
    LoadResult result;
    if (qint64(size) > limits.maxFileBytes) {
        result.error = tooLarge(qint64(size), limits);
        return result;
    }
    const std::string_view head(data, std::min<std::size_t>(size, 3));
    if (head.substr(0, 2) == "\xff\xfe" || head.substr(0, 2) == "\xfe\xff") {
        result.error = QStringLiteral("file: encoded as UTF-16; scenario files are UTF-8 (save it "
                                      "as UTF-8)");
        return result;
    }
    // a UTF-8 byte order mark is allowed before the document
    const std::size_t skip = head == "\xef\xbb\xbf" ? 3 : 0;
    std::optional<Problem> problem;
    std::optional<simdjson::error_code> malformed;
    try {
        od::parser parser;
        od::document doc =
            get(parser.iterate(data + skip, size - skip, size - skip + simdjson::SIMDJSON_PADDING));
        const od::json_type type = get(doc.type());
        if (type != od::json_type::object)
            throw Problem{QStringLiteral("file: must be a JSON object with \"fencescope\": 1 at "
                                         "the top, not %1")
                              .arg(type == od::json_type::array ? QStringLiteral("an array")
                                                                : QStringLiteral("a bare value"))};
        Loader loader(limits, tally);
        result.scenario = loader.read(doc);
        // token sources, restores, lock-delay and blocking acquires (lockoptionsfile.h): the
        // lock's problems come first, then the actions' in file order, as take() reports them
        if (tally) {
            tally->actions = loader.actionCount();
            result.error = LockOptionsFile::takeLock(*result.scenario);
            if (result.error.isEmpty())
                result.error = tally->waitProblem;
        } else {
            result.error = LockOptionsFile::take(*result.scenario);
        }
        // keepalives are events of their own: a keepalive every tick up to a horizon near 2^53
        // would run for ever, so their number is bounded like the actions'
        std::pair<std::size_t, std::size_t> at;
        const auto keepalives = [&] {
            return tally ? tally->keepalives.total(*result.scenario, limits.maxActions, &at)
                         : result.scenario->keepaliveBound(limits.maxActions, &at);
        };
        if (result.error.isEmpty() && keepalives() > limits.maxActions)
            result.error = QStringLiteral("clients[%1].actions[%2].keepalive: too many "
                                          "keepalives: with every keepalive this short, a run "
                                          "this long could renew more than %3 times (use a "
                                          "longer keepalive or a shorter horizon)")
                               .arg(at.first)
                               .arg(at.second)
                               .arg(limits.maxActions);
        if (!result.error.isEmpty())
            result.scenario.reset(); // never half a scenario
        return result;
    } catch (Problem &p) {
        problem = std::move(p);
    } catch (const Malformed &m) {
        malformed = m.code;
    } catch (const std::bad_alloc &) {
        result.error = QStringLiteral("file: not enough memory to load it");
        return result;
    }
    // A syntax error anywhere wins over a problem with the content: it says more about the file.
    const QByteArray bytes = QByteArray::fromRawData(data, qsizetype(size));
    result.error = JsonSyntax::problem(bytes, limits.maxDepth);
    if (result.error.isEmpty() && problem)
        result.error = problem->text;
    if (result.error.isEmpty()) // not reachable: the second look finds what simdjson refused
        result.error = QStringLiteral("file: not valid JSON (%1)")
                           .arg(QString::fromLatin1(simdjson::error_message(*malformed)));
    return result;
}

// A regular file parsed where the page cache holds it: read() into a fresh buffer copied every
// byte in the kernel and faulted in every page of the buffer, together a third of a large
// check. The mapping is followed by a zero page of its own, so the padding simdjson reads past
// the end is there whatever the file's size. Empty when the file cannot be mapped (not a
// regular file, no handle); the caller reads it instead.
std::optional<LoadResult> loadMapped(int fd, const FileLimits &limits, ActionTally *tally)
{
#if defined(__unix__) || defined(__APPLE__)
    struct stat info = {};
    if (fd < 0 || fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size <= 0)
        return std::nullopt;
    if (qint64(info.st_size) > limits.maxFileBytes)
        return LoadResult{std::nullopt, tooLarge(qint64(info.st_size), limits)};
    const auto size = std::size_t(info.st_size);
    const auto page = std::size_t(sysconf(_SC_PAGESIZE));
    const std::size_t pages = (size + page - 1) / page * page;
    static_assert(simdjson::SIMDJSON_PADDING <= 4096, "one zero page holds the padding");
    const std::size_t span = pages + page;
    void *reserved = mmap(nullptr, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (reserved == MAP_FAILED)
        return std::nullopt;
    int flags = MAP_PRIVATE | MAP_FIXED;
#ifdef MAP_POPULATE
    flags |= MAP_POPULATE; // one call maps every page, instead of a fault for every few
#endif
    if (mmap(reserved, size, PROT_READ, flags, fd, 0) == MAP_FAILED) {
        munmap(reserved, span);
        return std::nullopt;
    }
    LoadResult result;
    try {
        result = parsePadded(static_cast<const char *>(reserved), size, limits, tally);
    } catch (...) { // parsePadded throws nothing of its own; unmapped all the same
        munmap(reserved, span);
        throw;
    }
    munmap(reserved, span);
    return result;
#else
    (void)fd;
    (void)limits;
    (void)tally;
    return std::nullopt;
#endif
}

LoadResult parseBytes(const QByteArray &json, const FileLimits &limits, ActionTally *tally)
{
    if (json.size() > limits.maxFileBytes)
        return {std::nullopt, tooLarge(json.size(), limits)};
    // simdjson reads up to SIMDJSON_PADDING bytes past the end (never writes them, never minds
    // what they hold): a buffer with that much room left is parsed where it is, without a copy
    if (json.capacity() - json.size() >= qsizetype(simdjson::SIMDJSON_PADDING))
        return parsePadded(json.constData(), std::size_t(json.size()), limits, tally);
    try {
        const simdjson::padded_string padded(json.constData(), std::size_t(json.size()));
        return parsePadded(padded.data(), padded.size(), limits, tally);
    } catch (const std::bad_alloc &) {
        return {std::nullopt, QStringLiteral("file: not enough memory to load it")};
    }
}

LoadResult loadFile(const QString &path, const FileLimits &limits, ActionTally *tally)
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
        result.error = tooLarge(file.size(), limits);
        return result;
    }
    const auto unreadable = [&] {
        return LoadResult{
            std::nullopt,
            QStringLiteral("file: cannot read %1 (%2)").arg(path, file.errorString())};
    };
    if (std::optional<LoadResult> mapped = loadMapped(file.handle(), limits, tally))
        return std::move(*mapped);
    try {
        // read straight into a padded buffer (a file that cannot be mapped, or a resource)
        const auto size = std::size_t(file.size());
        simdjson::padded_string padded(size);
        if (!padded.data())
            throw std::bad_alloc();
        adviseHugePages(padded.data(), size);
        const qint64 got = size ? file.read(padded.data(), qint64(size)) : 0;
        if (got < 0)
            return unreadable();
        char probe = 0;
        const qint64 more = file.read(&probe, 1);
        if (more < 0)
            return unreadable();
        if (std::size_t(got) == size && more == 0)
            return parsePadded(padded.data(), size, limits, tally);
        // the file is not as large as it said (it grew, or a device without a size)
        QByteArray bytes(padded.data(), qsizetype(got));
        bytes.append(probe, qsizetype(more));
        bytes += file.read(limits.maxFileBytes + 1 - bytes.size());
        if (file.error() != QFileDevice::NoError)
            return unreadable();
        return parseBytes(bytes, limits, tally);
    } catch (const std::bad_alloc &) {
        return {std::nullopt, QStringLiteral("file: not enough memory to load it")};
    }
}

// A check's result from the outline parsePadded() returned with the tally.
CheckResult checked(const LoadResult &outline, const ActionTally &tally)
{
    CheckResult r;
    r.error = outline.error;
    if (!outline.ok())
        return r;
    r.title = outline.scenario->title;
    r.clients = outline.scenario->clients.size();
    r.storages = outline.scenario->storages.size();
    r.actions = tally.actions;
    return r;
}

} // namespace

std::optional<std::uint32_t> parseRateText(QStringView text, QString *error)
{
    std::string ascii;
    ascii.reserve(std::size_t(text.size()));
    for (const QChar c : text)
        ascii += c.unicode() < 0x80 ? char(c.unicode()) : '?'; // no number has a '?'
    std::optional<std::uint32_t> milli;
    if (isJsonNumber(ascii))
        milli = thousandths(ascii);
    if (milli && *milli != 0 && *milli <= 100'000)
        return milli;
    if (error)
        *error = QStringLiteral("%1, not %2").arg(QLatin1String(kRateRule), text);
    return std::nullopt;
}

QString rateText(std::uint32_t milli)
{
    QString text = QString::number(milli / 1000);
    if (const std::uint32_t frac = milli % 1000) {
        QString digits = QString::number(1000 + frac).mid(1); // the three decimals
        while (digits.endsWith(QLatin1Char('0')))
            digits.chop(1);
        text += QLatin1Char('.') + digits;
    }
    return text;
}

namespace ScenarioFile {

LoadResult parse(const QByteArray &json, const FileLimits &limits)
{
    return parseBytes(json, limits, nullptr);
}

LoadResult load(const QString &path, const FileLimits &limits)
{
    return loadFile(path, limits, nullptr);
}

CheckResult checkBytes(const QByteArray &json, const FileLimits &limits)
{
    ActionTally tally;
    return checked(parseBytes(json, limits, &tally), tally);
}

CheckResult checkFile(const QString &path, const FileLimits &limits)
{
    ActionTally tally;
    return checked(loadFile(path, limits, &tally), tally);
}

QByteArray serialize(const Scenario &s)
{
    JsonOut out;
    out.raw("{\n  ").key(keyText(Key::Fencescope)).number(1);
    out.raw(",\n  ").key(keyText(Key::Title)).string(s.title);
    if (!s.description.isEmpty())
        out.raw(",\n  ").key(keyText(Key::Description)).string(s.description);
    if (s.horizon)
        out.raw(",\n  ").key(keyText(Key::Horizon)).number(*s.horizon);
    out.raw(",\n  ").key(keyText(Key::Fencing)).boolean(s.fencing);
    out.raw(",\n  ")
        .key(keyText(Key::Lock))
        .raw("{ ")
        .key(keyText(Key::Tokens))
        .string(toString(s.tokens));
    LockOptionsFile::writeLock(out, s);
    writeExtra(out, s.lockExtra);
    out.raw(" }");
    out.raw(",\n  ").key(keyText(Key::Storages)).raw("[");
    for (std::size_t i = 0; i < s.storages.size(); ++i) {
        const StorageSpec &st = s.storages[i];
        out.raw(i ? ",\n    " : "\n    ").raw("{ ").key(keyText(Key::Name)).string(st.name);
        out.raw(", ").key(keyText(Key::Rule)).string(toString(st.rule));
        if (st.check == StorageCheck::Version)
            out.raw(", ").key(keyText(Key::Check)).string(QStringLiteral("version"));
        if (!st.durable)
            out.raw(", ").key(keyText(Key::MaxToken)).string(QStringLiteral("volatile"));
        if (!st.restarts.empty()) {
            out.raw(", ").key(keyText(Key::Restarts)).raw("[");
            for (std::size_t r = 0; r < st.restarts.size(); ++r)
                out.raw(r ? ", " : "").number(st.restarts[r]);
            out.raw("]");
        }
        writeExtra(out, st.extra);
        out.raw(" }");
    }
    out.raw(" ]");
    out.raw(",\n  ").key(keyText(Key::Clients)).raw("[");
    for (std::size_t c = 0; c < s.clients.size(); ++c) {
        const Client &client = s.clients[c];
        out.raw(c ? ",\n    " : "\n    ").raw("{ ").key(keyText(Key::Name)).string(client.name);
        writeClock(out, client.clock);
        if (client.bypass)
            out.raw(", ").key(keyText(Key::Bypass)).boolean(true);
        writeExtra(out, client.extra);
        out.raw(", ").key(keyText(Key::Actions)).raw("[");
        for (std::size_t i = 0; i < client.actions.size(); ++i) {
            const Action &a = client.actions[i];
            out.raw(i ? ",\n      " : "\n      ").raw("{ ").key(keyText(Key::At)).number(a.at);
            out.raw(", ").key(keyText(Key::Do)).string(toString(a.kind));
            switch (a.kind) {
            case ActionKind::Acquire:
                out.raw(", ").key(keyText(Key::Ttl)).number(a.amount);
                if (a.keepalive)
                    out.raw(", ").key(keyText(Key::Keepalive)).number(a.keepalive);
                LockOptionsFile::writeAcquire(out, a);
                break;
            case ActionKind::Pause:
                out.raw(", ").key(keyText(Key::For)).number(a.amount);
                break;
            case ActionKind::Write:
                out.raw(", ").key(keyText(Key::Value)).string(a.value);
                if (a.storage != 0 && a.storage < s.storages.size())
                    out.raw(", ").key(keyText(Key::Storage)).string(s.storages[a.storage].name);
                if (a.amount != 0)
                    out.raw(", ").key(keyText(Key::Delay)).number(a.amount);
                if (a.check)
                    out.raw(", ").key(keyText(Key::Check)).boolean(true);
                if (a.check && a.gap)
                    out.raw(", ").key(keyText(Key::Gap)).number(a.gap);
                if (!a.group.isEmpty())
                    out.raw(", ").key(keyText(Key::Group)).string(a.group);
                break;
            case ActionKind::Read:
                if (a.storage != 0 && a.storage < s.storages.size())
                    out.raw(", ").key(keyText(Key::Storage)).string(s.storages[a.storage].name);
                if (a.amount != 0)
                    out.raw(", ").key(keyText(Key::Delay)).number(a.amount);
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
    // every file compiled in (core/CMakeLists.txt globs resources/scenarios), the default first
    QStringList names;
    for (const QString &file :
         QDir(QStringLiteral(":/scenarios"))
             .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const QString name = file.chopped(5);
        if (name == QLatin1String("default"))
            names.prepend(name);
        else
            names.append(name);
    }
    return names;
}

Scenario defaultScenario()
{
    LoadResult r = load(builtinPath(QStringLiteral("default")));
    if (r.ok())
        return std::move(*r.scenario);
    // Only reachable if the resource failed to link in (tests cover that it does not).
    Scenario s;
    s.title = r.error;
    s.clients.emplace_back().name = QStringLiteral("A");
    return s;
}

} // namespace ScenarioFile
} // namespace Core
