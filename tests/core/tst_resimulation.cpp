// Simulator's re-runs from checkpoints and its partial runs (what a drag uses), checked against
// a fresh full simulate() of the edited scenario over many seeded random schedules and edits.
//
// FENCESCOPE_QUICK=1 cuts the schedule count for slow (sanitizer) builds.
// Over 600 lines: every kind of re-run (checkpoint, partial, rejoin, each edit a drag makes) is
// compared against the same fresh run with the same helpers; apart they would repeat them.

#include "randomscenario.h"
#include "simulator.h"
#include "testprinters.h"
#include "tracecompare.h"

#include <QTest>

#include <algorithm>

using namespace Core;
using TestSupport::randomScenario;
using TestSupport::RandomScenarioOptions;
using TestSupport::Rng;
using TestSupport::sameTrace;

namespace {

int scheduleCount()
{
    return qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 200 : 1500;
}

RandomScenarioOptions busy()
{
    RandomScenarioOptions o;
    o.maxClients = 6;
    o.maxStorages = 2;
    o.minActions = 5;
    o.maxActions = 40;
    o.span = 200;
    o.lePercent = 30;
    return o;
}

struct Edit
{
    std::uint32_t client;
    Tick from; // the earliest tick the change can matter at (old or new `at`)
    std::uint32_t action;
};

// 4 clients with 3,000 actions each over 40,000 ticks: many checkpoints at the default spacing.
Scenario bigSchedule(std::uint64_t seed)
{
    RandomScenarioOptions o = busy();
    o.minActions = o.maxActions = 3000;
    o.minClients = o.maxClients = 4;
    o.span = 40000;
    return randomScenario(seed, o);
}

// One random change to one action of one client, as a drag or an inspector edit makes it.
Edit randomEdit(Scenario &s, Rng &rng, const RandomScenarioOptions &o)
{
    std::uint32_t c = 0;
    do
        c = std::uint32_t(rng.between(0, s.clients.size() - 1));
    while (s.clients[c].actions.empty());
    std::vector<Action> &actions = s.clients[c].actions;
    const auto index = std::uint32_t(rng.between(0, actions.size() - 1));
    Action &a = actions[index];
    const Tick oldAt = a.at;
    if (rng.chance(50))
        a.at = rng.chance(50) ? rng.between(0, o.span - 1)
                              : a.at + rng.between(0, 6) - std::min<Tick>(a.at, 3);
    switch (rng.between(0, 9)) {
    case 0: // another kind altogether
        switch (rng.between(0, 3)) {
        case 0:
            a = Action::acquire(a.at, rng.between(1, o.maxTtl));
            break;
        case 1:
            a = Action::release(a.at);
            break;
        case 2:
            a = Action::pause(a.at, rng.between(1, o.maxPause));
            break;
        default:
            a = Action::write(a.at, QStringLiteral("edited"),
                              std::uint32_t(rng.between(0, s.storages.size() - 1)),
                              rng.between(0, o.maxDelay));
        }
        break;
    case 1:
    case 2:
    case 3: // a new length, TTL or delay
        if (a.kind == ActionKind::Pause)
            a.amount = rng.between(1, o.maxPause);
        else if (a.kind == ActionKind::Acquire)
            a.amount = rng.between(1, o.maxTtl);
        else if (a.kind == ActionKind::Write)
            a.amount = rng.between(0, o.maxDelay);
        break;
    case 4: // what a write stores: only the storages' final values can tell
        if (a.kind == ActionKind::Write)
            a.value = QStringLiteral("v%1").arg(rng.between(0, 3));
        break;
    case 5: // where a write goes
        if (a.kind == ActionKind::Write)
            a.storage = std::uint32_t(rng.between(0, s.storages.size() - 1));
        break;
    default:
        break; // only moved (or not even that: an edit that changes nothing)
    }
    return {c, std::min(oldAt, a.at), index};
}

// A partial trace holds exactly what the full run has before its pendingFrom tick.
bool isPrefixOf(const Trace &p, const Trace &f, QString *why)
{
#define PREFIX(expr)                                                                               \
    if (!(expr)) {                                                                                 \
        *why = QStringLiteral(#expr);                                                              \
        return false;                                                                              \
    }
    const Tick end = p.pendingFrom;
    PREFIX(!p.complete());
    PREFIX(p.fencing == f.fencing);
    PREFIX(p.events.size() == f.firstEventAt(end));
    for (std::size_t i = 0; i < p.events.size(); ++i) {
        const Event &x = p.events[i], &y = f.events[i];
        PREFIX(x.tick == y.tick && x.ref == y.ref && x.client == y.client && x.kind == y.kind);
    }
    const auto before = [end](const auto &list, auto tickOf) {
        return std::size_t(std::count_if(list.begin(), list.end(),
                                         [&](const auto &x) { return tickOf(x) < end; }));
    };
    PREFIX(p.grants.size() == before(f.grants, [](const Grant &g) { return g.at; }));
    for (std::size_t i = 0; i < p.grants.size(); ++i)
        PREFIX(p.grants[i].expires == f.grants[i].expires &&
               p.grants[i].token == f.grants[i].token);
    PREFIX(p.refusals.size() == before(f.refusals, [](const Refusal &r) { return r.at; }));
    PREFIX(p.releases.size() == before(f.releases, [](const Release &r) { return r.at; }));
    for (std::size_t i = 0; i < p.releases.size(); ++i)
        PREFIX(p.releases[i].effective == f.releases[i].effective);
    PREFIX(p.writes.size() == before(f.writes, [](const Write &w) { return w.sentAt; }));
    Summary arrived;
    for (std::size_t i = 0; i < p.writes.size(); ++i) {
        const Write &x = p.writes[i], &y = f.writes[i];
        PREFIX(x.sentAt == y.sentAt && x.arrivedAt == y.arrivedAt && p.tokenOf(x) == f.tokenOf(y) &&
               x.epoch == y.epoch && x.client == y.client && x.action == y.action &&
               x.storage == y.storage && x.tagged == y.tagged);
        if (y.arrivedAt >= end) { // not arrived yet: no result
            PREFIX(!x.applied && !x.expired && x.overwrote == kNone && x.maxToken == 0);
            continue;
        }
        PREFIX(x.result == y.result && x.applied == y.applied && x.maxToken == y.maxToken &&
               x.expired == y.expired && x.overwrote == y.overwrote);
        arrived.accepted += y.result == WriteResult::Accepted;
        arrived.rejected += y.result == WriteResult::Rejected;
        arrived.corrupted += y.result == WriteResult::Corrupted;
        arrived.lockedOut += y.result == WriteResult::LockedOut;
    }
    PREFIX(p.summary.accepted == arrived.accepted && p.summary.rejected == arrived.rejected &&
           p.summary.corrupted == arrived.corrupted && p.summary.lockedOut == arrived.lockedOut);
    PREFIX(p.leases.size() == before(f.leases, [](const Lease &l) { return l.start; }));
    for (std::size_t i = 0; i < p.leases.size(); ++i) {
        const Lease &x = p.leases[i], &y = f.leases[i];
        PREFIX(x.start == y.start && x.token == y.token && x.epoch == y.epoch &&
               x.client == y.client);
        if (y.end < end) // ended (or last renewed to end) before the partial run stopped
            PREFIX(x.end == y.end && x.released == y.released);
    }
    PREFIX(p.lockEvents.size() == before(f.lockEvents, [](const LockEvent &e) { return e.tick; }));
    PREFIX(p.waits.size() == before(f.waits, [](const Wait &w) { return w.from; }));
    for (std::size_t i = 0; i < p.waits.size(); ++i) {
        const Wait &x = p.waits[i], &y = f.waits[i];
        PREFIX(x.from == y.from && x.client == y.client && x.action == y.action);
        if (y.to < end) {
            PREFIX(x.to == y.to && x.granted == y.granted && x.outcome == y.outcome);
        } else {
            PREFIX(x.to == kForever && !x.granted);
        }
    }
    PREFIX(p.freezes.size() == f.freezes.size());
    for (std::size_t c = 0; c < p.freezes.size(); ++c) { // a function of the scenario: whole
        PREFIX(p.freezes[c].size() == f.freezes[c].size());
        for (std::size_t i = 0; i < p.freezes[c].size(); ++i)
            PREFIX(p.freezes[c][i].from == f.freezes[c][i].from &&
                   p.freezes[c][i].to == f.freezes[c][i].to);
    }
    for (std::size_t c = 0; c < p.clientEvents.size(); ++c) {
        const auto &pe = p.clientEvents[c], &fe = f.clientEvents[c];
        PREFIX(pe.size() <= fe.size() && std::equal(pe.begin(), pe.end(), fe.begin()));
        PREFIX(pe.size() == before(fe, [&](std::uint32_t e) { return f.events[e].tick; }));
        PREFIX(p.beliefs[c].size() == before(f.beliefs[c], [](const Belief &b) { return b.from; }));
        for (std::size_t i = 0; i < p.beliefs[c].size(); ++i) {
            const Belief &x = p.beliefs[c][i], &y = f.beliefs[c][i];
            PREFIX(x.from == y.from && x.epoch == y.epoch);
            if (y.to < end) {
                PREFIX(x.to == y.to && x.end == y.end);
            } else {
                PREFIX(x.to == kForever && x.end == BeliefEnd::Never);
            }
        }
    }
    for (std::size_t i = 0; i < p.storageWrites.size(); ++i) {
        const auto &pw = p.storageWrites[i], &fw = f.storageWrites[i];
        PREFIX(pw.size() == before(fw, [&](std::uint32_t w) { return f.writes[w].arrivedAt; }));
        PREFIX(std::equal(pw.begin(), pw.end(), fw.begin()));
        const auto &pi = p.storageIncidents[i], &fi = f.storageIncidents[i];
        PREFIX(pi.size() == before(fi, [&](std::uint32_t w) { return f.writes[w].arrivedAt; }));
        PREFIX(std::equal(pi.begin(), pi.end(), fi.begin()));
    }
#undef PREFIX
    return true;
}

} // namespace

class TestResimulation : public QObject
{
    Q_OBJECT
private slots:
    // Every edit re-runs from a checkpoint, complete: the same trace as a fresh simulation.
    // Naming the edited action lets a re-run rejoin the last complete run and keep its rest:
    // the result must still be exactly the fresh run.
    void rerunEqualsFreshRun_data()
    {
        QTest::addColumn<int>("spacing");
        QTest::addColumn<bool>("nameAction");
        QTest::newRow("checkpoint every event") << 1 << false;
        QTest::newRow("every 3 events") << 3 << false;
        QTest::newRow("every 16 events") << 16 << false;
        QTest::newRow("default spacing") << 0 << false;
        QTest::newRow("every event, may rejoin") << 1 << true;
        QTest::newRow("every 3 events, may rejoin") << 3 << true;
        QTest::newRow("every 16 events, may rejoin") << 16 << true;
        QTest::newRow("default spacing, may rejoin") << 0 << true;
    }
    void rerunEqualsFreshRun()
    {
        QFETCH(int, spacing);
        QFETCH(bool, nameAction);
        const RandomScenarioOptions o = busy();
        int fromCheckpoint = 0;
        int rejoined = 0;
        int edits = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            const std::uint64_t seed = 7000000 + std::uint64_t(i);
            Scenario s = randomScenario(seed, o);
            Rng rng(seed);
            const bool fencing = rng.chance(70);
            Simulator sim{std::size_t(spacing)};
            Trace t;
            QVERIFY(sim.run(s, fencing, t));
            for (int edit = 0; edit < 6; ++edit) {
                const auto [client, from, action] = randomEdit(s, rng, o);
                // now and then an edit that does not name its action: the next one cannot rejoin
                const bool named = nameAction && !rng.chance(10);
                QVERIFY(sim.rerun(client, from, kForever, named ? action : kNone));
                QVERIFY(sim.complete());
                ++edits;
                fromCheckpoint += !t.events.empty() && from > t.events.front().tick;
                if (sim.rejoinedAt() != kForever) {
                    QVERIFY(named);
                    QVERIFY(sim.rejoinedAt() > from);
                    ++rejoined;
                }
                QString why;
                QVERIFY2(
                    sameTrace(t, simulate(s, fencing), &why),
                    qPrintable(QStringLiteral("%1, edit %2: %3").arg(s.title).arg(edit).arg(why)));
            }
        }
        QVERIFY(fromCheckpoint > scheduleCount()); // most edits were not at the very start
        if (!nameAction)
            QCOMPARE(rejoined, 0);
        else if (spacing != 0) // the shortcut was taken, and often (small runs: one checkpoint)
            QVERIFY2(rejoined > edits / 10, qPrintable(QString::number(rejoined)));
    }

    // As while dragging: each edit re-runs only up to a tick (the end of the screen), the next
    // edit may come before the rest was finished, and the rest is finished in small pieces.
    // Every partial trace is an exact prefix of the full run; the finished one equals it.
    void partialRunsArePrefixes_data()
    {
        QTest::addColumn<int>("spacing");
        QTest::newRow("every 2 events") << 2;
        QTest::newRow("every 10 events") << 10;
        QTest::newRow("default spacing") << 0;
    }
    void partialRunsArePrefixes()
    {
        QFETCH(int, spacing);
        const RandomScenarioOptions o = busy();
        int partials = 0;
        int rejoined = 0;
        for (int i = 0; i < scheduleCount(); ++i) {
            const std::uint64_t seed = 8000000 + std::uint64_t(i);
            Scenario s = randomScenario(seed, o);
            Rng rng(seed ^ 0x5eed);
            const bool fencing = rng.chance(60);
            Simulator sim{std::size_t(spacing)};
            Trace t;
            const Tick firstStop = rng.between(0, o.span);
            sim.run(s, fencing, t, firstStop);
            QString why;
            if (!sim.complete())
                QVERIFY2(isPrefixOf(t, simulate(s, fencing), &why),
                         qPrintable(s.title + QStringLiteral(", first run: ") + why));
            for (int edit = 0; edit < 8; ++edit) {
                const auto [client, from, action] = randomEdit(s, rng, o);
                const Trace full = simulate(s, fencing);
                const Tick through = from + rng.between(0, 60);
                sim.rerun(client, from, through, rng.chance(70) ? action : kNone);
                if (sim.rejoinedAt() != kForever) {
                    ++rejoined;
                    QVERIFY(sim.complete());
                }
                QCOMPARE(t.complete(), sim.complete());
                if (!sim.complete()) {
                    ++partials;
                    QVERIFY(t.pendingFrom > through);
                    QVERIFY2(
                        isPrefixOf(t, full, &why),
                        qPrintable(
                            QStringLiteral("%1, edit %2: %3").arg(s.title).arg(edit).arg(why)));
                }
                if (rng.chance(40))
                    continue; // the next drag step comes before the rest is done
                while (!sim.resume(kForever, std::size_t(rng.between(1, 25)))) {
                    QVERIFY2(isPrefixOf(t, full, &why),
                             qPrintable(QStringLiteral("%1, edit %2, resumed: %3")
                                            .arg(s.title)
                                            .arg(edit)
                                            .arg(why)));
                }
                QVERIFY2(sameTrace(t, full, &why),
                         qPrintable(QStringLiteral("%1, edit %2, finished: %3")
                                        .arg(s.title)
                                        .arg(edit)
                                        .arg(why)));
            }
            sim.resume();
            QVERIFY2(sameTrace(t, simulate(s, fencing), &why),
                     qPrintable(s.title + QStringLiteral(", last: ") + why));
        }
        QVERIFY(partials > scheduleCount()); // the property was exercised, not only complete runs
        if (spacing != 0) // a small schedule has no checkpoint to rejoin at by default spacing
            QVERIFY(rejoined > scheduleCount() / 10);
    }

    // The same two properties with every token source, blocking acquires, lock-delays, the
    // sources' own events and restores (a run with restores re-runs from tick 0; the others
    // from checkpoints, and only plain counter runs may rejoin).
    void everySourceRerunsEqualFreshRuns_data()
    {
        QTest::addColumn<int>("source");
        QTest::addColumn<int>("spacing");
        for (int src = 0; src < kTokenSourceCount; ++src) {
            QTest::newRow(qPrintable(toString(TokenSource(src)) + QStringLiteral(", every 3")))
                << src << 3;
            QTest::newRow(qPrintable(toString(TokenSource(src)) + QStringLiteral(", default")))
                << src << 0;
        }
    }
    void everySourceRerunsEqualFreshRuns()
    {
        QFETCH(int, source);
        QFETCH(int, spacing);
        RandomScenarioOptions o = busy();
        o.maxActions = 25;
        o.tokens = TokenSource(source);
        o.sourceEvents = true;
        o.clockStepsBack = true;
        o.waitPercent = 30;
        o.maxLockDelay = 5;
        int waited = 0, partials = 0;
        for (int i = 0; i < scheduleCount() / 5; ++i) {
            const std::uint64_t seed = 9100000 + std::uint64_t(i);
            o.maxRestores = i % 3 == 0 ? 2 : 0;
            o.restoreBump = i % 2 ? 0 : 1000;
            Scenario s = randomScenario(seed, o);
            Rng rng(seed ^ 0xface);
            const bool fencing = rng.chance(70);
            Simulator sim{std::size_t(spacing)};
            Trace t;
            QVERIFY(sim.run(s, fencing, t));
            QString why;
            for (int edit = 0; edit < 6; ++edit) {
                auto [client, from, action] = randomEdit(s, rng, o);
                Action &a = s.clients[client].actions[action];
                if (a.kind == ActionKind::Acquire && rng.chance(30)) { // blocking or not
                    a.wait = !a.wait;
                    a.setWaitFor(a.wait && rng.chance(50) ? rng.between(1, 10) : 0);
                    from = std::min(from, a.at);
                }
                const Trace full = simulate(s, fencing);
                waited += !full.waits.empty();
                const Tick through = rng.chance(50) ? kForever : from + rng.between(0, 60);
                sim.rerun(client, from, through, rng.chance(70) ? action : kNone);
                if (!sim.complete()) {
                    ++partials;
                    QVERIFY2(
                        isPrefixOf(t, full, &why),
                        qPrintable(
                            QStringLiteral("%1, edit %2: %3").arg(s.title).arg(edit).arg(why)));
                    while (!sim.resume(kForever, std::size_t(rng.between(1, 25))))
                        QVERIFY2(isPrefixOf(t, full, &why),
                                 qPrintable(QStringLiteral("%1, edit %2, resumed: %3")
                                                .arg(s.title)
                                                .arg(edit)
                                                .arg(why)));
                }
                QVERIFY2(
                    sameTrace(t, full, &why),
                    qPrintable(QStringLiteral("%1, edit %2: %3").arg(s.title).arg(edit).arg(why)));
            }
        }
        if (TokenSource(source) != TokenSource::KafkaEpoch) // Kafka never waits
            QVERIFY(waited > scheduleCount() / 10);
        QVERIFY(partials > scheduleCount() / 10);
    }

    // Sections 11 and 12 (keepalives, checks, clocks, bypass, restarts, versions, reads,
    // groups): every edit re-runs from tick 0 and equals a fresh run; a partial run (a drag)
    // stops and resumes into the same trace; edits that switch the features on and off too.
    void pitfallsRerunEqualFreshRuns()
    {
        RandomScenarioOptions o = busy();
        o.maxActions = 25;
        TestSupport::PitfallOptions p;
        p.keepalivePercent = p.checkPercent = p.clockPercent = 40;
        p.versionPercent = p.readPercent = p.groupPercent = 30;
        p.bypassPercent = p.volatilePercent = 20;
        int partials = 0;
        for (int i = 0; i < scheduleCount() / 5; ++i) {
            const std::uint64_t seed = 9300000 + std::uint64_t(i);
            Scenario s = randomScenario(seed, o);
            TestSupport::addPitfalls(s, seed, p);
            Rng rng(seed ^ 0xbeef);
            const bool fencing = rng.chance(70);
            Simulator sim;
            Trace t;
            if (rng.chance(50)) {
                QVERIFY(sim.run(s, fencing, t));
            } else { // stopped early, then finished in pieces
                sim.run(s, fencing, t, rng.between(0, 30));
                while (!sim.resume(kForever, std::size_t(rng.between(1, 25)))) {
                }
            }
            QString why;
            QVERIFY2(sameTrace(t, simulate(s, fencing), &why),
                     qPrintable(QStringLiteral("%1: %2").arg(s.title, why)));
            for (int edit = 0; edit < 6; ++edit) {
                auto [client, from, action] = randomEdit(s, rng, o);
                Action &a = s.clients[client].actions[action];
                if (a.kind == ActionKind::Acquire && rng.chance(40)) {
                    a.setKeepalive(a.keepalive() ? 0 : rng.between(1, a.amount));
                    from = std::min(from, a.at);
                } else if (a.kind == ActionKind::Write && rng.chance(40)) {
                    a.check = !a.check;
                    a.setGap(a.check ? rng.between(0, 8) : 0);
                    from = std::min(from, a.at);
                }
                const Trace full = simulate(s, fencing);
                const Tick through = rng.chance(50) ? kForever : from + rng.between(0, 60);
                sim.rerun(client, from, through, rng.chance(70) ? action : kNone);
                if (!sim.complete()) {
                    ++partials;
                    while (!sim.resume(kForever, std::size_t(rng.between(1, 25)))) {
                    }
                }
                QVERIFY2(
                    sameTrace(t, full, &why),
                    qPrintable(QStringLiteral("%1, edit %2: %3").arg(s.title).arg(edit).arg(why)));
            }
        }
        QVERIFY(partials > scheduleCount() / 20);
    }

    // Everything a document does to one simulator, in random order, on schedules that vary
    // more (up to 8 storages, any share of `le` storages, zero delays and unsorted lists,
    // ticks near 2^52): drag steps that name their action or not, stop at a tick or not,
    // finishing in pieces that stop at a tick or a budget, and whole new runs with fencing
    // switched. After each, a complete trace is a fresh run's and a partial one its prefix.
    void randomOperationSequences_data()
    {
        QTest::addColumn<int>("spacing");
        QTest::newRow("every event") << 1;
        QTest::newRow("every 2 events") << 2;
        QTest::newRow("every 5 events") << 5;
        QTest::newRow("every 16 events") << 16;
    }
    void randomOperationSequences()
    {
        QFETCH(int, spacing);
        int rejoined = 0, partial = 0;
        for (int i = 0; i < scheduleCount() / 2; ++i) {
            const std::uint64_t seed = 9100000 + std::uint64_t(i);
            Rng rng(seed);
            RandomScenarioOptions o = busy();
            o.maxStorages = int(rng.between(1, 8));
            o.lePercent = unsigned(rng.between(0, 100));
            o.zeroDelayPercent = unsigned(rng.between(0, 100));
            o.shufflePercent = unsigned(rng.between(0, 100));
            o.minActions = 1;
            Scenario s = randomScenario(seed, o);
            if (rng.chance(20)) { // far from tick 0
                for (Client &c : s.clients)
                    for (Action &a : c.actions)
                        a.at += Tick(1) << 52;
                o.span += Tick(1) << 52;
            }
            bool fencing = rng.chance(70);
            Simulator sim{std::size_t(spacing)};
            Trace t;
            sim.run(s, fencing, t);
            for (int op = 0; op < 12; ++op) {
                const int what = int(rng.between(0, 9));
                if (what == 0) { // opened again, or fencing switched
                    fencing = rng.chance(50) ? !fencing : fencing;
                    sim.run(s, fencing, t, rng.chance(50) ? kForever : rng.between(0, o.span));
                } else if (what <= 2) { // finishing in pieces
                    sim.resume(rng.chance(50) ? kForever : t.pendingFrom + rng.between(0, 20),
                               std::size_t(rng.between(1, 40)));
                } else {
                    const auto [client, from, action] = randomEdit(s, rng, o);
                    const Tick through = rng.chance(50) ? kForever : from + rng.between(0, 40);
                    sim.rerun(client, from, through, rng.chance(75) ? action : kNone);
                    rejoined += sim.rejoinedAt() != kForever;
                }
                const Trace fresh = simulate(s, fencing);
                QString why;
                const QString where = QStringLiteral("%1, op %2: ").arg(s.title).arg(op);
                if (t.complete()) {
                    QVERIFY2(sameTrace(t, fresh, &why), qPrintable(where + why));
                } else {
                    ++partial;
                    QVERIFY2(isPrefixOf(t, fresh, &why), qPrintable(where + why));
                }
            }
        }
        // every kind of step was taken
        QVERIFY(partial > scheduleCount() / 2);
        QVERIFY(rejoined > scheduleCount() / 2);
    }

    // An edit that changes a write's fate and still rejoins: under `le`, A's second write with
    // the same token is locked out while A's lease lives and rejected once it has ended. Both
    // are turned away, A stops believing either way, and from A's next grant on the run is
    // the old one again, but with one rejection where a lock-out was: the counts shift.
    void rejoinAfterAnOutcomeChanged()
    {
        Scenario s;
        s.storages.front().rule = FenceRule::Le;
        Client a, b;
        a.name = QStringLiteral("A");
        a.actions = {Action::acquire(0, 10),
                     Action::write(1, QStringLiteral("a1")),
                     Action::write(3, QStringLiteral("a2"), 0, 3),
                     Action::acquire(30, 10),
                     Action::write(32, QStringLiteral("a3")),
                     Action::write(34, QStringLiteral("a4"))};
        b.name = QStringLiteral("B");
        b.actions = {Action::acquire(20, 5), Action::write(21, QStringLiteral("b1"))};
        s.clients = {a, b};
        Simulator sim{1};
        Trace t;
        QVERIFY(sim.run(s, true, t));
        QVERIFY(t.writes[1].result == WriteResult::LockedOut); // arrives at 6, A's lease lives
        QCOMPARE(t.summary.lockedOut, 2u);                     // and a4 after A's second grant
        QCOMPARE(t.summary.rejected, 0u);

        s.clients[0].actions[2].amount = 10; // arrives at 13: A's lease ended at 10
        QVERIFY(sim.rerun(0, 3, kForever, 2));
        QVERIFY(sim.rejoinedAt() != kForever);
        QVERIFY(sim.rejoinedAt() > 13);
        QVERIFY(t.writes[1].result == WriteResult::Rejected);
        QCOMPARE(t.summary.lockedOut, 1u);
        QCOMPARE(t.summary.rejected, 1u);
        QString why;
        QVERIFY2(sameTrace(t, simulate(s, true), &why), qPrintable(why));

        // and back, from the checkpoints the rejoined run kept (their counts shifted too)
        s.clients[0].actions[2].amount = 3;
        QVERIFY(sim.rerun(0, 3, kForever, 2));
        QVERIFY(sim.rejoinedAt() != kForever);
        QCOMPARE(t.summary.lockedOut, 2u);
        QVERIFY2(sameTrace(t, simulate(s, true), &why), qPrintable(why));
        s.clients[1].actions[1].at = 22; // an edit after the rejoin point restores a kept one
        QVERIFY(sim.rerun(1, 21, kForever, 1));
        QVERIFY(sim.restartedFrom() > 13);
        QVERIFY2(sameTrace(t, simulate(s, true), &why), qPrintable(why));
    }

    // An edit whose effect is over soon (a pause of a client that does nothing else) on a big
    // schedule: the re-run finds the last run's state at a checkpoint shortly after the pause
    // and keeps the rest of that run instead of simulating it again; the result is still
    // exactly a fresh run, and so is every later drag step.
    void rerunRejoinsTheLastRun()
    {
        Scenario s = bigSchedule(98);
        Client idle;
        idle.name = QStringLiteral("idle");
        idle.actions = {Action::pause(20000, 50), Action::pause(30000, 50)};
        s.clients.push_back(idle);
        const auto client = std::uint32_t(s.clients.size() - 1);
        Simulator sim;
        Trace t;
        QVERIFY(sim.run(s, true, t));
        const std::size_t total = t.events.size();
        QVERIFY(total > 12000);
        QString why;
        for (int step = 1; step <= 6; ++step) {
            Action &pause = s.clients[client].actions[0];
            const Tick from = pause.at;
            pause.at += 1;
            pause.amount += Tick(step % 2); // longer now and then, like dragging its end
            QVERIFY(sim.rerun(client, from, kForever, 0));
            QVERIFY(sim.rejoinedAt() != kForever);
            QVERIFY(sim.rejoinedAt() > pause.at + pause.amount);
            // simulated again: from the checkpoint before the edit to the one after the pause
            const std::size_t redone =
                t.firstEventAt(sim.rejoinedAt()) - t.firstEventAt(sim.restartedFrom());
            QVERIFY2(redone <= 3 * 4096, qPrintable(QString::number(redone)));
            QCOMPARE(t.events.size(), total);
            QVERIFY2(sameTrace(t, simulate(s, true), &why), qPrintable(why));
        }
        // the other pause, not named: simulated to the end, still exact
        Action &later = s.clients[client].actions[1];
        const Tick from = later.at;
        later.at -= 5;
        QVERIFY(sim.rerun(client, from - 5));
        QCOMPARE(sim.rejoinedAt(), kForever);
        QVERIFY2(sameTrace(t, simulate(s, true), &why), qPrintable(why));
    }

    // A big schedule: a re-run after an edit late in the run starts from a checkpoint near the
    // edit instead of tick 0, and a run stopped early holds only what happened before its stop.
    void rerunStartsNearTheEdit()
    {
        Scenario s = bigSchedule(99);
        Simulator sim;
        Trace t;
        QVERIFY(sim.run(s, true, t));
        const std::size_t total = t.events.size();
        QVERIFY(total > 12000);

        // move the last pause of client 0 by one tick: everything before it stays
        std::vector<Action> &actions = s.clients[0].actions;
        auto pause = std::find_if(actions.rbegin(), actions.rend(),
                                  [](const Action &a) { return a.kind == ActionKind::Pause; });
        QVERIFY(pause != actions.rend());
        const Tick from = pause->at;
        pause->at += 1;
        // stop right after the edit: far fewer events than the whole run were simulated again
        sim.rerun(0, from, from);
        QVERIFY(sim.restartedFrom() <= from);
        // from the last checkpoint before the edit: at most the default spacing of events back
        QVERIFY(t.firstEventAt(sim.restartedFrom()) + 4096 >= t.firstEventAt(from));
        QVERIFY(t.firstEventAt(sim.restartedFrom()) > total / 2);
        QVERIFY(!t.complete());
        // judged by the last complete run: about what the full run has after the stop
        QCOMPARE(sim.eventsLeftEstimate(), total - t.events.size());
        QVERIFY(t.pendingFrom > from);
        const std::size_t prefix = t.events.size();
        QVERIFY(prefix > total / 2);
        QString why;
        const Trace full = simulate(s, true);
        QVERIFY2(isPrefixOf(t, full, &why), qPrintable(why));
        QVERIFY(sim.resume());
        QVERIFY2(sameTrace(t, full, &why), qPrintable(why));
        QCOMPARE(sim.eventsLeftEstimate(), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestResimulation)
#include "tst_resimulation.moc"
