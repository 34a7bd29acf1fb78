// Properties of simulate() over many seeded random schedules (docs/SCENARIO.md sections 1-6), and
// an independent reference implementation of the spec that must agree with it write by write.
//
// The schedule count defaults to 10,000 per test; FENCESCOPE_QUICK=1 in the environment cuts it
// to 1,000 for slow (sanitizer) builds. Over 600 lines: the reference model is most of it, and
// it belongs beside the properties that compare with it.

#include "randomscenario.h"
#include "simulator.h"
#include "testprinters.h"
#include "tracecompare.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <optional>

using namespace Core;
using TestSupport::RandomScenarioOptions;
using TestSupport::randomScenario;
using TestSupport::sameTrace;

namespace {

int scheduleCount()
{
    return qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 1000 : 10000;
}

// ---------------------------------------------------------------------------------------------
// Reference model, written from docs/SCENARIO.md alone: a naive loop over every tick, no queues, no
// precomputed freeze intervals. Slow (O(ticks * actions)) and obvious on purpose.
// ---------------------------------------------------------------------------------------------
namespace Ref {

struct Grant
{
    Tick at;
    Tick expires;
    Token token;
    std::uint32_t epoch;
    std::uint32_t client;
    bool renewal;
};

struct Refusal
{
    Tick at;
    std::uint32_t client;
    std::uint32_t holder;
};

struct Write
{
    std::uint32_t client;
    std::uint32_t action;
    std::uint32_t storage;
    Tick sentAt;
    Tick arrivedAt;
    bool tagged;
    Token token;
    std::uint32_t epoch;
    bool applied = false;
    WriteResult result = WriteResult::Accepted;
    Token maxToken = 0;
    bool expired = false;
};

struct Lease
{
    Tick start;
    Tick end;
    Token token;
    std::uint32_t client;
    bool released;
};

struct Result
{
    std::vector<Grant> grants;
    std::vector<Refusal> refusals;
    std::vector<Write> writes;         // in send order
    std::vector<std::uint32_t> arrivals; // write indices in arrival order
    std::vector<Lease> leases;         // per epoch
    std::vector<std::vector<Freeze>> freezes;
    std::vector<QString> finalValue;
    std::vector<Token> finalMaxToken;
};

Result run(const Scenario &s, bool fencing)
{
    Result r;
    const std::size_t nc = s.clients.size();
    const std::size_t ns = s.storages.size();

    // A client is frozen at tick t if any of its pause windows [p, p + d) contains t (§3).
    const auto frozen = [&](std::size_t c, Tick t) {
        for (const Action &a : s.clients[c].actions)
            if (a.kind == ActionKind::Pause && a.at <= t && t < a.at + a.amount)
                return true;
        return false;
    };

    // Not yet run actions of each client, in order of `at`, ties in listed order (§3).
    std::vector<std::vector<std::uint32_t>> pending(nc);
    Tick lastInteresting = 0;
    for (std::size_t c = 0; c < nc; ++c) {
        const auto &actions = s.clients[c].actions;
        for (std::uint32_t i = 0; i < actions.size(); ++i) {
            if (actions[i].kind == ActionKind::Pause)
                lastInteresting = std::max(lastInteresting, actions[i].at + actions[i].amount);
            else
                pending[c].push_back(i);
        }
        std::stable_sort(pending[c].begin(), pending[c].end(),
                         [&](std::uint32_t a, std::uint32_t b) {
                             return actions[a].at < actions[b].at;
                         });
    }

    // lock service (§2)
    bool everHeld = false;
    std::uint32_t holder = 0;
    Tick expiry = 0;
    Token lastToken = 0;
    std::uint32_t epochs = 0;
    const auto live = [&](Tick t) { return everHeld && t < expiry; };

    // what each client remembers (§3)
    std::vector<std::optional<std::pair<Token, std::uint32_t>>> remembered(nc);

    // storages (§4)
    std::vector<QString> value(ns);
    std::vector<Token> maxToken(ns, 0);
    std::vector<std::vector<std::uint32_t>> appliedEpochs(ns);

    std::vector<std::uint32_t> inFlight;

    const auto arrive = [&](std::uint32_t wi, Tick t) {
        Write &w = r.writes[wi];
        const std::uint32_t st = w.storage;
        if (!fencing) {
            w.applied = true; // max_token left alone
        } else if (!w.tagged) {
            w.applied = false;
        } else if (s.storages[st].rule == FenceRule::Lt) {
            w.applied = !(w.token < maxToken[st]);
            if (w.applied)
                maxToken[st] = w.token;
        } else {
            w.applied = !(w.token <= maxToken[st]);
            if (w.applied)
                maxToken[st] = w.token;
        }
        // The newest epoch is live at t exactly when the lock is live; any older epoch's lease
        // ended before the next grant could happen.
        const bool ownEpochLive = w.tagged && live(t) && epochs == w.epoch;
        if (w.applied) {
            value[st] = s.clients[w.client].actions[w.action].value;
            bool newerApplied = false;
            for (std::uint32_t e : appliedEpochs[st])
                newerApplied = newerApplied || e > w.epoch;
            w.result = newerApplied ? WriteResult::Corrupted : WriteResult::Accepted;
            appliedEpochs[st].push_back(w.epoch);
        } else {
            w.result = ownEpochLive && holder == w.client ? WriteResult::LockedOut
                                                          : WriteResult::Rejected;
        }
        w.maxToken = maxToken[st];
        w.expired = w.tagged && !ownEpochLive;
        r.arrivals.push_back(wi);
    };

    const auto anythingLeft = [&] {
        if (!inFlight.empty())
            return true;
        for (const auto &p : pending)
            if (!p.empty())
                return true;
        return false;
    };

    for (Tick t = 0; anythingLeft(); ++t) {
        // §5 first: writes arriving now, in the order they were sent, ties by lane
        std::vector<std::uint32_t> now;
        for (std::uint32_t wi : inFlight)
            if (r.writes[wi].arrivedAt == t)
                now.push_back(wi);
        std::stable_sort(now.begin(), now.end(), [&](std::uint32_t a, std::uint32_t b) {
            const Write &x = r.writes[a];
            const Write &y = r.writes[b];
            if (x.sentAt != y.sentAt)
                return x.sentAt < y.sentAt;
            if (x.client != y.client)
                return x.client < y.client;
            return a < b; // same client, same tick: the order it sent them
        });
        for (std::uint32_t wi : now) {
            arrive(wi, t);
            inFlight.erase(std::find(inFlight.begin(), inFlight.end(), wi));
        }

        // then the clients in lane order; a frozen client does nothing, a thawed one first
        // catches up on everything that came due while it was frozen
        for (std::uint32_t c = 0; c < nc; ++c) {
            if (frozen(c, t))
                continue;
            auto &queue = pending[c];
            while (!queue.empty() && s.clients[c].actions[queue.front()].at <= t) {
                const std::uint32_t i = queue.front();
                queue.erase(queue.begin());
                const Action &a = s.clients[c].actions[i];
                switch (a.kind) {
                case ActionKind::Acquire:
                    if (live(t) && holder != c) {
                        r.refusals.push_back({t, c, holder});
                    } else if (live(t)) {
                        expiry = t + a.amount;
                        r.leases.back().end = expiry;
                        r.grants.push_back({t, expiry, lastToken, epochs, c, true});
                    } else {
                        everHeld = true;
                        holder = c;
                        expiry = t + a.amount;
                        ++lastToken;
                        ++epochs;
                        remembered[c] = std::make_pair(lastToken, epochs);
                        r.leases.push_back({t, expiry, lastToken, c, false});
                        r.grants.push_back({t, expiry, lastToken, epochs, c, false});
                    }
                    break;
                case ActionKind::Release:
                    if (live(t) && holder == c) {
                        expiry = t;
                        r.leases.back().end = t;
                        r.leases.back().released = true;
                    }
                    break;
                case ActionKind::Write: {
                    Write w{};
                    w.client = c;
                    w.action = i;
                    w.storage = a.storage;
                    w.sentAt = t;
                    w.arrivedAt = t + a.amount;
                    w.tagged = remembered[c].has_value();
                    w.token = w.tagged ? remembered[c]->first : 0;
                    w.epoch = w.tagged ? remembered[c]->second : 0;
                    r.writes.push_back(w);
                    const auto wi = std::uint32_t(r.writes.size() - 1);
                    if (a.amount == 0)
                        arrive(wi, t); // handled at once, during the client's action
                    else
                        inFlight.push_back(wi);
                    break;
                }
                case ActionKind::Pause:
                    break;
                case ActionKind::Read: // (v1 has none, nor do the scenarios drawn here)
                    qFatal("the v1 reference model was given a read");
                }
            }
        }
    }

    // frozen stretches: maximal runs of frozen ticks
    r.freezes.resize(nc);
    for (std::size_t c = 0; c < nc; ++c) {
        bool in = false;
        for (Tick t = 0; t <= lastInteresting; ++t) {
            const bool f = frozen(c, t);
            if (f && !in)
                r.freezes[c].push_back({t, t});
            if (!f && in)
                r.freezes[c].back().to = t;
            in = f;
        }
    }
    r.finalValue = value;
    r.finalMaxToken = maxToken;
    return r;
}

} // namespace Ref

// Compares simulate() with the reference; returns an empty string when they agree.
QString compareWithReference(const Scenario &s, bool fencing)
{
    const Trace t = simulate(s, fencing);
    const Ref::Result r = Ref::run(s, fencing);
#define AGREE(expr, what)                                                                          \
    if (!(expr))                                                                                   \
        return QStringLiteral("%1 (fencing %2): %3").arg(s.title, fencing ? "on" : "off", what);

    AGREE(t.grants.size() == r.grants.size(), QStringLiteral("number of grants"));
    for (std::size_t i = 0; i < r.grants.size(); ++i) {
        const Grant &x = t.grants[i];
        const Ref::Grant &y = r.grants[i];
        AGREE(x.at == y.at && x.expires == y.expires && x.token == y.token &&
                  x.epoch == y.epoch && x.client == y.client && x.renewal == y.renewal,
              QStringLiteral("grant %1").arg(i));
    }
    AGREE(t.refusals.size() == r.refusals.size(), QStringLiteral("number of refusals"));
    for (std::size_t i = 0; i < r.refusals.size(); ++i) {
        const Refusal &x = t.refusals[i];
        const Ref::Refusal &y = r.refusals[i];
        AGREE(x.at == y.at && x.client == y.client && x.holder == y.holder,
              QStringLiteral("refusal %1").arg(i));
    }
    AGREE(t.writes.size() == r.writes.size(), QStringLiteral("number of writes"));
    for (std::size_t i = 0; i < r.writes.size(); ++i) {
        const Write &x = t.writes[i];
        const Ref::Write &y = r.writes[i];
        AGREE(x.client == y.client && x.action == y.action && x.storage == y.storage,
              QStringLiteral("write %1: who").arg(i));
        AGREE(x.sentAt == y.sentAt && x.arrivedAt == y.arrivedAt,
              QStringLiteral("write %1: times %2->%3, reference %4->%5")
                  .arg(i).arg(x.sentAt).arg(x.arrivedAt).arg(y.sentAt).arg(y.arrivedAt));
        AGREE(x.tagged == y.tagged && (!y.tagged || t.tokenOf(x) == y.token) && x.epoch == y.epoch,
              QStringLiteral("write %1: token").arg(i));
        AGREE(x.applied == y.applied && x.result == y.result,
              QStringLiteral("write %1: result %2, reference %3")
                  .arg(i).arg(toString(x.result), toString(y.result)));
        AGREE(x.maxToken == y.maxToken, QStringLiteral("write %1: maxToken").arg(i));
        AGREE(x.expired == y.expired, QStringLiteral("write %1: expired").arg(i));
    }
    std::vector<std::uint32_t> arrivals;
    for (const Event &e : t.events)
        if (e.kind == EventKind::WriteArrived)
            arrivals.push_back(e.ref);
    AGREE(arrivals == r.arrivals, QStringLiteral("arrival order"));
    AGREE(t.leases.size() == r.leases.size(), QStringLiteral("number of leases"));
    for (std::size_t i = 0; i < r.leases.size(); ++i) {
        const Lease &x = t.leases[i];
        const Ref::Lease &y = r.leases[i];
        AGREE(x.start == y.start && x.end == y.end && x.token == y.token &&
                  x.epoch == i + 1 && x.client == y.client && x.released == y.released,
              QStringLiteral("lease %1").arg(i + 1));
    }
    for (std::size_t c = 0; c < s.clients.size(); ++c) {
        AGREE(t.freezes[c].size() == r.freezes[c].size(), QStringLiteral("freezes of %1").arg(c));
        for (std::size_t i = 0; i < r.freezes[c].size(); ++i)
            AGREE(t.freezes[c][i].from == r.freezes[c][i].from &&
                      t.freezes[c][i].to == r.freezes[c][i].to,
                  QStringLiteral("freeze %1 of client %2").arg(i).arg(c));
    }
    for (std::size_t i = 0; i < s.storages.size(); ++i)
        AGREE(t.finals[i].value == r.finalValue[i] && t.finals[i].maxToken == r.finalMaxToken[i],
              QStringLiteral("final state of storage %1").arg(i));
#undef AGREE
    return {};
}

} // namespace

class TestProperties : public QObject
{
    Q_OBJECT

private slots:
    void generatorIsDeterministicAndInRange()
    {
        for (std::uint64_t seed = 0; seed < 500; ++seed) {
            const Scenario a = randomScenario(seed);
            QCOMPARE(randomScenario(seed), a);
            QVERIFY(a.clients.size() >= 1 && a.clients.size() <= 5);
            QVERIFY(a.storages.size() >= 1 && a.storages.size() <= 3);
            for (const Client &c : a.clients)
                for (const Action &act : c.actions) {
                    QVERIFY(act.at < 60);
                    QVERIFY(act.storage < a.storages.size());
                    if (act.kind == ActionKind::Acquire || act.kind == ActionKind::Pause)
                        QVERIFY(act.amount > 0);
                }
        }
        QVERIFY(randomScenario(1) != randomScenario(2));
    }

    // The central safety claim (§6): fencing on, rule lt, monotonic counter -> never corrupted.
    void fencedLtNeverCorrupts()
    {
        const int n = scheduleCount();
        std::uint64_t writes = 0;
        std::uint64_t rejected = 0;
        for (int i = 0; i < n; ++i) {
            const std::uint64_t seed = 1000000 + std::uint64_t(i);
            const Scenario s = randomScenario(seed);
            const Trace t = simulate(s, true);
            QVERIFY2(t.summary.corrupted == 0, qPrintable(s.title));

            // tokens: strictly increasing over grants, renewals keep the holder's token,
            // token == epoch for the counter
            Token last = 0;
            std::uint32_t lastEpoch = 0;
            std::uint32_t holder = kNone;
            for (const Grant &g : t.grants) {
                QCOMPARE(g.token, Token(g.epoch));
                if (g.renewal) {
                    QCOMPARE(g.token, last);
                    QCOMPARE(g.epoch, lastEpoch);
                    QCOMPARE(g.client, holder);
                } else {
                    QVERIFY2(g.token > last, qPrintable(s.title));
                    QCOMPARE(g.epoch, lastEpoch + 1);
                    last = g.token;
                    lastEpoch = g.epoch;
                    holder = g.client;
                }
            }

            // per storage: maxToken after each arrival is the max of the tokens applied so far;
            // summary counts equal the per-write counts
            Summary counted;
            std::vector<Token> maxApplied(s.storages.size(), 0);
            for (std::size_t st = 0; st < s.storages.size(); ++st) {
                Tick prevArrival = 0;
                for (std::uint32_t wi : t.storageWrites[st]) {
                    const Write &w = t.writes[wi];
                    QCOMPARE(w.storage, std::uint32_t(st));
                    QVERIFY(w.arrivedAt >= prevArrival);
                    prevArrival = w.arrivedAt;
                    QCOMPARE(w.arrivedAt, w.sentAt + s.clients[w.client].actions[w.action].delay());
                    QVERIFY(w.result != WriteResult::Corrupted);
                    QCOMPARE(w.applied, w.result == WriteResult::Accepted);
                    if (!w.tagged)
                        QVERIFY(!w.applied);
                    if (w.applied)
                        maxApplied[st] = std::max(maxApplied[st], t.tokenOf(w));
                    QCOMPARE(w.maxToken, maxApplied[st]);
                }
                QCOMPARE(t.finals[st].maxToken, maxApplied[st]);
            }
            for (const Write &w : t.writes) {
                ++writes;
                switch (w.result) {
                case WriteResult::Accepted:
                    ++counted.accepted;
                    break;
                case WriteResult::Rejected:
                    ++counted.rejected;
                    ++rejected;
                    break;
                case WriteResult::Corrupted:
                    ++counted.corrupted;
                    break;
                case WriteResult::LockedOut:
                    ++counted.lockedOut;
                    break;
                }
            }
            QCOMPARE(t.summary.accepted, counted.accepted);
            QCOMPARE(t.summary.rejected, counted.rejected);
            QCOMPARE(t.summary.corrupted, counted.corrupted);
            QCOMPARE(t.summary.lockedOut, counted.lockedOut); // 0 with lt, but count anyway
            QCOMPARE(t.summary.lockedOut, std::uint64_t(0));
        }
        // the schedules do exercise fencing: a good share of writes is turned away
        qInfo("fenced: %llu writes, %llu rejected", static_cast<unsigned long long>(writes),
              static_cast<unsigned long long>(rejected));
        QVERIFY(writes > std::uint64_t(n) * 5);
        QVERIFY(rejected * 10 > writes);
    }

    // The same schedules without fencing: corruption must show up in a fair share of them.
    // Measured with the default options over seeds 1,000,000..1,009,999 (see the qInfo lines):
    // 58.6% of the schedules contain a corrupted write, and 26.9% one where a client that had
    // been granted the lock overwrote newer data with its stale token (the zombie story, not
    // just an untagged write by a client that never held the lock). The first 1,000 seeds
    // (quick mode) give 58.2% and 25.6%. Requiring 40% and 20% leaves room for generator
    // tweaks while proving that the unfenced store loses data routinely, not by accident.
    void unfencedCorruptsInAFairShare()
    {
        const int n = scheduleCount();
        int corruptedSchedules = 0;
        int staleTokenSchedules = 0;
        for (int i = 0; i < n; ++i) {
            const Scenario s = randomScenario(1000000 + std::uint64_t(i));
            const Trace t = simulate(s, false);
            if (t.summary.corrupted > 0)
                ++corruptedSchedules;
            if (std::any_of(t.writes.begin(), t.writes.end(), [](const Write &w) {
                    return w.tagged && w.result == WriteResult::Corrupted;
                }))
                ++staleTokenSchedules;
            Summary counted;
            for (const Write &w : t.writes) {
                // no check at the resource: everything is applied, max_token never moves
                QVERIFY(w.applied);
                QCOMPARE(w.maxToken, Token(0));
                QVERIFY(w.result == WriteResult::Accepted || w.result == WriteResult::Corrupted);
                if (w.result == WriteResult::Accepted)
                    ++counted.accepted;
                else
                    ++counted.corrupted;
            }
            QCOMPARE(t.summary.accepted, counted.accepted);
            QCOMPARE(t.summary.corrupted, counted.corrupted);
            QCOMPARE(t.summary.rejected + t.summary.lockedOut, std::uint64_t(0));
            // the same schedule fenced is safe
            QCOMPARE(simulate(s, true).summary.corrupted, std::uint64_t(0));
        }
        const double fraction = double(corruptedSchedules) / n;
        const double staleFraction = double(staleTokenSchedules) / n;
        qInfo("unfenced: %d of %d schedules (%.1f%%) have a corrupted write, %d (%.1f%%) one "
              "with a stale token",
              corruptedSchedules, n, 100 * fraction, staleTokenSchedules, 100 * staleFraction);
        QVERIFY2(fraction >= 0.40, qPrintable(QString::number(fraction)));
        QVERIFY2(staleFraction >= 0.20, qPrintable(QString::number(staleFraction)));
    }

    void simulationIsDeterministic()
    {
        const int n = scheduleCount();
        RandomScenarioOptions withLe;
        withLe.lePercent = 40;
        for (int i = 0; i < n; ++i) {
            const std::uint64_t seed = 2000000 + std::uint64_t(i);
            const Scenario s = randomScenario(seed, withLe);
            const Scenario copy = randomScenario(seed, withLe); // rebuilt, not copied
            for (bool fencing : {true, false}) {
                QString why;
                QVERIFY2(sameTrace(simulate(s, fencing), simulate(copy, fencing), &why),
                         qPrintable(s.title + QStringLiteral(": ") + why));
            }
        }
    }

    // The strongest check: an independent reading of the spec agrees on every write, grant,
    // refusal, lease, freeze and final state. Both rules, fencing on and off, with more
    // out-of-order listings and zero delays than the default mix.
    void referenceAgrees_data()
    {
        QTest::addColumn<int>("lePercent");
        QTest::addColumn<int>("shufflePercent");
        QTest::addColumn<int>("maxClients");
        QTest::newRow("lt") << 0 << 20 << 5;
        QTest::newRow("le and lt") << 50 << 20 << 5;
        QTest::newRow("shuffled") << 30 << 100 << 5;
        QTest::newRow("crowded") << 30 << 20 << 8;
    }
    void referenceAgrees()
    {
        QFETCH(int, lePercent);
        QFETCH(int, shufflePercent);
        QFETCH(int, maxClients);
        RandomScenarioOptions o;
        o.lePercent = unsigned(lePercent);
        o.shufflePercent = unsigned(shufflePercent);
        o.maxClients = maxClients;
        const int n = scheduleCount();
        std::map<WriteResult, std::uint64_t> seen;
        for (int i = 0; i < n; ++i) {
            const Scenario s = randomScenario(3000000 + std::uint64_t(i) * 7 + std::uint64_t(lePercent), o);
            for (bool fencing : {true, false}) {
                const QString problem = compareWithReference(s, fencing);
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
            }
            for (const Write &w : simulate(s).writes)
                ++seen[w.result];
            for (const Write &w : simulate(s, false).writes)
                ++seen[w.result];
        }
        // every outcome class was exercised (lockedOut needs the le rule)
        QVERIFY(seen[WriteResult::Accepted] > 0);
        QVERIFY(seen[WriteResult::Rejected] > 0);
        QVERIFY(seen[WriteResult::Corrupted] > 0);
        if (lePercent > 0)
            QVERIFY(seen[WriteResult::LockedOut] > 0);
    }

    // The reference itself, on the docs/SCENARIO.md story, so a bug in it cannot hide behind an
    // identical bug in simulate().
    void referenceReproducesTheSpecExample()
    {
        Scenario s;
        Client a{QStringLiteral("A"),
                 {Action::acquire(0, 10), Action::pause(1, 29), Action::write(30, QStringLiteral("A"))},
                 {}, false, {}};
        Client b{QStringLiteral("B"),
                 {Action::acquire(5, 10), Action::acquire(12, 10), Action::write(13, QStringLiteral("B"))},
                 {}, false, {}};
        s.clients = {a, b};
        const Ref::Result r = Ref::run(s, true);
        QCOMPARE(r.grants.size(), std::size_t(2));
        QCOMPARE(r.grants[1].token, Token(2));
        QCOMPARE(r.refusals.size(), std::size_t(1));
        QCOMPARE(r.writes.size(), std::size_t(2));
        QCOMPARE_NAME(r.writes[0].result, WriteResult::Accepted);
        QCOMPARE_NAME(r.writes[1].result, WriteResult::Rejected);
        QCOMPARE(r.writes[1].sentAt, Tick(30));
        QCOMPARE(r.writes[1].maxToken, Token(2));
        QVERIFY(r.writes[1].expired);
        QCOMPARE(r.finalValue[0], QStringLiteral("B"));
        const Ref::Result open = Ref::run(s, false);
        QCOMPARE_NAME(open.writes[1].result, WriteResult::Corrupted);
        QCOMPARE(open.finalValue[0], QStringLiteral("A"));
    }
};

QTEST_GUILESS_MAIN(TestProperties)
#include "tst_properties.moc"
