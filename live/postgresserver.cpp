#include "postgresserver.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>
#include <QVersionNumber>

#include <csignal>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Live {

namespace {

const int kPollMs = 100;
const int kReadyTimeoutMs = 30000;
// the socket's name (.s.PGSQL.5432); the socket is in the run's own folder, no TCP port opens
const int kPort = 5432;

// The user initdb and postgres run as when this process is root: they refuse root.
bool serverUser(int *uid, int *gid)
{
    if (geteuid() != 0)
        return false;
    for (const char *name : {"postgres", "nobody"})
        if (const passwd *pw = getpwnam(name)) {
            *uid = int(pw->pw_uid);
            *gid = int(pw->pw_gid);
            return true;
        }
    return false;
}

} // namespace

PostgresServer::PostgresServer(QObject *parent) : QObject(parent), m_poll(new QTimer(this))
{
    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, &PostgresServer::poll);
    for (QProcess *p : {&m_initdb, &m_server}) {
        p->setProcessChannelMode(QProcess::MergedChannels);
        connect(p, &QProcess::readyRead, this, [this, p] {
            m_stderr += p->readAll();
            if (m_stderr.size() > 64 * 1024)
                m_stderr = m_stderr.right(16 * 1024);
        });
    }
    connect(&m_initdb, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        if (m_stopping)
            return;
        if (status != QProcess::NormalExit || code != 0) {
            const QList<QByteArray> lines = m_stderr.trimmed().split('\n');
            emit failed(QStringLiteral("initdb failed: %1")
                            .arg(QString::fromUtf8(lines.back()).simplified()));
            return;
        }
        serve();
    });
    connect(&m_server, &QProcess::finished, this, [this] {
        m_poll->stop();
        if (m_stopping)
            return;
        const QList<QByteArray> lines = m_stderr.trimmed().split('\n');
        const QString last = QString::fromUtf8(lines.back()).simplified();
        if (m_ready)
            emit died(m_server.exitStatus() == QProcess::CrashExit
                          ? QStringLiteral("PostgreSQL was killed")
                          : QStringLiteral("PostgreSQL exited: %1").arg(last));
        else
            emit failed(QStringLiteral("PostgreSQL could not start: %1").arg(last));
    });
}

PostgresServer::~PostgresServer()
{
    stop();
}

QString PostgresServer::programs()
{
    const QString chosen = qEnvironmentVariable("FENCESCOPE_POSTGRES_BIN");
    if (!chosen.isEmpty())
        return QFileInfo(chosen + QStringLiteral("/postgres")).isExecutable() ? chosen : QString();
    // Debian keeps each major version's programs apart: /usr/lib/postgresql/15/bin
    QString best;
    QVersionNumber newest;
    const QDir root(QStringLiteral("/usr/lib/postgresql"));
    for (const QString &v : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString bin = root.filePath(v + QStringLiteral("/bin"));
        const QVersionNumber version = QVersionNumber::fromString(v);
        if (QFileInfo(bin + QStringLiteral("/postgres")).isExecutable() &&
            QFileInfo(bin + QStringLiteral("/initdb")).isExecutable() && version > newest) {
            newest = version;
            best = bin;
        }
    }
    return best;
}

QString PostgresServer::missingMessage()
{
    return QStringLiteral("PostgreSQL is not installed: install the package postgresql (sudo "
                          "apt-get install postgresql)");
}

QString PostgresServer::driverProblem()
{
    if (QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")))
        return {};
    return QStringLiteral("Qt's PostgreSQL driver is not installed: install the package "
                          "libqt6sql6-psql");
}

QString PostgresServer::socketDir() const
{
    return m_folder ? m_folder->filePath(QStringLiteral("pg")) : QString();
}

void PostgresServer::start(int storages)
{
    m_storages = storages;
    m_port = kPort;
    QString problem = programs().isEmpty() ? missingMessage() : driverProblem();
    if (problem.isEmpty()) {
        m_folder = std::make_unique<RunFolder>();
        if (!m_folder->isValid() || !QDir(m_folder->path()).mkdir(QStringLiteral("pg")))
            problem = QStringLiteral("cannot make a folder for PostgreSQL");
    }
    if (!problem.isEmpty()) {
        QTimer::singleShot(0, this, [this, problem] { emit failed(problem); });
        return;
    }
    int uid = -1, gid = -1;
    if (serverUser(&uid, &gid)) {
        // its folder is that user's; the run's folder above it only lets it through
        ::chmod(QFile::encodeName(m_folder->path()).constData(), 0711);
        ::chown(QFile::encodeName(socketDir()).constData(), uid_t(uid), gid_t(gid));
    }
    dieWithParent(m_initdb, uid, gid);
    // SIGQUIT, PostgreSQL's immediate shutdown: it still removes its shared memory
    dieWithParent(m_server, uid, gid, SIGQUIT);
    m_initdb.setProgram(programs() + QStringLiteral("/initdb"));
    // trust on its own socket only; no sync: the data is thrown away with the run
    m_initdb.setArguments({QStringLiteral("-D"), socketDir() + QStringLiteral("/data"),
                           QStringLiteral("-A"), QStringLiteral("trust"), QStringLiteral("-U"),
                           user(), QStringLiteral("-N")});
    m_initdb.setWorkingDirectory(socketDir());
    m_initdb.start();
}

void PostgresServer::serve()
{
    m_server.setProgram(programs() + QStringLiteral("/postgres"));
    m_server.setArguments(
        {QStringLiteral("-D"), socketDir() + QStringLiteral("/data"), QStringLiteral("-k"),
         socketDir(), QStringLiteral("-p"), QString::number(m_port), QStringLiteral("-c"),
         QStringLiteral("listen_addresses="), QStringLiteral("-c"),
         // its dynamic shared memory in its data folder, not /dev/shm
         QStringLiteral("dynamic_shared_memory_type=mmap"), QStringLiteral("-F")});
    m_server.setWorkingDirectory(socketDir());
    m_server.start();
    m_polls = 0;
    m_poll->start();
}

void PostgresServer::poll()
{
    if (++m_polls * kPollMs > kReadyTimeoutMs) {
        m_poll->stop();
        killNow(m_server);
        emit failed(
            QStringLiteral("PostgreSQL did not become ready in %1 s").arg(kReadyTimeoutMs / 1000));
        return;
    }
    if (!QFileInfo::exists(socketDir() + QStringLiteral("/.s.PGSQL.%1").arg(m_port)))
        return;
    m_poll->stop();
    setUpTable();
}

// One row per storage: its value, max_token (0 to start, section 4) and version (its applied
// writes, section 12).
void PostgresServer::setUpTable()
{
    m_connection = QStringLiteral("fencescope-setup-%1").arg(quintptr(this));
    QString error;
    bool opened = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_connection);
        db.setHostName(socketDir());
        db.setPort(m_port);
        db.setUserName(user());
        db.setDatabaseName(QStringLiteral("postgres"));
        opened = db.open();
        QSqlQuery q(db);
        // (recorded: a `same` storage has recorded its first token, section 15.5)
        if (opened && (!q.exec(QStringLiteral("CREATE TABLE storage (id integer PRIMARY KEY, "
                                              "value text NOT NULL DEFAULT '', max_token bigint "
                                              "NOT NULL DEFAULT 0, version bigint NOT NULL "
                                              "DEFAULT 0, recorded boolean NOT NULL DEFAULT "
                                              "false)")) ||
                       !q.exec(QStringLiteral("INSERT INTO storage (id) SELECT "
                                              "generate_series(0, %1)")
                                   .arg(m_storages - 1))))
            error = q.lastError().text();
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
    if (!opened) {
        m_poll->start(); // (its socket is there before it takes connections: again)
        return;
    }
    if (!error.isEmpty()) {
        emit failed(QStringLiteral("PostgreSQL: %1").arg(error));
        return;
    }
    m_ready = true;
    emit ready();
}

void PostgresServer::stop()
{
    m_stopping = true;
    m_poll->stop();
    killNow(m_initdb);
    // a fast shutdown, which removes its shared memory; killed only if it hangs
    if (m_server.state() != QProcess::NotRunning) {
        ::kill(pid_t(m_server.processId()), SIGINT);
        if (!m_server.waitForFinished(5000))
            killNow(m_server);
    }
    m_folder.reset();
    m_stopping = false;
}

} // namespace Live
