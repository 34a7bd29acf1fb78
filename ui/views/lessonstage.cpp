#include "views/lessonstage.h"

#include "document/lessonsession.h"
#include "views/lessontext.h"

#include "document/document.h"

#include "lessonplay.h"

#include <QApplication>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include <tuple>

#include <algorithm>
#include <cmath>

namespace {

// Margins and spacing of the stage's column, in pixels: narrower at the sides than the
// presentation panel's, since the reveal puts each option's feedback beside it.
constexpr int kSide = 32;
constexpr int kTop = 20;
constexpr int kBottom = 16;
constexpr int kSpacing = 12;
constexpr int kMeasureSlack = 48;

QString barStyle(const Theme &theme, const QColor &color)
{
    return QStringLiteral("QLabel { border-left: %1px solid %2; padding-left: 16px; }")
        .arg(int(8 * theme.lineScale))
        .arg(color.name());
}

} // namespace

void LessonStage::restyle(QWidget *widget, const QString &sheet) const
{
    // Measuring (requiredHeight) leaves the style sheets alone: a sheet set while presentation
    // fits the window (inside a resize) would repolish widgets that are being laid out, and
    // colours do not change a height. Otherwise only a changed sheet is set.
    if (!m_measuring && widget->styleSheet() != sheet)
        widget->setStyleSheet(sheet);
}

LessonStage::LessonStage(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("lessonStage"));
    setAutoFillBackground(true);
    build();
    setTheme(m_theme);
}

void LessonStage::build()
{
    // the scene's words and the question's options, with the poll's box at their right; what
    // the answer says below both, at the stage's whole width
    auto *page = new QVBoxLayout(this);
    page->setContentsMargins(kSide, kTop, kSide, kBottom);
    page->setSpacing(kSpacing);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0); // the poll's box keeps its own gap, none when it is empty
    auto *col = new QVBoxLayout;
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(kSpacing);
    m_heading = LessonText::label(this, QStringLiteral("lessonStageHeading"));
    m_title = LessonText::label(this, QStringLiteral("lessonStageTitle"));
    m_narration = LessonText::label(this, QStringLiteral("lessonStageNarration"), Qt::RichText);
    m_prompt = LessonText::label(this, QStringLiteral("lessonStagePrompt"), Qt::RichText);
    m_options = new QWidget(this);
    m_grid = new QGridLayout(m_options);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(4);
    m_grid->setColumnStretch(1, 1);
    for (int v = 0; v < 2; ++v) {
        m_voteHeads[v] = LessonText::label(m_options, QStringLiteral("lessonStageVote%1").arg(v));
        m_voteHeads[v]->setWordWrap(false);
        m_voteHeads[v]->setAlignment(Qt::AlignCenter | Qt::AlignBottom);
        m_voteHeads[v]->setText(v == 0 ? tr("hands") : tr("after talk"));
        m_grid->addWidget(m_voteHeads[v], 0, 3 + v);
    }
    for (int i = 0; i < LessonSession::kOptions; ++i) {
        Row r;
        r.mark = LessonText::label(m_options, QStringLiteral("lessonStageMark%1").arg(i));
        r.mark->setWordWrap(false);
        r.text = LessonText::label(m_options, QStringLiteral("lessonStageOption%1").arg(i));
        r.feedback = LessonText::label(m_options, QStringLiteral("lessonStageFeedback%1").arg(i),
                                       Qt::RichText);
        for (int v = 0; v < 2; ++v) {
            auto *field = new QLineEdit(m_options);
            field->setObjectName(QStringLiteral("lessonStageHands%1%2").arg(v).arg(i));
            field->setValidator(new QIntValidator(0, 9999, field));
            field->setAlignment(Qt::AlignCenter);
            field->setAccessibleName(tr("Hands for option %1, %2")
                                         .arg(Core::optionLetter(std::size_t(i)),
                                              v == 0 ? tr("first vote") : tr("second vote")));
            connect(field, &QLineEdit::textEdited, this,
                    [this, v, i](const QString &text) { handsEdited(v, i, text); });
            r.hands[std::size_t(v)] = field;
            m_grid->addWidget(field, 1 + i, 3 + v, Qt::AlignTop);
        }
        // at the answer, each wrong option's feedback beside it: a row stays one row
        m_grid->addWidget(r.mark, 1 + i, 0, Qt::AlignTop);
        m_grid->addWidget(r.text, 1 + i, 1, Qt::AlignTop);
        m_grid->addWidget(r.feedback, 1 + i, 2, Qt::AlignTop);
        m_rows.push_back(r);
    }
    m_problem = LessonText::label(this, QStringLiteral("lessonStageProblem"));
    m_reveal = LessonText::label(this, QStringLiteral("lessonStageReveal"));
    m_explanation = LessonText::label(this, QStringLiteral("lessonStageExplanation"), Qt::RichText);
    m_hint = LessonText::label(this, QStringLiteral("lessonStageHint"));
    m_hint->setAlignment(Qt::AlignRight | Qt::AlignBottom);
    col->addWidget(m_heading);
    col->addWidget(m_title);
    col->addWidget(m_narration);
    col->addWidget(m_prompt);
    col->addWidget(m_options);
    col->addStretch(1);
    row->addLayout(col, 1);
    page->addLayout(row);
    page->addWidget(m_problem);
    page->addWidget(m_reveal);
    page->addWidget(m_explanation);
    page->addStretch(1);
    page->addWidget(m_hint);
    m_pollBox = new PollBox(this);
    row->addWidget(m_pollBox, 0, Qt::AlignTop);
}

void LessonStage::setSession(LessonSession *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    if (session) {
        connect(session, &LessonSession::answerChanged, this, &LessonStage::refresh);
        connect(session, &LessonSession::lessonChanged, this, &LessonStage::refresh);
        connect(session, &LessonSession::sceneChanged, this, &LessonStage::refresh);
        connect(session, &LessonSession::sceneMoved, this, &LessonStage::refresh);
    }
    refresh();
}

QFont LessonStage::sized(double pixels, bool bold) const
{
    QFont f = font();
    f.setPixelSize(std::max(1, int(std::lround(pixels * m_theme.fontScale))));
    f.setBold(bold);
    return f;
}

void LessonStage::setTheme(const Theme &theme)
{
    m_theme = theme;
    QPalette pal = palette();
    pal.setColor(QPalette::Window, theme.background);
    pal.setColor(QPalette::WindowText, theme.foreground);
    pal.setColor(QPalette::Base, theme.background);
    pal.setColor(QPalette::Text, theme.foreground);
    setPalette(pal);
    applyFonts();
    refresh();
}

void LessonStage::applyFonts()
{
    m_heading->setFont(sized(12, true));
    m_title->setFont(sized(kPromptPixels, true));
    m_narration->setFont(sized(kNarrationPixels));
    m_prompt->setFont(sized(kPromptPixels));
    for (QLabel *head : m_voteHeads)
        head->setFont(sized(10));
    const QFont option = sized(kOptionPixels);
    for (Row &r : m_rows) {
        r.mark->setFont(sized(kOptionPixels, true));
        r.text->setFont(option);
        r.feedback->setFont(sized(kDetailPixels));
        for (QLineEdit *field : r.hands) {
            field->setFont(option);
            // four digits and the frame
            field->setFixedWidth(QFontMetrics(option).horizontalAdvance(QStringLiteral("0000")) +
                                 int(16 * m_theme.fontScale));
        }
    }
    m_problem->setFont(sized(kDetailPixels + 2, true));
    m_reveal->setFont(sized(kDetailPixels + 1));
    m_explanation->setFont(sized(kDetailPixels));
    m_hint->setFont(sized(9));
    restyle(m_heading, QStringLiteral("color: %1;").arg(m_theme.muted.name()));
    restyle(m_hint, QStringLiteral("color: %1;").arg(m_theme.muted.name()));
    for (QLabel *head : m_voteHeads)
        restyle(head, QStringLiteral("color: %1;").arg(m_theme.muted.name()));
    if (!m_measuring)
        m_pollBox->setTheme(m_theme);
    restyle(m_problem, barStyle(m_theme, m_theme.corrupted));
    restyle(m_reveal, barStyle(m_theme, m_theme.accepted));
}

void LessonStage::setMode(Mode mode)
{
    m_mode = mode;
    refresh();
}

void LessonStage::refresh()
{
    m_filling = true;
    fill();
    m_filling = false;
}

void LessonStage::fill()
{
    const bool opening = m_mode == Mode::Opening;
    const bool answer = m_mode == Mode::Answer;
    const LessonSession *s = m_session;
    const Core::LessonQuestion *q = s ? s->question() : nullptr;
    const bool asking = !opening && q;
    if (!s) {
        for (QWidget *w : findChildren<QWidget *>())
            if (w != m_pollBox && !m_pollBox->isAncestorOf(w))
                w->hide();
        m_pollBox->setView(PollView(), false);
        return;
    }
    const Core::LessonScene &scene = s->currentScene();
    const QString where = tr("SCENE %1 OF %2").arg(s->scene() + 1).arg(s->sceneCount());
    const Core::ScenePlay &play = s->play();
    switch (m_mode) {
    case Mode::Opening:
        m_heading->setText(
            tr("%1 · %2 · PRESS → TO BEGIN").arg(s->lesson().title.toUpper(), where));
        break;
    case Mode::Question:
    case Mode::Revealing:
        m_heading->setText(q ? tr("%1 · QUESTION · t=%2").arg(where).arg(q->freeze) : where);
        break;
    case Mode::Answer:
        m_heading->setText(tr("%1 · ANSWER · t=%2").arg(where).arg(play.reveal()));
        break;
    }
    m_title->setText(scene.title.isEmpty() ? scene.scenario.title : scene.title);
    m_title->setVisible(opening);
    m_narrationText = scene.narration;
    m_narration->setText(LessonText::html(scene.narration, m_narration->font()));
    m_narration->setVisible(opening && !scene.narration.isEmpty());

    m_promptText = q ? q->prompt : QString();
    m_prompt->setText(LessonText::html(m_promptText, m_prompt->font()));
    // at the answer the options, marked, say what was asked: the room reads the feedback
    m_prompt->setVisible(asking && !answer);
    m_grid->setColumnStretch(1, answer ? 2 : 1);
    m_grid->setColumnStretch(2, answer ? 4 : 0);
    m_options->setVisible(asking);
    const std::size_t count = q ? q->options.size() : 0;
    const LessonSession::Answer &given = s->currentAnswer();
    // the typed hands: at the answer only when some were typed (the phones' votes, beside
    // them in the poll's bars, never added to them, may be all there is)
    bool handsTyped = false;
    for (const auto &round : given.hands)
        for (const int hands : round)
            handsTyped = handsTyped || hands >= 0;
    const bool handsShown = asking && (!answer || handsTyped);
    // Counts typed or cleared at the question bring the answer's hands columns or take them
    // away: beside the options they narrow each wrong option's feedback, and the answer may
    // need another height (a question alone does not: its columns always show).
    if (!m_measuring && handsTyped != m_handsTyped) {
        m_handsTyped = handsTyped;
        emit shapeChanged();
    }
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        Row &r = m_rows[i];
        const bool shown = asking && i < count;
        r.text->setVisible(shown);
        r.mark->setVisible(shown);
        for (int v = 0; v < 2; ++v) {
            QLineEdit *field = r.hands[std::size_t(v)];
            field->setVisible(shown && handsShown);
            field->setReadOnly(answer);
            const int hands = given.hands[std::size_t(v)][i];
            const QString text = hands >= 0 ? QString::number(hands) : QString();
            if (field->text() != text)
                field->setText(text);
        }
        if (!shown) {
            r.feedback->hide();
            continue;
        }
        r.text->setText(Core::optionLine(*q, i));
        const bool holds =
            play.verdict && i < play.verdict->options.size() && play.verdict->options[i].holds;
        r.mark->setText(answer ? (holds ? QStringLiteral("✓") : QStringLiteral("✗")) : QString());
        const QColor colour = holds ? m_theme.acceptedText : m_theme.muted;
        restyle(r.mark, QStringLiteral("color: %1;").arg(colour.name()));
        restyle(r.text, answer && !holds ? QStringLiteral("color: %1;").arg(m_theme.muted.name())
                                         : QString());
        const QString feedback = q->options[i].feedback;
        r.feedback->setText(LessonText::html(feedback, r.feedback->font()));
        r.feedback->setVisible(answer && !holds && !feedback.isEmpty());
    }
    for (QLabel *head : m_voteHeads)
        head->setVisible(handsShown);
    // the box beside the question only: the answer needs the width for each option's feedback
    m_pollBox->setView(m_poll, asking && !answer);

    const QString problem = asking ? s->problem() : QString();
    m_problem->setText(problem.isEmpty()
                           ? QString()
                           : tr("This question says nothing on this run: %1").arg(problem));
    m_problem->setVisible(!problem.isEmpty());
    m_reveal->setText(answer ? s->revealWords() : QString());
    m_reveal->setVisible(answer && !m_reveal->text().isEmpty());
    m_explanationText = answer && q ? q->explanation : QString();
    m_explanation->setText(LessonText::html(m_explanationText, m_explanation->font()));
    m_explanation->setVisible(!m_explanationText.isEmpty());
    switch (m_mode) {
    case Mode::Opening:
        m_hint->setText(tr("→ / Page Down: next   ← / Page Up: back   Esc: leave"));
        break;
    case Mode::Question:
    case Mode::Revealing:
        m_hint->setText(tr("A–E: hands for an option (Shift: after discussion)   P: poll the "
                           "room   →: reveal   ←: back   Esc: leave"));
        break;
    case Mode::Answer:
        m_hint->setText(tr("→: next scene   ←: back to the question   Esc: leave"));
        break;
    }
    m_heading->setVisible(true);
    m_hint->setVisible(true);
}

void LessonStage::setPoll(const PollView &poll)
{
    // what decides which of the box's parts show and how many lines they take; a vote does not
    const auto shape = [](const PollView &v) {
        return std::make_tuple(v.on, v.error, v.address, v.pages > 0, v.rounds, v.open, v.histogram,
                               v.right >= 0, v.interfaces.size());
    };
    const bool reshaped = shape(poll) != shape(m_poll);
    m_poll = poll;
    refresh();
    if (reshaped)
        emit shapeChanged();
}

QString LessonStage::phoneCount(int round, int option) const
{
    if (round < 0 || round > 1 || option < 0 || std::size_t(option) >= m_rows.size())
        return {};
    const PollHistogram *bars = m_pollBox->histogram();
    if (!bars->isVisibleTo(this))
        return {};
    for (const PollHistogram::Bar &bar : bars->bars())
        if (bar.round == round && bar.option == option)
            return QString::number(bar.count);
    return {};
}

void LessonStage::handsEdited(int vote, int option, const QString &text)
{
    if (m_filling || !m_session)
        return;
    bool ok = false;
    const int hands = text.toInt(&ok);
    m_session->setHands(vote, option, ok ? hands : -1);
}

int LessonStage::requiredHeight(int width, const Theme &theme) const
{
    if (!m_session)
        return 0;
    // Measured on this stage itself, in every mode of the scene, then put back: a stage of
    // its own would not inherit the window's font, and measured another height than the one
    // laid out. Only the fonts follow `theme` meanwhile (restyle()).
    auto *self = const_cast<LessonStage *>(this);
    // A field being typed in keeps the keyboard: the window fits again after a count's first
    // digit (shapeChanged()), and hiding the question's parts to measure the other modes would
    // move the focus out of the field before the next digit.
    QWidget *typing = QApplication::focusWidget();
    if (typing && !isAncestorOf(typing))
        typing = nullptr;
    const Theme was = m_theme;
    const Mode mode = m_mode;
    self->m_measuring = true;
    self->m_theme = theme;
    self->applyFonts();
    int most = 0;
    for (const Mode m : {Mode::Opening, Mode::Question, Mode::Answer}) {
        self->setMode(m);
        // Each shown part at its width, added up: the layouts' own totalHeightForWidth counts
        // what a hidden stage had laid out last, not what this mode shows. (Narrower by a
        // sentence bar's border and padding, which the sheets left alone while measuring do
        // not count, and by the stage's scroll bar.)
        // The poll's box, when this mode shows it, takes its width from the words and options
        // beside it, and may be the taller of the two (its QR code, address, bars and the line
        // on the phones). In the modes not shown it counts for its width only: its parts
        // coming or going fit the window again (shapeChanged()).
        const bool box = m_pollBox->maximumWidth() > 0;
        if (box) {
            // (its layouts' cached hints count the parts it had: activate() after invalidate()
            // clears its inner layouts' too)
            m_pollBox->layout()->invalidate();
            m_pollBox->layout()->activate();
        }
        const QSize boxSize = box ? m_pollBox->sizeHint() : QSize();
        const int whole = std::max(100, width - 2 * kSide - kMeasureSlack);
        const int beside = std::max(100, whole - (box ? boxSize.width() : 0));
        const auto added = [](std::initializer_list<QWidget *> parts, int at) {
            int sum = -kSpacing;
            for (QWidget *w : parts) {
                if (w->isHidden())
                    continue;
                const int h = w->hasHeightForWidth() ? w->heightForWidth(at) : -1;
                sum += (h >= 0 ? h : w->sizeHint().height()) + kSpacing;
            }
            return std::max(0, sum);
        };
        int top = added({m_heading, m_title, m_narration, m_prompt, m_options}, beside);
        if (box && m == (mode == Mode::Revealing ? Mode::Question : mode))
            top = std::max(top, boxSize.height());
        const int below = added({m_problem, m_reveal, m_explanation, m_hint}, whole);
        const int sum = kTop + top + (below > 0 ? kSpacing + below : 0) + kBottom;
        most = std::max(most, sum);
    }
    self->m_theme = was;
    self->m_mode = mode;
    self->applyFonts();
    self->refresh();
    self->m_measuring = false;
    self->layout()->invalidate();
    if (typing && typing->isVisible() && QApplication::focusWidget() != typing)
        typing->setFocus(Qt::OtherFocusReason);
    return most;
}

QLineEdit *LessonStage::handsField(int vote, int option) const
{
    if (vote < 0 || vote > 1 || option < 0 || std::size_t(option) >= m_rows.size())
        return nullptr;
    QLineEdit *field = m_rows[std::size_t(option)].hands[std::size_t(vote)];
    return field->isHidden() ? nullptr : field;
}

void LessonStage::focusHands(int vote, int option)
{
    if (QLineEdit *field = handsField(vote, option)) {
        field->setFocus(Qt::ShortcutFocusReason);
        field->selectAll();
    }
}

bool LessonStage::isHandsField(const QObject *object) const
{
    for (const Row &r : m_rows)
        for (const QLineEdit *field : r.hands)
            if (field == object)
                return true;
    return false;
}

QString LessonStage::heading() const
{
    return m_heading->text();
}

QString LessonStage::prompt() const
{
    return m_prompt->isVisibleTo(this) ? m_promptText : QString();
}

QString LessonStage::optionText(int option) const
{
    if (option < 0 || std::size_t(option) >= m_rows.size() ||
        m_rows[std::size_t(option)].text->isHidden())
        return {};
    return m_rows[std::size_t(option)].text->text();
}

QString LessonStage::mark(int option) const
{
    if (option < 0 || std::size_t(option) >= m_rows.size())
        return {};
    return m_rows[std::size_t(option)].mark->text();
}

QString LessonStage::feedbackText(int option) const
{
    if (option < 0 || std::size_t(option) >= m_rows.size() || !m_session ||
        m_rows[std::size_t(option)].feedback->isHidden())
        return {};
    const Core::LessonQuestion *q = m_session->question();
    return q && std::size_t(option) < q->options.size() ? q->options[std::size_t(option)].feedback
                                                        : QString();
}

QString LessonStage::revealText() const
{
    return m_reveal->isHidden() ? QString() : m_reveal->text();
}

QString LessonStage::problemText() const
{
    return m_problem->isHidden() ? QString() : m_problem->text();
}
