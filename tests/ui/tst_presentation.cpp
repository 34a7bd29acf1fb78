// Presentation mode on the real MainWindow offscreen: F11 in and Escape out, the layout and
// theme it replaces come back, and the keys a presenter (or a clicker's Page Up/Down) sends
// step the playhead through every event tick of the default scenario in order and back.

#include "document/document.h"
#include "views/presentationcontrols.h"
#include "views/presentationpanel.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/mainwindow.h"
#include "window/playback.h"
#include "window/presentationcontroller.h"
#include "windowfixture.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

#include <memory>
#include <vector>

namespace {

const std::vector<Core::Tick> kDefaultTicks{0, 1, 5, 12, 13, 30};

} // namespace

class TestPresentation : public QObject
{
    Q_OBJECT

    WindowFixture m_window{WindowFixture::Options().failingOnAmbiguousShortcuts()};
    QTemporaryDir m_autosave;

    MainWindow &window() { return *m_window; }
    TimelineView *view() { return static_cast<TimelineView *>(part<TimelineView>(window())); }
    QDockWidget *dock(const char *name)
    {
        return window().findChild<QDockWidget *>(QString::fromLatin1(name));
    }
    void press(Qt::Key key) { QTest::keyClick(window().windowHandle(), key); }

private slots:
    void initTestCase()
    {
        WindowFixture::useOwnSettings("tst_presentation");
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
    }

    void init() { QVERIFY(m_window.open()); }

    void cleanup() { m_window.close(); }

    void f11EntersAndEscapeRestores()
    {
        window().viewState()->setAxis(3, 25);
        const QRect geometry = window().geometry();
        QVERIFY(!window().isPresenting());
        press(Qt::Key_F11);
        QVERIFY(window().isPresenting());
        QVERIFY(window().windowState() & Qt::WindowFullScreen);
        // only the timeline and the large explanation
        QVERIFY(!window().menuBar()->isVisible());
        QVERIFY(!window().statusBar()->isVisible());
        QVERIFY(!window().findChild<QToolBar *>(QStringLiteral("mainToolBar"))->isVisible());
        QVERIFY(!dock("storyDock")->isVisible());
        QVERIFY(!dock("eventLogDock")->isVisible());
        QVERIFY(!dock("inspectorDock")->isVisible());
        QVERIFY(view()->isVisible());
        QVERIFY(part<PresentationPanel>(window())->isVisible());
        // large text, thick lines, black on white (the theme the timeline is drawn in)
        QCOMPARE(view()->theme().name, QStringLiteral("contrast"));
        QVERIFY(view()->theme().fontScale > 1.2);
        QVERIFY(view()->theme().lineScale >= 2);
        // it starts before the first event
        QVERIFY(part<PresentationController>(window())->atStart());
        QVERIFY(window().viewState()->playheadBefore());
        QCOMPARE(part<PresentationPanel>(window())->step(), PresentationPanel::Step::Start);
        QCOMPARE(part<PresentationPanel>(window())->mainText(),
                 window().document()->scenario().title);
        // the selected outcome is not highlighted ahead of its step
        QVERIFY(!window().viewState()->selection().isValid());

        press(Qt::Key_Escape);
        QVERIFY(!window().isPresenting());
        QVERIFY(!(window().windowState() & Qt::WindowFullScreen));
        QCOMPARE(view()->theme().name, QStringLiteral("light"));
        QCOMPARE(view()->theme().fontScale, 1.0);
        QVERIFY(window().menuBar()->isVisible());
        QVERIFY(window().statusBar()->isVisible());
        QVERIFY(window().findChild<QToolBar *>(QStringLiteral("mainToolBar"))->isVisible());
        QVERIFY(dock("storyDock")->isVisible());
        QVERIFY(dock("eventLogDock")->isVisible());
        QVERIFY(!part<PresentationPanel>(window())->isVisible());
        QVERIFY(!window().viewState()->playheadBefore());
        // the playhead and the zoom as they were
        QVERIFY(!window().viewState()->hasPlayhead());
        QCOMPARE(window().viewState()->selection(), (Selection{0, 2}));
        QCOMPARE(window().viewState()->firstTick(), 3.0);
        QCOMPARE(window().viewState()->pixelsPerTick(), 25.0);
        QCOMPARE(window().geometry().size(), geometry.size());
    }

    void toolbarButtonAndF11AgainLeave()
    {
        auto *present = window().findChild<QAction *>(QStringLiteral("present"));
        QVERIFY(present);
        QVERIFY(window()
                    .findChild<QToolBar *>(QStringLiteral("mainToolBar"))
                    ->actions()
                    .contains(present));
        present->trigger();
        QVERIFY(window().isPresenting());
        QVERIFY(present->isChecked());
        press(Qt::Key_F11);
        QVERIFY(!window().isPresenting());
        QVERIFY(!present->isChecked());
    }

    // Back / Next / Exit on screen: hidden until the pointer moves, clicked through the window
    // as a mouse does, gone again after a while and when presentation mode ends.
    void onScreenControlsStepAndExit()
    {
        window().setPresenting(true);
        PresentationControls *controls = part<PresentationControls>(window());
        QVERIFY(controls);
        QVERIFY(!controls->isVisible());
        QWindow *win = window().windowHandle();
        const QPoint middle = window().rect().center();
        QTest::mouseMove(win, middle);
        QTest::mouseMove(win, middle + QPoint(5, 5));
        QTRY_VERIFY(controls->isVisible());
        // wholly inside the window, near its bottom right corner
        QVERIFY(window().rect().contains(controls->geometry()));
        QVERIFY(controls->geometry().center().x() > window().width() / 2);
        const auto click = [&](const char *name) {
            auto *b = controls->findChild<QToolButton *>(QString::fromLatin1(name));
            QVERIFY(b);
            QVERIFY(b->isVisible());
            const QPoint at = b->mapTo(&window(), b->rect().center());
            QTest::mouseClick(win, Qt::LeftButton, Qt::NoModifier, at);
        };
        click("presentationNext");
        QCOMPARE(window().viewState()->playhead(), kDefaultTicks[0]);
        click("presentationNext");
        QCOMPARE(window().viewState()->playhead(), kDefaultTicks[1]);
        click("presentationBack");
        QCOMPARE(window().viewState()->playhead(), kDefaultTicks[0]);
        // the keys still work while the buttons show (they never take the focus)
        press(Qt::Key_Right);
        QCOMPARE(window().viewState()->playhead(), kDefaultTicks[1]);
        // the pointer leaves them alone: they go after a few seconds
        QTest::mouseMove(win, QPoint(10, 10));
        QTRY_VERIFY_WITH_TIMEOUT(!controls->isVisible(), PresentationControls::kShowMs + 2000);
        QTest::mouseMove(win, middle);
        QTRY_VERIFY(controls->isVisible());
        click("presentationExit");
        QVERIFY(!window().isPresenting());
        QVERIFY(!controls->isVisible());
        QVERIFY(window().menuBar()->isVisible());
    }

    void arrowsStepThroughEveryEventAndBack()
    {
        window().setPresenting(true);
        QVERIFY(part<PresentationController>(window())->atStart());
        for (const Core::Tick t : kDefaultTicks) {
            press(Qt::Key_Right);
            QVERIFY(!part<PresentationController>(window())->atStart());
            QCOMPARE(window().viewState()->playhead(), t);
        }
        press(Qt::Key_Right); // the last step stays
        QCOMPARE(window().viewState()->playhead(), Core::Tick(30));
        for (auto it = kDefaultTicks.rbegin() + 1; it != kDefaultTicks.rend(); ++it) {
            press(Qt::Key_Left);
            QCOMPARE(window().viewState()->playhead(), *it);
        }
        press(Qt::Key_Left); // before the first event again
        QVERIFY(part<PresentationController>(window())->atStart());
        QVERIFY(window().viewState()->playheadBefore());
        press(Qt::Key_Left);
        QVERIFY(part<PresentationController>(window())->atStart());
    }

    void clickerKeysStepToo()
    {
        window().setPresenting(true);
        // Page Down / Down / Space forward, Page Up / Up back
        const Qt::Key forward[] = {Qt::Key_PageDown, Qt::Key_Down,     Qt::Key_Space,
                                   Qt::Key_PageDown, Qt::Key_PageDown, Qt::Key_PageDown};
        for (std::size_t i = 0; i < kDefaultTicks.size(); ++i) {
            press(forward[i]);
            QCOMPARE(window().viewState()->playhead(), kDefaultTicks[i]);
        }
        QVERIFY(!part<Playback>(window())->isPlaying()); // Space steps here, it does not play
        const Qt::Key back[] = {Qt::Key_PageUp, Qt::Key_Up, Qt::Key_PageUp, Qt::Key_PageUp,
                                Qt::Key_PageUp};
        for (std::size_t i = 0; i < 5; ++i) {
            press(back[i]);
            QCOMPARE(window().viewState()->playhead(), kDefaultTicks[kDefaultTicks.size() - 2 - i]);
        }
        press(Qt::Key_PageUp);
        QVERIFY(part<PresentationController>(window())->atStart());
    }

    void homeAndEnd()
    {
        window().setPresenting(true);
        press(Qt::Key_Right);
        press(Qt::Key_Right);
        press(Qt::Key_End); // everything
        QVERIFY(!window().viewState()->hasPlayhead());
        QCOMPARE(part<PresentationPanel>(window())->step(), PresentationPanel::Step::End);
        QVERIFY(
            part<PresentationPanel>(window())->mainText().contains(QStringLiteral("Safety held")));
        press(Qt::Key_Left); // back from the end: the last step
        QCOMPARE(window().viewState()->playhead(), Core::Tick(30));
        press(Qt::Key_Home);
        QVERIFY(part<PresentationController>(window())->atStart());
        press(Qt::Key_Right);
        QCOMPARE(window().viewState()->playhead(), Core::Tick(0));
        // window shortcuts on the same keys did not fire: the view was not refitted by Home,
        // nothing played
        QVERIFY(!part<Playback>(window())->isPlaying());
    }

    // Hidden, the panel does not follow every change (its key frames cost a pass over the
    // trace); shown, it tells the scenario as it is now.
    void changesWhileNotPresentingAreShown()
    {
        PresentationPanel *panel = part<PresentationPanel>(window());
        QVERIFY(!panel->isVisible());
        Core::Scenario s = window().document()->scenario();
        s.title = QStringLiteral("Edited while not presenting");
        s.clients[0].actions.push_back(Core::Action::write(60, QStringLiteral("late")));
        window().document()->reset(s);
        window().setPresenting(true);
        QCOMPARE(panel->mainText(), s.title);
        QVERIFY2(panel->heading().contains(QStringLiteral("7 STEPS")),
                 qPrintable(panel->heading()));
        window().setPresenting(false);

        // a panel of its own, shown after the change without being asked to step
        ViewState state;
        PresentationPanel own(window().document(), &state);
        s.title = QStringLiteral("Edited again");
        window().document()->reset(s);
        own.show();
        QCOMPARE(own.mainText(), s.title);
    }

    void theExplanationFollowsThePlayhead()
    {
        window().setPresenting(true);
        PresentationPanel *panel = part<PresentationPanel>(window());
        press(Qt::Key_Right); // t=0: A is granted token 1
        QVERIFY(panel->heading().contains(QStringLiteral("STEP 1 OF 6")));
        QVERIFY2(panel->mainText().contains(QStringLiteral("token 1")),
                 qPrintable(panel->mainText()));
        for (int i = 0; i < 5; ++i)
            press(Qt::Key_Right);
        // t=30: the write's fate is the main sentence, the pause's end a detail
        QVERIFY(panel->heading().contains(QStringLiteral("STEP 6 OF 6")));
        QVERIFY2(panel->mainText().contains(
                     QStringLiteral("had already accepted token 2 from B at t=13")),
                 qPrintable(panel->mainText()));
        QVERIFY(!panel->detailText().isEmpty());

        // compare mode tells both fates
        press(Qt::Key_C);
        QVERIFY(window().viewState()->compare());
        QVERIFY(panel->mainText().startsWith(QStringLiteral("With fencing:")));
        QVERIFY(panel->findChild<QWidget *>(QStringLiteral("presentationOther"))->isVisible());
        press(Qt::Key_C);
    }

    void settingsAreRemembered()
    {
        auto *dark = window().findChild<QAction *>(QStringLiteral("presentationTheme-dark"));
        QVERIFY(dark);
        dark->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("presentation/theme")).toString(),
                 QStringLiteral("dark"));
        window().setPresenting(true);
        QCOMPARE(view()->theme().name, QStringLiteral("dark"));
        // + makes text larger, and that is remembered too
        const double before =
            QSettings().value(QStringLiteral("presentation/fontScale"), 1.6).toDouble();
        press(Qt::Key_Plus);
        QCOMPARE(QSettings().value(QStringLiteral("presentation/fontScale")).toDouble(),
                 before + 0.2);
        press(Qt::Key_Escape);
        QCOMPARE(view()->theme().name, QStringLiteral("light"));
        QSettings().remove(QStringLiteral("presentation"));
    }

    // Presentation mode renders offscreen (kept for the README with FENCESCOPE_SCREENSHOT_DIR).
    void screenshot()
    {
        // renders every time (a real offscreen render must succeed); the files are kept in
        // FENCESCOPE_SCREENSHOT_DIR when it is set, e.g. to refresh docs/screenshots
        QTemporaryDir scratch;
        const QString dir = qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOT_DIR")
                                ? scratch.path()
                                : qEnvironmentVariable("FENCESCOPE_SCREENSHOT_DIR");
        window().setPresenting(true);
        window().setWindowState(Qt::WindowNoState); // offscreen "full screen" is the 800x600 screen
        window().resize(1600, 900);
        QTest::qWait(100);
        for (int i = 0; i < 5; ++i) // t=13: B's write is accepted with token 2
            press(Qt::Key_Right);
        QTest::qWait(50);
        QVERIFY(window().grab().save(dir + QStringLiteral("/presentation.png")));
        press(Qt::Key_Right);
        QTest::qWait(50);
        QVERIFY(window().grab().save(dir + QStringLiteral("/presentation-end.png")));
        press(Qt::Key_C);
        QTest::qWait(100);
        QVERIFY(window().grab().save(dir + QStringLiteral("/presentation-compare.png")));
        press(Qt::Key_C);
        press(Qt::Key_Escape);
    }
};

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
