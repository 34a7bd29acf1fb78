// Check-then-write (docs/SCENARIO.md section 11): a bracket under the markers from the check to the
// send (the gap in which a pause makes the checked write stale), named with its gap where no
// pause covers the words; a skipped write's hollow cross.

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class CheckBracketsPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit CheckBracketsPainter(const PaintContext &c) : PaintContext(c) {}

    // The bracket's end, grabbed to change the gap, and its body, which tells of the check
    // (docs/SCENARIO.md section 11): along the edge the bracket is drawn on.
    void recordBracket(const TimelinePanel &panel, const Core::Trace &t, const Core::Check &c,
                       double x0, double x1, double y)
    {
        const double f = m_st.f;
        const double grip = kGrip * std::max(1.0, f);
        TimelineRenderer::Hit hit;
        hit.client = int(c.client);
        hit.lane = int(c.client);
        hit.bottomPanel = panel.bottom;
        hit.action = int(c.action);
        hit.ref = eventOf(t, int(c.client), c.at, Core::EventKind::Checked,
                          std::uint32_t(&c - t.checks.data()));
        hit.part = TimelineRenderer::Hit::CheckBracket;
        region(QRectF(x0, y - 3 * f, x1 - x0, 7 * f), hit, RegionZ::CheckBracket, x0);
        hit.part = TimelineRenderer::Hit::CheckSend;
        region(QRectF(x1 - grip, y - 3 * f, 2 * grip, 7 * f), hit, RegionZ::CheckSend, x1);
    }

    // Check-then-write: a bracket under the markers from the check to the send (the gap in
    // which a pause makes the checked write stale); a skipped one as a hollow cross "skipped".
    void paintChecks(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        const QPen pen(m_st.th.foreground, 1.2 * m_st.lw);
        for (const Core::Check &c : t.checks) {
            if (c.at > m_tHi)
                break; // in the order they checked
            if (!c.passed || c.sendAt < m_tLo || c.client >= panel.clients.size() ||
                !meetsRows(panel.clients[c.client].lane))
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
            if (regions())
                recordBracket(panel, t, c, x0, x1, y);
            // "check · gap 4" in the pause row where no pause lies under it: left of the
            // check, else right of the send, else inside the bracket; a chip, so a line under
            // it never crosses the words
            if (lane.pauses.height() <= 0 || c.action >= m_s.clients[c.client].actions.size())
                continue;
            const Tick gap = m_s.clients[c.client].actions[c.action].gap();
            const QStringList texts{QObject::tr("check · gap %1").arg(gap), QObject::tr("check")};
            const QRectF row(0, lane.pauses.top(), 0, lane.pauses.height());
            const auto freeAt = [&](double left, double w) {
                if (left < m_xmin || left + w > m_xmax)
                    return false;
                for (const Core::Freeze &z : t.freezes[c.client])
                    if (X(z.from) < left + w && X(z.to) > left)
                        return false;
                return true;
            };
            Label label;
            label.color = m_st.th.foreground;
            label.small = true;
            label.pad = 8;
            label.row = row.adjusted(0, 1, 0, -1);
            label.gap = 3 * f;
            label.tells = x0;
            label.fits = [&](const QRectF &box) { return freeAt(box.left(), box.width()); };
            for (const QString &text : texts) {
                label.text = text;
                // left of the check; right of the send; inside the bracket, ending by the send
                // (a bracket with no width has only the first)
                label.side = Label::Side::Left;
                label.x = x0;
                label.end = std::numeric_limits<double>::infinity();
                if (placeLabel(label))
                    break;
                if (x1 == x0)
                    continue;
                label.side = Label::Side::Right;
                label.x = x1;
                if (placeLabel(label))
                    break;
                label.x = x0;
                label.end = x1;
                if (placeLabel(label))
                    break;
            }
        }
        for (const Core::Skip &k : t.skips) {
            if (k.at > m_tHi)
                break;
            if (k.at < m_tLo || k.client >= panel.clients.size() ||
                !meetsRows(panel.clients[k.client].lane))
                continue;
            const QRectF &row = panel.clients[k.client].markers;
            const double x = X(k.at);
            glyph(MarkerShape::Cross, QPointF(x, row.center().y()), Glyphs::kRadius * f,
                  m_st.th.muted, true);
            Label label = Label::note(QObject::tr("skipped"), m_st.th.foreground, row, x, 9 * f);
            label.end = m_xmax;
            placeLabel(label);
        }
    }
};

} // namespace

bool CheckBracketsPass::recordsRegions() const
{
    return true;
}

void CheckBracketsPass::paint(const PaintContext &c, const TimelinePanel &panel,
                              const Core::Trace &t, int)
{
    CheckBracketsPainter(c).paintChecks(panel, t);
}

} // namespace Render
