// Check-then-write (SCENARIO.md section 11): a bracket under the markers from the check to the
// send (the gap in which a pause makes the checked write stale); a skipped write's hollow cross.

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class CheckBracketsPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit CheckBracketsPainter(const PaintContext &c) : PaintContext(c) {}

    // Check-then-write: a bracket under the markers from the check to the send (the gap in
    // which a pause makes the checked write stale); a skipped one as a hollow cross "skipped".
    void paintChecks(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        const QPen pen(m_st.th.foreground, 1.2 * m_st.lw);
        for (const Core::Check &c : t.checks) {
            if (c.at > m_tHi)
                break; // in the order they checked
            if (!c.passed || c.sendAt < m_tLo || c.client >= panel.clients.size())
                continue;
            // on the edge between the markers and the pause row (a pause in the gap lies
            // right under it), over the marker labels
            const ClientLaneRects &lane = panel.clients[c.client];
            const double x0 = X(c.at);
            const double x1 = std::max(X(c.sendAt), x0 + 1);
            const double y = lane.markers.bottom() + 1 * f;
            const QPointF bracket[4] = {QPointF(x0, y - 6 * f), QPointF(x0, y), QPointF(x1, y),
                                        QPointF(x1, y - 6 * f)};
            m_p->setPen(pen);
            m_p->setBrush(Qt::NoBrush);
            m_p->drawPolyline(bracket, 4);
            const QString text = QObject::tr("check");
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            // in the visible part of the bracket only (it may run past either edge)
            const double left = std::max(x0, m_xmin) + 3 * f;
            const double right = std::min(x1, m_xmax);
            if (right - left > w + 3 * f && lane.pauses.height() > 0) {
                m_p->setFont(m_st.small);
                m_p->drawText(QRectF(left, y + 1, w, lane.pauses.bottom() - y - 1),
                              Qt::AlignLeft | Qt::AlignVCenter, text);
            }
        }
        for (const Core::Skip &k : t.skips) {
            if (k.at > m_tHi)
                break;
            if (k.at < m_tLo || k.client >= panel.clients.size())
                continue;
            const QRectF &row = panel.clients[k.client].markers;
            const double x = X(k.at);
            glyph(MarkerShape::Cross, QPointF(x, row.center().y()), Glyphs::kRadius * f,
                  m_st.th.muted, true);
            const QString text = QObject::tr("skipped");
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            if (x + 9 * f + w <= m_xmax) {
                m_p->setFont(m_st.small);
                m_p->setPen(m_st.th.foreground);
                m_p->drawText(QRectF(x + 9 * f, row.top(), w, row.height()),
                              Qt::AlignLeft | Qt::AlignVCenter, text);
            }
        }
    }
};

} // namespace

void CheckBracketsPass::paint(const PaintContext &c, const TimelinePanel &panel,
                              const Core::Trace &t, int)
{
    CheckBracketsPainter(c).paintChecks(panel, t);
}

} // namespace Render
