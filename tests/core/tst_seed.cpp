// The seed's main() (fencing-tokens.txt), as tests against LockService and Storage.

#include "lockservice.h"
#include "storage.h"

#include <QTest>

using namespace Core;

class TestSeed : public QObject
{
    Q_OBJECT

    // A pauses past expiry, B takes over and writes, A wakes and writes with its old token.
    static std::pair<bool, QString> scenario(bool fenced, Token *reply)
    {
        LockService lock;
        Storage store(fenced, FenceRule::Lt);
        const auto a = lock.acquire(1, 10, 0);
        [&] { QCOMPARE(a.outcome, LockService::Outcome::Grant); }();
        const auto refused = lock.acquire(2, 10, 5);
        [&] { QCOMPARE(refused.outcome, LockService::Outcome::Refusal); }();
        const auto b = lock.acquire(2, 10, 12);
        [&] {
            QCOMPARE(b.outcome, LockService::Outcome::Grant);
            QVERIFY(b.token > a.token);
        }();
        [&] { QVERIFY(store.write(b.token, QStringLiteral("B"))); }();
        const bool late = store.write(a.token, QStringLiteral("A"));
        *reply = store.maxToken();
        return {late, store.value()};
    }

private slots:
    void fencedKeepsB()
    {
        Token reply = 0;
        const auto [late, value] = scenario(true, &reply);
        QVERIFY(!late);
        QCOMPARE(reply, Token(2));
        QCOMPARE(value, QStringLiteral("B"));
    }

    void unfencedCorruptsToA()
    {
        Token reply = 0;
        const auto [late, value] = scenario(false, &reply);
        QVERIFY(late);
        QCOMPARE(value, QStringLiteral("A")); // B's data silently overwritten
    }

    void thousandAlternatingGrantsStrictlyIncrease()
    {
        LockService lock;
        Token prev = 0;
        for (std::uint64_t i = 0; i < 1000; ++i) {
            const auto r = lock.acquire(std::uint32_t(i % 2), 10, i * 20);
            QCOMPARE(r.outcome, LockService::Outcome::Grant);
            QVERIFY(r.token > prev);
            prev = r.token;
        }
        QCOMPARE(prev, Token(1000));
    }

    void renewalKeepsTokenAndEqualTokensAreAccepted()
    {
        LockService lock;
        Storage store(true, FenceRule::Lt);
        const auto t1 = lock.acquire(1, 10, 0);
        const auto t2 = lock.acquire(1, 10, 5);
        QCOMPARE(t2.outcome, LockService::Outcome::Renewal);
        QCOMPARE(t1.token, t2.token);
        QCOMPARE(t2.expires, Tick(15));
        QVERIFY(store.write(t1.token, QStringLiteral("x")));
        QVERIFY(store.write(t2.token, QStringLiteral("y")));
        QCOMPARE(store.value(), QStringLiteral("y"));
    }

    void leRuleRejectsTheSecondEqualWrite()
    {
        Storage store(true, FenceRule::Le);
        QVERIFY(store.write(Token(1), QStringLiteral("x")));
        QVERIFY(!store.write(Token(1), QStringLiteral("y")));
        QCOMPARE(store.value(), QStringLiteral("x"));
        QCOMPARE(store.maxToken(), Token(1));
    }

    void untaggedWritesAreRejectedOnlyWhenFenced()
    {
        Storage fenced(true, FenceRule::Lt);
        QVERIFY(!fenced.write(std::nullopt, QStringLiteral("x")));
        Storage open(false, FenceRule::Lt);
        QVERIFY(open.write(std::nullopt, QStringLiteral("x")));
        QCOMPARE(open.maxToken(), Token(0)); // max_token is left alone when unfenced
    }

    void expiredHolderAskingAgainGetsANewToken()
    {
        LockService lock;
        QCOMPARE(lock.acquire(7, 10, 0).token, Token(1));
        const auto again = lock.acquire(7, 10, 10); // live is [0, 10): expired at 10
        QCOMPARE(again.outcome, LockService::Outcome::Grant);
        QCOMPARE(again.token, Token(2));
    }

    void releaseEndsTheLeaseAtThatTick()
    {
        LockService lock;
        lock.acquire(1, 10, 0);
        QVERIFY(!lock.release(2, 3)); // not the holder: nothing happens
        QVERIFY(lock.isLiveHolder(1, 3));
        QVERIFY(lock.release(1, 4));
        QVERIFY(!lock.isLive(4));
        const auto b = lock.acquire(2, 10, 4);
        QCOMPARE(b.outcome, LockService::Outcome::Grant);
        QCOMPARE(b.token, Token(2));
    }
};

QTEST_GUILESS_MAIN(TestSeed)
#include "tst_seed.moc"
