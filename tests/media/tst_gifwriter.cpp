// The GIF as giflib stores it, beyond the pictures a viewer composes (which tst_animation
// compares): each frame after the first is only the rectangle that changed, with the pixels in
// it that did not change left transparent, and the theme's own colours are in the palette
// exactly, so pixels painted solid in them come back exactly. A writer that stored whole
// frames, or a palette that only came near the theme, would show the same pictures within
// tst_animation's tolerance and pass there.

#include "animation.h"
#include "animationsupport.h"
#include "exportruns.h"
#include "gifwriter.h"
#include "mediadecode.h"
#include "scenariofile.h"

#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

#include <gif_lib.h>

#include <map>
#include <memory>

namespace {

struct GifCloser
{
    void operator()(GifFileType *gif) const
    {
        int error = 0;
        DGifCloseFile(gif, &error);
    }
};
using Gif = std::unique_ptr<GifFileType, GifCloser>;

// The file as giflib reads it: every frame's descriptor, raster and extension blocks.
Gif slurp(const QString &path)
{
    int error = 0;
    Gif gif(DGifOpenFileName(QFile::encodeName(path).constData(), &error));
    if (gif && DGifSlurp(gif.get()) != GIF_OK)
        gif.reset();
    return gif;
}

GraphicsControlBlock controlBlock(GifFileType *gif, int frame)
{
    GraphicsControlBlock gcb{DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    DGifSavedExtensionToGCB(gif, frame, &gcb);
    return gcb;
}

QRgb opaque(const QColor &c)
{
    return c.rgb() | 0xff000000u;
}

// The picture a step's hold shows, drawn by the exporter alone on the animation's canvas.
QImage drawn(const Core::Scenario &s, ExportOptions picture, QSize canvas)
{
    QImage frame(canvas, QImage::Format_RGB32);
    frame.fill(picture.theme.background);
    QPainter p(&frame);
    p.drawImage(0, 0, Exporter::renderImage(s, TestRuns(s, picture), picture));
    p.end();
    return frame;
}

} // namespace

class TestGifWriter : public QObject
{
    Q_OBJECT

private slots:
    void laterFramesStoreOnlyWhatChanged()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.gif"));
        QCOMPARE(Animation::exportTo(path, s, smallOptions()), QString());
        const Gif gif = slurp(path);
        QVERIFY(gif);
        // what a viewer shows after each frame, composed by the reader of tst_animation
        const MediaDecode::Animation shown = MediaDecode::readGif(path);
        QCOMPARE(int(shown.frames.size()), gif->ImageCount);
        QVERIFY(gif->ImageCount > 2);
        const QRect screen(0, 0, gif->SWidth, gif->SHeight);
        const qint64 screenPixels = qint64(screen.width()) * screen.height();

        // the first frame: the whole picture, nothing transparent (there is nothing under it)
        const SavedImage &first = gif->SavedImages[0];
        QCOMPARE(QRect(first.ImageDesc.Left, first.ImageDesc.Top, first.ImageDesc.Width,
                       first.ImageDesc.Height),
                 screen);
        QCOMPARE(controlBlock(gif.get(), 0).DisposalMode, DISPOSE_DO_NOT);
        for (qint64 i = 0; i < screenPixels; ++i)
            QVERIFY(first.RasterBits[i] != GifPalette::kTransparent);

        qint64 stored = screenPixels;
        qint64 transparent = 0;
        for (int i = 1; i < gif->ImageCount; ++i) {
            const SavedImage &frame = gif->SavedImages[i];
            const GifImageDesc &d = frame.ImageDesc;
            const QRect rect(d.Left, d.Top, d.Width, d.Height);
            const GraphicsControlBlock gcb = controlBlock(gif.get(), i);
            // drawn over the last frame, its unchanged pixels the transparent index
            QCOMPARE(gcb.DisposalMode, DISPOSE_DO_NOT);
            QCOMPARE(gcb.TransparentColor, int(GifPalette::kTransparent));
            QVERIFY(screen.contains(rect));
            QVERIFY2(qint64(d.Width) * d.Height < screenPixels,
                     qPrintable(QStringLiteral("frame %1 is the whole picture").arg(i)));
            stored += qint64(d.Width) * d.Height;
            const QImage &before = shown.frames[std::size_t(i) - 1].image;
            const QImage &after = shown.frames[std::size_t(i)].image;
            // outside the rectangle nothing changed
            for (int y = 0; y < screen.height(); ++y)
                for (int x = 0; x < screen.width(); ++x)
                    if (!rect.contains(x, y) && before.pixel(x, y) != after.pixel(x, y))
                        QFAIL(qPrintable(QStringLiteral("frame %1 changed (%2, %3) outside its "
                                                        "rectangle")
                                             .arg(i)
                                             .arg(x)
                                             .arg(y)));
            // inside, a pixel is transparent exactly where it stayed the same, and the
            // rectangle is the tightest one: a changed pixel on each of its four edges
            bool top = false, bottom = false, left = false, right = false;
            for (int y = 0; y < d.Height; ++y)
                for (int x = 0; x < d.Width; ++x) {
                    const int index = frame.RasterBits[y * d.Width + x];
                    const bool same =
                        before.pixel(d.Left + x, d.Top + y) == after.pixel(d.Left + x, d.Top + y);
                    if ((index == GifPalette::kTransparent) != same)
                        QFAIL(qPrintable(QStringLiteral("frame %1 at (%2, %3): index %4, %5")
                                             .arg(i)
                                             .arg(d.Left + x)
                                             .arg(d.Top + y)
                                             .arg(index)
                                             .arg(same ? QStringLiteral("unchanged")
                                                       : QStringLiteral("changed"))));
                    if (same) {
                        ++transparent;
                        continue;
                    }
                    top |= y == 0;
                    bottom |= y == d.Height - 1;
                    left |= x == 0;
                    right |= x == d.Width - 1;
                }
            QVERIFY2(
                top && bottom && left && right,
                qPrintable(QStringLiteral("frame %1's rectangle is wider than its change").arg(i)));
        }
        // the travelling playhead and the captions change a small part of the picture: the
        // frames after the first store far less than whole frames would, and most of what
        // they store is transparent
        const qint64 whole = screenPixels * gif->ImageCount;
        QVERIFY2(stored < whole / 2, qPrintable(QStringLiteral("%1 of %2").arg(stored).arg(whole)));
        QVERIFY2(
            transparent > (stored - screenPixels) / 2,
            qPrintable(QStringLiteral("%1 of %2").arg(transparent).arg(stored - screenPixels)));
    }

    void theThemesColoursComeBackExactly_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::newRow("print") << QStringLiteral("print"); // an export's default
        QTest::newRow("dark") << QStringLiteral("dark");
    }

    void theThemesColoursComeBackExactly()
    {
        QFETCH(QString, theme);
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        AnimationOptions o = smallOptions();
        o.picture.theme = Theme::byName(theme);
        const Theme &th = o.picture.theme;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.gif"));
        QCOMPARE(Animation::exportTo(path, s, o), QString());
        const Gif gif = slurp(path);
        QVERIFY(gif);

        // the background, the lanes' text, and the accepted and rejected writes (the default
        // run has one of each, at 13 and at 30)
        const std::map<QString, QRgb> colours = {
            {QStringLiteral("background"), opaque(th.background)},
            {QStringLiteral("text"), opaque(th.foreground)},
            {QStringLiteral("accepted"), opaque(th.accepted)},
            {QStringLiteral("rejected"), opaque(th.rejected)}};
        // one global palette, no frame with its own, and each colour in it exactly
        QVERIFY(gif->SColorMap);
        for (int i = 0; i < gif->ImageCount; ++i)
            QVERIFY(!gif->SavedImages[i].ImageDesc.ColorMap);
        std::vector<QRgb> palette;
        for (int i = 0; i < gif->SColorMap->ColorCount; ++i) {
            const GifColorType c = gif->SColorMap->Colors[i];
            palette.push_back(qRgb(c.Red, c.Green, c.Blue));
        }
        // (the background first: the screen's colour before the first frame)
        QCOMPARE(palette[std::size_t(gif->SBackGroundColor)], opaque(th.background));
        for (const auto &[name, rgb] : colours)
            QVERIFY2(std::find(palette.begin(), palette.end(), rgb) != palette.end(),
                     qPrintable(name + QStringLiteral(" is not in the palette")));

        // where the exporter paints one of them solid, the file shows it exactly: in every
        // step's hold and in the verdict
        const MediaDecode::Animation shown = MediaDecode::readGif(path);
        const Animation::Plan p = Animation::plan(s, o);
        QCOMPARE(shown.frames.size(), p.frames.size());
        std::map<QString, qint64> painted;
        for (std::size_t i = 0; i < p.frames.size(); ++i) {
            const Animation::Frame &f = p.frames[i];
            if (f.kind == Animation::Frame::Kind::Travel)
                continue;
            ExportOptions picture = o.picture;
            if (f.kind == Animation::Frame::Kind::Hold)
                picture.playhead = f.playhead;
            const QImage expected = drawn(s, picture, p.size);
            const QImage &got = shown.frames[i].image;
            for (int y = 0; y < expected.height(); ++y)
                for (int x = 0; x < expected.width(); ++x) {
                    const QRgb want = expected.pixel(x, y);
                    for (const auto &[name, rgb] : colours) {
                        if (want != rgb)
                            continue;
                        ++painted[name];
                        if (got.pixel(x, y) != rgb)
                            QFAIL(qPrintable(
                                QStringLiteral("frame %1 at (%2, %3): %4 #%5 came "
                                               "back as #%6")
                                    .arg(i)
                                    .arg(x)
                                    .arg(y)
                                    .arg(name)
                                    .arg(rgb & 0xffffff, 6, 16, QLatin1Char('0'))
                                    .arg(got.pixel(x, y) & 0xffffff, 6, 16, QLatin1Char('0'))));
                    }
                }
        }
        // each of them was painted solid somewhere (else the check above proved nothing)
        for (const auto &[name, rgb] : colours)
            QVERIFY2(painted[name] > 20,
                     qPrintable(QStringLiteral("%1: %2 pixels").arg(name).arg(painted[name])));
    }
};

QTEST_MAIN(TestGifWriter)
#include "tst_gifwriter.moc"
