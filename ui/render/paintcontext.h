#pragma once

// What every pass paints with: the recording (Canvas: bands and sprites), the paint's Style
// and Metrics, the time axis and its visible tick range, the layout, the scenario, the options,
// and the labels that sit at the playhead's tick. The tick <-> pixel math of a paint (X(),
// pixel columns), the pinned lanes, and the helpers more than one pass draws with (glyphs,
// chips, fitted labels, label placement) live here, once.
//
// A pass copies its context (a few pointers and references, shared per-paint state behind a
// pointer), so its own drawing code reads as members of one painter.

#include "canvas.h"
#include "glyphs.h"
#include "labelspans.h"
#include "lanesizes.h"
#include "paintedregions.h"
#include "style.h"
#include "tokentext.h"
#include "tracelookup.h"

#include "lockfacts.h"
#include "paintrecorder.h"
#include "simulator.h"
#include "timecoordinates.h"
#include "timelinelayout.h"
#include "timelinerenderer.h"

#include <QPainterPath>
#include <QPolygonF>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace Render {

// The first event of the trace after each pixel column, found once for all client lanes of a
// paint (see PaintContext::clientEventAfterColumn).
struct EventColumns
{
    const Core::Trace *trace = nullptr;
    ColumnJumps jumps{0, -1};
    std::size_t hint = 0;
    std::size_t guess = 0;
};

// A label painted, and the x of what it tells (PaintContext::noteLabel); or a part of the
// picture that is not the run (a panel's title) and shows whole wherever the playhead is.
struct NotedLabel
{
    double anchor = 0;
    QRectF box;
    bool whole = false;
};

class PaintContext
{
public:
    PaintContext(PaintRecorder *p, const Target &target, const Style &st, const TimeAxis &axis,
                 const TimelineLayout &l, const Core::Scenario &s,
                 const TimelineRenderer::Options &o)
        : m_p(p), m_target(target), m_canvas(p, target), m_bands(m_canvas.bands()), m_st(st),
          m_axis(axis), m_l(l), m_s(s), m_o(o)
    {
        m_xmin = l.plot.left();
        m_xmax = l.plot.right();
        const double lo = axis.xToTick(m_xmin - 2);
        const double hi = axis.xToTick(m_xmax + 2);
        m_tLo = lo <= 0 ? 0 : Tick(std::floor(lo));
        m_tHi = hi <= 0 ? 0 : (hi >= 1.8e19 ? Core::kForever - 1 : Tick(std::ceil(hi)));
        // hiding the future, an item's words fit in the part of it that has happened
        m_shownRight = m_xmax;
        if (o.hideFuture && o.playhead != Core::kForever)
            m_shownRight =
                o.playheadBefore
                    ? m_xmin
                    : std::min(m_xmax, axis.tickToX(double(o.playhead)) +
                                           std::max(1.0, std::min(9 * o.theme.fontScale,
                                                                  0.5 * axis.pixelsPerTick)));
    }

    // The same context speaking another scenario's words: compare mode's bottom panel when it
    // runs the schedule under another token source (Options::bottomScenario). Same lanes.
    PaintContext(const PaintContext &o, const Core::Scenario &s)
        : m_p(o.m_p), m_target(o.m_target), m_canvas(o.m_canvas), m_bands(o.m_bands), m_st(o.m_st),
          m_axis(o.m_axis), m_l(o.m_l), m_s(s), m_o(o.m_o), m_labels(o.m_labels), m_xmin(o.m_xmin),
          m_xmax(o.m_xmax), m_shownRight(o.m_shownRight), m_tLo(o.m_tLo), m_tHi(o.m_tHi),
          m_columns(o.m_columns), m_taken(o.m_taken), m_regions(o.m_regions),
          m_narrowed(o.m_narrowed), m_rowsTop(o.m_rowsTop), m_rowsBottom(o.m_rowsBottom)
    {
    }

    PaintRecorder *recorder() const { return m_p; }
    const Style &style() const { return m_st; }
    const TimelineLayout &layout() const { return m_l; }
    const TimelineRenderer::Options &options() const { return m_o; }

    // Collects the labels of the run with the x of what each tells (an event's tick, a bar's
    // start): those of the playhead's tick stay bright where what is still to come is dimmed,
    // and while the future is hidden every label of what has begun by the playhead shows whole
    // (the painting thread's painter only).
    void noteLabels(std::vector<NotedLabel> *labels) { m_labels = labels; }
    void noteLabel(double anchorX, const QRectF &label)
    {
        if (m_labels && m_o.playhead != Core::kForever)
            m_labels->push_back({anchorX, label, false});
    }
    void noteWhole(const QRectF &box)
    {
        if (m_labels && m_o.playhead != Core::kForever)
            m_labels->push_back({-std::numeric_limits<double>::infinity(), box, true});
    }

    // Where the interactive elements are painted, and what each is (see PaintedRegions): a
    // pass records each one as it draws it, and the hit test reads them. Null: not recorded.
    void recordRegions(PaintedRegions *regions) { m_regions = regions; }
    PaintedRegions *regions() const { return m_regions; }
    void region(const QRectF &rect, const TimelineRenderer::Hit &hit, RegionZ z,
                double anchor) const
    {
        if (m_regions)
            m_regions->add(rect, hit, z, anchor);
    }

    // Paints only what lies near the columns from x0 to x1 and the rows from y0 to y1 (the hit
    // test's look at a point): the visible tick range shrinks to the columns, a pass leaves out
    // the lanes that do not meet the rows (meetsRows), the plot's edges stay where they are.
    void narrowTo(double x0, double x1, double y0, double y1)
    {
        const double lo = m_axis.xToTick(x0);
        const double hi = m_axis.xToTick(x1);
        m_tLo = lo <= 0 ? 0 : Tick(std::floor(lo));
        m_tHi = hi <= 0 ? 0 : (hi >= 1.8e19 ? Core::kForever - 1 : Tick(std::ceil(hi)));
        m_rowsTop = y0;
        m_rowsBottom = y1;
        m_narrowed = true;
    }
    // Whether a lane (or a row of one) from the top to the bottom of `rect` meets the rows the
    // context is narrowed to; every lane does when it is not narrowed. A lane that does not
    // records no region the hit test could find under its point.
    bool meetsRows(const QRectF &rect) const
    {
        return rect.bottom() >= m_rowsTop && rect.top() <= m_rowsBottom;
    }
    // Narrowed to a point (the hit test's look, painted onto a recording no one replays): a pass
    // records the region of every item near it, also of those a crowded paint jumps over or
    // draws as one pixel column with others; a paint records the items it draws one by one.
    bool narrowed() const { return m_narrowed; }

    // The rows of a client lane in which its elements answer the mouse: the markers with their
    // labels above, down to the pause row; the pause row, down to a pixel above the lease bar;
    // the lease bar with a pixel around it; the belief row, down to the lane's bottom. They tile
    // the lane: each stops a millionth of a pixel short of the next one's top, which is the
    // next one's (no pointer stands in between).
    static QRectF markerBand(const ClientLaneRects &r)
    {
        return band(r, r.lane.top(), r.pauses.top());
    }
    static QRectF pauseBand(const ClientLaneRects &r)
    {
        return band(r, r.pauses.top(), r.holds.top() - 1);
    }
    static QRectF holdBand(const ClientLaneRects &r)
    {
        // (with its pauses collapsed, the lane's pause row is empty and the marker row reaches
        // down to the bar)
        return band(r, std::max(r.pauses.top(), r.holds.top() - 1), r.holds.bottom() + 1);
    }
    static QRectF beliefBand(const ClientLaneRects &r)
    {
        const double top = r.holds.bottom() + 1;
        return QRectF(r.lane.left(), top, r.lane.width(), r.lane.bottom() - top);
    }
    // What a region of client `client`'s lane in `panel` stands for.
    static TimelineRenderer::Hit clientHit(const TimelinePanel &panel, int client,
                                           TimelineRenderer::Hit::Part part, int action,
                                           std::uint32_t ref = Core::kNone)
    {
        TimelineRenderer::Hit hit;
        hit.part = part;
        hit.client = client;
        hit.lane = client;
        hit.action = action;
        hit.ref = ref;
        hit.bottomPanel = panel.bottom;
        return hit;
    }
    // A region from x0 to x1 in `band` (a row of a client lane), standing at `anchor`.
    void region(double x0, double x1, const QRectF &band, const TimelineRenderer::Hit &hit,
                RegionZ z, double anchor) const
    {
        region(QRectF(x0, band.top(), x1 - x0, band.height()), hit, z, anchor);
    }

    // Room for words that several passes put in one place (a belief row's "told: ...", a
    // client's own clock's "expires", a storage's outcome and a group's words): a label takes
    // its box, and a later one, from any pass, goes only where no label is yet.
    // (A helper thread may paint a panel's storage lanes while this thread paints the rest.)
    bool labelFree(const QRectF &box) const
    {
        const std::lock_guard<std::mutex> lock(m_taken->mutex);
        for (const QRectF &r : m_taken->boxes)
            if (r.intersects(box))
                return false;
        return true;
    }
    void takeLabel(const QRectF &box) const
    {
        const std::lock_guard<std::mutex> lock(m_taken->mutex);
        m_taken->boxes.push_back(box);
    }

    // x of a tick, clamped a little outside the plot so huge ticks stay paintable.
    double X(double tick) const { return m_axis.clampedX(tick, m_xmin, m_xmax); }
    double X(Tick tick) const
    {
        if (tick == Core::kForever)
            return m_xmax + 40;
        return X(double(tick));
    }
    int column(Tick tick) const { return int(std::floor(X(tick))); }
    // First tick whose x lies in the column after `col` (jumping over crowded items).
    Tick firstTickOfColumn(int col) const
    {
        const double t = std::ceil(m_axis.xToTick(double(col) + 1.0));
        return t <= 0 ? 0 : (t >= 1.8e19 ? Core::kForever : Tick(t));
    }

    // A tick before which every tick lies in column `col` or earlier, checked with column()
    // itself (firstTickOfColumn() goes backwards through xToTick(), and rounding can put it a
    // tick off; column() never decreases with the tick). Usually the first tick after `col`;
    // 0 when that cannot be told in a few steps (nothing is jumped over then).
    Tick endOfColumn(int col) const
    {
        Tick t = firstTickOfColumn(col);
        for (int n = 0; t > 0 && column(t - 1) > col; ++n, --t)
            if (n == 64)
                return 0;
        for (int n = 0; n < 64 && t < Core::kForever && column(t) <= col; ++n)
            ++t;
        return t;
    }

    // Last tick whose x lies in column `col` or before it.
    Tick lastTickOfColumn(int col) const
    {
        const double t = std::floor(m_axis.xToTick(double(col) + 1.0));
        return t <= 0 ? 0 : (t >= 1.8e19 ? Core::kForever - 1 : Tick(t));
    }

    // Calls part(panel, false) for the panel as it is; when lanes are pinned (TimelinePanel::
    // pinned, pinTop), clipped to what lies above all the pinned lanes, and for a panel whose own
    // lock and storage lanes are pinned then part(moved, true) clipped to them, with the client
    // lanes of `moved` stacked just above them, out of the clip: a client lane under the pinned
    // ones is hidden, and a connector to a storage still comes down from above.
    template <typename Part> void inPinnedParts(const TimelinePanel &panel, Part &&part) const
    {
        if (std::isinf(panel.pinTop)) {
            part(panel, false);
            return;
        }
        // (a panel wholly under the pinned lanes paints nothing of its own part: an empty
        // clip rectangle is not relied on to clip everything)
        const double shown = std::min(panel.rect.bottom(), panel.pinTop) - panel.rect.top();
        const QRectF regionClip = m_regions ? m_regions->clip() : QRectF();
        if (shown > 0) {
            const QRectF clip(panel.rect.left(), panel.rect.top(), panel.rect.width(), shown);
            m_p->save();
            m_p->setClipRect(clip, Qt::IntersectClip);
            if (m_regions)
                m_regions->setClip(regionClip.intersected(clip));
            part(panel, false);
            m_p->restore();
            if (m_regions)
                m_regions->setClip(regionClip);
        }
        if (!panel.isPinned())
            return;
        const QRectF pin = panel.pinned;
        TimelinePanel moved = panel;
        // what is not pinned goes above the pinned rectangle, out of its clip: the client
        // lanes, and compare mode's bottom panel's lock lane (only its storages are pinned)
        if (std::abs(moved.lock.top() - pin.top()) > 0.5) {
            const double dy = pin.top() - moved.lock.bottom();
            for (QRectF *q : {&moved.lock, &moved.lockHeader, &moved.lockEvents, &moved.lockBars})
                q->translate(0, dy);
        }
        for (ClientLaneRects &r : moved.clients) {
            const double dy = pin.top() - r.lane.bottom();
            for (QRectF *q :
                 {&r.lane, &r.header, &r.labels, &r.markers, &r.pauses, &r.holds, &r.believes})
                q->translate(0, dy);
        }
        m_p->save();
        m_p->setClipRect(pin, Qt::IntersectClip);
        if (m_regions)
            m_regions->setClip(regionClip.intersected(pin));
        part(moved, true);
        m_p->restore();
        if (m_regions)
            m_regions->setClip(regionClip);
    }

    Tick tLo() const { return m_tLo; }
    Tick tHi() const { return m_tHi; }

    // The plot area of a panel, and of its lanes pinned elsewhere (compare mode's top panel).
    QRectF plotClip(const TimelinePanel &panel) const
    {
        const QRectF r = panel.isPinned() ? panel.rect.united(panel.pinned) : panel.rect;
        return QRectF(m_xmin, r.top(), m_xmax - m_xmin, r.height());
    }

    qint64 rulerStep() const
    {
        const QString widest = QString::number(std::max<Tick>(m_tHi, 10));
        const double minSpacing = m_st.fmLabel.horizontalAdvance(widest) + 18 * m_st.f;
        return TimeCoordinates::rulerStep(m_axis.pixelsPerTick, minSpacing);
    }

    QRectF lockHeaderText(const TimelinePanel &panel) const
    {
        const double f = m_st.f;
        return panel.lockHeader.adjusted(10 * f, 2 * f, -8 * f, -2 * f);
    }

    // Words on the run: what a label says, how it looks, where it may go, and what it tells.
    // Every label of the content passes is placed by placeLabel() (or fittedLabel()), which
    // measures it, finds its place, takes the room, draws it and notes it for the playhead.
    struct Label
    {
        enum class Side
        {
            Centred,     // centred on x, pushed inwards at the row's ends (needs `room`)
            Right,       // starting `gap` right of x
            Left,        // ending `gap` left of x
            RightOrLeft, // right of x where it fits, else left of it
            At           // at `row` itself, as wide as `width` (a place the site searched for)
        };
        QString text;
        QStringList forms; // or several forms, longest first: the first with room is drawn
        QColor color;
        bool small = false; // the small font, else the label font
        bool chip = true;   // on a chip, words centred; else plain words, left-aligned
        double pad = 6;     // the box is as wide as the words plus this
        QRectF row;         // the box's top and height
        double x = 0;       // where what it tells is
        Side side = Side::Centred;
        double gap = 0;                                          // between x and a box beside it
        double end = std::numeric_limits<double>::infinity();    // a box right of x ends by it
        double start = -std::numeric_limits<double>::infinity(); // a box left of x starts here
        LabelRow *room = nullptr;    // the row's labels placed left to right: fits, and takes
        LabelSpans *spans = nullptr; // the row's labels placed in any order: fits, and takes
        bool free = false;           // only where no label of the paint is yet (labelFree)
        bool take = false;           // and later ones from any pass keep off it (takeLabel)
        double tells = std::numeric_limits<double>::quiet_NaN(); // noted x, if not x
        // what the site alone knows of where it may go (clear of a pause, before the next bar)
        std::function<bool(const QRectF &box)> fits;
        // words the site measures and draws itself (an outcome's pieces in their fonts)
        double width = -1;
        std::function<void(const QRectF &box)> draw;

        // The common kinds: a chip centred on x in a row of labels (a marker's words), and
        // small plain words `gap` right of x (a note beside what it tells).
        static Label centred(const QString &text, const QColor &color, const QRectF &row, double x,
                             LabelRow &room)
        {
            Label l;
            l.text = text;
            l.color = color;
            l.row = row;
            l.x = x;
            l.room = &room;
            return l;
        }
        static Label note(const QString &text, const QColor &color, const QRectF &row, double x,
                          double gap)
        {
            Label l;
            l.text = text;
            l.color = color;
            l.small = true;
            l.chip = false;
            l.pad = 4;
            l.row = row;
            l.x = x;
            l.side = Side::Right;
            l.gap = gap;
            return l;
        }
    };
    // Places `label` (the first of its forms that has room) and returns whether it is drawn.
    bool placeLabel(const Label &label);

    // The first of `texts` (longest first) whose width plus its padding fits in the visible
    // part of the item from x0 to x1, drawn centred there; nothing when none fits. Measured
    // against the visible part, not the whole item: an item scrolled half out of view would
    // otherwise get a label reaching past the plot's edge, cut in half by the clip. Inside
    // its item, it needs no room of a row and keeps no other label off.
    struct LabelText
    {
        QString text;
        double pad;
    };
    void fittedLabel(double x0, double x1, const QRectF &row,
                     std::initializer_list<LabelText> texts, const QColor &color);

    // A shape drawn with a pen and a brush is painted as its fill, then its outline: two
    // layers, each of which can be a sprite (see Canvas::viaSprite). `shape` and `size` say
    // what `draw` draws around `anchor`, within `reach` of it; `rectFill`: the fill is a
    // rectangle (not a path), which needs whole rows for a sprite. Leaves the pen and brush
    // set, as drawing the shape directly would.
    template <class Draw>
    void layered(Shape shape, double size, QPointF anchor, double reach, const QPen &pen,
                 const QBrush &brush, bool rectFill, const Draw &draw)
    {
        const QRectF bounds(anchor.x() - reach, anchor.y() - reach, 2 * reach, 2 * reach);
        if (brush.style() != Qt::NoBrush)
            m_canvas.viaSprite(
                [&] {
                    return SpriteKey(SpriteKind::ShapeFill, shape, size, brush.color().rgba64(),
                                     int(brush.style()));
                },
                anchor, bounds, !rectFill,
                [&](auto *p) {
                    p->setPen(Qt::NoPen);
                    p->setBrush(brush);
                    draw(p);
                });
        if (pen.style() != Qt::NoPen)
            m_canvas.viaSprite(
                [&] {
                    return SpriteKey(SpriteKind::ShapeLine, shape, size, pen.color().rgba64(),
                                     pen.widthF(), int(pen.style()), int(pen.capStyle()),
                                     int(pen.joinStyle()));
                },
                anchor, bounds, true,
                [&](auto *p) {
                    p->setPen(pen);
                    p->setBrush(Qt::NoBrush);
                    draw(p);
                });
        m_p->setPen(pen);
        m_p->setBrush(brush);
    }

    // A line from anchor to anchor + d with the current pen (one stroke: one layer).
    void line(QPointF anchor, QPointF d, const QPen &pen)
    {
        const double reach = std::max(std::abs(d.x()), std::abs(d.y())) + pen.widthF() + 1;
        m_canvas.viaSprite(
            [&] {
                return SpriteKey(SpriteKind::Line, d.x(), d.y(), pen.color().rgba64(), pen.widthF(),
                                 int(pen.style()), int(pen.capStyle()), int(pen.joinStyle()));
            },
            anchor, QRectF(anchor.x() - reach, anchor.y() - reach, 2 * reach, 2 * reach), true,
            [&](auto *p) {
                p->setPen(pen);
                p->drawLine(anchor, anchor + d);
            });
        m_p->setPen(pen);
    }

    void glyph(MarkerShape shape, QPointF c, double r, const QColor &color, bool hollow = false)
    {
        // the shapes are Glyphs' (the legend draws the same); the layers may come from sprites
        const Glyphs::Kind kind = Glyphs::of(shape);
        const QPen pen = Glyphs::pen(kind, color, m_st.lw, hollow);
        const QBrush brush = Glyphs::brush(color, m_st.th.background, hollow);
        const double reach = r * 1.4 + pen.widthF() + 1;
        const auto draw = [&](auto *p) { Glyphs::draw(p, kind, c, r); };
        switch (shape) {
        case MarkerShape::Circle:
            layered(Shape::Circle, r, c, reach, pen, brush, false, draw);
            break;
        case MarkerShape::Diamond:
            layered(Shape::Diamond, r, c, reach, pen, brush, false, draw);
            break;
        case MarkerShape::Triangle:
            layered(Shape::Triangle, r, c, reach, pen, brush, false, draw);
            break;
        case MarkerShape::Cross:
            m_p->setBrush(brush);
            m_p->setPen(pen);
            draw(m_p);
            break;
        }
    }

    // x where the client's next lease after lease i starts (for label room).
    double nextLeaseStartOf(const Core::Trace &t, std::size_t i, int c) const
    {
        for (std::size_t j = i + 1, n = 0; j < t.leases.size() && n < 64; ++j, ++n) {
            if (t.leases[j].start > m_tHi)
                break;
            if (t.leases[j].client == std::uint32_t(c))
                return X(t.leases[j].start);
        }
        return m_xmax + 1000;
    }

    // Columns X() can return, for ColumnJumps.
    int firstColumn() const { return int(std::floor(m_xmin - 40)); }
    int lastColumn() const { return int(std::floor(m_xmax + 40)); }

    // Events are in time order (Trace::firstEventAt relies on it too), so a client's first event
    // at or after a tick is its first event whose index in Trace::events is at or after the
    // trace's first event at that tick. That one is found once per column for all lanes; each
    // lane then searches its own index list, an array of increasing numbers, instead of
    // fetching an event from all over the trace for every probe.
    std::size_t clientEventAfterColumn(const Core::Trace &t, const std::vector<std::uint32_t> &evs,
                                       std::size_t from, std::size_t to, int col,
                                       std::size_t &guess)
    {
        EventColumns &c = *m_columns;
        if (c.trace != &t) {
            c.trace = &t;
            c.jumps = ColumnJumps(firstColumn(), lastColumn());
            c.hint = 0;
            c.guess = 0;
        }
        const Tick v = firstTickOfColumn(col);
        const std::size_t g = c.jumps.at(col, 0, [&](std::size_t) {
            // columns are asked for left to right by every lane: search on from the last answer
            // when it lies before this one
            const auto key = [&](std::size_t k) { return t.events[k].tick; };
            const std::size_t n = t.events.size();
            const std::size_t from = c.hint < n && key(c.hint) < v ? c.hint : 0;
            const std::size_t answer = gallopNear(from, n, v, from ? c.guess : n / 2, key);
            if (answer > c.hint) {
                c.guess = answer - c.hint;
                c.hint = answer;
            }
            return answer;
        });
        const std::size_t k =
            gallopNear(from, to, Tick(g), guess, [&](std::size_t n) { return Tick(evs[n]); });
        guess = k - from;
        return k;
    }

protected:
    PaintRecorder *m_p;
    Target m_target;
    Canvas m_canvas;
    Bands m_bands;
    const Style &m_st;
    const TimeAxis &m_axis;
    const TimelineLayout &m_l;
    const Core::Scenario &m_s;
    const TimelineRenderer::Options &m_o;
    std::vector<NotedLabel> *m_labels =
        nullptr; // labels and what they tell, when a playhead stands
    double m_xmin = 0;
    double m_xmax = 0;
    double m_shownRight = 0; // where what is shown ends: m_xmax, or the playhead's hidden future
    Tick m_tLo = 0;
    Tick m_tHi = 0;
    std::shared_ptr<EventColumns> m_columns = std::make_shared<EventColumns>();
    // the boxes labels took in this paint, whichever pass drew them (labelFree, takeLabel)
    struct Taken
    {
        std::mutex mutex;
        std::vector<QRectF> boxes;
    };
    std::shared_ptr<Taken> m_taken = std::make_shared<Taken>();
    PaintedRegions *m_regions = nullptr; // not owned; see recordRegions()
    bool m_narrowed = false;             // see narrowed()
    double m_rowsTop = -std::numeric_limits<double>::infinity();   // see meetsRows()
    double m_rowsBottom = std::numeric_limits<double>::infinity();

private:
    // Text on a background chip so it stays readable over grid lines and bars.
    void chipText(const QRectF &r, const QString &text, const QColor &color, const QFont &font);
    // Where a form of `label` w wide goes, or none when it has no room.
    std::optional<QRectF> labelPlace(const Label &label, double w) const;
    // Takes the room of `box`, draws `text` in `words` and notes `noted` for the playhead.
    void showLabel(const Label &label, const QString &text, const QRectF &box, const QRectF &words,
                   Qt::Alignment align, const QRectF &noted);

    static QRectF band(const ClientLaneRects &r, double top, double bottom)
    {
        return QRectF(r.lane.left(), top, r.lane.width(), std::max(0.0, bottom - top - 1e-6));
    }
};

} // namespace Render
