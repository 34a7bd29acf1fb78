#include "lessonplay.h"

#include "simulator.h"

namespace Core {

Trace sceneRun(const LessonScene &scene)
{
    return simulate(scene.scenario, scene.fencing());
}

ScenePlay playScene(const LessonScene &scene, const Scenario &scenario)
{
    ScenePlay play;
    play.fencing = scene.view.fencing.value_or(scenario.fencing);
    play.trace = simulate(scenario, play.fencing);
    if (scene.question)
        play.verdict = judgeQuestion(*scene.question, scenario, play.trace, &scene.view);
    return play;
}

std::vector<ScenePlay> playLesson(const Lesson &lesson)
{
    std::vector<ScenePlay> plays;
    plays.reserve(lesson.scenes.size());
    for (const LessonScene &scene : lesson.scenes)
        plays.push_back(playScene(scene));
    return plays;
}

QString optionLine(const LessonQuestion &question, std::size_t i)
{
    if (i >= question.options.size())
        return {};
    return optionLetter(i) + QStringLiteral(". ") + claimText(question.options[i].claim);
}

QString revealText(const LessonScene &scene, const Scenario &scenario, const ScenePlay &play)
{
    if (!play.verdict)
        return {};
    QString text = revealExplanation(scenario, play.trace, *play.verdict);
    if (scene.question && !scene.question->explanation.isEmpty())
        text += QStringLiteral("\n\n") + scene.question->explanation;
    return text;
}

QStringList lessonProblems(const Lesson &lesson, const std::vector<ScenePlay> &plays)
{
    QStringList problems;
    for (std::size_t i = 0; i < lesson.scenes.size() && i < plays.size(); ++i) {
        const std::optional<QuestionVerdict> &v = plays[i].verdict;
        if (!v || v->sound())
            continue;
        problems << (v->error.isEmpty()
                         ? QStringLiteral("scenes[%1].question: %2").arg(i).arg(v->problem)
                         : QStringLiteral("scenes[%1].question.%2").arg(i).arg(v->error));
    }
    return problems;
}

} // namespace Core
