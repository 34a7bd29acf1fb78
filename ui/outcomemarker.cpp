#include "outcomemarker.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QPolygonF>

#include <algorithm>

namespace OutcomeMarker {

void paint(QPainter *p, MarkerShape shape, QPointF c, double size, const QColor &fill,
           const QColor &outline)
{
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const double r = size / 2;
    switch (shape) {
    case MarkerShape::Circle:
        p->setPen(QPen(outline, std::max(1.0, size / 10)));
        p->setBrush(fill);
        p->drawEllipse(c, r - 1, r - 1);
        break;
    case MarkerShape::Cross: {
        // a thick X with a thin outline so it reads on any background
        const double a = r * 0.8;
        QPainterPath path;
        path.moveTo(c + QPointF(-a, -a));
        path.lineTo(c + QPointF(a, a));
        path.moveTo(c + QPointF(-a, a));
        path.lineTo(c + QPointF(a, -a));
        p->setPen(QPen(outline, std::max(2.0, size / 3.2), Qt::SolidLine, Qt::RoundCap));
        p->drawPath(path);
        p->setPen(QPen(fill, std::max(1.5, size / 5.0), Qt::SolidLine, Qt::RoundCap));
        p->drawPath(path);
        break;
    }
    case MarkerShape::Triangle: {
        const QPolygonF tri{c + QPointF(0, -r + 0.5), c + QPointF(r - 0.5, r - 1.5),
                            c + QPointF(-r + 0.5, r - 1.5)};
        p->setPen(QPen(outline, std::max(1.0, size / 10)));
        p->setBrush(fill);
        p->drawPolygon(tri);
        break;
    }
    case MarkerShape::Diamond: {
        const QPolygonF dia{c + QPointF(0, -r + 0.5), c + QPointF(r - 0.5, 0),
                            c + QPointF(0, r - 0.5), c + QPointF(-r + 0.5, 0)};
        p->setPen(QPen(outline, std::max(1.0, size / 10)));
        p->setBrush(fill);
        p->drawPolygon(dia);
        break;
    }
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
