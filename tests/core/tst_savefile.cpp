// Core::saveWhole, which every file FenceScope writes goes through: a file is written whole or
// not at all, and a failed write leaves the file that was there as it was, with no temporary
// file beside it.

#include "filesizelimit.h"
#include "savefile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(cannot read)");
}

} // namespace

class TestSaveFile : public QObject
{
    Q_OBJECT

private slots:
    void writesANewFileAndReplacesAnOldOne()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.json"));
        QVERIFY(!Core::saveWhole(path, "first"));
        QCOMPARE(contents(path), QByteArray("first"));
        QVERIFY(!Core::saveWhole(path, "second, longer"));
        QCOMPARE(contents(path), QByteArray("second, longer"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("a.json")});
    }

    void aFolderThatIsAFileIsRefusedBeforeAnythingIsWritten()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("plain"));
        QVERIFY(!Core::saveWhole(file, "x"));
        const QString path = file + QStringLiteral("/a.json");
        const std::optional<Core::SaveFailure> failed = Core::saveWhole(path, "y");
        QVERIFY(failed);
        QVERIFY(!failed->opened);
        QVERIFY(!failed->reason.isEmpty());
        QCOMPARE(Core::cannotWrite(path, *failed),
                 QStringLiteral("cannot write ") + path + QStringLiteral(": ") + failed->reason);
        QCOMPARE(contents(file), QByteArray("x"));
    }

    // A write that fails half-way (here: the process may write files of 16 bytes at most, as a
    // full disk would stop it) leaves the old file whole and no temporary file behind.
    void aWriteThatFailsHalfWayKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.json"));
        QVERIFY(!Core::saveWhole(path, "old and whole"));
        // (a write past 16 bytes fails, as on a full disk)
        std::optional<Core::SaveFailure> failed;
        {
            const FileSizeLimit limit(16);
            QVERIFY(limit.ok());
            failed = Core::saveWhole(path, QByteArray(4096, 'n'));
        }
        QVERIFY(failed);
        QVERIFY(failed->opened);
        QVERIFY(!failed->reason.isEmpty());
        QCOMPARE(contents(path), QByteArray("old and whole"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("a.json")});
    }
};

QTEST_GUILESS_MAIN(TestSaveFile)
#include "tst_savefile.moc"
