// The document while dragging on a long run: setAction() re-simulates from a checkpoint and only
// as far as the screen shows, finishes the rest between frames, and the views that need the
// whole trace are paced (ChangeThrottle). Every settled trace must equal a fresh simulation.

#include "document/changethrottle.h"
#include "document/document.h"
#include "document/editcommands.h"
#include "randomscenario.h"
#include "simulator.h"
#include "tokensource.h"
#include "tracecompare.h"
#include "views/eventlogmodel.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace Core;
using TestSupport::Rng;

namespace {

// ~60,000 actions over 40,000 ticks: far more than a drag step finishes at once.
Scenario longRun(std::uint64_t seed = 5)
{
    TestSupport::RandomScenarioOptions o;
    o.minClients = o.maxClients = 4;
    o.minActions = o.maxActions = 15000;
    o.span = 40000;
    o.shufflePercent = 0;
    return TestSupport::randomScenario(seed, o);
}

// The first pause of client c at or after tick `from`.
int pauseAfter(const Scenario &s, int c, Tick from)
{
    const std::vector<Action> &actions = s.clients[size_t(c)].actions;
    for (std::size_t i = 0; i < actions.size(); ++i)
        if (actions[i].kind == ActionKind::Pause && actions[i].at >= from)
            return int(i);
    return -1;
}

QString differs(const Trace &t, const Scenario &s, bool fencing)
{
    QString why;
    return TestSupport::sameTrace(t, simulate(s, fencing), &why) ? QString() : why;
}

} // namespace

class TestDocument : public QObject
{
    Q_OBJECT
private slots:
    // Modified means "differs from what was opened or saved": an edit and its opposite leave
    // nothing to save; the fencing switch alone does not count for a scenario without a file,
    // but does for the user's own file; a recovered session stays modified until saved.
    void modifiedMeansDiffersFromSaved()
    {
        Document doc;
        QSignalSpy modified(&doc, &Document::modifiedChanged);
        const Scenario opened = doc.scenario();
        doc.undoStack()->push(EditCommands::setHorizon(&doc, Tick(77)));
        QVERIFY(doc.isModified());
        QCOMPARE(modified.count(), 1);
        doc.undoStack()->push(EditCommands::setHorizon(&doc, opened.horizon));
        QCOMPARE(doc.scenario(), opened);
        QVERIFY(!doc.isModified()); // back where it was, by a new step
        QCOMPARE(modified.count(), 2);

        doc.undoStack()->push(EditCommands::setFencing(&doc, !opened.fencing));
        QVERIFY(!doc.isModified()); // untitled: F is what a demo flips
        doc.setFilePath(QStringLiteral("/tmp/lecture.fencescope.json"));
        doc.undoStack()->push(EditCommands::setHorizon(&doc, Tick(60)));
        doc.undoStack()->undo();
        QVERIFY(doc.isModified()); // the user's file keeps the switch it saves
        doc.markSaved();
        QVERIFY(!doc.isModified());
        doc.undoStack()->undo(); // the fencing switch, undone after the save
        QVERIFY(doc.isModified());

        doc.reset(opened, QStringLiteral("/tmp/lecture.fencescope.json"));
        QVERIFY(!doc.isModified());
        doc.undoStack()->resetClean(); // as a crash recovery leaves it
        QVERIFY(doc.isModified());
    }

    // Edits through setAction (the inspector, undo of a drag) re-run from a checkpoint: the
    // trace is complete and equal to a fresh simulation after each, fenced and unfenced.
    void setActionEqualsFreshSimulation()
    {
        Document doc;
        doc.reset(longRun());
        (void)doc.traceFor(false); // compare mode: the unfenced trace follows every edit too
        Rng rng(11);
        for (int edit = 0; edit < 25; ++edit) {
            const int c = int(rng.between(0, 3));
            const int i = int(rng.between(0, doc.scenario().clients[size_t(c)].actions.size() - 1));
            Action a = doc.scenario().clients[size_t(c)].actions[size_t(i)];
            a.at = rng.between(0, 40000);
            if (a.kind != ActionKind::Release)
                a.amount = rng.between(a.kind == ActionKind::Write ? 0 : 1, 30);
            doc.setAction(c, i, a);
            QVERIFY(doc.isSettled());
            QCOMPARE(differs(doc.trace(), doc.scenario(), true), QString());
            QCOMPARE(differs(doc.traceFor(false), doc.scenario(), false), QString());
        }
    }

    // Compare mode against another token source: the same schedule with the source's lock
    // options (Core::lockOptionsFor) and the scenario's fencing switch. It follows every
    // setAction and every edit like the fenced/unfenced pair, and equals a fresh run.
    void traceWithSourceFollowsEdits()
    {
        Document doc;
        Scenario s = longRun(7);
        s.tokens = TokenSource::Counter;
        s.lock.first = 33;
        doc.reset(s);
        const auto fresh = [&doc](TokenSource src) {
            Scenario alt = doc.scenario();
            alt.tokens = src;
            alt.lock = lockOptionsFor(src, alt.lock);
            return alt;
        };
        const Scenario &random = doc.scenarioWithSource(TokenSource::Random);
        QVERIFY(random.tokens == TokenSource::Random);
        QCOMPARE(random.lock.first, Token(1)); // counter's option goes back to its default
        QCOMPARE(random.clients, doc.scenario().clients);
        QCOMPARE(differs(doc.traceWithSource(TokenSource::Random), fresh(TokenSource::Random),
                         doc.scenario().fencing),
                 QString());
        QVERIFY(doc.traceWithSource(TokenSource::Random).tokens == TokenSource::Random);
        Rng rng(12);
        for (int edit = 0; edit < 10; ++edit) {
            const int c = int(rng.between(0, 3));
            const int i = int(rng.between(0, doc.scenario().clients[size_t(c)].actions.size() - 1));
            Action a = doc.scenario().clients[size_t(c)].actions[size_t(i)];
            a.at = rng.between(0, 40000);
            doc.setAction(c, i, a);
            doc.settle();
            QCOMPARE(doc.scenarioWithSource(TokenSource::Random).clients, doc.scenario().clients);
            QCOMPARE(differs(doc.traceWithSource(TokenSource::Random), fresh(TokenSource::Random),
                             doc.scenario().fencing),
                     QString());
        }
        // a whole-scenario edit (the fencing switch) and another source
        doc.undoStack()->push(EditCommands::setFencing(&doc, !doc.scenario().fencing));
        QCOMPARE(differs(doc.traceWithSource(TokenSource::Etcd), fresh(TokenSource::Etcd),
                         doc.scenario().fencing),
                 QString());
        QVERIFY(doc.traceWithSource(TokenSource::Etcd).fencing == doc.scenario().fencing);
    }

    // A drag step shows a partial trace (exact up to the screen's end), then the rest follows
    // between frames with a second changed(); the settled trace equals a fresh simulation.
    void dragStepIsPartialThenSettles()
    {
        Document doc;
        doc.reset(longRun());
        const Trace &t = doc.trace();
        QSignalSpy changed(&doc, &Document::changed);
        const int i = pauseAfter(doc.scenario(), 0, 1000);
        QVERIFY(i >= 0);
        Action a = doc.scenario().clients[0].actions[size_t(i)];
        a.at += 2;
        a.amount += 20000; // its effect lasts far past the screen: no early end (see below)
        const Tick through = a.at + 200;
        doc.setAction(0, i, a, through);
        QCOMPARE(changed.count(), 1);
        QVERIFY(doc.isPreviewing());
        QVERIFY(!t.complete());
        QVERIFY(!doc.isSettled());
        QVERIFY(t.pendingFrom > through);
        QVERIFY(!t.events.empty() && t.events.back().tick < t.pendingFrom);
        const Trace full = simulate(doc.scenario());
        QVERIFY(t.events.size() < full.events.size());
        QCOMPARE(t.events.size(), std::size_t(full.firstEventAt(t.pendingFrom)));

        QTRY_VERIFY(doc.isSettled());
        QCOMPARE(changed.count(), 2);
        QCOMPARE(differs(t, doc.scenario(), true), QString());
        doc.endPreview();
        QVERIFY(!doc.isPreviewing());
        QCOMPARE(changed.count(), 3); // paced views catch up with the drag's end
    }

    // A drag step whose effect is soon over (a pause of a client that does nothing else) finds
    // the last run's state again a little past the screen: the rest of that run is kept, so
    // the step is complete at once and every view can follow it.
    void dragStepThatRejoinsIsComplete()
    {
        Scenario s = longRun();
        Client idle;
        idle.name = QStringLiteral("idle");
        idle.actions = {Action::pause(20000, 40)};
        s.clients.push_back(idle);
        Document doc;
        doc.reset(s);
        (void)doc.traceFor(false);
        QSignalSpy changed(&doc, &Document::changed);
        const int c = int(s.clients.size() - 1);
        for (int step = 1; step <= 5; ++step) {
            Action a = doc.scenario().clients[size_t(c)].actions[0];
            a.at += 3;
            doc.setAction(c, 0, a, a.at + 100);
            QVERIFY(doc.isSettled());
            QVERIFY(doc.trace().complete());
            QCOMPARE(changed.count(), step); // no second announcement: nothing left to finish
            QCOMPARE(differs(doc.trace(), doc.scenario(), true), QString());
            QCOMPARE(differs(doc.traceFor(false), doc.scenario(), false), QString());
        }
        // a long pause changes what follows for longer than a step looks ahead: partial
        Action a = doc.scenario().clients[0].actions[size_t(pauseAfter(doc.scenario(), 0, 1000))];
        a.amount += 20000;
        doc.setAction(0, pauseAfter(doc.scenario(), 0, 1000), a, a.at + 100);
        QVERIFY(!doc.isSettled());
        QTRY_VERIFY(doc.isSettled());
        QCOMPARE(differs(doc.trace(), doc.scenario(), true), QString());
    }

    // The next drag step can come before the previous one settled; settle() finishes at once.
    void stepsOverlapAndSettleFinishes()
    {
        Document doc;
        doc.reset(longRun(6));
        (void)doc.traceFor(false);
        const int i = pauseAfter(doc.scenario(), 1, 500);
        for (int step = 1; step <= 8; ++step) {
            Action a = doc.scenario().clients[1].actions[size_t(i)];
            a.amount += 1;
            doc.setAction(1, i, a, a.at + 100);
        }
        QVERIFY(!doc.isSettled());
        doc.settle();
        QVERIFY(doc.isSettled());
        QCOMPARE(differs(doc.trace(), doc.scenario(), true), QString());
        QCOMPARE(differs(doc.traceFor(false), doc.scenario(), false), QString());
    }

    // Paced views: never shown a partial trace, at most one refresh per interval while a drag
    // previews, and the drag's last state always reaches them.
    void throttlePacesViewsDuringDrags()
    {
        Document doc;
        doc.reset(longRun());
        int refreshes = 0;
        bool sawPartial = false;
        std::uint64_t seenCorrupted = ~0ull;
        ChangeThrottle throttle(
            &doc, nullptr,
            [&] {
                ++refreshes;
                sawPartial |= !doc.trace().complete();
                seenCorrupted = doc.trace().summary.corrupted;
            },
            10000);
        const int i = pauseAfter(doc.scenario(), 2, 2000);
        Action a = doc.scenario().clients[2].actions[size_t(i)];
        a.at += 1;
        a.amount += 20000;
        doc.setAction(2, i, a, a.at + 50); // partial: nothing to show yet
        QCOMPARE(refreshes, 0);
        QVERIFY(throttle.isPending());
        QTRY_COMPARE(refreshes, 1); // settled: the first refresh of the drag comes at once
        for (int step = 0; step < 5; ++step) {
            a.at += 1;
            doc.setAction(2, i, a, kForever - 1); // through (nearly) everything: complete
            QVERIFY(doc.trace().complete());
        }
        QCOMPARE(refreshes, 1); // within the interval: paced
        doc.endPreview();
        QCOMPARE(refreshes, 2); // the drag ended: the last state is shown at once
        QVERIFY(!sawPartial);
        QCOMPARE(seenCorrupted, simulate(doc.scenario()).summary.corrupted);

        // without a drag every change refreshes at once
        doc.undoStack()->push(EditCommands::setFencing(&doc, false));
        QCOMPARE(refreshes, 3);
    }

    // A view whose refresh is slow (a chart of a long run) would make every drag step that
    // refreshes it stutter: while a drag previews, it waits for the drag's end instead.
    void slowViewsWaitForTheDragsEnd()
    {
        Document doc;
        doc.reset(longRun());
        int fast = 0, slow = 0;
        ChangeThrottle quick(
            &doc, nullptr, [&] { ++fast; }, 0);
        ChangeThrottle heavy(
            &doc, nullptr,
            [&] {
                ++slow;
                QElapsedTimer busy;
                busy.start();
                while (busy.nsecsElapsed() <= ChangeThrottle::kPreviewBudgetNs + 1'000'000) {
                }
            },
            0);
        doc.undoStack()->push(EditCommands::setFencing(&doc, false)); // not a drag: both at once
        QCOMPARE(fast, 1);
        QCOMPARE(slow, 1);
        const int i = pauseAfter(doc.scenario(), 2, 2000);
        Action a = doc.scenario().clients[2].actions[size_t(i)];
        for (int step = 0; step < 3; ++step) {
            a.at += 1;
            doc.setAction(2, i, a, kForever - 1);
            QVERIFY(doc.trace().complete());
        }
        QCOMPARE(fast, 4); // no interval: every complete step
        QCOMPARE(slow, 1);
        QVERIFY(heavy.isPending());
        doc.endPreview();
        QCOMPARE(slow, 2);
        QVERIFY(!heavy.isPending());
    }

    // The event log's row count changes only inside its (paced) resets, although the trace is
    // cut back and regrown underneath during a drag.
    void eventLogStaysAValidModelDuringDrags()
    {
        Document doc;
        doc.reset(longRun(7));
        EventLogModel model(&doc);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int rows = model.rowCount();
        const int i = pauseAfter(doc.scenario(), 0, 100);
        Action a = doc.scenario().clients[0].actions[size_t(i)];
        a.at += 1;
        a.amount += 20000;
        doc.setAction(0, i, a, a.at + 20);
        QCOMPARE(model.rowCount(), rows); // partial trace: no reset yet
        QVERIFY(model.liveRows() < rows);
        // a row past the cut is empty, not a crash
        QCOMPARE(model.index(rows - 1, EventLogModel::EventColumn).data(), QVariant());
        QTRY_VERIFY(doc.isSettled());
        doc.endPreview();
        QCOMPARE(model.rowCount(), int(doc.trace().events.size()));
        QVERIFY(model.index(rows - 1, EventLogModel::EventColumn).data().isValid());
    }
};

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
