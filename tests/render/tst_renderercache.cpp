// The renderer's caches (static layer image, text widths) never change the picture: a renderer
// that has painted something else before paints exactly what a fresh renderer with caching off
// paints, whatever changed in between (trace, scenario, axis, theme, size, target).

#include "canvas.h"
#include "randomscenario.h"
#include "scenariofile.h"
#include "simulator.h"
#include "timelinerenderer.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QTest>

namespace {

struct Frame
{
    Core::Scenario scenario;
    Core::Trace trace; // as the view shows it: the scenario's fencing, or fenced on top in compare
    Core::Trace unfenced; // the bottom panel in compare mode
    TimeAxis axis;
    TimelineRenderer::Options options;
    QSize size{900, 700};
    int dpr = 1;
    QPointF offset; // where the timeline sits on the image
    QImage::Format format = QImage::Format_ARGB32_Premultiplied;

    void simulate()
    {
        trace = options.compare ? Core::simulate(scenario, true) : Core::simulate(scenario);
        unfenced = Core::simulate(scenario, false);
    }
};

Frame defaultFrame()
{
    Frame f;
    f.scenario = Core::ScenarioFile::defaultScenario();
    f.simulate();
    f.axis = TimeAxis{-2, 18, TimelineRenderer::headerWidth(f.options)};
    return f;
}

// Zoomed out on a few thousand actions: every lane is drawn a pixel column at a time, and the
// storage lanes are recorded by the renderer's helper thread.
Frame denseFrame(std::uint64_t seed)
{
    TestSupport::RandomScenarioOptions ro;
    ro.minClients = 4;
    ro.maxClients = 4;
    ro.minStorages = 2;
    ro.maxStorages = 2;
    ro.minActions = 900;
    ro.maxActions = 900;
    ro.span = 20000;
    Frame f;
    f.scenario = TestSupport::randomScenario(seed, ro);
    f.simulate();
    const double header = TimelineRenderer::headerWidth(f.options);
    f.axis = TimeAxis{0, (f.size.width() - header) / 20000.0, header};
    return f;
}

Frame randomFrame(std::uint64_t seed)
{
    TestSupport::RandomScenarioOptions ro;
    ro.minClients = 3;
    ro.maxClients = 5;
    ro.minActions = 20;
    ro.maxActions = 40;
    ro.span = 300;
    Frame f;
    f.scenario = TestSupport::randomScenario(seed, ro);
    f.simulate();
    f.axis = TimeAxis{0, 2.7, TimelineRenderer::headerWidth(f.options)};
    return f;
}

QImage paint(const TimelineRenderer &r, const Frame &f)
{
    QImage img(f.size * f.dpr, f.format);
    img.setDevicePixelRatio(f.dpr);
    img.fill(Qt::magenta); // anything the renderer leaves alone shows
    QPainter p(&img);
    const QRectF rect(f.offset, QSizeF(f.size) - QSizeF(f.offset.x(), f.offset.y()));
    r.paint(&p, rect, f.scenario, f.trace, f.options.compare ? &f.unfenced : nullptr, f.axis,
            f.options);
    return img;
}

QImage fresh(const Frame &f)
{
    TimelineRenderer r;
    r.setCaching(false);
    return paint(r, f);
}

// Where two pictures differ, for the failure message.
QString difference(const QImage &a, const QImage &b)
{
    if (a.size() != b.size())
        return QStringLiteral("sizes differ");
    int n = 0;
    int most = 0;
    QRect box;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y);
            const QRgb q = b.pixel(x, y);
            if (p != q) {
                ++n;
                box |= QRect(x, y, 1, 1);
                most = std::max({most, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                                 std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q))});
            }
        }
    return QStringLiteral("%1 pixels differ by up to %6 in (%2,%3 %4x%5)")
        .arg(n)
        .arg(box.x())
        .arg(box.y())
        .arg(box.width())
        .arg(box.height())
        .arg(most);
}

} // namespace

// The same picture but for at most `pixels` pixels one level (of 255) apart in some channel.
bool nearlySame(const QImage &a, const QImage &b, int pixels)
{
    if (a.size() != b.size())
        return false;
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y);
            const QRgb q = b.pixel(x, y);
            if (p == q)
                continue;
            if (std::abs(qRed(p) - qRed(q)) > 1 || std::abs(qGreen(p) - qGreen(q)) > 1 ||
                std::abs(qBlue(p) - qBlue(q)) > 1 || std::abs(qAlpha(p) - qAlpha(q)) > 1 ||
                ++n > pixels)
                return false;
        }
    return true;
}

#define COMPARE_PICTURES(actual, expected)                                                         \
    do {                                                                                           \
        const QImage a_ = (actual);                                                                \
        const QImage e_ = (expected);                                                              \
        QVERIFY2(a_ == e_, qPrintable(difference(a_, e_)));                                        \
    } while (false)

class TestRendererCache : public QObject
{
    Q_OBJECT

private:
    // Paints `f` with `r` (which remembers earlier paints) and with a fresh uncached renderer.
    void expectFresh(TimelineRenderer &r, const Frame &f)
    {
        const QImage expected = fresh(f);
        // repeated: the later paints come from the sprites and the content layer
        for (int i = 0; i < 4; ++i) {
            COMPARE_PICTURES(paint(r, f), expected);
        }
    }

private slots:
    void repaintIsTheSamePicture_data()
    {
        QTest::addColumn<int>("variant");
        QTest::newRow("default scenario") << 0;
        QTest::newRow("dark") << 1;
        QTest::newRow("contrast: fractional lane heights") << 2;
        QTest::newRow("compare mode") << 3;
        QTest::newRow("playhead and selection") << 4;
        QTest::newRow("random, zoomed out") << 5;
        QTest::newRow("device pixel ratio 2") << 6;
        QTest::newRow("offset inside the image") << 7;
        QTest::newRow("RGB32 target") << 8;
        QTest::newRow("any sub-pixel offsets") << 11;
        QTest::newRow("dense lanes, storages on the helper thread") << 9;
        QTest::newRow("dense lanes, compare mode") << 10;
        // the lock and storage lanes pinned to the bottom, as in a window shorter than the
        // picture (each pass paints the panel twice, in two clips)
        QTest::newRow("pinned lanes") << 12;
    }
    void repaintIsTheSamePicture()
    {
        QFETCH(int, variant);
        Frame f = variant == 5 ? randomFrame(7) : variant >= 9 ? denseFrame(5) : defaultFrame();
        if (variant == 10) {
            f.options.compare = true;
            f.simulate();
        }
        if (variant == 1)
            f.options.theme = Theme::dark();
        if (variant == 2) {
            f.options.theme = Theme::highContrast();
            f.axis.left = TimelineRenderer::headerWidth(f.options);
        }
        if (variant == 3) {
            f.options.compare = true;
            f.simulate();
        }
        if (variant == 4) {
            f.options.playhead = 12;
            f.options.selection = Selection{1, 2};
        }
        if (variant == 6)
            f.dpr = 2;
        if (variant == 7) {
            f.offset = QPointF(17, 23);
            f.axis.left += 17;
        }
        if (variant == 8)
            f.format = QImage::Format_RGB32;
        if (variant == 12) {
            const double natural =
                TimelineRenderer::preferredSize(f.scenario, f.options, f.size.width()).height();
            f.options.pinBottom = std::floor(natural * 6 / 10);
            f.size.setHeight(int(f.options.pinBottom));
        }
        if (variant == 11) {
            f = randomFrame(17);
            f.axis.firstTick = -0.5;
            f.axis.pixelsPerTick = 2.796875;
        }
        TimelineRenderer r;
        const QImage expected = fresh(f);
        // the first paint records, the second makes sprites of what came up again, the third
        // paints the content layer, and from the fourth on it is copied
        for (int i = 0; i < 5; ++i) {
            const QImage actual = paint(r, f);
            if (variant == 11) {
                // Sprites of strokes and shapes placed at any sub-pixel offset: Qt computes a few
                // things in device coordinates, so a rare edge pixel comes out one level apart
                // (here 5 of 630 000 pixels in the worst paint).
                QVERIFY2(nearlySame(actual, expected, 20),
                         qPrintable(difference(actual, expected)));
                continue;
            }
            COMPARE_PICTURES(actual, expected);
        }
        QCOMPARE(r.staticLayerPaints(), 1);
        QCOMPARE(r.contentLayerPaints(), 1);
    }

    // The cache is keyed on everything the static layer shows; each change below must renew
    // what it shows, and a repaint without change must not.
    void nothingStaleIsPainted()
    {
        TimelineRenderer r;
        Frame f = randomFrame(3);
        expectFresh(r, f);
        int paints = r.staticLayerPaints();
        const auto step = [&](const char *what, bool renewsLayer) {
            expectFresh(r, f);
            const int now = r.staticLayerPaints();
            if (renewsLayer)
                QVERIFY2(now == paints + 1, what);
            else
                QVERIFY2(now == paints, what);
            paints = now;
        };

        // the trace changes on every drag step: a pause moves, everything after it moves
        for (Core::Client &c : f.scenario.clients)
            for (Core::Action &a : c.actions)
                if (a.kind == Core::ActionKind::Pause)
                    a.at += 3;
        f.simulate();
        step("trace changed", false);
        int contents = r.contentLayerPaints();
        f.options.playhead = 40;
        step("playhead", false);
        f.options.selection = Selection{0, 1};
        f.options.hoverClient = 1;
        f.options.hoverAction = 0;
        step("selection and hover", false);
        f.options.selection = Selection{1, 0};
        f.options.hoverClient = -1;
        step("selection moved, hover gone", false);
        // drawn over the content: the content layer itself stays
        QCOMPARE(r.contentLayerPaints(), contents);
        f.options.playheadBefore = true;
        step("playhead before its tick", false);

        f.axis.firstTick += 7.25;
        step("scrolled", true);
        f.axis.pixelsPerTick *= 1.25;
        step("zoomed", true);
        f.scenario.clients[0].name = QStringLiteral("renamed client");
        f.simulate();
        step("client renamed", true);
        f.scenario.storages[0].rule = Core::FenceRule::Le;
        f.simulate();
        step("storage rule", true);
        f.scenario.fencing = false;
        f.simulate();
        step("fencing off", true);
        Core::Client added;
        added.name = QStringLiteral("added");
        added.actions = {Core::Action::acquire(5, 10)};
        f.scenario.clients.push_back(added);
        f.simulate();
        step("client added", true);
        f.options.theme = Theme::dark();
        step("theme", true);
        f.options.theme.fontScale = 1.3;
        f.axis.left = TimelineRenderer::headerWidth(f.options);
        step("font scale", true);
        f.size = QSize(1000, 640);
        step("resized", true);
        f.options.compare = true;
        f.simulate();
        step("compare mode", true);
        f.options.collapsedPauses = std::vector<bool>(f.scenario.clients.size(), true);
        step("pause rows collapsed", true);
        f.dpr = 2;
        step("device pixel ratio", true);
        f.dpr = 1;
        f.offset = QPointF(4, 9);
        step("moved on the target", true);
    }

    // Dense lanes whose trace changes on every paint (a drag zoomed out): each paint records
    // the storages on the helper thread again.
    void denseTraceChanges()
    {
        TimelineRenderer r;
        Frame f = denseFrame(9);
        for (int i = 0; i < 6; ++i) {
            for (Core::Client &c : f.scenario.clients)
                for (Core::Action &a : c.actions)
                    if (a.kind == Core::ActionKind::Pause) {
                        a.at += 37;
                        break;
                    }
            f.simulate();
            COMPARE_PICTURES(paint(r, f), fresh(f));
        }
    }

    // A renderer painting two views in turn renews its layer each time and stays right.
    void alternatingViews()
    {
        TimelineRenderer r;
        const Frame a = defaultFrame();
        const Frame b = randomFrame(11);
        for (int i = 0; i < 3; ++i) {
            expectFresh(r, a);
            expectFresh(r, b);
        }
    }

    // An item from a sprite is the item painted: also an outline of a rectangle given bottom up
    // (negative height), whose sprite once came out as a null image and drew nothing. The same
    // outline at four whole-pixel places: the first is painted, the second makes the sprite,
    // the rest are copied from it.
    void spriteOfAnUpsideDownOutline()
    {
        const auto draw = [](bool sprites) {
            QImage image(240, 200, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            RendererCache cache;
            QPainter p(&image);
            p.setRenderHint(QPainter::Antialiasing);
            PaintRecorder recording;
            recording.begin(&p);
            Render::Canvas canvas(&recording, Render::Target::of(&p, sprites ? &cache : nullptr));
            const QPen pen(QColor(20, 40, 200), 1.5);
            for (int i = 0; i < 4; ++i) {
                canvas.outline(QRectF(30 + 50 * i, 170, 3.5, -120), pen);
                canvas.outline(QRectF(30 + 50 * i + 10, 20, 6, 30), pen); // the right way up
            }
            recording.replay(&p);
            p.end();
            return image;
        };
        const QImage painted = draw(false);
        const QImage fromSprites = draw(true);
        // the outlines are there: a column of blue down each bar's side
        for (int i = 0; i < 4; ++i)
            QVERIFY2(qBlue(painted.pixel(30 + 50 * i, 110)) > qRed(painted.pixel(30 + 50 * i, 110)),
                     qPrintable(QStringLiteral("bar %1").arg(i)));
        QCOMPARE(fromSprites, painted);
    }

    // Vector output keeps real text and shapes: no image of the static layer in an SVG.
    void svgHasNoCachedImage()
    {
        const Frame f = defaultFrame();
        TimelineRenderer r;
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        {
            QSvgGenerator svg;
            svg.setOutputDevice(&buffer);
            svg.setSize(f.size);
            svg.setViewBox(QRect(QPoint(0, 0), f.size));
            QPainter p(&svg);
            r.paint(&p, QRectF(QPointF(0, 0), QSizeF(f.size)), f.scenario, f.trace, nullptr, f.axis,
                    f.options);
        }
        QCOMPARE(r.staticLayerPaints(), 0);
        const QByteArray out = buffer.data();
        QVERIFY(!out.contains("<image"));
        QVERIFY(out.contains("holds lock"));
        QVERIFY(out.contains("lock service"));
    }
};

QTEST_MAIN(TestRendererCache)
#include "tst_renderercache.moc"
