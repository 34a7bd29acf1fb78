// A save reaches the disk with its rename: after the new file is renamed over the old one, the
// folder that holds it is flushed (fsync of the folder: fsync(2), "Calling fsync() does not
// necessarily ensure that the entry in the directory containing the file has also reached
// disk"), once, for every way FenceScope saves: Core::saveWhole (scenario, lesson, pictures,
// handouts, CSV, autosave, and the build's man page and icons, app/manpage.cpp and
// app/iconrender.cpp, programs of their own: tst_structure sees that no file but saveWhole's
// has a QSaveFile) and the animation writers' own rename. A folder that cannot be opened or
// flushed leaves the save done, with a warning that says so (core/savefile.h).
//
// This program defines fsync and open itself (flushspy.h), to see the flushes and to make the
// folder's opening or flush fail.

#include "animation.h"
#include "animationsupport.h"
#include "exporter.h"
#include "exportruns.h"
#include "flushspy.h"
#include "savefile.h"
#include "scenariofile.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

namespace {

using Save = std::function<QString(const QString &path)>; // "" when saved, else why not

QString saveWhole(const QString &path)
{
    const std::optional<Core::SaveFailure> failed = Core::saveWhole(path, "new");
    return failed ? failed->reason : QString();
}

QString saveScenario(const QString &path)
{
    QString error;
    Core::ScenarioFile::save(Core::ScenarioFile::defaultScenario(), path, &error);
    return error;
}

QString exportPicture(const QString &path)
{
    ExportOptions o;
    o.width = 320;
    const Core::Scenario s = Core::ScenarioFile::defaultScenario();
    return Exporter::exportTo(path, s, TestRuns(s, o), o);
}

QString exportAnimation(const QString &path)
{
    return Animation::exportTo(path, Core::ScenarioFile::defaultScenario(), tinyOptions());
}

} // namespace

Q_DECLARE_METATYPE(Save)

class TestFolderFlush : public QObject
{
    Q_OBJECT

    static void addSaves()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<Save>("save");
        QTest::newRow("saveWhole") << QStringLiteral("a.txt") << Save(saveWhole);
        QTest::newRow("scenario") << QStringLiteral("a.json") << Save(saveScenario);
        QTest::newRow("png") << QStringLiteral("a.png") << Save(exportPicture);
        QTest::newRow("svg") << QStringLiteral("a.svg") << Save(exportPicture);
        QTest::newRow("gif") << QStringLiteral("a.gif") << Save(exportAnimation);
        QTest::newRow("mp4") << QStringLiteral("a.mp4") << Save(exportAnimation);
        QTest::newRow("webm") << QStringLiteral("a.webm") << Save(exportAnimation);
    }

    // The warning of a save done whose folder was not flushed, for `reason` (strerror's words).
    static void expectNotFlushedWarning(const QString &saved, const QString &reason)
    {
        QTest::ignoreMessage(QtWarningMsg,
                             qPrintable(QStringLiteral("saved %1, but its folder was not flushed "
                                                       "(%2): a power cut soon after may undo "
                                                       "the save")
                                            .arg(saved, reason)));
    }

private slots:
    void init() { FlushSpy::reset(); }

    void theFolderIsFlushedOnceAfterTheRename_data() { addSaves(); }

    void theFolderIsFlushedOnceAfterTheRename()
    {
        QFETCH(QString, name);
        QFETCH(Save, save);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QVERIFY(writeOldAnimation(path)); // a file to replace
        QCOMPARE(save(path), QString());
        QVERIFY(contents(path) != oldAnimation());
        const std::vector<FlushSpy::Flush> folder = FlushSpy::ofFolder(dir.path());
        QCOMPARE(folder.size(), std::size_t(1));
        // when it was flushed the folder held the new file under its name, and no temporary
        // one: the rename had been made
        QCOMPARE(folder.front().entries, QStringList{name});
        // and the file itself was flushed before, under its temporary name
        const std::vector<FlushSpy::Flush> files = FlushSpy::filesIn(dir.path());
        QCOMPARE(files.size(), std::size_t(1));
        QVERIFY2(QFileInfo(files.front().path).fileName() != name, qPrintable(files.front().path));
        QCOMPARE(files.front().size, QFileInfo(path).size());
        const auto at = [](const FlushSpy::Flush &f) {
            for (std::size_t i = 0; i < FlushSpy::flushes.size(); ++i)
                if (FlushSpy::flushes[i].path == f.path && FlushSpy::flushes[i].folder == f.folder)
                    return int(i);
            return -1;
        };
        QVERIFY(at(files.front()) < at(folder.front()));
    }

    void aFolderThatCannotBeOpenedLeavesTheSaveDone_data() { addSaves(); }

    void aFolderThatCannotBeOpenedLeavesTheSaveDone()
    {
        QFETCH(QString, name);
        QFETCH(Save, save);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QVERIFY(writeOldAnimation(path));
        // saveWhole names the file as its folder's canonical path has it
        const QString saved = QFileInfo(dir.path()).canonicalFilePath() + QLatin1Char('/') + name;
        const QString warned = name.endsWith(QLatin1String(".gif")) ||
                                       name.endsWith(QLatin1String(".mp4")) ||
                                       name.endsWith(QLatin1String(".webm"))
                                   ? path
                                   : saved;
        expectNotFlushedWarning(warned, QStringLiteral("Permission denied"));
        FlushSpy::failFolderOpen = true;
        const QString error = save(path);
        FlushSpy::failFolderOpen = false;
        QCOMPARE(error, QString());
        QVERIFY(contents(path) != oldAnimation());
        QVERIFY(!contents(path).isEmpty());
        QCOMPARE(filesIn(dir.path()), QStringList{name});
        QCOMPARE(FlushSpy::ofFolder(dir.path()).size(), std::size_t(0));
    }

    void aFolderWhoseFlushFailsLeavesTheSaveDone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.json"));
        const QString saved = QFileInfo(dir.path()).canonicalFilePath() + QStringLiteral("/a.json");
        expectNotFlushedWarning(saved, QStringLiteral("Input/output error"));
        FlushSpy::failFolderFlush = true;
        const std::optional<Core::SaveFailure> failed = Core::saveWhole(path, "new");
        FlushSpy::failFolderFlush = false;
        QVERIFY(!failed);
        QCOMPARE(contents(path), QByteArray("new"));
        QCOMPARE(FlushSpy::ofFolder(dir.path()).size(), std::size_t(1));
    }
};

QTEST_MAIN(TestFolderFlush)
#include "tst_folderflush.moc"
