#pragma once

// What a TimelineRenderer keeps from one paint to the next, so that repainting a view costs
// little more than drawing the trace itself:
// - text widths per font: measuring a label shapes it, and labels are measured before they are
//   placed (most of them are then dropped for lack of room);
// - the static layer: background, lane stripes and separators, the words of the header column,
//   the grid and the ruler, as one image, for raster targets only (SVG and PDF keep real text and
//   vector shapes). It depends on the size, the theme, the lanes and the axis, so a drag step or a
//   hover reuses it and a scroll or zoom repaints it once.
// Nothing here changes the picture: a renderer with caching off paints the same pixels.

#include "paintrecorder.h"
#include "theme.h"
#include "timecoordinates.h"

#include <QFont>
#include <QHash>
#include <QImage>
#include <QRect>
#include <QRectF>
#include <QString>

#include <array>
#include <functional>
#include <optional>
#include <vector>

class QPainter;

class RendererCache
{
public:
    enum FontSlot
    {
        Label,
        Small,
        Name,
        Bold,
        FontSlots
    };
    using Fonts = std::array<QFont, FontSlots>;

    // --- text widths ------------------------------------------------------------------------

    // Forgets every width when the fonts or the device resolution differ from the last paint's.
    void useFonts(const Fonts &fonts, int dpiX, int dpiY);
    // The width table of one font: string -> QFontMetricsF::horizontalAdvance. A helper thread
    // measuring at the same time as the painting one (see TimelineRenderer::paint) has its own.
    QHash<QString, qreal> &widths(FontSlot slot, bool helper = false)
    {
        return (helper ? m_helperWidths : m_widths)[std::size_t(slot)];
    }

    // --- static layer -----------------------------------------------------------------------

    // Where a raster painter puts `rect`, when the layer can be blitted there pixel for pixel:
    // a raster engine, source-over, no rotation or fractional scale, whole device pixels.
    struct Target
    {
        QRect deviceRect;
        int dpr = 1;
        int dpiX = 96;
        int dpiY = 96;
    };
    static std::optional<Target> rasterTarget(QPainter *p, const QRectF &rect);
    // Whether text in `fonts` comes out on `p` as it does on an image: not on a widget whose
    // fonts use subpixel (LCD) antialiasing, which Qt gives widgets only. Layers with text in
    // them are only for such targets.
    static bool textAsOnImages(QPainter *p, const Fonts &fonts);
    // Whether sprites can be copied onto `p` pixel for pixel: as above, with no scaling either.
    static bool spriteTarget(QPainter *p);

    // Everything the static layer is painted from.
    struct StaticKey
    {
        QRectF rect;
        QRect deviceRect;
        int dpr = 1;
        int dpiX = 96;
        int dpiY = 96;
        int renderHints = 0;
        Theme theme;
        Fonts fonts;
        bool compare = false;
        std::vector<bool> collapsedPauses;
        std::vector<QString> clients;
        std::vector<QString> storages;
        std::vector<int> rules;
        std::vector<bool> panelFencing; // per panel: its trace's fencing (the storage rules' words)
        TimeAxis axis;
        double pinBottom = 0; // where the lock and storage lanes are pinned (0: not)
        double pinTop = 0;    // and where the visible part begins

        friend bool operator==(const StaticKey &a, const StaticKey &b);
    };

    // The layer for `key`: the last one if its key is equal, else a new one painted by `paint`
    // (given a painter whose coordinates are the target's logical ones) when the last paint
    // asked for this key too; else null, and the caller paints the layer itself.
    const QImage *staticLayer(const StaticKey &key, const std::function<void(QPainter *)> &paint);

    // How often the static layer was painted (tests: a cache that never misses is suspect too).
    int staticLayerPaints() const { return m_layerPaints; }

    // --- content layer ----------------------------------------------------------------------

    // The recording of this paint's trace-dependent content (cleared), compared with the last
    // paint's by contentLayer().
    PaintRecorder &recording() { return m_recordings[m_current]; }
    // After staticLayer() and the recording: the static layer with the recording replayed on it
    // (by `replay`, given a painter in the target's logical coordinates) when the last paint
    // made the same recording over the same static layer - painted the second time such a paint
    // comes, copied from then on - else null, and the caller replays the recording itself.
    const QImage *contentLayer(const std::function<void(QPainter *)> &replay);
    // A paint that does not go through contentLayer() (another kind of target) breaks the chain.
    void forgetContent() { m_lastValid = false; }
    // How often the content layer was painted.
    int contentLayerPaints() const { return m_contentPaints; }

    // --- sprites ----------------------------------------------------------------------------

    // An item painted once onto a transparent image and copied wherever the same item is drawn
    // again at the same sub-pixel offset. `key` holds everything its pixels depend on.
    struct Sprite
    {
        QImage image;
        QPoint offset; // of the image's top-left from the item's whole-pixel anchor
    };
    // The sprite for `key`, or null. A key seen for the first time is only noted: items whose
    // offsets never repeat (a scroll moves every x) are drawn directly rather than painted
    // twice; the second time a sprite is worth making (`make` is then true).
    const Sprite *sprite(const QByteArray &key, bool *make);
    // Whether a sprite of `bytes` fits the budget, after dropping sprites that neither this
    // paint nor the last one used. When the sprites in use fill it, the rest is drawn directly.
    bool roomFor(qint64 bytes);
    // Keeps `sprite` (roomFor() said there is room) and returns it.
    const Sprite *addSprite(const QByteArray &key, Sprite sprite);
    // Starts a paint: sprites unused for two paints may be dropped to make room.
    void beginPaint() { ++m_paint; }
    int spriteCount() const { return int(m_sprites.size()); }

    void clear();

private:
    Fonts m_fonts;
    int m_dpiX = 0;
    int m_dpiY = 0;
    std::array<QHash<QString, qreal>, FontSlots> m_widths;
    std::array<QHash<QString, qreal>, FontSlots> m_helperWidths;

    std::optional<StaticKey> m_asked; // the last key asked for
    std::optional<StaticKey> m_key;   // the key of m_layer
    QImage m_layer;
    int m_layerPaints = 0;

    struct Entry
    {
        Sprite sprite;
        quint64 lastPaint = 0;
    };
    PaintRecorder m_recordings[2];
    int m_current = 0;
    bool m_lastValid = false;   // m_recordings[1 - m_current] is the last paint's
    int m_lastLayerPaints = -1; // the static layer it was recorded over
    QImage m_content;
    bool m_contentValid = false; // m_content shows the last recording
    int m_contentPaints = 0;

    QHash<QByteArray, Entry> m_sprites;
    QHash<QByteArray, bool> m_seen; // keys asked for once, without a sprite yet
    qint64 m_spriteBytes = 0;
    quint64 m_paint = 0;
    quint64 m_fullAt = ~quint64(0); // the paint that found the budget full of sprites in use
};
