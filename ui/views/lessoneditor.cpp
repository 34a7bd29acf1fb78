// The lesson editor: its fields, and filling them from the lesson (lessoneditor.h). The edits,
// each one undo command, and the problems shown at their fields are in lessoneditor_edits.cpp.

#include "views/lessoneditor.h"

#include "document/lessoncommands.h"
#include "document/lessonsession.h"
#include "views/claimform.h"

#include "document/document.h"
#include "viewstate.h"

#include "lessonplay.h"
#include "tokensource.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>

namespace {

// The lines of a list typed one entry a line; empty lines are no entries.
QStringList lines(const QString &text)
{
    QStringList out;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const QString t = line.trimmed();
        if (!t.isEmpty())
            out << t;
    }
    return out;
}

QString tickText(const std::optional<Core::Tick> &tick)
{
    return tick ? QString::number(*tick) : QString();
}

// A plain text box a few lines high, for narration, a prompt, a list.
QPlainTextEdit *textBox(QWidget *parent, const QString &name, int lines)
{
    auto *box = new QPlainTextEdit(parent);
    box->setObjectName(name);
    box->setTabChangesFocus(true);
    box->setFixedHeight(box->fontMetrics().lineSpacing() * lines + 12);
    return box;
}

QLineEdit *tickEdit(QWidget *parent, const QString &name, const QString &placeholder)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    edit->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,15}")), edit));
    return edit;
}

} // namespace

LessonEditor::LessonEditor(Document *doc, ViewState *state, QWidget *parent)
    : QWidget(parent), m_doc(doc), m_state(state)
{
    setObjectName(QStringLiteral("lessonEditor"));
    build();
    refresh();
}

QPushButton *LessonEditor::button(const QString &objectName) const
{
    for (QPushButton *b : m_buttons)
        if (b->objectName() == objectName)
            return b;
    return nullptr;
}

void LessonEditor::build()
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    const auto makeButton = [this](QWidget *parent, const QString &name, const QString &text,
                                   const QString &tip, std::function<void()> act) {
        auto *b = new QPushButton(text, parent);
        b->setObjectName(name);
        b->setToolTip(tip);
        b->setAutoDefault(false);
        connect(b, &QPushButton::clicked, this, std::move(act));
        m_buttons.push_back(b);
        return b;
    };
    const auto slot = [this](void (LessonEditor::*member)()) {
        return [this, member] { (this->*member)(); };
    };

    // no lesson open: start one from what the window shows
    m_empty = new QWidget(this);
    auto *emptyCol = new QVBoxLayout(m_empty);
    auto *emptyText = new QLabel(tr("No lesson is open. Open one (File > Open Lesson…, Help > "
                                    "Lessons), or start one from the scenario shown."),
                                 m_empty);
    emptyText->setWordWrap(true);
    emptyCol->addWidget(emptyText);
    auto *start = new QPushButton(tr("New lesson from this scenario"), m_empty);
    start->setObjectName(QStringLiteral("lessonNew"));
    connect(start, &QPushButton::clicked, this, [this] { emit newLessonRequested(newLesson()); });
    m_buttons.push_back(start);
    emptyCol->addWidget(start);
    emptyCol->addStretch(1);
    outer->addWidget(m_empty);

    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_content = new QWidget;
    m_scroll->setWidget(m_content);
    outer->addWidget(m_scroll);
    auto *col = new QVBoxLayout(m_content);

    auto *top = new QHBoxLayout;
    m_undo = new QToolButton(m_content);
    m_undo->setObjectName(QStringLiteral("lessonUndo"));
    m_redo = new QToolButton(m_content);
    m_redo->setObjectName(QStringLiteral("lessonRedo"));
    top->addWidget(m_undo);
    top->addWidget(m_redo);
    top->addStretch(1);
    auto *save = new QPushButton(tr("Save"), m_content);
    save->setObjectName(QStringLiteral("lessonSave"));
    connect(save, &QPushButton::clicked, this, &LessonEditor::saveRequested);
    auto *saveAs = new QPushButton(tr("Save As…"), m_content);
    saveAs->setObjectName(QStringLiteral("lessonSaveAs"));
    connect(saveAs, &QPushButton::clicked, this, &LessonEditor::saveAsRequested);
    m_buttons.push_back(save);
    m_buttons.push_back(saveAs);
    top->addWidget(save);
    top->addWidget(saveAs);
    col->addLayout(top);
    m_general = new QLabel(m_content);
    m_general->setObjectName(QStringLiteral("lessonProblems"));
    m_general->setWordWrap(true);
    m_general->setStyleSheet(QStringLiteral("color: #c0392b;"));
    col->addWidget(m_general);

    // fields with a message under each (a problem at its place)
    const auto addField = [this](QFormLayout *form, const QString &label, QWidget *field) {
        auto *box = new QWidget(field->parentWidget());
        auto *v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(2);
        field->setParent(box);
        v->addWidget(field);
        auto *message = new QLabel(box);
        message->setObjectName(field->objectName() + QStringLiteral("Message"));
        message->setWordWrap(true);
        message->setStyleSheet(QStringLiteral("color: #c0392b;"));
        message->hide();
        v->addWidget(message);
        m_messages[field] = message;
        form->addRow(label, box);
    };

    auto *lessonBox = new QGroupBox(tr("Lesson"), m_content);
    auto *lessonForm = new QFormLayout(lessonBox);
    m_title = new QLineEdit(lessonBox);
    m_title->setObjectName(QStringLiteral("lessonTitleEdit"));
    m_audience = new QLineEdit(lessonBox);
    m_audience->setObjectName(QStringLiteral("lessonAudienceEdit"));
    m_objectives = textBox(lessonBox, QStringLiteral("lessonObjectivesEdit"), 3);
    m_objectives->setPlaceholderText(tr("One objective a line"));
    m_sources = textBox(lessonBox, QStringLiteral("lessonSourcesEdit"), 3);
    m_sources->setPlaceholderText(tr("One source a line: a file, a section, an issue"));
    addField(lessonForm, tr("Title"), m_title);
    addField(lessonForm, tr("Audience"), m_audience);
    addField(lessonForm, tr("Objectives"), m_objectives);
    addField(lessonForm, tr("Sources"), m_sources);
    col->addWidget(lessonBox);

    auto *scenesBox = new QGroupBox(tr("Scenes"), m_content);
    auto *scenesCol = new QVBoxLayout(scenesBox);
    m_scenes = new QListWidget(scenesBox);
    m_scenes->setObjectName(QStringLiteral("lessonScenes"));
    m_scenes->setMaximumHeight(m_scenes->fontMetrics().lineSpacing() * 7 + 8);
    scenesCol->addWidget(m_scenes);
    connect(m_scenes, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!m_filling && m_session && row >= 0)
            m_session->setScene(row);
    });
    auto *sceneButtons = new QHBoxLayout;
    sceneButtons->addWidget(makeButton(scenesBox, QStringLiteral("lessonAddScene"),
                                       tr("Add from window"),
                                       tr("A new scene after this one: the scenario and view the "
                                          "window shows"),
                                       slot(&LessonEditor::addScene)));
    sceneButtons->addWidget(makeButton(scenesBox, QStringLiteral("lessonKeepRun"),
                                       tr("Keep run shown"),
                                       tr("This scene's scenario becomes the one the window "
                                          "shows (with your changes)"),
                                       slot(&LessonEditor::keepRunForScene)));
    auto *up = makeButton(scenesBox, QStringLiteral("lessonSceneUp"), tr("▲"),
                          tr("Move the scene up"), [this] { moveScene(-1); });
    auto *down = makeButton(scenesBox, QStringLiteral("lessonSceneDown"), tr("▼"),
                            tr("Move the scene down"), [this] { moveScene(1); });
    sceneButtons->addWidget(up);
    sceneButtons->addWidget(down);
    sceneButtons->addWidget(makeButton(scenesBox, QStringLiteral("lessonDeleteScene"), tr("Delete"),
                                       tr("Delete this scene"), slot(&LessonEditor::deleteScene)));
    scenesCol->addLayout(sceneButtons);
    col->addWidget(scenesBox);

    auto *sceneBox = new QGroupBox(tr("This scene"), m_content);
    auto *sceneForm = new QFormLayout(sceneBox);
    m_source = new QLabel(sceneBox);
    m_source->setObjectName(QStringLiteral("lessonSceneSource"));
    m_source->setWordWrap(true);
    m_sceneTitle = new QLineEdit(sceneBox);
    m_sceneTitle->setObjectName(QStringLiteral("lessonSceneTitleEdit"));
    m_sceneTitle->setPlaceholderText(tr("empty: the scenario's title"));
    m_narration = textBox(sceneBox, QStringLiteral("lessonNarrationEdit"), 5);
    m_narration->setPlaceholderText(tr("A few sentences: **bold**, *italics*, `code`"));
    m_fencing = new QComboBox(sceneBox);
    m_fencing->setObjectName(QStringLiteral("lessonFencing"));
    m_fencing->addItem(tr("the scenario's own switch"), -1);
    m_fencing->addItem(tr("on"), 1);
    m_fencing->addItem(tr("off"), 0);
    m_compare = new QComboBox(sceneBox);
    m_compare->setObjectName(QStringLiteral("lessonCompare"));
    m_compare->addItem(tr("no compare"), -2);
    m_compare->addItem(tr("fenced over unfenced"), -1);
    for (int i = 0; i < Core::kTokenSourceCount; ++i)
        m_compare->addItem(tr("over %1 tokens").arg(Core::toString(Core::TokenSource(i))), i);
    m_from = tickEdit(sceneBox, QStringLiteral("lessonFrom"), tr("the run's start"));
    m_to = tickEdit(sceneBox, QStringLiteral("lessonTo"), tr("the run's end"));
    m_playhead = tickEdit(sceneBox, QStringLiteral("lessonPlayhead"), tr("before the first step"));
    addField(sceneForm, tr("Scenario"), m_source);
    addField(sceneForm, tr("Title"), m_sceneTitle);
    addField(sceneForm, tr("Narration"), m_narration);
    addField(sceneForm, tr("Fencing"), m_fencing);
    addField(sceneForm, tr("Compare"), m_compare);
    addField(sceneForm, tr("From tick"), m_from);
    addField(sceneForm, tr("To tick"), m_to);
    addField(sceneForm, tr("Playhead at"), m_playhead);
    col->addWidget(sceneBox);

    m_questionBox = new QGroupBox(tr("Question"), m_content);
    auto *qCol = new QVBoxLayout(m_questionBox);
    auto *qButtons = new QHBoxLayout;
    qButtons->addWidget(makeButton(m_questionBox, QStringLiteral("lessonAddQuestion"),
                                   tr("Add a question"),
                                   tr("A question for this scene, frozen at the playhead; or "
                                      "right-click a write: “Ask what happens to this write”"),
                                   slot(&LessonEditor::addQuestion)));
    qButtons->addWidget(makeButton(m_questionBox, QStringLiteral("lessonRemoveQuestion"),
                                   tr("Remove the question"), {},
                                   slot(&LessonEditor::removeQuestion)));
    qButtons->addStretch(1);
    qCol->addLayout(qButtons);
    m_questionFields = new QWidget(m_questionBox);
    auto *qForm = new QFormLayout(m_questionFields);
    qForm->setContentsMargins(0, 0, 0, 0);
    m_prompt = textBox(m_questionFields, QStringLiteral("lessonPromptEdit"), 2);
    m_freeze = tickEdit(m_questionFields, QStringLiteral("lessonFreeze"), {});
    auto *freezeRow = new QWidget(m_questionFields);
    auto *freezeLine = new QHBoxLayout(freezeRow);
    freezeLine->setContentsMargins(0, 0, 0, 0);
    m_freeze->setParent(freezeRow);
    freezeLine->addWidget(m_freeze, 1);
    freezeLine->addWidget(makeButton(freezeRow, QStringLiteral("lessonFreezeFromPlayhead"),
                                     tr("From the playhead"),
                                     tr("The run stops at the playhead's tick before the reveal"),
                                     slot(&LessonEditor::freezeFromPlayhead)));
    m_options = new QListWidget(m_questionFields);
    m_options->setObjectName(QStringLiteral("lessonOptions"));
    m_options->setWordWrap(true);
    m_options->setMaximumHeight(m_options->fontMetrics().lineSpacing() * 6 + 8);
    m_feedback = new QLineEdit(m_questionFields);
    m_feedback->setObjectName(QStringLiteral("lessonFeedbackEdit"));
    m_feedback->setPlaceholderText(tr("the misconception behind the option, shown at the reveal"));
    m_claim = new ClaimForm(m_questionFields);
    auto *optionButtons = new QHBoxLayout;
    optionButtons->addWidget(makeButton(m_questionFields, QStringLiteral("lessonAddOption"),
                                        tr("Add as option"), tr("The claim below, as a new option"),
                                        slot(&LessonEditor::addOption)));
    optionButtons->addWidget(makeButton(m_questionFields, QStringLiteral("lessonReplaceOption"),
                                        tr("Replace option"),
                                        tr("The selected option says the claim below instead"),
                                        slot(&LessonEditor::replaceOption)));
    optionButtons->addWidget(makeButton(m_questionFields, QStringLiteral("lessonRemoveOption"),
                                        tr("Remove option"), {},
                                        slot(&LessonEditor::removeOption)));
    m_explanation = textBox(m_questionFields, QStringLiteral("lessonExplanationEdit"), 3);
    m_verdict = new QLabel(m_questionFields);
    m_verdict->setObjectName(QStringLiteral("lessonEditorVerdict"));
    m_verdict->setWordWrap(true);
    addField(qForm, tr("Prompt"), m_prompt);
    qForm->addRow(tr("Freeze tick"), freezeRow);
    m_messages[m_freeze] = nullptr; // set below: the row's message is under the whole row
    addField(qForm, tr("Options"), m_options);
    addField(qForm, tr("Feedback"), m_feedback);
    qForm->addRow(tr("Claim"), m_claim);
    qForm->addRow(QString(), [&] {
        auto *w = new QWidget(m_questionFields);
        w->setLayout(optionButtons);
        return w;
    }());
    addField(qForm, tr("Explanation"), m_explanation);
    qForm->addRow(m_verdict);
    // the freeze tick's message, under its row
    auto *freezeMessage = new QLabel(m_questionFields);
    freezeMessage->setObjectName(QStringLiteral("lessonFreezeMessage"));
    freezeMessage->setWordWrap(true);
    freezeMessage->setStyleSheet(QStringLiteral("color: #c0392b;"));
    freezeMessage->hide();
    qForm->insertRow(2, QString(), freezeMessage);
    m_messages[m_freeze] = freezeMessage;
    qCol->addWidget(m_questionFields);
    col->addWidget(m_questionBox);
    col->addStretch(1);

    // typing: one command per field's typing session
    connect(m_title, &QLineEdit::textEdited, this, [this](const QString &t) {
        push(LessonCommands::setTitle(m_session, t, typing(m_title)));
    });
    connect(m_audience, &QLineEdit::textEdited, this, [this](const QString &t) {
        push(LessonCommands::setAudience(m_session, t, typing(m_audience)));
    });
    connect(m_objectives, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_filling && lines(m_objectives->toPlainText()) != m_session->lesson().objectives)
            push(LessonCommands::setObjectives(m_session, lines(m_objectives->toPlainText()),
                                               typing(m_objectives)));
    });
    connect(m_sources, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_filling && lines(m_sources->toPlainText()) != m_session->lesson().sources)
            push(LessonCommands::setSources(m_session, lines(m_sources->toPlainText()),
                                            typing(m_sources)));
    });
    connect(m_sceneTitle, &QLineEdit::textEdited, this, [this](const QString &t) {
        push(LessonCommands::setSceneTitle(m_session, m_session->scene(), t, typing(m_sceneTitle)));
    });
    connect(m_narration, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_filling && m_narration->toPlainText() != m_session->currentScene().narration)
            push(LessonCommands::setNarration(m_session, m_session->scene(),
                                              m_narration->toPlainText(), typing(m_narration)));
    });
    connect(m_prompt, &QPlainTextEdit::textChanged, this, [this] {
        const std::optional<Core::LessonQuestion> &q = m_session->currentScene().question;
        if (!m_filling && q && m_prompt->toPlainText() != q->prompt)
            push(LessonCommands::setPrompt(m_session, m_session->scene(), m_prompt->toPlainText(),
                                           typing(m_prompt)));
    });
    connect(m_explanation, &QPlainTextEdit::textChanged, this, [this] {
        const std::optional<Core::LessonQuestion> &q = m_session->currentScene().question;
        if (!m_filling && q && m_explanation->toPlainText() != q->explanation)
            push(LessonCommands::setExplanation(m_session, m_session->scene(),
                                                m_explanation->toPlainText(),
                                                typing(m_explanation)));
    });
    connect(m_freeze, &QLineEdit::textEdited, this, &LessonEditor::editFreeze);
    connect(m_feedback, &QLineEdit::textEdited, this, &LessonEditor::editFeedback);
    for (QComboBox *box : {m_fencing, m_compare})
        connect(box, &QComboBox::activated, this, [this] { editView(0); });
    for (QLineEdit *edit : {m_from, m_to, m_playhead})
        connect(edit, &QLineEdit::textEdited, this, [this, edit] { editView(typing(edit)); });
    connect(m_options, &QListWidget::currentRowChanged, this, [this](int row) {
        if (m_filling || !m_session)
            return;
        const std::optional<Core::LessonQuestion> &q = m_session->currentScene().question;
        const bool picked = q && row >= 0 && std::size_t(row) < q->options.size();
        if (picked) {
            m_claim->setClaim(q->options[std::size_t(row)].claim);
            m_feedback->setText(q->options[std::size_t(row)].feedback);
        }
        m_feedback->setEnabled(row >= 0);
        // an option picked can be replaced or removed
        button(QStringLiteral("lessonReplaceOption"))->setEnabled(picked);
        button(QStringLiteral("lessonRemoveOption"))->setEnabled(picked);
    });

    // the editor's own keys: Ctrl+Z in it is the lesson's undo, and typing starts a new
    // undo step in a field the focus comes back to
    for (QWidget *w : m_content->findChildren<QWidget *>())
        if (w->focusPolicy() != Qt::NoFocus)
            w->installEventFilter(this);
}

void LessonEditor::setFontScale(double scale)
{
    QFont f = QWidget().font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * scale);
    setFont(f);
}

void LessonEditor::setSession(LessonSession *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    m_undo->setDefaultAction(nullptr);
    m_redo->setDefaultAction(nullptr);
    for (QAction *a : actions())
        removeAction(a);
    if (session) {
        QAction *undo = session->undoStack()->createUndoAction(this, tr("Undo"));
        undo->setObjectName(QStringLiteral("lessonUndoAction"));
        QAction *redo = session->undoStack()->createRedoAction(this, tr("Redo"));
        redo->setObjectName(QStringLiteral("lessonRedoAction"));
        m_undo->setDefaultAction(undo);
        m_redo->setDefaultAction(redo);
        connect(session, &LessonSession::lessonChanged, this, &LessonEditor::refresh);
        connect(session, &LessonSession::sceneChanged, this, &LessonEditor::refresh);
        connect(session, &LessonSession::sceneMoved, this, &LessonEditor::refresh);
        connect(session, &QObject::destroyed, this, [this] { setSession(nullptr); });
    }
    refresh();
}

void LessonEditor::refresh()
{
    m_empty->setVisible(!m_session);
    m_scroll->setVisible(m_session != nullptr);
    if (!m_session)
        return;
    m_filling = true;
    checkProblems();
    fillLesson();
    fillScene();
    fillQuestion();
    m_filling = false;
}

void LessonEditor::fillLesson()
{
    const Core::Lesson &l = m_session->lesson();
    // a field shows the lesson's value unless what is typed there already says it (the
    // cursor stays where it is while typing)
    if (m_title->text() != l.title)
        m_title->setText(l.title);
    if (m_audience->text() != l.audience)
        m_audience->setText(l.audience);
    if (lines(m_objectives->toPlainText()) != l.objectives)
        m_objectives->setPlainText(l.objectives.join(QLatin1Char('\n')));
    if (lines(m_sources->toPlainText()) != l.sources)
        m_sources->setPlainText(l.sources.join(QLatin1Char('\n')));
    m_scenes->clear();
    for (int i = 0; i < m_session->sceneCount(); ++i) {
        const Core::LessonScene &s = l.scenes[std::size_t(i)];
        const QString prefix = QStringLiteral("scenes[%1]").arg(i);
        bool problem = false;
        for (const auto &[place, message] : m_problems)
            problem = problem || place == prefix || place.startsWith(prefix + QLatin1Char('.'));
        m_scenes->addItem(QStringLiteral("%1%2. %3%4")
                              .arg(problem ? QStringLiteral("⚠ ") : QString())
                              .arg(i + 1)
                              .arg(s.title.isEmpty() ? s.scenario.title : s.title)
                              .arg(s.question ? tr(" (question)") : QString()));
    }
    m_scenes->setCurrentRow(m_session->scene());
    button(QStringLiteral("lessonSceneUp"))->setEnabled(m_session->scene() > 0);
    button(QStringLiteral("lessonSceneDown"))
        ->setEnabled(m_session->scene() + 1 < m_session->sceneCount());
    button(QStringLiteral("lessonDeleteScene"))->setEnabled(m_session->sceneCount() > 1);
}

void LessonEditor::fillScene()
{
    const Core::LessonScene &s = m_session->currentScene();
    switch (s.source) {
    case Core::SceneSource::Preset:
        m_source->setText(tr("the built-in scenario “%1”").arg(s.reference));
        break;
    case Core::SceneSource::Path:
        m_source->setText(tr("the file %1").arg(s.reference));
        break;
    case Core::SceneSource::Inline:
        m_source->setText(tr("“%1”, kept in the lesson").arg(s.scenario.title));
        break;
    }
    if (m_sceneTitle->text() != s.title)
        m_sceneTitle->setText(s.title);
    if (m_narration->toPlainText() != s.narration)
        m_narration->setPlainText(s.narration);
    const Core::SceneView &v = s.view;
    m_fencing->setCurrentIndex(m_fencing->findData(v.fencing ? int(*v.fencing) : -1));
    m_compare->setCurrentIndex(m_compare->findData(v.compare == Core::SceneCompare::Off ? -2
                                                   : v.compare == Core::SceneCompare::Fencing
                                                       ? -1
                                                       : int(v.compareSource)));
    for (const auto &[edit, tick] :
         {std::pair{m_from, v.from}, std::pair{m_to, v.to}, std::pair{m_playhead, v.playhead}})
        if (edit->text() != tickText(tick))
            edit->setText(tickText(tick));
}

void LessonEditor::fillQuestion()
{
    const Core::LessonScene &s = m_session->currentScene();
    const std::optional<Core::LessonQuestion> &q = s.question;
    m_questionFields->setVisible(q.has_value());
    button(QStringLiteral("lessonAddQuestion"))->setVisible(!q);
    button(QStringLiteral("lessonRemoveQuestion"))->setVisible(q.has_value());
    // the claims name what the scene's scenario has
    m_claim->setScene(s.scenario, m_session->sceneRun());
    if (!q)
        return;
    if (m_prompt->toPlainText() != q->prompt)
        m_prompt->setPlainText(q->prompt);
    if (m_freeze->text() != QString::number(q->freeze))
        m_freeze->setText(QString::number(q->freeze));
    if (m_explanation->toPlainText() != q->explanation)
        m_explanation->setPlainText(q->explanation);
    const int row = m_options->currentRow();
    m_options->clear();
    for (std::size_t i = 0; i < q->options.size(); ++i)
        m_options->addItem(Core::optionLine(*q, i));
    const int selected = std::min(row, int(q->options.size()) - 1);
    m_options->setCurrentRow(selected);
    m_feedback->setEnabled(selected >= 0);
    const QString feedback = selected >= 0 ? q->options[std::size_t(selected)].feedback : QString();
    if (m_feedback->text() != feedback)
        m_feedback->setText(feedback);
    button(QStringLiteral("lessonReplaceOption"))->setEnabled(selected >= 0);
    button(QStringLiteral("lessonRemoveOption"))->setEnabled(selected >= 0);
    button(QStringLiteral("lessonAddOption"))->setEnabled(q->options.size() < 5);
    // which option holds in the scene's run, as core judges it
    const Core::ScenePlay play = Core::playScene(s);
    m_verdict->setText(play.right() >= 0
                           ? tr("In the scene's run, option %1 holds (settled at t=%2).")
                                 .arg(Core::optionLetter(std::size_t(play.right())))
                                 .arg(play.reveal())
                           : QString());
}

bool LessonEditor::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::FocusIn)
        m_typing.erase(watched); // a new typing session: a new undo step
    if ((event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) &&
        m_session) {
        auto *key = static_cast<QKeyEvent *>(event);
        const bool undo = key->matches(QKeySequence::Undo);
        const bool redo = key->matches(QKeySequence::Redo) ||
                          (key->key() == Qt::Key_Z &&
                           key->modifiers() == (Qt::ControlModifier | Qt::ShiftModifier));
        if (undo || redo) {
            // the lesson's undo, not the field's own nor the scenario's: every edit here is
            // a step of the lesson's history
            key->accept();
            if (event->type() == QEvent::KeyPress) {
                m_typing.erase(watched);
                undo ? m_session->undoStack()->undo() : m_session->undoStack()->redo();
            }
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

int LessonEditor::typing(QObject *field)
{
    const auto it = m_typing.find(field);
    if (it != m_typing.end())
        return it->second;
    return m_typing[field] = m_nextTyping++;
}
