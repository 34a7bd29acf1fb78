// What the hit test finds on the lock service lane and the storage lanes, over a dense grid of
// points: every preset, alone and in compare mode, fitted to its run and zoomed in three times
// around its middle. The answers are compared with a table kept in tests/data/lanehits.txt,
// made by the hit test as it stood when it still scanned the trace for these lanes itself
// (before the passes recorded their regions), so moving an element's geometry into the pass
// that paints it cannot change what a click or a hover finds unseen. A few answers are worked
// out by hand from the default preset (handChecked).
//
// Where the answers now differ from those scans (the table's first version), on purpose:
// - the plot's inset left of tick 0 found the first lease on the lock lane (the scan rounded a
//   negative tick up to 0), though nothing is painted there: now nothing, as on a client lane;
// - a point exactly on the edge of a lease's segment (its end) or of a write's reach (an
//   accepted write's; a refused one's already answered there) now answers, as the edges of
//   every painted region do (a single pixel of a few presets, where the grid falls on the edge).
//
// To write the table again (only for a change of what the hit test finds on purpose, each
// changed answer looked at first):
//   FENCESCOPE_REGENERATE_LANEHITS=$PWD/tests/data/lanehits.txt build/dev/tests/tst_lanehits

#include "presetfile.h"
#include "scenariofile.h"
#include "simulator.h"
#include "timelinerenderer.h"

#include <QFile>
#include <QtTest>

#include <cmath>
#include <map>

using Core::Tick;
using Hit = TimelineRenderer::Hit;

namespace {

using TestSupport::preset;

// Every built-in scenario (the tables below are compared part by part, in any order).
QStringList presetNames()
{
    return Core::ScenarioFile::builtinNames();
}

QString show(const Hit &h)
{
    return QStringLiteral("%1,%2,%3,%4,%5,%6")
        .arg(int(h.part))
        .arg(h.client)
        .arg(h.action)
        .arg(h.lane)
        .arg(h.ref == Core::kNone ? qlonglong(-1) : qlonglong(h.ref))
        .arg(int(h.bottomPanel));
}

// A preset at 1000 px wide, fitted to its run; `zoom` times closer around the run's middle.
struct Picture
{
    Core::Scenario s;
    Core::Trace top;
    Core::Trace bottom;
    TimelineRenderer::Options o;
    QRectF rect;
    TimeAxis axis;
    TimelineRenderer r;

    Picture(const QString &name, bool compare, double zoom)
    {
        s = preset(name);
        o.compare = compare;
        top = compare ? Core::simulate(s, true) : Core::simulate(s);
        bottom = Core::simulate(s, false);
        rect = QRectF(QPointF(0, 0), TimelineRenderer::preferredSize(s, o, 1000));
        const TimelineLayout l = TimelineRenderer::layout(s, o, rect);
        axis = TimeCoordinates::fitted(TimelineRenderer::fitFrom(top), TimelineRenderer::fitTo(top),
                                       l.plot.left() + TimelineRenderer::plotInset(o),
                                       l.plot.width() - 2 * TimelineRenderer::plotInset(o));
        if (zoom != 1) {
            const double middle = axis.xToTick(l.plot.center().x());
            axis.pixelsPerTick *= zoom;
            axis.firstTick = middle - (l.plot.center().x() - axis.left) / axis.pixelsPerTick;
        }
    }
    Hit at(QPointF pos) const
    {
        return r.hitTest(s, top, axis, rect, o, pos, o.compare ? &bottom : nullptr);
    }
    TimelineLayout layout() const { return TimelineRenderer::layout(s, o, rect); }
};

// Rows of points across the lock lane and each storage lane of every panel: a point every
// pixel (a quarter past it, clear of the half-pixel edges), at the lane's top edge and its
// middle. One line per row: where it is, then runs of equal answers ("x0-x1=answer").
QStringList probe(const Picture &pic, const QString &key)
{
    QStringList lines;
    const TimelineLayout l = pic.layout();
    for (std::size_t p = 0; p < l.panels.size(); ++p) {
        const TimelinePanel &panel = l.panels[p];
        std::vector<std::pair<QString, QRectF>> lanes;
        lanes.push_back(
            {QStringLiteral("lock"),
             QRectF(panel.lockHeader.left(), panel.lock.top(),
                    panel.lockHeader.width() + panel.lock.width(), panel.lock.height())});
        for (std::size_t si = 0; si < panel.storages.size(); ++si) {
            const StorageLaneRects &r = panel.storages[si];
            lanes.push_back({QStringLiteral("storage%1").arg(si),
                             QRectF(r.header.left(), r.lane.top(),
                                    r.header.width() + r.lane.width(), r.lane.height())});
        }
        for (const auto &[lane, box] : lanes) {
            for (const double y : {box.top() + 0.75, box.center().y()}) {
                QString line = QStringLiteral("%1 panel%2 %3 y=%4:")
                                   .arg(key)
                                   .arg(p)
                                   .arg(lane)
                                   .arg(y, 0, 'f', 2);
                QString run;
                int from = 0;
                const int x0 = int(std::floor(box.left()));
                const int x1 = int(std::ceil(pic.rect.right()));
                for (int x = x0; x <= x1 + 1; ++x) {
                    const QString answer =
                        x <= x1 ? show(pic.at(QPointF(x + 0.25, y))) : QStringLiteral("end");
                    if (answer == run)
                        continue;
                    if (!run.isEmpty())
                        line += QStringLiteral(" %1-%2=%3").arg(from).arg(x - 1).arg(run);
                    run = answer;
                    from = x;
                }
                lines << line;
            }
        }
    }
    return lines;
}

// Under FENCESCOPE_QUICK (the sanitizer suite, where the whole grid takes minutes) every third
// preset only, each compared with its lines of the table.
QStringList probeAll(bool quick)
{
    QStringList lines;
    const QStringList names = presetNames();
    for (int n = 0; n < names.size(); ++n)
        for (const bool compare : {false, true})
            for (const double zoom : {1.0, 3.0}) {
                if (quick && n % 3 != 0)
                    continue;
                const QString &name = names[n];
                const Picture pic(name, compare, zoom);
                lines << probe(pic, QStringLiteral("%1 %2 zoom%3")
                                        .arg(name, compare ? QStringLiteral("compare")
                                                           : QStringLiteral("alone"))
                                        .arg(zoom));
            }
    return lines;
}

} // namespace

class TestLaneHits : public QObject
{
    Q_OBJECT

private slots:
    // default: A holds the lock from 0 to 10 (token 1, its action 0), B from 12 to 22 (token
    // 2, its action 1: the refused acquire at 5 is action 0); B's write (action 2) arrives at
    // 13 with no delay and is accepted; A's write (action 2), due at 2, goes out when A thaws
    // at 30, carries token 1 and is rejected.
    void handChecked()
    {
        const Picture pic(QStringLiteral("default"), false, 1);
        const TimelineLayout l = pic.layout();
        const TimelinePanel &panel = l.panels.front();
        const double lockY = panel.lockBars.center().y();
        const auto xOf = [&](double tick) { return pic.axis.tickToX(tick); };
        Hit h = pic.at(QPointF(xOf(5.5), lockY));
        QCOMPARE(h.part, Hit::LockSegment);
        QCOMPARE(h.client, 0);
        QCOMPARE(h.action, 0);
        QCOMPARE(h.lane, 2);
        QCOMPARE(pic.at(QPointF(xOf(11), lockY)).part, Hit::None);
        QCOMPARE(pic.at(QPointF(xOf(11), lockY)).lane, 2);
        h = pic.at(QPointF(xOf(17.5), panel.lock.top() + 1));
        QCOMPARE(h.part, Hit::LockSegment);
        QCOMPARE(h.client, 1);
        QCOMPARE(h.action, 1);
        const StorageLaneRects &db = panel.storages.front();
        h = pic.at(QPointF(xOf(13) + 3, db.outcomes.center().y()));
        QCOMPARE(h.part, Hit::StorageWrite);
        QCOMPARE(h.client, 1);
        QCOMPARE(h.action, 2);
        QCOMPARE(h.lane, 3);
        QCOMPARE(pic.at(QPointF(xOf(20), db.outcomes.center().y())).part, Hit::None);
        const Core::Write *late = nullptr;
        for (const Core::Write &w : pic.top.writes)
            if (w.client == 0)
                late = &w;
        QVERIFY(late);
        QVERIFY(late->arrivedAt >= 30);
        QVERIFY(late->result == Core::WriteResult::Rejected);
        h = pic.at(QPointF(xOf(double(late->arrivedAt)) - 2, db.lane.top() + 1));
        QCOMPARE(h.part, Hit::StorageWrite);
        QCOMPARE(h.client, 0);
        QCOMPARE(h.action, 2);
    }

    void sameAnswersAsTheTable()
    {
        const QString regenerate = qEnvironmentVariable("FENCESCOPE_REGENERATE_LANEHITS");
        const bool quick = regenerate.isEmpty() && qEnvironmentVariableIsSet("FENCESCOPE_QUICK");
        const QStringList lines = probeAll(quick);
        if (!regenerate.isEmpty()) {
            QFile out(regenerate);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
            return;
        }
        QFile in(QStringLiteral(FENCESCOPE_TESTDATA "/lanehits.txt"));
        QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(in.fileName()));
        const QStringList expected =
            QString::fromUtf8(in.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        // each line by where it is (the words before its colon)
        std::map<QString, QString> table;
        for (const QString &line : expected)
            table[line.section(QLatin1Char(':'), 0, 0)] = line;
        QCOMPARE(table.size(), std::size_t(expected.size()));
        if (!quick)
            QCOMPARE(lines.size(), expected.size());
        QVERIFY(!lines.isEmpty());
        int differing = 0;
        for (const QString &line : lines) {
            const auto it = table.find(line.section(QLatin1Char(':'), 0, 0));
            const QString was = it == table.end() ? QStringLiteral("(none)") : it->second;
            if (line == was)
                continue;
            if (++differing <= 10)
                qWarning("now:   %s\ntable: %s", qPrintable(line), qPrintable(was));
        }
        QCOMPARE(differing, 0);
    }
};

QTEST_MAIN(TestLaneHits)
#include "tst_lanehits.moc"
