#pragma once

// Where each interactive element of the timeline was painted, and what it is: the passes
// record a region as they draw an element (PaintContext::region), and the hit test and the
// hover text read them (TimelineRenderer::hitTest), so an element's geometry is worked out in
// one place, the pass that paints it.
//
// A region answers for the points inside its rectangle (cut to the clip its pass painted in).
// Where regions overlap, the highest z wins; among equal z, the one whose anchor (the x the
// element stands at: a marker's tick, an edge) is nearest the point; among those, the one
// recorded last (drawn on top).

#include "timelinerenderer.h"

#include <QRectF>

#include <cmath>
#include <limits>
#include <vector>

namespace Render {

// The order in which elements win where their regions overlap. An element's z says what it
// takes precedence over, not when it is drawn.
enum class RegionZ : int
{
    Band = 0,          // a band along a row (what is under the marks): every other wins over it
    Restart = 5,       // a storage restart's line across its lane
    CheckBracket = 10, // the body of a check bracket
    CheckSend = 11,    // the end of a check bracket: a grip, over its body
    Lost = 20,         // where a client learnt it lost the lock, across its belief row

    // A client lane's own elements, each in the row of the lane it answers in (PaintContext::
    // markerBand and the others: the rows meet but do not overlap), under the check brackets
    // (10, 11) on the edge between the marker and pause rows and under the loss of a lock (20)
    // on the belief row. In one row, the higher wins; among equals, the nearest.
    LeaseBar = 1,    // a lease bar on its holder's lane (Hit::LockSegment)
    PauseBody = 1,   // a pause's block
    Marker = 2,      // an action's marker (and its label above), a delayed write's arrow head
    OwnLeaseEnd = 2, // where a client's own clock ends its lease, on the belief row
    Keepalive = 3,   // a keepalive renewal's tick along the top of the bar, over the bar
    PauseEdge = 3,   // a pause's start or end: a grip, over the blocks
    LeaseEnd = 4,    // the end of a lease bar: a grip, over the bar and its keepalives

    // the lock service lane and the storage lanes
    LockSegment = 30,  // a lease on the lock service lane, across the lane
    StorageWrite = 31, // a write's arrival on a storage lane: over a restart's line
};

struct PaintedRegion
{
    QRectF rect;
    TimelineRenderer::Hit hit;
    RegionZ z = RegionZ::CheckBracket;
    double anchor = 0;
};

class PaintedRegions
{
public:
    // Keeps the capacity: a paint records about as many regions as the last one did.
    void clear()
    {
        m_list.clear();
        m_clip = kEverywhere;
    }
    // Only what lies in `clip` answers (the clip of the part a pass paints in).
    void setClip(const QRectF &clip) { m_clip = clip; }
    const QRectF &clip() const { return m_clip; }

    void add(const QRectF &rect, const TimelineRenderer::Hit &hit, RegionZ z, double anchor)
    {
        const QRectF r = rect.intersected(m_clip);
        if (r.isEmpty())
            return;
        m_list.push_back({r, hit, z, anchor});
    }

    const std::vector<PaintedRegion> &list() const { return m_list; }

    // The region that answers for `pos`; null when none lies under it.
    const PaintedRegion *at(QPointF pos) const
    {
        return at(pos, [](const PaintedRegion &) { return true; });
    }
    // The same among the regions `keep` accepts (the hit test: those of the lane it is in, where
    // two lanes meet).
    template <typename Keep> const PaintedRegion *at(QPointF pos, const Keep &keep) const
    {
        const PaintedRegion *best = nullptr;
        double bestDistance = std::numeric_limits<double>::infinity();
        for (const PaintedRegion &r : m_list) {
            if (!keep(r))
                continue;
            // (a rectangle's right and bottom edges belong to it, as a grip's reach does)
            if (pos.x() < r.rect.left() || pos.x() > r.rect.right() || pos.y() < r.rect.top() ||
                pos.y() > r.rect.bottom())
                continue;
            const double d = std::abs(pos.x() - r.anchor);
            if (!best || r.z > best->z || (r.z == best->z && d <= bestDistance)) {
                best = &r;
                bestDistance = d;
            }
        }
        return best;
    }

private:
    static constexpr QRectF kEverywhere{-1e12, -1e12, 2e12, 2e12};
    std::vector<PaintedRegion> m_list;
    QRectF m_clip = kEverywhere;
};

} // namespace Render
