// The token chart: its series hold the default scenario's grant tokens, max_token steps and
// outcomes, and its time axis follows ViewState (shared with the timeline).

#include "document/document.h"
#include "document/editcommands.h"
#include "views/tokenchart.h"
#include "viewstate.h"

#include "explain.h"
#include "presetfile.h"
#include "scenariofile.h"
#include "tokentext.h"

#include <QDir>
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
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Accepted)->points(),
                 (QList<QPointF>{{13, 2}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Rejected)->points(),
                 (QList<QPointF>{{30, 1}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Corrupted)->count(), 0);
        QVERIFY(chart.tokenAxis()->max() >= 2);

        // fencing off: the line is the stored data's token, stepping down at the corruption
        doc.undoStack()->push(EditCommands::setFencing(&doc, false));
        QCOMPARE(chart.storageSeries(0)->points(),
                 (QList<QPointF>{{0, 0}, {13, 0}, {13, 2}, {30, 2}, {30, 1}, {40, 1}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Corrupted)->points(),
                 (QList<QPointF>{{30, 1}}));
        QCOMPARE(chart.outcomeSeries(Core::WriteResult::Rejected)->count(), 0);
    }

    // A short chart shows fewer token labels, never so many that they run into each other (Qt
    // would draw each as "…"), and never fewer than the lowest and the highest token: at
    // 1229x768 the chart once labelled only "0".
    void tokenLabelsFitTheHeight()
    {
        Document doc;
        ViewState state;
        // tokens 39 and 40, and the untagged... no: a counter from 39, max_token from 0
        Core::Scenario s = doc.scenario();
        s.lock.first = 39;
        doc.reset(s);
        TokenChart chart(&doc, &state);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const double line = QFontMetricsF(chart.tokenAxis()->labelsFont()).height();
        std::size_t fewest = 100, most = 0;
        for (int height : {120, 160, 260, 420}) {
            chart.resize(600, height);
            QTest::qWait(10);
            const std::vector<TokenChart::TokenLabel> labels = chart.tokenLabels();
            QVERIFY2(labels.size() >= 2, qPrintable(QString::number(height)));
            // the max_token line starts at 0 and 39 against 40 is small beside 40: the axis
            // runs from 39, so the two tokens are far apart, and 0 is below it
            QVERIFY(!chart.tokenAxisFromZero());
            QCOMPARE(labels.front().text, QStringLiteral("39"));
            QCOMPARE(labels.back().text, QStringLiteral("40"));
            for (std::size_t i = 1; i < labels.size(); ++i)
                QVERIFY(labels[i - 1].y - labels[i].y >= line);
            const QRectF plot = chart.chart()->plotArea();
            QVERIFY2(labels.front().y - labels.back().y >= 0.3 * plot.height(),
                     qPrintable(QStringLiteral("39 at %1, 40 at %2 on %3 px")
                                    .arg(labels.front().y)
                                    .arg(labels.back().y)
                                    .arg(plot.height())));
            fewest = std::min(fewest, labels.size());
            most = std::max(most, labels.size());
        }
        QCOMPARE(fewest, std::size_t(2)); // both tokens, whatever the height
        QCOMPARE(most, std::size_t(2));   // (and nothing between two neighbouring tokens)

        // tokens 1 to 9: from 0, with more labels when taller
        s.lock.first = 1;
        s.clients[0].actions.push_back(Core::Action::acquire(32, 5)); // A again: token 3
        doc.reset(s);
        fewest = 100;
        most = 0;
        for (int height : {120, 160, 260, 420}) {
            chart.resize(600, height);
            QTest::qWait(10);
            const std::vector<TokenChart::TokenLabel> labels = chart.tokenLabels();
            QVERIFY(chart.tokenAxisFromZero());
            QCOMPARE(labels.front().text, QStringLiteral("0"));
            QCOMPARE(labels.back().text, QStringLiteral("3"));
            for (std::size_t i = 1; i < labels.size(); ++i)
                QVERIFY(labels[i - 1].y - labels[i].y >= line);
            fewest = std::min(fewest, labels.size());
            most = std::max(most, labels.size());
        }
        QVERIFY(most > fewest);         // a taller chart does get more labels
        QCOMPARE(most, std::size_t(4)); // 0, 1, 2, 3: each token plotted
    }

    // Kleppmann's 33 against 34 and 992 against 1000 look different: the axis does not start
    // at 0 when that would squeeze them into one line.
    void closeTokensAreApart_data()
    {
        QTest::addColumn<quint64>("first");
        QTest::addColumn<quint64>("bump"); // B's token is first + 1 + bump
        QTest::newRow("33 and 34") << quint64(33) << quint64(0);
        QTest::newRow("992 and 1000") << quint64(992) << quint64(7);
    }
    void closeTokensAreApart()
    {
        QFETCH(quint64, first);
        QFETCH(quint64, bump);
        Document doc;
        ViewState state;
        Core::Scenario s = TestSupport::preset("kleppmann-gc-pause");
        s.lock.first = first;
        if (bump > 0) {
            // a restore between A's and B's grants, from before any grant, with a bump: the
            // counter goes on at first + bump + 1 (docs/SCENARIO.md section 10)
            s.lock.restores.push_back({11, 0, bump});
        }
        doc.reset(s);
        TokenChart chart(&doc, &state);
        chart.resize(800, 160);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QList<QPointF> grants = chart.grantSeries()->points();
        QCOMPARE(grants.size(), 2);
        QCOMPARE(grants[0].y(), double(first));
        QCOMPARE(grants[1].y(), double(first + 1 + bump));
        QVERIFY(!chart.tokenAxisFromZero());
        const QRectF plot = chart.chart()->plotArea();
        const double y0 = chart.chart()->mapToPosition(grants[0], chart.grantSeries()).y();
        const double y1 = chart.chart()->mapToPosition(grants[1], chart.grantSeries()).y();
        QVERIFY2(y0 - y1 >= 0.5 * plot.height(),
                 qPrintable(QStringLiteral("%1 px apart on %2").arg(y0 - y1).arg(plot.height())));
        const std::vector<TokenChart::TokenLabel> labels = chart.tokenLabels();
        QCOMPARE(labels.front().text, QString::number(first));
        QCOMPARE(labels.back().text, QString::number(first + 1 + bump));
        if (!qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOT_DIR"))
            chart.grab().save(qEnvironmentVariable("FENCESCOPE_SCREENSHOT_DIR") +
                              QStringLiteral("/chart-%1.png").arg(first));
    }

    // Every marker of every preset is drawn whole inside the plot, at any height: the largest
    // tokens (zxids, Kleppmann's 34) are not cut at the top edge, untagged writes not at the
    // bottom. The token axis names the lowest and the highest token in the source's own form.
    void everyPresetsMarkersAreWhole()
    {
        const QStringList names =
            QDir(QStringLiteral(":/scenarios")).entryList({QStringLiteral("*.json")});
        QVERIFY(names.size() >= 27);
        for (const QString &file : names) {
            Document doc;
            ViewState state;
            const Core::LoadResult r =
                Core::ScenarioFile::load(QStringLiteral(":/scenarios/") + file);
            QVERIFY(r.ok());
            doc.reset(*r.scenario);
            TokenChart chart(&doc, &state);
            chart.show();
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            for (int h : {120, 180, 300}) {
                chart.resize(900, h);
                QTest::qWait(5);
                const QRectF plot = chart.chart()->plotArea();
                double lowest = 1e300, highest = -1e300;
                std::vector<QScatterSeries *> all{chart.grantSeries()};
                for (int k = 0; k < 4; ++k)
                    all.push_back(chart.outcomeSeries(Core::WriteResult(k)));
                for (QScatterSeries *series : all) {
                    const double half = series->markerSize() / 2;
                    for (const QPointF &p : series->points()) {
                        lowest = std::min(lowest, p.y());
                        highest = std::max(highest, p.y());
                        const double y = chart.chart()->mapToPosition(p, series).y();
                        QVERIFY2(
                            y - half >= plot.top() - 0.5 && y + half <= plot.bottom() + 0.5,
                            qPrintable(QStringLiteral("%1 at %2 px: token %3 at y %4, plot %5..%6")
                                           .arg(file)
                                           .arg(h)
                                           .arg(p.y())
                                           .arg(y)
                                           .arg(plot.top())
                                           .arg(plot.bottom())));
                    }
                }
                const std::vector<TokenChart::TokenLabel> labels = chart.tokenLabels();
                QVERIFY2(labels.size() >= (highest > 0 ? 2 : 1), qPrintable(file));
                if (highest >= 0) {
                    QCOMPARE(labels.back().value, highest);
                    QCOMPARE(labels.back().text,
                             Render::tokenShort(doc.scenario(), Core::Token(highest)));
                    QVERIFY(labels.front().value <= lowest);
                }
            }
        }
    }

    // After a volatile restart the chart's max_token drops to 0, as the timeline's storage row
    // does (core's StorageLevel): JournalNode, A: token 1 at 0, writes A1 at 1; B: token 2 at 6,
    // writes B1 at 7; jn restarts at 12 and forgets 2; A's stale A2 (held by its pause until
    // 16) passes with token 1, B2 at 18 raises it to 2 again. The run ends with B's lease at
    // 26, so the line runs to 27 (the horizon is 22).
    void restartDropsTheLineAndItRunsToTheEnd()
    {
        Document doc;
        doc.reset(TestSupport::preset("journalnode-volatile-max-token"));
        ViewState state;
        TokenChart chart(&doc, &state);
        QCOMPARE(chart.storageSeries(0)->points(), (QList<QPointF>{{0, 0},
                                                                   {1, 0},
                                                                   {1, 1},
                                                                   {7, 1},
                                                                   {7, 2},
                                                                   {12, 2},
                                                                   {12, 0},
                                                                   {16, 0},
                                                                   {16, 1},
                                                                   {18, 1},
                                                                   {18, 2},
                                                                   {27, 2}}));
        // Kafka: B's epoch 1 at 5 (ttl 30) ends at 35, past the horizon 20: the line runs to 36
        doc.reset(TestSupport::preset("kafka-zombie-producer"));
        QCOMPARE(chart.storageSeries(0)->points().back().x(), 36.0);
    }

    // A compare-and-set storage compares versions, not tokens: no flat max_token line for it,
    // and the legend says why.
    void versionStorageHasNoMaxTokenLine()
    {
        Document doc;
        doc.reset(TestSupport::preset("compare-and-set-version"));
        ViewState state;
        TokenChart chart(&doc, &state);
        QLineSeries *line = chart.storageSeries(0);
        QVERIFY(line);
        QCOMPARE(line->count(), 0);
        QVERIFY2(line->name().contains(QStringLiteral("compares versions: no max_token")),
                 qPrintable(line->name()));
    }

    // A storage line that had points and has none after the next scenario (a compare-and-set
    // storage) is painted again without a crash. QtCharts hides a series' item when the series
    // is removed from the chart and deletes it later, but a change of the series' pen or points
    // shows that item again, and its paint asks the chart it no longer has: the monkey's F11
    // after a preset switch (seed 32) crashed there, before the item was deleted.
    void lineLeftWithoutPointsPaintsAgain()
    {
        Document doc; // the default scenario: storage 0 has a max_token line
        ViewState state;
        TokenChart chart(&doc, &state);
        chart.resize(600, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QLineSeries *line = chart.storageSeries(0);
        QVERIFY(line->count() > 0);
        QVERIFY(chart.chart()->series().contains(line));

        doc.reset(TestSupport::preset("compare-and-set-version"));
        QCOMPARE(chart.storageSeries(0), line);
        QCOMPARE(line->count(), 0);
        chart.setTheme(Theme::highContrast()); // thicker lines: the line gets a new pen
        // no event loop between: the items QtCharts deletes later are still there
        QVERIFY(!chart.grab().isNull());
        QCOMPARE(line->count(), 0);
    }

    void compareOverlaysTheUnfencedRun()
    {
        Document doc;
        ViewState state;
        TokenChart chart(&doc, &state);
        QVERIFY(!chart.storageSeries(0, true));
        state.setCompare(true);
        QVERIFY(chart.storageSeries(0, true));
        QCOMPARE(chart.storageSeries(0)->points().back(), QPointF(40, 2));       // fenced max
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
