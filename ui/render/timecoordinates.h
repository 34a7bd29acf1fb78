#pragma once

// Pure tick <-> pixel math shared by the timeline, the token chart and the exporter.
// No state, no Qt widgets: tested on its own with data-driven cases.

#include <QtGlobal>

#include <cmath>

struct TimeAxis
{
    double firstTick = 0;     // tick shown at x = left
    double pixelsPerTick = 20; // zoom
    double left = 0;           // x of the axis start (after lane headers)

    double tickToX(double tick) const { return left + (tick - firstTick) * pixelsPerTick; }
    double xToTick(double x) const { return firstTick + (x - left) / pixelsPerTick; }
    // Nearest whole tick under x, never negative (drags snap to ticks).
    qint64 snapTick(double x) const
    {
        const double t = std::round(xToTick(x));
        return t < 0 ? 0 : qint64(t);
    }
    double lastTickAt(double width) const { return xToTick(left + width); }
    // x of a tick on a plot from plotLeft to plotRight, clamped a little outside it so huge
    // ticks stay paintable: where every pass paints a tick (PaintContext::X), and so where the
    // focus ring goes round what is painted there.
    double clampedX(double tick, double plotLeft, double plotRight) const
    {
        const double x = tickToX(tick);
        return x < plotLeft - 40 ? plotLeft - 40 : (x > plotRight + 40 ? plotRight + 40 : x);
    }
};

namespace TimeCoordinates {

// The smallest "nice" step (1, 2, 5 x 10^k ticks, at least 1) whose labels are at least
// `minSpacingPx` apart at this zoom.
inline qint64 rulerStep(double pixelsPerTick, double minSpacingPx)
{
    if (pixelsPerTick <= 0)
        return 1;
    const double minTicks = minSpacingPx / pixelsPerTick;
    qint64 base = 1;
    for (;;) {
        for (const qint64 m : {qint64(1), qint64(2), qint64(5)}) {
            const qint64 step = base * m;
            if (double(step) >= minTicks)
                return step;
        }
        if (base > (qint64(1) << 58))
            return base;
        base *= 10;
    }
}

// Zoom around an anchor x so the tick under the anchor stays under it.
inline TimeAxis zoomedAround(const TimeAxis &axis, double anchorX, double factor,
                             double minPixelsPerTick, double maxPixelsPerTick)
{
    TimeAxis z = axis;
    const double anchorTick = axis.xToTick(anchorX);
    z.pixelsPerTick = qBound(minPixelsPerTick, axis.pixelsPerTick * factor, maxPixelsPerTick);
    z.firstTick = anchorTick - (anchorX - axis.left) / z.pixelsPerTick;
    return z;
}

// An axis showing [from, to] across `width` pixels starting at `left`.
inline TimeAxis fitted(double from, double to, double left, double width)
{
    TimeAxis a;
    a.left = left;
    a.firstTick = from;
    a.pixelsPerTick = width / std::max(1.0, to - from);
    return a;
}

} // namespace TimeCoordinates
