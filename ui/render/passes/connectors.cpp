// Faint connectors from each write down to the storage lane it arrives on, under everything
// else, so the eye can follow a write to its outcome (only when few writes are in view).

#include "passes.h"

#include "paintcontext.h"

#include <algorithm>
#include <cmath>

namespace Render {

namespace {

class ConnectorsPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit ConnectorsPainter(const PaintContext &c) : PaintContext(c) {}

    // Faint lines from each write down to its storage lane, under everything else, so the
    // eye can follow a write to its outcome. Only when few writes are in view.
    void paintConnectors(const TimelinePanel &panel, const Core::Trace &t)
    {
        for (std::size_t s = 0; s < panel.storages.size() && s < t.storageWrites.size(); ++s) {
            const std::vector<std::uint32_t> &ws = t.storageWrites[s];
            const std::size_t lo = firstArrival(t, ws, m_tLo);
            const std::size_t hi = firstArrival(t, ws, m_tHi + 1);
            if (hi - lo > 200)
                continue;
            const double y1 = panel.storages[s].outcomes.top();
            for (std::size_t i = lo; i < hi; ++i) {
                const Core::Write &w = t.writes[ws[i]];
                if (w.client >= panel.clients.size())
                    continue;
                const double x = X(w.arrivedAt);
                const QColor color = withAlpha(m_st.th.outcome(w.result), 150);
                const double width = 1.3 * m_st.lw;
                const QPointF from(x, panel.clients[w.client].markers.bottom());
                const QPointF to(x, y1);
                // a dashed line is stroked dash by dash and blended in one-pixel spans: the
                // most costly item of a zoomed-in paint, and the same on every repaint
                m_canvas.viaSprite(
                    [&] {
                        return SpriteKey(SpriteKind::Connector, color.rgba64(), width,
                                         to.y() - from.y());
                    },
                    from,
                    // (up or down: under pinned lanes a client lane can lie below its storage)
                    QRectF(x - width - 1, std::min(from.y(), to.y()) - width - 1, 2 * width + 2,
                           std::abs(to.y() - from.y()) + 2 * width + 2),
                    Canvas::wholeRows(from.y()) && Canvas::wholeRows(to.y()),
                    [&](auto *p) {
                        p->setPen(QPen(color, width, Qt::DashLine));
                        p->drawLine(from, to);
                    });
            }
        }
    }
};

} // namespace

bool ConnectorsPass::recordsRegions() const
{
    return false;
}

void ConnectorsPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                           int)
{
    ConnectorsPainter(c).paintConnectors(panel, t);
}

} // namespace Render
