#include "document/lessoncommands.h"

#include "document/lessonsession.h"

#include <QCoreApplication>

#include <utility>

namespace LessonCommands {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("LessonCommands", text);
}

// A change and its inverse, for edits that are not typed (a view, a question, a scenario).
class Change : public QUndoCommand
{
public:
    using Fn = std::function<void(Core::Lesson &)>;
    Change(LessonSession *session, int scene, const QString &text, Fn redo, Fn undo)
        : QUndoCommand(text), m_session(session), m_scene(scene), m_redo(std::move(redo)),
          m_undo(std::move(undo))
    {
    }
    void redo() override { apply(m_redo); }
    void undo() override { apply(m_undo); }

private:
    void apply(const Fn &fn)
    {
        if (m_scene >= 0)
            m_session->setScene(m_scene);
        m_session->edit(fn);
    }
    LessonSession *m_session;
    int m_scene;
    Fn m_redo;
    Fn m_undo;
};

Core::LessonScene &sceneOf(Core::Lesson &lesson, int scene)
{
    return lesson.scenes[std::size_t(scene)];
}

QUndoCommand *sceneText(LessonSession *session, int scene, const QString &key,
                        QString Core::LessonScene::*member, const QString &value, int typing,
                        const QString &text)
{
    const QString before = session->lesson().scenes[std::size_t(scene)].*member;
    return new SetValue(
        session, scene, QStringLiteral("scenes[%1].%2").arg(scene).arg(key), typing, before, value,
        [scene, member](Core::Lesson &l, const QVariant &v) {
            sceneOf(l, scene).*member = v.toString();
        },
        text);
}

QUndoCommand *questionText(LessonSession *session, int scene, const QString &key,
                           QString Core::LessonQuestion::*member, const QString &value, int typing,
                           const QString &text)
{
    const std::optional<Core::LessonQuestion> &q =
        session->lesson().scenes[std::size_t(scene)].question;
    const QString before = q ? (*q).*member : QString();
    return new SetValue(
        session, scene, QStringLiteral("scenes[%1].question.%2").arg(scene).arg(key), typing,
        before, value,
        [scene, member](Core::Lesson &l, const QVariant &v) {
            if (std::optional<Core::LessonQuestion> &q = sceneOf(l, scene).question)
                (*q).*member = v.toString();
        },
        text);
}

} // namespace

SetValue::SetValue(LessonSession *session, int scene, const QString &field, int typing,
                   const QVariant &before, const QVariant &after, Apply apply, const QString &text)
    : QUndoCommand(text), m_session(session), m_scene(scene), m_field(field), m_typing(typing),
      m_before(before), m_after(after), m_apply(std::move(apply))
{
}

void SetValue::redo()
{
    if (m_scene >= 0)
        m_session->setScene(m_scene);
    const QVariant v = m_after;
    m_session->edit([this, &v](Core::Lesson &l) { m_apply(l, v); });
}

void SetValue::undo()
{
    if (m_scene >= 0)
        m_session->setScene(m_scene);
    const QVariant v = m_before;
    m_session->edit([this, &v](Core::Lesson &l) { m_apply(l, v); });
}

bool SetValue::mergeWith(const QUndoCommand *other)
{
    const auto *o = dynamic_cast<const SetValue *>(other);
    if (!o || o->m_field != m_field || o->m_typing != m_typing || m_typing <= 0)
        return false;
    m_after = o->m_after;
    return true;
}

QUndoCommand *setTitle(LessonSession *session, const QString &title, int typing)
{
    return new SetValue(
        session, -1, QStringLiteral("title"), typing, session->lesson().title, title,
        [](Core::Lesson &l, const QVariant &v) { l.title = v.toString(); }, tr("Lesson title"));
}

QUndoCommand *setAudience(LessonSession *session, const QString &audience, int typing)
{
    return new SetValue(
        session, -1, QStringLiteral("audience"), typing, session->lesson().audience, audience,
        [](Core::Lesson &l, const QVariant &v) { l.audience = v.toString(); }, tr("Audience"));
}

QUndoCommand *setObjectives(LessonSession *session, const QStringList &objectives, int typing)
{
    return new SetValue(
        session, -1, QStringLiteral("objectives"), typing, session->lesson().objectives, objectives,
        [](Core::Lesson &l, const QVariant &v) { l.objectives = v.toStringList(); },
        tr("Objectives"));
}

QUndoCommand *setSources(LessonSession *session, const QStringList &sources, int typing)
{
    return new SetValue(
        session, -1, QStringLiteral("sources"), typing, session->lesson().sources, sources,
        [](Core::Lesson &l, const QVariant &v) { l.sources = v.toStringList(); }, tr("Sources"));
}

QUndoCommand *setSceneTitle(LessonSession *session, int scene, const QString &title, int typing)
{
    return sceneText(session, scene, QStringLiteral("title"), &Core::LessonScene::title, title,
                     typing, tr("Scene title"));
}

QUndoCommand *setNarration(LessonSession *session, int scene, const QString &narration, int typing)
{
    return sceneText(session, scene, QStringLiteral("narration"), &Core::LessonScene::narration,
                     narration, typing, tr("Narration"));
}

QUndoCommand *setPrompt(LessonSession *session, int scene, const QString &prompt, int typing)
{
    return questionText(session, scene, QStringLiteral("prompt"), &Core::LessonQuestion::prompt,
                        prompt, typing, tr("Prompt"));
}

QUndoCommand *setExplanation(LessonSession *session, int scene, const QString &explanation,
                             int typing)
{
    return questionText(session, scene, QStringLiteral("explanation"),
                        &Core::LessonQuestion::explanation, explanation, typing, tr("Explanation"));
}

QUndoCommand *setFeedback(LessonSession *session, int scene, int option, const QString &feedback,
                          int typing)
{
    const std::optional<Core::LessonQuestion> &q =
        session->lesson().scenes[std::size_t(scene)].question;
    const QString before = q && std::size_t(option) < q->options.size()
                               ? q->options[std::size_t(option)].feedback
                               : QString();
    return new SetValue(
        session, scene,
        QStringLiteral("scenes[%1].question.options[%2].feedback").arg(scene).arg(option), typing,
        before, feedback,
        [scene, option](Core::Lesson &l, const QVariant &v) {
            std::optional<Core::LessonQuestion> &q = sceneOf(l, scene).question;
            if (q && std::size_t(option) < q->options.size())
                q->options[std::size_t(option)].feedback = v.toString();
        },
        tr("Feedback of option %1").arg(Core::optionLetter(std::size_t(option))));
}

QUndoCommand *setView(LessonSession *session, int scene, const Core::SceneView &view,
                      const QString &text, int typing)
{
    const Core::SceneView before = session->lesson().scenes[std::size_t(scene)].view;
    return new SetValue(
        session, scene, QStringLiteral("scenes[%1].view").arg(scene), typing,
        QVariant::fromValue(before), QVariant::fromValue(view),
        [scene](Core::Lesson &l, const QVariant &v) {
            sceneOf(l, scene).view = v.value<Core::SceneView>();
        },
        text);
}

QUndoCommand *setFreeze(LessonSession *session, int scene, Core::Tick freeze, int typing)
{
    const std::optional<Core::LessonQuestion> &q =
        session->lesson().scenes[std::size_t(scene)].question;
    return new SetValue(
        session, scene, QStringLiteral("scenes[%1].question.freeze").arg(scene), typing,
        QVariant::fromValue(q ? q->freeze : Core::Tick(0)), QVariant::fromValue(freeze),
        [scene](Core::Lesson &l, const QVariant &v) {
            if (std::optional<Core::LessonQuestion> &q = sceneOf(l, scene).question)
                q->freeze = v.value<Core::Tick>();
        },
        tr("Freeze tick"));
}

QUndoCommand *setQuestion(LessonSession *session, int scene,
                          const std::optional<Core::LessonQuestion> &question, const QString &text)
{
    const std::optional<Core::LessonQuestion> before =
        session->lesson().scenes[std::size_t(scene)].question;
    return new Change(
        session, scene, text,
        [scene, question](Core::Lesson &l) { sceneOf(l, scene).question = question; },
        [scene, before](Core::Lesson &l) { sceneOf(l, scene).question = before; });
}

QUndoCommand *setScenario(LessonSession *session, int scene, Core::SceneSource source,
                          const QString &reference, const Core::Scenario &scenario)
{
    const Core::LessonScene &s = session->lesson().scenes[std::size_t(scene)];
    const Core::SceneSource oldSource = s.source;
    const QString oldReference = s.reference;
    const Core::Scenario oldScenario = s.scenario;
    const auto set = [scene](Core::SceneSource src, const QString &ref, const Core::Scenario &sc) {
        return [scene, src, ref, sc](Core::Lesson &l) {
            Core::LessonScene &x = sceneOf(l, scene);
            x.source = src;
            x.reference = ref;
            x.scenario = sc;
        };
    };
    return new Change(session, scene, tr("Scene's scenario"), set(source, reference, scenario),
                      set(oldSource, oldReference, oldScenario));
}

namespace {

class InsertScene : public QUndoCommand
{
public:
    InsertScene(LessonSession *session, int index, Core::LessonScene scene, bool insert,
                const QString &text)
        : QUndoCommand(text), m_session(session), m_index(index), m_scene(std::move(scene)),
          m_insert(insert)
    {
    }
    void redo() override { m_insert ? add() : remove(); }
    void undo() override { m_insert ? remove() : add(); }

private:
    void add()
    {
        m_session->insertScene(m_index, m_scene);
        m_session->setScene(m_index);
    }
    void remove() { m_session->removeScene(m_index); }
    LessonSession *m_session;
    int m_index;
    Core::LessonScene m_scene;
    bool m_insert;
};

class MoveScene : public QUndoCommand
{
public:
    MoveScene(LessonSession *session, int from, int to)
        : QUndoCommand(tr("Move scene")), m_session(session), m_from(from), m_to(to)
    {
    }
    void redo() override { m_session->moveScene(m_from, m_to); }
    void undo() override { m_session->moveScene(m_to, m_from); }

private:
    LessonSession *m_session;
    int m_from;
    int m_to;
};

} // namespace

QUndoCommand *insertScene(LessonSession *session, int index, const Core::LessonScene &scene)
{
    return new InsertScene(session, index, scene, true, tr("Add scene"));
}

QUndoCommand *removeScene(LessonSession *session, int index)
{
    return new InsertScene(session, index, session->lesson().scenes[std::size_t(index)], false,
                           tr("Delete scene"));
}

QUndoCommand *moveScene(LessonSession *session, int from, int to)
{
    return new MoveScene(session, from, to);
}

} // namespace LessonCommands
