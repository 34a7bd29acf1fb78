#include "views/narrationpanel.h"

#include "document/comparison.h"

#include "document/changethrottle.h"
#include "document/document.h"
#include "views/eventlogmodel.h"
#include "viewstate.h"

#include "explain.h"
#include "runstate.h"
#include "simulator.h"
#include "tokensource.h"

#include <QFrame>
#include <QLabel>
#include <QVBoxLayout>

namespace {

// A label of the story; its size, `scale` times the panel's font and the theme's font scale,
// is set by NarrationPanel::setTheme.
QLabel *wrapped(QWidget *parent, double scale, bool bold = false)
{
    auto *l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    l->setProperty("storyScale", scale);
    QFont f = l->font();
    f.setBold(bold);
    l->setFont(f);
    return l;
}

QString tickText(Core::Tick t)
{
    return QStringLiteral("t=%1").arg(qulonglong(t));
}

} // namespace

NarrationPanel::NarrationPanel(Document *doc, ViewState *state, QWidget *parent)
    : QWidget(parent), m_doc(doc), m_state(state)
{
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(14, 12, 14, 12);
    col->setSpacing(8);
    m_title = wrapped(this, 1.45, true);
    m_description = wrapped(this, 1.05);
    m_selectedHeading = wrapped(this, 0.95, true);
    m_explanation = wrapped(this, 1.3);
    m_explanation->setObjectName(QStringLiteral("explanation"));
    m_other = wrapped(this, 1.1);
    m_stateHeading = wrapped(this, 0.95, true);
    m_stateText = wrapped(this, 1.05);
    m_stateText->setObjectName(QStringLiteral("playheadState"));

    const auto rule = [this] {
        auto *line = new QFrame(this);
        line->setFrameShape(QFrame::HLine);
        line->setFrameShadow(QFrame::Plain);
        return line;
    };
    col->addWidget(m_title);
    col->addWidget(m_description);
    col->addSpacing(4);
    col->addWidget(rule());
    col->addWidget(m_selectedHeading);
    col->addWidget(m_explanation);
    col->addWidget(m_other);
    col->addSpacing(4);
    col->addWidget(rule());
    col->addWidget(m_stateHeading);
    col->addWidget(m_stateText);
    col->addStretch(1);

    new ChangeThrottle(doc, this, [this] {
        refreshStory();
        refreshSelection();
        refreshState();
    });
    connect(state, &ViewState::selectionChanged, this, &NarrationPanel::refreshSelection);
    connect(state, &ViewState::compareChanged, this, &NarrationPanel::refreshSelection);
    connect(state, &ViewState::compareChanged, this, &NarrationPanel::refreshState);
    connect(state, &ViewState::compareSourceChanged, this, &NarrationPanel::refreshSelection);
    connect(state, &ViewState::compareSourceChanged, this, &NarrationPanel::refreshState);
    connect(state, &ViewState::playheadChanged, this, &NarrationPanel::refreshState);
    setTheme(m_theme);
}

void NarrationPanel::setTheme(const Theme &theme)
{
    m_theme = theme;
    // the lecture-hall theme's larger text reaches the story too
    for (QLabel *l : findChildren<QLabel *>(Qt::FindDirectChildrenOnly)) {
        const QVariant scale = l->property("storyScale");
        if (!scale.isValid())
            continue;
        QFont f = l->font();
        f.setPointSizeF(font().pointSizeF() * scale.toDouble() * theme.fontScale);
        l->setFont(f);
    }
    // every label names its colour: a label with a style sheet of its own (the explanation's
    // coloured border) no longer takes the window palette's text colour
    const QString muted = QStringLiteral("QLabel { color: %1; }").arg(theme.muted.name());
    const QString text = QStringLiteral("QLabel { color: %1; }").arg(theme.foreground.name());
    m_selectedHeading->setStyleSheet(muted);
    m_stateHeading->setStyleSheet(muted);
    for (QLabel *l : {m_title, m_description, m_stateText})
        l->setStyleSheet(text);
    refreshStory();
    refreshSelection();
    refreshState();
}

QString NarrationPanel::explanation() const
{
    return m_explanation->text();
}

QString NarrationPanel::stateText() const
{
    return m_stateText->text();
}

QWidget *NarrationPanel::selectedHeading() const
{
    return m_selectedHeading;
}

QWidget *NarrationPanel::selectedExplanation() const
{
    return m_explanation;
}

void NarrationPanel::refreshStory()
{
    const Core::Scenario &s = m_doc->scenario();
    m_title->setText(s.title.isEmpty() ? tr("Untitled scenario") : s.title);
    m_description->setText(s.description);
    m_description->setVisible(!s.description.isEmpty());
}

void NarrationPanel::refreshSelection()
{
    const Selection sel = m_state->selection();
    const Core::Scenario &s = m_doc->scenario();
    const bool compare = m_state->compare();
    const Comparison cmp = comparison(*m_doc, *m_state);
    const Core::Trace &t = compare ? *cmp.top.trace : m_doc->trace();
    // compare mode: every statement says which run it is about
    const auto about = [&cmp](bool top, const QString &text) { return cmp.about(top, text); };
    const std::uint32_t e = sel.isValid() ? Core::outcomeEvent(s, t, std::uint32_t(sel.client),
                                                               std::uint32_t(sel.action))
                                          : Core::kNone;
    QString border = m_theme.muted.name();
    if (e == Core::kNone) {
        m_selectedHeading->setText(tr("WHAT HAPPENED"));
        // compare mode: each run's summary, by name (the strip's verdict names both too)
        const QString summary =
            compare ? about(true, Core::summarize(s, t)) + QStringLiteral("\n\n") +
                          about(false, Core::summarize(*cmp.bottom.scenario, *cmp.bottom.trace))
                    : Core::summarize(s, t);
        m_explanation->setText(tr("Click a marker on the timeline or the chart, or a row of the "
                                  "event log, to have it explained here.\n\n%1")
                                   .arg(summary));
        m_other->hide();
    } else {
        const Core::Event &ev = t.events[e];
        QString heading =
            tr("SELECTED: %1, %2 AT %3")
                .arg(s.clients[ev.client].name, EventLogModel::kindName(ev.kind).toUpper(),
                     tickText(ev.tick).toUpper());
        if (ev.kind == Core::EventKind::WriteArrived) {
            const Core::Write &w = t.writes[ev.ref];
            heading += QStringLiteral(" — ") + EventLogModel::resultName(w.result).toUpper();
            border = m_theme.outcome(w.result).name();
        } else if (ev.kind == Core::EventKind::Grant || ev.kind == Core::EventKind::Renewal) {
            border = m_theme.lease.name();
        }
        m_selectedHeading->setText(heading);
        QString text = Core::explainEvent(s, t, e);
        if (compare)
            text = about(true, text);
        m_explanation->setText(text);

        // compare mode: the same action in the other run, when its outcome differs
        m_other->hide();
        if (compare) {
            const Core::Scenario &us = *cmp.bottom.scenario;
            const Core::Trace &u = *cmp.bottom.trace;
            const std::uint32_t ue =
                Core::outcomeEvent(us, u, std::uint32_t(sel.client), std::uint32_t(sel.action));
            if (ue != Core::kNone) {
                const QString other = Core::explainEvent(us, u, ue);
                if (other != Core::explainEvent(s, t, e)) {
                    m_other->setText(about(false, other));
                    QString c = m_theme.muted.name();
                    if (u.events[ue].kind == Core::EventKind::WriteArrived)
                        c = m_theme.outcome(u.writes[u.events[ue].ref].result).name();
                    m_other->setStyleSheet(
                        QStringLiteral(
                            "QLabel { color: %2; border: none; border-left: 6px solid %1; "
                            "padding-left: 10px; }")
                            .arg(c, m_theme.foreground.name()));
                    m_other->show();
                }
            }
        }
    }
    m_explanation->setStyleSheet(
        QStringLiteral(
            "QLabel { color: %2; border: none; border-left: 6px solid %1; padding-left: 10px; }")
            .arg(border, m_theme.foreground.name()));
}

void NarrationPanel::refreshState()
{
    const Core::Scenario &s = m_doc->scenario();
    const bool compare = m_state->compare();
    const Comparison cmp = comparison(*m_doc, *m_state);
    const Core::Trace &t = compare ? *cmp.top.trace : m_doc->trace();
    const bool atEnd = !m_state->hasPlayhead();
    const Core::Tick now = atEnd ? t.lastTick : m_state->playhead();
    // the end of the run is where its last event was, which the time axis may run past
    QString heading = atEnd
                          ? tr("AT THE END OF THE RUN (LAST EVENT %1)").arg(tickText(now).toUpper())
                          : tr("AT THE PLAYHEAD (%1)").arg(tickText(now).toUpper());
    if (compare)
        heading +=
            cmp.bySource ? tr(", WITH %1").arg(cmp.top.name.toUpper()) : tr(", WITH FENCING");
    m_stateHeading->setText(heading);
    m_stateText->setText(stateLines(s, t, now).join(QLatin1Char('\n')));
}

QStringList NarrationPanel::stateLines(const Core::Scenario &s, const Core::Trace &t,
                                       Core::Tick now)
{
    // every fact is core's (core/runstate.h); this only words it, each token in its source's form
    const auto token = [&t](Core::Token v) { return Core::formatToken(t.tokens, v); };
    QStringList lines;
    const Core::LockState lock = Core::lockStateAt(t, now);
    if (const Core::Lease *l = lock.holder) {
        lines << tr("Lock: held by %1 with token %2 until %3")
                     .arg(s.clients[l->client].name, token(l->token), tickText(l->end));
    } else {
        lines << (lock.last ? tr("Lock: free (last token %1)").arg(token(lock.last->token))
                            : tr("Lock: free, never granted yet"));
    }
    // Who believes what: the gap between belief and lease is the danger, and a zombie is a
    // client that acts on a lease it lost (its zombie window), not one that merely believes.
    for (std::uint32_t c = 0; c < s.clients.size() && c < t.beliefs.size(); ++c) {
        const QString name = s.clients[c].name;
        const Core::ClientState st = Core::clientStateAt(t, c, now);
        QString line;
        if (st.believed) {
            const QString held = token(st.believed->token);
            if (st.holds)
                line = tr("%1 holds the lock (token %2)").arg(name, held);
            else if (st.zombie)
                line = tr("%1 believes it holds token %2, but that lease ended at %3: a zombie, "
                          "it still acts on it")
                           .arg(name, held, tickText(st.believed->end));
            else
                line = tr("%1 believes it holds token %2, but that lease ended at %3 (it sends "
                          "nothing on it from here)")
                           .arg(name, held, tickText(st.believed->end));
        }
        if (st.frozen)
            line = (line.isEmpty() ? name : line) +
                   tr(" — frozen until %1").arg(tickText(st.frozen->to));
        if (!line.isEmpty())
            lines << line;
    }
    for (std::uint32_t i = 0; i < s.storages.size(); ++i) {
        const Core::StorageState st = Core::storageStateAt(s, t, i, now);
        const QString value =
            st.lastWrite == Core::kNone ? tr("(empty)") : QStringLiteral("'%1'").arg(st.value);
        const Core::StorageLevel level(s, t, i);
        if (level.gauge() == Core::StorageGauge::Version)
            lines << tr("Storage %1: %2, version %3 (compare-and-set: it checks versions, not "
                        "tokens)")
                         .arg(s.storages[i].name, value)
                         .arg(qulonglong(level.at(now)));
        else if (t.fencing)
            lines << tr("Storage %1: %2, max_token %3")
                         .arg(s.storages[i].name, value, token(level.at(now)));
        else
            lines
                << tr("Storage %1: %2 (fencing off: no max_token)").arg(s.storages[i].name, value);
    }
    return lines;
}
