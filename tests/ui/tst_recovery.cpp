// Crash recovery through the real window: a child process (this binary again) opens a file in
// a MainWindow, presses F (fencing off: an unsaved edit), waits for the autosave and is then
// killed with SIGKILL mid-session. A new MainWindow pointed at the same autosave folder asks
// to restore it; yes brings the edited scenario back as modified with its original path,
// no deletes the autosave.

#include "document/autosaver.h"
#include "document/document.h"
#include "document/editcommands.h"
#include "scripteddialogs.h"
#include "window/filecontroller.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include "scenariofile.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cstdio>

namespace {

// The child: a real window, a real key press, then it hangs until it is killed.
int runChild(const QString &scenarioPath)
{
    QStandardPaths::setTestModeEnabled(true);
    MainWindow window;
    scriptDialogs(window);
    part<Autosaver>(window)->setDelay(20);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window) ||
        !part<FileController>(window)->openFile(scenarioPath))
        return 3;
    // connected first: the key press may already run the short autosave timer
    QObject::connect(part<Autosaver>(window), &Autosaver::saved, [] {
        std::fputs("saved\n", stdout);
        std::fflush(stdout);
    });
    window.activateWindow();
    QTest::keyClick(window.windowHandle(), Qt::Key_F);
    if (window.document()->scenario().fencing || !window.document()->isModified())
        return 4;
    return QApplication::exec();
}

QStringList autosaves(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral("autosave-*.json")}, QDir::Files);
}

} // namespace

class TestRecovery : public QObject
{
    Q_OBJECT

    QString m_scenarioPath;

    // Runs a child session that edits m_scenarioPath, autosaves into `dir` and is killed.
    bool crashAChildSession(const QString &dir)
    {
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("FENCESCOPE_AUTOSAVE_DIR"), dir);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(),
                    {QStringLiteral("--recovery-child"), m_scenarioPath});
        if (!child.waitForStarted())
            return false;
        QByteArray out;
        QDeadlineTimer deadline(20000);
        while (!out.contains("saved") && !deadline.hasExpired() &&
               child.state() == QProcess::Running) {
            child.waitForReadyRead(200);
            out += child.readAllStandardOutput();
        }
        if (!out.contains("saved")) {
            qWarning("child did not autosave (exit %d)", child.exitCode());
            child.kill();
            child.waitForFinished();
            return false;
        }
        if (autosaves(dir).size() != 1)
            return false;
        child.kill(); // SIGKILL: no destructor, no cleanup, as in a crash
        return child.waitForFinished() && child.exitStatus() == QProcess::CrashExit;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_recovery"));
        QSettings().clear();
    }

    void init()
    {
        // the teacher's file: the default scenario, fencing on
        static QTemporaryDir files;
        m_scenarioPath = files.filePath(QStringLiteral("lecture.json"));
        QFile::remove(m_scenarioPath);
        QVERIFY(Core::ScenarioFile::save(Core::ScenarioFile::defaultScenario(), m_scenarioPath));
    }

    void restoreBringsBackTheEditAsModified()
    {
        QTemporaryDir dir;
        QVERIFY(crashAChildSession(dir.path()));
        qputenv("FENCESCOPE_AUTOSAVE_DIR", dir.path().toLocal8Bit());

        MainWindow window;
        scriptDialogs(window);
        window.show();
        QVERIFY(window.document()->scenario().fencing); // nothing restored before asking
        scripted(window).setQuestionAnswer(QMessageBox::Yes);
        QVERIFY(window.offerRecovery());
        QVERIFY2(scripted(window).lastQuestion().startsWith(
                     QStringLiteral("FenceScope closed unexpectedly. "
                                    "Restore the unsaved work from ")),
                 qPrintable(scripted(window).lastQuestion()));
        QVERIFY(scripted(window).lastQuestion().endsWith(QStringLiteral("(lecture.json)?")));

        // the edited scenario, unsaved, belonging to the original file
        QVERIFY(!window.document()->scenario().fencing);
        QVERIFY(window.document()->isModified());
        QVERIFY(window.isWindowModified());
        QCOMPARE(window.document()->filePath(), m_scenarioPath);
        QVERIFY(window.windowTitle().contains(QStringLiteral("lecture.json")));
        QCOMPARE(window.document()->trace().summary.corrupted, 1u);
        // the original file is untouched until the user saves
        QVERIFY(Core::ScenarioFile::load(m_scenarioPath).scenario->fencing);

        // the orphan is gone; the restored work lives in this session's autosave now
        QVERIFY(Autosaver::orphans(dir.path()).isEmpty());
        QCOMPARE(autosaves(dir.path()),
                 QStringList{QFileInfo(part<Autosaver>(window)->file()).fileName()});

        // Save writes it where it came from
        QVERIFY(window.save());
        QVERIFY(!window.document()->isModified());
        QVERIFY(!Core::ScenarioFile::load(m_scenarioPath).scenario->fencing);
        QVERIFY(autosaves(dir.path()).isEmpty());
    }

    void discardDeletesTheAutosave()
    {
        QTemporaryDir dir;
        QVERIFY(crashAChildSession(dir.path()));
        qputenv("FENCESCOPE_AUTOSAVE_DIR", dir.path().toLocal8Bit());

        MainWindow window;
        scriptDialogs(window);
        window.show();
        scripted(window).setQuestionAnswer(QMessageBox::No);
        QVERIFY(!window.offerRecovery());
        QVERIFY(scripted(window).lastQuestion().contains(QStringLiteral("lecture.json")));
        QVERIFY(autosaves(dir.path()).isEmpty());
        QVERIFY(Autosaver::orphans(dir.path()).isEmpty());
        QCOMPARE(window.document()->scenario(), Core::ScenarioFile::defaultScenario());
        QVERIFY(!window.document()->isModified());
    }

    void noOrphanNoQuestion()
    {
        QTemporaryDir dir;
        qputenv("FENCESCOPE_AUTOSAVE_DIR", dir.path().toLocal8Bit());
        MainWindow window;
        scriptDialogs(window);
        scripted(window).setQuestionAnswer(QMessageBox::Yes);
        QVERIFY(!window.offerRecovery());
        QVERIFY(scripted(window).lastQuestion().isEmpty());
        // a second window of a live session is no orphan either
        part<Autosaver>(window)->setDelay(10);
        // something unsaved (an empty command changes nothing, so it would not count)
        window.document()->undoStack()->push(
            EditCommands::setHorizon(window.document(), Core::Tick(50)));
        QVERIFY(window.document()->isModified());
        QVERIFY(part<Autosaver>(window)->saveNow());
        MainWindow other;
        scriptDialogs(other);
        scripted(other).setQuestionAnswer(QMessageBox::No);
        QVERIFY(!other.offerRecovery());
        QVERIFY(scripted(other).lastQuestion().isEmpty());
        QVERIFY(QFile::exists(part<Autosaver>(window)->file()));
        window.document()->markSaved();
    }

    void brokenFileKeepsScenarioAndUndoHistory()
    {
        QTemporaryDir dir;
        qputenv("FENCESCOPE_AUTOSAVE_DIR", dir.path().toLocal8Bit());
        MainWindow window;
        scriptDialogs(window);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(window.windowHandle(), Qt::Key_F);
        QVERIFY(!window.document()->scenario().fencing);
        // an edit worth saving (the fencing switch alone is not, in a built-in scenario)
        window.document()->undoStack()->push(
            EditCommands::setHorizon(window.document(), Core::Tick(50)));
        QVERIFY(window.document()->isModified());
        const Core::Scenario before = window.document()->scenario();
        const int steps = window.document()->undoStack()->count();
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"fencescope\": 1, \"clients\": [");
        f.close();
        QVERIFY(!part<FileController>(window)->openFile(broken));
        QVERIFY(!scripted(window).lastError().isEmpty());
        QCOMPARE(window.document()->scenario(), before);
        QCOMPARE(window.document()->undoStack()->count(), steps);
        QVERIFY(window.document()->isModified());
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->scenario().horizon, std::optional<Core::Tick>(40));
        window.document()->undoStack()->undo();
        QVERIFY(window.document()->scenario().fencing);
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
    QApplication::setApplicationName(QStringLiteral("tst_recovery"));
    if (argc == 3 && qstrcmp(argv[1], "--recovery-child") == 0)
        return runChild(QString::fromLocal8Bit(argv[2]));
    TestRecovery test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_recovery.moc"
