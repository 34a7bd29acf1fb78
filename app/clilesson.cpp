#include "clilesson.h"

#include "clioutput.h"
#include "lessonfile.h"
#include "lessonplay.h"

#include <QDir>
#include <QFile>

#if FENCESCOPE_CLI_PICTURES
#include "handout.h"
#endif

namespace Cli {
namespace {

QString plural(std::size_t n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

QString sourceText(const Core::LessonScene &scene)
{
    switch (scene.source) {
    case Core::SceneSource::Preset:
        return QStringLiteral("preset ") + scene.reference;
    case Core::SceneSource::Path:
        return QStringLiteral("file ") + scene.reference;
    case Core::SceneSource::Inline:
        return QStringLiteral("inline scenario");
    }
    return {};
}

// `text` with every line after the first indented by `indent` spaces (empty lines stay empty).
QString indented(const QString &text, int indent)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 1; i < lines.size(); ++i)
        if (!lines[i].isEmpty())
            lines[i].prepend(QString(indent, QLatin1Char(' ')));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

Core::LessonLoadResult loadLesson(const QString &file)
{
    if (file == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            return {std::nullopt, QStringLiteral("file: cannot read standard input"), {}};
        // a scene's path is then relative to the current folder
        return Core::LessonFile::parse(in.readAll(), QDir::currentPath());
    }
    return Core::LessonFile::load(file);
}

int lessonCheck(const Invocation &inv)
{
    const QString &file = inv.files.first();
    const Core::LessonLoadResult loaded = loadLesson(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    const Core::Lesson &lesson = *loaded.lesson;
    const std::vector<Core::ScenePlay> plays = Core::playLesson(lesson);
    const QStringList problems = Core::lessonProblems(lesson, plays);
    std::size_t questions = 0;
    for (const Core::LessonScene &scene : lesson.scenes)
        questions += scene.question ? 1 : 0;

    QString out =
        QStringLiteral("%1: %2 (\"%3\", %4, %5)\n")
            .arg(file,
                 problems.isEmpty() ? QStringLiteral("ok")
                                    : plural(std::size_t(problems.size()), "problem", "problems"),
                 lesson.title, plural(lesson.scenes.size(), "scene", "scenes"),
                 plural(questions, "question", "questions"));
    for (const QString &key : loaded.unknownKeys)
        out += QStringLiteral("note: %1: not a key of lesson file version 1 (kept as it is)\n")
                   .arg(key);
    for (std::size_t i = 0; i < lesson.scenes.size(); ++i) {
        const Core::LessonScene &scene = lesson.scenes[i];
        const Core::ScenePlay &play = plays[i];
        out +=
            QStringLiteral("\nScene %1: %2 (%3, fencing %4)\n")
                .arg(i + 1)
                .arg(scene.title.isEmpty() ? scene.scenario.title : scene.title, sourceText(scene),
                     play.fencing ? QStringLiteral("on") : QStringLiteral("off"));
        if (!scene.question)
            continue;
        const Core::LessonQuestion &q = *scene.question;
        const Core::QuestionVerdict &v = *play.verdict;
        out += QStringLiteral("  Frozen at t=%1: %2\n").arg(q.freeze).arg(q.prompt);
        for (std::size_t o = 0; o < q.options.size(); ++o) {
            const Core::ClaimVerdict &c = v.options[o];
            out +=
                QStringLiteral("    %1%2\n")
                    .arg(Core::optionLine(q, o),
                         c.holds ? QStringLiteral("   <- holds (settled at t=%1)").arg(c.decidedAt)
                                 : QString());
        }
        if (!v.sound()) {
            out += QStringLiteral("  Problem: %1\n").arg(v.error.isEmpty() ? v.problem : v.error);
            continue;
        }
        out += QStringLiteral("  Answer: %1, revealed at t=%2. %3\n")
                   .arg(Core::optionLetter(std::size_t(v.right)))
                   .arg(v.reveal)
                   .arg(indented(Core::revealText(scene, scene.scenario, play), 4));
    }
    if (!writeAll(stdout, out.toUtf8()))
        return 1;
    if (!problems.isEmpty())
        return invalid(
            QStringLiteral("%1: %2%3")
                .arg(file, problems.first(),
                     problems.size() > 1
                         ? QStringLiteral(" (and %1 more, listed above)").arg(problems.size() - 1)
                         : QString()));
    return 0;
}

#if FENCESCOPE_CLI_PICTURES
int lessonHandout(const Invocation &inv)
{
    if (isStandardStream(inv.output))
        return invalid(QStringLiteral("lesson handout: cannot write a PDF to standard output "
                                      "(give a file ending in .pdf)"));
    if (!inv.output.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return invalid(QStringLiteral("lesson handout: cannot write %1: a handout is a PDF (give "
                                      "a file ending in .pdf)")
                           .arg(inv.output));
    const QString &file = inv.files.first();
    const Core::LessonLoadResult loaded = loadLesson(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    const QStringList problems =
        Core::lessonProblems(*loaded.lesson, Core::playLesson(*loaded.lesson));
    if (!problems.isEmpty()) // a question without one right answer has no key
        return invalid(file + QLatin1String(": ") + problems.first() +
                       QStringLiteral(" (lesson check lists every problem)"));
    HandoutOptions options;
    options.answerKey = !inv.noKey;
    const QString failed = Handout::write(inv.output, *loaded.lesson, options);
    if (!failed.isEmpty())
        return invalid(QStringLiteral("lesson handout: ") + failed);
    return 0;
}
#endif

} // namespace Cli
