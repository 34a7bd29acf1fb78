#include "jsonreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <array>

namespace Core {

namespace {

// The character a one-letter escape stands for. Qt takes any other escaped byte as itself
// ('"', '\\', '/' and more), so this does too.
char32_t unescaped(unsigned char escaped)
{
    switch (escaped) {
    case 'b':
        return 0x8;
    case 'f':
        return 0xC;
    case 'n':
        return 0xA;
    case 'r':
        return 0xD;
    case 't':
        return 0x9;
    default:
        return escaped;
    }
}

// Qt's parser refuses documents nested deeper than this.
constexpr int kQtNestingLimit = 1024;

// What a byte means inside a string; the common case (Plain) is skipped in a tight loop.
enum : unsigned char { Plain, Quote, Backslash, Control, NonAscii };

constexpr std::array<unsigned char, 256> makeStringClasses()
{
    std::array<unsigned char, 256> t{};
    for (int i = 0; i < 0x20; ++i)
        t[std::size_t(i)] = Control;
    for (int i = 0x80; i < 0x100; ++i)
        t[std::size_t(i)] = NonAscii;
    t[std::size_t('"')] = Quote;
    t[std::size_t('\\')] = Backslash;
    return t;
}
constexpr std::array<unsigned char, 256> kStringClass = makeStringClasses();

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Qt stores a parsed double that is a whole number within 64 bits as an integer
// (qnumeric_p.h convertDoubleTo); QJsonValue::toInteger then returns it exactly.
bool wholeInt64(double d, qint64 *out)
{
    // 2^63 is exact as a double; the negated comparison also refuses NaN
    if (!(d >= -9223372036854775808.0) || d >= 9223372036854775808.0)
        return false;
    *out = qint64(d);
    return double(*out) == d;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

QString JsonSyntaxError::errorString() const
{
    QJsonParseError e;
    e.error = error;
    e.offset = int(offset);
    return e.errorString();
}

JsonReader::JsonReader(const QByteArray &json)
    : m_begin(json.constData()), m_end(json.constData() + json.size()), m_p(m_begin)
{
}

void JsonReader::enter()
{
    if (++m_nesting > kQtNestingLimit)
        fail(QJsonParseError::DeepNesting);
    if (m_nesting > m_depthLimit)
        note(Oddity::TooDeep, m_p - 1);
}

// Qt reads "n" and then needs 4 more bytes (3 for the rest of "null" and one after it); a
// mismatch is reported just past the offending character.
void JsonReader::literal(const char *rest, qsizetype length)
{
    if (m_end - m_p < length + 1)
        fail(QJsonParseError::IllegalValue);
    for (qsizetype i = 0; i < length; ++i)
        if (*m_p++ != rest[i])
            fail(QJsonParseError::IllegalValue);
}

// QUtf8Functions::fromUtf8 with Qt's checks: no overlong forms, no surrogates, nothing above
// U+10FFFF, no truncated sequences; noncharacters are allowed. On failure `p` is unchanged.
bool JsonReader::scanUtf8(const char *&p, char32_t *out) const
{
    const auto b = static_cast<unsigned char>(*p);
    if (b < 0x80) {
        *out = b;
        ++p;
        return true;
    }
    int needed;
    char32_t minimum;
    char32_t uc;
    if (b <= 0xC1)
        return false;
    if (b < 0xE0) {
        needed = 2;
        minimum = 0x80;
        uc = b & 0x1F;
    } else if (b < 0xF0) {
        needed = 3;
        minimum = 0x800;
        uc = b & 0x0F;
    } else if (b < 0xF5) {
        needed = 4;
        minimum = 0x10000;
        uc = b & 0x07;
    } else {
        return false;
    }
    if (m_end - (p + 1) < needed - 1)
        return false;
    for (int i = 1; i < needed; ++i) {
        const auto c = static_cast<unsigned char>(p[i]);
        if ((c & 0xC0) != 0x80)
            return false;
        uc = (uc << 6) | (c & 0x3F);
    }
    if (uc < minimum || (uc >= 0xD800 && uc <= 0xDFFF) || uc > 0x10FFFF)
        return false;
    p += needed;
    *out = uc;
    return true;
}

// Qt's parseString: a first scan for strings without escapes, and if it meets a backslash, a
// second scan from the start that understands them. Error offsets follow Qt's, including the
// one-past-the-end offset of a string that runs off the end of the document.
JsonString JsonReader::scanString()
{
    JsonString s;
    s.begin = m_p;
    for (;;) {
        while (m_p < m_end && kStringClass[static_cast<unsigned char>(*m_p)] == Plain)
            ++m_p;
        if (m_p >= m_end)
            break;
        const unsigned char kind = kStringClass[static_cast<unsigned char>(*m_p)];
        if (kind == Quote)
            break;
        if (kind == Backslash) {
            s.escaped = true;
            break;
        }
        if (kind == Control) {
            note(*m_p ? Oddity::ControlCharacter : Oddity::NulByte, m_p);
            ++m_p;
            continue;
        }
        char32_t ch;
        if (!scanUtf8(m_p, &ch))
            fail(QJsonParseError::IllegalUTF8String);
    }
    if (m_p >= m_end)
        fail(QJsonParseError::UnterminatedString, (m_end - m_begin) + 1);
    ++m_p;
    if (m_p >= m_end)
        fail(QJsonParseError::UnterminatedString);
    if (s.escaped)
        scanEscaped(s.begin, nullptr);
    s.end = m_p - 1;
    return s;
}

void JsonReader::scanEscaped(const char *start, QString *out)
{
    m_p = start;
    while (m_p < m_end) {
        const char c = *m_p;
        if (c == '"')
            break;
        char32_t ch = 0;
        if (c == '\\') {
            ++m_p;
            if (m_p >= m_end)
                fail(QJsonParseError::IllegalEscapeSequence);
            const auto escaped = static_cast<unsigned char>(*m_p++);
            switch (escaped) {
            case 'u':
                if (m_end - m_p < 4)
                    fail(QJsonParseError::IllegalEscapeSequence);
                for (int i = 0; i < 4; ++i) {
                    const int h = hexValue(*m_p);
                    if (h < 0)
                        fail(QJsonParseError::IllegalEscapeSequence);
                    ch = (ch << 4) | char32_t(h);
                    ++m_p;
                }
                break;
            default:
                ch = unescaped(escaped);
                break;
            }
        } else {
            if (static_cast<unsigned char>(c) < 0x20)
                note(c ? Oddity::ControlCharacter : Oddity::NulByte, m_p);
            if (!scanUtf8(m_p, &ch))
                fail(QJsonParseError::IllegalUTF8String);
        }
        if (out)
            out->append(QChar::fromUcs4(ch)); // a lone \uD800 stays a lone surrogate, as in Qt
    }
    if (m_p >= m_end)
        fail(QJsonParseError::UnterminatedString, (m_end - m_begin) + 1);
    ++m_p;
    if (m_p >= m_end)
        fail(QJsonParseError::UnterminatedString);
}

// Qt's parseNumber, with a fast path for the plain integers a scenario file is made of.
JsonNumber JsonReader::scanNumber()
{
    const char *start = m_p;
    bool isInt = true;
    bool plain = true;
    if (m_p < m_end && *m_p == '-')
        ++m_p;
    const char *digits = m_p;
    if (m_p < m_end && *m_p == '0') {
        ++m_p;
    } else {
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    }
    const char *digitsEnd = m_p;
    if (m_p < m_end && *m_p == '.') {
        plain = false;
        ++m_p;
        while (m_p < m_end && isDigit(*m_p)) {
            isInt = isInt && *m_p == '0';
            ++m_p;
        }
    }
    if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
        plain = false;
        isInt = false;
        ++m_p;
        if (m_p < m_end && (*m_p == '-' || *m_p == '+'))
            ++m_p;
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    }
    if (m_p >= m_end)
        fail(QJsonParseError::TerminationByNumber);

    JsonNumber n;
    const qsizetype count = digitsEnd - digits;
    if (plain && count >= 1 && count <= 18) { // 18 digits always fit in 63 bits
        qint64 v = 0;
        for (const char *d = digits; d < digitsEnd; ++d)
            v = v * 10 + (*d - '0');
        n.isInteger = true;
        n.integer = digits == start ? v : -v;
        return n;
    }
    const QByteArray text = QByteArray::fromRawData(start, m_p - start);
    if (isInt) {
        bool ok = false;
        const qlonglong v = text.toLongLong(&ok);
        if (ok) {
            n.isInteger = true;
            n.integer = v;
            return n;
        }
    }
    bool ok = false;
    const double d = text.toDouble(&ok);
    if (!ok)
        fail(QJsonParseError::IllegalNumber);
    qint64 whole;
    if (wholeInt64(d, &whole)) {
        n.isInteger = true;
        n.integer = whole;
    } else {
        n.real = d;
    }
    return n;
}

QJsonValue::Type JsonReader::validate(std::vector<Member> *members)
{
    m_p = m_begin;
    m_nesting = 0;
    m_oddity = Oddity::None;
    m_oddityOffset = -1;
    m_arraySizes.clear();
    m_validating = true;
    // a UTF-8 byte order mark, skipped only when something follows it (as Qt does)
    if (m_end - m_p > 3 && static_cast<unsigned char>(m_p[0]) == 0xEF &&
        static_cast<unsigned char>(m_p[1]) == 0xBB && static_cast<unsigned char>(m_p[2]) == 0xBF)
        m_p += 3;
    if (!eatSpace())
        fail(QJsonParseError::IllegalValue);
    QJsonValue::Type type;
    if (*m_p == '{') {
        type = QJsonValue::Object;
        forEachMember([&](const JsonString &key) {
            if (members)
                members->push_back({decode(key), position(), key.bom()});
            skipValue();
        });
    } else if (*m_p == '[') {
        type = QJsonValue::Array;
        skipValue();
    } else {
        ++m_p;
        fail(QJsonParseError::IllegalValue);
    }
    eatSpace();
    if (m_p < m_end)
        fail(QJsonParseError::GarbageAtEnd);
    m_validating = false;
    // arrays end in a different order than they start
    std::sort(m_arraySizes.begin(), m_arraySizes.end());
    return type;
}

QJsonValue::Type JsonReader::peekType() const
{
    switch (*m_p) {
    case '{':
        return QJsonValue::Object;
    case '[':
        return QJsonValue::Array;
    case '"':
        return QJsonValue::String;
    case 'n':
        return QJsonValue::Null;
    case 't':
    case 'f':
        return QJsonValue::Bool;
    default:
        return QJsonValue::Double;
    }
}

// Qt's parseValue for one value; containers are validated and skipped.
JsonToken JsonReader::readToken()
{
    JsonToken t;
    t.offset = position();
    switch (*m_p) {
    case '{':
        t.type = QJsonValue::Object;
        skipValue();
        break;
    case '[':
        t.type = QJsonValue::Array;
        skipValue();
        break;
    case '"':
        ++m_p;
        t.type = QJsonValue::String;
        t.string = scanString();
        break;
    case 'n':
        ++m_p;
        literal("ull", 3);
        t.type = QJsonValue::Null;
        break;
    case 't':
        ++m_p;
        literal("rue", 3);
        t.type = QJsonValue::Bool;
        t.boolean = true;
        break;
    case 'f':
        ++m_p;
        literal("alse", 4);
        t.type = QJsonValue::Bool;
        break;
    case ',':
        // a missing value after a colon (after a comma it is "object is missing")
        ++m_p;
        fail(QJsonParseError::IllegalValue);
    case '}':
    case ']':
        ++m_p;
        fail(QJsonParseError::MissingObject);
    default:
        t.type = QJsonValue::Double;
        t.number = scanNumber();
        break;
    }
    return t;
}

void JsonReader::skipValue()
{
    if (*m_p == '{') {
        forEachMember([this](const JsonString &) { skipValue(); });
    } else if (*m_p == '[') {
        const qsizetype start = position();
        qsizetype count = 0;
        forEachElement([&] {
            ++count;
            skipValue();
        });
        if (m_validating && count >= 16)
            m_arraySizes.emplace_back(start, count);
    } else {
        readToken();
    }
}

qsizetype JsonReader::elementCount(qsizetype offset) const
{
    const auto it = std::lower_bound(m_arraySizes.begin(), m_arraySizes.end(),
                                     std::make_pair(offset, qsizetype(0)));
    return it != m_arraySizes.end() && it->first == offset ? it->second : -1;
}

QJsonValue JsonReader::readValue()
{
    if (*m_p == '{') {
        const qsizetype start = position();
        QJsonObject o;
        bool marked = false;
        forEachMember([&](const JsonString &key) {
            marked = marked || key.bom();
            const QString k = decode(key);
            o.insert(k, readValue()); // a repeated key keeps its last value, as in Qt
        });
        if (marked) {
            // Qt keeps "\xEF\xBB\xBFa" and "a" as two keys that both read "a" (the byte order
            // mark is dropped when the key is read); only its own parser builds such an object
            const QByteArray text = QByteArray::fromRawData(m_begin + start, position() - start);
            return QJsonDocument::fromJson(text).object();
        }
        return o;
    }
    if (*m_p == '[') {
        QJsonArray a;
        forEachElement([&] { a.append(readValue()); });
        return a;
    }
    const JsonToken t = readToken();
    switch (t.type) {
    case QJsonValue::String:
        return decode(t.string);
    case QJsonValue::Double:
        return t.number.toJsonValue();
    case QJsonValue::Bool:
        return t.boolean;
    default:
        return QJsonValue(QJsonValue::Null);
    }
}

QJsonValue JsonReader::valueAt(qsizetype offset)
{
    const char *saved = m_p;
    const int nesting = m_nesting;
    seek(offset);
    QJsonValue v = readValue();
    m_p = saved;
    m_nesting = nesting;
    return v;
}

QString JsonReader::decode(const JsonString &s) const
{
    if (!s.escaped)
        return QString::fromUtf8(s.begin, s.end - s.begin);
    // the string was validated by scanString: no checks needed here
    QString out;
    out.reserve(s.end - s.begin);
    for (const char *p = s.begin; p < s.end;) {
        char32_t ch = 0;
        if (*p == '\\') {
            ++p;
            const auto escaped = static_cast<unsigned char>(*p++);
            switch (escaped) {
            case 'u':
                for (int i = 0; i < 4; ++i)
                    ch = (ch << 4) | char32_t(hexValue(*p++));
                break;
            default:
                ch = unescaped(escaped);
                break;
            }
        } else if (!scanUtf8(p, &ch)) {
            ++p; // unreachable for a validated string; never loop forever
            ch = 0xFFFD;
        }
        out.append(QChar::fromUcs4(ch));
    }
    return out;
}

} // namespace Core
