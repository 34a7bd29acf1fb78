#pragma once

// Keeps a copy of unsaved work on disk so a crash loses at most a few seconds of editing.
// While the document has unsaved changes, it is written (atomically) a few seconds after
// each change to <dir>/autosave-<id>.json, with the original path beside it. A lock file
// held for the life of the session tells a live session from a crashed one: at the next
// start, autosaves whose lock is stale are offered for restore.

#include "scenario.h"

#include <QDateTime>
#include <QObject>
#include <QString>

#include <memory>

class Document;
class QLockFile;
class QTimer;

class Autosaver : public QObject
{
    Q_OBJECT
public:
    struct Recovery
    {
        QString file;         // the autosaved scenario
        QString originalPath; // where the user's file was ("" if never saved)
        QDateTime savedAt;
        Core::Scenario scenario;
    };

    // `dir` empty: $FENCESCOPE_AUTOSAVE_DIR, else the app data location + "/autosave".
    explicit Autosaver(Document *doc, const QString &dir = {}, QObject *parent = nullptr);
    ~Autosaver() override; // a clean exit leaves nothing behind

    static QString defaultDir();
    void setDelay(int milliseconds);
    QString file() const { return m_file; }
    // Write now if there are unsaved changes (also used before risky operations).
    bool saveNow();

    // Autosaves left behind by sessions that ended without cleaning up (crash, kill).
    static QList<Recovery> orphans(const QString &dir = {});
    // Removes an orphan once restored or declined.
    static void discard(const Recovery &recovery);

signals:
    void saved(const QString &file);
    void failed(const QString &message);

private:
    void documentChanged();
    void removeFiles();

    Document *m_doc;
    QString m_dir;
    QString m_file;
    QTimer *m_timer;
    std::unique_ptr<QLockFile> m_lock;
};
