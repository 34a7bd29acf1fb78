// The static layer: the background, each panel's lane stripes, header words and grid, and the
// ruler (but for its bottom line, which lies over the first lane's top row). It depends only on
// the size, theme, lanes and axis, so the renderer keeps it as an image between paints.

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class BackgroundPainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit BackgroundPainter(const PaintContext &c) : PaintContext(c) {}

    void paintRuler()
    {
        const QRectF r = m_l.ruler;
        const QRectF header(r.left() - m_l.headerWidth, r.top(), m_l.headerWidth, r.height());
        m_p->fillRect(r.united(header), m_st.th.background);
        m_p->setPen(m_st.muted);
        m_p->setFont(m_st.small);
        m_p->drawText(header.adjusted(8 * m_st.f, 0, -8 * m_st.f, 0),
                      Qt::AlignRight | Qt::AlignVCenter, QObject::tr("tick"));
        const qint64 step = rulerStep();
        m_p->save();
        m_p->setClipRect(r);
        const qint64 minor = step >= 10 ? step / (step % 5 == 0 && (step / 5) % 2 == 0 ? 5 : 2)
                                        : (step == 5 ? 1 : (step == 2 ? 1 : 0));
        const qint64 first = qint64(m_tLo) - qint64(m_tLo) % step;
        QPen tickPen(m_st.th.muted, 1);
        m_p->setFont(m_st.label);
        for (qint64 t = first; t <= qint64(m_tHi) + step; t += step) {
            if (t < 0)
                continue;
            const double x = m_axis.tickToX(double(t));
            m_p->setPen(tickPen);
            m_p->drawLine(QPointF(x, r.bottom() - 8 * m_st.f), QPointF(x, r.bottom()));
            m_p->setPen(m_st.th.foreground);
            const QString text = QString::number(t);
            const double w = m_st.fmLabel.horizontalAdvance(text);
            m_p->drawText(QRectF(x - w / 2 - 2, r.top() + 2, w + 4, r.height() - 10 * m_st.f),
                          Qt::AlignCenter, text);
            if (minor > 0 && minor < step) {
                m_p->setPen(tickPen);
                for (qint64 m = t + minor; m < t + step; m += minor) {
                    const double mx = m_axis.tickToX(double(m));
                    m_p->drawLine(QPointF(mx, r.bottom() - 4 * m_st.f), QPointF(mx, r.bottom()));
                }
            }
        }
        m_p->restore();
    }

    void paintGrid(const QRectF &r)
    {
        const qint64 step = rulerStep();
        m_p->setPen(m_st.grid);
        const qint64 first = qint64(m_tLo) - qint64(m_tLo) % step;
        for (qint64 t = first; t <= qint64(m_tHi) + step; t += step) {
            const double x = m_axis.tickToX(double(t));
            m_p->drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
        }
    }

    void paintBackgrounds(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double hw = m_l.headerWidth;
        const double f = m_st.f;
        int stripe = 0;
        auto laneBg = [&](const QRectF &lane) {
            const QRectF full(lane.left() - hw, lane.top(), lane.width() + hw, lane.height());
            if (stripe++ % 2 == 1)
                m_p->fillRect(full, m_st.th.laneStripe);
            m_p->setPen(m_st.separator);
            m_p->drawLine(full.bottomLeft(), full.bottomRight());
        };
        const QRectF headerCol(panel.rect.left(), panel.rect.top(), hw, panel.rect.height());
        for (std::size_t c = 0; c < panel.clients.size(); ++c) {
            const ClientLaneRects &r = panel.clients[c];
            laneBg(r.lane);
            m_p->setFont(m_st.name);
            m_p->setPen(m_st.th.foreground);
            const bool bypass = m_s.clients[c].bypass;
            // a bypass client's name leaves room under it for what it is: an unfenced path
            const QRectF nameRect(r.header.left() + 10 * f, r.header.top() + kPad * f,
                                  r.header.width() - 14 * f,
                                  (bypass ? kLabelRow + 2 : kLabelRow + kMarkerRow) * f);
            m_p->drawText(
                nameRect, Qt::AlignLeft | Qt::AlignVCenter,
                m_st.fmName.elidedText(m_s.clients[c].name, Qt::ElideRight, nameRect.width()));
            if (bypass) {
                m_p->setFont(m_st.bold);
                m_p->setPen(m_st.th.corruptedText);
                m_p->drawText(
                    QRectF(nameRect.left(), r.markers.top(), nameRect.width(), r.markers.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, QObject::tr("unfenced path"));
            }
            m_p->setFont(m_st.small);
            m_p->setPen(m_st.th.muted);
            const double rx = r.header.left() + 10 * f;
            const double rw = r.header.width() - 18 * f;
            if (r.pauses.height() > 0)
                m_p->drawText(QRectF(rx, r.pauses.top(), rw, r.pauses.height()),
                              Qt::AlignRight | Qt::AlignVCenter, QObject::tr("paused"));
            m_p->drawText(QRectF(rx, r.holds.top(), rw, r.holds.height()),
                          Qt::AlignRight | Qt::AlignVCenter, QObject::tr("holds lock"));
            m_p->drawText(QRectF(rx, r.believes.top(), rw, r.believes.height()),
                          Qt::AlignRight | Qt::AlignVCenter, QObject::tr("believes it holds"));
        }
        {
            laneBg(panel.lock);
            const QRectF h = lockHeaderText(panel);
            m_p->setFont(m_st.bold);
            m_p->setPen(m_st.th.foreground);
            m_p->drawText(QRectF(h.left(), h.top(), h.width(), h.height() * 0.55),
                          Qt::AlignLeft | Qt::AlignBottom, QObject::tr("lock service"));
        }
        for (std::size_t s = 0; s < panel.storages.size(); ++s) {
            const StorageLaneRects &r = panel.storages[s];
            laneBg(r.lane);
            const Core::StorageSpec &spec = m_s.storages[s];
            m_p->setFont(m_st.name);
            m_p->setPen(m_st.th.foreground);
            const QRectF nameRect(r.header.left() + 10 * f, r.values.top(),
                                  r.header.width() - 14 * f, r.values.height());
            m_p->drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter,
                          m_st.fmName.elidedText(spec.name, Qt::ElideRight, nameRect.width()));
            m_p->setFont(m_st.small);
            m_p->setPen(t.fencing ? m_st.th.muted : m_st.th.corruptedText);
            const bool version = spec.check == Core::StorageCheck::Version;
            const bool owner = spec.check == Core::StorageCheck::Owner;
            const bool same = spec.check == Core::StorageCheck::Same;
            const QString rule = !t.fencing ? QObject::tr("NOT fenced")
                                 : version  ? QObject::tr("compare-and-set")
                                 : owner    ? QObject::tr("asks the lock service")
                                 : same     ? QObject::tr("only the first token")
                                 : spec.rule == Core::FenceRule::Lt
                                     ? QObject::tr("rejects token < max")
                                     : QObject::tr("rejects token ≤ max");
            m_p->drawText(
                QRectF(nameRect.left(), r.outcomes.top(), nameRect.width(), r.outcomes.height()),
                Qt::AlignLeft | Qt::AlignVCenter, rule);
            m_p->setPen(m_st.th.muted);
            m_p->drawText(QRectF(nameRect.left(), r.maxToken.top(), r.header.width() - 18 * f,
                                 r.maxToken.height()),
                          Qt::AlignRight | Qt::AlignVCenter,
                          version         ? QObject::tr("version")
                          : same          ? QObject::tr("recorded token")
                          : !spec.durable ? QObject::tr("max_token (volatile)")
                                          : QObject::tr("max_token"));
        }
        m_p->setPen(m_st.separator);
        m_p->drawLine(headerCol.topRight(), headerCol.bottomRight());
    }
};

} // namespace

void BackgroundPass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                           int)
{
    BackgroundPainter p(c);
    PaintRecorder *r = c.recorder();
    c.inPinnedParts(panel, [&](const TimelinePanel &part, bool pinned) {
        if (pinned)
            r->fillRect(part.pinned, c.style().th.background);
        p.paintBackgrounds(part, t);
    });
    r->save();
    r->setClipRect(c.plotClip(panel));
    p.paintGrid(panel.rect);
    r->restore();
}

void BackgroundPass::finish(const PaintContext &c)
{
    BackgroundPainter(c).paintRuler();
}

} // namespace Render
