// Sweeps (core/sweep.h): the Wilson interval against values worked out by hand, numbers that
// do not depend on the thread count or on a cancel and resume, the pause length where the
// seed's scenario starts to corrupt data worked out by hand, and fenced schedules that never
// corrupt anything.

#include "scenariofile.h"
#include "schedulegen.h"
#include "simulator.h"
#include "sweep.h"

#include <QTest>

using namespace Core;

namespace {

std::vector<Tick> range(Tick from, Tick to, Tick step = 1)
{
    std::vector<Tick> v;
    for (Tick t = from; t <= to; t += step)
        v.push_back(t);
    return v;
}

SweepSpec randomSweep(std::uint32_t runs, std::uint64_t seed)
{
    SweepSpec spec;
    spec.scenario = ScenarioFile::defaultScenario();
    spec.vary = {findQuantity(QStringLiteral("pause")), range(1, 40, 3)};
    spec.vary2 = {findQuantity(QStringLiteral("ttl")), {5, 10, 20}};
    spec.runs = runs;
    spec.seed = seed;
    return spec;
}

SweepResult sweep(const SweepSpec &spec, int threads)
{
    SweepResult r;
    const bool complete = runSweep(spec, &r, threads);
    if (!complete)
        qFatal("sweep did not complete");
    return r;
}

} // namespace

class tst_Sweep : public QObject
{
    Q_OBJECT

private slots:
    void wilson_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        // z = 1.96, z^2 = 3.8416. 0/10: d = 1 + 0.38416, centre = 0.19208 / d = 0.138770,
        // half = 1.96 / d * sqrt(3.8416 / 400) = 1.416021 * 0.098 = 0.138770.
        QTest::newRow("0/10") << 0 << 10 << 0.0 << 0.277540;
        // 5/10: centre 0.5, half = 1.416021 * sqrt(0.025 + 0.009604) = 0.263410.
        QTest::newRow("5/10") << 5 << 10 << 0.236590 << 0.763410;
        QTest::newRow("10/10") << 10 << 10 << 0.722460 << 1.0;
        // 1/20: d = 1.19208, centre = (0.05 + 0.09604) / d = 0.122509,
        // half = 1.644185 * sqrt(0.002375 + 0.002401) = 0.113627.
        QTest::newRow("1/20") << 1 << 20 << 0.008882 << 0.236136;
        QTest::newRow("none") << 0 << 0 << 0.0 << 1.0;
    }
    void wilson()
    {
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(double, low);
        QFETCH(double, high);
        const Interval i = wilsonInterval(std::uint64_t(k), std::uint64_t(n));
        QVERIFY2(std::abs(i.low - low) < 2e-6, qPrintable(QString::number(i.low, 'f', 7)));
        QVERIFY2(std::abs(i.high - high) < 2e-6, qPrintable(QString::number(i.high, 'f', 7)));
    }

    void quantityTable()
    {
        QCOMPARE(quantityNames(),
                 QStringList({QStringLiteral("pause"), QStringLiteral("ttl"),
                              QStringLiteral("delay"), QStringLiteral("clients")}));
        Scenario s = ScenarioFile::defaultScenario();
        findQuantity(QStringLiteral("pause"))->apply(s, 7);
        QCOMPARE(s.clients[0].actions[1].length(), Tick(7));
        findQuantity(QStringLiteral("ttl"))->apply(s, 3);
        QCOMPARE(s.clients[0].actions[0].ttl(), Tick(3));
        QCOMPARE(s.clients[1].actions[1].ttl(), Tick(3));
        findQuantity(QStringLiteral("delay"))->apply(s, 4);
        QCOMPARE(s.clients[0].actions[2].delay(), Tick(4));
        QCOMPARE(s.clients[1].actions[2].delay(), Tick(4));
        findQuantity(QStringLiteral("clients"))->apply(s, 5);
        QCOMPARE(s.clients.size(), std::size_t(5));
        QCOMPARE(s.clients[2].name, QStringLiteral("A2"));
        QCOMPARE(s.clients[3].name, QStringLiteral("B2"));
        QCOMPARE(s.clients[4].name, QStringLiteral("A3"));
        QCOMPARE(s.clients[4].actions, s.clients[0].actions);
        findQuantity(QStringLiteral("clients"))->apply(s, 1);
        QCOMPARE(s.clients.size(), std::size_t(1));
        QCOMPARE(findQuantity(QStringLiteral("keepalive")), nullptr);
    }

    void validation()
    {
        SweepSpec spec = randomSweep(10, 1);
        QCOMPARE(validate(spec), QString());
        spec.vary.values = {0, 5};
        QCOMPARE(validate(spec), QStringLiteral("pause: 0 is outside 1..1000000"));
        spec.vary.values = {};
        QCOMPARE(validate(spec), QStringLiteral("pause: no values"));
        spec = randomSweep(10, 1);
        spec.vary2.quantity = spec.vary.quantity;
        QCOMPARE(validate(spec), QStringLiteral("pause is varied twice"));
        spec = randomSweep(0, 1);
        QCOMPARE(validate(spec), QStringLiteral("runs: 0 is outside 1..10000000"));
    }

    // Shaped like the seed's scenario: the same clients, as many actions each, of its kinds.
    void generatorKeepsTheShape()
    {
        const Scenario seed = ScenarioFile::defaultScenario();
        const ScheduleShape shape = shapeOf(seed);
        QCOMPARE(shape.span, Tick(14));
        QCOMPARE(shape.ttl.min, Tick(10));
        QCOMPARE(shape.pause.max, Tick(29));
        for (std::uint64_t run = 0; run < 200; ++run) {
            const Scenario s = generateSchedule(shape, scheduleSeed(7, run));
            QCOMPARE(s, generateSchedule(shape, scheduleSeed(7, run)));
            QCOMPARE(s.clients.size(), std::size_t(2));
            QCOMPARE(s.clients[0].actions.size(), std::size_t(3));
            QCOMPARE(s.clients[1].actions.size(), std::size_t(3));
            for (const Client &c : s.clients) {
                for (std::size_t i = 0; i < c.actions.size(); ++i) {
                    const Action &a = c.actions[i];
                    QVERIFY(a.at < 14);
                    QVERIFY(i == 0 || c.actions[i - 1].at <= a.at);
                    QVERIFY(a.kind != ActionKind::Release); // the seed's scenario has none
                    if (a.kind == ActionKind::Acquire)
                        QCOMPARE(a.ttl(), Tick(10));
                    if (a.kind == ActionKind::Pause) {
                        QCOMPARE(c.name, QStringLiteral("A")); // only A pauses in the seed
                        QCOMPARE(a.length(), Tick(29));
                    }
                    if (a.kind == ActionKind::Write)
                        QCOMPARE(a.delay(), Tick(0));
                }
            }
        }
        QVERIFY(generateSchedule(shape, scheduleSeed(7, 0)) !=
                generateSchedule(shape, scheduleSeed(7, 1)));
    }

    void sameNumbersOnAnyThreadCount()
    {
        const SweepSpec spec = randomSweep(700, 42); // 700: slices of 256 end mid-point
        const SweepResult one = sweep(spec, 1);
        QCOMPARE(one.points.size(), std::size_t(14 * 3));
        QVERIFY(one == sweep(spec, 1));
        QVERIFY(one == sweep(spec, 2));
        QVERIFY(one == sweep(spec, 3));
        // and a different seed gives different schedules
        QVERIFY(!(one == sweep(randomSweep(700, 43), 2)));
        std::uint64_t corrupted = 0;
        for (const PointResult &p : one.points) {
            QVERIFY(p.done);
            QCOMPARE(p.runs, 700u);
            corrupted += p.unfenced[0].schedules;
        }
        QVERIFY(corrupted > 0);
    }

    // The first and worst failing schedule of a point are the ones the sweep counted.
    void firstAndWorstRuns()
    {
        const SweepSpec spec = randomSweep(300, 5);
        const SweepResult r = sweep(spec, 2);
        int checked = 0;
        for (std::size_t p = 0; p < r.points.size(); ++p) {
            const OutcomeStat &stat = r.points[p].unfenced[0];
            if (stat.schedules == 0) {
                QCOMPARE(stat.firstRun, kNone);
                continue;
            }
            std::uint32_t first = kNone;
            std::uint64_t worst = 0;
            std::uint32_t worstRun = kNone;
            std::uint32_t schedules = 0;
            for (std::uint32_t run = 0; run < 300; ++run) {
                const Trace t = simulate(sweepSchedule(spec, p, run), false);
                if (t.summary.corrupted == 0)
                    continue;
                ++schedules;
                first = std::min(first, run);
                if (t.summary.corrupted > worst) {
                    worst = t.summary.corrupted;
                    worstRun = run;
                }
            }
            QCOMPARE(stat.schedules, schedules);
            QCOMPARE(stat.firstRun, first);
            QCOMPARE(stat.worstRun, worstRun);
            QCOMPARE(stat.worstWrites, worst);
            if (++checked == 4)
                break;
        }
        QCOMPARE(checked, 4);
    }

    // SCENARIO.md section 6: with fencing on, rule lt and counter tokens, nothing is corrupted,
    // at any point, whatever the schedule; unfenced, pauses far past the TTL do corrupt.
    void fencedNeverCorrupts()
    {
        SweepSpec spec;
        spec.scenario = ScenarioFile::defaultScenario();
        spec.scenario.clients.push_back(spec.scenario.clients[0]);
        spec.scenario.clients.back().name = QStringLiteral("C");
        spec.vary = {findQuantity(QStringLiteral("pause")), {1, 2, 5, 10, 20, 30, 40}};
        spec.vary2 = {findQuantity(QStringLiteral("delay")), {0, 3, 12}};
        spec.runs = 2000;
        spec.seed = 9;
        const SweepResult r = sweep(spec, 2);
        for (std::size_t p = 0; p < r.points.size(); ++p) {
            QCOMPARE(r.points[p].fenced[0].schedules, 0u);
            QCOMPARE(r.points[p].fenced[0].writes, std::uint64_t(0));
            if (spec.x(p) >= 30)
                QVERIFY2(r.points[p].unfenced[0].schedules > 0, qPrintable(pointLabel(spec, p)));
        }
    }

    // The seed's scenario itself, pause length varied (A: acquire ttl T at 0, pause P at 1, its
    // write due at 2 runs at thaw, 1 + P; B: acquires at 5 and 12, writes at 13).
    // T = 10: A's lease [0, 10); B is refused at 5 and granted epoch 2 at 12. A's write goes out
    // at 1 + P with epoch 1. Up to P = 12 it arrives before B's (at 13 A runs first, lane
    // order): accepted. From P = 13 on it lands after B's epoch-2 write: corrupted unfenced,
    // rejected fenced.
    // T = 5: A's lease [0, 5); B granted epoch 2 at 5 and epoch 3 at 12, writes with 3 at 13:
    // the same threshold, 13.
    // T = 20: A's lease [0, 20) covers both of B's acquires: both refused, B's write at 13 is
    // untagged (epoch 0). Unfenced, when A's epoch-1 write came first (P <= 12), B's untagged
    // write overwrites it: corrupted; from P = 13 on A's write comes last, newer than B's: no
    // corruption. Fenced, B's untagged write is rejected and A's is accepted.
    void pauseThresholdOfTheSeedScenario()
    {
        SweepSpec spec;
        spec.scenario = ScenarioFile::defaultScenario();
        spec.randomSchedules = false;
        spec.vary = {findQuantity(QStringLiteral("pause")), range(1, 40)};
        spec.vary2 = {findQuantity(QStringLiteral("ttl")), {5, 10, 20}};
        const SweepResult r = sweep(spec, 2);
        QCOMPARE(r.points.size(), std::size_t(120));
        for (std::size_t p = 0; p < r.points.size(); ++p) {
            const Tick pause = spec.x(p);
            const Tick ttl = *spec.x2(p);
            const PointResult &point = r.points[p];
            QCOMPARE(point.runs, 1u);
            const bool corrupts = ttl == 20 ? pause <= 12 : pause >= 13;
            QVERIFY2(point.unfenced[0].schedules == (corrupts ? 1u : 0u),
                     qPrintable(pointLabel(spec, p)));
            QCOMPARE(point.fenced[0].schedules, 0u);
            // fenced, the stale write is turned away (T 5, 10: A's from 13 on; T 20: B's)
            const bool rejects = ttl == 20 || pause >= 13;
            QVERIFY2(point.fenced[2].schedules == (rejects ? 1u : 0u),
                     qPrintable(pointLabel(spec, p)));
            QCOMPARE(point.fenced[1].schedules, 0u); // rule lt: the holder is never locked out
        }
        // the scenario of a point is the seed's with its quantities set
        const Scenario at13 = sweepSchedule(spec, 12 + 40, 0); // pause 13, ttl 10
        QCOMPARE(at13.clients[0].actions[1].length(), Tick(13));
        QCOMPARE(at13.clients[1].actions[0].ttl(), Tick(10));
        QCOMPARE(simulate(at13, false).summary.corrupted, std::uint64_t(1));
    }

    void cancelAndResumeGiveTheSameNumbers()
    {
        const SweepSpec spec = [] {
            SweepSpec s = randomSweep(20000, 3);
            s.vary2 = {};
            return s;
        }();
        const SweepResult whole = sweep(spec, 2);

        std::atomic<bool> cancel{false};
        SweepResult part;
        int calls = 0;
        const bool complete = runSweep(spec, &part, 2, &cancel, [&](const SweepProgress &p) {
            QCOMPARE(p.total, std::uint64_t(14) * 20000);
            if (++calls == 1)
                cancel = true; // after about 0.1 s of a sweep that takes seconds
        });
        QVERIFY(!complete);
        QVERIFY(part.donePoints() < part.points.size());
        for (const PointResult &p : part.points) {
            if (p.done)
                QVERIFY(p == whole.points[std::size_t(&p - part.points.data())]);
            else
                QVERIFY(p == PointResult{}); // nothing half counted
        }
        cancel = false;
        const std::uint64_t kept = std::uint64_t(part.donePoints()) * 20000;
        std::uint64_t first = 0;
        QVERIFY(runSweep(spec, &part, 1, &cancel, [&](const SweepProgress &p) {
            if (!first)
                first = p.schedules;
        }));
        QVERIFY(first >= kept); // progress counts the points kept from the first run
        QVERIFY(part == whole);
    }
};

QTEST_GUILESS_MAIN(tst_Sweep)
#include "tst_sweep.moc"
