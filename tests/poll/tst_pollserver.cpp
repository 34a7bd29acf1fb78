// The room poll's server over loopback (poll/pollserver.h), with raw sockets: the page and its
// endpoints, a hostile-request corpus (each answered 4xx, nothing counted, no crash), the
// limits at the socket, and 300 phones voting at once, each counted exactly once.

#include "pollserver.h"
#include "rawhttp.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <memory>

using namespace RawHttp;

namespace {

Poll::Question question(int options)
{
    Poll::Question q;
    q.id = QStringLiteral("scene-2");
    q.prompt = QStringLiteral("What happens to A's write at t=30?");
    for (int i = 0; i < options; ++i)
        q.options << QStringLiteral("outcome %1").arg(i);
    return q;
}

QByteArray vote(const QByteArray &room, int option, int confidence = 2, int round = 0,
                const QByteArray &question = "scene-2")
{
    return "{\"room\":\"" + room + "\",\"question\":\"" + question +
           "\",\"round\":" + QByteArray::number(round) +
           ",\"option\":" + QByteArray::number(option) +
           ",\"confidence\":" + QByteArray::number(confidence) + "}";
}

} // namespace

class TestPollServer : public QObject
{
    Q_OBJECT
    std::unique_ptr<Poll::Room> m_room;
    std::unique_ptr<Poll::PollServer> m_server;
    quint16 m_port = 0;

    void startWith(const Poll::Limits &limits)
    {
        m_server.reset();
        m_room = std::make_unique<Poll::Room>(QStringLiteral("KXQB"));
        m_room->ask(question(3));
        m_server = std::make_unique<Poll::PollServer>(m_room.get(), limits);
        QVERIFY2(m_server->start(QHostAddress::LocalHost), qPrintable(m_server->error()));
        m_port = m_server->port();
        QVERIFY(m_port != 0);
    }
    QByteArray newPhone()
    {
        const Reply page = send(m_port, get("/"));
        return cookieOf(page);
    }

private slots:
    void init() { startWith(Poll::Limits()); }
    void cleanup()
    {
        m_server.reset();
        m_room.reset();
    }

    void listensOnlyWhileOn()
    {
        QCOMPARE(m_server->baseUrl(), QStringLiteral("http://127.0.0.1:%1/").arg(m_port));
        QCOMPARE(m_server->joinUrl(), QStringLiteral("http://127.0.0.1:%1/?r=KXQB").arg(m_port));
        m_server->stop();
        QVERIFY(!m_server->isListening());
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_port);
        QVERIFY(
            QTest::qWaitFor([&] { return s.state() == QAbstractSocket::UnconnectedState; }, 3000));
        QVERIFY(s.error() == QAbstractSocket::ConnectionRefusedError);
    }

    void pageGivesACookieAndIsSelfContained()
    {
        QCOMPARE(m_server->pagesServed(), 0);
        const Reply page = send(m_port, get("/?r=KXQB"));
        QCOMPARE(page.status, 200);
        QVERIFY(page.header("Content-Type").startsWith("text/html"));
        QVERIFY(Poll::Room::isCookie(cookieOf(page)));
        QVERIFY(page.header("Set-Cookie").contains("HttpOnly"));
        QVERIFY(page.header("Content-Security-Policy").contains("default-src 'none'"));
        // nothing from elsewhere: no URL with a scheme, no src= attribute, no innerHTML
        QVERIFY(!page.body.contains("http://") && !page.body.contains("https://"));
        QVERIFY(!page.body.contains(" src="));
        QVERIFY(!page.body.contains("innerHTML"));
        QCOMPARE(m_server->pagesServed(), 1);
        // a browser that has its cookie keeps it
        const Reply again = send(m_port, get("/", cookieOf(page)));
        QVERIFY(again.header("Set-Cookie").isEmpty());
    }

    void stateAndVote()
    {
        const QByteArray phone = newPhone();
        Reply r = send(m_port, get("/state?room=kxqb", phone));
        QCOMPARE(r.status, 200);
        QJsonObject st = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(st.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QCOMPARE(st.value(QStringLiteral("options")).toArray().size(), 3);
        QCOMPARE(st.value(QStringLiteral("voted")).toInt(), -1);
        r = send(m_port, post("/vote", vote("KXQB", 1, 1), phone));
        QCOMPARE(r.status, 200);
        QCOMPARE(m_room->counts(0).votes[1], (std::array<int, 3>{0, 1, 0}));
        r = send(m_port, get("/state?room=KXQB", phone));
        QCOMPARE(QJsonDocument::fromJson(r.body).object().value(QStringLiteral("voted")).toInt(),
                 1);
        // the reveal: the right answer, and the feedback of what this phone chose
        m_room->reveal(2, {QStringLiteral("<b>fb</b> & A"), QStringLiteral("why not B"), {}});
        r = send(m_port, get("/state?room=KXQB", phone));
        st = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(st.value(QStringLiteral("state")).toString(), QStringLiteral("revealed"));
        QCOMPARE(st.value(QStringLiteral("right")).toInt(), 2);
        QCOMPARE(st.value(QStringLiteral("chose")).toInt(), 1);
        QCOMPARE(st.value(QStringLiteral("feedback")).toArray().at(1).toString(),
                 QStringLiteral("why not B"));
    }

    void hostileCorpus_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<int>("status");
        const QByteArray ok = "COOKIE"; // replaced by a real phone's cookie
        QTest::newRow("oversized body") << post("/vote", QByteArray(100000, 'x'), ok) << 413;
        QTest::newRow("body over the vote's limit")
            << post("/vote", "{\"room\":\"KXQB\",\"pad\":\"" + QByteArray(2000, 'x') + "\"}", ok)
            << 413;
        QTest::newRow("oversized header")
            << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nX-Junk: " + QByteArray(20000, 'a') +
                          "\r\n\r\n")
            << 413;
        QTest::newRow("many headers")
            << QByteArray("GET / HTTP/1.1\r\n" + QByteArray("X-A: b\r\n").repeated(2000) + "\r\n")
            << 413;
        QTest::newRow("bad code, vote") << post("/vote", vote("ZZZZ", 0), ok) << 403;
        QTest::newRow("empty code, vote") << post("/vote", vote("", 0), ok) << 403;
        QTest::newRow("bad code, state") << get("/state?room=ZZZZ", ok) << 403;
        QTest::newRow("no code, state") << get("/state", ok) << 403;
        QTest::newRow("unknown option 3 of 3") << post("/vote", vote("KXQB", 3), ok) << 400;
        QTest::newRow("unknown option 7") << post("/vote", vote("KXQB", 7), ok) << 400;
        QTest::newRow("negative option") << post("/vote", vote("KXQB", -1), ok) << 400;
        QTest::newRow("huge option") << post("/vote", vote("KXQB", 2147483647), ok) << 400;
        QTest::newRow("fractional option")
            << post("/vote",
                    "{\"room\":\"KXQB\",\"question\":\"scene-2\",\"round\":0,\"option\":1.5,"
                    "\"confidence\":0}",
                    ok)
            << 400;
        QTest::newRow("option as text")
            << post("/vote",
                    "{\"room\":\"KXQB\",\"question\":\"scene-2\",\"round\":0,\"option\":\"1\","
                    "\"confidence\":0}",
                    ok)
            << 400;
        QTest::newRow("confidence 3") << post("/vote", vote("KXQB", 0, 3), ok) << 400;
        QTest::newRow("round 2 of 2") << post("/vote", vote("KXQB", 0, 0, 2), ok) << 400;
        QTest::newRow("round not open") << post("/vote", vote("KXQB", 0, 0, 1), ok) << 409;
        QTest::newRow("another question")
            << post("/vote", vote("KXQB", 0, 0, 0, "scene-9"), ok) << 409;
        QTest::newRow("malformed JSON") << post("/vote", "{\"room\":\"KXQB\",", ok) << 400;
        QTest::newRow("JSON array") << post("/vote", "[1,2,3]", ok) << 400;
        QTest::newRow("empty body") << post("/vote", "", ok) << 400;
        QTest::newRow("no cookie") << post("/vote", vote("KXQB", 0)) << 400;
        QTest::newRow("forged cookie") << post("/vote", vote("KXQB", 0), "../../etc") << 400;
        // well formed, 32 hex digits, but never given by this server
        QTest::newRow("forged well-formed cookie")
            << post("/vote", vote("KXQB", 0), "0123456789abcdef0123456789abcdef") << 403;
        QTest::newRow("forged cookie, another option")
            << post("/vote", vote("KXQB", 1), "ffffffffffffffffffffffffffffffff") << 403;
        QTest::newRow("vote by GET") << get("/vote?room=KXQB&option=0", ok) << 405;
        QTest::newRow("DELETE") << QByteArray("DELETE /vote HTTP/1.1\r\nHost: x\r\n\r\n") << 405;
        QTest::newRow("../") << get("/../../etc/passwd") << 404;
        QTest::newRow("%2e%2e") << get("/%2e%2e/%2e%2e/etc/passwd") << 404;
        QTest::newRow("%2E%2E%2F") << get("/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd") << 404;
        QTest::newRow("absolute path") << get("//etc/passwd") << 404;
        QTest::newRow("absolute URI") << get("http://127.0.0.1/etc/passwd") << 404;
        QTest::newRow("the page's resource") << get("/poll/page.html") << 404;
        QTest::newRow("qrc path") << get("/:/poll/page.html") << 404;
        QTest::newRow("directory") << get("/resources/") << 404;
        QTest::newRow("index.html") << get("/index.html") << 404;
        QTest::newRow("state/..") << get("/state/..?room=KXQB") << 404;
        QTest::newRow("backslashes") << get("/..\\..\\etc\\passwd") << 404;
        // the live socket's handshake (tests/poll/tst_polllive.cpp has the socket itself):
        // ORIGIN is the page's own, COOKIE a real phone's; each row spoils one part
        const QByteArray live = "/live?room=KXQB";
        QTest::newRow("upgrade, whole") << upgrade(live, ok, "ORIGIN") << 101;
        QTest::newRow("upgrade, no cookie") << upgrade(live, {}, "ORIGIN") << 403;
        QTest::newRow("upgrade, forged cookie")
            << upgrade(live, "0123456789abcdef0123456789abcdef", "ORIGIN") << 403;
        QTest::newRow("upgrade, foreign origin") << upgrade(live, ok, "http://evil.example") << 403;
        QTest::newRow("upgrade, origin of another port")
            << upgrade(live, ok, "http://127.0.0.1:1") << 403;
        QTest::newRow("upgrade, origin null") << upgrade(live, ok, "null") << 403;
        QTest::newRow("upgrade, no origin") << upgrade(live, ok, {}) << 403;
        QTest::newRow("upgrade, bad code") << upgrade("/live?room=ZZZZ", ok, "ORIGIN") << 403;
        QTest::newRow("upgrade, no code") << upgrade("/live", ok, "ORIGIN") << 403;
        QTest::newRow("upgrade, another path") << upgrade("/state?room=KXQB", ok, "ORIGIN") << 404;
        QTest::newRow("upgrade, traversal")
            << upgrade("/live/../../etc/passwd", ok, "ORIGIN") << 404;
        QTest::newRow("upgrade, POST") << upgrade(live, ok, "ORIGIN", "POST") << 405;
        QTest::newRow("upgrade, no key") << upgrade(live, ok, "ORIGIN", "GET", {}) << 400;
        QTest::newRow("upgrade, short key")
            << upgrade(live, ok, "ORIGIN", "GET", "c2hvcnQ=") << 400;
        QTest::newRow("upgrade, key not base64")
            << upgrade(live, ok, "ORIGIN", "GET", "!!!!!!!!!!!!!!!!!!!!!!==") << 400;
        QTest::newRow("upgrade, version 8")
            << upgrade(live, ok, "ORIGIN", "GET", "dGhlIHNhbXBsZSBub25jZQ==", "8") << 426;
        QTest::newRow("upgrade, no Connection")
            << upgrade(live, ok, "ORIGIN", "GET", "dGhlIHNhbXBsZSBub25jZQ==", "13", {}) << 426;
        QTest::newRow("upgrade to h2c")
            << upgrade(live, ok, "ORIGIN", "GET", "dGhlIHNhbXBsZSBub25jZQ==", "13", "Upgrade",
                       "h2c")
            << 426;
        QTest::newRow("live, no upgrade") << get(live, ok) << 426;
    }

    void hostileCorpus()
    {
        QFETCH(QByteArray, raw);
        QFETCH(int, status);
        // one honest vote first: nothing below may change it
        const QByteArray phone = newPhone();
        QCOMPARE(send(m_port, post("/vote", vote("KXQB", 2, 0), phone)).status, 200);
        const Poll::Counts before = m_room->counts(0);
        raw.replace("fsvote=COOKIE", "fsvote=" + phone);
        raw.replace("Origin: ORIGIN", "Origin: " + m_server->baseUrl().chopped(1).toLatin1());
        const Reply r = send(m_port, raw);
        QCOMPARE(r.status, status);
        QTRY_COMPARE(m_server->liveSockets(), 0); // the whole one's client is gone
        QVERIFY(!r.body.contains("root:"));
        QCOMPARE(m_room->counts(0), before);
        QCOMPARE(m_room->counts(0).total(), 1);
        // and the server still answers
        QCOMPARE(send(m_port, get("/state?room=KXQB", phone)).status, 200);
    }

    void onlyIssuedCookiesVote()
    {
        // a cookie of the right shape that this poll never gave: refused, nothing counted
        const QByteArray forged = Poll::Room::newCookie();
        QCOMPARE(send(m_port, post("/vote", vote("KXQB", 0), forged)).status, 403);
        QCOMPARE(m_room->counts(0).total(), 0);
        // a cookie another poll gave (a room started again) is no better
        Poll::Room before;
        QCOMPARE(send(m_port, post("/vote", vote("KXQB", 0), before.issueCookie())).status, 403);
        QCOMPARE(m_room->counts(0).total(), 0);
        // the page loaded with the forged cookie gives a real one in its place
        const Reply page = send(m_port, get("/?r=KXQB", forged));
        QCOMPARE(page.status, 200);
        const QByteArray given = cookieOf(page);
        QVERIFY(Poll::Room::isCookie(given));
        QVERIFY(given != forged);
        QVERIFY(page.header("Set-Cookie").contains("SameSite=Strict"));
        QVERIFY(page.header("Set-Cookie").contains("HttpOnly"));
        // the given cookie votes, once: a second vote replaces the first
        Reply r = send(m_port, post("/vote", vote("KXQB", 0), given));
        QCOMPARE(r.status, 200);
        QVERIFY(!r.body.contains("replaced"));
        r = send(m_port, post("/vote", vote("KXQB", 2), given));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("replaced"));
        QCOMPARE(m_room->counts(0).total(), 1);
        QCOMPARE(m_room->counts(0).option(2), 1);
        // the forged one still cannot
        QCOMPARE(send(m_port, post("/vote", vote("KXQB", 1), forged)).status, 403);
        QCOMPARE(m_room->counts(0).total(), 1);
    }

    void cookiesCapped()
    {
        Poll::Limits limits;
        limits.maxBrowsers = 3;
        startWith(limits);
        QList<QByteArray> phones;
        for (int i = 0; i < 3; ++i) {
            const Reply page = send(m_port, get("/?r=KXQB"));
            QCOMPARE(page.status, 200);
            phones << cookieOf(page);
        }
        QCOMPARE(m_room->cookiesIssued(), 3);
        // a fourth browser: the room is full, no cookie given
        const Reply full = send(m_port, get("/?r=KXQB"));
        QCOMPARE(full.status, 503);
        QVERIFY(full.header("Set-Cookie").isEmpty());
        QCOMPARE(m_room->cookiesIssued(), 3);
        // the three it knows still load the page and vote
        const Reply again = send(m_port, get("/?r=KXQB", phones[1]));
        QCOMPARE(again.status, 200);
        QVERIFY(again.header("Set-Cookie").isEmpty());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(send(m_port, post("/vote", vote("KXQB", i), phones[i])).status, 200);
        QCOMPARE(m_room->counts(0).total(), 3);
        QCOMPARE(m_server->pagesServed(), 4);
    }

    void voteAfterTheRoundClosed()
    {
        const QByteArray a = newPhone();
        const QByteArray b = newPhone();
        QCOMPARE(send(m_port, post("/vote", vote("KXQB", 0), a)).status, 200);
        m_room->close();
        QCOMPARE(send(m_port, post("/vote", vote("KXQB", 1), b)).status, 409);
        QCOMPARE(send(m_port, post("/vote", vote("KXQB", 1), a)).status, 409);
        m_room->reveal(0, {});
        QCOMPARE(send(m_port, post("/vote", vote("KXQB", 1), b)).status, 409);
        QCOMPARE(m_room->counts(0).option(0), 1);
        QCOMPARE(m_room->counts(0).total(), 1);
    }

    void malformedHttpChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::newRow("binary") << QByteArray("\x00\x01\x02\xff\xfe garbage\r\n\r\n", 17);
        QTest::newRow("no version") << QByteArray("GET /\r\n\r\n");
        QTest::newRow("not HTTP at all") << QByteArray("HELLO\r\n\r\n");
        QTest::newRow("version 9") << QByteArray("GET / HTTP/9.9.9\r\n\r\n");
        QTest::newRow("bad content length")
            << QByteArray("POST /vote HTTP/1.1\r\nContent-Length: -5\r\n\r\n{}");
        QTest::newRow("bad chunk") << QByteArray("POST /vote HTTP/1.1\r\nTransfer-Encoding: "
                                                 "chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");
    }
    void malformedHttpChangesNothing()
    {
        // What QHttpServer's parser refuses, or the vote's own checks: a 400, nothing counted,
        // and the server still answers the next phone
        QFETCH(QByteArray, raw);
        const Reply r = send(m_port, raw, 2000);
        QCOMPARE(r.status, 400);
        QCOMPARE(m_room->counts(0).total(), 0);
        QCOMPARE(send(m_port, get("/state?room=KXQB")).status, 200);
    }

    void floodOnOneConnection()
    {
        // 100 requests pipelined on one connection (about 5 KB, under the size limit): the
        // first burst is answered, the rest get 429 (the connection's rate)
        const QByteArray one = get("/state?room=KXQB");
        QVERIFY(one.size() * 100 < Poll::Limits().maxRequestBytes);
        QElapsedTimer took;
        took.start();
        Client flood(m_port, one.repeated(100));
        QVERIFY(flood.wait(100, 10000));
        const double seconds = double(took.elapsed()) / 1000;
        int ok = 0;
        int limited = 0;
        for (const Reply &r : flood.replies()) {
            ok += r.status == 200;
            limited += r.status == 429;
        }
        // the burst, and what the rate refilled meanwhile (8 a second)
        const Poll::Limits limits;
        QVERIFY2(ok >= int(limits.perConnectionBurst) &&
                     ok <= int(limits.perConnectionBurst + limits.perConnectionRate * seconds) + 1,
                 QByteArray::number(ok) + " in " + QByteArray::number(seconds) + " s");
        QVERIFY(limited >= 50);
        QCOMPARE(ok + limited, 100);
        // 400 at once are more bytes than a request may have: 413, and the connection closed
        Client bigger(m_port, one.repeated(400));
        QVERIFY(QTest::qWaitFor([&] { return bigger.closed(); }, 10000));
        QCOMPARE(bigger.replies().size(), 1);
        QCOMPARE(bigger.replies().first().status, 413);
        // the server goes on answering others
        QCOMPARE(send(m_port, get("/state?room=KXQB")).status, 200);
    }

    void floodOfConnections()
    {
        Poll::Limits limits;
        limits.maxConnections = 20;
        startWith(limits);
        // 20 connections held open, sending nothing: the 21st is refused
        std::vector<std::unique_ptr<QTcpSocket>> held;
        for (int i = 0; i < 20; ++i) {
            held.push_back(std::make_unique<QTcpSocket>());
            held.back()->connectToHost(QHostAddress::LocalHost, m_port);
        }
        QVERIFY(QTest::qWaitFor([&] { return m_server->connections() == 20; }, 5000));
        QCOMPARE(send(m_port, get("/")).status, 503);
        held.clear();
        QVERIFY(QTest::qWaitFor([&] { return m_server->connections() == 0; }, 5000));
        QCOMPARE(send(m_port, get("/")).status, 200);
    }

    void globalRateLimit()
    {
        Poll::Limits limits;
        limits.globalRate = 1; // one a second, ten at once
        limits.globalBurst = 10;
        startWith(limits);
        int ok = 0;
        int limited = 0;
        for (int i = 0; i < 30; ++i) {
            const int status = send(m_port, get("/state?room=KXQB")).status;
            ok += status == 200;
            limited += status == 429;
        }
        QVERIFY2(ok >= 10 && ok <= 12, QByteArray::number(ok));
        QCOMPARE(ok + limited, 30);
    }

    void idleConnectionsClosed()
    {
        Poll::Limits limits;
        limits.idleMs = 300;
        startWith(limits);
        // half a request, never finished (slowloris): closed after the idle time
        QTcpSocket slow;
        slow.connectToHost(QHostAddress::LocalHost, m_port);
        QVERIFY(QTest::qWaitFor([&] { return slow.state() == QAbstractSocket::ConnectedState; }));
        slow.write("GET / HTTP/1.1\r\nX-A: ");
        for (int i = 0; i < 5; ++i) {
            QTest::qWait(50);
            slow.write("a");
        }
        QVERIFY(QTest::qWaitFor([&] { return slow.state() == QAbstractSocket::UnconnectedState; },
                                5000));
        QCOMPARE(m_server->connections(), 0);
    }

    void threeHundredPhones()
    {
        // 300 phones load the page at once, then vote at once: option i % 3, confidence i % 2
        constexpr int kPhones = 300;
        QList<QByteArray> cookies;
        {
            std::vector<std::unique_ptr<Client>> pages;
            for (int i = 0; i < kPhones; ++i)
                pages.push_back(std::make_unique<Client>(m_port, get("/?r=KXQB")));
            for (auto &p : pages) {
                QVERIFY(p->wait(1, 20000));
                QCOMPARE(p->replies().size(), 1);
                cookies << cookieOf(p->replies().first());
            }
        }
        QCOMPARE(QSet<QByteArray>(cookies.begin(), cookies.end()).size(), kPhones);
        QCOMPARE(m_server->pagesServed(), kPhones);
        int votes = 0;
        connect(m_server.get(), &Poll::PollServer::voted, this, [&] { ++votes; });
        std::vector<std::unique_ptr<Client>> voters;
        for (int i = 0; i < kPhones; ++i)
            voters.push_back(std::make_unique<Client>(
                m_port, post("/vote", vote("KXQB", i % 3, i % 2), cookies[i])));
        for (auto &v : voters) {
            QVERIFY(v->wait(1, 20000));
            QCOMPARE(v->replies().first().status, 200);
        }
        QCOMPARE(votes, kPhones);
        // by hand: 100 per option; phones 0,2,4.. (even) guess, odd fairly sure. Option 0 has
        // i = 0,3,6,..,297: 50 even, 50 odd; the same for 1 and 2.
        Poll::Counts c = m_room->counts(0);
        for (int o = 0; o < 3; ++o)
            QCOMPARE(c.votes[std::size_t(o)], (std::array<int, 3>{50, 50, 0}));
        QCOMPARE(c.total(), kPhones);
        // phone 0 votes ten times more, the same: still counted once
        for (int k = 0; k < 10; ++k)
            QCOMPARE(send(m_port, post("/vote", vote("KXQB", 0, 0), cookies[0])).status, 200);
        QCOMPARE(m_room->counts(0), c);
        // phones 0..29 change to option 2, sure: options 0 and 1 lose 10 each (i % 3), 2 keeps
        // its 10 of them and they all become sure
        for (int i = 0; i < 30; ++i)
            QCOMPARE(send(m_port, post("/vote", vote("KXQB", 2, 2), cookies[i])).status, 200);
        c = m_room->counts(0);
        QCOMPARE(c.option(0), 90);
        QCOMPARE(c.option(1), 90);
        QCOMPARE(c.option(2), 120);
        QCOMPARE(c.votes[2][2], 30);
        QCOMPARE(c.total(), kPhones);
    }
};

QTEST_GUILESS_MAIN(TestPollServer)
#include "tst_pollserver.moc"
