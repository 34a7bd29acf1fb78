// Zoomed far out, thousands of writes share a pixel column; the one corruption among them
// must still be drawn. (A crowded column used to show the worst of its first few writes only.)

#include "recordingdevice.h"
#include "simulator.h"
#include "theme.h"
#include "timelinerenderer.h"

#include <QImage>
#include <QPainter>
#include <QTest>

using namespace Core;

class TestCrowdedStorage : public QObject
{
    Q_OBJECT

    static int count(const QImage &img, const QRect &area, const QColor &c)
    {
        int n = 0;
        const QRect r = area.intersected(img.rect());
        for (int y = r.top(); y <= r.bottom(); ++y)
            for (int x = r.left(); x <= r.right(); ++x)
                n += (img.pixel(x, y) & 0xffffff) == (c.rgb() & 0xffffff);
        return n;
    }

private slots:
    void corruptionInACrowdedColumnIsDrawn()
    {
        // A holds epoch 1 and sends a write at t=1 that the network delays until t=1099.
        // B holds epoch 2 from t=20 and writes every tick from 500 to 1500 (all accepted).
        // Unfenced, A's write lands at 1099 after B's epoch-2 writes: corrupted. At 0.01 px
        // per tick, ticks 1000..1099 share one pixel column, and A's write is its 100th.
        Scenario s;
        Client a{QStringLiteral("A"),
                 {Action::acquire(0, 10), Action::write(1, QStringLiteral("A"), 0, 1098)},
                 {}, false, {}};
        Client b{QStringLiteral("B"), {Action::acquire(20, 5000)}, {}, false, {}};
        for (Tick t = 500; t <= 1500; ++t)
            b.actions.push_back(Action::write(t, QStringLiteral("B")));
        s.clients = {a, b};
        s.fencing = false;
        const Trace trace = simulate(s);
        QCOMPARE(trace.summary.corrupted, 1u);
        QCOMPARE(trace.storageIncidents[0].size(), std::size_t(1));
        QCOMPARE(trace.writes[trace.storageIncidents[0][0]].arrivedAt, Tick(1099));

        TimelineRenderer::Options o;
        const QSizeF size = TimelineRenderer::preferredSize(s, o, 400);
        QImage image(size.toSize(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        TimeAxis axis;
        axis.left = std::round(TimelineRenderer::headerWidth(o));
        axis.firstTick = 0;
        axis.pixelsPerTick = 0.01;
        {
            QPainter p(&image);
            TimelineRenderer().paint(&p, QRectF(QPointF(0, 0), size), s, trace, nullptr, axis, o);
        }
        const TimelineLayout layout = TimelineRenderer::layout(s, o, QRectF(QPointF(0, 0), size));
        const QRect lane = layout.panels.front().storages.front().outcomes.toAlignedRect();
        QVERIFY(count(image, lane, o.theme.accepted) > 0);
        QVERIFY2(count(image, lane, o.theme.corrupted) > 0, "the corruption is hidden");
    }

    // Zoomed in, two writes arriving at one tick on one storage share a glyph: a count on it
    // says so ("×2"), where one glyph alone hid the second. Worked by hand: A (token 1, ttl 5)
    // pauses 1..10, so its write due at 2 goes at 10 with delay 0; B (token 2 from 6) writes at
    // 10 too: both arrive at 10 (A's first, max 0 -> 1, then B's, 1 -> 2: both accepted). A
    // single write at 13 gets no count.
    void twoWritesAtOneTickAreCounted()
    {
        Scenario s;
        s.clients = {Client{QStringLiteral("A"),
                            {Action::acquire(0, 5), Action::pause(1, 9),
                             Action::write(2, QStringLiteral("A"))},
                            {}, false, {}},
                     Client{QStringLiteral("B"),
                            {Action::acquire(6, 10), Action::write(10, QStringLiteral("B")),
                             Action::write(13, QStringLiteral("B2"))},
                            {}, false, {}}};
        s.horizon = 20;
        const Trace trace = simulate(s);
        QCOMPARE(trace.summary.accepted, 3u);
        QCOMPARE(trace.writes[trace.storageWrites[0][0]].arrivedAt, Tick(10));
        QCOMPARE(trace.writes[trace.storageWrites[0][1]].arrivedAt, Tick(10));

        TimelineRenderer::Options o;
        const QSizeF size = TimelineRenderer::preferredSize(s, o, 1000);
        TimeAxis axis;
        axis.left = std::round(TimelineRenderer::headerWidth(o)) + 20;
        axis.pixelsPerTick = 40;
        RecordingDevice words;
        words.size = size.toSize();
        {
            QPainter p(&words);
            TimelineRenderer().paint(&p, QRectF(QPointF(0, 0), size), s, trace, nullptr, axis, o);
        }
        const TimelineLayout layout = TimelineRenderer::layout(s, o, QRectF(QPointF(0, 0), size));
        const QRectF lane = layout.panels.front().storages.front().lane;
        int counts = 0;
        for (const RecordingDevice::Text &t : words.texts) {
            if (t.text == QStringLiteral("×2")) {
                ++counts;
                QVERIFY(lane.contains(t.at));
                // on the glyph at t=10, not on the one at 13
                QVERIFY2(std::abs(t.at.x() - axis.tickToX(10)) < 30,
                         qPrintable(QString::number(t.at.x())));
            }
        }
        QCOMPARE(counts, 1);
    }
};

QTEST_MAIN(TestCrowdedStorage)
#include "tst_crowdedstorage.moc"
