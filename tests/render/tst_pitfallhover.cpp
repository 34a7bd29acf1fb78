// What the mouse finds on the elements of docs/SCENARIO.md sections 11 and 12 (hit test) and what
// their hover text says (describe): keepalive ticks, a failed keepalive, a check bracket and its
// send, a skipped write, the "by its clock" expiry mark, a bypass client's and a version
// storage's writes, restarts, reads. The events each text is about are worked out by hand from
// the presets (their descriptions say the same); texts that core writes are core's
// (Core::explainEvent, Core::explainWrite) for exactly that event.

#include "explain.h"
#include "scenariofile.h"
#include "simulator.h"
#include "timelinerenderer.h"

#include <QGuiApplication>
#include <QtTest>

using Core::Tick;
using Hit = TimelineRenderer::Hit;

namespace {

struct Picture
{
    Core::Scenario s;
    Core::Trace t;
    TimelineRenderer::Options o;
    QRectF rect;
    TimeAxis axis;
    TimelineLayout l;
    TimelineRenderer r;

    explicit Picture(const QString &preset)
    {
        Core::LoadResult lr = Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(preset));
        if (!lr.ok())
            qFatal("%s: %s", qPrintable(preset), qPrintable(lr.error));
        s = *lr.scenario;
        t = Core::simulate(s);
        rect = QRectF(QPointF(0, 0), TimelineRenderer::preferredSize(s, o, 1000));
        rect.setWidth(1000);
        axis.firstTick = -2;
        axis.pixelsPerTick = 20;
        axis.left = TimelineRenderer::headerWidth(o);
        l = TimelineRenderer::layout(s, o, rect);
    }
    Hit at(double tick, double y) const
    {
        return r.hitTest(s, t, axis, rect, o, QPointF(axis.tickToX(tick), y));
    }
    const ClientLaneRects &lane(int c) const { return l.panels.front().clients[size_t(c)]; }
    QString describe(const Hit &h) const { return TimelineRenderer::describe(s, t, h); }
    // The one event of `kind` on client `c` at `tick` (as worked out by hand).
    std::uint32_t event(int c, Tick tick, Core::EventKind kind) const
    {
        std::uint32_t found = Core::kNone;
        for (std::uint32_t i = 0; i < t.events.size(); ++i)
            if (t.events[i].client == c && t.events[i].tick == tick && t.events[i].kind == kind) {
                if (found != Core::kNone)
                    qFatal("two events of one kind at %llu", qulonglong(tick));
                found = i;
            }
        if (found == Core::kNone)
            qFatal("no event at %llu", qulonglong(tick));
        return found;
    }
};

} // namespace

class TestPitfallHover : public QObject
{
    Q_OBJECT

private slots:
    // keepalive-gc-pause: A acquires at 0 (ttl 9, keepalive 3) and renews at 3, 6 and 9; it
    // freezes [10, 25); the keepalive due at 12 goes out at the thaw 25 and fails.
    void keepaliveTicksAndTheFailedOne()
    {
        Picture p(QStringLiteral("keepalive-gc-pause"));
        const double top = p.lane(0).holds.top() + 4;
        for (const Tick k : {Tick(3), Tick(6), Tick(9)}) {
            const Hit h = p.at(double(k), top);
            QCOMPARE(h.part, Hit::Pitfall);
            QCOMPARE(h.client, 0);
            QCOMPARE(h.action, 0); // the acquire that keeps alive
            QCOMPARE(h.ref, p.event(0, k, Core::EventKind::Renewal));
            QCOMPARE(p.describe(h), Core::explainEvent(p.s, p.t, h.ref));
            QVERIFY2(p.describe(h).contains(QStringLiteral("keepalive"), Qt::CaseInsensitive),
                     qPrintable(p.describe(h)));
        }
        // between the ticks the bar is the lease, as before
        QCOMPARE(p.at(4.5, top).part, Hit::LockSegment);
        // the failed keepalive at the thaw, on the belief row
        const Hit lost = p.at(25, p.lane(0).believes.center().y());
        QCOMPARE(lost.part, Hit::Pitfall);
        QCOMPARE(lost.ref, p.event(0, 25, Core::EventKind::Lost));
        QCOMPARE(p.describe(lost), Core::explainEvent(p.s, p.t, lost.ref));
        QVERIFY(!p.describe(lost).isEmpty());
    }

    // check-then-write-gap: A checks at 8 (gap 4), is frozen [9, 19) and sends at the thaw 19.
    void checkBracketAndItsSend()
    {
        Picture p(QStringLiteral("check-then-write-gap"));
        const double y = p.lane(0).markers.bottom() + 1;
        const Hit send = p.at(19, y);
        QCOMPARE(send.part, Hit::CheckSend);
        QVERIFY(send.isDraggable());
        QCOMPARE(send.action, 1); // the write
        QCOMPARE(send.ref, p.event(0, 8, Core::EventKind::Checked));
        QCOMPARE(p.describe(send), Core::explainEvent(p.s, p.t, send.ref) +
                                       QStringLiteral(" Drag to change the gap (4 ticks)."));
        const Hit body = p.at(13, y);
        QCOMPARE(body.part, Hit::CheckBracket);
        QVERIFY(!body.isDraggable());
        QCOMPARE(p.describe(body), Core::explainEvent(p.s, p.t, body.ref));
        // right of the send, nothing of the bracket
        QCOMPARE(p.at(21, y).part, Hit::None);
    }

    // The same preset with the pause moved before the check (5, for 10: frozen [5, 15)): the
    // deferred check at 15 finds the lease (ended at 10) gone and skips the write.
    void skippedWrite()
    {
        Picture p(QStringLiteral("check-then-write-gap"));
        p.s.clients[0].actions[2].at = 5;
        p.t = Core::simulate(p.s);
        QCOMPARE(p.t.skips.size(), std::size_t(1));
        const Hit h = p.at(15, p.lane(0).markers.center().y());
        QCOMPARE(h.part, Hit::WriteMarker); // the write's marker: it still moves
        QCOMPARE(h.action, 1);
        const std::uint32_t skipped = p.event(0, 15, Core::EventKind::Skipped);
        QCOMPARE(p.describe(h), Core::explainEvent(p.s, p.t, skipped));
    }

    // slow-client-clock: A's clock runs at 0.5; its 10-tick lease from 0 ends at 10, by its
    // clock at 20 (floor(0.5 * 20) = 10).
    void expiryByItsOwnClock()
    {
        Picture p(QStringLiteral("slow-client-clock"));
        const Hit h = p.at(20, p.lane(0).believes.center().y());
        QCOMPARE(h.part, Hit::OwnLeaseEnd);
        QCOMPARE(h.client, 0);
        QCOMPARE(p.describe(h),
                 QStringLiteral("By its own clock (rate 0.5) A judges the lease it renewed at "
                                "t=0 ended at 20; the lock service ended it at 10: it goes on "
                                "believing an expired lease"));
    }

    // journalnode-volatile-max-token: jn restarts at 12 and forgets max_token 2 (B's token).
    void restartForgetsMaxToken()
    {
        Picture p(QStringLiteral("journalnode-volatile-max-token"));
        const StorageLaneRects jn = p.l.panels.front().storages[0];
        const Hit h = p.at(12, jn.lane.center().y());
        QCOMPARE(h.part, Hit::Restart);
        QCOMPARE(h.ref, 0u);
        QCOMPARE(h.lane, int(p.s.clients.size()) + 1);
        QCOMPARE(p.describe(h),
                 QStringLiteral("t=12: jn restarted: its data survived, but max_token 2 was kept "
                                "in memory only and is forgotten (now 0): a stale token passes "
                                "again"));
        p.s.storages[0].durable = true;
        p.t = Core::simulate(p.s);
        QCOMPARE(p.describe(p.at(12, jn.lane.center().y())),
                 QStringLiteral("t=12: jn restarted: its data and max_token (persisted with the "
                                "data) survived"));
    }

    // bypass-background-job: the job's write goes round the check; compare-and-set-version:
    // writes judged by versions, and reads. Their texts are core's story of the write / read.
    void bypassAndVersionWritesAndReads()
    {
        {
            Picture p(QStringLiteral("bypass-background-job"));
            const std::uint32_t sent = p.event(0, 11, Core::EventKind::WriteSent);
            const Core::Write &w = p.t.writes[p.t.events[sent].ref];
            QVERIFY(w.result == Core::WriteResult::Corrupted);
            const StorageLaneRects st = p.l.panels.front().storages[0];
            const Hit h = p.at(double(w.arrivedAt), st.outcomes.center().y());
            QCOMPARE(h.part, Hit::StorageWrite);
            QCOMPARE(p.describe(h), Core::explainWrite(p.s, p.t, p.t.events[sent].ref));
        }
        {
            Picture p(QStringLiteral("compare-and-set-version"));
            // A reads at 1 (no delay): what it learnt, version 0
            const Hit read = p.at(1, p.lane(0).markers.center().y());
            QCOMPARE(read.part, Hit::WriteMarker);
            QVERIFY(p.s.clients[0].actions[size_t(read.action)].kind == Core::ActionKind::Read);
            QCOMPARE(p.describe(read),
                     Core::explainEvent(p.s, p.t, p.event(0, 1, Core::EventKind::ReadArrived)));
            QVERIFY2(p.describe(read).contains(QStringLiteral("version 0")),
                     qPrintable(p.describe(read)));
            // every write there: core's account of what it compared
            const StorageLaneRects st = p.l.panels.front().storages[0];
            QVERIFY(!p.t.writes.empty());
            const Core::Write &w = p.t.writes[0];
            const Hit h = p.at(double(w.arrivedAt), st.outcomes.center().y());
            QCOMPARE(h.part, Hit::StorageWrite);
            QCOMPARE(p.describe(h), Core::explainWrite(p.s, p.t, 0));
            QVERIFY2(p.describe(h).contains(QStringLiteral("version"), Qt::CaseInsensitive),
                     qPrintable(p.describe(h)));
        }
    }

    // two-resources-partial: A's "order" update writes db at 8 (accepted) and index at the
    // thaw 19 (rejected: B's token 2 is there since 12): partial. B's update applies on both.
    void groupWritesTellTheWholeUpdate()
    {
        Picture p(QStringLiteral("two-resources-partial"));
        QCOMPARE(p.t.groups.size(), std::size_t(2));
        const std::uint32_t groupA = p.t.groups[0].client == 0 ? 0 : 1;
        QVERIFY(p.t.groups[groupA].partial);
        QVERIFY(!p.t.groups[1 - groupA].partial);
        const QString partial = Core::explainGroup(p.s, p.t, groupA);
        QVERIFY(!partial.isEmpty());
        // A's row write on db at 8, and its index write at 19: each ends with the whole update
        const Hit row = p.at(8, p.l.panels.front().storages[0].outcomes.center().y());
        QCOMPARE(row.part, Hit::StorageWrite);
        QCOMPARE(row.client, 0);
        QVERIFY2(p.describe(row).endsWith(QLatin1Char(' ') + partial), qPrintable(p.describe(row)));
        QVERIFY(p.describe(row).startsWith(QStringLiteral("t=8: A wrote 'A' to db")));
        const Hit index = p.at(19, p.l.panels.front().storages[1].outcomes.center().y());
        QCOMPARE(index.part, Hit::StorageWrite);
        QCOMPARE(index.client, 0);
        QVERIFY(p.describe(index).endsWith(QLatin1Char(' ') + partial));
        // B's: its own group's story
        const Hit b = p.at(12, p.l.panels.front().storages[0].outcomes.center().y());
        QCOMPARE(b.client, 1);
        QVERIFY(
            p.describe(b).endsWith(QLatin1Char(' ') + Core::explainGroup(p.s, p.t, 1 - groupA)));
    }
};

QTEST_MAIN(TestPitfallHover)
#include "tst_pitfallhover.moc"
