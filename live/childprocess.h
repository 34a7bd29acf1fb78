#pragma once

// What every process a live run starts shares: it dies with the thread that started it
// (PR_SET_PDEATHSIG), so a killed app leaves no etcd and no client lane behind; and the
// temporary folders of runs, each held by a lock file while its run lives, so a folder left by
// a killed app is found and removed at the next start.

#include <QProcess>
#include <QString>

#include <memory>

class QLockFile;
class QTemporaryDir;

namespace Live {

// Sets `process` up to be killed (SIGKILL) when the thread that starts it ends: a child of a
// crashed or killed app does not outlive it. With `uid`/`gid` (>= 0, when this process is root)
// it runs as that user; `signal` is the signal it gets instead (PostgreSQL cleans up its shared
// memory on SIGQUIT).
void dieWithParent(QProcess &process, int uid = -1, int gid = -1, int signal = 9);

// SIGKILL and reap: nothing of `process` is left when this returns.
void killNow(QProcess &process);

// The program that runs a client lane (`--lane`) for a coordinator in the app: the live helper,
// $FENCESCOPE_LIVE_HELPER or where it is installed relative to the running program.
QString laneProgram();

// A run's temporary folder (fencescope-live-XXXXXX in folder()), removed when this is destroyed.
class RunFolder
{
public:
    RunFolder();
    ~RunFolder();
    RunFolder(const RunFolder &) = delete;
    RunFolder &operator=(const RunFolder &) = delete;
    bool isValid() const;
    QString path() const;
    QString filePath(const QString &name) const;

    // Removes the folders of runs whose process is gone (their lock file is stale). Returns
    // how many were removed.
    static int removeStale();
    // The pattern every run folder's name matches, for tests that look for leftovers.
    static QString namePattern(); // "fencescope-live-*"
    // Where run folders are made: /dev/shm when it is there (etcd syncs its log to disk on
    // every write, and on a memory file system that costs nothing: a throwaway etcd's lease
    // ends then come when its lessor says, not after the disk), else the temporary folder;
    // $FENCESCOPE_LIVE_TMP when set.
    static QString base();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace Live
