// A laptop and a projector (README, "Export, slides and presentation mode"; issue 31, item 15):
// View > Present on chooses the projector, F11 presents full screen there in a window of its own
// (PresentationWindow) while the main window stays on the laptop as it was and follows the same
// step; the clicker's keys work in either window; Esc from either, or closing the presentation
// window, ends it; the choice is remembered by the next window. Present on the laptop's own
// screen presents in the main window, as on one screen, and so does a lesson.
// The offscreen platform is given two screens side by side, from a file (its `configfile`,
// read by qtbase's qoffscreenintegration.cpp), so this test has a main of its own.

#include "document/document.h"
#include "offscreenscreens.h"
#include "recordingdevice.h"
#include "scripteddialogs.h"
#include "settle.h"
#include "timelinerenderer.h"
#include "views/presentationpanel.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"
#include "window/presentationcontroller.h"
#include "window/presentationwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWindow>

#include <memory>

namespace {

const QRect kLaptop(0, 0, 1280, 800);
const QRect kProjector(1280, 0, 1920, 1080);
// The default scenario's story steps (tests/ui/tst_presentation.cpp, kDefaultTicks): A is
// granted token 1 at t=0, ..., the zombie write's fate at t=30.
const Core::Tick kFirstStep = 0;
const Core::Tick kSecondStep = 1;

QMenu *viewMenu(MainWindow &w)
{
    for (QAction *a : w.menuBar()->actions())
        if (a->menu() && a->menu()->findChild<QMenu *>(QStringLiteral("presentOn")))
            return a->menu();
    qFatal("no menu holds Present on");
}

} // namespace

class TestPresentScreen : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;

    std::unique_ptr<MainWindow> newWindow()
    {
        auto w = std::make_unique<MainWindow>();
        scriptDialogs(*w);
        w->show();
        w->activateWindow();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(w.get()));
            QVERIFY(QTest::qWaitForWindowActive(w.get()));
        }();
        return w;
    }

    // The offscreen platform has no window manager to give the keyboard back to the window
    // when a menu closes: a person's next click on the window does.
    static void backToTheWindow(MainWindow &w)
    {
        w.activateWindow();
        [&] { QVERIFY(QTest::qWaitForWindowActive(&w)); }();
    }

    // View > Present on, as a person opens it: the submenu is shown (its entries are the screens
    // attached then) and the entry naming `screenName` is clicked. Returns the entries offered.
    QStringList chooseScreen(MainWindow &w, const QString &screenName)
    {
        QMenu *presentOn = viewMenu(w)->findChild<QMenu *>(QStringLiteral("presentOn"));
        presentOn->popup(w.geometry().center());
        QStringList offered;
        QAction *pick = nullptr;
        for (QAction *a : presentOn->actions()) {
            offered << a->text();
            if (a->data().toString() == screenName)
                pick = a;
        }
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(presentOn));
            QVERIFY2(pick, qPrintable(offered.join(QLatin1Char('|'))));
        }();
        if (pick)
            QTest::mouseClick(presentOn->windowHandle(), Qt::LeftButton, {},
                              presentOn->actionGeometry(pick).center());
        presentOn->hide();
        backToTheWindow(w);
        return offered;
    }

    // The entry of the submenu that is checked, by its screen name ("" for the window's own).
    static QString checkedScreen(MainWindow &w)
    {
        QMenu *presentOn = viewMenu(w)->findChild<QMenu *>(QStringLiteral("presentOn"));
        presentOn->popup(w.geometry().center());
        QString checked = QStringLiteral("(none)");
        for (QAction *a : presentOn->actions())
            if (a->isChecked())
                checked = a->data().toString();
        presentOn->hide();
        backToTheWindow(w);
        return checked;
    }

    static QAction *present(MainWindow &w)
    {
        return w.findChild<QAction *>(QStringLiteral("present"));
    }

    // The presentation window, if presentation ever opened one.
    static PresentationWindow *projector(MainWindow &w)
    {
        return w.findChild<PresentationWindow *>();
    }

    // What the main window is before presenting, to compare with while and after.
    struct Teacher
    {
        QRect geometry;
        QByteArray layout;
        bool operator==(const Teacher &o) const
        {
            return geometry == o.geometry && layout == o.layout;
        }
    };
    static Teacher teacher(MainWindow &w) { return {w.geometry(), w.saveState()}; }

    // F11 in the main window, Present on naming the projector: the presentation window shows
    // full screen on the projector and the main window is left as it was.
    void presentOnTheProjector(MainWindow &w)
    {
        const Teacher before = teacher(w);
        QTest::keyClick(w.windowHandle(), Qt::Key_F11);
        QVERIFY(present(w)->isChecked());
        PresentationWindow *p = projector(w);
        QVERIFY(p);
        QVERIFY(p->isVisible());
        QCOMPARE(p->screen()->name(), QStringLiteral("projector"));
        QTRY_COMPARE(p->geometry(), kProjector);
        TestSupport::settle(p);
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QVERIFY(!w.isFullScreen());
        QVERIFY(teacher(w) == before);
    }

    // Presentation ended: its window gone, the main window as it was before.
    static void endedAndBack(MainWindow &w, const Teacher &before)
    {
        QVERIFY(!present(w)->isChecked());
        QVERIFY(!w.isPresenting());
        QVERIFY(!projector(w)->isVisible());
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QCOMPARE(w.geometry(), before.geometry);
        QVERIFY(w.saveState() == before.layout);
        QVERIFY(!w.viewState()->hidesFuture());
        // the keyboard is the teacher's window's again (F11 presents again)
        QVERIFY(QTest::qWaitForWindowActive(&w));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_presentscreen"));
        QSettings().clear();
        const QList<QScreen *> screens = QGuiApplication::screens();
        QCOMPARE(screens.size(), 2);
        QCOMPARE(screens[0]->geometry(), kLaptop);
        QCOMPARE(screens[1]->geometry(), kProjector);
        m_window = newWindow();
    }

    void cleanupTestCase()
    {
        m_window->document()->markSaved();
        m_window.reset();
    }

    void presentsOnTheChosenScreenInAWindowOfItsOwn()
    {
        MainWindow &w = *m_window;
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        const Teacher before = teacher(w);
        QVERIFY(kLaptop.contains(before.geometry));

        // both screens are offered, by name and size, after the window's own
        const QStringList offered = chooseScreen(w, QStringLiteral("projector"));
        QCOMPARE(offered, QStringList({QStringLiteral("The window's screen"),
                                       QStringLiteral("laptop (1280×800)"),
                                       QStringLiteral("projector (1920×1080)")}));
        QCOMPARE(checkedScreen(w), QStringLiteral("projector"));

        presentOnTheProjector(w);
        if (QTest::currentTestFailed())
            return;
        PresentationWindow *p = projector(w);
        // the teacher's window is still the whole window: menus, toolbar and docks
        QVERIFY(w.menuBar()->isVisible());
        QVERIFY(!w.findChild<PresentationPanel *>()->isVisible());

        // the projector shows what presentation shows: the timeline over the scenario's title,
        // at presentation's sizes (the sentence at least 24 px, the lanes' labels 14 px)
        QVERIFY(p->view()->isVisible());
        QCOMPARE(p->panel()->step(), PresentationPanel::Step::Start);
        QCOMPARE(p->panel()->mainText(), w.document()->scenario().title);
        auto *sentence = p->panel()->findChild<QLabel *>(QStringLiteral("presentationText"));
        QVERIFY(sentence->isVisible());
        QVERIFY(QFontInfo(sentence->font()).pixelSize() >= 24);
        QVERIFY(p->rect().contains(QRect(sentence->mapTo(p, QPoint()), sentence->size())));
        QVERIFY(sentence->heightForWidth(sentence->width()) <= sentence->height());
        QVERIFY(p->view()->theme().fontScale >= PresentationController::kSmallestScale);
        // each lane once, in the lanes' header
        RecordingDevice painted(p->view()->size());
        p->view()->render(&painted);
        const double header = p->view()->currentLayout().headerWidth;
        const auto timesShown = [&](const QString &name) {
            return std::count_if(
                painted.texts.begin(), painted.texts.end(), [&](const RecordingDevice::Text &t) {
                    return t.text == name && t.at.x() < header && !t.shown.isEmpty();
                });
        };
        for (const Core::Client &c : w.document()->scenario().clients)
            QCOMPARE(timesShown(c.name), 1);
        for (const Core::StorageSpec &st : w.document()->scenario().storages)
            QCOMPARE(timesShown(st.name), 1);
        QCOMPARE(timesShown(QStringLiteral("lock service")), 1);
        // (FENCESCOPE_SHOTS=DIR: the projector's picture, to look at)
        if (const QString dir = qEnvironmentVariable("FENCESCOPE_SHOTS"); !dir.isEmpty())
            p->grab().save(QDir(dir).filePath(QStringLiteral("presentwindow-start.png")));

        QTest::keyClick(p->windowHandle(), Qt::Key_Escape);
        endedAndBack(w, before);
    }

    // The clicker's keys, sent to either window, step the one presentation: the projector's
    // sentence and both windows' playheads follow.
    void theKeysWorkInEitherWindow()
    {
        MainWindow &w = *m_window;
        const Teacher before = teacher(w);
        presentOnTheProjector(w);
        if (QTest::currentTestFailed())
            return;
        PresentationWindow *p = projector(w);
        auto *mainView = w.findChild<TimelineView *>();
        QVERIFY(mainView != p->view());
        const auto at = [&](Core::Tick tick) {
            QCOMPARE(w.viewState()->playhead(), tick);
            QCOMPARE(p->view()->options().playhead, tick);
            QCOMPARE(mainView->options().playhead, tick);
            // nothing after the playhead, in either window
            QVERIFY(p->view()->options().hideFuture);
            QVERIFY(mainView->options().hideFuture);
        };

        QTest::keyClick(p->windowHandle(), Qt::Key_Right);
        at(kFirstStep);
        QVERIFY2(p->panel()->heading().contains(QStringLiteral("STEP 1 OF 6")),
                 qPrintable(p->panel()->heading()));
        QVERIFY2(p->panel()->mainText().contains(QStringLiteral("token 1")),
                 qPrintable(p->panel()->mainText()));
        const QString first = p->panel()->mainText();

        QTest::keyClick(w.windowHandle(), Qt::Key_PageDown);
        at(kSecondStep);
        QVERIFY(p->panel()->heading().contains(QStringLiteral("STEP 2 OF 6")));
        QVERIFY(p->panel()->mainText() != first);

        QTest::keyClick(w.windowHandle(), Qt::Key_Left);
        at(kFirstStep);
        QCOMPARE(p->panel()->mainText(), first);
        QTest::keyClick(p->windowHandle(), Qt::Key_Space);
        at(kSecondStep);
        // (FENCESCOPE_SHOTS=DIR: both windows at the second step, to look at)
        if (const QString dir = qEnvironmentVariable("FENCESCOPE_SHOTS"); !dir.isEmpty()) {
            TestSupport::settle(p);
            p->grab().save(QDir(dir).filePath(QStringLiteral("presentwindow-projector.png")));
            w.grab().save(QDir(dir).filePath(QStringLiteral("presentwindow-laptop.png")));
        }

        QTest::keyClick(w.windowHandle(), Qt::Key_End);
        QCOMPARE(p->panel()->step(), PresentationPanel::Step::End);
        QVERIFY(!w.viewState()->hasPlayhead());
        QTest::keyClick(p->windowHandle(), Qt::Key_Home);
        QCOMPARE(p->panel()->step(), PresentationPanel::Step::Start);
        QCOMPARE(p->panel()->mainText(), w.document()->scenario().title);

        // compare (C) from the projector's window, and back from the teacher's
        QTest::keyClick(p->windowHandle(), Qt::Key_Right);
        QTest::keyClick(p->windowHandle(), Qt::Key_C);
        QVERIFY(w.viewState()->compare());
        QVERIFY2(p->panel()->mainText().startsWith(QStringLiteral("With fencing:")),
                 qPrintable(p->panel()->mainText()));
        QTest::keyClick(w.windowHandle(), Qt::Key_C);
        QVERIFY(!w.viewState()->compare());
        TestSupport::settle(&w);

        // Esc in the teacher's window ends it too
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        endedAndBack(w, before);
    }

    // While the projector presents, the teacher can still type in the laptop's window: a field
    // with the focus keeps its keys (Right and Home move the cursor, not the step); the clicker's
    // keys step again once the focus leaves the field. (Esc still ends presentation from there.)
    void aFieldInTheTeachersWindowKeepsItsKeys()
    {
        MainWindow &w = *m_window;
        const Teacher before = teacher(w);
        presentOnTheProjector(w);
        if (QTest::currentTestFailed())
            return;
        QTest::keyClick(w.windowHandle(), Qt::Key_Right);
        QCOMPARE(w.viewState()->playhead(), kFirstStep);
        w.viewState()->setSelection({0, 0}); // A's acquire: the inspector shows its fields
        auto *atField = w.findChild<QWidget *>(QStringLiteral("at"));
        QVERIFY(atField);
        auto *at = atField->findChild<QLineEdit *>();
        QVERIFY(at);
        QTRY_VERIFY(at->isVisible());
        backToTheWindow(w); // the teacher clicks into the laptop's window
        at->setFocus();
        QTRY_VERIFY(at->hasFocus());
        at->setCursorPosition(0);
        QTest::keyClick(w.windowHandle(), Qt::Key_Right);
        QCOMPARE(w.viewState()->playhead(), kFirstStep); // not a step
        QCOMPARE(at->cursorPosition(), 1);               // the field's cursor moved
        QTest::keyClick(w.windowHandle(), Qt::Key_Home);
        QCOMPARE(w.viewState()->playhead(), kFirstStep);
        QCOMPARE(at->cursorPosition(), 0);
        QVERIFY(present(w)->isChecked()); // still presenting
        QVERIFY(projector(w)->isVisible());
        // the focus back on the timeline: the keys are the clicker's again
        w.findChild<TimelineView *>()->setFocus();
        QTest::keyClick(w.windowHandle(), Qt::Key_Right);
        QCOMPARE(w.viewState()->playhead(), kSecondStep);
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        endedAndBack(w, before);
    }

    // The presentation window's close button (or Alt+F4) ends presentation like Esc.
    void closingThePresentationWindowEndsIt()
    {
        MainWindow &w = *m_window;
        const Teacher before = teacher(w);
        presentOnTheProjector(w);
        if (QTest::currentTestFailed())
            return;
        QTest::keyClick(projector(w)->windowHandle(), Qt::Key_Right);
        QCOMPARE(w.viewState()->playhead(), kFirstStep);
        projector(w)->windowHandle()->close();
        endedAndBack(w, before);
        // and the next F11 opens it again
        presentOnTheProjector(w);
        QTest::keyClick(projector(w)->windowHandle(), Qt::Key_Escape);
        endedAndBack(w, before);
    }

    // Present on the laptop, the window's own screen: presentation is the window itself, full
    // screen, as on one screen.
    void presentingOnTheWindowsScreenIsInPlace()
    {
        MainWindow &w = *m_window;
        const Teacher before = teacher(w);
        chooseScreen(w, QStringLiteral("laptop"));
        QCOMPARE(checkedScreen(w), QStringLiteral("laptop"));
        QTest::keyClick(w.windowHandle(), Qt::Key_F11);
        QVERIFY(present(w)->isChecked());
        QVERIFY(!projector(w)->isVisible());
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QTRY_COMPARE(w.geometry(), kLaptop);
        QVERIFY(!w.menuBar()->isVisible());
        QVERIFY(w.findChild<PresentationPanel *>()->isVisible());
        QTest::keyClick(w.windowHandle(), Qt::Key_Right);
        QCOMPARE(w.viewState()->playhead(), kFirstStep);
        QVERIFY(w.findChild<PresentationPanel *>()->mainText().contains(QStringLiteral("token 1")));
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        QVERIFY(!present(w)->isChecked());
        QTRY_COMPARE(w.geometry(), before.geometry);
        chooseScreen(w, QStringLiteral("projector"));
    }

    // A lesson's stage (its question, the room's votes, the reveal) is the main window's: a
    // lesson presents in the main window, on the chosen screen, as before there were two.
    void aLessonPresentsInTheWindow()
    {
        MainWindow &w = *m_window;
        const QRect before = w.geometry();
        QVERIFY(w.openBuiltinLesson(QStringLiteral("1-why-a-lock-needs-fencing")));
        QTest::keyClick(w.windowHandle(), Qt::Key_F11);
        QVERIFY(present(w)->isChecked());
        QVERIFY(!projector(w) || !projector(w)->isVisible());
        QCOMPARE(w.screen()->name(), QStringLiteral("projector"));
        QTRY_COMPARE(w.geometry(), kProjector);
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        QVERIFY(!present(w)->isChecked());
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QTRY_COMPARE(w.geometry(), before);
        QVERIFY(w.lessons()->close());

        // a lesson opened from the teacher's window while the projector presents: presentation
        // moves into the window, on the projector, where the lesson's stage is
        presentOnTheProjector(w);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(w.openBuiltinLesson(QStringLiteral("1-why-a-lock-needs-fencing")));
        QTRY_VERIFY(!projector(w)->isVisible());
        QVERIFY(w.isPresenting());
        QCOMPARE(w.screen()->name(), QStringLiteral("projector"));
        QTRY_COMPARE(w.geometry(), kProjector);
        QVERIFY(!w.menuBar()->isVisible());
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        QVERIFY(!w.isPresenting());
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QTRY_COMPARE(w.geometry(), before);
        QVERIFY(w.lessons()->close());
    }

    // The next window (the app started again) presents on the projector too; "The window's
    // screen" presents where the window is.
    void theChoiceIsRemembered()
    {
        m_window->document()->markSaved();
        m_window.reset();
        m_window = newWindow();
        MainWindow &w = *m_window;
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QCOMPARE(checkedScreen(w), QStringLiteral("projector"));
        const Teacher before = teacher(w);
        presentOnTheProjector(w);
        if (QTest::currentTestFailed())
            return;
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        endedAndBack(w, before);

        chooseScreen(w, QString());
        QCOMPARE(checkedScreen(w), QString());
        QTest::keyClick(w.windowHandle(), Qt::Key_F11);
        QVERIFY(present(w)->isChecked());
        QVERIFY(!projector(w)->isVisible());
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QTRY_COMPARE(w.geometry(), kLaptop);
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        QVERIFY(!present(w)->isChecked());
    }
};

int main(int argc, char **argv)
{
    QTemporaryDir dir;
    if (!TestSupport::useOffscreenScreens(
            dir, {{QStringLiteral("laptop"), kLaptop}, {QStringLiteral("projector"), kProjector}}))
        return 2;
    QApplication app(argc, argv);
    TestPresentScreen test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_presentscreen.moc"
