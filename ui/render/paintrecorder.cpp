#include "paintrecorder.h"

#include <cstring>

void PaintRecorder::begin(const QPainter *p)
{
    clear();
    m_pen = p->pen();
    m_hints = p->renderHints();
}

void PaintRecorder::clear()
{
    // keeps the capacity: a renderer records about as much every paint
    m_ops.clear();
    m_pens.clear();
    m_colors.clear();
    m_brushes.clear();
    m_fonts.clear();
    m_texts.clear();
    m_points.clear();
    m_images.clear();
    m_saved.clear();
    m_pen = QPen();
    m_hints = {};
}

void PaintRecorder::save()
{
    m_saved.emplace_back(m_pen, m_hints);
    add(Kind::Save);
}

void PaintRecorder::restore()
{
    if (!m_saved.empty()) {
        m_pen = m_saved.back().first;
        m_hints = m_saved.back().second;
        m_saved.pop_back();
    }
    add(Kind::Restore);
}

void PaintRecorder::setPen(const QPen &pen)
{
    m_pen = pen;
    m_pens.push_back(pen);
    add(Kind::SetPen, 0, int(m_pens.size()) - 1);
}

void PaintRecorder::setPen(const QColor &color)
{
    m_pen = QPen(color);
    m_colors.push_back(color);
    add(Kind::SetPenColor, 0, int(m_colors.size()) - 1);
}

void PaintRecorder::setPen(Qt::PenStyle style)
{
    m_pen = QPen(style);
    add(Kind::SetPenStyle, int(style));
}

void PaintRecorder::setBrush(const QBrush &brush)
{
    m_brushes.push_back(brush);
    add(Kind::SetBrush, 0, int(m_brushes.size()) - 1);
}

void PaintRecorder::setBrush(Qt::BrushStyle style)
{
    add(Kind::SetBrushStyle, int(style));
}

void PaintRecorder::setFont(const QFont &font)
{
    m_fonts.push_back(font);
    add(Kind::SetFont, 0, int(m_fonts.size()) - 1);
}

void PaintRecorder::setRenderHint(QPainter::RenderHint hint, bool on)
{
    m_hints.setFlag(hint, on);
    add(Kind::SetRenderHint, int(hint), on ? 1 : 0);
}

void PaintRecorder::setClipRect(const QRectF &rect, Qt::ClipOperation op)
{
    add(Kind::SetClipRect, int(op), -1, rect.x(), rect.y(), rect.width(), rect.height());
}

void PaintRecorder::fillRect(const QRectF &rect, const QColor &color)
{
    m_colors.push_back(color);
    add(Kind::FillRectColor, 0, int(m_colors.size()) - 1, rect.x(), rect.y(), rect.width(),
        rect.height());
}

void PaintRecorder::fillRect(const QRectF &rect, const QBrush &brush)
{
    m_brushes.push_back(brush);
    add(Kind::FillRectBrush, 0, int(m_brushes.size()) - 1, rect.x(), rect.y(), rect.width(),
        rect.height());
}

void PaintRecorder::fillRect(const QRect &rect, const QColor &color)
{
    m_colors.push_back(color);
    add(Kind::FillRectWhole, 0, int(m_colors.size()) - 1, rect.x(), rect.y(), rect.width(),
        rect.height());
}

void PaintRecorder::drawLine(const QPointF &a, const QPointF &b)
{
    add(Kind::DrawLine, 0, -1, a.x(), a.y(), b.x(), b.y());
}

void PaintRecorder::drawRect(const QRectF &rect)
{
    add(Kind::DrawRect, 0, -1, rect.x(), rect.y(), rect.width(), rect.height());
}

void PaintRecorder::drawRoundedRect(const QRectF &rect, qreal xRadius, qreal yRadius)
{
    m_points.emplace_back(xRadius, yRadius);
    add(Kind::DrawRoundedRect, 0, int(m_points.size()) - 1, rect.x(), rect.y(), rect.width(),
        rect.height());
}

void PaintRecorder::drawEllipse(const QPointF &centre, qreal rx, qreal ry)
{
    add(Kind::DrawEllipse, 0, -1, centre.x(), centre.y(), rx, ry);
}

void PaintRecorder::drawPolygon(const QPointF *points, int count)
{
    const int at = int(m_points.size());
    m_points.insert(m_points.end(), points, points + count);
    add(Kind::DrawPolygon, count, at);
}

void PaintRecorder::drawPolyline(const QPointF *points, int count)
{
    const int at = int(m_points.size());
    m_points.insert(m_points.end(), points, points + count);
    add(Kind::DrawPolyline, count, at);
}

void PaintRecorder::drawText(const QRectF &rect, int flags, const QString &text)
{
    m_texts.push_back(text);
    add(Kind::DrawText, flags, int(m_texts.size()) - 1, rect.x(), rect.y(), rect.width(),
        rect.height());
}

void PaintRecorder::drawImage(const QPointF &at, const QImage &image)
{
    m_images.push_back(image);
    add(Kind::DrawImage, 0, int(m_images.size()) - 1, at.x(), at.y());
}

void PaintRecorder::continueFrom(const PaintRecorder &other)
{
    clear();
    m_pen = other.m_pen;
    m_hints = other.m_hints;
}

void PaintRecorder::append(const PaintRecorder &other)
{
    const int pens = int(m_pens.size());
    const int colors = int(m_colors.size());
    const int brushes = int(m_brushes.size());
    const int fonts = int(m_fonts.size());
    const int texts = int(m_texts.size());
    const int points = int(m_points.size());
    const int images = int(m_images.size());
    m_ops.reserve(m_ops.size() + other.m_ops.size());
    for (Op op : other.m_ops) {
        switch (Kind(op.kind)) {
        case Kind::SetPen:
            op.ref += pens;
            break;
        case Kind::SetPenColor:
        case Kind::FillRectColor:
        case Kind::FillRectWhole:
            op.ref += colors;
            break;
        case Kind::SetBrush:
        case Kind::FillRectBrush:
            op.ref += brushes;
            break;
        case Kind::SetFont:
            op.ref += fonts;
            break;
        case Kind::DrawText:
            op.ref += texts;
            break;
        case Kind::DrawRoundedRect:
        case Kind::DrawPolygon:
        case Kind::DrawPolyline:
            op.ref += points;
            break;
        case Kind::DrawImage:
            op.ref += images;
            break;
        default: // no list behind it (a render hint keeps its on/off in ref)
            break;
        }
        m_ops.push_back(op);
    }
    m_pens.insert(m_pens.end(), other.m_pens.begin(), other.m_pens.end());
    m_colors.insert(m_colors.end(), other.m_colors.begin(), other.m_colors.end());
    m_brushes.insert(m_brushes.end(), other.m_brushes.begin(), other.m_brushes.end());
    m_fonts.insert(m_fonts.end(), other.m_fonts.begin(), other.m_fonts.end());
    m_texts.insert(m_texts.end(), other.m_texts.begin(), other.m_texts.end());
    m_points.insert(m_points.end(), other.m_points.begin(), other.m_points.end());
    m_images.insert(m_images.end(), other.m_images.begin(), other.m_images.end());
    m_pen = other.m_pen;
    m_hints = other.m_hints;
}

void PaintRecorder::replay(QPainter *p, bool wordsOnly) const
{
    for (const Op &op : m_ops) {
        const QRectF rect(op.v[0], op.v[1], op.v[2], op.v[3]);
        if (wordsOnly) {
            // the texts, their chips and the painter's state: nothing else
            const Kind k = Kind(op.kind);
            if (k >= Kind::FillRectColor && k != Kind::DrawRoundedRect && k != Kind::DrawText)
                continue;
        }
        const std::size_t ref = std::size_t(op.ref);
        switch (Kind(op.kind)) {
        case Kind::Save:
            p->save();
            break;
        case Kind::Restore:
            p->restore();
            break;
        case Kind::SetPen:
            p->setPen(m_pens[ref]);
            break;
        case Kind::SetPenColor:
            p->setPen(m_colors[ref]);
            break;
        case Kind::SetPenStyle:
            p->setPen(Qt::PenStyle(op.i));
            break;
        case Kind::SetBrush:
            p->setBrush(m_brushes[ref]);
            break;
        case Kind::SetBrushStyle:
            p->setBrush(Qt::BrushStyle(op.i));
            break;
        case Kind::SetFont:
            p->setFont(m_fonts[ref]);
            break;
        case Kind::SetRenderHint:
            p->setRenderHint(QPainter::RenderHint(op.i), op.ref != 0);
            break;
        case Kind::SetClipRect:
            p->setClipRect(rect, Qt::ClipOperation(op.i));
            break;
        case Kind::FillRectColor:
            p->fillRect(rect, m_colors[ref]);
            break;
        case Kind::FillRectBrush:
            p->fillRect(rect, m_brushes[ref]);
            break;
        case Kind::FillRectWhole:
            p->fillRect(QRect(int(op.v[0]), int(op.v[1]), int(op.v[2]), int(op.v[3])),
                        m_colors[ref]);
            break;
        case Kind::DrawLine:
            p->drawLine(QPointF(op.v[0], op.v[1]), QPointF(op.v[2], op.v[3]));
            break;
        case Kind::DrawRect:
            p->drawRect(rect);
            break;
        case Kind::DrawRoundedRect:
            p->drawRoundedRect(rect, m_points[ref].x(), m_points[ref].y());
            break;
        case Kind::DrawEllipse:
            p->drawEllipse(QPointF(op.v[0], op.v[1]), op.v[2], op.v[3]);
            break;
        case Kind::DrawPolygon:
            p->drawPolygon(m_points.data() + ref, op.i);
            break;
        case Kind::DrawPolyline:
            p->drawPolyline(m_points.data() + ref, op.i);
            break;
        case Kind::DrawText:
            p->drawText(rect, op.i, m_texts[ref]);
            break;
        case Kind::DrawImage:
            p->drawImage(QPointF(op.v[0], op.v[1]), m_images[ref]);
            break;
        }
    }
}

bool PaintRecorder::sameImages(const std::vector<QImage> &a, const std::vector<QImage> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].cacheKey() != b[i].cacheKey() && a[i] != b[i])
            return false;
    return true;
}

// QPointF's operator== is fuzzy; a replay of the other list must give the very same pixels.
static bool samePoints(const std::vector<QPointF> &a, const std::vector<QPointF> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].x() != b[i].x() || a[i].y() != b[i].y())
            return false;
    return true;
}

bool PaintRecorder::sameOps(const std::vector<Op> &a, const std::vector<Op> &b)
{
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0);
}

bool operator==(const PaintRecorder &a, const PaintRecorder &b)
{
    // cheapest first: most changes move some number
    return PaintRecorder::sameOps(a.m_ops, b.m_ops) && samePoints(a.m_points, b.m_points) &&
           a.m_colors == b.m_colors && a.m_pens == b.m_pens && a.m_brushes == b.m_brushes &&
           a.m_texts == b.m_texts && a.m_fonts == b.m_fonts &&
           PaintRecorder::sameImages(a.m_images, b.m_images);
}
