// The timeline widget driven like a person would: press, drag and release on real widgets
// (offscreen), then assert on the scenario and the re-simulated trace, and that undo restores both.
//
// The default scenario (docs/SCENARIO.md section 7):
//   A: acquire at 0 ttl 10 (lease [0, 10), token 1); pause at 1 for 29 (frozen [1, 30));
//      write 'A' at 30.
//   B: acquire at 5 (refused: A's lease is live); acquire at 12 (A expired: grant, token 2);
//      write 'B' at 13 (accepted, max_token 2).
//   A's write at 30 carries token 1 < max 2: rejected, and it arrives after A's lease ended.

#include "document/document.h"
#include "document/editcommands.h"
#include "randomscenario.h"
#include "scenariofile.h"
#include "simulator.h"
#include "testprinters.h"
#include "tracecompare.h"
#include "views/timelineview.h"
#include "viewstate.h"

#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QUndoStack>
#include <QtTest>

using Core::WriteResult;
using Hit = TimelineRenderer::Hit;

namespace {

const Core::Write *writeOf(const Core::Trace &t, int client, int action)
{
    for (const Core::Write &w : t.writes)
        if (w.client == std::uint32_t(client) && w.action == std::uint32_t(action))
            return &w;
    return nullptr;
}

int grantsOf(const Core::Trace &t, int client)
{
    int n = 0;
    for (const Core::Grant &g : t.grants)
        n += g.client == std::uint32_t(client) && !g.renewal;
    return n;
}

int refusalsOf(const Core::Trace &t, int client)
{
    int n = 0;
    for (const Core::Refusal &r : t.refusals)
        n += r.client == std::uint32_t(client);
    return n;
}

} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT

private:
    // A fresh document, state and widget for every test.
    struct Fixture
    {
        Document doc;
        ViewState state;
        TimelineView view{&doc, &state};
        Fixture()
        {
            view.resize(1000, view.sizeHint().height());
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            // 20 px per tick, tick 0 a little right of the lane headers
            state.setAxis(-2, 20);
        }
        TimelineLayout layout() const { return view.currentLayout(); }
        QPoint at(double tick, double y) const { return QPointF(view.axis().tickToX(tick), y).toPoint(); }
        const Core::Action &action(int c, int i) const
        {
            return doc.scenario().clients[size_t(c)].actions[size_t(i)];
        }
    };

    // Press at `from`, move in steps to `to`, release: a real drag.
    static void drag(QWidget *w, QPoint from, QPoint to, bool release = true)
    {
        QTest::mousePress(w, Qt::LeftButton, Qt::NoModifier, from);
        const int steps = 6;
        for (int i = 1; i <= steps; ++i) {
            const QPoint p = from + (to - from) * i / steps;
            QMouseEvent move(QEvent::MouseMove, QPointF(p), w->mapToGlobal(QPointF(p)), Qt::NoButton,
                             Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(w, &move);
        }
        if (release)
            QTest::mouseRelease(w, Qt::LeftButton, Qt::NoModifier, to);
    }

private slots:
    // The first fit shows the whole run; while nobody zooms or scrolls, a resize (the window
    // settling as its docks take their width, a smaller projector) fits it again, so the stale
    // write at t=30 never starts off screen. Once the user zooms, a resize leaves the axis.
    void resizeKeepsTheWholeRunUntilTheUserZooms()
    {
        Document doc;
        ViewState state;
        TimelineView view(&doc, &state);
        view.resize(1200, view.sizeHint().height());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const Core::Trace &t = doc.trace();
        const auto lastShown = [&] {
            return view.axis().xToTick(view.currentLayout().plot.right());
        };
        QVERIFY(lastShown() >= TimelineRenderer::fitTo(t));
        view.resize(560, view.height());
        QTest::qWait(10);
        QVERIFY2(lastShown() >= TimelineRenderer::fitTo(t), qPrintable(QString::number(lastShown())));
        QVERIFY(state.firstTick() <= TimelineRenderer::fitFrom(t));
        state.zoomAround(10, 2); // the user zooms in
        const double first = state.firstTick(), ppt = state.pixelsPerTick();
        view.resize(900, view.height());
        QTest::qWait(10);
        QCOMPARE(state.firstTick(), first);
        QCOMPARE(state.pixelsPerTick(), ppt);
    }

    void defaultScenarioAsExpected()
    {
        Fixture f;
        const Core::Trace &t = f.doc.trace();
        QCOMPARE_NAME(writeOf(t, 0, 2)->result, WriteResult::Rejected);
        QCOMPARE_NAME(writeOf(t, 1, 2)->result, WriteResult::Accepted);
        QCOMPARE(refusalsOf(t, 1), 1);
    }

    // (a) Drag the END edge of A's pause so it ends before A's lease expires (tick 10).
    // A's write is scheduled at 2, inside the pause [1, 30): it is deferred to the thaw at 30 and
    // rejected (B holds token 2 by then). Drag the pause end to 8: A thaws at 8 and the deferred
    // write runs at 8, inside A's lease [0, 10), before B holds anything: token 1 >= max 0, so
    // it is accepted (and B's later write with token 2 is accepted too).
    void dragPauseEndFlipsTheOutcome()
    {
        Fixture f;
        QUndoStack *undo = f.doc.undoStack();
        const TimelineLayout l = f.layout();
        const ClientLaneRects &a = l.panels[0].clients[0];

        QCOMPARE(f.action(0, 2).at, Core::Tick(2));
        const Core::Write *w = writeOf(f.doc.trace(), 0, 2);
        QCOMPARE(w->sentAt, Core::Tick(30)); // deferred until A thaws
        QCOMPARE_NAME(w->result, WriteResult::Rejected);

        // hit test agrees: the pause's end edge is at tick 30
        const QPoint end = f.at(30, a.pauses.center().y());
        QCOMPARE(f.view.renderer()
                     .hitTest(f.doc.scenario(), f.doc.trace(), f.view.axis(), QRectF(f.view.rect()),
                              f.view.options(), QPointF(end))
                     .part,
                 Hit::PauseEnd);
        drag(&f.view, end, f.at(8, a.pauses.center().y()));
        QCOMPARE(undo->count(), 1); // exactly one command per drag
        QCOMPARE(f.action(0, 1).at, Core::Tick(1));
        QCOMPARE(f.action(0, 1).length(), Core::Tick(7));
        w = writeOf(f.doc.trace(), 0, 2);
        QCOMPARE(w->sentAt, Core::Tick(8));
        QCOMPARE_NAME(w->result, WriteResult::Accepted);
        QVERIFY(!w->expired);
        QCOMPARE_NAME(writeOf(f.doc.trace(), 1, 2)->result, WriteResult::Accepted);

        // undo restores the scenario and the trace
        undo->undo();
        QCOMPARE(f.action(0, 1).length(), Core::Tick(29));
        QCOMPARE_NAME(writeOf(f.doc.trace(), 0, 2)->result, WriteResult::Rejected);
        QCOMPARE(writeOf(f.doc.trace(), 0, 2)->sentAt, Core::Tick(30));
        undo->redo();
        QCOMPARE(f.action(0, 1).length(), Core::Tick(7));
        QCOMPARE_NAME(writeOf(f.doc.trace(), 0, 2)->result, WriteResult::Accepted);
        undo->undo();
        QCOMPARE(f.doc.scenario(), Core::ScenarioFile::defaultScenario());
    }

    void dragPauseStartAndBody()
    {
        Fixture f;
        const ClientLaneRects a = f.layout().panels[0].clients[0];
        const double y = a.pauses.center().y();
        // start edge from 1 to 4: the end stays at 30
        drag(&f.view, f.at(1, y), f.at(4, y));
        QCOMPARE(f.action(0, 1).at, Core::Tick(4));
        QCOMPARE(f.action(0, 1).length(), Core::Tick(26));
        // body: grab the middle, move right by 3 ticks
        drag(&f.view, f.at(17, y), f.at(20, y));
        QCOMPARE(f.action(0, 1).at, Core::Tick(7));
        QCOMPARE(f.action(0, 1).length(), Core::Tick(26));
        // never below 0, never shorter than one tick
        drag(&f.view, f.at(20, y), f.at(-30, y));
        QCOMPARE(f.action(0, 1).at, Core::Tick(0));
        drag(&f.view, f.at(26, y), f.at(-10, y)); // the end edge, now at 26
        QCOMPARE(f.action(0, 1).length(), Core::Tick(1));
        QCOMPARE(f.doc.undoStack()->count(), 4);
    }

    // (b) Drag the end of A's lease from 10 to 20: ttl 20. B's acquire at 12 is now refused as
    // well, so B is never granted, its write at 13 goes out untagged and is rejected, and A's
    // write at 30 (token 1, max 0, A's lease expired at 20) is accepted.
    void dragLeaseEndChangesTtl()
    {
        Fixture f;
        const ClientLaneRects a = f.layout().panels[0].clients[0];
        const double y = a.holds.center().y();
        QCOMPARE(refusalsOf(f.doc.trace(), 1), 1);
        QCOMPARE(grantsOf(f.doc.trace(), 1), 1);

        drag(&f.view, f.at(10, y), f.at(20, y));
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QCOMPARE(f.action(0, 0).ttl(), Core::Tick(20));
        const Core::Trace &t = f.doc.trace();
        QCOMPARE(refusalsOf(t, 1), 2);
        QCOMPARE(grantsOf(t, 1), 0);
        QCOMPARE(t.leases.size(), size_t(1));
        QCOMPARE(t.leases[0].end, Core::Tick(20));
        QCOMPARE(writeOf(t, 1, 2)->tagged, false);
        QCOMPARE_NAME(writeOf(t, 1, 2)->result, WriteResult::Rejected);
        QCOMPARE_NAME(writeOf(t, 0, 2)->result, WriteResult::Accepted);

        f.doc.undoStack()->undo();
        QCOMPARE(f.action(0, 0).ttl(), Core::Tick(10));
        QCOMPARE(refusalsOf(f.doc.trace(), 1), 1);
        QCOMPARE(grantsOf(f.doc.trace(), 1), 1);

        // a renewal extends the lease: its end belongs to the renewal, not the first grant
        f.doc.undoStack()->push(EditCommands::insertAction(&f.doc, 0, 1, Core::Action::acquire(0, 5)));
        f.doc.undoStack()->push(EditCommands::setAction(&f.doc, 0, 0, Core::Action::acquire(0, 4)));
        // A: acquire 0 ttl 4 (grant), acquire 0 ttl 5 (renewal: expires 5)
        QCOMPARE(f.doc.trace().leases[0].end, Core::Tick(5));
        drag(&f.view, f.at(5, y), f.at(8, y));
        QCOMPARE(f.action(0, 1).ttl(), Core::Tick(8));
        QCOMPARE(f.action(0, 0).ttl(), Core::Tick(4));
        QCOMPARE(f.doc.trace().leases[0].end, Core::Tick(8));
    }

    // (c) B's write marker from 13 to 16: sent at 16, still accepted with token 2.
    void dragWriteMarker()
    {
        Fixture f;
        const ClientLaneRects b = f.layout().panels[0].clients[1];
        const double y = b.markers.center().y();
        drag(&f.view, f.at(13, y), f.at(16, y));
        QCOMPARE(f.action(1, 2).at, Core::Tick(16));
        const Core::Write *w = writeOf(f.doc.trace(), 1, 2);
        QCOMPARE(w->sentAt, Core::Tick(16));
        QCOMPARE_NAME(w->result, WriteResult::Accepted);
        QCOMPARE(f.doc.undoStack()->count(), 1);
        // a click without moving selects and pushes nothing
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, f.at(16, y));
        QCOMPARE(f.doc.undoStack()->count(), 1);
        QCOMPARE(f.state.selection(), (Selection{1, 2}));
        // click on empty space clears the selection
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, f.at(35, y));
        QVERIFY(!f.state.selection().isValid());
    }

    // The value shown while dragging never covers the label of what is dragged: a marker's
    // label is in the row above it, so the value goes below the cursor; a pause edge's value
    // goes above, clear of the pause bar under the cursor.
    void dragValueLeavesTheDraggedLabelFree()
    {
        Fixture f;
        const ClientLaneRects b = f.layout().panels[0].clients[1];
        const double y = b.markers.center().y();
        drag(&f.view, f.at(13, y), f.at(16, y), false); // B's write, still held
        QVERIFY(f.view.isDragging());
        QCOMPARE(f.view.dragLabel(), QStringLiteral("at 16"));
        QRectF box = f.view.dragLabelRect();
        QVERIFY(!box.isEmpty());
        QVERIFY2(!box.intersects(b.labels), "the value covers the write's label row");
        QVERIFY(box.top() > y);
        QTest::mouseRelease(&f.view, Qt::LeftButton, Qt::NoModifier, f.at(16, y));
        QVERIFY(f.view.dragLabelRect().isEmpty());

        const ClientLaneRects a = f.layout().panels[0].clients[0];
        const double py = a.pauses.center().y();
        drag(&f.view, f.at(30, py), f.at(25, py), false); // the end of A's pause
        box = f.view.dragLabelRect();
        QVERIFY(!box.isEmpty());
        QVERIFY2(!box.intersects(a.pauses), "the value covers the pause being dragged");
        QTest::mouseRelease(&f.view, Qt::LeftButton, Qt::NoModifier, f.at(25, py));
    }

    void dragAcquireAndDelayHead()
    {
        Fixture f;
        const ClientLaneRects b = f.layout().panels[0].clients[1];
        const double y = b.markers.center().y();
        // B's second acquire from 12 to 9: A's lease is still live, so it is refused, and B's
        // write at 13 goes out untagged and is rejected
        drag(&f.view, f.at(12, y), f.at(9, y));
        QCOMPARE(f.action(1, 1).at, Core::Tick(9));
        QCOMPARE(refusalsOf(f.doc.trace(), 1), 2);
        QCOMPARE_NAME(writeOf(f.doc.trace(), 1, 2)->result, WriteResult::Rejected);
        f.doc.undoStack()->undo();

        // give B's write a delay of 4, then drag the arrow's head from 17 to 20
        f.doc.undoStack()->push(EditCommands::setAction(&f.doc, 1, 2,
                                                        Core::Action::write(13, QStringLiteral("B"), 0, 4)));
        QCOMPARE(writeOf(f.doc.trace(), 1, 2)->arrivedAt, Core::Tick(17));
        drag(&f.view, f.at(17, y), f.at(20, y));
        QCOMPARE(f.action(1, 2).delay(), Core::Tick(7));
        QCOMPARE(writeOf(f.doc.trace(), 1, 2)->arrivedAt, Core::Tick(20));
        QCOMPARE(writeOf(f.doc.trace(), 1, 2)->sentAt, Core::Tick(13));
    }

    // (d) Escape during a drag restores the scenario and pushes nothing.
    void escapeCancelsDrag()
    {
        Fixture f;
        const ClientLaneRects a = f.layout().panels[0].clients[0];
        const double y = a.pauses.center().y();
        drag(&f.view, f.at(30, y), f.at(8, y), false);
        QVERIFY(f.view.isDragging());
        QCOMPARE(f.action(0, 1).length(), Core::Tick(7)); // live preview
        QCOMPARE(writeOf(f.doc.trace(), 0, 2)->sentAt, Core::Tick(8)); // the write follows the thaw
        QTest::keyClick(&f.view, Qt::Key_Escape);
        QVERIFY(!f.view.isDragging());
        QCOMPARE(f.action(0, 1).length(), Core::Tick(29));
        QTest::mouseRelease(&f.view, Qt::LeftButton, Qt::NoModifier, f.at(8, y));
        QCOMPARE(f.doc.undoStack()->count(), 0);
        QCOMPARE(f.doc.scenario(), Core::ScenarioFile::defaultScenario());
        QCOMPARE_NAME(writeOf(f.doc.trace(), 0, 2)->result, WriteResult::Rejected);
        QCOMPARE(writeOf(f.doc.trace(), 0, 2)->sentAt, Core::Tick(30));
    }

    // (e) Delete removes the selected action; undo brings it back.
    void deleteRemovesSelected()
    {
        Fixture f;
        const ClientLaneRects a = f.layout().panels[0].clients[0];
        QTest::mouseClick(&f.view, Qt::LeftButton, Qt::NoModifier, f.at(15, a.pauses.center().y()));
        QCOMPARE(f.state.selection(), (Selection{0, 1}));
        QTest::keyClick(&f.view, Qt::Key_Delete);
        QCOMPARE(f.doc.scenario().clients[0].actions.size(), size_t(2));
        QVERIFY(f.doc.trace().freezes[0].empty());
        QVERIFY(!f.state.selection().isValid());
        // nothing pauses A: its write runs at 2, inside its lease, before B holds anything
        QCOMPARE(writeOf(f.doc.trace(), 0, 1)->sentAt, Core::Tick(2));
        QCOMPARE_NAME(writeOf(f.doc.trace(), 0, 1)->result, WriteResult::Accepted);
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario(), Core::ScenarioFile::defaultScenario());
        QCOMPARE(f.doc.trace().freezes[0].size(), size_t(1));
    }

    // (f) Ctrl+wheel zooms around the mouse: the tick under it stays under it.
    void ctrlWheelZoomsAroundMouse_data()
    {
        QTest::addColumn<double>("tick");
        QTest::addColumn<int>("delta");
        QTest::newRow("in at 10") << 10.0 << 120;
        QTest::newRow("out at 25") << 25.0 << -120;
        QTest::newRow("in twice at 3") << 3.0 << 240;
    }
    void ctrlWheelZoomsAroundMouse()
    {
        QFETCH(double, tick);
        QFETCH(int, delta);
        Fixture f;
        const double before = f.state.pixelsPerTick();
        const QPointF pos(f.view.axis().tickToX(tick), f.layout().panels[0].lock.center().y());
        QWheelEvent wheel(pos, f.view.mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&f.view, &wheel);
        const double after = f.state.pixelsPerTick();
        QVERIFY(delta > 0 ? after > before : after < before);
        QVERIFY(qAbs(f.view.axis().xToTick(pos.x()) - tick) < 1e-6);
    }

    void wheelPansAndKeysZoom()
    {
        Fixture f;
        const double first = f.state.firstTick();
        const QPointF pos(500, 100);
        QWheelEvent wheel(pos, f.view.mapToGlobal(pos), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&f.view, &wheel);
        QVERIFY(f.state.firstTick() > first);
        QCOMPARE(f.state.pixelsPerTick(), 20.0);
        QTest::keyClick(&f.view, Qt::Key_Plus);
        QVERIFY(f.state.pixelsPerTick() > 20.0);
        QTest::keyClick(&f.view, Qt::Key_Minus);
        QTest::keyClick(&f.view, Qt::Key_Minus);
        QVERIFY(f.state.pixelsPerTick() < 20.0);
        QTest::keyClick(&f.view, Qt::Key_Home);
        // fitted: the whole run (tick 0 to the horizon) is visible
        const TimeAxis ax = f.view.axis();
        const TimelineLayout l = f.layout();
        QVERIFY(ax.tickToX(0) >= l.plot.left());
        QVERIFY(ax.tickToX(double(f.doc.trace().horizon)) <= l.plot.right());
        // dragging empty space pans
        const double y = l.panels[0].lock.center().y();
        const double before = f.state.firstTick();
        drag(&f.view, QPoint(600, int(l.ruler.center().y())), QPoint(500, int(l.ruler.center().y())));
        QVERIFY(f.state.firstTick() > before);
        Q_UNUSED(y);
        QCOMPARE(f.doc.undoStack()->count(), 0);
    }

    void compareModeDragsEditTheSameScenario()
    {
        Fixture f;
        f.state.setCompare(true);
        f.view.resize(1000, f.view.sizeHint().height());
        const TimelineLayout l = f.layout();
        QCOMPARE(l.panels.size(), size_t(2));
        // the unfenced panel shows the corruption: A's write overwrote B's
        const Core::Trace &unfenced = f.doc.traceFor(false);
        QCOMPARE_NAME(writeOf(unfenced, 0, 2)->result, WriteResult::Corrupted);
        const ClientLaneRects &b = l.panels[1].clients[1];
        const Hit h = f.view.renderer().hitTest(f.doc.scenario(), f.doc.traceFor(true), f.view.axis(),
                                                QRectF(f.view.rect()), f.view.options(),
                                                f.at(13, b.markers.center().y()), &unfenced);
        QCOMPARE(h.part, Hit::WriteMarker);
        QVERIFY(h.bottomPanel);
        drag(&f.view, f.at(13, b.markers.center().y()), f.at(31, b.markers.center().y()));
        // B now writes after A: in both panels nothing newer gets overwritten
        QCOMPARE(f.action(1, 2).at, Core::Tick(31));
        QCOMPARE(f.doc.traceFor(false).summary.corrupted, quint64(0));
        QCOMPARE(f.doc.traceFor(true).summary.corrupted, quint64(0));
    }

    // A drag on a long run (60,000 actions): each step re-simulates only about as far as the
    // screen shows (the trace is partial while the mouse moves), the release pushes one
    // command, and the trace settles to exactly what a fresh simulation gives; undo too.
    void dragOnALongRunPreviewsThenSettles()
    {
        TestSupport::RandomScenarioOptions o;
        o.minClients = o.maxClients = 3;
        o.minActions = o.maxActions = 20000;
        o.span = 40000;
        o.shufflePercent = 0;
        const Core::Scenario original = TestSupport::randomScenario(17, o);
        Document doc;
        doc.reset(original);
        ViewState state;
        TimelineView view(&doc, &state);
        view.resize(1000, view.sizeHint().height());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        // a long pause of client 0 well into the run, alone in its stretch of the lane
        const std::vector<Core::Action> &actions = original.clients[0].actions;
        int p = -1;
        for (std::size_t i = 0; i < actions.size() && p < 0; ++i) {
            const Core::Action &a = actions[i];
            if (a.kind != Core::ActionKind::Pause || a.at < 2000 || a.amount < 12)
                continue;
            const bool alone = std::none_of(actions.begin(), actions.end(), [&](const Core::Action &b) {
                return &b != &a && b.kind == Core::ActionKind::Pause && b.at < a.at + a.amount + 5 &&
                       b.at + b.amount + 5 > a.at;
            });
            if (alone)
                p = int(i);
        }
        QVERIFY(p >= 0);
        const Core::Action pause = actions[size_t(p)];
        state.setAxis(double(pause.at) - 20, 10);
        const double y = view.currentLayout().panels[0].clients[0].pauses.center().y();
        const QPoint from = QPointF(view.axis().tickToX(double(pause.at) + double(pause.amount) / 2), y).toPoint();
        const QPoint to = from + QPoint(60, 0); // 6 ticks later

        drag(&view, from, to, false);
        QVERIFY(doc.isPreviewing());
        QCOMPARE(doc.scenario().clients[0].actions[size_t(p)].at, pause.at + 6);
        QVERIFY(!doc.trace().complete()); // only the screen and as much again were simulated
        QVERIFY(doc.trace().pendingFrom > view.previewThrough());
        QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, to);
        QVERIFY(!doc.isPreviewing());
        QCOMPARE(doc.undoStack()->count(), 1);
        QTRY_VERIFY(doc.isSettled());
        QString why;
        QVERIFY2(TestSupport::sameTrace(doc.trace(), Core::simulate(doc.scenario()), &why), qPrintable(why));

        doc.undoStack()->undo();
        QVERIFY(doc.isSettled());
        QCOMPARE(doc.scenario(), original);
        QVERIFY2(TestSupport::sameTrace(doc.trace(), Core::simulate(original), &why), qPrintable(why));
    }

    void contextMenuInsertViaCommands()
    {
        // the menu itself is modal; the commands it pushes are tested here
        Fixture f;
        const int index = EditCommands::insertionIndex(f.doc.scenario().clients[0], 20);
        QCOMPARE(index, 3); // after the acquire at 0, the pause at 1 and the write at 2
        f.doc.undoStack()->push(EditCommands::insertAction(&f.doc, 0, index, Core::Action::release(20)));
        QCOMPARE(f.doc.trace().releases.size(), size_t(1));
        // the release marker is deferred: A is frozen at 20, it runs at 30
        QCOMPARE(f.doc.trace().releases[0].at, Core::Tick(30));
        const ClientLaneRects a = f.layout().panels[0].clients[0];
        const Hit h = f.view.renderer().hitTest(f.doc.scenario(), f.doc.trace(), f.view.axis(),
                                                QRectF(f.view.rect()), f.view.options(),
                                                f.at(30, a.markers.center().y()));
        QVERIFY(h.part == Hit::ReleaseMarker || h.part == Hit::WriteMarker);
    }

    // The widget renders to PNG in each mode (kept when FENCESCOPE_SCREENSHOTS names a folder).
    void screenshots()
    {
        // renders every time (a real offscreen render must succeed); the files are kept in
        // FENCESCOPE_SCREENSHOTS when it is set, e.g. to refresh docs/screenshots
        QTemporaryDir scratch;
        const QString dir = qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOTS") ? scratch.path()
                                                                        : qEnvironmentVariable("FENCESCOPE_SCREENSHOTS");
        QDir().mkpath(dir);
        const QString theme = qEnvironmentVariable("FENCESCOPE_THEME", QStringLiteral("light"));
        for (const char *mode : {"fenced", "unfenced", "compare"}) {
            Fixture f;
            f.view.setTheme(Theme::byName(theme));
            Core::Scenario s = Core::ScenarioFile::defaultScenario();
            const QString file = qEnvironmentVariable("FENCESCOPE_SCENARIO");
            if (!file.isEmpty())
                s = *Core::ScenarioFile::load(file).scenario;
            s.fencing = qstrcmp(mode, "unfenced") != 0;
            f.doc.reset(s);
            f.state.setCompare(qstrcmp(mode, "compare") == 0);
            f.view.resize(1200, f.view.sizeHint().height());
            f.view.fitToWindow();
            if (qEnvironmentVariableIsSet("FENCESCOPE_SELECT"))
                f.state.setSelection({0, 2});
            const QImage img = f.view.grab().toImage();
            QVERIFY(img.save(QStringLiteral("%1/timeline-%2.png").arg(dir, QLatin1String(mode))));
        }
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
