// The token chart: its series hold the default scenario's grant tokens, max_token steps and
// outcomes, and its time axis follows ViewState (shared with the timeline).

#include "document.h"
#include "editcommands.h"
#include "tokenchart.h"
#include "viewstate.h"

#include "explain.h"

#include <QFontMetricsF>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTest>
#include <QUndoStack>
#include <QValueAxis>

class TestTokenChart : public QObject
{
    Q_OBJECT

private slots:
    void seriesOfTheDefaultScenario()
    {
        Document doc;
        ViewState state;
        TokenChart chart(&doc, &state);
        // grants: A token 1 at t=0, B token 2 at t=12
        QCOMPARE(chart.grantSeries()->points(), (QList<QPointF>{{0, 1}, {12, 2}}));
        // db max_token: 0 until B's write at t=13 raises it to 2, then 2 to the horizon
        QCOMPARE(chart.storageSeries(0)->points(),
                 (QList<QPointF>{{0, 0}, {13, 0}, {13, 2}, {40, 2}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Accepted)->points(), (QList<QPointF>{{13, 2}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Rejected)->points(), (QList<QPointF>{{30, 1}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Corrupted)->count(), 0);
        QVERIFY(chart.tokenAxis()->max() >= 2);

        // fencing off: the line is the stored data's token, stepping down at the corruption
        doc.undoStack()->push(EditCommands::setFencing(&doc, false));
        QCOMPARE(chart.storageSeries(0)->points(),
                 (QList<QPointF>{{0, 0}, {13, 0}, {13, 2}, {30, 2}, {30, 1}, {40, 1}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Corrupted)->points(), (QList<QPointF>{{30, 1}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Rejected)->count(), 0);
    }

    // A short chart shows fewer token labels, never so many that they run into each other (Qt
    // would draw each as "…"): at every height the labels are at least a line apart.
    void tokenLabelsFitTheHeight()
    {
        Document doc;
        ViewState state;
        // tokens up to 40: a counter from 39
        Core::Scenario s = doc.scenario();
        s.lock.first = 39;
        doc.reset(s);
        TokenChart chart(&doc, &state);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const double line = QFontMetricsF(chart.tokenAxis()->labelsFont()).height();
        int fewest = 100, most = 0;
        for (int height : {90, 120, 160, 260, 420}) {
            chart.resize(600, height);
            QTest::qWait(10);
            const double plot = chart.chart()->plotArea().height();
            const double span = chart.tokenAxis()->max() - chart.tokenAxis()->min();
            const int labels = int(span / chart.tokenAxis()->tickInterval()) + 1;
            QVERIFY2(plot / (labels - 1) >= line,
                     qPrintable(QStringLiteral("%1 labels on %2 px").arg(labels).arg(plot)));
            QVERIFY(chart.tokenAxis()->max() >= 40);
            fewest = std::min(fewest, labels);
            most = std::max(most, labels);
        }
        QVERIFY(most > fewest); // a taller chart does get more labels
    }

    // An untagged write (a client never granted, or a `none` source) has token 0: its marker is
    // drawn whole above the time axis at every height, not half under it, and no label below
    // 0 appears.
    void untaggedWriteSitsAboveTheAxis()
    {
        Document doc;
        ViewState state;
        Core::Scenario s = doc.scenario();
        s.tokens = Core::TokenSource::None; // every write untagged; fencing on rejects both
        doc.reset(s);
        TokenChart chart(&doc, &state);
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Rejected)->points(),
                 (QList<QPointF>{{30, 0}}));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        for (int h : {90, 140, 220, 400}) {
            chart.resize(700, h);
            QTest::qWait(10);
            const QRectF plot = chart.chart()->plotArea();
            const QPointF at = chart.chart()->mapToPosition(QPointF(30, 0),
                                                            chart.outcomeSeries(Core::WriteResult::Rejected));
            const double half = chart.outcomeSeries(Core::WriteResult::Rejected)->markerSize() / 2;
            QVERIFY2(at.y() + half <= plot.bottom() + 0.5,
                     qPrintable(QStringLiteral("h %1: marker bottom %2 below the axis at %3")
                                    .arg(h).arg(at.y() + half).arg(plot.bottom())));
            QVERIFY(chart.tokenAxis()->min() < 0);
            QVERIFY(chart.tokenAxis()->min() > -chart.tokenAxis()->tickInterval());
        }
    }

    void compareOverlaysTheUnfencedRun()
    {
        Document doc;
        ViewState state;
        TokenChart chart(&doc, &state);
        QVERIFY(!chart.storageSeries(0, true));
        state.setCompare(true);
        QVERIFY(chart.storageSeries(0, true));
        QCOMPARE(chart.storageSeries(0)->points().back(), QPointF(40, 2));      // fenced max
        QCOMPARE(chart.storageSeries(0, true)->points().back(), QPointF(40, 1)); // unfenced data
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Corrupted)->count(), 1);
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Rejected)->count(), 1);
    }

    void hoverNamesAndClickSelects()
    {
        Document doc;
        ViewState state;
        TokenChart chart(&doc, &state);
        QScatterSeries *rejected = chart.outcomeSeries(Core::WriteResult::Rejected);
        QVERIFY(chart.describePoint(rejected, 0).contains(QStringLiteral("t=30 A")));
        QVERIFY(chart.describePoint(rejected, 0).contains(QStringLiteral("token 1 < max 2")));
        chart.activatePoint(rejected, 0);
        QCOMPARE(state.selection(), (Selection{0, 2})); // A's write
        chart.activatePoint(chart.grantSeries(), 1);
        QCOMPARE(state.selection(), (Selection{1, 1})); // B's second acquire
    }

    void followsTheViewStateAxis()
    {
        Document doc;
        ViewState state;
        TokenChart chart(&doc, &state);
        chart.setHeaderWidth(120);
        chart.resize(920, 240);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        state.setAxis(5, 20);
        const double plotWidth = chart.chart()->plotArea().width();
        QCOMPARE(chart.chart()->plotArea().left(), 120.0);
        QCOMPARE(chart.timeAxis()->min(), 5.0);
        QCOMPARE(chart.timeAxis()->max(), 5.0 + plotWidth / 20);
        // a tick maps to the same x as on the timeline: left + (tick - first) * ppt
        const QPointF x13 = chart.chart()->mapToPosition(QPointF(13, 0), chart.grantSeries());
        QVERIFY(qAbs(x13.x() - (120 + (13 - 5) * 20)) < 1.0);
        state.zoomAround(13, 2);
        QCOMPARE(chart.timeAxis()->min(), state.firstTick());
        QVERIFY(qAbs(chart.timeAxis()->max() - (state.firstTick() + plotWidth / 40)) < 1e-9);
    }
};

QTEST_MAIN(TestTokenChart)
#include "tst_tokenchart.moc"
