// The seed's first pitfall done with the mouse, through the window: drag the end of a check
// bracket (the gap between checking the lease and sending the write), drag a pause into that
// gap, and watch the write go from safe to stale. One undo step per drag.
//
// The check-then-write-gap preset (docs/SCENARIO.md sections 11, 14), worked out by hand:
//   A: acquire 0 ttl 10 (token 1, ends 10); write 'A' at 8, checked, gap 4; pause at 9 for 10.
//   B: acquire 12 ttl 10 (token 2); write 'B' at 14.
//   1. pause moved to 11 (frozen [11, 21)): the send due at 12 is deferred to 21; token 1 <
//      max 2: rejected, sent after the lease ended.
//   2. gap 4 -> 1: the send is due at 9, before the pause: sent and stored at 9 inside A's
//      lease (accepted, not expired): safe.
//   3. pause moved back to 9 (frozen [9, 19)): the send due at 9 falls inside it and goes out
//      at the thaw 19, with the token checked at 8: rejected, expired: stale.

#include "document/document.h"
#include "scenariofile.h"
#include "views/timelineview.h"
#include "viewstate.h"

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtTest>

using Core::Tick;

class TestCheckGapDrag : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        Document doc;
        ViewState state;
        QWidget window;
        TimelineView *view = new TimelineView(&doc, &state, &window);
        Fixture()
        {
            Core::LoadResult r = Core::ScenarioFile::load(
                Core::ScenarioFile::builtinPath(QStringLiteral("check-then-write-gap")));
            if (!r.ok())
                qFatal("%s", qPrintable(r.error));
            doc.reset(*r.scenario);
            auto *box = new QVBoxLayout(&window);
            box->addWidget(view);
            window.resize(1000, view->sizeHint().height() + 40);
            window.show();
            window.activateWindow();
            if (!QTest::qWaitForWindowActive(&window))
                qFatal("window not active");
            state.setAxis(-2, 20); // 20 px per tick
        }
        // A point of client A's lane at `tick`, `y` inside the view, in the window.
        QPoint at(double tick, double y) const
        {
            return view->mapTo(&window, QPointF(view->axis().tickToX(tick), y).toPoint());
        }
        ClientLaneRects laneA() const { return view->currentLayout().panels.front().clients[0]; }
        // Press, move in steps, release, all on the QWindow; `during`: the label mid-drag.
        void drag(QPoint from, QPoint to, QString *during = nullptr)
        {
            QWindow *w = window.windowHandle();
            QTest::mousePress(w, Qt::LeftButton, {}, from);
            for (int i = 1; i <= 6; ++i)
                QTest::mouseMove(w, from + (to - from) * i / 6);
            if (during)
                *during = view->dragLabel();
            QTest::mouseRelease(w, Qt::LeftButton, {}, to);
        }
        const Core::Write &writeA() const
        {
            for (const Core::Write &w : doc.trace().writes)
                if (w.client == 0)
                    return w;
            qFatal("A sent nothing");
        }
    };

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_checkgapdrag"));
        QSettings().clear();
    }

    void dragTheGapThenAPauseIntoIt()
    {
        Fixture f;
        const Core::Scenario preset = f.doc.scenario();
        QCOMPARE(f.writeA().sentAt, Tick(19));

        // 1. the pause's body from 9..19 to 11..21
        const double pauseY = f.laneA().pauses.center().y();
        f.drag(f.at(14, pauseY), f.at(16, pauseY));
        QCOMPARE(f.doc.scenario().clients[0].actions[2].at, Tick(11));
        QCOMPARE(f.writeA().sentAt, Tick(21));
        QVERIFY(f.writeA().result == Core::WriteResult::Rejected);

        // 2. the bracket's end (the send, at 21) three ticks left: gap 4 -> 1
        const double bracketY = f.laneA().markers.bottom() + 1;
        QString label;
        f.drag(f.at(21, bracketY), f.at(18, bracketY), &label);
        QCOMPARE(label, QStringLiteral("gap 1"));
        QCOMPARE(f.doc.scenario().clients[0].actions[1].gap(), Tick(1));
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Change gap"));
        QCOMPARE(f.doc.undoStack()->count(), 2);
        const Core::Write safe = f.writeA();
        QCOMPARE(safe.sentAt, Tick(9));
        QCOMPARE(safe.arrivedAt, Tick(9));
        QVERIFY(safe.result == Core::WriteResult::Accepted);
        QVERIFY(!safe.expired);

        // 3. the pause back into the gap: 11..21 to 9..19
        f.drag(f.at(15, pauseY), f.at(13, pauseY));
        QCOMPARE(f.doc.scenario().clients[0].actions[2].at, Tick(9));
        const Core::Write stale = f.writeA();
        QCOMPARE(stale.sentAt, Tick(19));
        QVERIFY(stale.result == Core::WriteResult::Rejected);
        QVERIFY(stale.expired);
        QCOMPARE(f.doc.undoStack()->count(), 3);

        // one undo step per drag, back to the preset
        f.doc.undoStack()->undo();
        QCOMPARE(f.writeA().sentAt, Tick(9));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().clients[0].actions[1].gap(), Tick(4));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario(), preset);
    }

    // The gap never goes below 0: dragged far left of the check, the write sends at the check.
    void theGapStopsAtZero()
    {
        Fixture f;
        const double bracketY = f.laneA().markers.bottom() + 1;
        QString label;
        f.drag(f.at(19, bracketY), f.at(2, bracketY), &label);
        QCOMPARE(label, QStringLiteral("gap 0"));
        QCOMPARE(f.doc.scenario().clients[0].actions[1].gap(), Tick(0));
        QCOMPARE(f.writeA().sentAt, Tick(8));
        QVERIFY(f.writeA().result == Core::WriteResult::Accepted);
    }
};

QTEST_MAIN(TestCheckGapDrag)
#include "tst_checkgapdrag.moc"
