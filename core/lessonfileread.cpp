// A lesson file's Nodes to a Lesson (lessonfileread.h), checking every rule of docs/LESSONS.md.
// Problems are found in file order, with two exceptions: the format version is checked first,
// and what a scene's scenario decides (the names a claim uses, the freeze tick against the
// run, the compare source against the scenario's own) is checked once the whole file has been
// read, scene by scene, scenario first.

#include "lessonfileread.h"

#include "lessonclaims.h"
#include "lessonfilekeys.h"
#include "simulator.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>

namespace Core::LessonFormat {
namespace {

using namespace ScenarioFormat;

// An unknown key's value as a save writes it back.
QJsonValue toJson(const Node &n)
{
    switch (n.type) {
    case od::json_type::object: {
        QJsonObject o;
        for (const auto &[key, value] : n.members)
            o.insert(key, toJson(value));
        return o;
    }
    case od::json_type::array: {
        QJsonArray a;
        for (const Node &e : n.elements)
            a.append(toJson(e));
        return a;
    }
    default:
        return n.scalar.toJson();
    }
}

class Reader : NodeValues
{
public:
    Reader(const QString &baseDir, const LessonLimits &limits, QStringList *unknownKeys)
        : NodeValues(limits), m_baseDir(baseDir), m_unknown(unknownKeys)
    {
    }

    Lesson read(const Node &root)
    {
        checkVersion(root);
        Lesson l;
        bool titled = false;
        bool scenes = false;
        std::vector<const Node *> sceneNodes;
        for (const auto &[key, v] : root.members) {
            if (is(key, kVersion)) {
                continue;
            } else if (is(key, kTitle)) {
                l.title = required(v, QLatin1String(kTitle), m_limits.maxShortText);
                titled = true;
            } else if (is(key, kAudience)) {
                l.audience = text(v, kAudience, m_limits.maxShortText);
            } else if (is(key, kObjectives)) {
                l.objectives = list(v, kObjectives);
            } else if (is(key, kSources)) {
                l.sources = list(v, kSources);
            } else if (is(key, kScenes)) {
                readScenes(v, l);
                scenes = true;
            } else {
                keep(l.extra, key, v, QString());
            }
        }
        if (!titled)
            fail(QLatin1String(kTitle), QStringLiteral("missing: a lesson needs a title"));
        if (!scenes)
            fail(QLatin1String(kScenes), QStringLiteral("missing: a lesson needs at least one "
                                                        "scene"));
        // what each scene's scenario decides, scene by scene
        std::size_t actions = 0;
        for (std::size_t i = 0; i < l.scenes.size(); ++i) {
            const QString place = item(QLatin1String(kScenes), i);
            LessonScene &scene = l.scenes[i];
            loadScenario(scene, m_sceneScenarios[i], place);
            actions += scene.scenario.actionCount();
            if (actions > m_limits.maxActions)
                fail(place, QStringLiteral("too many actions: the lesson's scenarios hold more "
                                           "than %1 together")
                                .arg(m_limits.maxActions));
            checkAgainstScenario(scene, place);
        }
        return l;
    }

private:
    void checkVersion(const Node &root)
    {
        for (const auto &[key, v] : root.members) {
            if (!is(key, kVersion))
                continue;
            if (v.type != od::json_type::number || v.scalar.number.toDouble() != 1.0)
                fail(QLatin1String(kVersion),
                     QStringLiteral("unsupported lesson format version %1 (this FenceScope reads "
                                    "version 1)")
                         .arg(describe(v)));
            return;
        }
        for (const auto &member : root.members)
            if (member.first == QLatin1String("fencescope"))
                fail(QStringLiteral("file"),
                     QStringLiteral("a scenario file, not a lesson (open it as a scenario; a "
                                    "lesson has \"%1\": 1 and names its scenarios in its scenes)")
                         .arg(QLatin1String(kVersion)));
        fail(QLatin1String(kVersion),
             QStringLiteral("missing: this is not a FenceScope lesson file (expected \"%1\": 1)")
                 .arg(QLatin1String(kVersion)));
    }

    void keep(QJsonObject &extra, const QString &key, const Node &v, const QString &place)
    {
        extra.insert(key, toJson(v));
        if (m_unknown)
            m_unknown->append(place.isEmpty() ? key : place + QLatin1Char('.') + key);
    }

    // ---- scenes

    void readScenes(const Node &v, Lesson &l)
    {
        const QString place = QLatin1String(kScenes);
        expect(v, od::json_type::array, place, QStringLiteral("an array of scenes"));
        if (v.elements.empty())
            fail(place, QStringLiteral("must hold at least one scene"));
        if (v.elements.size() > m_limits.maxScenes)
            fail(place, QStringLiteral("too many scenes (%1; the limit is %2)")
                            .arg(v.elements.size())
                            .arg(m_limits.maxScenes));
        for (std::size_t i = 0; i < v.elements.size(); ++i) {
            m_sceneScenarios.push_back(nullptr);
            l.scenes.push_back(readScene(v.elements[i], item(place, i), m_sceneScenarios.back()));
        }
    }

    LessonScene readScene(const Node &v, const QString &place, const Node *&scenario)
    {
        expect(v, od::json_type::object, place, QStringLiteral("an object"));
        LessonScene scene;
        const char *sourceKey = nullptr;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            if (is(key, kTitle)) {
                scene.title = text(value, here, m_limits.maxShortText);
            } else if (is(key, kPreset) || is(key, kPath) || is(key, kScenario)) {
                const char *k = is(key, kPreset) ? kPreset : is(key, kPath) ? kPath : kScenario;
                if (sourceKey)
                    fail(here, QStringLiteral("a scene has one scenario: \"%1\" already gives it "
                                              "(use one of \"preset\", \"path\" and \"scenario\")")
                                   .arg(QLatin1String(sourceKey)));
                sourceKey = k;
                if (k == kScenario) {
                    expect(value, od::json_type::object, here,
                           QStringLiteral("an object (a scenario, with \"fencescope\": 1)"));
                    scene.source = SceneSource::Inline;
                    scenario = &value;
                } else {
                    scene.source = k == kPreset ? SceneSource::Preset : SceneSource::Path;
                    scene.reference = required(value, here, m_limits.maxLongText);
                }
            } else if (is(key, kView)) {
                scene.view = readView(value, here);
            } else if (is(key, kNarration)) {
                scene.narration = text(value, here, m_limits.maxLongText);
            } else if (is(key, kQuestion)) {
                scene.question = readQuestion(value, here);
            } else {
                keep(scene.extra, key, value, place);
            }
        }
        if (!sourceKey)
            fail(place, QStringLiteral("missing its scenario: give \"preset\" (a built-in "
                                       "scenario's name), \"path\" (a scenario file) or "
                                       "\"scenario\" (the scenario itself)"));
        checkViewAndQuestion(scene, place);
        return scene;
    }

    SceneView readView(const Node &v, const QString &place)
    {
        expect(v, od::json_type::object, place, QStringLiteral("an object"));
        SceneView view;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            if (is(key, kFencing)) {
                view.fencing = boolean(value, here);
            } else if (is(key, kCompare)) {
                const QString what = text(value, here, m_limits.maxShortText);
                TokenSource source = TokenSource::Counter;
                if (what == QLatin1String(kCompareFencing)) {
                    view.compare = SceneCompare::Fencing;
                } else if (tokenSourceFromString(what, &source)) {
                    view.compare = SceneCompare::Source;
                    view.compareSource = source;
                } else {
                    fail(here, QStringLiteral("must be \"fencing\" (fenced over unfenced) or a "
                                              "token source (%1), not \"%2\"")
                                   .arg(sourceNames(), what));
                }
            } else if (is(key, kFrom)) {
                view.from = tick(value, here);
            } else if (is(key, kTo)) {
                view.to = tick(value, here, true);
            } else if (is(key, kPlayhead)) {
                view.playhead = tick(value, here);
            } else {
                keep(view.extra, key, value, place);
            }
        }
        if (view.from && view.to && *view.to <= *view.from)
            fail(at(place, kTo), QStringLiteral("must be after \"from\" (%1), not %2")
                                     .arg(*view.from)
                                     .arg(*view.to));
        if (view.playhead && view.from && *view.playhead < *view.from)
            fail(at(place, kPlayhead), QStringLiteral("must be inside the view's range (from "
                                                      "%1), not %2")
                                           .arg(*view.from)
                                           .arg(*view.playhead));
        if (view.playhead && view.to && *view.playhead > *view.to)
            fail(at(place, kPlayhead), QStringLiteral("must be inside the view's range (to %1), "
                                                      "not %2")
                                           .arg(*view.to)
                                           .arg(*view.playhead));
        return view;
    }

    static QString sourceNames()
    {
        QStringList names;
        for (int i = 0; i < kTokenSourceCount; ++i)
            names << toString(TokenSource(i));
        return names.join(QLatin1String(", "));
    }

    LessonQuestion readQuestion(const Node &v, const QString &place)
    {
        expect(v, od::json_type::object, place, QStringLiteral("an object"));
        LessonQuestion q;
        bool prompt = false, freeze = false, options = false;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            if (is(key, kPrompt)) {
                q.prompt = required(value, here, m_limits.maxLongText);
                prompt = true;
            } else if (is(key, kFreeze)) {
                q.freeze = tick(value, here);
                freeze = true;
            } else if (is(key, kOptions)) {
                readOptions(value, here, q);
                options = true;
            } else if (is(key, kExplanation)) {
                q.explanation = text(value, here, m_limits.maxLongText);
            } else {
                keep(q.extra, key, value, place);
            }
        }
        if (!prompt)
            fail(at(place, kPrompt), QStringLiteral("missing: a question needs its prompt"));
        if (!freeze)
            fail(at(place, kFreeze), QStringLiteral("missing: the tick the run stops at before "
                                                    "the reveal (a non-negative integer)"));
        if (!options)
            fail(at(place, kOptions), QStringLiteral("missing: a question needs %1 to %2 options")
                                          .arg(m_limits.minOptions)
                                          .arg(m_limits.maxOptions));
        return q;
    }

    void readOptions(const Node &v, const QString &place, LessonQuestion &q)
    {
        expect(v, od::json_type::array, place, QStringLiteral("an array of options"));
        if (v.elements.size() < m_limits.minOptions || v.elements.size() > m_limits.maxOptions)
            fail(place, QStringLiteral("must hold %1 to %2 options (A to %3), not %4")
                            .arg(m_limits.minOptions)
                            .arg(m_limits.maxOptions)
                            .arg(optionLetter(m_limits.maxOptions - 1))
                            .arg(v.elements.size()));
        for (std::size_t i = 0; i < v.elements.size(); ++i) {
            const Node &o = v.elements[i];
            const QString here = item(place, i);
            expect(o, od::json_type::object, here, QStringLiteral("an object"));
            LessonOption option;
            bool claimed = false;
            for (const auto &[key, value] : o.members) {
                if (is(key, kClaim)) {
                    option.claim = readClaim(value, at(here, kClaim), m_limits);
                    claimed = true;
                } else if (is(key, kFeedback)) {
                    option.feedback = text(value, at(here, kFeedback), m_limits.maxLongText);
                } else {
                    keep(option.extra, key, value, here);
                }
            }
            if (!claimed)
                fail(at(here, kClaim), QStringLiteral("missing: an option states a claim the "
                                                      "simulator checks"));
            q.options.push_back(std::move(option));
        }
    }

    // ---- what needs no scenario but more than one key

    void checkViewAndQuestion(const LessonScene &scene, const QString &place)
    {
        if (!scene.question)
            return;
        const Tick freeze = scene.question->freeze;
        const QString here = place + QStringLiteral(".question.freeze");
        const SceneView &view = scene.view;
        if ((view.from && freeze < *view.from) || (view.to && freeze >= *view.to))
            fail(here, QStringLiteral("must be inside the scene's view (from %1 to %2), not %3")
                           .arg(view.from ? QString::number(*view.from) : QStringLiteral("0"),
                                view.to ? QString::number(*view.to) : QStringLiteral("the end"))
                           .arg(freeze));
        if (view.playhead && *view.playhead > freeze)
            fail(place + QStringLiteral(".view.playhead"),
                 QStringLiteral("must be at or before the question's freeze tick (%1), not %2")
                     .arg(freeze)
                     .arg(*view.playhead));
    }

    // ---- what the scenario decides

    void loadScenario(LessonScene &scene, const Node *inlineScenario, const QString &place)
    {
        LoadResult r;
        switch (scene.source) {
        case SceneSource::Preset: {
            const QString here = place + QLatin1Char('.') + QLatin1String(kPreset);
            if (!ScenarioFile::builtinNames().contains(scene.reference))
                fail(here, QStringLiteral("no built-in scenario \"%1\" (known: %2)")
                               .arg(scene.reference,
                                    ScenarioFile::builtinNames().join(QLatin1String(", "))));
            r = ScenarioFile::load(ScenarioFile::builtinPath(scene.reference));
            if (!r.ok())
                fail(here, QStringLiteral("the built-in scenario \"%1\" does not load: %2")
                               .arg(scene.reference, r.error));
            break;
        }
        case SceneSource::Path: {
            const QString here = place + QLatin1Char('.') + QLatin1String(kPath);
            if (QDir::isAbsolutePath(scene.reference))
                fail(here, QStringLiteral("must be relative to the lesson's folder, not an "
                                          "absolute path (%1)")
                               .arg(scene.reference));
            r = ScenarioFile::load(QDir(m_baseDir).filePath(scene.reference));
            if (!r.ok())
                fail(here, scene.reference + QLatin1String(": ") + r.error);
            break;
        }
        case SceneSource::Inline: {
            const QString here = place + QLatin1Char('.') + QLatin1String(kScenario);
            FileLimits limits;
            limits.maxFileBytes = m_limits.maxFileBytes;
            // the lesson's nesting limit counts from the lesson's root
            limits.maxDepth = m_limits.maxDepth - inlineScenario->depth + 1;
            const QByteArray text(inlineScenario->raw.data(),
                                  qsizetype(inlineScenario->raw.size()));
            r = ScenarioFile::parse(text, limits);
            // its places continue the lesson's ("scenes[2].scenario.clients[0].name"); what it
            // says of the whole file, or of a line (a syntax error the lesson's own second look
            // words first, with the lesson's line), it says of the scenario
            if (!r.ok() && r.error.startsWith(QLatin1String("file: ")))
                fail(here, r.error.mid(6));
            if (!r.ok() && r.error.startsWith(QLatin1String("line ")))
                fail(here, r.error);
            if (!r.ok())
                throw Problem{here + QLatin1Char('.') + r.error};
            break;
        }
        }
        scene.scenario = std::move(*r.scenario);
    }

    void checkAgainstScenario(const LessonScene &scene, const QString &place)
    {
        if (scene.view.compare == SceneCompare::Source &&
            scene.view.compareSource == scene.scenario.tokens)
            fail(place + QStringLiteral(".view.compare"),
                 QStringLiteral("\"%1\" is the scenario's own token source: compare with another "
                                "one, or with \"fencing\"")
                     .arg(toString(scene.view.compareSource)));
        if (!scene.question)
            return;
        const Trace trace = simulate(scene.scenario, scene.fencing());
        const QuestionVerdict verdict =
            judgeQuestion(*scene.question, scene.scenario, trace, &scene.view);
        if (!verdict.error.isEmpty())
            throw Problem{place + QStringLiteral(".question.") + verdict.error};
    }

    QString m_baseDir;
    QStringList *m_unknown;
    std::vector<const Node *> m_sceneScenarios; // each scene's inline scenario, or null
};

} // namespace

Lesson readLesson(const Node &root, const QString &baseDir, const LessonLimits &limits,
                  QStringList *unknownKeys)
{
    return Reader(baseDir, limits, unknownKeys).read(root);
}

} // namespace Core::LessonFormat
