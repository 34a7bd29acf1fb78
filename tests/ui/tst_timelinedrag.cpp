// The timeline's drag controller alone, without a widget: a hand-made scenario, hits made by
// hand (what TimelineRenderer::hitTest would find there) and pointer positions in pixels at
// 10 px per tick, pressed at x = 100. Every expected value is worked out below from the rules
// in views/timelinedrag.h: whole ticks from the press (std::llround), ticks >= 0, a pause's
// length and a ttl >= 1, a check's gap >= 0, nothing before 3 px, one undo step per drag.
//
// Client A (its actions by index):
//   0 acquire at 0, ttl 10        (granted at 0: the lease expires at 10)
//   1 write 'A' at 4, delay 1, checked, gap 2
//   2 pause at 6 for 3            (frozen [6, 9))
//   3 read at 7
//   4 release at 12

#include "document/document.h"
#include "document/editcommands.h"
#include "scenariofile.h"
#include "views/timelinedrag.h"

#include <QTest>
#include <QUndoStack>

using Core::Action;
using Core::Tick;
using Hit = TimelineRenderer::Hit;

Q_DECLARE_METATYPE(Hit::Part)

namespace {

constexpr double kPixelsPerTick = 10;
constexpr Tick kPreviewThrough = 100; // any end short of kForever: a drag's preview
const QPointF kPress(100, 50);

Core::Scenario handMade()
{
    Core::Scenario s;
    Core::Client a;
    a.name = QStringLiteral("A");
    Action write = Action::write(4, QStringLiteral("A"), 0, 1);
    write.check = true;
    write.setGap(2);
    a.actions = {Action::acquire(0, 10), write, Action::pause(6, 3), Action::read(7),
                 Action::release(12)};
    s.clients.push_back(a);
    return s;
}

Hit hitOn(Hit::Part part, int action)
{
    Hit h;
    h.part = part;
    h.client = 0;
    h.action = action;
    h.lane = 0;
    return h;
}

QPointF ticksFromPress(double ticks)
{
    return kPress + QPointF(ticks * kPixelsPerTick, 0);
}

} // namespace

class TestTimelineDrag : public QObject
{
    Q_OBJECT

    Document doc;
    QByteArray opened; // the scenario as Core's writer saves it, before any drag

    const Action &action(int i) const { return doc.scenario().clients[0].actions[size_t(i)]; }

private slots:
    void init()
    {
        doc.reset(handMade());
        opened = Core::ScenarioFile::serialize(doc.scenario());
    }

    // One drag of each part, in three steps: the action after it, the label the last step
    // shows, one undo step named for the part; undo gives back the scenario byte for byte and
    // redo the dragged action.
    void dragEachPart_data()
    {
        QTest::addColumn<Hit::Part>("part");
        QTest::addColumn<int>("index");
        QTest::addColumn<double>("ticks"); // how far the pointer goes, in ticks of 10 px
        QTest::addColumn<Tick>("at");
        QTest::addColumn<Tick>("amount");
        QTest::addColumn<Tick>("gap");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("undoText");

        // the end stays at 9; the start would be 11, past it: it stops at 8, one tick of pause
        QTest::newRow("pause start past its end") << Hit::PauseStart << 2 << 5.0 << Tick(8)
                                                  << Tick(1) << Tick(0) << "starts at 8 (1 ticks)"
                                                  << "Resize pause";
        // 6 - 10 is below 0: it starts at 0 and ends at 9 still, 9 ticks
        QTest::newRow("pause start before tick 0") << Hit::PauseStart << 2 << -10.0 << Tick(0)
                                                   << Tick(9) << Tick(0) << "starts at 0 (9 ticks)"
                                                   << "Resize pause";
        // 3 - 5 is below 1: one tick, from 6 to 7
        QTest::newRow("pause end before its start")
            << Hit::PauseEnd << 2 << -5.0 << Tick(6) << Tick(1) << Tick(0) << "ends at 7 (1 ticks)"
            << "Resize pause";
        // 2.4 ticks round to 2: [8, 11)
        QTest::newRow("pause body, whole ticks")
            << Hit::PauseBody << 2 << 2.4 << Tick(8) << Tick(3) << Tick(0) << "pause 8 → 11"
            << "Move pause";
        // 10 - 20 is below 1: ttl 1, and the lease that expired at 10 now expires at 1
        QTest::newRow("ttl never below 1")
            << Hit::LeaseEnd << 0 << -20.0 << Tick(0) << Tick(1) << Tick(0) << "ttl 1: expires at 1"
            << "Change lease ttl";
        QTest::newRow("ttl longer") << Hit::LeaseEnd << 0 << 3.0 << Tick(0) << Tick(13) << Tick(0)
                                    << "ttl 13: expires at 13"
                                    << "Change lease ttl";
        // 2 - 5 is below 0: the write goes out at its check, tick 4 (which stays put)
        QTest::newRow("gap never below 0")
            << Hit::CheckSend << 1 << -5.0 << Tick(4) << Tick(1) << Tick(0) << "gap 0"
            << "Change gap";
        QTest::newRow("gap longer")
            << Hit::CheckSend << 1 << 3.0 << Tick(4) << Tick(1) << Tick(5) << "gap 5"
            << "Change gap";
        // 1 - 3 is below 0
        QTest::newRow("delay never below 0")
            << Hit::DelayHead << 1 << -3.0 << Tick(4) << Tick(0) << Tick(2) << "delay 0"
            << "Change network delay";
        // 4 - 7 is below 0
        QTest::newRow("write before tick 0")
            << Hit::WriteMarker << 1 << -7.0 << Tick(0) << Tick(1) << Tick(2) << "at 0"
            << "Move write";
        // a read's marker is hit as a write's; its undo step says what it is
        QTest::newRow("read") << Hit::WriteMarker << 3 << 1.0 << Tick(8) << Tick(0) << Tick(0)
                              << "at 8"
                              << "Move read";
        QTest::newRow("acquire") << Hit::AcquireMarker << 0 << 2.0 << Tick(2) << Tick(10) << Tick(0)
                                 << "at 2"
                                 << "Move acquire";
        // 2.6 ticks back round to 3
        QTest::newRow("release") << Hit::ReleaseMarker << 4 << -2.6 << Tick(9) << Tick(0) << Tick(0)
                                 << "at 9"
                                 << "Move release";
    }

    void dragEachPart()
    {
        QFETCH(Hit::Part, part);
        QFETCH(int, index);
        QFETCH(double, ticks);
        QFETCH(Tick, at);
        QFETCH(Tick, amount);
        QFETCH(Tick, gap);
        QFETCH(QString, label);
        QFETCH(QString, undoText);

        const Action before = action(index);
        TimelineDrag drag(&doc);
        QVERIFY(drag.begin(hitOn(part, index), kPress, doc.trace()));
        QVERIFY(drag.isActive());
        for (int step = 1; step <= 3; ++step)
            drag.move(ticksFromPress(ticks * step / 3), kPixelsPerTick, kPreviewThrough);
        QVERIFY(drag.hasMoved());
        QCOMPARE(drag.label(), label);
        // the live preview: the scenario already holds the new action, re-run only so far
        QCOMPARE(action(index).at, at);
        QCOMPARE(action(index).amount, amount);
        QCOMPARE(action(index).gap(), gap);
        QVERIFY(doc.isPreviewing());
        QCOMPARE(doc.undoStack()->count(), 0);

        // The push applies nothing again (no re-run): QUndoStack::push calls redo() before it
        // moves its index, so a redo that set the action would put a changed() first. The one
        // changed() comes after, from the end of the preview.
        QStringList order;
        const QMetaObject::Connection pushed =
            connect(doc.undoStack(), &QUndoStack::indexChanged, this,
                    [&] { order << QStringLiteral("push"); });
        const QMetaObject::Connection changed =
            connect(&doc, &Document::changed, this, [&] { order << QStringLiteral("changed"); });
        const Action after = action(index);
        drag.finish();
        disconnect(pushed);
        disconnect(changed);
        QVERIFY(!drag.isActive());
        QVERIFY(drag.label().isEmpty());
        QVERIFY(!doc.isPreviewing());
        QCOMPARE(order, QStringList({QStringLiteral("push"), QStringLiteral("changed")}));
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->undoText(), undoText);
        QCOMPARE(action(index), after);

        doc.undoStack()->undo();
        QCOMPARE(action(index), before);
        QCOMPARE(Core::ScenarioFile::serialize(doc.scenario()), opened);
        doc.undoStack()->redo();
        QCOMPARE(action(index), after);
    }

    // A press that wobbles less than 3 px either way is a click: at 1 px per tick those 2 px
    // would be 2 ticks if they counted. Nothing changes, and finishing pushes nothing.
    void lessThanThreePixelsIsNoMove()
    {
        TimelineDrag drag(&doc);
        QVERIFY(drag.begin(hitOn(Hit::WriteMarker, 1), kPress, doc.trace()));
        drag.move(kPress + QPointF(2, -2), 1, kPreviewThrough);
        drag.move(kPress + QPointF(-2, 2), 1, kPreviewThrough);
        QVERIFY(!drag.hasMoved());
        QVERIFY(drag.label().isEmpty());
        QCOMPARE(drag.lastPos(), kPress + QPointF(-2, 2));
        QCOMPARE(action(1).at, Tick(4));
        QVERIFY(!doc.isPreviewing());
        drag.finish();
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(Core::ScenarioFile::serialize(doc.scenario()), opened);
    }

    // 3 px straight down is a move, of 0 ticks: the label shows, but a drag that changed
    // nothing leaves no undo step.
    void moveOfNoTicksPushesNothing()
    {
        TimelineDrag drag(&doc);
        QVERIFY(drag.begin(hitOn(Hit::WriteMarker, 1), kPress, doc.trace()));
        drag.move(kPress + QPointF(0, 3), 1, kPreviewThrough);
        QVERIFY(drag.hasMoved());
        QCOMPARE(drag.label(), QStringLiteral("at 4"));
        drag.finish();
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(Core::ScenarioFile::serialize(doc.scenario()), opened);
    }

    // Esc mid-drag: the action is as it was on press, byte for byte, and no undo step.
    void cancelRestores()
    {
        TimelineDrag drag(&doc);
        QVERIFY(drag.begin(hitOn(Hit::PauseBody, 2), kPress, doc.trace()));
        drag.move(ticksFromPress(5), kPixelsPerTick, kPreviewThrough);
        QCOMPARE(action(2).at, Tick(11));
        drag.cancel();
        QVERIFY(!drag.isActive());
        QVERIFY(drag.label().isEmpty());
        QCOMPARE(action(2), Action::pause(6, 3));
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(Core::ScenarioFile::serialize(doc.scenario()), opened);
        // a release after Esc (the view still gets it) finds nothing to finish
        drag.finish();
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    // Dragged away and back to where it was, then Esc: nothing to put back, but the preview
    // ends all the same, so the views that wait for a drag's end show the run again.
    void cancelAtTheStartEndsThePreview()
    {
        TimelineDrag drag(&doc);
        QVERIFY(drag.begin(hitOn(Hit::PauseBody, 2), kPress, doc.trace()));
        drag.move(ticksFromPress(5), kPixelsPerTick, kPreviewThrough);
        drag.move(ticksFromPress(0), kPixelsPerTick, kPreviewThrough);
        QCOMPARE(action(2), Action::pause(6, 3));
        QVERIFY(doc.isPreviewing());
        drag.cancel();
        QVERIFY(!doc.isPreviewing());
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(Core::ScenarioFile::serialize(doc.scenario()), opened);
    }

    // Two drags, two undo steps; undoing both gives back the scenario as opened.
    void oneStepPerDrag()
    {
        TimelineDrag drag(&doc);
        QVERIFY(drag.begin(hitOn(Hit::PauseEnd, 2), kPress, doc.trace()));
        for (int px = 1; px <= 40; ++px)
            drag.move(kPress + QPointF(px, 0), kPixelsPerTick, kPreviewThrough);
        drag.finish();
        QCOMPARE(action(2).amount, Tick(7));
        QCOMPARE(doc.undoStack()->count(), 1);
        QVERIFY(drag.begin(hitOn(Hit::AcquireMarker, 0), kPress, doc.trace()));
        drag.move(ticksFromPress(1), kPixelsPerTick, kPreviewThrough);
        drag.finish();
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(Core::ScenarioFile::serialize(doc.scenario()), opened);
    }

    // What a drag does not change: a click-only item, a lane header, empty space.
    void beginOnlyOnDraggableParts()
    {
        TimelineDrag drag(&doc);
        QVERIFY(!drag.begin(hitOn(Hit::StorageWrite, 1), kPress, doc.trace()));
        QVERIFY(!drag.begin(hitOn(Hit::LaneHeader, -1), kPress, doc.trace()));
        QVERIFY(!drag.begin(Hit(), kPress, doc.trace()));
        QVERIFY(!drag.isActive());
        drag.move(ticksFromPress(4), kPixelsPerTick, kPreviewThrough);
        drag.finish();
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(Core::ScenarioFile::serialize(doc.scenario()), opened);
    }
};

QTEST_GUILESS_MAIN(TestTimelineDrag)
#include "tst_timelinedrag.moc"
