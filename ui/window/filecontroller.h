#pragma once

// The scenario's files: open (a file, a built-in preset, the command line's, a drop, a recent
// file), save and save as (atomic, through Core::ScenarioFile), the unsaved-changes question,
// File > Open Recent, and the recovery of autosaves left by a session that died. The window's
// File actions and drops hand over here; every question goes through the window's dialogs
// (window/dialogs.h).

#include <QObject>
#include <QString>

#include <functional>

class Autosaver;
class Dialogs;
class Document;
class QMenu;

namespace Core {
struct Scenario;
}

class FileController : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        Document *doc = nullptr;
        Autosaver *autosaver = nullptr; // whose directory holds the orphans offered back
        QMenu *recentMenu = nullptr;    // File > Open Recent, filled here
    };
    struct Hooks
    {
        std::function<Dialogs &()> dialogs; // the window's, as tests may replace them
        std::function<void(const QString &, const QString &)> reportError; // title, message
        std::function<void(const QString &, int)> showStatus;              // text, milliseconds
        // a scenario was loaded: the window puts its playhead, selection and lesson in step
        std::function<void()> afterLoad;
        std::function<void()> updateTitle;
        std::function<bool(const QString &)> openLesson; // a lesson named on the command line
    };

    FileController(Parts parts, Hooks hooks, QObject *parent = nullptr);

    // "Untitled", or the file's name.
    static QString displayName(const QString &path);

    // Opens FILE given on the command line; a broken file shows its error and the default
    // scenario stays open.
    void openAtStart(const QString &path);
    // Opens a scenario file (no unsaved-changes question: callers ask first). A broken file
    // is reported and the current scenario stays open, unchanged. Returns success.
    bool openFile(const QString &path);
    // Loads a built-in scenario by name (ScenarioFile::builtinNames()), untitled.
    bool openPreset(const QString &name);
    // A schedule from the Explore panels, opened untitled (asks first about unsaved work).
    void openExplored(const Core::Scenario &s);
    // Writes the scenario atomically to `path` and makes it the document's file.
    bool saveTo(const QString &path);

    void newScenario();
    void open();
    bool save();
    bool saveAs();
    // Asks about unsaved changes; true when it is fine to replace the document.
    bool maybeSave();

    // Offers autosaves left by sessions that died (one question each); restores at most one,
    // as a modified document with its original path. True when one was restored.
    bool offerRecovery();

private:
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();

    Parts m_parts;
    Hooks m_hooks;
};
