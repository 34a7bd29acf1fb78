#pragma once

// What the live tests share: the live helper that runs client lanes, and what a run may leave
// behind (child processes, run folders), looked for in /proc and in the run folders' base.

#include "childprocess.h"

#include <QDir>
#include <QFile>
#include <QStringList>
#include <QTemporaryDir>

#include <vector>

#include <unistd.h>

namespace TestSupport {

inline QString liveHelper()
{
    return QStringLiteral(FENCESCOPE_LIVE_HELPER_PATH);
}

// The processes whose parent is this one, zombies included: what a test's live runs left.
inline std::vector<qint64> childProcesses()
{
    std::vector<qint64> out;
    const qint64 self = getpid();
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (!ok)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        // pid (comm) state ppid ...: comm may hold spaces, so read after its last ')'
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == self)
            out.push_back(pid);
    }
    return out;
}

// Processes whose environment holds `marker` (a variable only one test run set).
inline std::vector<qint64> processesWithEnvironment(const QByteArray &marker)
{
    std::vector<qint64> out;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (!ok || pid == getpid())
            continue;
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().contains(marker))
            out.push_back(pid);
    }
    return out;
}

// A base of the test's own for its runs' folders ($FENCESCOPE_LIVE_TMP while it lives), where
// the runs would make them (/dev/shm when it is there): tests that run at once do not see each
// other's folders. Others may pass through it (PostgreSQL runs as another user under root).
class OwnRunBase
{
public:
    OwnRunBase() : m_dir(Live::RunFolder::base() + QStringLiteral("/fencescope-test-XXXXXX"))
    {
        QFile::setPermissions(m_dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                QFile::ExeGroup | QFile::ExeOther);
        qputenv("FENCESCOPE_LIVE_TMP", m_dir.path().toUtf8());
    }
    ~OwnRunBase() { qunsetenv("FENCESCOPE_LIVE_TMP"); }
    QString path() const { return m_dir.path(); }

private:
    QTemporaryDir m_dir;
};

// Run folders in the base a run makes them in.
inline QStringList runFolders()
{
    return QDir(Live::RunFolder::base())
        .entryList({Live::RunFolder::namePattern()}, QDir::Dirs | QDir::NoDotAndDotDot);
}

} // namespace TestSupport
