// A lesson in the real MainWindow, offscreen, driven through the window's input path (keys on
// windowHandle(), clicks on the Lesson dock's buttons, the timeline's right-click menu):
// - presenting: reach a question step by step, count hands, reveal, go back, on to the next
//   scene and back into the last one;
// - at a student's desk: the run held at the freeze tick with the views that would tell the
//   answer put away, a pick, "Check my answer", the marks following a changed run, a question
//   that says nothing on a run where its claim names a write that is gone;
// - "Predict" on a write and "ask what happens to this write" in the lesson;
// - File > Open Lesson (a broken file refused at its place), Help > Lessons, progress
//   remembered per lesson.
//
// The lesson is the first built-in one (resources/lessons/1-why-a-lock-needs-fencing): its
// second scene is the default scenario unfenced, asking what happens to A's write; worked out
// by hand from docs/SCENARIO.md sections 2-6 on that scenario: A's write, due at t=2, waits in A's
// pause and is sent and arrives at t=30 with token 1, after B wrote "B" at t=13; the storage
// checks nothing, so A's write is applied over newer data: corrupted (option B).

#include "document/document.h"
#include "document/lessonsession.h"
#include "settle.h"
#include "views/lessonpanel.h"
#include "views/lessonstage.h"
#include "views/presentationpanel.h"
#include "views/summarystrip.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "viewstate.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"
#include "windowfixture.h"
#include "windowparts.h"

#include "lessonfile.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <memory>

namespace {

const QString kLesson = QStringLiteral("1-why-a-lock-needs-fencing");

} // namespace

class TestLessonController : public QObject
{
    Q_OBJECT

    WindowFixture m_window{
        WindowFixture::Options().sized(1280, 800).clearingSettings().failingOnAmbiguousShortcuts()};
    QTemporaryDir m_autosave;
    QTemporaryDir m_dir;

    MainWindow &window() { return *m_window; }
    LessonController *lessons() { return window().lessons(); }
    LessonSession *session() { return lessons()->session(); }
    LessonStage *stage() { return part<LessonStage>(window()); }
    LessonPanel *panel() { return part<LessonPanel>(window()); }
    ViewState *state() { return window().viewState(); }
    void press(Qt::Key key, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QTest::keyClick(window().windowHandle(), key, mods);
    }
    // What the keyboard types into the widget with the focus, through the window.
    void type(const QString &text)
    {
        for (const QChar c : text)
            QTest::keyClick(window().windowHandle(), char(c.toLatin1()));
    }
    QDockWidget *dock(const char *name)
    {
        return window().findChild<QDockWidget *>(QString::fromLatin1(name));
    }
    // Right-clicks action `action` of client `client` on the timeline and triggers the menu
    // entry `entry`; returns the entries' texts.
    QStringList rightClickAction(int client, int action, const QString &entry)
    {
        TimelineView *view = part<TimelineView>(window());
        const QRectF box = view->stopRect({client, action, -1});
        const QPoint at = view->mapTo(&window(), box.center().toPoint());
        QStringList texts;
        QTimer::singleShot(0, &window(), [&] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            if (!menu)
                return;
            const QList<QAction *> all = menu->actions();
            for (QAction *a : all)
                texts << a->text();
            menu->close();
            for (QAction *a : all)
                if (a->text() == entry)
                    a->trigger();
        });
        QTest::mouseClick(window().windowHandle(), Qt::RightButton, {}, at);
        return texts;
    }
    void openSecondScene()
    {
        QVERIFY(window().openBuiltinLesson(kLesson));
        QCOMPARE(session()->scene(), 0);
        press(Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(session()->scene(), 1);
    }

private slots:
    void initTestCase()
    {
        WindowFixture::useOwnSettings("tst_lessoncontroller");
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
    }

    void init()
    {
        // (the settings cleared: no progress remembered from another test)
        QVERIFY(m_window.open());
    }

    void cleanup() { m_window.close(); }

    void presentingWalksToAQuestionRevealsAndGoesBack()
    {
        openSecondScene();
        press(Qt::Key_F11);
        QVERIFY(window().isPresenting());
        // the opening: the scene's title and narration, nothing of the run shown yet
        QCOMPARE(lessons()->stage(), LessonController::Stage::Opening);
        QVERIFY(stage()->isVisible());
        QVERIFY(!part<PresentationPanel>(window())->isVisible());
        QVERIFY(stage()->heading().contains(QStringLiteral("SCENE 2 OF 9")));
        QVERIFY(state()->playheadBefore());
        QCOMPARE(*state()->shownBefore(), Core::Tick(0));
        // the steps up to the freeze tick (29): the default scenario's 0, 1, 5, 12, 13
        for (const Core::Tick tick : {0, 1, 5, 12, 13}) {
            press(Qt::Key_Right);
            QCOMPARE(lessons()->stage(), LessonController::Stage::Step);
            QCOMPARE(state()->playhead(), tick);
            QVERIFY(part<PresentationPanel>(window())->isVisible());
            QVERIFY(!stage()->isVisible());
        }
        // the question: stopped at t=29, t=30 hidden
        press(Qt::Key_Right);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
        QCOMPARE(state()->playhead(), Core::Tick(29));
        QCOMPARE(*state()->shownBefore(), Core::Tick(30));
        QVERIFY(stage()->isVisible());
        QCOMPARE(stage()->heading(), QStringLiteral("SCENE 2 OF 9 · QUESTION · t=29"));
        QVERIFY(stage()->prompt().startsWith(QStringLiteral("A wakes at t=30")));
        QCOMPARE(stage()->optionText(0), QStringLiteral("A. A's write \"A\" is rejected"));
        QCOMPARE(stage()->optionText(1), QStringLiteral("B. A's write \"A\" is corrupted"));
        QCOMPARE(stage()->optionText(2), QStringLiteral("C. A's write \"A\" is accepted"));
        QCOMPARE(stage()->optionText(3), QStringLiteral("D. A's write \"A\" is skipped"));
        QCOMPARE(stage()->optionText(4), QString());
        for (int i = 0; i < 4; ++i)
            QCOMPARE(stage()->mark(i), QString());
        QCOMPARE(stage()->problemText(), QString());
        // nothing of t=30 in the run the timeline draws
        const Core::Trace &shown =
            window().document()->traceBefore(window().document()->trace(), 30);
        for (const Core::Write &w : shown.writes)
            QVERIFY(w.arrivedAt < 30);

        // hands: A 12 (after discussion 3), B 5; typed, Return back to the steps
        press(Qt::Key_A);
        QCOMPARE(QApplication::focusWidget(), stage()->handsField(0, 0));
        type(QStringLiteral("12"));
        press(Qt::Key_Return);
        QCOMPARE(QApplication::focusWidget(), part<TimelineView>(window()));
        press(Qt::Key_B);
        type(QStringLiteral("5"));
        press(Qt::Key_Return);
        press(Qt::Key_A, Qt::ShiftModifier);
        QCOMPARE(QApplication::focusWidget(), stage()->handsField(1, 0));
        type(QStringLiteral("3"));
        press(Qt::Key_Return);
        QCOMPARE(session()->currentAnswer().hands[0][0], 12);
        QCOMPARE(session()->currentAnswer().hands[0][1], 5);
        QCOMPARE(session()->currentAnswer().hands[0][2], -1);
        QCOMPARE(session()->currentAnswer().hands[1][0], 3);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question); // typing did not step
        // C at a question is a letter, not compare mode's key
        press(Qt::Key_C);
        QVERIFY(!state()->compare());
        QCOMPARE(QApplication::focusWidget(), stage()->handsField(0, 2));
        press(Qt::Key_Escape);
        QVERIFY(window().isPresenting()); // Esc left the field, not presentation

        // the reveal plays on to the deciding event, A's write arriving at t=30
        press(Qt::Key_Right);
        QTRY_COMPARE(lessons()->stage(), LessonController::Stage::Answer);
        QCOMPARE(state()->playhead(), Core::Tick(30));
        QCOMPARE(stage()->mark(0), QStringLiteral("✗"));
        QCOMPARE(stage()->mark(1), QStringLiteral("✓"));
        QCOMPARE(stage()->mark(2), QStringLiteral("✗"));
        QCOMPARE(stage()->mark(3), QStringLiteral("✗"));
        // each wrong option's feedback (the lesson's), none for the right one
        QVERIFY(stage()->feedbackText(0).startsWith(QStringLiteral("This storage checks nothing")));
        QCOMPARE(stage()->feedbackText(1), QString());
        QVERIFY(stage()->feedbackText(2).startsWith(QStringLiteral("It is applied, but")));
        QVERIFY(stage()->feedbackText(3).startsWith(QStringLiteral("A does not know")));
        // the deciding event in the simulator's words
        QVERIFY2(stage()->revealText().contains(QStringLiteral("overwrote 'B'")),
                 qPrintable(stage()->revealText()));
        QCOMPARE(stage()->handsField(0, 0)->text(), QStringLiteral("12"));
        QVERIFY(stage()->handsField(0, 0)->isReadOnly());
        QVERIFY(session()->currentAnswer().revealed);
        // the stage is laid out at the height it said it needs: nothing squeezed, once the
        // queued fit and the layouts after it have run
        TestSupport::settle(&window());
        QVERIFY2(stage()->height() >= stage()->layout()->totalHeightForWidth(stage()->width()),
                 qPrintable(QStringLiteral("%1 < %2")
                                .arg(stage()->height())
                                .arg(stage()->layout()->totalHeightForWidth(stage()->width()))));

        // back: the question again, unmarked, then the last step
        press(Qt::Key_Left);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
        QCOMPARE(state()->playhead(), Core::Tick(29));
        QCOMPARE(stage()->mark(1), QString());
        press(Qt::Key_PageUp);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Step);
        QCOMPARE(state()->playhead(), Core::Tick(13));
        // forward with a clicker's key, past the answer to the next scene's opening
        press(Qt::Key_PageDown);
        press(Qt::Key_PageDown);
        QTRY_COMPARE(lessons()->stage(), LessonController::Stage::Answer);
        press(Qt::Key_PageDown);
        QCOMPARE(session()->scene(), 2);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Opening);
        QVERIFY(stage()->heading().contains(QStringLiteral("SCENE 3 OF 9")));
        // and back into scene 2, where it ended: the answer
        press(Qt::Key_Left);
        QCOMPARE(session()->scene(), 1);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Answer);
        QCOMPARE(stage()->mark(1), QStringLiteral("✓"));

        // Esc: the normal window shows the scene as revealed, the whole run
        press(Qt::Key_Escape);
        QVERIFY(!window().isPresenting());
        QVERIFY(!stage()->isVisible());
        QCOMPARE(lessons()->stage(), LessonController::Stage::Answer);
        QVERIFY(!state()->hidesFuture());
        QVERIFY(part<SummaryStrip>(window())->isVisible());
    }

    void studentPicksChecksAndChangesTheRun()
    {
        openSecondScene();
        // held at the freeze tick, what tells the end put away
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
        QCOMPARE(state()->playhead(), Core::Tick(29));
        QVERIFY(state()->hidesFuture());
        QVERIFY(!part<SummaryStrip>(window())->isVisible());
        QVERIFY(!part<TokenChart>(window())->isVisible());
        QVERIFY(!dock("eventLogDock")->isVisible());
        QVERIFY(dock("lessonDock")->isVisible());
        press(Qt::Key_Right); // the next event is t=30: not before the reveal
        QCOMPARE(state()->playhead(), Core::Tick(29));
        press(Qt::Key_End); // Show all: not before the reveal either
        QCOMPARE(state()->playhead(), Core::Tick(29));
        press(Qt::Key_Left); // back is fine
        QCOMPARE(state()->playhead(), Core::Tick(13));

        QVERIFY(!panel()->checkButton()->isEnabled()); // pick first
        QCOMPARE(panel()->prompt().left(15), QStringLiteral("A wakes at t=30"));
        QTest::mouseClick(panel()->optionButton(2), Qt::LeftButton);
        QCOMPARE(session()->currentAnswer().picked, 2);
        QVERIFY(panel()->checkButton()->isEnabled());
        QTest::mouseClick(panel()->checkButton(), Qt::LeftButton);
        QTRY_COMPARE(lessons()->stage(), LessonController::Stage::Answer);
        QCOMPARE(state()->playhead(), Core::Tick(30));
        QVERIFY(!state()->hidesFuture());
        QCOMPARE(panel()->verdictText(), QStringLiteral("Not quite: you picked C; B holds."));
        QCOMPARE(panel()->mark(1), QStringLiteral("✓"));
        QCOMPARE(panel()->mark(2), QStringLiteral("✗"));
        QVERIFY(panel()->feedbackText(2).startsWith(QStringLiteral("It is applied, but")));
        QVERIFY(panel()->revealText().contains(QStringLiteral("overwrote 'B'")));
        QVERIFY(part<SummaryStrip>(window())->isVisible()); // the curtain is up
        QVERIFY(!panel()->optionButton(0)->isEnabled());    // picked before the reveal only

        // fencing on (F): the storage checks token 1 < max 2 and rejects: A holds now
        press(Qt::Key_F);
        QVERIFY(window().document()->scenario().fencing);
        QTRY_COMPARE(panel()->mark(0), QStringLiteral("✓"));
        QCOMPARE(panel()->mark(1), QStringLiteral("✗"));
        QCOMPARE(panel()->verdictText(), QStringLiteral("Not quite: you picked C; A holds."));
        QVERIFY(panel()->sceneRunButton()->isVisible());
        // back to the scene's run
        QTest::mouseClick(panel()->sceneRunButton(), Qt::LeftButton);
        QVERIFY(!window().document()->scenario().fencing);
        QCOMPARE(panel()->mark(1), QStringLiteral("✓"));

        // A's write gone: option A's claim names a write the run lacks, and the question says
        // so (core's words) instead of marking an answer
        state()->setSelection({0, 2});
        press(Qt::Key_Delete);
        QCOMPARE(window().document()->scenario().clients[0].actions.size(), std::size_t(2));
        QTRY_VERIFY2(panel()->problemText().contains(QStringLiteral("A has no write \"A\"")),
                     qPrintable(panel()->problemText()));
        QVERIFY(panel()->problemText().startsWith(
            QStringLiteral("This question says nothing on this run: options[0].claim.write")));
        QCOMPARE(panel()->verdictText(), QString());
    }

    void predictAsksAboutAWriteOfTheRunShown()
    {
        QVERIFY(window().openBuiltinLesson(kLesson));
        QCOMPARE(session()->scene(), 0); // no question: the whole run
        QVERIFY(!state()->hidesFuture());
        // A's write (action 2), right-click: Predict
        const QStringList entries =
            rightClickAction(0, 2, QStringLiteral("Predict what happens to this write…"));
        QVERIFY2(entries.contains(QStringLiteral("Predict what happens to this write…")),
                 qPrintable(entries.join(u'|')));
        // the editor is not open: no entry that would change the lesson
        QVERIFY(
            !entries.contains(QStringLiteral("Ask what happens to this write (in the lesson)")));
        QVERIFY(session()->ownQuestion().has_value());
        const Core::LessonQuestion &q = *session()->ownQuestion();
        QCOMPARE(q.prompt, QStringLiteral("What happens to A's write \"A\"?"));
        QCOMPARE(q.options.size(), std::size_t(4));
        QCOMPARE(q.freeze, Core::Tick(29)); // it arrives at t=30
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
        QCOMPARE(state()->playhead(), Core::Tick(29));
        QVERIFY(state()->hidesFuture());
        QCOMPARE(panel()->prompt(), q.prompt);
        // scene 1 is the default scenario unfenced: corrupted
        QTest::mouseClick(panel()->optionButton(2), Qt::LeftButton); // C: corrupted
        QTest::mouseClick(panel()->checkButton(), Qt::LeftButton);
        QTRY_COMPARE(lessons()->stage(), LessonController::Stage::Answer);
        QCOMPARE(panel()->verdictText(), QStringLiteral("Right: C holds."));
        // the student's question is theirs: the lesson is unchanged
        QCOMPARE(session()->undoStack()->count(), 0);
        QVERIFY(!session()->lesson().scenes[0].question.has_value());
    }

    void askInTheLessonIsOneUndoStep()
    {
        QVERIFY(window().openBuiltinLesson(kLesson));
        window().findChild<QAction *>(QStringLiteral("lessonEditor"))->trigger(); // View menu
        QVERIFY(!dock("lessonEditorDock")->isHidden());
        const QStringList entries = rightClickAction(
            0, 2, QStringLiteral("Ask what happens to this write (in the lesson)"));
        QVERIFY(entries.contains(QStringLiteral("Ask what happens to this write (in the lesson)")));
        QCOMPARE(session()->undoStack()->count(), 1);
        const std::optional<Core::LessonQuestion> &q = session()->lesson().scenes[0].question;
        QVERIFY(q.has_value());
        QCOMPARE(q->freeze, Core::Tick(29));
        QVERIFY(q->options[1].claim.outcome == Core::ClaimOutcome::Rejected);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
        QVERIFY(session()->isModified());
        session()->undoStack()->undo();
        QVERIFY(!session()->lesson().scenes[0].question.has_value());
        QVERIFY(!session()->isModified());
    }

    void openLessonRefusesABrokenFileAtItsPlace()
    {
        QVERIFY(window().openBuiltinLesson(kLesson));
        // a lesson whose question freezes after the write it asks about arrives
        const QString path = m_dir.filePath(QStringLiteral("late.fencescope-lesson.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({ "fencescope-lesson": 1, "title": "Late", "scenes": [
  { "preset": "default", "question": { "prompt": "What happens?", "freeze": 30, "options": [
    { "claim": { "write": { "client": "A", "value": "A" }, "is": "rejected" } },
    { "claim": { "write": { "client": "A", "value": "A" }, "is": "accepted" } } ] } } ] })");
        f.close();
        scripted(window()).setNextPath(path);
        window().findChild<QAction *>(QStringLiteral("openLesson"))->trigger();
        QVERIFY2(scripted(window()).lastError().contains(
                     QStringLiteral("scenes[0].question.freeze: must be before t=30")),
                 qPrintable(scripted(window()).lastError()));
        // the lesson open before stays, as it was
        QCOMPARE(session()->lesson().title, QStringLiteral("Why a lock needs fencing"));
    }

    void helpLessonsListsTheBuiltInOnes()
    {
        auto *menu = window().findChild<QMenu *>(QStringLiteral("lessonsMenu"));
        QVERIFY(menu);
        QStringList titles;
        for (QAction *a : menu->actions())
            titles << a->text();
        QCOMPARE(titles, (QStringList{QStringLiteral("Why a lock needs fencing"),
                                      QStringLiteral("Where tokens come from"),
                                      QStringLiteral("How fencing goes wrong")}));
        menu->actions()[1]->trigger();
        QCOMPARE(session()->lesson().title, QStringLiteral("Where tokens come from"));
    }

    void progressIsRememberedPerLesson()
    {
        openSecondScene();
        QTest::mouseClick(panel()->optionButton(1), Qt::LeftButton);
        QTest::mouseClick(panel()->checkButton(), Qt::LeftButton);
        QTRY_COMPARE(lessons()->stage(), LessonController::Stage::Answer);
        press(Qt::Key_Right, Qt::AltModifier);
        press(Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(session()->scene(), 3);
        // another lesson, then this one again: where it was left, and what was answered
        QVERIFY(window().openBuiltinLesson(QStringLiteral("2-where-tokens-come-from")));
        QCOMPARE(session()->scene(), 0);
        QVERIFY(window().openBuiltinLesson(kLesson));
        QCOMPARE(session()->scene(), 3);
        QCOMPARE(session()->answer(1).picked, 1);
        QVERIFY(session()->answer(1).revealed);
        QVERIFY(!session()->answer(2).revealed);
        // and after the window is made again (a new run of the program)
        m_window.reopen();
        QVERIFY(window().openBuiltinLesson(kLesson));
        QCOMPARE(session()->scene(), 3);
        QCOMPARE(session()->answer(1).picked, 1);
    }
};

QTEST_MAIN(TestLessonController)
#include "tst_lessoncontroller.moc"
