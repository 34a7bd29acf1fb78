// Over 600 lines: one hand-worked run per claim kind and per rule of judging a question, kept
// together so they read as the table of docs/LESSONS.md does.
// Every kind of claim (docs/LESSONS.md, "Claims") judged on runs worked out by hand from the
// scenarios' rules (docs/SCENARIO.md), with the event that settles it; questions judged as a whole
// (none, one or several options holding, the answer on screen before the freeze, the reveal past
// the view); a question judged again after its scenario changed; and the sentence of each claim.

#include "explain.h"
#include "lessonclaims.h"
#include "lessonplay.h"
#include "presetfile.h"
#include "scenariofile.h"
#include "simulator.h"

#include <QTest>

using namespace Core;
using TestSupport::preset;

namespace {

Scenario scenario(const char *json)
{
    const LoadResult r = ScenarioFile::parse(QByteArray(json));
    if (!r.ok())
        qFatal("%s", qPrintable(r.error));
    return *r.scenario;
}

Claim writeClaim(const char *client, const char *value, ClaimOutcome outcome, std::uint32_t nth = 0,
                 const char *storage = "")
{
    Claim c;
    c.kind = ClaimKind::Write;
    c.write.client = QString::fromUtf8(client);
    if (value)
        c.write.value = QString::fromUtf8(value);
    c.write.nth = nth;
    c.write.storage = QString::fromUtf8(storage);
    c.outcome = outcome;
    return c;
}

Claim grantClaim(const char *client, std::uint32_t nth = 0)
{
    Claim c;
    c.kind = ClaimKind::Grant;
    c.grant.client = QString::fromUtf8(client);
    c.grant.nth = nth;
    return c;
}

Claim tokenIs(Claim c, Token token)
{
    c.test = TokenTest::Equals;
    c.token = token;
    return c;
}

Claim tokenReads(Claim c, const char *text)
{
    c.test = TokenTest::Written;
    c.tokenText = QString::fromUtf8(text);
    return c;
}

Claim compared(Claim c, TokenTest test, const char *other, std::uint32_t nth = 0)
{
    c.test = test;
    c.other.client = QString::fromUtf8(other);
    c.other.nth = nth;
    return c;
}

Claim kindClaim(ClaimKind kind, ClaimOutcome outcome = ClaimOutcome::Accepted,
                bool exclusive = true)
{
    Claim c;
    c.kind = kind;
    c.outcome = outcome;
    c.exclusive = exclusive;
    return c;
}

Claim finalValue(const char *storage, const char *value)
{
    Claim c;
    c.kind = ClaimKind::Final;
    c.storage = QString::fromUtf8(storage);
    c.finalValue = QString::fromUtf8(value);
    return c;
}

Claim finalMax(const char *storage, Token max)
{
    Claim c;
    c.kind = ClaimKind::Final;
    c.storage = QString::fromUtf8(storage);
    c.finalMaxToken = max;
    return c;
}

// The value of the write a verdict's event records.
QString eventWrite(const Scenario &s, const Trace &t, const ClaimVerdict &v)
{
    if (v.event == kNone)
        return QStringLiteral("(none)");
    const Event &e = t.events[v.event];
    if (e.kind == EventKind::WriteArrived)
        return writeValue(s, t.writes[e.ref]);
    if (e.kind == EventKind::Skipped)
        return s.clients[e.client].actions[t.skips[e.ref].action].value;
    return toString(e.kind) + QLatin1Char(' ') + s.clients[e.client].name;
}

LessonQuestion question(Tick freeze, const std::vector<Claim> &claims)
{
    LessonQuestion q;
    q.prompt = QStringLiteral("?");
    q.freeze = freeze;
    for (const Claim &c : claims)
        q.options.push_back({c, {}, {}});
    return q;
}

// A write checked against its lease, after the lease (5 ticks) has run out by A's own clock.
const char kSkipped[] = R"({"fencescope": 1, "clients": [ {"name": "A", "actions": [
    {"at": 0, "do": "acquire", "ttl": 5},
    {"at": 8, "do": "write", "value": "A", "check": true} ] } ] })";

// One update across two storages: A writes the row at 8, freezes 9..19, writes the index at 19
// (rejected: B wrote it with token 2 at 12); the row was accepted (the two-resources preset).
const char kTwoResources[] = R"({"fencescope": 1,
  "storages": [ {"name": "db"}, {"name": "index"} ],
  "clients": [
    {"name": "A", "actions": [
      {"at": 0, "do": "acquire", "ttl": 10},
      {"at": 8, "do": "write", "value": "A", "group": "order"},
      {"at": 9, "do": "pause", "for": 10},
      {"at": 10, "do": "write", "value": "A", "storage": "index", "group": "order"} ] },
    {"name": "B", "actions": [
      {"at": 11, "do": "acquire", "ttl": 10},
      {"at": 12, "do": "write", "value": "B", "group": "order"},
      {"at": 12, "do": "write", "value": "B", "storage": "index", "group": "order"} ] } ] })";

} // namespace

Q_DECLARE_METATYPE(Core::Scenario)

class TestLessonClaims : public QObject
{
    Q_OBJECT
private slots:
    void sentences()
    {
        QCOMPARE(claimText(writeClaim("A", "A", ClaimOutcome::Rejected)),
                 QStringLiteral("A's write \"A\" is rejected"));
        QCOMPARE(claimText(writeClaim("A", nullptr, ClaimOutcome::LockedOut, 2)),
                 QStringLiteral("A's second write is locked out"));
        QCOMPARE(claimText(writeClaim("A", "A", ClaimOutcome::Skipped, 12, "index")),
                 QStringLiteral("A's 12th write \"A\" to index is skipped"));
        QCOMPARE(claimText(writeClaim("job", nullptr, ClaimOutcome::Corrupted, 23)),
                 QStringLiteral("job's 23rd write is corrupted"));
        QCOMPARE(claimText(finalValue("db", "B")), QStringLiteral("db ends with the value \"B\""));
        QCOMPARE(claimText(finalValue("db", "")), QStringLiteral("db ends empty"));
        QCOMPARE(claimText(finalMax("jn", 0)), QStringLiteral("jn ends with max_token 0"));
        QCOMPARE(claimText(tokenIs(grantClaim("B"), 2)),
                 QStringLiteral("B's grant carries token 2"));
        QCOMPARE(claimText(tokenReads(grantClaim("B", 1), "rev 8")),
                 QStringLiteral("B's first grant carries rev 8"));
        Claim none = grantClaim("B");
        none.test = TokenTest::NoToken;
        QCOMPARE(claimText(none), QStringLiteral("B's grant carries no token"));
        QCOMPARE(claimText(compared(grantClaim("A", 2), TokenTest::Same, "B")),
                 QStringLiteral("A's second grant carries the same token as B's grant"));
        QCOMPARE(claimText(compared(grantClaim("B"), TokenTest::Below, "A")),
                 QStringLiteral("B's grant carries a lower token than A's grant"));
        QCOMPARE(claimText(compared(grantClaim("B"), TokenTest::Above, "A", 1)),
                 QStringLiteral("B's grant carries a higher token than A's first grant"));
        QCOMPARE(claimText(kindClaim(ClaimKind::Some, ClaimOutcome::Corrupted)),
                 QStringLiteral("some write is corrupted"));
        QCOMPARE(claimText(kindClaim(ClaimKind::No, ClaimOutcome::Partial)),
                 QStringLiteral("no update is half applied"));
        QCOMPARE(claimText(kindClaim(ClaimKind::Lock)),
                 QStringLiteral("the lock is never held by two clients at once"));
        QCOMPARE(claimText(kindClaim(ClaimKind::Lock, {}, false)),
                 QStringLiteral("at some moment two clients hold the lock at once"));
        QCOMPARE(claimText(kindClaim(ClaimKind::Belief)),
                 QStringLiteral("no two clients ever believe they hold the lock at once"));
        QCOMPARE(claimText(kindClaim(ClaimKind::Belief, {}, false)),
                 QStringLiteral("at some moment two clients believe they hold the lock"));
        QCOMPARE(optionLetter(0), QStringLiteral("A"));
        QCOMPARE(optionLetter(4), QStringLiteral("E"));
    }

    // Each outcome on a run worked out by hand; the claim holds for that outcome only, and is
    // settled where the write arrives (or is skipped).
    void writeOutcome_data()
    {
        QTest::addColumn<Scenario>("s");
        QTest::addColumn<bool>("fencing");
        QTest::addColumn<QString>("client");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<Tick>("at");
        // A's write waits in the pause and goes at 30 with token 1; B wrote token 2 at 13
        QTest::newRow("default fenced: A rejected")
            << preset("default") << true << "A"
            << "A" << int(ClaimOutcome::Rejected) << Tick(30);
        QTest::newRow("default fenced: B accepted")
            << preset("default") << true << "B"
            << "B" << int(ClaimOutcome::Accepted) << Tick(13);
        QTest::newRow("default unfenced: A corrupted")
            << preset("default") << false << "A"
            << "A" << int(ClaimOutcome::Corrupted) << Tick(30);
        // rule le: A2 carries token 1 = max_token 1, and A is the live holder
        QTest::newRow("le: A2 locked out") << preset("le-locks-out-holder") << true << "A"
                                           << "A2" << int(ClaimOutcome::LockedOut) << Tick(4);
        // A's 5-tick lease has run out by its clock at 8: the checked write sends nothing
        QTest::newRow("check after the lease: skipped")
            << scenario(kSkipped) << true << "A"
            << "A" << int(ClaimOutcome::Skipped) << Tick(8);
    }
    void writeOutcome()
    {
        QFETCH(Scenario, s);
        QFETCH(bool, fencing);
        QFETCH(QString, client);
        QFETCH(QString, value);
        QFETCH(int, outcome);
        QFETCH(Tick, at);
        const Trace t = simulate(s, fencing);
        for (int o = 0; o <= int(ClaimOutcome::Skipped); ++o) {
            const ClaimVerdict v = judgeClaim(
                writeClaim(qPrintable(client), qPrintable(value), ClaimOutcome(o)), s, t);
            QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
            QCOMPARE(v.holds, o == outcome);
            QCOMPARE(v.decidedAt, at);
            QCOMPARE(v.shownAt, at);
            QCOMPARE(eventWrite(s, t, v), value);
        }
    }

    // "nth" counts a client's writes in the order they run: by tick, ties in listed order.
    void nthInRunOrder()
    {
        const Scenario s = scenario(R"({"fencescope": 1, "clients": [ {"name": "A", "actions": [
            {"at": 0, "do": "acquire", "ttl": 50},
            {"at": 9, "do": "write", "value": "late"},
            {"at": 4, "do": "write", "value": "early"},
            {"at": 4, "do": "write", "value": "tie"} ] } ] })");
        const Trace t = simulate(s);
        const char *expected[] = {"early", "tie", "late"};
        for (std::uint32_t n = 1; n <= 3; ++n) {
            const ClaimVerdict v =
                judgeClaim(writeClaim("A", nullptr, ClaimOutcome::Accepted, n), s, t);
            QVERIFY2(v.holds, qPrintable(v.error));
            QCOMPARE(eventWrite(s, t, v), QString::fromLatin1(expected[n - 1]));
        }
        QCOMPARE(judgeClaim(writeClaim("A", nullptr, ClaimOutcome::Accepted, 4), s, t).error,
                 QStringLiteral("write.nth: A has only 3 writes, not 4"));
    }

    // A value written to two storages: "storage" says which write.
    void storageNamesTheWrite()
    {
        const Scenario s = scenario(kTwoResources);
        const Trace t = simulate(s);
        QCOMPARE(judgeClaim(writeClaim("A", "A", ClaimOutcome::Accepted), s, t).error,
                 QStringLiteral("write.value: A has 2 writes \"A\": say which with \"storage\" "
                                "or \"nth\""));
        const ClaimVerdict row =
            judgeClaim(writeClaim("A", "A", ClaimOutcome::Accepted, 0, "db"), s, t);
        QVERIFY(row.holds);
        QCOMPARE(row.decidedAt, Tick(8));
        const ClaimVerdict index =
            judgeClaim(writeClaim("A", "A", ClaimOutcome::Rejected, 0, "index"), s, t);
        QVERIFY(index.holds);
        QCOMPARE(index.decidedAt, Tick(19));
        QCOMPARE(judgeClaim(writeClaim("A", "A", ClaimOutcome::Rejected, 0, "cache"), s, t).error,
                 QStringLiteral("write.storage: unknown storage \"cache\" (known: db, index)"));
    }

    // A write that never runs has no outcome: no claim about it holds, and only the run's end
    // settles that.
    void writeThatNeverRuns()
    {
        // A keeps its lease alive every 3 ticks and never lets go; B waits for the lock from 1,
        // with its write queued behind the waiting acquire. The run ends at the last scheduled
        // event, A's write at 20 (docs/SCENARIO.md section 14): B's write never runs.
        const Scenario s = scenario(R"({"fencescope": 1, "clients": [
            {"name": "A", "actions": [
              {"at": 0, "do": "acquire", "ttl": 10, "keepalive": 3},
              {"at": 20, "do": "write", "value": "A"} ] },
            {"name": "B", "actions": [
              {"at": 1, "do": "acquire", "ttl": 10, "wait": true},
              {"at": 2, "do": "write", "value": "B"} ] } ] })");
        const Trace t = simulate(s);
        QCOMPARE(t.events.back().tick, Tick(20)); // A's write, the last scheduled event
        for (int o = 0; o <= int(ClaimOutcome::Skipped); ++o) {
            const ClaimVerdict v = judgeClaim(writeClaim("B", "B", ClaimOutcome(o)), s, t);
            QVERIFY(v.error.isEmpty());
            QVERIFY(!v.holds);
            QCOMPARE(v.decidedAt, Tick(20));
            QCOMPARE(v.event, kNone);
            QCOMPARE(v.shownAt, kForever);
        }
    }

    void finalState()
    {
        const Scenario s = preset("default");
        const Trace fenced = simulate(s, true);
        // fenced: B's "B" stays (A's is rejected), max_token 2; the last arrival is A's at 30
        ClaimVerdict v = judgeClaim(finalValue("db", "B"), s, fenced);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(30));
        QCOMPARE(eventWrite(s, fenced, v), QStringLiteral("A"));
        QVERIFY(!judgeClaim(finalValue("db", "A"), s, fenced).holds);
        QVERIFY(judgeClaim(finalMax("db", 2), s, fenced).holds);
        QVERIFY(!judgeClaim(finalMax("db", 1), s, fenced).holds);
        // unfenced: A's write lands last
        QVERIFY(judgeClaim(finalValue("db", "A"), s, simulate(s, false)).holds);
        QCOMPARE(judgeClaim(finalValue("cache", "A"), s, fenced).error,
                 QStringLiteral("storage: unknown storage \"cache\" (known: db)"));

        // a volatile storage restarting after its last write: settled by the restart (no event),
        // and its max_token is 0 again; an untouched storage ends empty, settled by the end
        const Scenario r = scenario(R"({"fencescope": 1,
            "storages": [ {"name": "jn", "maxToken": "volatile", "restarts": [25]}, {"name": "cache"} ],
            "clients": [ {"name": "A", "actions": [
              {"at": 0, "do": "acquire", "ttl": 40},
              {"at": 3, "do": "write", "value": "A1", "storage": "jn"},
              {"at": 30, "do": "release"} ] } ] })");
        const Trace rt = simulate(r);
        v = judgeClaim(finalMax("jn", 0), r, rt);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(25));
        QCOMPARE(v.event, kNone);
        QVERIFY(judgeClaim(finalValue("jn", "A1"), r, rt).holds); // the value survives
        v = judgeClaim(finalValue("cache", ""), r, rt);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(30));
        QCOMPARE(v.event, kNone);
    }

    void grantTokens()
    {
        // counter: A token 1 at 0; B refused at 5, granted token 2 at 12
        const Scenario s = preset("default");
        const Trace t = simulate(s);
        ClaimVerdict v = judgeClaim(tokenIs(grantClaim("B"), 2), s, t);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(12));
        QCOMPARE(v.shownAt, Tick(12));
        QCOMPARE(v.shownWhat, QStringLiteral("B's grant is made"));
        QVERIFY(t.events[v.event].kind == EventKind::Grant);
        QCOMPARE(t.events[v.event].client, std::uint16_t(1));
        QVERIFY(!judgeClaim(tokenIs(grantClaim("B"), 3), s, t).holds);
        QVERIFY(judgeClaim(tokenReads(grantClaim("B"), "2"), s, t).holds);
        QVERIFY(judgeClaim(compared(grantClaim("B"), TokenTest::Above, "A"), s, t).holds);
        QVERIFY(!judgeClaim(compared(grantClaim("B"), TokenTest::Below, "A"), s, t).holds);
        QVERIFY(!judgeClaim(compared(grantClaim("B"), TokenTest::Same, "A"), s, t).holds);
        // a comparison shows once both grants are made: at the later one
        v = judgeClaim(compared(grantClaim("A"), TokenTest::Below, "B"), s, t);
        QVERIFY(v.holds);
        QCOMPARE(v.shownAt, Tick(12));
        QCOMPARE(v.shownWhat, QStringLiteral("B's grant is made"));
        // B has one grant: a second carries nothing, and only the end says so
        v = judgeClaim(tokenIs(grantClaim("B", 2), 2), s, t);
        QVERIFY(v.error.isEmpty());
        QVERIFY(!v.holds);
        QCOMPARE(v.decidedAt, Tick(30));
        QCOMPARE(v.shownAt, kForever);

        // ZooKeeper, a failover at 11 with no live lease: A's czxid 0x1_00000001; A's session
        // expiry at 10 is change 2; the new leader's epoch 2 starts at counter 0; B's znode at
        // 12 is 0x2_00000001
        const Scenario zk = scenario(R"({"fencescope": 1,
            "lock": {"tokens": "zookeeper", "failovers": [11]},
            "clients": [ {"name": "A", "actions": [ {"at": 0, "do": "acquire", "ttl": 10} ] },
                         {"name": "B", "actions": [ {"at": 12, "do": "acquire", "ttl": 10} ] } ] })");
        const Trace zt = simulate(zk);
        QVERIFY(judgeClaim(tokenReads(grantClaim("B"), "0x2_00000001"), zk, zt).holds);
        QVERIFY(judgeClaim(tokenIs(grantClaim("A"), (Token(1) << 32) | 1), zk, zt).holds);
        QVERIFY(judgeClaim(compared(grantClaim("B"), TokenTest::Above, "A"), zk, zt).holds);

        // etcd with a put every 3 ticks: A's key at revision 2; puts at 3, 6, 9 (3, 4, 5); A's
        // key deleted at 10 (6); the put at 12 (7) comes before B's key (8)
        const Scenario etcd = scenario(R"({"fencescope": 1,
            "lock": {"tokens": "etcd", "puts": {"every": 3}},
            "clients": [ {"name": "A", "actions": [ {"at": 0, "do": "acquire", "ttl": 10} ] },
                         {"name": "B", "actions": [ {"at": 12, "do": "acquire", "ttl": 10} ] } ] })");
        const Trace et = simulate(etcd);
        QVERIFY(judgeClaim(tokenReads(grantClaim("B"), "rev 8"), etcd, et).holds);
        QVERIFY(judgeClaim(tokenIs(grantClaim("B"), 8), etcd, et).holds);
        QVERIFY(!judgeClaim(tokenReads(grantClaim("B"), "8"), etcd, et).holds);

        // no token at all: only "no token" holds
        Scenario none = preset("default");
        none.tokens = TokenSource::None;
        const Trace nt = simulate(none);
        Claim noToken = grantClaim("B");
        noToken.test = TokenTest::NoToken;
        QVERIFY(judgeClaim(noToken, none, nt).holds);
        QVERIFY(!judgeClaim(noToken, s, t).holds);
        QVERIFY(!judgeClaim(tokenIs(grantClaim("B"), 0), none, nt).holds);
        QVERIFY(!judgeClaim(compared(grantClaim("B"), TokenTest::Same, "A"), none, nt).holds);

        // wall clock stepped back 20 at 11: A 1000 at 0, B 1000 + 12 - 20 = 992 at 12
        Scenario wall = preset("default");
        wall.tokens = TokenSource::WallClock;
        wall.lock.clockSteps = {{11, -20}};
        const Trace wt = simulate(wall);
        QVERIFY(judgeClaim(tokenReads(grantClaim("B"), "clock 992"), wall, wt).holds);
        QVERIFY(judgeClaim(compared(grantClaim("B"), TokenTest::Below, "A"), wall, wt).holds);

        // a client granted twice must be named with nth; one that never acquires is an error
        const Scenario twice = scenario(R"({"fencescope": 1, "clients": [ {"name": "A", "actions": [
            {"at": 0, "do": "acquire", "ttl": 5}, {"at": 10, "do": "acquire", "ttl": 5} ] },
            {"name": "B", "actions": [ {"at": 1, "do": "write", "value": "B"} ] } ] })");
        const Trace tt = simulate(twice);
        QCOMPARE(judgeClaim(tokenIs(grantClaim("A"), 1), twice, tt).error,
                 QStringLiteral("grant: A is granted the lock 2 times in this run: say which "
                                "with \"nth\""));
        QVERIFY(judgeClaim(tokenIs(grantClaim("A", 2), 2), twice, tt).holds);
        QCOMPARE(judgeClaim(tokenIs(grantClaim("B"), 1), twice, tt).error,
                 QStringLiteral("grant.client: B never acquires the lock"));
        QCOMPARE(judgeClaim(compared(grantClaim("A", 1), TokenTest::Above, "C"), twice, tt).error,
                 QStringLiteral("above.client: unknown client \"C\" (known: A, B)"));
    }

    // A restore without a bump hands a revision out again (the restore scene of lesson 2):
    // A's key at 2 (0), deleted at 5 (3); the snapshot of 6 holds revision 3 and no holder; B's
    // key at 8 is 4; the restore at 20 takes the store back to 3; A's new key at 21 is 4 again.
    void restoreHandsATokenOutTwice()
    {
        const Scenario s = scenario(R"({"fencescope": 1,
            "lock": {"tokens": "etcd", "restores": [ {"at": 20, "from": 6} ]},
            "clients": [
              {"name": "A", "actions": [ {"at": 0, "do": "acquire", "ttl": 5},
                                         {"at": 21, "do": "acquire", "ttl": 10} ] },
              {"name": "B", "actions": [ {"at": 8, "do": "acquire", "ttl": 10} ] } ] })");
        const Trace t = simulate(s);
        const ClaimVerdict v = judgeClaim(compared(grantClaim("A", 2), TokenTest::Same, "B"), s, t);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(21));
        QVERIFY(judgeClaim(tokenReads(grantClaim("A", 2), "rev 4"), s, t).holds);
        // the grant's explanation no longer claims a higher token than any before
        QCOMPARE(explainEvent(s, t, v.event),
                 QStringLiteral("t=21: the lock service granted the lock to A with token rev 4, "
                                "lease until t=31 (ttl 10). B's lease (token rev 4) had run out "
                                "at t=18, so this is a new owner, but its token is not above "
                                "rev 4, handed out before: the lock service was restored from an "
                                "older snapshot and counts again from there. etcd created the "
                                "lock key at store revision 4: its create_revision is the "
                                "token."));
    }

    void someAndNo()
    {
        const Scenario s = preset("default");
        const Trace fenced = simulate(s, true);
        ClaimVerdict v = judgeClaim(kindClaim(ClaimKind::Some, ClaimOutcome::Rejected), s, fenced);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(30));
        QCOMPARE(eventWrite(s, fenced, v), QStringLiteral("A"));
        // "no rejected" is false, settled by the same write
        v = judgeClaim(kindClaim(ClaimKind::No, ClaimOutcome::Rejected), s, fenced);
        QVERIFY(!v.holds);
        QCOMPARE(v.decidedAt, Tick(30));
        // nothing corrupted: only the end settles it
        v = judgeClaim(kindClaim(ClaimKind::No, ClaimOutcome::Corrupted), s, fenced);
        QVERIFY(v.holds);
        QCOMPARE(v.event, kNone);
        QCOMPARE(v.decidedAt, Tick(30));
        QVERIFY(!judgeClaim(kindClaim(ClaimKind::Some, ClaimOutcome::Corrupted), s, fenced).holds);
        QVERIFY(
            judgeClaim(kindClaim(ClaimKind::Some, ClaimOutcome::Corrupted), s, simulate(s, false))
                .holds);
        // the first accepted write is B's at 13
        v = judgeClaim(kindClaim(ClaimKind::Some, ClaimOutcome::Accepted), s, fenced);
        QCOMPARE(v.decidedAt, Tick(13));
        QCOMPARE(eventWrite(s, fenced, v), QStringLiteral("B"));

        // a skipped write
        const Scenario sk = scenario(kSkipped);
        const Trace skt = simulate(sk);
        v = judgeClaim(kindClaim(ClaimKind::Some, ClaimOutcome::Skipped), sk, skt);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(8));
        QVERIFY(!judgeClaim(kindClaim(ClaimKind::No, ClaimOutcome::Skipped), sk, skt).holds);

        // a half-applied update is settled when its last write arrives (the index, at 19)
        const Scenario two = scenario(kTwoResources);
        const Trace tt = simulate(two);
        v = judgeClaim(kindClaim(ClaimKind::Some, ClaimOutcome::Partial), two, tt);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(19));
        QCOMPARE(v.group, 0u); // A's "order": listed first
        QVERIFY(tt.groups[v.group].partial);
        QVERIFY(!judgeClaim(kindClaim(ClaimKind::No, ClaimOutcome::Partial), two, tt).holds);
    }

    void holdersAndBelievers()
    {
        // default: A's lease [0, 10), B's [12, 22): never two holders; A believes from 0 until
        // the rejection at 30, B from its grant at 12: two believers from 12
        const Scenario s = preset("default");
        const Trace t = simulate(s);
        ClaimVerdict v = judgeClaim(kindClaim(ClaimKind::Lock), s, t);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(30));
        QCOMPARE(v.event, kNone);
        QVERIFY(!judgeClaim(kindClaim(ClaimKind::Lock, {}, false), s, t).holds);
        v = judgeClaim(kindClaim(ClaimKind::Belief, {}, false), s, t);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(12));
        QCOMPARE(eventWrite(s, t, v), QStringLiteral("grant B"));
        QVERIFY(!judgeClaim(kindClaim(ClaimKind::Belief), s, t).holds);

        // one client alone: nobody to overlap with
        const Scenario one = preset("reentrant-holder-lt");
        const Trace ot = simulate(one);
        QVERIFY(judgeClaim(kindClaim(ClaimKind::Belief), one, ot).holds);
        QVERIFY(judgeClaim(kindClaim(ClaimKind::Lock), one, ot).holds);

        // After a restore the lock service lane draws two leases at once (docs/SEMANTICS.md,
        // "The restored holder's lease is its old lease, extended"): A's [0, 20) and B's [6, 8)
        const Scenario r = scenario(R"({"fencescope": 1,
            "lock": {"tokens": "counter", "restores": [ {"at": 8, "from": 4} ]},
            "clients": [
              {"name": "A", "actions": [ {"at": 0, "do": "acquire", "ttl": 20}, {"at": 5, "do": "release"} ] },
              {"name": "B", "actions": [ {"at": 6, "do": "acquire", "ttl": 10} ] } ] })");
        const Trace rt = simulate(r);
        QCOMPARE(rt.leases.size(), std::size_t(2));
        QCOMPARE(rt.leases[0].end, Tick(20));
        QCOMPARE(rt.leases[1].end, Tick(8));
        v = judgeClaim(kindClaim(ClaimKind::Lock, {}, false), r, rt);
        QVERIFY(v.holds);
        QCOMPARE(v.decidedAt, Tick(6));
        QCOMPARE(eventWrite(r, rt, v), QStringLiteral("grant B"));
    }

    void questions()
    {
        const Scenario s = preset("default");
        const Trace t = simulate(s);
        const Claim rejected = writeClaim("A", "A", ClaimOutcome::Rejected);
        const Claim corrupted = writeClaim("A", "A", ClaimOutcome::Corrupted);
        const Claim accepted = writeClaim("A", "A", ClaimOutcome::Accepted);
        const Claim exclusive = kindClaim(ClaimKind::Lock);
        const Claim dbB = finalValue("db", "B");

        QuestionVerdict v = judgeQuestion(question(29, {corrupted, rejected, accepted}), s, t);
        QVERIFY(v.sound());
        QCOMPARE(v.right, 1);
        QCOMPARE(v.reveal, Tick(30));
        QCOMPARE(eventWrite(s, t, v.options[1]), QStringLiteral("A"));
        QCOMPARE(v.revealEvent, v.options[1].event);
        QCOMPARE(v.holding(), std::vector<int>({1}));
        QCOMPARE(revealExplanation(s, t, v), explainEvent(s, t, v.revealEvent));

        v = judgeQuestion(question(29, {corrupted, accepted}), s, t);
        QCOMPARE(v.problem,
                 QStringLiteral("no option holds in this run; a question needs exactly one"));
        QCOMPARE(v.right, -1);
        v = judgeQuestion(question(29, {rejected, corrupted, exclusive}), s, t);
        QCOMPARE(v.problem, QStringLiteral("options A and C both hold in this run; a question "
                                           "needs exactly one"));
        v = judgeQuestion(question(29, {rejected, dbB, corrupted, exclusive}), s, t);
        QCOMPARE(v.problem, QStringLiteral("options A, B and D all hold in this run; a question "
                                           "needs exactly one"));
        QVERIFY(v.error.isEmpty());

        // the right option settled before the freeze: two believers from 12, frozen at 20
        v = judgeQuestion(question(20, {kindClaim(ClaimKind::Belief, {}, false), corrupted}), s, t);
        QCOMPARE(v.right, 0);
        QCOMPARE(v.problem, QStringLiteral("option A holds, but what settles it happens at t=12, "
                                           "not after the freeze at t=20: the answer is on "
                                           "screen before the reveal"));
        // the reveal past the view
        SceneView view;
        view.to = 25;
        v = judgeQuestion(question(20, {rejected, corrupted}), s, t, &view);
        QCOMPARE(v.problem, QStringLiteral("option A holds, but what settles it happens at t=30, "
                                           "after the end of the scene's view (to 25): the "
                                           "reveal would be off screen"));
        // freezes the loader refuses
        v = judgeQuestion(question(30, {rejected, corrupted}), s, t);
        QCOMPARE(v.error, QStringLiteral("freeze: must be before t=30, when A's write \"A\" "
                                         "arrives (option A names it): the answer would already "
                                         "be on screen; not 30"));
        v = judgeQuestion(question(30, {exclusive, dbB}), s, t);
        QCOMPARE(v.error, QStringLiteral("freeze: must be before the run's last event at t=30: "
                                         "after it there is nothing left to predict; not 30"));
        v = judgeQuestion(question(5, {exclusive, writeClaim("C", "C", ClaimOutcome::Accepted)}), s,
                          t);
        QCOMPARE(v.error, QStringLiteral("options[1].claim.write.client: unknown client \"C\" "
                                         "(known: A, B)"));
        QVERIFY(!v.sound());

        // the whole run settles it: the reveal explains the run
        v = judgeQuestion(question(11, {exclusive, corrupted}), s, t);
        QCOMPARE(v.right, 0);
        QCOMPARE(v.revealEvent, kNone);
        QCOMPARE(revealExplanation(s, t, v), summarize(s, t));
        // a half-applied update: the reveal explains the group
        const Scenario two = scenario(kTwoResources);
        const Trace tt = simulate(two);
        v = judgeQuestion(question(18, {kindClaim(ClaimKind::No, ClaimOutcome::Partial),
                                        kindClaim(ClaimKind::Some, ClaimOutcome::Partial)}),
                          two, tt);
        QCOMPARE(v.right, 1);
        QCOMPARE(revealExplanation(two, tt, v), explainGroup(two, tt, 0));
    }

    // A student changes the scene's scenario: the claims follow their writes by name and the
    // right answer follows the run; a change that puts the answer before the freeze says so.
    void judgedAgainAfterAChange()
    {
        LessonScene scene;
        scene.source = SceneSource::Preset;
        scene.reference = QStringLiteral("default");
        scene.scenario = preset("default");
        scene.question = question(29, {writeClaim("A", "A", ClaimOutcome::Rejected),
                                       writeClaim("A", "A", ClaimOutcome::Accepted)});
        ScenePlay play = playScene(scene);
        QCOMPARE(play.right(), 0);
        QCOMPARE(play.reveal(), Tick(30));
        QCOMPARE(optionLine(*scene.question, 0), QStringLiteral("A. A's write \"A\" is rejected"));
        QCOMPARE(revealText(scene, scene.scenario, play),
                 explainEvent(scene.scenario, play.trace, play.verdict->revealEvent));
        scene.question->explanation = QStringLiteral("The author's words.");
        QVERIFY(revealText(scene, scene.scenario, play)
                    .endsWith(QStringLiteral("\n\nThe author's words.")));

        // A's pause from 1 shortened to 5 ticks: its write (due at 2) goes at the thaw, 6, inside
        // the lease (to 10) and before B's token 2: accepted, and on screen before the freeze
        Scenario changed = scene.scenario;
        changed.clients[0].actions[1].amount = 5;
        play = playScene(scene, changed);
        QCOMPARE(play.verdict->options[1].holds, true);
        QCOMPARE(play.verdict->options[1].decidedAt, Tick(6));
        QCOMPARE(play.verdict->error,
                 QStringLiteral("freeze: must be before t=6, when A's write \"A\" arrives (option "
                                "A names it): the answer would already be on screen; not 29"));
        // the view's fencing switch is the run's
        scene.view.fencing = false;
        play = playScene(scene);
        QVERIFY(!play.fencing);
        QCOMPARE(play.right(), -1); // corrupted: neither option holds
        QCOMPARE(play.verdict->problem,
                 QStringLiteral("no option holds in this run; a question needs exactly one"));
        // the run the editor judges a claim on: the scene's own scenario (not a student's
        // change) with the view's switch: A's write (sent at 30, after B's at 13) lands over
        // B's data with fencing off, and is rejected with it on
        Trace own = sceneRun(scene);
        QVERIFY(!own.fencing);
        QCOMPARE(own.writes.size(), std::size_t(2));
        QCOMPARE(own.writes[1].client, 0u);
        QCOMPARE(toString(own.writes[1].result), toString(WriteResult::Corrupted));
        scene.view.fencing.reset();
        own = sceneRun(scene);
        QVERIFY(own.fencing);
        QCOMPARE(toString(own.writes[1].result), toString(WriteResult::Rejected));
    }
};

QTEST_GUILESS_MAIN(TestLessonClaims)
#include "tst_lessonclaims.moc"
