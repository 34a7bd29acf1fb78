#pragma once

// A pull reader over the UTF-8 bytes of a JSON document. It accepts and refuses exactly what
// QJsonDocument::fromJson (Qt 6.4) does, with the same error codes and offsets, so messages
// built from it read the same; but it builds nothing unless asked. Loading a million actions
// through a QJsonDocument DOM costs seconds in allocations; reading them field by field from
// the bytes does not.
//
// Use: validate() once over the whole document (syntax errors must win over any problem in the
// content, wherever they are), then seek() to the offsets it reported and read values with
// readToken(), forEachMember(), forEachElement() and readValue().

#include <QByteArray>
#include <QJsonParseError>
#include <QJsonValue>
#include <QString>

#include <cstring>
#include <utility>
#include <vector>

namespace Core {

// Thrown by JsonReader on malformed JSON: Qt's error code and Qt's offset.
struct JsonSyntaxError
{
    QJsonParseError::ParseError error;
    qsizetype offset;

    QString errorString() const;
};

// A number as QJsonValue holds it after parsing: an exact 64-bit integer when the text was one
// (or a double that is a whole number in range), a double otherwise.
struct JsonNumber
{
    bool isInteger = false;
    qint64 integer = 0;
    double real = 0;

    double toDouble() const { return isInteger ? double(integer) : real; }
    qint64 toInteger(qint64 defaultValue) const { return isInteger ? integer : defaultValue; }
    QJsonValue toJsonValue() const { return isInteger ? QJsonValue(integer) : QJsonValue(real); }
};

// A string as it sits in the file (between the quotes); JsonReader::decode makes a QString.
struct JsonString
{
    const char *begin = nullptr;
    const char *end = nullptr;
    bool escaped = false; // contains backslash escapes: the raw bytes are not the text

    // Starts with a UTF-8 byte order mark, which QString::fromUtf8 (and so Qt's JSON, for
    // keys and values alike) drops from the text.
    bool bom() const
    {
        return !escaped && end - begin >= 3 && static_cast<unsigned char>(begin[0]) == 0xEF &&
               static_cast<unsigned char>(begin[1]) == 0xBB &&
               static_cast<unsigned char>(begin[2]) == 0xBF;
    }

    // Exact only for unescaped strings; callers decode the escaped ones.
    bool rawEquals(const char *text, std::size_t length) const
    {
        return std::size_t(end - begin) == length && std::memcmp(begin, text, length) == 0;
    }
};

// One value, read without building anything: containers are skipped and only their offset kept.
struct JsonToken
{
    QJsonValue::Type type = QJsonValue::Undefined; // Undefined: the key was not there
    qsizetype offset = -1;                         // where the value starts, to read it again
    bool boolean = false;
    JsonNumber number;
    JsonString string;

    bool present() const { return type != QJsonValue::Undefined; }
};

class JsonReader
{
public:
    // `json` must outlive the reader; nothing is copied.
    explicit JsonReader(const QByteArray &json);

    // Problems Qt's parser accepts but a scenario file must not contain (see ScenarioFile):
    // noted during validate() in document order, the first one kept.
    enum class Oddity { None, NulByte, ControlCharacter, TooDeep };
    void setDepthLimit(int limit) { m_depthLimit = limit; }
    Oddity oddity() const { return m_oddity; }
    qsizetype oddityOffset() const { return m_oddityOffset; }

    struct Member
    {
        QString key;
        qsizetype offset; // of the value
        bool bom;         // the key starts with a raw byte order mark (see JsonString::bom)
    };
    // Checks the whole document as QJsonDocument::fromJson would; throws JsonSyntaxError.
    // Returns the type of the top-level value (Object or Array); for an object, `members`
    // receives its keys in file order (duplicates included) with the offsets of their values.
    QJsonValue::Type validate(std::vector<Member> *members);

    // Reading a validated document.
    void seek(qsizetype offset) { m_p = m_begin + offset; }
    qsizetype position() const { return m_p - m_begin; }
    // To go back to the start of a value after reading part of it (a caller gave up on it).
    struct Bookmark
    {
        qsizetype offset;
        int nesting;
    };
    Bookmark bookmark() const { return {position(), m_nesting}; }
    void rewind(const Bookmark &b)
    {
        seek(b.offset);
        m_nesting = b.nesting;
    }
    QJsonValue::Type peekType() const;
    JsonToken readToken();
    QJsonValue readValue();
    // The value at `offset`, leaving the read position where it was.
    QJsonValue valueAt(qsizetype offset);
    void skipValue();
    // The number of elements of the array at `offset` as validate() counted them, or -1 when
    // it did not keep it (small arrays): lets a reader reserve room once.
    qsizetype elementCount(qsizetype offset) const;
    QString decode(const JsonString &s) const;

    // At '{': calls f(const JsonString &key) with the position at the member's value, which f
    // must consume (read or skip).
    template <typename F>
    void forEachMember(F &&f);
    // At '[': calls f() with the position at each element, which f must consume.
    template <typename F>
    void forEachElement(F &&f);

private:
    [[noreturn]] void fail(QJsonParseError::ParseError error) const { fail(error, position()); }
    [[noreturn]] static void fail(QJsonParseError::ParseError error, qsizetype offset)
    {
        throw JsonSyntaxError{error, offset};
    }
    void note(Oddity what, const char *where)
    {
        if (m_oddity == Oddity::None) {
            m_oddity = what;
            m_oddityOffset = where - m_begin;
        }
    }

    bool eatSpace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
        return m_p < m_end;
    }
    // Qt's nextToken: consumes one character; 0 for anything that is not a structural one.
    char nextToken()
    {
        if (!eatSpace())
            return 0;
        const char token = *m_p++;
        switch (token) {
        case '[':
        case '{':
        case ':':
        case ',':
        case ']':
        case '}':
        case '"':
            return token;
        default:
            return 0;
        }
    }
    void enter(); // just past '[' or '{'
    void literal(const char *rest, qsizetype length);
    JsonString scanString(); // just past the opening quote
    void scanEscaped(const char *start, QString *out);
    bool scanUtf8(const char *&p, char32_t *out) const;
    JsonNumber scanNumber();

    const char *m_begin;
    const char *m_end;
    const char *m_p;
    int m_nesting = 0;
    int m_depthLimit = 1 << 30;
    bool m_validating = false;
    std::vector<std::pair<qsizetype, qsizetype>> m_arraySizes; // (offset, count), sorted
    Oddity m_oddity = Oddity::None;
    qsizetype m_oddityOffset = -1;
};

// Mirrors Qt's Parser::parseObject, so that errors and their offsets are Qt's.
template <typename F>
void JsonReader::forEachMember(F &&f)
{
    ++m_p;
    enter();
    char token = nextToken();
    while (token == '"') {
        const JsonString key = scanString();
        if (nextToken() != ':')
            fail(QJsonParseError::MissingNameSeparator);
        if (!eatSpace())
            fail(QJsonParseError::UnterminatedObject);
        f(key);
        token = nextToken();
        if (token != ',')
            break;
        token = nextToken();
        if (token == '}')
            fail(QJsonParseError::MissingObject);
    }
    if (token != '}')
        fail(QJsonParseError::UnterminatedObject);
    --m_nesting;
}

// Mirrors Qt's Parser::parseArray.
template <typename F>
void JsonReader::forEachElement(F &&f)
{
    ++m_p;
    enter();
    if (!eatSpace())
        fail(QJsonParseError::UnterminatedArray);
    if (*m_p == ']') {
        ++m_p;
    } else {
        for (;;) {
            if (!eatSpace())
                fail(QJsonParseError::UnterminatedArray);
            f();
            const char token = nextToken();
            if (token == ']')
                break;
            if (token != ',') {
                if (!eatSpace())
                    fail(QJsonParseError::UnterminatedArray);
                fail(QJsonParseError::MissingValueSeparator);
            }
        }
    }
    --m_nesting;
}

} // namespace Core
