#include "savefile.h"

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QtGlobal>

#include <cerrno>
#include <cstring>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace Core {

std::optional<SaveFailure> saveWhole(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return SaveFailure{file.errorString(), false};
    // Qt 6.4's commit() flushes its buffer, but renames the file over the old one even when
    // that flush failed (qsavefile.cpp: it checks the errors of write() alone), so a full disk
    // would leave a cut file in the old one's place: flush here, and look.
    if (file.write(bytes) != bytes.size() || !file.flush()) {
        // (the reason is read before cancelling, which clears it)
        QString why = file.errorString();
        file.cancelWriting();
        return SaveFailure{why.isEmpty() ? QStringLiteral("not every byte was written") : why,
                           true};
    }
    if (!file.commit())
        return SaveFailure{file.errorString(), true};
    // (QSaveFile renamed its file over the link's target, not over a symbolic link at `path`)
    const QString saved = QFileInfo(path).canonicalFilePath();
    flushFolderOf(saved.isEmpty() ? path : saved);
    return std::nullopt;
}

bool flushFolderOf(const QString &path)
{
#ifdef Q_OS_UNIX
    const QByteArray folder = QFile::encodeName(QFileInfo(path).absolutePath());
    const int fd = ::open(folder.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int error = fd < 0 ? errno : 0;
    if (fd >= 0) {
        if (::fsync(fd) != 0)
            error = errno;
        ::close(fd);
    }
    if (error != 0) {
        qWarning("%s",
                 qPrintable(folderNotFlushed(path, QString::fromLocal8Bit(std::strerror(error)))));
        return false;
    }
#else
    Q_UNUSED(path) // elsewhere the system's own rename is taken as it is
#endif
    return true;
}

QString folderNotFlushed(const QString &path, const QString &reason)
{
    return QStringLiteral("saved %1, but its folder was not flushed (%2): a power cut soon after "
                          "may undo the save")
        .arg(path, reason);
}

QString cannotWrite(const QString &path, const SaveFailure &failure)
{
    return QStringLiteral("cannot write %1: %2").arg(path, failure.reason);
}

QString cannotSave(const QString &path, const SaveFailure &failure)
{
    return failure.opened ? QStringLiteral("cannot save %1 (%2); the previous file is unchanged")
                                .arg(path, failure.reason)
                          : QStringLiteral("cannot save %1 (%2)").arg(path, failure.reason);
}

} // namespace Core
