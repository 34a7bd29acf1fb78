#include "renderercache.h"

#include <QPaintEngine>
#include <QPainter>
#include <QRawFont>

#include <cmath>

namespace {

QtMessageHandler g_previousHandler = nullptr;

// Qt warns when asked for a subpixel glyph where no subpixel layout is configured, which is
// the answer the probe below is after.
void quietProbe(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (message.contains(QLatin1String("subpixel layout is unknown")))
        return;
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

// Whether `font` is set up for subpixel (LCD) antialiasing. Qt uses it for text on widgets but
// grayscale antialiasing on images (QRasterPaintEngine::drawCachedGlyphs), so a layer painted
// on an image would not show text as painting on the widget does. A glyph rendered for subpixel
// antialiasing has coloured fringes only where the font is configured for it.
bool subpixelText(const QFont &font)
{
    static QHash<QString, bool> known; // the GUI thread paints widgets
    const QString key = font.key();
    const auto it = known.constFind(key);
    if (it != known.cend())
        return *it;
    bool coloured = false;
    const QRawFont raw = QRawFont::fromFont(font);
    const QList<quint32> glyphs = raw.glyphIndexesForString(QStringLiteral("Wg"));
    g_previousHandler = qInstallMessageHandler(quietProbe);
    for (const quint32 glyph : glyphs) {
        const QImage map = raw.alphaMapForGlyph(glyph, QRawFont::SubPixelAntialiasing);
        for (int y = 0; y < map.height() && !coloured; ++y)
            for (int x = 0; x < map.width() && !coloured; ++x) {
                const QRgb p = map.pixel(x, y);
                coloured = qRed(p) != qGreen(p) || qGreen(p) != qBlue(p);
            }
    }
    qInstallMessageHandler(g_previousHandler);
    known.insert(key, coloured);
    return coloured;
}

bool whole(double v)
{
    return std::abs(v - std::round(v)) < 1e-9;
}

// QRectF's operator== is fuzzy; a key must notice any change.
bool same(const QRectF &a, const QRectF &b)
{
    return a.x() == b.x() && a.y() == b.y() && a.width() == b.width() && a.height() == b.height();
}

} // namespace

void RendererCache::useFonts(const Fonts &fonts, int dpiX, int dpiY)
{
    if (fonts == m_fonts && dpiX == m_dpiX && dpiY == m_dpiY)
        return;
    m_fonts = fonts;
    m_dpiX = dpiX;
    m_dpiY = dpiY;
    for (QHash<QString, qreal> &w : m_widths)
        w.clear();
    for (QHash<QString, qreal> &w : m_helperWidths)
        w.clear();
}

bool RendererCache::textAsOnImages(QPainter *p, const Fonts &fonts)
{
    if (!p->device() || p->device()->devType() != QInternal::Widget)
        return true;
    for (const QFont &f : fonts)
        if (subpixelText(f))
            return false;
    return true;
}

std::optional<RendererCache::Target> RendererCache::rasterTarget(QPainter *p, const QRectF &rect)
{
    QPaintEngine *engine = p->paintEngine();
    QPaintDevice *device = p->device();
    if (!engine || !device || engine->type() != QPaintEngine::Raster)
        return std::nullopt;
    // the layer replaces what lies under it: only right where an opaque fill would do the same
    if (p->compositionMode() != QPainter::CompositionMode_SourceOver || p->opacity() != 1.0)
        return std::nullopt;
    if (device->devType() == QInternal::Image) {
        // painted in 32-bit ARGB: other formats round every step differently
        const QImage::Format f = static_cast<QImage *>(device)->format();
        if (f != QImage::Format_RGB32 && f != QImage::Format_ARGB32_Premultiplied)
            return std::nullopt;
    }
    const QTransform t = p->deviceTransform();
    if (t.type() > QTransform::TxScale || t.m11() != t.m22() || (t.m11() != 1 && t.m11() != 2))
        return std::nullopt;
    const QRectF d = t.mapRect(rect);
    if (d.isEmpty() || !whole(d.left()) || !whole(d.top()) || !whole(d.right()) ||
        !whole(d.bottom()))
        return std::nullopt;
    Target target;
    target.deviceRect = QRect(int(std::lround(d.left())), int(std::lround(d.top())),
                              int(std::lround(d.width())), int(std::lround(d.height())));
    target.dpr = int(t.m11());
    target.dpiX = device->logicalDpiX();
    target.dpiY = device->logicalDpiY();
    return target;
}

bool RendererCache::spriteTarget(QPainter *p)
{
    const QTransform t = p->deviceTransform();
    return t.type() <= QTransform::TxTranslate && whole(t.dx()) && whole(t.dy()) &&
           rasterTarget(p, QRectF(0, 0, 1, 1)).has_value();
}

bool operator==(const RendererCache::StaticKey &a, const RendererCache::StaticKey &b)
{
    return same(a.rect, b.rect) && a.deviceRect == b.deviceRect && a.dpr == b.dpr &&
           a.dpiX == b.dpiX && a.dpiY == b.dpiY && a.renderHints == b.renderHints &&
           a.theme == b.theme && a.fonts == b.fonts && a.compare == b.compare &&
           a.collapsedPauses == b.collapsedPauses && a.clients == b.clients &&
           a.storages == b.storages && a.rules == b.rules && a.panelFencing == b.panelFencing &&
           a.axis.firstTick == b.axis.firstTick && a.axis.pixelsPerTick == b.axis.pixelsPerTick &&
           a.axis.left == b.axis.left && a.pinBottom == b.pinBottom && a.pinTop == b.pinTop;
}

const QImage *RendererCache::staticLayer(const StaticKey &key,
                                         const std::function<void(QPainter *)> &paint)
{
    if (m_key && *m_key == key)
        return &m_layer;
    // a layer is worth painting when it will be copied again: not for a one-off export, nor
    // while a scroll or zoom changes it every frame
    if (!m_asked || !(*m_asked == key)) {
        m_asked = key;
        m_key.reset();
        return nullptr;
    }
    m_key.reset();
    if (m_layer.size() != key.deviceRect.size())
        m_layer = QImage(key.deviceRect.size(), QImage::Format_ARGB32_Premultiplied);
    else
        m_layer.reinterpretAsFormat(QImage::Format_ARGB32_Premultiplied);
    m_layer.setDevicePixelRatio(key.dpr);
    // the same resolution as the target, so text is measured and drawn alike
    m_layer.setDotsPerMeterX(int(std::lround(key.dpiX / 0.0254)));
    m_layer.setDotsPerMeterY(int(std::lround(key.dpiY / 0.0254)));
    {
        QPainter p(&m_layer);
        p.setRenderHints(QPainter::RenderHints(key.renderHints));
        p.translate(-key.rect.topLeft());
        paint(&p);
    }
    // The layer starts with an opaque fill, so every pixel is opaque: read as RGB32 (the same
    // bytes), the raster engine copies it row by row instead of blending it.
    m_layer.reinterpretAsFormat(QImage::Format_RGB32);
    m_key = key;
    ++m_layerPaints;
    return &m_layer;
}

const QImage *RendererCache::contentLayer(const std::function<void(QPainter *)> &replay)
{
    const PaintRecorder &now = m_recordings[m_current];
    const PaintRecorder &last = m_recordings[1 - m_current];
    const bool same = m_lastValid && m_key && m_lastLayerPaints == m_layerPaints && last == now;
    // this paint's recording is the next one's "last"
    m_current = 1 - m_current;
    m_lastValid = m_key.has_value();
    m_lastLayerPaints = m_layerPaints;
    if (!same) {
        m_contentValid = false;
        return nullptr;
    }
    if (m_contentValid)
        return &m_content;
    m_content = m_layer.copy();
    m_content.reinterpretAsFormat(QImage::Format_ARGB32_Premultiplied);
    m_content.setDevicePixelRatio(m_layer.devicePixelRatio());
    m_content.setDotsPerMeterX(m_layer.dotsPerMeterX());
    m_content.setDotsPerMeterY(m_layer.dotsPerMeterY());
    {
        QPainter p(&m_content);
        p.setRenderHints(QPainter::RenderHints(m_key->renderHints));
        p.translate(-m_key->rect.topLeft());
        replay(&p);
    }
    m_content.reinterpretAsFormat(QImage::Format_RGB32); // opaque, as the layer
    m_contentValid = true;
    ++m_contentPaints;
    return &m_content;
}

const RendererCache::Sprite *RendererCache::sprite(const QByteArray &key, bool *make)
{
    const auto it = m_sprites.find(key);
    if (it != m_sprites.end()) {
        it->lastPaint = m_paint;
        *make = false;
        return &it->sprite;
    }
    *make = m_seen.contains(key);
    if (!*make) {
        if (m_seen.size() >= 16384)
            m_seen.clear();
        m_seen.insert(QByteArray(key.constData(), key.size()), true); // keys may view the stack
    }
    return nullptr;
}

// Bounded: zoomed in and out over a long run, offsets and sizes keep changing.
static constexpr qint64 kSpriteBudget = qint64(48) << 20;

bool RendererCache::roomFor(qint64 bytes)
{
    if (m_spriteBytes + bytes <= kSpriteBudget)
        return true;
    if (m_fullAt == m_paint) // swept already: what is left is in use
        return false;
    for (auto it = m_sprites.begin(); it != m_sprites.end();) {
        if (it->lastPaint + 1 < m_paint) {
            m_spriteBytes -= it->sprite.image.sizeInBytes();
            it = m_sprites.erase(it);
        } else {
            ++it;
        }
    }
    if (m_spriteBytes + bytes <= kSpriteBudget)
        return true;
    m_fullAt = m_paint;
    return false;
}

const RendererCache::Sprite *RendererCache::addSprite(const QByteArray &key, Sprite sprite)
{
    m_seen.remove(key);
    m_spriteBytes += sprite.image.sizeInBytes();
    Entry &e = *m_sprites.insert(QByteArray(key.constData(), key.size()),
                                 Entry{std::move(sprite), m_paint});
    return &e.sprite;
}

void RendererCache::clear()
{
    m_asked.reset();
    m_recordings[0].clear();
    m_recordings[1].clear();
    m_lastValid = false;
    m_content = QImage();
    m_contentValid = false;
    m_sprites.clear();
    m_seen.clear();
    m_spriteBytes = 0;
    m_key.reset();
    m_layer = QImage();
    m_fonts = Fonts();
    m_dpiX = m_dpiY = 0;
    for (QHash<QString, qreal> &w : m_widths)
        w.clear();
    for (QHash<QString, qreal> &w : m_helperWidths)
        w.clear();
}
