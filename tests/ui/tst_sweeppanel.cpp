// The sweep panel, driven offscreen through its window: it opens on the scenario itself, with
// no band for one run a point; the chart's lines and bands hold the sweep's numbers (checked
// against the engine and, for the seed's scenario itself and near it, against the curves
// worked out by hand in tst_sweep); the sentence under the choices says what a point's
// schedules are; cancel and resume end with the numbers of one uninterrupted run, a click on a
// point opens its schedule, and the exports hold the chart and the numbers. The find-and-shrink
// panel is tst_shrinkpanel's.

#include "panelclicks.h"
#include "scenariofile.h"
#include "sweep.h"
#include "sweepreport.h"
#include "theme.h"
#include "views/sweeppanel.h"
#include "windowparts.h"

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

Q_DECLARE_METATYPE(Core::Scenario)

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

struct Fixture
{
    SweepPanel panel;
    Fixture()
    {
        panel.setScenario(Core::ScenarioFile::defaultScenario());
        panel.resize(900, 800);
        panel.show();
        if (!QTest::qWaitForWindowExposed(&panel))
            qFatal("panel not exposed");
    }
    bool runToTheEnd(const char *button = "run")
    {
        QSignalSpy done(&panel, &SweepPanel::sweepFinished);
        click(&panel, button);
        return arrived(done, 180000) && done.first().first().toBool();
    }
};

// Pixels of exactly this colour (the centre of a line drawn in it).
int countPixels(const QImage &image, const QColor &colour)
{
    const QImage argb = image.convertToFormat(QImage::Format_ARGB32);
    const QRgb want = colour.rgba();
    int n = 0;
    for (int y = 0; y < argb.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(argb.constScanLine(y));
        for (int x = 0; x < argb.width(); ++x)
            n += line[x] == want;
    }
    return n;
}

// Chooses the schedules by keyboard, as a person would: Alt+D to the combo box, then Home and
// Down to the entry.
void chooseSchedules(QWidget *panel, Core::SweepSchedules schedules)
{
    auto *box = part<QComboBox>(*panel, "schedules");
    QTest::keyClick(panel->windowHandle(), Qt::Key_D, Qt::AltModifier);
    if (QApplication::focusWidget() != box)
        qFatal("Alt+D did not reach the schedules");
    QTest::keyClick(panel->windowHandle(), Qt::Key_Home);
    const int index = box->findData(Core::toString(schedules));
    for (int i = 0; i < index; ++i)
        QTest::keyClick(panel->windowHandle(), Qt::Key_Down);
    if (box->currentIndex() != index)
        qFatal("the schedules were not chosen");
}

int areaSeries(QChart *chart)
{
    int n = 0;
    for (QAbstractSeries *s : chart->series())
        n += qobject_cast<QAreaSeries *>(s) != nullptr;
    return n;
}

QList<QPointF> bandOf(QChart *chart, const QString &name, bool upper)
{
    for (QAbstractSeries *s : chart->series()) {
        if (auto *area = qobject_cast<QAreaSeries *>(s); area && area->name() == name)
            return (upper ? area->upperSeries() : area->lowerSeries())->points();
    }
    return {};
}

} // namespace

class TestSweepPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<Core::Scenario>(); }

    // The seed's scenario itself, the panel's default: pause 10..16: A's stale write corrupts
    // from pause 13 on unfenced; fenced it never does (tst_sweep works the threshold out). One
    // run a point has no band (0 of 1 would draw one from 0 to 0.79).
    void fixedSweepOfTheSeedScenario()
    {
        Fixture f;
        part<QSpinBox>(f.panel, "from")->setValue(10);
        part<QSpinBox>(f.panel, "to")->setValue(16);
        QCOMPARE(part<QComboBox>(f.panel, "schedules")->currentData().toString(),
                 QStringLiteral("fixed"));
        QVERIFY(!part<QSpinBox>(f.panel, "runs")->isEnabled());
        QVERIFY(!part<QSpinBox>(f.panel, "jitter")->isEnabled());
        QCOMPARE(part<QLabel>(f.panel, "about")->text(),
                 QStringLiteral("Each point runs the scenario itself once, with pause set to the "
                                "point's value."));
        QVERIFY(f.runToTheEnd());
        QVERIFY(f.panel.spec().schedules == Core::SweepSchedules::Fixed);
        QCOMPARE(f.panel.shareSeries(0, false)->points(),
                 (QList<QPointF>{{10, 0}, {11, 0}, {12, 0}, {13, 1}, {14, 1}, {15, 1}, {16, 1}}));
        QCOMPARE(f.panel.shareSeries(0, true)->points(),
                 (QList<QPointF>{{10, 0}, {11, 0}, {12, 0}, {13, 0}, {14, 0}, {15, 0}, {16, 0}}));
        QCOMPARE(f.panel.chart()->series().size(), 2); // a line per side, no band
        QCOMPARE(areaSeries(f.panel.chart()), 0);
        QCOMPARE(part<QProgressBar>(f.panel, "progress")->value(), 1000);
        // beside Run, what the chart shows
        QCOMPARE(part<QLabel>(f.panel, "status")->text(), part<QLabel>(f.panel, "about")->text());
        QVERIFY(part<QPushButton>(f.panel, "run")->isEnabled());
        QVERIFY(!part<QPushButton>(f.panel, "resume")->isEnabled());
    }

    // Near the scenario and shaped like it, two curves: every line and band is the engine's
    // numbers.
    void seriesMatchTheEngine_data()
    {
        QTest::addColumn<int>("schedules");
        QTest::newRow("near") << int(Core::SweepSchedules::Near);
        QTest::newRow("shaped") << int(Core::SweepSchedules::Shaped);
    }
    void seriesMatchTheEngine()
    {
        QFETCH(int, schedules);
        Fixture f;
        chooseSchedules(&f.panel, Core::SweepSchedules(schedules));
        QVERIFY(part<QSpinBox>(f.panel, "runs")->isEnabled());
        QCOMPARE(part<QSpinBox>(f.panel, "jitter")->isEnabled(),
                 schedules == int(Core::SweepSchedules::Near));
        part<QSpinBox>(f.panel, "from")->setValue(2);
        part<QSpinBox>(f.panel, "to")->setValue(30);
        part<QSpinBox>(f.panel, "step")->setValue(7);
        part<QSpinBox>(f.panel, "runs")->setValue(400);
        part<QSpinBox>(f.panel, "seed")->setValue(11);
        part<QComboBox>(f.panel, "quantity2")->setCurrentIndex(2); // ttl
        part<QLineEdit>(f.panel, "values2")->setText(QStringLiteral("5,20"));
        QVERIFY(f.runToTheEnd());

        Core::SweepSpec spec;
        spec.scenario = Core::ScenarioFile::defaultScenario();
        spec.vary = {Core::findQuantity(QStringLiteral("pause")), {2, 9, 16, 23, 30}};
        spec.vary2 = {Core::findQuantity(QStringLiteral("ttl")), {5, 20}};
        spec.schedules = Core::SweepSchedules(schedules);
        spec.runs = 400;
        spec.seed = 11;
        QCOMPARE(part<QLabel>(f.panel, "about")->text(), Core::schedulesSentence(spec));
        Core::SweepResult expected;
        QVERIFY(Core::runSweep(spec, &expected, 1));
        QVERIFY(f.panel.result() == expected);
        for (std::size_t curve = 0; curve < 2; ++curve) {
            for (bool fencing : {false, true}) {
                const QList<QPointF> line = f.panel.shareSeries(curve, fencing)->points();
                const QString name =
                    QStringLiteral("%1, ttl = %2")
                        .arg(fencing ? QStringLiteral("fenced") : QStringLiteral("unfenced"))
                        .arg(spec.vary2.values[curve]);
                QCOMPARE(f.panel.shareSeries(curve, fencing)->name(), name);
                const QList<QPointF> high =
                    bandOf(f.panel.chart(), name + QStringLiteral(" (95%)"), true);
                QCOMPARE(line.size(), 5);
                QCOMPARE(high.size(), 5);
                for (int i = 0; i < 5; ++i) {
                    const Core::PointResult &p = expected.points[curve * 5 + std::size_t(i)];
                    const auto k = p.side(fencing)[0].schedules;
                    QCOMPARE(line[i], QPointF(double(spec.vary.values[std::size_t(i)]), k / 400.0));
                    QCOMPARE(high[i].y(), Core::wilsonInterval(k, 400).high);
                    if (fencing)
                        QCOMPARE(k, 0u);
                }
            }
        }
        // another outcome replots the same sweep
        part<QComboBox>(f.panel, "outcome")->setCurrentIndex(2); // rejected
        QCOMPARE(f.panel.shareSeries(0, true)->points()[0].y(),
                 expected.points[0].fenced[2].schedules / 400.0);
        QVERIFY(f.panel.chart()->title().contains(QLatin1String("rejected")));
    }

    void cancelAndResume()
    {
        Fixture f;
        chooseSchedules(&f.panel, Core::SweepSchedules::Shaped); // long enough to cancel
        part<QSpinBox>(f.panel, "from")->setValue(1);
        part<QSpinBox>(f.panel, "to")->setValue(20);
        // a sweep of seconds, so the cancel lands in its middle; a fifth of it under ASan
        part<QSpinBox>(f.panel, "runs")
            ->setValue(qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 4000 : 20000);
        QSignalSpy done(&f.panel, &SweepPanel::sweepFinished);
        click(&f.panel, "run");
        QVERIFY(f.panel.running());
        QVERIFY(!part<QPushButton>(f.panel, "run")->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(part<QProgressBar>(f.panel, "progress")->value() > 0, 60000);
        click(&f.panel, "cancel");
        QVERIFY(arrived(done, 120000));
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY(!f.panel.result().complete());
        QVERIFY(part<QPushButton>(f.panel, "resume")->isEnabled());
        QVERIFY(part<QLabel>(f.panel, "status")->text().startsWith(QLatin1String("Cancelled")));
        const std::size_t kept = f.panel.result().donePoints();
        QCOMPARE(f.panel.shareSeries(0, false)->count(), int(kept));

        QVERIFY(f.runToTheEnd("resume"));
        Core::SweepResult whole;
        QVERIFY(Core::runSweep(f.panel.spec(), &whole, 2));
        QVERIFY(f.panel.result() == whole);
        QCOMPARE(f.panel.shareSeries(0, false)->count(), 20);
    }

    void keyboardRunsTheSweep()
    {
        Fixture f;
        QSignalSpy done(&f.panel, &SweepPanel::sweepFinished);
        QTest::keyClick(f.panel.windowHandle(), Qt::Key_R, Qt::AltModifier);
        QVERIFY(arrived(done, 120000));
        QCOMPARE(f.panel.shareSeries(0, false)->count(), 40);
    }

    void invalidValuesAreNamed()
    {
        Fixture f;
        part<QSpinBox>(f.panel, "from")->setValue(9);
        part<QSpinBox>(f.panel, "to")->setValue(3);
        click(&f.panel, "run");
        QVERIFY(!f.panel.running());
        QCOMPARE(part<QLabel>(f.panel, "status")->text(),
                 QStringLiteral("\"9..3:1\": the range is empty"));
        part<QSpinBox>(f.panel, "from")->setValue(0);
        part<QSpinBox>(f.panel, "to")->setValue(3);
        click(&f.panel, "run");
        QCOMPARE(part<QLabel>(f.panel, "status")->text(),
                 QStringLiteral("pause takes 1..1000000, not 0"));
    }

    // A click on the unfenced line at pause 13 opens that point's failing schedule.
    void clickOpensThePointsSchedule()
    {
        Fixture f;
        part<QSpinBox>(f.panel, "from")->setValue(10);
        part<QSpinBox>(f.panel, "to")->setValue(16);
        QVERIFY(f.runToTheEnd());
        QSignalSpy open(&f.panel, &SweepPanel::openScenario);
        auto *view = part<QChartView>(f.panel, "chart");
        QLineSeries *line = f.panel.shareSeries(0, false);
        const QPointF scene = f.panel.chart()->mapToPosition(QPointF(13, 1), line);
        const QPoint at = view->viewport()->mapTo(&f.panel, view->mapFromScene(scene));
        QTest::mouseClick(f.panel.windowHandle(), Qt::LeftButton, {}, at);
        QCOMPARE(open.size(), 1);
        const auto s = open.first().first().value<Core::Scenario>();
        QCOMPARE(s.clients[0].actions[1].length(), Core::Tick(13));
        QVERIFY(!s.fencing);
        // the scenario itself, pause 13: A thaws at 14 with token 1, after B's write at 13
        // (token 2): one schedule at the point, one corrupted write in it
        QCOMPARE(open.first().at(1).toString(),
                 QStringLiteral("The only schedule at pause = 13 with a corrupted write "
                                "unfenced: 1 such write."));
        auto *opens = part<QComboBox>(f.panel, "opens");
        opens->setCurrentIndex(opens->findData(QStringLiteral("first")));
        f.panel.openPoint(3, false);
        QCOMPARE(open.last().at(1).toString(),
                 QStringLiteral("The only schedule at pause = 13 with a corrupted write "
                                "unfenced: schedule 0."));
        opens->setCurrentIndex(opens->findData(QStringLiteral("worst")));

        // the same through the API, for a point where nothing failed
        f.panel.openPoint(0, false);
        QCOMPARE(open.size(), 3);
        QCOMPARE(open.last().first().value<Core::Scenario>().clients[0].actions[1].length(),
                 Core::Tick(10));
        QVERIFY(
            open.last().at(1).toString().startsWith(QLatin1String("No schedule at pause = 10")));
    }

    // "A click opens": the worst failing schedule (the one with the most such writes) or the
    // first one; both are the runs the engine counted.
    void clickOpensWorstOrFirst()
    {
        Fixture f;
        // shaped like the scenario: schedules differ in how many writes corrupt
        chooseSchedules(&f.panel, Core::SweepSchedules::Shaped);
        part<QSpinBox>(f.panel, "from")->setValue(30);
        part<QSpinBox>(f.panel, "to")->setValue(30);
        part<QSpinBox>(f.panel, "runs")->setValue(300);
        QVERIFY(f.runToTheEnd());
        const Core::OutcomeStat &stat = f.panel.result().points[0].unfenced[0];
        QVERIFY(stat.schedules > 1);
        QVERIFY(stat.firstRun != stat.worstRun); // else the test could not tell them apart
        QSignalSpy open(&f.panel, &SweepPanel::openScenario);
        auto *opens = part<QComboBox>(f.panel, "opens");
        QCOMPARE(opens->currentData().toString(), QStringLiteral("worst"));
        f.panel.openPoint(0, false);
        QCOMPARE(open.last().first().value<Core::Scenario>().clients,
                 Core::sweepSchedule(f.panel.spec(), 0, stat.worstRun).clients);
        QVERIFY(stat.worstWrites > 1); // else the plural would not be seen
        QCOMPARE(open.last().at(1).toString(),
                 QStringLiteral("The worst of %1 schedules at pause = 30 with a corrupted write "
                                "unfenced: %2 such writes.")
                     .arg(stat.schedules)
                     .arg(stat.worstWrites));
        // chosen through the window, by keyboard: Alt+O to its label's buddy, then End
        QTest::keyClick(f.panel.windowHandle(), Qt::Key_O, Qt::AltModifier);
        QCOMPARE(QApplication::focusWidget(), opens);
        QTest::keyClick(f.panel.windowHandle(), Qt::Key_End);
        QCOMPARE(opens->currentData().toString(), QStringLiteral("first"));
        f.panel.openPoint(0, false);
        QCOMPARE(open.last().first().value<Core::Scenario>().clients,
                 Core::sweepSchedule(f.panel.spec(), 0, stat.firstRun).clients);
        QCOMPARE(open.last().at(1).toString(),
                 QStringLiteral("The first of %1 schedules at pause = 30 with a corrupted write "
                                "unfenced: schedule %2.")
                     .arg(stat.schedules)
                     .arg(stat.firstRun));
    }

    // The outcomes of sections 11-12 are plot choices; a point's half-applied updates of
    // two-resources-partial show on the fenced line.
    void partialIsAPlotChoice()
    {
        Fixture f;
        f.panel.setScenario(
            Core::ScenarioFile::load(QStringLiteral(":/scenarios/two-resources-partial.json"))
                .scenario.value());
        auto *outcome = part<QComboBox>(f.panel, "outcome");
        QCOMPARE(outcome->count(), 5);
        outcome->setCurrentIndex(outcome->findData(QStringLiteral("partial")));
        QCOMPARE(outcome->currentText(), QStringLiteral("half-applied update"));
        QCOMPARE(part<QComboBox>(f.panel, "quantity")->findData(QStringLiteral("gap")) >= 0, true);
        part<QSpinBox>(f.panel, "from")->setValue(1);
        part<QSpinBox>(f.panel, "to")->setValue(6);
        QVERIFY(f.runToTheEnd());
        // tst_sweep: fenced, A's index write lands after B's from a pause of 4 on
        QList<QPointF> expected;
        for (int p = 1; p <= 6; ++p)
            expected << QPointF(p, p >= 4 ? 1 : 0);
        QCOMPARE(f.panel.shareSeries(0, true)->points(), expected);
        QCOMPARE(f.panel.chart()->title(), QStringLiteral("Schedules with a half-applied update"));
    }

    // Choosing the clock rate offers 500..1500 thousandths in steps of 50 (not 1..40, which
    // would all be clocks nearly stopped) and refuses 0. On slow-client-clock A skips its
    // checked write from a rate of 667 on (tst_sweep): the fenced "skipped" line is 0 up to
    // 650 and 1 from 700.
    void clockRangeAndSkipped()
    {
        Fixture f;
        f.panel.setScenario(
            Core::ScenarioFile::load(QStringLiteral(":/scenarios/slow-client-clock.json"))
                .scenario.value());
        auto *quantity = part<QComboBox>(f.panel, "quantity");
        quantity->setCurrentIndex(quantity->findData(QStringLiteral("clock")));
        QCOMPARE(part<QSpinBox>(f.panel, "from")->value(), 500);
        QCOMPARE(part<QSpinBox>(f.panel, "to")->value(), 1500);
        QCOMPARE(part<QSpinBox>(f.panel, "step")->value(), 50);
        QCOMPARE(part<QSpinBox>(f.panel, "from")->minimum(), 1);
        QCOMPARE(part<QSpinBox>(f.panel, "to")->maximum(), 100000);
        auto *outcome = part<QComboBox>(f.panel, "outcome");
        outcome->setCurrentIndex(outcome->findData(QStringLiteral("skipped")));
        QVERIFY(f.runToTheEnd());
        const QList<QPointF> points = f.panel.shareSeries(0, true)->points();
        QCOMPARE(points.size(), 21);
        for (const QPointF &p : points)
            QCOMPARE(p.y(), p.x() >= 667 ? 1.0 : 0.0);
        // and back to a pause, whose range starts at 1 again
        quantity->setCurrentIndex(quantity->findData(QStringLiteral("pause")));
        QCOMPARE(part<QSpinBox>(f.panel, "from")->value(), 1);
        QCOMPARE(part<QSpinBox>(f.panel, "to")->value(), 40);
    }

    void exports()
    {
        Fixture f;
        chooseSchedules(&f.panel, Core::SweepSchedules::Near);
        part<QSpinBox>(f.panel, "to")->setValue(12);
        part<QSpinBox>(f.panel, "runs")->setValue(200);
        QVERIFY(f.runToTheEnd());
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("s.csv"));
        const QString png = dir.filePath(QStringLiteral("s.png"));
        const QString svg = dir.filePath(QStringLiteral("s.svg"));
        QVERIFY(f.panel.exportCsv(csv));
        QCOMPARE(readAll(csv), Core::sweepCsv(f.panel.spec(), f.panel.result()));
        QVERIFY(readAll(csv).startsWith("pause,runs,unfenced_corrupted,"));
        QCOMPARE(readAll(csv).count('\n'), 13);
        QVERIFY(f.panel.exportPng(png));
        if (qEnvironmentVariableIsSet("FENCESCOPE_SWEEP_SCREENSHOT")) { // to look at them
            const QString shot = qEnvironmentVariable("FENCESCOPE_SWEEP_SCREENSHOT");
            QTest::qWait(100);
            f.panel.grab().save(shot);
            QFile::copy(png, shot + QStringLiteral(".export.png"));
        }
        // in the slide look: the size of a slide, the print theme's white, the curves' colours
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), SweepPanel::exportSize());
        QCOMPARE(image.size(), QSize(1920, 1080));
        QCOMPARE(image.pixelColor(2, 2), Theme::print().background);
        QCOMPARE(countPixels(image, SweepPanel::curveColour(0, false)) > 200, true);
        QCOMPARE(countPixels(image, SweepPanel::curveColour(0, true)) > 200, true);
        // (the widget's own chart is drawn in the widget's palette; the export is not)
        QVERIFY(f.panel.exportSvg(svg));
        const QByteArray text = readAll(svg);
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("viewBox=\"0 0 1920 1080\""));
        QVERIFY(text.contains("Schedules with a corrupted write"));
        QVERIFY(
            text.contains(QByteArray("font-family=\"") + Theme::cssFontFamilies().toUtf8() + '"'));
        QVERIFY(!text.contains("font-family=\"Sans Serif\""));
        QVERIFY(text.contains(SweepPanel::curveColour(0, false).name().toUtf8()));
        QVERIFY(text.contains(SweepPanel::curveColour(0, true).name().toUtf8()));
        QString error;
        QVERIFY(!f.panel.exportCsv(QStringLiteral("/nonexistent/s.csv"), &error));
        QVERIFY(error.startsWith(QLatin1String("Cannot write /nonexistent/s.csv")));
    }
    // Near the seed's scenario, pause 9..15, 810 schedules a point: 0 up to 10, 1 from 14, the
    // shares tst_sweep works out by hand between (5/81, 24/81, 61/81); a band where a point has
    // many schedules, the engine's Wilson interval. The sentence follows every choice it names.
    void nearSweepRisesPastTheLease()
    {
        Fixture f;
        auto *about = part<QLabel>(f.panel, "about");
        chooseSchedules(&f.panel, Core::SweepSchedules::Near);
        QVERIFY(part<QSpinBox>(f.panel, "jitter")->isEnabled());
        part<QSpinBox>(f.panel, "from")->setValue(9);
        part<QSpinBox>(f.panel, "to")->setValue(15);
        part<QSpinBox>(f.panel, "runs")->setValue(810);
        QCOMPARE(about->text(),
                 QStringLiteral("Each point runs 810 schedules near the scenario: its own "
                                "actions, each client's in their order, each moved by a seeded "
                                "amount of at most 1 tick, earlier or later, with pause set to "
                                "the point's value."));
        part<QSpinBox>(f.panel, "jitter")->setValue(2);
        QVERIFY(about->text().contains(QLatin1String("at most 2 ticks")));
        part<QSpinBox>(f.panel, "jitter")->setValue(1);
        QVERIFY(f.runToTheEnd());
        QCOMPARE(f.panel.spec().jitter, Core::Tick(1));
        const QList<QPointF> line = f.panel.shareSeries(0, false)->points();
        QCOMPARE(line.size(), 7);
        QCOMPARE(line[0], QPointF(9, 0));
        QCOMPARE(line[1], QPointF(10, 0));
        QCOMPARE(line[5], QPointF(14, 1));
        QCOMPARE(line[6], QPointF(15, 1));
        const double expected[] = {5 / 81.0, 24 / 81.0, 61 / 81.0};
        for (int i = 0; i < 3; ++i) {
            const double sd = std::sqrt(expected[i] * (1 - expected[i]) / 810);
            QVERIFY2(std::abs(line[2 + i].y() - expected[i]) < 4 * sd,
                     qPrintable(QString::number(line[2 + i].y())));
        }
        QCOMPARE(areaSeries(f.panel.chart()), 2);
        const QList<QPointF> high = bandOf(f.panel.chart(), QStringLiteral("unfenced (95%)"), true);
        QCOMPARE(high.size(), 7);
        const auto k = f.panel.result().points[3].unfenced[0].schedules;
        QCOMPARE(high[3].y(), Core::wilsonInterval(k, 810).high);
        const QString ran = about->text();
        QCOMPARE(part<QLabel>(f.panel, "status")->text(), ran);
        // shaped like it: another sentence, the scenario's last tick (B's write at 13) in it;
        // the status still says what the chart shows
        chooseSchedules(&f.panel, Core::SweepSchedules::Shaped);
        QCOMPARE(part<QLabel>(f.panel, "status")->text(), ran);
        QVERIFY(!part<QSpinBox>(f.panel, "jitter")->isEnabled());
        QVERIFY(about->text().startsWith(
            QLatin1String("Each point runs 810 schedules shaped like the scenario")));
        QVERIFY(about->text().contains(QLatin1String("a random tick from 0 to 13")));
        auto *quantity2 = part<QComboBox>(f.panel, "quantity2");
        quantity2->setCurrentIndex(quantity2->findData(QStringLiteral("ttl")));
        QVERIFY(about->text().endsWith(QLatin1String("with pause and ttl set to the point's "
                                                     "values.")));
        // the sentence is wrapped to the controls' width, not widening them
        QVERIFY(about->width() <= part<QWidget>(f.panel, "sweepControls")->width());
    }
};

QTEST_MAIN(TestSweepPanel)
#include "tst_sweeppanel.moc"
