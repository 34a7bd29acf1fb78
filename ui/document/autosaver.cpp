#include "document/autosaver.h"

#include "document/document.h"
#include "savefile.h"
#include "scenariofile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QStandardPaths>
#include <QTimer>
#include <QUuid>

namespace {

QString metaPath(const QString &file)
{
    return file + QStringLiteral(".meta");
}

QString lockPath(const QString &file)
{
    return file + QStringLiteral(".lock");
}

} // namespace

Autosaver::Autosaver(Document *doc, const QString &dir, QObject *parent)
    : QObject(parent), m_doc(doc), m_dir(dir.isEmpty() ? defaultDir() : dir),
      m_timer(new QTimer(this))
{
    QDir().mkpath(m_dir);
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
    m_file = QDir(m_dir).filePath(QStringLiteral("autosave-%1.json").arg(id));
    m_lock = std::make_unique<QLockFile>(lockPath(m_file));
    m_lock->setStaleLockTime(0); // stale only when its process is gone
    m_lock->tryLock(0);
    m_timer->setSingleShot(true);
    m_timer->setInterval(3000);
    connect(m_timer, &QTimer::timeout, this, &Autosaver::saveNow);
    connect(m_doc, &Document::changed, this, &Autosaver::documentChanged);
    connect(m_doc, &Document::modifiedChanged, this, [this](bool modified) {
        if (!modified) {
            m_timer->stop();
            removeFiles(); // saved or reset: nothing left to recover
        }
    });
}

Autosaver::~Autosaver()
{
    removeFiles();
    m_lock->unlock();
}

QString Autosaver::defaultDir()
{
    QString fromEnv = qEnvironmentVariable("FENCESCOPE_AUTOSAVE_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave");
}

void Autosaver::setDelay(int milliseconds)
{
    m_timer->setInterval(milliseconds);
}

void Autosaver::documentChanged()
{
    // Restart: write once the user pauses. Whether there is anything unsaved is decided when
    // the timer fires (during an undo command the stack's clean state is not updated yet).
    m_timer->start();
}

bool Autosaver::saveNow()
{
    if (!m_doc->isModified())
        return true;
    QString error;
    if (!Core::ScenarioFile::save(m_doc->scenario(), m_file, &error)) {
        emit failed(error);
        return false;
    }
    QJsonObject meta;
    meta.insert(QStringLiteral("originalPath"), m_doc->filePath());
    meta.insert(QStringLiteral("savedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    // (without it the recovery offer names no original file; the scenario itself is saved)
    Core::saveWhole(metaPath(m_file), QJsonDocument(meta).toJson());
    emit saved(m_file);
    return true;
}

void Autosaver::removeFiles()
{
    QFile::remove(m_file);
    QFile::remove(metaPath(m_file));
}

QList<Autosaver::Recovery> Autosaver::orphans(const QString &dirPath)
{
    const QDir dir(dirPath.isEmpty() ? defaultDir() : dirPath);
    QList<Recovery> found;
    const QStringList files =
        dir.entryList({QStringLiteral("autosave-*.json")}, QDir::Files, QDir::Time);
    for (const QString &name : files) {
        const QString file = dir.filePath(name);
        // a live session holds its lock; only a stale (crashed) one can be taken
        QLockFile lock(lockPath(file));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue;
        lock.unlock();
        Core::LoadResult loaded = Core::ScenarioFile::load(file);
        if (!loaded.ok())
            continue; // a crash mid-write cannot leave half a file (QSaveFile), but be safe
        Recovery r;
        r.file = file;
        r.scenario = std::move(*loaded.scenario);
        QFile metaFile(metaPath(file));
        if (metaFile.open(QIODevice::ReadOnly)) {
            const QJsonObject meta = QJsonDocument::fromJson(metaFile.readAll()).object();
            r.originalPath = meta.value(QStringLiteral("originalPath")).toString();
            r.savedAt = QDateTime::fromString(meta.value(QStringLiteral("savedAt")).toString(),
                                              Qt::ISODate);
        }
        found.append(std::move(r));
    }
    return found;
}

void Autosaver::discard(const Recovery &recovery)
{
    QFile::remove(recovery.file);
    QFile::remove(metaPath(recovery.file));
    QFile::remove(lockPath(recovery.file));
}
