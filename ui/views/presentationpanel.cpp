#include "presentationpanel.h"

#include "comparison.h"

#include "changethrottle.h"
#include "document.h"
#include "exporter.h"
#include "viewstate.h"

#include "explain.h"

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace {

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
    col->setContentsMargins(48, 20, 48, 16);
    col->setSpacing(14);
    m_heading = label(this, QStringLiteral("presentationHeading"));
    m_main = label(this, QStringLiteral("presentationText"));
    m_other = label(this, QStringLiteral("presentationOther"));
    m_details = label(this, QStringLiteral("presentationDetails"));
    m_hint = label(this, QStringLiteral("presentationHint"));
    m_hint->setAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_hint->setText(tr("→ / Page Down: next   ← / Page Up: back   Home: start   End: everything   "
                       "Esc: leave"));
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

void PresentationPanel::setTheme(const Theme &theme)
{
    m_theme = theme;
    QPalette pal = palette();
    pal.setColor(QPalette::Window, theme.background);
    pal.setColor(QPalette::WindowText, theme.foreground);
    setPalette(pal);
    const auto sized = [this](QLabel *l, double points, bool bold) {
        QFont f = font();
        f.setPointSizeF(points * m_theme.fontScale);
        f.setBold(bold);
        l->setFont(f);
    };
    sized(m_heading, 13, true);
    sized(m_main, 22, false);
    sized(m_other, 17, false);
    sized(m_details, 13, false);
    sized(m_hint, 9, false);
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
    return m_details->text();
}

std::uint32_t PresentationPanel::mainEventAt(const Core::Trace &t, Core::Tick tick)
{
    return Core::mainEventAt(t, tick); // the story of a tick is told once, in core
}

void PresentationPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

void PresentationPanel::refresh()
{
    // Only shown while presenting; its key frames cost a pass over the whole trace, too much
    // to pay on every drag step and playhead move of a long run nobody is presenting.
    m_stale = !isVisible();
    if (m_stale)
        return;
    const Core::Scenario &s = m_doc->scenario();
    const bool compare = m_state->compare();
    const Comparison cmp = comparison(*m_doc, *m_state);
    const Core::Trace &t = compare ? *cmp.top.trace : m_doc->trace();
    const std::vector<Core::Tick> ticks = Exporter::keyframeTicks(t);
    QString border = m_theme.muted.name();
    m_other->hide();
    m_details->clear();

    Step step = m_step;
    if (step == Step::AtTick && !m_state->hasPlayhead())
        step = Step::End;
    if (step == Step::Start) {
        m_heading->setText(tr("%1 STEPS · PRESS → TO BEGIN").arg(ticks.size()));
        m_main->setText(s.title.isEmpty() ? tr("Untitled scenario") : s.title);
        m_details->setText(s.description);
    } else if (step == Step::End) {
        m_heading->setText(tr("THE WHOLE RUN"));
        QString text = Core::summarize(s, t);
        if (compare)
            text = cmp.about(true, text) + QLatin1Char('\n') +
                   cmp.about(false, Core::summarize(*cmp.bottom.scenario, *cmp.bottom.trace));
        m_main->setText(text);
        const bool safe = t.summary.safe() && (!compare || cmp.bottom.trace->summary.safe());
        border = safe ? m_theme.accepted.name() : m_theme.corrupted.name();
    } else {
        const Core::Tick now = m_state->playhead();
        const auto at = std::lower_bound(ticks.begin(), ticks.end(), now);
        const bool onEvent = at != ticks.end() && *at == now;
        const std::size_t shown =
            std::size_t(std::upper_bound(ticks.begin(), ticks.end(), now) - ticks.begin());
        m_heading->setText(tr("STEP %1 OF %2 · t=%3").arg(shown).arg(ticks.size()).arg(now));
        const std::uint32_t main = onEvent ? mainEventAt(t, now) : Core::kNone;
        if (main == Core::kNone) {
            m_main->setText(tr("Nothing happens at t=%1.").arg(now));
        } else {
            const Core::Event &ev = t.events[main];
            QString text = Core::explainEvent(s, t, main);
            if (compare)
                text = cmp.about(true, text);
            m_main->setText(text);
            if (ev.kind == Core::EventKind::WriteArrived)
                border = m_theme.outcome(t.writes[ev.ref].result).name();
            else if (ev.kind == Core::EventKind::Grant || ev.kind == Core::EventKind::Renewal)
                border = m_theme.lease.name();
            // compare mode: the same write in the other run, when its fate differs
            if (compare && ev.kind == Core::EventKind::WriteArrived) {
                const Core::Scenario &us = *cmp.bottom.scenario;
                const Core::Trace &u = *cmp.bottom.trace;
                const Core::Write &w = t.writes[ev.ref];
                const std::uint32_t ue = Core::outcomeEvent(us, u, w.client, w.action);
                if (ue != Core::kNone && u.events[ue].kind == Core::EventKind::WriteArrived &&
                    u.writes[u.events[ue].ref].result != w.result) {
                    m_other->setText(cmp.about(false, Core::explainEvent(us, u, ue)));
                    m_other->setStyleSheet(
                        QStringLiteral("QLabel { border-left: %1px solid %2; padding-left: 16px; }")
                            .arg(int(8 * m_theme.lineScale))
                            .arg(m_theme.outcome(u.writes[u.events[ue].ref].result).name()));
                    m_other->show();
                }
            }
            // the rest of the tick, a line each
            QStringList lines;
            for (std::uint32_t i = t.firstEventAt(now);
                 i < t.events.size() && t.events[i].tick == now; ++i)
                if (i != main)
                    lines << QStringLiteral("• %1: %2")
                                 .arg(s.clients[t.events[i].client].name,
                                      Core::briefEvent(s, t, i));
            m_details->setText(lines.join(QLatin1Char('\n')));
        }
    }
    m_details->setVisible(!m_details->text().isEmpty());
    m_main->setStyleSheet(
        QStringLiteral("QLabel { border-left: %1px solid %2; padding-left: 16px; }")
            .arg(int(8 * m_theme.lineScale))
            .arg(border));
}
