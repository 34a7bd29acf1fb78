#pragma once

// A paint device that draws nothing and notes what was painted on it: every piece of text with
// its pen colour, every polygon, and every filled shape (rectangles, polygons, ellipses, paths)
// with its brush colour and the part of it the clip lets through. For tests that ask what a
// picture is made of ("which colours is text written in", "which shapes does the legend use",
// "is anything drawn right of the playhead") rather than pixels.

#include <QFontMetricsF>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QRegion>

#include <vector>

class RecordingDevice : public QPaintDevice
{
public:
    struct Text
    {
        QString text;
        QColor color;
        QPointF at; // device coordinates
        // The part of the text's box the clip lets through (device coordinates); empty when
        // the clip hides it all. The whole box when nothing is clipped.
        QRectF shown;
    };
    struct Shape
    {
        QColor brush;
        QRectF bounds; // device coordinates
        QRectF shown;  // what the clip lets through of `bounds`, as for Text
    };
    std::vector<Text> texts;
    std::vector<QPolygonF> polygons; // device coordinates
    std::vector<Shape> filled;       // shapes drawn with a brush
    QSize size{1600, 1000};

    RecordingDevice() = default;
    explicit RecordingDevice(QSize s) : size(s) {}

    QPaintEngine *paintEngine() const override { return &m_engine; }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return size.width();
        case PdmHeight:
            return size.height();
        case PdmWidthMM:
            return size.width() * 254 / 960;
        case PdmHeightMM:
            return size.height() * 254 / 960;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDepth:
            return 32;
        case PdmNumColors:
            return 1 << 24;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(QPaintDevice::devicePixelRatioFScale());
        }
        return 0;
    }

private:
    class Engine : public QPaintEngine
    {
    public:
        explicit Engine(RecordingDevice *d) : QPaintEngine(AllFeatures), m_device(d) {}
        bool begin(QPaintDevice *) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState &state) override
        {
            const QPaintEngine::DirtyFlags dirty = state.state();
            if (dirty & DirtyPen)
                m_pen = state.pen();
            if (dirty & DirtyBrush)
                m_brush = state.brush();
            if (dirty & DirtyFont)
                m_font = state.font();
            // (QPainter::restore sends a clip again with the transform it was set under)
            if (dirty & DirtyTransform)
                m_transform = state.transform();
            if (dirty & DirtyClipEnabled)
                m_clipEnabled = state.isClipEnabled();
            if (dirty & DirtyClipRegion)
                clip(state.clipOperation(), m_transform.map(state.clipRegion()));
            if (dirty & DirtyClipPath)
                clip(state.clipOperation(),
                     QRegion(m_transform.map(state.clipPath()).toFillPolygon().toPolygon()));
        }
        void drawTextItem(const QPointF &at, const QTextItem &item) override
        {
            if (item.text().trimmed().isEmpty())
                return;
            const QFontMetricsF metrics(item.font());
            const QRectF box(at.x(), at.y() - metrics.ascent(),
                             metrics.horizontalAdvance(item.text()), metrics.height());
            m_device->texts.push_back(
                {item.text(), m_pen.color(), m_transform.map(at), shown(box)});
        }
        void drawPolygon(const QPointF *points, int count, PolygonDrawMode) override
        {
            QPolygonF poly;
            for (int i = 0; i < count; ++i)
                poly << points[i];
            m_device->polygons.push_back(m_transform.map(poly));
            fill(poly.boundingRect());
        }
        void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
        void drawImage(const QRectF &, const QImage &, const QRectF &,
                       Qt::ImageConversionFlags) override
        {
        }
        void drawPath(const QPainterPath &path) override { fill(path.boundingRect()); }
        void drawRects(const QRectF *rects, int count) override
        {
            for (int i = 0; i < count; ++i)
                fill(rects[i]);
        }
        void drawLines(const QLineF *, int) override {}
        void drawEllipse(const QRectF &r) override { fill(r); }
        Type type() const override { return User; }

    private:
        void clip(Qt::ClipOperation op, const QRegion &region)
        {
            if (op == Qt::NoClip) {
                m_clipEnabled = false;
                return;
            }
            m_clip = op == Qt::IntersectClip && m_clipEnabled ? m_clip & region : region;
            m_clipEnabled = true;
        }
        // `r` (painter coordinates) in device coordinates, cut to the clip
        QRectF shown(const QRectF &r) const
        {
            const QRectF device = m_transform.mapRect(r);
            if (!m_clipEnabled)
                return device;
            return (m_clip & device.toAlignedRect()).boundingRect().toRectF().intersected(device);
        }
        void fill(const QRectF &r)
        {
            if (m_brush.style() == Qt::NoBrush)
                return;
            m_device->filled.push_back({m_brush.color(), m_transform.mapRect(r), shown(r)});
        }

        RecordingDevice *m_device;
        QPen m_pen;
        QBrush m_brush;
        QFont m_font;
        QTransform m_transform;
        QRegion m_clip;
        bool m_clipEnabled = false;
    };
    mutable Engine m_engine{this};
};
