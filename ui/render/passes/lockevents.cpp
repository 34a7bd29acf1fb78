// The lock service lane's event row: restores, failovers, failed elections, the service's own
// elections, clock steps (docs/SCENARIO.md sections 10 and 15), and a re-arm's mark and end.

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class LockEventsPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit LockEventsPainter(const PaintContext &c) : PaintContext(c) {}

    // What the lock service itself went through: a restore as a line across the lock lane
    // ("restored from t12"), in the corruption's colour with a falling mark when the next
    // token is not above one already handed out; failovers, failed elections and clock steps
    // as short marks in the source's words. Labels in the lane's top row, where there is room.
    void paintLockEvents(const TimelinePanel &panel, const Core::Trace &t)
    {
        if (t.lockEvents.empty() || panel.lockEvents.height() <= 0)
            return;
        const double f = m_st.f;
        const QRectF &top = panel.lockEvents;
        LabelRow labels{-1e300, m_xmin, m_xmax, 6};
        int painted = std::numeric_limits<int>::min();
        auto it = std::lower_bound(t.lockEvents.begin(), t.lockEvents.end(), m_tLo,
                                   [](const Core::LockEvent &e, Tick v) { return e.tick < v; });
        for (; it != t.lockEvents.end() && it->tick <= m_tHi; ++it) {
            const Core::LockEvent &e = *it;
            const double x = X(e.tick);
            const int col = int(std::floor(x));
            if (col <= painted)
                continue;
            painted = col;
            QColor color = m_st.th.muted;
            std::vector<QString> texts;
            // a lease this event's new leader re-armed (section 15.3): a mark across the lease
            // row, and its new end after the event's words
            QString rearmed;
            for (const Core::Rearm &r : t.rearms)
                if (r.at == e.tick) {
                    rearmed = QObject::tr(" · re-armed to t%1").arg(r.expires);
                    m_p->setPen(QPen(m_st.th.foreground, 1.5 * m_st.lw, Qt::DotLine));
                    m_p->drawLine(QPointF(x + 2 * f, panel.lockBars.top()),
                                  QPointF(x + 2 * f, panel.lockBars.bottom()));
                }
            if (e.kind == Core::LockEventKind::Restore) {
                const Core::RestoreReissue re = Core::restoreReissue(t, e);
                const Core::LockRestore *r =
                    e.ref < m_s.lock.restores.size() ? &m_s.lock.restores[e.ref] : nullptr;
                const QString from =
                    r ? QObject::tr("restored from t%1").arg(r->from) : QObject::tr("restored");
                color = re.dangerous ? m_st.th.corrupted : m_st.th.foreground;
                m_p->setPen(QPen(color, (re.dangerous ? 2.5 : 1.5) * m_st.lw,
                                 re.dangerous ? Qt::SolidLine : Qt::DashLine));
                m_p->drawLine(QPointF(x, panel.lock.top() + 1),
                              QPointF(x, panel.lock.bottom() - 1));
                if (re.dangerous) {
                    // the counter falls back: a downward mark just right of the line
                    const double h = 5 * f;
                    const QPointF tri[3] = {QPointF(x + 2 * f, top.center().y() - h / 2),
                                            QPointF(x + 2 * f + 2 * h, top.center().y() - h / 2),
                                            QPointF(x + 2 * f + h, top.center().y() + h / 2)};
                    m_p->setPen(Qt::NoPen);
                    m_p->setBrush(color);
                    m_p->drawPolygon(tri, 3);
                    texts = {
                        QObject::tr("%1 · next %2 ≤ %3 handed out")
                            .arg(from, tokenShort(m_s, re.next), tokenShort(m_s, re.handedOut)),
                        QObject::tr("%1 · token goes back").arg(from), from};
                } else if (r && r->bump > 0) {
                    texts = {QObject::tr("%1 · bump %2").arg(from).arg(r->bump), from};
                } else {
                    texts = {from};
                }
                if (!rearmed.isEmpty())
                    texts.insert(texts.begin(), from + rearmed);
                color = re.dangerous ? m_st.th.corruptedText : m_st.th.foreground;
            } else {
                m_p->setPen(QPen(m_st.th.muted, 2 * m_st.lw));
                m_p->drawLine(QPointF(x, top.top()), QPointF(x, panel.lockBars.top() + 6 * f));
                switch (e.kind) {
                case Core::LockEventKind::Failover:
                    texts = {QObject::tr("ZK leader failover"), QObject::tr("failover")};
                    if (!rearmed.isEmpty())
                        texts.insert(texts.begin(), {QObject::tr("ZK leader failover") + rearmed,
                                                     QObject::tr("failover") + rearmed});
                    break;
                case Core::LockEventKind::Election:
                    texts = {QObject::tr("service leader elected: term %1").arg(e.counter),
                             QObject::tr("term %1").arg(e.counter)};
                    break;
                case Core::LockEventKind::FailedElection:
                    texts = {QObject::tr("term passes, no leader"), QObject::tr("no leader")};
                    break;
                case Core::LockEventKind::ClockStep: {
                    const std::int64_t by =
                        e.ref < m_s.lock.clockSteps.size() ? m_s.lock.clockSteps[e.ref].by : 0;
                    const QString step =
                        by < 0 ? QString::number(by) : QStringLiteral("+%1").arg(by);
                    texts = {QObject::tr("NTP step %1").arg(step), step};
                    break;
                }
                case Core::LockEventKind::Restore:
                    break;
                }
                color = m_st.th.foreground;
            }
            if (texts.empty())
                continue;
            Label label = Label::note({}, color, top, x,
                                      (e.kind == Core::LockEventKind::Restore ? 14 : 4) * f);
            label.forms = QStringList(texts.begin(), texts.end());
            label.pad = 2;
            label.room = &labels;
            placeLabel(label);
        }
    }
};

} // namespace

bool LockEventsPass::recordsRegions() const
{
    return false;
}

void LockEventsPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                           int)
{
    LockEventsPainter(c).paintLockEvents(panel, t);
}

} // namespace Render
