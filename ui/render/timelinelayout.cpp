// Where every lane and row of the timeline sits (TimelineRenderer::layout), and the size that
// shows them all.

#include "timelinerenderer.h"

#include "lanesizes.h"

#include <algorithm>
#include <cmath>

using namespace Render;

double TimelineRenderer::headerWidth(const Options &options)
{
    return kHeader * options.theme.fontScale;
}

namespace {

// Moves the last panel's lock and storage lanes up so that they end at `bottom` when they
// would end below it. In compare mode, when the lanes scroll at all, the outcome of both runs
// stays at the bottom: the bottom panel's title (naming its run) and storage lanes there, the
// top panel's lock and storage lanes just above them; the bottom panel's clients and lock lane,
// the top one's again, are where the scroll puts them. Never over the first client lane's name
// and markers (the pinned lanes cover client lanes, never the ruler or the first panel's title).
void pinLanes(TimelineLayout &l, double bottom)
{
    if (!(bottom > 0) || l.panels.empty())
        return;
    const TimelinePanel &first = l.panels.front();
    const double floor = first.clients.empty() ? first.lock.top() : first.clients.front().markers.bottom();
    const bool stack = l.panels.size() > 1;
    const auto moveStorages = [](TimelinePanel &p, double dy) {
        for (StorageLaneRects &r : p.storages)
            for (QRectF *q : {&r.lane, &r.header, &r.values, &r.outcomes, &r.maxToken})
                q->translate(0, dy);
    };
    double block = bottom; // where the lanes pinned so far begin
    for (std::size_t i = l.panels.size(); i-- > 0;) {
        TimelinePanel &p = l.panels[i];
        const double end = p.storages.empty() ? p.lock.bottom() : p.storages.back().lane.bottom();
        if (stack && i > 0) {
            const double lanes = p.storages.empty() ? p.lock.bottom() : p.storages.front().lane.top();
            const double top = lanes - p.title.height();
            const double shift = std::max(block - end, floor - top);
            moveStorages(p, shift);
            p.title.moveTop(top + shift);
            p.pinned = QRectF(p.rect.left(), top + shift, p.rect.width(), end - top);
            block = top + shift;
            continue;
        }
        const double top = p.lock.top();
        const double shift = std::max(block - end, floor - top);
        if (!(shift < -0.5) && !stack)
            break; // in view where they are
        p.lock.translate(0, shift);
        p.lockHeader.translate(0, shift);
        p.lockEvents.translate(0, shift);
        p.lockBars.translate(0, shift);
        moveStorages(p, shift);
        p.pinned = QRectF(p.rect.left(), top + shift, p.rect.width(), end - top);
        block = top + shift;
    }
    if (block < bottom)
        for (TimelinePanel &p : l.panels)
            p.pinTop = block;
}

} // namespace

TimelineLayout TimelineRenderer::layout(const Core::Scenario &s, const Options &o,
                                        const QRectF &rect)
{
    const double f = o.theme.fontScale;
    TimelineLayout l;
    l.headerWidth = headerWidth(o);
    const double x0 = rect.left();
    const double px = rect.left() + l.headerWidth;
    const double pw = std::max(0.0, rect.width() - l.headerWidth);
    l.ruler = QRectF(px, rect.top(), pw, kRuler * f);
    l.plot = QRectF(px, l.ruler.bottom(), pw, std::max(0.0, rect.bottom() - l.ruler.bottom()));

    double y = l.ruler.bottom();
    const int panels = o.compare ? 2 : 1;
    for (int i = 0; i < panels; ++i) {
        TimelinePanel p;
        p.bottom = i == 1;
        const double top = y;
        if (o.compare) {
            p.title = QRectF(x0, y, rect.width(), kPanelTitle * f);
            y += kPanelTitle * f;
        }
        for (std::size_t c = 0; c < s.clients.size(); ++c) {
            ClientLaneRects r;
            const bool collapsed = pausesCollapsed(o, c);
            const double h = clientLaneHeight(f, collapsed);
            r.lane = QRectF(px, y, pw, h);
            r.header = QRectF(x0, y, l.headerWidth, h);
            double ry = y + kPad * f;
            r.labels = QRectF(px, ry, pw, kLabelRow * f);
            ry += kLabelRow * f;
            r.markers = QRectF(px, ry, pw, kMarkerRow * f);
            ry += kMarkerRow * f;
            r.pauses = QRectF(px, ry, pw, collapsed ? 0 : kPauseRow * f);
            ry += collapsed ? 0 : (kPauseRow + 2) * f;
            r.holds = QRectF(px, ry, pw, kHoldRow * f);
            ry += (kHoldRow + 2) * f;
            r.believes = QRectF(px, ry, pw, kBeliefRow * f);
            p.clients.push_back(r);
            y += h;
        }
        const double lockHeight = lockLaneHeight(s, f);
        const double eventRow = hasLockEvents(s) ? kLockEventRow * f : 0;
        p.lock = QRectF(px, y, pw, lockHeight);
        p.lockHeader = QRectF(x0, y, l.headerWidth, lockHeight);
        p.lockEvents = QRectF(px, y + (eventRow > 0 ? 2 * f : 0), pw, eventRow);
        p.lockBars = QRectF(px, y + eventRow, pw, lockHeight - eventRow);
        y += lockHeight;
        for (std::size_t st = 0; st < s.storages.size(); ++st) {
            StorageLaneRects r;
            const double h = storageLaneHeight(f);
            r.lane = QRectF(px, y, pw, h);
            r.header = QRectF(x0, y, l.headerWidth, h);
            double ry = y + kPad * f;
            r.values = QRectF(px, ry, pw, kValueRow * f);
            ry += kValueRow * f;
            r.outcomes = QRectF(px, ry, pw, kOutcomeRow * f);
            ry += kOutcomeRow * f;
            r.maxToken = QRectF(px, ry, pw, kMaxTokenRow * f);
            p.storages.push_back(r);
            y += h;
        }
        p.rect = QRectF(x0, top, rect.width(), y - top);
        l.panels.push_back(std::move(p));
    }
    pinLanes(l, o.pinBottom);
    return l;
}

QSizeF TimelineRenderer::preferredSize(const Core::Scenario &s, const Options &o, double width)
{
    const double f = o.theme.fontScale;
    const int panels = o.compare ? 2 : 1;
    double h = kRuler * f;
    for (int i = 0; i < panels; ++i)
        h += panelHeight(s, o, o.compare);
    return QSizeF(width, std::ceil(h) + 2);
}
