// One answer, asked everywhere: for every preset and for 1,000 seeded random schedules with the
// pitfalls mixed in, at every tick of the run, the Story's statements, the token chart's step
// lines and the timeline's storage rows say what core says (core/runstate.h). Core's answer is
// itself checked against a reference worked out here from the storage rule alone (docs/SCENARIO.md
// section 6 and 12: an applied, checked write sets max_token to its token, a bypass write
// leaves it, a volatile restart forgets it; a version is the count of applied writes).

#include "document/document.h"
#include "timelinerenderer.h"
#include "views/narrationpanel.h"
#include "views/tokenchart.h"
#include "viewstate.h"

#include "presetfile.h"
#include "randomscenario.h"
#include "recordingdevice.h"

#include "runstate.h"
#include "scenariofile.h"
#include "simulator.h"
#include "tokensource.h"

#include <QDir>
#include <QLineSeries>
#include <QPainter>
#include <QTest>

using namespace Core;

// (the message of a QVERIFY2 is made whether or not it fails: it must be safe to make)
#define AGREE(cond, message) QVERIFY2(cond, (message).constData())

namespace {

// The level of storage `st` at the end of every tick [0, end), worked out from the writes'
// outcomes and the restarts, not from the level fields core reads (Write::maxToken,
// WriteVersion::version).
std::vector<std::uint64_t> referenceLevels(const Scenario &s, const Trace &t, std::uint32_t st,
                                           StorageGauge gauge, Tick end)
{
    std::vector<std::uint64_t> out(std::size_t(end), 0);
    std::uint64_t level = 0;
    std::size_t next = 0;
    const std::vector<std::uint32_t> &arrived = t.storageWrites[st];
    for (Tick tick = 0; tick < end; ++tick) {
        // a restart of a volatile storage forgets max_token first, then the tick's arrivals
        if (gauge == StorageGauge::MaxToken && !s.storages[st].durable)
            for (const Tick r : s.storages[st].restarts)
                if (r == tick)
                    level = 0;
        for (; next < arrived.size() && t.writes[arrived[next]].arrivedAt == tick; ++next) {
            const Write &w = t.writes[arrived[next]];
            if (!w.applied)
                continue;
            switch (gauge) {
            case StorageGauge::MaxToken:
                // an unfenced path does not raise it; fencing off checks nothing
                if (t.fencing && !s.clients[w.client].bypass)
                    level = t.tokenOf(w);
                break;
            case StorageGauge::Version:
                ++level;
                break;
            case StorageGauge::StoredToken:
                level = t.tokenOf(w);
                break;
            }
        }
        out[std::size_t(tick)] = level;
    }
    return out;
}

// The y of a step line (points in time order, two at each step) at tick `x`: the last point at
// or before it.
double lineAt(const QList<QPointF> &pts, double x, double slack)
{
    double y = pts.isEmpty() ? 0 : pts.front().y();
    for (const QPointF &p : pts)
        if (p.x() <= x + slack)
            y = p.y();
    return y;
}

} // namespace

class TestRunStateAgreement : public QObject
{
    Q_OBJECT

    Document *m_doc = nullptr;
    ViewState *m_state = nullptr;
    NarrationPanel *m_story = nullptr;
    TokenChart *m_chart = nullptr;
    std::unique_ptr<QWidget> m_host;
    int m_ticksChecked = 0;
    int m_zombieTicks = 0;   // ticks at which a client was a zombie (the test saw some)
    int m_believerTicks = 0; // ticks at which a client believed past its lease, not a zombie
    int m_restartDrops = 0;  // ticks at which a restart had made the level fall

    // Everything agrees for the scenario `s` (named `name` in failures).
    void check(const QString &name, const Scenario &s)
    {
        m_state->clearPlayhead();
        m_doc->reset(s);
        QTRY_VERIFY(m_doc->trace().complete());
        QCoreApplication::processEvents();
        const Trace &t = m_doc->trace();
        const Tick end = runEnd(t);
        QVERIFY(end < 100000);
        const auto failure = [&](Tick tick, const QString &what) {
            return QStringLiteral("%1 at t=%2: %3").arg(name).arg(tick).arg(what).toLocal8Bit();
        };

        // The timeline's storage rows as painted (the step line of each), the whole run in view.
        TimelineRenderer renderer;
        renderer.setCaching(false);
        const TimelineRenderer::Options o;
        const QRectF rect(QPointF(0, 0), TimelineRenderer::preferredSize(s, o, 1200));
        const TimelineLayout layout = TimelineRenderer::layout(s, o, rect);
        TimeAxis axis;
        axis.left = layout.plot.left() + TimelineRenderer::plotInset(o);
        axis.firstTick = 0;
        axis.pixelsPerTick = std::min(20.0, (layout.plot.right() - axis.left - 10) / double(end));
        RecordingDevice device(rect.size().toSize());
        {
            QPainter p(&device);
            renderer.paint(&p, rect, s, t, nullptr, axis, o);
        }

        for (std::uint32_t st = 0; st < s.storages.size(); ++st) {
            const StorageGauge gauge = comparedGauge(s, t, st);
            const StorageLevel level(s, t, st);
            const std::vector<std::uint64_t> ref = referenceLevels(s, t, st, gauge, end);
            const std::vector<StorageLevel::Step> steps = level.steps();
            std::uint64_t top = 1;
            for (const std::uint64_t v : ref)
                top = std::max(top, v);
            QCOMPARE(std::max<std::uint64_t>(1, level.highest()), top);

            // the storage row's step line: the polygon painted inside its max_token row
            const QRectF row = layout.panels.front().storages[st].maxToken.adjusted(0, 4, 0, -4);
            QPolygonF drawn;
            for (const QPolygonF &poly : device.polygons) {
                const bool inside = std::all_of(poly.begin(), poly.end(), [&](const QPointF &p) {
                    return p.y() >= row.top() - 0.5 && p.y() <= row.bottom() + 0.5 &&
                           p.x() >= layout.plot.left() - 50;
                });
                if (inside && poly.size() >= 2)
                    drawn += poly; // (a crowded line comes in pieces, in order)
            }
            AGREE(drawn.size() >= 2,
                  failure(0, QStringLiteral("no step line on %1's row").arg(s.storages[st].name)));
            const QList<QPointF> drawnPts(drawn.begin(), drawn.end());

            // the chart's step line: the scenario's own run; none for a version storage
            QLineSeries *series = m_chart->storageSeries(int(st));
            QVERIFY(series);
            const StorageGauge chartGauge =
                t.fencing ? StorageGauge::MaxToken : StorageGauge::StoredToken;
            const std::vector<std::uint64_t> chartRef =
                gauge == StorageGauge::Version ? std::vector<std::uint64_t>{}
                                               : referenceLevels(s, t, st, chartGauge, end);
            if (gauge == StorageGauge::Version) {
                QCOMPARE(series->count(), 0);
            } else {
                QCOMPARE(series->points().back().x(), double(end)); // to the end of the run
            }

            std::size_t step = 0;
            for (Tick tick = 0; tick < end; ++tick) {
                const std::uint64_t want = ref[std::size_t(tick)];
                if (tick > 0 && want < ref[std::size_t(tick - 1)] &&
                    gauge == StorageGauge::MaxToken && t.fencing)
                    ++m_restartDrops;
                // core: at a tick, as steps, and the storage state
                AGREE(level.at(tick) == want,
                      failure(tick, QStringLiteral("%1: core says %2, the rule %3")
                                        .arg(s.storages[st].name)
                                        .arg(level.at(tick))
                                        .arg(want)));
                while (step + 1 < steps.size() && steps[step + 1].at <= tick)
                    ++step;
                QCOMPARE(steps[step].level, want);
                if (gauge == StorageGauge::MaxToken)
                    QCOMPARE(storageStateAt(s, t, st, tick).maxToken, Token(want));
                // the timeline's row
                const double y = lineAt(drawnPts, axis.tickToX(double(tick)), 0.01);
                const double wantY = row.bottom() - row.height() * double(want) / double(top);
                AGREE(std::abs(y - wantY) < 0.01,
                      failure(tick,
                              QStringLiteral("%1's row is drawn at y %2, core's level %3 is at %4")
                                  .arg(s.storages[st].name)
                                  .arg(y)
                                  .arg(want)
                                  .arg(wantY)));
                // the chart
                if (gauge != StorageGauge::Version) {
                    const double c = lineAt(series->points(), double(tick), 0);
                    AGREE(c == double(chartRef[std::size_t(tick)]),
                          failure(tick, QStringLiteral("%1's chart line is at %2, core says %3")
                                            .arg(s.storages[st].name)
                                            .arg(c)
                                            .arg(chartRef[std::size_t(tick)])));
                }
            }
        }

        // The Story at each tick: the lock, each client, each storage, as core has them.
        for (Tick tick = 0; tick < end; ++tick) {
            m_state->setPlayhead(tick);
            const QString story = m_story->stateText();
            const QStringList lines = story.split(QLatin1Char('\n'));
            ++m_ticksChecked;
            const Lease *holder = t.leaseAt(tick);
            if (holder)
                AGREE(lines.front().contains(QStringLiteral("held by %1 with token %2")
                                                 .arg(s.clients[holder->client].name,
                                                      formatToken(t.tokens, holder->token))),
                      failure(tick, story));
            else
                AGREE(lines.front().startsWith(QStringLiteral("Lock: free")), failure(tick, story));
            for (std::uint32_t c = 0; c < s.clients.size(); ++c) {
                const QString who = s.clients[c].name + QLatin1Char(' ');
                const auto line = std::find_if(lines.begin() + 1, lines.end(),
                                               [&](const QString &l) { return l.startsWith(who); });
                const QString said = line == lines.end() ? QString() : *line;
                // the belief covering the tick, by a plain scan
                const Belief *b = nullptr;
                for (const Belief &x : t.beliefs[c])
                    if (x.from <= tick && tick < x.to)
                        b = &x;
                const bool zombie = t.zombieBeliefAt(c, tick) != nullptr;
                if (b && b->epoch > 0) {
                    AGREE(line != lines.end(),
                          failure(tick, who + QStringLiteral("missing: ") + story));
                    const Lease &l = t.leases[b->epoch - 1];
                    const QString held = formatToken(t.tokens, l.token);
                    if (holder == &l) {
                        AGREE(said.startsWith(
                                  who + QStringLiteral("holds the lock (token %1)").arg(held)),
                              failure(tick, said));
                    } else {
                        AGREE(said.contains(QStringLiteral("believes it holds token %1").arg(held)),
                              failure(tick, said));
                        (zombie ? m_zombieTicks : m_believerTicks)++;
                    }
                    AGREE(said.contains(QStringLiteral("zombie")) == zombie,
                          failure(tick, QStringLiteral("core says zombie: %1; the story: %2")
                                            .arg(zombie)
                                            .arg(said)));
                } else {
                    AGREE(line == lines.end() || !said.contains(QStringLiteral("believes")),
                          failure(tick, said));
                }
                const Freeze *f = nullptr;
                for (const Freeze &z : t.freezes[c])
                    if (z.from <= tick && tick < z.to)
                        f = &z;
                if (f)
                    AGREE(line != lines.end() &&
                              said.endsWith(QStringLiteral("frozen until t=%1").arg(f->to)),
                          failure(tick, story));
            }
            for (std::uint32_t st = 0; st < s.storages.size(); ++st) {
                const QString head = QStringLiteral("Storage %1: ").arg(s.storages[st].name);
                const auto line = std::find_if(lines.begin(), lines.end(), [&](const QString &l) {
                    return l.startsWith(head);
                });
                const QString said = line == lines.end() ? QString() : *line;
                AGREE(line != lines.end(), failure(tick, story));
                const StorageGauge gauge = comparedGauge(s, t, st);
                const std::uint64_t want = referenceLevels(s, t, st, gauge, tick + 1).back();
                if (gauge == StorageGauge::Version)
                    AGREE(said.contains(QStringLiteral(", version %1 ").arg(want)),
                          failure(tick, said));
                else if (t.fencing)
                    AGREE(said.endsWith(
                              QStringLiteral(", max_token %1").arg(formatToken(t.tokens, want))),
                          failure(tick, said));
                else
                    AGREE(said.endsWith(QStringLiteral("(fencing off: no max_token)")),
                          failure(tick, said));
            }
        }
    }

private slots:
    void initTestCase()
    {
        m_host = std::make_unique<QWidget>();
        m_doc = new Document(m_host.get());
        m_state = new ViewState(m_host.get());
        m_story = new NarrationPanel(m_doc, m_state, m_host.get());
        m_chart = new TokenChart(m_doc, m_state, m_host.get());
    }

    void everyPreset()
    {
        const QStringList names =
            QDir(QStringLiteral(":/scenarios")).entryList({QStringLiteral("*.json")});
        QVERIFY(names.size() >= 27);
        for (const QString &file : names) {
            const LoadResult r = ScenarioFile::load(QStringLiteral(":/scenarios/") + file);
            QVERIFY2(r.ok(), qPrintable(r.error));
            check(file, *r.scenario);
            if (QTest::currentTestFailed())
                return;
            Scenario other = *r.scenario;
            other.fencing = !other.fencing; // and the other way round
            check(file + QStringLiteral(" (fencing switched)"), other);
            if (QTest::currentTestFailed())
                return;
        }
        // the presets have zombies, believers past their lease that send nothing, and a
        // volatile max_token forgotten: the checks above met each
        QVERIFY(m_zombieTicks > 0);
        QVERIFY(m_believerTicks > 0);
        QVERIFY(m_restartDrops > 0);
    }

    void thousandRandomSchedulesWithPitfalls()
    {
        TestSupport::PitfallOptions pitfalls;
        pitfalls.keepalivePercent = 20;
        pitfalls.checkPercent = 20;
        pitfalls.clockPercent = 20;
        pitfalls.versionPercent = 25;
        pitfalls.readPercent = 10;
        pitfalls.groupPercent = 10;
        pitfalls.bypassPercent = 15;
        pitfalls.volatilePercent = 40;
        const int before = m_ticksChecked;
        for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
            TestSupport::RandomScenarioOptions o;
            o.maxActions = 8;
            o.fencing = seed % 5 != 0; // every fifth unfenced
            Scenario s = TestSupport::randomScenario(seed, o);
            TestSupport::addPitfalls(s, seed, pitfalls, o.span);
            check(QStringLiteral("seed %1").arg(seed), s);
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY(m_ticksChecked - before > 20000);
    }
};

QTEST_MAIN(TestRunStateAgreement)
#include "tst_runstateagreement.moc"
