// Writing a file whole or not at all: every file FenceScope writes goes through here.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace Core {

struct SaveFailure
{
    QString reason;      // the system's words ("Permission denied", "No space left on device")
    bool opened = false; // the new file was begun; the one at the path, if any, is unchanged
};

// Writes `bytes` to `path` through QSaveFile: into a new file beside it, renamed over the old
// one once every byte is written, so a full disk, a removed stick or a crash leaves the old
// file as it was and no partial one. Returns nothing when written.
std::optional<SaveFailure> saveWhole(const QString &path, const QByteArray &bytes);

// Flushes the folder that holds `path`, a file just renamed into it (by saveWhole, or the
// animation writers' own rename): the rename is a change to the folder, which fsync of the file
// does not reach, so a power cut soon after could bring back the old file or none. Every save
// calls this once, after its rename. POSIX: the folder opened O_RDONLY|O_DIRECTORY, fsync'd and
// closed. A folder that cannot be opened or flushed does not undo the save, which has succeeded:
// it is reported as a warning on stderr (folderNotFlushed's line) and false is returned.
bool flushFolderOf(const QString &path);

// "saved PATH, but its folder was not flushed (REASON): a power cut soon after may undo the save"
QString folderNotFlushed(const QString &path, const QString &reason);

// "cannot write PATH: REASON", the line the CLI and the dialogs show
QString cannotWrite(const QString &path, const SaveFailure &failure);
// "cannot save PATH (REASON)", and that the file there is unchanged once one was begun: the
// line a scenario's or a lesson's save shows
QString cannotSave(const QString &path, const SaveFailure &failure);

} // namespace Core
