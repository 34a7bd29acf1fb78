// Label placement for every pass (PaintContext::placeLabel, fittedLabel): measure, find a place,
// take its room, draw, note it for the playhead, in that order and in one place, so a label
// of any pass keeps the same rules (docs/ARCHITECTURE.md, "Labels").

#include "paintcontext.h"

#include <optional>

namespace Render {

bool PaintContext::placeLabel(const Label &label)
{
    const Metrics &fm = label.small ? m_st.fmSmall : m_st.fmLabel;
    const auto tryForm = [&](const QString &text) {
        const double w = label.width >= 0 ? label.width : fm.horizontalAdvance(text) + label.pad;
        const std::optional<QRectF> box = labelPlace(label, w);
        if (!box)
            return false;
        showLabel(label, text, *box, *box,
                  label.chip ? Qt::AlignCenter : Qt::AlignLeft | Qt::AlignVCenter, *box);
        return true;
    };
    if (label.forms.isEmpty())
        return tryForm(label.text);
    for (const QString &text : label.forms)
        if (tryForm(text))
            return true;
    return false;
}

std::optional<QRectF> PaintContext::labelPlace(const Label &label, double w) const
{
    const auto boxAt = [&](double left) {
        return QRectF(left, label.row.top(), w, label.row.height());
    };
    // the tests every place passes, whichever side it lies on
    const auto fits = [&](double left) {
        if (label.room && !label.room->fits(left, w))
            return false;
        if (label.spans && !label.spans->fits(left, w))
            return false;
        if (label.free && !labelFree(boxAt(left)))
            return false;
        return !label.fits || label.fits(boxAt(left));
    };
    const double x = label.x;
    switch (label.side) {
    case Label::Side::Centred: {
        // (centred in a row of labels: `room` is where the others are)
        const LabelRow &row = *label.room;
        double left = x - w / 2;
        if (x >= row.min && x <= row.max) {
            left = std::min(std::max(left, row.min), row.max - w);
            left = std::max(left, x - w); // still touching its marker
        }
        if (!fits(left)) {
            // shift right of the previous label if the marker is still covered
            left = std::max(left, row.right + row.gap);
            if (left > x + 2 || !fits(left))
                return std::nullopt;
        }
        return boxAt(left);
    }
    case Label::Side::At:
        if (fits(label.row.left()))
            return boxAt(label.row.left());
        return std::nullopt;
    case Label::Side::Right:
    case Label::Side::RightOrLeft: {
        const double left = x + label.gap;
        if (left + w <= label.end && fits(left))
            return boxAt(left);
        if (label.side == Label::Side::Right)
            return std::nullopt;
        [[fallthrough]];
    }
    case Label::Side::Left: {
        const double left = x - label.gap - w;
        if (left >= label.start && fits(left))
            return boxAt(left);
        return std::nullopt;
    }
    }
    return std::nullopt;
}

void PaintContext::showLabel(const Label &label, const QString &text, const QRectF &box,
                             const QRectF &words, Qt::Alignment align, const QRectF &noted)
{
    if (label.room)
        label.room->take(box.left(), box.width());
    if (label.spans)
        label.spans->take(box.left(), box.width());
    if (label.take)
        takeLabel(box);
    const QFont &font = label.small ? m_st.small : m_st.label;
    if (label.draw) {
        label.draw(box);
    } else if (label.chip) {
        chipText(box, text, label.color, font);
    } else {
        m_p->setFont(font);
        m_p->setPen(label.color);
        m_p->drawText(words, align, text);
    }
    noteLabel(std::isnan(label.tells) ? label.x : label.tells, noted);
}

void PaintContext::fittedLabel(double x0, double x1, const QRectF &row,
                               std::initializer_list<LabelText> texts, const QColor &color)
{
    const double left = std::max(x0, m_xmin);
    const double right = std::min(x1, m_shownRight);
    for (const LabelText &t : texts) {
        if (t.text.isEmpty() || m_st.fmLabel.horizontalAdvance(t.text) + t.pad > right - left)
            continue;
        Label label;
        label.color = color;
        label.chip = false;
        // (what an item's label tells has begun where the item does)
        label.x = x0;
        const double w = m_st.fmLabel.horizontalAdvance(t.text);
        const QRectF words(left, row.top(), right - left, row.height());
        showLabel(label, t.text, words, words, Qt::AlignCenter,
                  QRectF((left + right - w) / 2 - 1, row.top(), w + 2, row.height()));
        return;
    }
}

void PaintContext::chipText(const QRectF &r, const QString &text, const QColor &color,
                            const QFont &font)
{
    m_p->setPen(Qt::NoPen);
    m_p->setBrush(m_st.chip);
    m_p->drawRoundedRect(r, 3, 3);
    m_p->setFont(font);
    m_p->setPen(color);
    m_p->drawText(r, Qt::AlignCenter, text);
}

} // namespace Render
