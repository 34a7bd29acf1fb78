// How fencing goes wrong, on the timeline (docs/SCENARIO.md sections 11 and 12): keepalive ticks on
// the lease bar, "told: lease gone" where a belief ends, the check-then-write bracket and a
// skipped write, a storage restart that forgets max_token (the line drops to 0), a version
// storage's "v1" and its rejected compare-and-set, reads as arrows, a partial group, a bypass
// client's unfenced path. The records are put into simulated traces by hand, each worked out
// for the picture it must give, and checked on offscreen pictures and on the words painted.

#include "lanepicture.h"
#include "recordingdevice.h"
#include "scenariofile.h"
#include "simulator.h"
#include "timelinerenderer.h"

#include <QImage>
#include <QPainter>
#include <QTest>

namespace {

using LanePictures::findText;
using LanePictures::Picture;

void render(Picture &pic, const Core::Scenario &s, const Core::Trace &t)
{
    LanePictures::render(pic, s, t, QStringLiteral("pitfall"));
}

bool contains(const QRectF &r, QPointF p)
{
    return p.x() >= r.left() && p.x() <= r.right() && p.y() >= r.top() && p.y() <= r.bottom();
}

// The darkest lightness in column x between y0 and y1.
int darkest(const QImage &img, double x, double y0, double y1)
{
    int d = 255;
    for (int y = int(y0); y <= int(y1); ++y)
        d = std::min(d, img.pixelColor(int(std::round(x)), y).lightness());
    return d;
}

// A alone: acquire at 0 with a ttl of 10, then the given actions.
Core::Scenario alone(std::vector<Core::Action> more = {})
{
    Core::Scenario s = Core::ScenarioFile::defaultScenario();
    s.clients.resize(1);
    s.clients[0].actions = {Core::Action::acquire(0, 10)};
    for (Core::Action &a : more)
        s.clients[0].actions.push_back(a);
    s.horizon = 30;
    return s;
}

// Appends an event of client 0 at the end of the trace (it must be the latest).
void append(Core::Trace &t, Core::EventKind kind, Core::Tick tick, std::uint32_t ref)
{
    t.events.push_back(Core::Event{tick, ref, 0, kind});
    t.clientEvents[0].push_back(std::uint32_t(t.events.size() - 1));
}

} // namespace

class TestPitfallLanes : public QObject
{
    Q_OBJECT
private slots:
    void keepalivesAreTicksOnTheLeaseBar()
    {
        // keepalive renewals at 3 and 6 keep A's lease to 16; the acquire's marker stays alone
        const Core::Scenario s = alone();
        Core::Trace t = Core::simulate(s);
        QCOMPARE(t.grants.size(), std::size_t(1));
        for (const Core::Tick at : {Core::Tick(3), Core::Tick(6)}) {
            Core::Grant g = t.grants[0];
            g.at = at;
            g.expires = at + 10;
            g.renewal = true;
            g.keepalive = true;
            t.grants.push_back(g);
            append(t, Core::EventKind::Renewal, at, std::uint32_t(t.grants.size() - 1));
        }
        t.leases[0].end = 16;
        Picture pic;
        render(pic, s, t);
        const QRectF holds = pic.layout.panels.front().clients[0].holds;
        const QColor lease = Theme::light().lease;
        for (const double tick : {3.0, 6.0}) {
            // a light tick across the top of the blue bar
            const QColor c =
                pic.image.pixelColor(int(std::round(pic.x(tick))), int(holds.top() + 5));
            QVERIFY2(c.lightness() > 200, qPrintable(c.name()));
        }
        for (const double tick : {4.5, 7.5})
            QCOMPARE(pic.image.pixelColor(int(pic.x(tick)), int(holds.top() + 5)), lease);
        // the bar's bottom half has no ticks
        QCOMPARE(pic.image.pixelColor(int(std::round(pic.x(3))), int(holds.bottom() - 3)), lease);
        for (const RecordingDevice::Text &text : pic.words.texts)
            QVERIFY2(!text.text.startsWith(QStringLiteral("renew")), qPrintable(text.text));
    }

    void failedKeepaliveEndsTheBelief()
    {
        const Core::Scenario s = alone();
        Core::Trace t = Core::simulate(s);
        t.lost.push_back(Core::Lost{12, 0, 1, Core::LostReason::Keepalive});
        t.beliefs[0].back().to = 12;
        t.beliefs[0].back().end = Core::BeliefEnd::Told;
        append(t, Core::EventKind::Lost, 12, 0);
        Picture pic;
        render(pic, s, t);
        const QRectF row = pic.layout.panels.front().clients[0].believes;
        const auto *told = findText(pic, QStringLiteral("told: lease gone"));
        QVERIFY(told);
        QVERIFY(contains(row, told->at));
        QVERIFY(told->at.x() > pic.x(12) && told->at.x() < pic.x(12) + 10);
        QVERIFY(darkest(pic.image, pic.x(12), row.top() + 2, row.bottom() - 2) < 80);
        QVERIFY(darkest(pic.image, pic.x(8.5), row.top() + 2, row.bottom() - 2) > 80);
    }

    void checkThenWriteIsABracketAndASkipIsMarked()
    {
        // A checks at 2 and sends at 5 (a gap of 3); a second checked write at 7 is skipped
        const Core::Scenario s = alone({Core::Action::write(2, QStringLiteral("v")),
                                        Core::Action::write(7, QStringLiteral("w"))});
        Core::Trace t = Core::simulate(s);
        t.checks.push_back(Core::Check{2, 5, 0, 1, 1, 0, true});
        t.checks.push_back(Core::Check{7, 7, 0, 2, 1, Core::kNone, false});
        t.skips.push_back(Core::Skip{7, 0, 2, 1, true});
        Picture pic;
        render(pic, s, t);
        const QRectF markers = pic.layout.panels.front().clients[0].markers;
        // the bracket's floor runs from 2 to 5 along the bottom of the marker row
        const double y = markers.bottom() + 1;
        for (const double tick : {2.5, 3.5, 4.5})
            QVERIFY2(darkest(pic.image, pic.x(tick), y - 1, y + 1) < 150,
                     qPrintable(QString::number(tick)));
        QVERIFY(darkest(pic.image, pic.x(1.5), y - 1, y + 1) > 200);
        QVERIFY(darkest(pic.image, pic.x(5.5), y - 1, y + 1) > 200);
        // named with its gap (the scenario's: 0 here), in the pause row where no pause lies
        // under the words: not left of the check (2 ticks from the plot's edge are too few for
        // the words), so right of the send at 5
        const auto *check = findText(pic, QStringLiteral("check · gap 0"));
        QVERIFY(check);
        QVERIFY(check->at.x() > pic.x(5) && check->at.x() < pic.x(6));
        QVERIFY(contains(pic.layout.panels.front().clients[0].pauses, check->at));
        const auto *skipped = findText(pic, QStringLiteral("skipped"));
        QVERIFY(skipped);
        QVERIFY(contains(markers, skipped->at));
        QVERIFY(skipped->at.x() > pic.x(7) && skipped->at.x() < pic.x(7) + 20);
    }

    void volatileMaxTokenDropsAtARestart()
    {
        // A writes at 1 with token 1 (max_token 1); the storage restarts at 6: a durable
        // max_token survives it, a volatile one is forgotten (real runs of the simulator)
        Core::Scenario s = alone({Core::Action::write(1, QStringLiteral("a"))});
        s.storages[0].restarts = {6};
        const Core::Trace kept = Core::simulate(s);
        QCOMPARE(kept.writes.size(), std::size_t(1));
        QCOMPARE(kept.writes[0].maxToken, Core::Token(1));
        QCOMPARE(kept.restarts.size(), std::size_t(1));
        QCOMPARE(kept.restarts[0].forgot, Core::Token(0));
        Core::Scenario volatileStore = s;
        volatileStore.storages[0].durable = false;
        const Core::Trace forgot = Core::simulate(volatileStore);
        QCOMPARE(forgot.restarts.size(), std::size_t(1));
        QCOMPARE(forgot.restarts[0].tick, Core::Tick(6));
        QCOMPARE(forgot.restarts[0].forgot, Core::Token(1));
        Picture before;
        render(before, s, kept);
        Picture after;
        render(after, volatileStore, forgot);
        const QRectF row = after.layout.panels.front().storages[0].maxToken.adjusted(0, 4, 0, -4);
        const QColor line = Theme::light().maxToken;
        const auto lineAt = [&](const Picture &p, double tick, double y) {
            return p.image.pixelColor(int(p.x(tick)), int(std::round(y))) == line;
        };
        // max 1 is the row's top; after the restart the line runs along 0, its bottom
        QVERIFY(lineAt(before, 8.5, row.top()));
        QVERIFY(!lineAt(before, 8.5, row.bottom()));
        QVERIFY(lineAt(after, 4.5, row.top()));
        QVERIFY(!lineAt(after, 8.5, row.top()));
        QVERIFY(lineAt(after, 8.5, row.bottom()));
        const auto *text = findText(after, QStringLiteral("max_token 1 forgotten"));
        QVERIFY(text);
        QCOMPARE(text->color, Theme::light().corruptedText);
        QVERIFY(text->at.x() > after.x(6) && text->at.x() < after.x(6) + 10);
        QVERIFY(findText(after, QStringLiteral("max_token (volatile)")));
        QVERIFY(!findText(before, QStringLiteral("max_token 1 forgotten")));
        QVERIFY(findText(before, QStringLiteral("restart")));
        QVERIFY(!findText(before, QStringLiteral("max_token (volatile)")));
        // the restart line crosses the whole storage lane
        const QRectF lane = after.layout.panels.front().storages[0].lane;
        QVERIFY(darkest(after.image, after.x(6), lane.top() + 2, lane.top() + 4) < 150);
    }

    // The restart's words end before the next write arrives: there the step line rises through
    // the max_token row (JournalNode's "max_token 2 forgotten" was crossed by it at 1280x800).
    void forgottenWordsEndBeforeTheNextArrival()
    {
        // A writes at 1 (max_token 1); the volatile storage restarts at 6 and forgets it; A
        // writes again at 11 with token 1, accepted against 0: the line rises at 11. At 20 px a
        // tick the long words (about 130 px) do not fit in the 100 px from 6 to 11.
        Core::Scenario s = alone({Core::Action::write(1, QStringLiteral("a")),
                                  Core::Action::write(11, QStringLiteral("b"))});
        s.storages[0].restarts = {6};
        s.storages[0].durable = false;
        const Core::Trace t = Core::simulate(s);
        QCOMPARE(t.restarts.size(), std::size_t(1));
        QCOMPARE(t.restarts[0].forgot, Core::Token(1));
        QCOMPARE(t.writes.size(), std::size_t(2));
        QCOMPARE(t.writes[1].arrivedAt, Core::Tick(11));
        QCOMPARE(t.writes[1].maxToken, Core::Token(1));
        Picture pic;
        render(pic, s, t);
        const RecordingDevice::Text *text = nullptr;
        for (const RecordingDevice::Text &w : pic.words.texts)
            if (w.text.endsWith(QStringLiteral("forgotten")))
                text = &w;
        QVERIFY(text);
        // right of the restart's line and ending before the arrival, or left of the line and
        // after the first write's rise at 1
        const QString where = QStringLiteral("'%1' at %2..%3; restart at %4, arrival at %5")
                                  .arg(text->text)
                                  .arg(text->shown.left())
                                  .arg(text->shown.right())
                                  .arg(pic.x(6))
                                  .arg(pic.x(11));
        QVERIFY2((text->shown.right() < pic.x(6) && text->shown.left() > pic.x(1) + 5) ||
                     (text->shown.left() > pic.x(6) && text->shown.right() < pic.x(11) - 5),
                 qPrintable(where));
    }

    void versionStorageShowsVersionsAndTheFailedCompareAndSet()
    {
        // A writes at 1 (applied: version 1) and at 8 expecting version 0 again: rejected,
        // the storage is at version 1; a read at 2 learnt version 1
        Core::Scenario s =
            alone({Core::Action::write(1, QStringLiteral("a")), Core::Action::read(2),
                   Core::Action::write(8, QStringLiteral("b"))});
        s.storages[0].check = Core::StorageCheck::Version;
        Core::Trace t = Core::simulate(s);
        QCOMPARE(t.writes.size(), std::size_t(2));
        t.writes[1].result = Core::WriteResult::Rejected;
        t.writes[1].applied = false;
        t.writeVersions = {Core::WriteVersion{0, 1}, Core::WriteVersion{0, 1}};
        t.finals[0].version = 1;
        t.reads = {Core::Read{2, 2, 1, 0, 2, 0, true}};
        Picture pic;
        render(pic, s, t);
        QVERIFY(findText(pic, QStringLiteral("accepted, v1")));
        QVERIFY(findText(pic, QStringLiteral("expected version 0, found 1")));
        QVERIFY(findText(pic, QStringLiteral("v1")));
        QVERIFY(findText(pic, QStringLiteral("version")));
        QVERIFY(findText(pic, QStringLiteral("compare-and-set")));
        for (const RecordingDevice::Text &text : pic.words.texts)
            QVERIFY2(!text.text.startsWith(QStringLiteral("max ")), qPrintable(text.text));
        // the read: an arrow up from the storage at t=2, told at the reader
        const auto *read = findText(pic, QStringLiteral("read v1"));
        QVERIFY(read);
        const TimelinePanel &p = pic.layout.panels.front();
        QVERIFY(contains(p.clients[0].pauses, read->at));
        QVERIFY(read->at.x() > pic.x(2) && read->at.x() < pic.x(2) + 10);
        // (through the empty pause row, where nothing else is blue)
        const QColor arrow =
            pic.image.pixelColor(int(std::round(pic.x(2))), int(p.clients[0].pauses.center().y()));
        QVERIFY2(arrow.blue() > arrow.red() + 60, qPrintable(arrow.name()));
    }

    void maxTokenInTheSourcesOwnForm()
    {
        // a ZooKeeper token is the lock znode's czxid: epoch 1, first change, 0x1_00000001
        // (docs/SCENARIO.md section 9); A's write at 1 raises max_token to it, and the row says
        // it as every other token on the timeline does, not as the number 4294967297
        Core::Scenario s = alone({Core::Action::write(1, QStringLiteral("a"))});
        s.tokens = Core::TokenSource::ZooKeeper;
        const Core::Trace t = Core::simulate(s);
        QCOMPARE(t.writes.size(), std::size_t(1));
        QCOMPARE(t.writes[0].maxToken, Core::Token(0x100000001));
        Picture pic;
        render(pic, s, t);
        QVERIFY(findText(pic, QStringLiteral("max 0x1_00000001")));
        for (const RecordingDevice::Text &text : pic.words.texts)
            QVERIFY2(!text.text.contains(QStringLiteral("4294967297")), qPrintable(text.text));
    }

    void partialGroupIsFlagged()
    {
        // one update across db and cache: db applied, cache not
        Core::Scenario s = alone({Core::Action::write(1, QStringLiteral("a"), 0),
                                  Core::Action::write(1, QStringLiteral("a"), 1)});
        s.storages.push_back(Core::StorageSpec::named(QStringLiteral("cache")));
        Core::Trace t = Core::simulate(s);
        QCOMPARE(t.writes.size(), std::size_t(2));
        Core::GroupOutcome g;
        g.name = QStringLiteral("order");
        g.applied = {0};
        g.notApplied = {1};
        g.writes = {0, 1};
        g.partial = true;
        t.groups.push_back(g);
        Picture pic;
        render(pic, s, t);
        const auto *flag = findText(pic, QStringLiteral("order: partial"));
        QVERIFY(flag);
        QCOMPARE(flag->color, Theme::light().corruptedText);
        // the link between the two arrivals crosses the gap between the storage lanes
        const TimelinePanel &p = pic.layout.panels.front();
        const double y = (p.storages[0].lane.bottom() + p.storages[1].outcomes.top()) / 2;
        QVERIFY(darkest(pic.image, pic.x(1), y - 3, y + 3) < 200);
        t.groups[0].partial = false;
        t.groups[0].applied = {0, 1};
        t.groups[0].notApplied = {};
        Picture whole;
        render(whole, s, t);
        QVERIFY(!findText(whole, QStringLiteral("order: partial")));
        QVERIFY(findText(whole, QStringLiteral("order: all applied")));
    }

    void bypassClientIsAnUnfencedPath()
    {
        Core::Scenario s = alone({Core::Action::write(2, QStringLiteral("a"))});
        Picture fenced;
        render(fenced, s, Core::simulate(s));
        s.clients[0].bypass = true;
        Picture bypass;
        render(bypass, s, Core::simulate(s));
        const auto *label = findText(bypass, QStringLiteral("unfenced path"));
        QVERIFY(label);
        QCOMPARE(label->color, Theme::light().corruptedText);
        QVERIFY(contains(bypass.layout.panels.front().clients[0].header, label->at));
        QVERIFY(!findText(fenced, QStringLiteral("unfenced path")));
        // the write goes straight through the lock lane, in the corruption's colour
        const QRectF lock = bypass.layout.panels.front().lock;
        const auto reddish = [&](const Picture &p) {
            int n = 0;
            for (int y = int(lock.top()); y < int(lock.bottom()); ++y)
                for (int dx = -1; dx <= 1; ++dx) {
                    const QColor c = p.image.pixelColor(int(std::round(p.x(2))) + dx, y);
                    n += c.red() > c.blue() + 80 ? 1 : 0;
                }
            return n;
        };
        QVERIFY(reddish(bypass) > 5);
        QCOMPARE(reddish(fenced), 0);
    }

    // --- the same on real runs of the simulator ----------------------------------------

    void keepaliveStoppedByAPause()
    {
        // A: acquire at 0, ttl 6, keepalive every 2: renewals at 2, 4, 6 (expiry 12); frozen
        // over [7, 17), the keepalive due at 8 runs at the thaw, after the deferred write, and
        // finds the lease gone: told at 17
        Core::Scenario s = alone();
        Core::Action acquire = Core::Action::acquire(0, 6);
        acquire.setKeepalive(2);
        s.clients[0].actions = {acquire, Core::Action::pause(7, 10),
                                Core::Action::write(8, QStringLiteral("late"))};
        const Core::Trace t = Core::simulate(s);
        std::vector<Core::Tick> keepalives;
        for (const Core::Grant &g : t.grants)
            if (g.keepalive)
                keepalives.push_back(g.at);
        QCOMPARE(keepalives, (std::vector<Core::Tick>{2, 4, 6}));
        QCOMPARE(t.leases[0].end, Core::Tick(12));
        QCOMPARE(t.lost.size(), std::size_t(1));
        QCOMPARE(t.lost[0].at, Core::Tick(17));
        QVERIFY(t.lost[0].reason == Core::LostReason::Keepalive);
        Picture pic;
        render(pic, s, t);
        const QRectF holds = pic.layout.panels.front().clients[0].holds;
        for (const double tick : {2.0, 4.0, 6.0})
            QVERIFY(pic.image.pixelColor(int(std::round(pic.x(tick))), int(holds.top() + 5))
                        .lightness() > 200);
        QCOMPARE(pic.image.pixelColor(int(pic.x(5)), int(holds.top() + 5)), Theme::light().lease);
        const auto *told = findText(pic, QStringLiteral("told: lease gone"));
        QVERIFY(told);
        QVERIFY(told->at.x() > pic.x(17) && told->at.x() < pic.x(17) + 10);
        for (const RecordingDevice::Text &text : pic.words.texts)
            QVERIFY2(!text.text.startsWith(QStringLiteral("renew")), qPrintable(text.text));
    }

    void slowClockShowsItsOwnExpiry()
    {
        // B's clock runs at half speed: granted at 11 (local 5) with ttl 4, it judges the
        // lease live while floor(t / 2) - 5 < 4, through t=17; the lock service ends it at 15.
        // Its checked write at 17 passes the check by its clock and is sent on a dead lease.
        Core::Scenario s = alone();
        s.clients[0].actions = {Core::Action::acquire(11, 4)};
        s.clients[0].clock.rateMilli = 500;
        Core::Action write = Core::Action::write(17, QStringLiteral("B"));
        write.check = true;
        s.clients[0].actions.push_back(write);
        const Core::Trace t = Core::simulate(s);
        QCOMPARE(t.leases[0].end, Core::Tick(15));
        QCOMPARE(Core::ownLeaseEnd(s, t.grants[0]), Core::Tick(18));
        QCOMPARE(t.checks.size(), std::size_t(1));
        QVERIFY(t.checks[0].passed);
        QCOMPARE(t.writes.size(), std::size_t(1));
        QCOMPARE(t.writes[0].sentAt, Core::Tick(17));
        Picture pic;
        render(pic, s, t);
        const auto *own = findText(pic, QStringLiteral("expires 18 by its clock"));
        QVERIFY(own);
        QVERIFY(own->at.x() > pic.x(18) && own->at.x() < pic.x(18) + 10);
        QVERIFY(contains(pic.layout.panels.front().clients[0].believes, own->at));
        // the real end is told too, and a default clock draws no second mark
        QVERIFY(findText(pic, QStringLiteral("expires 15")));
        s.clients[0].clock = Core::ClientClock{};
        Picture plain;
        render(plain, s, Core::simulate(s));
        for (const RecordingDevice::Text &text : plain.words.texts)
            QVERIFY2(!text.text.contains(QStringLiteral("by its clock")), qPrintable(text.text));
    }

    void compareAndSetOnARealRun()
    {
        // cache is a version storage. A reads it at 1 (version 0), is frozen over [2, 16) with
        // its write pending; B reads at 12 (version 0) and writes at 13 (applied: version 1);
        // A's write at 16 expects version 0 and finds 1: rejected
        Core::Scenario s = alone();
        s.storages[0].check = Core::StorageCheck::Version;
        s.clients[0].actions = {Core::Action::acquire(0, 10), Core::Action::read(1),
                                Core::Action::pause(2, 14),
                                Core::Action::write(3, QStringLiteral("A"))};
        Core::Client b;
        b.name = QStringLiteral("B");
        b.actions = {Core::Action::acquire(11, 10), Core::Action::read(12),
                     Core::Action::write(13, QStringLiteral("B"))};
        s.clients.push_back(b);
        const Core::Trace t = Core::simulate(s);
        QCOMPARE(t.writes.size(), std::size_t(2));
        QCOMPARE(t.writeVersions.size(), std::size_t(2));
        QVERIFY(t.writes[1].result == Core::WriteResult::Rejected);
        QCOMPARE(t.writeVersions[1].expected, std::uint64_t(0));
        QCOMPARE(t.writeVersions[1].version, std::uint64_t(1));
        Picture pic;
        render(pic, s, t);
        QVERIFY(findText(pic, QStringLiteral("expected version 0, found 1")));
        QVERIFY(findText(pic, QStringLiteral("accepted, v1")));
        QCOMPARE(std::count_if(pic.words.texts.begin(), pic.words.texts.end(),
                               [](const RecordingDevice::Text &x) {
                                   return x.text == QStringLiteral("read v0");
                               }),
                 std::ptrdiff_t(2));
    }
};

QTEST_MAIN(TestPitfallLanes)
#include "tst_pitfalllanes.moc"
