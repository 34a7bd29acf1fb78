// What the playhead, hover, selection and focus change from one paint to the next, over the
// content: the token counter in the lock lane's header, the hover and selection halos, the
// focus ring, the ruler's bottom line and the playhead (which dims what is still to come but
// the labels at its tick).

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class OverlayPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit OverlayPainter(const PaintContext &c) : PaintContext(c) {}

    // `text` when it fits `width` in the small font, else `shorter`, else `shorter` elided.
    QString fitted(const QString &text, const QString &shorter, double width) const
    {
        if (m_st.fmSmall.horizontalAdvance(text) <= width)
            return text;
        if (m_st.fmSmall.horizontalAdvance(shorter) <= width)
            return shorter;
        QString cut = shorter;
        while (cut.size() > 1 && m_st.fmSmall.horizontalAdvance(cut + QStringLiteral("…")) > width)
            cut.chop(1);
        return cut + QStringLiteral("…");
    }

    // Under "lock service": the token counter as it stands at the playhead (or at the end).
    void paintTokenCounter(const TimelinePanel &panel, const Core::Trace &t)
    {
        const QRectF h = lockHeaderText(panel);
        Core::Token counter = 0;
        const Tick at = m_o.playhead;
        auto it = std::upper_bound(t.grants.begin(), t.grants.end(), at,
                                   [](Tick v, const Core::Grant &g) { return v < g.at; });
        if (it != t.grants.begin())
            counter = (it - 1)->token;
        m_p->setFont(m_st.small);
        m_p->setPen(m_st.th.muted);
        m_p->drawText(QRectF(h.left(), h.top() + h.height() * 0.55, h.width(), h.height() * 0.45),
                      Qt::AlignLeft | Qt::AlignTop,
                      m_s.tokens == Core::TokenSource::Counter
                          ? QObject::tr("token counter: %1").arg(counter)
                          : fitted(QObject::tr("last token: %1").arg(tokenShort(m_s, counter)),
                                   tokenShort(m_s, counter), h.width()));
    }

    void paintHighlight(const TimelinePanel &panel, const Core::Trace &t, int client, int action,
                        bool selected)
    {
        if (client < 0 || action < 0 || std::size_t(client) >= panel.clients.size() ||
            std::size_t(client) >= m_s.clients.size() ||
            std::size_t(action) >= m_s.clients[std::size_t(client)].actions.size())
            return;
        const Core::Action &a = m_s.clients[std::size_t(client)].actions[std::size_t(action)];
        const ClientLaneRects &r = panel.clients[std::size_t(client)];
        QColor color = m_st.th.selection;
        if (!selected)
            color.setAlpha(130);
        QPen halo(color, (selected ? 5 : 4) * m_st.lw);
        halo.setJoinStyle(Qt::RoundJoin);
        m_p->setBrush(Qt::NoBrush);
        m_p->setPen(halo);
        const double pad = 3 * m_st.f;
        if (a.kind == Core::ActionKind::Pause) {
            const double x0 = X(a.at);
            const double x1 = std::max(X(a.at + a.amount), x0 + 1);
            m_p->drawRoundedRect(QRectF(x0 - pad, r.pauses.top() - pad, x1 - x0 + 2 * pad,
                                        r.pauses.height() + 2 * pad),
                                 4, 4);
            return;
        }
        const std::uint32_t ev = runEventOf(m_s, t, client, action);
        if (ev == Core::kNone)
            return;
        const Core::Event &e = t.events[ev];
        const double x = X(e.tick);
        const double rad = 10 * m_st.f;
        m_p->drawEllipse(QPointF(x, r.markers.center().y()), rad, rad);
        if (e.kind == Core::EventKind::WriteSent) {
            const Core::Write &w = t.writes[e.ref];
            const std::size_t su = w.storage;
            if (su < panel.storages.size()) {
                const double xa = X(w.arrivedAt);
                m_p->drawEllipse(QPointF(xa, panel.storages[su].outcomes.center().y()), rad, rad);
            }
        } else if (e.kind == Core::EventKind::Grant || e.kind == Core::EventKind::Renewal) {
            const Core::Grant &g = t.grants[e.ref];
            const double x1 = std::max(X(g.expires), x + 1);
            m_p->drawRect(QRectF(x, r.holds.top() - 1, x1 - x, r.holds.height() + 2));
        }
    }

    // The keyboard focus: a dashed ring in the foreground colour, outside the selection halo
    // (yellow on white alone would not reach 3:1), around an action or a lane's header cell.
    void paintFocusRing(const TimelinePanel &panel, const Core::Trace &t)
    {
        const bool storage = m_o.focusClient < 0 && m_o.focusStorage >= 0 &&
                             std::size_t(m_o.focusStorage) < panel.storages.size();
        const double in = 2 * m_o.theme.fontScale;
        const QRectF r =
            storage ? panel.storages[std::size_t(m_o.focusStorage)].header.adjusted(in, in, -in, -in)
                    : TimelineRenderer::focusRingRect(m_s, t, m_axis, m_l, panel, m_o,
                                                      m_o.focusClient, m_o.focusAction);
        if (r.isEmpty())
            return;
        QPen ring(m_st.th.foreground, 2 * m_st.lw, Qt::DashLine);
        m_p->save();
        m_p->setBrush(Qt::NoBrush);
        m_p->setPen(ring);
        if (m_o.focusAction < 0) {
            m_p->drawRect(r);
        } else {
            m_p->setClipRect(plotClip(panel));
            const Core::Action &a =
                m_s.clients[std::size_t(m_o.focusClient)].actions[std::size_t(m_o.focusAction)];
            if (a.kind == Core::ActionKind::Pause)
                m_p->drawRoundedRect(r, 5, 5);
            else
                m_p->drawRect(r);
        }
        m_p->restore();
    }

    void paintRulerLine()
    {
        const QRectF r = m_l.ruler;
        m_p->setPen(m_st.separator);
        m_p->drawLine(QPointF(r.left() - m_l.headerWidth, r.bottom()), r.bottomRight());
    }

    // What has not happened yet at the playhead is dimmed. The glyphs at the playhead's own
    // tick have happened: they stay bright (half a glyph, or half a tick when ticks are
    // narrower than that).
    // `at`: the playhead's x; `x`: its line's, which an animation moves on towards the next
    // step: a travelling line veils from just before itself, so the next step's glyph, which it
    // is about to reach, stays dimmed until the step is shown.
    void dimFuture(double at, double x, double bottom, const std::vector<QRectF> &present)
    {
        const double after =
            std::max(1.0, std::min(9 * m_o.theme.fontScale, 0.5 * m_axis.pixelsPerTick));
        const double from =
            m_o.playheadBefore
                ? m_xmin
                : std::max(m_xmin,
                           m_o.playheadTravel > 0 ? std::max(at + after, x - after) : x + after);
        const QRectF dim(from, m_l.plot.top(), m_xmax - from, bottom - m_l.plot.top());
        const QColor veil = withAlpha(m_st.th.background, 150);
        if (present.empty()) {
            m_bands.fill(m_p, dim, veil);
            return;
        }
        // a label of the playhead's tick reaching past it stays whole and bright
        QRegion region(dim.toAlignedRect());
        for (const QRectF &r : present)
            region -= QRegion(r.toAlignedRect());
        for (const QRect &r : region)
            m_bands.fill(m_p, QRectF(r), veil);
    }

    void paintPlayhead(double top, double bottom, const std::vector<QRectF> &present = {})
    {
        if (m_o.playhead == Core::kForever)
            return;
        const double at = m_axis.tickToX(double(m_o.playhead));
        const double x = m_axis.tickToX(double(m_o.playhead) + m_o.playheadTravel);
        if (at > m_xmax)
            return;
        m_p->save();
        m_p->setClipRect(QRectF(m_xmin, top, m_xmax - m_xmin, bottom - top));
        if (!m_o.hideFuture) // (hidden, there is nothing after it to dim)
            dimFuture(at, x, bottom, present);
        if (x < m_xmin || x > m_xmax) { // scrolled past: all of the view is still to come
            m_p->restore();
            return;
        }
        QPen pen(m_st.th.playhead, 2 * m_st.lw);
        m_p->setPen(pen);
        m_p->drawLine(QPointF(x, top), QPointF(x, bottom));
        const QString text = m_o.playheadBefore
                                 ? QObject::tr("start")
                                 : QStringLiteral("t=%1").arg(
                                       m_o.playhead + Core::Tick(std::floor(m_o.playheadTravel)));
        m_p->setFont(m_st.bold);
        const double w = m_st.fmBold.horizontalAdvance(text) + 10;
        // centred on the line, but whole: at the plot's edges it slides inwards
        const double left = std::clamp(x - w / 2, m_xmin, std::max(m_xmin, m_xmax - w));
        const QRectF badge(left, m_l.ruler.top() + 2, w, m_l.ruler.height() - 4);
        m_p->setPen(Qt::NoPen);
        m_p->setBrush(m_st.th.playhead);
        m_p->drawRoundedRect(badge, 4, 4);
        m_p->setPen(textOn(m_st.th.playhead));
        m_p->drawText(badge, Qt::AlignCenter, text);
        m_p->restore();
    }
};

} // namespace

void TokenCounterPass::paint(const PaintContext &c, const TimelinePanel &panel,
                             const Core::Trace &t, int)
{
    OverlayPainter(c).paintTokenCounter(panel, t);
}

void HighlightPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                          int)
{
    OverlayPainter p(c);
    const TimelineRenderer::Options &o = c.options();
    p.paintHighlight(panel, t, o.hoverClient, o.hoverAction, false);
    p.paintHighlight(panel, t, o.selection.client, o.selection.action, true);
}

void FocusRingPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                          int)
{
    OverlayPainter(c).paintFocusRing(panel, t);
}

void PlayheadPass::finish(const PaintContext &c)
{
    OverlayPainter p(c);
    p.paintRulerLine();
    const TimelineLayout &l = c.layout();
    const double bottom = l.panels.empty() ? l.plot.bottom() : l.panels.back().rect.bottom();
    p.paintPlayhead(l.ruler.top(), bottom, m_present ? *m_present : std::vector<QRectF>());
}

} // namespace Render
