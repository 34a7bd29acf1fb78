#pragma once

// The web server phones reach while the room is polled (docs/POLL.md): the page, the state of
// the round, the vote, and the live updates, on one address and a free port, only while the
// poll is on.
//
// QHttpServer (QAbstractHttpServer, a technical preview in Qt 6.4) parses HTTP and has no
// limits of its own on request size, rate or connections; they are enforced here, at the
// socket (PollGuard, before the parser reads a byte) and per request.
//
// Live updates: the page opens a WebSocket to GET /live on the same port. QAbstractHttpServer
// (6.4, built with QtWebSockets) calls handleRequest() for an upgrade request and, when that
// returns true, hands the connection to its own QWebSocketServer (qabstracthttpserver.cpp,
// handleReadyRead); handleRequest() refuses there what has no issued cookie, the wrong room
// code or a foreign Origin. The server then pushes each phone its /state JSON whenever the room
// changes (Room::setOnChange) and after its own vote, and expects nothing from the socket: any
// message closes it, and so do more bytes than a small budget (pings and close frames fit).
// The page asks GET /state every kRefreshMs only while it has no socket (it could not open,
// or closed: a campus network that drops idle connections, a tab the browser put to sleep).

#include "pollroom.h"

#include <QAbstractHttpServer>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QPointer>
#include <QTcpServer>
#include <QTimer>

class QTcpSocket;
class QWebSocket;

namespace Poll {

struct Limits
{
    int maxConnections = 600;       // HTTP and live, open at once; more are refused (503)
    qint64 maxRequestBytes = 8192;  // headers and body of one request; more: 413 and closed
    qint64 maxBodyBytes = 1024;     // a vote's body
    int idleMs = 20000;             // a connection without a whole request for this long: closed
    double perConnectionRate = 8;   // requests per second, sustained, per connection
    double perConnectionBurst = 16; // at once
    double globalRate = 3000;       // requests per second over all connections
    double globalBurst = 3000;
    int maxBrowsers = 5000; // cookies given for the poll's life; then the page answers 503
    // Live updates (WebSockets at /live). They count in maxConnections too; this cap keeps
    // room there for the votes' requests.
    int maxLive = 400;
    int maxLivePerBrowser = 3;        // tabs of one phone; more are refused (429)
    qint64 maxLiveMessageBytes = 125; // a frame or message from a phone; more: closed (1009)
    double liveBytesRate = 16;        // bytes per second a phone may send on its socket
    double liveBytesBurst = 256;      // at once; more, and the connection is dropped
    int livePingMs = 15000;           // a ping each; nothing heard for 3 of them: dropped
};

// How often the page asks for the round's state (ms) while it has no live socket; the page
// reads it from /state.
constexpr int kRefreshMs = 1500;
// The live updates' WebSocket: ws://ADDRESS:PORT/live?room=CODE
constexpr char kLivePath[] = "/live";
// The browser's cookie: the only thing that tells one phone from another.
constexpr char kCookieName[] = "fsvote";

// The listening socket: refuses connections over the cap and requests over the size limit
// before QHttpServer reads them, and closes idle connections.
class PollGuard : public QTcpServer
{
    Q_OBJECT
public:
    PollGuard(const Limits &limits, QObject *parent = nullptr);
    // HTTP connections and live sockets, open now
    int connections() const { return int(m_sockets.size()) + m_upgraded; }
    // A whole request came on `socket`: it is not idle, and its byte budget starts again.
    void requestDone(QTcpSocket *socket);
    // `socket` becomes a WebSocket: its limits are the server's from now on, and it counts as
    // a connection until it is destroyed. Returns an object owned by `socket` (it goes with
    // it): QAbstractHttpServer disconnects every signal of the socket when it hands it over,
    // the object's own `destroyed` stays.
    QObject *upgraded(QTcpSocket *socket);
    // Refuses what `socket` sends from now on with `status` and closes it.
    static void refuse(QTcpSocket *socket, int status, const QByteArray &reason);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    struct Connection
    {
        qint64 bytes = 0; // since its last whole request
        QElapsedTimer since;
    };
    void arrived(QTcpSocket *socket);
    void sweep();

    Limits m_limits;
    QHash<QTcpSocket *, Connection> m_sockets;
    int m_upgraded = 0;
    QTimer m_sweep;
};

class PollServer : public QAbstractHttpServer
{
    Q_OBJECT
public:
    explicit PollServer(Room *room, const Limits &limits = Limits(), QObject *parent = nullptr);
    ~PollServer() override;

    // An address the phones may reach, with its interface's name (eth0, wlp2s0).
    struct Interface
    {
        QString name;
        QHostAddress address;
    };
    // The IPv4 addresses of the interfaces that are up, running and not the loopback, in
    // QNetworkInterface's order: what the teacher picks from. Empty with no network.
    static QList<Interface> interfaces();
    // The first of interfaces(); null when the computer has none (no network: the lesson goes
    // on with hands).
    static QHostAddress defaultAddress();
    // The name of the interface that has `address` (the loopback's too); empty when none has.
    static QString interfaceOf(const QHostAddress &address);

    // Listens on `address` at a free port; false (with error()) when it cannot, and then what
    // was listening before still is.
    bool start(const QHostAddress &address);
    void stop();
    bool isListening() const { return m_guard != nullptr; }
    QHostAddress address() const { return m_address; }
    quint16 port() const { return m_port; }
    // http://ADDRESS:PORT/ : what the projector shows, with the room code beside it.
    QString baseUrl() const;
    // The same with the code, for the QR code: scanning it needs no typing.
    QString joinUrl() const;
    QString error() const { return m_error; }
    // Pages served: a phone reached the computer (campus Wi-Fi that isolates clients lets none).
    int pagesServed() const { return m_pages; }
    // GET /state answered with a state: the page's polling, before its socket opens or when
    // it cannot.
    int statesServed() const { return m_states; }
    int connections() const;
    // Live sockets with their handshake done.
    int liveSockets() const;

signals:
    void voted();
    void pageServed();

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    struct Bucket
    {
        double tokens = 0;
        QElapsedTimer refilled;
    };
    bool take(Bucket &bucket, double rate, double burst);
    // The request as QAbstractHttpServer 6.4 tells a WebSocket upgrade (Connection holds
    // "upgrade" and Upgrade is "websocket"): returning true hands the connection over.
    static bool isUpgrade(const QHttpServerRequest &request);
    // Why the upgrade request may not have a live socket: its status and JSON; 0 when it may.
    int liveRefusal(const QHttpServerRequest &request, QByteArray &json) const;
    void accept(const QHttpServerRequest &request, QTcpSocket *socket);
    void adopt();
    void liveBytes(QTcpSocket *socket);
    void pingLive();
    // The state one phone sees: what /state answers, and what a push carries.
    QByteArray stateOf(const QByteArray &cookie) const;
    // Sends each phone its state; with a cookie, only that phone's sockets.
    void push(const QByteArray &cookie = {});
    void servePage(const QHttpServerRequest &request, QTcpSocket *socket);
    void serveState(const QHttpServerRequest &request, QTcpSocket *socket);
    void serveVote(const QHttpServerRequest &request, QTcpSocket *socket);
    void reply(const QHttpServerRequest &request, QTcpSocket *socket, int status,
               const QByteArray &json);
    static QByteArray cookieOf(const QHttpServerRequest &request);

    Room *m_room;
    Limits m_limits;
    QPointer<PollGuard> m_guard;
    QHostAddress m_address;
    quint16 m_port = 0;
    QString m_error;
    int m_pages = 0;
    int m_states = 0;
    QByteArray m_page;
    Bucket m_global;
    QHash<QTcpSocket *, Bucket> m_perConnection;
    // A refused upgrade's answer, for missingHandler (QAbstractHttpServer calls it next)
    int m_refusal = 0;
    QByteArray m_refusalJson;
    // The live sockets, by the connection under them (from the accepted upgrade on)
    struct Live
    {
        QByteArray cookie;
        Bucket bytes;
        qint64 unread = 0; // left in the socket by QWebSocket's reader: counted already
        QElapsedTimer heard;
        QPointer<QWebSocket> socket; // once the handshake is done
    };
    QHash<QTcpSocket *, Live> m_live;
    QTimer m_ping;
    QTimer m_pushSoon; // a room change pushes once, after the change is whole (close, reveal)
};

} // namespace Poll
