// Over 600 lines: the whole exported page (title, timeline, legend, caption, explanation) is
// laid out once and painted by PNG, SVG, PDF and storyboards alike; the legend and captions share
// that layout, so they stay with it.
#include "exporter.h"

#include "explain.h"
#include "glyphs.h"
#include "outcomemarker.h"
#include "savefile.h"
#include "storysteps.h"
#include "svgdocument.h"
#include "timelinerenderer.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace Exporter {
namespace {

// The options a picture is drawn with: compare mode needs the unfenced run, and is left off
// (the run alone drawn) by a caller that has none to give.
ExportOptions drawable(const ExportRuns &t, const ExportOptions &o)
{
    Q_ASSERT(!o.compare || t.unfenced);
    ExportOptions d = o;
    d.compare = o.compare && t.unfenced;
    return d;
}

QFont font(const ExportOptions &o, double px, bool bold = false)
{
    QFont f;
    f.setFamilies(Theme::fontFamilies());
    f.setStyleHint(QFont::SansSerif);
    f.setPixelSize(std::max(1, int(std::lround(px * o.theme.fontScale))));
    f.setBold(bold);
    return f;
}

double margin(const ExportOptions &o)
{
    return 28 * o.theme.fontScale;
}

// Text and lines grow with the picture: a 1920 px slide is seen from the back row, where the
// window's 12 px labels are unreadable. Up to 1280 px the theme's own sizes.
ExportOptions sized(const ExportOptions &o)
{
    ExportOptions s = o;
    const double k = std::max(1.0, o.width / 1280.0);
    s.theme.fontScale *= k;
    s.theme.lineScale *= k;
    return s;
}

TimelineRenderer::Options rendererOptions(const ExportOptions &o)
{
    TimelineRenderer::Options r;
    r.theme = o.theme;
    r.playhead = o.playhead;
    r.playheadTravel = o.playheadTravel;
    r.hideFuture = o.hideFuture && o.playhead != Core::kForever;
    r.playheadBefore = o.playheadBefore && o.playhead != Core::kForever;
    // (the explained outcome is told in words; the window's selection halo is not the picture's)
    r.compare = o.compare;
    return r;
}

// One legend entry: a symbol drawn like the timeline draws it, and what it means.
struct LegendItem
{
    enum Kind { Lease, Belief, Zombie, Pause, Write, Delay, Refusal, Outcome, MaxToken } kind;
    Core::WriteResult result = Core::WriteResult::Accepted;
    QString text;
};

std::vector<LegendItem> legendItems(const Core::Scenario &s, const ExportRuns &t, bool compare)
{
    std::vector<LegendItem> items;
    items.push_back({LegendItem::Lease, {}, QObject::tr("holds the lock (lease, with its token)")});
    items.push_back({LegendItem::Belief, {}, QObject::tr("believes it holds the lock")});
    bool zombie = false; // acts on a lock it no longer has (the timeline hatches it)
    for (std::size_t c = 0; c < t.shown.beliefs.size() && !zombie; ++c)
        zombie = !t.shown.zombieWindows(std::uint32_t(c)).empty();
    if (zombie)
        items.push_back(
            {LegendItem::Zombie, {}, QObject::tr("zombie window: lease gone, still acts on it")});
    bool pauses = false;
    bool delays = false;
    for (const Core::Client &c : s.clients)
        for (const Core::Action &a : c.actions) {
            pauses = pauses || a.kind == Core::ActionKind::Pause;
            delays = delays || (a.kind == Core::ActionKind::Write && a.amount > 0);
        }
    if (pauses)
        items.push_back({LegendItem::Pause, {}, QObject::tr("pause (GC, stopped VM): frozen")});
    if (!t.shown.writes.empty())
        items.push_back({LegendItem::Write, {}, QObject::tr("write sent")});
    if (delays)
        items.push_back({LegendItem::Delay, {}, QObject::tr("network delay until arrival")});
    if (!t.shown.refusals.empty())
        items.push_back({LegendItem::Refusal, {}, QObject::tr("acquire refused")});
    const auto has = [&](Core::WriteResult r) {
        const auto count = [r](const Core::Summary &sum) {
            switch (r) {
            case Core::WriteResult::Accepted:
                return sum.accepted;
            case Core::WriteResult::Rejected:
                return sum.rejected;
            case Core::WriteResult::Corrupted:
                return sum.corrupted;
            case Core::WriteResult::LockedOut:
                return sum.lockedOut;
            }
            return std::uint64_t(0);
        };
        return count(t.shown.summary) > 0 || (compare && count(t.unfenced->summary) > 0);
    };
    const std::pair<Core::WriteResult, QString> outcomes[] = {
        {Core::WriteResult::Accepted, QObject::tr("accepted")},
        {Core::WriteResult::Rejected, QObject::tr("rejected: stale token")},
        {Core::WriteResult::Corrupted, QObject::tr("corrupted: overwrote newer data")},
        {Core::WriteResult::LockedOut, QObject::tr("locked out: live holder refused")}};
    for (const auto &[r, text] : outcomes)
        if (has(r))
            items.push_back({LegendItem::Outcome, r, text});
    if (t.shown.fencing || compare)
        items.push_back({LegendItem::MaxToken, {}, QObject::tr("storage max_token")});
    return items;
}

void paintSymbol(QPainter *p, const LegendItem &item, const QRectF &box, const Theme &th)
{
    const double lw = th.lineScale;
    const QPointF c = box.center();
    const double r = Glyphs::kRadius * th.fontScale; // the timeline's size
    p->save();
    switch (item.kind) {
    case LegendItem::Lease:
        p->setPen(QPen(th.lease.darker(140), lw));
        p->setBrush(th.lease);
        p->drawRect(QRectF(box.left(), c.y() - box.height() * 0.25, box.width(), box.height() * 0.5));
        break;
    case LegendItem::Belief:
        p->setPen(Qt::NoPen);
        p->setBrush(th.belief);
        p->drawRect(QRectF(box.left(), c.y() - box.height() * 0.15, box.width(), box.height() * 0.3));
        break;
    case LegendItem::Zombie:
        p->setPen(QPen(th.zombie, lw));
        p->setBrush(QBrush(th.zombie, Qt::BDiagPattern));
        p->drawRect(QRectF(box.left(), c.y() - box.height() * 0.25, box.width(), box.height() * 0.5));
        break;
    case LegendItem::Pause:
        p->setPen(QPen(th.pause, lw));
        p->setBrush(QBrush(th.pause, Qt::BDiagPattern));
        p->drawRect(QRectF(box.left(), c.y() - box.height() * 0.3, box.width(), box.height() * 0.6));
        break;
    case LegendItem::Write:
        // as on a client lane, before its outcome fills it
        Glyphs::paint(p, Glyphs::Kind::Nib, c, r, QPen(th.write, 1.2 * lw), th.background);
        break;
    case LegendItem::Delay: {
        p->setPen(QPen(th.write, 1.5 * lw, Qt::DashLine));
        p->drawLine(QPointF(box.left(), c.y()), QPointF(box.right() - 6, c.y()));
        p->setPen(Qt::NoPen);
        p->setBrush(th.write);
        p->drawPolygon(QPolygonF({QPointF(box.right() - 8, c.y() - 4), QPointF(box.right(), c.y()),
                                  QPointF(box.right() - 8, c.y() + 4)}));
        break;
    }
    case LegendItem::Refusal:
        Glyphs::paintRefusal(p, c, r, th.refusal, th.background, lw);
        break;
    case LegendItem::Outcome:
        Glyphs::paintOutcome(p, Theme::shape(item.result), c, r, th, item.result);
        break;
    case LegendItem::MaxToken: {
        p->setPen(QPen(th.maxToken, 2 * lw));
        p->setBrush(Qt::NoBrush);
        const double y1 = c.y() + box.height() * 0.25;
        const double y2 = c.y() - box.height() * 0.25;
        p->drawPolyline(QPolygonF({QPointF(box.left(), y1), QPointF(c.x(), y1), QPointF(c.x(), y2),
                                   QPointF(box.right(), y2)}));
        break;
    }
    }
    p->restore();
}

// Lays legend items out in rows; paints them when `p` is given. Returns the height used.
double layoutLegend(QPainter *p, const std::vector<LegendItem> &items, const QRectF &area,
                    const ExportOptions &o)
{
    const QFont f = font(o, 15);
    const QFontMetricsF fm(f);
    const double symbolW = 30 * o.theme.fontScale;
    const double rowH = std::max(fm.height(), 18 * o.theme.fontScale) + 8;
    const double gap = 22 * o.theme.fontScale;
    double x = area.left();
    double y = area.top();
    if (p)
        p->setFont(f);
    for (const LegendItem &item : items) {
        const double w = symbolW + 6 + fm.horizontalAdvance(item.text);
        if (x > area.left() && x + w > area.right()) {
            x = area.left();
            y += rowH;
        }
        if (p) {
            paintSymbol(p, item, QRectF(x, y + 2, symbolW, rowH - 4), o.theme);
            p->setPen(o.theme.foreground);
            p->drawText(QRectF(x + symbolW + 6, y, w - symbolW - 6, rowH),
                        Qt::AlignVCenter | Qt::AlignLeft, item.text);
        }
        x += w + gap;
    }
    return items.empty() ? 0 : y + rowH - area.top();
}

double textHeight(const QString &text, const QFont &f, double width)
{
    if (text.isEmpty())
        return 0;
    return QFontMetricsF(f).boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
}

QString explanationFor(const Core::Scenario &s, const Core::Trace &t, const Selection &sel)
{
    if (!sel.isValid())
        return {};
    // the most telling event of the action: a write's arrival, else where it ran
    const std::uint32_t best = Core::outcomeEvent(s, t, std::uint32_t(sel.client),
                                                  std::uint32_t(sel.action));
    return best == Core::kNone ? QString() : Core::explainEvent(s, t, best);
}

struct Page
{
    QSizeF size;
    double margin = 0;
    QRectF title;
    QRectF subtitle;
    QRectF timeline;
    QRectF legend;
    QRectF caption;
    QRectF explanation;
    QString titleText;
    QString subtitleText;
    QString captionText;
    QString explanationText;
    std::vector<LegendItem> legendItems;
    // what the page is drawn with: the options asked for, or smaller ones that fit a slide
    ExportOptions options;
    // A slide still too tall at its smallest text is drawn smaller as a whole, centred: the
    // rectangles above are before this scale and shift (1 and none otherwise).
    double fit = 1;
    QPointF offset;
};

Page layoutPageAsIs(const Core::Scenario &s, const ExportRuns &t, const ExportOptions &options)
{
    const ExportOptions o = sized(options);
    Page pg;
    pg.options = options;
    const double w = std::max(320.0, o.width);
    pg.margin = margin(o);
    const double inner = w - 2 * pg.margin;
    double y = pg.margin;
    if (o.showTitle) {
        pg.titleText = s.title.isEmpty() ? QObject::tr("Untitled scenario") : s.title;
        const double h = textHeight(pg.titleText, font(o, 30, true), inner);
        pg.title = QRectF(pg.margin, y, inner, h);
        y += h + 4;
        QStringList rules;
        for (const Core::StorageSpec &st : s.storages)
            rules << QObject::tr("%1 rejects token %2 max").arg(st.name, st.rule == Core::FenceRule::Lt ? QStringLiteral("<") : QStringLiteral("<="));
        pg.subtitleText =
            o.compare ? QObject::tr("The same schedule with fencing on (top) and off (bottom)")
                      : (t.shown.fencing
                             ? QObject::tr("Fencing on: %1").arg(rules.join(QStringLiteral(", ")))
                             : QObject::tr("Fencing off: storage ignores tokens"));
        if (o.playhead != Core::kForever)
            pg.subtitleText += (o.playheadBefore ? QObject::tr(" \u2014 before t=%1")
                                                 : QObject::tr(" \u2014 at t=%1"))
                                   .arg(o.playhead);
        const double sh = textHeight(pg.subtitleText, font(o, 17), inner);
        pg.subtitle = QRectF(pg.margin, y, inner, sh);
        y += sh + 16;
    }
    const TimelineRenderer::Options ro = rendererOptions(o);
    const QSizeF tl = TimelineRenderer::preferredSize(s, ro, inner);
    pg.timeline = QRectF(pg.margin, y, inner, tl.height());
    y += tl.height() + 14;
    if (o.showLegend) {
        pg.legendItems = legendItems(s, t, o.compare);
        const double h = layoutLegend(nullptr, pg.legendItems, QRectF(pg.margin, y, inner, 1e6), o);
        pg.legend = QRectF(pg.margin, y, inner, h);
        y += h + 10;
    }
    if (o.showCaption) {
        // compare mode tells both fates
        // a picture at a playhead (a storyboard frame) explains its own step
        const bool step = o.playhead != Core::kForever;
        const auto caption = [&](const Core::Trace &trace) {
            return step ? stepCaption(s, trace, o.playhead) : defaultCaption(s, trace);
        };
        if (!o.caption.isEmpty())
            pg.captionText = o.caption;
        else if (!o.compare)
            pg.captionText = caption(t.shown);
        else if (step)
            pg.captionText = QObject::tr("With fencing: %1\nWithout fencing: %2")
                                 .arg(caption(t.shown), caption(*t.unfenced));
        else
            pg.captionText = caption(t.shown) + QLatin1Char('\n') + caption(*t.unfenced);
        const double h = textHeight(pg.captionText, font(o, 18), inner);
        pg.caption = QRectF(pg.margin, y, inner, h);
        y += h + 10;
    }
    pg.explanationText = explanationFor(s, t.shown, o.explain);
    if (!pg.explanationText.isEmpty()) {
        const double pad = 12 * o.theme.fontScale;
        const double h = textHeight(pg.explanationText, font(o, 18), inner - 2 * pad) + 2 * pad;
        pg.explanation = QRectF(pg.margin, y, inner, h);
        y += h + 10;
    }
    pg.size = QSizeF(w, std::ceil(y + pg.margin - 10));
    return pg;
}

// The page, as a 16:9 slide when asked (text and lanes smaller until it fits: a compare picture
// is taller than it is wide otherwise), and at least ExportOptions::minHeight tall.
Page layoutPage(const Core::Scenario &s, const ExportRuns &t, const ExportOptions &options)
{
    Page pg = layoutPageAsIs(s, t, options);
    double height = options.minHeight;
    if (options.slide) {
        height = std::max(height, std::round(std::max(320.0, options.width) * 9 / 16));
        ExportOptions smaller = options;
        while (pg.size.height() > height &&
               smaller.theme.fontScale * 0.94 >= 0.6 * options.theme.fontScale) {
            smaller.theme.fontScale *= 0.94;
            smaller.theme.lineScale *= 0.94;
            pg = layoutPageAsIs(s, t, smaller);
        }
    }
    if (options.slide && pg.size.height() > height) {
        // a slide is 16:9 whatever it holds (a tall compare): the picture shrinks to its height
        pg.fit = height / pg.size.height();
        pg.offset = QPointF(pg.size.width() * (1 - pg.fit) / 2, 0);
    }
    pg.size.setHeight(pg.fit < 1 ? height : std::max(pg.size.height(), height));
    return pg;
}

// A rectangle of the layout where it lands on the page (a fitted slide's scale and shift).
QRectF onPage(const Page &pg, const QRectF &r)
{
    return QRectF(pg.offset + r.topLeft() * pg.fit, r.size() * pg.fit);
}

TimeAxis axisFor(const Core::Trace &trace, const ExportOptions &o, const QRectF &timeline)
{
    const double header = TimelineRenderer::headerWidth(rendererOptions(o));
    const double from = o.fromTick.value_or(TimelineRenderer::fitFrom(trace));
    const double to = o.toTick.value_or(TimelineRenderer::fitTo(trace));
    // an inset after the header column, so the ruler's first label and a glyph at the first
    // tick are whole, not half under the lane names
    const double inset = TimelineRenderer::plotInset(rendererOptions(o));
    // relative to the timeline rectangle, which the painter is translated to
    // and room after the last tick for half its ruler label, as the window leaves
    const double after = 24 * o.theme.fontScale;
    return TimeCoordinates::fitted(from, std::max(from + 1, to), header + inset,
                                   std::max(1.0, timeline.width() - header - inset - after));
}

void paintPage(QPainter *p, const Core::Scenario &s, const ExportRuns &t, const ExportOptions &,
               const Page &pg)
{
    const ExportOptions o = sized(pg.options);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setRenderHint(QPainter::TextAntialiasing);
    p->fillRect(QRectF(QPointF(0, 0), pg.size), o.theme.background);
    p->translate(pg.offset);
    p->scale(pg.fit, pg.fit);
    const int wrap = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;
    if (!pg.titleText.isEmpty()) {
        p->setPen(o.theme.foreground);
        p->setFont(font(o, 30, true));
        p->drawText(pg.title, wrap, pg.titleText);
        p->setFont(font(o, 17));
        p->setPen(o.theme.muted);
        p->drawText(pg.subtitle, wrap, pg.subtitleText);
    }
    p->save();
    p->translate(pg.timeline.topLeft());
    const QRectF local(QPointF(0, 0), pg.timeline.size());
    const TimelineRenderer renderer;
    renderer.paint(p, local, s, t.shown, o.compare ? t.unfenced : nullptr,
                   axisFor(t.shown, o, pg.timeline), rendererOptions(o));
    p->restore();
    if (!pg.legendItems.empty())
        layoutLegend(p, pg.legendItems, pg.legend, o);
    if (!pg.captionText.isEmpty()) {
        p->setPen(o.theme.foreground);
        p->setFont(font(o, 18));
        p->drawText(pg.caption, wrap, pg.captionText);
    }
    if (!pg.explanationText.isEmpty()) {
        const double pad = 12 * o.theme.fontScale;
        p->setPen(QPen(o.theme.muted, 1));
        p->setBrush(o.theme.laneStripe);
        p->drawRoundedRect(pg.explanation, 6, 6);
        p->setPen(o.theme.foreground);
        p->setFont(font(o, 18));
        p->drawText(pg.explanation.adjusted(pad, pad, -pad, -pad), wrap, pg.explanationText);
    }
    p->restore();
}

QString writeWhole(const QString &path, const QByteArray &bytes)
{
    const std::optional<Core::SaveFailure> failed = Core::saveWhole(path, bytes);
    return failed ? Core::cannotWrite(path, *failed) : QString();
}

QByteArray pngBytes(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

void setUpPdf(QPdfWriter &pdf, const QSizeF &size)
{
    pdf.setResolution(96); // one painter unit = one logical pixel, as on screen
    pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0),
                              QPageSize::Point, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setCreator(QStringLiteral("FenceScope"));
}

} // namespace

std::optional<ExportOptions::Format> formatFor(const QString &path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png"))
        return ExportOptions::Format::Png;
    if (ext == QLatin1String("svg"))
        return ExportOptions::Format::Svg;
    if (ext == QLatin1String("pdf"))
        return ExportOptions::Format::Pdf;
    return std::nullopt;
}

QString defaultCaption(const Core::Scenario &s, const Core::Trace &t)
{
    Q_UNUSED(s)
    const Core::Summary &sum = t.summary;
    QString text = t.fencing ? QObject::tr("Fencing on") : QObject::tr("Fencing off");
    text += QObject::tr(": %1 accepted, %2 rejected, %3 corrupted, %4 locked out. ")
                .arg(sum.accepted)
                .arg(sum.rejected)
                .arg(sum.corrupted)
                .arg(sum.lockedOut);
    if (sum.skipped)
        text += sum.skipped == 1 ? QObject::tr("1 checked write skipped. ")
                                 : QObject::tr("%1 checked writes skipped. ").arg(sum.skipped);
    if (sum.safe())
        text += QObject::tr("Safety held: no write overwrote newer data.");
    else if (sum.corrupted)
        text += sum.corrupted == 1
                    ? QObject::tr("Safety violated: 1 write overwrote newer data.")
                    : QObject::tr("Safety violated: %1 writes overwrote newer data.")
                          .arg(sum.corrupted);
    if (sum.partial)
        text += (sum.corrupted ? QStringLiteral(" ") : QObject::tr("Safety violated: ")) +
                (sum.partial == 1
                     ? QObject::tr("1 update half applied across storages.")
                     : QObject::tr("%1 updates half applied across storages.").arg(sum.partial));
    return text;
}

bool shownFencing(const Core::Scenario &scenario, const ExportOptions &options)
{
    return options.compare || options.fencing.value_or(scenario.fencing);
}

std::optional<Core::Tick> cutBefore(const ExportOptions &options)
{
    if (!options.hideFuture || options.playhead == Core::kForever)
        return std::nullopt;
    return options.playheadBefore ? options.playhead : options.playhead + 1;
}

QRectF timelineRect(const Core::Scenario &scenario, const ExportRuns &runs,
                    const ExportOptions &options)
{
    const Page pg = layoutPage(scenario, runs, drawable(runs, options));
    return onPage(pg, pg.timeline);
}

TimelineRenderer::Options timelineOptions(const ExportOptions &options)
{
    return rendererOptions(sized(options));
}

TimeAxis timelineAxis(const Core::Scenario &scenario, const ExportRuns &t,
                      const ExportOptions &options)
{
    const Page pg = layoutPage(scenario, t, drawable(t, options));
    TimeAxis axis = axisFor(t.shown, sized(pg.options), pg.timeline);
    axis.left *= pg.fit;
    axis.pixelsPerTick *= pg.fit;
    return axis;
}

QString stepCaption(const Core::Scenario &s, const Core::Trace &t, Core::Tick tick)
{
    const Core::StoryStep step = Core::storyStepAt(s, t, tick);
    if (step.ref == Core::kNone)
        return QObject::tr("Nothing happens at t=%1.").arg(tick);
    // the step before, for what went on in the background since
    const std::vector<Core::Tick> ticks = Core::storyStepTicks(s, t);
    const auto at = std::lower_bound(ticks.begin(), ticks.end(), tick);
    const Core::Tick since = at == ticks.begin() ? Core::kForever : *std::prev(at);
    QStringList lines{Core::explainStep(s, t, step)};
    for (const QString &line : Core::stepDetails(s, t, step, since))
        lines << QStringLiteral("\u2022 ") + line;
    return lines.join(QLatin1Char('\n'));
}

QSizeF pageSize(const Core::Scenario &scenario, const ExportRuns &runs,
                const ExportOptions &options)
{
    return layoutPage(scenario, runs, drawable(runs, options)).size;
}

void paint(QPainter *p, const Core::Scenario &scenario, const ExportRuns &t,
           const ExportOptions &options)
{
    const ExportOptions o = drawable(t, options);
    paintPage(p, scenario, t, o, layoutPage(scenario, t, o));
}

QImage renderImage(const Core::Scenario &scenario, const ExportRuns &t,
                   const ExportOptions &options)
{
    const ExportOptions o = drawable(t, options);
    const Page pg = layoutPage(scenario, t, o);
    const double scale = std::clamp(o.scale, 0.25, 8.0);
    QImage image(QSize(int(std::lround(pg.size.width() * scale)),
                       int(std::lround(pg.size.height() * scale))),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(o.theme.background);
    QPainter p(&image);
    p.scale(scale, scale);
    paintPage(&p, scenario, t, o, pg);
    return image;
}

QByteArray renderSvg(const Core::Scenario &scenario, const ExportRuns &t,
                     const ExportOptions &options)
{
    const ExportOptions o = drawable(t, options);
    const Page pg = layoutPage(scenario, t, o);
    return Render::renderSvgDocument({pg.size, scenario.title, defaultCaption(scenario, t.shown)},
                                     [&](QPainter *p) { paintPage(p, scenario, t, o, pg); });
}

QByteArray renderPdf(const Core::Scenario &scenario, const ExportRuns &t,
                     const ExportOptions &options)
{
    const ExportOptions o = drawable(t, options);
    const Page pg = layoutPage(scenario, t, o);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setTitle(scenario.title);
    setUpPdf(pdf, pg.size);
    QPainter p(&pdf);
    paintPage(&p, scenario, t, o, pg);
    p.end();
    return bytes;
}

QString exportTo(const QString &path, const Core::Scenario &scenario, const ExportRuns &runs,
                 const ExportOptions &o)
{
    const std::optional<ExportOptions::Format> format = formatFor(path);
    if (!format)
        return QObject::tr("cannot export to %1: unknown format (use .png, .svg or .pdf)").arg(path);
    QByteArray bytes;
    switch (*format) {
    case ExportOptions::Format::Png:
        bytes = pngBytes(renderImage(scenario, runs, o));
        break;
    case ExportOptions::Format::Svg:
        bytes = renderSvg(scenario, runs, o);
        break;
    case ExportOptions::Format::Pdf:
        bytes = renderPdf(scenario, runs, o);
        break;
    }
    if (bytes.isEmpty())
        return QObject::tr("cannot export to %1: rendering failed (picture too large?)").arg(path);
    return writeWhole(path, bytes);
}

std::vector<Core::Tick> keyframeTicks(const Core::Scenario &scenario, const Core::Trace &trace)
{
    return Core::storyStepTicks(scenario, trace);
}

QString exportStoryboard(const QString &target, const Core::Scenario &scenario, const ExportRuns &t,
                         const ExportOptions &options, const std::vector<Core::Tick> &ticks,
                         QStringList *written)
{
    if (ticks.empty())
        return QObject::tr("storyboard: no keyframes (the scenario has no events)");
    ExportOptions o = drawable(t, options);
    {
        // every frame as tall as the tallest: their captions differ in length
        double tallest = 0;
        for (const Core::Tick tick : ticks) {
            o.playhead = tick;
            tallest = std::max(tallest, layoutPage(scenario, t, o).size.height());
        }
        o.minHeight = std::max(o.minHeight, tallest);
    }
    if (target.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter pdf(&buffer);
        pdf.setTitle(scenario.title);
        o.playhead = ticks.front();
        setUpPdf(pdf, layoutPage(scenario, t, o).size);
        QPainter p(&pdf);
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            o.playhead = ticks[i];
            if (i > 0)
                pdf.newPage();
            paintPage(&p, scenario, t, o, layoutPage(scenario, t, o));
        }
        p.end();
        QString error = writeWhole(target, bytes);
        if (error.isEmpty() && written)
            *written << target;
        return error;
    }
    if (QFileInfo(target).exists() && !QFileInfo(target).isDir())
        return QObject::tr("storyboard: %1 exists and is not a folder").arg(target);
    const bool created = !QFileInfo::exists(target);
    if (!QDir().mkpath(target))
        return QObject::tr("storyboard: cannot create folder %1").arg(target);
    const int digits = std::max(2, int(QString::number(ticks.size()).size()));
    QStringList done;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        o.playhead = ticks[i];
        const QString file = QDir(target).filePath(
            QStringLiteral("frame-%1.png").arg(qulonglong(i) + 1, digits, 10, QLatin1Char('0')));
        QString error = writeWhole(file, pngBytes(renderImage(scenario, t, o)));
        if (!error.isEmpty()) {
            for (const QString &f : done)
                QFile::remove(f); // whole or nothing
            if (created)
                QDir().rmdir(target);
            return error;
        }
        done << file;
    }
    if (written)
        *written << done;
    return {};
}

} // namespace Exporter
