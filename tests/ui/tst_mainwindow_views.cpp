// The real MainWindow as it shows, driven offscreen with QTest: the toolbar at a projector's
// width, a small screen, a long run opened, compare mode, the explanation scrolled into view,
// lanes that do not fit, the Explore dock, themes, the quick tour, the geometry kept between
// runs, and the screenshots for the README. Dialogs never block: the window answers with
// scripted dialogs (scripteddialogs.h).

#include "document/document.h"
#include "document/editcommands.h"
#include "views/eventlogmodel.h"
#include "views/narrationpanel.h"
#include "views/summarystrip.h"
#include "views/sweeppanel.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "viewstate.h"
#include "window/filecontroller.h"
#include "window/mainwindow.h"
#include "window/playback.h"
#include "window/quicktour.h"
#include "windowfixture.h"
#include "windowparts.h"

#include "explain.h"
#include "randomscenario.h"
#include "scenariofile.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QUndoStack>

class TestMainWindowViews : public QObject
{
    Q_OBJECT

    WindowFixture m_window{WindowFixture::Options().failingOnAmbiguousShortcuts()};

    MainWindow &window() { return *m_window; }

private slots:
    void initTestCase() { WindowFixture::useOwnSettings("tst_mainwindow_views"); }

    void init() { QVERIFY(m_window.open()); }
    void cleanup() { m_window.close(); }

    // At 1280 px (a projector) and wider every toolbar item is on the bar itself, none behind
    // the » extension; Present among them.
    void toolbarFitsAt1280()
    {
        auto *tb = window().findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(tb);
        for (const int width : {1280, 1600}) {
            window().resize(width, 800);
            QTRY_COMPARE(window().width(), width);
            QCoreApplication::processEvents();
            QStringList hidden;
            for (QAction *a : tb->actions()) {
                if (a->isSeparator())
                    continue;
                QWidget *w = tb->widgetForAction(a);
                QVERIFY(w);
                if (!w->isVisible() || !tb->rect().contains(w->geometry()))
                    hidden << (a->objectName().isEmpty() ? a->text() : a->objectName());
            }
            QVERIFY2(hidden.isEmpty(), qPrintable(QStringLiteral("at %1 px hidden: %2")
                                                      .arg(width)
                                                      .arg(hidden.join(QStringLiteral(", ")))));
            auto *present = window().findChild<QAction *>(QStringLiteral("present"));
            QVERIFY(tb->actions().contains(present));
            QVERIFY(tb->widgetForAction(present)->isVisible());
            // after an undoable edit the undo/redo texts grow ("Undo Fencing off"): still fits
            QTest::keyClick(window().windowHandle(), Qt::Key_F);
            QTest::keyClick(window().windowHandle(), Qt::Key_Z, Qt::ControlModifier);
            QCoreApplication::processEvents();
            for (QAction *a : tb->actions())
                if (!a->isSeparator())
                    QVERIFY2(tb->rect().contains(tb->widgetForAction(a)->geometry()),
                             qPrintable(a->objectName()));
        }
        window().resize(1600, 1000);
    }

    // A projector or a small laptop screen (the offscreen screen here is 800x600): the window
    // opens as small as it can be, fits 1024 px, the outcome counts shrink to numbers beside their
    // markers (their names in tooltips), the storage's final value gives way first, and the lanes
    // come before the chart and the event log.
    void aSmallScreenGetsAWindowThatFits()
    {
        const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
        QVERIFY(screen.width() < 1100 && screen.height() < 900); // the case under test
        // 800 px is narrower than the window can be; 1024 px (the narrowest projector) is not
        const int narrowest = window().minimumSizeHint().width();
        QVERIFY2(narrowest <= 1000, qPrintable(QString::number(narrowest)));
        QVERIFY(window().width() <= std::max(screen.width(), narrowest));
        QVERIFY(window().height() <= screen.height());
        // the timeline gets more height than the chart
        auto *chart = window().findChild<TokenChart *>();
        QVERIFY(chart);
        QVERIFY(part<TimelineView>(window())->parentWidget()->height() > chart->height());
        SummaryStrip *strip = part<SummaryStrip>(window());
        QVERIFY(strip->isCompact());
        // on a desktop monitor, or resized, it follows the width
        window().resize(1600, 1000);
        QTRY_VERIFY(!strip->isCompact());
        QVERIFY(strip->findChildren<QLabel *>().size() > 4);
        window().resize(window().minimumSizeHint());
        QTRY_VERIFY(strip->isCompact());
        QVERIFY(strip->text().contains(QStringLiteral("0 corrupted"))); // the words are kept
        for (QLabel *l : strip->findChildren<QLabel *>())
            QVERIFY2(l->text() != QStringLiteral("0 corrupted"), "a full count on a small screen");
    }

    // The strip's final values are core's answer (Core::StorageLevel) in the token source's own
    // form, as the Story says them: worked out from each preset's schedule by hand.
    void finalValuesSpeakTheStoragesGauge()
    {
        // ZooKeeper: B's znode after the failover is epoch 2, counter 4; A's late write is
        // rejected, so db keeps B's value and max_token is B's zxid
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("zookeeper-failover")));
        QString strip = part<SummaryStrip>(window())->text();
        QVERIFY2(strip.contains(QStringLiteral("db ends with 'B', max_token 0x2_00000004")),
                 qPrintable(strip));
        // compare-and-set: no token at the storage; B's write made version 1 and A's, still
        // expecting version 0, was rejected
        QVERIFY(
            part<FileController>(window())->openPreset(QStringLiteral("compare-and-set-version")));
        strip = part<SummaryStrip>(window())->text();
        QVERIFY2(strip.contains(QStringLiteral("objects ends with 'B', version 1")),
                 qPrintable(strip));
        QVERIFY2(!strip.contains(QStringLiteral("max_token")), qPrintable(strip));
    }

    // Opening a long run fits it to the window and selects its first rejection, which is near
    // the start: revealing it must not scroll half the screen into negative ticks.
    void openingALongRunKeepsTickZeroAtTheLeft()
    {
        TestSupport::RandomScenarioOptions o;
        o.minClients = o.maxClients = 4;
        o.minActions = o.maxActions = 3000;
        o.span = 40000;
        const Core::Scenario s = TestSupport::randomScenario(3, o);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.json"));
        QVERIFY(Core::ScenarioFile::save(s, path));
        QVERIFY(part<FileController>(window())->openFile(path));
        const ViewState *state = window().viewState();
        const Selection sel = state->selection();
        QVERIFY(sel.isValid()); // a rejection was found and selected
        const Core::Trace &t = window().document()->trace();
        const std::uint32_t e =
            Core::outcomeEvent(s, t, std::uint32_t(sel.client), std::uint32_t(sel.action));
        QVERIFY(e != Core::kNone);
        auto *view = qobject_cast<TimelineView *>(part<TimelineView>(window()));
        const TimeAxis axis = view->axis();
        const double last = axis.lastTickAt(view->width() - axis.left);
        // no further left than fitting leaves (a margin of 36 px before tick 0), whatever the
        // window's width (the offscreen screen is small: the window is too)
        QVERIFY2(state->firstTick() * state->pixelsPerTick() > -37,
                 qPrintable(QString::number(state->firstTick())));
        QVERIFY(double(t.events[e].tick) >= state->firstTick() && double(t.events[e].tick) <= last);
        QVERIFY(last > 0.9 * double(t.lastTick)); // still the whole run
    }

    void compareToggle()
    {
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
        QVERIFY(window().viewState()->compare());
        // the default scenario unfenced: B's write is overwritten once, counted in words
        QCOMPARE(part<SummaryStrip>(window())->verdictText(false),
                 QStringLiteral("Safety with fencing: ✔ held · without: ✖ violated (1 overwrite)"));
        // on the narrow offscreen screen, its short form: the window never grows for it
        QCOMPARE(part<SummaryStrip>(window())->verdict(),
                 QStringLiteral("Safety: fenced ✔ · unfenced ✖"));
        // both runs are explained for the selected write
        QVERIFY(part<NarrationPanel>(window())->explanation().startsWith(
            QStringLiteral("With fencing:")));
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
        QVERIFY(!window().viewState()->compare());
    }

    // Simulation > Compare with > a token source: compare mode shows the same schedule under
    // the scenario's own source over that one (fencing as the scenario has it), and every view
    // names the two runs by their sources. Worked by hand on the default scenario: with counter
    // tokens B writes with 2 (accepted) and A's stale write with 1 is rejected; with `none`
    // there is no token, so a fencing storage rejects both writes (docs/SCENARIO.md section 9): A's
    // stale one, and B's, the live holder's, which is locked out.
    void compareWithAnotherTokenSource()
    {
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("default")));
        window().viewState()->clearSelection();
        auto *none = window().findChild<QAction *>(QStringLiteral("compareWith-none"));
        auto *fencingOff = window().findChild<QAction *>(QStringLiteral("compareWith-fencing"));
        QVERIFY(none && fencingOff);
        QVERIFY(fencingOff->isChecked());
        none->trigger();
        QVERIFY(window().viewState()->compare());
        QVERIFY(window().viewState()->compareSource() == Core::TokenSource::None);
        QVERIFY(none->isChecked() && !fencingOff->isChecked());
        auto *compare = window().findChild<QAction *>(QStringLiteral("compare"));
        QCOMPARE(compare->text(), QStringLiteral("&Compare counter / none tokens"));

        const Core::Trace &own = window().document()->trace();
        QCOMPARE(own.summary.accepted, 1u);
        QCOMPARE(own.summary.rejected, 1u);
        const Core::Trace &other = window().document()->traceWithSource(Core::TokenSource::None);
        QCOMPARE(other.summary.accepted, 0u);
        QCOMPARE(other.summary.rejected, 1u);
        QCOMPARE(other.summary.lockedOut, 1u);
        QVERIFY(other.fencing);

        const QString strip = part<SummaryStrip>(window())->text();
        QCOMPARE(part<SummaryStrip>(window())->verdictText(false),
                 QStringLiteral("Safety with counter tokens: ✔ held · with none tokens: ✔ held"));
        // (the narrow offscreen screen: the short form, each run named)
        QVERIFY2(strip.contains(QStringLiteral("Safety: counter tokens ✔ · none tokens ✔")),
                 qPrintable(strip));
        QVERIFY2(strip.contains(QStringLiteral("counter tokens run (top), fencing ON")),
                 qPrintable(strip));
        const QString story = part<NarrationPanel>(window())->explanation();
        const Core::Scenario noneScenario =
            window().document()->scenarioWithSource(Core::TokenSource::None);
        QVERIFY2(story.contains(QStringLiteral("With counter tokens: ") +
                                Core::summarize(window().document()->scenario(), own)),
                 qPrintable(story));
        QVERIFY2(story.contains(QStringLiteral("With none tokens: ") +
                                Core::summarize(noneScenario, other)),
                 qPrintable(story));
        QVERIFY(!story.contains(QStringLiteral("Without fencing")));

        // C leaves compare mode and brings it back against the same source
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
        QVERIFY(!window().viewState()->compare());
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
        QVERIFY(window().viewState()->compareSource() == Core::TokenSource::None);
        fencingOff->trigger();
        QVERIFY(!window().viewState()->compareSource());
        QCOMPARE(compare->text(), QStringLiteral("&Compare fenced / unfenced"));
        QVERIFY(part<SummaryStrip>(window())->verdictText(false).startsWith(
            QStringLiteral("Safety with fencing:")));
        // the badge names the runs fenced and unfenced, in the longest of its forms that fits
        // (the shorter fencing badge leaves it more room than the token sources' did)
        const SummaryStrip *summary = part<SummaryStrip>(window());
        QVERIFY2(summary->verdictForms().contains(summary->verdict()) &&
                     (summary->verdict().startsWith(QStringLiteral("Safety with fencing:")) ||
                      summary->verdict().startsWith(QStringLiteral("Safety: fenced"))),
                 qPrintable(summary->verdict()));
        QVERIFY(summary->text().contains(summary->verdict()));
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
        QVERIFY(!window().viewState()->compare());
    }

    // On a small screen the inspector below leaves the story little height: a selection's
    // explanation scrolls into view (its first line at least), as on the 1280x800 projector.
    void selectedExplanationScrollsIntoView()
    {
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("default")));
        for (const QSize size : {QSize(1280, 800), QSize(1024, 768)}) {
            window().resize(size);
            window().viewState()->clearSelection();
            QTest::qWait(30);
            auto *story = window().findChild<QDockWidget *>(QStringLiteral("storyDock"));
            auto *scroll = qobject_cast<QScrollArea *>(story->widget());
            QVERIFY(scroll);
            scroll->verticalScrollBar()->setValue(0);
            window().viewState()->setSelection({0, 2}); // A's stale write
            QTest::qWait(30);
            QWidget *text = part<NarrationPanel>(window())->selectedExplanation();
            QVERIFY(
                part<NarrationPanel>(window())->explanation().contains(QStringLiteral("rejected")));
            const QRect inViewport(text->mapTo(scroll->viewport(), QPoint(0, 0)), text->size());
            const QRect viewport = scroll->viewport()->rect();
            // the whole explanation, or when it is taller than the story, its top part
            QVERIFY2(viewport.contains(inViewport.topLeft()) &&
                         (viewport.contains(inViewport.bottomLeft()) ||
                          inViewport.height() > viewport.height()),
                     qPrintable(QStringLiteral("%1x%2: explanation at %3..%4, story shows 0..%5")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(inViewport.top())
                                    .arg(inViewport.bottom())
                                    .arg(viewport.bottom())));
        }
    }

    void compareModeShowsEveryLaneAt1600x1000()
    {
        window().resize(1600, 1000);
        QTest::qWait(20);
        auto *log = window().findChild<QDockWidget *>(QStringLiteral("eventLogDock"));
        QVERIFY(log->isVisible());
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
        QTest::qWait(20);
        QScrollArea *scroll = part<QScrollArea>(window(), QStringLiteral("timelineScroll"));
        auto *view = static_cast<TimelineView *>(part<TimelineView>(window()));
        const TimelineLayout l = view->currentLayout();
        QCOMPARE(l.panels.size(), std::size_t(2));
        // the unfenced storage lane ends inside the visible part of the timeline: no scrolling
        const double bottom = l.panels.back().storages.back().lane.bottom();
        QVERIFY2(
            bottom <= scroll->viewport()->height(),
            qPrintable(QStringLiteral("%1 > %2").arg(bottom).arg(scroll->viewport()->height())));
        QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        // B never pauses: no empty pause row for it while comparing
        QCOMPARE(l.panels.front().clients[1].pauses.height(), 0.0);
        QVERIFY(l.panels.front().clients[0].pauses.height() > 0);
        QVERIFY(!log->isVisible()); // the event log stepped aside...
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
        QVERIFY(log->isVisible()); // ...and is back
        QVERIFY(view->currentLayout().panels.front().clients[1].pauses.height() > 0);
    }

    void aTallerTimelineScrolls()
    {
        window().resize(1600, 1000);
        for (int i = 0; i < 6; ++i)
            window().findChild<QAction *>(QStringLiteral("addClient"))->trigger();
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
        QTest::qWait(20);
        QScrollArea *scroll = part<QScrollArea>(window(), QStringLiteral("timelineScroll"));
        auto *view = static_cast<TimelineView *>(part<TimelineView>(window()));
        // every lane at full height, reachable with the vertical scroll bar
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
        QVERIFY(view->height() >= view->currentLayout().panels.back().rect.bottom());
        QTest::keyClick(window().windowHandle(), Qt::Key_C);
    }

    // The storage lane is where the outcome is: in the lecture-hall theme at 1024x768 with
    // four clients the lanes do not fit, and the lock and storage lanes stay at the bottom of
    // what shows, over the client lanes, which scroll under them.
    void storageLaneStaysVisibleWhenLanesDoNotFit()
    {
        window().setThemeByName(QStringLiteral("contrast"));
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("three-owners")));
        window().findChild<QAction *>(QStringLiteral("addClient"))->trigger();
        window().resize(1024, 768);
        QTest::qWait(50);
        QScrollArea *scroll = part<QScrollArea>(window(), QStringLiteral("timelineScroll"));
        auto *view = static_cast<TimelineView *>(part<TimelineView>(window()));
        QVERIFY2(scroll->verticalScrollBar()->maximum() > 0, "the lanes fit: nothing to test");
        const int n = int(window().document()->scenario().clients.size());
        for (int value : {0, scroll->verticalScrollBar()->maximum() / 2}) {
            scroll->verticalScrollBar()->setValue(value);
            QTest::qWait(20);
            const QRect visible = view->visibleRegion().boundingRect();
            const TimelineLayout layout = view->currentLayout();
            const TimelinePanel &panel = layout.panels.back();
            QVERIFY(panel.isPinned());
            const QRectF storage = panel.storages.back().lane;
            QVERIFY2(visible.contains(storage.toAlignedRect().adjusted(0, 0, 0, -1)),
                     qPrintable(QStringLiteral("storage lane %1..%2, visible %3..%4")
                                    .arg(storage.top())
                                    .arg(storage.bottom())
                                    .arg(visible.top())
                                    .arg(visible.bottom())));
            QVERIFY(panel.lock.top() >= visible.top());
            // a click there is on the storage lane, not on the client lane scrolled under it
            const QPointF onStorage(storage.left() + 5, storage.center().y());
            const TimelineRenderer::Hit hit = view->renderer().hitTest(
                window().document()->scenario(), window().document()->trace(), view->axis(),
                QRectF(view->rect()), view->options(), onStorage);
            QCOMPARE(hit.lane, n + 1);
            // and the storage lane is painted there: its header's stripe and words, as in a
            // picture of every lane at full height (compared loosely: the y offset is not whole)
            const QImage shown = view->grab(visible).toImage();
            TimelineView tall(window().document(), window().viewState());
            tall.setTheme(Theme::byName(QStringLiteral("contrast")));
            tall.resize(view->width(), view->height());
            const QImage full = tall.grab().toImage();
            const TimelineLayout tallLayout = tall.currentLayout();
            const TimelinePanel &natural = tallLayout.panels.back();
            QVERIFY(!natural.isPinned());
            const int h = int(storage.height()) - 4;
            const QRect header(2, 0, int(panel.storages.back().header.width()) - 4, h);
            const QImage pinnedHeader =
                shown.copy(header.translated(0, int(std::ceil(storage.top())) + 2 - visible.top()));
            const QImage naturalHeader = full.copy(
                header.translated(0, int(std::ceil(natural.storages.back().lane.top())) + 2));
            const QImage clientHeader =
                full.copy(header.translated(0, int(std::ceil(storage.top())) + 2));
            const auto differing = [](const QImage &a, const QImage &b) {
                int count = 0;
                for (int y = 0; y < a.height(); ++y)
                    for (int x = 0; x < a.width(); ++x) {
                        const QColor p = a.pixelColor(x, y), q = b.pixelColor(x, y);
                        if (std::abs(p.red() - q.red()) + std::abs(p.green() - q.green()) +
                                std::abs(p.blue() - q.blue()) >
                            90)
                            ++count;
                    }
                return double(count) / (a.width() * a.height());
            };
            QVERIFY2(differing(pinnedHeader, naturalHeader) < 0.03,
                     qPrintable(QString::number(differing(pinnedHeader, naturalHeader))));
            QVERIFY2(differing(pinnedHeader, clientHeader) > 0.03, "the test cannot tell");
        }
    }

    // Ctrl+K shows the Explore dock (sweeps, find and shrink) next to the event log; the
    // panels get the open scenario; a schedule they open replaces it, untitled.
    void ctrlKOpensExploreAndItsSchedulesOpen()
    {
        auto *dock = window().findChild<QDockWidget *>(QStringLiteral("exploreDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isVisible());
        QTest::keyClick(window().windowHandle(), Qt::Key_K, Qt::ControlModifier);
        QVERIFY(dock->isVisible());
        auto *sweep = window().findChild<SweepPanel *>();
        QVERIFY(sweep && sweep->isVisible());
        Core::Scenario shrunk = window().document()->scenario();
        shrunk.clients.resize(1);
        shrunk.description = QStringLiteral("found by seed 7");
        emit sweep->openScenario(shrunk, shrunk.description);
        QCOMPARE(window().document()->scenario(), shrunk);
        QVERIFY(window().document()->filePath().isEmpty());
        QVERIFY(!window().document()->isModified());
        QTest::keyClick(window().windowHandle(), Qt::Key_K, Qt::ControlModifier);
        QVERIFY(!dock->isVisible());
    }

    void themeIsRemembered()
    {
        window().findChild<QAction *>(QStringLiteral("theme-dark"))->trigger();
        QCOMPARE(part<TimelineView>(window())->theme().name, QStringLiteral("dark"));
        MainWindow other;
        QCOMPARE(part<TimelineView>(other)->theme().name, QStringLiteral("dark"));
        window().setThemeByName(QStringLiteral("light"));
    }

    // With no theme chosen yet, the first run follows the desktop: a dark window palette gets
    // the dark theme, a light one the light theme.
    void firstRunFollowsTheDesktopScheme()
    {
        QSettings().remove(QStringLiteral("theme"));
        const QPalette before = QApplication::palette();
        QPalette dark = before;
        dark.setColor(QPalette::Window, QColor(0x202124));
        dark.setColor(QPalette::WindowText, QColor(0xe8eaed));
        QApplication::setPalette(dark);
        {
            MainWindow other;
            QCOMPARE(part<TimelineView>(other)->theme().name, QStringLiteral("dark"));
        }
        QPalette light = before;
        light.setColor(QPalette::Window, QColor(0xf0f0f0));
        QApplication::setPalette(light);
        {
            MainWindow other;
            QCOMPARE(part<TimelineView>(other)->theme().name, QStringLiteral("light"));
        }
        QApplication::setPalette(before);
        QSettings().remove(QStringLiteral("theme"));
    }

    // Help > Quick tour opens the guide over the window; Esc closes it and it stays closed.
    void helpQuickTourStartsAndEscEndsIt()
    {
        QVERIFY(!window().findChild<QuickTour *>());
        window().findChild<QAction *>(QStringLiteral("tour"))->trigger();
        QVERIFY(window().findChild<QuickTour *>());
        QVERIFY(window().findChild<QuickTour *>()->isVisible());
        QTest::keyClick(window().windowHandle(), Qt::Key_Escape);
        QTRY_VERIFY(!window().findChild<QuickTour *>() ||
                    !window().findChild<QuickTour *>()->isVisible());
        QVERIFY(!QuickTour::shouldShowOnFirstRun());
        QSettings().remove(QStringLiteral("tour"));
        QVERIFY(window().findChild<QAction *>(QStringLiteral("about")));
    }

    // Closing the window keeps its size and its docks for the next start.
    void geometryAndDocksComeBack()
    {
        window().resize(1100, 700);
        auto *log = window().findChild<QDockWidget *>(QStringLiteral("eventLogDock"));
        log->hide();
        QTest::qWait(20);
        const QSize size = window().size();
        QVERIFY(window().close());
        {
            MainWindow next;
            scriptDialogs(next);
            next.show();
            QVERIFY(QTest::qWaitForWindowExposed(&next));
            QCOMPARE(next.size(), size);
            QVERIFY(!next.findChild<QDockWidget *>(QStringLiteral("eventLogDock"))->isVisible());
            QVERIFY(next.findChild<QDockWidget *>(QStringLiteral("storyDock"))->isVisible());
        }
        QSettings().remove(QStringLiteral("window"));
    }

    // The window renders offscreen in each mode (kept for the README with
    // FENCESCOPE_SCREENSHOT_DIR).
    void screenshots()
    {
        // renders every time (a real offscreen render must succeed); the files are kept in
        // FENCESCOPE_SCREENSHOT_DIR when it is set, e.g. to refresh docs/screenshots
        QTemporaryDir scratch;
        const QString dir = qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOT_DIR")
                                ? scratch.path()
                                : qEnvironmentVariable("FENCESCOPE_SCREENSHOT_DIR");
        window().resize(1600, 1000);
        QTest::qWait(50);
        window().findChild<QAction *>(QStringLiteral("fit"))->trigger();
        QTest::qWait(50);
        QVERIFY(window().grab().save(dir + QStringLiteral("/main-window.png")));
        window().viewState()->setCompare(true);
        window().findChild<QAction *>(QStringLiteral("fit"))->trigger();
        QTest::qWait(50);
        QVERIFY(window().grab().save(dir + QStringLiteral("/main-window-compare.png")));
        window().viewState()->setCompare(false);
        window().setThemeByName(QStringLiteral("dark"));
        window().viewState()->setPlayhead(13);
        QTest::qWait(50);
        QVERIFY(window().grab().save(dir + QStringLiteral("/main-window-dark.png")));
        window().setThemeByName(QStringLiteral("light"));
    }
};

QTEST_MAIN(TestMainWindowViews)
#include "tst_mainwindow_views.moc"
