#pragma once

// Every marker glyph of the timeline, drawn by this one piece of code wherever it appears:
// the timeline, the export legend, the token chart's points and the outcome icons. What a
// learner sees in the legend is then exactly what the lanes show.
//
// Templates over the painter: the timeline records its calls (PaintRecorder), the others paint
// on a QPainter; both have the drawEllipse/drawPolygon/drawRect/drawLine overloads used here.

#include "theme.h"

#include <QBrush>
#include <QColor>
#include <QPen>
#include <QPointF>
#include <QRectF>

namespace Glyphs {

enum class Kind
{
    Circle,   // grant (renewal: hollow); accepted write
    Cross,    // rejected write
    Triangle, // corrupted write
    Diamond,  // locked-out write
    Nib,      // write sent: a pen nib pointing down towards the storage lanes
    Box,      // release (a no-op release: hollow)
};

inline Kind of(MarkerShape shape)
{
    switch (shape) {
    case MarkerShape::Circle:
        return Kind::Circle;
    case MarkerShape::Cross:
        return Kind::Cross;
    case MarkerShape::Triangle:
        return Kind::Triangle;
    case MarkerShape::Diamond:
        return Kind::Diamond;
    }
    return Kind::Circle;
}

// The timeline's glyph radius at font scale 1; every glyph reaches about 1.35 r from its
// centre.
inline constexpr double kRadius = 5.5;

// The outline of a glyph of `color` (a cross is its stroke alone), `lineScale` as the theme's.
inline QPen pen(Kind k, const QColor &color, double lineScale, bool hollow = false)
{
    if (k == Kind::Cross)
        return QPen(color, 3 * lineScale, Qt::SolidLine, Qt::RoundCap);
    return QPen(hollow ? color : color.darker(130), 1.3 * lineScale);
}

inline QBrush brush(const QColor &color, const QColor &background, bool hollow = false)
{
    return hollow ? QBrush(background) : QBrush(color);
}

// The shape around `c`, with the painter's pen and brush.
template <class P> void draw(P *p, Kind k, QPointF c, double r)
{
    switch (k) {
    case Kind::Circle:
        p->drawEllipse(c, r, r);
        return;
    case Kind::Diamond: {
        const QPointF pts[4] = {{c.x(), c.y() - r * 1.2},
                                {c.x() + r * 1.2, c.y()},
                                {c.x(), c.y() + r * 1.2},
                                {c.x() - r * 1.2, c.y()}};
        p->drawPolygon(pts, 4);
        return;
    }
    case Kind::Triangle: {
        const QPointF pts[3] = {
            {c.x(), c.y() - r * 1.35}, {c.x() + r * 1.3, c.y() + r}, {c.x() - r * 1.3, c.y() + r}};
        p->drawPolygon(pts, 3);
        return;
    }
    case Kind::Nib: {
        const QPointF pts[5] = {{c.x() - r, c.y() - r},
                                {c.x() + r, c.y() - r},
                                {c.x() + r, c.y() + r * 0.2},
                                {c.x(), c.y() + r * 1.3},
                                {c.x() - r, c.y() + r * 0.2}};
        p->drawPolygon(pts, 5);
        return;
    }
    case Kind::Box:
        p->drawRect(QRectF(c.x() - r * 0.85, c.y() - r * 0.85, r * 1.7, r * 1.7));
        return;
    case Kind::Cross:
        p->drawLine(QPointF(c.x() - r, c.y() - r), QPointF(c.x() + r, c.y() + r));
        p->drawLine(QPointF(c.x() - r, c.y() + r), QPointF(c.x() + r, c.y() - r));
        return;
    }
}

// A glyph with its own pen and brush (leaves them set, as the timeline's calls do).
template <class P>
void paint(P *p, Kind k, QPointF c, double r, const QPen &outline, const QBrush &fill)
{
    p->setPen(outline);
    p->setBrush(k == Kind::Cross ? QBrush(Qt::NoBrush) : fill);
    draw(p, k, c, r);
}

// An acquire that was refused: a hollow circle crossed out.
template <class P>
void paintRefusal(P *p, QPointF c, double r, const QColor &color, const QColor &background,
                  double lineScale)
{
    paint(p, Kind::Circle, c, r, pen(Kind::Circle, color, lineScale, true),
          brush(color, background, true));
    p->setPen(QPen(color, 2 * lineScale, Qt::SolidLine, Qt::RoundCap));
    draw(p, Kind::Cross, c, r);
}

// A write outcome's glyph in the theme's colours, as on the storage lane.
template <class P>
void paintOutcome(P *p, MarkerShape shape, QPointF c, double r, const Theme &th,
                  Core::WriteResult result)
{
    const Kind k = of(shape);
    const QColor color = th.outcome(result);
    paint(p, k, c, r, pen(k, color, th.lineScale), brush(color, th.background));
}

} // namespace Glyphs
