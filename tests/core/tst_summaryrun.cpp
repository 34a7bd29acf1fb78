// Simulator::summarize(), the run that records only a summary (sweeps, `run --summary`): over
// thousands of seeded random schedules shaped like every built-in scenario (every token source,
// lock option and pitfall the schedule generator can draw), with the sweep's quantities applied
// on top, fenced and unfenced, its summary, finals and completeness must be exactly those of a
// full simulate(). One simulator does both kinds of run in turn, so state left behind by either
// kind would show in the other.
//
// 400 schedules per built-in scenario by default; FENCESCOPE_QUICK=1 in the environment cuts it
// to 40 for slow (sanitizer) builds.

#include "scenariofile.h"
#include "schedulegen.h"
#include "simulator.h"
#include "sweep.h"

#include <QTest>

#include <array>
#include <numeric>

using namespace Core;

namespace {

int schedulesPerScenario()
{
    return qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 40 : 400;
}

QString describe(const Summary &s)
{
    return QStringLiteral("accepted %1 rejected %2 corrupted %3 lockedOut %4 skipped %5 partial %6")
        .arg(s.accepted)
        .arg(s.rejected)
        .arg(s.corrupted)
        .arg(s.lockedOut)
        .arg(s.skipped)
        .arg(s.partial);
}

bool sameSummary(const Summary &a, const Summary &b)
{
    return a.accepted == b.accepted && a.rejected == b.rejected && a.corrupted == b.corrupted &&
           a.lockedOut == b.lockedOut && a.skipped == b.skipped && a.partial == b.partial;
}

// What `run --summary` reports besides the counts: the same in both kinds of run.
QString finalsDiffer(const Trace &full, const Trace &summary)
{
    if (full.fencing != summary.fencing)
        return QStringLiteral("fencing");
    if (full.tokens != summary.tokens)
        return QStringLiteral("tokens");
    if (full.complete() != summary.complete())
        return QStringLiteral("complete");
    if (full.finals.size() != summary.finals.size())
        return QStringLiteral("number of finals");
    for (std::size_t i = 0; i < full.finals.size(); ++i) {
        const StorageState &a = full.finals[i], &b = summary.finals[i];
        if (a.value != b.value || a.maxToken != b.maxToken || a.version != b.version ||
            a.lastWrite != b.lastWrite)
            return QStringLiteral("final state of storage %1").arg(i);
    }
    return {};
}

} // namespace

class TestSummaryRun : public QObject
{
    Q_OBJECT

private slots:
    // The seed's scenario, worked out by hand from its description: B's write with token 2 is
    // accepted; A's stale write with token 1 is rejected when fenced and, unfenced, applied
    // over B's newer data (corrupted), so the storage ends with A's value.
    void defaultScenario()
    {
        const Scenario s = ScenarioFile::defaultScenario();
        const Summary fenced = summarize(s, true);
        QCOMPARE(fenced.accepted, 1u);
        QCOMPARE(fenced.rejected, 1u);
        QCOMPARE(fenced.corrupted, 0u);
        QCOMPARE(fenced.lockedOut, 0u);
        const Summary unfenced = summarize(s, false);
        QCOMPARE(unfenced.accepted, 1u);
        QCOMPARE(unfenced.rejected, 0u);
        QCOMPARE(unfenced.corrupted, 1u);

        Simulator sim(Simulator::kNoCheckpoints);
        Trace trace;
        sim.summarize(s, false, trace);
        QVERIFY(trace.complete());
        QVERIFY(!trace.fencing);
        QCOMPARE(trace.finals.size(), std::size_t(1));
        QCOMPARE(trace.finals[0].value, QStringLiteral("A"));
        QVERIFY(trace.events.empty()); // nothing recorded that a summary does not need
        sim.summarize(s, true, trace);
        QCOMPARE(trace.finals[0].value, QStringLiteral("B"));
        QCOMPARE(trace.finals[0].maxToken, Token(2));
    }

    void summaryEqualsFullRun()
    {
        const int perScenario = schedulesPerScenario();
        const std::vector<Quantity> &qs = quantities();
        Simulator shared(Simulator::kNoCheckpoints);
        Simulator checkpointed; // summaries between full runs of a simulator that re-runs
        Simulator again(Simulator::kNoCheckpoints); // summarizeAgain() after each summarize()
        Trace scratch, fullAgain, againTrace;
        std::array<bool, kTokenSourceCount> sources{};
        std::array<std::uint64_t, kOutcomeCount> seen{};
        std::size_t runs = 0, pitfallRuns = 0, refusals = 0, grants = 0;
        for (const QString &name : ScenarioFile::builtinNames()) {
            const LoadResult loaded = ScenarioFile::load(ScenarioFile::builtinPath(name));
            QVERIFY2(loaded.ok(), qPrintable(name + QLatin1String(": ") + loaded.error));
            Scenario schedule;
            for (int r = 0; r < perScenario; ++r) {
                // every other schedule with one of the sweep's quantities set, in turn, to a
                // value of its suggested range
                Scenario shaped = *loaded.scenario;
                QString varied;
                if (r % 2) {
                    const Quantity &q = qs[std::size_t(r / 2) % qs.size()];
                    if (!q.missing || q.missing(shaped).isEmpty()) {
                        const SuggestedRange range = suggestedRange(q);
                        const Tick steps = (range.to - range.from) / range.step + 1;
                        const Tick v =
                            range.from + Tick(r / 2 / int(qs.size())) % steps * range.step;
                        q.apply(shaped, v);
                        varied = QStringLiteral(", %1 = %2").arg(q.name).arg(v);
                    }
                }
                const ScheduleShape shape = shapeOf(shaped);
                generateSchedule(shape, scheduleSeed(17, std::uint64_t(r)), &schedule);
                sources[std::size_t(schedule.tokens)] = true;
                pitfallRuns += schedule.usesPitfalls();
                // the second run of a schedule re-uses its lane plans: the other fencing, then
                // the first again, give what a fresh summarize() gives
                const bool first = r % 2 == 0;
                const Summary firstSum = summarize(schedule, first);
                const Summary secondSum = summarize(schedule, !first);
                QVERIFY(sameSummary(again.summarize(schedule, first, againTrace), firstSum));
                QVERIFY2(sameSummary(again.summarizeAgain(!first), secondSum),
                         qPrintable(QStringLiteral("%1 schedule %2: summarizeAgain")
                                        .arg(name)
                                        .arg(r)));
                QVERIFY(!againTrace.fencing == first);
                QVERIFY(finalsDiffer(simulate(schedule, !first), againTrace).isEmpty());
                QVERIFY(sameSummary(again.summarizeAgain(first), firstSum));
                for (const bool fencing : {true, false}) {
                    const QString where =
                        QStringLiteral("%1 schedule %2%3, %4")
                            .arg(name)
                            .arg(r)
                            .arg(varied)
                            .arg(fencing ? QStringLiteral("fenced") : QStringLiteral("unfenced"));
                    const Trace full = simulate(schedule, fencing);
                    const Summary &sum = shared.summarize(schedule, fencing, scratch);
                    QVERIFY2(sameSummary(full.summary, sum),
                             qPrintable(where + QLatin1String(": full ") + describe(full.summary) +
                                        QLatin1String(", summary-only ") + describe(sum)));
                    const QString differ = finalsDiffer(full, scratch);
                    QVERIFY2(differ.isEmpty(), qPrintable(where + QLatin1String(": ") + differ));
                    // (counted, not kept: a summary reports no refusal, grant, release or
                    // belief; the full run has them)
                    refusals += full.refusals.size();
                    grants += full.grants.size();
                    QVERIFY(scratch.refusals.empty());
                    QVERIFY(scratch.grants.empty());
                    QVERIFY(scratch.releases.empty());
                    for (const std::vector<Belief> &b : scratch.beliefs)
                        QVERIFY(b.empty());
                    // the summary-only mode leaves nothing behind for a full run after it
                    if (r % 3 == 0) {
                        shared.run(schedule, fencing, fullAgain);
                        QVERIFY2(sameSummary(full.summary, fullAgain.summary), qPrintable(where));
                        QCOMPARE(fullAgain.events.size(), full.events.size());
                        QCOMPARE(fullAgain.lastTick, full.lastTick);
                    }
                    if (r % 7 == 0) {
                        checkpointed.run(schedule, fencing, fullAgain);
                        const Summary again = checkpointed.summarize(schedule, fencing, scratch);
                        QVERIFY2(sameSummary(full.summary, again), qPrintable(where));
                    }
                    for (std::size_t k = 0; k < kOutcomeCount; ++k)
                        seen[k] += outcomes()[k].writes(full);
                    ++runs;
                }
            }
        }
        // the schedules reach every token source and every outcome a summary counts
        for (int i = 0; i < kTokenSourceCount; ++i)
            QVERIFY2(sources[std::size_t(i)], qPrintable(QStringLiteral("token source %1").arg(i)));
        for (std::size_t k = 0; k < kOutcomeCount; ++k)
            QVERIFY2(seen[k] > 0, qPrintable(outcomes()[k].name));
        QVERIFY(pitfallRuns > runs / 10);
        QVERIFY(refusals > runs / 10);
        QVERIFY(grants > runs);
        QVERIFY(runs >= std::size_t(2 * perScenario) * 20);
    }

    // A scenario this large has its lanes planned on two threads (Simulator::Impl::
    // prepareLanes, from 200,000 actions on), and its summary-only runs use write records'
    // slots again (from 65,536 writes, without sections 11 and 12). Worked out by hand: cycle k (of K) belongs to
    // client k % 6 and starts at T = 100k + 10: acquire (ttl 40), write k with a delay of 1
    // at T + 5 (arrives while held: accepted, token k + 1), release at T + 20. In every cycle
    // with k % 10 == 3 the client pauses at T + 2 for 150 ticks, so its write and release run
    // when it thaws at T + 152, after cycle k + 1's client got token k + 2 and wrote: fenced,
    // the late write (token k + 1) is rejected; unfenced, it overwrites newer data (corrupted).
    // Last, the client of cycle K - 2 writes "stale" 50 ticks after the last cycle began, with
    // its token K - 1 against the storage's K: rejected, or applied over newer data. The last
    // clients' lists are shuffled, so their plans (on the helper) sort them first.
    void aLargeScenarioAsWorkedOutByHand()
    {
        constexpr std::uint32_t kCycles = 70001; // (the last cycle pauses not: 70000 % 10 == 0)
        Scenario s;
        s.clients.resize(6);
        std::uint32_t late = 0;
        for (std::uint32_t k = 0; k < kCycles; ++k) {
            Client &c = s.clients[k % 6];
            const Tick t = 100 * Tick(k) + 10;
            c.actions.push_back(Action::acquire(t, 40));
            if (k % 10 == 3) {
                c.actions.push_back(Action::pause(t + 2, 150));
                ++late;
            }
            c.actions.push_back(Action::write(t + 5, QString::number(k), 0, 1));
            c.actions.push_back(Action::release(t + 20));
        }
        s.clients[(kCycles - 2) % 6].actions.push_back(
            Action::write(100 * Tick(kCycles - 1) + 10 + 50, QStringLiteral("stale"), 0, 1));
        for (std::size_t i = 0; i < s.clients.size(); ++i)
            s.clients[i].name = QStringLiteral("C%1").arg(i);
        // a fixed shuffle of the last two lists (a step coprime with their lengths)
        for (std::size_t i = 4; i < 6; ++i) {
            std::vector<Action> &a = s.clients[i].actions;
            std::vector<Action> shuffled;
            std::size_t step = 7919;
            while (std::gcd(step, a.size()) != 1)
                ++step;
            for (std::size_t j = 0; j < a.size(); ++j)
                shuffled.push_back(a[j * step % a.size()]);
            a = std::move(shuffled);
        }
        QVERIFY(s.actionCount() >= 200000); // on the two-thread path
        QCOMPARE(late, 7000u);

        const Summary fenced = summarize(s, true);
        QCOMPARE(fenced.accepted, kCycles - late);
        QCOMPARE(fenced.rejected, late + 1);
        QCOMPARE(fenced.corrupted, 0u);
        QCOMPARE(fenced.lockedOut, 0u);
        const Summary unfenced = summarize(s, false);
        QCOMPARE(unfenced.accepted, kCycles - late);
        QCOMPARE(unfenced.rejected, 0u);
        QCOMPARE(unfenced.corrupted, late + 1);
        const Trace full = simulate(s, true);
        QVERIFY(sameSummary(full.summary, fenced));
        // this many writes, none of sections 11 and 12: the summary-only run uses its write
        // records' slots again, and still ends where the full run does (the last applied write
        // by its number in the full trace)
        Simulator sim(Simulator::kNoCheckpoints);
        Trace summary;
        for (const bool fencing : {true, false}) {
            const Trace whole = fencing ? full : simulate(s, false);
            sim.summarize(s, fencing, summary);
            QVERIFY(sameSummary(whole.summary, summary.summary));
            const QString differ = finalsDiffer(whole, summary);
            QVERIFY2(differ.isEmpty(), qPrintable(differ));
            // fenced, the last cycle's write; unfenced, the stale one sent after it
            QCOMPARE(summary.finals[0].lastWrite, std::uint32_t(fencing ? kCycles - 1 : kCycles));
            QCOMPARE(summary.finals[0].value,
                     fencing ? QString::number(kCycles - 1) : QStringLiteral("stale"));
            QVERIFY(summary.writes.size() < 100); // slots used again: a few in flight at once
        }
        QCOMPARE(full.grants.size(), std::size_t(kCycles));
        QCOMPARE(full.finals[0].maxToken, Token(kCycles));
        QCOMPARE(full.finals[0].value, QString::number(kCycles - 1));
        // the frozen stretches, as planned: one per pause, in every lane
        std::size_t freezes = 0;
        for (const std::vector<Freeze> &f : full.freezes)
            freezes += f.size();
        QCOMPARE(freezes, std::size_t(late));
    }
};

QTEST_GUILESS_MAIN(TestSummaryRun)
#include "tst_summaryrun.moc"
