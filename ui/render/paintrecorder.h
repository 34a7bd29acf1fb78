#pragma once

// The QPainter calls the timeline renderer makes, kept as a list: replayed onto a painter they
// give exactly what the calls would have given (the same overloads with the same arguments in
// the same order), and two lists compare equal only if every call and argument does. The
// renderer keeps the picture of the last list it painted and copies it when the next paint
// would make the same calls: hovering, selecting, moving the playhead or repainting an exposed
// window then costs a copy instead of thousands of fills and labels.
//
// Only what the renderer uses is here; each call mirrors the QPainter member of that name.

#include <QBrush>
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QPen>
#include <QPolygonF>
#include <QRectF>
#include <QString>

#include <vector>

class PaintRecorder
{
public:
    // What the recorded calls read back (QPainter::pen() and renderHints()) starts as `p`'s.
    void begin(const QPainter *p);
    void clear();
    bool isEmpty() const { return m_ops.empty(); }
    std::size_t size() const { return m_ops.size(); }

    // `wordsOnly`: only the texts and their chips (rounded rectangles), with every change of
    // the painter's state: labels over whatever lies under them.
    void replay(QPainter *p, bool wordsOnly = false) const;
    // Records `other`'s calls after this one's, as if made here; the state `other` read back
    // (pen, hints) started as this one's (see continueFrom()) and ends as its.
    void append(const PaintRecorder &other);
    // Starts empty, reading back the state `other` has reached (a recording made elsewhere
    // that append() puts after `other`'s).
    void continueFrom(const PaintRecorder &other);
    friend bool operator==(const PaintRecorder &a, const PaintRecorder &b);
    friend bool operator!=(const PaintRecorder &a, const PaintRecorder &b) { return !(a == b); }

    const QPen &pen() const { return m_pen; }
    QPainter::RenderHints renderHints() const { return m_hints; }

    void save();
    void restore();
    void setPen(const QPen &pen);
    void setPen(const QColor &color);
    void setPen(Qt::PenStyle style);
    void setBrush(const QBrush &brush);
    void setBrush(Qt::BrushStyle style);
    void setFont(const QFont &font);
    void setRenderHint(QPainter::RenderHint hint, bool on = true);
    void setClipRect(const QRectF &rect, Qt::ClipOperation op = Qt::ReplaceClip);

    void fillRect(const QRectF &rect, const QColor &color);
    void fillRect(const QRectF &rect, const QBrush &brush);
    void fillRect(const QRect &rect, const QColor &color);
    void drawLine(const QPointF &a, const QPointF &b);
    void drawRect(const QRectF &rect);
    void drawRoundedRect(const QRectF &rect, qreal xRadius, qreal yRadius);
    void drawEllipse(const QPointF &centre, qreal rx, qreal ry);
    void drawPolygon(const QPointF *points, int count);
    void drawPolyline(const QPointF *points, int count);
    void drawPolyline(const QPolygonF &line) { drawPolyline(line.constData(), int(line.size())); }
    void drawText(const QRectF &rect, int flags, const QString &text);
    void drawImage(const QPointF &at, const QImage &image);

private:
    enum class Kind : quint8
    {
        Save,
        Restore,
        SetPen,
        SetPenColor,
        SetPenStyle,
        SetBrush,
        SetBrushStyle,
        SetFont,
        SetRenderHint,
        SetClipRect,
        FillRectColor,
        FillRectBrush,
        FillRectWhole,
        DrawLine,
        DrawRect,
        DrawRoundedRect,
        DrawEllipse,
        DrawPolygon,
        DrawPolyline,
        DrawText,
        DrawImage,
    };
    // One call: its numbers inline, anything else by index into the lists below. No padding:
    // lists of calls compare as bytes (bit for bit, which is stricter than ==: -0.0 and 0.0
    // differ, and NaN equals itself, so equal bytes always replay the same).
    struct Op
    {
        qint32 kind;
        qint32 i;   // flags, hint, clip operation, point count, ...
        qint32 ref; // index into a list below, or -1
        qint32 unused;
        double v[4];
    };
    static_assert(sizeof(Op) == 48, "Op must have no padding");

    void add(Kind kind, int i = 0, int ref = -1, double v0 = 0, double v1 = 0, double v2 = 0,
             double v3 = 0)
    {
        m_ops.push_back(Op{qint32(kind), i, ref, 0, {v0, v1, v2, v3}});
    }
    static bool sameOps(const std::vector<Op> &a, const std::vector<Op> &b);
    static bool sameImages(const std::vector<QImage> &a, const std::vector<QImage> &b);

    std::vector<Op> m_ops;
    std::vector<QPen> m_pens;
    std::vector<QColor> m_colors;
    std::vector<QBrush> m_brushes;
    std::vector<QFont> m_fonts;
    std::vector<QString> m_texts;
    std::vector<QPointF> m_points; // polygons and polylines, one after the other
    std::vector<QImage> m_images;

    QPen m_pen;
    QPainter::RenderHints m_hints;
    std::vector<std::pair<QPen, QPainter::RenderHints>> m_saved;
};
