#pragma once

// A throwaway single-node etcd that FenceScope starts as its own child: on 127.0.0.1, on free
// ports (never the packaged service's 2379/2380), with its data in the run's temporary folder,
// gone with the run. Heartbeat 50 ms and election timeout 500 ms make etcd's smallest lease one
// second (etcd 3.4's server.go: minTTL = 1.5 x the election timeout, rounded up to whole
// seconds; with the defaults 100 ms / 1 s a 1 s lease would be granted as 2 s).

#include "childprocess.h"

#include <QObject>
#include <QProcess>
#include <QUrl>

#include <memory>

class QTimer;

namespace Live {

class EtcdGateway;

class EtcdServer : public QObject
{
    Q_OBJECT
public:
    explicit EtcdServer(QObject *parent = nullptr);
    ~EtcdServer() override; // stops it and removes its folder

    // The etcd program: $FENCESCOPE_ETCD, else `etcd` on the PATH, else /usr/bin/etcd; empty
    // when there is none.
    static QString program();
    // One line for a machine without it: which package to install.
    static QString missingMessage();

    // Starts etcd; ready() or failed() follows. A port found taken (etcd could not bind it) is
    // replaced by another, a few times over.
    void start();
    void stop();
    // For tests: the client port to try first (e.g. one that is taken).
    void setFirstClientPort(quint16 port) { m_firstClientPort = port; }

    QUrl url() const { return m_url; }
    QString version() const { return m_version; } // "3.4.23", once ready
    qint64 processId() const;
    QString folder() const;
    int attempts() const { return m_attempts; }

signals:
    void ready();
    void failed(const QString &message);
    // It exited after it was ready (killed, crashed): what it said last, if anything.
    void died(const QString &message);

private:
    void launch();
    void poll();
    void exited();
    QString tail() const;

    std::unique_ptr<RunFolder> m_folder;
    QProcess m_process;
    EtcdGateway *m_gateway = nullptr;
    QTimer *m_poll;
    QUrl m_url;
    QString m_version;
    QByteArray m_stderr;
    quint16 m_firstClientPort = 0;
    int m_attempts = 0;
    int m_polls = 0;
    bool m_ready = false;
    bool m_stopping = false;
};

} // namespace Live
