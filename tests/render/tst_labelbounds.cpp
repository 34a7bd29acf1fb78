// Labels stay inside the lane they are drawn in, however the visible range cuts the items they
// name: no label reaches past the plot's edge (the widget's edge, or the picture's in an
// export), where the plot clip would cut it in half. A value box, lease or lock bar scrolled
// half out of view gets the label that fits its visible part, or none; "expires" and "max"
// labels are left out where they would not fit; the outcome labels flip to the left of their
// glyph. Checked on the default scenario compared fenced over unfenced with A's stale write at
// t=30 (rejected on top, CORRUPTED below) at or near the right edge, then on every built-in
// scenario scrolled past both edges. Where outcome labels compete for room, the corruption's
// wins: at the zooms of a smaller window it is told in words wherever it has room on one side.
//
// The text is caught where it is drawn: a paint device whose engine keeps every text item with
// its rectangle, the way an SVG or PDF export gets it.

#include "scenariofile.h"
#include "simulator.h"
#include "timelinerenderer.h"

#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QDir>
#include <QFileInfo>
#include <QTest>
#include <QTextItem>

#include <climits>
#include <cmath>

namespace {

struct DrawnText
{
    QString text;
    QRectF rect; // the advance from the pen position, ascent to descent
};

class TextCatcher : public QPaintEngine
{
public:
    TextCatcher() : QPaintEngine(QPaintEngine::AllFeatures) {}

    std::vector<DrawnText> texts;

    bool begin(QPaintDevice *) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState &state) override
    {
        if (state.state() & QPaintEngine::DirtyTransform)
            m_transform = state.transform();
    }
    void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
    void drawPath(const QPainterPath &) override {}
    void drawPolygon(const QPointF *, int, PolygonDrawMode) override {}
    void drawTextItem(const QPointF &p, const QTextItem &ti) override
    {
        const QRectF r(p.x(), p.y() - ti.ascent(), ti.width(), ti.ascent() + ti.descent());
        texts.push_back({ti.text(), m_transform.mapRect(r)});
    }
    Type type() const override { return QPaintEngine::User; }

private:
    QTransform m_transform;
};

class TextDevice : public QPaintDevice
{
public:
    explicit TextDevice(QSize size) : m_size(size) {}
    QPaintEngine *paintEngine() const override { return &m_engine; }
    const std::vector<DrawnText> &texts() const { return m_engine.texts; }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDepth:
            return 32;
        case PdmNumColors:
            return INT_MAX;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(QPaintDevice::devicePixelRatioFScale());
        default:
            return 0;
        }
    }

private:
    QSize m_size;
    mutable TextCatcher m_engine;
};

// The lanes of a panel (plot part only), each with a name for messages.
std::vector<std::pair<QString, QRectF>> lanesOf(const TimelinePanel &panel)
{
    const QString side = panel.bottom ? QStringLiteral("unfenced ") : QStringLiteral("fenced ");
    std::vector<std::pair<QString, QRectF>> lanes;
    for (std::size_t c = 0; c < panel.clients.size(); ++c)
        lanes.emplace_back(side + QStringLiteral("client %1").arg(c), panel.clients[c].lane);
    lanes.emplace_back(side + QStringLiteral("lock service"), panel.lock);
    for (std::size_t s = 0; s < panel.storages.size(); ++s)
        lanes.emplace_back(side + QStringLiteral("storage %1").arg(s), panel.storages[s].lane);
    return lanes;
}

// A text drawn in a lane, and the lane it is drawn in.
struct LaneText
{
    DrawnText text;
    QString lane;
    QRectF laneRect;
    const TimelinePanel *panel;
};

// Paints `s` compared fenced over unfenced, 1000 px wide, with `lastTick` at the plot's right
// edge, and gives every text drawn in a lane that is not wholly outside the plot (clipped
// away: nothing to read or to cut).
std::vector<LaneText> paintCompared(const Core::Scenario &s, const Core::Trace &fenced,
                                    const Core::Trace &unfenced, double pixelsPerTick,
                                    double lastTick, TimelineLayout &l, TimeAxis &axis)
{
    TimelineRenderer::Options o;
    o.compare = true;
    const QSize size(1000, int(std::ceil(TimelineRenderer::preferredSize(s, o, 1000).height())));
    const QRectF rect(QPointF(0, 0), QSizeF(size));
    l = TimelineRenderer::layout(s, o, rect);
    axis.left = l.plot.left();
    axis.pixelsPerTick = pixelsPerTick;
    axis.firstTick = lastTick - l.plot.width() / pixelsPerTick;

    TextDevice device(size);
    {
        QPainter p(&device);
        TimelineRenderer renderer;
        renderer.setCaching(false);
        renderer.paint(&p, rect, s, fenced, &unfenced, axis, o);
    }
    std::vector<LaneText> texts;
    for (const TimelinePanel &panel : l.panels) {
        for (const auto &[name, lane] : lanesOf(panel)) {
            for (const DrawnText &t : device.texts()) {
                const double y = t.rect.center().y();
                if (y < lane.top() || y >= lane.bottom() || t.rect.left() >= lane.right() ||
                    t.rect.right() <= lane.left())
                    continue;
                texts.push_back({t, name, lane, &panel});
            }
        }
    }
    return texts;
}

// Paints `s` fitted into `width` px (tick 0 to the horizon, light theme, at full height) and
// gives every text drawn; `l` is the layout it was painted with.
std::vector<DrawnText> paintFitted(const Core::Scenario &s, const Core::Trace &t, int width,
                                   TimelineLayout &l)
{
    TimelineRenderer::Options o;
    const QSize size(width, int(std::ceil(TimelineRenderer::preferredSize(s, o, width).height())));
    const QRectF rect(QPointF(0, 0), QSizeF(size));
    l = TimelineRenderer::layout(s, o, rect);
    TimeAxis axis;
    axis.left = l.plot.left() + TimelineRenderer::plotInset(o);
    axis.firstTick = 0;
    axis.pixelsPerTick = (l.plot.right() - axis.left - 16) / double(t.horizon);
    TextDevice device(size);
    {
        QPainter p(&device);
        TimelineRenderer renderer;
        renderer.setCaching(false);
        renderer.paint(&p, rect, s, t, nullptr, axis, o);
    }
    return device.texts();
}

bool inside(const LaneText &t)
{
    return t.text.rect.left() >= t.laneRect.left() - 0.5 &&
           t.text.rect.right() <= t.laneRect.right() + 0.5;
}

QString describe(const LaneText &t)
{
    return QStringLiteral("'%1' in the %2 lane spans x %3..%4, the lane %5..%6")
        .arg(t.text.text, t.lane)
        .arg(t.text.rect.left())
        .arg(t.text.rect.right())
        .arg(t.laneRect.left())
        .arg(t.laneRect.right());
}

} // namespace

class TestLabelBounds : public QObject
{
    Q_OBJECT

private slots:
    // Tokens read in their source's own form on the timeline: etcd's revisions ("rev 2", the
    // create_revision of A's key: revision 1 + the key's creation), and a counter as before.
    void tokensReadInTheSourcesForm()
    {
        const Core::LoadResult loaded = Core::ScenarioFile::load(
            QStringLiteral(FENCESCOPE_TESTDATA "/tokens/etcd-restore-wait.json"));
        QVERIFY2(loaded.scenario, qPrintable(loaded.error));
        const auto textsOf = [](const Core::Scenario &s) {
            TimelineLayout l;
            QStringList texts;
            for (const DrawnText &d : paintFitted(s, Core::simulate(s, s.fencing), 1600, l))
                texts << d.text;
            return texts;
        };
        const QStringList etcd = textsOf(*loaded.scenario);
        for (const char *want : {"acquire → rev 2", "rev 2", "A holds · rev 2", "accepted, rev 4",
                                 "write 'b7' with rev 4", "last token: rev 4"})
            QVERIFY2(etcd.contains(QString::fromUtf8(want)),
                     qPrintable(QStringLiteral("no '%1' in: %2")
                                    .arg(QString::fromUtf8(want), etcd.join(QStringLiteral(" | ")))));
        QVERIFY(!etcd.contains(QStringLiteral("token counter: 4")));
        Core::Scenario counter = *loaded.scenario;
        counter.tokens = Core::TokenSource::Counter;
        counter.lock = Core::LockOptions{};
        const QStringList plain = textsOf(counter);
        QVERIFY(plain.contains(QString::fromUtf8("acquire → token 1")));
        QVERIFY(plain.contains(QStringLiteral("A holds · token 1")));
        QVERIFY(plain.filter(QStringLiteral("token counter: ")).size() == 1);
    }

    // Every write of every built-in scenario is named on its client's lane in a fitted picture
    // (at least by its value), also where two writes a few ticks apart crowd both label rows:
    // in `le-locks-out-holder` write A1 (t=2) sits between the grant's label and A2's.
    void everyWriteIsNamed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("width");
        for (const QString &name : QDir(QStringLiteral(":/scenarios")).entryList())
            for (int width : {1000, 1600}) {
                const QString base = QFileInfo(name).completeBaseName();
                QTest::newRow(qPrintable(QStringLiteral("%1 at %2").arg(base).arg(width)))
                    << base << width;
            }
    }
    void everyWriteIsNamed()
    {
        QFETCH(QString, name);
        QFETCH(int, width);
        const Core::LoadResult loaded =
            Core::ScenarioFile::load(QStringLiteral(":/scenarios/%1.json").arg(name));
        QVERIFY(loaded.scenario);
        const Core::Scenario &s = *loaded.scenario;
        const Core::Trace t = Core::simulate(s, s.fencing);
        TimelineLayout l;
        const std::vector<DrawnText> texts = paintFitted(s, t, width, l);
        for (const Core::Write &w : t.writes) {
            const QRectF lane = l.panels.front().clients[w.client].lane;
            const QString value = QStringLiteral("'%1'").arg(Core::writeValue(s, w));
            bool named = false;
            for (const DrawnText &d : texts)
                named = named || (lane.contains(d.rect.center()) && d.text.contains(value));
            QVERIFY2(named, qPrintable(QStringLiteral("write %1 of %2 at t=%3 has no label")
                                           .arg(value, s.clients[w.client].name)
                                           .arg(w.sentAt)));
        }
    }

    void corruptionAtTheRightEdge_data()
    {
        QTest::addColumn<double>("pixelsPerTick");
        QTest::addColumn<double>("lastTick"); // the tick at the plot's right edge
        for (const double ppt : {12.0, 25.0, 50.0}) {
            for (const double last : {30.2, 30.5, 30.8, 31.0, 31.5, 32.0, 33.5, 36.0}) {
                const QByteArray name = QByteArray::number(ppt) +
                                        " px/tick, right edge at t=" + QByteArray::number(last);
                QTest::newRow(name.constData()) << ppt << last;
            }
        }
    }

    // A's stale write at t=30, rejected on top and CORRUPTED below, at or near the right edge.
    void corruptionAtTheRightEdge()
    {
        QFETCH(double, pixelsPerTick);
        QFETCH(double, lastTick);
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Core::Trace fenced = Core::simulate(s, true);
        const Core::Trace unfenced = Core::simulate(s, false);
        QCOMPARE(unfenced.summary.corrupted, 1u);
        const Core::Tick stale = 30;

        TimelineLayout l;
        TimeAxis axis;
        const std::vector<LaneText> texts =
            paintCompared(s, fenced, unfenced, pixelsPerTick, lastTick, l, axis);
        QCOMPARE(l.panels.size(), std::size_t(2));
        const double x = axis.tickToX(double(stale));
        QVERIFY(x <= l.plot.right());
        int corruptedLabels = 0;
        for (const LaneText &t : texts) {
            QVERIFY2(inside(t), qPrintable(describe(t)));
            if (t.panel->bottom &&
                t.panel->storages.front().outcomes.contains(t.text.rect.center()) &&
                t.text.text.startsWith(QLatin1String("CORRUPTED"))) {
                // beside the glyph (on whichever side there is room), not over it
                QVERIFY2(t.text.rect.left() > x || t.text.rect.right() < x,
                         qPrintable(describe(t)));
                ++corruptedLabels;
            }
        }
        // the corruption is still told in words (at 12 px/tick B's "accepted, token 2" label at
        // t=13 gives up the room left of the glyph: see corruptionLabelWins)
        QCOMPARE(corruptedLabels, 1);
    }

    // The corruption's label outranks every other outcome label in its lane: B's accepted
    // write at t=13 gives up its room (shortened or dropped) rather than leave A's corrupting
    // write at t=30 a bare glyph. The default scenario compared, at the zooms of a smaller
    // window, scrolled so that the corruption crosses the whole plot: wherever its glyph is
    // visible with room for its label on one side of it, the CORRUPTED label is drawn, beside the
    // glyph, and no two labels of the lane overlap.
    void corruptionLabelWins()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Core::Trace fenced = Core::simulate(s, true);
        const Core::Trace unfenced = Core::simulate(s, false);
        QCOMPARE(unfenced.summary.corrupted, 1u);
        QCOMPARE(unfenced.storageWrites.size(), std::size_t(1));
        std::vector<double> arrivals; // ticks of every glyph in the unfenced storage lane
        for (const std::uint32_t w : unfenced.storageWrites.front())
            arrivals.push_back(double(unfenced.writes[w].arrivedAt));
        QCOMPARE(arrivals, (std::vector<double>{13, 30}));
        const double corrupt = 30;

        const auto storageTexts = [&](double ppt, double last, TimelineLayout &l, TimeAxis &axis) {
            std::vector<LaneText> texts;
            for (const LaneText &t : paintCompared(s, fenced, unfenced, ppt, last, l, axis))
                if (t.panel->bottom &&
                    t.panel->storages.front().outcomes.contains(t.text.rect.center()))
                    texts.push_back(t);
            return texts;
        };
        // What the label needs: the width of its first text as drawn with ample room (the full
        // label starts 'CORRUPTED "A"', wider than the short form "CORRUPTED"), its box padding
        // (10) and on each side a glyph's clearance (radius 6 + 4), plus a few pixels to spare.
        double need = 0;
        {
            TimelineLayout l;
            TimeAxis axis;
            for (const LaneText &t : storageTexts(50, 40, l, axis))
                if (t.text.text.startsWith(QLatin1String("CORRUPTED")))
                    need = t.text.rect.width() + 10 + 2 * 10 + 4;
            QVERIFY(need > 30);
        }

        int checked = 0;
        for (const double ppt : {10.0, 12.0, 14.0}) {
            TimelineLayout l;
            TimeAxis axis;
            paintCompared(s, fenced, unfenced, ppt, 0, l, axis);
            const double visibleTicks = l.plot.width() / ppt;
            for (double last = corrupt - 1; last <= corrupt + visibleTicks + 1; last += 0.25) {
                const std::vector<LaneText> texts = storageTexts(ppt, last, l, axis);
                const QString where =
                    QStringLiteral("%1 px/tick, right edge at t=%2: ").arg(ppt).arg(last);
                const double x = axis.tickToX(corrupt);
                // the free stretch on each side of the glyph: to the plot's edge or the
                // neighbouring glyph, whichever is nearer
                double leftEnd = l.plot.left();
                double rightEnd = l.plot.right();
                for (const double a : arrivals) {
                    const double ax = axis.tickToX(a);
                    if (a < corrupt && ax > leftEnd)
                        leftEnd = ax;
                    if (a > corrupt && ax < rightEnd)
                        rightEnd = ax;
                }
                const bool visible = x >= l.plot.left() && x <= l.plot.right();
                const bool room = x - leftEnd >= need || rightEnd - x >= need;
                int told = 0;
                for (const LaneText &t : texts) {
                    QVERIFY2(inside(t), qPrintable(where + describe(t)));
                    if (!t.text.text.startsWith(QLatin1String("CORRUPTED")))
                        continue;
                    QVERIFY2(t.text.rect.left() > x || t.text.rect.right() < x,
                             qPrintable(where + describe(t)));
                    ++told;
                }
                if (visible && room) {
                    QVERIFY2(told == 1,
                             qPrintable(where + QStringLiteral("the corruption at x=%1 (room "
                                                               "%2 px left, %3 px right, %4 "
                                                               "needed) is not told in words")
                                                    .arg(x)
                                                    .arg(x - leftEnd)
                                                    .arg(rightEnd - x)
                                                    .arg(need)));
                    ++checked;
                }
                // the labels of the lane never run into each other (the texts of one label
                // touch: a label is its texts from the first to the last)
                for (std::size_t a = 0; a < texts.size(); ++a) {
                    for (std::size_t b = a + 1; b < texts.size(); ++b) {
                        const QRectF &ra = texts[a].text.rect;
                        const QRectF &rb = texts[b].text.rect;
                        const bool sameLabel = std::abs(ra.right() - rb.left()) < 1.5 ||
                                               std::abs(rb.right() - ra.left()) < 1.5;
                        QVERIFY2(sameLabel || ra.right() <= rb.left() || rb.right() <= ra.left(),
                                 qPrintable(where + describe(texts[a]) + QStringLiteral(" / ") +
                                            describe(texts[b])));
                    }
                }
            }
        }
        // most positions have room on one side; the sweep is not vacuous
        QVERIFY(checked > 300);
    }

    // Every built-in scenario scrolled tick by tick past the right edge at a few zoom levels:
    // no label in any lane (values, lease and lock bars, "expires", max_token steps, outcomes,
    // markers) reaches past either edge of the plot. Under FENCESCOPE_QUICK=1 (the sanitizer
    // suite, scripts/sanitize.sh) every third step of 0.4 ticks: still every fifth of a tick.
    void builtinScenariosScrolled()
    {
        const double step = qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 1.2 : 0.4;
        for (const QString &name : Core::ScenarioFile::builtinNames()) {
            const Core::LoadResult loaded =
                Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
            QVERIFY2(loaded.ok(), qPrintable(loaded.error));
            const Core::Scenario &s = *loaded.scenario;
            const Core::Trace fenced = Core::simulate(s, true);
            const Core::Trace unfenced = Core::simulate(s, false);
            const double end = TimelineRenderer::fitTo(fenced) + 2;
            for (const double ppt : {6.0, 12.0, 25.0, 50.0}) {
                for (double last = 2; last <= end; last += step) {
                    TimelineLayout l;
                    TimeAxis axis;
                    for (const LaneText &t : paintCompared(s, fenced, unfenced, ppt, last, l, axis))
                        QVERIFY2(inside(t),
                                 qPrintable(QStringLiteral("%1, %2 px/tick, right edge at t=%3: %4")
                                                .arg(name)
                                                .arg(ppt)
                                                .arg(last)
                                                .arg(describe(t))));
                }
            }
        }
    }

    // The playhead's "t=N" badge on the ruler stays whole at the plot's edges (it slides
    // inwards), and is measured in the bold font it is drawn in; scrolled past, it is not drawn.
    void playheadBadgeStaysWhole()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Core::Trace t = Core::simulate(s, true);
        TimelineRenderer::Options o;
        const QSize size(900, int(std::ceil(TimelineRenderer::preferredSize(s, o, 900).height())));
        const QRectF rect(QPointF(0, 0), QSizeF(size));
        const TimelineLayout l = TimelineRenderer::layout(s, o, rect);
        int drawn = 0;
        for (const double firstTick : {-0.2, 0.0, 0.3, 2.0, 9.7, 10.0}) {
            for (const Core::Tick playhead :
                 {Core::Tick(0), Core::Tick(1), Core::Tick(10), Core::Tick(30), Core::Tick(40)}) {
                TimeAxis axis;
                axis.left = l.plot.left();
                axis.pixelsPerTick = 25;
                axis.firstTick = firstTick;
                o.playhead = playhead;
                TextDevice device(size);
                {
                    QPainter p(&device);
                    TimelineRenderer renderer;
                    renderer.setCaching(false);
                    renderer.paint(&p, rect, s, t, nullptr, axis, o);
                }
                const QString badge = QStringLiteral("t=%1").arg(playhead);
                const double x = axis.tickToX(double(playhead));
                bool found = false;
                for (const DrawnText &d : device.texts()) {
                    if (d.text != badge || d.rect.center().y() > l.ruler.bottom())
                        continue;
                    found = true;
                    const QString where =
                        QStringLiteral("playhead %1, first tick %2: x %3..%4, plot %5..%6")
                            .arg(playhead)
                            .arg(firstTick)
                            .arg(d.rect.left())
                            .arg(d.rect.right())
                            .arg(l.plot.left())
                            .arg(l.plot.right());
                    QVERIFY2(d.rect.left() >= l.plot.left() && d.rect.right() <= l.plot.right(),
                             qPrintable(where));
                }
                const bool visible = x >= l.plot.left() && x <= l.plot.right();
                QVERIFY2(
                    found == visible,
                    qPrintable(
                        QStringLiteral("playhead %1, first tick %2").arg(playhead).arg(firstTick)));
                drawn += found;
            }
        }
        QVERIFY(drawn > 10);
    }

    // The compare panels' title bars name the side and count the outcomes. On a narrow picture
    // (a slide column, a small window) the title gets shorter first, then the counts, down to
    // the corrupted count: the two never run into each other and stay inside the bar.
    void panelTitlesFitTheirCounts()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Core::Trace fenced = Core::simulate(s, true);
        const Core::Trace unfenced = Core::simulate(s, false);
        TimelineRenderer::Options o;
        o.compare = true;
        int shortened = 0;
        for (int width = 420; width <= 1400; width += 20) {
            const QSize size(width,
                             int(std::ceil(TimelineRenderer::preferredSize(s, o, width).height())));
            const QRectF rect(QPointF(0, 0), QSizeF(size));
            const TimelineLayout l = TimelineRenderer::layout(s, o, rect);
            TimeAxis axis;
            axis.left = l.plot.left();
            axis.pixelsPerTick = l.plot.width() / 32;
            axis.firstTick = 0;
            TextDevice device(size);
            {
                QPainter p(&device);
                TimelineRenderer renderer;
                renderer.setCaching(false);
                renderer.paint(&p, rect, s, fenced, &unfenced, axis, o);
            }
            for (const TimelinePanel &panel : l.panels) {
                std::vector<DrawnText> inBar;
                for (const DrawnText &t : device.texts())
                    if (panel.title.contains(t.rect.center()))
                        inBar.push_back(t);
                const QString where = QStringLiteral("%1 px, %2 panel")
                                          .arg(width)
                                          .arg(panel.bottom ? "unfenced" : "fenced");
                QVERIFY2(inBar.size() == 2, qPrintable(where));
                const DrawnText &title = inBar[0], &counts = inBar[1];
                QVERIFY2(title.text.startsWith(panel.bottom ? "Fencing OFF" : "Fencing ON"),
                         qPrintable(where + ": " + title.text));
                QVERIFY2(counts.text.contains(QStringLiteral("corrupted")),
                         qPrintable(where + ": " + counts.text));
                QVERIFY2(title.rect.right() + 8 <= counts.rect.left(),
                         qPrintable(QStringLiteral("%1: '%2' ends at %3, '%4' starts at %5")
                                        .arg(where, title.text)
                                        .arg(title.rect.right())
                                        .arg(counts.text)
                                        .arg(counts.rect.left())));
                QVERIFY2(title.rect.left() >= panel.title.left() &&
                             counts.rect.right() <= panel.title.right(),
                         qPrintable(where));
                shortened += title.text.size() <= 11;
                if (width >= 1200) // room for everything: nothing shortened
                    QVERIFY2(counts.text.contains(QStringLiteral("locked out")) &&
                                 title.text.size() > 11,
                             qPrintable(where));
            }
        }
        QVERIFY(shortened > 0); // the narrow end of the sweep was narrow enough to matter
    }
};

QTEST_MAIN(TestLabelBounds)
#include "tst_labelbounds.moc"
