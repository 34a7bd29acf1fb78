// A storage's restarts: the line across its lane, its words in the max_token row ("restart",
// "max_token 7 forgotten" where a volatile storage loses it), and where the hit test finds it.
// Drawn for StorageLanesPass (storagelanes.cpp), which calls these for each storage lane.

#include "storagerestarts.h"

#include <QStringList>

namespace Render {

// Each restart of storage `s` in view, in time order, with the x of its line.
template <class Each>
void StorageRestarts::restartsInView(std::uint32_t s, const Core::Trace &t, const Each &each) const
{
    for (const Core::StorageRestart &rs : t.restarts) {
        if (rs.tick > m_tHi)
            break; // in time order
        if (rs.storage != s || rs.tick < m_tLo)
            continue;
        each(rs, X(rs.tick));
    }
}

// A storage restart as a line across its lane (its words are in the max_token row, told
// by paintMaxToken first of all: "max_token 7 forgotten" where a volatile one is lost).
void StorageRestarts::paintRestarts(std::uint32_t s, const StorageLaneRects &r,
                                    const Core::Trace &t)
{
    restartsInView(s, t, [&](const Core::StorageRestart &rs, double x) {
        const bool lost = rs.forgot > 0;
        m_p->setPen(QPen(lost ? m_st.th.corrupted : m_st.th.foreground,
                         (lost ? 2.5 : 1.5) * m_st.lw, lost ? Qt::SolidLine : Qt::DashLine));
        m_p->drawLine(QPointF(x, r.lane.top() + 1), QPointF(x, r.lane.bottom() - 1));
    });
}

// What core says of each restart's line (docs/SCENARIO.md section 12), within a grip of it
// across its lane, where no write's arrival is nearer (the hit test looks at those first).
// On the painting thread, whichever thread records the lanes.
void StorageRestarts::recordRestarts(const TimelinePanel &panel, const Core::Trace &t) const
{
    const double grip = kGrip * std::max(1.0, m_st.f);
    for (std::size_t s = 0; s < panel.storages.size(); ++s) {
        const QRectF &lane = panel.storages[s].lane;
        if (!meetsRows(lane))
            continue;
        restartsInView(std::uint32_t(s), t, [&](const Core::StorageRestart &rs, double x) {
            TimelineRenderer::Hit hit;
            hit.part = TimelineRenderer::Hit::Restart;
            hit.lane = int(panel.clients.size() + 1 + s);
            hit.bottomPanel = panel.bottom;
            hit.ref = std::uint32_t(&rs - t.restarts.data());
            region(QRectF(x - grip, lane.top(), 2 * grip, lane.height()), hit, RegionZ::Restart, x);
        });
    }
}

// The words of the restarts in view, in the max_token row right of their line (else left
// of it), as chips that take their room in `labels` before any "max N" does. They keep clear
// of where the step line crosses the row: right of the line they end before the next write
// that changes the level arrives, left of it they start after the last one.
void StorageRestarts::labelRestarts(std::uint32_t s, const QRectF &row, const Core::Trace &t,
                                    const Core::StorageLevel &level, LabelSpans &labels)
{
    const std::vector<std::uint32_t> &ws = t.storageWrites[s];
    const double gap = 6 * m_st.f;
    for (const Core::StorageRestart &rs : t.restarts) {
        if (rs.tick > m_tHi)
            break; // in time order
        if (rs.storage != s || rs.tick < m_tLo)
            continue;
        const double x = X(rs.tick);
        const bool lost = rs.forgot > 0;
        const QStringList texts =
            lost
                ? QStringList{QObject::tr("max_token %1 forgotten").arg(tokenShort(m_s, rs.forgot)),
                              QObject::tr("%1 forgotten").arg(tokenShort(m_s, rs.forgot))}
                : QStringList{QObject::tr("restart")};
        double widest = 0;
        for (const QString &text : texts)
            widest = std::max(widest, m_st.fmSmall.horizontalAdvance(text) + 8.0);
        // (a restart comes before the arrivals of its tick: docs/SCENARIO.md section 14)
        const std::size_t next = firstArrival(t, ws, rs.tick);
        const auto levelAfter = [&](std::size_t i) -> Core::Token {
            return level.afterWrite(ws[i]);
        };
        // the level between the restart and the next change: 0 where it was forgotten
        const Core::Token here = lost || next == 0 ? 0 : levelAfter(next - 1);
        double end = labels.max;
        for (std::size_t i = next; i < ws.size(); ++i) {
            const double xi = X(t.writes[ws[i]].arrivedAt);
            if (xi > x + 4 + widest + gap)
                break; // too far to matter
            if (levelAfter(i) != here) {
                end = xi - gap;
                break;
            }
        }
        double start = labels.min;
        for (std::size_t i = next; i > 0; --i) {
            const double xi = X(t.writes[ws[i - 1]].arrivedAt);
            if (xi < x - 4 - widest - gap)
                break;
            const Core::Token before = i > 1 ? levelAfter(i - 2) : 0;
            if (levelAfter(i - 1) != before) {
                start = xi + gap;
                break;
            }
        }
        // the first form that keeps clear, right of the restart's line (ending by `end`),
        // else left of it (starting from `start`); else, so that the words never go, the
        // shortest where it fits at all (crossed by the line, as on a narrow picture)
        Label label;
        label.forms = texts;
        label.color = lost ? m_st.th.corruptedText : m_st.th.foreground;
        label.small = true;
        label.pad = 8;
        label.row = row;
        label.x = x;
        label.side = Label::Side::RightOrLeft;
        label.gap = 4;
        label.end = end;
        label.start = start;
        label.spans = &labels;
        label.take = true;
        if (placeLabel(label))
            continue;
        label.forms = QStringList{texts.last()};
        label.end = labels.max;
        label.start = labels.min;
        placeLabel(label);
    }
}

} // namespace Render
