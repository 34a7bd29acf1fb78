#pragma once

// WCAG 2 contrast between two colours, and a colour made dark enough to carry white text.
// Text in every theme must reach 4.5:1 (AA for normal text).

#include <QColor>

#include <algorithm>
#include <cmath>

namespace Contrast {

inline constexpr double kTextMinimum = 4.5;

inline double luminance(const QColor &c)
{
    const auto channel = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

inline double ratio(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// `fill` darkened step by step until `text` on it reaches 4.5:1 (a badge keeps its hue).
inline QColor behind(const QColor &text, QColor fill)
{
    for (int i = 0; i < 40 && ratio(text, fill) < kTextMinimum; ++i)
        fill = fill.darker(108);
    return fill;
}

} // namespace Contrast
