// Core::saveWhole, which every file FenceScope writes goes through: a file is written whole or
// not at all, and a failed write leaves the file that was there as it was, with no temporary
// file beside it.

#include "savefile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>

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
        rlimit before{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &before), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of the signal
        rlimit small = before;
        small.rlim_cur = 16;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const std::optional<Core::SaveFailure> failed =
            Core::saveWhole(path, QByteArray(4096, 'n'));
        setrlimit(RLIMIT_FSIZE, &before);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY(failed);
        QVERIFY(failed->opened);
        QVERIFY(!failed->reason.isEmpty());
        QCOMPARE(contents(path), QByteArray("old and whole"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("a.json")});
    }
};

QTEST_GUILESS_MAIN(TestSaveFile)
#include "tst_savefile.moc"
