#pragma once

// Where labels may go: the level of detail of every lane is "a label only where there is room".

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace Render {

// Greedy left-to-right label placement within one row: a label is drawn only if it does not
// run into the previous one. This is the level of detail: zoomed out, labels simply drop out.
struct LabelRow
{
    double right = -std::numeric_limits<double>::infinity();
    double min = 0;
    double max = 0;
    double gap = 6;

    // Left edge where a label of width w centred on x fits, or NaN.
    bool fits(double left, double w) const
    {
        return left >= right + gap && left >= min && left + w <= max;
    }
    void take(double left, double w) { right = left + w; }
};

// Label placement within one row in any order: the storage lanes place their outcome labels
// most important first, so a label can fall left of one placed before it. The glyphs are known
// first; a label may touch a glyph's span but not enter it, and keeps `gap` from other labels.
// Both lists stay sorted and disjoint, so a test is two binary searches.
struct LabelSpans
{
    double min = 0;
    double max = 0;
    double gap = 8;
    std::vector<std::pair<double, double>> glyphs; // added left to right, overlapping ones merged
    std::vector<std::pair<double, double>> labels;

    void addGlyph(double left, double right)
    {
        if (!glyphs.empty() && left <= glyphs.back().second)
            glyphs.back().second = std::max(glyphs.back().second, right);
        else
            glyphs.emplace_back(left, right);
    }
    bool fits(double left, double w) const
    {
        const double right = left + w;
        if (left < min || right > max)
            return false;
        const auto byRight = [](double v, const std::pair<double, double> &s) {
            return v < s.second;
        };
        const auto g = std::upper_bound(glyphs.begin(), glyphs.end(), left, byRight);
        if (g != glyphs.end() && g->first < right)
            return false;
        const auto l = std::upper_bound(labels.begin(), labels.end(), left - gap, byRight);
        return l == labels.end() || l->first >= right + gap;
    }
    void take(double left, double w)
    {
        const auto at = std::lower_bound(
            labels.begin(), labels.end(), left,
            [](const std::pair<double, double> &s, double v) { return s.first < v; });
        labels.emplace(at, left, left + w);
    }
};

} // namespace Render
