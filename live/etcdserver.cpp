#include "etcdserver.h"

#include "etcdgateway.h"

#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTimer>

namespace Live {

namespace {

const int kMaxAttempts = 5;
const int kPollMs = 50;
// generous: under a sanitizer on a busy machine etcd starts far more slowly than usual, and
// giving up too soon would fail a run that would have worked
const int kReadyTimeoutMs = 15000;

// A port nobody listens on now: the kernel's pick for a socket bound to port 0.
quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

} // namespace

EtcdServer::EtcdServer(QObject *parent) : QObject(parent), m_poll(new QTimer(this))
{
    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, &EtcdServer::poll);
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    m_process.setStandardOutputFile(QProcess::nullDevice());
    connect(&m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_process.readAllStandardError();
        if (m_stderr.size() > 64 * 1024)
            m_stderr = m_stderr.right(16 * 1024);
    });
    connect(&m_process, &QProcess::finished, this, &EtcdServer::exited);
    dieWithParent(m_process);
}

EtcdServer::~EtcdServer()
{
    stop();
}

QString EtcdServer::program()
{
    const QString chosen = qEnvironmentVariable("FENCESCOPE_ETCD");
    if (!chosen.isEmpty())
        return QFileInfo(chosen).isExecutable() ? chosen : QString();
    QString found = QStandardPaths::findExecutable(QStringLiteral("etcd"));
    if (found.isEmpty() && QFileInfo(QStringLiteral("/usr/bin/etcd")).isExecutable())
        found = QStringLiteral("/usr/bin/etcd");
    return found;
}

QString EtcdServer::missingMessage()
{
    return QStringLiteral("etcd is not installed: install the package etcd-server (sudo apt-get "
                          "install etcd-server), or give --etcd URL of a running etcd");
}

void EtcdServer::start()
{
    if (program().isEmpty()) {
        QTimer::singleShot(0, this, [this] { emit failed(missingMessage()); });
        return;
    }
    RunFolder::removeStale();
    m_folder = std::make_unique<RunFolder>();
    if (!m_folder->isValid()) {
        QTimer::singleShot(0, this, [this] {
            emit failed(QStringLiteral("cannot make a temporary folder for etcd"));
        });
        return;
    }
    m_attempts = 0;
    launch();
}

void EtcdServer::launch()
{
    ++m_attempts;
    m_ready = false;
    m_stderr.clear();
    m_polls = 0;
    const quint16 client = m_attempts == 1 && m_firstClientPort ? m_firstClientPort : freePort();
    quint16 peer = freePort();
    while (peer == client)
        peer = freePort();
    const QString clientUrl = QStringLiteral("http://127.0.0.1:%1").arg(client);
    const QString peerUrl = QStringLiteral("http://127.0.0.1:%1").arg(peer);
    m_url = QUrl(clientUrl);
    const QString name = QStringLiteral("fencescope");
    m_process.setProgram(program());
    m_process.setArguments({
        QStringLiteral("--name"),
        name,
        QStringLiteral("--data-dir"),
        m_folder->filePath(QStringLiteral("etcd-%1").arg(m_attempts)),
        QStringLiteral("--listen-client-urls"),
        clientUrl,
        QStringLiteral("--advertise-client-urls"),
        clientUrl,
        QStringLiteral("--listen-peer-urls"),
        peerUrl,
        QStringLiteral("--initial-advertise-peer-urls"),
        peerUrl,
        QStringLiteral("--initial-cluster"),
        name + QLatin1Char('=') + peerUrl,
        QStringLiteral("--initial-cluster-state"),
        QStringLiteral("new"),
        // 1-second leases granted as asked (see etcdserver.h)
        QStringLiteral("--heartbeat-interval"),
        QStringLiteral("50"),
        QStringLiteral("--election-timeout"),
        QStringLiteral("500"),
        QStringLiteral("--log-level"),
        QStringLiteral("warn"),
    });
    delete m_gateway;
    m_gateway = new EtcdGateway(m_url, this);
    m_process.start();
    m_poll->start();
}

void EtcdServer::poll()
{
    if (m_process.state() != QProcess::Running)
        return;
    if (++m_polls * kPollMs > kReadyTimeoutMs) {
        m_poll->stop();
        killNow(m_process);
        emit failed(QStringLiteral("etcd did not become ready in %1 s%2")
                        .arg(kReadyTimeoutMs / 1000)
                        .arg(tail()));
        return;
    }
    m_gateway->get(QStringLiteral("/version"), [this](const QJsonObject &o, const QString &error) {
        if (m_ready || !error.isEmpty() || m_process.state() != QProcess::Running)
            return;
        const QString version = o.value(QLatin1String("etcdserver")).toString();
        if (version.isEmpty())
            return;
        // a version answer comes before the member has a leader: wait for a served request
        m_gateway->call(QStringLiteral("/v3/kv/range"),
                        {{QStringLiteral("key"), EtcdGateway::bytes(QStringLiteral("fencescope"))}},
                        [this, version](const QJsonObject &, const QString &rangeError) {
                            if (m_ready || !rangeError.isEmpty() ||
                                m_process.state() != QProcess::Running)
                                return;
                            m_ready = true;
                            m_poll->stop();
                            m_version = version;
                            emit ready();
                        });
    });
}

void EtcdServer::exited()
{
    m_poll->stop();
    if (m_stopping)
        return;
    m_stderr += m_process.readAllStandardError();
    if (m_ready) {
        m_ready = false;
        // (killed, it said nothing about it; exited, its last line says why)
        emit died(m_process.exitStatus() == QProcess::CrashExit
                      ? QStringLiteral("etcd was killed")
                      : QStringLiteral("etcd exited with status %1%2")
                            .arg(m_process.exitCode())
                            .arg(tail()));
        return;
    }
    // before it was ready: a port taken by someone else is worth another try
    if (m_stderr.contains("address already in use") && m_attempts < kMaxAttempts) {
        QTimer::singleShot(0, this, &EtcdServer::launch);
        return;
    }
    emit failed(QStringLiteral("etcd could not start%1").arg(tail()));
}

QString EtcdServer::tail() const
{
    QList<QByteArray> lines = m_stderr.trimmed().split('\n');
    if (lines.isEmpty() || lines.back().isEmpty())
        return {};
    return QStringLiteral(": ") + QString::fromUtf8(lines.back()).simplified();
}

void EtcdServer::stop()
{
    m_stopping = true;
    m_poll->stop();
    killNow(m_process);
    m_folder.reset(); // its data goes with it
    m_stopping = false;
}

qint64 EtcdServer::processId() const
{
    return m_process.processId();
}

QString EtcdServer::folder() const
{
    return m_folder ? m_folder->path() : QString();
}

} // namespace Live
