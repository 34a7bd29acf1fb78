#pragma once

// The lesson editor's edits, one QUndoCommand each (the lesson's own undo stack,
// LessonSession::undoStack()). A command keeps what it needs to undo: a text, a view, a
// question; a whole scene only when a scene comes or goes. Typing in one field is one undo
// step: the commands of one typing session merge (`typing`, a number the field takes anew
// whenever it gets the focus again).
//
// A command that edits a scene shows that scene first, so an undo is seen where it happens.

#include "lesson.h"

#include <QString>
#include <QUndoCommand>
#include <QVariant>

#include <functional>
#include <optional>

class LessonSession;

namespace LessonCommands {

enum
{
    SetValueId = 0x4c53
};

// A value of the lesson typed in a field: a title, the narration, a prompt, the objectives.
// `field` names it ("scenes[2].narration"); commands of the same field and typing session
// (`typing` > 0) merge into one. `scene` is the scene it belongs to, or -1 (the lesson's own).
class SetValue : public QUndoCommand
{
public:
    using Apply = std::function<void(Core::Lesson &, const QVariant &)>;
    SetValue(LessonSession *session, int scene, const QString &field, int typing,
             const QVariant &before, const QVariant &after, Apply apply, const QString &text);
    void redo() override;
    void undo() override;
    int id() const override { return m_typing > 0 ? SetValueId : -1; }
    bool mergeWith(const QUndoCommand *other) override;
    QString field() const { return m_field; }

private:
    LessonSession *m_session;
    int m_scene;
    QString m_field;
    int m_typing;
    QVariant m_before;
    QVariant m_after;
    Apply m_apply;
};

// The lesson's title, audience, objectives and sources.
QUndoCommand *setTitle(LessonSession *session, const QString &title, int typing = 0);
QUndoCommand *setAudience(LessonSession *session, const QString &audience, int typing = 0);
QUndoCommand *setObjectives(LessonSession *session, const QStringList &objectives, int typing = 0);
QUndoCommand *setSources(LessonSession *session, const QStringList &sources, int typing = 0);

// A scene's title and narration.
QUndoCommand *setSceneTitle(LessonSession *session, int scene, const QString &title,
                            int typing = 0);
QUndoCommand *setNarration(LessonSession *session, int scene, const QString &narration,
                           int typing = 0);
// A question's prompt, explanation, and an option's feedback.
QUndoCommand *setPrompt(LessonSession *session, int scene, const QString &prompt, int typing = 0);
QUndoCommand *setExplanation(LessonSession *session, int scene, const QString &explanation,
                             int typing = 0);
QUndoCommand *setFeedback(LessonSession *session, int scene, int option, const QString &feedback,
                          int typing = 0);

// A scene's view (fencing, compare, range, playhead); a tick typed merges as text does.
QUndoCommand *setView(LessonSession *session, int scene, const Core::SceneView &view,
                      const QString &text, int typing = 0);
// A question's freeze tick, typed or taken from the playhead.
QUndoCommand *setFreeze(LessonSession *session, int scene, Core::Tick freeze, int typing = 0);
// A scene's question as a whole: added (from the run or new), removed (nullopt), or changed
// (its freeze tick, an option added, removed or rewritten).
QUndoCommand *setQuestion(LessonSession *session, int scene,
                          const std::optional<Core::LessonQuestion> &question, const QString &text);
// A scene's scenario: the one the window shows now, kept inside the lesson.
QUndoCommand *setScenario(LessonSession *session, int scene, Core::SceneSource source,
                          const QString &reference, const Core::Scenario &scenario);

QUndoCommand *insertScene(LessonSession *session, int index, const Core::LessonScene &scene);
QUndoCommand *removeScene(LessonSession *session, int index);
QUndoCommand *moveScene(LessonSession *session, int from, int to);

} // namespace LessonCommands
