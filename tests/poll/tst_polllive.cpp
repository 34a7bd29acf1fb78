// The room poll's live updates (poll/pollserver.h, docs/POLL.md "Live updates") over loopback,
// with QWebSocket clients as the phones: what is pushed when the room changes (payloads worked
// by hand), who is let in, what a socket may send, and how the sockets count against the
// limits. The refused handshakes, byte by byte, are rows of tst_pollserver's hostile corpus.

#include "pollserver.h"
#include "rawhttp.h"

#include <QNetworkRequest>
#include <QTest>
#include <QWebSocket>

#include <memory>

using namespace RawHttp;

namespace {

Poll::Question question()
{
    Poll::Question q;
    q.id = QStringLiteral("scene-2");
    q.prompt = QStringLiteral("What happens to A's write at t=30?");
    q.options = QStringList{QStringLiteral("rejected"), QStringLiteral("corrupted"),
                            QStringLiteral("delayed")};
    return q;
}

QByteArray vote(int option, int round = 0)
{
    return "{\"room\":\"KXQB\",\"question\":\"scene-2\",\"round\":" + QByteArray::number(round) +
           ",\"option\":" + QByteArray::number(option) + ",\"confidence\":1}";
}

// A phone's live socket: what it was sent, and how it ended.
class Phone
{
public:
    Phone(quint16 port, const QByteArray &cookie, const QString &origin,
          const QString &room = QStringLiteral("KXQB"))
        : m_ws(std::make_unique<QWebSocket>(origin))
    {
        QObject::connect(m_ws.get(), &QWebSocket::textMessageReceived, m_ws.get(),
                         [this](const QString &m) { m_pushed << m.toUtf8(); });
        QNetworkRequest request(
            QUrl(QStringLiteral("ws://127.0.0.1:%1/live?room=%2").arg(port).arg(room)));
        if (!cookie.isEmpty())
            request.setRawHeader("Cookie", "fsvote=" + cookie);
        m_ws->open(request);
    }
    bool waitOpen()
    {
        return QTest::qWaitFor([&] { return m_ws->state() == QAbstractSocket::ConnectedState; },
                               5000);
    }
    bool waitClosed()
    {
        return QTest::qWaitFor([&] { return m_ws->state() == QAbstractSocket::UnconnectedState; },
                               5000);
    }
    // Waits for `n` pushes in all, then a little more: a test that expects n sees no n+1.
    bool waitPushed(int n)
    {
        const bool got = QTest::qWaitFor([&] { return m_pushed.size() >= n; }, 5000);
        QTest::qWait(50);
        return got && m_pushed.size() == n;
    }
    const QList<QByteArray> &pushed() const { return m_pushed; }
    QWebSocket &socket() { return *m_ws; }

private:
    std::unique_ptr<QWebSocket> m_ws;
    QList<QByteArray> m_pushed;
};

// The states, by hand: QJsonDocument writes an object's keys in sorted order, compactly.
// (plain literals: moc reads a raw string with an apostrophe in it as a character literal)
const QByteArray kOptions = "\"options\":[\"rejected\",\"corrupted\",\"delayed\"],"
                            "\"prompt\":\"What happens to A's write at t=30?\","
                            "\"question\":\"scene-2\",\"refresh\":1500,";
QByteArray openState(int round, int voted)
{
    return "{" + kOptions + "\"round\":" + QByteArray::number(round) +
           ",\"state\":\"open\",\"voted\":" + QByteArray::number(voted) + "}";
}

} // namespace

class TestPollLive : public QObject
{
    Q_OBJECT
    std::unique_ptr<Poll::Room> m_room;
    std::unique_ptr<Poll::PollServer> m_server;
    quint16 m_port = 0;
    QString m_origin;

    void startWith(const Poll::Limits &limits)
    {
        m_server.reset();
        m_room = std::make_unique<Poll::Room>(QStringLiteral("KXQB"));
        m_server = std::make_unique<Poll::PollServer>(m_room.get(), limits);
        QVERIFY2(m_server->start(QHostAddress::LocalHost), qPrintable(m_server->error()));
        m_port = m_server->port();
        m_origin = QStringLiteral("http://127.0.0.1:%1").arg(m_port);
    }
    QByteArray newPhone()
    {
        const Reply page = send(m_port, get("/?r=KXQB"));
        return cookieOf(page);
    }

private slots:
    void init() { startWith(Poll::Limits()); }
    void cleanup()
    {
        m_server.reset();
        m_room.reset();
    }

    void pushesWhenTheRoomChanges()
    {
        const QByteArray a = newPhone();
        const QByteArray b = newPhone();
        Phone phoneA(m_port, a, m_origin);
        Phone phoneB(m_port, b, m_origin);
        QVERIFY(phoneA.waitOpen());
        QVERIFY(phoneB.waitOpen());
        QTRY_COMPARE(m_server->liveSockets(), 2);
        // on opening, the state as it is: no question yet
        QVERIFY(phoneA.waitPushed(1));
        QCOMPARE(phoneA.pushed().at(0), QByteArray(R"({"refresh":1500,"state":"idle"})"));
        // the round opens
        m_room->ask(question());
        QVERIFY(phoneA.waitPushed(2));
        QCOMPARE(phoneA.pushed().at(1), openState(0, -1));
        QVERIFY(phoneB.waitPushed(2));
        QCOMPARE(phoneB.pushed().at(1), openState(0, -1));
        // A votes B, corrupted (a POST, as the page does): A's sockets see it in, B's nothing
        QCOMPARE(send(m_port, post("/vote", vote(1), a)).status, 200);
        QVERIFY(phoneA.waitPushed(3));
        QCOMPARE(phoneA.pushed().at(2), openState(0, 1));
        QVERIFY(phoneB.waitPushed(2));
        // the round closes and the answer is revealed at once: one push, the reveal
        m_room->close();
        m_room->reveal(2, {QStringLiteral("why not A"), QStringLiteral("why not B"), {}});
        QVERIFY(phoneA.waitPushed(4));
        QCOMPARE(phoneA.pushed().at(3), R"({"chose":1,"feedback":["why not A","why not B",""],)" +
                                            kOptions +
                                            R"("right":2,"round":0,"state":"revealed","voted":1})");
        QVERIFY(phoneB.waitPushed(3));
        QCOMPARE(phoneB.pushed().at(2),
                 R"({"chose":-1,"feedback":["why not A","why not B",""],)" + kOptions +
                     R"("right":2,"round":0,"state":"revealed","voted":-1})");
        // what /state gives A is what was pushed to it
        QCOMPARE(send(m_port, get("/state?room=KXQB", a)).body, phoneA.pushed().at(3));
        // Vote again: the second round, empty
        QVERIFY(m_room->openSecondRound());
        QVERIFY(phoneA.waitPushed(5));
        QCOMPARE(phoneA.pushed().at(4), openState(1, -1));
        // the round closes alone
        m_room->close();
        QVERIFY(phoneB.waitPushed(5));
        QCOMPARE(phoneB.pushed().at(4),
                 "{" + kOptions + R"("round":1,"state":"closed","voted":-1})");
        // the scene has no question
        m_room->clear();
        QVERIFY(phoneB.waitPushed(6));
        QCOMPARE(phoneB.pushed().at(5), QByteArray(R"({"refresh":1500,"state":"idle"})"));
        // the sockets counted nothing
        QCOMPARE(m_room->counts(QStringLiteral("scene-2"), 0).total(), 1);
        QCOMPARE(m_room->counts(QStringLiteral("scene-2"), 1).total(), 0);
    }

    void stopClosesTheSockets()
    {
        Phone phone(m_port, newPhone(), m_origin);
        QVERIFY(phone.waitOpen());
        QTRY_COMPARE(m_server->connections(), 1);
        m_server->stop();
        QVERIFY(phone.waitClosed());
        QCOMPARE(m_server->liveSockets(), 0);
    }

    void refusedSocketsNeverOpen_data()
    {
        QTest::addColumn<bool>("cookie");
        QTest::addColumn<QString>("origin");
        QTest::addColumn<QString>("room");
        QTest::newRow("no cookie") << false << QString() << QStringLiteral("KXQB");
        QTest::newRow("foreign origin")
            << true << QStringLiteral("http://evil.example") << QStringLiteral("KXQB");
        QTest::newRow("wrong room") << true << QString() << QStringLiteral("ZZZZ");
    }
    void refusedSocketsNeverOpen()
    {
        QFETCH(bool, cookie);
        QFETCH(QString, origin);
        QFETCH(QString, room);
        m_room->ask(question());
        Phone phone(m_port, cookie ? newPhone() : QByteArray(),
                    origin.isEmpty() ? m_origin : origin, room);
        QVERIFY(phone.waitClosed());
        QVERIFY(phone.pushed().isEmpty());
        QCOMPARE(m_server->liveSockets(), 0);
        // and a change of the room reaches nobody, and breaks nothing
        m_room->close();
        QTest::qWait(50);
        QVERIFY(phone.pushed().isEmpty());
        QTRY_COMPARE(m_server->connections(), 0);
    }

    void messagesCloseTheSocket_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<int>("closeCode");
        // the page sends nothing; a vote on the socket is not one
        QTest::newRow("a vote") << vote(0) << int(QWebSocketProtocol::CloseCodePolicyViolated);
        QTest::newRow("one byte") << QByteArray("x")
                                  << int(QWebSocketProtocol::CloseCodePolicyViolated);
        // over the frame's bound (125 bytes), under the byte budget: Qt's own limit, 1009
        QTest::newRow("200 bytes")
            << QByteArray(200, 'x') << int(QWebSocketProtocol::CloseCodeTooMuchData);
        // QWebSocket writes a frame's header apart from its payload: the server reads the
        // length in the header and closes (a flood of bytes is pingFloodDropped's)
        QTest::newRow("1 MB") << QByteArray(1 << 20, 'x')
                              << int(QWebSocketProtocol::CloseCodeTooMuchData);
    }
    void messagesCloseTheSocket()
    {
        QFETCH(QByteArray, message);
        QFETCH(int, closeCode);
        m_room->ask(question());
        const QByteArray cookie = newPhone();
        QCOMPARE(send(m_port, post("/vote", vote(2), cookie)).status, 200);
        Phone phone(m_port, cookie, m_origin);
        QVERIFY(phone.waitOpen());
        QVERIFY(phone.waitPushed(1));
        phone.socket().sendTextMessage(QString::fromUtf8(message));
        QVERIFY(phone.waitClosed());
        QCOMPARE(int(phone.socket().closeCode()), closeCode);
        QTRY_COMPARE(m_server->connections(), 0);
        QCOMPARE(m_room->counts(0).total(), 1);
        QCOMPARE(m_room->counts(0).option(2), 1);
    }

    void pingFloodDropped()
    {
        const QByteArray cookie = newPhone();
        Phone calm(m_port, cookie, m_origin);
        Phone flood(m_port, cookie, m_origin);
        QVERIFY(calm.waitOpen());
        QVERIFY(flood.waitOpen());
        // a ping from a phone is 6 bytes and more (header and mask); two are fine
        int pongs = 0;
        QObject::connect(&calm.socket(), &QWebSocket::pong, &calm.socket(), [&] { ++pongs; });
        calm.socket().ping();
        calm.socket().ping("hi");
        QTRY_COMPARE(pongs, 2);
        // a hundred at once are over the 256 bytes a socket may send at once
        for (int i = 0; i < 100; ++i)
            flood.socket().ping();
        QVERIFY(flood.waitClosed());
        QTRY_COMPARE(m_server->liveSockets(), 1);
        QCOMPARE(calm.socket().state(), QAbstractSocket::ConnectedState);
    }

    void silentSocketsDropped()
    {
        Poll::Limits limits;
        limits.livePingMs = 100;
        startWith(limits);
        const QByteArray cookie = newPhone();
        // a phone's QWebSocket answers the pings; a bare connection that made the handshake
        // and then went silent (a phone out of range) does not
        Phone answers(m_port, cookie, m_origin);
        QVERIFY(answers.waitOpen());
        QTcpSocket silent;
        silent.connectToHost(QHostAddress::LocalHost, m_port);
        QVERIFY(silent.waitForConnected(5000));
        silent.write(upgrade("/live?room=KXQB", cookie, m_origin.toLatin1()));
        QByteArray answer;
        QTRY_VERIFY2((answer += silent.readAll()).startsWith("HTTP/1.1 101"), answer.constData());
        QTRY_COMPARE(m_server->liveSockets(), 2);
        // three pings unanswered (300 ms): dropped
        QVERIFY(QTest::qWaitFor(
            [&] {
                silent.readAll();
                return silent.state() == QAbstractSocket::UnconnectedState;
            },
            5000));
        QTRY_COMPARE(m_server->liveSockets(), 1);
        QTest::qWait(500);
        QCOMPARE(answers.socket().state(), QAbstractSocket::ConnectedState);
    }

    void socketsCountAgainstTheLimits()
    {
        Poll::Limits limits;
        limits.maxConnections = 5;
        limits.maxLive = 3;
        limits.maxLivePerBrowser = 2;
        startWith(limits);
        const QByteArray a = newPhone();
        const QByteArray b = newPhone();
        const QByteArray c = newPhone();
        const QByteArray origin = m_origin.toLatin1();
        Phone a1(m_port, a, m_origin);
        Phone a2(m_port, a, m_origin);
        QVERIFY(a1.waitOpen());
        QVERIFY(a2.waitOpen());
        // a third tab of the same phone
        QCOMPARE(send(m_port, upgrade("/live?room=KXQB", a, origin)).status, 429);
        Phone b1(m_port, b, m_origin);
        QVERIFY(b1.waitOpen());
        // the live sockets are all taken
        const Reply full = send(m_port, upgrade("/live?room=KXQB", c, origin));
        QCOMPARE(full.status, 503);
        QVERIFY(full.body.contains("too many live connections"));
        QTRY_COMPARE(m_server->connections(), 3);
        QCOMPARE(m_server->liveSockets(), 3);
        // two plain connections fill the rest; the next one is refused at the socket
        QTcpSocket held1;
        QTcpSocket held2;
        held1.connectToHost(QHostAddress::LocalHost, m_port);
        held2.connectToHost(QHostAddress::LocalHost, m_port);
        QTRY_COMPARE(m_server->connections(), 5);
        const Reply refused = send(m_port, get("/state?room=KXQB", c));
        QCOMPARE(refused.status, 503);
        QVERIFY(refused.body.isEmpty()); // PollGuard's, before any parser
        // a socket that closes gives its place back
        a1.socket().close();
        QVERIFY(a1.waitClosed());
        QTRY_COMPARE(m_server->connections(), 4);
        QCOMPARE(send(m_port, get("/state?room=KXQB", c)).status, 200);
        QTRY_COMPARE(m_server->connections(), 4);
        Phone c1(m_port, c, m_origin);
        QVERIFY(c1.waitOpen());
        QTRY_COMPARE(m_server->liveSockets(), 3);
    }
};

QTEST_GUILESS_MAIN(TestPollLive)
#include "tst_polllive.moc"
