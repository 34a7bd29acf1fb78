// One glyph painter (glyphs.h) for the timeline, the export legend and the outcome markers:
// the legend shows each glyph exactly as the lanes draw it.

#include "exporter.h"
#include "exportruns.h"
#include "glyphs.h"
#include "outcomemarker.h"
#include "recordingdevice.h"
#include "scenariofile.h"

#include <QPainter>
#include <QTest>

#include <algorithm>

namespace {

// Distinct polygons of `points` corners below minY (the timeline paints a glyph's fill and its
// outline as two calls of the same polygon).
int polygonsWith(const RecordingDevice &d, int points, double minY = -1e9)
{
    std::vector<QPolygonF> seen;
    for (const QPolygonF &p : d.polygons)
        if (p.size() == points && p.boundingRect().top() >= minY &&
            std::find(seen.begin(), seen.end(), p) == seen.end())
            seen.push_back(p);
    return int(seen.size());
}

// y of the legend's row: the text "write sent" is in it.
double legendTop(const RecordingDevice &d)
{
    for (const RecordingDevice::Text &t : d.texts)
        if (t.text.startsWith(QStringLiteral("write sent")))
            return t.at.y() - 40;
    return 1e9;
}

} // namespace

class TestGlyphs : public QObject
{
    Q_OBJECT
private slots:
    // default.json, fenced: two writes (A's, B's), no delay, no corruption. On a client lane a
    // write is a five-point nib; the legend's "write sent" must be the same nib, not a triangle
    // (the only triangle glyph is a corrupted write, and there is none).
    void legendWriteIsTheTimelinesNib()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        ExportOptions o;
        RecordingDevice d(Exporter::pageSize(s, TestRuns(s, o), o).toSize());
        {
            QPainter p(&d);
            Exporter::paint(&p, s, TestRuns(s, o), o);
        }
        const double legend = legendTop(d);
        QVERIFY(legend < 1e9);
        QCOMPARE(polygonsWith(d, 5), 3);         // A's and B's writes, and the legend's
        QCOMPARE(polygonsWith(d, 5, legend), 1); // the legend's
        QCOMPARE(polygonsWith(d, 3), 0);         // no triangle anywhere
    }

    // The outcome icons and the chart's points use the timeline's shapes too: a corrupted
    // write is the timeline's triangle, a locked-out one its diamond, scaled to the icon.
    void outcomeMarkerUsesTheTimelineShapes()
    {
        RecordingDevice d(QSize(100, 100));
        {
            QPainter p(&d);
            OutcomeMarker::paint(&p, MarkerShape::Triangle, QPointF(50, 50), 28, Qt::red,
                                 Qt::black);
            OutcomeMarker::paint(&p, MarkerShape::Diamond, QPointF(50, 50), 28, Qt::red, Qt::black);
        }
        QCOMPARE(d.polygons.size(), std::size_t(2));
        // Glyphs' triangle at r = 28 / 2.8 = 10: apex 13.5 above the centre, base 10 below
        QPolygonF expected;
        expected << QPointF(50, 36.5) << QPointF(63, 60) << QPointF(37, 60);
        QCOMPARE(d.polygons[0], expected);
        QCOMPARE(d.polygons[1].size(), 4);
        QCOMPARE(d.polygons[1].boundingRect(), QRectF(38, 38, 24, 24)); // 1.2 r each way
    }
};

QTEST_MAIN(TestGlyphs)
#include "tst_glyphs.moc"
