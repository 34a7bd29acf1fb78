#include "views/lessonpanel.h"

#include "document/lessonsession.h"
#include "views/lessontext.h"

#include "document/changethrottle.h"

#include "lessonplay.h"

#include <QButtonGroup>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <cmath>

namespace {

// A click on an option's words picks it, as a click on its button does.
class PickOnClick : public QObject
{
public:
    PickOnClick(QLabel *label, QRadioButton *button) : QObject(label), m_button(button)
    {
        label->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::MouseButtonRelease && m_button->isEnabled() &&
            static_cast<QMouseEvent *>(event)->button() == Qt::LeftButton)
            m_button->click();
        return QObject::eventFilter(watched, event);
    }

private:
    QRadioButton *m_button;
};

} // namespace

LessonPanel::LessonPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("lessonPanel"));
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(10, 8, 10, 8);
    m_lessonTitle = LessonText::label(this, QStringLiteral("lessonTitle"));
    m_objectives = LessonText::label(this, QStringLiteral("lessonObjectives"));
    auto *nav = new QHBoxLayout;
    m_previous = new QPushButton(tr("◀ Scene"), this);
    m_previous->setObjectName(QStringLiteral("lessonPreviousScene"));
    m_previous->setToolTip(tr("The scene before (Alt+Left)"));
    m_position = new QLabel(this);
    m_position->setObjectName(QStringLiteral("lessonPosition"));
    m_position->setAlignment(Qt::AlignCenter);
    m_next = new QPushButton(tr("Scene ▶"), this);
    m_next->setObjectName(QStringLiteral("lessonNextScene"));
    m_next->setToolTip(tr("The scene after (Alt+Right)"));
    nav->addWidget(m_previous);
    nav->addWidget(m_position, 1);
    nav->addWidget(m_next);
    connect(m_previous, &QPushButton::clicked, this, &LessonPanel::previousScene);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::nextScene);
    m_sceneTitle = LessonText::label(this, QStringLiteral("lessonSceneTitle"));
    m_narration = LessonText::label(this, QStringLiteral("lessonNarration"), Qt::RichText);

    m_question = new QWidget(this);
    auto *q = new QVBoxLayout(m_question);
    q->setContentsMargins(0, 6, 0, 0);
    auto *ownRow = new QHBoxLayout;
    m_own = LessonText::label(m_question, QStringLiteral("lessonOwnQuestion"));
    m_dropOwn = new QPushButton(tr("Back to the scene's question"), m_question);
    m_dropOwn->setObjectName(QStringLiteral("lessonDropOwn"));
    ownRow->addWidget(m_own, 1);
    ownRow->addWidget(m_dropOwn);
    q->addLayout(ownRow);
    m_prompt = LessonText::label(m_question, QStringLiteral("lessonPrompt"), Qt::RichText);
    q->addWidget(m_prompt);
    auto *grid = new QGridLayout;
    grid->setColumnStretch(1, 1);
    grid->setVerticalSpacing(2);
    m_group = new QButtonGroup(this);
    for (int i = 0; i < LessonSession::kOptions; ++i) {
        Row r;
        r.button = new QRadioButton(Core::optionLetter(std::size_t(i)), m_question);
        r.button->setObjectName(QStringLiteral("lessonOption%1").arg(i));
        r.text = LessonText::label(m_question, QStringLiteral("lessonOptionText%1").arg(i));
        new PickOnClick(r.text, r.button);
        r.mark = LessonText::label(m_question, QStringLiteral("lessonMark%1").arg(i));
        r.mark->setWordWrap(false);
        r.feedback =
            LessonText::label(m_question, QStringLiteral("lessonFeedback%1").arg(i), Qt::RichText);
        m_group->addButton(r.button, i);
        grid->addWidget(r.button, 2 * i, 0, Qt::AlignTop);
        grid->addWidget(r.text, 2 * i, 1);
        grid->addWidget(r.mark, 2 * i, 2, Qt::AlignTop);
        grid->addWidget(r.feedback, 2 * i + 1, 1, 1, 2);
        m_rows.push_back(r);
    }
    q->addLayout(grid);
    connect(m_group, &QButtonGroup::idClicked, this, [this](int id) {
        if (!m_filling && m_session)
            m_session->setPicked(id);
    });
    m_check = new QPushButton(tr("Check my answer"), m_question);
    m_check->setObjectName(QStringLiteral("lessonCheck"));
    m_check->setToolTip(tr("Play the run on to the event that decides the question"));
    connect(m_check, &QPushButton::clicked, this, &LessonPanel::revealRequested);
    auto *checkRow = new QHBoxLayout;
    checkRow->addWidget(m_check);
    checkRow->addStretch(1);
    q->addLayout(checkRow);
    m_problem = LessonText::label(m_question, QStringLiteral("lessonProblem"));
    m_verdict = LessonText::label(m_question, QStringLiteral("lessonVerdict"));
    m_reveal = LessonText::label(m_question, QStringLiteral("lessonReveal"));
    m_explanation =
        LessonText::label(m_question, QStringLiteral("lessonExplanation"), Qt::RichText);
    q->addWidget(m_problem);
    q->addWidget(m_verdict);
    q->addWidget(m_reveal);
    q->addWidget(m_explanation);

    m_changed = LessonText::label(this, QStringLiteral("lessonChanged"));
    m_sceneRun = new QPushButton(tr("Back to the scene's run"), this);
    m_sceneRun->setObjectName(QStringLiteral("lessonSceneRun"));
    connect(m_sceneRun, &QPushButton::clicked, this, &LessonPanel::sceneRunRequested);
    connect(m_dropOwn, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->setOwnQuestion(std::nullopt);
    });
    m_predictHint = LessonText::label(this, QStringLiteral("lessonPredictHint"));
    m_predictHint->setText(tr("Change the run (drag a pause, a lease, a write) and the "
                              "marks follow it. Right-click a write and choose “Predict…” to "
                              "ask what will happen to it."));

    col->addWidget(m_lessonTitle);
    col->addWidget(m_objectives);
    col->addLayout(nav);
    col->addWidget(m_sceneTitle);
    col->addWidget(m_narration);
    col->addWidget(m_question);
    col->addWidget(m_changed);
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_sceneRun);
    runRow->addStretch(1);
    col->addLayout(runRow);
    col->addWidget(m_predictHint);
    col->addStretch(1);
    setTheme(m_theme);
}

void LessonPanel::setSession(LessonSession *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    if (session) {
        connect(session, &LessonSession::answerChanged, this, &LessonPanel::refresh);
        connect(session, &LessonSession::lessonChanged, this, &LessonPanel::refresh);
        connect(session, &LessonSession::sceneChanged, this, &LessonPanel::refresh);
        connect(session, &LessonSession::sceneMoved, this, &LessonPanel::refresh);
        // the marks follow the run the window shows, paced like the other whole-run views
        new ChangeThrottle(session->document(), session, [this] { refresh(); });
    }
    refresh();
}

void LessonPanel::setTheme(const Theme &theme)
{
    m_theme = theme;
    applyFonts();
    refresh();
}

void LessonPanel::setRevealing(bool revealing)
{
    m_revealing = revealing;
    refresh();
}

void LessonPanel::applyFonts()
{
    // the side views' text grows with the theme (the lecture hall), as the inspector's does
    QFont base = QWidget().font();
    if (base.pointSizeF() > 0)
        base.setPointSizeF(base.pointSizeF() * m_theme.fontScale);
    else
        base.setPixelSize(int(std::lround(base.pixelSize() * m_theme.fontScale)));
    setFont(base);
    QFont bold = base;
    bold.setBold(true);
    QFont large = bold;
    if (large.pointSizeF() > 0)
        large.setPointSizeF(large.pointSizeF() * 1.2);
    m_lessonTitle->setFont(large);
    m_sceneTitle->setFont(bold);
    m_verdict->setFont(bold);
    m_problem->setStyleSheet(QStringLiteral("color: %1;").arg(m_theme.corruptedText.name()));
    m_objectives->setStyleSheet(QStringLiteral("color: %1;").arg(m_theme.muted.name()));
    m_predictHint->setStyleSheet(QStringLiteral("color: %1;").arg(m_theme.muted.name()));
}

QRadioButton *LessonPanel::optionButton(int option) const
{
    if (option < 0 || std::size_t(option) >= m_rows.size() ||
        m_rows[std::size_t(option)].button->isHidden())
        return nullptr;
    return m_rows[std::size_t(option)].button;
}

void LessonPanel::refresh()
{
    m_filling = true;
    const LessonSession *s = m_session;
    setEnabled(s != nullptr);
    if (!s) {
        m_lessonTitle->setText(tr("No lesson is open. File > Open Lesson…, or Help > Lessons."));
        for (QWidget *w :
             {static_cast<QWidget *>(m_objectives), static_cast<QWidget *>(m_previous),
              static_cast<QWidget *>(m_next), static_cast<QWidget *>(m_position),
              static_cast<QWidget *>(m_sceneTitle), static_cast<QWidget *>(m_narration), m_question,
              static_cast<QWidget *>(m_changed), static_cast<QWidget *>(m_sceneRun),
              static_cast<QWidget *>(m_predictHint)})
            w->hide();
        setEnabled(true);
        m_filling = false;
        return;
    }
    for (QWidget *w : {static_cast<QWidget *>(m_previous), static_cast<QWidget *>(m_next),
                       static_cast<QWidget *>(m_position), static_cast<QWidget *>(m_sceneTitle),
                       static_cast<QWidget *>(m_predictHint)})
        w->show();
    const Core::Lesson &lesson = s->lesson();
    const Core::LessonScene &scene = s->currentScene();
    m_lessonTitle->setText(lesson.title);
    // the objectives with the first scene: what the lesson is for, before it starts
    QStringList goals;
    for (const QString &o : lesson.objectives)
        goals << QStringLiteral("• ") + o;
    m_objectives->setText(goals.isEmpty()
                              ? QString()
                              : tr("You will learn to:\n%1").arg(goals.join(QLatin1Char('\n'))));
    m_objectives->setVisible(s->scene() == 0 && !goals.isEmpty());
    m_position->setText(tr("Scene %1 of %2").arg(s->scene() + 1).arg(s->sceneCount()));
    m_previous->setEnabled(s->scene() > 0);
    m_next->setEnabled(s->scene() + 1 < s->sceneCount());
    m_sceneTitle->setText(scene.title.isEmpty() ? scene.scenario.title : scene.title);
    m_narration->setText(LessonText::html(scene.narration, m_narration->font()));
    m_narration->setVisible(!scene.narration.isEmpty());

    const Core::LessonQuestion *q = s->question();
    m_question->setVisible(q != nullptr);
    const bool own = s->ownQuestion().has_value();
    m_own->setText(tr("Your own question, on the run as it is now:"));
    m_own->setVisible(own);
    m_dropOwn->setVisible(own && scene.question.has_value());
    if (q) {
        const LessonSession::Answer &a = s->currentAnswer();
        const bool revealed = a.revealed && !m_revealing;
        const Core::ScenePlay &play = s->play();
        const QString problem = s->problem();
        m_promptText = q->prompt;
        QFont promptFont = font();
        promptFont.setBold(true);
        m_prompt->setText(LessonText::html(q->prompt, promptFont));
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            Row &r = m_rows[i];
            const bool shown = i < q->options.size();
            for (QWidget *w : {static_cast<QWidget *>(r.button), static_cast<QWidget *>(r.text),
                               static_cast<QWidget *>(r.mark)})
                w->setVisible(shown);
            if (!shown) {
                r.feedback->hide();
                continue;
            }
            r.button->setChecked(a.picked == int(i));
            r.button->setEnabled(!revealed);
            r.text->setText(Core::claimText(q->options[i].claim));
            const bool holds =
                play.verdict && i < play.verdict->options.size() && play.verdict->options[i].holds;
            r.mark->setText(revealed ? (holds ? QStringLiteral("✓") : QStringLiteral("✗"))
                                     : QString());
            r.mark->setStyleSheet(
                QStringLiteral("color: %1; font-weight: bold;")
                    .arg((holds ? m_theme.acceptedText : m_theme.corruptedText).name()));
            const QString feedback = q->options[i].feedback;
            r.feedback->setText(LessonText::html(feedback, r.feedback->font()));
            r.feedback->setStyleSheet(QStringLiteral("color: %1;").arg(m_theme.muted.name()));
            r.feedback->setVisible(revealed && !holds && !feedback.isEmpty());
        }
        if (a.picked < 0) {
            // no pick: the group may still show an old one
            m_group->setExclusive(false);
            for (const Row &r : m_rows)
                r.button->setChecked(false);
            m_group->setExclusive(true);
        }
        m_check->setVisible(!revealed);
        m_check->setEnabled(a.picked >= 0 && !m_revealing);
        m_problem->setText(problem.isEmpty()
                               ? QString()
                               : tr("This question says nothing on this run: %1").arg(problem));
        m_problem->setVisible(!problem.isEmpty());
        QString verdict;
        if (revealed && problem.isEmpty() && play.right() >= 0) {
            const QString right = Core::optionLetter(std::size_t(play.right()));
            if (a.picked == play.right())
                verdict = tr("Right: %1 holds.").arg(right);
            else if (a.picked >= 0)
                verdict = tr("Not quite: you picked %1; %2 holds.")
                              .arg(Core::optionLetter(std::size_t(a.picked)), right);
            else
                verdict = tr("%1 holds.").arg(right);
        }
        m_verdict->setText(verdict);
        m_verdict->setVisible(!verdict.isEmpty());
        m_reveal->setText(revealed ? s->revealWords() : QString());
        m_reveal->setVisible(revealed && !m_reveal->text().isEmpty());
        m_explanation->setText(revealed ? LessonText::html(q->explanation, m_explanation->font())
                                        : QString());
        m_explanation->setVisible(revealed && !q->explanation.isEmpty());
    }
    const bool detached = s->isDetached();
    const bool changed = !detached && !s->showsSceneAsWritten();
    m_changed->setText(detached ? tr("The window shows another scenario than this scene's.")
                                : tr("You changed this scene's run: the question is judged on "
                                     "your run."));
    m_changed->setVisible(detached || changed);
    m_sceneRun->setText(detached ? tr("Back to scene %1").arg(s->scene() + 1)
                                 : tr("Back to the scene's run"));
    m_sceneRun->setVisible(detached || changed);
    m_filling = false;
}

QString LessonPanel::position() const
{
    return m_position->text();
}

QString LessonPanel::prompt() const
{
    return m_question->isVisibleTo(this) ? m_promptText : QString();
}

QString LessonPanel::verdictText() const
{
    return m_verdict->isHidden() ? QString() : m_verdict->text();
}

QString LessonPanel::problemText() const
{
    return m_problem->isHidden() ? QString() : m_problem->text();
}

QString LessonPanel::feedbackText(int option) const
{
    if (option < 0 || std::size_t(option) >= m_rows.size() || !m_session ||
        m_rows[std::size_t(option)].feedback->isHidden())
        return {};
    const Core::LessonQuestion *q = m_session->question();
    return q && std::size_t(option) < q->options.size() ? q->options[std::size_t(option)].feedback
                                                        : QString();
}

QString LessonPanel::mark(int option) const
{
    if (option < 0 || std::size_t(option) >= m_rows.size())
        return {};
    return m_rows[std::size_t(option)].mark->text();
}

QString LessonPanel::revealText() const
{
    return m_reveal->isHidden() ? QString() : m_reveal->text();
}
