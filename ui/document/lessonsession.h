#pragma once

// The open lesson (docs/LESSONS.md): the lesson as data, where it came from, the undo stack of
// its editor (one QUndoCommand per edit, lessoncommands.h), the scene being shown, and what was
// done at each question: the hands counted in the room (two votes, Peer Instruction's second
// after discussion), the option a student picked, whether the answer was revealed.
//
// The scene's scenario is shown by the Document, which a student may change (a drag). The
// session never works out an answer itself: play() asks core (Core::playScene) to judge the
// question on what the Document holds now, so the right answer follows every change.

#include "lesson.h"
#include "lessonplay.h"

#include <QObject>
#include <QString>
#include <QVariantMap>

#include <array>
#include <functional>
#include <optional>
#include <vector>

class Document;
class QUndoStack;

class LessonSession : public QObject
{
    Q_OBJECT
public:
    static constexpr int kVotes = 2;   // the first vote and the second, after discussion
    static constexpr int kOptions = 5; // A to E

    // What was done at one scene's question.
    struct Answer
    {
        // Hands raised per vote and option; -1: not counted.
        std::array<std::array<int, kOptions>, kVotes> hands{};
        int picked = -1;       // the option a student chose before the reveal; -1: none
        bool revealed = false; // the answer was shown at least once
        Answer()
        {
            for (auto &row : hands)
                row.fill(-1);
        }
        friend bool operator==(const Answer &a, const Answer &b)
        {
            return a.hands == b.hands && a.picked == b.picked && a.revealed == b.revealed;
        }
    };

    // `path`: the lesson's file (empty for a built-in or a new lesson); `builtin`: the name of
    // a built-in lesson (LessonFile::builtinNames()), else empty.
    LessonSession(Document *doc, Core::Lesson lesson, const QString &path, const QString &builtin,
                  QObject *parent = nullptr);

    const Core::Lesson &lesson() const { return m_lesson; }
    Document *document() const { return m_doc; }
    QString filePath() const { return m_path; }
    QString builtinName() const { return m_builtin; }
    // What progress is remembered under: "builtin:NAME", or the file's absolute path; a new
    // lesson has none until it is saved.
    QString progressKey() const;
    // The folder a scene's `path` is relative to (the file's; none for a built-in lesson).
    QString baseDir() const;
    QUndoStack *undoStack() const { return m_undo; }
    // Edited since it was opened or last saved.
    bool isModified() const;
    void setFilePath(const QString &path);
    void markSaved();

    // The scene shown: an index into lesson().scenes.
    int scene() const { return m_scene; }
    int sceneCount() const { return int(m_lesson.scenes.size()); }
    const Core::LessonScene &currentScene() const { return m_lesson.scenes[std::size_t(m_scene)]; }
    void setScene(int scene);
    // The scene's scenario as the window shows it: its own, with the view's fencing switch.
    Core::Scenario sceneScenario(int scene) const;
    // The Document shows something else than the scene (a file opened, a preset): questions
    // are not judged on it until the scene is shown again.
    bool isDetached() const { return m_detached; }
    void setDetached(bool detached);
    // The Document holds the scene's scenario as the lesson has it (no student's change).
    bool showsSceneAsWritten() const;

    // A question of the student's own on the shown scene ("Predict" on a write): while set it
    // is the question asked, in place of the scene's. Cleared when the scene changes.
    const std::optional<Core::LessonQuestion> &ownQuestion() const { return m_own; }
    void setOwnQuestion(std::optional<Core::LessonQuestion> question);
    // The question asked at the shown scene: the student's own, else the scene's; null: none.
    const Core::LessonQuestion *question() const;
    // The question judged on what the Document holds now. Computed when asked, kept until the
    // scenario, the lesson or the scene changes.
    const Core::ScenePlay &play() const;
    // The shown scene's run as the lesson has it (Core::sceneRun), whatever the Document shows:
    // what the editor judges an option's claim on. Computed when asked, kept until the lesson
    // or the scene changes.
    const Core::Trace &sceneRun() const;
    // The reveal in the simulator's own words (Core::revealExplanation): the deciding event
    // explained; the author's explanation is the question's own.
    QString revealWords() const;
    // Why the question is not sound on the run shown (core's words: no option holds, several
    // do, the answer is on screen at the freeze, a claim names what the run lacks); empty when
    // exactly one option holds.
    QString problem() const;

    // What was done at scene `scene`'s question (the student's own question has its own).
    const Answer &answer(int scene) const;
    const Answer &currentAnswer() const;
    void setHands(int vote, int option, int hands);
    void setPicked(int option);
    void setRevealed(bool revealed);

    // The room poll's counts (Poll::Room::save(): counts per question and round, no cookie),
    // remembered with the progress and exported as CSV (docs/POLL.md).
    QVariantMap pollCounts() const { return m_pollCounts; }
    void setPollCounts(const QVariantMap &counts) { m_pollCounts = counts; }

    // Progress to remember between runs (QVariant, for QSettings): the scene, and the
    // questions' answers. restoreProgress ignores what no longer fits the lesson.
    QVariantMap progress() const;
    void restoreProgress(const QVariantMap &progress);

    // Changes to the lesson, for lessoncommands.h only (every edit is an undo step there).
    // `change` may edit anything but the number and order of scenes.
    void edit(const std::function<void(Core::Lesson &)> &change);
    void insertScene(int index, const Core::LessonScene &scene);
    void removeScene(int index);
    void moveScene(int from, int to);

signals:
    // The lesson's content changed (an edit, an undo).
    void lessonChanged();
    // Another scene is shown: the window shows its scenario and view.
    void sceneChanged(int scene);
    // The scene shown is the same, at another place (scenes added, removed or moved before it).
    void sceneMoved(int scene);
    // Hands, a pick or a reveal changed, or the student's own question.
    void answerChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);

private:
    void invalidate();

    Document *m_doc;
    Core::Lesson m_lesson;
    QString m_path;
    QString m_builtin;
    QUndoStack *m_undo;
    int m_scene = 0;
    bool m_detached = false;
    std::vector<Answer> m_answers; // one per scene
    std::optional<Core::LessonQuestion> m_own;
    Answer m_ownAnswer;
    QVariantMap m_pollCounts;
    mutable std::optional<Core::ScenePlay> m_play;
    mutable std::optional<Core::Trace> m_sceneRun;
};
