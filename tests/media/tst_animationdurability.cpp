// An animation reaches the disk before it takes the target's name: the finished file beside the
// target is flushed (fsync) and only then renamed over it, for the GIF and the two videos alike,
// and a flush that fails leaves the old target and no partial file.
//
// This program defines fsync itself (flushspy.h): the writers (linked in statically) call that
// one, which notes the file it was given, its size, and then calls the C library's (or fails,
// when asked). The folder's flush after the rename is tst_folderflush's.

#include "animation.h"
#include "animationsupport.h"
#include "flushspy.h"
#include "scenariofile.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

class TestAnimationDurability : public QObject
{
    Q_OBJECT

private slots:
    void init() { FlushSpy::reset(); }

    void flushedBeforeTheRename_data() { addFormatRows(); }

    void flushedBeforeTheRename()
    {
        QFETCH(QString, name);
        AnimationOptions o = tinyOptions();
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QCOMPARE(Animation::exportTo(path, Core::ScenarioFile::defaultScenario(), o), QString());
        const qint64 size = QFileInfo(path).size();
        QVERIFY(size > 0);
        // flushed once, whole (its final size), and still under its temporary name beside the
        // target: the rename came after
        const std::vector<FlushSpy::Flush> flushes = FlushSpy::filesIn(dir.path());
        QCOMPARE(flushes.size(), std::size_t(1));
        const FlushSpy::Flush &f = flushes.front();
        const QFileInfo flushed(f.path);
        QVERIFY2(flushed.fileName().startsWith(QLatin1Char('.') + name + QLatin1Char('.')) &&
                     flushed.fileName().endsWith(QLatin1String(".part")),
                 qPrintable(f.path));
        QCOMPARE(f.size, size);
        QCOMPARE(filesIn(dir.path()), QStringList{name});
    }

    void aFailedFlushKeepsTheOldFile_data() { addFormatRows(); }

    void aFailedFlushKeepsTheOldFile()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QVERIFY(writeOldAnimation(path));
        AnimationOptions o = tinyOptions();
        FlushSpy::failFileFlush = true;
        const QString error = Animation::exportTo(path, Core::ScenarioFile::defaultScenario(), o);
        FlushSpy::failFileFlush = false;
        QCOMPARE(error, QStringLiteral("cannot write %1: %2")
                            .arg(path, QString::fromLocal8Bit(std::strerror(EIO))));
        QCOMPARE(FlushSpy::filesIn(dir.path()).size(), std::size_t(1));
        QCOMPARE(contents(path), oldAnimation());
        QCOMPARE(filesIn(dir.path()), QStringList{name});
    }
};

QTEST_MAIN(TestAnimationDurability)
#include "tst_animationdurability.moc"
