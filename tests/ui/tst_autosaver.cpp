// Autosave and crash recovery: a real child process edits, autosaves and is killed; the
// next session finds its work.

#include "document/autosaver.h"
#include "document/document.h"
#include "document/editcommands.h"
#include "scenariofile.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cstdio>

namespace {

// The child: opens the default scenario, turns fencing off (an unsaved edit), waits for the
// autosave, says so, and then hangs until it is killed.
int runChild(const QString &dir)
{
    Document doc;
    Autosaver saver(&doc, dir);
    saver.setDelay(20);
    QObject::connect(&saver, &Autosaver::saved, [] {
        std::fputs("saved\n", stdout);
        std::fflush(stdout);
    });
    doc.setFilePath(QStringLiteral("/home/teacher/lecture.json"));
    doc.undoStack()->push(EditCommands::setFencing(&doc, false));
    return QCoreApplication::exec();
}

} // namespace

class TestAutosaver : public QObject
{
    Q_OBJECT
private slots:
    void writesUnsavedWorkAfterADelay()
    {
        QTemporaryDir dir;
        Document doc;
        Autosaver saver(&doc, dir.path());
        saver.setDelay(10);
        QSignalSpy saved(&saver, &Autosaver::saved);
        QVERIFY(!QFile::exists(saver.file())); // nothing to save yet
        doc.undoStack()->push(EditCommands::setFencing(&doc, false));
        QVERIFY(!saved.wait(200)); // a preset with only its switch flipped has nothing to save
        doc.undoStack()->push(EditCommands::setHorizon(&doc, Core::Tick(77)));
        QVERIFY(saved.wait(2000));
        const Core::LoadResult r = Core::ScenarioFile::load(saver.file());
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.scenario->fencing, false);
        QCOMPARE(r.scenario->horizon, std::optional<Core::Tick>(77));
        QCOMPARE(*r.scenario, doc.scenario());
    }

    void aLiveSessionIsNotAnOrphan()
    {
        QTemporaryDir dir;
        Document doc;
        Autosaver saver(&doc, dir.path());
        doc.undoStack()->push(EditCommands::setHorizon(&doc, Core::Tick(77)));
        QVERIFY(saver.saveNow());
        QVERIFY(QFile::exists(saver.file()));
        QVERIFY(Autosaver::orphans(dir.path()).isEmpty());
    }

    void savingOrClosingCleansUp()
    {
        QTemporaryDir dir;
        QString file;
        {
            Document doc;
            Autosaver saver(&doc, dir.path());
            doc.undoStack()->push(EditCommands::setHorizon(&doc, Core::Tick(77)));
            QVERIFY(saver.saveNow());
            file = saver.file();
            QVERIFY(QFile::exists(file));
            doc.markSaved(); // the user saved: the autosave is no longer needed
            QVERIFY(!QFile::exists(file));
            doc.undoStack()->push(EditCommands::setHorizon(&doc, Core::Tick(78)));
            QVERIFY(saver.saveNow());
            QVERIFY(QFile::exists(file));
        }
        QVERIFY(!QFile::exists(file)); // a clean exit leaves nothing behind
        QVERIFY(Autosaver::orphans(dir.path()).isEmpty());
    }

    void killedSessionIsRecovered()
    {
        QTemporaryDir dir;
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(),
                    {QStringLiteral("--autosave-child"), dir.path()});
        QVERIFY(child.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += child.readAllStandardOutput()).contains("saved"), 10000);
        child.kill(); // SIGKILL: no destructor runs, as in a crash
        QVERIFY(child.waitForFinished());

        const QList<Autosaver::Recovery> found = Autosaver::orphans(dir.path());
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].scenario.fencing, false);
        QCOMPARE(found[0].scenario.title, Core::ScenarioFile::defaultScenario().title);
        QCOMPARE(found[0].originalPath, QStringLiteral("/home/teacher/lecture.json"));
        QVERIFY(found[0].savedAt.isValid());

        Autosaver::discard(found[0]);
        QVERIFY(Autosaver::orphans(dir.path()).isEmpty());
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (argc == 3 && qstrcmp(argv[1], "--autosave-child") == 0)
        return runChild(QString::fromLocal8Bit(argv[2]));
    TestAutosaver test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_autosaver.moc"
