#pragma once

// A throwaway PostgreSQL for `--store postgres`: the storages live in a table there instead of
// in etcd's key space, so a fenced write is the SQL of the fencing-token literature,
// `UPDATE ... WHERE max_token <= token`, answered by the count of rows it changed. Its data and
// its socket are in the run's folder; no TCP port is opened. initdb and postgres refuse to run
// as root, so as root (CI) they run as the `postgres` user (else `nobody`), and the folder is
// handed to that user.

#include "childprocess.h"

#include <QObject>
#include <QProcess>

#include <memory>

class QTimer;

namespace Live {

class PostgresServer : public QObject
{
    Q_OBJECT
public:
    explicit PostgresServer(QObject *parent = nullptr);
    ~PostgresServer() override;

    // The folder of PostgreSQL's programs (initdb, postgres), the newest installed; empty when
    // there is none.
    static QString programs();
    static QString missingMessage();
    // The Qt driver a client needs (Debian's libqt6sql6-psql), or the one line saying so.
    static QString driverProblem();

    // initdb, then postgres; ready() or failed() follows.
    void start(int storages);
    void stop();

    QString socketDir() const;
    int port() const { return m_port; }
    qint64 processId() const { return m_server.processId(); }
    static QString user() { return QStringLiteral("fencescope"); }

signals:
    void ready();
    void failed(const QString &message);
    void died(const QString &message);

private:
    void serve();
    void poll();
    void setUpTable();

    std::unique_ptr<RunFolder> m_folder;
    QProcess m_initdb;
    QProcess m_server;
    QTimer *m_poll;
    QByteArray m_stderr;
    QString m_connection;
    int m_storages = 0;
    int m_port = 0;
    int m_polls = 0;
    bool m_ready = false;
    bool m_stopping = false;
};

} // namespace Live
