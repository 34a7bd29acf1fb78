// MainWindow, part: files. Open, save, recent files, drops, the unsaved-changes question,
// the dialog hooks tests replace (setInteractive) and crash recovery from the autosave.

#include "window/mainwindow.h"

#include "document/autosaver.h"
#include "document/document.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/playback.h"

#include "window/lessoncontroller.h"

#include "lessonfile.h"
#include "scenariofile.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

namespace {

constexpr int kMaxRecent = 8;
const char *const kRecentKey = "recentFiles";

QString displayName(const QString &path)
{
    return path.isEmpty() ? MainWindow::tr("Untitled") : QFileInfo(path).fileName();
}

} // namespace

void MainWindow::updateTitle()
{
    setWindowTitle(
        tr("%1[*] — %2 — FenceScope").arg(displayName(m_doc->filePath()), m_doc->scenario().title));
    setWindowModified(m_doc->isModified());
}

void MainWindow::afterLoad()
{
    // another scenario than a lesson's scene: the lesson stays open, its questions wait
    if (m_lessons)
        m_lessons->scenarioReplaced();
    m_playback->pause();
    m_state->clearPlayhead();
    m_state->clearSelection();
    if (auto *view = m_timeline; view && view->isVisible())
        view->fitToWindow();
    selectMostInteresting();
    // the story of a scenario just opened is read from its title: back to its top, after the
    // selection above has brought its explanation into view (a zero timer, queued after that)
    if (auto *story = findChild<QDockWidget *>(QStringLiteral("storyDock")))
        if (auto *scroll = qobject_cast<QScrollArea *>(story->widget()))
            QTimer::singleShot(0, scroll, [scroll] { scroll->verticalScrollBar()->setValue(0); });
}

void MainWindow::selectMostInteresting()
{
    const Core::Trace &t = m_doc->trace();
    for (const Core::WriteResult wanted :
         {Core::WriteResult::Corrupted, Core::WriteResult::Rejected,
          Core::WriteResult::LockedOut}) {
        for (const Core::Write &w : t.writes) {
            if (w.result == wanted) {
                m_state->setSelection({int(w.client), int(w.action)});
                return;
            }
        }
    }
}

bool MainWindow::openFile(const QString &path)
{
    const Core::LoadResult r = Core::ScenarioFile::load(path);
    if (!r.ok()) {
        // the current scenario stays open, untouched
        reportError(tr("Cannot open scenario"),
                    tr("%1\n\n%2").arg(QDir::toNativeSeparators(path), r.error));
        return false;
    }
    m_doc->reset(*r.scenario, path);
    addRecentFile(path);
    afterLoad();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool MainWindow::openPreset(const QString &name)
{
    const Core::LoadResult r = Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
    if (!r.ok()) {
        reportError(tr("Cannot open scenario"), r.error);
        return false;
    }
    // a preset is a starting point, not a file of the user's: saving asks for a path
    m_doc->reset(*r.scenario);
    afterLoad();
    return true;
}

void MainWindow::openAtStart(const QString &path)
{
    if (path.endsWith(QLatin1String(Core::LessonFile::kSuffix))) {
        if (!openLesson(path))
            statusBar()->showMessage(tr("Could not open the lesson %1.").arg(path));
        return;
    }
    if (!openFile(path))
        statusBar()->showMessage(tr("Could not open %1; showing the default scenario.").arg(path));
}

bool MainWindow::saveTo(const QString &path)
{
    QString error;
    if (!Core::ScenarioFile::save(m_doc->scenario(), path, &error)) {
        reportError(tr("Cannot save scenario"), error);
        return false;
    }
    m_doc->setFilePath(path);
    m_doc->markSaved();
    addRecentFile(path);
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

void MainWindow::newScenario()
{
    if (!maybeSave())
        return;
    m_doc->reset(Core::ScenarioFile::defaultScenario());
    afterLoad();
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString path = askOpenPath();
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::save()
{
    if (m_doc->filePath().isEmpty())
        return saveAs();
    return saveTo(m_doc->filePath());
}

bool MainWindow::saveAs()
{
    const QString path = askSavePath();
    return !path.isEmpty() && saveTo(path);
}

bool MainWindow::maybeSave()
{
    if (!m_doc->isModified())
        return true;
    switch (askUnsavedChanges()) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

void MainWindow::addRecentFile(const QString &path)
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

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (const QString &f : files) {
        QAction *a = m_recentMenu->addAction(QDir::toNativeSeparators(f));
        connect(a, &QAction::triggered, this, [this, f] {
            if (maybeSave())
                openFile(f);
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

// ---------------------------------------------------------------------------------------------
// Dialog hooks

void MainWindow::reportError(const QString &title, const QString &message)
{
    m_lastError = message;
    statusBar()->showMessage(message.section(QLatin1Char('\n'), -1), 8000);
    if (m_interactive)
        QMessageBox::warning(this, title, message);
}

QMessageBox::StandardButton MainWindow::askUnsavedChanges()
{
    if (!m_interactive)
        return m_unsavedAnswer;
    return QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("“%1” has unsaved changes. Save them first?").arg(displayName(m_doc->filePath())),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
}

QString MainWindow::askOpenPath()
{
    if (!m_interactive)
        return m_nextPath;
    return QFileDialog::getOpenFileName(this, tr("Open scenario"),
                                        QFileInfo(m_doc->filePath()).path(),
                                        tr("FenceScope scenarios (*.json);;All files (*)"));
}

QString MainWindow::askSavePath()
{
    if (!m_interactive)
        return m_nextPath;
    QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"),
                                                m_doc->filePath().isEmpty() ? tr("scenario.json")
                                                                            : m_doc->filePath(),
                                                tr("FenceScope scenarios (*.json)"));
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return path;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (maybeSave() && m_lessons->maybeSave()) {
        m_playback->pause();
        saveWindowSettings();
        event->accept();
    } else {
        event->ignore();
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile())
        return;
    event->acceptProposedAction();
    if (maybeSave())
        openFile(urls.front().toLocalFile());
}

QMessageBox::StandardButton MainWindow::askQuestion(const QString &title, const QString &text,
                                                    QMessageBox::StandardButtons buttons,
                                                    QMessageBox::StandardButton defaultButton)
{
    m_lastQuestion = text;
    if (!m_interactive)
        return m_questionAnswer;
    return QMessageBox::question(this, title, text, buttons, defaultButton);
}

// ---------------------------------------------------------------------------------------------
// Crash recovery

bool MainWindow::offerRecovery()
{
    const QString dir = QFileInfo(m_autosaver->file()).absolutePath();
    const QList<Autosaver::Recovery> found = Autosaver::orphans(dir);
    for (const Autosaver::Recovery &r : found) {
        const QDateTime when = r.savedAt.isValid() ? r.savedAt : QFileInfo(r.file).lastModified();
        const QString name =
            r.originalPath.isEmpty() ? tr("untitled") : QFileInfo(r.originalPath).fileName();
        const QMessageBox::StandardButton answer = askQuestion(
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
        m_doc->reset(r.scenario, r.originalPath);
        afterLoad();
        m_doc->undoStack()->resetClean();
        updateTitle();
        // our own autosave holds it before the orphan goes: a crash now loses nothing
        m_autosaver->saveNow();
        Autosaver::discard(r);
        statusBar()->showMessage(
            tr("Restored the unsaved work of %1; save it to keep it.").arg(name), 8000);
        return true; // one document per window: any others are offered next time
    }
    return false;
}
