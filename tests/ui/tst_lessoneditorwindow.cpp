// The lesson editor used as an author uses it, in the real MainWindow (offscreen) with scripted
// dialogs: its buttons clicked, its fields typed into, the claim form's lists picked from. The
// expected lessons are worked by hand from the default scenario (resources/scenarios/default.json:
// A acquires at t=0 for 10 ticks, pauses from t=1 to t=30, its write "A" to db due at t=2 goes at
// t=30; B is granted at t=12 and writes "B" at t=13) and from the built-in lesson "Why a lock
// needs fencing" (its scene 1: the default preset, fencing off, no question; its scene 2: the
// same, a question frozen at t=29 whose option B, "corrupted", holds):
// - a scene added from the window holds its scenario (the preset's name while the window shows
//   the scene as written, else the scenario itself) and its view (fencing, compare and with
//   what, range, playhead); "New lesson from this scenario" likewise;
// - objectives and sources typed are what the file gets, one undo step each;
// - a question written with "Add a question", the claim form (Add / Replace / Remove) and
//   "From the playhead" is saved with those options and claims;
// - every change is one undo step, and undoing them all gives the lesson back byte for byte;
// - a problem shows at its field as it is typed (empty prompt, too few options, a claim naming
//   a write the scene's run no longer has);
// - "no option holds" and "several options hold" are said in core's words by the editor, the
//   desk's Lesson dock and the presenting stage;
// - the Lesson dock's scene buttons move the scene.

#include "document/document.h"
#include "document/lessonsession.h"
#include "settle.h"
#include "views/claimform.h"
#include "views/lessoneditor.h"
#include "views/lessonpanel.h"
#include "views/lessonstage.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/filecontroller.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"
#include "windowfixture.h"
#include "windowparts.h"

#include "lessonfile.h"
#include "timelinerenderer.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

namespace {

const QString kLesson = QStringLiteral("1-why-a-lock-needs-fencing");
// core's sentences for an unsound question (tests/core/tst_lessonclaims.cpp, questions())
const QString kNoneHolds =
    QStringLiteral("no option holds in this run; a question needs exactly one");
const QString kSaysNothing = QStringLiteral("This question says nothing on this run: ");

} // namespace

class TestLessonEditorWindow : public QObject
{
    Q_OBJECT

    WindowFixture m_window{WindowFixture::Options().sized(1280, 800).clearingSettings()};
    QTemporaryDir m_autosave;
    QTemporaryDir m_dir;

    MainWindow &window() { return *m_window; }
    LessonSession *session() { return window().lessons()->session(); }
    LessonEditor *editor() { return part<LessonEditor>(window()); }
    ClaimForm *form() { return editor()->claimForm(); }
    ViewState *state() { return window().viewState(); }
    QUndoStack *undo() { return session()->undoStack(); }
    QByteArray bytes() { return Core::LessonFile::serialize(session()->lesson()); }
    void press(Qt::Key key, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QTest::keyClick(window().windowHandle(), key, mods);
    }
    void click(const char *name)
    {
        QPushButton *b = editor()->button(QString::fromLatin1(name));
        QVERIFY2(b, name);
        // the dock laid out as shown, and scrolled to the button as a person scrolls to it
        TestSupport::settle(editor());
        editor()->findChild<QScrollArea *>()->ensureWidgetVisible(b);
        TestSupport::settle(editor());
        QVERIFY2(b->isVisible(), name);
        QVERIFY2(b->isEnabled(), name);
        QTest::mouseClick(b, Qt::LeftButton);
    }
    void showEditor()
    {
        window().findChild<QAction *>(QStringLiteral("lessonEditor"))->trigger();
        auto *dock = window().findChild<QDockWidget *>(QStringLiteral("lessonEditorDock"));
        QVERIFY(!dock->isHidden());
        dock->raise(); // its tab in front of the Lesson dock's
        TestSupport::settle(&window());
        QVERIFY(editor()->isVisible());
    }
    void openInEditor(int scene)
    {
        QVERIFY(window().openBuiltinLesson(kLesson));
        showEditor();
        QCOMPARE(editor()->session(), session());
        clickRow(editor()->sceneList(), scene);
        QCOMPARE(session()->scene(), scene);
    }
    // Clicks into a text box and types at its end (a field the focus comes to: a new step).
    template <class Field> void typeAtEnd(Field *field, const QString &text)
    {
        QTest::mouseClick(field->viewport(), Qt::LeftButton);
        QTest::keyClick(field, Qt::Key_End, Qt::ControlModifier);
        QTest::keyClicks(field, text);
    }
    void typeLine(QPlainTextEdit *field, const QString &text)
    {
        QTest::mouseClick(field->viewport(), Qt::LeftButton);
        QTest::keyClick(field, Qt::Key_End, Qt::ControlModifier);
        QTest::keyClick(field, Qt::Key_Return);
        QTest::keyClicks(field, text);
    }
    // The playback bar's slider dragged to `tick` (to its end: no playhead, the whole run).
    void playheadTo(std::optional<Core::Tick> tick)
    {
        auto *slider = window().findChild<QSlider *>(QStringLiteral("playheadSlider"));
        QVERIFY(slider);
        slider->setValue(tick ? int(*tick) : slider->maximum());
        QCOMPARE(state()->hasPlayhead(), tick.has_value());
        if (tick)
            QCOMPARE(state()->playhead(), *tick);
    }
    // A row clicked in one of the editor's lists (the scenes, a question's options).
    void clickRow(QListWidget *list, int row)
    {
        TestSupport::settle(editor());
        editor()->findChild<QScrollArea *>()->ensureWidgetVisible(list);
        TestSupport::settle(editor());
        QVERIFY(row < list->count());
        const QRect item = list->visualItemRect(list->item(row));
        QVERIFY(list->viewport()->rect().contains(item.center()));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, item.center());
        QCOMPARE(list->currentRow(), row);
    }
    void selectOption(int row) { clickRow(editor()->optionList(), row); }
    // Presenting (F11) scene 2 of the lesson to its question: the opening, the steps at t=0, 1,
    // 5, 12 and 13, then the question, whose problem the stage shows; Esc leaves.
    void presentTheQuestion(const QString &problem)
    {
        press(Qt::Key_F11);
        QVERIFY(window().isPresenting());
        for (int i = 0; i < 6; ++i)
            press(Qt::Key_Right);
        QCOMPARE(window().lessons()->stage(), LessonController::Stage::Question);
        QCOMPARE(part<LessonStage>(window())->problemText(), problem);
        press(Qt::Key_Escape);
        QVERIFY(!window().isPresenting());
        QVERIFY(editor()->isVisible());
    }
    // An item picked from one of the claim form's lists, by what it stands for.
    static void pick(QComboBox *box, int data)
    {
        const int i = box->findData(data);
        QVERIFY2(i >= 0, qPrintable(box->objectName()));
        box->setCurrentIndex(i);
    }
    // The claim form set to "A's write "A" is <outcome>".
    void claimAboutAsWrite(Core::ClaimOutcome outcome)
    {
        pick(form()->kindBox(), ClaimForm::WriteOutcome);
        form()->clientBox()->setCurrentIndex(form()->clientBox()->findText(QStringLiteral("A")));
        pick(form()->writeBox(), 2); // A's third action: its write "A" (sent at t=2)
        pick(form()->outcomeBox(), int(outcome));
    }
    static QJsonObject writeClaim(const char *is)
    {
        return QJsonObject{
            {"claim",
             QJsonObject{{"write", QJsonObject{{"client", "A"}, {"value", "A"}}}, {"is", is}}}};
    }
    QJsonObject savedLesson()
    {
        const QString path =
            m_dir.filePath(QStringLiteral("edited") + QLatin1String(Core::LessonFile::kSuffix));
        scripted(window()).setNextPath(path);
        QTest::mouseClick(editor()->button(QStringLiteral("lessonSaveAs")), Qt::LeftButton);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }
    // Undoes every step of the lesson's history: the lesson as it was opened.
    void undoAll(const QByteArray &opened)
    {
        while (undo()->canUndo())
            undo()->undo();
        QVERIFY(bytes() == opened);
    }

private slots:
    void initTestCase()
    {
        WindowFixture::useOwnSettings("tst_lessoneditorwindow");
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
    }

    void init()
    {
        // (the settings cleared: no lesson progress remembered from another test)
        QVERIFY(m_window.open());
    }

    void cleanup() { m_window.close(); }

    void aNewLessonHoldsTheScenarioShown()
    {
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("default")));
        showEditor();
        QVERIFY(!session());
        click("lessonNew");
        QVERIFY(session());
        const Core::Lesson &l = session()->lesson();
        QCOMPARE(l.title, QStringLiteral("A new lesson"));
        QCOMPARE(l.scenes.size(), std::size_t(1));
        // no lesson shown: the window's scenario is kept in the lesson (the window does not
        // know which preset it came from once it is open)
        const Core::LessonScene &s = l.scenes[0];
        QCOMPARE(s.source, Core::SceneSource::Inline);
        QCOMPARE(s.scenario.title, QStringLiteral("Paused client wakes after its lease expired"));
        QCOMPARE(s.scenario.clients.size(), std::size_t(2));
        QVERIFY(s.scenario.clients[0].actions[2].kind == Core::ActionKind::Write);
        QCOMPARE(s.scenario.clients[0].actions[2].value, QStringLiteral("A"));
        QVERIFY(s.fencing());
        // the whole run fitted, compare off, no playhead: a view that says nothing
        QVERIFY(s.view == Core::SceneView());
        QVERIFY(!s.question);
        // a lesson that saves (the reader takes it back as it is)
        QVERIFY(Core::LessonFile::parse(bytes(), {}).ok());
        QCOMPARE(editor()->problems().size(), std::size_t(0));
    }

    void aSceneAddedFromTheWindowHoldsItsScenarioAndView()
    {
        openInEditor(0);
        const QByteArray opened = bytes();
        const int scenes = session()->sceneCount();
        // the window as the author set it: compare with etcd's tokens (Simulation > Compare
        // with), zoomed to show t=5.25 to 14.75, the playhead at t=12
        window().findChild<QAction *>(QStringLiteral("compareWith-etcd"))->trigger();
        QVERIFY(state()->compare());
        TimelineView *view = part<TimelineView>(window());
        const double plot = view->width() - TimelineRenderer::headerWidth(view->options());
        state()->setAxis(5.25, plot / 9.5);
        playheadTo(12);
        click("lessonAddScene");
        QCOMPARE(session()->sceneCount(), scenes + 1);
        QCOMPARE(undo()->count(), 1);
        const Core::LessonScene &added = session()->lesson().scenes[1];
        // the window shows scene 1 as written: the scene names the preset, as scene 1 does
        QCOMPARE(added.source, Core::SceneSource::Preset);
        QCOMPARE(added.reference, QStringLiteral("default"));
        QCOMPARE(added.view.fencing, std::optional<bool>(false));
        QCOMPARE(added.view.compare, Core::SceneCompare::Source);
        QCOMPARE(Core::toString(added.view.compareSource), QStringLiteral("etcd"));
        QCOMPARE(added.view.from, std::optional<Core::Tick>(5));
        QCOMPARE(added.view.to, std::optional<Core::Tick>(15));
        QCOMPARE(added.view.playhead, std::optional<Core::Tick>(12));
        QVERIFY(!added.question);
        QVERIFY(added.title.isEmpty() && added.narration.isEmpty());
        QCOMPARE(editor()->problems().size(), std::size_t(0));
        undoAll(opened);

        // the window's run changed (A's write deleted): the scene keeps that scenario itself,
        // with the fencing switch it is shown with; compare fenced over unfenced, whole run
        clickRow(editor()->sceneList(), 0);
        state()->setSelection({0, 2});
        window().findChild<QAction *>(QStringLiteral("delete"))->trigger();
        QCOMPARE(window().document()->scenario().clients[0].actions.size(), std::size_t(2));
        QVERIFY(!session()->showsSceneAsWritten());
        window().findChild<QAction *>(QStringLiteral("compareWith-fencing"))->trigger();
        view->fitToWindow();
        playheadTo(std::nullopt);
        click("lessonAddScene");
        QCOMPARE(undo()->count(), 1);
        const Core::LessonScene &inlined = session()->lesson().scenes[1];
        QCOMPARE(inlined.source, Core::SceneSource::Inline);
        QVERIFY(inlined.reference.isEmpty());
        QCOMPARE(inlined.scenario.clients[0].actions.size(), std::size_t(2));
        QVERIFY(!inlined.fencing()); // scene 1's "fencing": false, as the window runs it
        QCOMPARE(inlined.view.compare, Core::SceneCompare::Fencing);
        QVERIFY(!inlined.view.from && !inlined.view.to && !inlined.view.playhead);
        undoAll(opened);
    }

    void objectivesAndSourcesTypedAreOneStepEach()
    {
        openInEditor(0);
        const QByteArray opened = bytes();
        const QStringList objectives = session()->lesson().objectives;
        const QStringList sources = session()->lesson().sources;
        QCOMPARE(objectives.size(), 4);
        typeLine(editor()->objectivesEdit(), QStringLiteral("Say what a lease promises"));
        QCOMPARE(undo()->count(), 1);
        typeLine(editor()->sourcesEdit(), QStringLiteral("docs/SCENARIO.md section 3"));
        QCOMPARE(undo()->count(), 2);
        QCOMPARE(session()->lesson().objectives,
                 objectives + QStringList{QStringLiteral("Say what a lease promises")});

        const QJsonObject saved = savedLesson();
        QJsonArray wanted = QJsonArray::fromStringList(objectives);
        wanted.append(QStringLiteral("Say what a lease promises"));
        QCOMPARE(saved.value(QStringLiteral("objectives")).toArray(), wanted);
        wanted = QJsonArray::fromStringList(sources);
        wanted.append(QStringLiteral("docs/SCENARIO.md section 3"));
        QCOMPARE(saved.value(QStringLiteral("sources")).toArray(), wanted);

        // one undo each, the newest first
        undo()->undo();
        QCOMPARE(session()->lesson().sources, sources);
        QCOMPARE(session()->lesson().objectives.size(), 5);
        undo()->undo();
        QCOMPARE(session()->lesson().objectives, objectives);
        QVERIFY(bytes() == opened);
        QCOMPARE(editor()->objectivesEdit()->toPlainText(), objectives.join(QLatin1Char('\n')));
    }

    void aQuestionWrittenInTheClaimFormIsSaved()
    {
        openInEditor(0); // the default preset, fencing off, no question
        const QByteArray opened = bytes();
        playheadTo(20);
        click("lessonAddQuestion");
        QCOMPARE(undo()->count(), 1);
        QVERIFY(session()->currentScene().question);
        QCOMPARE(session()->currentScene().question->freeze, Core::Tick(20));
        QCOMPARE(editor()->freezeEdit()->text(), QStringLiteral("20"));
        QVERIFY(editor()->promptEdit()->isVisible());

        typeAtEnd(editor()->promptEdit(), QStringLiteral("What happens to A's write?"));
        QCOMPARE(undo()->count(), 2);

        // the form says the sentence and what the scene's run makes of it: db checks nothing,
        // so A's write at t=30 overwrites B's newer one (corrupted), and is not rejected
        claimAboutAsWrite(Core::ClaimOutcome::Rejected);
        QCOMPARE(form()->sentenceLabel()->text(),
                 QStringLiteral("The option reads: “A's write \"A\" is rejected”. It does not "
                                "hold in the scene's run."));
        click("lessonAddOption");
        QCOMPARE(undo()->count(), 3);
        claimAboutAsWrite(Core::ClaimOutcome::Corrupted);
        QCOMPARE(form()->sentenceLabel()->text(),
                 QStringLiteral("The option reads: “A's write \"A\" is corrupted”. It holds in "
                                "the scene's run."));
        click("lessonAddOption");
        QCOMPARE(undo()->count(), 4);
        claimAboutAsWrite(Core::ClaimOutcome::Accepted);
        click("lessonAddOption");
        QCOMPARE(undo()->count(), 5);
        QCOMPARE(editor()->optionList()->count(), 3);
        QCOMPARE(editor()->optionList()->item(2)->text(),
                 QStringLiteral("C. A's write \"A\" is accepted"));

        // option A selected: the form shows its claim; replaced by "locked out"
        selectOption(0);
        QCOMPARE(form()->outcomeBox()->currentData().toInt(), int(Core::ClaimOutcome::Rejected));
        pick(form()->outcomeBox(), int(Core::ClaimOutcome::LockedOut));
        click("lessonReplaceOption");
        QCOMPARE(undo()->count(), 6);
        // option C removed
        selectOption(2);
        click("lessonRemoveOption");
        QCOMPARE(undo()->count(), 7);
        QCOMPARE(editor()->optionList()->count(), 2);

        // the freeze from the playhead, moved back to t=13 (B's write)
        playheadTo(13);
        click("lessonFreezeFromPlayhead");
        QCOMPARE(undo()->count(), 8);
        QCOMPARE(editor()->freezeEdit()->text(), QStringLiteral("13"));
        // sound: B holds, settled when A's write arrives at t=30
        QCOMPARE(editor()->problems().size(), std::size_t(0));
        QCOMPARE(editor()->findChild<QLabel *>(QStringLiteral("lessonEditorVerdict"))->text(),
                 QStringLiteral("In the scene's run, option B holds (settled at t=30)."));

        const QJsonObject question = savedLesson()
                                         .value(QStringLiteral("scenes"))
                                         .toArray()
                                         .at(0)
                                         .toObject()
                                         .value(QStringLiteral("question"))
                                         .toObject();
        QCOMPARE(question.value(QStringLiteral("prompt")).toString(),
                 QStringLiteral("What happens to A's write?"));
        QCOMPARE(question.value(QStringLiteral("freeze")).toInt(), 13);
        QCOMPARE(question.value(QStringLiteral("options")).toArray(),
                 (QJsonArray{writeClaim("lockedOut"), writeClaim("corrupted")}));
        QVERIFY(!session()->isModified());

        // eight steps, each undone alone, back to the lesson as it was opened
        for (int left = 7; left >= 0; --left) {
            undo()->undo();
            QCOMPARE(undo()->index(), left);
        }
        QVERIFY(!session()->currentScene().question);
        undoAll(opened);
    }

    void problemsShowAtTheirFieldsAsTyped()
    {
        openInEditor(0);
        const QByteArray opened = bytes();
        playheadTo(20);
        click("lessonAddQuestion");
        // the lesson reader's first problem, at its field
        QCOMPARE(editor()->messageAt(editor()->promptEdit()), QStringLiteral("must not be empty"));
        QVERIFY(editor()->sceneList()->item(0)->text().startsWith(QStringLiteral("⚠ 1. ")));
        typeAtEnd(editor()->promptEdit(), QStringLiteral("What happens?"));
        QCOMPARE(editor()->messageAt(editor()->promptEdit()), QString());
        QCOMPARE(editor()->messageAt(editor()->optionList()),
                 QStringLiteral("must hold 2 to 5 options (A to E), not 0"));
        claimAboutAsWrite(Core::ClaimOutcome::Corrupted);
        click("lessonAddOption");
        QCOMPARE(editor()->messageAt(editor()->optionList()),
                 QStringLiteral("must hold 2 to 5 options (A to E), not 1"));
        claimAboutAsWrite(Core::ClaimOutcome::Rejected);
        click("lessonAddOption");
        QCOMPARE(editor()->messageAt(editor()->optionList()), QString());
        QVERIFY(editor()->sceneList()->item(0)->text().startsWith(QStringLiteral("1. ")));

        // A's write deleted in the window and the run kept for the scene: both claims name a
        // write the scene's run no longer has
        state()->setSelection({0, 2});
        window().findChild<QAction *>(QStringLiteral("delete"))->trigger();
        const int before = undo()->count();
        click("lessonKeepRun");
        QCOMPARE(undo()->count(), before + 1);
        QCOMPARE(editor()->messageAt(editor()->optionList()),
                 QStringLiteral("A has no write \"A\""));
        QCOMPARE(editor()->messageAt(editor()->promptEdit()), QString());
        QVERIFY(editor()->sceneList()->item(0)->text().startsWith(QStringLiteral("⚠ 1. ")));
        undoAll(opened);
        QCOMPARE(editor()->messageAt(editor()->optionList()), QString());
    }

    void noOptionAndSeveralOptionsHoldAreSaidEverywhere()
    {
        // scene 2: A's write "A" rejected, corrupted (holds), accepted, skipped; frozen at 29
        openInEditor(1);
        LessonPanel *panel = part<LessonPanel>(window());
        QCOMPARE(editor()->messageAt(editor()->optionList()), QString());
        QCOMPARE(panel->problemText(), QString());
        selectOption(1);
        click("lessonRemoveOption");
        QCOMPARE(editor()->messageAt(editor()->optionList()), kNoneHolds);
        QTRY_COMPARE(panel->problemText(), kSaysNothing + kNoneHolds);
        presentTheQuestion(kSaysNothing + kNoneHolds);

        // left: A rejected, B accepted, C skipped. Option A says instead "the lock is never held
        // by two at once" (the lock service grants one lease at a time: it holds, alone); then
        // "A's write is corrupted" added as D: A and D both hold
        selectOption(0);
        pick(form()->kindBox(), ClaimForm::LockExclusive);
        click("lessonReplaceOption");
        QCOMPARE(editor()->messageAt(editor()->optionList()), QString());
        QTRY_COMPARE(panel->problemText(), QString());
        claimAboutAsWrite(Core::ClaimOutcome::Corrupted);
        click("lessonAddOption");
        const QString both =
            QStringLiteral("options A and D both hold in this run; a question needs exactly one");
        QCOMPARE(editor()->messageAt(editor()->optionList()), both);
        QTRY_COMPARE(panel->problemText(), kSaysNothing + both);

        presentTheQuestion(kSaysNothing + both);
    }

    void theLessonDockSceneButtonsMoveTheScene()
    {
        QVERIFY(window().openBuiltinLesson(kLesson));
        LessonPanel *panel = part<LessonPanel>(window());
        QVERIFY(panel->isVisible());
        QCOMPARE(session()->scene(), 0);
        QVERIFY(!panel->previousButton()->isEnabled());
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        QCOMPARE(session()->scene(), 1);
        QCOMPARE(panel->position(), QStringLiteral("Scene 2 of 9"));
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        QCOMPARE(session()->scene(), 2);
        QTest::mouseClick(panel->previousButton(), Qt::LeftButton);
        QCOMPARE(session()->scene(), 1);
        QCOMPARE(panel->position(), QStringLiteral("Scene 2 of 9"));
        // to the last scene and no further
        for (int i = 1; i < 8; ++i)
            QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        QCOMPARE(session()->scene(), 8);
        QCOMPARE(panel->position(), QStringLiteral("Scene 9 of 9"));
        QVERIFY(!panel->nextButton()->isEnabled());
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        QCOMPARE(session()->scene(), 8);
    }
};

QTEST_MAIN(TestLessonEditorWindow)
#include "tst_lessoneditorwindow.moc"
