// How fencing goes wrong (docs/SCENARIO.md sections 11 and 12): keepalive renewals on the lease
// bar, where a client with its own clock thinks its lease ends, where it learns it lost the
// lock, and a bypass client's writes going straight down to the storage.

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class LeaseMarksPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit LeaseMarksPainter(const PaintContext &c) : PaintContext(c) {}

    // Keepalive renewals as short ticks along the holder's lease bar. Only the live holder's
    // keepalives renew, so one per pixel column is all there is to show: the first few grants
    // of a column are looked at, then the rest are jumped over (narrowed to a point, none is:
    // every one near it records its region).
    void paintKeepalives(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        const QPen pen(textOn(m_st.leaseFill), 1.5 * m_st.lw);
        const std::size_t look = narrowed() ? 1 : 16;
        std::size_t i = Core::firstGrantAt(t, m_tLo);
        while (i < t.grants.size() && t.grants[i].at <= m_tHi) {
            const int col = column(t.grants[i].at);
            const Tick last = lastTickOfColumn(col);
            std::size_t k = i;
            for (; k < t.grants.size() && k < i + look && t.grants[k].at <= last; ++k) {
                const Core::Grant &g = t.grants[k];
                if (!g.keepalive || g.client >= panel.clients.size() ||
                    !meetsRows(panel.clients[g.client].lane))
                    continue;
                const QRectF &row = panel.clients[g.client].holds;
                const double x = X(g.at);
                m_p->setPen(pen);
                m_p->drawLine(QPointF(x, row.top() + 2 * f), QPointF(x, row.top() + 9 * f));
                if (regions())
                    recordKeepalive(panel, t, k, x);
                break;
            }
            // (at least one step: rounding can put the column's last tick before its first)
            k = std::max(k, i + 1);
            i = narrowed() ? k
                           : std::max(k, gallop(k, t.grants.size(), last + 1,
                                                [&](std::size_t n) { return t.grants[n].at; }));
        }
    }

    // A keepalive tells of its renewal (core's words, Hit::Pitfall): along the top of the bar,
    // within half a grip (and a pixel) of its tick, over the bar but under the bar's end.
    void recordKeepalive(const TimelinePanel &panel, const Core::Trace &t, std::size_t k, double x)
    {
        const Core::Grant &g = t.grants[k];
        const std::uint32_t ev =
            eventOf(t, int(g.client), g.at, Core::EventKind::Renewal, std::uint32_t(k));
        if (ev == Core::kNone)
            return;
        const ClientLaneRects &r = panel.clients[g.client];
        QRectF band = holdBand(r);
        band.setBottom(r.holds.top() + 10 * m_st.f);
        const double reach = kGrip * std::max(1.0, m_st.f) / 2 + 1;
        region(x - reach, x + reach, band,
               clientHit(panel, int(g.client), TimelineRenderer::Hit::Pitfall, int(g.action), ev),
               RegionZ::Keepalive, x);
    }

    // A client with a clock of its own judges its lease by it (Core::ownLeaseEnd): a second,
    // dashed "expires" mark where it thinks the lease ends, after the real end when its clock
    // runs slow (it believes a lease the lock service has already ended), before it when fast.
    void paintOwnLeaseEnds(const TimelinePanel &panel, const Core::Trace &t)
    {
        bool clocks = false;
        for (const Core::Client &c : m_s.clients)
            clocks = clocks || !c.clock.isDefault();
        if (!clocks)
            return;
        const double f = m_st.f;
        const QColor color = m_st.th.belief.darker(170);
        const QPen pen(color, 1.5 * m_st.lw, Qt::DashLine);
        std::vector<int> painted(panel.clients.size(), std::numeric_limits<int>::min());
        // a slow clock ends a lease after the lock service does: a lease that ended before the
        // view may end in it by its holder's clock (those of the 4096 leases begun last by the
        // view's right edge are looked at)
        const std::size_t begun =
            std::size_t(std::upper_bound(t.leases.begin(), t.leases.end(), m_tHi,
                                         [](Tick v, const Core::Lease &l) { return v < l.start; }) -
                        t.leases.begin());
        const std::size_t from =
            std::min(firstLeaseEndingAfter(t, m_tLo), begun - std::min<std::size_t>(begun, 4096));
        for (std::size_t i = from; i < t.leases.size(); ++i) {
            const Core::Lease &l = t.leases[i];
            if (l.start > m_tHi)
                break;
            if (l.released || l.client >= panel.clients.size() || l.client >= m_s.clients.size() ||
                m_s.clients[l.client].clock.isDefault() ||
                !meetsRows(panel.clients[l.client].lane))
                continue;
            const Core::Grant *g = lastGrantOfEpoch(t, l.epoch);
            if (!g)
                continue;
            const Tick own = Core::ownLeaseEnd(m_s, *g);
            if (own == l.end || own == Core::kForever || own < m_tLo || own > m_tHi)
                continue;
            const double x = X(own);
            if (regions())
                recordOwnLeaseEnd(panel, i, int(l.client), *g, x);
            const int col = int(std::floor(x));
            if (col <= painted[l.client])
                continue;
            painted[l.client] = col;
            const ClientLaneRects &r = panel.clients[l.client];
            m_p->setPen(pen);
            m_p->drawLine(QPointF(x, r.holds.top()), QPointF(x, r.believes.bottom()));
            // the longest words that fit before the client's next lease (or the plot's edge):
            // in the belief row, else (a slow clock, past the real end) in the lease row, empty
            // there once the lease's own "expires" words end. The belief row's "told: lock lost"
            // may take the first (slow-client-clock on a 1280 px projector).
            const double room = std::min(m_xmax, nextLeaseStartOf(t, i, int(l.client)));
            const double afterLease =
                own > l.end
                    ? X(l.end) + 4 +
                          m_st.fmSmall.horizontalAdvance(QObject::tr("expires %1").arg(l.end)) + 6
                    : std::numeric_limits<double>::infinity();
            const QStringList texts{QObject::tr("expires %1 by its clock").arg(own),
                                    QObject::tr("%1 by its clock").arg(own),
                                    QObject::tr("own: %1").arg(own)};
            if (!chipRightOf(x, r.believes, room, texts) && x + 4 * f >= afterLease)
                chipRightOf(x, r.holds, room, texts);
        }
    }

    // Where a client's own clock ends lease i, on its belief row within a grip: what its clock
    // made of the renewal `g` that set the expiry (Hit::OwnLeaseEnd, `ref` the lease).
    void recordOwnLeaseEnd(const TimelinePanel &panel, std::size_t i, int c, const Core::Grant &g,
                           double x)
    {
        const double grip = kGrip * std::max(1.0, m_st.f);
        region(x - grip, x + grip, beliefBand(panel.clients[std::size_t(c)]),
               clientHit(panel, c, TimelineRenderer::Hit::OwnLeaseEnd, int(g.action),
                         std::uint32_t(i)),
               RegionZ::OwnLeaseEnd, x);
    }

    // The first of `texts` whose chip fits in `row` right of x, before `room`, where no label
    // is yet; false when none does.
    bool chipRightOf(double x, const QRectF &row, double room, const QStringList &texts)
    {
        Label label;
        label.forms = texts;
        label.color = m_st.th.foreground;
        label.small = true;
        label.row = row;
        label.x = x;
        label.side = Label::Side::Right;
        label.gap = 4 * m_st.f;
        label.end = room;
        label.free = true;
        label.take = true;
        return placeLabel(label);
    }

    // What core says of the loss (docs/SCENARIO.md section 12), within a grip of the bar, across
    // the client's lane below its lease bar.
    void recordLost(const TimelinePanel &panel, const Core::Trace &t, const Core::Lost &lost,
                    double x)
    {
        const double grip = kGrip * std::max(1.0, m_st.f);
        const ClientLaneRects &r = panel.clients[lost.client];
        TimelineRenderer::Hit hit;
        hit.part = TimelineRenderer::Hit::Pitfall;
        hit.client = int(lost.client);
        hit.lane = int(lost.client);
        hit.bottomPanel = panel.bottom;
        hit.ref = eventOf(t, int(lost.client), lost.at, Core::EventKind::Lost,
                          std::uint32_t(&lost - t.lost.data()));
        const double top = r.holds.bottom() + 1;
        region(QRectF(x - grip, top, 2 * grip, r.lane.bottom() - top), hit, RegionZ::Lost, x);
    }

    // Where a client learnt it lost the lock (Trace::lost): a bar across its belief row where
    // the band ends, "told: lease gone" after a failed keepalive.
    void paintLost(const TimelinePanel &panel, const Core::Trace &t)
    {
        if (t.lost.empty())
            return;
        const double f = m_st.f;
        std::vector<LabelRow> labels(panel.clients.size(), LabelRow{-1e300, m_xmin, m_xmax - 2, 6});
        std::vector<int> painted(panel.clients.size(), std::numeric_limits<int>::min());
        auto it = std::lower_bound(t.lost.begin(), t.lost.end(), m_tLo,
                                   [](const Core::Lost &l, Tick v) { return l.at < v; });
        for (; it != t.lost.end() && it->at <= m_tHi; ++it) {
            if (it->client >= panel.clients.size() || !meetsRows(panel.clients[it->client].lane))
                continue;
            const QRectF &row = panel.clients[it->client].believes;
            const double x = X(it->at);
            const int col = int(std::floor(x));
            if (col <= painted[it->client])
                continue;
            painted[it->client] = col;
            m_p->setPen(QPen(m_st.th.foreground, 2.5 * m_st.lw));
            m_p->drawLine(QPointF(x, row.top() - 1 * f), QPointF(x, row.bottom() + 1 * f));
            if (regions())
                recordLost(panel, t, *it, x);
            const QString text = it->reason == Core::LostReason::Keepalive
                                     ? QObject::tr("told: lease gone")
                                     : QObject::tr("own clock: lease gone");
            Label label = Label::note(text, m_st.th.foreground, row, x, 4 * f);
            label.room = &labels[it->client];
            label.free = true;
            label.take = true;
            placeLabel(label);
        }
    }

    // A bypass client's writes (an unfenced path) go straight through: a dashed line in the
    // corruption's colour from the write down to where it lands, past the lock lane and the
    // storage's check.
    void paintBypass(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        QPen pen(m_st.th.corrupted, 1.5 * m_st.lw, Qt::DashLine);
        for (std::size_t c = 0; c < panel.clients.size() && c < m_s.clients.size(); ++c) {
            if (!m_s.clients[c].bypass || c >= t.clientEvents.size() || narrowed())
                continue; // (narrowed: nothing of it answers the mouse)
            const std::vector<std::uint32_t> &evs = t.clientEvents[c];
            const std::size_t lo = firstClientEvent(t, evs, m_tLo);
            const std::size_t hi = firstClientEvent(t, evs, m_tHi + 1);
            if (hi - lo > 400)
                continue; // crowded: the header says it
            for (std::size_t i = lo; i < hi; ++i) {
                const Core::Event &e = t.events[evs[i]];
                if (e.kind != Core::EventKind::WriteSent)
                    continue;
                const Core::Write &w = t.writes[e.ref];
                if (w.storage >= panel.storages.size())
                    continue;
                const double xs = X(w.sentAt);
                const double xa = X(w.arrivedAt);
                const double y0 = panel.clients[c].markers.bottom();
                const double y1 = panel.storages[w.storage].outcomes.center().y() - 7 * f;
                m_p->setPen(pen);
                m_p->drawLine(QPointF(xs, y0), QPointF(xa, y1));
            }
        }
    }
};

} // namespace

bool LeaseMarksPass::recordsRegions() const
{
    return true;
}

void LeaseMarksPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                           int)
{
    LeaseMarksPainter p(c);
    p.paintKeepalives(panel, t);
    p.paintOwnLeaseEnds(panel, t);
    p.paintLost(panel, t);
    p.paintBypass(panel, t);
}

} // namespace Render
