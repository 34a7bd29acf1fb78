// TokenChart, part: what is painted over QtCharts' plot. The token axis named in each token
// source's own form (QtCharts can only print numbers), the legend with the plot's own shapes,
// the selected action's halo and the dimming after the playhead, as the timeline shows them.
#include "views/tokenchart.h"

#include "document/document.h"
#include "outcomemarker.h"
#include "timecoordinates.h"
#include "tokentext.h"
#include "viewstate.h"

#include "explain.h"

#include <QChart>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

std::vector<TokenChart::TokenLabel> TokenChart::tokenLabels() const
{
    std::vector<TokenLabel> out;
    const QRectF plot = plotRect();
    const double lo = m_tokenAxis->min();
    const double hi = m_tokenAxis->max();
    if (!(hi > lo))
        return out;
    const auto yOf = [&](double v) { return plot.bottom() - (v - lo) / (hi - lo) * plot.height(); };
    QFont f = m_tokenAxis->labelsFont();
    const double line = QFontMetricsF(f).height();
    const int fit = std::max(2, int(plot.height() / (1.25 * line)));
    // The tokens plotted when few enough to name each; else round steps between the lowest and
    // the highest. The highest and the lowest come first: they always get a label.
    std::vector<double> candidates;
    if (int(m_tokenLevels.size()) <= fit) {
        candidates = m_tokenLevels;
    } else {
        const double step =
            double(TimeCoordinates::rulerStep(1.0, (m_tokenHi - m_tokenLo) / (fit - 1)));
        for (double v = std::ceil(m_tokenLo / step) * step; v < m_tokenHi; v += step)
            candidates.push_back(v);
    }
    // (with no token above 0, a run without tokens, 0 is the only one to name)
    std::vector<double> order{m_tokenLevels.back(), m_tokenLo};
    order.insert(order.end(), candidates.begin(), candidates.end());
    const Core::Scenario &s = m_doc->scenario();
    for (const double v : order) {
        const double y = yOf(v);
        if (std::any_of(out.begin(), out.end(),
                        [&](const TokenLabel &l) { return std::abs(l.y - y) < line; }))
            continue;
        out.push_back({v, y, Render::tokenShort(s, Core::Token(std::llround(v)))});
    }
    std::sort(out.begin(), out.end(),
              [](const TokenLabel &a, const TokenLabel &b) { return a.value < b.value; });
    return out;
}

void TokenChart::drawForeground(QPainter *p, const QRectF &rect)
{
    QChartView::drawForeground(p, rect);
    const QRectF plot = chart()->plotArea();
    const double ppt = m_state->pixelsPerTick();
    const auto xOf = [&](double tick) { return plot.left() + (tick - m_state->firstTick()) * ppt; };
    const auto yOf = [&](double token) {
        const double lo = m_tokenAxis->min();
        const double hi = m_tokenAxis->max();
        return plot.bottom() - (token - lo) / std::max(1e-9, hi - lo) * plot.height();
    };
    p->save();
    p->setRenderHint(QPainter::Antialiasing);

    // the token axis: a grid line and a label at each token named, in the source's own form
    {
        p->setFont(m_tokenAxis->labelsFont());
        const QFontMetricsF fm(m_tokenAxis->labelsFont());
        const double right = plot.left() - 6;
        for (const TokenLabel &l : tokenLabels()) {
            p->setPen(QPen(m_tokenAxis->gridLineColor(), 1));
            p->drawLine(QPointF(plot.left(), l.y), QPointF(plot.right(), l.y));
            const double w = std::min(fm.horizontalAdvance(l.text) + 2, std::max(10.0, right - 2));
            p->setPen(m_theme.foreground);
            p->drawText(QRectF(right - w, l.y - fm.height() / 2, w, fm.height()),
                        Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(l.text, Qt::ElideLeft, w));
        }
        // an axis that does not start at 0 says so: a break in it at the bottom
        if (m_tokenZoomed) {
            p->setPen(QPen(m_theme.muted, 1.5));
            const double x = plot.left();
            const double y = plot.bottom() - 2;
            for (const double dy : {0.0, 4.0}) {
                p->fillRect(QRectF(x - 3, y - dy - 2, 7, 3), m_theme.background);
                p->drawLine(QPointF(x - 3, y - dy + 1), QPointF(x + 4, y - dy - 2));
            }
        }
        // the axis's name, upright along the left edge, where the plot is tall enough for it
        const QString title = m_tokenAxis->titleText();
        const double tw = fm.horizontalAdvance(title);
        if (tw + 4 <= plot.height()) {
            p->save();
            p->translate(4 + fm.ascent(), plot.center().y() + tw / 2);
            p->rotate(-90);
            p->setPen(m_theme.muted);
            p->drawText(QPointF(0, 0), title);
            p->restore();
        }
    }

    // legend along the top: only what is drawn, with the plot's own shapes and line styles
    {
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * m_theme.fontScale);
        p->setFont(f);
        const QFontMetricsF fm(f);
        double x = plot.left();
        const double y = kTop / 2;
        const auto text = [&](const QString &label) {
            p->setPen(m_theme.foreground);
            p->drawText(QPointF(x, y + fm.ascent() / 2 - 1), label);
            x += fm.horizontalAdvance(label) + 18;
        };
        const auto line = [&](QLineSeries *l) {
            if (l->count() == 0) { // nothing drawn for it: only why (a compare-and-set storage)
                text(l->name());
                return;
            }
            p->setPen(l->pen());
            p->drawLine(QPointF(x, y), QPointF(x + 22, y));
            x += 28;
            text(l->name());
        };
        for (QLineSeries *l : m_storageLines)
            line(l);
        for (QLineSeries *l : m_unfencedLines)
            line(l);
        if (m_grants->count() > 0) {
            p->setPen(Qt::NoPen);
            p->setBrush(m_theme.lease);
            p->drawEllipse(QPointF(x + 5, y), 4.5, 4.5);
            x += 14;
            text(m_grants->name());
        }
        for (int r = 0; r < 4; ++r) {
            if (m_outcomePoints[r].series->count() == 0)
                continue;
            const auto result = Core::WriteResult(r);
            OutcomeMarker::paint(p, Theme::shape(result), QPointF(x + 6, y), 13,
                                 m_theme.outcome(result), m_theme.outcome(result).darker(170));
            x += 17;
            text(m_outcomePoints[r].series->name());
        }
    }

    // the selected action's outcome: a halo like the timeline's
    const Selection sel = m_state->selection();
    if (sel.isValid()) {
        const Core::Trace &t = primaryTrace();
        const std::uint32_t e = Core::outcomeEvent(m_doc->scenario(), t, std::uint32_t(sel.client),
                                                   std::uint32_t(sel.action));
        if (e != Core::kNone) {
            const Core::Event &ev = t.events[e];
            const double x = xOf(double(ev.tick));
            double y = -1;
            if (ev.kind == Core::EventKind::Grant || ev.kind == Core::EventKind::Renewal)
                y = double(t.grants[ev.ref].token);
            else if (ev.kind == Core::EventKind::WriteArrived)
                y = double(t.tokenOf(t.writes[ev.ref]));
            QColor halo = m_theme.selection;
            if (y >= 0 && x >= plot.left() - kMarker && x <= plot.right() + kMarker) {
                p->setPen(QPen(halo.darker(115), 3));
                p->setBrush(Qt::NoBrush);
                p->drawEllipse(QPointF(x, yOf(y)), kMarker * 0.9, kMarker * 0.9);
            } else if (x >= plot.left() && x <= plot.right()) {
                halo.setAlpha(110);
                p->fillRect(QRectF(x - 3, plot.top(), 6, plot.height()), halo);
            }
        }
    }

    // everything after the playhead is dimmed, as on the timeline
    if (m_state->hasPlayhead()) {
        // the playhead's own tick has happened: its markers stay bright
        const double x = xOf(double(m_state->playhead()));
        if (x + kMarker / 2.0 < plot.right()) {
            QColor dim = m_theme.background;
            dim.setAlpha(150);
            const double from = std::max(plot.left(), x + kMarker / 2.0);
            p->fillRect(QRectF(from, plot.top(), plot.right() - from, plot.height()), dim);
        }
        if (x >= plot.left() && x <= plot.right()) {
            p->setPen(QPen(m_theme.playhead, 2));
            p->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        }
    }
    p->restore();
}
