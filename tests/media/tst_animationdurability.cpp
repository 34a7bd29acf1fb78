// An animation reaches the disk before it takes the target's name: the finished file beside the
// target is flushed (fsync) and only then renamed over it, for the GIF and the two videos alike,
// and a flush that fails leaves the old target and no partial file.
//
// This program defines fsync itself: the writers (linked in statically) call this one, which
// notes the file it was given, its size, and then calls the C library's (or fails, when asked).
// How long the flush takes is not measured.

#include "animation.h"
#include "animationsupport.h"
#include "scenariofile.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

struct Flush
{
    QString path; // the file's name when it was flushed
    qint64 size = -1;
};

std::vector<Flush> g_flushes;
bool g_failFlush = false;

// The flushes of files in `dir` (anything else the process flushes is not the export's).
std::vector<Flush> flushesIn(const QString &dir)
{
    std::vector<Flush> in;
    for (const Flush &f : g_flushes)
        if (QFileInfo(f.path).absolutePath() == QFileInfo(dir).absoluteFilePath())
            in.push_back(f);
    return in;
}

} // namespace

extern "C" int fsync(int fd)
{
    using Fsync = int (*)(int);
    static const auto real = reinterpret_cast<Fsync>(dlsym(RTLD_NEXT, "fsync"));
    Flush f;
    f.path = QFileInfo(QStringLiteral("/proc/self/fd/%1").arg(fd)).symLinkTarget();
    struct stat st;
    if (::fstat(fd, &st) == 0)
        f.size = st.st_size;
    g_flushes.push_back(f);
    if (g_failFlush) {
        errno = EIO;
        return -1;
    }
    return real(fd);
}

class TestAnimationDurability : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        g_flushes.clear();
        g_failFlush = false;
    }

    void flushedBeforeTheRename_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("gif") << QStringLiteral("a.gif");
        QTest::newRow("mp4") << QStringLiteral("a.mp4");
        QTest::newRow("webm") << QStringLiteral("a.webm");
    }

    void flushedBeforeTheRename()
    {
        QFETCH(QString, name);
        AnimationOptions o = smallOptions();
        o.picture.width = 320;
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QCOMPARE(Animation::exportTo(path, Core::ScenarioFile::defaultScenario(), o), QString());
        const qint64 size = QFileInfo(path).size();
        QVERIFY(size > 0);
        // flushed once, whole (its final size), and still under its temporary name beside the
        // target: the rename came after
        const std::vector<Flush> flushes = flushesIn(dir.path());
        QCOMPARE(flushes.size(), std::size_t(1));
        const Flush &f = flushes.front();
        const QFileInfo flushed(f.path);
        QVERIFY2(flushed.fileName().startsWith(QLatin1Char('.') + name + QLatin1Char('.')) &&
                     flushed.fileName().endsWith(QLatin1String(".part")),
                 qPrintable(f.path));
        QCOMPARE(f.size, size);
        QCOMPARE(filesIn(dir.path()), QStringList{name});
    }

    void aFailedFlushKeepsTheOldFile_data() { flushedBeforeTheRename_data(); }

    void aFailedFlushKeepsTheOldFile()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old animation");
        }
        AnimationOptions o = smallOptions();
        o.picture.width = 320;
        g_failFlush = true;
        const QString error = Animation::exportTo(path, Core::ScenarioFile::defaultScenario(), o);
        g_failFlush = false;
        QCOMPARE(error, QStringLiteral("cannot write %1: %2")
                            .arg(path, QString::fromLocal8Bit(std::strerror(EIO))));
        QCOMPARE(flushesIn(dir.path()).size(), std::size_t(1));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("old animation"));
        QCOMPARE(filesIn(dir.path()), QStringList{name});
    }
};

QTEST_MAIN(TestAnimationDurability)
#include "tst_animationdurability.moc"
