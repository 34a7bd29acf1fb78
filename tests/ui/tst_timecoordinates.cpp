// The pure tick <-> pixel math of timecoordinates.h at several zoom levels.

#include "timecoordinates.h"

#include <QtTest>

class TestTimeCoordinates : public QObject
{
    Q_OBJECT

private slots:
    void tickToX_data()
    {
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("ppt");
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("tick");
        QTest::addColumn<double>("x");
        QTest::newRow("origin") << 0.0 << 20.0 << 0.0 << 0.0 << 0.0;
        QTest::newRow("20 px/tick") << 0.0 << 20.0 << 100.0 << 5.0 << 200.0;
        QTest::newRow("scrolled") << 10.0 << 20.0 << 100.0 << 15.0 << 200.0;
        QTest::newRow("before first") << 10.0 << 20.0 << 100.0 << 5.0 << 0.0;
        QTest::newRow("negative first") << -2.0 << 10.0 << 132.0 << 0.0 << 152.0;
        QTest::newRow("zoomed out") << 0.0 << 0.001 << 50.0 << 1e6 << 1050.0;
        QTest::newRow("zoomed in") << 7.5 << 400.0 << 0.0 << 8.0 << 200.0;
        QTest::newRow("million ticks") << 999000.0 << 0.5 << 0.0 << 1e6 << 500.0;
    }
    void tickToX()
    {
        QFETCH(double, first);
        QFETCH(double, ppt);
        QFETCH(double, left);
        QFETCH(double, tick);
        QFETCH(double, x);
        const TimeAxis a{first, ppt, left};
        QCOMPARE(a.tickToX(tick), x);
        // and back
        QVERIFY(qAbs(a.xToTick(x) - tick) < 1e-9 * std::max(1.0, tick));
    }

    void clampedX_data()
    {
        QTest::addColumn<double>("tick");
        QTest::addColumn<double>("x");
        // axis: first tick 0, 10 px a tick, left 100; the plot from 100 to 600, so x stays
        // within 60 and 640
        QTest::newRow("inside") << 20.0 << 300.0;
        QTest::newRow("just past the right edge") << 52.0 << 620.0;
        QTest::newRow("far right") << 1e12 << 640.0;
        QTest::newRow("far left") << -1e6 << 60.0;
        QTest::newRow("on the clamp") << 54.0 << 640.0;
    }
    void clampedX()
    {
        QFETCH(double, tick);
        QFETCH(double, x);
        const TimeAxis a{0, 10, 100};
        QCOMPARE(a.clampedX(tick, 100, 600), x);
    }

    void snapTick_data()
    {
        QTest::addColumn<double>("ppt");
        QTest::addColumn<double>("x");
        QTest::addColumn<qint64>("tick");
        // axis: first tick -2, left 100
        QTest::newRow("on a tick") << 20.0 << 140.0 << qint64(0);
        QTest::newRow("just below half") << 20.0 << 149.0 << qint64(0);
        QTest::newRow("just above half") << 20.0 << 151.0 << qint64(1);
        QTest::newRow("left of zero clamps") << 20.0 << 100.0 << qint64(0);
        QTest::newRow("far left clamps") << 20.0 << -500.0 << qint64(0);
        QTest::newRow("coarse zoom") << 0.5 << 301.0 << qint64(400);
        QTest::newRow("fine zoom") << 400.0 << 1050.0 << qint64(0); // tick 0.375
        QTest::newRow("fine zoom, next") << 400.0 << 1100.0 << qint64(1); // tick 0.5 rounds up
    }
    void snapTick()
    {
        QFETCH(double, ppt);
        QFETCH(double, x);
        QFETCH(qint64, tick);
        const TimeAxis a{-2, ppt, 100};
        QCOMPARE(a.snapTick(x), tick);
    }

    void rulerStep_data()
    {
        QTest::addColumn<double>("ppt");
        QTest::addColumn<double>("minSpacing");
        QTest::addColumn<qint64>("step");
        QTest::newRow("very close") << 400.0 << 40.0 << qint64(1);
        QTest::newRow("20 px, 40 px apart") << 20.0 << 40.0 << qint64(2);
        QTest::newRow("20 px, 50 px apart") << 20.0 << 50.0 << qint64(5);
        QTest::newRow("5 px") << 5.0 << 40.0 << qint64(10);
        QTest::newRow("1 px") << 1.0 << 60.0 << qint64(100);
        QTest::newRow("0.03 px") << 0.03 << 60.0 << qint64(2000);
        QTest::newRow("million ticks on 1500 px") << 0.0015 << 60.0 << qint64(50000);
        QTest::newRow("zero zoom") << 0.0 << 60.0 << qint64(1);
    }
    void rulerStep()
    {
        QFETCH(double, ppt);
        QFETCH(double, minSpacing);
        QFETCH(qint64, step);
        const qint64 got = TimeCoordinates::rulerStep(ppt, minSpacing);
        QCOMPARE(got, step);
        // the step is "nice" (1, 2 or 5 x 10^k) and labels do not collide
        qint64 m = got;
        while (m % 10 == 0)
            m /= 10;
        QVERIFY(m == 1 || m == 2 || m == 5);
        if (ppt > 0)
            QVERIFY(double(got) * ppt >= minSpacing || got == 1);
    }

    void zoomedAround_data()
    {
        QTest::addColumn<double>("ppt");
        QTest::addColumn<double>("anchorX");
        QTest::addColumn<double>("factor");
        QTest::newRow("in at left") << 20.0 << 140.0 << 2.0;
        QTest::newRow("in at middle") << 20.0 << 700.0 << 1.25;
        QTest::newRow("out") << 20.0 << 900.0 << 0.5;
        QTest::newRow("far out") << 0.01 << 500.0 << 0.1;
        QTest::newRow("clamped at max") << 300.0 << 500.0 << 10.0;
    }
    void zoomedAround()
    {
        QFETCH(double, ppt);
        QFETCH(double, anchorX);
        QFETCH(double, factor);
        const TimeAxis a{-2, ppt, 132};
        const TimeAxis z = TimeCoordinates::zoomedAround(a, anchorX, factor, 1e-6, 400);
        QCOMPARE(z.left, a.left);
        QCOMPARE(z.pixelsPerTick, qBound(1e-6, ppt * factor, 400.0));
        // the tick under the anchor stays under it
        QVERIFY(qAbs(z.xToTick(anchorX) - a.xToTick(anchorX)) < 1e-9 * std::max(1.0, qAbs(a.xToTick(anchorX))));
    }

    void fitted_data()
    {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<double>("width");
        QTest::newRow("default scenario") << 0.0 << 40.0 << 1000.0;
        QTest::newRow("one tick") << 5.0 << 5.0 << 800.0;
        QTest::newRow("million") << 0.0 << 1e6 << 1500.0;
    }
    void fitted()
    {
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(double, width);
        const TimeAxis a = TimeCoordinates::fitted(from, to, 132, width);
        QCOMPARE(a.tickToX(from), 132.0);
        const double span = std::max(1.0, to - from);
        QVERIFY(qAbs(a.tickToX(from + span) - (132 + width)) < 1e-6);
        QVERIFY(qAbs(a.lastTickAt(width) - (from + span)) < 1e-6 * span);
    }
};

QTEST_GUILESS_MAIN(TestTimeCoordinates)
#include "tst_timecoordinates.moc"
