// The lesson editor, part: its edits, each one undo command on the lesson's stack, and the
// problems shown at their fields (lessoneditor.h).

#include "views/lessoneditor.h"

#include "document/lessoncommands.h"
#include "document/lessonsession.h"
#include "views/claimform.h"

#include "document/document.h"
#include "viewstate.h"

#include "lessonfile.h"
#include "lessonplay.h"
#include "timelinerenderer.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QUndoStack>

#include <cmath>

void LessonEditor::push(QUndoCommand *command)
{
    if (!m_session) {
        delete command;
        return;
    }
    m_session->undoStack()->push(command);
}

Core::LessonScene LessonEditor::sceneFromWindow() const
{
    Core::LessonScene scene;
    scene.source = Core::SceneSource::Inline;
    scene.scenario = m_doc->scenario();
    if (m_session && m_session->showsSceneAsWritten()) {
        // the shown scene's scenario, unchanged: where it comes from stays as it is written
        const Core::LessonScene &shown = m_session->currentScene();
        scene.source = shown.source;
        scene.reference = shown.reference;
        scene.scenario = shown.scenario;
        scene.view.fencing = shown.view.fencing;
    }
    if (m_state->compare()) {
        scene.view.compare =
            m_state->compareSource() ? Core::SceneCompare::Source : Core::SceneCompare::Fencing;
        if (m_state->compareSource())
            scene.view.compareSource = *m_state->compareSource();
    }
    // the range the timeline shows, when it is not the whole run
    if (m_visibleRange) {
        if (const auto range = m_visibleRange()) {
            const Core::Trace &t = m_doc->trace();
            const auto from = Core::Tick(std::max(0.0, std::floor(range->first)));
            const auto to = Core::Tick(std::max(1.0, std::ceil(range->second)));
            const bool whole = double(from) <= TimelineRenderer::fitFrom(t) &&
                               double(to) >= TimelineRenderer::fitTo(t);
            if (!whole && to > from) {
                scene.view.from = from;
                scene.view.to = to;
            }
        }
    }
    // where the playhead stands, as the scene will start (none: before the first event); a
    // playhead outside the range kept would not load (docs/LESSONS.md, "playhead")
    if (m_state->hasPlayhead()) {
        const Core::Tick at = m_state->playhead();
        if ((!scene.view.from || at >= *scene.view.from) &&
            (!scene.view.to || at <= *scene.view.to))
            scene.view.playhead = at;
    }
    return scene;
}

Core::Lesson LessonEditor::newLesson() const
{
    Core::Lesson lesson;
    lesson.title = tr("A new lesson");
    lesson.scenes.push_back(sceneFromWindow());
    return lesson;
}

void LessonEditor::addScene()
{
    if (!m_session)
        return;
    push(LessonCommands::insertScene(m_session, m_session->scene() + 1, sceneFromWindow()));
}

void LessonEditor::keepRunForScene()
{
    if (!m_session || m_session->showsSceneAsWritten())
        return;
    const int scene = m_session->scene();
    QUndoStack *undo = m_session->undoStack();
    undo->beginMacro(tr("Keep the run shown for scene %1").arg(scene + 1));
    // with the switch it is shown with: the scene shows it so from now on
    Core::SceneView view = m_session->currentScene().view;
    view.fencing.reset();
    undo->push(LessonCommands::setScenario(m_session, scene, Core::SceneSource::Inline, {},
                                           m_doc->scenario()));
    undo->push(LessonCommands::setView(m_session, scene, view, tr("Scene's view")));
    undo->endMacro();
    m_session->setDetached(false);
}

void LessonEditor::moveScene(int by)
{
    if (!m_session)
        return;
    const int from = m_session->scene();
    const int to = from + by;
    if (to >= 0 && to < m_session->sceneCount())
        push(LessonCommands::moveScene(m_session, from, to));
}

void LessonEditor::deleteScene()
{
    if (m_session && m_session->sceneCount() > 1)
        push(LessonCommands::removeScene(m_session, m_session->scene()));
}

void LessonEditor::editView(int typingSession)
{
    if (m_filling || !m_session)
        return;
    Core::SceneView v = m_session->currentScene().view;
    const int fencing = m_fencing->currentData().toInt();
    v.fencing = fencing < 0 ? std::nullopt : std::optional<bool>(fencing == 1);
    const int compare = m_compare->currentData().toInt();
    v.compare = compare == -2   ? Core::SceneCompare::Off
                : compare == -1 ? Core::SceneCompare::Fencing
                                : Core::SceneCompare::Source;
    if (compare >= 0)
        v.compareSource = Core::TokenSource(compare);
    const auto tick = [](const QLineEdit *edit) {
        return edit->text().isEmpty() ? std::nullopt
                                      : std::optional<Core::Tick>(edit->text().toULongLong());
    };
    v.from = tick(m_from);
    v.to = tick(m_to);
    v.playhead = tick(m_playhead);
    if (!(v == m_session->currentScene().view))
        push(LessonCommands::setView(m_session, m_session->scene(), v, tr("Scene's view"),
                                     typingSession));
}

void LessonEditor::addQuestion()
{
    if (!m_session || m_session->currentScene().question)
        return;
    // frozen at the playhead; the prompt and the options are the author's to write, and
    // their problems say so at their fields until they are
    Core::LessonQuestion q;
    q.freeze = m_state->hasPlayhead() ? m_state->playhead() : 0;
    push(LessonCommands::setQuestion(m_session, m_session->scene(), q, tr("Add a question")));
}

void LessonEditor::removeQuestion()
{
    if (m_session && m_session->currentScene().question)
        push(LessonCommands::setQuestion(m_session, m_session->scene(), std::nullopt,
                                         tr("Remove the question")));
}

void LessonEditor::editFreeze(const QString &text)
{
    if (m_filling || !m_session || !m_session->currentScene().question || text.isEmpty())
        return;
    push(LessonCommands::setFreeze(m_session, m_session->scene(), text.toULongLong(),
                                   typing(m_freeze)));
}

void LessonEditor::freezeFromPlayhead()
{
    if (!m_session || !m_session->currentScene().question || !m_state->hasPlayhead())
        return;
    push(LessonCommands::setFreeze(m_session, m_session->scene(), m_state->playhead()));
}

void LessonEditor::addOption()
{
    if (!m_session)
        return;
    std::optional<Core::LessonQuestion> q = m_session->currentScene().question;
    if (!q || q->options.size() >= 5)
        return;
    Core::LessonOption option;
    option.claim = m_claim->claim();
    q->options.push_back(option);
    push(LessonCommands::setQuestion(
        m_session, m_session->scene(), q,
        tr("Add option %1").arg(Core::optionLetter(q->options.size() - 1))));
    m_options->setCurrentRow(int(q->options.size()) - 1);
}

void LessonEditor::replaceOption()
{
    if (!m_session)
        return;
    std::optional<Core::LessonQuestion> q = m_session->currentScene().question;
    const int row = m_options->currentRow();
    if (!q || row < 0 || std::size_t(row) >= q->options.size())
        return;
    q->options[std::size_t(row)].claim = m_claim->claim();
    push(LessonCommands::setQuestion(
        m_session, m_session->scene(), q,
        tr("Option %1's claim").arg(Core::optionLetter(std::size_t(row)))));
}

void LessonEditor::removeOption()
{
    if (!m_session)
        return;
    std::optional<Core::LessonQuestion> q = m_session->currentScene().question;
    const int row = m_options->currentRow();
    if (!q || row < 0 || std::size_t(row) >= q->options.size())
        return;
    q->options.erase(q->options.begin() + row);
    push(LessonCommands::setQuestion(
        m_session, m_session->scene(), q,
        tr("Remove option %1").arg(Core::optionLetter(std::size_t(row)))));
}

void LessonEditor::editFeedback(const QString &text)
{
    if (m_filling || !m_session)
        return;
    const int row = m_options->currentRow();
    if (row >= 0)
        push(LessonCommands::setFeedback(m_session, m_session->scene(), row, text,
                                         typing(m_feedback)));
}

// --- problems -----------------------------------------------------------------------------------

void LessonEditor::checkProblems()
{
    m_problems.clear();
    // the lesson as its file would be, read by the lesson reader: its first problem, named by
    // its place; then every question judged on its run
    const QByteArray bytes = Core::LessonFile::serialize(m_session->lesson());
    const Core::LessonLoadResult r = Core::LessonFile::parse(bytes, m_session->baseDir());
    const auto add = [this](const QString &line) {
        const qsizetype colon = line.indexOf(QStringLiteral(": "));
        if (colon < 0)
            m_problems[QString()] = line;
        else
            m_problems[line.left(colon)] = line.mid(colon + 2);
    };
    if (!r.ok())
        add(r.error);
    else
        for (const QString &line : Core::lessonProblems(*r.lesson, Core::playLesson(*r.lesson)))
            add(line);

    for (auto &[field, message] : m_messages)
        if (message)
            showMessage(const_cast<QWidget *>(field), {});
    static const QRegularExpression scenePlace(QStringLiteral("^scenes\\[(\\d+)\\](.*)$"));
    QStringList elsewhere;
    for (const auto &[place, message] : m_problems) {
        QWidget *field = nullptr;
        if (place == QLatin1String("title"))
            field = m_title;
        else if (place.startsWith(QLatin1String("audience")))
            field = m_audience;
        else if (place.startsWith(QLatin1String("objectives")))
            field = m_objectives;
        else if (place.startsWith(QLatin1String("sources")))
            field = m_sources;
        const QRegularExpressionMatch m = scenePlace.match(place);
        if (m.hasMatch() && m.captured(1).toInt() == m_session->scene()) {
            const QString rest = m.captured(2);
            const std::pair<const char *, QWidget *> fields[] = {
                {".title", m_sceneTitle},
                {".narration", m_narration},
                {".view.fencing", m_fencing},
                {".view.compare", m_compare},
                {".view.from", m_from},
                {".view.to", m_to},
                {".view.playhead", m_playhead},
                {".question.prompt", m_prompt},
                {".question.freeze", m_freeze},
                {".question.explanation", m_explanation},
                {".question.options", m_options},
                {".question", m_options},
                {".preset", m_source},
                {".path", m_source},
                {".scenario", m_source},
                {"", m_source},
            };
            for (const auto &[suffix, widget] : fields)
                if (rest.startsWith(QLatin1String(suffix))) {
                    field = widget;
                    break;
                }
        }
        if (field && m_messages.count(field)) {
            // several at one field (two questions' problems cannot be: one scene shown)
            const QLabel *shown = m_messages[field];
            const QString before =
                shown && !shown->isHidden() ? shown->text() + QLatin1Char('\n') : QString();
            showMessage(field, before + message);
        } else {
            elsewhere << (place.isEmpty() ? message : place + QStringLiteral(": ") + message);
        }
    }
    m_general->setText(elsewhere.join(QLatin1Char('\n')));
    m_general->setVisible(!elsewhere.isEmpty());
}

void LessonEditor::showMessage(QWidget *field, const QString &message)
{
    const auto it = m_messages.find(field);
    if (it == m_messages.end() || !it->second)
        return;
    it->second->setText(message);
    it->second->setVisible(!message.isEmpty());
    static const QString frame = QStringLiteral("border: 2px solid #c0392b; border-radius: 3px;");
    field->setStyleSheet(message.isEmpty() ? QString() : frame);
}

QString LessonEditor::messageAt(const QWidget *field) const
{
    const auto it = m_messages.find(field);
    return it == m_messages.end() || !it->second || it->second->isHidden() ? QString()
                                                                           : it->second->text();
}
