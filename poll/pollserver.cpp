#include "pollserver.h"

#include <QFile>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkInterface>
#include <QTcpSocket>
#include <QUrlQuery>
#include <QWebSocket>

#include <algorithm>
#include <utility>

namespace Poll {

namespace {

QByteArray statusLine(int status, const QByteArray &reason)
{
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason +
           "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
}

} // namespace

// ---- the socket ----------------------------------------------------------------------------

PollGuard::PollGuard(const Limits &limits, QObject *parent) : QTcpServer(parent), m_limits(limits)
{
    m_sweep.setInterval(std::max(100, m_limits.idleMs / 4));
    connect(&m_sweep, &QTimer::timeout, this, &PollGuard::sweep);
    m_sweep.start();
}

void PollGuard::refuse(QTcpSocket *socket, int status, const QByteArray &reason)
{
    // what it sent is dropped before the parser sees it, and so is whatever follows
    socket->readAll();
    disconnect(socket, &QTcpSocket::readyRead, nullptr, nullptr);
    connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->readAll(); });
    socket->write(statusLine(status, reason));
    socket->disconnectFromHost();
}

void PollGuard::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    if (connections() >= m_limits.maxConnections) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        refuse(socket, 503, "Service Unavailable");
        return;
    }
    Connection c;
    c.since.start();
    m_sockets.insert(socket, c);
    connect(socket, &QObject::destroyed, this,
            [this, socket] { m_sockets.remove(static_cast<QTcpSocket *>(socket)); });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
        m_sockets.remove(socket);
        socket->deleteLater();
    });
    // QHttpServer closes a connection whose request its parser refuses, with no answer
    // (qabstracthttpserver.cpp: parse() fails, disconnectFromHost()). A request begun and not
    // answered when it closes is such a one: it gets its 400 on the way out.
    connect(socket, &QAbstractSocket::stateChanged, this,
            [this, socket](QAbstractSocket::SocketState state) {
                const auto it = m_sockets.constFind(socket);
                if (state == QAbstractSocket::ClosingState && it != m_sockets.cend() &&
                    it->bytes > 0) {
                    m_sockets.remove(socket);
                    socket->write(statusLine(400, "Bad Request"));
                }
            });
    // connected before QHttpServer's own: it runs first, and can drop what is too much
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { arrived(socket); });
    addPendingConnection(socket);
}

void PollGuard::arrived(QTcpSocket *socket)
{
    const auto it = m_sockets.find(socket);
    if (it == m_sockets.end())
        return;
    it->bytes += socket->bytesAvailable();
    if (it->bytes > m_limits.maxRequestBytes) {
        m_sockets.erase(it);
        refuse(socket, 413, "Payload Too Large");
    }
}

void PollGuard::requestDone(QTcpSocket *socket)
{
    const auto it = m_sockets.find(socket);
    if (it == m_sockets.end())
        return;
    // the bytes of the requests still in the socket's buffer were counted already: a client
    // that sends many small requests at once is the rate limit's to stop
    it->bytes = 0;
    it->since.restart();
}

QObject *PollGuard::upgraded(QTcpSocket *socket)
{
    m_sockets.remove(socket);
    ++m_upgraded;
    auto *token = new QObject(socket);
    connect(token, &QObject::destroyed, this, [this] { --m_upgraded; });
    return token;
}

void PollGuard::sweep()
{
    QList<QTcpSocket *> idle;
    for (auto it = m_sockets.cbegin(); it != m_sockets.cend(); ++it)
        if (it->since.hasExpired(m_limits.idleMs))
            idle << it.key();
    for (QTcpSocket *socket : idle) {
        m_sockets.remove(socket);
        socket->abort();
        socket->deleteLater();
    }
}

// ---- the server ----------------------------------------------------------------------------

PollServer::PollServer(Room *room, const Limits &limits, QObject *parent)
    : QAbstractHttpServer(parent), m_room(room), m_limits(limits)
{
    QFile page(QStringLiteral(":/poll/page.html"));
    if (page.open(QIODevice::ReadOnly))
        m_page = page.readAll();
    connect(this, &QAbstractHttpServer::newWebSocketConnection, this, &PollServer::adopt);
    m_pushSoon.setSingleShot(true);
    m_pushSoon.setInterval(0);
    connect(&m_pushSoon, &QTimer::timeout, this, [this] { push(); });
    m_ping.setInterval(m_limits.livePingMs);
    connect(&m_ping, &QTimer::timeout, this, &PollServer::pingLive);
    m_room->setOnChange([this] { m_pushSoon.start(); });
}

PollServer::~PollServer()
{
    m_room->setOnChange({});
    stop();
}

QList<PollServer::Interface> PollServer::interfaces()
{
    QList<Interface> found;
    for (const QNetworkInterface &i : QNetworkInterface::allInterfaces()) {
        const auto flags = i.flags();
        if (!(flags & QNetworkInterface::IsUp) || !(flags & QNetworkInterface::IsRunning) ||
            (flags & QNetworkInterface::IsLoopBack))
            continue;
        for (const QNetworkAddressEntry &e : i.addressEntries())
            if (e.ip().protocol() == QAbstractSocket::IPv4Protocol && !e.ip().isLoopback())
                found.append({i.name(), e.ip()});
    }
    return found;
}

QHostAddress PollServer::defaultAddress()
{
    const QList<Interface> all = interfaces();
    return all.isEmpty() ? QHostAddress() : all.first().address;
}

QString PollServer::interfaceOf(const QHostAddress &address)
{
    for (const QNetworkInterface &i : QNetworkInterface::allInterfaces())
        for (const QNetworkAddressEntry &e : i.addressEntries())
            if (e.ip().isEqual(address))
                return i.name();
    return {};
}

bool PollServer::start(const QHostAddress &address)
{
    // the new socket listens before the old one goes: when it cannot, the phones keep the
    // address and port they scanned
    m_error.clear();
    if (address.isNull()) {
        m_error = tr("This computer has no network to poll the room on.");
        return false;
    }
    auto *guard = new PollGuard(m_limits);
    if (!guard->listen(address, 0)) {
        m_error = tr("Cannot listen on %1: %2").arg(address.toString(), guard->errorString());
        delete guard;
        return false;
    }
    stop();
    m_guard = guard;
    bind(guard);
    m_address = address;
    m_port = guard->serverPort();
    m_global.tokens = m_limits.globalBurst;
    m_global.refilled.start();
    m_ping.start();
    return true;
}

void PollServer::stop()
{
    // the phones' live sockets are told first (1001, going away: the page goes back to asking
    // /state), then the listening socket and every connection (its children) go
    const QHash<QTcpSocket *, Live> live = std::exchange(m_live, {});
    for (const Live &l : live)
        if (l.socket) {
            l.socket->disconnect(this);
            l.socket->close(QWebSocketProtocol::CloseCodeGoingAway, tr("The poll stopped."));
            delete l.socket.data();
        }
    m_ping.stop();
    delete m_guard.data();
    m_perConnection.clear();
    m_port = 0;
}

int PollServer::connections() const
{
    return m_guard ? m_guard->connections() : 0;
}

int PollServer::liveSockets() const
{
    return int(std::count_if(m_live.cbegin(), m_live.cend(),
                             [](const Live &l) { return !l.socket.isNull(); }));
}

QString PollServer::baseUrl() const
{
    if (!isListening())
        return {};
    return QStringLiteral("http://%1:%2/").arg(m_address.toString()).arg(m_port);
}

QString PollServer::joinUrl() const
{
    return isListening() ? baseUrl() + QStringLiteral("?r=") + m_room->code() : QString();
}

bool PollServer::take(Bucket &bucket, double rate, double burst)
{
    if (!bucket.refilled.isValid()) {
        bucket.refilled.start();
        bucket.tokens = burst;
    }
    const double seconds = double(bucket.refilled.restart()) / 1000.0;
    bucket.tokens = std::min(burst, bucket.tokens + seconds * rate);
    if (bucket.tokens < 1)
        return false;
    bucket.tokens -= 1;
    return true;
}

QByteArray PollServer::cookieOf(const QHttpServerRequest &request)
{
    // Cookie: a=b; fsvote=HEX
    for (const QByteArray &part : request.value("Cookie").split(';')) {
        const QByteArray pair = part.trimmed();
        const int eq = pair.indexOf('=');
        if (eq > 0 && pair.left(eq) == kCookieName)
            return pair.mid(eq + 1);
    }
    return {};
}

void PollServer::reply(const QHttpServerRequest &request, QTcpSocket *socket, int status,
                       const QByteArray &json)
{
    QHttpServerResponder responder = makeResponder(request, socket);
    responder.write(json,
                    {{"Content-Type", "application/json"},
                     {"Cache-Control", "no-store"},
                     {"X-Content-Type-Options", "nosniff"}},
                    QHttpServerResponder::StatusCode(status));
}

bool PollServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    if (m_guard)
        m_guard->requestDone(socket);
    // an upgrade is handed over when this returns true: it is refused by returning false, and
    // missingHandler, which QAbstractHttpServer calls next, writes the answer
    const bool upgrade = isUpgrade(request);
    const auto refuse = [&](int status, const QByteArray &json) {
        if (!upgrade) {
            reply(request, socket, status, json);
            return true;
        }
        m_refusal = status;
        m_refusalJson = json;
        return false;
    };
    if (!m_perConnection.contains(socket))
        connect(socket, &QObject::destroyed, this,
                [this, socket] { m_perConnection.remove(static_cast<QTcpSocket *>(socket)); });
    if (!take(m_perConnection[socket], m_limits.perConnectionRate, m_limits.perConnectionBurst) ||
        !take(m_global, m_limits.globalRate, m_limits.globalBurst))
        return refuse(429, R"({"error":"too many requests"})");
    if (upgrade) {
        QByteArray json;
        if (const int status = liveRefusal(request, json))
            return refuse(status, json);
        accept(request, socket);
        return true;
    }
    const QString path = request.url().path();
    const auto method = request.method();
    if (path == QLatin1String("/") && method == QHttpServerRequest::Method::Get)
        servePage(request, socket);
    else if (path == QLatin1String("/state") && method == QHttpServerRequest::Method::Get)
        serveState(request, socket);
    else if (path == QLatin1String("/vote") && method == QHttpServerRequest::Method::Post)
        serveVote(request, socket);
    else if (path == QLatin1String(kLivePath) && method == QHttpServerRequest::Method::Get)
        reply(request, socket, 426, R"({"error":"a WebSocket upgrade only"})");
    else if (path == QLatin1String("/") || path == QLatin1String("/state") ||
             path == QLatin1String("/vote") || path == QLatin1String(kLivePath))
        reply(request, socket, 405, R"({"error":"method not allowed"})");
    else
        return false; // missingHandler: 404
    return true;
}

void PollServer::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    if (m_refusal != 0) {
        reply(request, socket, std::exchange(m_refusal, 0), std::exchange(m_refusalJson, {}));
        return;
    }
    reply(request, socket, 404, R"({"error":"not found"})");
}

void PollServer::servePage(const QHttpServerRequest &request, QTcpSocket *socket)
{
    QByteArray setCookie;
    if (!m_room->issued(cookieOf(request))) {
        // a browser with no cookie, or one this poll never gave (forged, or from a poll
        // before): a new one, while there are fewer than the cap. The cap keeps a script that
        // loads the page again and again from growing the set without end.
        if (m_room->cookiesIssued() >= m_limits.maxBrowsers) {
            reply(request, socket, 503, R"({"error":"the room is full"})");
            return;
        }
        // no Max-Age: the browser forgets it when it closes; the vote needs it only today
        setCookie = QByteArray(kCookieName) + '=' + m_room->issueCookie() +
                    "; Path=/; HttpOnly; SameSite=Strict";
    }
    QHttpServerResponder responder = makeResponder(request, socket);
    // the page's script and style are inline; it asks nothing of any other server
    // ('self' covers ws: of the same host from CSP 3 on, not in every browser: named)
    const QByteArray csp = "default-src 'none'; script-src 'unsafe-inline'; "
                           "style-src 'unsafe-inline'; connect-src 'self' ws://" +
                           baseUrl().mid(7).chopped(1).toLatin1() + "; img-src 'self'";
    if (setCookie.isEmpty())
        responder.write(m_page, {{"Content-Type", "text/html; charset=utf-8"},
                                 {"Cache-Control", "no-store"},
                                 {"X-Content-Type-Options", "nosniff"},
                                 {"Content-Security-Policy", csp}});
    else
        responder.write(m_page, {{"Content-Type", "text/html; charset=utf-8"},
                                 {"Cache-Control", "no-store"},
                                 {"X-Content-Type-Options", "nosniff"},
                                 {"Content-Security-Policy", csp},
                                 {"Set-Cookie", setCookie}});
    ++m_pages;
    emit pageServed();
}

QByteArray PollServer::stateOf(const QByteArray &cookie) const
{
    static const char *const states[] = {"idle", "open", "closed", "revealed"};
    QJsonObject o;
    o[QStringLiteral("state")] = QLatin1String(states[int(m_room->state())]);
    o[QStringLiteral("refresh")] = kRefreshMs;
    if (m_room->hasQuestion()) {
        const Question &q = m_room->question();
        o[QStringLiteral("question")] = q.id;
        o[QStringLiteral("round")] = m_room->round();
        o[QStringLiteral("prompt")] = q.prompt;
        o[QStringLiteral("options")] = QJsonArray::fromStringList(q.options);
        int chose = m_room->choice(cookie, m_room->round());
        o[QStringLiteral("voted")] = chose;
        if (m_room->state() == Room::State::Revealed) {
            for (int r = m_room->round(); chose < 0 && r >= 0; --r)
                chose = m_room->choice(cookie, r);
            o[QStringLiteral("chose")] = chose;
            o[QStringLiteral("right")] = q.right;
            o[QStringLiteral("feedback")] = QJsonArray::fromStringList(q.feedback);
        }
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

void PollServer::serveState(const QHttpServerRequest &request, QTcpSocket *socket)
{
    if (!m_room->codeMatches(request.query().queryItemValue(QStringLiteral("room")))) {
        reply(request, socket, 403, R"({"error":"wrong room code"})");
        return;
    }
    ++m_states;
    reply(request, socket, 200, stateOf(cookieOf(request)));
}

void PollServer::serveVote(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const QByteArray body = request.body();
    if (body.size() > m_limits.maxBodyBytes) {
        reply(request, socket, 413, R"({"error":"too large"})");
        return;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    const QJsonObject o = doc.object();
    const QJsonValue room = o.value(QStringLiteral("room"));
    const QJsonValue question = o.value(QStringLiteral("question"));
    const QJsonValue round = o.value(QStringLiteral("round"));
    const QJsonValue option = o.value(QStringLiteral("option"));
    const QJsonValue confidence = o.value(QStringLiteral("confidence"));
    const auto isSmallInt = [](const QJsonValue &v, int low, int high) {
        return v.isDouble() && v.toDouble() == double(v.toInt()) && v.toInt() >= low &&
               v.toInt() <= high;
    };
    if (error.error != QJsonParseError::NoError || !doc.isObject() || !room.isString() ||
        !question.isString() || !isSmallInt(round, 0, kRounds - 1) || !option.isDouble() ||
        !isSmallInt(confidence, 0, kConfidences - 1)) {
        reply(request, socket, 400, R"({"error":"malformed vote"})");
        return;
    }
    if (!m_room->codeMatches(room.toString())) {
        reply(request, socket, 403, R"({"error":"wrong room code"})");
        return;
    }
    if (!isSmallInt(option, 0, kMaxOptions - 1)) {
        reply(request, socket, 400, R"({"error":"no such option"})");
        return;
    }
    const Room::VoteResult result =
        m_room->vote(cookieOf(request), question.toString(), round.toInt(), option.toInt(),
                     Confidence(confidence.toInt()));
    switch (result) {
    case Room::VoteResult::Counted:
    case Room::VoteResult::Replaced:
        reply(request, socket, 200,
              result == Room::VoteResult::Counted ? R"({"counted":true})"
                                                  : R"({"counted":true,"replaced":true})");
        // its other tabs, and its own page, see the vote in
        push(cookieOf(request));
        emit voted();
        return;
    case Room::VoteResult::BadOption:
        reply(request, socket, 400, R"({"error":"no such option"})");
        return;
    case Room::VoteResult::BadCookie:
        reply(request, socket, 400, R"({"error":"no browser cookie: open the page again"})");
        return;
    case Room::VoteResult::UnknownCookie:
        // well formed, but this poll never gave it: a forgery (or a page from a poll before)
        reply(request, socket, 403, R"({"error":"unknown browser: open the page again"})");
        return;
    case Room::VoteResult::Closed:
        reply(request, socket, 409, R"({"error":"the round is closed"})");
        return;
    case Room::VoteResult::WrongRound:
        reply(request, socket, 409, R"({"error":"another question or round is open"})");
        return;
    }
}

} // namespace Poll
