#pragma once

// The lesson reader, internal to the core: lessonfile.cpp reads the document with simdjson into
// Nodes (file order kept, duplicate keys and depth checked as the scenario file's values are),
// lessonfileread.cpp turns the Nodes into a Lesson, checking every rule, with
// lessonfileclaim.cpp for the options' claims.

#include "lessonfile.h"
#include "lessonfilekeys.h"
#include "scenariofilevalues.h"

#include <QString>
#include <QStringList>

#include <string_view>
#include <utility>
#include <vector>

namespace Core::LessonFormat {

// One JSON value of a lesson file, read whole (lesson files are small). Valid while the parser
// that read it lives: strings point into its buffers.
struct Node
{
    simdjson::ondemand::json_type type = simdjson::ondemand::json_type::null;
    ScenarioFormat::Token scalar;                  // a number, string, boolean or null
    std::vector<std::pair<QString, Node>> members; // an object's, in file order
    std::vector<Node> elements;                    // an array's
    // A scene's inline scenario is not read here: its text goes to the scenario loader whole.
    std::string_view raw;
    int depth = 1; // the root object is level 1
};

// Places, a key's name, what a value is ("an object", "\"default\"", "5").
inline QString at(const QString &place, const char *key)
{
    return place.isEmpty() ? QLatin1String(key) : place + QLatin1Char('.') + QLatin1String(key);
}

inline QString item(const QString &place, std::size_t i)
{
    return QStringLiteral("%1[%2]").arg(place).arg(i);
}

inline bool is(const QString &key, const char *name)
{
    return key == QLatin1String(name);
}

inline QString describe(const Node &n)
{
    return n.type == simdjson::ondemand::json_type::object  ? QStringLiteral("an object")
           : n.type == simdjson::ondemand::json_type::array ? QStringLiteral("an array")
                                                            : n.scalar.describe();
}

// The value rules every part of the reader shares, each failing with the place named
// (ScenarioFormat::Problem): a value of the wanted type, text within its limit, a tick, a
// boolean, a list of texts.
class NodeValues
{
protected:
    explicit NodeValues(const LessonLimits &limits) : m_limits(limits) {}

    void expect(const Node &v, simdjson::ondemand::json_type type, const QString &place,
                const QString &what)
    {
        if (v.type != type)
            ScenarioFormat::fail(place,
                                 QStringLiteral("must be %1, not %2").arg(what, describe(v)));
    }

    QString text(const Node &v, const QString &place, qsizetype max)
    {
        expect(v, simdjson::ondemand::json_type::string, place, QStringLiteral("a string"));
        QString s = ScenarioFormat::toQString(v.scalar.text);
        if (s.size() > max)
            ScenarioFormat::fail(
                place,
                QStringLiteral("too long (%1 characters; the limit is %2)").arg(s.size()).arg(max));
        return s;
    }
    QString text(const Node &v, const char *key, qsizetype max)
    {
        return text(v, QLatin1String(key), max);
    }

    QString required(const Node &v, const QString &place, qsizetype max)
    {
        QString s = text(v, place, max);
        if (s.trimmed().isEmpty())
            ScenarioFormat::fail(place, QStringLiteral("must not be empty"));
        return s;
    }

    QStringList list(const Node &v, const char *key)
    {
        const QString place = QLatin1String(key);
        expect(v, simdjson::ondemand::json_type::array, place,
               QStringLiteral("an array of strings"));
        if (v.elements.size() > m_limits.maxListEntries)
            ScenarioFormat::fail(place, QStringLiteral("too many entries (%1; the limit is %2)")
                                            .arg(v.elements.size())
                                            .arg(m_limits.maxListEntries));
        QStringList out;
        for (std::size_t i = 0; i < v.elements.size(); ++i)
            out << required(v.elements[i], item(place, i), m_limits.maxLongText);
        return out;
    }

    Tick tick(const Node &v, const QString &place, bool positive = false)
    {
        if (v.type != simdjson::ondemand::json_type::number)
            ScenarioFormat::fail(place, QStringLiteral("must be a %1 integer, not %2")
                                            .arg(positive ? QStringLiteral("positive")
                                                          : QStringLiteral("non-negative"),
                                                 describe(v)));
        return ScenarioFormat::integer(
            v.scalar, [&] { return place; }, positive);
    }

    bool boolean(const Node &v, const QString &place)
    {
        if (v.type != simdjson::ondemand::json_type::boolean)
            ScenarioFormat::fail(place,
                                 QStringLiteral("must be true or false, not %1").arg(describe(v)));
        return v.scalar.boolean;
    }

    const LessonLimits &m_limits;
};

// A claim (lessonfileclaim.cpp): strict, since a claim's meaning must be exact: it keeps no key
// it does not know.
Claim readClaim(const Node &v, const QString &place, const LessonLimits &limits);

// The lesson in `root` (the document's object). Throws ScenarioFormat::Problem for the first
// problem, by place. Each scene's scenario is loaded (`path` relative to `baseDir`) and run.
Lesson readLesson(const Node &root, const QString &baseDir, const LessonLimits &limits,
                  QStringList *unknownKeys);

} // namespace Core::LessonFormat
