// Leases: the holder's lease bar on its client lane, and the same lease as a segment of the
// lock service lane, with its token.

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class LeasesPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit LeasesPainter(const PaintContext &c) : PaintContext(c) {}

    // Lease bars in the client lanes ("holds lock") and on the lock-service lane, in one pass
    // over the visible leases: at most one bar per pixel column and lane.
    void paintLeases(const TimelinePanel &panel, const Core::Trace &t)
    {
        const std::size_t nc = panel.clients.size();
        std::vector<int> painted(nc, std::numeric_limits<int>::min());
        std::vector<LabelRow> labels(nc, LabelRow{-1e300, m_xmin, m_xmax - 2, 6});
        int lockPainted = std::numeric_limits<int>::min();
        const QRectF lockRow = panel.lockBars.adjusted(0, 5 * m_st.f, 0, -5 * m_st.f);
        // narrow bars merge into runs; wide ones are drawn one by one, with words
        std::vector<std::unique_ptr<RunFill>> holdRuns;
        for (const ClientLaneRects &r : panel.clients)
            holdRuns.push_back(std::make_unique<RunFill>(m_canvas, r.holds.top(), r.holds.height(),
                                                         m_st.leaseFill));
        RunFill lockRun(m_canvas, lockRow.top(), lockRow.height(), m_st.lockFillA);
        m_p->setFont(m_st.label);
        // Leases ending in the column where lease i ended: a few are looked at so every
        // client that held the lock there gets its pixel, then the rest are jumped over.
        const auto next = [&](std::size_t i, int col) {
            if (narrowed())
                return i + 1; // every lease near the point records its own regions
            const Tick last = lastTickOfColumn(col);
            std::size_t k = i + 1;
            for (; k < t.leases.size() && k < i + 16 && t.leases[k].end <= last; ++k) {
                const std::uint32_t c = t.leases[k].client;
                if (c < nc && col > painted[c]) {
                    painted[c] = col;
                    holdRuns[c]->add(col, col + 1);
                }
            }
            return std::max(k, gallop(k, t.leases.size(), last + 1,
                                      [&](std::size_t n) { return t.leases[n].end; }));
        };
        std::size_t i = firstLeaseEndingAfter(t, m_tLo);
        for (; i < t.leases.size();
             i = next(i, int(std::floor(std::max(X(t.leases[i].end), X(t.leases[i].start) + 1))))) {
            const Core::Lease &l = t.leases[i];
            if (l.start > m_tHi)
                break;
            // where it really began and ended, for a run observed on a real system
            const Core::RealSpan real = t.leaseTime(i);
            const double x0 = X(real.from);
            const double x1 = std::max(X(real.to), x0 + 1);
            if (regions() && l.client < nc && meetsRows(panel.clients[l.client].lane))
                recordHold(panel, t, i, x0, x1);
            const int col = int(std::floor(x1));
            if (col > lockPainted && meetsRows(panel.lock)) {
                lockPainted = col;
                recordLockSegment(panel, t, l, x0, x1);
                if (x1 - x0 < 24) {
                    lockRun.add(x0, x1);
                } else {
                    lockRun.flush();
                    // service-term: an earlier owner held this very term (section 15.2)
                    const bool shared = t.tokens == Core::TokenSource::ServiceTerm && i > 0 &&
                                        t.leases[i - 1].token == l.token;
                    paintLockSegment(l, lockRow, x0, x1, shared);
                }
            }
            if (l.client >= nc || col <= painted[l.client] ||
                !meetsRows(panel.clients[l.client].lane))
                continue;
            painted[l.client] = col;
            if (x1 - x0 < 24) {
                holdRuns[l.client]->add(x0, x1);
            } else {
                holdRuns[l.client]->flush();
                paintHold(t, i, panel.clients[l.client].holds, x0, x1, labels[l.client]);
            }
        }
    }

    // The lease bar on its holder's lane stands for the acquire that began the lease; its end,
    // grabbed within a grip, for the acquire or renewal that set the expiry (a drag changes its
    // ttl), unless a release ended it.
    void recordHold(const TimelinePanel &panel, const Core::Trace &t, std::size_t i, double x0,
                    double x1)
    {
        using Hit = TimelineRenderer::Hit;
        const Core::Lease &l = t.leases[i];
        const int c = int(l.client);
        const QRectF band = holdBand(panel.clients[l.client]);
        if (const Core::Grant *g = firstGrantOfEpoch(t, l.epoch))
            region(x0, x1, band, clientHit(panel, c, Hit::LockSegment, int(g->action)),
                   RegionZ::LeaseBar, x0);
        if (l.released)
            return;
        const double grip = kGrip * std::max(1.0, m_st.f);
        if (const Core::Grant *g = lastGrantOfEpoch(t, l.epoch))
            region(x1 - grip, x1 + grip, band, clientHit(panel, c, Hit::LeaseEnd, int(g->action)),
                   RegionZ::LeaseEnd, x1);
    }

    void paintHold(const Core::Trace &t, std::size_t i, const QRectF &row, double x0, double x1,
                   LabelRow &labels)
    {
        const Core::Lease &l = t.leases[i];
        const QRectF bar(x0, row.top(), x1 - x0, row.height());
        m_p->fillRect(bar, m_st.leaseFill);
        if (bar.width() < 24)
            return; // no room for grips and words
        // a grip at the end: drag it to change the ttl (released leases end by release)
        if (!l.released) {
            m_p->fillRect(QRectF(x1 - 3 * m_st.f, row.top(), 3 * m_st.f, row.height()),
                          m_st.th.lease.darker(150));
        } else {
            m_p->setPen(QPen(m_st.th.foreground, 2 * m_st.lw));
            m_p->drawLine(QPointF(x1, row.top() - 2), QPointF(x1, row.bottom() + 2));
        }
        // (the padding counts the grip's 3 px too)
        fittedLabel(x0, x1, row, {{tokenLabel(m_s, l.token), 11}, {tokenShort(m_s, l.token), 7}},
                    textOn(m_st.leaseFill));
        // where it ends, in words, when there is room after the bar (not while the future is
        // hidden and the bar's end has not come yet: the words would stand past the playhead)
        if (!l.released && l.end <= m_tHi && x1 <= m_shownRight) {
            Label label =
                Label::note(QObject::tr("expires %1").arg(l.end), m_st.th.muted, row, x1, 4);
            label.room = &labels;
            label.fits = [&](const QRectF &box) {
                return nextLeaseStartOf(t, i, int(l.client)) > x1 + box.width() + 10;
            };
            placeLabel(label);
        }
    }

    // The lock service lane's segment of lease `l`, as painted from x0 to x1, across the whole
    // lane (its event row too): the lease, told by the acquire that began its epoch. Where
    // segments meet, the one beginning there answers.
    void recordLockSegment(const TimelinePanel &panel, const Core::Trace &t, const Core::Lease &l,
                           double x0, double x1)
    {
        if (!regions())
            return;
        // the leases come in the order of their epochs: gallop on from the last one's grant
        m_grant = gallop(m_grant, t.grants.size(), Tick(l.epoch),
                         [&](std::size_t n) { return Tick(t.grants[n].epoch); });
        if (m_grant >= t.grants.size() || t.grants[m_grant].epoch != l.epoch)
            return;
        const Core::Grant *g = &t.grants[m_grant];
        TimelineRenderer::Hit hit;
        hit.part = TimelineRenderer::Hit::LockSegment;
        hit.client = int(l.client);
        hit.action = int(g->action);
        hit.lane = int(panel.clients.size());
        hit.bottomPanel = panel.bottom;
        region(QRectF(x0, panel.lock.top(), x1 - x0, panel.lock.height()), hit,
               RegionZ::LockSegment, x0);
    }

    void paintLockSegment(const Core::Lease &l, const QRectF &row, double x0, double x1,
                          bool shared)
    {
        // alternate shades so back-to-back owners stay apart
        const QColor fill = l.epoch % 2 ? m_st.lockFillA : m_st.lockFillB;
        const QRectF bar(x0, row.top(), x1 - x0, row.height());
        m_p->fillRect(bar, fill);
        if (bar.width() < 24)
            return;
        m_p->setPen(QPen(m_st.th.background, 1));
        m_p->drawLine(bar.topLeft(), bar.bottomLeft());
        const QString name = l.client < m_s.clients.size() ? m_s.clients[l.client].name : QString();
        if (shared)
            fittedLabel(
                x0, x1, row,
                {{QObject::tr("%1 holds · %2, shared").arg(name, tokenLabel(m_s, l.token)), 8},
                 {QObject::tr("%1 · %2, shared").arg(name, tokenShort(m_s, l.token)), 6},
                 {QObject::tr("%1 · %2").arg(name, tokenShort(m_s, l.token)), 6}},
                textOn(fill));
        else
            fittedLabel(x0, x1, row,
                        {{QObject::tr("%1 holds · %2").arg(name, tokenLabel(m_s, l.token)), 8},
                         {QObject::tr("%1 · %2").arg(name, tokenShort(m_s, l.token)), 6}},
                        textOn(fill));
    }

private:
    std::size_t m_grant = 0; // where recordLockSegment found the last lease's first grant
};

} // namespace

bool LeasesPass::recordsRegions() const
{
    return true;
}

void LeasesPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t, int)
{
    LeasesPainter(c).paintLeases(panel, t);
}

} // namespace Render
