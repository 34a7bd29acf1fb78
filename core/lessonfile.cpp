// LessonFile's entry points (lessonfile.h): a file or bytes to a Lesson, the file's own problems
// (missing, too large, UTF-16) named before its content is read, the document read into Nodes
// with simdjson On-Demand and the scenario reader's values (scenariofilevalues.h), and a
// syntax error worded with its line and column by the scenario file's second look
// (jsonsyntax.h), which wins over a problem with the content as it does for a scenario. The
// Nodes become a Lesson in lessonfileread.cpp; the writer is lessonfilewrite.cpp.

#include "lessonfile.h"

#include "jsonsyntax.h"
#include "lessonfilekeys.h"
#include "lessonfileread.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <simdjson.h>

#include <new>
#include <optional>
#include <string_view>

namespace Core {
namespace {

using namespace ScenarioFormat;
using LessonFormat::Node;

QString mib(qint64 bytes)
{
    return QString::number(double(bytes) / double(1 << 20), 'f', 1) + QStringLiteral(" MiB");
}

QString tooLarge(qint64 size, const LessonLimits &limits)
{
    return QStringLiteral("file: too large (%1; the limit is %2)")
        .arg(mib(size), mib(limits.maxFileBytes));
}

// Where a value sits, for the one object read whole as text: a scene's inline scenario.
enum class Where
{
    Root,
    Scenes, // the root's "scenes"
    Scene,  // an element of it
    Other,
};

class NodeReader
{
public:
    explicit NodeReader(const LessonLimits &limits) { m_fileLimits.maxDepth = limits.maxDepth; }

    void readObject(od::object object, Node &n, const QString &place, Where where)
    {
        n.type = od::json_type::object;
        for (auto member : object) {
            od::field field = get(std::move(member));
            const QString key = toQString(get(field.unescaped_key()));
            const QString at = place.isEmpty() ? key : place + QLatin1Char('.') + key;
            for (const auto &m : n.members)
                if (m.first == key)
                    duplicate(at);
            const Where child = where == Where::Root && key == QLatin1String(LessonFormat::kScenes)
                                    ? Where::Scenes
                                    : Where::Other;
            const bool scenario =
                where == Where::Scene && key == QLatin1String(LessonFormat::kScenario);
            n.members.emplace_back(key, Node{});
            Node &value = n.members.back().second;
            value.depth = n.depth + 1;
            readValue(field.value(), value, at, child, scenario);
        }
    }

private:
    void readValue(od::value v, Node &n, const QString &place, Where where, bool scenario)
    {
        n.type = get(v.type());
        switch (n.type) {
        case od::json_type::object: {
            enter(n.depth, m_fileLimits);
            od::object object = get(v.get_object());
            if (scenario) { // the scenario loader reads it, with every check of its own
                n.raw = get(object.raw_json());
                return;
            }
            readObject(object, n, place, where);
            return;
        }
        case od::json_type::array: {
            enter(n.depth, m_fileLimits);
            std::size_t i = 0;
            for (auto element : get(v.get_array())) {
                n.elements.emplace_back();
                Node &e = n.elements.back();
                e.depth = n.depth + 1;
                readValue(get(std::move(element)), e, QStringLiteral("%1[%2]").arg(place).arg(i++),
                          where == Where::Scenes ? Where::Scene : Where::Other, false);
            }
            return;
        }
        default:
            readToken(n.scalar, v, n.depth, m_fileLimits, nullptr);
            return;
        }
    }

    FileLimits m_fileLimits;
};

// `data` is followed by at least SIMDJSON_PADDING readable bytes.
LessonLoadResult parsePadded(const char *data, std::size_t size, const QString &baseDir,
                             const LessonLimits &limits)
{
    LessonLoadResult result;
    if (qint64(size) > limits.maxFileBytes) {
        result.error = tooLarge(qint64(size), limits);
        return result;
    }
    const std::string_view head(data, std::min<std::size_t>(size, 3));
    if (head.substr(0, 2) == "\xff\xfe" || head.substr(0, 2) == "\xfe\xff") {
        result.error = QStringLiteral("file: encoded as UTF-16; lesson files are UTF-8 (save it "
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
            throw Problem{QStringLiteral("file: must be a JSON object with \"%1\": 1 at the top, "
                                         "not %2")
                              .arg(QLatin1String(LessonFormat::kVersion),
                                   type == od::json_type::array ? QStringLiteral("an array")
                                                                : QStringLiteral("a bare value"))};
        Node root;
        NodeReader(limits).readObject(get(doc.get_object()), root, QString(), Where::Root);
        const char *trailing = nullptr;
        if (doc.current_location().get(trailing) != simdjson::OUT_OF_BOUNDS)
            throw Malformed{}; // something after the document
        // (the parser still lives: the Nodes point into it)
        result.lesson = LessonFormat::readLesson(root, baseDir, limits, &result.unknownKeys);
        return result;
    } catch (Problem &p) {
        problem = std::move(p);
    } catch (const Malformed &m) {
        malformed = m.code;
    } catch (const std::bad_alloc &) {
        result.error = QStringLiteral("file: not enough memory to load it");
        return result;
    }
    result.unknownKeys.clear();
    // A syntax error anywhere (an inline scenario's too) wins over a problem with the content.
    const QByteArray bytes = QByteArray::fromRawData(data, qsizetype(size));
    result.error = JsonSyntax::problem(bytes, limits.maxDepth);
    if (result.error.isEmpty() && problem)
        result.error = problem->text;
    if (result.error.isEmpty()) // not reachable: the second look finds what simdjson refused
        result.error = QStringLiteral("file: not valid JSON (%1)")
                           .arg(QString::fromLatin1(simdjson::error_message(*malformed)));
    return result;
}

LessonLoadResult parseBytes(const QByteArray &json, const QString &baseDir,
                            const LessonLimits &limits)
{
    if (json.size() > limits.maxFileBytes)
        return {std::nullopt, tooLarge(json.size(), limits), {}};
    try {
        const simdjson::padded_string padded(json.constData(), std::size_t(json.size()));
        return parsePadded(padded.data(), padded.size(), baseDir, limits);
    } catch (const std::bad_alloc &) {
        return {std::nullopt, QStringLiteral("file: not enough memory to load it"), {}};
    }
}

} // namespace

namespace LessonFile {

LessonLoadResult parse(const QByteArray &json, const QString &baseDir, const LessonLimits &limits)
{
    return parseBytes(json, baseDir, limits);
}

LessonLoadResult load(const QString &path, const LessonLimits &limits)
{
    const QFileInfo info(path);
    if (info.isDir())
        return {
            std::nullopt, QStringLiteral("file: %1 is a folder, not a lesson file").arg(path), {}};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {std::nullopt,
                QStringLiteral("file: cannot open %1 (%2)").arg(path, file.errorString()),
                {}};
    if (file.size() > limits.maxFileBytes)
        return {std::nullopt, tooLarge(file.size(), limits), {}};
    // one more byte than the limit: a file that grew (or a device without a size) is still
    // refused as too large
    const QByteArray bytes = file.read(limits.maxFileBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return {std::nullopt,
                QStringLiteral("file: cannot read %1 (%2)").arg(path, file.errorString()),
                {}};
    return parseBytes(bytes, info.absolutePath(), limits);
}

QString builtinPath(const QString &name)
{
    return QStringLiteral(":/lessons/%1%2").arg(name, QLatin1String(kSuffix));
}

QStringList builtinNames()
{
    // every file compiled in (core/CMakeLists.txt globs resources/lessons); their names begin
    // with the number of their place in the course
    QStringList names;
    const QString suffix = QLatin1String(kSuffix);
    for (const QString &file : QDir(QStringLiteral(":/lessons"))
                                   .entryList({QLatin1Char('*') + suffix}, QDir::Files, QDir::Name))
        names << file.chopped(suffix.size());
    return names;
}

} // namespace LessonFile
} // namespace Core
