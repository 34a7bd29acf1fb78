#include "timelinerenderer.h"

#include <QPainter>

namespace {

// Natural heights at font scale 1; everything scales with Theme::fontScale.
constexpr double kHeader = 128;
constexpr double kRuler = 30;
constexpr double kPanelTitle = 26;
constexpr double kPad = 4;
constexpr double kLabelRow = 18;
constexpr double kMarkerRow = 18;
constexpr double kPauseRow = 18;
constexpr double kHoldRow = 22;
constexpr double kBeliefRow = 14;
constexpr double kLockLane = 36;
constexpr double kValueRow = 24;
constexpr double kOutcomeRow = 22;
constexpr double kMaxTokenRow = 26;

double clientLaneHeight(double f)
{
    return (kPad + kLabelRow + kMarkerRow + kPauseRow + 2 + kHoldRow + 2 + kBeliefRow + 2 * kPad) * f;
}

double storageLaneHeight(double f)
{
    return (kPad + kValueRow + kOutcomeRow + kMaxTokenRow + 2 * kPad) * f;
}

double panelHeight(const Core::Scenario &s, double f, bool titled)
{
    return (titled ? kPanelTitle * f : 0) + double(s.clients.size()) * clientLaneHeight(f) +
           kLockLane * f + double(s.storages.size()) * storageLaneHeight(f);
}

} // namespace

double TimelineRenderer::headerWidth(const Options &options)
{
    return kHeader * options.theme.fontScale;
}

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
            const double h = clientLaneHeight(f);
            r.lane = QRectF(px, y, pw, h);
            r.header = QRectF(x0, y, l.headerWidth, h);
            double ry = y + kPad * f;
            r.labels = QRectF(px, ry, pw, kLabelRow * f);
            ry += kLabelRow * f;
            r.markers = QRectF(px, ry, pw, kMarkerRow * f);
            ry += kMarkerRow * f;
            r.pauses = QRectF(px, ry, pw, kPauseRow * f);
            ry += (kPauseRow + 2) * f;
            r.holds = QRectF(px, ry, pw, kHoldRow * f);
            ry += (kHoldRow + 2) * f;
            r.believes = QRectF(px, ry, pw, kBeliefRow * f);
            p.clients.push_back(r);
            y += h;
        }
        p.lock = QRectF(px, y, pw, kLockLane * f);
        p.lockHeader = QRectF(x0, y, l.headerWidth, kLockLane * f);
        y += kLockLane * f;
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
    return l;
}

QSizeF TimelineRenderer::preferredSize(const Core::Scenario &s, const Options &o, double width)
{
    const double f = o.theme.fontScale;
    const int panels = o.compare ? 2 : 1;
    double h = kRuler * f;
    for (int i = 0; i < panels; ++i)
        h += panelHeight(s, f, o.compare);
    return QSizeF(width, h + 2);
}

void TimelineRenderer::paint(QPainter *p, const QRectF &rect, const Core::Scenario &,
                             const Core::Trace &, const Core::Trace *, const TimeAxis &,
                             const Options &o) const
{
    p->fillRect(rect, o.theme.background);
}

TimelineRenderer::Hit TimelineRenderer::hitTest(const Core::Scenario &, const Core::Trace &,
                                                const TimeAxis &, const QRectF &,
                                                const Options &, QPointF,
                                                const Core::Trace *) const
{
    return {};
}

QString TimelineRenderer::describe(const Core::Scenario &, const Core::Trace &, const Hit &)
{
    return {};
}

double TimelineRenderer::fitFrom(const Core::Trace &)
{
    return -1;
}

double TimelineRenderer::fitTo(const Core::Trace &trace)
{
    return double(std::max(trace.horizon, trace.lastTick + 1));
}
