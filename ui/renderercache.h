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
    // The width table of one font: string -> QFontMetricsF::horizontalAdvance.
    QHash<QString, qreal> &widths(FontSlot slot) { return m_widths[std::size_t(slot)]; }

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

        friend bool operator==(const StaticKey &a, const StaticKey &b);
    };

    // The layer for `key`: the last one if its key is equal, else a new one painted by `paint`
    // (given a painter whose coordinates are the target's logical ones).
    const QImage &staticLayer(const StaticKey &key, const std::function<void(QPainter *)> &paint);

    // How often the static layer was painted (tests: a cache that never misses is suspect too).
    int staticLayerPaints() const { return m_layerPaints; }

    void clear();

private:
    Fonts m_fonts;
    int m_dpiX = 0;
    int m_dpiY = 0;
    std::array<QHash<QString, qreal>, FontSlots> m_widths;

    std::optional<StaticKey> m_key;
    QImage m_layer;
    int m_layerPaints = 0;
};
