#pragma once

// Lesson file version 1 (`*.fencescope-lesson.json`, docs/LESSONS.md): JSON <-> Lesson. Read as
// the scenario file is (scenariofile.h): simdjson On-Demand with the scenario reader's values,
// a syntax error worded by the same second look (jsonsyntax.h), one message naming the place,
// limits on counts and sizes, never a half-loaded lesson. Every scene's scenario is loaded by
// the scenario loader itself and run, because a claim's names and a question's freeze tick are
// checked against it. Saved in one canonical form, atomically.

#include "lesson.h"
#include "scenariofile.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace Core {

struct LessonLimits
{
    qint64 maxFileBytes = qint64(16) << 20; // 16 MiB, inline scenarios included
    std::size_t maxScenes = 100;
    std::size_t maxListEntries = 50; // objectives, sources
    std::size_t minOptions = 2;
    std::size_t maxOptions = 5;         // A to E
    qsizetype maxShortText = 300;       // characters: titles, the audience
    qsizetype maxLongText = 4000;       // characters: narration, prompts, feedback, objectives, ...
    std::size_t maxActions = 4'000'000; // over every scene's scenario together
    int maxDepth = 64;                  // JSON nesting, inline scenarios included
};

struct LessonLoadResult
{
    std::optional<Lesson> lesson;
    QString error; // "place: problem", empty on success
    // Keys this version does not know (kept, and written back on save), by place: a misspelt
    // key is kept too, so `lesson check` lists them.
    QStringList unknownKeys;

    bool ok() const { return lesson.has_value(); }
};

namespace LessonFile {

// The file name every lesson file ends with.
inline constexpr char kSuffix[] = ".fencescope-lesson.json";

// Parses the bytes of a lesson file; a scene's `path` is relative to `baseDir`. Never throws,
// never returns half a lesson.
LessonLoadResult parse(const QByteArray &json, const QString &baseDir,
                       const LessonLimits &limits = {});
// Reads and parses a file; errors about the file itself (missing, too large) name it.
LessonLoadResult load(const QString &path, const LessonLimits &limits = {});
// The canonical form: parse(serialize(l)) == l, and serialize(parse(serialize(l))) is the same
// bytes (the editor saves a loaded lesson without changing a byte it did not edit).
QByteArray serialize(const Lesson &lesson);
// Atomic: the old file stays intact unless the new one was written completely.
bool save(const Lesson &lesson, const QString &path, QString *error = nullptr);

// Qt resource path of a built-in lesson (resources/lessons/NAME.fencescope-lesson.json).
QString builtinPath(const QString &name);
// Names of the built-in lessons in the order they are taught.
QStringList builtinNames();

} // namespace LessonFile
} // namespace Core
