#pragma once

// A timeline at 20 px a tick from t=0, 1200 px wide and as tall as its lanes, painted twice
// with the caches off: onto an offscreen image (pixels) and onto a RecordingDevice (the words
// painted and their colours). Shared by the lane tests (tst_lockservicelane, tst_pitfalllanes).
// FENCESCOPE_SCREENSHOTS=DIR saves every picture there, `<name>-<n>.png`, to look at.

#include "recordingdevice.h"
#include "timelinerenderer.h"

#include <QImage>
#include <QPainter>
#include <QString>

namespace LanePictures {

struct Picture
{
    QImage image;
    RecordingDevice words;
    TimelineLayout layout;
    TimeAxis axis;
    double x(double tick) const { return axis.tickToX(tick); }
};

inline void render(Picture &pic, const Core::Scenario &s, const Core::Trace &t,
                   const QString &screenshotName = QStringLiteral("lanes"))
{
    TimelineRenderer r;
    r.setCaching(false);
    const TimelineRenderer::Options o;
    const QRectF rect(QPointF(0, 0), TimelineRenderer::preferredSize(s, o, 1200));
    pic.layout = TimelineRenderer::layout(s, o, rect);
    pic.axis.left = pic.layout.plot.left() + TimelineRenderer::plotInset(o);
    pic.axis.firstTick = 0;
    pic.axis.pixelsPerTick = 20;
    pic.image = QImage(rect.size().toSize(), QImage::Format_RGB32);
    {
        QPainter p(&pic.image);
        r.paint(&p, rect, s, t, nullptr, pic.axis, o);
    }
    if (!qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOTS")) {
        static int n = 0;
        pic.image.save(qEnvironmentVariable("FENCESCOPE_SCREENSHOTS") +
                       QStringLiteral("/%1-%2.png").arg(screenshotName).arg(++n));
    }
    pic.words.size = rect.size().toSize();
    QPainter p(&pic.words);
    r.paint(&p, rect, s, t, nullptr, pic.axis, o);
}

inline const RecordingDevice::Text *findText(const Picture &pic, const QString &text)
{
    for (const RecordingDevice::Text &t : pic.words.texts)
        if (t.text == text)
            return &t;
    return nullptr;
}

} // namespace LanePictures
