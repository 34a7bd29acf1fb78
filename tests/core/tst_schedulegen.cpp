// The schedule generator's fast paths (core/schedulegen.h): Remainder gives n % d for every
// divisor and number, at the edges of 64 bits too; an unsharedCopy of a shape draws what the
// shape draws and shares none of its strings; a ScheduleDrawer draws exactly the schedules
// of generateSchedule() for every built-in scenario's shape, one shape after another, and the
// write values it hands out are its own strings, each in one action at a time.

#include "presetfile.h"
#include "scenariofile.h"
#include "schedulegen.h"
#include "simulator.h"

#include <QTest>

using namespace Core;

class tst_ScheduleGen : public QObject
{
    Q_OBJECT

private slots:
    void remainderIsTheRemainder_data()
    {
        QTest::addColumn<quint64>("divisor");
        const quint64 top = ~quint64(0);
        for (quint64 d :
             {quint64(1), quint64(2), quint64(3), quint64(7), quint64(10), quint64(20), quint64(41),
              quint64(64), quint64(1000), quint64(1000001), (quint64(1) << 32) - 1,
              quint64(1) << 32, (quint64(1) << 32) + 1, (quint64(1) << 63) - 1, quint64(1) << 63,
              (quint64(1) << 63) + 1, top - 1, top})
            QTest::addRow("%llu", static_cast<unsigned long long>(d)) << d;
    }

    void remainderIsTheRemainder()
    {
        QFETCH(quint64, divisor);
        const Remainder r(divisor);
        QCOMPARE(r.divisor(), divisor);
        const quint64 top = ~quint64(0);
        for (quint64 n : {quint64(0), quint64(1), divisor - 1, divisor, divisor + 1,
                          2 * divisor - 1, 2 * divisor, top - divisor, top - 1, top})
            QCOMPARE(r.of(n), n % divisor);
        Rng rng(divisor);
        for (int i = 0; i < 100000; ++i) {
            const quint64 n = rng.next();
            QCOMPARE(r.of(n), n % divisor);
        }
    }

    // every divisor up to 5000 and random ones of every width
    void remainderOfManyDivisors()
    {
        Rng rng(42);
        for (quint64 d = 1; d <= 5000; ++d) {
            const Remainder r(d);
            for (int i = 0; i < 50; ++i) {
                const quint64 n = rng.next();
                QCOMPARE(r.of(n), n % d);
            }
        }
        for (int i = 0; i < 20000; ++i) {
            const quint64 d = std::max<quint64>(1, rng.next() >> (rng.next() % 64));
            const Remainder r(d);
            for (int j = 0; j < 10; ++j) {
                const quint64 n = rng.next() >> (rng.next() % 64);
                QCOMPARE(r.of(n), n % d);
            }
        }
    }

    // A thread's own copy of a shape draws the same schedules, and its write values and group
    // names share no data with the original's (no reference count written by two threads).
    void unsharedCopyDrawsTheSame()
    {
        const ScheduleShape shape = shapeOf(TestSupport::preset("two-resources-partial"));
        QVERIFY(!shape.groups.empty());
        const ScheduleShape own = unsharedCopy(shape);
        for (std::size_t c = 0; c < shape.clients.size(); ++c) {
            QCOMPARE(own.clients[c].values, shape.clients[c].values);
            for (std::size_t i = 0; i < shape.clients[c].values.size(); ++i)
                QVERIFY(!own.clients[c].values[i].isSharedWith(shape.clients[c].values[i]));
        }
        QCOMPARE(own.groups, shape.groups);
        for (std::size_t g = 0; g < shape.groups.size(); ++g)
            QVERIFY(!own.groups[g].isSharedWith(shape.groups[g]));
        Scenario a, b;
        for (std::uint64_t run = 0; run < 100; ++run) {
            generateSchedule(shape, scheduleSeed(5, run), &a);
            generateSchedule(own, scheduleSeed(5, run), &b);
            QCOMPARE(b, a);
        }
    }

    void drawerDrawsWhatTheGeneratorDraws()
    {
        ScheduleDrawer drawer; // one drawer for every shape in turn, as a sweep's thread
        std::size_t writes = 0;
        for (const QString &name : ScenarioFile::builtinNames()) {
            const LoadResult loaded = ScenarioFile::load(ScenarioFile::builtinPath(name));
            QVERIFY2(loaded.ok(), qPrintable(name + QLatin1String(": ") + loaded.error));
            const ScheduleShape shape = shapeOf(*loaded.scenario);
            drawer.setShape(shape);
            Scenario plain;
            for (std::uint64_t run = 0; run < 300; ++run) {
                generateSchedule(shape, scheduleSeed(9, run), &plain);
                const Scenario &drawn = drawer.draw(scheduleSeed(9, run));
                QCOMPARE(drawn, plain);
                for (std::size_t c = 0; c < drawn.clients.size(); ++c) {
                    for (const Action &a : drawn.clients[c].actions) {
                        if (a.kind != ActionKind::Write) {
                            QVERIFY(a.value.isNull());
                            continue;
                        }
                        ++writes;
                        for (const QString &v : shape.clients[c].values)
                            QVERIFY(!a.value.isSharedWith(v));
                        QVERIFY(a.value.isDetached()); // held nowhere else
                    }
                }
            }
        }
        QVERIFY(writes > 1000);
    }

    // Sweeps and find draw schedules that keep section 15's keys where the open scenario has
    // them: the service term and its elections, owner and same storages; and the drawn runs
    // show each lesson: a same storage locks owners out, an owner storage never corrupts.
    void schedulesKeepSectionFifteen()
    {
        Scenario s = TestSupport::preset("service-term");
        s.lock.elections = {4, 11};
        s.storages.push_back(StorageSpec::named(QStringLiteral("kv")));
        s.storages.back().check = StorageCheck::Owner;
        s.storages.push_back(StorageSpec::named(QStringLiteral("one")));
        s.storages.back().check = StorageCheck::Same;
        const ScheduleShape shape = shapeOf(s);
        int lockedOut = 0;
        for (std::uint64_t run = 0; run < 2000; ++run) {
            const Scenario drawn = generateSchedule(shape, scheduleSeed(5, run));
            QVERIFY(drawn.tokens == TokenSource::ServiceTerm);
            QCOMPARE(drawn.lock.elections, s.lock.elections);
            QCOMPARE(drawn.storages, s.storages);
            const Trace t = simulate(drawn, true);
            for (const Write &w : t.writes)
                QVERIFY(w.storage != 1 || w.result != WriteResult::Corrupted);
            for (const Write &w : t.writes)
                lockedOut += w.storage == 2 && w.result == WriteResult::LockedOut;
        }
        QVERIFY(lockedOut > 0);
    }
};

QTEST_GUILESS_MAIN(tst_ScheduleGen)
#include "tst_schedulegen.moc"
