// Sweeps (core/sweep.h): the Wilson interval against values worked out by hand, numbers that
// do not depend on the thread count or on a cancel and resume, the pause length where the
// seed's scenario starts to corrupt data worked out by hand, and fenced schedules that never
// corrupt anything. The quantities of sections 10-11 (keepalive, gap, clock, lockDelay, bump)
// each on a preset whose threshold is worked out by hand in the comment above its test, and
// random schedules that carry keepalives, checks, groups and reads. (Longer than 600 lines:
// one unit, and every threshold sits next to its derivation.) FENCESCOPE_QUICK=1 (sanitizer
// builds) cuts the schedule counts of the long sweeps to a tenth.

#include "presetfile.h"
#include "scenariofile.h"
#include "schedulegen.h"
#include "simulator.h"
#include "sweep.h"

#include <QDir>
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

// The schedule count of a long sweep: a tenth under FENCESCOPE_QUICK.
std::uint32_t scaled(std::uint32_t runs)
{
    return qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? runs / 10 : runs;
}

SweepSpec randomSweep(std::uint32_t runs, std::uint64_t seed,
                      SweepSchedules schedules = SweepSchedules::Near)
{
    SweepSpec spec;
    spec.scenario = ScenarioFile::defaultScenario();
    spec.schedules = schedules;
    spec.vary = {findQuantity(QStringLiteral("pause")), range(1, 40, 3)};
    spec.vary2 = {findQuantity(QStringLiteral("ttl")), {5, 10, 20}};
    spec.runs = runs;
    spec.seed = seed;
    return spec;
}

using TestSupport::preset;

// The scenario itself, once per value of one quantity.
SweepSpec fixedSweep(const Scenario &s, const char *quantity, std::vector<Tick> values)
{
    SweepSpec spec;
    spec.scenario = s;
    spec.schedules = SweepSchedules::Fixed;
    spec.vary = {findQuantity(QLatin1String(quantity)), std::move(values)};
    return spec;
}

// Per point: 1 when the one schedule of a fixed sweep had outcome `name` on that side.
std::vector<std::uint32_t> curve(const SweepResult &r, const char *name, bool fencing)
{
    std::vector<std::uint32_t> out;
    const int k = outcomeIndex(QLatin1String(name));
    for (const PointResult &p : r.points)
        out.push_back(p.side(fencing)[std::size_t(k)].schedules);
    return out;
}

// 1 where `yes(value)`, else 0, for each value.
std::vector<std::uint32_t> expect(const std::vector<Tick> &values, bool (*yes)(Tick))
{
    std::vector<std::uint32_t> out;
    for (Tick v : values)
        out.push_back(yes(v) ? 1u : 0u);
    return out;
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
        QCOMPARE(quantityNames(), QStringList({QStringLiteral("pause"), QStringLiteral("ttl"),
                                               QStringLiteral("delay"), QStringLiteral("clients"),
                                               QStringLiteral("keepalive"), QStringLiteral("gap"),
                                               QStringLiteral("clock"), QStringLiteral("lockDelay"),
                                               QStringLiteral("bump")}));
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
        QCOMPARE(findQuantity(QStringLiteral("keepAlive")), nullptr);
    }

    // The quantities of sections 10 and 11 on one small scenario: each sets what it names and
    // nothing else.
    void pitfallQuantities()
    {
        Scenario s;
        s.tokens = TokenSource::Etcd;
        s.lock.restores = {{20, 1, 0}, {30, 25, 3}};
        Client a;
        a.name = QStringLiteral("A");
        a.clock.steps = {{4, -2}};
        a.actions = {Action::acquire(0, 10), Action::write(1, QStringLiteral("A1")),
                     Action::write(2, QStringLiteral("A2"))};
        a.actions[2].check = true;
        a.actions[2].setGap(1);
        Client b;
        b.name = QStringLiteral("B");
        b.actions = {Action::acquire(5, 10), Action::pause(6, 3)};
        b.actions[0].setKeepalive(3);
        s.clients = {a, b};
        const Scenario before = s;

        findQuantity(QStringLiteral("keepalive"))->apply(s, 4);
        QCOMPARE(s.clients[0].actions[0].keepalive(), Tick(4));
        QCOMPARE(s.clients[1].actions[0].keepalive(), Tick(4));
        QCOMPARE(s.clients[1].actions[1].keepalive(), Tick(0)); // a pause has none
        findQuantity(QStringLiteral("keepalive"))->apply(s, 0); // 0: off
        QCOMPARE(s.clients[1].actions[0].keepalive(), Tick(0));

        findQuantity(QStringLiteral("gap"))->apply(s, 6);
        QCOMPARE(s.clients[0].actions[2].gap(), Tick(6));
        QCOMPARE(s.clients[0].actions[1].gap(), Tick(0)); // not checked: no gap (the loader's rule)

        findQuantity(QStringLiteral("clock"))->apply(s, 1500);
        QCOMPARE(s.clients[0].clock.rateMilli, 1500u);
        QCOMPARE(s.clients[1].clock.rateMilli, 1500u);
        QCOMPARE(s.clients[0].clock.steps, before.clients[0].clock.steps); // steps stay
        // 1500 is the file's "rate": 1.5: local(10) = floor(1.5 * 10) = 15, then the step -2
        QCOMPARE(s.clients[0].clock.local(10), std::int64_t(13));

        findQuantity(QStringLiteral("lockDelay"))->apply(s, 7);
        QCOMPARE(s.lock.lockDelay, Tick(7));

        findQuantity(QStringLiteral("bump"))->apply(s, 9);
        QCOMPARE(s.lock.restores[0].bump, Token(9));
        QCOMPARE(s.lock.restores[1].bump, Token(9));
        QCOMPARE(s.lock.restores[1].from, Tick(25));

        // everything else is as it was
        Scenario back = s;
        back.clients[0].actions[2].setGap(1);
        back.clients[1].actions[0].setKeepalive(3);
        back.clients[0].clock.rateMilli = back.clients[1].clock.rateMilli = 1000;
        back.lock.lockDelay = 0;
        back.lock.restores[0].bump = 0;
        back.lock.restores[1].bump = 3;
        QCOMPARE(back, before);
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

    // A quantity that would change nothing in the scenario is refused, naming it; values
    // outside what the loader accepts too.
    void validationOfPitfallQuantities()
    {
        const auto check = [](const Scenario &s, const char *q, std::vector<Tick> values) {
            SweepSpec spec = fixedSweep(s, q, std::move(values));
            return validate(spec);
        };
        const Scenario seed = ScenarioFile::defaultScenario();
        QCOMPARE(check(seed, "gap", {0, 1}),
                 QStringLiteral("gap: the scenario has no checked write (\"check\": true)"));
        QCOMPARE(check(seed, "clock", {500}),
                 QStringLiteral("clock: the scenario has no checked write (\"check\": true), the "
                                "only thing a client's clock decides"));
        QCOMPARE(check(seed, "bump", {1}),
                 QStringLiteral("bump: the scenario has no lock restore (lock.restores)"));
        QCOMPARE(check(seed, "keepalive", {0, 3}), QString());
        QCOMPARE(check(seed, "lockDelay", {0, 3}), QString());
        Scenario noAcquire = seed;
        for (Client &c : noAcquire.clients)
            c.actions.erase(
                std::remove_if(c.actions.begin(), c.actions.end(),
                               [](const Action &a) { return a.kind == ActionKind::Acquire; }),
                c.actions.end());
        QCOMPARE(check(noAcquire, "keepalive", {3}),
                 QStringLiteral("keepalive: the scenario has no acquire"));
        QCOMPARE(check(noAcquire, "lockDelay", {3}),
                 QStringLiteral("lockDelay: the scenario has no acquire"));
        Scenario kafka = seed;
        kafka.tokens = TokenSource::KafkaEpoch;
        QCOMPARE(check(kafka, "lockDelay", {3}),
                 QStringLiteral("lockDelay: kafka-epoch never refuses an acquire, so a "
                                "lock-delay changes nothing"));
        Scenario random = preset("etcd-restore");
        QCOMPARE(check(random, "bump", {0, 10}), QString());
        random.tokens = TokenSource::Random;
        QCOMPARE(check(random, "bump", {1}),
                 QStringLiteral("bump: lock.tokens random has no counter to bump"));
        // the second axis is checked the same way
        SweepSpec two = fixedSweep(seed, "pause", {1, 2});
        two.vary2 = {findQuantity(QStringLiteral("gap")), {1}};
        QCOMPARE(validate(two),
                 QStringLiteral("gap: the scenario has no checked write (\"check\": true)"));
        // ranges: a clock rate is 0.001 to 100 (1 to 100000 thousandths)
        const Scenario slow = preset("slow-client-clock");
        QCOMPARE(check(slow, "clock", {0}), QStringLiteral("clock: 0 is outside 1..100000"));
        QCOMPARE(check(slow, "clock", {100001}),
                 QStringLiteral("clock: 100001 is outside 1..100000"));
        QCOMPARE(check(slow, "clock", {1, 100000}), QString());
        // keepaliveBound: every acquire (A's and B's two) keeps alive, a run ends by t=30 plus
        // every duration: with ttl 9, 900000 + 27 ticks, 3 x 900057 keepalives every tick, under
        // the loader's 4000000; with ttl 1000000 over 3.9 million ticks, far more. Every 1000
        // ticks is fine.
        Scenario longRun = preset("keepalive-gc-pause");
        longRun.clients[0].actions[1].amount = 900'000; // A's pause: its write runs at thaw
        SweepSpec many = fixedSweep(longRun, "keepalive", {0, 1000, 1});
        many.vary2 = {findQuantity(QStringLiteral("ttl")), {9, 1'000'000}};
        QCOMPARE(validate(many), QStringLiteral("keepalive = 1, ttl = 1000000: too many "
                                                "keepalives: a run could renew more than "
                                                "4000000 times"));
        many.vary.values = {0, 1000};
        QCOMPARE(validate(many), QString());
    }

    // check-then-write-gap: A checks at t=8 (lease [0, 10) live) and sends `gap` ticks later;
    // A's pause at t=9 for 10 ticks freezes it from the start of tick 9 to 19 (frozen
    // stretch [9, 19), as for the seed's pause at 1 and write at 2). Gap 0 sends at 8 on the
    // live lease: accepted, and B's later token-2 write is newer. From gap 1 on the send is due
    // at 8 + g >= 9, inside the pause (or, gap >= 11, after it): it leaves at the thaw 19 (or
    // at 8 + g) with token 1, after B's token-2 write of t=14: corrupted unfenced, rejected
    // fenced. The pause starts to fall in the gap at gap 1.
    void gapOfCheckThenWrite()
    {
        std::vector<Tick> gaps = range(0, 14);
        const SweepResult r = sweep(fixedSweep(preset("check-then-write-gap"), "gap", gaps), 2);
        const auto stale = expect(gaps, [](Tick g) { return g >= 1; });
        QCOMPARE(curve(r, "corrupted", false), stale);
        QCOMPARE(curve(r, "rejected", true), stale);
        QCOMPARE(curve(r, "corrupted", true), std::vector<std::uint32_t>(gaps.size(), 0));
        QCOMPARE(curve(r, "skipped", true), std::vector<std::uint32_t>(gaps.size(), 0));
        // where the curve steps, the sent tick is the thaw
        const Trace at1 = simulate(
            sweepSchedule(fixedSweep(preset("check-then-write-gap"), "gap", gaps), 2, 0), false);
        QCOMPARE(at1.writes.front().sentAt, Tick(14)); // B's, first sent
        QCOMPARE(at1.writes.back().sentAt, Tick(19));  // A's, at thaw
    }

    // slow-client-clock: A's lease [0, 10), its checked write at t=15; it judges the lease
    // live while floor(rate * 15) - floor(rate * 0) < 10, i.e. rate * 15 < 10000 thousandths:
    // rate <= 666. Then it sends token 1 after B's token-2 write at 12 (corrupted unfenced,
    // rejected fenced); from 667 on floor(10.005) = 10: skipped, on both sides.
    void clockOfTheSlowClient()
    {
        std::vector<Tick> rates = range(500, 1500, 1);
        const SweepResult r = sweep(fixedSweep(preset("slow-client-clock"), "clock", rates), 2);
        const auto believes = expect(rates, [](Tick v) { return v <= 666; });
        const auto sees = expect(rates, [](Tick v) { return v >= 667; });
        QCOMPARE(curve(r, "corrupted", false), believes);
        QCOMPARE(curve(r, "rejected", true), believes);
        QCOMPARE(curve(r, "skipped", true), sees);
        QCOMPARE(curve(r, "skipped", false), sees);
        QCOMPARE(curve(r, "corrupted", true), std::vector<std::uint32_t>(rates.size(), 0));
    }

    // keepalive-gc-pause with A's pause 5 ticks (frozen [10, 15), thaws at 15; its write due
    // at 11 runs at thaw, then the overdue keepalive). A renews at every k-th tick while it
    // runs, up to t=9 (a keepalive due at 10 is frozen), each before the lease it renews
    // ends, so k < 9 (a keepalive at 9 finds the first lease, [0, 9), ended at the start of
    // 9): the last at r, the largest multiple of k <= 9, and the lease ends at r + 9.
    // - r + 9 > 15, r >= 7 (k = 1, 2, 3, 4, 7, 8): A's write at 15 is live and accepted,
    //   the keepalive at thaw renews, B is refused at 15 and 19 and its write at 20 is
    //   untagged: corrupted unfenced (over A's epoch 1), rejected fenced.
    // - r + 9 <= 15 (k = 5: r = 5; k = 6: r = 6): the lease is over by 15, A's write at 15 goes
    //   out expired but nothing newer was applied: accepted; B is granted at 15 and writes
    //   token 2 at 20: nothing stale.
    // - k = 0 (off) or k >= 9: the lease ends at 9; the same.
    void keepaliveOfTheGcPause()
    {
        Scenario s = preset("keepalive-gc-pause");
        s.clients[0].actions[1].amount = 5;
        std::vector<Tick> periods = range(0, 14);
        const SweepResult r = sweep(fixedSweep(s, "keepalive", periods), 2);
        const auto kept = expect(periods, [](Tick k) { return k >= 1 && k < 9 && 9 / k * k >= 7; });
        QCOMPARE(curve(r, "corrupted", false), kept);
        QCOMPARE(curve(r, "rejected", true), kept);
        QCOMPARE(curve(r, "corrupted", true), std::vector<std::uint32_t>(periods.size(), 0));
        // the preset as it is (pause 15): the write always goes out at thaw on a lost lease
        const SweepResult whole =
            sweep(fixedSweep(preset("keepalive-gc-pause"), "keepalive", periods), 2);
        QCOMPARE(curve(whole, "corrupted", false), std::vector<std::uint32_t>(periods.size(), 1));
        QCOMPARE(curve(whole, "rejected", true), std::vector<std::uint32_t>(periods.size(), 1));
    }

    // A acquires with ttl 5 at 0 and writes at 1; B acquires at 6 and writes at 8. A's lease
    // expires at 5 (no release): with lock-delay d, B's acquire at 6 is refused when 6 < 5 + d
    // (d >= 2) and B's write goes out untagged: rejected fenced, corrupted unfenced (it lands
    // on A's epoch-1 write).
    void lockDelayRefusesTheNextOwner()
    {
        Scenario s;
        Client a;
        a.name = QStringLiteral("A");
        a.actions = {Action::acquire(0, 5), Action::write(1, QStringLiteral("A"))};
        Client b;
        b.name = QStringLiteral("B");
        b.actions = {Action::acquire(6, 10), Action::write(8, QStringLiteral("B"))};
        s.clients = {a, b};
        std::vector<Tick> delays = range(0, 6);
        const SweepResult r = sweep(fixedSweep(s, "lockDelay", delays), 2);
        const auto refused = expect(delays, [](Tick d) { return d >= 2; });
        QCOMPARE(curve(r, "rejected", true), refused);
        QCOMPARE(curve(r, "corrupted", false), refused);
        QCOMPARE(curve(r, "corrupted", true), std::vector<std::uint32_t>(delays.size(), 0));
    }

    // etcd-restore: revision 1; A's grant at 0 is revision 2, its lease end at 10 deletes the
    // key (3), B's grant at 12 is 4. At t=20 the service comes back as at t=1 (revision 2,
    // A's lease, ended) plus the bump b, and A's old lease is deleted (3 + b); A's grant at 21
    // is 4 + b. B's write thawing at 24 carries 4: with b = 0 it equals max_token 4 and passes
    // rule lt: a corruption with fencing on; any b >= 1 makes it lower: rejected.
    void bumpOfTheEtcdRestore()
    {
        std::vector<Tick> bumps = {0, 1, 2, 10, 1000};
        const SweepResult r = sweep(fixedSweep(preset("etcd-restore"), "bump", bumps), 2);
        QCOMPARE(curve(r, "corrupted", true), std::vector<std::uint32_t>({1, 0, 0, 0, 0}));
        QCOMPARE(curve(r, "rejected", true), std::vector<std::uint32_t>({0, 1, 1, 1, 1}));
        QCOMPARE(curve(r, "corrupted", false), std::vector<std::uint32_t>({1, 1, 1, 1, 1}));
    }

    // two-resources-partial, A's pause p varied: A's row write at 8 applies; its index write
    // is due at 10 and, frozen 9..8+p, runs at max(10, 9 + p). Up to p = 3 it goes out at
    // t <= 12 before B's writes (lane order at 12: A first) and applies on the empty index
    // (token 1 over max_token 0): the group is whole. From p = 4 on it arrives after B's
    // token-2 writes of t=12: rejected fenced, and the group is half applied; unfenced it
    // applies (corrupted) and the group is whole.
    void partialOfTwoResources()
    {
        const Scenario s = preset("two-resources-partial");
        std::vector<Tick> pauses = range(1, 12);
        const SweepResult r = sweep(fixedSweep(s, "pause", pauses), 2);
        const auto half = expect(pauses, [](Tick p) { return p >= 4; });
        QCOMPARE(curve(r, "partial", true), half);
        QCOMPARE(curve(r, "partial", false), std::vector<std::uint32_t>(pauses.size(), 0));
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

    // A shape with what sections 9-12 add: its clients' clocks and bypass flags, storages and
    // lock options stay; acquires keep alive, writes are checked and grouped in its shares and
    // ranges; reads go to the version storage. Every schedule is one the loader accepts.
    void generatorCarriesPitfalls()
    {
        Scenario s;
        s.tokens = TokenSource::Etcd;
        s.lock.lockDelay = 2;
        s.lock.putsEvery = 5;
        s.storages = {StorageSpec::named(QStringLiteral("db")),
                      StorageSpec::named(QStringLiteral("index")),
                      StorageSpec::named(QStringLiteral("cas"))};
        s.storages[0].durable = false;
        s.storages[0].restarts = {6};
        s.storages[2].check = StorageCheck::Version;
        Client a;
        a.name = QStringLiteral("A");
        a.clock.rateMilli = 700;
        a.actions = {Action::acquire(0, 10),
                     Action::acquire(9, 12),
                     Action::write(2, QStringLiteral("x"), 0),
                     Action::write(3, QStringLiteral("y"), 1),
                     Action::write(4, QStringLiteral("z"), 2),
                     Action::read(1, 2, 1),
                     Action::pause(5, 6)};
        a.actions[0].setKeepalive(3); // one acquire of two keeps alive, every 3 to 5 ticks
        a.actions[2].check = true;    // one write of three is checked, gap 2..4
        a.actions[2].setGap(2);
        a.actions[3].setGroup(QStringLiteral("order")); // two of three grouped
        a.actions[4].setGroup(QStringLiteral("order"));
        Client b = a;
        b.name = QStringLiteral("B");
        b.bypass = true;
        b.clock = {};
        b.actions[0].setKeepalive(5);
        b.actions[3].check = true;
        b.actions[3].setGap(4);
        b.actions[4].setGroup(QStringLiteral("audit"));
        s.clients = {a, b};
        const ScheduleShape shape = shapeOf(s);
        QCOMPARE(shape.acquires, std::size_t(4));
        QCOMPARE(shape.keepalives, std::size_t(2));
        QCOMPARE(shape.keepalive.min, Tick(3));
        QCOMPARE(shape.keepalive.max, Tick(5));
        QCOMPARE(shape.writes, std::size_t(6));
        QCOMPARE(shape.checks, std::size_t(3));
        QCOMPARE(shape.gap.min, Tick(2));
        QCOMPARE(shape.gap.max, Tick(4));
        QCOMPARE(shape.grouped, std::size_t(4));
        QCOMPARE(shape.groups,
                 std::vector<QString>({QStringLiteral("order"), QStringLiteral("audit")}));
        QCOMPARE(shape.readStorages, std::vector<std::uint32_t>({2}));

        std::size_t keptAlive = 0, acquires = 0, checked = 0, writes = 0, grouped = 0, reads = 0;
        bool bothGroups[2] = {false, false};
        for (std::uint64_t run = 0; run < 300; ++run) {
            const Scenario g = generateSchedule(shape, scheduleSeed(11, run));
            QVERIFY(g.tokens == s.tokens);
            QVERIFY(g.lock == s.lock);
            QVERIFY(g.storages == s.storages);
            QVERIFY(g.clients[0].clock == a.clock);
            QVERIFY(g.clients[1].clock == ClientClock{});
            QVERIFY(!g.clients[0].bypass);
            QVERIFY(g.clients[1].bypass);
            for (const Client &c : g.clients) {
                QCOMPARE(c.actions.size(), std::size_t(7));
                for (const Action &x : c.actions) {
                    QVERIFY(x.kind == ActionKind::Write ||
                            (!x.check && x.gap() == 0 && x.group().isEmpty()));
                    QVERIFY(x.kind == ActionKind::Acquire || x.keepalive() == 0);
                    if (x.kind == ActionKind::Acquire) {
                        ++acquires;
                        if (x.keepalive()) {
                            ++keptAlive;
                            QVERIFY(x.keepalive() >= 3 && x.keepalive() <= 5);
                        }
                    } else if (x.kind == ActionKind::Write) {
                        ++writes;
                        QVERIFY(x.check || x.gap() == 0);
                        if (x.check) {
                            ++checked;
                            QVERIFY(x.gap() >= 2 && x.gap() <= 4);
                        }
                        if (!x.group().isEmpty()) {
                            ++grouped;
                            QVERIFY(x.group() == QLatin1String("order") ||
                                    x.group() == QLatin1String("audit"));
                            bothGroups[x.group() == QLatin1String("audit")] = true;
                        }
                    } else if (x.kind == ActionKind::Read) {
                        ++reads;
                        QCOMPARE(x.storage, 2u);
                        QCOMPARE(x.delay(), Tick(1));
                    }
                }
            }
            // the loader takes it back as it is
            const LoadResult back = ScenarioFile::parse(ScenarioFile::serialize(g));
            QVERIFY2(back.ok(), qPrintable(back.error));
            QCOMPARE(*back.scenario, g);
        }
        // shares: 1/2 of acquires keep alive, 1/2 of writes checked, 2/3 grouped (about)
        QVERIFY(keptAlive > acquires / 3 && keptAlive < acquires * 2 / 3);
        QVERIFY(checked > writes / 3 && checked < writes * 2 / 3);
        QVERIFY(grouped > writes / 2 && grouped < writes * 5 / 6);
        QVERIFY(bothGroups[0] && bothGroups[1]);
        QVERIFY(reads > 0);
    }

    // A key the scenario does not use is never drawn; one it uses changes the schedules.
    void generatorDrawsOnlyTheKeysUsed()
    {
        const Scenario seed = ScenarioFile::defaultScenario();
        Scenario kept = seed;
        kept.clients[0].actions[0].setKeepalive(2);
        const ScheduleShape plain = shapeOf(seed);
        const ScheduleShape withKeepalive = shapeOf(kept);
        int differ = 0;
        for (std::uint64_t run = 0; run < 100; ++run) {
            const Scenario x = generateSchedule(plain, scheduleSeed(3, run));
            for (const Client &c : x.clients)
                for (const Action &a : c.actions)
                    QVERIFY(a.keepalive() == 0 && !a.check && a.group().isEmpty());
            differ += x != generateSchedule(withKeepalive, scheduleSeed(3, run));
        }
        QVERIFY(differ > 0);
    }

    // docs/SCENARIO.md sections 6 and 11: fenced, rule lt, a monotonic source, durable max_token
    // and no bypass client: whatever keepalives, checks, gaps and client clocks do, no write
    // is corrupted, at any point; unfenced the same schedules do corrupt.
    void fencedNeverCorruptsWithPitfalls_data() { eachPointHasItsOwnShape_data(); }
    void fencedNeverCorruptsWithPitfalls()
    {
        QFETCH(int, schedules);
        for (TokenSource source : {TokenSource::Counter, TokenSource::Etcd, TokenSource::ZooKeeper,
                                   TokenSource::KafkaEpoch}) {
            SweepSpec spec;
            spec.schedules = SweepSchedules(schedules);
            spec.scenario = ScenarioFile::defaultScenario();
            spec.scenario.tokens = source;
            spec.scenario.clients.push_back(spec.scenario.clients[0]);
            spec.scenario.clients.back().name = QStringLiteral("C");
            spec.scenario.clients[0].actions[0].setKeepalive(3);
            spec.scenario.clients[1].actions[2].check = true;
            spec.scenario.clients[1].actions[2].setGap(2);
            spec.scenario.clients[2].clock.rateMilli = 600;
            spec.scenario.clients[2].actions[2].check = true;
            spec.scenario.storages.push_back(StorageSpec::named(QStringLiteral("index")));
            spec.scenario.storages[1].restarts = {4, 9}; // durable: max_token survives
            QVERIFY(isMonotonic(source));
            spec.vary = {findQuantity(QStringLiteral("pause")), {1, 5, 10, 20, 30}};
            spec.vary2 = {findQuantity(QStringLiteral("clock")), {300, 1000, 2000}};
            spec.runs = scaled(1000);
            spec.seed = 21;
            QCOMPARE(validate(spec), QString());
            const SweepResult r = sweep(spec, 2);
            std::uint32_t unfenced = 0, skipped = 0;
            for (std::size_t p = 0; p < r.points.size(); ++p) {
                QVERIFY2(r.points[p].fenced[0].schedules == 0,
                         qPrintable(toString(source) + QLatin1String(": ") + pointLabel(spec, p)));
                unfenced += r.points[p].unfenced[0].schedules;
                skipped += r.points[p]
                               .fenced[std::size_t(outcomeIndex(QStringLiteral("skipped")))]
                               .schedules;
            }
            QVERIFY(unfenced > 0);
            QVERIFY(skipped > 0); // the checks did run
        }
    }

    // A quantity outside the actions (a client's clock, the lock's delay) is part of each
    // point's shape: a point of a sweep has the numbers of a sweep of that value alone, on one
    // thread that goes from point to point, and on two.
    void eachPointHasItsOwnShape_data()
    {
        QTest::addColumn<int>("schedules");
        QTest::newRow("near") << int(SweepSchedules::Near);
        QTest::newRow("shaped") << int(SweepSchedules::Shaped);
    }
    void eachPointHasItsOwnShape()
    {
        QFETCH(int, schedules);
        Scenario shape = preset("slow-client-clock");
        shape.clients[1].actions.push_back(Action::pause(13, 6));
        for (const char *q : {"clock", "lockDelay"}) {
            SweepSpec spec =
                fixedSweep(shape, q,
                           std::string(q) == "clock" ? std::vector<Tick>{400, 1000, 1600}
                                                     : std::vector<Tick>{0, 4, 9});
            spec.schedules = SweepSchedules(schedules);
            spec.runs = 600; // three slices a point: a thread takes slices of other points
            spec.seed = 5;
            const SweepResult whole = sweep(spec, 1);
            QVERIFY(whole == sweep(spec, 2));
            bool differ = false;
            for (std::size_t p = 0; p < spec.pointCount(); ++p) {
                SweepSpec alone = spec;
                alone.vary.values = {spec.x(p)};
                const SweepResult one = sweep(alone, 1);
                QVERIFY2(one.points[0] == whole.points[p], qPrintable(pointLabel(spec, p)));
                differ |= !(whole.points[p] == whole.points[0]);
            }
            QVERIFY2(differ, q); // the quantity changes the numbers
        }
    }

    void sameNumbersOnAnyThreadCount_data() { eachPointHasItsOwnShape_data(); }
    void sameNumbersOnAnyThreadCount()
    {
        QFETCH(int, schedules);
        const auto mode = SweepSchedules(schedules);
        const SweepSpec spec = randomSweep(700, 42, mode); // 700: slices of 256 end mid-point
        const SweepResult one = sweep(spec, 1);
        QCOMPARE(one.points.size(), std::size_t(14 * 3));
        QVERIFY(one == sweep(spec, 1));
        QVERIFY(one == sweep(spec, 2));
        QVERIFY(one == sweep(spec, 3));
        // and a different seed gives different schedules
        QVERIFY(!(one == sweep(randomSweep(700, 43, mode), 2)));
        std::uint64_t corrupted = 0;
        for (const PointResult &p : one.points) {
            QVERIFY(p.done);
            QCOMPARE(p.runs, 700u);
            corrupted += p.unfenced[0].schedules;
        }
        QVERIFY(corrupted > 0);
    }

    // The first and worst failing schedule of a point are the ones the sweep counted.
    void firstAndWorstRuns_data() { eachPointHasItsOwnShape_data(); }
    void firstAndWorstRuns()
    {
        QFETCH(int, schedules);
        const SweepSpec spec = randomSweep(300, 5, SweepSchedules(schedules));
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

    // docs/SCENARIO.md section 6: with fencing on, rule lt and counter tokens, nothing is
    // corrupted, at any point, whatever the schedule; unfenced, pauses far past the TTL do corrupt.
    void fencedNeverCorrupts_data() { eachPointHasItsOwnShape_data(); }
    void fencedNeverCorrupts()
    {
        QFETCH(int, schedules);
        SweepSpec spec;
        spec.schedules = SweepSchedules(schedules);
        spec.scenario = ScenarioFile::defaultScenario();
        spec.scenario.clients.push_back(spec.scenario.clients[0]);
        spec.scenario.clients.back().name = QStringLiteral("C");
        spec.vary = {findQuantity(QStringLiteral("pause")), {1, 2, 5, 10, 20, 30, 40}};
        spec.vary2 = {findQuantity(QStringLiteral("delay")), {0, 3, 12}};
        spec.runs = scaled(2000);
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
        spec.schedules = SweepSchedules::Fixed;
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

    // Schedules near the seed's scenario (jitter 1), pause P varied. Each action moves by d in
    // {-1, 0, 1} (one draw each, uniform), not before 0, and to the tick after the one ahead of
    // it when it would land on or before it (they shared no tick):
    // A: acquire a = max(0, 0 + d): 0 (d = -1, 0: 2/3) or 1 (1/3). Pause p = max(1 + d, a + 1):
    //    a = 0: 1 (2/3) or 2 (1/3); a = 1: 2. So p = 1 with 4/9, p = 2 with 5/9. Its write
    //    w = max(2 + d, p + 1) is 2 or 3, one or two ticks after the pause starts.
    // B: acquires at 4..6 (refused: A's lease [a, a + 10) is live) and g = 12 + d in 11..13
    //    (granted, token 2: A's lease ended at 10 or 11); its write b = max(13 + d, g + 1):
    //    g = 11: 12, 13, 14; g = 12: 13, 13, 14; g = 13: 14. b = 12 with 1/9, 13 with 3/9,
    //    14 with 5/9.
    // A's write, due inside its lease, waits for the thaw p + P when P > w - p (1 or 2); it is
    // the stale write, after B's token-2 write, when p + P > b (at p + P = b A's lane goes
    // first): corrupted unfenced, rejected fenced. P(b - p < P) with b - p = 10 (b 12, p 2:
    // 5/81), 11 (4/81 + 15/81), 12 (12/81 + 25/81), 13 (20/81):
    //   P <= 10: 0 (the pause must outlast A's lease, and then B's write);
    //   P = 11: 5/81; P = 12: 24/81; P = 13: 61/81; P >= 14: 1.
    // Nothing else fails: B's write is always tagged and newer than A's. Shaped like the
    // scenario instead, each action anywhere in 0..13, the same curve is flat.
    void nearSchedulesOfTheSeedScenario()
    {
        const std::uint32_t runs = scaled(8100);
        SweepSpec spec;
        spec.scenario = ScenarioFile::defaultScenario();
        spec.vary = {findQuantity(QStringLiteral("pause")), range(1, 40)};
        spec.runs = runs;
        spec.seed = 7;
        QVERIFY(spec.schedules == SweepSchedules::Near); // the default random mode
        QCOMPARE(spec.jitter, Tick(1));
        const SweepResult r = sweep(spec, 2);
        const int corrupted = outcomeIndex(QStringLiteral("corrupted"));
        const int rejected = outcomeIndex(QStringLiteral("rejected"));
        const auto expected = [](Tick pause) {
            return pause <= 10   ? 0.0
                   : pause == 11 ? 5 / 81.0
                   : pause == 12 ? 24 / 81.0
                   : pause == 13 ? 61 / 81.0
                                 : 1.0;
        };
        for (std::size_t p = 0; p < r.points.size(); ++p) {
            const Tick pause = spec.x(p);
            const PointResult &point = r.points[p];
            const std::uint32_t k = point.unfenced[std::size_t(corrupted)].schedules;
            const QByteArray where = pointLabel(spec, p).toUtf8();
            QVERIFY2(point.fenced[std::size_t(rejected)].schedules == k, where.constData());
            QVERIFY2(point.fenced[std::size_t(corrupted)].schedules == 0, where.constData());
            QVERIFY2(point.unfenced[std::size_t(rejected)].schedules == 0, where.constData());
            const double want = expected(pause);
            if (want == 0.0 || want == 1.0) {
                QVERIFY2(k == std::uint32_t(want * runs), where.constData()); // exactly
                continue;
            }
            // a binomial count: within four standard deviations of runs * want
            const double sd = std::sqrt(runs * want * (1 - want));
            QVERIFY2(std::abs(k - runs * want) < 4 * sd,
                     qPrintable(
                         QStringLiteral("%1: %2 of %3").arg(pointLabel(spec, p)).arg(k).arg(runs)));
        }
        // schedule r is the same draw at every point: the curve never falls
        for (std::size_t p = 1; p < r.points.size(); ++p)
            QVERIFY(r.points[p].unfenced[std::size_t(corrupted)].schedules >=
                    r.points[p - 1].unfenced[std::size_t(corrupted)].schedules);

        // shaped like it, the same question has no answer: the share moves by a few points
        // from a 1-tick pause to a 40-tick one
        spec.schedules = SweepSchedules::Shaped;
        spec.vary.values = {1, 10, 20, 40};
        const SweepResult flat = sweep(spec, 2);
        for (const PointResult &point : flat.points) {
            const double share = double(point.unfenced[std::size_t(corrupted)].schedules) / runs;
            QVERIFY2(share > 0.1 && share < 0.3, qPrintable(QString::number(share)));
        }
    }

    // What the panel and the CLI say the schedules of a point are.
    void schedulesSentence()
    {
        SweepSpec spec;
        spec.scenario = ScenarioFile::defaultScenario();
        spec.vary = {findQuantity(QStringLiteral("pause")), range(1, 40)};
        spec.runs = 1000;
        QCOMPARE(Core::schedulesSentence(spec),
                 QStringLiteral("Each point runs 1000 schedules near the scenario: its own "
                                "actions, each client's in their order, each moved by a seeded "
                                "amount of at most 1 tick, earlier or later, with pause set to "
                                "the point's value."));
        spec.jitter = 3;
        spec.vary2 = {findQuantity(QStringLiteral("ttl")), {5, 10}};
        QCOMPARE(Core::schedulesSentence(spec),
                 QStringLiteral("Each point runs 1000 schedules near the scenario: its own "
                                "actions, each client's in their order, each moved by a seeded "
                                "amount of at most 3 ticks, earlier or later, with pause and ttl "
                                "set to the point's values."));
        spec.vary2 = {};
        spec.schedules = SweepSchedules::Shaped;
        spec.runs = 1;
        // the seed's last action is B's write at 13
        QCOMPARE(Core::schedulesSentence(spec),
                 QStringLiteral("Each point runs 1 schedule shaped like the scenario: its "
                                "clients, each drawing as many actions of the kinds it uses, each "
                                "at a random tick from 0 to 13 with durations from the "
                                "scenario's ranges, with pause set to the point's value."));
        spec.schedules = SweepSchedules::Fixed;
        QCOMPARE(Core::schedulesSentence(spec),
                 QStringLiteral("Each point runs the scenario itself once, with pause set to the "
                                "point's value."));
        QCOMPARE(toString(SweepSchedules::Near), QStringLiteral("near"));
        QVERIFY(sweepSchedulesFromString(QStringLiteral("shaped")) == SweepSchedules::Shaped);
        QVERIFY(sweepSchedulesFromString(QStringLiteral("fixed")) == SweepSchedules::Fixed);
        QVERIFY(!sweepSchedulesFromString(QStringLiteral("random")));
    }

    // A schedule near a scenario: every action within the jitter of its tick, never before 0,
    // each client's actions in their order, sharing only the ticks they shared; nothing but
    // the ticks changes; every offset of the range is drawn; a file the loader takes back.
    void nearScheduleKeepsTheOrder()
    {
        Scenario s = preset("keepalive-gc-pause");
        Client c;
        c.name = QStringLiteral("C"); // listed out of order, two at one tick
        c.actions = {Action::write(9, QStringLiteral("C2")), Action::acquire(0, 5),
                     Action::write(9, QStringLiteral("C3")), Action::pause(1, 3)};
        s.clients.push_back(c);
        for (Tick jitter : {Tick(1), Tick(2), Tick(5)}) {
            std::vector<std::vector<bool>> seen; // per client and action: offsets drawn
            for (std::uint64_t seed = 0; seed < 2000; ++seed) {
                const Scenario near = nearSchedule(s, jitter, scheduleSeed(3, seed));
                QCOMPARE(near, nearSchedule(s, jitter, scheduleSeed(3, seed)));
                QCOMPARE(near.clients.size(), s.clients.size());
                for (std::size_t k = 0; k < s.clients.size(); ++k) {
                    // the base in the order its actions run: by tick, ties as listed
                    std::vector<Action> base = s.clients[k].actions;
                    std::stable_sort(base.begin(), base.end(),
                                     [](const Action &x, const Action &y) { return x.at < y.at; });
                    const std::vector<Action> &moved = near.clients[k].actions;
                    QCOMPARE(moved.size(), base.size());
                    seen.resize(s.clients.size());
                    seen[k].resize(base.size() * (2 * jitter + 1));
                    for (std::size_t i = 0; i < base.size(); ++i) {
                        Action same = moved[i];
                        same.at = base[i].at;
                        QVERIFY(same == base[i]); // only the tick changed
                        const std::int64_t d = std::int64_t(moved[i].at) - std::int64_t(base[i].at);
                        QVERIFY(d >= -std::int64_t(jitter) && d <= std::int64_t(jitter));
                        seen[k][i * (2 * jitter + 1) + std::size_t(d + std::int64_t(jitter))] =
                            true;
                        if (i == 0)
                            continue;
                        if (base[i].at == base[i - 1].at)
                            QVERIFY(moved[i].at >= moved[i - 1].at);
                        else
                            QVERIFY(moved[i].at > moved[i - 1].at);
                    }
                }
                QVERIFY(near.storages == s.storages && near.lock == s.lock &&
                        near.horizon == s.horizon);
                const LoadResult back = ScenarioFile::parse(ScenarioFile::serialize(near));
                QVERIFY2(back.ok(), qPrintable(back.error));
            }
            // A's acquire at 0 cannot go earlier; every other action of A and B reaches both
            // ends of the range over 2000 schedules (A's write at 11, one tick after its pause,
            // goes 5 earlier when the pause does too: 1 in 121)
            const std::size_t w = 2 * jitter + 1;
            for (std::size_t k = 0; k < 2; ++k)
                for (std::size_t i = 1; i < s.clients[k].actions.size(); ++i)
                    QVERIFY(seen[k][i * w] && seen[k][i * w + w - 1]);
            QVERIFY(!seen[0][0] && seen[0][jitter]);
        }
    }

    // The jitter is checked: from 1 tick, and no action may move past the largest tick.
    void jitterValidation()
    {
        SweepSpec spec = randomSweep(10, 1);
        spec.jitter = 0;
        QCOMPARE(validate(spec), QStringLiteral("jitter: 0 is outside 1..1000000"));
        spec.jitter = 1'000'001;
        QCOMPARE(validate(spec), QStringLiteral("jitter: 1000001 is outside 1..1000000"));
        spec.jitter = 1'000'000;
        QCOMPARE(validate(spec), QString());
        spec.schedules = SweepSchedules::Shaped;
        spec.jitter = 0; // only near schedules have one
        QCOMPARE(validate(spec), QString());
        spec.schedules = SweepSchedules::Near;
        spec.jitter = 5;
        spec.scenario.clients[1].actions[2].at = kMaxFileInteger - 4;
        QCOMPARE(validate(spec),
                 QStringLiteral("jitter: an action at t=%1 would move past the largest tick, %2")
                     .arg(kMaxFileInteger - 4)
                     .arg(kMaxFileInteger));
        spec.jitter = 4;
        QCOMPARE(validate(spec), QString());
        // keepalives: A's acquire at 0 renews every tick; a run ends by the last action plus
        // every duration. With the actions moved up to j later the bound grows by j ticks:
        // found at the corner
        Scenario kept = ScenarioFile::defaultScenario();
        kept.clients[0].actions[0].setKeepalive(1);
        kept.clients[1].actions[2].at = 3'999'900;
        SweepSpec near = fixedSweep(kept, "pause", {1});
        QCOMPARE(validate(near), QString());
        near.schedules = SweepSchedules::Near;
        near.jitter = 1;
        QCOMPARE(validate(near), QString());
        near.jitter = 100'000;
        QVERIFY(validate(near).contains(QLatin1String("too many keepalives")));
    }

    // A fenced run that applied every write is the unfenced run too (unfencedRunsAlike(), which
    // lets the sweep skip the unfenced run): the same events in the same order, the same
    // writes applied, the same summary. Over random schedules of every preset, on both sides
    // of the test, fresh simulations each.
    void unfencedRunsAlikeOnlyWhenItDoes()
    {
        std::size_t alike = 0, total = 0;
        const QStringList presets = QDir(QStringLiteral(":/scenarios")).entryList();
        QVERIFY(presets.size() > 20);
        for (const QString &file : presets) {
            const Scenario s = preset(qPrintable(file.chopped(5)));
            const ScheduleShape shape = shapeOf(s);
            for (std::uint64_t seed = 1; seed <= 150; ++seed) {
                const Scenario schedule = generateSchedule(shape, seed);
                const Trace fenced = simulate(schedule, true);
                const Trace unfenced = simulate(schedule, false);
                const QByteArray where = (file + QStringLiteral(" seed %1").arg(seed)).toUtf8();
                ++total;
                bool applied = true;
                for (const Write &w : fenced.writes)
                    applied &= w.applied;
                QVERIFY2(unfencedRunsAlike(fenced) == applied, where.constData());
                QVERIFY2(!unfencedRunsAlike(unfenced), where.constData()); // not a fenced run
                if (!unfencedRunsAlike(fenced))
                    continue;
                ++alike;
                const Summary &a = fenced.summary, &b = unfenced.summary;
                QVERIFY2(a.accepted == b.accepted && a.rejected == b.rejected &&
                             a.corrupted == b.corrupted && a.lockedOut == b.lockedOut &&
                             a.skipped == b.skipped && a.partial == b.partial,
                         where.constData());
                QCOMPARE(fenced.events.size(), unfenced.events.size());
                for (std::size_t e = 0; e < fenced.events.size(); ++e) {
                    const Event &x = fenced.events[e], &y = unfenced.events[e];
                    QVERIFY2(x.tick == y.tick && x.ref == y.ref && x.client == y.client &&
                                 x.kind == y.kind,
                             where.constData());
                }
                QCOMPARE(fenced.writes.size(), unfenced.writes.size());
                for (std::size_t w = 0; w < fenced.writes.size(); ++w)
                    QVERIFY2(fenced.writes[w].result == unfenced.writes[w].result &&
                                 unfenced.writes[w].applied,
                             where.constData());
            }
        }
        // both ways are taken often
        QVERIFY(alike > total / 20);
        QVERIFY(alike < total - total / 20);
    }

    // The sweep's numbers are those of simulating every schedule fenced and unfenced, each on
    // its own, whatever the sweep skips or reuses from one schedule to the next.
    void countsAreThoseOfEverySimulation_data() { eachPointHasItsOwnShape_data(); }
    void countsAreThoseOfEverySimulation()
    {
        QFETCH(int, schedules);
        for (const char *name :
             {"default", "check-then-write-gap", "two-resources-partial", "compare-and-set-version",
              "etcd-restore", "kafka-zombie-producer"}) {
            SweepSpec spec;
            spec.schedules = SweepSchedules(schedules);
            spec.scenario = preset(name);
            spec.vary = {findQuantity(QStringLiteral("pause")), {1, 7, 25}};
            spec.runs = 300; // two slices a point
            spec.seed = 13;
            QCOMPARE(validate(spec), QString());
            const SweepResult r = sweep(spec, 2);
            for (std::size_t p = 0; p < spec.pointCount(); ++p) {
                PointResult expected;
                expected.runs = spec.runs;
                expected.done = true;
                for (std::uint32_t run = 0; run < spec.runs; ++run) {
                    const Scenario s = sweepSchedule(spec, p, run);
                    for (bool fencing : {true, false}) {
                        const Trace t = simulate(s, fencing);
                        const Summary &m = t.summary;
                        const std::uint64_t counts[] = {m.corrupted, m.lockedOut, m.rejected,
                                                        m.partial, m.skipped};
                        for (std::size_t k = 0; k < kOutcomeCount; ++k)
                            (fencing ? expected.fenced : expected.unfenced)[k].add(run, counts[k]);
                    }
                }
                QVERIFY2(
                    r.points[p] == expected,
                    qPrintable(QLatin1String(name) + QLatin1String(": ") + pointLabel(spec, p)));
            }
        }
    }

    // Without checkpoints a run is the same, and a re-run after an edit starts again from tick 0
    // and gives the trace a fresh simulation of the edited scenario gives.
    void runsWithoutCheckpoints()
    {
        Scenario s = generateSchedule(shapeOf(preset("default")), 4);
        Simulator once(Simulator::kNoCheckpoints);
        Trace trace;
        QVERIFY(once.run(s, true, trace));
        QCOMPARE(trace.events.size(), simulate(s, true).events.size());
        Action &edited = s.clients[0].actions.back();
        edited.at += 3;
        QVERIFY(
            once.rerun(0, edited.at - 3, kForever, std::uint32_t(s.clients[0].actions.size() - 1)));
        QCOMPARE(once.restartedFrom(), Tick(0));
        QCOMPARE(once.rejoinedAt(), kForever);
        const Trace fresh = simulate(s, true);
        QCOMPARE(trace.events.size(), fresh.events.size());
        for (std::size_t e = 0; e < fresh.events.size(); ++e)
            QVERIFY(trace.events[e].tick == fresh.events[e].tick &&
                    trace.events[e].kind == fresh.events[e].kind &&
                    trace.events[e].ref == fresh.events[e].ref);
        QCOMPARE(trace.summary.accepted, fresh.summary.accepted);
        QCOMPARE(trace.summary.rejected, fresh.summary.rejected);
    }

    void cancelAndResumeGiveTheSameNumbers()
    {
        const std::uint32_t runs = scaled(20000);
        const SweepSpec spec = [runs] {
            // shaped: a schedule takes long enough that the cancel lands mid-sweep
            SweepSpec s = randomSweep(runs, 3, SweepSchedules::Shaped);
            s.vary2 = {};
            return s;
        }();
        const SweepResult whole = sweep(spec, 2);

        std::atomic<bool> cancel{false};
        SweepResult part;
        int calls = 0;
        const bool complete = runSweep(spec, &part, 2, &cancel, [&](const SweepProgress &p) {
            QCOMPARE(p.total, std::uint64_t(14) * runs);
            if (++calls == 1)
                cancel = true; // at the first report, long before the last point
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
        const std::uint64_t kept = std::uint64_t(part.donePoints()) * runs;
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
