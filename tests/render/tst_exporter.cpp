// Export renders through the same TimelineRenderer as the window; assert on real files.

#include "exporter.h"
#include "exportruns.h"
#include "filesizelimit.h"
#include "scenariofile.h"
#include "simulator.h"
#include "timelinerenderer.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

int countColour(const QImage &image, const QRect &area, const QColor &colour)
{
    int n = 0;
    const QRect r = area.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            if ((image.pixel(x, y) & 0xffffff) == (colour.rgb() & 0xffffff))
                ++n;
    return n;
}

// The storage lane inside an exported picture, where the exporter says its timeline is.
QRect storageOutcomes(const Core::Scenario &s, const ExportOptions &o, const QImage &image)
{
    const QRectF timeline = Exporter::timelineRect(s, TestRuns(s, o), o);
    const TimelineLayout layout = TimelineRenderer::layout(s, Exporter::timelineOptions(o),
                                                           QRectF(QPointF(0, 0), timeline.size()));
    const QRectF lane = layout.panels.front().storages.front().lane;
    Q_UNUSED(image)
    return lane.translated(timeline.topLeft()).toAlignedRect();
}

int pdfPages(const QByteArray &pdf)
{
    // every page object says "/Type /Page"; the page tree says "/Type /Pages"
    return int(pdf.count("/Type /Page\n") + pdf.count("/Type /Page ") + pdf.count("/Type /Page/") +
               pdf.count("/Type /Page>"));
}

} // namespace

class TestExporter : public QObject
{
    Q_OBJECT
private slots:
    void formatFromExtension()
    {
        QCOMPARE(Exporter::formatFor(QStringLiteral("a.PNG")), ExportOptions::Format::Png);
        QCOMPARE(Exporter::formatFor(QStringLiteral("x/y.svg")), ExportOptions::Format::Svg);
        QCOMPARE(Exporter::formatFor(QStringLiteral("slides.pdf")), ExportOptions::Format::Pdf);
        QVERIFY(!Exporter::formatFor(QStringLiteral("a.bmp")));
        QVERIFY(!Exporter::formatFor(QStringLiteral("noextension")));
    }

    void pngSizeFollowsWidthAndScale_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("scale");
        QTest::newRow("1920 at 1x") << 1920.0 << 1.0;
        QTest::newRow("1920 at 2x") << 1920.0 << 2.0;
        QTest::newRow("800 at 4x") << 800.0 << 4.0;
    }
    void pngSizeFollowsWidthAndScale()
    {
        QFETCH(double, width);
        QFETCH(double, scale);
        ExportOptions o;
        o.width = width;
        o.scale = scale;
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const QImage image = Exporter::renderImage(s, TestRuns(s, o), o);
        QCOMPARE(image.width(), int(width * scale));
        const QSizeF page = Exporter::pageSize(s, TestRuns(s, o), o);
        QCOMPARE(image.height(), int(std::lround(page.height() * scale)));
        QVERIFY(page.height() > 200); // lanes, legend and caption are all there
    }

    void fencedShowsRejectionUnfencedShowsCorruption()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        ExportOptions o;
        o.showTitle = false;
        o.fencing = true;
        const QImage fenced = Exporter::renderImage(s, TestRuns(s, o), o);
        const QRect lane = storageOutcomes(s, o, fenced);
        QVERIFY(countColour(fenced, lane, o.theme.rejected) > 10);
        QCOMPARE(countColour(fenced, lane, o.theme.corrupted), 0);

        o.fencing = false;
        const QImage unfenced = Exporter::renderImage(s, TestRuns(s, o), o);
        QVERIFY(countColour(unfenced, lane, o.theme.corrupted) > 10);
        QCOMPARE(countColour(unfenced, lane, o.theme.rejected), 0);
    }

    void svgIsVectorWithRealText()
    {
        ExportOptions o;
        const QByteArray svg =
            Exporter::renderSvg(Core::ScenarioFile::defaultScenario(),
                                TestRuns(Core::ScenarioFile::defaultScenario(), o), o);
        QXmlStreamReader xml(svg);
        QStringList texts;
        int rects = 0;
        bool inText = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("text"))
                inText = true;
            if (xml.isEndElement() && xml.name() == QLatin1String("text"))
                inText = false;
            if (xml.isStartElement() &&
                (xml.name() == QLatin1String("rect") || xml.name() == QLatin1String("path")))
                ++rects;
            if (xml.isStartElement() && xml.name() == QLatin1String("image"))
                QFAIL("the SVG embeds a bitmap");
            if (inText && xml.isCharacters())
                texts << xml.text().toString().trimmed();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(rects > 10);
        QVERIFY(texts.contains(QStringLiteral("A")));
        QVERIFY(texts.contains(QStringLiteral("B")));
        const QString all = texts.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("token 1")), qPrintable(all));
        QVERIFY(all.contains(QStringLiteral("token 2")));
    }

    void pdfHasOnePagePerKeyframe()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        QCOMPARE(pdfPages(Exporter::renderPdf(s, TestRuns(s, ExportOptions()), ExportOptions())),
                 1);

        // default scenario events (worked out by hand): t=0 A granted, t=1 A pauses,
        // t=5 B refused, t=12 B granted, t=13 B writes, t=30 A thaws and writes
        const Core::Trace t = Core::simulate(s);
        const std::vector<Core::Tick> keys = Exporter::keyframeTicks(s, t);
        QCOMPARE(keys, (std::vector<Core::Tick>{0, 1, 5, 12, 13, 30}));

        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("story.pdf"));
        QCOMPARE(
            Exporter::exportStoryboard(pdf, s, TestRuns(s, ExportOptions()), ExportOptions(), keys),
            QString());
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(pdfPages(f.readAll()), 6);
    }

    void storyboardFolderHasNumberedFrames()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("frames"));
        QStringList written;
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        QCOMPARE(Exporter::exportStoryboard(folder, s, TestRuns(s, ExportOptions()),
                                            ExportOptions(), {0, 13, 30}, &written),
                 QString());
        QCOMPARE(QDir(folder).entryList(QDir::Files),
                 (QStringList{QStringLiteral("frame-01.png"), QStringLiteral("frame-02.png"),
                              QStringLiteral("frame-03.png")}));
        QCOMPARE(written.size(), 3);
        // frames differ: the playhead moves and later events are dimmed
        QVERIFY(QImage(written[0]) != QImage(written[2]));
    }

    void failuresLeaveNoFiles()
    {
        QTemporaryDir dir;
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        QString error = Exporter::exportTo(dir.filePath(QStringLiteral("a.bmp")), s,
                                           TestRuns(s, ExportOptions()), ExportOptions());
        QVERIFY(error.contains(QStringLiteral("unknown format")));
        error = Exporter::exportTo(dir.filePath(QStringLiteral("missing/a.png")), s,
                                   TestRuns(s, ExportOptions()), ExportOptions());
        QVERIFY(error.contains(QStringLiteral("cannot write")));
        // a path whose parent is a file can never be created, whoever runs the test
        QFile blocker(dir.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        error = Exporter::exportTo(dir.filePath(QStringLiteral("file/a.pdf")), s,
                                   TestRuns(s, ExportOptions()), ExportOptions());
        QVERIFY(!error.isEmpty());
        error = Exporter::exportStoryboard(dir.filePath(QStringLiteral("file/frames")), s,
                                           TestRuns(s, ExportOptions()), ExportOptions(), {0, 1});
        QVERIFY(!error.isEmpty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("file")});
    }

    void fullDiskLeavesTheOldFileAndNoTemporary()
    {
        // A full disk, for root too: a file size limit (RLIMIT_FSIZE) smaller than the picture
        // makes the write fail half way. The old file must survive and no temporary remain.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("slide.png"));
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old picture");
        }
        // (a write past 4096 bytes fails, as on a full disk)
        QString error;
        {
            const FileSizeLimit limit(4096);
            QVERIFY(limit.ok());
            error = Exporter::exportTo(
                path, Core::ScenarioFile::defaultScenario(),
                TestRuns(Core::ScenarioFile::defaultScenario(), ExportOptions()), ExportOptions());
        }
        QVERIFY2(error.startsWith(QStringLiteral("cannot write")), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("old picture"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("slide.png")});
    }

    void compareCaptionTellsBothFates()
    {
        ExportOptions o;
        o.compare = true;
        const QString svg = QString::fromUtf8(
            Exporter::renderSvg(Core::ScenarioFile::defaultScenario(),
                                TestRuns(Core::ScenarioFile::defaultScenario(), o), o));
        QVERIFY(svg.contains(QStringLiteral("Safety held")));
        QVERIFY(svg.contains(QStringLiteral("Safety violated")));
    }

    void captionSaysWhetherSafetyHeld()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        QVERIFY(Exporter::defaultCaption(s, Core::simulate(s, true))
                    .contains(QStringLiteral("Safety held")));
        const QString off = Exporter::defaultCaption(s, Core::simulate(s, false));
        QVERIFY(off.contains(QStringLiteral("Safety violated")));
        QVERIFY(off.contains(QStringLiteral("1 corrupted")));
        // counted in words: one write, never "write(s)"
        QVERIFY(off.endsWith(QStringLiteral("Safety violated: 1 write overwrote newer data.")));
        Core::Trace two = Core::simulate(s, false);
        two.summary.corrupted = 2;
        two.summary.skipped = 1;
        two.summary.partial = 1;
        const QString caption = Exporter::defaultCaption(s, two);
        QVERIFY2(caption.contains(QStringLiteral("1 checked write skipped. Safety violated: 2 "
                                                 "writes overwrote newer data. 1 update half "
                                                 "applied across storages.")),
                 qPrintable(caption));
    }
};

QTEST_MAIN(TestExporter)
#include "tst_exporter.moc"
