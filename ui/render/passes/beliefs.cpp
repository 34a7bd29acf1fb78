// Per client lane: the frozen stretches of a paused client, and the belief row: where the
// client believes it holds the lock, with the zombie part (believes, but the lease is gone).

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class BeliefsPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit BeliefsPainter(const PaintContext &c) : PaintContext(c) {}

    void paintFreezes(const std::vector<Core::Freeze> &fs, const ClientLaneRects &r)
    {
        RunFill tint(m_canvas, r.lane.top(), r.lane.height(), m_st.freezeTint, QBrush(), 2.5);
        std::size_t i = firstFreezeEndingAfter(fs, m_tLo);
        while (i < fs.size()) {
            const Core::Freeze &z = fs[i];
            if (z.from > m_tHi)
                break;
            const double x0 = X(z.from);
            const double x1 = std::max(X(z.to), x0 + 1);
            // the union of the pauses, subtly across the lane: the client is frozen here
            tint.add(x0, x1);
            // stretches that end inside the column this one ended in add nothing: jump
            const Tick last = lastTickOfColumn(int(std::floor(x1)));
            i = gallop(i + 1, fs.size(), last + 1, [&](std::size_t k) { return fs[k].to; });
        }
    }

    void paintBeliefs(int c, const ClientLaneRects &r, const Core::Trace &t)
    {
        const std::vector<Core::Belief> &bs = t.beliefs[std::size_t(c)];
        const QRectF &row = r.believes;
        const double end = double(std::max(t.horizon, t.lastTick + 1));
        int painted = std::numeric_limits<int>::min();
        int zombiePainted = std::numeric_limits<int>::min();
        LabelRow labels{-1e300, m_xmin, m_xmax, 8};
        RunFill belief(m_canvas, row.top(), row.height(), m_st.beliefFill, QBrush(), 1.5);
        RunFill zombieTint(m_canvas, r.lane.top(), r.lane.height(), m_st.zombieTint, QBrush(), 2.5);
        RunFill zombie(m_canvas, row.top(), row.height(), m_st.th.zombie, QBrush(), 1.5);
        // Beliefs that end in the pixel column where belief i ended add nothing but possibly a
        // zombie pixel: look at a few of them for that, then jump past them all.
        const auto next = [&](std::size_t i) {
            const Core::Belief &b = bs[i];
            if (b.to == Core::kForever)
                return bs.size();
            const int col = int(std::floor(std::max(X(b.to), X(b.from) + 1)));
            const Tick last = lastTickOfColumn(col);
            std::size_t k = i + 1;
            for (; k < bs.size() && k < i + 16 && bs[k].to <= last; ++k) {
                // (the column test first: the window is a search in the client's events)
                if (col > zombiePainted && !t.zombieWindow(std::uint32_t(c), k).empty()) {
                    zombiePainted = col;
                    zombieTint.add(col, col + 1);
                    zombie.add(col, col + 1);
                }
            }
            return std::max(
                k, gallop(k, bs.size(), last + 1, [&](std::size_t n) { return bs[n].to; }));
        };
        for (std::size_t i = firstBeliefEndingAfter(bs, m_tLo); i < bs.size(); i = next(i)) {
            const Core::Belief &b = bs[i];
            if (b.from > m_tHi)
                break;
            const double to =
                b.to == Core::kForever ? std::max(end, double(b.from) + 1) : double(b.to);
            const double x0 = X(b.from);
            const double x1 = std::max(X(to), x0 + 1);
            if (int(std::floor(x1)) > painted) {
                painted = int(std::floor(x1));
                belief.add(x0, x1);
            }
            // where it acts on the lock it lost (core decides): the zombie window. Tracked apart
            // from the belief so a crowded pixel never hides the danger. Past its lease but
            // doing nothing, the belief goes on quietly as plain belief.
            const Core::TickRange zw = t.zombieWindow(std::uint32_t(c), i);
            if (zw.empty())
                continue;
            // it ends at the stale write's marker where the reply ends the belief there
            const double zx0 = X(zw.from);
            const double zx1 = std::max(X(std::min(zw.to, std::max(b.to, zw.from + 1))), zx0 + 1);
            if (int(std::floor(zx1)) <= zombiePainted)
                continue;
            zombiePainted = int(std::floor(zx1));
            if (zx1 - zx0 < 3) {
                zombieTint.add(zx0, zx1);
                zombie.add(zx0, zx1);
                continue;
            }
            {
                belief.flush(); // drawn in order: the wide window goes on top
                zombieTint.flush();
                zombie.flush();
                const QRectF z(zx0, row.top(), zx1 - zx0, row.height());
                m_canvas.fill(QRectF(zx0, r.lane.top(), z.width(), r.lane.height()),
                              m_st.zombieTint);
                m_canvas.fill(z, m_st.zombieFill);
                m_canvas.fill(z, m_st.zombieHatch);
                m_canvas.outline(z, m_st.zombieEdge);
                // the label stays inside the window it names
                const double left = std::max(zx0, m_xmin);
                const double right = std::min(zx1, m_shownRight);
                for (const QString &text :
                     {QObject::tr("zombie: lease gone, still believes"), QObject::tr("zombie")}) {
                    if (m_st.fmLabel.horizontalAdvance(text) + 10 <= right - left) {
                        placeLabel(Label::centred(text, m_st.th.zombieText, row, (left + right) / 2,
                                                  labels));
                        break;
                    }
                }
            }
            // how the belief ended, where the client finds out
            if (x1 - x0 > 24 && b.to != Core::kForever && b.to <= m_tHi &&
                (b.end == Core::BeliefEnd::Rejected || b.end == Core::BeliefEnd::Refused)) {
                // a compare-and-set storage replies with its version, not a max_token
                bool byVersion = false;
                if (b.end == Core::BeliefEnd::Rejected && m_s.hasVersionStorage()) {
                    const std::vector<std::uint32_t> &ce = t.clientEvents[std::size_t(c)];
                    auto it = std::lower_bound(ce.begin(), ce.end(), b.to,
                                               [&](std::uint32_t ev, Core::Tick tick) {
                                                   return t.events[ev].tick < tick;
                                               });
                    for (; it != ce.end() && t.events[*it].tick == b.to; ++it) {
                        const Core::Event &e = t.events[*it];
                        if (e.kind == Core::EventKind::WriteArrived && !t.writes[e.ref].applied)
                            byVersion = m_s.storages[t.writes[e.ref].storage].check ==
                                        Core::StorageCheck::Version;
                    }
                }
                const QString text = b.end != Core::BeliefEnd::Rejected
                                         ? QObject::tr("refused: knows it lost the lock")
                                     : byVersion ? QObject::tr("told: version changed")
                                                 : QObject::tr("told: lock lost (max_token)");
                Label label = Label::note(text, m_st.th.muted, row, x1, 4);
                label.room = &labels;
                label.free = true;
                label.take = true;
                const double next = nextBeliefStart(bs, i);
                label.fits = [&](const QRectF &box) { return next > x1 + box.width() + 10; };
                placeLabel(label);
            }
        }
    }

    double nextBeliefStart(const std::vector<Core::Belief> &bs, std::size_t i) const
    {
        return i + 1 < bs.size() ? X(bs[i + 1].from) : m_xmax + 1000;
    }
};

} // namespace

bool BeliefsPass::recordsRegions() const
{
    return false;
}

void BeliefsPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                        int)
{
    BeliefsPainter p(c);
    for (std::size_t i = 0; i < panel.clients.size() && i < t.freezes.size(); ++i) {
        p.paintFreezes(t.freezes[i], panel.clients[i]);
        p.paintBeliefs(int(i), panel.clients[i], t);
    }
}

} // namespace Render
