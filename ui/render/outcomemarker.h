#pragma once

// The marker of a write outcome (shape + colour, never colour alone) for the widgets that are
// not the timeline: event-log icons, the summary strip and the token chart's scatter points.
// The shapes are the timeline's own (glyphs.h).

#include "theme.h"

#include <QColor>
#include <QIcon>
#include <QImage>
#include <QPointF>

class QPainter;

namespace OutcomeMarker {

// Paints `shape` centred on `centre`, `size` pixels across.
void paint(QPainter *p, MarkerShape shape, QPointF centre, double size, const QColor &fill,
           const QColor &outline);
// A transparent square image holding one marker (a scatter series' brush texture).
QImage image(MarkerShape shape, int size, const QColor &fill, const QColor &outline);
QIcon icon(const Theme &theme, Core::WriteResult result, int size = 14);

} // namespace OutcomeMarker
