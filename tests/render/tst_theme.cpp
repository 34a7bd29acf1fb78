// Every theme's text is readable: WCAG AA (4.5:1) against the backgrounds text sits on, for
// every colour the timeline and the exporter write text in. The ratio is computed here from
// the WCAG 2 definition, not taken from the code under test.

#include "exporter.h"
#include "exportruns.h"
#include "recordingdevice.h"
#include "scenariofile.h"
#include "simulator.h"
#include "theme.h"
#include "timelinerenderer.h"

#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QTest>

#include <cmath>
#include <set>

namespace {

// WCAG 2.x relative luminance of an sRGB colour.
double luminance(const QColor &c)
{
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// Text on a filled chip or bar (textOn()): read against that fill, not the lane.
const std::set<QRgb> kOnFills = {QColor(0x1a1a1a).rgb(), QColor(Qt::white).rgb()};

std::vector<QColor> textColours(const Theme &t)
{
    return {t.foreground,    t.muted,         t.refusal,    t.acceptedText, t.rejectedText,
            t.corruptedText, t.lockedOutText, t.zombieText, t.maxTokenText};
}

Core::Scenario preset(const QString &name)
{
    const Core::LoadResult r =
        Core::ScenarioFile::load(QStringLiteral(":/scenarios/%1.json").arg(name));
    if (!r.ok())
        qFatal("cannot load %s", qPrintable(name));
    return *r.scenario;
}

} // namespace

class TestTheme : public QObject
{
    Q_OBJECT

private slots:
    void contrastFormula()
    {
        // the WCAG extremes and a textbook pair: #777 on white is 4.48:1, just below AA
        QCOMPARE(qRound(contrast(Qt::black, Qt::white) * 100), 2100);
        QCOMPARE(qRound(contrast(QColor(0x777777), Qt::white) * 100), 448);
        QCOMPARE(contrast(QColor(0x123456), QColor(0x123456)), 1.0);
    }

    void everyTextColourMeetsAA_data()
    {
        QTest::addColumn<QString>("theme");
        for (const QString &name : Theme::names())
            QTest::newRow(qPrintable(name)) << name;
    }
    void everyTextColourMeetsAA()
    {
        QFETCH(QString, theme);
        const Theme t = Theme::byName(theme);
        QCOMPARE(t.name, theme);
        const std::vector<QColor> colours = textColours(t);
        for (std::size_t i = 0; i < colours.size(); ++i) {
            QVERIFY(colours[i].isValid());
            for (const QColor &bg : {t.background, t.laneStripe}) {
                const double ratio = contrast(colours[i], bg);
                QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1: text colour #%2 %3 on %4 "
                                                                 "is %5:1")
                                                      .arg(theme)
                                                      .arg(i)
                                                      .arg(colours[i].name(), bg.name())
                                                      .arg(ratio, 0, 'f', 2)));
            }
        }
        // the outcome's text colour is its own, and the marker keeps its Okabe-Ito fill
        for (int r = 0; r < 4; ++r)
            QVERIFY(t.outcomeText(Core::WriteResult(r)).isValid());
        QCOMPARE(t.outcome(Core::WriteResult::Rejected), QColor(0xE69F00));
    }

    // What is drawn as text uses only those colours (or text on a fill): every preset, fenced
    // and unfenced, compare mode, the timeline and the exported page with its legend.
    void rendererWritesOnlyInTextColours_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::addColumn<QString>("scenario");
        for (const QString &name : Theme::names())
            for (const QString &file : QDir(QStringLiteral(":/scenarios")).entryList()) {
                const QString s = QFileInfo(file).completeBaseName();
                QTest::newRow(qPrintable(name + QLatin1Char(' ') + s)) << name << s;
            }
    }
    void rendererWritesOnlyInTextColours()
    {
        QFETCH(QString, theme);
        QFETCH(QString, scenario);
        const Theme th = Theme::byName(theme);
        const Core::Scenario s = preset(scenario);
        std::set<QRgb> allowed = kOnFills;
        for (const QColor &c : textColours(th))
            allowed.insert(c.rgb());
        for (const bool compare : {false, true}) {
            RecordingDevice device;
            {
                QPainter p(&device);
                TimelineRenderer r;
                r.setCaching(false);
                TimelineRenderer::Options o;
                o.theme = th;
                o.compare = compare;
                const Core::Trace fenced = Core::simulate(s, true);
                const Core::Trace unfenced = Core::simulate(s, false);
                const QRectF rect(0, 0, 1600, 1000);
                const double header = TimelineRenderer::headerWidth(o);
                const TimeAxis axis = TimeCoordinates::fitted(TimelineRenderer::fitFrom(fenced),
                                                              TimelineRenderer::fitTo(fenced),
                                                              header, rect.width() - header - 8);
                r.paint(&p, rect, s, compare ? fenced : unfenced, compare ? &unfenced : nullptr,
                        axis, o);
                ExportOptions eo;
                eo.theme = th;
                eo.compare = compare;
                Exporter::paint(&p, s, TestRuns(s, eo), eo);
            }
            QVERIFY(device.texts.size() >= 10); // it did draw text
            for (const RecordingDevice::Text &text : device.texts)
                QVERIFY2(allowed.count(text.color.rgb()),
                         qPrintable(QStringLiteral("\"%1\" in %2 is none of the theme's text "
                                                   "colours")
                                        .arg(text.text, text.color.name())));
        }
    }
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
