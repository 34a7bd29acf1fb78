#include "childprocess.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QLockFile>
#include <QTemporaryDir>

#include <csignal>
#include <grp.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace Live {

namespace {

const char kLockName[] = "owner.lock";

} // namespace

void dieWithParent(QProcess &process, int uid, int gid, int signal)
{
    const pid_t parent = getpid();
    process.setChildProcessModifier([parent, uid, gid, signal] {
        // (between fork and exec: only async-signal-safe calls)
        if (uid >= 0 && gid >= 0 &&
            (setgroups(0, nullptr) != 0 || setgid(gid_t(gid)) != 0 || setuid(uid_t(uid)) != 0))
            _exit(1);
        // (after the change of user: a change of credentials clears it)
        prctl(PR_SET_PDEATHSIG, signal);
        if (getppid() != parent) // the parent died before the line above
            _exit(1);
    });
}

QString laneProgram()
{
    QString chosen = qEnvironmentVariable("FENCESCOPE_LIVE_HELPER");
    if (!chosen.isEmpty())
        return chosen;
    return QDir::cleanPath(QCoreApplication::applicationDirPath() + QLatin1Char('/') +
                           QLatin1String(FENCESCOPE_LIVE_HELPER));
}

void killNow(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.kill();
    process.waitForFinished(5000);
}

QString RunFolder::base()
{
    QString chosen = qEnvironmentVariable("FENCESCOPE_LIVE_TMP");
    if (!chosen.isEmpty())
        return chosen;
    const QFileInfo shm(QStringLiteral("/dev/shm"));
    return shm.isDir() && shm.isWritable() ? shm.filePath() : QDir::tempPath();
}

RunFolder::RunFolder()
    : m_dir(std::make_unique<QTemporaryDir>(base() + QStringLiteral("/fencescope-live-XXXXXX")))
{
    if (!m_dir->isValid())
        return;
    m_lock = std::make_unique<QLockFile>(m_dir->filePath(QLatin1String(kLockName)));
    m_lock->setStaleLockTime(0); // held for as long as the run lives, however long
    m_lock->tryLock(0);
}

RunFolder::~RunFolder()
{
    if (m_lock)
        m_lock->unlock();
    // QTemporaryDir removes the folder and everything in it (etcd's data, the lock file)
}

bool RunFolder::isValid() const
{
    return m_dir->isValid() && m_lock && m_lock->isLocked();
}

QString RunFolder::path() const
{
    return m_dir->path();
}

QString RunFolder::filePath(const QString &name) const
{
    return m_dir->filePath(name);
}

QString RunFolder::namePattern()
{
    return QStringLiteral("fencescope-live-*");
}

int RunFolder::removeStale()
{
    int removed = 0;
    const QDir temp(base());
    for (const QFileInfo &info :
         temp.entryInfoList({namePattern()}, QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden)) {
        const QString lockPath = QDir(info.filePath()).filePath(QLatin1String(kLockName));
        if (QFileInfo::exists(lockPath)) {
            QLockFile lock(lockPath);
            // stale only when its process is gone: age alone says nothing about a long run
            lock.setStaleLockTime(0);
            if (!lock.tryLock(0))
                continue; // a live run's
            lock.unlock();
        } else if (info.lastModified().secsTo(QDateTime::currentDateTime()) < 60) {
            continue; // a run just making its folder, before its lock file
        }
        if (QDir(info.filePath()).removeRecursively())
            ++removed;
    }
    return removed;
}

} // namespace Live
