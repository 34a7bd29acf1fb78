#include "document/lessonsession.h"

#include "document/document.h"

#include "lessonfile.h"

#include <QFileInfo>
#include <QUndoStack>
#include <QVariantList>

#include <algorithm>

LessonSession::LessonSession(Document *doc, Core::Lesson lesson, const QString &path,
                             const QString &builtin, QObject *parent)
    : QObject(parent), m_doc(doc), m_lesson(std::move(lesson)), m_path(path), m_builtin(builtin),
      m_undo(new QUndoStack(this)), m_answers(m_lesson.scenes.size())
{
    connect(m_undo, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
    connect(doc, &Document::changed, this, [this] { m_play.reset(); });
}

QString LessonSession::progressKey() const
{
    if (!m_builtin.isEmpty())
        return QStringLiteral("builtin:") + m_builtin;
    return m_path.isEmpty() ? QString() : QFileInfo(m_path).absoluteFilePath();
}

QString LessonSession::baseDir() const
{
    return m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath();
}

bool LessonSession::isModified() const
{
    return !m_undo->isClean();
}

void LessonSession::setFilePath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    m_builtin.clear(); // saved as a file of the user's: no longer the built-in one
    emit filePathChanged(path);
}

void LessonSession::markSaved()
{
    m_undo->setClean();
}

void LessonSession::setScene(int scene)
{
    scene = std::clamp(scene, 0, sceneCount() - 1);
    if (scene == m_scene)
        return;
    m_scene = scene;
    m_own.reset();
    m_ownAnswer = Answer();
    invalidate();
    emit sceneChanged(scene);
}

Core::Scenario LessonSession::sceneScenario(int scene) const
{
    const Core::LessonScene &s = m_lesson.scenes[std::size_t(scene)];
    Core::Scenario scenario = s.scenario;
    scenario.fencing = s.fencing();
    return scenario;
}

void LessonSession::setDetached(bool detached)
{
    if (detached == m_detached)
        return;
    m_detached = detached;
    invalidate();
    emit answerChanged();
}

bool LessonSession::showsSceneAsWritten() const
{
    return !m_detached && m_doc->scenario() == sceneScenario(m_scene);
}

void LessonSession::setOwnQuestion(std::optional<Core::LessonQuestion> question)
{
    m_own = std::move(question);
    m_ownAnswer = Answer();
    invalidate();
    emit answerChanged();
}

const Core::LessonQuestion *LessonSession::question() const
{
    if (m_own)
        return &*m_own;
    if (m_detached)
        return nullptr; // the run shown is not the scene's
    const Core::LessonScene &s = currentScene();
    return s.question ? &*s.question : nullptr;
}

const Core::ScenePlay &LessonSession::play() const
{
    if (!m_play) {
        // judged on the run the window shows: the Document's scenario with its own fencing
        // switch (a student may have pressed F), and the student's own question in place of
        // the scene's, on the whole run (not the scene's range, which it was not written for)
        Core::LessonScene scene = currentScene();
        scene.view.fencing.reset();
        if (m_own) {
            scene.question = *m_own;
            scene.view.from.reset();
            scene.view.to.reset();
        }
        m_play = Core::playScene(scene, m_doc->scenario());
    }
    return *m_play;
}

const Core::Trace &LessonSession::sceneRun() const
{
    if (!m_sceneRun)
        m_sceneRun = Core::sceneRun(currentScene());
    return *m_sceneRun;
}

QString LessonSession::revealWords() const
{
    const Core::ScenePlay &p = play();
    return p.verdict ? Core::revealExplanation(m_doc->scenario(), p.trace, *p.verdict) : QString();
}

QString LessonSession::problem() const
{
    const Core::ScenePlay &p = play();
    if (!p.verdict)
        return {};
    return p.verdict->error.isEmpty() ? p.verdict->problem : p.verdict->error;
}

const LessonSession::Answer &LessonSession::answer(int scene) const
{
    return m_answers[std::size_t(scene)];
}

const LessonSession::Answer &LessonSession::currentAnswer() const
{
    return m_own ? m_ownAnswer : m_answers[std::size_t(m_scene)];
}

void LessonSession::setHands(int vote, int option, int hands)
{
    if (vote < 0 || vote >= kVotes || option < 0 || option >= kOptions)
        return;
    Answer &a = m_own ? m_ownAnswer : m_answers[std::size_t(m_scene)];
    if (a.hands[std::size_t(vote)][std::size_t(option)] == hands)
        return;
    a.hands[std::size_t(vote)][std::size_t(option)] = hands;
    emit answerChanged();
}

void LessonSession::setPicked(int option)
{
    Answer &a = m_own ? m_ownAnswer : m_answers[std::size_t(m_scene)];
    if (a.picked == option)
        return;
    a.picked = option;
    emit answerChanged();
}

void LessonSession::setRevealed(bool revealed)
{
    Answer &a = m_own ? m_ownAnswer : m_answers[std::size_t(m_scene)];
    if (a.revealed == revealed)
        return;
    a.revealed = revealed;
    emit answerChanged();
}

QVariantMap LessonSession::progress() const
{
    QVariantMap p;
    p[QStringLiteral("scene")] = m_scene;
    p[QStringLiteral("scenes")] = sceneCount(); // what the answers below were numbered by
    QVariantList answers;
    for (const Answer &a : m_answers) {
        QVariantMap m;
        if (a.picked >= 0)
            m[QStringLiteral("picked")] = a.picked;
        if (a.revealed)
            m[QStringLiteral("revealed")] = true;
        QVariantList votes;
        bool counted = false;
        for (const auto &row : a.hands) {
            QVariantList hands;
            for (const int h : row) {
                hands << h;
                counted = counted || h >= 0;
            }
            votes << QVariant(hands);
        }
        if (counted)
            m[QStringLiteral("hands")] = votes;
        answers << QVariant(m);
    }
    p[QStringLiteral("answers")] = answers;
    if (!m_pollCounts.isEmpty())
        p[QStringLiteral("poll")] = m_pollCounts;
    return p;
}

void LessonSession::restoreProgress(const QVariantMap &p)
{
    // by question id (its scene), with its texts: Poll::Room::restore keeps what fits
    m_pollCounts = p.value(QStringLiteral("poll")).toMap();
    // answers are numbered by scene: a lesson edited since has other scenes, so only the
    // scene shown is taken then
    if (p.value(QStringLiteral("scenes")).toInt() == sceneCount()) {
        const QVariantList answers = p.value(QStringLiteral("answers")).toList();
        for (int i = 0; i < sceneCount() && i < answers.size(); ++i) {
            const QVariantMap m = answers[i].toMap();
            Answer a;
            const int options = m_lesson.scenes[std::size_t(i)].question
                                    ? int(m_lesson.scenes[std::size_t(i)].question->options.size())
                                    : 0;
            const int picked = m.value(QStringLiteral("picked"), -1).toInt();
            a.picked = picked >= 0 && picked < options ? picked : -1;
            a.revealed = m.value(QStringLiteral("revealed")).toBool();
            const QVariantList votes = m.value(QStringLiteral("hands")).toList();
            for (int v = 0; v < kVotes && v < votes.size(); ++v) {
                const QVariantList hands = votes[v].toList();
                for (int o = 0; o < options && o < hands.size(); ++o)
                    a.hands[std::size_t(v)][std::size_t(o)] = std::max(-1, hands[o].toInt());
            }
            m_answers[std::size_t(i)] = a;
        }
    }
    const int scene = p.value(QStringLiteral("scene"), 0).toInt();
    m_scene = std::clamp(scene, 0, sceneCount() - 1);
    invalidate();
    emit sceneChanged(m_scene);
    emit answerChanged();
}

void LessonSession::invalidate()
{
    m_play.reset();
    m_sceneRun.reset();
}

void LessonSession::edit(const std::function<void(Core::Lesson &)> &change)
{
    change(m_lesson);
    invalidate();
    emit lessonChanged();
}

void LessonSession::insertScene(int index, const Core::LessonScene &scene)
{
    index = std::clamp(index, 0, sceneCount());
    m_lesson.scenes.insert(m_lesson.scenes.begin() + index, scene);
    m_answers.insert(m_answers.begin() + index, Answer());
    const bool moved = index <= m_scene;
    if (moved)
        ++m_scene;
    invalidate();
    emit lessonChanged();
    if (moved)
        emit sceneMoved(m_scene);
}

void LessonSession::removeScene(int index)
{
    if (index < 0 || index >= sceneCount() || sceneCount() <= 1)
        return; // a lesson has at least one scene (docs/LESSONS.md)
    m_lesson.scenes.erase(m_lesson.scenes.begin() + index);
    m_answers.erase(m_answers.begin() + index);
    const bool shown = index == m_scene;
    if (index < m_scene || m_scene >= sceneCount())
        --m_scene;
    if (shown) {
        m_own.reset();
        m_ownAnswer = Answer();
    }
    invalidate();
    emit lessonChanged();
    if (shown)
        emit sceneChanged(m_scene); // the next one is shown now
    else if (index < m_scene + 1)
        emit sceneMoved(m_scene);
}

void LessonSession::moveScene(int from, int to)
{
    if (from < 0 || from >= sceneCount() || to < 0 || to >= sceneCount() || from == to)
        return;
    const auto move = [from, to](auto &list) {
        auto item = std::move(list[std::size_t(from)]);
        list.erase(list.begin() + from);
        list.insert(list.begin() + to, std::move(item));
    };
    move(m_lesson.scenes);
    move(m_answers);
    // the shown scene stays shown, wherever it now is
    int shown = m_scene;
    if (m_scene == from)
        shown = to;
    else if (from < m_scene && to >= m_scene)
        --shown;
    else if (from > m_scene && to <= m_scene)
        ++shown;
    const bool moved = shown != m_scene;
    m_scene = shown;
    invalidate();
    emit lessonChanged();
    if (moved)
        emit sceneMoved(m_scene);
}
