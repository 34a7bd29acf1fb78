#pragma once

// Raw HTTP over loopback for the room poll's tests (tests/poll): the bytes are written as
// given, so a test can send what no well-behaved client would. The server runs on the same
// thread, so every wait runs the event loop.

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QTcpSocket>
#include <QTest>

#include <memory>

namespace RawHttp {

struct Reply
{
    int status = 0; // 0: the connection closed with no answer
    QByteArray head;
    QByteArray body;
    QByteArray header(const QByteArray &name) const
    {
        for (const QByteArray &line : head.split('\n')) {
            const int colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().toLower() == name.toLower())
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }
};

// Splits the first whole response off `data`; false while it is not all there.
inline bool takeReply(QByteArray &data, Reply &reply)
{
    const int end = data.indexOf("\r\n\r\n");
    if (end < 0)
        return false;
    Reply r;
    r.head = data.left(end);
    const QList<QByteArray> status = r.head.left(r.head.indexOf('\r')).split(' ');
    r.status = status.size() > 1 ? status[1].toInt() : -1;
    const qsizetype length = r.header("Content-Length").toLongLong();
    if (data.size() < end + 4 + length)
        return false;
    r.body = data.mid(end + 4, length);
    data.remove(0, end + 4 + length);
    reply = r;
    return true;
}

// One connection that sends `raw` and reads `expect` responses (or until it is closed).
class Client
{
public:
    Client(quint16 port, const QByteArray &raw) : m_socket(std::make_unique<QTcpSocket>())
    {
        QTcpSocket *s = m_socket.get();
        QObject::connect(s, &QTcpSocket::connected, s, [s, raw] { s->write(raw); });
        QObject::connect(s, &QTcpSocket::readyRead, s, [this, s] {
            m_data += s->readAll();
            Reply r;
            while (takeReply(m_data, r))
                m_replies << r;
        });
        s->connectToHost(QHostAddress::LocalHost, port);
    }
    bool closed() const { return m_socket->state() == QAbstractSocket::UnconnectedState; }
    const QList<Reply> &replies() const { return m_replies; }
    bool wait(int expect, int ms = 5000)
    {
        return QTest::qWaitFor([&] { return m_replies.size() >= expect || closed(); }, ms);
    }

private:
    std::unique_ptr<QTcpSocket> m_socket;
    QByteArray m_data;
    QList<Reply> m_replies;
};

// Sends `raw` on a connection of its own; the first response, or status 0.
inline Reply send(quint16 port, const QByteArray &raw, int ms = 5000)
{
    Client c(port, raw);
    c.wait(1, ms);
    return c.replies().isEmpty() ? Reply() : c.replies().first();
}

inline QByteArray get(const QByteArray &target, const QByteArray &cookie = {})
{
    QByteArray r = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!cookie.isEmpty())
        r += "Cookie: fsvote=" + cookie + "\r\n";
    return r + "\r\n";
}

inline QByteArray post(const QByteArray &target, const QByteArray &body,
                       const QByteArray &cookie = {})
{
    QByteArray r = "POST " + target +
                   " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Content-Type: application/json\r\nContent-Length: " +
                   QByteArray::number(body.size()) + "\r\n";
    if (!cookie.isEmpty())
        r += "Cookie: fsvote=" + cookie + "\r\n";
    return r + "\r\n" + body;
}

// A WebSocket opening handshake (RFC 6455 4.1; the key is the RFC's own example, 16 bytes in
// base64) with a phone's cookie and the page's origin; each part can be made wrong.
inline QByteArray
upgrade(const QByteArray &target, const QByteArray &cookie, const QByteArray &origin,
        const QByteArray &method = "GET",
        const QByteArray &key = "dGhlIHNhbXBsZSBub25jZQ==", const QByteArray &version = "13",
        const QByteArray &connection = "Upgrade", const QByteArray &protocol = "websocket")
{
    QByteArray r = method + ' ' + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!connection.isEmpty())
        r += "Connection: " + connection + "\r\n";
    r += "Upgrade: " + protocol + "\r\n";
    if (!key.isEmpty())
        r += "Sec-WebSocket-Key: " + key + "\r\n";
    r += "Sec-WebSocket-Version: " + version + "\r\n";
    if (!origin.isEmpty())
        r += "Origin: " + origin + "\r\n";
    if (!cookie.isEmpty())
        r += "Cookie: fsvote=" + cookie + "\r\n";
    return r + "\r\n";
}

// The cookie a page's Set-Cookie gives.
inline QByteArray cookieOf(const Reply &reply)
{
    const QByteArray set = reply.header("Set-Cookie");
    const int eq = set.indexOf('=');
    const int semi = set.indexOf(';');
    return eq < 0 ? QByteArray() : set.mid(eq + 1, (semi < 0 ? set.size() : semi) - eq - 1);
}

} // namespace RawHttp
