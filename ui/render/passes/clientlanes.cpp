// The client lanes' markers: acquires, renewals, refusals, releases, writes (with their delay
// arrows) and pauses, with their labels where there is room; zoomed out, one item per pixel
// column (paintClientDense).

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class ClientLanesPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit ClientLanesPainter(const PaintContext &c) : PaintContext(c) {}

    void paintClient(const TimelinePanel &panel, int c, const Core::Trace &t)
    {
        const std::size_t cu = std::size_t(c);
        if (cu >= t.clientEvents.size())
            return;
        const ClientLaneRects &r = panel.clients[cu];
        const std::vector<std::uint32_t> &evs = t.clientEvents[cu];
        const std::size_t lo = firstClientEvent(t, evs, m_tLo);
        const std::size_t hi = firstClientEvent(t, evs, m_tHi + 1);
        const bool dense = double(hi - lo) > (m_xmax - m_xmin) / 3;
        // (narrowed to a point, nothing painted is shown: only what the mouse finds there is
        // wanted, and the markers' words cost the most to lay out)
        if (!narrowed()) {
            if (dense)
                paintClientDense(c, r, t, evs, lo, hi);
            else
                paintClientDetailed(c, r, t, evs, lo, hi);
        }
        // a crowded lane's one-pixel columns are no items to find; narrowed to a point, every
        // item near it is one
        if (regions() && (!dense || narrowed())) {
            recordPauses(panel, c, t, evs, lo, hi);
            recordMarkers(panel, c, t, evs, lo, hi);
        }
    }

    // The first of the lane's events to look at for pauses: from the start of the first frozen
    // stretch still live at the left edge, so that blocks begun before the view reach into it.
    std::size_t firstPauseEvent(int c, const Core::Trace &t, const std::vector<std::uint32_t> &evs,
                                std::size_t lo) const
    {
        const std::vector<Core::Freeze> &fs = t.freezes[std::size_t(c)];
        const std::size_t fz = firstFreezeEndingAfter(fs, m_tLo);
        return fz < fs.size() && fs[fz].from < m_tLo ? firstClientEvent(t, evs, fs[fz].from) : lo;
    }

    // Where a pause's block is drawn, from its start to its end (at least a pixel).
    std::pair<double, double> pauseSpan(const Core::Action &a) const
    {
        const double x0 = X(a.at);
        return {x0, std::max(X(a.at + a.amount), x0 + 1)};
    }

    // Each pause's block, and its edges over the blocks, grabbed within a grip; a narrow block
    // keeps a grabbable middle (the edges take at most a third of it each). The ends are
    // recorded after the starts: where one pause ends as the next begins, the end answers.
    void recordPauses(const TimelinePanel &panel, int c, const Core::Trace &t,
                      const std::vector<std::uint32_t> &evs, std::size_t lo, std::size_t hi)
    {
        const ClientLaneRects &r = panel.clients[std::size_t(c)];
        const QRectF band = pauseBand(r);
        if (band.isEmpty())
            return;
        const Core::Client &client = m_s.clients[std::size_t(c)];
        const double grip = kGrip * std::max(1.0, m_st.f);
        const std::size_t from = firstPauseEvent(c, t, evs, lo);
        for (const bool ends : {false, true}) {
            for (std::size_t i = from; i < hi; ++i) {
                const Core::Event &e = t.events[evs[i]];
                if (e.kind != Core::EventKind::PauseStart)
                    continue;
                const Core::Action &a = client.actions[e.ref];
                if (a.at + a.amount < m_tLo)
                    continue;
                const auto [x0, x1] = pauseSpan(a);
                const double reach = std::max(std::min(grip, (x1 - x0) / 3), 1.0);
                using Hit = TimelineRenderer::Hit;
                if (ends) {
                    region(x1 - reach, x1 + reach, band,
                           clientHit(panel, c, Hit::PauseEnd, int(e.ref)), RegionZ::PauseEdge, x1);
                    continue;
                }
                region(x0, x1, band, clientHit(panel, c, Hit::PauseBody, int(e.ref)),
                       RegionZ::PauseBody, x0);
                region(x0 - reach, x0 + reach, band,
                       clientHit(panel, c, Hit::PauseStart, int(e.ref)), RegionZ::PauseEdge, x0);
            }
        }
    }

    // Every marker within a grip (and a pixel), from the marker row up through its labels, and
    // a delayed write's arrow head on the marker row; in the order of the lane's events, so that
    // of two on one spot the later answers. A skipped write (its cross is CheckBracketsPass's)
    // and a read's send (its arrow comes up at the arrival) answer as the markers of their
    // actions, in that order too.
    void recordMarkers(const TimelinePanel &panel, int c, const Core::Trace &t,
                       const std::vector<std::uint32_t> &evs, std::size_t lo, std::size_t hi)
    {
        using Hit = TimelineRenderer::Hit;
        const QRectF band = markerBand(panel.clients[std::size_t(c)]);
        QRectF heads = band;
        heads.setTop(panel.clients[std::size_t(c)].markers.top());
        const double reach = kGrip * std::max(1.0, m_st.f) + 1;
        for (std::size_t i = lo; i < hi; ++i) {
            const Core::Event &e = t.events[evs[i]];
            if (e.kind == Core::EventKind::WriteArrived) {
                const Core::Write &w = t.writes[e.ref];
                const double x = X(w.arrivedAt);
                if (w.arrivedAt > w.sentAt)
                    region(x - reach, x + reach, heads,
                           clientHit(panel, c, Hit::DelayHead, int(w.action)), RegionZ::Marker, x);
                continue;
            }
            if ((!isMarker(e.kind) && e.kind != Core::EventKind::Skipped &&
                 e.kind != Core::EventKind::ReadSent) ||
                isKeepalive(t, e))
                continue;
            Hit::Part part = Hit::WriteMarker;
            if (e.kind == Core::EventKind::Grant || e.kind == Core::EventKind::Renewal ||
                e.kind == Core::EventKind::Refusal)
                part = Hit::AcquireMarker;
            else if (e.kind == Core::EventKind::Release)
                part = Hit::ReleaseMarker;
            const double x = X(t.eventTime(evs[i]));
            region(x - reach, x + reach, band,
                   clientHit(panel, c, part, int(Core::actionOfEvent(t, evs[i]))), RegionZ::Marker,
                   x);
        }
    }

    QString markerText(const Core::Trace &t, const Core::Event &e) const
    {
        switch (e.kind) {
        case Core::EventKind::Grant:
            return QObject::tr("acquire → %1").arg(tokenLabel(m_s, t.grants[e.ref].token));
        case Core::EventKind::Renewal:
            return QObject::tr("renew → %1").arg(tokenLabel(m_s, t.grants[e.ref].token));
        case Core::EventKind::Refusal:
            return QObject::tr("acquire refused");
        case Core::EventKind::Release:
            return t.releases[e.ref].effective ? QObject::tr("release")
                                               : QObject::tr("release (not holder)");
        case Core::EventKind::WriteSent: {
            const Core::Write &w = t.writes[e.ref];
            const QString &v = Core::writeValue(m_s, w);
            return w.tagged ? QObject::tr("write %1 with %2")
                                  .arg(quoted(v), tokenLabel(m_s, writeToken(t, w)))
                            : QObject::tr("write %1, no token").arg(quoted(v));
        }
        default:
            return {};
        }
    }

    // The shortest label that still says which item it is: a write's value, a grant's token.
    QString compactMarkerText(const Core::Trace &t, const Core::Event &e) const
    {
        switch (e.kind) {
        case Core::EventKind::Grant:
        case Core::EventKind::Renewal:
            return tokenLabel(m_s, t.grants[e.ref].token);
        case Core::EventKind::WriteSent:
            return quoted(Core::writeValue(m_s, t.writes[e.ref]));
        default:
            return {};
        }
    }

    void markerGlyph(const Core::Trace &t, const Core::Event &e, double x, const QRectF &row)
    {
        const double r = Glyphs::kRadius * m_st.f;
        const QPointF c(x, row.center().y());
        switch (e.kind) {
        case Core::EventKind::Grant:
            glyph(MarkerShape::Circle, c, r, m_st.th.lease);
            break;
        case Core::EventKind::Renewal:
            glyph(MarkerShape::Circle, c, r, m_st.th.lease, true);
            break;
        case Core::EventKind::Refusal: {
            // a hollow circle crossed out: asked for the lock, did not get it
            Glyphs::paintRefusal(m_p, c, r, m_st.th.refusal, m_st.th.background, m_st.lw);
            break;
        }
        case Core::EventKind::Release: {
            const QPen pen(m_st.th.foreground, 1.3 * m_st.lw);
            const QBrush brush = t.releases[e.ref].effective ? QBrush(m_st.th.foreground)
                                                             : QBrush(m_st.th.background);
            layered(Shape::Rect, r, c, r + pen.widthF() + 1, pen, brush, true,
                    [&](auto *p) { Glyphs::draw(p, Glyphs::Kind::Box, c, r); });
            break;
        }
        case Core::EventKind::WriteSent: {
            // a pen nib pointing down towards the storage lanes
            const Core::Write &w = t.writes[e.ref];
            const QPen pen(m_st.th.write, 1.2 * m_st.lw);
            // a write still in flight when a partial trace (a drag step) stops has no fate yet
            const bool pending = w.arrivedAt >= t.pendingFrom;
            const QBrush brush(pending ? m_st.th.background
                                       : mix(m_st.th.outcome(w.result), m_st.th.background, 0.0));
            layered(Shape::Nib, r, c, r * 1.4 + pen.widthF() + 1, pen, brush, false,
                    [&](auto *p) { Glyphs::draw(p, Glyphs::Kind::Nib, c, r); });
            break;
        }
        default:
            break;
        }
    }

    void delayArrow(double x0, double x1, const QRectF &row, bool head)
    {
        const double y = row.center().y();
        const double h = 5 * m_st.f;
        m_p->setPen(m_st.arrow);
        m_p->drawLine(QPointF(x0, y), QPointF(head ? x1 - h : x1, y));
        if (head) {
            m_p->setBrush(m_st.th.write);
            const QPointF pts[3] = {{x1, y}, {x1 - 2 * h, y - h}, {x1 - 2 * h, y + h}};
            m_p->drawPolygon(pts, 3);
        }
    }

    void paintClientDetailed(int c, const ClientLaneRects &r, const Core::Trace &t,
                             const std::vector<std::uint32_t> &evs, std::size_t lo, std::size_t hi)
    {
        const Core::Client &client = m_s.clients[std::size_t(c)];
        // pause blocks that started before the view but reach into it
        const std::size_t from = firstPauseEvent(c, t, evs, lo);

        LabelRow pauseLabels{-1e300, m_xmin, m_xmax, 6};
        LabelRow labels{-1e300, m_xmin + 2, m_xmax - 2, 6};
        LabelRow inline_{-1e300, m_xmin + 2, m_xmax - 2, 6};
        // pauses first (under the markers), then arrows, then markers with their labels
        for (std::size_t i = from; i < hi; ++i) {
            const Core::Event &e = t.events[evs[i]];
            if (e.kind != Core::EventKind::PauseStart)
                continue;
            const Core::Action &a = client.actions[e.ref];
            const Tick end = a.at + a.amount;
            if (end < m_tLo)
                continue;
            const auto [x0, x1] = pauseSpan(a);
            const QRectF block(x0, r.pauses.top(), x1 - x0, r.pauses.height());
            m_p->fillRect(block, m_st.pauseFill);
            m_p->fillRect(block, m_st.pauseHatch);
            m_p->setPen(m_st.pauseEdge);
            m_p->setBrush(Qt::NoBrush);
            m_p->drawRect(block);
            const QString text = QObject::tr("paused %1 ticks").arg(a.amount);
            // in the part of it that shows (hiding the future: up to the playhead)
            const double left = std::max(x0, m_xmin);
            const double right = std::min(x1, m_shownRight);
            const double cx = (left + right) / 2;
            const double w = m_st.fmLabel.horizontalAdvance(text) + 8;
            if (w < right - left - 6) {
                // (a read's words may go in the pause row too: they keep off these)
                Label label = Label::centred(text, m_st.th.foreground, r.pauses, cx, pauseLabels);
                label.take = true;
                placeLabel(label);
            }
        }
        for (std::size_t i = lo; i < hi; ++i) {
            const Core::Event &e = t.events[evs[i]];
            if (e.kind == Core::EventKind::WriteSent) {
                const Core::Write &w = t.writes[e.ref];
                if (w.arrivedAt > w.sentAt)
                    delayArrow(X(w.sentAt), X(w.arrivedAt), r.markers, true);
            } else if (e.kind == Core::EventKind::WriteArrived) {
                const Core::Write &w = t.writes[e.ref];
                if (w.sentAt < m_tLo) // its send lies left of the view
                    delayArrow(X(w.sentAt), X(w.arrivedAt), r.markers, true);
            }
        }
        int lastCol = std::numeric_limits<int>::min();
        Core::EventKind lastKind = Core::EventKind::Grant;
        for (std::size_t i = lo; i < hi; ++i) {
            const Core::Event &e = t.events[evs[i]];
            if (!isMarker(e.kind) || isKeepalive(t, e))
                continue;
            const double x = X(t.eventTime(evs[i])); // (between ticks for an observed run)
            const std::uint32_t action = Core::actionOfEvent(t, evs[i]);
            const Core::Action &a = client.actions[action];
            const Tick due = dueTick(a);
            // deferred: scheduled while frozen, ran when the client thawed
            if (due < e.tick) {
                const double xs = X(due);
                const double y = r.markers.center().y();
                m_p->setPen(m_st.deferred);
                m_p->drawLine(QPointF(xs, y), QPointF(x, y));
                m_p->setBrush(m_st.th.background);
                m_p->setPen(QPen(m_st.th.muted, 1.2 * m_st.lw));
                m_p->drawEllipse(QPointF(xs, y), 3 * m_st.f, 3 * m_st.f);
            }
            const int col = int(std::floor(x));
            // one glyph of a kind per pixel; a write sent at its grant's tick (a blocking acquire
            // that waited) is drawn over the grant, and named like any other
            if (col == lastCol && e.kind == lastKind)
                continue;
            lastCol = col;
            lastKind = e.kind;
            markerGlyph(t, e, x, r.markers);
            QString text = markerText(t, e);
            if (due < e.tick)
                text += QObject::tr(" (due %1, ran late)").arg(due);
            QColor color = m_st.th.foreground;
            if (e.kind == Core::EventKind::Refusal)
                color = m_st.th.refusal;
            if (placeLabel(Label::centred(text, color, r.labels, x, labels)))
                continue;
            if (due < e.tick &&
                placeLabel(Label::centred(markerText(t, e), color, r.labels, x, labels)))
                continue;
            // no room above: beside the glyph, up to the next marker (or its deferred link)
            double limit = m_xmax - 2;
            for (std::size_t k = i + 1, n = 0; k < hi && n < 32; ++k, ++n) {
                const Core::Event &ne = t.events[evs[k]];
                if (!isMarker(ne.kind) || isKeepalive(t, ne))
                    continue;
                // one of a kind in this pixel column is not drawn (above): no limit
                if (ne.kind == e.kind && int(std::floor(X(ne.tick))) == col)
                    continue;
                const Core::Action &na = client.actions[Core::actionOfEvent(t, evs[k])];
                limit = std::min(limit, X(std::min(na.at, ne.tick)) - 9 * m_st.f);
                break;
            }
            const auto beside = [&](const QString &text) {
                if (text.isEmpty())
                    return false;
                Label label;
                label.text = text;
                label.color = color;
                label.row = r.markers;
                label.x = x;
                label.side = Label::Side::Right;
                label.gap = 9 * m_st.f;
                label.end = limit;
                label.room = &inline_;
                return placeLabel(label);
            };
            if (beside(markerText(t, e)))
                continue;
            // crowded on both rows (two writes a few ticks apart): the short form, so that no
            // write goes unnamed ("'A1'"; the whole text is in the tooltip)
            const QString compact = compactMarkerText(t, e);
            if (!compact.isEmpty() &&
                !placeLabel(Label::centred(compact, color, r.labels, x, labels)))
                beside(compact);
        }
    }

    void paintClientDense(int c, const ClientLaneRects &r, const Core::Trace &t,
                          const std::vector<std::uint32_t> &evs, std::size_t lo, std::size_t hi)
    {
        // Too many events for detail: one glyph per pixel column, jumping over the rest.
        // Pause blocks are shown by their union, hatched, in the pause row.
        const std::vector<Core::Freeze> &fs = t.freezes[std::size_t(c)];
        {
            RunFill pauses(m_canvas, r.pauses.top(), r.pauses.height(), m_st.pauseFill,
                           m_st.pauseHatch, 1.5);
            std::size_t k = firstFreezeEndingAfter(fs, m_tLo);
            while (k < fs.size() && fs[k].from <= m_tHi) {
                const double x0 = X(fs[k].from);
                const double x1 = std::max(X(fs[k].to), x0 + 1);
                pauses.add(x0, x1);
                const Tick last = lastTickOfColumn(int(std::floor(x1)));
                k = gallop(k + 1, fs.size(), last + 1, [&](std::size_t n) { return fs[n].to; });
            }
        }
        const double y0 = r.markers.top() + 3 * m_st.f;
        const double y1 = r.markers.bottom() - 3 * m_st.f;
        // whole-pixel fills without antialiasing take the raster engine's fast path
        m_p->setRenderHint(QPainter::Antialiasing, false);
        std::size_t i = lo;
        int lastCol = std::numeric_limits<int>::min();
        std::size_t guess = 1;
        while (i < hi) {
            const Core::Event &e = t.events[evs[i]];
            const int col = column(e.tick);
            if (col == lastCol) {
                // jump to the first event in the next column
                i = clientEventAfterColumn(t, evs, i + 1, hi, col, guess);
                continue;
            }
            lastCol = col;
            QColor color = m_st.th.foreground;
            switch (e.kind) {
            case Core::EventKind::Grant:
            case Core::EventKind::Renewal:
                color = m_st.th.lease;
                break;
            case Core::EventKind::Refusal:
                color = m_st.th.refusal;
                break;
            case Core::EventKind::PauseStart:
            case Core::EventKind::PauseEnd:
                color = m_st.th.pause;
                break;
            case Core::EventKind::WriteArrived:
                color = m_st.th.outcome(t.writes[e.ref].result);
                break;
            default:
                break;
            }
            m_p->fillRect(QRect(col, int(y0), 1, int(y1 - y0)), color);
            ++i;
        }
        m_p->setRenderHint(QPainter::Antialiasing, true);
    }
};

} // namespace

bool ClientLanesPass::recordsRegions() const
{
    return true;
}

void ClientLanesPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                            int)
{
    ClientLanesPainter p(c);
    for (std::size_t i = 0; i < panel.clients.size(); ++i)
        if (c.meetsRows(panel.clients[i].lane))
            p.paintClient(panel, int(i), t);
}

} // namespace Render
