#pragma once

// Walking through a lesson (docs/LESSONS.md, "Presenting a lesson"): each scene's run, and for
// a question the freeze tick, the option that holds, each option's text and feedback, the
// reveal tick (the deciding event's) and the reveal's explanation in the system's own words.
// What presentation mode, the lesson's handout and `lesson check` all ask.

#include "lesson.h"
#include "lessonclaims.h"
#include "trace.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace Core {

// One scene, run.
struct ScenePlay
{
    bool fencing = true; // the run's switch: the view's, else the scenario's
    Trace trace;         // the complete run the question is judged on
    // With a question: every option judged on `trace`, the right one, the reveal.
    std::optional<QuestionVerdict> verdict;

    bool asks() const { return verdict.has_value(); }
    // The option that holds; -1 when none or several do (verdict->problem says which).
    int right() const { return verdict ? verdict->right : -1; }
    // The tick the run plays to after the reveal: the deciding event's.
    Tick reveal() const { return verdict ? verdict->reveal : 0; }
};

// The scene's run as the lesson has it: its own scenario with its switch (LessonScene::fencing()),
// what the lesson editor judges an option's claim on while the author writes it.
Trace sceneRun(const LessonScene &scene);

// Runs `scenario` as `scene` shows it (its view's fencing switch) and judges the scene's
// question on it. `scenario` is the scene's own, or the same scene changed since (a student
// drags a pause): the claims follow their writes by name.
ScenePlay playScene(const LessonScene &scene, const Scenario &scenario);
inline ScenePlay playScene(const LessonScene &scene)
{
    return playScene(scene, scene.scenario);
}
// Every scene of `lesson`, in order.
std::vector<ScenePlay> playLesson(const Lesson &lesson);

// The text of option `i` of a question as a presenter shows it: "B. A's write \"A\" is
// rejected".
QString optionLine(const LessonQuestion &question, std::size_t i);
// The reveal's words for a played question: the deciding event explained by the simulator,
// then the author's explanation, if any.
QString revealText(const LessonScene &scene, const Scenario &scenario, const ScenePlay &play);

// What is wrong with the lesson's questions on their runs, one line each, "scenes[2].question:
// options A and C both hold in this run; ...": no option holds, several do, or the answer is
// settled before the freeze or after the view. Empty for a sound lesson. (A lesson that loads
// has no question that does not fit its run: the loader refuses those.)
QStringList lessonProblems(const Lesson &lesson, const std::vector<ScenePlay> &plays);

} // namespace Core
