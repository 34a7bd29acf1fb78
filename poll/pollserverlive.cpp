// PollServer's live updates (pollserver.h, docs/POLL.md "Live updates"): the WebSocket upgrade
// let through or refused, the sockets adopted from QAbstractHttpServer, their byte budget and
// pings, and the pushes. Apart from pollserver.cpp, which serves the HTTP requests.

#include "pollserver.h"

#include <QHttpServerRequest>
#include <QTcpSocket>
#include <QUrlQuery>
#include <QWebSocket>

#include <algorithm>

namespace Poll {

bool PollServer::isUpgrade(const QHttpServerRequest &request)
{
    // as QAbstractHttpServerPrivate::handleReadyRead (6.4) decides, with the parser's flag
    // (qhttpserverrequest.cpp: the Connection header, lowered, contains "upgrade")
    return request.value("Connection").toLower().contains("upgrade") &&
           request.value("Upgrade").compare("websocket", Qt::CaseInsensitive) == 0;
}

int PollServer::liveRefusal(const QHttpServerRequest &request, QByteArray &json) const
{
    if (request.url().path() != QLatin1String(kLivePath)) {
        json = R"({"error":"not found"})";
        return 404;
    }
    if (request.method() != QHttpServerRequest::Method::Get) {
        json = R"({"error":"method not allowed"})";
        return 405;
    }
    // what QWebSocketServer would close with no answer, answered (RFC 6455 4.2.1: a GET with
    // a key of 16 bytes in base64, version 13)
    const QByteArray key = request.value("Sec-WebSocket-Key").trimmed();
    if (QByteArray::fromBase64(key, QByteArray::AbortOnBase64DecodingErrors).size() != 16 ||
        key.size() != 24) {
        json = R"({"error":"not a WebSocket handshake"})";
        return 400;
    }
    if (request.value("Sec-WebSocket-Version").trimmed() != "13") {
        json = R"({"error":"WebSocket version 13 only"})";
        return 426;
    }
    // a page of another site may open a socket here with the phone's cookie (SameSite does
    // not cover WebSockets in every browser): only the page's own origin is let in
    const QString origin = baseUrl().chopped(1);
    if (QString::fromLatin1(request.value("Origin")) != origin) {
        json = R"({"error":"foreign origin"})";
        return 403;
    }
    if (!m_room->codeMatches(request.query().queryItemValue(QStringLiteral("room")))) {
        json = R"({"error":"wrong room code"})";
        return 403;
    }
    const QByteArray cookie = cookieOf(request);
    if (!m_room->issued(cookie)) {
        json = R"({"error":"unknown browser: open the page again"})";
        return 403;
    }
    const auto of = [&cookie](const Live &l) { return l.cookie == cookie; };
    if (std::count_if(m_live.cbegin(), m_live.cend(), of) >= m_limits.maxLivePerBrowser) {
        json = R"({"error":"too many live connections from this browser"})";
        return 429;
    }
    if (m_live.size() >= m_limits.maxLive) {
        json = R"({"error":"too many live connections"})";
        return 503;
    }
    return 0;
}

void PollServer::accept(const QHttpServerRequest &request, QTcpSocket *socket)
{
    Live live;
    live.cookie = cookieOf(request);
    live.bytes.tokens = m_limits.liveBytesBurst;
    live.bytes.refilled.start();
    live.heard.start();
    m_live.insert(socket, live);
    m_perConnection.remove(socket); // its `destroyed` is disconnected with the rest
    QObject *token = m_guard->upgraded(socket);
    connect(token, &QObject::destroyed, this, [this, socket] { m_live.remove(socket); });
    // QAbstractHttpServer disconnects every signal of the socket when this returns, and
    // QWebSocketServer then reads the handshake in a queued call. This queued call, posted
    // first, runs first: the byte count is connected before QWebSocket's own reader, and sees
    // each arrival before it is read.
    QMetaObject::invokeMethod(
        token,
        [this, socket, token] {
            connect(socket, &QTcpSocket::readyRead, token, [this, socket] { liveBytes(socket); });
        },
        Qt::QueuedConnection);
}

void PollServer::liveBytes(QTcpSocket *socket)
{
    const auto it = m_live.find(socket);
    if (it == m_live.end())
        return;
    it->heard.restart();
    const double seconds = double(it->bytes.refilled.restart()) / 1000.0;
    it->bytes.tokens =
        std::min(m_limits.liveBytesBurst, it->bytes.tokens + seconds * m_limits.liveBytesRate);
    it->bytes.tokens -= double(socket->bytesAvailable() - it->unread);
    // more than pings and a close: dropped, with what it sent unread
    if (it->bytes.tokens < 0)
        socket->abort();
}

void PollServer::adopt()
{
    while (hasPendingWebSocketConnections()) {
        std::unique_ptr<QWebSocket> taken = nextPendingWebSocketConnection();
        QWebSocket *ws = taken.release();
        ws->setParent(this);
        // the connection under it: the one accepted from the same peer
        auto it = m_live.begin();
        while (it != m_live.end() && (it.key()->peerPort() != ws->peerPort() ||
                                      !it.key()->peerAddress().isEqual(ws->peerAddress())))
            ++it;
        if (it == m_live.end()) {
            ws->abort();
            ws->deleteLater();
            continue;
        }
        it->socket = ws;
        // after QWebSocket's reader (connected in the handshake, before this): what a partial
        // frame leaves unread is not counted twice
        QTcpSocket *tcp = it.key();
        connect(tcp, &QTcpSocket::readyRead, ws, [this, tcp] {
            const auto live = m_live.find(tcp);
            if (live != m_live.end())
                live->unread = tcp->bytesAvailable();
        });
        ws->setMaxAllowedIncomingFrameSize(quint64(m_limits.maxLiveMessageBytes));
        ws->setMaxAllowedIncomingMessageSize(quint64(m_limits.maxLiveMessageBytes));
        // the page sends nothing: votes are POSTs
        const auto unexpected = [ws] {
            ws->close(QWebSocketProtocol::CloseCodePolicyViolated,
                      QStringLiteral("this socket takes no messages"));
        };
        connect(ws, &QWebSocket::textFrameReceived, this, unexpected);
        connect(ws, &QWebSocket::binaryFrameReceived, this, unexpected);
        connect(ws, &QWebSocket::disconnected, this, [this, ws] {
            for (Live &l : m_live)
                if (l.socket == ws)
                    l.socket.clear();
            ws->deleteLater();
        });
        ws->sendTextMessage(QString::fromUtf8(stateOf(it->cookie)));
    }
}

void PollServer::pingLive()
{
    QList<QTcpSocket *> silent;
    for (auto it = m_live.cbegin(); it != m_live.cend(); ++it)
        if (it->heard.hasExpired(3 * qint64(m_limits.livePingMs)))
            silent << it.key();
        else if (it->socket)
            it->socket->ping();
    // a phone that went away without closing (out of range, battery)
    for (QTcpSocket *socket : silent)
        socket->abort();
}

void PollServer::push(const QByteArray &cookie)
{
    for (const Live &l : std::as_const(m_live))
        if (l.socket && (cookie.isEmpty() || l.cookie == cookie))
            l.socket->sendTextMessage(QString::fromUtf8(stateOf(l.cookie)));
}

} // namespace Poll
