// The lock service's own story (docs/SCENARIO.md sections 9 and 10): blocking acquires waiting on
// their client's lease row, and the lock-delay after an expiry as a band on the lock lane.

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class LockWaitsPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit LockWaitsPainter(const PaintContext &c) : PaintContext(c) {}

    // Blocking acquires, on the lease row of their client: a dashed bar from where it began to
    // wait to where it was granted (its lease bar starts there) or gave up.
    void paintWaits(const TimelinePanel &panel, const Core::Trace &t)
    {
        if (t.waits.empty())
            return;
        const double f = m_st.f;
        const QPen edge(m_st.th.muted, 1.2 * m_st.lw, Qt::DashLine);
        const QColor fill = mix(m_st.th.muted, m_st.th.background, 0.86);
        const double runEnd = X(std::max(t.horizon, t.lastTick + 1));
        std::vector<int> painted(panel.clients.size(), std::numeric_limits<int>::min());
        // waits are in the order they began: none after the first one beginning past the view
        const auto end = std::upper_bound(t.waits.begin(), t.waits.end(), m_tHi,
                                          [](Tick v, const Core::Wait &w) { return v < w.from; });
        for (auto it = t.waits.begin(); it != end; ++it) {
            const Core::Wait &w = *it;
            if ((w.to != Core::kForever && w.to < m_tLo) || w.client >= panel.clients.size() ||
                !meetsRows(panel.clients[w.client].lane))
                continue;
            const QRectF &row = panel.clients[w.client].holds;
            const double x0 = X(w.from);
            const double x1 = std::max(w.to == Core::kForever ? runEnd : X(w.to), x0 + 1);
            const int col = int(std::floor(x1));
            if (col <= painted[w.client])
                continue;
            painted[w.client] = col;
            const QRectF bar(x0, row.top() + 3 * f, x1 - x0, row.height() - 6 * f);
            m_p->fillRect(bar, fill);
            recordWait(panel, t, w, bar);
            if (bar.width() < 6)
                continue;
            m_p->setPen(edge);
            m_p->setBrush(Qt::NoBrush);
            m_p->drawRect(bar);
            fittedLabel(x0, x1, row,
                        {{QObject::tr("waiting for the lock"), 10}, {QObject::tr("waiting"), 8}},
                        m_st.th.foreground);
            if (!w.granted && w.to != Core::kForever) {
                Label label = Label::note(QObject::tr("gave up"), m_st.th.foreground, row, x1, 4);
                label.end = m_xmax;
                placeLabel(label);
            }
        }
    }

    // A wait that ended tells of how it ended: core's words for the grant that served it ("had
    // been waiting for it since ...") or for its giving up. Every mark on the row wins over it.
    void recordWait(const TimelinePanel &panel, const Core::Trace &t, const Core::Wait &w,
                    const QRectF &bar) const
    {
        if (!regions() || w.to == Core::kForever ||
            w.outcome >= (w.granted ? t.grants.size() : t.refusals.size()))
            return;
        const Tick at = w.granted ? t.grants[w.outcome].at : t.refusals[w.outcome].at;
        const Core::EventKind kind = !w.granted                    ? Core::EventKind::Refusal
                                     : t.grants[w.outcome].renewal ? Core::EventKind::Renewal
                                                                   : Core::EventKind::Grant;
        TimelineRenderer::Hit hit;
        hit.part = TimelineRenderer::Hit::Pitfall;
        hit.client = int(w.client);
        hit.action = int(w.action);
        hit.lane = int(w.client);
        hit.bottomPanel = panel.bottom;
        hit.ref = eventOf(t, int(w.client), at, kind, w.outcome);
        if (hit.ref != Core::kNone)
            region(bar, hit, RegionZ::Band, bar.left());
    }

    // The lock-delay after an expiry (Chubby): a hatched band on the lock lane in which the
    // lock is withheld from everyone but the client whose lease expired.
    void paintLockDelays(const TimelinePanel &panel, const Core::Trace &t)
    {
        const Tick d = m_s.lock.lockDelay;
        if (d == 0 || t.leases.empty() || !meetsRows(panel.lock))
            return;
        const QRectF row = panel.lockBars.adjusted(0, 5 * m_st.f, 0, -5 * m_st.f);
        const QColor fill = mix(m_st.th.refusal, m_st.th.background, 0.8);
        const QBrush hatch(withAlpha(m_st.th.refusal, 170), Qt::FDiagPattern);
        int painted = std::numeric_limits<int>::min();
        std::size_t i = firstLeaseEndingAfter(t, m_tLo > d ? m_tLo - d : 0);
        while (i < t.leases.size() && t.leases[i].end <= m_tHi) {
            const std::optional<Core::TickRange> span = Core::lockDelayAfter(m_s, t, i);
            std::size_t next = i + 1;
            if (span) {
                const double x0 = X(span->from);
                const double x1 = std::max(X(span->to), x0 + 1);
                const int col = int(std::floor(x1));
                if (col > painted) {
                    painted = col;
                    const QRectF band(x0, row.top(), x1 - x0, row.height());
                    m_canvas.fill(band, fill);
                    m_canvas.fill(band, hatch);
                    fittedLabel(x0, x1, row, {{QObject::tr("lock-delay"), 8}}, m_st.th.foreground);
                }
                // leases ending in the column this band ended in add nothing: jump
                const Tick last = lastTickOfColumn(col);
                next = std::max(next, gallop(next, t.leases.size(), last + 1,
                                             [&](std::size_t n) { return t.leases[n].end; }));
            }
            i = next;
        }
    }
};

} // namespace

bool LockWaitsPass::recordsRegions() const
{
    return true;
}

void LockWaitsPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                          int)
{
    LockWaitsPainter p(c);
    p.paintWaits(panel, t);
    p.paintLockDelays(panel, t);
}

} // namespace Render
