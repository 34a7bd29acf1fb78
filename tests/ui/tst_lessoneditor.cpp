// The lesson editor (a dock of the real MainWindow, offscreen), driven through its fields and
// buttons:
// - every built-in lesson, opened, walked scene by scene in the editor, edited (a scene moved
//   down and up, one deleted and the deletion undone, the narration typed and undone) and
//   saved, is the same bytes as its file: the editor writes back exactly what it read;
// - each edit is one undo step;
// - a freeze tick typed at or after the write its question asks about shows core's problem at
//   the freeze field, as typed, and the lesson still saves nothing broken.

#include "document/document.h"
#include "document/lessonsession.h"
#include "views/lessoneditor.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"
#include "windowfixture.h"
#include "windowparts.h"

#include "lessonfile.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

class TestLessonEditor : public QObject
{
    Q_OBJECT

    WindowFixture m_window{
        WindowFixture::Options().sized(1280, 800).clearingSettings().shownOnly()};
    QTemporaryDir m_autosave;
    QTemporaryDir m_dir;

    MainWindow &window() { return *m_window; }
    LessonSession *session() { return window().lessons()->session(); }
    LessonEditor *editor() { return part<LessonEditor>(window()); }
    void click(const char *button)
    {
        QPushButton *b = editor()->button(QString::fromLatin1(button));
        QVERIFY2(b && b->isEnabled(), button);
        QTest::mouseClick(b, Qt::LeftButton);
    }
    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    void openInEditor(const QString &name)
    {
        QVERIFY(window().openBuiltinLesson(name));
        window().findChild<QAction *>(QStringLiteral("lessonEditor"))->trigger();
        QVERIFY(!window().findChild<QDockWidget *>(QStringLiteral("lessonEditorDock"))->isHidden());
        QCOMPARE(editor()->session(), session());
    }

private slots:
    void initTestCase()
    {
        WindowFixture::useOwnSettings("tst_lessoneditor");
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
    }

    void init() { QVERIFY(m_window.open()); }

    void cleanup() { m_window.close(); }

    void builtinLessonsRoundTripThroughTheEditor_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString &name : Core::LessonFile::builtinNames())
            QTest::newRow(qPrintable(name)) << name;
    }

    void builtinLessonsRoundTripThroughTheEditor()
    {
        QFETCH(QString, name);
        const QByteArray original =
            readAll(QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/lessons/") + name +
                    QLatin1String(Core::LessonFile::kSuffix));
        QVERIFY(!original.isEmpty());
        openInEditor(name);
        const int scenes = session()->sceneCount();
        QVERIFY(scenes >= 6);
        // every scene shown in the editor's fields: showing one is no edit
        for (int i = 0; i < scenes; ++i) {
            editor()->sceneList()->setCurrentRow(i);
            QCOMPARE(session()->scene(), i);
        }
        QCOMPARE(session()->undoStack()->count(), 0);
        QVERIFY(!session()->isModified());

        // the first scene down and up again: two steps, the lesson as it was
        editor()->sceneList()->setCurrentRow(0);
        const QString firstTitle = session()->lesson().scenes[0].title;
        click("lessonSceneDown");
        QCOMPARE(session()->undoStack()->count(), 1);
        QCOMPARE(session()->lesson().scenes[1].title, firstTitle);
        QCOMPARE(session()->scene(), 1); // the moved scene stays shown
        click("lessonSceneUp");
        QCOMPARE(session()->undoStack()->count(), 2);
        QCOMPARE(session()->lesson().scenes[0].title, firstTitle);
        // a scene deleted, then back by one undo
        editor()->sceneList()->setCurrentRow(2);
        click("lessonDeleteScene");
        QCOMPARE(session()->sceneCount(), scenes - 1);
        session()->undoStack()->undo();
        QCOMPARE(session()->sceneCount(), scenes);
        // the narration typed: one step however many keys, undone
        editor()->sceneList()->setCurrentRow(1);
        const QString narration = session()->lesson().scenes[1].narration;
        editor()->narrationEdit()->setFocus();
        QTest::keyClick(editor()->narrationEdit(), Qt::Key_End, Qt::ControlModifier);
        QTest::keyClicks(editor()->narrationEdit(), QStringLiteral(" More."));
        QCOMPARE(session()->lesson().scenes[1].narration, narration + QStringLiteral(" More."));
        // down, up, typing: the undone deletion was dropped by the new step, and six keys
        // made one step
        QCOMPARE(session()->undoStack()->count(), 3);
        session()->undoStack()->undo();
        QCOMPARE(session()->lesson().scenes[1].narration, narration);

        // saved: the file's bytes exactly
        const QString path = m_dir.filePath(name + QLatin1String(Core::LessonFile::kSuffix));
        scripted(window()).setNextPath(path);
        click("lessonSaveAs");
        const QByteArray saved = readAll(path);
        QCOMPARE(saved.size(), original.size());
        QVERIFY(saved == original);
        QVERIFY(!session()->isModified());
    }

    void aFreezeTickTypedTooLateShowsAtItsField()
    {
        // lesson 1, scene 2: A's write "A" arrives at t=30 (docs/SCENARIO.md sections 2-6 on the
        // default scenario: due at t=2, held by A's pause to t=30); the question freezes at 29
        openInEditor(QStringLiteral("1-why-a-lock-needs-fencing"));
        editor()->sceneList()->setCurrentRow(1);
        QLineEdit *freeze = editor()->freezeEdit();
        QCOMPARE(freeze->text(), QStringLiteral("29"));
        QCOMPARE(editor()->messageAt(freeze), QString());
        freeze->setFocus();
        freeze->selectAll();
        QTest::keyClicks(freeze, QStringLiteral("30"));
        QTRY_VERIFY2(editor()->messageAt(freeze).contains(QStringLiteral("must be before t=30")),
                     qPrintable(editor()->messageAt(freeze)));
        // back to 29: the message goes
        freeze->selectAll();
        QTest::keyClicks(freeze, QStringLiteral("29"));
        QTRY_COMPARE(editor()->messageAt(freeze), QString());
        QCOMPARE(session()->lesson().scenes[1].question->freeze, Core::Tick(29));
    }
};

QTEST_MAIN(TestLessonEditor)
#include "tst_lessoneditor.moc"
