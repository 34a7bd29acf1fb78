#pragma once

// Pens, brushes, fonts and remembered text widths for one paint, and the colour arithmetic the
// tints are made with.

#include "renderercache.h"
#include "theme.h"

#include <QBrush>
#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace Render {

inline QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

// A colour between two others: tints that work on light and dark backgrounds alike.
inline QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

// Text colour that reads on top of `fill`.
inline QColor textOn(const QColor &fill)
{
    return fill.lightnessF() > 0.6 ? QColor(0x1a1a1a) : QColor(0xffffff);
}

// QFontMetricsF that remembers widths across paints: measuring a label shapes it, and every
// paint measures the same labels again (most only to find there is no room for them).
class Metrics
{
public:
    Metrics(const QFont &font, QPaintDevice *device, QHash<QString, qreal> *widths)
        : m_fm(font, device), m_widths(widths)
    {
    }
    double horizontalAdvance(const QString &text) const
    {
        if (!m_widths)
            return m_fm.horizontalAdvance(text);
        const auto it = m_widths->constFind(text);
        if (it != m_widths->cend())
            return *it;
        // zoomed-in labels carry tokens and ticks: bounded, a scroll through 1M actions would
        // otherwise keep every label ever seen
        if (m_widths->size() >= 20000)
            m_widths->clear();
        const double w = m_fm.horizontalAdvance(text);
        m_widths->insert(text, w);
        return w;
    }
    QString elidedText(const QString &text, Qt::TextElideMode mode, double width) const
    {
        return m_fm.elidedText(text, mode, width);
    }
    double height() const { return m_fm.height(); }

private:
    QFontMetricsF m_fm;
    QHash<QString, qreal> *m_widths;
};

// Pens, brushes and fonts for one paint, built once rather than per item.
struct Style
{
    Style(const Theme &th, QPaintDevice *device, RendererCache *cache, bool helper = false)
        : th(th), f(th.fontScale), lw(th.lineScale), label(labelFont(th)), small(smallFont(th)),
          name(nameFont(th)), bold(boldFont(th)),
          fmLabel(label, device, cache ? &cache->widths(RendererCache::Label, helper) : nullptr),
          fmSmall(small, device, cache ? &cache->widths(RendererCache::Small, helper) : nullptr),
          fmName(name, device, cache ? &cache->widths(RendererCache::Name, helper) : nullptr),
          fmBold(bold, device, cache ? &cache->widths(RendererCache::Bold, helper) : nullptr)
    {
        grid = QPen(withAlpha(th.muted, 50), 1);
        grid.setCosmetic(false);
        separator = QPen(withAlpha(th.muted, 90), 1);
        fg = QPen(th.foreground, 1.5 * lw);
        muted = QPen(th.muted, 1 * lw);
        leaseFill = th.lease;
        leaseEdge = QPen(th.lease.darker(140), 1 * lw);
        lockFillA = mix(th.lease, th.background, 0.15);
        lockFillB = mix(th.lease, th.background, 0.45);
        beliefFill = mix(th.belief, th.background, 0.45);
        pauseFill = mix(th.pause, th.background, 0.82);
        pauseHatch = QBrush(withAlpha(th.pause, 200), Qt::BDiagPattern);
        pauseEdge = QPen(th.pause, 1.2 * lw);
        freezeTint = withAlpha(th.pause, 26);
        zombieTint = withAlpha(th.zombie, 30);
        zombieHatch = QBrush(th.zombie, Qt::BDiagPattern);
        zombieFill = mix(th.zombie, th.background, 0.72);
        zombieEdge = QPen(th.zombie, 1.2 * lw);
        deferred = QPen(th.muted, 1.2 * lw, Qt::DotLine);
        arrow = QPen(th.write, 1.5 * lw);
        maxTokenPen = QPen(th.maxToken, 2 * lw);
        maxTokenPen.setJoinStyle(Qt::MiterJoin);
        chip = withAlpha(th.background, 225);
        valueFill = mix(th.foreground, th.background, 0.9);
        valueEdge = QPen(withAlpha(th.muted, 160), 1);
        corruptFill = mix(th.corrupted, th.background, 0.7);
    }

    static RendererCache::Fonts fonts(const Theme &th)
    {
        return {labelFont(th), smallFont(th), nameFont(th), boldFont(th)};
    }
    static QFont labelFont(const Theme &th)
    {
        QFont f;
        f.setFamilies(Theme::fontFamilies());
        f.setStyleHint(QFont::SansSerif);
        f.setPixelSize(std::max(6, int(std::lround(12.5 * th.fontScale))));
        return f;
    }
    static QFont smallFont(const Theme &th)
    {
        QFont f;
        f.setFamilies(Theme::fontFamilies());
        f.setStyleHint(QFont::SansSerif);
        f.setPixelSize(std::max(6, int(std::lround(11 * th.fontScale))));
        return f;
    }
    static QFont boldFont(const Theme &th)
    {
        QFont f = labelFont(th);
        f.setBold(true);
        return f;
    }
    static QFont nameFont(const Theme &th)
    {
        QFont f;
        f.setFamilies(Theme::fontFamilies());
        f.setStyleHint(QFont::SansSerif);
        f.setPixelSize(std::max(8, int(std::lround(17 * th.fontScale))));
        f.setBold(true);
        return f;
    }

    const Theme &th;
    double f;
    double lw;
    QFont label, small, name, bold;
    Metrics fmLabel, fmSmall, fmName, fmBold;
    QPen grid, separator, fg, muted, leaseEdge, pauseEdge, zombieEdge, deferred, arrow, maxTokenPen,
        valueEdge;
    QColor leaseFill, lockFillA, lockFillB, beliefFill, pauseFill, freezeTint, zombieTint,
        zombieFill, chip, valueFill, corruptFill;
    QBrush pauseHatch, zombieHatch;
};

} // namespace Render
