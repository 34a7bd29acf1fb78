// Runs the passes (passes/passes.h) over the visible part of a trace, in three layers: the
// static layer (kept as an image between paints), the content the trace decides (recorded, and
// replayed from a picture when a paint would make the same calls again) and the overlay of
// playhead, hover, selection and focus. Layout: timelinelayout.cpp; hit testing and hover
// text: timelinehittest.cpp.

#include "timelinerenderer.h"

#include "paintcontext.h"
#include "paintrecorder.h"
#include "passes/passes.h"
#include "renderercache.h"

#include <QCoreApplication>
#include <QPainter>
#include <QThread>

#include <cmath>
#include <memory>
#include <optional>
#include <utility>

using namespace Render;

namespace {

// Where content may show while the future is hidden: below the ruler, left of the playhead's
// tick (half a glyph past it, or half a tick when ticks are narrower: what happened at the
// playhead stays whole); and where only the words may show: the rest of every label of what has
// begun by then. Nothing at all at presentation mode's start.
std::pair<QRegion, QRegion> shownRegions(const TimelineLayout &l, const TimeAxis &axis,
                                         const TimelineRenderer::Options &o,
                                         const QRectF &belowRuler,
                                         const std::vector<NotedLabel> &labels)
{
    if (o.playhead == Core::kForever)
        return {QRegion(belowRuler.toAlignedRect()), QRegion()};
    QRectF past = belowRuler;
    if (o.playheadBefore) {
        past.setRight(l.plot.left());
        QRegion shown(past.toAlignedRect());
        for (const NotedLabel &n : labels)
            if (n.whole)
                shown += QRegion(n.box.toAlignedRect()).intersected(belowRuler.toAlignedRect());
        return {shown, QRegion()};
    }
    const double x = axis.tickToX(double(o.playhead));
    const double after = std::max(1.0, std::min(9 * o.theme.fontScale, 0.5 * axis.pixelsPerTick));
    past.setRight(std::clamp(x + after, l.plot.left(), belowRuler.right()));
    QRegion shown(past.toAlignedRect());
    QRegion words;
    for (const NotedLabel &n : labels) {
        const QRegion box = QRegion(n.box.toAlignedRect()).intersected(belowRuler.toAlignedRect());
        if (n.whole)
            shown += box;
        else if (n.anchor <= x + 0.5)
            words += box;
    }
    return {shown, words - shown};
}

} // namespace

TimelineRenderer::TimelineRenderer()
    : m_cache(std::make_unique<RendererCache>()), m_regions(std::make_unique<PaintedRegions>())
{
}

TimelineRenderer::~TimelineRenderer() = default;

TimelineRenderer::TimelineRenderer(const TimelineRenderer &other)
    : m_cache(std::make_unique<RendererCache>()), m_regions(std::make_unique<PaintedRegions>()),
      m_caching(other.m_caching), m_recordsRegions(other.m_recordsRegions)
{
}

TimelineRenderer &TimelineRenderer::operator=(const TimelineRenderer &other)
{
    if (this != &other) {
        m_cache->clear();
        m_regions->clear();
        m_caching = other.m_caching;
        m_recordsRegions = other.m_recordsRegions;
    }
    return *this;
}

void TimelineRenderer::setCaching(bool on)
{
    m_caching = on;
    if (!on)
        m_cache->clear();
}

const PaintedRegions &TimelineRenderer::paintedRegions() const
{
    return *m_regions;
}

int TimelineRenderer::staticLayerPaints() const
{
    return m_cache->staticLayerPaints();
}

int TimelineRenderer::contentLayerPaints() const
{
    return m_cache->contentLayerPaints();
}

void TimelineRenderer::paint(QPainter *p, const QRectF &rect, const Core::Scenario &s,
                             const Core::Trace &trace, const Core::Trace *unfenced,
                             const TimeAxis &axis, const Options &o) const
{
    m_regions->clear();
    p->save();
    p->setClipRect(rect);
    if (!(axis.pixelsPerTick > 0) || s.clients.size() != trace.clientEvents.size()) {
        p->fillRect(rect, o.theme.background);
        p->restore();
        return;
    }
    const TimelineLayout l = layout(s, o, rect);
    // per panel; null where the trace does not match the lanes (the panel stays empty)
    std::vector<const Core::Trace *> traces;
    for (const TimelinePanel &panel : l.panels) {
        const Core::Trace &t = (panel.bottom && unfenced) ? *unfenced : trace;
        traces.push_back(t.clientEvents.size() == s.clients.size() ? &t : nullptr);
    }
    RendererCache *cache = m_caching ? m_cache.get() : nullptr;
    if (cache) {
        cache->beginPaint();
        cache->useFonts(Style::fonts(o.theme), p->device()->logicalDpiX(),
                        p->device()->logicalDpiY());
    }
    const Style st(o.theme, p->device(), cache);
    const auto enableHints = [](QPainter *painter) {
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->setRenderHint(QPainter::TextAntialiasing, true);
    };
    const QRectF belowRuler(rect.left(), l.ruler.bottom(), rect.width(),
                            rect.bottom() - l.ruler.bottom());
    Target here = Target::of(p, cache);
    if (cache && QCoreApplication::instance() &&
        QThread::currentThread() == QCoreApplication::instance()->thread()) {
        here.helper = cache;
        here.dpiX = p->device()->logicalDpiX();
        here.dpiY = p->device()->logicalDpiY();
    }

    // Everything the trace decides, recorded first: a paint that would make the same calls as
    // the last one copies their picture instead.
    PaintRecorder local;
    PaintRecorder &content = cache ? cache->recording() : local;
    std::vector<NotedLabel> labels; // the run's labels, with what each tells
    content.begin(p);
    {
        // a known state to start from, wherever the calls are replayed
        content.setPen(QPen());
        content.setBrush(Qt::NoBrush);
        content.setFont(QFont());
        content.setRenderHint(QPainter::Antialiasing, true);
        content.setRenderHint(QPainter::TextAntialiasing, true);
        PaintContext painter(&content, here, st, axis, l, s, o);
        painter.noteLabels(&labels);
        painter.recordRegions(m_recordsRegions ? m_regions.get() : nullptr);
        ContentPasses passes;
        runPasses(painter, passes.list(), traces);
    }
    // Below the ruler only: its opaque fill used to be painted after the panels and covered
    // what reached over its edge (a compare panel title's top line). Hiding the future, only
    // left of the playhead, and the labels of its own tick.
    const std::optional<std::pair<QRegion, QRegion>> shown =
        o.hideFuture ? std::optional(shownRegions(l, axis, o, belowRuler, labels)) : std::nullopt;
    // labels of the playhead's tick: bright over the dimmed future
    std::vector<QRectF> present;
    if (o.playhead != Core::kForever && !o.playheadBefore)
        for (const NotedLabel &n : labels)
            if (std::abs(n.anchor - axis.tickToX(double(o.playhead))) < 0.5)
                present.push_back(n.box);
    const auto replayContent = [&](QPainter *painter) {
        painter->save();
        if (shown) {
            // what has happened, then over it the words reaching past the playhead alone:
            // what lies under them there has not happened yet
            painter->save();
            painter->setClipRegion(shown->first, Qt::IntersectClip);
            content.replay(painter);
            painter->restore();
            painter->setClipRegion(shown->second, Qt::IntersectClip);
            content.replay(painter, true);
        } else {
            painter->setClipRect(belowRuler, Qt::IntersectClip);
            content.replay(painter);
        }
        painter->restore();
    };
    const auto paintStatic = [&](QPainter *painter) {
        PaintRecorder layer;
        layer.begin(painter);
        BackgroundPass background;
        runPasses(PaintContext(&layer, Target::of(painter, nullptr), st, axis, l, s, o),
                  {&background}, traces);
        layer.replay(painter);
    };

    // The static layer: from the cache on raster targets (it covers `rect` with an opaque fill,
    // so copying it gives the pixels painting it would), painted in place everywhere else.
    const std::optional<RendererCache::Target> target =
        cache && o.theme.background.alpha() == 255 &&
                RendererCache::textAsOnImages(p, Style::fonts(o.theme))
            ? RendererCache::rasterTarget(p, rect)
            : std::nullopt;
    if (target) {
        RendererCache::StaticKey key;
        key.rect = rect;
        key.deviceRect = target->deviceRect;
        key.dpr = target->dpr;
        key.dpiX = target->dpiX;
        key.dpiY = target->dpiY;
        key.renderHints = int(p->renderHints());
        key.theme = o.theme;
        key.fonts = Style::fonts(o.theme);
        key.compare = o.compare;
        key.collapsedPauses = o.collapsedPauses;
        for (const Core::Client &c : s.clients)
            key.clients.push_back(c.name);
        for (const Core::StorageSpec &spec : s.storages) {
            key.storages.push_back(spec.name);
            key.rules.push_back(int(spec.rule));
        }
        for (const Core::Trace *t : traces)
            key.panelFencing.push_back(t && t->fencing);
        key.axis = axis;
        key.pinBottom = o.pinBottom;
        key.pinTop = o.pinTop;
        const QImage *layer = cache->staticLayer(key, [&](QPainter *lp) {
            lp->setClipRect(rect);
            lp->fillRect(rect, o.theme.background);
            enableHints(lp);
            paintStatic(lp);
        });
        // (a clip that follows the playhead is no picture to keep)
        if (shown)
            cache->forgetContent();
        const QImage *withContent = !layer || shown ? nullptr : cache->contentLayer([&](QPainter *cp) {
            cp->setClipRect(rect);
            enableHints(cp);
            replayContent(cp);
        });
        if (!layer) {
            cache->forgetContent();
            p->fillRect(rect, o.theme.background);
            enableHints(p);
            paintStatic(p);
        } else {
            p->drawImage(rect.topLeft(), withContent ? *withContent : *layer);
            enableHints(p);
        }
        if (!withContent)
            replayContent(p);
    } else {
        if (cache)
            cache->forgetContent();
        p->fillRect(rect, o.theme.background);
        enableHints(p);
        paintStatic(p);
        replayContent(p);
    }

    // What the playhead, hover and selection change, over the content.
    PaintRecorder overlay;
    overlay.begin(p);
    {
        TokenCounterPass tokenCounter;
        HighlightPass highlight;
        FocusRingPass focusRing;
        PlayheadPass playhead(&present);
        runPasses(PaintContext(&overlay, here, st, axis, l, s, o),
                  {&tokenCounter, &highlight, &focusRing, &playhead}, traces);
    }
    overlay.replay(p);
    p->restore();
}

double TimelineRenderer::fitFrom(const Core::Trace &)
{
    return 0;
}

double TimelineRenderer::fitTo(const Core::Trace &trace)
{
    return double(std::max(trace.horizon, trace.lastTick + 1));
}
