#pragma once

// The program's own fsync, fdatasync and open, in front of the C library's: a test that includes
// this (in one file of its program) sees every flush the savers make, the file or folder flushed
// and what it held then, and can make a flush, or the opening of a folder to flush it, fail. The
// savers are linked in statically, so theirs are these. How long a flush takes is not measured.

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QStringList>

#include <cerrno>
#include <cstdarg>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace FlushSpy {

struct Flush
{
    QString path; // the file's or folder's name when it was flushed
    bool folder = false;
    qint64 size = -1;    // a file's size then
    QStringList entries; // a folder's files then (hidden ones too)
};

inline std::vector<Flush> flushes;
inline bool failFileFlush = false;   // a file's fsync fails (EIO)
inline bool failFolderFlush = false; // a folder's fsync fails (EIO)
inline bool failFolderOpen = false;  // opening a folder (O_DIRECTORY) fails (EACCES)

inline void reset()
{
    flushes.clear();
    failFileFlush = failFolderFlush = failFolderOpen = false;
}

// The flushes of files in `dir` (anything else the process flushes is not the save's).
inline std::vector<Flush> filesIn(const QString &dir)
{
    std::vector<Flush> in;
    for (const Flush &f : flushes)
        if (!f.folder && QFileInfo(f.path).absolutePath() == QFileInfo(dir).canonicalFilePath())
            in.push_back(f);
    return in;
}

// The flushes of the folder `dir` itself.
inline std::vector<Flush> ofFolder(const QString &dir)
{
    std::vector<Flush> of;
    for (const Flush &f : flushes)
        if (f.folder && f.path == QFileInfo(dir).canonicalFilePath())
            of.push_back(f);
    return of;
}

} // namespace FlushSpy

namespace FlushSpy {

// Notes the flush of `fd`; true when it is to fail.
inline bool record(int fd)
{
    Flush f;
    f.path = QFileInfo(QStringLiteral("/proc/self/fd/%1").arg(fd)).symLinkTarget();
    struct stat st;
    if (::fstat(fd, &st) == 0) {
        f.folder = S_ISDIR(st.st_mode);
        f.size = f.folder ? -1 : qint64(st.st_size);
    }
    if (f.folder)
        f.entries = QDir(f.path).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
    flushes.push_back(f);
    return f.folder ? failFolderFlush : failFileFlush;
}

} // namespace FlushSpy

extern "C" int fsync(int fd)
{
    using Fsync = int (*)(int);
    static const auto real = reinterpret_cast<Fsync>(dlsym(RTLD_NEXT, "fsync"));
    if (FlushSpy::record(fd)) {
        errno = EIO;
        return -1;
    }
    return real(fd);
}

// (QSaveFile's commit() flushes its file with fdatasync, where the system has it)
extern "C" int fdatasync(int fd)
{
    using Fdatasync = int (*)(int);
    static const auto real = reinterpret_cast<Fdatasync>(dlsym(RTLD_NEXT, "fdatasync"));
    if (FlushSpy::record(fd)) {
        errno = EIO;
        return -1;
    }
    return real(fd);
}

extern "C" int open(const char *path, int flags, ...)
{
    using Open = int (*)(const char *, int, ...);
    static const auto real = reinterpret_cast<Open>(dlsym(RTLD_NEXT, "open"));
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list args;
        va_start(args, flags);
        mode = va_arg(args, mode_t);
        va_end(args);
    }
    // (O_TMPFILE holds O_DIRECTORY's bit: QSaveFile makes its new file so, in the folder; that
    // is the save's own step, not the flush's)
    if ((flags & O_DIRECTORY) && (flags & O_TMPFILE) != O_TMPFILE && FlushSpy::failFolderOpen) {
        errno = EACCES;
        return -1;
    }
    return real(path, flags, mode);
}
