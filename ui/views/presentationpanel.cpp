#include "views/presentationpanel.h"

#include "document/comparison.h"

#include "document/changethrottle.h"
#include "document/document.h"
#include "viewstate.h"

#include "explain.h"
#include "storysteps.h"

#include <QCoreApplication>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace {

// Margins and spacing of the panel's column, in pixels.
constexpr int kSide = 48;
constexpr int kTop = 20;
constexpr int kBottom = 16;
constexpr int kSpacing = 14;
constexpr int kTightSide = 16; // tight: the margins
constexpr int kTightTop = 6;

QString hintText()
{
    return QCoreApplication::translate("PresentationPanel",
                                       "→ / Page Down: next   ← / Page Up: back   Home: start   "
                                       "End: everything   Esc: leave");
}

// The coloured bar left of a sentence: what kind of step it is (an outcome's colour, a lease's).
QString barStyle(const Theme &theme, const QColor &color)
{
    return QStringLiteral("QLabel { border-left: %1px solid %2; padding-left: 16px; }")
        .arg(int(8 * theme.lineScale))
        .arg(color.name());
}

QLabel *label(QWidget *parent, const QString &name)
{
    auto *l = new QLabel(parent);
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return l;
}

} // namespace

PresentationPanel::PresentationPanel(Document *doc, ViewState *state, QWidget *parent)
    : QWidget(parent), m_doc(doc), m_state(state)
{
    setObjectName(QStringLiteral("presentationPanel"));
    setAutoFillBackground(true);
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(kSide, kTop, kSide, kBottom);
    col->setSpacing(kSpacing);
    m_heading = label(this, QStringLiteral("presentationHeading"));
    m_main = label(this, QStringLiteral("presentationText"));
    m_other = label(this, QStringLiteral("presentationOther"));
    m_details = label(this, QStringLiteral("presentationDetails"));
    m_hint = label(this, QStringLiteral("presentationHint"));
    m_hint->setAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_hint->setText(hintText());
    col->addWidget(m_heading);
    col->addWidget(m_main);
    col->addWidget(m_other);
    col->addWidget(m_details);
    col->addStretch(1);
    col->addWidget(m_hint);

    new ChangeThrottle(doc, this, [this] { refresh(); });
    connect(state, &ViewState::playheadChanged, this, &PresentationPanel::refresh);
    connect(state, &ViewState::compareChanged, this, &PresentationPanel::refresh);
    connect(state, &ViewState::compareSourceChanged, this, &PresentationPanel::refresh);
    setTheme(m_theme);
}

void PresentationPanel::applyFonts(const Theme &theme, QLabel *heading, QLabel *main, QLabel *other,
                                   QLabel *details, QLabel *hint) const
{
    const auto sized = [&](QLabel *l, double pixels, bool bold) {
        QFont f = font();
        f.setPixelSize(std::max(1, int(std::lround(pixels * theme.fontScale))));
        f.setBold(bold);
        l->setFont(f);
    };
    sized(heading, 12, true);
    sized(main, sentencePixels(1), false);
    sized(other, 15, false);
    sized(details, 13, false);
    sized(hint, 9, false);
}

void PresentationPanel::setTheme(const Theme &theme)
{
    m_theme = theme;
    QPalette pal = palette();
    pal.setColor(QPalette::Window, theme.background);
    pal.setColor(QPalette::WindowText, theme.foreground);
    setPalette(pal);
    applyFonts(theme, m_heading, m_main, m_other, m_details, m_hint);
    m_heading->setStyleSheet(QStringLiteral("color: %1;").arg(theme.muted.name()));
    m_details->setStyleSheet(QStringLiteral("color: %1;").arg(theme.foreground.name()));
    m_hint->setStyleSheet(QStringLiteral("color: %1;").arg(theme.muted.name()));
    refresh();
}

void PresentationPanel::setStep(Step step)
{
    m_step = step;
    refresh();
}

QString PresentationPanel::heading() const
{
    return m_heading->text();
}

QString PresentationPanel::mainText() const
{
    return m_main->text();
}

QString PresentationPanel::detailText() const
{
    return m_details->isHidden() ? QString() : m_details->text();
}

void PresentationPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

PresentationPanel::Texts PresentationPanel::startTexts(const std::vector<Core::Tick> &ticks) const
{
    const Core::Scenario &s = m_doc->scenario();
    Texts x;
    x.heading = tr("%1 STEPS · PRESS → TO BEGIN").arg(ticks.size());
    x.main = s.title.isEmpty() ? tr("Untitled scenario") : s.title;
    // the setting only: the description tells the ending, which the room is to predict
    x.details = Core::explainSetup(s);
    x.border = m_theme.muted;
    return x;
}

PresentationPanel::Texts PresentationPanel::endTexts(const Comparison *cmp,
                                                     const Core::Trace &t) const
{
    const Core::Scenario &s = m_doc->scenario();
    Texts x;
    x.heading = tr("THE WHOLE RUN");
    x.main = Core::summarize(s, t);
    if (cmp)
        x.main = cmp->about(true, x.main) + QLatin1Char('\n') +
                 cmp->about(false, Core::summarize(*cmp->bottom.scenario, *cmp->bottom.trace));
    x.details = s.description;
    const bool safe = t.summary.safe() && (!cmp || cmp->bottom.trace->summary.safe());
    x.border = safe ? m_theme.accepted : m_theme.corrupted;
    return x;
}

PresentationPanel::Texts PresentationPanel::stepTexts(const Comparison *cmp, const Core::Trace &t,
                                                      const std::vector<Core::Tick> &ticks,
                                                      Core::Tick now) const
{
    const Core::Scenario &s = m_doc->scenario();
    Texts x;
    x.border = m_theme.muted;
    const auto at = std::lower_bound(ticks.begin(), ticks.end(), now);
    const bool onStep = at != ticks.end() && *at == now;
    const std::size_t shown =
        std::size_t(std::upper_bound(ticks.begin(), ticks.end(), now) - ticks.begin());
    x.heading = tr("STEP %1 OF %2 · t=%3").arg(shown).arg(ticks.size()).arg(now);
    const Core::StoryStep story =
        onStep ? Core::storyStepAt(s, t, now) : Core::StoryStep{now, {}, Core::kNone};
    if (story.ref == Core::kNone) {
        x.main = tr("Nothing happens at t=%1.").arg(now);
        return x;
    }
    x.main = Core::explainStep(s, t, story);
    if (cmp)
        x.main = cmp->about(true, x.main);
    const bool event = story.subject == Core::StoryStep::Subject::Event;
    const Core::EventKind kind = event ? t.events[story.ref].kind : Core::EventKind::Grant;
    if (event && kind == Core::EventKind::WriteArrived)
        x.border = m_theme.outcome(t.writes[t.events[story.ref].ref].result);
    else if (event && (kind == Core::EventKind::Grant || kind == Core::EventKind::Renewal))
        x.border = m_theme.lease;
    else if (!event)
        x.border = m_theme.foreground;
    // compare mode: the same write in the other run, when its fate differs
    if (cmp && event && kind == Core::EventKind::WriteArrived) {
        const Core::Scenario &us = *cmp->bottom.scenario;
        const Core::Trace &u = *cmp->bottom.trace;
        const Core::Write &w = t.writes[t.events[story.ref].ref];
        const std::uint32_t ue = Core::outcomeEvent(us, u, w.client, w.action);
        if (ue != Core::kNone && u.events[ue].kind == Core::EventKind::WriteArrived &&
            u.writes[u.events[ue].ref].result != w.result) {
            x.other = cmp->about(false, Core::explainEvent(us, u, ue));
            x.otherBorder = m_theme.outcome(u.writes[u.events[ue].ref].result);
        }
    }
    // the rest of the tick, a line each, and what went on in the background since the step
    // before; a crowded tick says how many more there are
    const Core::Tick since = at == ticks.begin() ? Core::kForever : *std::prev(at);
    const QStringList all = Core::stepDetails(s, t, story, since);
    QStringList lines;
    for (int i = 0; i < all.size() && i < kDetailLines; ++i)
        lines << QStringLiteral("• ") + all[i];
    if (all.size() > kDetailLines)
        lines << tr("• and %1 more at t=%2 (the event log lists them)")
                     .arg(all.size() - kDetailLines)
                     .arg(now);
    x.details = lines.join(QLatin1Char('\n'));
    return x;
}

PresentationPanel::Texts PresentationPanel::textsNow() const
{
    const bool compare = m_state->compare();
    // the runs as far as the playhead: what has not happened yet is not told either
    const Comparison cmp = comparison(*m_doc, *m_state);
    const Core::Trace &t = compare ? *cmp.top.trace : shownTrace(*m_doc, *m_state, m_doc->trace());
    const std::vector<Core::Tick> ticks = storyTicks(*m_doc, *m_state);
    Step step = m_step;
    if (step == Step::AtTick && !m_state->hasPlayhead())
        step = Step::End;
    switch (step) {
    case Step::Start:
        return startTexts(ticks);
    case Step::End:
        return endTexts(compare ? &cmp : nullptr, t);
    case Step::AtTick:
        break;
    }
    return stepTexts(compare ? &cmp : nullptr, t, ticks, m_state->playhead());
}

void PresentationPanel::refresh()
{
    // Only shown while presenting; its steps cost a pass over the whole trace, too much to pay
    // on every drag step and playhead move of a long run nobody is presenting.
    m_stale = !isVisible();
    if (m_stale)
        return;
    const Texts x = textsNow();
    m_heading->setText(x.heading);
    m_heading->setVisible(!m_tight);
    m_hint->setText(m_tight ? x.heading + QStringLiteral("      ") + hintText() : hintText());
    m_main->setText(x.main);
    m_allOther = x.other;
    m_other->setStyleSheet(barStyle(m_theme, x.otherBorder));
    m_main->setStyleSheet(barStyle(m_theme, x.border));
    m_allDetails = x.details;
    fitDetails();
}

void PresentationPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitDetails();
}

void PresentationPanel::fitDetails()
{
    const int inner = std::max(100, width() - 2 * side());
    int left = height() - (m_tight ? kTightTop : kTop) - kBottom;
    for (QLabel *l : {m_heading, m_main, m_hint})
        if (!l->isHidden() && !l->text().isEmpty())
            left -= l->heightForWidth(inner) + kSpacing;
    // compare mode's other run: whole or not at all (the lanes show its outcome either way)
    m_other->setText(m_allOther);
    const int other = m_allOther.isEmpty() ? 0 : m_other->heightForWidth(inner) + kSpacing;
    m_other->setVisible(other > 0 && other <= left);
    if (m_other->isHidden())
        m_other->clear();
    else
        left -= other;
    // whole lines from the top: a step's bullets are in the order they matter
    QStringList lines = m_allDetails.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    while (!lines.isEmpty()) {
        m_details->setText(lines.join(QLatin1Char('\n')));
        if (m_details->heightForWidth(inner) + kSpacing <= left)
            break;
        lines.removeLast();
    }
    if (lines.isEmpty())
        m_details->clear();
    m_details->setVisible(!lines.isEmpty());
}

int PresentationPanel::requiredHeight(int width, const Theme &theme) const
{
    return measure(width, theme, true, true, false);
}

int PresentationPanel::essentialHeight(int width, const Theme &theme, bool other, bool tight) const
{
    return measure(width, theme, other, false, tight);
}

void PresentationPanel::setTight(bool tight)
{
    if (tight == m_tight)
        return;
    m_tight = tight;
    layout()->setContentsMargins(side(), tight ? kTightTop : kTop, side(), kBottom);
    refresh();
}

int PresentationPanel::side() const
{
    return m_tight ? kTightSide : kSide;
}

int PresentationPanel::measure(int width, const Theme &theme, bool withOther, bool withDetails,
                               bool tight) const
{
    // the same labels as the panel's, laid out at `width` for every step's texts
    QWidget probe;
    QLabel *heading = label(&probe, QString());
    QLabel *main = label(&probe, QString());
    QLabel *other = label(&probe, QString());
    QLabel *details = label(&probe, QString());
    QLabel *hint = label(&probe, QString());
    hint->setText(hintText());
    applyFonts(theme, heading, main, other, details, hint);
    main->setStyleSheet(barStyle(theme, theme.muted));
    other->setStyleSheet(barStyle(theme, theme.muted));
    const int inner = std::max(100, width - 2 * (tight ? kTightSide : kSide));
    const auto h = [inner](QLabel *l, const QString &text) {
        if (text.isEmpty())
            return 0;
        l->setText(text);
        l->ensurePolished();
        return l->heightForWidth(inner) + kSpacing;
    };
    const auto total = [&](const Texts &x) {
        // (tight: the heading is on the hint's line, which is as tall)
        return (tight ? kTightTop : kTop + h(heading, x.heading)) + h(main, x.main) +
               (withOther ? h(other, x.other) : 0) + (withDetails ? h(details, x.details) : 0) +
               h(hint, hint->text()) + kBottom;
    };
    const bool compare = m_state->compare();
    const Comparison cmp = comparison(*m_doc, m_state->compareSource()); // the whole runs
    const Core::Trace &t = compare ? *cmp.top.trace : m_doc->trace();
    const std::vector<Core::Tick> ticks = storyTicks(*m_doc, *m_state);
    int most = std::max(total(startTexts(ticks)), total(endTexts(compare ? &cmp : nullptr, t)));
    for (std::size_t i = 0; i < ticks.size() && i < std::size_t(kMeasuredSteps); ++i)
        most = std::max(most, total(stepTexts(compare ? &cmp : nullptr, t, ticks, ticks[i])));
    return most;
}
