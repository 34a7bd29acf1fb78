// A zombie window is drawn only where a client acts on a lock it lost (Trace::zombieWindow):
// in the default scenario A, whose write goes out at t=30 on the token of a lease that ended at
// t=10; not B, whose belief outlives its lease [12,22) without sending anything after it.

#include "exporter.h"
#include "exportruns.h"
#include "scenariofile.h"
#include "simulator.h"
#include "timelinerenderer.h"

#include <QImage>
#include <QPainter>
#include <QTest>

namespace {

struct Picture
{
    QImage image;
    TimelineLayout layout;
    TimeAxis axis;
};

Picture render(const Core::Scenario &s, const Core::Trace &t)
{
    Picture pic;
    TimelineRenderer r;
    r.setCaching(false);
    TimelineRenderer::Options o;
    const QRectF rect(QPointF(0, 0), TimelineRenderer::preferredSize(s, o, 1400));
    pic.image = QImage(rect.size().toSize(), QImage::Format_RGB32);
    const double header = TimelineRenderer::headerWidth(o);
    pic.axis = TimeCoordinates::fitted(0, 40, header, rect.width() - header - 8);
    pic.layout = TimelineRenderer::layout(s, o, rect);
    QPainter p(&pic.image);
    r.paint(&p, rect, s, t, nullptr, pic.axis, o);
    return pic;
}

// The belief row's colour at a tick (away from its label).
QColor beliefAt(const Picture &pic, int client, double tick)
{
    const QRectF row = pic.layout.panels.front().clients[std::size_t(client)].believes;
    return pic.image.pixelColor(int(pic.axis.tickToX(tick)), int(row.center().y()));
}

int count(const QByteArray &hay, const char *needle)
{
    int n = 0;
    for (qsizetype at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1))
        ++n;
    return n;
}

} // namespace

class TestZombieWindow : public QObject
{
    Q_OBJECT
private slots:
    void onlyTheClientThatActsIsAZombie()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        for (const bool fencing : {true, false}) {
            const Picture pic = render(s, Core::simulate(s, fencing));
            if (!qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOTS"))
                pic.image.save(qEnvironmentVariable("FENCESCOPE_SCREENSHOTS") +
                               QStringLiteral("/zombie-%1.png").arg(fencing ? 1 : 0));
            // A, t=11 and t=28: hatched vermillion (red over blue); B, t=30 and t=35: plain sky
            // blue
            for (const double tick : {11.5, 28.5}) {
                const QColor a = beliefAt(pic, 0, tick);
                QVERIFY2(a.red() > a.blue() + 40, qPrintable(a.name()));
            }
            for (const double tick : {25.5, 30.5, 35.5}) {
                const QColor b = beliefAt(pic, 1, tick);
                QVERIFY2(b.blue() > b.red() + 40,
                         qPrintable(QStringLiteral("B at %1: %2").arg(tick).arg(b.name())));
            }
            // A before its lease ended: plain belief
            const QColor early = beliefAt(pic, 0, 5.5);
            QVERIFY2(early.blue() > early.red() + 40, qPrintable(early.name()));
        }
    }

    void labelAndLegendOnlyWhereItActs()
    {
        Core::Scenario s = Core::ScenarioFile::defaultScenario();
        ExportOptions o;
        o.width = 1800;
        const QByteArray svg = Exporter::renderSvg(s, TestRuns(s, o), o);
        // one window (A's) on the timeline, one legend entry
        QCOMPARE(count(svg, "zombie: lease gone"), 1);
        QCOMPARE(count(svg, "zombie window"), 1);
        // A sleeps through its lease but never writes: a quiet belief, nothing called zombie
        s.clients[0].actions.pop_back();
        const QByteArray quiet = Exporter::renderSvg(s, TestRuns(s, o), o);
        QCOMPARE(count(quiet, "zombie"), 0);
    }
};

QTEST_MAIN(TestZombieWindow)
#include "tst_zombiewindow.moc"
