// The lock-service lane tells where tokens come from (docs/SCENARIO.md sections 9 and 10): a
// restore is a line across it labelled with its snapshot's tick, in the corruption's colour with a
// falling mark when it hands out a token again; failovers, failed elections and clock steps are
// marks in the source's words; a lock-delay is a band; a blocking acquire is a dashed bar on its
// client's lease row. Checked on the built-in scenarios whose outcomes the presets' tests work out
// by hand, on real offscreen pictures (pixels) and on the words painted (a recording paint device).

#include "lanepicture.h"
#include "tokensource.h"
#include "recordingdevice.h"
#include "scenariofile.h"
#include "simulator.h"
#include "timelinerenderer.h"

#include <QImage>
#include <QPainter>
#include <QTest>

namespace {

Core::Scenario preset(const QString &name)
{
    const Core::LoadResult loaded = Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
    if (!loaded.scenario)
        qFatal("preset %s does not load", qPrintable(name));
    return *loaded.scenario;
}

using LanePictures::findText;
using LanePictures::Picture;

void render(Picture &pic, const Core::Scenario &s, const Core::Trace &t)
{
    LanePictures::render(pic, s, t, QStringLiteral("lockservice"));
}

bool near(const QColor &a, const QColor &b, int tolerance = 12)
{
    return std::abs(a.red() - b.red()) <= tolerance &&
           std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

// How many pixels of `color` lie in the lock lane within 2 px of tick t's x.
int pixelsNear(const Picture &pic, double tick, const QColor &color)
{
    const QRectF lane = pic.layout.panels.front().lock;
    const int x = int(std::round(pic.axis.tickToX(tick)));
    int n = 0;
    for (int y = int(lane.top()); y < int(lane.bottom()); ++y)
        for (int dx = -2; dx <= 2; ++dx)
            n += near(pic.image.pixelColor(x + dx, y), color) ? 1 : 0;
    return n;
}

} // namespace

class TestLockServiceLane : public QObject
{
    Q_OBJECT
private slots:
    void laneGrowsARowOnlyForTheServicesOwnEvents()
    {
        const Core::Scenario plain = Core::ScenarioFile::defaultScenario();
        const Core::Scenario restored = preset(QStringLiteral("etcd-restore"));
        const TimelineRenderer::Options o;
        const QRectF rect(0, 0, 1200, 900);
        const TimelinePanel p = TimelineRenderer::layout(plain, o, rect).panels.front();
        const TimelinePanel q = TimelineRenderer::layout(restored, o, rect).panels.front();
        QCOMPARE(p.lockEvents.height(), 0.0);
        QCOMPARE(p.lockBars, p.lock);
        QCOMPARE(p.lock.height(), 36.0);
        QCOMPARE(q.lock.height(), 36.0 + 16.0);
        QCOMPARE(q.lockBars.height(), 36.0);
        QCOMPARE(q.lockBars.bottom(), q.lock.bottom());
        QVERIFY(q.lockEvents.height() > 0 && q.lockEvents.top() >= q.lock.top());
        QVERIFY(q.lockEvents.bottom() <= q.lockBars.top() + 5);
        QCOMPARE(q.storages.front().lane.top(), q.lock.bottom());
        // the preferred size has room for the taller lane
        Core::Scenario quiet = restored;
        quiet.lock.restores.clear();
        QCOMPARE(TimelineRenderer::preferredSize(restored, o, 1200).height() -
                     TimelineRenderer::preferredSize(quiet, o, 1200).height(),
                 16.0);
    }

    void dangerousRestoreIsMarked()
    {
        // etcd-restore: A holds rev 2 and B rev 4 (A's expiry at t=10 deleted A's key: rev 3).
        // Restored at t=20 from t=11 (revision 3, nobody holds the lock), A's acquire at t=21
        // gets rev 4 again: not above the rev 4 handed out to B.
        const Core::Scenario s = preset(QStringLiteral("etcd-restore"));
        const Core::Trace t = Core::simulate(s);
        QCOMPARE(t.lockEvents.size(), std::size_t(1));
        Picture pic;
        render(pic, s, t);
        const Theme th = Theme::light();
        const auto *label =
            findText(pic, QStringLiteral("restored from t11 · next rev 4 ≤ rev 4 handed out"));
        QVERIFY(label);
        QCOMPARE(label->color, th.corruptedText);
        const QRectF row = pic.layout.panels.front().lockEvents;
        QVERIFY(label->at.y() > row.top() && label->at.y() <= row.bottom());
        const double x = pic.axis.tickToX(20);
        QVERIFY(label->at.x() > x && label->at.x() < x + 20);
        // the line across the lane, in the corruption's colour, down through the lease bars
        QVERIFY2(pixelsNear(pic, 20, th.corrupted) > int(pic.layout.panels.front().lock.height()),
                 "no restore line");
        const QRectF bars = pic.layout.panels.front().lockBars;
        QVERIFY(
            near(pic.image.pixelColor(int(std::round(x)), int(bars.bottom() - 3)), th.corrupted));
        // nowhere else on the lock lane
        QCOMPARE(pixelsNear(pic, 15.5, th.corrupted), 0);
    }

    void bumpedRestoreIsSafe()
    {
        // etcd-restore-bump: revision 3 + 10, A's grant: rev 14 > 4
        const Core::Scenario s = preset(QStringLiteral("etcd-restore-bump"));
        const Core::Trace t = Core::simulate(s);
        Picture pic;
        render(pic, s, t);
        const Theme th = Theme::light();
        const auto *label = findText(pic, QStringLiteral("restored from t11 · bump 10"));
        QVERIFY(label);
        QCOMPARE(label->color, th.foreground);
        QCOMPARE(pixelsNear(pic, 20, th.corrupted), 0);
        // a dashed line in the foreground colour instead: dark pixels in the lock lane at t=20
        const QRectF lane = pic.layout.panels.front().lock;
        int dark = 0;
        for (int y = int(lane.top()); y < int(lane.bottom()); ++y)
            dark += pic.image.pixelColor(int(pic.axis.tickToX(20)), y).lightness() < 110 ? 1 : 0;
        QVERIFY2(dark > 6, qPrintable(QString::number(dark)));
        for (const RecordingDevice::Text &text : pic.words.texts)
            QVERIFY2(!text.text.contains(QStringLiteral("handed out")), qPrintable(text.text));
    }

    void sourceEventsInTheSourcesWords_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("tick");
        // (the new leader re-arms A's session: its new end follows the words, section 15.3)
        QTest::newRow("zookeeper") << QStringLiteral("zookeeper-failover")
                                   << QStringLiteral("ZK leader failover · re-armed to t18") << 8.0;
        QTest::newRow("raft") << QStringLiteral("raft-term")
                              << QStringLiteral("term passes, no leader") << 11.0;
        QTest::newRow("wallclock")
            << QStringLiteral("wallclock-step-back") << QStringLiteral("NTP step -20") << 11.0;
    }

    void sourceEventsInTheSourcesWords()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(double, tick);
        const Core::Scenario s = preset(name);
        Picture pic;
        render(pic, s, Core::simulate(s));
        const auto *label = findText(pic, text);
        QVERIFY2(label, qPrintable(text));
        const double x = pic.axis.tickToX(tick);
        QVERIFY(label->at.x() > x && label->at.x() < x + 12);
        const QRectF row = pic.layout.panels.front().lockEvents;
        QVERIFY(label->at.y() > row.top() && label->at.y() <= row.bottom());
        // a short mark at the tick, in the muted colour, in the lane's top row only
        const QColor muted = Theme::light().muted;
        QVERIFY(near(pic.image.pixelColor(int(std::round(x)), int(row.center().y())), muted, 30));
        const QRectF bars = pic.layout.panels.front().lockBars;
        QVERIFY(!near(pic.image.pixelColor(int(std::round(x)), int(bars.bottom() - 3)), muted, 30));
    }

    // Section 15.2: a lease bar whose term an earlier owner had too says so, and the service's
    // own election is marked with the term it starts.
    void serviceTermIsSharedAndElected()
    {
        Core::Scenario s = preset(QStringLiteral("service-term"));
        Picture pic;
        render(pic, s, Core::simulate(s));
        QVERIFY(findText(pic, QStringLiteral("B holds · term 1, shared")));
        QVERIFY(findText(pic, QStringLiteral("A holds · term 1")));
        s.lock.elections = {11};
        Picture elected;
        render(elected, s, Core::simulate(s));
        const auto *label = findText(elected, QStringLiteral("service leader elected: term 2"));
        QVERIFY(label);
        QVERIFY(label->at.x() > elected.axis.tickToX(11));
        QVERIFY(findText(elected, QStringLiteral("B holds · term 2")));
        QVERIFY(!findText(elected, QStringLiteral("B holds · term 2, shared")));
    }

    void lockDelayIsABandAfterAnExpiryOnly()
    {
        // A alone: lease [0, 5), lock-delay 10: the lock is withheld over [5, 15)
        Core::Scenario s = Core::ScenarioFile::defaultScenario();
        s.clients.resize(1);
        s.clients[0].actions = {Core::Action::acquire(0, 5)};
        s.lock.lockDelay = 10;
        s.horizon = 30;
        Picture pic;
        render(pic, s, Core::simulate(s));
        const QRectF bars = pic.layout.panels.front().lockBars;
        const auto colorAt = [&](const Picture &p, double tick) {
            return p.image.pixelColor(int(p.axis.tickToX(tick)), int(bars.top() + 8));
        };
        const QColor empty = colorAt(pic, 25.3);
        for (const double tick : {5.3, 9.3, 14.6})
            QVERIFY2(!near(colorAt(pic, tick), empty, 4), qPrintable(QString::number(tick)));
        QVERIFY(near(colorAt(pic, 15.4), empty, 0));
        const auto *label = findText(pic, QStringLiteral("lock-delay"));
        QVERIFY(label);
        QVERIFY(label->at.x() > pic.axis.tickToX(5) && label->at.x() < pic.axis.tickToX(15));

        // released at t=4: no expiry, no lock-delay
        s.clients[0].actions.push_back(Core::Action::release(4));
        Picture released;
        render(released, s, Core::simulate(s));
        QVERIFY(!findText(released, QStringLiteral("lock-delay")));
        for (const double tick : {5.3, 9.3, 14.6})
            QVERIFY(near(colorAt(released, tick), empty, 0));
    }

    void lockDelayEndsAtTheNextGrant()
    {
        // chubby-lock-delay: A's lease [0, 10) expires, lock-delay 10; B waits from t=12 and is
        // granted at t=20, where the band ends and B's lease bar begins
        const Core::Scenario s = preset(QStringLiteral("chubby-lock-delay"));
        const Core::Trace t = Core::simulate(s);
        QCOMPARE(t.waits.size(), std::size_t(1));
        QCOMPARE(t.waits[0].from, Core::Tick(12));
        QCOMPARE(t.waits[0].to, Core::Tick(20));
        Picture pic;
        render(pic, s, t);
        const auto *label = findText(pic, QStringLiteral("lock-delay"));
        QVERIFY(label);
        QVERIFY(label->at.x() > pic.axis.tickToX(10) && label->at.x() < pic.axis.tickToX(20));
        // B's wait: a dashed bar labelled on its lease row, between 12 and 20
        const auto *wait = findText(pic, QStringLiteral("waiting for the lock"));
        QVERIFY(wait);
        const QRectF holds = pic.layout.panels.front().clients[1].holds;
        QVERIFY(wait->at.x() > pic.axis.tickToX(12) && wait->at.x() < pic.axis.tickToX(20));
        QVERIFY(wait->at.y() > holds.top() && wait->at.y() <= holds.bottom());
        QVERIFY(!findText(pic, QStringLiteral("gave up")));
        // the bar's dashed top edge: dark pixels, with light gaps, along 12.5..19.5
        int dash = 0;
        int gap = 0;
        for (int x = int(pic.axis.tickToX(12.5)); x < int(pic.axis.tickToX(19.5)); ++x) {
            int darkest = 255;
            for (int y = int(holds.top() + 2); y <= int(holds.top() + 4); ++y)
                darkest = std::min(darkest, pic.image.pixelColor(x, y).lightness());
            (darkest < 170 ? dash : gap)++;
        }
        QVERIFY2(dash > 20 && gap > 20, qPrintable(QStringLiteral("%1 %2").arg(dash).arg(gap)));
    }

    void waitThatGivesUpSaysSo()
    {
        // A holds [0, 20); B waits at 3 for at most 4 ticks: gives up at 7
        Core::Scenario s = Core::ScenarioFile::defaultScenario();
        s.clients.resize(2);
        s.clients[0].actions = {Core::Action::acquire(0, 20)};
        Core::Action wait = Core::Action::acquire(3, 10);
        wait.wait = true;
        wait.setWaitFor(4);
        s.clients[1].actions = {wait};
        s.horizon = 30;
        const Core::Trace t = Core::simulate(s);
        QCOMPARE(t.waits.size(), std::size_t(1));
        QCOMPARE(t.waits[0].to, Core::Tick(7));
        QVERIFY(!t.waits[0].granted);
        Picture pic;
        render(pic, s, t);
        const auto *gaveUp = findText(pic, QStringLiteral("gave up"));
        QVERIFY(gaveUp);
        QVERIFY(gaveUp->at.x() > pic.axis.tickToX(7) && gaveUp->at.x() < pic.axis.tickToX(7) + 10);
        // four ticks (80 px) hold only the short form of the label
        QVERIFY(findText(pic, QStringLiteral("waiting")));
        QVERIFY(!findText(pic, QStringLiteral("waiting for the lock")));
    }

    // Compare mode against another token source (Simulation > Compare with): the bottom panel
    // is the same schedule under that source, and its tokens read in that source's words, the
    // top panel's in the scenario's own; the titles are the ones given.
    void compareWithAnotherSourceSpeaksEachSourcesWords()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario(); // counter
        Core::Scenario etcd = s;
        etcd.tokens = Core::TokenSource::Etcd;
        etcd.lock = Core::lockOptionsFor(Core::TokenSource::Etcd, s.lock);
        const Core::Trace top = Core::simulate(s, s.fencing);
        const Core::Trace bottom = Core::simulate(etcd, etcd.fencing);
        QCOMPARE(bottom.grants.size(), std::size_t(2));

        TimelineRenderer r;
        r.setCaching(false);
        TimelineRenderer::Options o;
        o.compare = true;
        o.bottomScenario = &etcd;
        o.compareTopLabel = QStringLiteral("counter tokens");
        o.compareBottomLabel = QStringLiteral("etcd tokens");
        const QRectF rect(QPointF(0, 0), TimelineRenderer::preferredSize(s, o, 1400));
        const TimelineLayout l = TimelineRenderer::layout(s, o, rect);
        QCOMPARE(l.panels.size(), std::size_t(2));
        TimeAxis axis;
        axis.left = l.plot.left() + TimelineRenderer::plotInset(o);
        axis.pixelsPerTick = 24;
        RecordingDevice words;
        words.size = rect.size().toSize();
        {
            QPainter p(&words);
            r.paint(&p, rect, s, top, &bottom, axis, o);
        }
        const auto inPanel = [&](int panel, const QString &text) {
            for (const RecordingDevice::Text &t : words.texts)
                if (t.text.contains(text) && l.panels[size_t(panel)].rect.contains(t.at))
                    return true;
            return false;
        };
        const QString etcdB = Core::formatToken(Core::TokenSource::Etcd, bottom.grants[1].token);
        QVERIFY2(etcdB.startsWith(QStringLiteral("rev ")), qPrintable(etcdB));
        QVERIFY2(inPanel(1, etcdB), qPrintable(etcdB));
        QVERIFY(!inPanel(0, etcdB));
        QVERIFY(inPanel(0, QStringLiteral("token 2"))); // B's counter token, top panel only
        QVERIFY(!inPanel(1, QStringLiteral("token 2")));
        QVERIFY(inPanel(0, QStringLiteral("counter tokens")) || inPanel(0, QStringLiteral("Fencing ON")));
        QVERIFY(inPanel(1, QStringLiteral("etcd tokens")));

        // without the bottom scenario the bottom panel would speak the counter's words
        o.bottomScenario = nullptr;
        RecordingDevice plain;
        plain.size = words.size;
        {
            QPainter p(&plain);
            r.paint(&p, rect, s, top, &bottom, axis, o);
        }
        bool counterWords = false;
        for (const RecordingDevice::Text &t : plain.texts)
            counterWords |= t.text.contains(QStringLiteral("token ")) && l.panels[1].rect.contains(t.at) &&
                            !t.text.contains(QStringLiteral("etcd"));
        QVERIFY(counterWords);
    }

    void tokensInTheSourcesFormWithTheirMeaningAsTooltip()
    {
        const Core::Scenario s = preset(QStringLiteral("chubby-lock-delay"));
        const Core::Trace t = Core::simulate(s);
        Picture pic;
        render(pic, s, t);
        QVERIFY(findText(pic, QStringLiteral("lock:exclusive:1")) ||
                findText(pic, QStringLiteral("A holds · lock:exclusive:1")));
        // A's grant (action 0): the tooltip says what the sequencer is
        TimelineRenderer::Hit hit;
        hit.part = TimelineRenderer::Hit::AcquireMarker;
        hit.client = 0;
        hit.action = 0;
        QCOMPARE(TimelineRenderer::describe(s, t, hit),
                 QStringLiteral("t=0: A was granted the lock with lock:exclusive:1 (sequencer "
                                "lock:exclusive:1 (generation 1)), ttl 10, expires at 10"));
        // a counter keeps its plain words
        const Core::Scenario plain = Core::ScenarioFile::defaultScenario();
        QVERIFY(TimelineRenderer::describe(plain, Core::simulate(plain), hit)
                    .startsWith(QStringLiteral("t=0: A was granted the lock with token 1, ttl")));
    }
};

QTEST_MAIN(TestLockServiceLane)
#include "tst_lockservicelane.moc"
