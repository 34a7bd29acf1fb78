// What lies under a point of the timeline (TimelineRenderer::hitTest), where the focus ring
// goes, and the one-line description of a hit for tooltips and the status bar, built on demand.
// Pure: the same answers for the same inputs, from the same layout the passes paint.

#include "timelinerenderer.h"

#include "lanesizes.h"
#include "paintcontext.h"
#include "paintedregions.h"
#include "paintrecorder.h"
#include "passes/passes.h"
#include "renderpass.h"
#include "tokentext.h"
#include "tracelookup.h"

#include "explain.h"
#include "lockfacts.h"
#include "scenariofile.h"
#include "simulator.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace Render;
using Core::Tick;

QRectF TimelineRenderer::focusRingRect(const Core::Scenario &s, const Core::Trace &t,
                                       const TimeAxis &axis, const TimelineLayout &l,
                                       const TimelinePanel &panel, const Options &o, int client,
                                       int action)
{
    if (client < 0 || std::size_t(client) >= panel.clients.size() ||
        std::size_t(client) >= s.clients.size())
        return {};
    const ClientLaneRects &r = panel.clients[std::size_t(client)];
    const double f = o.theme.fontScale;
    if (action < 0) {
        const double in = 2 * f;
        return r.header.adjusted(in, in, -in, -in);
    }
    const std::vector<Core::Action> &actions = s.clients[std::size_t(client)].actions;
    if (std::size_t(action) >= actions.size())
        return {};
    // where the passes paint a tick (PaintContext::X, TimeAxis::clampedX)
    const auto X = [&](Tick tick) {
        return tick == Core::kForever ? l.plot.right() + 40
                                      : axis.clampedX(double(tick), l.plot.left(), l.plot.right());
    };
    const Core::Action &a = actions[std::size_t(action)];
    const double pad = 7 * f;
    if (a.kind == Core::ActionKind::Pause) {
        const double x0 = X(a.at);
        const double x1 = std::max(X(a.at + a.amount), x0 + 1);
        return QRectF(x0 - pad, r.pauses.top() - pad, x1 - x0 + 2 * pad,
                      r.pauses.height() + 2 * pad);
    }
    // where it ran (deferred actions run when the client thaws), else where it is set
    const std::uint32_t ev = runEventOf(s, t, client, action);
    const double x = X(ev == Core::kNone ? a.at : t.events[ev].tick);
    const double half = 10 * f + pad - 2 * f;
    return QRectF(x - half, r.markers.center().y() - half, 2 * half, 2 * half);
}

TimelineRenderer::Hit TimelineRenderer::hitTest(const Core::Scenario &s, const Core::Trace &trace,
                                                const TimeAxis &axisIn, const QRectF &rect,
                                                const Options &o, QPointF pos,
                                                const Core::Trace *bottom) const
{
    Hit hit;
    if (!rect.contains(pos) || !(axisIn.pixelsPerTick > 0))
        return hit;
    const TimelineLayout l = layout(s, o, rect);
    const TimeAxis &axis = axisIn;
    const TimelinePanel *panel = l.panelAt(pos.y());
    if (!panel || (!panel->title.isEmpty() && panel->title.contains(pos)))
        return hit;
    const Core::Trace &t = (panel->bottom && bottom) ? *bottom : trace;
    if (t.clientEvents.size() != s.clients.size())
        return hit;
    hit.bottomPanel = panel->bottom;
    const double f = o.theme.fontScale;
    const double grip = kGrip * std::max(1.0, f);
    const double x = pos.x();
    // The regions the passes record where they paint, around the point: the passes run over
    // this panel only, narrowed to the columns within a grip of it and to the lane under it (a
    // region lies inside the lane whose element it stands for), onto a recording no one
    // replays. Recorded when first asked for (the header column has none).
    std::optional<PaintedRegions> painted;
    const auto regions = [&]() -> const PaintedRegions & {
        if (!painted) {
            painted.emplace();
            PaintRecorder scratch;
            const Style st(o.theme, nullptr, nullptr);
            PaintContext c(&scratch, Target(), st, axis, l, s, o);
            c.recordRegions(&*painted);
            c.narrowTo(x - grip - 1, x + grip + 1, pos.y(), pos.y());
            std::vector<const Core::Trace *> traces(l.panels.size(), nullptr);
            traces[std::size_t(panel - l.panels.data())] = &t;
            ContentPasses passes;
            std::vector<RenderPass *> recording;
            for (RenderPass *pass : passes.list())
                if (pass->recordsRegions())
                    recording.push_back(pass);
            runPasses(c, recording, traces);
        }
        return *painted;
    };

    const int nc = int(s.clients.size());
    for (int c = 0; c < nc; ++c) {
        const ClientLaneRects &r = panel->clients[std::size_t(c)];
        const QRectF full(r.header.left(), r.lane.top(), r.header.width() + r.lane.width(),
                          r.lane.height());
        if (!full.contains(pos) || panel->underPinned(pos.y()))
            continue;
        hit.lane = c;
        hit.client = c;
        if (x < r.lane.left()) {
            hit.part = Hit::LaneHeader;
            return hit;
        }
        // what the passes painted under the point, in this lane (PaintedRegions): its markers,
        // pauses, lease bars and keepalives, check brackets, where it lost the lock and where its
        // own clock ends a lease; where two lanes meet, the upper one's
        if (const PaintedRegion *under =
                regions().at(pos, [c](const PaintedRegion &g) { return g.hit.lane == c; }))
            return under->hit;
        return hit;
    }

    // the lock service lane and the storage lanes: what their passes painted under the point
    // (a lease's segment; a write's arrival, over a restart's line)
    if (QRectF(panel->lockHeader.left(), panel->lock.top(),
               panel->lockHeader.width() + panel->lock.width(), panel->lock.height())
            .contains(pos)) {
        hit.lane = nc;
        if (x < panel->lock.left())
            return hit;
        if (const PaintedRegion *under = regions().at(pos))
            return under->hit;
        return hit;
    }

    for (std::size_t si = 0; si < panel->storages.size(); ++si) {
        const StorageLaneRects &r = panel->storages[si];
        if (!QRectF(r.header.left(), r.lane.top(), r.header.width() + r.lane.width(),
                    r.lane.height())
                 .contains(pos))
            continue;
        hit.lane = nc + 1 + int(si);
        if (x < r.lane.left() || si >= t.storageWrites.size())
            return hit;
        if (const PaintedRegion *under = regions().at(pos))
            return under->hit;
        return hit;
    }
    return hit;
}

namespace {

// docs/SCENARIO.md sections 11 and 12: what core says of the event, or of the record, under a hit.
QString describePitfall(const Core::Scenario &s, const Core::Trace &t,
                        const TimelineRenderer::Hit &hit)
{
    using Hit = TimelineRenderer::Hit;
    switch (hit.part) {
    case Hit::Restart: {
        if (hit.ref >= t.restarts.size() || t.restarts[hit.ref].storage >= s.storages.size())
            return {};
        const Core::StorageRestart &r = t.restarts[hit.ref];
        const QString name = s.storages[r.storage].name;
        if (r.forgot > 0)
            return QObject::tr("t=%1: %2 restarted: its data survived, but max_token %3 was kept "
                               "in memory only and is forgotten (now 0): a stale token passes "
                               "again")
                .arg(r.tick)
                .arg(name, tokenShort(s, r.forgot));
        return s.storages[r.storage].durable
                   ? QObject::tr("t=%1: %2 restarted: its data and max_token (persisted with "
                                 "the data) survived")
                         .arg(r.tick)
                         .arg(name)
                   : QObject::tr("t=%1: %2 restarted: its data survived; max_token was 0, "
                                 "nothing to forget")
                         .arg(r.tick)
                         .arg(name);
    }
    case Hit::OwnLeaseEnd: {
        if (hit.ref >= t.leases.size() || std::size_t(hit.client) >= s.clients.size())
            return {};
        const Core::Lease &l = t.leases[hit.ref];
        const Core::Grant *g = lastGrantOfEpoch(t, l.epoch);
        if (!g)
            return {};
        const Core::Client &c = s.clients[std::size_t(hit.client)];
        const Tick own = Core::ownLeaseEnd(s, *g);
        return QObject::tr("By its own clock (rate %1) %2 judges the lease it renewed at t=%3 "
                           "ended at %4; the lock service ended it at %5: %6")
            .arg(Core::rateText(c.clock.rateMilli), c.name)
            .arg(g->at)
            .arg(own)
            .arg(l.end)
            .arg(own > l.end ? QObject::tr("it goes on believing an expired lease")
                             : QObject::tr("it gives up a lease that is still live"));
    }
    case Hit::CheckSend:
    case Hit::CheckBracket:
    case Hit::Pitfall: {
        if (hit.ref >= t.events.size())
            return {};
        QString text = Core::explainEvent(s, t, hit.ref);
        if (hit.part == Hit::CheckSend && std::size_t(hit.client) < s.clients.size() &&
            std::size_t(hit.action) < s.clients[std::size_t(hit.client)].actions.size())
            text += QObject::tr(" Drag to change the gap (%1 ticks).")
                        .arg(s.clients[std::size_t(hit.client)].actions[std::size_t(hit.action)].gap());
        return text;
    }
    default:
        return {};
    }
}

} // namespace

QString TimelineRenderer::describe(const Core::Scenario &s, const Core::Trace &t, const Hit &hit)
{
    if (hit.part == Hit::Restart || hit.part == Hit::OwnLeaseEnd || hit.part == Hit::CheckSend ||
        hit.part == Hit::CheckBracket || hit.part == Hit::Pitfall)
        return describePitfall(s, t, hit);
    if (hit.client < 0 || std::size_t(hit.client) >= s.clients.size())
        return {};
    const Core::Client &client = s.clients[std::size_t(hit.client)];
    if (hit.part == Hit::LaneHeader)
        return QObject::tr("Client %1: %2 actions").arg(client.name).arg(client.actions.size());
    if (hit.action < 0 || std::size_t(hit.action) >= client.actions.size())
        return {};
    const Core::Action &a = client.actions[std::size_t(hit.action)];
    if (a.kind == Core::ActionKind::Pause)
        return QObject::tr("%1 paused from %2 to %3 (%4 ticks): frozen, it cannot notice time "
                           "passing")
            .arg(client.name)
            .arg(a.at)
            .arg(a.at + a.amount)
            .arg(a.amount);
    const std::uint32_t ev = runEventOf(s, t, hit.client, hit.action);
    if (ev == Core::kNone)
        return QObject::tr("%1: %2 at %3 (not run)")
            .arg(client.name, Core::toString(a.kind))
            .arg(a.at);
    const Core::Event &e = t.events[ev];
    if (e.kind == Core::EventKind::ReadSent && e.ref < t.reads.size() && t.reads[e.ref].arrived) {
        // what the read learnt ("read v3") rather than that it asked
        const std::uint32_t arrival = eventOf(t, hit.client, t.reads[e.ref].arrivedAt,
                                              Core::EventKind::ReadArrived, e.ref);
        return Core::explainEvent(s, t, arrival != Core::kNone ? arrival : ev);
    }
    if (e.kind == Core::EventKind::Skipped || e.kind == Core::EventKind::ReadSent)
        return Core::explainEvent(s, t, ev);
    const QString late =
        a.at < e.tick ? QObject::tr(" (due at %1, ran when it thawed)").arg(a.at) : QString();
    switch (e.kind) {
    case Core::EventKind::Grant:
    case Core::EventKind::Renewal: {
        const Core::Grant &g = t.grants[e.ref];
        const QString what = g.renewal ? QObject::tr("renewed") : QObject::tr("was granted");
        QString text = QObject::tr("t=%1: %2 %3 the lock with %4, ttl %5, expires at %6%7")
                           .arg(e.tick)
                           .arg(client.name, what, tokenMeaning(s, g.token))
                           .arg(a.amount)
                           .arg(g.expires)
                           .arg(late);
        if (hit.part == Hit::LeaseEnd)
            text += QObject::tr(". Drag to change the ttl.");
        return text;
    }
    case Core::EventKind::Refusal: {
        const Core::Refusal &r = t.refusals[e.ref];
        const QString holder = r.holder < s.clients.size() ? s.clients[r.holder].name : QString();
        return QObject::tr("t=%1: %2 asked for the lock and was refused: %3 holds a live lease%4")
            .arg(e.tick)
            .arg(client.name, holder, late);
    }
    case Core::EventKind::Release: {
        const Core::Release &r = t.releases[e.ref];
        return r.effective
                   ? QObject::tr("t=%1: %2 released the lock%3").arg(e.tick).arg(client.name, late)
                   : QObject::tr("t=%1: %2 released, but it was not the live holder: "
                                 "nothing changed%3")
                         .arg(e.tick)
                         .arg(client.name, late);
    }
    case Core::EventKind::WriteSent: {
        const Core::Write &w = t.writes[e.ref];
        const QString storage =
            w.storage < s.storages.size() ? s.storages[w.storage].name : QString();
        const QString token =
            w.tagged ? tokenMeaning(s, writeToken(t, w)) : QObject::tr("no token");
        QString res;
        switch (w.result) {
        case Core::WriteResult::Accepted:
            res = QObject::tr("accepted");
            break;
        case Core::WriteResult::Rejected:
            res = QObject::tr("rejected (max_token %1)").arg(tokenShort(s, w.maxToken));
            break;
        case Core::WriteResult::Corrupted:
            res = QObject::tr("CORRUPTED: applied over newer data");
            break;
        case Core::WriteResult::LockedOut:
            res = QObject::tr("locked out (max_token %1)").arg(tokenShort(s, w.maxToken));
            break;
        }
        // a version storage judges by what the writer had read, an unfenced path skips the
        // check: core's whole story of the write says which
        // a write of a group (one update across storages): what became of the whole update,
        // a partial one is two resources under one lock without two-phase commit
        QString group;
        for (std::uint32_t gi = 0; gi < t.groups.size() && group.isEmpty(); ++gi) {
            const std::vector<std::uint32_t> &ws = t.groups[gi].writes;
            if (std::find(ws.begin(), ws.end(), e.ref) != ws.end())
                group = QLatin1Char(' ') + Core::explainGroup(s, t, gi);
        }
        // (so do the storages of section 15, which ask the lock service or keep one token)
        if (w.storage < s.storages.size() &&
            (s.storages[w.storage].check != Core::StorageCheck::Token || client.bypass))
            return Core::explainWrite(s, t, e.ref) + group;
        QString text = QObject::tr("t=%1: %2 wrote %3 to %4 with %5%6; arrived at %7: %8")
                           .arg(e.tick)
                           .arg(client.name, quoted(a.value), storage, token, late)
                           .arg(w.arrivedAt)
                           .arg(res);
        if (w.expired)
            text += QObject::tr(" (its lease had already expired)");
        if (hit.part == Hit::DelayHead)
            text += QObject::tr(". Drag to change the network delay (%1 ticks).").arg(a.amount);
        return text + group;
    }
    default:
        return {};
    }
}
