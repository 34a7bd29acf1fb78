// The lesson writer (lessonfile.h): one canonical form, so that a lesson loaded and saved again
// is the same bytes. Keys in the documented order, each optional one only when it is set, one
// line per option, an inline scenario as the scenario file writes it (ScenarioFile::serialize)
// indented into place, kept unknown keys last in their object.

#include "lessonfile.h"

#include "jsonout.h"
#include "lessonfilekeys.h"
#include "savefile.h"

namespace Core {
namespace {

using namespace LessonFormat;

void writeExtra(JsonOut &out, const QJsonObject &extra, const char *separator)
{
    for (auto it = extra.begin(); it != extra.end(); ++it)
        out.raw(separator).string(it.key()).raw(": ").value(it.value());
}

void writeList(JsonOut &out, const QStringList &list, const char *indent)
{
    out.raw("[");
    for (qsizetype i = 0; i < list.size(); ++i)
        out.raw(i ? ",\n" : "\n").raw(indent).raw("  ").string(list[i]);
    out.raw("\n").raw(indent).raw("]");
}

void writeWriteRef(JsonOut &out, const WriteRef &w)
{
    out.raw("{ ").key(kClient).string(w.client);
    if (w.value)
        out.raw(", ").key(kValue).string(*w.value);
    if (!w.storage.isEmpty())
        out.raw(", ").key(kStorage).string(w.storage);
    if (w.nth)
        out.raw(", ").key(kNth).number(w.nth);
    out.raw(" }");
}

void writeGrantRef(JsonOut &out, const GrantRef &g)
{
    out.raw("{ ").key(kClient).string(g.client);
    if (g.nth)
        out.raw(", ").key(kNth).number(g.nth);
    out.raw(" }");
}

void writeClaim(JsonOut &out, const Claim &c)
{
    out.raw("{ ");
    switch (c.kind) {
    case ClaimKind::Write:
        out.key(kWrite);
        writeWriteRef(out, c.write);
        out.raw(", ").key(kIs).string(toString(c.outcome));
        break;
    case ClaimKind::Final:
        out.key(kStorage).string(c.storage);
        if (c.finalValue)
            out.raw(", ").key(kValue).string(*c.finalValue);
        else
            out.raw(", ").key(kMaxToken).number(c.finalMaxToken.value_or(0));
        break;
    case ClaimKind::Grant:
        out.key(kGrant);
        writeGrantRef(out, c.grant);
        switch (c.test) {
        case TokenTest::Equals:
            out.raw(", ").key(kToken).number(c.token);
            break;
        case TokenTest::Written:
            out.raw(", ").key(kToken).string(c.tokenText);
            break;
        case TokenTest::NoToken:
            out.raw(", ").key(kToken).null();
            break;
        case TokenTest::Above:
        case TokenTest::Below:
        case TokenTest::Same:
            out.raw(", ").key(c.test == TokenTest::Above   ? kAbove
                              : c.test == TokenTest::Below ? kBelow
                                                           : kSame);
            writeGrantRef(out, c.other);
            break;
        }
        break;
    case ClaimKind::Some:
    case ClaimKind::No:
        out.key(c.kind == ClaimKind::Some ? kSome : kNo).string(toString(c.outcome));
        break;
    case ClaimKind::Lock:
    case ClaimKind::Belief:
        out.key(c.kind == ClaimKind::Lock ? kLock : kBelief)
            .string(QLatin1String(c.exclusive ? kExclusive : kOverlapping));
        break;
    }
    out.raw(" }");
}

bool viewIsDefault(const SceneView &v)
{
    return !v.fencing && v.compare == SceneCompare::Off && !v.from && !v.to && !v.playhead &&
           v.extra.isEmpty();
}

void writeView(JsonOut &out, const SceneView &v)
{
    const char *comma = "";
    out.raw("{ ");
    if (v.fencing) {
        out.key(kFencing).boolean(*v.fencing);
        comma = ", ";
    }
    if (v.compare != SceneCompare::Off) {
        out.raw(comma).key(kCompare).string(v.compare == SceneCompare::Fencing
                                                ? QString(QLatin1String(kCompareFencing))
                                                : toString(v.compareSource));
        comma = ", ";
    }
    for (const auto &[key, tick] :
         {std::pair{kFrom, v.from}, std::pair{kTo, v.to}, std::pair{kPlayhead, v.playhead}}) {
        if (tick) {
            out.raw(comma).key(key).number(*tick);
            comma = ", ";
        }
    }
    for (auto it = v.extra.begin(); it != v.extra.end(); ++it) {
        out.raw(comma).string(it.key()).raw(": ").value(it.value());
        comma = ", ";
    }
    out.raw(" }");
}

// The scenario file's own text, each line after the first indented by `indent`.
void writeScenario(JsonOut &out, const Scenario &s, const char *indent)
{
    QByteArray text = ScenarioFile::serialize(s);
    if (text.endsWith('\n'))
        text.chop(1);
    text.replace("\n", QByteArray("\n") + indent);
    out.raw(text.constData());
}

void writeQuestion(JsonOut &out, const LessonQuestion &q)
{
    out.raw("{\n        ").key(kPrompt).string(q.prompt);
    out.raw(",\n        ").key(kFreeze).number(q.freeze);
    out.raw(",\n        ").key(kOptions).raw("[");
    for (std::size_t i = 0; i < q.options.size(); ++i) {
        const LessonOption &o = q.options[i];
        out.raw(i ? ",\n          { " : "\n          { ").key(kClaim);
        writeClaim(out, o.claim);
        if (!o.feedback.isEmpty())
            out.raw(", ").key(kFeedback).string(o.feedback);
        writeExtra(out, o.extra, ", ");
        out.raw(" }");
    }
    out.raw("\n        ]");
    if (!q.explanation.isEmpty())
        out.raw(",\n        ").key(kExplanation).string(q.explanation);
    writeExtra(out, q.extra, ",\n        ");
    out.raw("\n      }");
}

void writeScene(JsonOut &out, const LessonScene &scene)
{
    const char *comma = "\n      ";
    out.raw("{");
    if (!scene.title.isEmpty()) {
        out.raw(comma).key(kTitle).string(scene.title);
        comma = ",\n      ";
    }
    switch (scene.source) {
    case SceneSource::Preset:
        out.raw(comma).key(kPreset).string(scene.reference);
        break;
    case SceneSource::Path:
        out.raw(comma).key(kPath).string(scene.reference);
        break;
    case SceneSource::Inline:
        out.raw(comma).key(kScenario);
        writeScenario(out, scene.scenario, "      ");
        break;
    }
    comma = ",\n      ";
    if (!viewIsDefault(scene.view)) {
        out.raw(comma).key(kView);
        writeView(out, scene.view);
    }
    if (!scene.narration.isEmpty())
        out.raw(comma).key(kNarration).string(scene.narration);
    if (scene.question) {
        out.raw(comma).key(kQuestion);
        writeQuestion(out, *scene.question);
    }
    writeExtra(out, scene.extra, comma);
    out.raw("\n    }");
}

} // namespace

namespace LessonFile {

QByteArray serialize(const Lesson &l)
{
    JsonOut out;
    out.raw("{\n  ").key(kVersion).number(1);
    out.raw(",\n  ").key(kTitle).string(l.title);
    if (!l.audience.isEmpty())
        out.raw(",\n  ").key(kAudience).string(l.audience);
    if (!l.objectives.isEmpty()) {
        out.raw(",\n  ").key(kObjectives);
        writeList(out, l.objectives, "  ");
    }
    if (!l.sources.isEmpty()) {
        out.raw(",\n  ").key(kSources);
        writeList(out, l.sources, "  ");
    }
    out.raw(",\n  ").key(kScenes).raw("[");
    for (std::size_t i = 0; i < l.scenes.size(); ++i) {
        out.raw(i ? ",\n    " : "\n    ");
        writeScene(out, l.scenes[i]);
    }
    out.raw("\n  ]");
    writeExtra(out, l.extra, ",\n  ");
    out.raw("\n}\n");
    return QByteArray(out.buffer().data(), qsizetype(out.buffer().size()));
}

bool save(const Lesson &lesson, const QString &path, QString *error)
{
    const std::optional<SaveFailure> failed = saveWhole(path, serialize(lesson));
    if (failed && error)
        *error = cannotSave(path, *failed);
    return !failed;
}

} // namespace LessonFile
} // namespace Core
