// Storyboard frames for slides: each frame explains its own step (the main event of its tick,
// as presentation mode does), not the whole run's outcome; SVG text names real font families
// with a generic fallback, so a slide opened on another machine keeps a sans-serif face.

#include "explain.h"
#include "exporter.h"
#include "exportruns.h"
#include "scenariofile.h"
#include "simulator.h"
#include "theme.h"

#include <algorithm>

#include <QImage>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

// Every text of an SVG, and every font-family attribute it uses.
struct SvgText
{
    QString text;
    QSet<QString> families;
};

SvgText readSvg(const QByteArray &svg)
{
    SvgText out;
    QXmlStreamReader xml(svg);
    QStringList texts;
    int inText = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == QLatin1String("text"))
                ++inText;
            const QStringView family = xml.attributes().value(QLatin1String("font-family"));
            if (!family.isEmpty())
                out.families.insert(family.toString());
        }
        if (xml.isEndElement() && xml.name() == QLatin1String("text"))
            --inText;
        if (inText > 0 && xml.isCharacters())
            texts << xml.text().toString();
    }
    out.text = texts.join(QLatin1Char(' ')).simplified();
    return out;
}

} // namespace

class TestStoryboardCaptions : public QObject
{
    Q_OBJECT

private slots:
    // The default scenario's key frames, worked by hand: t=0 A is granted token 1; t=13 B's
    // write with token 2 is accepted; t=30 A's stale write with token 1 is rejected. Each
    // frame's caption is the explanation of its own tick's main event, and the storyboard's
    // frames are exactly those pictures.
    void eachFrameExplainsItsOwnStep()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Core::Trace t = Core::simulate(s, s.fencing);
        const std::vector<Core::Tick> ticks{0, 13, 30};
        const std::vector<Core::EventKind> main{
            Core::EventKind::Grant, Core::EventKind::WriteArrived, Core::EventKind::WriteArrived};
        QStringList captions;
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            const std::uint32_t e = Core::mainEventAt(t, ticks[i]);
            QVERIFY(e != Core::kNone);
            QVERIFY(t.events[e].kind == main[i]);
            const QString caption = Exporter::stepCaption(s, t, ticks[i]);
            QVERIFY2(caption.startsWith(Core::explainEvent(s, t, e)), qPrintable(caption));
            captions << caption;
        }
        QVERIFY(captions[1].contains(QStringLiteral("accepted")));
        QVERIFY(captions[2].contains(QStringLiteral("rejected")));
        QCOMPARE(QSet<QString>(captions.begin(), captions.end()).size(), 3);
        // not the whole run's caption on every frame
        for (const QString &c : captions)
            QVERIFY(c != Exporter::defaultCaption(s, t));

        // the frame's picture carries it: an SVG at that playhead has the caption's words
        ExportOptions o;
        o.width = 1280;
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            o.playhead = ticks[i];
            const QString text = readSvg(Exporter::renderSvg(s, TestRuns(s, o), o)).text;
            // the first sentence of the explanation (the caption wraps over lines)
            const QString first = captions[int(i)].section(QLatin1Char('.'), 0, 0).simplified();
            const QStringList words = first.split(QLatin1Char(' '));
            for (const QString &w : words)
                QVERIFY2(text.contains(w),
                         qPrintable(QStringLiteral("frame %1: '%2' of '%3' not in the picture")
                                        .arg(i)
                                        .arg(w, first)));
        }

        // and the storyboard writes exactly those pictures, one per key frame
        QTemporaryDir dir;
        QStringList written;
        ExportOptions board;
        board.width = 900;
        QCOMPARE(Exporter::exportStoryboard(dir.filePath(QStringLiteral("frames")), s,
                                            TestRuns(s, board), board, ticks, &written),
                 QString());
        QCOMPARE(written.size(), 3);
        // every frame as tall as the tallest step's own picture (their captions differ in
        // length), so the frames line up on slides
        int tallest = 0;
        for (const Core::Tick tick : ticks) {
            ExportOptions one = board;
            one.playhead = tick;
            tallest = std::max(tallest, Exporter::renderImage(s, TestRuns(s, one), one).height());
        }
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            ExportOptions one = board;
            one.playhead = ticks[i];
            one.minHeight = tallest;
            const QImage expected = Exporter::renderImage(s, TestRuns(s, one), one);
            QCOMPARE(expected.height(), tallest);
            QImage frame(written[int(i)]);
            QCOMPARE(frame.size(), expected.size());
            QVERIFY2(frame.convertToFormat(QImage::Format_ARGB32) ==
                         expected.convertToFormat(QImage::Format_ARGB32),
                     qPrintable(written[int(i)]));
        }
    }

    // SVG text: real families, best first, ending in the generic family; never Qt's default
    // "Sans Serif", which no viewer knows.
    void svgNamesRealFontFamilies()
    {
        ExportOptions o;
        for (const Theme &theme :
             {Theme::light(), Theme::print(), Theme::highContrast(), Theme::dark()}) {
            o.theme = theme;
            const SvgText svg =
                readSvg(Exporter::renderSvg(Core::ScenarioFile::defaultScenario(),
                                            TestRuns(Core::ScenarioFile::defaultScenario(), o), o));
            QVERIFY(!svg.families.isEmpty());
            for (const QString &family : svg.families) {
                QVERIFY2(!family.contains(QStringLiteral("Sans Serif")), qPrintable(family));
                QVERIFY2(family.startsWith(QStringLiteral("DejaVu Sans, ")), qPrintable(family));
                QVERIFY2(family.endsWith(QStringLiteral(", sans-serif")), qPrintable(family));
                QVERIFY2(family.contains(QStringLiteral("Liberation Sans")), qPrintable(family));
            }
        }
    }
};

QTEST_MAIN(TestStoryboardCaptions)
#include "tst_storyboardcaptions.moc"
