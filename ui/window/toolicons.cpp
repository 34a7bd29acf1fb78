#include "window/toolicons.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace ToolIcons {
namespace {

// Draws on a 24x24 design grid, scaled to the pixmap.
void paint(QPainter &p, Kind kind, const QColor &c)
{
    QPen pen(c, 2.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    const auto arrowHead = [&](QPointF tip, QPointF back1, QPointF back2) {
        QPainterPath head(tip);
        head.lineTo(back1);
        head.lineTo(back2);
        head.closeSubpath();
        p.setBrush(c);
        p.drawPath(head);
        p.setBrush(Qt::NoBrush);
    };
    const auto triangle = [&](std::initializer_list<QPointF> pts) {
        QPainterPath path;
        bool first = true;
        for (const QPointF &pt : pts) {
            if (first)
                path.moveTo(pt);
            else
                path.lineTo(pt);
            first = false;
        }
        path.closeSubpath();
        p.setBrush(c);
        p.drawPath(path);
        p.setBrush(Qt::NoBrush);
    };
    switch (kind) {
    case Kind::Open: {
        QPainterPath folder;
        folder.moveTo(3, 19);
        folder.lineTo(3, 6);
        folder.lineTo(9, 6);
        folder.lineTo(11, 8);
        folder.lineTo(20, 8);
        folder.lineTo(20, 19);
        folder.closeSubpath();
        p.drawPath(folder);
        p.drawLine(QPointF(3, 11), QPointF(20, 11));
        break;
    }
    case Kind::Save:
        p.drawRoundedRect(QRectF(4, 4, 16, 16), 2, 2);
        p.drawRect(QRectF(8, 4, 8, 5));
        p.drawRect(QRectF(7, 13, 10, 7));
        break;
    case Kind::Undo:
    case Kind::Redo: {
        p.save();
        if (kind == Kind::Redo) {
            p.translate(24, 0);
            p.scale(-1, 1);
        }
        QPainterPath curve(QPointF(8, 9));
        curve.cubicTo(QPointF(16, 9), QPointF(20, 11), QPointF(19, 16));
        curve.cubicTo(QPointF(18, 19), QPointF(15, 20), QPointF(12, 20));
        p.drawPath(curve);
        arrowHead(QPointF(3, 9), QPointF(9, 4.5), QPointF(9, 13.5));
        p.restore();
        break;
    }
    case Kind::Play:
        triangle({QPointF(7, 4), QPointF(19, 12), QPointF(7, 20)});
        break;
    case Kind::Pause:
        p.setBrush(c);
        p.setPen(Qt::NoPen);
        p.drawRect(QRectF(6, 4, 4, 16));
        p.drawRect(QRectF(14, 4, 4, 16));
        break;
    case Kind::Previous:
        triangle({QPointF(19, 5), QPointF(9, 12), QPointF(19, 19)});
        p.drawLine(QPointF(6, 5), QPointF(6, 19));
        break;
    case Kind::Next:
        triangle({QPointF(5, 5), QPointF(15, 12), QPointF(5, 19)});
        p.drawLine(QPointF(18, 5), QPointF(18, 19));
        break;
    case Kind::ZoomIn:
    case Kind::ZoomOut:
        p.drawEllipse(QPointF(10, 10), 6, 6);
        p.drawLine(QPointF(14.5, 14.5), QPointF(20, 20));
        p.drawLine(QPointF(7, 10), QPointF(13, 10));
        if (kind == Kind::ZoomIn)
            p.drawLine(QPointF(10, 7), QPointF(10, 13));
        break;
    case Kind::Fit:
        p.drawLine(QPointF(3, 12), QPointF(21, 12));
        arrowHead(QPointF(3, 12), QPointF(8, 8), QPointF(8, 16));
        arrowHead(QPointF(21, 12), QPointF(16, 8), QPointF(16, 16));
        p.drawLine(QPointF(3, 4), QPointF(3, 20));
        p.drawLine(QPointF(21, 4), QPointF(21, 20));
        break;
    case Kind::Present:
        p.drawRoundedRect(QRectF(3, 4, 18, 12), 1.5, 1.5);
        p.drawLine(QPointF(12, 16), QPointF(12, 20));
        p.drawLine(QPointF(8, 20), QPointF(16, 20));
        triangle({QPointF(10, 7), QPointF(15, 10), QPointF(10, 13)});
        break;
    }
}

QPixmap draw(Kind kind, const QColor &c, int size)
{
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 24.0, size / 24.0);
    paint(p, kind, c);
    return pm;
}

} // namespace

QIcon make(Kind kind, const QColor &color, const QColor &disabled)
{
    QIcon icon;
    for (int size : {16, 24, 32, 48}) {
        icon.addPixmap(draw(kind, color, size), QIcon::Normal);
        icon.addPixmap(draw(kind, color, size), QIcon::Active);
        icon.addPixmap(draw(kind, disabled, size), QIcon::Disabled);
    }
    return icon;
}

} // namespace ToolIcons
