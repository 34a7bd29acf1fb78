#pragma once

// What the passes draw on: the recording of the paint, with tall fills cut into bands of
// device rows and repeated items copied from sprites, and fills merged into runs.

#include "paintrecorder.h"
#include "renderercache.h"

#include <QBrush>
#include <QByteArray>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPen>
#include <QRectF>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace Render {

// Qt 6.4's raster engine hands every blend of 96 spans or more to the global thread pool and
// waits for it (QT_THREAD_PARALLEL_FILLS in qdrawhelper.cpp): a translucent, patterned or
// antialiased fill taller than about 32 device rows. On two cores the hand-off (a futex wake and
// wait per fill) costs far more than the fill, and a zoomed-out timeline has hundreds of
// lane-high tints. Cut at whole device rows into bands of at most 30 (three spans a row at most:
// two antialiased edges and the inside), such a fill paints the same pixels, each row once.
struct Bands
{
    static constexpr double kRows = 30;
    bool on = false; // a raster target whose device rows are known
    double sy = 1;   // device rows per logical unit
    double ty = 0;   // device row of logical y = 0

    static Bands of(QPainter *p)
    {
        Bands b;
        const QPaintEngine *engine = p->paintEngine();
        const QTransform t = p->deviceTransform();
        b.on = engine && engine->type() == QPaintEngine::Raster &&
               t.type() <= QTransform::TxScale && t.m22() > 0;
        b.sy = t.m22();
        b.ty = t.dy();
        return b;
    }

    template <class P, class Fill> void fill(P *p, const QRectF &r, const Fill &fill) const
    {
        const double top = r.top() * sy + ty;
        const double bottom = r.bottom() * sy + ty;
        if (!on || !(bottom - top > kRows)) {
            p->fillRect(r, fill);
            return;
        }
        double y0 = r.top();
        for (double row = std::floor(top) + kRows; row < bottom; row += kRows) {
            const double y1 = (row - ty) / sy;
            p->fillRect(QRectF(r.left(), y0, r.width(), y1 - y0), fill);
            y0 = y1;
        }
        p->fillRect(QRectF(r.left(), y0, r.width(), r.bottom() - y0), fill);
    }
};

enum class SpriteKind : std::uint8_t
{
    Connector,
    Fill,
    Outline,
    ShapeFill,
    ShapeLine,
    Line
};

// Shapes drawn through sprites, with their size: the geometry relative to their anchor.
enum class Shape : std::uint8_t
{
    Circle,
    Diamond,
    Triangle,
    Rect,
    Nib
};

// What a sprite shows, as bytes: built on the stack for every item, copied only when kept.
class SpriteKey
{
public:
    template <class... Values> explicit SpriteKey(const Values &...values) { append(values...); }
    template <class... Values> void append(const Values &...values)
    {
        (add(&values, sizeof(values)), ...);
    }
    // Valid while this key lives (a view of its bytes).
    QByteArray bytes() const { return QByteArray::fromRawData(m_bytes, int(m_size)); }

private:
    void add(const void *p, std::size_t n)
    {
        Q_ASSERT(m_size + n <= sizeof(m_bytes));
        std::memcpy(m_bytes + m_size, p, n);
        m_size += n;
    }
    char m_bytes[96];
    std::size_t m_size = 0;
};

// Where the recorded calls will be replayed, as far as drawing them cheaply depends on it.
struct Target
{
    Bands bands;
    RendererCache *sprites = nullptr; // null: no sprites (not copied pixel for pixel there)
    // Where a helper thread may record dense storage lanes while the painting thread records
    // the rest; null: all on the painting thread.
    RendererCache *helper = nullptr;
    int dpiX = 96;
    int dpiY = 96;

    static Target of(QPainter *p, RendererCache *cache)
    {
        Target t;
        t.bands = Bands::of(p);
        t.sprites = cache && RendererCache::spriteTarget(p) ? cache : nullptr;
        return t;
    }
};

// The recording with what makes repeated items cheap: tall fills cut into bands, and sprites.
class Canvas
{
public:
    Canvas(PaintRecorder *p, const Target &target)
        : m_p(p), m_bands(target.bands), m_sprites(target.sprites)
    {
    }

    const Bands &bands() const { return m_bands; }

    // Paints `draw` (an item near `anchor` that stays inside `bounds`) from a sprite when the
    // cache has one, making it the second time the same item comes up, else directly. The
    // sprite holds the item's own pixels: painted at the same sub-pixel offset (the device
    // transforms differ by whole pixels, so patterns line up too when `key` holds the anchor
    // modulo their size) onto transparent, and copied with source-over, which blends them
    // exactly as painting them does, so long as the item covers no pixel twice (one fill, or
    // one stroke, not both). `key` says what the item is; the sub-pixel offset is added here.
    // Only where the caller says the item comes out the same at any whole-pixel offset
    // (`rowsWhole`): rectangle fills only on whole pixels, see fill(); paths (strokes, dashes,
    // shapes) but for a rare edge pixel one level of 255 apart (Qt flattens curves and clips
    // dashes in device coordinates): 0 of the pixels at the benchmark's zoom, up to 5 in a
    // frame at odd sub-pixel offsets.
    template <class Key, class Draw>
    void viaSprite(const Key &makeKey, QPointF anchor, const QRectF &bounds, bool rowsWhole,
                   const Draw &draw)
    {
        if (!m_sprites || !rowsWhole) {
            draw(m_p);
            return;
        }
        const double ax = std::floor(anchor.x());
        const double ay = std::floor(anchor.y());
        SpriteKey sk = makeKey();
        sk.append(anchor.x() - ax, anchor.y() - ay, int(m_p->renderHints()));
        const QByteArray key = sk.bytes();
        bool make = false;
        const RendererCache::Sprite *sprite = m_sprites->sprite(key, &make);
        // (normalized: bounds of negative height, as an outline of a rectangle given bottom up
        // once had, made a null image, and the sprite drew nothing where painting draws)
        const QRect r =
            bounds.normalized().translated(-ax, -ay).toAlignedRect().adjusted(-1, -1, 1, 1);
        if (!sprite && make && m_sprites->roomFor(qint64(r.width()) * r.height() * 4)) {
            RendererCache::Sprite made;
            made.image = QImage(r.size(), QImage::Format_ARGB32_Premultiplied);
            made.image.fill(Qt::transparent);
            made.offset = r.topLeft();
            QPainter sp(&made.image);
            sp.setRenderHints(m_p->renderHints());
            sp.translate(-(ax + r.left()), -(ay + r.top()));
            draw(&sp);
            sp.end();
            sprite = m_sprites->addSprite(key, std::move(made));
        }
        if (!sprite) {
            draw(m_p);
            return;
        }
        m_p->drawImage(QPointF(ax + sprite->offset.x(), ay + sprite->offset.y()), sprite->image);
    }

    // One brush over a rectangle (a fill is one layer). Qt fills a rectangle with its own
    // rasterizer, whose edge coverage at a fractional position depends on where the rectangle
    // lies (one level of 255 now and then, seen with a zoomed-out run): a sprite is only exact,
    // and used, for rectangles on whole pixels. Big ones are painted: their cost is in the
    // pixels, which a sprite would not save.
    template <class Fill> void fill(const QRectF &r, const Fill &fill)
    {
        const QBrush brush(fill);
        if (!m_sprites || r.width() * r.height() > 32768 || !(r.width() > 0) || !(r.height() > 0)) {
            m_bands.fill(m_p, r, fill);
            return;
        }
        // a pattern starts at the origin: where the item lies modulo its 8 pixels matters
        const bool pattern = brush.style() > Qt::SolidPattern;
        const int px = pattern ? int(std::floor(r.left())) & 7 : 0;
        const int py = pattern ? int(std::floor(r.top())) & 7 : 0;
        viaSprite(
            [&] {
                return SpriteKey(SpriteKind::Fill, brush.color().rgba64(), int(brush.style()),
                                 r.width(), r.height(), px, py);
            },
            r.topLeft(), r,
            wholeRows(r.top()) && wholeRows(r.bottom()) && wholeRows(r.left()) &&
                wholeRows(r.right()),
            [&](auto *p) { m_bands.fill(p, r, fill); });
    }

    // The outline of a rectangle with `pen` (one stroke, one layer).
    void outline(const QRectF &r, const QPen &pen)
    {
        const double w = pen.widthF();
        viaSprite(
            [&] {
                return SpriteKey(SpriteKind::Outline, pen.color().rgba64(), w, int(pen.style()),
                                 int(pen.capStyle()), int(pen.joinStyle()), r.width(), r.height());
            },
            r.topLeft(), r.normalized().adjusted(-w - 1, -w - 1, w + 1, w + 1),
            wholeRows(r.top()) && wholeRows(r.bottom()),
            [&](auto *p) {
                p->setPen(pen);
                p->setBrush(Qt::NoBrush);
                p->drawRect(r);
            });
    }

    // Whether a logical y lies on a whole device row (sprites are only made for targets that
    // differ from the device by whole pixels, so logical whole is device whole).
    static bool wholeRows(double y) { return y == std::floor(y); }

private:
    PaintRecorder *m_p;
    Bands m_bands;
    RendererCache *m_sprites; // null: draw every item directly
};

// Fills of one band merged into runs: neighbouring items (closer than a pixel) become one
// fill. Zoomed out, thousands of sub-pixel items turn into a handful of rectangles.
class RunFill
{
public:
    // Items closer than `joinPx` join one run: more for tints, where a hairline gap means
    // nothing, than for bars, whose gaps tell owners apart.
    RunFill(Canvas &canvas, double top, double height, const QBrush &first,
            const QBrush &second = QBrush(), double joinPx = 1.0)
        : m_canvas(canvas), m_top(top), m_height(height), m_first(first), m_second(second),
          m_join(joinPx)
    {
    }
    ~RunFill() { flush(); }
    RunFill(const RunFill &) = delete;
    RunFill &operator=(const RunFill &) = delete;

    void add(double x0, double x1)
    {
        if (m_open && x0 <= m_x1 + m_join) {
            m_x1 = std::max(m_x1, x1);
            return;
        }
        flush();
        m_open = true;
        m_x0 = x0;
        m_x1 = x1;
    }
    void flush()
    {
        if (!m_open)
            return;
        m_open = false;
        const QRectF r(m_x0, m_top, m_x1 - m_x0, m_height);
        m_canvas.fill(r, m_first);
        if (m_second.style() != Qt::NoBrush)
            m_canvas.fill(r, m_second);
    }

private:
    Canvas &m_canvas;
    double m_top;
    double m_height;
    QBrush m_first;
    QBrush m_second;
    double m_join;
    bool m_open = false;
    double m_x0 = 0;
    double m_x1 = 0;
};

} // namespace Render
