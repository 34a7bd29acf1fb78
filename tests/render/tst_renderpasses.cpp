// Each pass of the timeline drawn alone (Render::runPasses with a list of one) onto a
// transparent QImage: it draws something for a preset that has its element, and nothing outside
// the lanes it owns. The picture of all passes together is tst_referenceimages'.

#include "paintcontext.h"
#include "passes/passes.h"
#include "renderpass.h"

#include "scenariofile.h"
#include "simulator.h"
#include "theme.h"
#include "timelinerenderer.h"

#include <QImage>
#include <QPainter>
#include <QRegion>
#include <QTest>

#include <functional>
#include <memory>

using namespace Render;

namespace {

constexpr int kWidth = 900;

struct Picture
{
    QImage image;
    TimelineLayout layout;
    TimeAxis axis;
};

using MakePass = std::function<std::unique_ptr<RenderPass>()>;
// The part of the picture a pass may draw on, from the layout of its panels.
using Owned = std::function<QRegion(const TimelineLayout &, const TimeAxis &)>;

Core::Scenario loadPreset(const QString &name)
{
    const Core::LoadResult r =
        Core::ScenarioFile::load(QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/") +
                                 name + QStringLiteral(".json"));
    return r.ok() ? *r.scenario : Core::Scenario();
}

TimelineRenderer::Options options(bool compare)
{
    TimelineRenderer::Options o;
    o.theme = Theme::light();
    o.compare = compare;
    return o;
}

// `pass` alone over every panel of the preset's timeline, fitted to the run.
Picture drawAlone(const Core::Scenario &s, const TimelineRenderer::Options &o, RenderPass &pass)
{
    Picture pic;
    const Core::Trace fenced = Core::simulate(s, true);
    const Core::Trace unfenced = Core::simulate(s, false);
    const Core::Trace own = Core::simulate(s);
    const Core::Trace &top = o.compare ? fenced : own;
    const QSizeF size = TimelineRenderer::preferredSize(s, o, kWidth);
    const QRectF rect(QPointF(0, 0), size);
    pic.layout = TimelineRenderer::layout(s, o, rect);
    pic.axis =
        TimeCoordinates::fitted(TimelineRenderer::fitFrom(top), TimelineRenderer::fitTo(top),
                                pic.layout.plot.left() + TimelineRenderer::plotInset(o),
                                pic.layout.plot.width() - 2 * TimelineRenderer::plotInset(o));
    std::vector<const Core::Trace *> traces;
    for (const TimelinePanel &panel : pic.layout.panels)
        traces.push_back(panel.bottom && o.compare ? &unfenced : &top);

    pic.image = QImage(size.toSize(), QImage::Format_ARGB32_Premultiplied);
    pic.image.fill(Qt::transparent);
    QPainter p(&pic.image);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    const Style st(o.theme, &pic.image, nullptr);
    PaintRecorder recording;
    recording.begin(&p);
    runPasses(PaintContext(&recording, Target::of(&p, nullptr), st, pic.axis, pic.layout, s, o),
              {&pass}, traces);
    recording.replay(&p);
    return pic;
}

int paintedPixels(const QImage &image, const QRegion &where)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qAlpha(image.pixel(x, y)) != 0 && where.contains(QPoint(x, y)))
                ++n;
    return n;
}

QRegion rect(const QRectF &r, int grow = 1)
{
    return QRegion(r.toAlignedRect().adjusted(-grow, -grow, grow, grow));
}

QRegion clientLanes(const TimelineLayout &l, const TimeAxis &)
{
    QRegion r;
    for (const TimelinePanel &panel : l.panels)
        for (const ClientLaneRects &c : panel.clients)
            r += rect(c.lane);
    return r;
}

QRegion lockLanes(const TimelineLayout &l, const TimeAxis &)
{
    QRegion r;
    for (const TimelinePanel &panel : l.panels)
        r += rect(panel.lock);
    return r;
}

QRegion storageLanes(const TimelineLayout &l, const TimeAxis &)
{
    QRegion r;
    for (const TimelinePanel &panel : l.panels)
        for (const StorageLaneRects &s : panel.storages)
            r += rect(s.lane);
    return r;
}

QRegion plots(const TimelineLayout &l, const TimeAxis &)
{
    QRegion r;
    for (const TimelinePanel &panel : l.panels)
        r += rect(QRectF(l.plot.left(), panel.rect.top(), l.plot.width(), panel.rect.height()));
    return r;
}

QRegion titles(const TimelineLayout &l, const TimeAxis &)
{
    QRegion r;
    for (const TimelinePanel &panel : l.panels)
        r += rect(panel.title);
    return r;
}

QRegion lockHeaders(const TimelineLayout &l, const TimeAxis &)
{
    QRegion r;
    for (const TimelinePanel &panel : l.panels)
        r += rect(panel.lockHeader);
    return r;
}

template <class Pass> MakePass make()
{
    return [] { return std::make_unique<Pass>(); };
}

} // namespace

Q_DECLARE_METATYPE(MakePass)
Q_DECLARE_METATYPE(Owned)

class TestRenderPasses : public QObject
{
    Q_OBJECT
private slots:
    void drawsInsideItsLanes_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("compare");
        QTest::addColumn<MakePass>("pass");
        QTest::addColumn<Owned>("owned");
        const auto lanes =
            [](std::initializer_list<QRegion (*)(const TimelineLayout &, const TimeAxis &)> parts) {
                std::vector<QRegion (*)(const TimelineLayout &, const TimeAxis &)> v(parts);
                return Owned([v](const TimelineLayout &l, const TimeAxis &a) {
                    QRegion r;
                    for (const auto &part : v)
                        r += part(l, a);
                    return r;
                });
            };
        const QString gc = QStringLiteral("kleppmann-gc-pause");
        QTest::newRow("connectors") << gc << false << make<ConnectorsPass>() << lanes({plots});
        QTest::newRow("beliefs") << gc << false << make<BeliefsPass>() << lanes({clientLanes});
        QTest::newRow("lock waits") << QStringLiteral("chubby-lock-delay") << false
                                    << make<LockWaitsPass>() << lanes({clientLanes, lockLanes});
        QTest::newRow("leases") << gc << false << make<LeasesPass>()
                                << lanes({clientLanes, lockLanes});
        QTest::newRow("lock events") << QStringLiteral("zookeeper-failover") << false
                                     << make<LockEventsPass>() << lanes({lockLanes});
        QTest::newRow("lease marks") << QStringLiteral("keepalive-gc-pause") << false
                                     << make<LeaseMarksPass>() << lanes({clientLanes, lockLanes});
        QTest::newRow("client lanes")
            << gc << false << make<ClientLanesPass>() << lanes({clientLanes});
        QTest::newRow("check brackets") << QStringLiteral("check-then-write-gap") << false
                                        << make<CheckBracketsPass>() << lanes({clientLanes});
        QTest::newRow("storage lanes")
            << gc << false << make<StorageLanesPass>() << lanes({storageLanes});
        QTest::newRow("storage lanes, compare")
            << gc << true << make<StorageLanesPass>() << lanes({storageLanes});
        QTest::newRow("reads and groups") << QStringLiteral("two-resources-partial") << false
                                          << make<ReadsAndGroupsPass>() << lanes({plots});
        QTest::newRow("panel titles") << gc << true << make<PanelTitlePass>() << lanes({titles});
        QTest::newRow("token counter")
            << gc << false << make<TokenCounterPass>() << lanes({lockHeaders});
    }
    void drawsInsideItsLanes()
    {
        QFETCH(QString, preset);
        QFETCH(bool, compare);
        QFETCH(MakePass, pass);
        QFETCH(Owned, owned);
        const Core::Scenario s = loadPreset(preset);
        QVERIFY(!s.clients.empty());
        const std::unique_ptr<RenderPass> p = pass();
        const Picture pic = drawAlone(s, options(compare), *p);
        const QRegion mine = owned(pic.layout, pic.axis);
        const QRegion all(pic.image.rect());
        QVERIFY2(paintedPixels(pic.image, mine) > 20, "draws (almost) nothing where it should");
        QCOMPARE(paintedPixels(pic.image, all - mine), 0);
    }

    // The selection halo goes around the selected action on its own client's lane; nothing of
    // it falls on another lane.
    void highlightStaysOnTheSelectedLane()
    {
        const Core::Scenario s = loadPreset(QStringLiteral("kleppmann-gc-pause"));
        TimelineRenderer::Options o = options(false);
        o.selection = {1, 0};
        HighlightPass pass;
        const Picture pic = drawAlone(s, o, pass);
        const QRegion lane = rect(pic.layout.panels.front().clients[1].lane);
        QVERIFY(paintedPixels(pic.image, lane) > 20);
        QCOMPARE(paintedPixels(pic.image, QRegion(pic.image.rect()) - lane), 0);
    }

    // The playhead: a line at its tick from the ruler down, with its badge in the ruler; what
    // is still to come (right of it) veiled, what has happened (left of it) and the header
    // column untouched; and the ruler's bottom line across the whole width.
    void playheadIsAtItsTick()
    {
        const Core::Scenario s = loadPreset(QStringLiteral("kleppmann-gc-pause"));
        TimelineRenderer::Options o = options(false);
        o.playhead = 10;
        PlayheadPass pass;
        const Picture pic = drawAlone(s, o, pass);
        const TimelineLayout &l = pic.layout;
        const int x = int(std::floor(pic.axis.tickToX(10)));
        const int top = int(std::ceil(l.plot.top())) + 2;
        const int bottom = int(std::floor(l.panels.back().rect.bottom())) - 1;
        const int plotLeft = int(std::ceil(l.plot.left()));
        const int plotRight = int(std::floor(l.plot.right())) - 1;
        QVERIFY(x - 40 > plotLeft && x + 40 < plotRight);
        const QRect past(plotLeft + 1, top, x - 20 - plotLeft, bottom - top);
        const QRect future(x + 20, top, plotRight - x - 20, bottom - top);
        QCOMPARE(paintedPixels(pic.image, past), 0);
        QCOMPARE(paintedPixels(pic.image, future), future.width() * future.height());
        QVERIFY(paintedPixels(pic.image, QRect(x - 2, (top + bottom) / 2, 5, 1)) > 0);
        const QRect header(0, top, plotLeft - 1, bottom - top);
        QCOMPARE(paintedPixels(pic.image, header), 0);
        const int rulerY = int(std::floor(l.ruler.bottom()));
        QVERIFY(paintedPixels(pic.image, QRect(0, rulerY - 1, plotLeft, 3)) >= plotLeft - 2);
        QVERIFY(paintedPixels(pic.image, QRect(x - 30, int(l.ruler.top()) + 4, 61, 10)) > 50);
    }

    // The static layer names every lane in the header column and numbers the ruler; it draws
    // in the header cells of every lane, the ruler, and the plot (stripes and grid).
    void backgroundNamesEveryLane()
    {
        const Core::Scenario s = loadPreset(QStringLiteral("two-resources-partial"));
        BackgroundPass pass;
        const Picture pic = drawAlone(s, options(false), pass);
        const TimelinePanel &panel = pic.layout.panels.front();
        for (const ClientLaneRects &c : panel.clients)
            QVERIFY(paintedPixels(pic.image, c.header.toAlignedRect()) > 50);
        QVERIFY(paintedPixels(pic.image, panel.lockHeader.toAlignedRect()) > 50);
        for (const StorageLaneRects &st : panel.storages)
            QVERIFY(paintedPixels(pic.image, st.header.toAlignedRect()) > 50);
        QVERIFY(paintedPixels(pic.image, pic.layout.ruler.toAlignedRect()) > 50);
        QCOMPARE(paintedPixels(pic.image, QRect(0, int(std::ceil(panel.rect.bottom())) + 1,
                                                pic.image.width(), pic.image.height())),
                 0);
    }
};

QTEST_MAIN(TestRenderPasses)
#include "tst_renderpasses.moc"
