// Zoomed far out, thousands of writes share a pixel column; the one corruption among them
// must still be drawn. (A crowded column used to show the worst of its first few writes only.)

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
        Client a{QStringLiteral("A"), {Action::acquire(0, 10), Action::write(1, QStringLiteral("A"), 0, 1098)}, {}};
        Client b{QStringLiteral("B"), {Action::acquire(20, 5000)}, {}};
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
};

QTEST_MAIN(TestCrowdedStorage)
#include "tst_crowdedstorage.moc"
