// Over 600 lines on purpose: one hand-worked case per rule or user path of the unit below, kept
// together so the rules read as one list; split, the shared fixtures would be copied.
// The timeline without a mouse: Tab and Shift+Tab through lanes and actions, arrow nudges as
// undo steps, Enter, Esc, Delete, Ctrl+Tab, the focus ring and what a screen reader is told.
// Every key goes through the window (QWindow), so shortcuts and ShortcutOverride take part as
// they do for a person.
// Over ~600 lines: one case per key and per part of the accessible tree, each a short story;
// splitting them would only spread one unit's tests over two files.
//
// The default scenario (docs/SCENARIO.md section 7):
//   A: [0] acquire at 0 ttl 10; [1] pause at 1 for 29 (frozen [1, 30)); [2] write 'A' at 2
//      (deferred to the thaw at 30, rejected: B holds token 2 by then).
//   B: [0] acquire at 5 (refused); [1] acquire at 12 ttl 10 (token 2); [2] write 'B' at 13.

#include "document/document.h"
#include "scenariofile.h"
#include "scripteddialogs.h"
#include "testprinters.h"
#include "views/lanedialogs.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAccessible>
#include <QApplication>
#include <QCursor>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtTest>

#include <memory>

namespace {

const Core::Write *writeOf(const Core::Trace &t, int client, int action)
{
    for (const Core::Write &w : t.writes)
        if (w.client == std::uint32_t(client) && w.action == std::uint32_t(action))
            return &w;
    return nullptr;
}

} // namespace

class TestTimelineKeyboard : public QObject
{
    Q_OBJECT

private:
    // A line edit, the timeline, a line edit: Tab has somewhere to come from and go to.
    struct Fixture
    {
        Document doc;
        ViewState state;
        QWidget window;
        QLineEdit *before = new QLineEdit(&window);
        TimelineView *view = new TimelineView(&doc, &state, &window);
        QLineEdit *after = new QLineEdit(&window);
        Fixture()
        {
            auto *box = new QVBoxLayout(&window);
            box->addWidget(before);
            box->addWidget(view);
            box->addWidget(after);
            window.resize(1000, view->sizeHint().height() + 120);
            window.show();
            window.activateWindow();
            if (!QTest::qWaitForWindowActive(&window))
                qFatal("window not active");
            state.setAxis(-2, 20);
            before->setFocus();
        }
        void key(Qt::Key k, Qt::KeyboardModifiers m = Qt::NoModifier)
        {
            QTest::keyClick(window.windowHandle(), k, m);
        }
        const Core::Action &action(int c, int i) const
        {
            return doc.scenario().clients[size_t(c)].actions[size_t(i)];
        }
        // Opens the focused item's menu with the Menu key through the window, triggers the
        // entry named `trigger` (none: nothing) and returns the entries; `at`: where it opened.
        QStringList openMenu(const QString &trigger, QPoint *at = nullptr)
        {
            QStringList texts;
            QTimer::singleShot(0, &window, [&] {
                auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
                if (!menu)
                    return;
                if (at)
                    *at = menu->pos();
                for (QAction *a : menu->actions())
                    if (!a->isSeparator())
                        texts << a->text();
                for (QAction *a : menu->actions())
                    if (a->text() == trigger)
                        a->trigger();
                menu->close();
            });
            QContextMenuEvent e(QContextMenuEvent::Keyboard, QPoint(), QCursor::pos());
            QCoreApplication::sendEvent(window.windowHandle(), &e);
            return texts;
        }
        void reactivate()
        {
            // offscreen, the window does not get the activation back from a closed menu by itself
            window.activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(&window));
            view->setFocus(Qt::OtherFocusReason);
        }
    };

    static void compareStop(FocusStop got, FocusStop want)
    {
        QCOMPARE(got.client, want.client);
        QCOMPARE(got.action, want.action);
        QCOMPARE(got.storage, want.storage);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_timelinekeyboard"));
        QSettings().clear();
    }

    void tabWalksLanesThenActionsThenLeaves()
    {
        Fixture f;
        // after the clients, the storage lane (the default scenario has one, db)
        const std::vector<FocusStop> order = {{0, -1}, {0, 0},  {0, 1},
                                              {0, 2},  {1, -1}, {1, 0},
                                              {1, 1},  {1, 2},  FocusStop::ofStorage(0)};
        for (std::size_t k = 0; k < order.size(); ++k) {
            f.key(Qt::Key_Tab);
            QVERIFY(f.view->hasFocus());
            compareStop(f.view->focusStop(), order[k]);
            // an action under the focus is the selection; a lane header selects nothing
            const Selection want =
                order[k].action >= 0 ? Selection{order[k].client, order[k].action} : Selection{};
            QCOMPARE(f.state.selection(), want);
        }
        f.key(Qt::Key_Tab); // past the last storage lane: on to the next widget
        QVERIFY(f.after->hasFocus());

        // Shift+Tab comes back in at the last stop and walks the same order backwards
        for (std::size_t k = order.size(); k-- > 0;) {
            f.key(Qt::Key_Tab, Qt::ShiftModifier);
            QVERIFY(f.view->hasFocus());
            compareStop(f.view->focusStop(), order[k]);
        }
        f.key(Qt::Key_Tab, Qt::ShiftModifier);
        QVERIFY(f.before->hasFocus());
    }

    void tabFollowsTimeNotListOrder()
    {
        Fixture f;
        Core::Scenario s = Core::ScenarioFile::defaultScenario();
        // dragged out of order: the write listed first happens last
        s.clients.resize(1);
        s.clients[0].actions = {Core::Action::write(20, QStringLiteral("x")),
                                Core::Action::acquire(0, 30), Core::Action::release(20)};
        f.doc.reset(s);
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {0, -1});
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {0, 1}); // acquire at 0
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {0, 0}); // write at 20, listed before the release
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {0, 2}); // release at 20
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), FocusStop::ofStorage(0)); // then the storage lane
        f.key(Qt::Key_Tab);
        QVERIFY(f.after->hasFocus());
    }

    void tabComesInOnTheSelectedAction()
    {
        Fixture f;
        f.state.setSelection({1, 1}); // picked elsewhere while the line edit has the focus
        f.key(Qt::Key_Tab);
        QVERIFY(f.view->hasFocus());
        compareStop(f.view->focusStop(), {1, 1});
        QCOMPARE(f.view->options().focusAction, 1); // ringed: the arrows are the timeline's
        f.key(Qt::Key_Right);
        QCOMPARE(f.action(1, 1).at, Core::Tick(13));
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {1, 2});
    }

    void ctrlTabLeavesAtOnce()
    {
        Fixture f;
        f.key(Qt::Key_Tab);
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {0, 0});
        f.key(Qt::Key_Tab, Qt::ControlModifier);
        QVERIFY(f.after->hasFocus());
        f.view->setFocus(Qt::OtherFocusReason);
        f.key(Qt::Key_Tab, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(f.before->hasFocus());
    }

    void arrowsNudgeAsOneUndoStep()
    {
        Fixture f;
        QUndoStack *undo = f.doc.undoStack();
        f.view->setFocus(Qt::OtherFocusReason);
        f.view->setFocusStop({0, 1}); // A's pause [1, 30)
        QCOMPARE(undo->count(), 0);

        f.key(Qt::Key_Right);
        f.key(Qt::Key_Right);
        f.key(Qt::Key_Right, Qt::ShiftModifier);
        f.doc.settle();
        QCOMPARE(f.action(0, 1).at, Core::Tick(13));     // 1 + 1 + 1 + 10
        QCOMPARE(f.action(0, 1).amount, Core::Tick(29)); // moved, not resized
        QCOMPARE(undo->count(), 1);                      // merged
        QCOMPARE(undo->text(0), QStringLiteral("Nudge pause"));
        // re-simulated: the pause [13, 42) now starts after A's write at 2, which goes out on
        // time inside A's lease [0, 10) with token 1 and is accepted
        QCOMPARE(writeOf(f.doc.trace(), 0, 2)->sentAt, Core::Tick(2));
        QCOMPARE_NAME(writeOf(f.doc.trace(), 0, 2)->result, Core::WriteResult::Accepted);

        f.key(Qt::Key_Left);
        f.doc.settle();
        QCOMPARE(f.action(0, 1).at, Core::Tick(12));
        QCOMPARE(undo->count(), 1);

        undo->undo();
        f.doc.settle();
        QCOMPARE(f.action(0, 1).at, Core::Tick(1));
        QCOMPARE(writeOf(f.doc.trace(), 0, 2)->sentAt, Core::Tick(30)); // deferred to the thaw
        QCOMPARE_NAME(writeOf(f.doc.trace(), 0, 2)->result, Core::WriteResult::Rejected);
        undo->redo();
        QCOMPARE(f.action(0, 1).at, Core::Tick(12));

        // another action is a step of its own
        f.view->setFocusStop({1, 1});
        f.key(Qt::Key_Left);
        QCOMPARE(f.action(1, 1).at, Core::Tick(11));
        QCOMPARE(undo->count(), 2);
        undo->undo();
        QCOMPARE(f.action(1, 1).at, Core::Tick(12));
        QCOMPARE(f.action(0, 1).at, Core::Tick(12));
    }

    void nudgesStopAtTickZero()
    {
        Fixture f;
        f.view->setFocus(Qt::OtherFocusReason);
        f.view->setFocusStop({0, 0}); // A's acquire at 0
        f.key(Qt::Key_Left);
        f.key(Qt::Key_Left, Qt::ShiftModifier);
        QCOMPARE(f.action(0, 0).at, Core::Tick(0));
        QCOMPARE(f.doc.undoStack()->count(), 0); // nothing changed, nothing to undo
        f.view->setFocusStop({1, 1});            // B's acquire at 12
        f.key(Qt::Key_Left, Qt::ShiftModifier);
        f.key(Qt::Key_Left, Qt::ShiftModifier);
        QCOMPARE(f.action(1, 1).at, Core::Tick(0));
        // both nudges are one step
        QCOMPARE(f.doc.undoStack()->count(), 1);
        f.doc.undoStack()->undo();
        QCOMPARE(f.action(1, 1).at, Core::Tick(12));
    }

    void arrowsWithoutAFocusedActionDoNothingToTheScenario()
    {
        Fixture f;
        f.key(Qt::Key_Tab); // A's lane header
        compareStop(f.view->focusStop(), {0, -1});
        const Core::Scenario before = f.doc.scenario();
        f.key(Qt::Key_Right);
        f.key(Qt::Key_Left);
        QCOMPARE(f.doc.scenario(), before);
        QCOMPARE(f.doc.undoStack()->count(), 0);
    }

    void enterAsksForTheInspector()
    {
        Fixture f;
        QSignalSpy inspect(f.view, &TimelineView::inspectRequested);
        f.key(Qt::Key_Tab);
        f.key(Qt::Key_Return); // on a lane header: nothing to inspect
        QCOMPARE(inspect.count(), 0);
        f.key(Qt::Key_Tab);
        f.key(Qt::Key_Return);
        QCOMPARE(inspect.count(), 1);
        f.key(Qt::Key_Enter, Qt::KeypadModifier);
        QCOMPARE(inspect.count(), 2);
        QCOMPARE(f.state.selection(), (Selection{0, 0}));
    }

    // A storage lane is a stop of its own, after the clients: its settings (check, durability,
    // restarts; docs/SCENARIO.md section 12) are reached from the keyboard, by Enter or the Menu
    // key.
    void storageLanesAreStops()
    {
        Fixture f;
        Core::Scenario two = f.doc.scenario();
        two.storages.push_back(Core::StorageSpec::named(QStringLiteral("cache")));
        two.clients[1].actions[2].storage = 1; // B writes to cache
        f.doc.reset(two);
        f.view->setFocus(Qt::OtherFocusReason);
        f.view->setFocusStop({1, 2}); // B's write, the last client stop
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), FocusStop::ofStorage(0));
        QCOMPARE(f.state.selection(), Selection{}); // a lane selects nothing
        QCOMPARE(f.view->accessibleDescription(), QStringLiteral("Storage db lane, 1 write"));
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), FocusStop::ofStorage(1));
        QCOMPARE(f.view->accessibleDescription(), QStringLiteral("Storage cache lane, 1 write"));
        // its rectangle is the storage lane's
        const StorageLaneRects lane = f.view->currentLayout().panels.front().storages[1];
        QCOMPARE(f.view->stopRect(FocusStop::ofStorage(1)), lane.header.united(lane.lane));
        // the arrows leave the scenario alone and step the playhead, as with nothing focused
        const Core::Scenario before = f.doc.scenario();
        f.key(Qt::Key_Right);
        QVERIFY(f.doc.scenario() == before);

        // Enter opens the storage's dialog; its OK is one undo step
        f.key(Qt::Key_Return);
        auto *dialog = f.view->findChild<StorageDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QCOMPARE(dialog->windowTitle(), QStringLiteral("Storage cache"));
        dialog->reject();
        QTRY_VERIFY(!f.view->findChild<StorageDialog *>());
        f.reactivate();
        f.view->setFocusStop(FocusStop::ofStorage(1));

        // the Menu key: the storage lane's own menu, opened at its header
        QPoint at;
        const QStringList texts =
            f.openMenu(QStringLiteral("max_token persisted with the data"), &at);
        QVERIFY2(texts.contains(QStringLiteral("Storage cache...")), qPrintable(texts.join(u'|')));
        QVERIFY(!texts.contains(QStringLiteral("Remove client B"))); // not a client's menu
        QCOMPARE(at, f.view->mapToGlobal(lane.header.center().toPoint()));
        QCOMPARE(f.doc.scenario().storages[1].durable, !before.storages[1].durable);
        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario() == before);

        // Shift+Tab goes back through the storages to B's last action
        f.reactivate();
        f.view->setFocusStop(FocusStop::ofStorage(1));
        f.key(Qt::Key_Tab, Qt::ShiftModifier);
        compareStop(f.view->focusStop(), FocusStop::ofStorage(0));
        f.key(Qt::Key_Tab, Qt::ShiftModifier);
        compareStop(f.view->focusStop(), {1, 2});

        // the storage goes (a file with one storage): the focus moves to the last one left
        f.view->setFocusStop(FocusStop::ofStorage(1));
        f.doc.reset(Core::ScenarioFile::defaultScenario());
        compareStop(f.view->focusStop(), FocusStop::ofStorage(0));
    }

    void escapeAndDeleteKeepTheFocusOnTheLane()
    {
        Fixture f;
        f.view->setFocus(Qt::OtherFocusReason);
        f.view->setFocusStop({1, 2}); // B's write
        f.key(Qt::Key_Escape);
        QCOMPARE(f.state.selection(), Selection{});
        compareStop(f.view->focusStop(), {1, -1});
        f.key(Qt::Key_Tab); // on from the lane: its first action
        compareStop(f.view->focusStop(), {1, 0});

        f.view->setFocusStop({1, 2});
        f.key(Qt::Key_Delete);
        QCOMPARE(f.doc.scenario().clients[1].actions.size(), std::size_t(2));
        compareStop(f.view->focusStop(), {1, -1});
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().clients[1].actions.size(), std::size_t(3));
    }

    // The Menu key (Shift+F10): the window asks the focused widget where, and the timeline opens
    // the right-click menu of its focused item there.
    void menuKeyOpensTheFocusedItemsMenu()
    {
        Fixture f;
        f.view->setFocus(Qt::OtherFocusReason);
        QStringList texts;
        QPoint at;
        const auto openMenu = [&](const QString &trigger) { texts = f.openMenu(trigger, &at); };
        f.view->setFocusStop({1, 2}); // B's write at 13
        openMenu({});
        QVERIFY2(texts.contains(QStringLiteral("Remove write of B")), qPrintable(texts.join(u'|')));
        QVERIFY(texts.contains(QStringLiteral("Add pause at 13")));
        // at the write, not at the widget's corner
        const QRectF box = f.view->stopRect({1, 2});
        QCOMPARE(at, f.view->mapToGlobal(box.center().toPoint()));

        f.view->setFocusStop({0, -1}); // A's lane header
        f.reactivate();
        openMenu(QStringLiteral("Remove client A"));
        QCOMPARE(texts, QStringList({QStringLiteral("Remove client A"),
                                     QStringLiteral("Unfenced path: A's writes bypass the check"),
                                     QStringLiteral("Clock speed of A"),
                                     QStringLiteral("Clock of A...")}));
        QCOMPARE(f.doc.scenario().clients.size(), std::size_t(1));
        QCOMPARE(f.doc.scenario().clients[0].name, QStringLiteral("B"));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().clients.size(), std::size_t(2));
    }

    // docs/SCENARIO.md section 11 from the menu: a lane on an unfenced path, keepalives on an
    // acquire, a check before a write, a read; each one undo step.
    void menuSetsThePitfalls()
    {
        Fixture f;
        f.view->setFocus(Qt::OtherFocusReason);
        f.view->setFocusStop({1, -1}); // B's lane header
        f.openMenu(QStringLiteral("Unfenced path: B's writes bypass the check"));
        QVERIFY(f.doc.scenario().clients[1].bypass);
        // B's write at 13 now skips the check: applied (it would be anyway, token 2 is newest)
        QVERIFY(f.doc.trace().writes[0].applied);
        f.doc.undoStack()->undo();
        QVERIFY(!f.doc.scenario().clients[1].bypass);

        f.reactivate();
        f.view->setFocusStop({0, 0}); // A's acquire at 0, ttl 10
        QVERIFY(f.openMenu({}).contains(QStringLiteral("Keep alive every 3 ticks")));
        f.reactivate();
        f.openMenu(QStringLiteral("Keep alive every 3 ticks"));
        QCOMPARE(f.action(0, 0).keepalive(), Core::Tick(3));
        // the keepalive due at 3 falls in A's pause [1,30): at the thaw 30 B holds the lock
        // (since 12), so A is told its lease is gone before its write at 30 goes out
        QCOMPARE(f.doc.trace().lost.size(), std::size_t(1));
        QCOMPARE(f.doc.trace().lost[0].at, Core::Tick(30));
        QCOMPARE(f.doc.trace().grants.size(), std::size_t(2));
        f.reactivate();
        QVERIFY(f.openMenu({}).contains(QStringLiteral("Stop keepalives")));

        f.reactivate();
        f.view->setFocusStop({0, 2}); // A's write at 30
        f.openMenu(QStringLiteral("Check the lease before writing"));
        QVERIFY(f.action(0, 2).check);
        // A wakes at 30 with its lease gone (and told so by its keepalive at the thaw): the
        // checked write is skipped, nothing reaches the storage
        QCOMPARE(f.doc.trace().skips.size(), std::size_t(1));
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario(), Core::ScenarioFile::defaultScenario());
    }

    void focusSurvivesTheClientGoing()
    {
        Fixture f;
        f.view->setFocus(Qt::OtherFocusReason);
        f.view->setFocusStop({1, 2});
        Core::Scenario s = f.doc.scenario();
        s.clients.resize(1);
        f.doc.reset(s);
        // B is gone: the focus falls back to the last lane there is; no stale index is kept
        compareStop(f.view->focusStop(), {0, -1});
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {0, 0});
    }

    void screenReaderHearsTheFocusedItem()
    {
        Fixture f;
        QCOMPARE(f.view->accessibleName(), QStringLiteral("Timeline"));
        QVERIFY(!f.view->accessibleDescription().isEmpty());
        f.key(Qt::Key_Tab);
        QCOMPARE(f.view->accessibleDescription(), QStringLiteral("Client A lane, 3 actions"));
        f.key(Qt::Key_Tab);
        QCOMPARE(f.view->accessibleDescription(),
                 QStringLiteral("Client A, acquire at 0 with ttl 10"));
        f.key(Qt::Key_Tab);
        QCOMPARE(f.view->accessibleDescription(), QStringLiteral("Client A, pause from 1 to 30"));
        f.key(Qt::Key_Right); // the words follow the nudge
        QCOMPARE(f.view->accessibleDescription(), QStringLiteral("Client A, pause from 2 to 31"));
        f.key(Qt::Key_Tab);
        QCOMPARE(f.view->accessibleDescription(), QStringLiteral("Client A, write 'A' to db at 2"));
        f.view->setFocusStop({1, 0});
        QCOMPARE(f.view->accessibleDescription(),
                 QStringLiteral("Client B, acquire at 5 with ttl 10"));

        // what assistive technology reads, through Qt's accessibility bridge
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(f.view);
        QVERIFY(iface);
        QCOMPARE(iface->text(QAccessible::Name), QStringLiteral("Timeline"));
        QCOMPARE(iface->text(QAccessible::Description),
                 QStringLiteral("Client B, acquire at 5 with ttl 10"));
    }

    void accessibleTreeOfLanesAndActions()
    {
        Fixture f;
        QAccessibleInterface *tree = QAccessible::queryAccessibleInterface(f.view);
        QVERIFY(tree);
        QCOMPARE(tree->role(), QAccessible::Pane);
        QCOMPARE(tree->childCount(), 3); // A, B, then the storage lane db
        QAccessibleInterface *laneA = tree->child(0);
        QAccessibleInterface *laneB = tree->child(1);
        QVERIFY(laneA && laneB);
        QCOMPARE(laneA->role(), QAccessible::List);
        QCOMPARE(laneA->text(QAccessible::Name), QStringLiteral("Client A lane, 3 actions"));
        QCOMPARE(laneB->text(QAccessible::Name), QStringLiteral("Client B lane, 3 actions"));
        QCOMPARE(tree->indexOfChild(laneB), 1);
        QAccessibleInterface *db = tree->child(2);
        QVERIFY(db);
        QCOMPARE(db->role(), QAccessible::List);
        QCOMPARE(db->text(QAccessible::Name), QStringLiteral("Storage db lane, 2 writes"));
        QCOMPARE(db->text(QAccessible::Description),
                 QStringLiteral("Enter or the Menu key opens its settings"));
        QCOMPARE(db->childCount(), 0);
        QCOMPARE(db->parent(), tree);
        QCOMPARE(tree->indexOfChild(db), 2);
        QVERIFY(!tree->child(3));
        QCOMPARE(laneA->parent(), tree);
        QCOMPARE(laneA->childCount(), 3);
        QAccessibleInterface *pause = laneA->child(1);
        QVERIFY(pause);
        QCOMPARE(pause->role(), QAccessible::ListItem);
        QCOMPARE(pause->text(QAccessible::Name), QStringLiteral("Client A, pause from 1 to 30"));
        QCOMPARE(pause->parent(), laneA);
        QCOMPARE(laneA->indexOfChild(pause), 1);
        QCOMPARE(laneB->indexOfChild(pause), -1);
        QCOMPARE(laneA->child(1), pause); // one interface per item, not one per question
        QCOMPARE(pause->childCount(), 0);
        QVERIFY(laneA->child(3) == nullptr);

        // where it is on screen: over the pause block, inside its lane, inside the widget
        const QRect widget(f.view->mapToGlobal(QPoint(0, 0)), f.view->size());
        const QRect r = pause->rect();
        QVERIFY(!r.isEmpty());
        QVERIFY(laneA->rect().contains(r));
        QVERIFY(widget.contains(laneA->rect()));
        const TimeAxis axis = f.view->axis();
        // the pause [1, 30) and a little around it (its focus ring), no more
        const double pauseRow = f.view->currentLayout().panels[0].clients[0].pauses.center().y();
        const auto global = [&](double tick) {
            return f.view->mapToGlobal(QPointF(axis.tickToX(tick), pauseRow)).toPoint();
        };
        QVERIFY(r.contains(global(1.05)));
        QVERIFY(r.contains(global(29.95)));
        QVERIFY(!r.contains(global(0.4)));
        QVERIFY(!r.contains(global(30.6)));
        QCOMPARE(tree->childAt(r.center().x(), r.center().y()), laneA);
        QCOMPARE(laneA->childAt(r.center().x(), r.center().y()), pause);

        // focus and selection, as assistive technology asks for them
        QVERIFY(!pause->state().focused);
        QVERIFY(tree->focusChild() == nullptr);
        f.key(Qt::Key_Tab);
        f.key(Qt::Key_Tab);
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {0, 1});
        QCOMPARE(tree->focusChild(), pause);
        QVERIFY(pause->state().focused);
        QVERIFY(pause->state().selected);
        QVERIFY(!laneA->child(0)->state().selected);
        f.key(Qt::Key_Right); // the name follows the scenario
        QCOMPARE(pause->text(QAccessible::Name), QStringLiteral("Client A, pause from 2 to 31"));

        // an item whose action went away says so instead of describing a stranger
        QAccessibleInterface *bWrite = laneB->child(2);
        Core::Scenario s = f.doc.scenario();
        s.clients[1].actions.pop_back();
        f.doc.reset(s);
        QVERIFY(!bWrite->isValid());
        QCOMPARE(bWrite->text(QAccessible::Name), QString());
        QCOMPARE(laneB->childCount(), 2);
    }

    // Each action's accessible box is where the mouse finds that action: a screen reader's
    // "click here" lands on it.
    void accessibleBoxesAreWhereTheMouseFindsTheActions()
    {
        Fixture f;
        const Core::Scenario &s = f.doc.scenario();
        for (int c = 0; c < int(s.clients.size()); ++c)
            for (int i = 0; i < int(s.clients[size_t(c)].actions.size()); ++i) {
                const QRectF box = f.view->stopRect({c, i});
                QVERIFY(!box.isEmpty());
                const TimelineRenderer::Hit hit = f.view->renderer().hitTest(
                    s, f.doc.trace(), f.view->axis(), QRectF(f.view->rect()), f.view->options(),
                    box.center());
                const QString where = QStringLiteral("client %1 action %2").arg(c).arg(i);
                QVERIFY2(hit.client == c && hit.action == i, qPrintable(where));
            }
        // A's write, due at 2, runs at the thaw at 30: its box is there, not at 2
        const double x30 = f.view->axis().tickToX(30);
        QVERIFY(
            f.view->stopRect({0, 2}).contains(QPointF(x30, f.view->stopRect({0, 2}).center().y())));
    }

    void describesDelayedWritesAndReleases()
    {
        Core::Scenario s = Core::ScenarioFile::defaultScenario();
        s.clients[0].actions = {Core::Action::write(4, QStringLiteral("v"), 0, 3),
                                Core::Action::release(9)};
        QCOMPARE(TimelineAccessible::describe(s, {0, 0}),
                 QStringLiteral("Client A, write 'v' to db at 4, delay 3"));
        QCOMPARE(TimelineAccessible::describe(s, {0, 1}), QStringLiteral("Client A, release at 9"));
        s.clients[0].actions.resize(1);
        QCOMPARE(TimelineAccessible::describe(s, {0, -1}),
                 QStringLiteral("Client A lane, 1 action"));
        QCOMPARE(TimelineAccessible::describe(s, {0, 5}), QString());
        QCOMPARE(TimelineAccessible::describe(s, {7, -1}), QString());
    }

    void focusRingOnlyWhileFocused()
    {
        Fixture f;
        f.view->setFocus(Qt::OtherFocusReason);
        f.view->setFocusStop({0, 1});
        TimelineRenderer::Options o = f.view->options();
        QCOMPARE(o.focusClient, 0);
        QCOMPARE(o.focusAction, 1);
        f.after->setFocus(Qt::OtherFocusReason);
        o = f.view->options();
        QCOMPARE(o.focusClient, -1);
        QCOMPARE(o.focusAction, -1);
        // the selection stays when the focus leaves; only the ring goes
        QCOMPARE(o.selection, (Selection{0, 1}));
    }

    // The ring is drawn in the theme's foreground colour around the focused item, and only there.
    void focusRingIsDrawnAroundTheItem_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::newRow("light") << QStringLiteral("light");
        QTest::newRow("dark") << QStringLiteral("dark");
    }
    void focusRingIsDrawnAroundTheItem()
    {
        QFETCH(QString, theme);
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Core::Trace t = Core::simulate(s);
        TimelineRenderer r;
        r.setCaching(false);
        TimelineRenderer::Options o;
        o.theme = Theme::byName(theme);
        const QRectF rect(0, 0, 1000, TimelineRenderer::preferredSize(s, o, 1000).height());
        TimeAxis axis;
        axis.firstTick = -2;
        axis.pixelsPerTick = 20;
        axis.left = TimelineRenderer::headerWidth(o);
        const auto render = [&](const TimelineRenderer::Options &opt) {
            QImage img(rect.size().toSize(), QImage::Format_ARGB32_Premultiplied);
            QPainter p(&img);
            r.paint(&p, rect, s, t, nullptr, axis, opt);
            return img;
        };
        const QImage plain = render(o);
        TimelineRenderer::Options focused = o;
        focused.focusClient = 1;
        focused.focusAction = 1; // B's acquire at 12
        const QImage ring = render(focused);
        const TimelineLayout l = TimelineRenderer::layout(s, o, rect);
        const QRectF markers = l.panels[0].clients[1].markers;
        const double x = axis.tickToX(12);
        QRect changed;
        int ringPixels = 0;
        for (int y = 0; y < plain.height(); ++y)
            for (int px = 0; px < plain.width(); ++px)
                if (plain.pixel(px, y) != ring.pixel(px, y)) {
                    changed |= QRect(px, y, 1, 1);
                    ringPixels += QColor(ring.pixel(px, y)) == o.theme.foreground;
                }
        QVERIFY(!changed.isEmpty());
        QVERIFY2(ringPixels > 20, qPrintable(QString::number(ringPixels)));
        // around B's acquire marker, not elsewhere
        const QPoint centre(int(x), int(markers.center().y()));
        QCOMPARE(ring.pixel(centre), plain.pixel(centre)); // a ring: the marker shows through
        QVERIFY(changed.left() < x && changed.right() > x);
        QVERIFY(changed.top() < markers.center().y() && changed.bottom() > markers.center().y());
        QVERIFY2(changed.width() < 80 && changed.height() < 80,
                 qPrintable(QStringLiteral("%1x%2").arg(changed.width()).arg(changed.height())));

        // a lane header: the ring sits in the header column
        focused.focusAction = -1;
        const QImage header = render(focused);
        QRect headerChanged;
        for (int y = 0; y < plain.height(); ++y)
            for (int px = 0; px < plain.width(); ++px)
                if (plain.pixel(px, y) != header.pixel(px, y))
                    headerChanged |= QRect(px, y, 1, 1);
        QVERIFY(!headerChanged.isEmpty());
        QVERIFY(l.panels[0].clients[1].header.toAlignedRect().contains(headerChanged));

        // a storage lane: the ring sits in its header cell
        focused.focusClient = -1;
        focused.focusStorage = 0;
        const QImage storage = render(focused);
        QRect storageChanged;
        int storageRing = 0;
        for (int y = 0; y < plain.height(); ++y)
            for (int px = 0; px < plain.width(); ++px)
                if (plain.pixel(px, y) != storage.pixel(px, y)) {
                    storageChanged |= QRect(px, y, 1, 1);
                    storageRing += QColor(storage.pixel(px, y)) == o.theme.foreground;
                }
        QVERIFY(storageRing > 20);
        QVERIFY(l.panels[0].storages[0].header.toAlignedRect().contains(storageChanged));
    }

    // A selection made elsewhere moves the focus but does not show it: the arrows are not
    // taken from the playhead until Tab or a click puts the focus on the action.
    void aSelectionFromElsewhereIsNotNudgedUntilClicked()
    {
        Fixture f;
        f.view->setFocus(Qt::OtherFocusReason);
        f.state.setSelection({1, 1}); // as the event log does
        compareStop(f.view->focusStop(), {1, 1});
        QCOMPARE(f.view->options().focusClient, -1); // no ring
        f.key(Qt::Key_Right);
        QCOMPARE(f.action(1, 1).at, Core::Tick(12));
        QCOMPARE(f.doc.undoStack()->count(), 0);

        // a click on B's acquire at 12 (no drag): ringed, and the arrows nudge it
        const QPoint marker = f.view->stopRect({1, 1}).center().toPoint();
        QTest::mouseClick(f.window.windowHandle(), Qt::LeftButton, Qt::NoModifier,
                          f.view->mapTo(&f.window, marker));
        QCOMPARE(f.state.selection(), (Selection{1, 1}));
        QCOMPARE(f.doc.undoStack()->count(), 0); // a click is not an edit
        QCOMPARE(f.view->options().focusClient, 1);
        QCOMPARE(f.view->options().focusAction, 1);
        f.key(Qt::Key_Right);
        QCOMPARE(f.action(1, 1).at, Core::Tick(13));

        // Tab from a selection made elsewhere goes on from there
        f.state.setSelection({0, 1});
        f.key(Qt::Key_Tab);
        compareStop(f.view->focusStop(), {0, 2});
        QCOMPARE(f.view->options().focusAction, 2);
    }

    // In the real window Left and Right step the playhead; on an action the user focused in the
    // timeline they nudge it, and they step again once nothing is focused.
    void arrowsInTheWindowNudgeOrStep()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("Ambiguous shortcut")));
        auto w = std::make_unique<MainWindow>();
        scriptDialogs(*w);
        w->show();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        auto *view = static_cast<TimelineView *>(part<TimelineView>(*w));
        view->setFocus(Qt::OtherFocusReason);
        QVERIFY(view->hasFocus());
        // A's write is selected when the window opens; the arrows still step the playhead
        QCOMPARE(w->viewState()->selection(), (Selection{0, 2}));
        QVERIFY(!w->viewState()->hasPlayhead());
        QTest::keyClick(w->windowHandle(), Qt::Key_Right);
        QCOMPARE(w->viewState()->playhead(), Core::Tick(0)); // the first event: A's grant
        QCOMPARE(w->document()->scenario().clients[0].actions[2].at, Core::Tick(2));

        view->setFocusStop({0, 2}); // as Tab or a click would
        QTest::keyClick(w->windowHandle(), Qt::Key_Right);
        QCOMPARE(w->document()->scenario().clients[0].actions[2].at, Core::Tick(3));
        QCOMPARE(w->viewState()->playhead(), Core::Tick(0)); // the playhead did not move

        QTest::keyClick(w->windowHandle(), Qt::Key_Escape);
        QCOMPARE(w->viewState()->selection(), Selection{});
        QTest::keyClick(w->windowHandle(), Qt::Key_Right);
        QCOMPARE(w->document()->scenario().clients[0].actions[2].at, Core::Tick(3));
        QCOMPARE(w->viewState()->playhead(), Core::Tick(1)); // A's pause begins

        // F still reaches the window while the timeline has the focus
        const bool fencing = w->document()->scenario().fencing;
        QTest::keyClick(w->windowHandle(), Qt::Key_F);
        QCOMPARE(w->document()->scenario().fencing, !fencing);
        w->document()->markSaved();
    }
};

QTEST_MAIN(TestTimelineKeyboard)
#include "tst_timelinekeyboard.moc"
