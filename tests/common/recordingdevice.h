#pragma once

// A paint device that draws nothing and notes what was painted on it: every piece of text with
// its pen colour, and every polygon. For tests that ask what a picture is made of ("which
// colours is text written in", "which shapes does the legend use") rather than pixels.

#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QPolygonF>

#include <vector>

class RecordingDevice : public QPaintDevice
{
public:
    struct Text
    {
        QString text;
        QColor color;
        QPointF at; // device coordinates
    };
    std::vector<Text> texts;
    std::vector<QPolygonF> polygons; // device coordinates
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
            if (state.state() & DirtyPen)
                m_pen = state.pen();
            if (state.state() & DirtyTransform)
                m_transform = state.transform();
        }
        void drawTextItem(const QPointF &at, const QTextItem &item) override
        {
            if (!item.text().trimmed().isEmpty())
                m_device->texts.push_back({item.text(), m_pen.color(), m_transform.map(at)});
        }
        void drawPolygon(const QPointF *points, int count, PolygonDrawMode) override
        {
            QPolygonF poly;
            for (int i = 0; i < count; ++i)
                poly << m_transform.map(points[i]);
            m_device->polygons.push_back(poly);
        }
        void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
        void drawImage(const QRectF &, const QImage &, const QRectF &,
                       Qt::ImageConversionFlags) override
        {
        }
        void drawPath(const QPainterPath &) override {}
        void drawRects(const QRectF *, int) override {}
        void drawLines(const QLineF *, int) override {}
        void drawEllipse(const QRectF &) override {}
        Type type() const override { return User; }

    private:
        RecordingDevice *m_device;
        QPen m_pen;
        QTransform m_transform;
    };
    mutable Engine m_engine{this};
};
