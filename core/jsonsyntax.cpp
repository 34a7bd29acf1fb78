#include "jsonsyntax.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <cstring>

namespace Core::JsonSyntax {
namespace {

struct Oddity
{
    qsizetype offset = -1;
    QString problem;
};

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

int hexValue(char c)
{
    if (isDigit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// The UTF-16 unit of the \u escape at p (p points at the backslash), or -1.
int escapedUnit(const char *p, const char *end)
{
    if (end - p < 6 || p[0] != '\\' || p[1] != 'u')
        return -1; // (the second half of a pair must be an escape too, not "\0ude00")
    int unit = 0;
    for (int i = 2; i < 6; ++i) {
        const int h = hexValue(p[i]);
        if (h < 0)
            return -1;
        unit = unit * 16 + h;
    }
    return unit;
}

// Length of the number at p if it follows JSON's grammar
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), else 0.
qsizetype numberLength(const char *p, const char *end)
{
    const char *q = p;
    if (q < end && *q == '-')
        ++q;
    if (q >= end || !isDigit(*q))
        return 0;
    if (*q == '0')
        ++q;
    else
        while (q < end && isDigit(*q))
            ++q;
    if (q < end && *q == '.') {
        if (++q >= end || !isDigit(*q))
            return 0;
        while (q < end && isDigit(*q))
            ++q;
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        ++q;
        if (q < end && (*q == '+' || *q == '-'))
            ++q;
        if (q >= end || !isDigit(*q))
            return 0;
        while (q < end && isDigit(*q))
            ++q;
    }
    if (q < end && (isDigit(*q) || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' || *q == '-'))
        return 0;
    return q - p;
}

// What Qt's parser lets through, over raw bytes, in file order. Only meaningful up to the
// first syntax error Qt finds; the caller reports whichever comes first.
Oddity scan(const QByteArray &json, int limit)
{
    int depth = 0;
    bool inString = false;
    const char *begin = json.constData();
    const char *end = begin + json.size();
    const auto found = [begin](const char *at, QString problem) {
        return Oddity{at - begin, std::move(problem)};
    };
    for (const char *p = begin; p < end; ++p) {
        const char c = *p;
        if (c == '\0')
            return found(p, QStringLiteral("a NUL byte: this is not a text file"));
        if (inString) {
            if (c == '\\') {
                const int unit = escapedUnit(p, end);
                if (unit >= 0xD800 && unit <= 0xDBFF) {
                    const int next = escapedUnit(p + 6, end);
                    if (next < 0xDC00 || next > 0xDFFF)
                        return found(p,
                                     QStringLiteral("not valid JSON (a lone UTF-16 surrogate "
                                                    "\\u%1 in a string; it needs its other half)")
                                         .arg(unit, 4, 16, QLatin1Char('0')));
                    p += 11;
                } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                    return found(p, QStringLiteral("not valid JSON (a lone UTF-16 surrogate \\u%1 "
                                                   "in a string; it needs its other half)")
                                        .arg(unit, 4, 16, QLatin1Char('0')));
                } else if (p + 1 < end && p[1] == '\0') {
                    continue; // the NUL is the problem, next round
                } else if (p + 1 < end && !std::strchr("\"\\/bfnrtu", p[1])) {
                    // Qt reads "\q" as "q"; JSON knows eight escapes and \u
                    const auto next = static_cast<unsigned char>(p[1]);
                    return found(p, next >= 0x20 && next < 0x7f
                                        ? QStringLiteral("not valid JSON (an escape JSON does not "
                                                         "know: \\%1)")
                                              .arg(QLatin1Char(char(next)))
                                        : QStringLiteral("not valid JSON (a backslash before a "
                                                         "character JSON cannot escape)"));
                } else {
                    ++p;
                }
            } else if (c == '"') {
                inString = false;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                return found(p, QStringLiteral("a raw control character inside a string (JSON "
                                               "needs it escaped, e.g. \\n)"));
            }
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit)
                return found(p,
                             QStringLiteral("nested too deeply (more than %1 levels)").arg(limit));
        } else if (c == ']' || c == '}') {
            --depth;
        } else if (c == '-' || isDigit(c) || c == '.') {
            const qsizetype n = numberLength(p, end);
            if (n == 0)
                return found(p, QStringLiteral("not valid JSON (a number as JSON does not allow "
                                               "it, e.g. a leading '.' or a trailing '.')"));
            p += n - 1;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            while (p + 1 < end && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z')))
                ++p; // a literal (or garbage, which Qt words): not a number
        }
    }
    return {};
}

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

} // namespace

QString located(const QByteArray &json, qsizetype offset, const QString &problem)
{
    const auto [line, column] = lineColumn(json, offset);
    return QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(problem);
}

QString problem(const QByteArray &json, int maxDepth)
{
    const Oddity odd = scan(json, maxDepth);
    QJsonParseError qt{};
    QJsonDocument::fromJson(json, &qt);
    // Qt's offset is just past the character it stopped at, the scan's at the character
    if (qt.error != QJsonParseError::NoError && (odd.offset < 0 || qt.offset - 1 < odd.offset))
        return located(json, qt.offset,
                       QStringLiteral("not valid JSON (%1)").arg(qt.errorString()));
    if (odd.offset >= 0)
        return located(json, odd.offset, odd.problem);
    return {};
}

} // namespace Core::JsonSyntax
