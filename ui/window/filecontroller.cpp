#include "window/filecontroller.h"

#include "document/autosaver.h"
#include "document/document.h"
#include "window/dialogs.h"

#include "lessonfile.h"
#include "scenariofile.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QUndoStack>

namespace {

constexpr int kMaxRecent = 8;
const char *const kRecentKey = "recentFiles";

} // namespace

FileController::FileController(Parts parts, Hooks hooks, QObject *parent)
    : QObject(parent), m_parts(parts), m_hooks(std::move(hooks))
{
    rebuildRecentMenu();
}

QString FileController::displayName(const QString &path)
{
    return path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
}

bool FileController::openFile(const QString &path)
{
    const Core::LoadResult r = Core::ScenarioFile::load(path);
    if (!r.ok()) {
        // the current scenario stays open, untouched
        m_hooks.reportError(tr("Cannot open scenario"),
                            tr("%1\n\n%2").arg(QDir::toNativeSeparators(path), r.error));
        return false;
    }
    m_parts.doc->reset(*r.scenario, path);
    addRecentFile(path);
    m_hooks.afterLoad();
    m_hooks.showStatus(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool FileController::openPreset(const QString &name)
{
    const Core::LoadResult r = Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
    if (!r.ok()) {
        m_hooks.reportError(tr("Cannot open scenario"), r.error);
        return false;
    }
    // a preset is a starting point, not a file of the user's: saving asks for a path
    m_parts.doc->reset(*r.scenario);
    m_hooks.afterLoad();
    return true;
}

void FileController::openExplored(const Core::Scenario &s)
{
    // asks only when there is unsaved work, so stepping through a shrink does not ask; the
    // schedule opens untitled (saving asks where)
    if (!maybeSave())
        return;
    m_parts.doc->reset(s);
    m_hooks.afterLoad();
}

void FileController::openAtStart(const QString &path)
{
    if (path.endsWith(QLatin1String(Core::LessonFile::kSuffix))) {
        if (!m_hooks.openLesson(path))
            m_hooks.showStatus(tr("Could not open the lesson %1.").arg(path), 0);
        return;
    }
    if (!openFile(path))
        m_hooks.showStatus(tr("Could not open %1; showing the default scenario.").arg(path), 0);
}

bool FileController::saveTo(const QString &path)
{
    QString error;
    if (!Core::ScenarioFile::save(m_parts.doc->scenario(), path, &error)) {
        m_hooks.reportError(tr("Cannot save scenario"), error);
        return false;
    }
    m_parts.doc->setFilePath(path);
    m_parts.doc->markSaved();
    addRecentFile(path);
    m_hooks.updateTitle();
    m_hooks.showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

void FileController::newScenario()
{
    if (!maybeSave())
        return;
    m_parts.doc->reset(Core::ScenarioFile::defaultScenario());
    m_hooks.afterLoad();
}

void FileController::open()
{
    if (!maybeSave())
        return;
    const QString path = m_hooks.dialogs().askOpenPath(m_parts.doc->filePath());
    if (!path.isEmpty())
        openFile(path);
}

bool FileController::save()
{
    if (m_parts.doc->filePath().isEmpty())
        return saveAs();
    return saveTo(m_parts.doc->filePath());
}

bool FileController::saveAs()
{
    const QString path = m_hooks.dialogs().askSavePath(m_parts.doc->filePath());
    return !path.isEmpty() && saveTo(path);
}

bool FileController::maybeSave()
{
    if (!m_parts.doc->isModified())
        return true;
    switch (m_hooks.dialogs().askUnsavedChanges(displayName(m_parts.doc->filePath()))) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

void FileController::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(QLatin1String(kRecentKey)).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecent)
        files.removeLast();
    settings.setValue(QLatin1String(kRecentKey), files);
    rebuildRecentMenu();
}

void FileController::rebuildRecentMenu()
{
    QMenu *menu = m_parts.recentMenu;
    menu->clear();
    const QStringList files = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (const QString &f : files) {
        QAction *a = menu->addAction(QDir::toNativeSeparators(f));
        connect(a, &QAction::triggered, this, [this, f] {
            if (maybeSave())
                openFile(f);
        });
    }
    menu->setEnabled(!files.isEmpty());
}

// ---------------------------------------------------------------------------------------------
// Crash recovery

bool FileController::offerRecovery()
{
    const QString dir = QFileInfo(m_parts.autosaver->file()).absolutePath();
    const QList<Autosaver::Recovery> found = Autosaver::orphans(dir);
    for (const Autosaver::Recovery &r : found) {
        const QDateTime when = r.savedAt.isValid() ? r.savedAt : QFileInfo(r.file).lastModified();
        const QString name =
            r.originalPath.isEmpty() ? tr("untitled") : QFileInfo(r.originalPath).fileName();
        const QMessageBox::StandardButton answer = m_hooks.dialogs().askQuestion(
            tr("Restore unsaved work?"),
            tr("FenceScope closed unexpectedly. Restore the unsaved work from %1 (%2)?")
                .arg(QLocale().toString(when.toLocalTime(), QLocale::ShortFormat), name),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
        if (answer == QMessageBox::No) {
            Autosaver::discard(r);
            continue;
        }
        if (answer != QMessageBox::Yes || !maybeSave())
            continue; // kept: offered again at the next start
        // modified, with the original path: Save writes the recovered work back there
        m_parts.doc->reset(r.scenario, r.originalPath);
        m_hooks.afterLoad();
        m_parts.doc->undoStack()->resetClean();
        m_hooks.updateTitle();
        // our own autosave holds it before the orphan goes: a crash now loses nothing
        m_parts.autosaver->saveNow();
        Autosaver::discard(r);
        m_hooks.showStatus(tr("Restored the unsaved work of %1; save it to keep it.").arg(name),
                           8000);
        return true; // one document per window: any others are offered next time
    }
    return false;
}
