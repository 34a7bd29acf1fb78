// Reads of a version as arrows up from the storage to the reader (docs/SCENARIO.md section 12), and
// groups of writes across storages as one update, a partial one flagged (section 11).

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class ReadsGroupsPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit ReadsGroupsPainter(const PaintContext &c) : PaintContext(c) {}

    // Reads of a version (Trace::reads) as arrows up from the storage to the reader at the
    // arrival, where it learns the version: "read v3". Only when few are in view.
    void paintReads(const TimelinePanel &panel, const Core::Trace &t)
    {
        if (t.reads.empty())
            return;
        const double f = m_st.f;
        const QPen pen(m_st.th.maxToken, 1.2 * m_st.lw);
        std::vector<LabelRow> labels(panel.clients.size(), LabelRow{-1e300, m_xmin, m_xmax - 2, 6});
        std::size_t shown = 0;
        for (const Core::Read &r : t.reads) {
            if (r.sentAt > m_tHi)
                break; // in the order they were sent
            if (!r.arrived || r.arrivedAt < m_tLo || r.client >= panel.clients.size() ||
                r.storage >= panel.storages.size())
                continue;
            if (++shown > 200)
                break;
            const double x = X(r.arrivedAt);
            const QRectF &client = panel.clients[r.client].markers;
            const double y0 = panel.storages[r.storage].values.top();
            const double y1 = client.bottom() + 2 * f;
            m_p->setPen(pen);
            m_p->drawLine(QPointF(x, y0), QPointF(x, y1));
            const double h = 5 * f;
            const QPointF head[3] = {QPointF(x, y1), QPointF(x - h / 2, y1 + h),
                                     QPointF(x + h / 2, y1 + h)};
            m_p->setPen(Qt::NoPen);
            m_p->setBrush(m_st.th.maxToken);
            m_p->drawPolygon(head, 3);
            // told beside the head, in the pause row under the markers (clear of their labels)
            const QRectF &beside = panel.clients[r.client].pauses;
            if (beside.height() <= 0)
                continue;
            Label label = Label::note(QObject::tr("read v%1").arg(r.version), m_st.th.maxTokenText,
                                      beside, x, 4 * f);
            label.room = &labels[r.client];
            label.free = true; // (a pause's words may be there)
            label.take = true;
            placeLabel(label);
        }
    }

    // A group of writes across storages as one update (Trace::groups): their arrivals linked;
    // a partial one (some applied, some not) flagged in the corruption's colour.
    void paintGroups(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        for (const Core::GroupOutcome &g : t.groups) {
            QPolygonF line;
            Tick first = Core::kForever;
            Tick last = 0;
            for (const std::uint32_t wi : g.writes) {
                const Core::Write &w = t.writes[wi];
                if (w.storage >= panel.storages.size())
                    continue;
                first = std::min(first, w.arrivedAt);
                last = std::max(last, w.arrivedAt);
                line << QPointF(X(w.arrivedAt), panel.storages[w.storage].outcomes.center().y());
            }
            if (line.isEmpty() || last < m_tLo || first > m_tHi)
                continue;
            const QColor color = g.partial ? m_st.th.corrupted : m_st.th.muted;
            if (line.size() > 1) {
                m_p->setPen(QPen(color, 2 * m_st.lw, Qt::DotLine));
                m_p->setBrush(Qt::NoBrush);
                m_p->drawPolyline(line);
            }
            // under the last arrival, left of it, else right of it, else further along, else a
            // row lower (never above it: the values row is there), where no outcome's or other
            // group's words are (the arrival may be off view); in a crowded lane the group's
            // name is left out. A partial update is the corruption this row exists to show: it
            // is told even where every place has words already, under the arrival; a whole one
            // then gives way.
            const QPointF at = line.back();
            const double h = m_st.fmSmall.height();
            const QStringList texts =
                g.partial
                    ? QStringList{QObject::tr("%1: partial").arg(g.name), QObject::tr("partial")}
                    : QStringList{QObject::tr("%1: all applied").arg(g.name),
                                  QObject::tr("all applied")};
            // (the places this search finds, each tried in turn)
            Label label = Label::note({}, g.partial ? m_st.th.corruptedText : m_st.th.muted,
                                      QRectF(), at.x(), 0);
            label.side = Label::Side::At;
            label.take = true;
            const auto tryAt = [&](const QString &text, const QRectF &b, bool free) {
                label.text = text;
                label.row = b;
                label.width = b.width();
                label.free = free;
                return placeLabel(label);
            };
            const auto placed = [&] {
                for (const QString &candidate : texts) {
                    const double w = m_st.fmSmall.horizontalAdvance(candidate) + 4;
                    if (w > m_xmax - m_xmin)
                        continue;
                    for (const double y : {at.y() + 6 * f, at.y() + 6 * f + h})
                        for (const double x : {at.x() - w - 8 * f, at.x() + 10 * f,
                                               at.x() - w - 68 * f, at.x() + 70 * f})
                            if (tryAt(candidate,
                                      QRectF(std::max(m_xmin, std::min(x, m_xmax - w)), y, w, h),
                                      true))
                                return true;
                }
                return false;
            };
            if (placed() || !g.partial)
                continue;
            // the free place in either row nearest under the arrival; else under it, over
            // what is there
            const QString text = texts.back();
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            const auto nearest = [&] {
                for (double d = 0; d <= 240 * f; d += 4)
                    for (const double x : {at.x() - w / 2 - d, at.x() - w / 2 + d})
                        for (const double y : {at.y() + 6 * f, at.y() + 6 * f + h})
                            if (tryAt(text,
                                      QRectF(std::max(m_xmin, std::min(x, m_xmax - w)), y, w, h),
                                      true))
                                return true;
                return false;
            };
            if (!nearest())
                tryAt(text,
                      QRectF(std::max(m_xmin, std::min(at.x() - w - 8 * f, m_xmax - w)),
                             at.y() + 6 * f, w, h),
                      false);
        }
    }
};

} // namespace

bool ReadsAndGroupsPass::recordsRegions() const
{
    return false;
}

void ReadsAndGroupsPass::paint(const PaintContext &c, const TimelinePanel &panel,
                               const Core::Trace &t, int)
{
    ReadsGroupsPainter p(c);
    p.paintReads(panel, t);
    p.paintGroups(panel, t);
}

} // namespace Render
