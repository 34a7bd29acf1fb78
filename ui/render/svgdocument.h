// One SVG document for every vector export: the slide export (exporter.cpp) and the sweep
// chart (ui/views/sweeppanel.cpp) both paint through this, so their files are set up alike
// (96 dpi, the view box of the picture, its title and description) and name the same font
// families, with fallbacks for a viewer that lacks the face in use.
#pragma once

#include <QByteArray>
#include <QRectF>
#include <QString>

#include <functional>

class QPainter;

namespace Render {

struct SvgDocument
{
    QSizeF size;         // in pixels at 96 dpi: the view box
    QString title;       // <title>
    QString description; // <desc>, empty for none
};

// Paints with `paint` into an SVG of `doc`'s size and returns its bytes.
QByteArray renderSvgDocument(const SvgDocument &doc, const std::function<void(QPainter *)> &paint);

} // namespace Render
