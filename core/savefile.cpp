#include "savefile.h"

#include <QSaveFile>

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
    return std::nullopt;
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
