#include "outcomemarker.h"

#include "glyphs.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QPolygonF>

#include <algorithm>

namespace OutcomeMarker {

void paint(QPainter *p, MarkerShape shape, QPointF c, double size, const QColor &fill,
           const QColor &outline)
{
    // the timeline's glyph (Glyphs), scaled so its reach of 1.35 r fits in `size`
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const Glyphs::Kind kind = Glyphs::of(shape);
    const double r = size / 2.8;
    if (kind == Glyphs::Kind::Cross) {
        // a thick X with a thin outline so it reads on any background
        p->setPen(QPen(outline, std::max(2.0, size / 3.2), Qt::SolidLine, Qt::RoundCap));
        Glyphs::draw(p, kind, c, r);
        p->setPen(QPen(fill, std::max(1.5, size / 5.0), Qt::SolidLine, Qt::RoundCap));
        Glyphs::draw(p, kind, c, r);
    } else {
        Glyphs::paint(p, kind, c, r, QPen(outline, std::max(1.0, size / 10)), fill);
    }
    p->restore();
}

QImage image(MarkerShape shape, int size, const QColor &fill, const QColor &outline)
{
    QImage img(size, size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    paint(&p, shape, QPointF(size / 2.0, size / 2.0), size, fill, outline);
    return img;
}

QIcon icon(const Theme &theme, Core::WriteResult result, int size)
{
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    paint(&p, Theme::shape(result), QPointF(size / 2.0, size / 2.0), size, theme.outcome(result),
          theme.outcome(result).darker(160));
    p.end();
    return QIcon(pm);
}

} // namespace OutcomeMarker
