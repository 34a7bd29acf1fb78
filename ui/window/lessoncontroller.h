#pragma once

// A lesson in the window (docs/LESSONS.md; README, "Lessons"). File > Open Lesson and Help >
// Lessons open one; each scene is shown by loading its scenario into the Document and its view
// into the ViewState and the timeline (compare mode, the range).
//
// In the normal window (a student's desk) a question stops the run at its freeze tick: what
// follows is hidden (ViewState::setHideFuture) and the playhead is held there until the
// student checks an answer; then the run plays on to the deciding event. Alt+Left and
// Alt+Right go from scene to scene, Left and Right still move the playhead. "Predict" on a
// write asks the student's own question about it (Core::writeQuestion).
//
// In presentation mode it walks each scene (PresentationWalk): its opening (title and
// narration), its steps (Core::storySteps, up to the freeze tick), its question (the run stopped
// at the freeze, the hands counted per option) and the reveal, then the next scene; back the
// same way. Where the lesson stands and what was answered is remembered per lesson (QSettings).

#include "window/presentationcontroller.h"

#include "lesson.h"

#include <QList>
#include <QMessageBox>
#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>
#include <vector>

class Document;
class LessonPanel;
class LessonSession;
class LessonStage;
class Playback;
class PresentationPanel;
class RoomPoll;
class TimelineView;
class ViewState;
class QDockWidget;
class QTimer;
class QWidget;

class LessonController : public QObject, public PresentationWalk
{
    Q_OBJECT
public:
    struct Parts
    {
        QWidget *window = nullptr;
        Document *doc = nullptr;
        ViewState *state = nullptr;
        Playback *playback = nullptr;
        TimelineView *view = nullptr;
        PresentationController *presentation = nullptr;
        PresentationPanel *presentationPanel = nullptr;
        LessonPanel *panel = nullptr;      // the Lesson dock's
        LessonStage *stage = nullptr;      // presentation's, under the timeline
        QDockWidget *dock = nullptr;       // the Lesson dock
        QDockWidget *editorDock = nullptr; // the lesson editor's
        // What would tell the answer before the reveal in the normal window (the summary
        // strip, the token chart, the story, the event log, the inspector): put away while a
        // question waits for its answer, shown again after the reveal.
        QList<QWidget *> curtained;
    };
    struct Hooks
    {
        std::function<void(const QString &title, const QString &message)> reportError;
        // unsaved edits of the lesson: Save, Discard or Cancel
        std::function<QMessageBox::StandardButton(const QString &title)> askUnsaved;
        std::function<QString(const QString &suggested)> askSavePath;
        std::function<void(const QString &text)> showStatus;
        // unsaved changes of the scenario shown, asked about before a lesson replaces it;
        // false: the user cancelled
        std::function<bool()> maybeSaveScenario;
    };

    // The QSettings group progress is remembered in, one entry per lesson.
    static constexpr const char *kProgressGroup = "lessons/progress";
    // How long the reveal plays on to the deciding event, at most (ms).
    static constexpr int kRevealMs = 1200;

    LessonController(Parts parts, Hooks hooks, QObject *parent = nullptr);
    ~LessonController() override;

    // Opens a lesson file, or a built-in lesson by name (LessonFile::builtinNames()). A broken
    // file is reported with its message and nothing changes. The lesson open before is closed
    // first (asking about its unsaved edits). Resumes where the lesson was left.
    bool open(const QString &path);
    bool openBuiltin(const QString &name);
    // Opens `lesson` as a new one, not yet saved (the editor's New Lesson).
    void openNew(const Core::Lesson &lesson);
    // Asks about unsaved edits of the lesson; false when the user cancels.
    bool maybeSave();
    // Closes the lesson (asks first); false when the user cancels.
    bool close();
    bool save();
    bool saveAs();
    bool saveTo(const QString &path);

    LessonSession *session() const { return m_session; }
    // The room's poll (roompoll.h): its keys (P, H, V) while a lesson is presented; it stops
    // when the presentation ends.
    void setRoomPoll(RoomPoll *poll) { m_poll = poll; }

    enum class Stage
    {
        None,      // no lesson
        Opening,   // presentation: the scene's title and narration
        Step,      // a step of the run (presentation), or a scene without a question
        Question,  // the run stopped at the freeze tick
        Revealing, // playing on to the deciding event
        Answer,    // revealed
        End,       // presentation: a scene's whole run
    };
    Stage stage() const { return m_stage; }

    void nextScene();
    void previousScene();
    void showScene(int scene);
    // The scene's scenario as the lesson has it, again (a student's change dropped).
    void showSceneRun();
    // "Check my answer", or presentation's step to the reveal.
    void reveal();
    // The student's own question about a write of the run shown ("Predict…").
    void predict(int client, int action);
    // The lesson editor's "ask what happens to this write": the scene's question becomes it
    // (with the run shown kept for the scene, when the student's run differs), one undo step.
    void askInLesson(int client, int action);
    // The window opened another scenario (a file, a preset): the lesson stays open, its
    // questions wait until a scene is shown again.
    void scenarioReplaced();

    // PresentationWalk
    bool walking() const override { return m_session != nullptr; }
    void began() override;
    void ended() override;
    void forward() override;
    void back() override;
    void toStart() override;
    void toEnd() override;
    KeyUse keyUse(const QKeyEvent *event, const QObject *receiver) const override;
    void key(QKeyEvent *event) override;
    int panelHeight(int width, const Theme &theme) const override;

signals:
    // A lesson was opened or closed (null): the editor, the docks and the menus follow.
    void sessionChanged(LessonSession *session);
    void stageChanged();

private:
    // Where presentation stands inside a scene.
    struct Position
    {
        Stage stage = Stage::Opening;
        Core::Tick tick = 0; // Step
    };
    std::vector<Position> positions() const;
    void setSession(LessonSession *session);
    bool openLoaded(const Core::Lesson &lesson, const QString &path, const QString &builtin);
    // Shows the session's scene: its scenario and view, then its question's stage.
    void load();
    // The scene's view on the window: compare mode, the range the timeline fits.
    void applyView();
    void applyNormal();
    void go(int position, bool animate);
    void setStage(Stage stage);
    void startReveal();
    void revealStep();
    void finishReveal();
    void stopReveal();
    void holdAtFreeze();
    // The views that tell the whole run put away (a question waits), or shown again.
    void setCurtain(bool on);
    void saveProgress();
    QVariantMap loadProgress() const;
    bool presenting() const;

    Parts m_parts;
    Hooks m_hooks;
    LessonSession *m_session = nullptr; // owned (a child), deleted on close
    Stage m_stage = Stage::None;
    int m_position = 0; // into positions(), while presenting
    bool m_loading = false;
    bool m_enterAtEnd = false; // going back into the scene before: at its last position
    // the view and question last applied, to tell an edit that changes them from one that
    // does not (the narration typed)
    Core::SceneView m_appliedView;
    std::optional<Core::LessonQuestion> m_appliedQuestion;
    QTimer *m_revealTimer;
    std::vector<Core::Tick> m_revealTicks; // still to play, in order
    Core::Tick m_revealTarget = 0;
    QList<QWidget *> m_putAway; // what setCurtain(true) hid, to show again
    QPointer<PresentationController> m_presentationAlive;
    RoomPoll *m_poll = nullptr; // m_parts.presentation, while it lives
};
