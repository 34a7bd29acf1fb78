#pragma once

// The web server phones reach while the room is polled (docs/POLL.md): the page, the state of
// the round and the vote, on one address and a free port, only while the poll is on.
//
// QHttpServer (QAbstractHttpServer, a technical preview in Qt 6.4) parses HTTP and has no
// limits of its own on request size, rate or connections; they are enforced here, at the
// socket (PollGuard, before the parser reads a byte) and per request. The phones ask for the
// round's state every kRefreshMs (short polling, not WebSockets: a phone on a campus network
// that drops idle connections, or a browser that sleeps a tab, just asks again).

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

namespace Poll {

struct Limits
{
    int maxConnections = 600;       // open at once; more are refused (503)
    qint64 maxRequestBytes = 8192;  // headers and body of one request; more: 413 and closed
    qint64 maxBodyBytes = 1024;     // a vote's body
    int idleMs = 20000;             // a connection without a whole request for this long: closed
    double perConnectionRate = 8;   // requests per second, sustained, per connection
    double perConnectionBurst = 16; // at once
    double globalRate = 3000;       // requests per second over all connections
    double globalBurst = 3000;
    int maxBrowsers = 5000; // cookies given for the poll's life; then the page answers 503
};

// How often the page asks for the round's state (ms); the page reads it from /state.
constexpr int kRefreshMs = 1500;
// The browser's cookie: the only thing that tells one phone from another.
constexpr char kCookieName[] = "fsvote";

// The listening socket: refuses connections over the cap and requests over the size limit
// before QHttpServer reads them, and closes idle connections.
class PollGuard : public QTcpServer
{
    Q_OBJECT
public:
    PollGuard(const Limits &limits, QObject *parent = nullptr);
    int connections() const { return int(m_sockets.size()); }
    // A whole request came on `socket`: it is not idle, and its byte budget starts again.
    void requestDone(QTcpSocket *socket);
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
    int connections() const;

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
    QByteArray m_page;
    Bucket m_global;
    QHash<QTcpSocket *, Bucket> m_perConnection;
};

} // namespace Poll
