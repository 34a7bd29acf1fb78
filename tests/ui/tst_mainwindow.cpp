// The real MainWindow, driven offscreen with QTest: keyboard shortcuts, undo, files, presets,
// playback and the selection shared by the event log and the timeline. Dialogs never block:
// the window answers with scripted dialogs (scripteddialogs.h). What the window shows on a
// screen of a size, compare mode, the docks, themes and the tour are tst_mainwindow_views's.

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

class TestMainWindow : public QObject
{
    Q_OBJECT

    WindowFixture m_window{WindowFixture::Options().failingOnAmbiguousShortcuts()};

    MainWindow &window() { return *m_window; }

private slots:
    void initTestCase() { WindowFixture::useOwnSettings("tst_mainwindow"); }

    void init() { QVERIFY(m_window.open()); }
    void cleanup() { m_window.close(); }

    void startsOnTheDefaultScenarioWithTheRejectionExplained()
    {
        QCOMPARE(window().document()->scenario(), Core::ScenarioFile::defaultScenario());
        // the most telling outcome is selected: A's rejected write (client 0, action 2)
        QCOMPARE(window().viewState()->selection(), (Selection{0, 2}));
        QVERIFY(part<NarrationPanel>(window())->explanation().contains(
            QStringLiteral("had already accepted token 2 from B at t=13")));
        QVERIFY(part<SummaryStrip>(window())->verdict().contains(QStringLiteral("Safety held")));
        QVERIFY(window().windowTitle().contains(window().document()->scenario().title));
    }

    // No key is bound twice: Qt calls a doubly bound key "ambiguous" and does nothing with it
    // (Ctrl+Shift+Z once did nothing: it was set by hand and again through QKeySequence::Redo).
    void everyShortcutIsBoundOnce()
    {
        QHash<QKeySequence, QString> seen;
        for (QAction *a : window().findChildren<QAction *>()) {
            if (a->shortcutContext() == Qt::WidgetShortcut)
                continue;
            for (const QKeySequence &k : a->shortcuts()) {
                QVERIFY2(!seen.contains(k),
                         qPrintable(QStringLiteral("%1 is bound to %2 and %3")
                                        .arg(k.toString(), seen.value(k), a->objectName())));
                seen.insert(k, a->objectName());
            }
        }
        QCOMPARE(seen.value(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)),
                 QStringLiteral("redo"));
        QCOMPARE(seen.value(QKeySequence(Qt::CTRL | Qt::Key_Z)), QStringLiteral("undo"));
    }

    void pressFTogglesFencingAndCtrlZUndoesIt()
    {
        QCOMPARE(window().document()->trace().summary.corrupted, 0u);
        QTest::keyClick(window().windowHandle(), Qt::Key_F);
        QVERIFY(!window().document()->scenario().fencing);
        QCOMPARE(window().document()->trace().summary.corrupted, 1u);
        QVERIFY(part<SummaryStrip>(window())->text().contains(QStringLiteral("1 corrupted")));
        QVERIFY(part<SummaryStrip>(window())->verdictText(false).contains(
            QStringLiteral("Safety violated: 1 write overwrote newer data")));
        // the offscreen screen is narrow: the badge says it short, never cut
        QCOMPARE(part<SummaryStrip>(window())->verdict(), QStringLiteral("✖ Safety violated"));
        // the default is a built-in scenario: the switch alone is nothing to save
        QVERIFY(!window().isWindowModified());
        // the narration follows: A's write is now a corruption
        QVERIFY(part<NarrationPanel>(window())->explanation().contains(
            QStringLiteral("silently overwrote 'B'")));

        QTest::keyClick(window().windowHandle(), Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(window().document()->scenario().fencing);
        QCOMPARE(window().document()->trace().summary.corrupted, 0u);
        QVERIFY(part<SummaryStrip>(window())->text().contains(QStringLiteral("0 corrupted")));
        QVERIFY(!window().isWindowModified());

        QTest::keyClick(window().windowHandle(), Qt::Key_Z,
                        Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(!window().document()->scenario().fencing);
    }

    void ruleSelectorLocksOutTheHolder()
    {
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("renewal-keeps-token")));
        QCOMPARE(window().document()->trace().summary.lockedOut, 0u);
        auto *le = window().findChild<QAction *>(QStringLiteral("ruleLe"));
        QVERIFY(le);
        le->trigger();
        QVERIFY(window().document()->scenario().storages[0].rule == Core::FenceRule::Le);
        QVERIFY(window().document()->trace().summary.lockedOut > 0);
        window().document()->undoStack()->undo();
        QVERIFY(window().document()->scenario().storages[0].rule == Core::FenceRule::Lt);
    }

    // Simulation > Token source: the same schedule with tokens from another source, the other
    // source's options dropped so the file still loads, one undo step back.
    void tokenSourceMenuSwitchesTheSource()
    {
        QVERIFY(part<FileController>(window())->openPreset(
            QStringLiteral("kleppmann-gc-pause"))); // counter from 33
        QCOMPARE(window().document()->scenario().lock.first, Core::Token(33));
        QCOMPARE(window().document()->trace().grants.front().token, Core::Token(33));
        auto *etcd = window().findChild<QAction *>(QStringLiteral("tokens-etcd"));
        QVERIFY(etcd);
        QVERIFY(!etcd->isChecked());
        QVERIFY(window().findChild<QAction *>(QStringLiteral("tokens-counter"))->isChecked());
        etcd->trigger();
        QVERIFY(window().document()->scenario().tokens == Core::TokenSource::Etcd);
        QVERIFY(etcd->isChecked());
        QCOMPARE(window().document()->scenario().lock.first,
                 Core::Token(1)); // counter's option is gone
        // etcd: the store starts at revision 1, A's grant creates the lock key at revision 2
        QCOMPARE(window().document()->trace().grants.front().token, Core::Token(2));
        QVERIFY(window().document()->trace().tokens == Core::TokenSource::Etcd);
        // what is saved loads back as it is
        const QByteArray saved = Core::ScenarioFile::serialize(window().document()->scenario());
        const Core::LoadResult again = Core::ScenarioFile::parse(saved);
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(*again.scenario, window().document()->scenario());
        window().document()->undoStack()->undo();
        QVERIFY(window().document()->scenario().tokens == Core::TokenSource::Counter);
        QCOMPARE(window().document()->scenario().lock.first, Core::Token(33));
        QVERIFY(window().findChild<QAction *>(QStringLiteral("tokens-counter"))->isChecked());
    }

    void brokenFileKeepsTheCurrentScenario()
    {
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("three-owners")));
        const Core::Scenario before = window().document()->scenario();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"fencescope": 1, "clients": [ { "name": "A", "actions": [ { "at": 0, "do": "acquire", "ttl": 0 } ] } ] })");
        f.close();

        scripted(window()).setNextPath(path);
        QAction *open = window().findChild<QAction *>(QStringLiteral("open"));
        QVERIFY(open);
        open->trigger();
        QCOMPARE(window().document()->scenario(), before);
        QVERIFY2(
            scripted(window()).lastError().contains(QStringLiteral("clients[0].actions[0].ttl")),
            qPrintable(scripted(window()).lastError()));
        QVERIFY(window().document()->filePath().isEmpty());
    }

    void openAtStartWithABrokenFileLeavesTheDefault()
    {
        MainWindow w;
        scriptDialogs(w);
        w.openAtStart(QStringLiteral("/nonexistent/dir/missing.json"));
        QCOMPARE(w.document()->scenario(), Core::ScenarioFile::defaultScenario());
        QVERIFY(!scripted(w).lastError().isEmpty());
        QVERIFY(scripted(w).lastError().contains(QStringLiteral("missing.json")));
    }

    void openAtStartWithAGoodFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("three.json"));
        Core::Scenario s = Core::ScenarioFile::load(QStringLiteral(":/scenarios/three-owners.json"))
                               .scenario.value();
        QVERIFY(Core::ScenarioFile::save(s, path));
        MainWindow w;
        scriptDialogs(w);
        w.openAtStart(path);
        QCOMPARE(w.document()->scenario(), s);
        QCOMPARE(w.document()->filePath(), path);
        QVERIFY(w.windowTitle().contains(QStringLiteral("three.json")));
    }

    void leftAndRightStepThroughEventTicks()
    {
        const Core::Trace &t = window().document()->trace();
        std::vector<Core::Tick> ticks;
        for (const Core::Event &e : t.events)
            if (ticks.empty() || ticks.back() != e.tick)
                ticks.push_back(e.tick);
        QVERIFY(ticks.size() >= 5); // 0, 1, 5, 12, 13, 30
        QVERIFY(!window().viewState()->hasPlayhead());
        for (const Core::Tick expected : ticks) {
            QTest::keyClick(window().windowHandle(), Qt::Key_Right);
            QCOMPARE(window().viewState()->playhead(), expected);
        }
        QTest::keyClick(window().windowHandle(), Qt::Key_Right); // nothing after the last: stays
        QCOMPARE(window().viewState()->playhead(), ticks.back());
        for (auto it = ticks.rbegin() + 1; it != ticks.rend(); ++it) {
            QTest::keyClick(window().windowHandle(), Qt::Key_Left);
            QCOMPARE(window().viewState()->playhead(), *it);
        }
        QTest::keyClick(window().windowHandle(), Qt::Key_Left);
        QCOMPARE(window().viewState()->playhead(), ticks.front());
        // the narration shows the state at the playhead
        QVERIFY(part<NarrationPanel>(window())->stateText().contains(
            QStringLiteral("held by A with token 1")));
    }

    void spaceStartsAndStopsPlayback()
    {
        QVERIFY(!part<Playback>(window())->isPlaying());
        QTest::keyClick(window().windowHandle(), Qt::Key_Space);
        QVERIFY(part<Playback>(window())->isPlaying());
        QVERIFY(window().viewState()->hasPlayhead());
        QCOMPARE(window().viewState()->playhead(), Core::Tick(0));
        // it moves on by itself at the chosen speed
        QTRY_VERIFY_WITH_TIMEOUT(window().viewState()->playhead() > 0, 3000);
        QTest::keyClick(window().windowHandle(), Qt::Key_Space);
        QVERIFY(!part<Playback>(window())->isPlaying());
        const Core::Tick stopped = window().viewState()->playhead();
        QTest::qWait(400);
        QCOMPARE(window().viewState()->playhead(), stopped);
    }

    void eventLogAndSelectionStayInSync()
    {
        QTableView *log = part<QTableView>(window(), QStringLiteral("eventLog"));
        EventLogModel *model = part<EventLogModel>(window());
        // a row -> the ViewState selection: the refusal of B (client 1, action 0)
        int refusal = -1;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, EventLogModel::EventColumn).data().toString() ==
                QStringLiteral("refused"))
                refusal = r;
        QVERIFY(refusal >= 0);
        log->selectionModel()->setCurrentIndex(model->index(refusal, 0),
                                               QItemSelectionModel::ClearAndSelect |
                                                   QItemSelectionModel::Rows);
        QCOMPARE(window().viewState()->selection(), (Selection{1, 0}));
        QVERIFY(part<NarrationPanel>(window())->explanation().contains(
            QStringLiteral("B asked for the lock but was refused")));

        // the selection (e.g. a click on the timeline) -> the row of the action's outcome
        window().viewState()->setSelection({1, 2}); // B's write: its arrival row
        const std::uint32_t e =
            Core::outcomeEvent(window().document()->scenario(), window().document()->trace(), 1, 2);
        QCOMPARE(log->currentIndex().row(), EventLogModel::rowOfEvent(e));
        QVERIFY(log->selectionModel()->isRowSelected(int(e), {}));

        window().viewState()->clearSelection();
        QVERIFY(!log->selectionModel()->hasSelection());
    }

    void deleteRemovesTheSelectedAction()
    {
        window().viewState()->setSelection({0, 1}); // A's pause
        const std::size_t before = window().document()->scenario().clients[0].actions.size();
        QTest::keyClick(window().windowHandle(), Qt::Key_Delete);
        QCOMPARE(window().document()->scenario().clients[0].actions.size(), before - 1);
        // the trace follows: no pause any more
        for (const Core::Event &e : window().document()->trace().events)
            QVERIFY(e.kind != Core::EventKind::PauseStart);
        QVERIFY(!window().viewState()->selection().isValid());
        window().document()->undoStack()->undo();
        QCOMPARE(window().document()->scenario(), Core::ScenarioFile::defaultScenario());
    }

    // The status bar never describes what is gone: hovering A's pause names it; deleting the
    // pause puts the hint back, and the hint follows the fencing switch.
    void statusBarDoesNotGoStale()
    {
        auto *view = static_cast<TimelineView *>(part<TimelineView>(window()));
        const TimelineLayout layout = view->currentLayout();
        const QRectF pauses = layout.panels.front().clients[0].pauses;
        const QPoint onPause(int(view->axis().tickToX(15)), int(pauses.center().y()));
        window().viewState()->setSelection({0, 1}); // A's pause
        QTest::mouseMove(window().windowHandle(), view->mapTo(&window(), onPause));
        QTRY_VERIFY2(window().statusBar()->currentMessage().contains(QStringLiteral("pause")),
                     qPrintable(window().statusBar()->currentMessage()));
        const QString hover = window().statusBar()->currentMessage();
        QTest::keyClick(window().windowHandle(), Qt::Key_Delete);
        QVERIFY(window().statusBar()->currentMessage() != hover);
        QVERIFY(
            window().statusBar()->currentMessage().contains(QStringLiteral("switch fencing off")));
        QTest::keyClick(window().windowHandle(), Qt::Key_F);
        QVERIFY2(
            window().statusBar()->currentMessage().contains(QStringLiteral("switch fencing on")),
            qPrintable(window().statusBar()->currentMessage()));
        QTest::keyClick(window().windowHandle(), Qt::Key_F);
        QVERIFY(
            window().statusBar()->currentMessage().contains(QStringLiteral("switch fencing off")));
    }

    void addActionsAtThePlayhead()
    {
        window().viewState()->setSelection({1, 0});
        window().viewState()->setPlayhead(20);
        window().findChild<QAction *>(QStringLiteral("addPause"))->trigger();
        const Core::Client &b = window().document()->scenario().clients[1];
        QCOMPARE(b.actions.size(), size_t(4));
        const Selection sel = window().viewState()->selection();
        QCOMPARE(sel.client, 1);
        QVERIFY(b.actions[size_t(sel.action)].kind == Core::ActionKind::Pause);
        QCOMPARE(b.actions[size_t(sel.action)].at, Core::Tick(20));
        window().findChild<QAction *>(QStringLiteral("addClient"))->trigger();
        QCOMPARE(window().document()->scenario().clients.size(), size_t(3));
        QCOMPARE(window().document()->scenario().clients[2].name, QStringLiteral("C"));
    }

    void saveWritesAFileThatLoadsBackEqual()
    {
        QTest::keyClick(window().windowHandle(),
                        Qt::Key_F); // an edit, so there is something to save
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("saved.json"));
        scripted(window()).setNextPath(path);
        QTest::keyClick(window().windowHandle(), Qt::Key_S,
                        Qt::ControlModifier); // no path yet: asks
        QVERIFY(QFile::exists(path));
        const Core::LoadResult r = Core::ScenarioFile::load(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(*r.scenario, window().document()->scenario());
        QCOMPARE(window().document()->filePath(), path);
        QVERIFY(!window().isWindowModified());
        QVERIFY(window().windowTitle().contains(QStringLiteral("saved.json")));
        // recent files remember it
        QVERIFY(QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(path));
    }

    // F flipped during a demo: switching to the next built-in scenario does not ask to save;
    // a real edit does, and so does F in a file of the user's own (the file saves the switch).
    void fencingSwitchAloneIsNotAnUnsavedChange()
    {
        scripted(window()).setUnsavedAnswer(
            QMessageBox::Cancel); // were it asked, nothing would switch
        for (const QString &name : Core::ScenarioFile::builtinNames()) {
            QVERIFY(part<FileController>(window())->openPreset(name));
            QTest::keyClick(window().windowHandle(), Qt::Key_F);
            QVERIFY(!window().document()->isModified());
            QVERIFY(!window().isWindowModified());
            QTest::keyClick(window().windowHandle(), Qt::Key_F); // and back
            QTest::keyClick(window().windowHandle(), Qt::Key_F);
        }
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("default")));
        QVERIFY(scripted(window()).lastQuestion().isEmpty());
        QCOMPARE(window().document()->scenario(), Core::ScenarioFile::defaultScenario());

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lecture.json"));
        QVERIFY(Core::ScenarioFile::save(Core::ScenarioFile::defaultScenario(), path));
        QVERIFY(part<FileController>(window())->openFile(path));
        QTest::keyClick(window().windowHandle(), Qt::Key_F);
        QVERIFY(window().document()->isModified());
        QTest::keyClick(window().windowHandle(), Qt::Key_F);
        QVERIFY(!window().document()->isModified()); // back where it was saved
        window().document()->markSaved();
    }

    void unsavedChangesPrompt()
    {
        QTest::keyClick(window().windowHandle(), Qt::Key_F);
        window().document()->undoStack()->push(
            EditCommands::setHorizon(window().document(), Core::Tick(50)));
        QVERIFY(window().document()->isModified());
        // Cancel keeps everything
        scripted(window()).setUnsavedAnswer(QMessageBox::Cancel);
        window().newScenario();
        QVERIFY(!window().document()->scenario().fencing);
        // Discard replaces it
        scripted(window()).setUnsavedAnswer(QMessageBox::Discard);
        window().newScenario();
        QVERIFY(window().document()->scenario().fencing);
        QVERIFY(!window().document()->isModified());
    }

    void presetsMenuLoadsEachPreset()
    {
        const QStringList names = Core::ScenarioFile::builtinNames();
        QVERIFY(names.size() >= 5);
        for (const QString &name : names) {
            auto *a = window().findChild<QAction *>(QStringLiteral("preset-") + name);
            QVERIFY2(a, qPrintable(name));
            a->trigger();
            const Core::Scenario expected =
                Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name)).scenario.value();
            QCOMPARE(window().document()->scenario(), expected);
            QCOMPARE(a->text(), expected.title);
            QVERIFY(!window().document()->isModified());
        }
    }

    // Counts in the verdict read as English: one lock-out, two lock-outs, never "lock-out(s)".
    void verdictsCountInWords()
    {
        Core::Summary m;
        QCOMPARE(SummaryStrip::verdictOf(m), QStringLiteral("✔ Safety held"));
        m.lockedOut = 1;
        QCOMPARE(SummaryStrip::verdictOf(m), QStringLiteral("✔ Safety held · 1 lock-out"));
        m.lockedOut = 2;
        QCOMPARE(SummaryStrip::verdictOf(m), QStringLiteral("✔ Safety held · 2 lock-outs"));
        m.partial = 1;
        QCOMPARE(SummaryStrip::verdictOf(m),
                 QStringLiteral("✖ Safety violated: 1 update half applied"));
        m.partial = 3;
        QCOMPARE(SummaryStrip::verdictOf(m),
                 QStringLiteral("✖ Safety violated: 3 updates half applied"));
        m.corrupted = 2;
        QCOMPARE(SummaryStrip::verdictOf(m),
                 QStringLiteral("✖ Safety violated: 2 writes overwrote newer data"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
