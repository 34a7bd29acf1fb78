#include "timelinerenderer.h"

#include "glyphs.h"
#include "lockfacts.h"
#include "paintrecorder.h"
#include "renderercache.h"
#include "simulator.h"
#include "tokensource.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QRegion>
#include <QSemaphore>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>

#include "canvas.h"
#include "labelspans.h"
#include "lanesizes.h"
#include "style.h"
#include "tokentext.h"
#include "tracelookup.h"

using Core::Tick;
using namespace Render;

namespace {

class Painter
{
public:
    Painter(PaintRecorder *p, const Target &target, const Style &st, const TimeAxis &axis,
            const TimelineLayout &l, const Core::Scenario &s, const TimelineRenderer::Options &o)
        : m_p(p), m_target(target), m_canvas(p, target), m_bands(m_canvas.bands()), m_st(st),
          m_axis(axis), m_l(l), m_s(s), m_o(o)
    {
        m_xmin = l.plot.left();
        m_xmax = l.plot.right();
        const double lo = axis.xToTick(m_xmin - 2);
        const double hi = axis.xToTick(m_xmax + 2);
        m_tLo = lo <= 0 ? 0 : Tick(std::floor(lo));
        m_tHi = hi <= 0 ? 0 : (hi >= 1.8e19 ? Core::kForever - 1 : Tick(std::ceil(hi)));
    }

    // Collects the labels of what happens at the playhead's tick, which the dimming of what
    // is still to come leaves bright (the painting thread's painter only).
    void notePresentLabels(std::vector<QRectF> *labels) { m_present = labels; }
    void notePresent(double anchorX, const QRectF &label)
    {
        if (!m_present || m_o.playhead == Core::kForever || m_o.playheadBefore)
            return;
        if (std::abs(anchorX - m_axis.tickToX(double(m_o.playhead))) < 0.5)
            m_present->push_back(label);
    }

    // x of a tick, clamped a little outside the plot so huge ticks stay paintable.
    double X(double tick) const
    {
        return std::clamp(m_axis.tickToX(tick), m_xmin - 40, m_xmax + 40);
    }
    double X(Tick tick) const
    {
        if (tick == Core::kForever)
            return m_xmax + 40;
        return X(double(tick));
    }
    int column(Tick tick) const { return int(std::floor(X(tick))); }
    // First tick whose x lies in the column after `col` (jumping over crowded items).
    Tick firstTickOfColumn(int col) const
    {
        const double t = std::ceil(m_axis.xToTick(double(col) + 1.0));
        return t <= 0 ? 0 : (t >= 1.8e19 ? Core::kForever : Tick(t));
    }

    // A tick before which every tick lies in column `col` or earlier, checked with column()
    // itself (firstTickOfColumn() goes backwards through xToTick(), and rounding can put it a
    // tick off; column() never decreases with the tick). Usually the first tick after `col`;
    // 0 when that cannot be told in a few steps (nothing is jumped over then).
    Tick endOfColumn(int col) const
    {
        Tick t = firstTickOfColumn(col);
        for (int n = 0; t > 0 && column(t - 1) > col; ++n, --t)
            if (n == 64)
                return 0;
        for (int n = 0; n < 64 && t < Core::kForever && column(t) <= col; ++n)
            ++t;
        return t;
    }

    // Last tick whose x lies in column `col` or before it.
    Tick lastTickOfColumn(int col) const
    {
        const double t = std::floor(m_axis.xToTick(double(col) + 1.0));
        return t <= 0 ? 0 : (t >= 1.8e19 ? Core::kForever - 1 : Tick(t));
    }

    // What depends only on the size, theme, lanes and axis, under everything else: the
    // background, each panel's lane stripes, header words and grid, and the ruler (but for its
    // bottom line, which lies over the first lane's top row). A null trace: a panel not painted.
    void paintStatic(const std::vector<const Core::Trace *> &traces)
    {
        for (std::size_t i = 0; i < m_l.panels.size(); ++i) {
            const TimelinePanel &panel = m_l.panels[i];
            if (!traces[i])
                continue;
            inPinnedParts(panel, [&](const TimelinePanel &part, bool pinned) {
                if (pinned)
                    m_p->fillRect(part.pinned, m_st.th.background);
                paintBackgrounds(part, *traces[i]);
            });
            m_p->save();
            m_p->setClipRect(plotClip(panel));
            paintGrid(panel.rect);
            m_p->restore();
        }
        paintRuler();
    }

    // What the trace, playhead, selection and hover decide, over the static layer.
    void paintPanel(const TimelinePanel &panel, const Core::Trace &t, int panelIndex)
    {
        m_p->save();
        m_p->setClipRect(plotClip(panel));
        // Zoomed out on a big run, most of a paint waits for trace records from memory. Dense
        // storage lanes are recorded by a helper thread meanwhile (they read other records and
        // use no sprites), and their calls are put where they belong, after the clients'.
        PaintRecorder storages;
        QSemaphore storagesDone;
        // (pinned lanes are painted in two parts, each clipped: no helper then)
        const bool helped = m_target.helper && !panel.isPinned() && denseStorages(panel, t);
        if (helped) {
            storages.continueFrom(*m_p);
            helperPool().start([&] {
                // released however this ends: the painting thread waits for it
                const std::unique_ptr<QSemaphore, void (*)(QSemaphore *)> done(
                    &storagesDone, [](QSemaphore *s) { s->release(); });
                // its own fonts and width tables: fonts resolve per thread, and the tables are
                // written while measuring
                QImage metrics(1, 1, QImage::Format_ARGB32_Premultiplied);
                metrics.setDotsPerMeterX(int(std::lround(m_target.dpiX / 0.0254)));
                metrics.setDotsPerMeterY(int(std::lround(m_target.dpiY / 0.0254)));
                const Style style(m_st.th, &metrics, m_target.helper, true);
                Target target;
                target.bands = m_target.bands;
                Painter helper(&storages, target, style, m_axis, m_l, m_s, m_o);
                for (std::size_t s = 0; s < panel.storages.size(); ++s)
                    helper.paintStorage(int(s), panel.storages[s], t);
            });
        }
        inPinnedParts(panel, [&](const TimelinePanel &part, bool) {
            paintConnectors(part, t);
            for (std::size_t c = 0; c < part.clients.size() && c < t.freezes.size(); ++c) {
                paintFreezes(t.freezes[c], part.clients[c]);
                paintBeliefs(int(c), part.clients[c], t);
            }
            paintWaits(part, t);
            paintLockDelays(part, t);
            paintLeases(part, t);
            paintLockEvents(part, t);
            paintKeepalives(part, t);
            paintOwnLeaseEnds(part, t);
            paintLost(part, t);
            paintBypass(part, t);
            for (std::size_t c = 0; c < part.clients.size(); ++c)
                paintClient(int(c), part.clients[c], t);
            paintChecks(part, t);
            if (helped) {
                storagesDone.acquire();
                m_p->append(storages);
            } else {
                for (std::size_t s = 0; s < part.storages.size(); ++s)
                    paintStorage(int(s), part.storages[s], t);
            }
            paintReads(part, t);
            paintGroups(part, t);
        });
        m_p->restore();
        if (!panel.title.isEmpty())
            paintPanelTitle(panel, t, panelIndex);
    }

    // Calls part(panel, false) for the panel as it is; for a panel whose lock and storage lanes
    // are pinned (TimelinePanel::pinned), clipped to what lies above them, then part(moved,
    // true) clipped to the pinned lanes, with the client lanes of `moved` stacked just above
    // them, out of the clip: a client lane under the pinned ones is hidden, and a connector to
    // a storage still comes down from above.
    template <typename Part> void inPinnedParts(const TimelinePanel &panel, Part &&part)
    {
        if (!panel.isPinned()) {
            part(panel, false);
            return;
        }
        const QRectF pin = panel.pinned;
        m_p->save();
        m_p->setClipRect(
            QRectF(pin.left(), panel.rect.top(), pin.width(), pin.top() - panel.rect.top()),
            Qt::IntersectClip);
        part(panel, false);
        m_p->restore();
        TimelinePanel moved = panel;
        for (ClientLaneRects &r : moved.clients) {
            const double dy = pin.top() - r.lane.bottom();
            for (QRectF *q :
                 {&r.lane, &r.header, &r.labels, &r.markers, &r.pauses, &r.holds, &r.believes})
                q->translate(0, dy);
        }
        m_p->save();
        m_p->setClipRect(pin, Qt::IntersectClip);
        part(moved, true);
        m_p->restore();
    }

    // Whether every storage lane is drawn a column at a time (then it draws no sprite).
    bool denseStorages(const TimelinePanel &panel, const Core::Trace &t) const
    {
        if (panel.storages.empty() || t.storageWrites.size() < panel.storages.size())
            return false;
        for (std::size_t s = 0; s < panel.storages.size(); ++s) {
            const std::vector<std::uint32_t> &ws = t.storageWrites[s];
            const std::size_t lo = firstArrival(t, ws, m_tLo);
            const std::size_t hi = firstArrival(t, ws, m_tHi + 1);
            if (!(double(hi - lo) > (m_xmax - m_xmin) / 6))
                return false;
        }
        return true;
    }

    // One thread (ended after 30 s unused): a task per paint. Not the global pool, which Qt's
    // fills use and whose threads may themselves be waiting on a paint. Never destroyed, as it
    // could outlive the application object otherwise.
    static QThreadPool &helperPool()
    {
        static QThreadPool *pool = [] {
            auto *p = new QThreadPool;
            p->setMaxThreadCount(1);
            return p;
        }();
        return *pool;
    }

    // Over a panel's content, what the playhead, hover and selection change from one paint to
    // the next: the token counter in the header, and the halos. Neither overlaps the content
    // (the counter lies in the header column, the halos inside the lanes, clear of the titles).
    void paintOverlay(const TimelinePanel &panel, const Core::Trace &t)
    {
        paintTokenCounter(panel, t);
        m_p->save();
        m_p->setClipRect(plotClip(panel));
        inPinnedParts(panel, [&](const TimelinePanel &part, bool) {
            paintHighlight(part, t, m_o.hoverClient, m_o.hoverAction, false);
            paintHighlight(part, t, m_o.selection.client, m_o.selection.action, true);
        });
        m_p->restore();
        paintFocusRing(panel, t);
    }

    void paintRulerLine()
    {
        const QRectF r = m_l.ruler;
        m_p->setPen(m_st.separator);
        m_p->drawLine(QPointF(r.left() - m_l.headerWidth, r.bottom()), r.bottomRight());
    }

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

    void paintPlayhead(double top, double bottom, const std::vector<QRectF> &present = {})
    {
        if (m_o.playhead == Core::kForever)
            return;
        const double x = m_axis.tickToX(double(m_o.playhead));
        if (x > m_xmax)
            return;
        m_p->save();
        m_p->setClipRect(QRectF(m_xmin, top, m_xmax - m_xmin, bottom - top));
        // what has not happened yet at the playhead is dimmed, not hidden
        // the glyphs at the playhead's own tick have happened: they stay bright (half a
        // glyph, or half a tick when ticks are narrower than that)
        const double after =
            std::max(1.0, std::min(9 * m_o.theme.fontScale, 0.5 * m_axis.pixelsPerTick));
        const double from = m_o.playheadBefore ? m_xmin : std::max(m_xmin, x + after);
        const QRectF dim(from, m_l.plot.top(), m_xmax - from, bottom - m_l.plot.top());
        const QColor veil = withAlpha(m_st.th.background, 150);
        if (present.empty()) {
            m_bands.fill(m_p, dim, veil);
        } else {
            // a label of the playhead's tick reaching past it stays whole and bright
            QRegion region(dim.toAlignedRect());
            for (const QRectF &r : present)
                region -= QRegion(r.toAlignedRect());
            for (const QRect &r : region)
                m_bands.fill(m_p, QRectF(r), veil);
        }
        if (x < m_xmin) { // scrolled past: all of the view is still to come
            m_p->restore();
            return;
        }
        QPen pen(m_st.th.playhead, 2 * m_st.lw);
        m_p->setPen(pen);
        m_p->drawLine(QPointF(x, top), QPointF(x, bottom));
        const QString text =
            m_o.playheadBefore ? QObject::tr("start") : QStringLiteral("t=%1").arg(m_o.playhead);
        m_p->setFont(m_st.bold);
        const double w = m_st.fmBold.horizontalAdvance(text) + 10;
        // centred on the line, but whole: at the plot's edges it slides inwards
        const double left = std::clamp(x - w / 2, m_xmin, std::max(m_xmin, m_xmax - w));
        const QRectF badge(left, m_l.ruler.top() + 2, w, m_l.ruler.height() - 4);
        m_p->setPen(Qt::NoPen);
        m_p->setBrush(m_st.th.playhead);
        m_p->drawRoundedRect(badge, 4, 4);
        m_p->setPen(textOn(m_st.th.playhead));
        m_p->drawText(badge, Qt::AlignCenter, text);
        m_p->restore();
    }

    Tick tLo() const { return m_tLo; }
    Tick tHi() const { return m_tHi; }

private:
    QRectF plotClip(const TimelinePanel &panel) const
    {
        return QRectF(m_xmin, panel.rect.top(), m_xmax - m_xmin, panel.rect.height());
    }

    qint64 rulerStep() const
    {
        const QString widest = QString::number(std::max<Tick>(m_tHi, 10));
        const double minSpacing = m_st.fmLabel.horizontalAdvance(widest) + 18 * m_st.f;
        return TimeCoordinates::rulerStep(m_axis.pixelsPerTick, minSpacing);
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
            const QString rule = !t.fencing ? QObject::tr("NOT fenced")
                                 : version  ? QObject::tr("compare-and-set")
                                 : spec.rule == Core::FenceRule::Lt
                                     ? QObject::tr("fenced: rejects <")
                                     : QObject::tr("fenced: rejects <=");
            m_p->drawText(
                QRectF(nameRect.left(), r.outcomes.top(), nameRect.width(), r.outcomes.height()),
                Qt::AlignLeft | Qt::AlignVCenter, rule);
            m_p->setPen(m_st.th.muted);
            m_p->drawText(QRectF(nameRect.left(), r.maxToken.top(), r.header.width() - 18 * f,
                                 r.maxToken.height()),
                          Qt::AlignRight | Qt::AlignVCenter,
                          version         ? QObject::tr("version")
                          : !spec.durable ? QObject::tr("max_token (volatile)")
                                          : QObject::tr("max_token"));
        }
        m_p->setPen(m_st.separator);
        m_p->drawLine(headerCol.topRight(), headerCol.bottomRight());
    }

    QRectF lockHeaderText(const TimelinePanel &panel) const
    {
        const double f = m_st.f;
        return panel.lockHeader.adjusted(10 * f, 2 * f, -8 * f, -2 * f);
    }

    // `text` when it fits `width` in the small font, else `shorter`, else `shorter` elided.
    QString fitted(const QString &text, const QString &shorter, double width) const
    {
        if (m_st.fmSmall.horizontalAdvance(text) <= width)
            return text;
        if (m_st.fmSmall.horizontalAdvance(shorter) <= width)
            return shorter;
        QString cut = shorter;
        while (cut.size() > 1 && m_st.fmSmall.horizontalAdvance(cut + QStringLiteral("…")) > width)
            cut.chop(1);
        return cut + QStringLiteral("…");
    }

    // Under "lock service": the token counter as it stands at the playhead (or at the end).
    void paintTokenCounter(const TimelinePanel &panel, const Core::Trace &t)
    {
        const QRectF h = lockHeaderText(panel);
        Core::Token counter = 0;
        const Tick at = m_o.playhead;
        auto it = std::upper_bound(t.grants.begin(), t.grants.end(), at,
                                   [](Tick v, const Core::Grant &g) { return v < g.at; });
        if (it != t.grants.begin())
            counter = (it - 1)->token;
        m_p->setFont(m_st.small);
        m_p->setPen(m_st.th.muted);
        m_p->drawText(QRectF(h.left(), h.top() + h.height() * 0.55, h.width(), h.height() * 0.45),
                      Qt::AlignLeft | Qt::AlignTop,
                      m_s.tokens == Core::TokenSource::Counter
                          ? QObject::tr("token counter: %1").arg(counter)
                          : fitted(QObject::tr("last token: %1").arg(tokenShort(m_s, counter)),
                                   tokenShort(m_s, counter), h.width()));
    }

    void paintPanelTitle(const TimelinePanel &panel, const Core::Trace &t, int index)
    {
        const QRectF r = panel.title;
        const QColor accent = t.fencing ? m_st.th.accepted : m_st.th.corrupted;
        m_p->fillRect(r, mix(accent, m_st.th.background, 0.82));
        m_p->fillRect(QRectF(r.left(), r.top(), 6 * m_st.f, r.height()), accent);
        m_p->setPen(QPen(accent, 1));
        m_p->drawLine(r.topLeft(), r.topRight());
        QString text = index == 0 ? m_o.compareTopLabel : m_o.compareBottomLabel;
        const QString brief = t.fencing ? QObject::tr("Fencing ON") : QObject::tr("Fencing OFF");
        if (text.isEmpty())
            text = t.fencing ? QObject::tr("Fencing ON: the storage checks every token")
                             : QObject::tr("Fencing OFF: the same schedule, tokens ignored");
        const Core::Summary &sum = t.summary;
        // Longest first; on a narrow picture the title gets shorter before the counts do, and
        // the corrupted count, the point of comparing, goes last.
        const QString counts[] = {
            QObject::tr("%1 accepted · %2 rejected · %3 corrupted · %4 locked out")
                .arg(sum.accepted)
                .arg(sum.rejected)
                .arg(sum.corrupted)
                .arg(sum.lockedOut),
            QObject::tr("%1 rejected · %2 corrupted").arg(sum.rejected).arg(sum.corrupted),
            QObject::tr("%1 corrupted").arg(sum.corrupted)};
        const Metrics &countMetrics = sum.corrupted ? m_st.fmBold : m_st.fmLabel;
        const QRectF inner = r.adjusted(14 * m_st.f, 0, -12 * m_st.f, 0);
        const double gap = 16 * m_st.f;
        QString title = text;
        QString count = counts[0];
        const auto fits = [&](const QString &a, const QString &b) {
            return m_st.fmBold.horizontalAdvance(a) + gap + countMetrics.horizontalAdvance(b) <=
                   inner.width();
        };
        if (!fits(title, count)) {
            title = brief;
            count = counts[2];
            for (const QString &c : counts)
                if (fits(brief, c)) {
                    count = c;
                    break;
                }
            // a custom label longer than the brief one: as much of it as fits
            const QString custom = index == 0 ? m_o.compareTopLabel : m_o.compareBottomLabel;
            if (!custom.isEmpty())
                title = m_st.fmBold.elidedText(
                    custom, Qt::ElideRight,
                    std::max(0.0, inner.width() - gap - countMetrics.horizontalAdvance(count)));
        }
        m_p->setFont(m_st.bold);
        m_p->setPen(m_st.th.foreground);
        m_p->drawText(inner, Qt::AlignLeft | Qt::AlignVCenter, title);
        m_p->setFont(sum.corrupted ? m_st.bold : m_st.label);
        m_p->setPen(sum.corrupted ? m_st.th.corruptedText : m_st.th.foreground);
        m_p->drawText(inner, Qt::AlignRight | Qt::AlignVCenter, count);
    }

    // Text on a background chip so it stays readable over grid lines and bars.
    void chipText(const QRectF &r, const QString &text, const QColor &color, const QFont &font)
    {
        m_p->setPen(Qt::NoPen);
        m_p->setBrush(m_st.chip);
        m_p->drawRoundedRect(r, 3, 3);
        m_p->setFont(font);
        m_p->setPen(color);
        m_p->drawText(r, Qt::AlignCenter, text);
    }

    // The first of `texts` (longest first) whose width plus its padding fits in the visible
    // part of the item from x0 to x1, drawn centred there; nothing when none fits. Measured
    // against the visible part, not the whole item: an item scrolled half out of view would
    // otherwise get a label reaching past the plot's edge, cut in half by the clip.
    struct LabelText
    {
        QString text;
        double pad;
    };
    void fittedLabel(double x0, double x1, const QRectF &row,
                     std::initializer_list<LabelText> texts, const QColor &color)
    {
        const double left = std::max(x0, m_xmin);
        const double right = std::min(x1, m_xmax);
        for (const LabelText &t : texts) {
            if (t.text.isEmpty() || m_st.fmLabel.horizontalAdvance(t.text) + t.pad > right - left)
                continue;
            m_p->setFont(m_st.label);
            m_p->setPen(color);
            m_p->drawText(QRectF(left, row.top(), right - left, row.height()), Qt::AlignCenter,
                          t.text);
            return;
        }
    }

    // A label centred on x in a row, if there is room; pushed inwards at the plot's edges.
    bool placeLabel(LabelRow &row, const QRectF &band, double x, const QString &text,
                    const QColor &color, bool leftAligned = false)
    {
        const double w = m_st.fmLabel.horizontalAdvance(text) + 6;
        double left = leftAligned ? x : x - w / 2;
        if (x >= row.min && x <= row.max) {
            left = std::min(std::max(left, row.min), row.max - w);
            left = std::max(left, x - w); // still touching its marker
        }
        if (!row.fits(left, w)) {
            // shift right of the previous label if the marker is still covered
            left = std::max(left, row.right + row.gap);
            if (left > x + 2 || !row.fits(left, w))
                return false;
        }
        row.take(left, w);
        chipText(QRectF(left, band.top(), w, band.height()), text, color, m_st.label);
        notePresent(x, QRectF(left, band.top(), w, band.height()));
        return true;
    }

    // A shape drawn with a pen and a brush is painted as its fill, then its outline: two
    // layers, each of which can be a sprite (see Canvas::viaSprite). `shape` and `size` say
    // what `draw` draws around `anchor`, within `reach` of it; `rectFill`: the fill is a
    // rectangle (not a path), which needs whole rows for a sprite. Leaves the pen and brush
    // set, as drawing the shape directly would.
    template <class Draw>
    void layered(Shape shape, double size, QPointF anchor, double reach, const QPen &pen,
                 const QBrush &brush, bool rectFill, const Draw &draw)
    {
        const QRectF bounds(anchor.x() - reach, anchor.y() - reach, 2 * reach, 2 * reach);
        if (brush.style() != Qt::NoBrush)
            m_canvas.viaSprite(
                [&] {
                    return SpriteKey(SpriteKind::ShapeFill, shape, size, brush.color().rgba64(),
                                     int(brush.style()));
                },
                anchor, bounds, !rectFill,
                [&](auto *p) {
                    p->setPen(Qt::NoPen);
                    p->setBrush(brush);
                    draw(p);
                });
        if (pen.style() != Qt::NoPen)
            m_canvas.viaSprite(
                [&] {
                    return SpriteKey(SpriteKind::ShapeLine, shape, size, pen.color().rgba64(),
                                     pen.widthF(), int(pen.style()), int(pen.capStyle()),
                                     int(pen.joinStyle()));
                },
                anchor, bounds, true,
                [&](auto *p) {
                    p->setPen(pen);
                    p->setBrush(Qt::NoBrush);
                    draw(p);
                });
        m_p->setPen(pen);
        m_p->setBrush(brush);
    }

    // A line from anchor to anchor + d with the current pen (one stroke: one layer).
    void line(QPointF anchor, QPointF d, const QPen &pen)
    {
        const double reach = std::max(std::abs(d.x()), std::abs(d.y())) + pen.widthF() + 1;
        m_canvas.viaSprite(
            [&] {
                return SpriteKey(SpriteKind::Line, d.x(), d.y(), pen.color().rgba64(), pen.widthF(),
                                 int(pen.style()), int(pen.capStyle()), int(pen.joinStyle()));
            },
            anchor, QRectF(anchor.x() - reach, anchor.y() - reach, 2 * reach, 2 * reach), true,
            [&](auto *p) {
                p->setPen(pen);
                p->drawLine(anchor, anchor + d);
            });
        m_p->setPen(pen);
    }

    void glyph(MarkerShape shape, QPointF c, double r, const QColor &color, bool hollow = false)
    {
        // the shapes are Glyphs' (the legend draws the same); the layers may come from sprites
        const Glyphs::Kind kind = Glyphs::of(shape);
        const QPen pen = Glyphs::pen(kind, color, m_st.lw, hollow);
        const QBrush brush = Glyphs::brush(color, m_st.th.background, hollow);
        const double reach = r * 1.4 + pen.widthF() + 1;
        const auto draw = [&](auto *p) { Glyphs::draw(p, kind, c, r); };
        switch (shape) {
        case MarkerShape::Circle:
            layered(Shape::Circle, r, c, reach, pen, brush, false, draw);
            break;
        case MarkerShape::Diamond:
            layered(Shape::Diamond, r, c, reach, pen, brush, false, draw);
            break;
        case MarkerShape::Triangle:
            layered(Shape::Triangle, r, c, reach, pen, brush, false, draw);
            break;
        case MarkerShape::Cross:
            m_p->setBrush(brush);
            m_p->setPen(pen);
            draw(m_p);
            break;
        }
    }

    // --- client lanes --------------------------------------------------------------------

    void paintClient(int c, const ClientLaneRects &r, const Core::Trace &t)
    {
        const std::size_t cu = std::size_t(c);
        if (cu >= t.clientEvents.size())
            return;
        const std::vector<std::uint32_t> &evs = t.clientEvents[cu];
        const std::size_t lo = firstClientEvent(t, evs, m_tLo);
        const std::size_t hi = firstClientEvent(t, evs, m_tHi + 1);
        const bool dense = double(hi - lo) > (m_xmax - m_xmin) / 3;
        if (dense)
            paintClientDense(c, r, t, evs, lo, hi);
        else
            paintClientDetailed(c, r, t, evs, lo, hi);
    }

    void paintFreezes(const std::vector<Core::Freeze> &fs, const ClientLaneRects &r)
    {
        RunFill tint(m_canvas, r.lane.top(), r.lane.height(), m_st.freezeTint, QBrush(), 2.5);
        std::size_t i = firstFreezeEndingAfter(fs, m_tLo);
        while (i < fs.size()) {
            const Core::Freeze &z = fs[i];
            if (z.from > m_tHi)
                break;
            const double x0 = X(z.from);
            const double x1 = std::max(X(z.to), x0 + 1);
            // the union of the pauses, subtly across the lane: the client is frozen here
            tint.add(x0, x1);
            // stretches that end inside the column this one ended in add nothing: jump
            const Tick last = lastTickOfColumn(int(std::floor(x1)));
            i = gallop(i + 1, fs.size(), last + 1, [&](std::size_t k) { return fs[k].to; });
        }
    }

    void paintBeliefs(int c, const ClientLaneRects &r, const Core::Trace &t)
    {
        const std::vector<Core::Belief> &bs = t.beliefs[std::size_t(c)];
        const QRectF &row = r.believes;
        const double end = double(std::max(t.horizon, t.lastTick + 1));
        int painted = std::numeric_limits<int>::min();
        int zombiePainted = std::numeric_limits<int>::min();
        LabelRow labels{-1e300, m_xmin, m_xmax, 8};
        RunFill belief(m_canvas, row.top(), row.height(), m_st.beliefFill, QBrush(), 1.5);
        RunFill zombieTint(m_canvas, r.lane.top(), r.lane.height(), m_st.zombieTint, QBrush(), 2.5);
        RunFill zombie(m_canvas, row.top(), row.height(), m_st.th.zombie, QBrush(), 1.5);
        // Beliefs that end in the pixel column where belief i ended add nothing but possibly a
        // zombie pixel: look at a few of them for that, then jump past them all.
        const auto next = [&](std::size_t i) {
            const Core::Belief &b = bs[i];
            if (b.to == Core::kForever)
                return bs.size();
            const int col = int(std::floor(std::max(X(b.to), X(b.from) + 1)));
            const Tick last = lastTickOfColumn(col);
            std::size_t k = i + 1;
            for (; k < bs.size() && k < i + 16 && bs[k].to <= last; ++k) {
                // (the column test first: the window is a search in the client's events)
                if (col > zombiePainted && !t.zombieWindow(std::uint32_t(c), k).empty()) {
                    zombiePainted = col;
                    zombieTint.add(col, col + 1);
                    zombie.add(col, col + 1);
                }
            }
            return std::max(
                k, gallop(k, bs.size(), last + 1, [&](std::size_t n) { return bs[n].to; }));
        };
        for (std::size_t i = firstBeliefEndingAfter(bs, m_tLo); i < bs.size(); i = next(i)) {
            const Core::Belief &b = bs[i];
            if (b.from > m_tHi)
                break;
            const double to =
                b.to == Core::kForever ? std::max(end, double(b.from) + 1) : double(b.to);
            const double x0 = X(b.from);
            const double x1 = std::max(X(to), x0 + 1);
            if (int(std::floor(x1)) > painted) {
                painted = int(std::floor(x1));
                belief.add(x0, x1);
            }
            // where it acts on the lock it lost (core decides): the zombie window. Tracked apart
            // from the belief so a crowded pixel never hides the danger. Past its lease but
            // doing nothing, the belief goes on quietly as plain belief.
            const Core::TickRange zw = t.zombieWindow(std::uint32_t(c), i);
            if (zw.empty())
                continue;
            // it ends at the stale write's marker where the reply ends the belief there
            const double zx0 = X(zw.from);
            const double zx1 = std::max(X(std::min(zw.to, std::max(b.to, zw.from + 1))), zx0 + 1);
            if (int(std::floor(zx1)) <= zombiePainted)
                continue;
            zombiePainted = int(std::floor(zx1));
            if (zx1 - zx0 < 3) {
                zombieTint.add(zx0, zx1);
                zombie.add(zx0, zx1);
                continue;
            }
            {
                belief.flush(); // drawn in order: the wide window goes on top
                zombieTint.flush();
                zombie.flush();
                const QRectF z(zx0, row.top(), zx1 - zx0, row.height());
                m_canvas.fill(QRectF(zx0, r.lane.top(), z.width(), r.lane.height()),
                              m_st.zombieTint);
                m_canvas.fill(z, m_st.zombieFill);
                m_canvas.fill(z, m_st.zombieHatch);
                m_canvas.outline(z, m_st.zombieEdge);
                // the label stays inside the window it names
                const double left = std::max(zx0, m_xmin);
                const double right = std::min(zx1, m_xmax);
                for (const QString &text :
                     {QObject::tr("zombie: lease gone, still believes"), QObject::tr("zombie")}) {
                    if (m_st.fmLabel.horizontalAdvance(text) + 10 <= right - left) {
                        placeLabel(labels, row, (left + right) / 2, text, m_st.th.zombieText);
                        break;
                    }
                }
            }
            // how the belief ended, where the client finds out
            if (x1 - x0 > 24 && b.to != Core::kForever && b.to <= m_tHi &&
                (b.end == Core::BeliefEnd::Rejected || b.end == Core::BeliefEnd::Refused)) {
                // a compare-and-set storage replies with its version, not a max_token
                bool byVersion = false;
                if (b.end == Core::BeliefEnd::Rejected && m_s.hasVersionStorage()) {
                    const std::vector<std::uint32_t> &ce = t.clientEvents[std::size_t(c)];
                    auto it = std::lower_bound(ce.begin(), ce.end(), b.to,
                                               [&](std::uint32_t ev, Core::Tick tick) {
                                                   return t.events[ev].tick < tick;
                                               });
                    for (; it != ce.end() && t.events[*it].tick == b.to; ++it) {
                        const Core::Event &e = t.events[*it];
                        if (e.kind == Core::EventKind::WriteArrived && !t.writes[e.ref].applied)
                            byVersion = m_s.storages[t.writes[e.ref].storage].check ==
                                        Core::StorageCheck::Version;
                    }
                }
                const QString text = b.end != Core::BeliefEnd::Rejected
                                         ? QObject::tr("refused: knows it lost the lock")
                                     : byVersion ? QObject::tr("told: version changed")
                                                 : QObject::tr("told: lock lost (max_token)");
                const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
                if (labels.fits(x1 + 4, w) && nextBeliefStart(bs, i) > x1 + w + 10) {
                    labels.take(x1 + 4, w);
                    m_p->setFont(m_st.small);
                    m_p->setPen(m_st.th.muted);
                    m_p->drawText(QRectF(x1 + 4, row.top(), w, row.height()),
                                  Qt::AlignLeft | Qt::AlignVCenter, text);
                }
            }
        }
    }

    double nextBeliefStart(const std::vector<Core::Belief> &bs, std::size_t i) const
    {
        return i + 1 < bs.size() ? X(bs[i + 1].from) : m_xmax + 1000;
    }

    // Lease bars in the client lanes ("holds lock") and on the lock-service lane, in one pass
    // over the visible leases: at most one bar per pixel column and lane.
    void paintLeases(const TimelinePanel &panel, const Core::Trace &t)
    {
        const std::size_t nc = panel.clients.size();
        std::vector<int> painted(nc, std::numeric_limits<int>::min());
        std::vector<LabelRow> labels(nc, LabelRow{-1e300, m_xmin, m_xmax - 2, 6});
        int lockPainted = std::numeric_limits<int>::min();
        const QRectF lockRow = panel.lockBars.adjusted(0, 5 * m_st.f, 0, -5 * m_st.f);
        // narrow bars merge into runs; wide ones are drawn one by one, with words
        std::vector<std::unique_ptr<RunFill>> holdRuns;
        for (const ClientLaneRects &r : panel.clients)
            holdRuns.push_back(std::make_unique<RunFill>(m_canvas, r.holds.top(), r.holds.height(),
                                                         m_st.leaseFill));
        RunFill lockRun(m_canvas, lockRow.top(), lockRow.height(), m_st.lockFillA);
        m_p->setFont(m_st.label);
        // Leases ending in the column where lease i ended: a few are looked at so every
        // client that held the lock there gets its pixel, then the rest are jumped over.
        const auto next = [&](std::size_t i, int col) {
            const Tick last = lastTickOfColumn(col);
            std::size_t k = i + 1;
            for (; k < t.leases.size() && k < i + 16 && t.leases[k].end <= last; ++k) {
                const std::uint32_t c = t.leases[k].client;
                if (c < nc && col > painted[c]) {
                    painted[c] = col;
                    holdRuns[c]->add(col, col + 1);
                }
            }
            return std::max(k, gallop(k, t.leases.size(), last + 1,
                                      [&](std::size_t n) { return t.leases[n].end; }));
        };
        std::size_t i = firstLeaseEndingAfter(t, m_tLo);
        for (; i < t.leases.size();
             i = next(i, int(std::floor(std::max(X(t.leases[i].end), X(t.leases[i].start) + 1))))) {
            const Core::Lease &l = t.leases[i];
            if (l.start > m_tHi)
                break;
            const double x0 = X(l.start);
            const double x1 = std::max(X(l.end), x0 + 1);
            const int col = int(std::floor(x1));
            if (col > lockPainted) {
                lockPainted = col;
                if (x1 - x0 < 24) {
                    lockRun.add(x0, x1);
                } else {
                    lockRun.flush();
                    paintLockSegment(l, lockRow, x0, x1);
                }
            }
            if (l.client >= nc || col <= painted[l.client])
                continue;
            painted[l.client] = col;
            if (x1 - x0 < 24) {
                holdRuns[l.client]->add(x0, x1);
            } else {
                holdRuns[l.client]->flush();
                paintHold(t, i, panel.clients[l.client].holds, x0, x1, labels[l.client]);
            }
        }
    }

    void paintHold(const Core::Trace &t, std::size_t i, const QRectF &row, double x0, double x1,
                   LabelRow &labels)
    {
        const Core::Lease &l = t.leases[i];
        const QRectF bar(x0, row.top(), x1 - x0, row.height());
        m_p->fillRect(bar, m_st.leaseFill);
        if (bar.width() < 24)
            return; // no room for grips and words
        // a grip at the end: drag it to change the ttl (released leases end by release)
        if (!l.released) {
            m_p->fillRect(QRectF(x1 - 3 * m_st.f, row.top(), 3 * m_st.f, row.height()),
                          m_st.th.lease.darker(150));
        } else {
            m_p->setPen(QPen(m_st.th.foreground, 2 * m_st.lw));
            m_p->drawLine(QPointF(x1, row.top() - 2), QPointF(x1, row.bottom() + 2));
        }
        // (the padding counts the grip's 3 px too)
        fittedLabel(x0, x1, row, {{tokenLabel(m_s, l.token), 11}, {tokenShort(m_s, l.token), 7}},
                    textOn(m_st.leaseFill));
        // where it ends, in words, when there is room after the bar
        if (!l.released && l.end <= m_tHi) {
            const QString ends = QObject::tr("expires %1").arg(l.end);
            const double ew = m_st.fmSmall.horizontalAdvance(ends) + 4;
            if (labels.fits(x1 + 4, ew) && nextLeaseStartOf(t, i, int(l.client)) > x1 + ew + 10) {
                labels.take(x1 + 4, ew);
                m_p->setFont(m_st.small);
                m_p->setPen(m_st.th.muted);
                m_p->drawText(QRectF(x1 + 4, row.top(), ew, row.height()),
                              Qt::AlignLeft | Qt::AlignVCenter, ends);
            }
        }
    }

    // x where the client's next lease after lease i starts (for label room).
    double nextLeaseStartOf(const Core::Trace &t, std::size_t i, int c) const
    {
        for (std::size_t j = i + 1, n = 0; j < t.leases.size() && n < 64; ++j, ++n) {
            if (t.leases[j].start > m_tHi)
                break;
            if (t.leases[j].client == std::uint32_t(c))
                return X(t.leases[j].start);
        }
        return m_xmax + 1000;
    }

    QString markerText(const Core::Trace &t, const Core::Event &e) const
    {
        switch (e.kind) {
        case Core::EventKind::Grant:
            return QObject::tr("acquire → %1").arg(tokenLabel(m_s, t.grants[e.ref].token));
        case Core::EventKind::Renewal:
            return QObject::tr("renew → %1").arg(tokenLabel(m_s, t.grants[e.ref].token));
        case Core::EventKind::Refusal:
            return QObject::tr("acquire refused");
        case Core::EventKind::Release:
            return t.releases[e.ref].effective ? QObject::tr("release")
                                               : QObject::tr("release (not holder)");
        case Core::EventKind::WriteSent: {
            const Core::Write &w = t.writes[e.ref];
            const QString &v = Core::writeValue(m_s, w);
            return w.tagged ? QObject::tr("write %1 with %2")
                                  .arg(quoted(v), tokenLabel(m_s, writeToken(t, w)))
                            : QObject::tr("write %1, no token").arg(quoted(v));
        }
        default:
            return {};
        }
    }

    // The shortest label that still says which item it is: a write's value, a grant's token.
    QString compactMarkerText(const Core::Trace &t, const Core::Event &e) const
    {
        switch (e.kind) {
        case Core::EventKind::Grant:
        case Core::EventKind::Renewal:
            return tokenLabel(m_s, t.grants[e.ref].token);
        case Core::EventKind::WriteSent:
            return quoted(Core::writeValue(m_s, t.writes[e.ref]));
        default:
            return {};
        }
    }

    void markerGlyph(const Core::Trace &t, const Core::Event &e, double x, const QRectF &row)
    {
        const double r = Glyphs::kRadius * m_st.f;
        const QPointF c(x, row.center().y());
        switch (e.kind) {
        case Core::EventKind::Grant:
            glyph(MarkerShape::Circle, c, r, m_st.th.lease);
            break;
        case Core::EventKind::Renewal:
            glyph(MarkerShape::Circle, c, r, m_st.th.lease, true);
            break;
        case Core::EventKind::Refusal: {
            // a hollow circle crossed out: asked for the lock, did not get it
            Glyphs::paintRefusal(m_p, c, r, m_st.th.refusal, m_st.th.background, m_st.lw);
            break;
        }
        case Core::EventKind::Release: {
            const QPen pen(m_st.th.foreground, 1.3 * m_st.lw);
            const QBrush brush = t.releases[e.ref].effective ? QBrush(m_st.th.foreground)
                                                             : QBrush(m_st.th.background);
            layered(Shape::Rect, r, c, r + pen.widthF() + 1, pen, brush, true,
                    [&](auto *p) { Glyphs::draw(p, Glyphs::Kind::Box, c, r); });
            break;
        }
        case Core::EventKind::WriteSent: {
            // a pen nib pointing down towards the storage lanes
            const Core::Write &w = t.writes[e.ref];
            const QPen pen(m_st.th.write, 1.2 * m_st.lw);
            // a write still in flight when a partial trace (a drag step) stops has no fate yet
            const bool pending = w.arrivedAt >= t.pendingFrom;
            const QBrush brush(pending ? m_st.th.background
                                       : mix(m_st.th.outcome(w.result), m_st.th.background, 0.0));
            layered(Shape::Nib, r, c, r * 1.4 + pen.widthF() + 1, pen, brush, false,
                    [&](auto *p) { Glyphs::draw(p, Glyphs::Kind::Nib, c, r); });
            break;
        }
        default:
            break;
        }
    }

    void delayArrow(double x0, double x1, const QRectF &row, bool head)
    {
        const double y = row.center().y();
        const double h = 5 * m_st.f;
        m_p->setPen(m_st.arrow);
        m_p->drawLine(QPointF(x0, y), QPointF(head ? x1 - h : x1, y));
        if (head) {
            m_p->setBrush(m_st.th.write);
            const QPointF pts[3] = {{x1, y}, {x1 - 2 * h, y - h}, {x1 - 2 * h, y + h}};
            m_p->drawPolygon(pts, 3);
        }
    }

    void paintClientDetailed(int c, const ClientLaneRects &r, const Core::Trace &t,
                             const std::vector<std::uint32_t> &evs, std::size_t lo, std::size_t hi)
    {
        const Core::Client &client = m_s.clients[std::size_t(c)];
        // pause blocks that started before the view but reach into it: from the start of the
        // first frozen stretch still live at the left edge
        std::size_t from = lo;
        const std::vector<Core::Freeze> &fs = t.freezes[std::size_t(c)];
        const std::size_t fz = firstFreezeEndingAfter(fs, m_tLo);
        if (fz < fs.size() && fs[fz].from < m_tLo)
            from = firstClientEvent(t, evs, fs[fz].from);

        LabelRow pauseLabels{-1e300, m_xmin, m_xmax, 6};
        LabelRow labels{-1e300, m_xmin + 2, m_xmax - 2, 6};
        LabelRow inline_{-1e300, m_xmin + 2, m_xmax - 2, 6};
        // pauses first (under the markers), then arrows, then markers with their labels
        for (std::size_t i = from; i < hi; ++i) {
            const Core::Event &e = t.events[evs[i]];
            if (e.kind != Core::EventKind::PauseStart)
                continue;
            const Core::Action &a = client.actions[e.ref];
            const Tick end = a.at + a.amount;
            if (end < m_tLo)
                continue;
            const double x0 = X(a.at);
            const double x1 = std::max(X(end), x0 + 1);
            const QRectF block(x0, r.pauses.top(), x1 - x0, r.pauses.height());
            m_p->fillRect(block, m_st.pauseFill);
            m_p->fillRect(block, m_st.pauseHatch);
            m_p->setPen(m_st.pauseEdge);
            m_p->setBrush(Qt::NoBrush);
            m_p->drawRect(block);
            const QString text = QObject::tr("paused %1 ticks").arg(a.amount);
            const double cx = (std::max(x0, m_xmin) + std::min(x1, m_xmax)) / 2;
            const double w = m_st.fmLabel.horizontalAdvance(text) + 8;
            if (w < x1 - x0 - 6)
                placeLabel(pauseLabels, r.pauses, cx, text, m_st.th.foreground);
        }
        for (std::size_t i = lo; i < hi; ++i) {
            const Core::Event &e = t.events[evs[i]];
            if (e.kind == Core::EventKind::WriteSent) {
                const Core::Write &w = t.writes[e.ref];
                if (w.arrivedAt > w.sentAt)
                    delayArrow(X(w.sentAt), X(w.arrivedAt), r.markers, true);
            } else if (e.kind == Core::EventKind::WriteArrived) {
                const Core::Write &w = t.writes[e.ref];
                if (w.sentAt < m_tLo) // its send lies left of the view
                    delayArrow(X(w.sentAt), X(w.arrivedAt), r.markers, true);
            }
        }
        int lastCol = std::numeric_limits<int>::min();
        Core::EventKind lastKind = Core::EventKind::Grant;
        for (std::size_t i = lo; i < hi; ++i) {
            const Core::Event &e = t.events[evs[i]];
            if (!isMarker(e.kind) || isKeepalive(t, e))
                continue;
            const double x = X(e.tick);
            const std::uint32_t action = Core::actionOfEvent(t, evs[i]);
            const Core::Action &a = client.actions[action];
            const Tick due = dueTick(a);
            // deferred: scheduled while frozen, ran when the client thawed
            if (due < e.tick) {
                const double xs = X(due);
                const double y = r.markers.center().y();
                m_p->setPen(m_st.deferred);
                m_p->drawLine(QPointF(xs, y), QPointF(x, y));
                m_p->setBrush(m_st.th.background);
                m_p->setPen(QPen(m_st.th.muted, 1.2 * m_st.lw));
                m_p->drawEllipse(QPointF(xs, y), 3 * m_st.f, 3 * m_st.f);
            }
            const int col = int(std::floor(x));
            // one glyph of a kind per pixel; a write sent at its grant's tick (a blocking acquire
            // that waited) is drawn over the grant, and named like any other
            if (col == lastCol && e.kind == lastKind)
                continue;
            lastCol = col;
            lastKind = e.kind;
            markerGlyph(t, e, x, r.markers);
            QString text = markerText(t, e);
            if (due < e.tick)
                text += QObject::tr(" (due %1, ran late)").arg(due);
            QColor color = m_st.th.foreground;
            if (e.kind == Core::EventKind::Refusal)
                color = m_st.th.refusal;
            if (placeLabel(labels, r.labels, x, text, color))
                continue;
            if (due < e.tick && placeLabel(labels, r.labels, x, markerText(t, e), color))
                continue;
            // no room above: beside the glyph, up to the next marker (or its deferred link)
            double limit = m_xmax - 2;
            for (std::size_t k = i + 1, n = 0; k < hi && n < 32; ++k, ++n) {
                const Core::Event &ne = t.events[evs[k]];
                if (!isMarker(ne.kind) || isKeepalive(t, ne))
                    continue;
                // one of a kind in this pixel column is not drawn (above): no limit
                if (ne.kind == e.kind && int(std::floor(X(ne.tick))) == col)
                    continue;
                const Core::Action &na = client.actions[Core::actionOfEvent(t, evs[k])];
                limit = std::min(limit, X(std::min(na.at, ne.tick)) - 9 * m_st.f);
                break;
            }
            const auto beside = [&](const QString &label) {
                const double w = m_st.fmLabel.horizontalAdvance(label) + 6;
                const double left = x + 9 * m_st.f;
                if (label.isEmpty() || left + w > limit || !inline_.fits(left, w))
                    return false;
                inline_.take(left, w);
                chipText(QRectF(left, r.markers.top(), w, r.markers.height()), label, color,
                         m_st.label);
                notePresent(x, QRectF(left, r.markers.top(), w, r.markers.height()));
                return true;
            };
            if (beside(markerText(t, e)))
                continue;
            // crowded on both rows (two writes a few ticks apart): the short form, so that no
            // write goes unnamed ("'A1'"; the whole text is in the tooltip)
            const QString compact = compactMarkerText(t, e);
            if (!compact.isEmpty() && !placeLabel(labels, r.labels, x, compact, color))
                beside(compact);
        }
    }

    void paintClientDense(int c, const ClientLaneRects &r, const Core::Trace &t,
                          const std::vector<std::uint32_t> &evs, std::size_t lo, std::size_t hi)
    {
        // Too many events for detail: one glyph per pixel column, jumping over the rest.
        // Pause blocks are shown by their union, hatched, in the pause row.
        const std::vector<Core::Freeze> &fs = t.freezes[std::size_t(c)];
        {
            RunFill pauses(m_canvas, r.pauses.top(), r.pauses.height(), m_st.pauseFill,
                           m_st.pauseHatch, 1.5);
            std::size_t k = firstFreezeEndingAfter(fs, m_tLo);
            while (k < fs.size() && fs[k].from <= m_tHi) {
                const double x0 = X(fs[k].from);
                const double x1 = std::max(X(fs[k].to), x0 + 1);
                pauses.add(x0, x1);
                const Tick last = lastTickOfColumn(int(std::floor(x1)));
                k = gallop(k + 1, fs.size(), last + 1, [&](std::size_t n) { return fs[n].to; });
            }
        }
        const double y0 = r.markers.top() + 3 * m_st.f;
        const double y1 = r.markers.bottom() - 3 * m_st.f;
        // whole-pixel fills without antialiasing take the raster engine's fast path
        m_p->setRenderHint(QPainter::Antialiasing, false);
        std::size_t i = lo;
        int lastCol = std::numeric_limits<int>::min();
        std::size_t guess = 1;
        while (i < hi) {
            const Core::Event &e = t.events[evs[i]];
            const int col = column(e.tick);
            if (col == lastCol) {
                // jump to the first event in the next column
                i = clientEventAfterColumn(t, evs, i + 1, hi, col, guess);
                continue;
            }
            lastCol = col;
            QColor color = m_st.th.foreground;
            switch (e.kind) {
            case Core::EventKind::Grant:
            case Core::EventKind::Renewal:
                color = m_st.th.lease;
                break;
            case Core::EventKind::Refusal:
                color = m_st.th.refusal;
                break;
            case Core::EventKind::PauseStart:
            case Core::EventKind::PauseEnd:
                color = m_st.th.pause;
                break;
            case Core::EventKind::WriteArrived:
                color = m_st.th.outcome(t.writes[e.ref].result);
                break;
            default:
                break;
            }
            m_p->fillRect(QRect(col, int(y0), 1, int(y1 - y0)), color);
            ++i;
        }
        m_p->setRenderHint(QPainter::Antialiasing, true);
    }

    // Faint lines from each write down to its storage lane, under everything else, so the
    // eye can follow a write to its outcome. Only when few writes are in view.
    void paintConnectors(const TimelinePanel &panel, const Core::Trace &t)
    {
        for (std::size_t s = 0; s < panel.storages.size() && s < t.storageWrites.size(); ++s) {
            const std::vector<std::uint32_t> &ws = t.storageWrites[s];
            const std::size_t lo = firstArrival(t, ws, m_tLo);
            const std::size_t hi = firstArrival(t, ws, m_tHi + 1);
            if (hi - lo > 200)
                continue;
            const double y1 = panel.storages[s].outcomes.top();
            for (std::size_t i = lo; i < hi; ++i) {
                const Core::Write &w = t.writes[ws[i]];
                if (w.client >= panel.clients.size())
                    continue;
                const double x = X(w.arrivedAt);
                const QColor color = withAlpha(m_st.th.outcome(w.result), 150);
                const double width = 1.3 * m_st.lw;
                const QPointF from(x, panel.clients[w.client].markers.bottom());
                const QPointF to(x, y1);
                // a dashed line is stroked dash by dash and blended in one-pixel spans: the
                // most costly item of a zoomed-in paint, and the same on every repaint
                m_canvas.viaSprite(
                    [&] {
                        return SpriteKey(SpriteKind::Connector, color.rgba64(), width,
                                         to.y() - from.y());
                    },
                    from,
                    QRectF(x - width - 1, from.y() - width - 1, 2 * width + 2,
                           to.y() - from.y() + 2 * width + 2),
                    Canvas::wholeRows(from.y()) && Canvas::wholeRows(to.y()),
                    [&](auto *p) {
                        p->setPen(QPen(color, width, Qt::DashLine));
                        p->drawLine(from, to);
                    });
            }
        }
    }

    // --- lock lane -----------------------------------------------------------------------

    void paintLockSegment(const Core::Lease &l, const QRectF &row, double x0, double x1)
    {
        // alternate shades so back-to-back owners stay apart
        const QColor fill = l.epoch % 2 ? m_st.lockFillA : m_st.lockFillB;
        const QRectF bar(x0, row.top(), x1 - x0, row.height());
        m_p->fillRect(bar, fill);
        if (bar.width() < 24)
            return;
        m_p->setPen(QPen(m_st.th.background, 1));
        m_p->drawLine(bar.topLeft(), bar.bottomLeft());
        const QString name = l.client < m_s.clients.size() ? m_s.clients[l.client].name : QString();
        fittedLabel(x0, x1, row,
                    {{QObject::tr("%1 holds · %2").arg(name, tokenLabel(m_s, l.token)), 8},
                     {QObject::tr("%1 · %2").arg(name, tokenShort(m_s, l.token)), 6}},
                    textOn(fill));
    }

    // --- the lock service's own story (SCENARIO.md sections 9 and 10) --------------------

    // Blocking acquires, on the lease row of their client: a dashed bar from where it began to
    // wait to where it was granted (its lease bar starts there) or gave up.
    void paintWaits(const TimelinePanel &panel, const Core::Trace &t)
    {
        if (t.waits.empty())
            return;
        const double f = m_st.f;
        const QPen edge(m_st.th.muted, 1.2 * m_st.lw, Qt::DashLine);
        const QColor fill = mix(m_st.th.muted, m_st.th.background, 0.86);
        const double runEnd = X(std::max(t.horizon, t.lastTick + 1));
        std::vector<int> painted(panel.clients.size(), std::numeric_limits<int>::min());
        // waits are in the order they began: none after the first one beginning past the view
        const auto end = std::upper_bound(t.waits.begin(), t.waits.end(), m_tHi,
                                          [](Tick v, const Core::Wait &w) { return v < w.from; });
        for (auto it = t.waits.begin(); it != end; ++it) {
            const Core::Wait &w = *it;
            if ((w.to != Core::kForever && w.to < m_tLo) || w.client >= panel.clients.size())
                continue;
            const QRectF &row = panel.clients[w.client].holds;
            const double x0 = X(w.from);
            const double x1 = std::max(w.to == Core::kForever ? runEnd : X(w.to), x0 + 1);
            const int col = int(std::floor(x1));
            if (col <= painted[w.client])
                continue;
            painted[w.client] = col;
            const QRectF bar(x0, row.top() + 3 * f, x1 - x0, row.height() - 6 * f);
            m_p->fillRect(bar, fill);
            if (bar.width() < 6)
                continue;
            m_p->setPen(edge);
            m_p->setBrush(Qt::NoBrush);
            m_p->drawRect(bar);
            fittedLabel(x0, x1, row,
                        {{QObject::tr("waiting for the lock"), 10}, {QObject::tr("waiting"), 8}},
                        m_st.th.foreground);
            if (!w.granted && w.to != Core::kForever) {
                const QString text = QObject::tr("gave up");
                const double tw = m_st.fmSmall.horizontalAdvance(text) + 4;
                if (x1 + 4 + tw <= m_xmax) {
                    m_p->setFont(m_st.small);
                    m_p->setPen(m_st.th.foreground);
                    m_p->drawText(QRectF(x1 + 4, row.top(), tw, row.height()),
                                  Qt::AlignLeft | Qt::AlignVCenter, text);
                }
            }
        }
    }

    // The lock-delay after an expiry (Chubby): a hatched band on the lock lane in which the
    // lock is withheld from everyone but the client whose lease expired.
    void paintLockDelays(const TimelinePanel &panel, const Core::Trace &t)
    {
        const Tick d = m_s.lock.lockDelay;
        if (d == 0 || t.leases.empty())
            return;
        const QRectF row = panel.lockBars.adjusted(0, 5 * m_st.f, 0, -5 * m_st.f);
        const QColor fill = mix(m_st.th.refusal, m_st.th.background, 0.8);
        const QBrush hatch(withAlpha(m_st.th.refusal, 170), Qt::FDiagPattern);
        int painted = std::numeric_limits<int>::min();
        std::size_t i = firstLeaseEndingAfter(t, m_tLo > d ? m_tLo - d : 0);
        while (i < t.leases.size() && t.leases[i].end <= m_tHi) {
            const std::optional<Core::TickRange> span = Core::lockDelayAfter(m_s, t, i);
            std::size_t next = i + 1;
            if (span) {
                const double x0 = X(span->from);
                const double x1 = std::max(X(span->to), x0 + 1);
                const int col = int(std::floor(x1));
                if (col > painted) {
                    painted = col;
                    const QRectF band(x0, row.top(), x1 - x0, row.height());
                    m_canvas.fill(band, fill);
                    m_canvas.fill(band, hatch);
                    fittedLabel(x0, x1, row, {{QObject::tr("lock-delay"), 8}}, m_st.th.foreground);
                }
                // leases ending in the column this band ended in add nothing: jump
                const Tick last = lastTickOfColumn(col);
                next = std::max(next, gallop(next, t.leases.size(), last + 1,
                                             [&](std::size_t n) { return t.leases[n].end; }));
            }
            i = next;
        }
    }

    // What the lock service itself went through: a restore as a line across the lock lane
    // ("restored from t12"), in the corruption's colour with a falling mark when the next
    // token is not above one already handed out; failovers, failed elections and clock steps
    // as short marks in the source's words. Labels in the lane's top row, where there is room.
    void paintLockEvents(const TimelinePanel &panel, const Core::Trace &t)
    {
        if (t.lockEvents.empty() || panel.lockEvents.height() <= 0)
            return;
        const double f = m_st.f;
        const QRectF &top = panel.lockEvents;
        LabelRow labels{-1e300, m_xmin, m_xmax, 6};
        int painted = std::numeric_limits<int>::min();
        auto it = std::lower_bound(t.lockEvents.begin(), t.lockEvents.end(), m_tLo,
                                   [](const Core::LockEvent &e, Tick v) { return e.tick < v; });
        for (; it != t.lockEvents.end() && it->tick <= m_tHi; ++it) {
            const Core::LockEvent &e = *it;
            const double x = X(e.tick);
            const int col = int(std::floor(x));
            if (col <= painted)
                continue;
            painted = col;
            QColor color = m_st.th.muted;
            std::vector<QString> texts;
            if (e.kind == Core::LockEventKind::Restore) {
                const Core::RestoreReissue re = Core::restoreReissue(t, e);
                const Core::LockRestore *r =
                    e.ref < m_s.lock.restores.size() ? &m_s.lock.restores[e.ref] : nullptr;
                const QString from =
                    r ? QObject::tr("restored from t%1").arg(r->from) : QObject::tr("restored");
                color = re.dangerous ? m_st.th.corrupted : m_st.th.foreground;
                m_p->setPen(QPen(color, (re.dangerous ? 2.5 : 1.5) * m_st.lw,
                                 re.dangerous ? Qt::SolidLine : Qt::DashLine));
                m_p->drawLine(QPointF(x, panel.lock.top() + 1),
                              QPointF(x, panel.lock.bottom() - 1));
                if (re.dangerous) {
                    // the counter falls back: a downward mark just right of the line
                    const double h = 5 * f;
                    const QPointF tri[3] = {QPointF(x + 2 * f, top.center().y() - h / 2),
                                            QPointF(x + 2 * f + 2 * h, top.center().y() - h / 2),
                                            QPointF(x + 2 * f + h, top.center().y() + h / 2)};
                    m_p->setPen(Qt::NoPen);
                    m_p->setBrush(color);
                    m_p->drawPolygon(tri, 3);
                    texts = {
                        QObject::tr("%1 · next %2 ≤ %3 handed out")
                            .arg(from, tokenShort(m_s, re.next), tokenShort(m_s, re.handedOut)),
                        QObject::tr("%1 · token goes back").arg(from), from};
                } else if (r && r->bump > 0) {
                    texts = {QObject::tr("%1 · bump %2").arg(from).arg(r->bump), from};
                } else {
                    texts = {from};
                }
                color = re.dangerous ? m_st.th.corruptedText : m_st.th.foreground;
            } else {
                m_p->setPen(QPen(m_st.th.muted, 2 * m_st.lw));
                m_p->drawLine(QPointF(x, top.top()), QPointF(x, panel.lockBars.top() + 6 * f));
                switch (e.kind) {
                case Core::LockEventKind::Failover:
                    texts = {QObject::tr("ZK leader failover"), QObject::tr("failover")};
                    break;
                case Core::LockEventKind::FailedElection:
                    texts = {QObject::tr("term passes, no leader"), QObject::tr("no leader")};
                    break;
                case Core::LockEventKind::ClockStep: {
                    const std::int64_t by =
                        e.ref < m_s.lock.clockSteps.size() ? m_s.lock.clockSteps[e.ref].by : 0;
                    const QString step =
                        by < 0 ? QString::number(by) : QStringLiteral("+%1").arg(by);
                    texts = {QObject::tr("NTP step %1").arg(step), step};
                    break;
                }
                case Core::LockEventKind::Restore:
                    break;
                }
                color = m_st.th.foreground;
            }
            const double left = x + (e.kind == Core::LockEventKind::Restore ? 14 : 4) * f;
            for (const QString &text : texts) {
                const double w = m_st.fmSmall.horizontalAdvance(text) + 2;
                if (!labels.fits(left, w))
                    continue;
                labels.take(left, w);
                m_p->setFont(m_st.small);
                m_p->setPen(color);
                m_p->drawText(QRectF(left, top.top(), w, top.height()),
                              Qt::AlignLeft | Qt::AlignVCenter, text);
                notePresent(x, QRectF(left, top.top(), w, top.height()));
                break;
            }
        }
    }

    // --- how fencing goes wrong (SCENARIO.md sections 11 and 12) -------------------------

    // Keepalive renewals as short ticks along the holder's lease bar. Only the live holder's
    // keepalives renew, so one per pixel column is all there is to show: the first few grants
    // of a column are looked at, then the rest are jumped over.
    void paintKeepalives(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        const QPen pen(textOn(m_st.leaseFill), 1.5 * m_st.lw);
        std::size_t i = Core::firstGrantAt(t, m_tLo);
        while (i < t.grants.size() && t.grants[i].at <= m_tHi) {
            const int col = column(t.grants[i].at);
            const Tick last = lastTickOfColumn(col);
            std::size_t k = i;
            for (; k < t.grants.size() && k < i + 16 && t.grants[k].at <= last; ++k) {
                const Core::Grant &g = t.grants[k];
                if (!g.keepalive || g.client >= panel.clients.size())
                    continue;
                const QRectF &row = panel.clients[g.client].holds;
                const double x = X(g.at);
                m_p->setPen(pen);
                m_p->drawLine(QPointF(x, row.top() + 2 * f), QPointF(x, row.top() + 9 * f));
                break;
            }
            // (at least one step: rounding can put the column's last tick before its first)
            k = std::max(k, i + 1);
            i = std::max(k, gallop(k, t.grants.size(), last + 1,
                                   [&](std::size_t n) { return t.grants[n].at; }));
        }
    }

    // A client with a clock of its own judges its lease by it (Core::ownLeaseEnd): a second,
    // dashed "expires" mark where it thinks the lease ends, after the real end when its clock
    // runs slow (it believes a lease the lock service has already ended), before it when fast.
    void paintOwnLeaseEnds(const TimelinePanel &panel, const Core::Trace &t)
    {
        bool clocks = false;
        for (const Core::Client &c : m_s.clients)
            clocks = clocks || !c.clock.isDefault();
        if (!clocks)
            return;
        const double f = m_st.f;
        const QColor color = m_st.th.belief.darker(170);
        const QPen pen(color, 1.5 * m_st.lw, Qt::DashLine);
        std::vector<int> painted(panel.clients.size(), std::numeric_limits<int>::min());
        for (std::size_t i = firstLeaseEndingAfter(t, m_tLo); i < t.leases.size(); ++i) {
            const Core::Lease &l = t.leases[i];
            if (l.start > m_tHi)
                break;
            if (l.released || l.client >= panel.clients.size() || l.client >= m_s.clients.size() ||
                m_s.clients[l.client].clock.isDefault())
                continue;
            const Core::Grant *g = lastGrantOfEpoch(t, l.epoch);
            if (!g)
                continue;
            const Tick own = Core::ownLeaseEnd(m_s, *g);
            if (own == l.end || own == Core::kForever || own < m_tLo || own > m_tHi)
                continue;
            const double x = X(own);
            const int col = int(std::floor(x));
            if (col <= painted[l.client])
                continue;
            painted[l.client] = col;
            const ClientLaneRects &r = panel.clients[l.client];
            m_p->setPen(pen);
            m_p->drawLine(QPointF(x, r.holds.top()), QPointF(x, r.believes.bottom()));
            const QString text = QObject::tr("expires %1 by its clock").arg(own);
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            if (x + 4 * f + w > std::min(m_xmax, nextLeaseStartOf(t, i, int(l.client))))
                continue;
            m_p->setFont(m_st.small);
            m_p->setPen(m_st.th.foreground);
            m_p->drawText(QRectF(x + 4 * f, r.believes.top(), w, r.believes.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, text);
        }
    }

    // Where a client learnt it lost the lock (Trace::lost): a bar across its belief row where
    // the band ends, "told: lease gone" after a failed keepalive.
    void paintLost(const TimelinePanel &panel, const Core::Trace &t)
    {
        if (t.lost.empty())
            return;
        const double f = m_st.f;
        std::vector<LabelRow> labels(panel.clients.size(), LabelRow{-1e300, m_xmin, m_xmax - 2, 6});
        std::vector<int> painted(panel.clients.size(), std::numeric_limits<int>::min());
        auto it = std::lower_bound(t.lost.begin(), t.lost.end(), m_tLo,
                                   [](const Core::Lost &l, Tick v) { return l.at < v; });
        for (; it != t.lost.end() && it->at <= m_tHi; ++it) {
            if (it->client >= panel.clients.size())
                continue;
            const QRectF &row = panel.clients[it->client].believes;
            const double x = X(it->at);
            const int col = int(std::floor(x));
            if (col <= painted[it->client])
                continue;
            painted[it->client] = col;
            m_p->setPen(QPen(m_st.th.foreground, 2.5 * m_st.lw));
            m_p->drawLine(QPointF(x, row.top() - 1 * f), QPointF(x, row.bottom() + 1 * f));
            const QString text = it->reason == Core::LostReason::Keepalive
                                     ? QObject::tr("told: lease gone")
                                     : QObject::tr("own clock: lease gone");
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            if (!labels[it->client].fits(x + 4 * f, w))
                continue;
            labels[it->client].take(x + 4 * f, w);
            m_p->setFont(m_st.small);
            m_p->setPen(m_st.th.foreground);
            m_p->drawText(QRectF(x + 4 * f, row.top(), w, row.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, text);
        }
    }

    // Check-then-write: a bracket under the markers from the check to the send (the gap in
    // which a pause makes the checked write stale); a skipped one as a hollow cross "skipped".
    void paintChecks(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        const QPen pen(m_st.th.foreground, 1.2 * m_st.lw);
        for (const Core::Check &c : t.checks) {
            if (c.at > m_tHi)
                break; // in the order they checked
            if (!c.passed || c.sendAt < m_tLo || c.client >= panel.clients.size())
                continue;
            // on the edge between the markers and the pause row (a pause in the gap lies
            // right under it), over the marker labels
            const ClientLaneRects &lane = panel.clients[c.client];
            const double x0 = X(c.at);
            const double x1 = std::max(X(c.sendAt), x0 + 1);
            const double y = lane.markers.bottom() + 1 * f;
            const QPointF bracket[4] = {QPointF(x0, y - 6 * f), QPointF(x0, y), QPointF(x1, y),
                                        QPointF(x1, y - 6 * f)};
            m_p->setPen(pen);
            m_p->setBrush(Qt::NoBrush);
            m_p->drawPolyline(bracket, 4);
            const QString text = QObject::tr("check");
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            // in the visible part of the bracket only (it may run past either edge)
            const double left = std::max(x0, m_xmin) + 3 * f;
            const double right = std::min(x1, m_xmax);
            if (right - left > w + 3 * f && lane.pauses.height() > 0) {
                m_p->setFont(m_st.small);
                m_p->drawText(QRectF(left, y + 1, w, lane.pauses.bottom() - y - 1),
                              Qt::AlignLeft | Qt::AlignVCenter, text);
            }
        }
        for (const Core::Skip &k : t.skips) {
            if (k.at > m_tHi)
                break;
            if (k.at < m_tLo || k.client >= panel.clients.size())
                continue;
            const QRectF &row = panel.clients[k.client].markers;
            const double x = X(k.at);
            glyph(MarkerShape::Cross, QPointF(x, row.center().y()), Glyphs::kRadius * f,
                  m_st.th.muted, true);
            const QString text = QObject::tr("skipped");
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            if (x + 9 * f + w <= m_xmax) {
                m_p->setFont(m_st.small);
                m_p->setPen(m_st.th.foreground);
                m_p->drawText(QRectF(x + 9 * f, row.top(), w, row.height()),
                              Qt::AlignLeft | Qt::AlignVCenter, text);
            }
        }
    }

    // Reads of a version (Trace::reads) as arrows up from the storage to the reader at the
    // arrival, where it learns the version: "read v3". Only when few are in view.
    void paintReads(const TimelinePanel &panel, const Core::Trace &t)
    {
        if (t.reads.empty())
            return;
        const double f = m_st.f;
        const QPen pen(m_st.th.maxToken, 1.2 * m_st.lw);
        std::vector<LabelRow> labels(panel.clients.size(), LabelRow{-1e300, m_xmin, m_xmax - 2, 6});
        std::size_t shown = 0;
        for (const Core::Read &r : t.reads) {
            if (r.sentAt > m_tHi)
                break; // in the order they were sent
            if (!r.arrived || r.arrivedAt < m_tLo || r.client >= panel.clients.size() ||
                r.storage >= panel.storages.size())
                continue;
            if (++shown > 200)
                break;
            const double x = X(r.arrivedAt);
            const QRectF &client = panel.clients[r.client].markers;
            const double y0 = panel.storages[r.storage].values.top();
            const double y1 = client.bottom() + 2 * f;
            m_p->setPen(pen);
            m_p->drawLine(QPointF(x, y0), QPointF(x, y1));
            const double h = 5 * f;
            const QPointF head[3] = {QPointF(x, y1), QPointF(x - h / 2, y1 + h),
                                     QPointF(x + h / 2, y1 + h)};
            m_p->setPen(Qt::NoPen);
            m_p->setBrush(m_st.th.maxToken);
            m_p->drawPolygon(head, 3);
            // told beside the head, in the pause row under the markers (clear of their labels)
            const QRectF &beside = panel.clients[r.client].pauses;
            const QString text = QObject::tr("read v%1").arg(r.version);
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            LabelRow &row = labels[r.client];
            if (beside.height() <= 0 || !row.fits(x + 4 * f, w))
                continue;
            row.take(x + 4 * f, w);
            m_p->setFont(m_st.small);
            m_p->setPen(m_st.th.maxTokenText);
            m_p->drawText(QRectF(x + 4 * f, beside.top(), w, beside.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, text);
        }
    }

    // A bypass client's writes (an unfenced path) go straight through: a dashed line in the
    // corruption's colour from the write down to where it lands, past the lock lane and the
    // storage's check.
    void paintBypass(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        QPen pen(m_st.th.corrupted, 1.5 * m_st.lw, Qt::DashLine);
        for (std::size_t c = 0; c < panel.clients.size() && c < m_s.clients.size(); ++c) {
            if (!m_s.clients[c].bypass || c >= t.clientEvents.size())
                continue;
            const std::vector<std::uint32_t> &evs = t.clientEvents[c];
            const std::size_t lo = firstClientEvent(t, evs, m_tLo);
            const std::size_t hi = firstClientEvent(t, evs, m_tHi + 1);
            if (hi - lo > 400)
                continue; // crowded: the header says it
            for (std::size_t i = lo; i < hi; ++i) {
                const Core::Event &e = t.events[evs[i]];
                if (e.kind != Core::EventKind::WriteSent)
                    continue;
                const Core::Write &w = t.writes[e.ref];
                if (w.storage >= panel.storages.size())
                    continue;
                const double xs = X(w.sentAt);
                const double xa = X(w.arrivedAt);
                const double y0 = panel.clients[c].markers.bottom();
                const double y1 = panel.storages[w.storage].outcomes.center().y() - 7 * f;
                m_p->setPen(pen);
                m_p->drawLine(QPointF(xs, y0), QPointF(xa, y1));
            }
        }
    }

    // A group of writes across storages as one update (Trace::groups): their arrivals linked;
    // a partial one (some applied, some not) flagged in the corruption's colour.
    void paintGroups(const TimelinePanel &panel, const Core::Trace &t)
    {
        const double f = m_st.f;
        for (const Core::GroupOutcome &g : t.groups) {
            QPolygonF line;
            Tick first = Core::kForever;
            Tick last = 0;
            for (const std::uint32_t wi : g.writes) {
                const Core::Write &w = t.writes[wi];
                if (w.storage >= panel.storages.size())
                    continue;
                first = std::min(first, w.arrivedAt);
                last = std::max(last, w.arrivedAt);
                line << QPointF(X(w.arrivedAt), panel.storages[w.storage].outcomes.center().y());
            }
            if (line.isEmpty() || last < m_tLo || first > m_tHi)
                continue;
            const QColor color = g.partial ? m_st.th.corrupted : m_st.th.muted;
            if (line.size() > 1) {
                m_p->setPen(QPen(color, 2 * m_st.lw, Qt::DotLine));
                m_p->setBrush(Qt::NoBrush);
                m_p->drawPolyline(line);
            }
            const QString text = g.partial ? QObject::tr("%1: partial").arg(g.name)
                                           : QObject::tr("%1: all applied").arg(g.name);
            // under the last arrival, left of it: right of it are its outcome and "max" labels
            const QPointF at = line.back();
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            double left = at.x() - w - 8 * f >= m_xmin ? at.x() - w - 8 * f : at.x() + 10 * f;
            left = std::max(m_xmin, std::min(left, m_xmax - w)); // the arrival may be off view
            if (w > m_xmax - m_xmin)
                continue;
            const QRectF box(left, at.y() + 6 * f, w, m_st.fmSmall.height());
            m_p->setFont(m_st.small);
            m_p->setPen(g.partial ? m_st.th.corruptedText : m_st.th.muted);
            m_p->drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
        }
    }

    // A storage restart as a line across its lane; when max_token was volatile and is lost,
    // "max_token 7 forgotten" by the line.
    void paintRestarts(std::uint32_t s, const StorageLaneRects &r, const Core::Trace &t)
    {
        for (const Core::StorageRestart &rs : t.restarts) {
            if (rs.tick > m_tHi)
                break; // in time order
            if (rs.storage != s || rs.tick < m_tLo)
                continue;
            const double x = X(rs.tick);
            const bool lost = rs.forgot > 0;
            m_p->setPen(QPen(lost ? m_st.th.corrupted : m_st.th.foreground,
                             (lost ? 2.5 : 1.5) * m_st.lw, lost ? Qt::SolidLine : Qt::DashLine));
            m_p->drawLine(QPointF(x, r.lane.top() + 1), QPointF(x, r.lane.bottom() - 1));
            const QString text =
                lost ? QObject::tr("max_token %1 forgotten").arg(tokenShort(m_s, rs.forgot))
                     : QObject::tr("restart");
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            if (x + 4 + w > m_xmax)
                continue;
            m_p->setFont(m_st.small);
            m_p->setPen(lost ? m_st.th.corruptedText : m_st.th.foreground);
            m_p->drawText(QRectF(x + 4, r.values.top(), w, m_st.fmSmall.height()),
                          Qt::AlignLeft | Qt::AlignTop, text);
        }
    }

    // --- storage lanes -------------------------------------------------------------------

    QString outcomeText(const Core::Trace &t, const Core::Write &w, std::uint32_t storage) const
    {
        if (const Core::WriteVersion *v = versionOf(t, w, storage)) {
            switch (w.result) {
            case Core::WriteResult::Accepted:
                return QObject::tr("accepted, v%1").arg(v->version);
            case Core::WriteResult::Rejected:
                return QObject::tr("expected version %1, found %2")
                    .arg(v->expected)
                    .arg(v->version);
            case Core::WriteResult::LockedOut:
                return QObject::tr("LOCKED OUT: expected version %1, found %2")
                    .arg(v->expected)
                    .arg(v->version);
            case Core::WriteResult::Corrupted:
                return QObject::tr("CORRUPTED");
            }
        }
        const bool le = m_s.storages[storage].rule == Core::FenceRule::Le;
        switch (w.result) {
        case Core::WriteResult::Accepted:
            return w.tagged ? QObject::tr("accepted, %1").arg(tokenLabel(m_s, writeToken(t, w)))
                            : QObject::tr("accepted");
        case Core::WriteResult::Rejected:
        case Core::WriteResult::LockedOut: {
            if (!w.tagged)
                return QObject::tr("rejected: no token");
            const Core::Token token = writeToken(t, w);
            const QString cmp = le ? QObject::tr("%1 <= max %2")
                                         .arg(tokenLabel(m_s, token), tokenShort(m_s, w.maxToken))
                                   : QObject::tr("%1 < max %2")
                                         .arg(tokenLabel(m_s, token), tokenShort(m_s, w.maxToken));
            return w.result == Core::WriteResult::Rejected ? QObject::tr("rejected: %1").arg(cmp)
                                                           : QObject::tr("LOCKED OUT: %1").arg(cmp);
        }
        case Core::WriteResult::Corrupted:
            (void)t;
            return QObject::tr("CORRUPTED");
        }
        return {};
    }

    // What a write to a compare-and-set storage compared (Trace::writeVersions), or nullptr
    // for a token storage.
    const Core::WriteVersion *versionOf(const Core::Trace &t, const Core::Write &w,
                                        std::uint32_t storage) const
    {
        if (storage >= m_s.storages.size() ||
            m_s.storages[storage].check != Core::StorageCheck::Version ||
            t.writeVersions.size() != t.writes.size() || t.writes.empty())
            return nullptr;
        return &t.writeVersions[std::size_t(&w - t.writes.data())];
    }

    void paintStorage(int s, const StorageLaneRects &r, const Core::Trace &t)
    {
        const std::uint32_t su = std::uint32_t(s);
        if (su >= t.storageWrites.size())
            return;
        const std::vector<std::uint32_t> &ws = t.storageWrites[su];
        const std::size_t lo = firstArrival(t, ws, m_tLo);
        const std::size_t hi = firstArrival(t, ws, m_tHi + 1);
        const bool dense = double(hi - lo) > (m_xmax - m_xmin) / 6;
        // the max_token line and the outcomes jump over the same columns: search once
        ColumnJumps jumps(firstColumn(), lastColumn());
        std::size_t guess = 1;
        const auto afterColumn = [&](int col, std::size_t from) {
            const Tick next = firstTickOfColumn(col);
            return jumps.at(col, from, [&](std::size_t f) {
                const std::size_t k = gallopNear(
                    f, hi, next, guess, [&](std::size_t n) { return t.writes[ws[n]].arrivedAt; });
                guess = k - f;
                return k;
            });
        };

        paintMaxToken(su, r, t, ws, lo, hi, afterColumn);
        paintRestarts(su, r, t);
        if (!dense)
            paintValues(su, r, t, ws, lo, hi);

        // outcomes: glyph at the arrival tick, colour and shape per outcome; their labels once
        // every glyph is known (see placeOutcomeLabels)
        LabelSpans labels{m_xmin + 2, m_xmax - 2, 8, {}, {}};
        std::vector<OutcomeLabel> outcomeLabels;
        const double gr = 6 * m_st.f;
        const double y = r.outcomes.center().y();
        std::size_t i = lo;
        int lastCol = std::numeric_limits<int>::min();
        const bool anyBad = t.summary.rejected + t.summary.corrupted + t.summary.lockedOut > 0;
        // severity already shown per pixel column, so the incident pass below can add what a
        // crowded column hid
        const int firstCol = int(std::floor(m_xmin));
        std::vector<std::int8_t> shownSeverity(
            std::size_t(std::max(0, int(std::ceil(m_xmax)) - firstCol + 1)), std::int8_t(-1));
        const auto noteShown = [&](int col, Core::WriteResult r) {
            const int k = col - firstCol;
            if (k >= 0 && std::size_t(k) < shownSeverity.size())
                shownSeverity[std::size_t(k)] =
                    std::max(shownSeverity[std::size_t(k)], std::int8_t(severity(r)));
        };
        m_p->setRenderHint(QPainter::Antialiasing, !dense);
        while (i < hi) {
            const Core::Write &w0 = t.writes[ws[i]];
            const int col = column(w0.arrivedAt);
            if (col == lastCol) {
                i = afterColumn(col, i + 1);
                continue;
            }
            lastCol = col;
            // crowded pixel: show the worst outcome among the first few, so a corruption is
            // not hidden behind an accepted write (skipped when the run has nothing but
            // acceptances). Dense columns skip this: one colour per column, and the incident
            // pass below paints the worst of each column over the first write's colour.
            std::uint32_t shown = ws[i];
            std::size_t j = i + 1;
            if (anyBad && !dense) {
                const Tick last = lastTickOfColumn(col);
                for (; j < hi && j < i + 16 && t.writes[ws[j]].arrivedAt <= last; ++j) {
                    if (severity(t.writes[ws[j]].result) > severity(t.writes[shown].result))
                        shown = ws[j];
                }
            }
            const Core::Write &w = t.writes[shown];
            const double x = X(w.arrivedAt);
            noteShown(col, w.result);
            if (dense) {
                m_p->fillRect(
                    QRect(col, int(r.outcomes.top() + 2), 1, int(r.outcomes.height() - 4)),
                    m_st.th.outcome(w.result));
                i = j;
                continue;
            }
            glyph(Theme::shape(w.result), QPointF(x, y), gr, m_st.th.outcome(w.result));
            const double nextX = j < hi ? X(t.writes[ws[j]].arrivedAt) : m_xmax + 1000;
            outcomeLabels.push_back({shown, x, nextX, {}, 0, 0});
            // the glyph itself: a label left of it ends 4 px before it, one right of it starts
            // 2 px after it (what left-to-right placement used to leave)
            labels.addGlyph(x - gr - 4, x + gr + 2);
            i = j;
        }
        placeOutcomeLabels(outcomeLabels, labels, t, su, gr);
        for (const OutcomeLabel &label : outcomeLabels)
            if (!label.segments.empty())
                paintOutcomeLabel(label, r, t);
        // Every rejection, corruption and lock-out is shown, however crowded the lane: those
        // are what the picture is about. Only incidents a crowded column hid are added.
        if (anyBad && su < t.storageIncidents.size()) {
            const std::vector<std::uint32_t> &inc = t.storageIncidents[su];
            // The worst outcome the run has: once a column shows it, its other incidents add
            // nothing and are jumped over (the summary counts a partial run's incidents only
            // once it is complete).
            const int worst = !t.complete()             ? severity(Core::WriteResult::Corrupted)
                              : t.summary.corrupted > 0 ? severity(Core::WriteResult::Corrupted)
                              : t.summary.lockedOut > 0 ? severity(Core::WriteResult::LockedOut)
                                                        : severity(Core::WriteResult::Rejected);
            std::size_t guessInc = 1;
            for (std::size_t k = firstArrival(t, inc, m_tLo); k < inc.size(); ++k) {
                const Core::Write &w = t.writes[inc[k]];
                if (w.arrivedAt > m_tHi)
                    break;
                const int col = column(w.arrivedAt);
                const int c = col - firstCol;
                if (c >= 0 && std::size_t(c) < shownSeverity.size() &&
                    shownSeverity[std::size_t(c)] >= worst) {
                    const Tick end = endOfColumn(col);
                    const std::size_t next =
                        gallopNear(k + 1, inc.size(), end, guessInc,
                                   [&](std::size_t n) { return t.writes[inc[n]].arrivedAt; });
                    guessInc = next - (k + 1);
                    k = next - 1;
                    continue;
                }
                if (c < 0 || std::size_t(c) >= shownSeverity.size() ||
                    shownSeverity[std::size_t(c)] >= severity(w.result))
                    continue;
                noteShown(col, w.result);
                if (dense)
                    m_p->fillRect(
                        QRect(col, int(r.outcomes.top() + 2), 1, int(r.outcomes.height() - 4)),
                        m_st.th.outcome(w.result));
                else
                    glyph(Theme::shape(w.result), QPointF(X(w.arrivedAt), y), gr,
                          m_st.th.outcome(w.result));
            }
        }
        m_p->setRenderHint(QPainter::Antialiasing, true);
    }

    // One piece of an outcome label, in its own font.
    struct Segment
    {
        QString text;
        const QFont *font;
        const Metrics *fm;
        bool struck;
    };
    // An outcome label: the write it tells, where its glyph is, where the next glyph is (a label
    // right of its glyph ends before that), and once placed its segments and box.
    struct OutcomeLabel
    {
        std::uint32_t write;
        double x;
        double nextX;
        std::vector<Segment> segments; // empty: no room, not drawn
        double left;
        double total;
    };

    // The outcome in words next to its glyph (left of it near the right edge): "rejected:
    // token 1 < max 2", or for a corruption the written value and the lost one struck through.
    // Labels take their room most important first (corrupted, locked out, rejected, accepted;
    // in time order among equals): what the picture is about must never lose its words to a
    // routine acceptance that happened to be drawn first. A label with no room left for its
    // full text is shortened to its first word, or left out.
    void placeOutcomeLabels(std::vector<OutcomeLabel> &all, LabelSpans &spans, const Core::Trace &t,
                            std::uint32_t s, double gr)
    {
        std::vector<std::uint32_t> order(all.size());
        for (std::size_t k = 0; k < all.size(); ++k)
            order[k] = std::uint32_t(k);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return severity(t.writes[all[a].write].result) >
                   severity(t.writes[all[b].write].result);
        });
        for (const std::uint32_t k : order)
            placeOutcomeLabel(all[k], spans, t, s, gr);
    }

    void placeOutcomeLabel(OutcomeLabel &label, LabelSpans &labels, const Core::Trace &t,
                           std::uint32_t s, double gr)
    {
        const Core::Write &w = t.writes[label.write];
        const double x = label.x;
        const double nextX = label.nextX;
        const bool corrupt = w.result == Core::WriteResult::Corrupted;
        const bool accepted = w.result == Core::WriteResult::Accepted;
        std::vector<Segment> full;
        const QFont *mainFont = accepted ? &m_st.label : &m_st.bold;
        const Metrics *mainFm = accepted ? &m_st.fmLabel : &m_st.fmBold;
        full.push_back({outcomeText(t, w, s), mainFont, mainFm, false});
        if (corrupt) {
            full.back().text += QLatin1Char(' ') + quoted(Core::writeValue(m_s, w));
            if (w.overwrote != Core::kNone) {
                full.push_back({QObject::tr(" overwrote "), &m_st.label, &m_st.fmLabel, false});
                full.push_back({quoted(Core::writeValue(m_s, t.writes[w.overwrote])), &m_st.bold,
                                &m_st.fmBold, true});
            }
        }
        const double pad = outcomePad(w);
        const auto widthOf = [&](const std::vector<Segment> &segs) {
            double total = pad;
            for (const Segment &sg : segs)
                total += sg.fm->horizontalAdvance(sg.text);
            return total;
        };
        // right of the glyph, up to the next glyph; else left of it
        const auto place = [&](double total, double &left) {
            left = x + gr + 4;
            if (left + total <= std::min(m_xmax - 2, nextX - gr - 4) && labels.fits(left, total))
                return true;
            left = x - gr - 4 - total;
            return labels.fits(left, total);
        };
        std::vector<Segment> segs = full;
        double total = widthOf(segs);
        double left = 0;
        if (!place(total, left)) {
            // short form: just the outcome's first word
            QString word = segs.front().text.section(QLatin1Char(':'), 0, 0);
            word = word.section(QLatin1Char(','), 0, 0);
            segs = {{word, mainFont, mainFm, false}};
            total = widthOf(segs);
            if (!place(total, left))
                return;
        }
        labels.take(left, total);
        label.segments = std::move(segs);
        label.left = left;
        label.total = total;
    }

    static double outcomePad(const Core::Write &w)
    {
        return w.result == Core::WriteResult::Corrupted ? 10 : 6;
    }

    void paintOutcomeLabel(const OutcomeLabel &label, const StorageLaneRects &r,
                           const Core::Trace &t)
    {
        const Core::Write &w = t.writes[label.write];
        const QColor color = m_st.th.outcomeText(w.result);
        const bool corrupt = w.result == Core::WriteResult::Corrupted;
        const QRectF box(label.left, r.outcomes.top(), label.total, r.outcomes.height());
        notePresent(X(w.arrivedAt), box);
        if (corrupt) {
            // a corruption is unmistakable: boxed, filled, bold
            m_p->setPen(QPen(m_st.th.corrupted, 1.5 * m_st.lw));
            m_p->setBrush(m_st.corruptFill);
            m_p->drawRoundedRect(box, 3, 3);
        } else {
            m_p->setPen(Qt::NoPen);
            m_p->setBrush(m_st.chip);
            m_p->drawRoundedRect(box, 3, 3);
        }
        double tx = label.left + outcomePad(w) / 2;
        for (const Segment &sg : label.segments) {
            const double sw = sg.fm->horizontalAdvance(sg.text);
            m_p->setFont(*sg.font);
            m_p->setPen(corrupt ? textOn(m_st.corruptFill) : color);
            const QRectF tr(tx, box.top(), sw + 1, box.height());
            m_p->drawText(tr, Qt::AlignLeft | Qt::AlignVCenter, sg.text);
            if (sg.struck) {
                // the lost value, crossed out: this is the data the stale write destroyed
                m_p->setPen(QPen(m_st.th.corrupted.darker(130), 1.6 * m_st.lw));
                const double y = tr.center().y() + 0.5;
                m_p->drawLine(QPointF(tx - 1, y), QPointF(tx + sw + 1, y));
            }
            tx += sw;
        }
    }

    void paintValues(std::uint32_t s, const StorageLaneRects &r, const Core::Trace &t,
                     const std::vector<std::uint32_t> &ws, std::size_t lo, std::size_t hi)
    {
        // the stored value between changes: a box per value, the corrupted ones marked
        const QRectF row = r.values.adjusted(0, 2 * m_st.f, 0, -2 * m_st.f);
        Core::StorageState start;
        if (m_tLo > 0)
            start = Core::storageStateAt(m_s, t, s, m_tLo - 1);
        QString value = start.value;
        std::uint32_t valueWrite = start.lastWrite;
        double from = m_tLo > 0 ? m_xmin - 40 : X(Tick(0));
        auto box = [&](double x0, double x1) {
            if (x1 - x0 < 1)
                return;
            const bool corrupt = valueWrite != Core::kNone &&
                                 t.writes[valueWrite].result == Core::WriteResult::Corrupted;
            const bool empty = valueWrite == Core::kNone && value.isEmpty();
            const QRectF b(x0, row.top(), x1 - x0, row.height());
            m_p->setPen(corrupt ? QPen(m_st.th.corrupted, 1.5 * m_st.lw) : m_st.valueEdge);
            m_p->setBrush(corrupt ? m_st.corruptFill
                                  : (empty ? QColor(Qt::transparent) : m_st.valueFill));
            m_p->drawRect(b);
            const QString text =
                empty ? QObject::tr("(empty)")
                      : (corrupt ? QObject::tr("value %1 (corrupt)").arg(quoted(value))
                                 : QObject::tr("value %1").arg(quoted(value)));
            fittedLabel(x0, x1, row, {{text, 8}, {empty ? QString() : quoted(value), 6}},
                        empty ? m_st.th.muted
                              : (corrupt ? textOn(m_st.corruptFill) : m_st.th.foreground));
        };
        for (std::size_t i = lo; i < hi; ++i) {
            const Core::Write &w = t.writes[ws[i]];
            if (!w.applied)
                continue;
            const double x = X(w.arrivedAt);
            box(from, x);
            from = x;
            value = Core::writeValue(m_s, w);
            valueWrite = ws[i];
        }
        box(from, std::max(from, std::min(m_xmax + 40, X(std::max(t.horizon, t.lastTick + 1)))));
    }

    template <class AfterColumn>
    void paintMaxToken(std::uint32_t s, const StorageLaneRects &r, const Core::Trace &t,
                       const std::vector<std::uint32_t> &ws, std::size_t lo, std::size_t hi,
                       const AfterColumn &afterColumn)
    {
        const QRectF row = r.maxToken.adjusted(0, 4 * m_st.f, 0, -4 * m_st.f);
        // a compare-and-set storage shows its version ("v3") where a token storage shows
        // max_token; a volatile max_token drops to 0 where a restart forgot it
        const bool version = s < m_s.storages.size() &&
                             m_s.storages[s].check == Core::StorageCheck::Version &&
                             t.writeVersions.size() == t.writes.size();
        const auto valueOf = [&](std::uint32_t w) -> Core::Token {
            return version ? Core::Token(t.writeVersions[w].version) : t.writes[w].maxToken;
        };
        std::vector<Tick> drops;
        Core::Token highest = version ? Core::Token(t.finals[s].version) : t.finals[s].maxToken;
        for (const Core::StorageRestart &rs : t.restarts)
            if (!version && rs.storage == s && rs.forgot > 0) {
                highest = std::max(highest, rs.forgot);
                if (rs.tick <= m_tHi)
                    drops.push_back(rs.tick);
            }
        const double top = double(std::max<Core::Token>(1, highest));
        const auto yOf = [&](Core::Token v) {
            return row.bottom() - row.height() * double(v) / top;
        };
        Core::Token cur = 0;
        if (lo > 0)
            cur = valueOf(ws[lo - 1]);
        std::size_t drop = 0;
        // restarts before the view: one after the last write before it leaves 0
        for (; drop < drops.size() && drops[drop] <= m_tLo; ++drop)
            if (lo == 0 || drops[drop] > t.writes[ws[lo - 1]].arrivedAt)
                cur = 0;
        QPolygonF line;
        line.reserve(int(std::min<std::size_t>(hi - lo, 4096) * 2 + 4));
        line << QPointF(m_tLo == 0 ? X(Tick(0)) : m_xmin - 40, yOf(cur));
        LabelRow labels{-1e300, m_xmin, m_xmax - 2, 6}; // inside the plot, never cut by its edge
        m_p->setFont(m_st.small);
        std::size_t i = lo;
        const auto label = [&](double x, Core::Token v) {
            // a step just left of the plot (in view by the slack of a tick) is told at its edge
            x = std::max(x, m_xmin);
            // (where no label can start, the text is not even made: a step per column)
            if (!labels.fits(x + 4, 0))
                return;
            const QString text = version ? QObject::tr("v%1").arg(v) : QObject::tr("max %1").arg(v);
            const double w = m_st.fmSmall.horizontalAdvance(text) + 4;
            const double h = m_st.fmSmall.height();
            if (!labels.fits(x + 4, w))
                return;
            labels.take(x + 4, w);
            // under a high line, over a low one: always inside the row
            const double y = yOf(v);
            const double top = y - row.top() > h + 1 ? y - h - 1 : y + 2;
            m_p->setFont(m_st.small);
            m_p->setPen(m_st.th.maxTokenText);
            m_p->drawText(QRectF(x + 4, top, w, h), Qt::AlignLeft | Qt::AlignVCenter, text);
        };
        if (cur > 0)
            label(std::max(m_xmin, line.front().x()), cur);
        // one step per pixel column at most: the value at the column's end, found by jumping
        // a restart comes before the arrivals of its tick (SCENARIO.md section 14)
        const auto dropThrough = [&](Tick tick) {
            for (; drop < drops.size() && drops[drop] <= tick; ++drop) {
                if (cur == 0)
                    continue;
                const double x = X(drops[drop]);
                line << QPointF(x, yOf(cur)) << QPointF(x, yOf(0));
                cur = 0;
            }
        };
        while (i < hi) {
            const Core::Write &w = t.writes[ws[i]];
            dropThrough(w.arrivedAt);
            const int col = column(w.arrivedAt);
            const std::size_t j = afterColumn(col, i);
            const std::size_t last = std::max(j, i + 1) - 1;
            const Core::Token v = valueOf(ws[last]);
            if (v != cur) {
                const double x = X(w.arrivedAt);
                line << QPointF(x, yOf(cur)) << QPointF(x, yOf(v));
                cur = v;
                label(x, cur);
            }
            i = last + 1;
        }
        dropThrough(m_tHi);
        line << QPointF(std::min(m_xmax + 40, X(std::max(t.horizon, t.lastTick + 1))), yOf(cur));
        m_p->setPen(QPen(withAlpha(m_st.th.muted, 90), 1, Qt::DashLine));
        m_p->drawLine(QPointF(m_xmin, row.bottom()), QPointF(m_xmax, row.bottom()));
        m_p->setPen(m_st.maxTokenPen);
        m_p->setBrush(Qt::NoBrush);
        // a crowded step line is all right angles: antialiasing would only cost time
        const bool crowded = line.size() > 64;
        if (crowded) {
            m_p->setRenderHint(QPainter::Antialiasing, false);
            drawStepLine(line);
            m_p->setRenderHint(QPainter::Antialiasing, true);
        } else {
            m_p->drawPolyline(line);
        }
        if (!t.fencing && !version) {
            m_p->setFont(m_st.small);
            m_p->setPen(m_st.th.muted);
            m_p->drawText(
                QRectF(m_xmin + 6, r.maxToken.top(), m_xmax - m_xmin, r.maxToken.height()),
                Qt::AlignLeft | Qt::AlignVCenter,
                QObject::tr("max_token stays 0: this storage does not check tokens"));
        }
    }

    // An aliased, opaque step line in pieces of at most 64 points: Qt's stroker costs twice as
    // much per point on a long polyline. A piece ends on a right-angle corner, where the miter
    // join of the whole line covers exactly the two pieces' square caps, so the pixels are the
    // same.
    void drawStepLine(const QPolygonF &line)
    {
        const auto corner = [&](int k) {
            const QPointF &a = line[k - 1];
            const QPointF &b = line[k];
            const QPointF &c = line[k + 1];
            const bool inFlat = a.y() == b.y() && a.x() != b.x();
            const bool inUpright = a.x() == b.x() && a.y() != b.y();
            const bool outFlat = b.y() == c.y() && b.x() != c.x();
            const bool outUpright = b.x() == c.x() && b.y() != c.y();
            return (inFlat && outUpright) || (inUpright && outFlat);
        };
        const bool square = m_p->pen().capStyle() == Qt::SquareCap &&
                            m_p->pen().joinStyle() == Qt::MiterJoin &&
                            m_p->pen().color().alpha() == 255;
        int from = 0;
        for (int k = 64; square && k + 1 < line.size(); ++k) {
            if (k - from < 64 || !corner(k))
                continue;
            m_p->drawPolyline(line.constData() + from, k - from + 1);
            from = k;
        }
        m_p->drawPolyline(line.constData() + from, int(line.size()) - from);
    }

    // --- selection and hover -------------------------------------------------------------

    void paintHighlight(const TimelinePanel &panel, const Core::Trace &t, int client, int action,
                        bool selected)
    {
        if (client < 0 || action < 0 || std::size_t(client) >= panel.clients.size() ||
            std::size_t(client) >= m_s.clients.size() ||
            std::size_t(action) >= m_s.clients[std::size_t(client)].actions.size())
            return;
        const Core::Action &a = m_s.clients[std::size_t(client)].actions[std::size_t(action)];
        const ClientLaneRects &r = panel.clients[std::size_t(client)];
        QColor color = m_st.th.selection;
        if (!selected)
            color.setAlpha(130);
        QPen halo(color, (selected ? 5 : 4) * m_st.lw);
        halo.setJoinStyle(Qt::RoundJoin);
        m_p->setBrush(Qt::NoBrush);
        m_p->setPen(halo);
        const double pad = 3 * m_st.f;
        if (a.kind == Core::ActionKind::Pause) {
            const double x0 = X(a.at);
            const double x1 = std::max(X(a.at + a.amount), x0 + 1);
            m_p->drawRoundedRect(QRectF(x0 - pad, r.pauses.top() - pad, x1 - x0 + 2 * pad,
                                        r.pauses.height() + 2 * pad),
                                 4, 4);
            return;
        }
        const std::uint32_t ev = runEventOf(m_s, t, client, action);
        if (ev == Core::kNone)
            return;
        const Core::Event &e = t.events[ev];
        const double x = X(e.tick);
        const double rad = 10 * m_st.f;
        m_p->drawEllipse(QPointF(x, r.markers.center().y()), rad, rad);
        if (e.kind == Core::EventKind::WriteSent) {
            const Core::Write &w = t.writes[e.ref];
            const std::size_t su = w.storage;
            if (su < panel.storages.size()) {
                const double xa = X(w.arrivedAt);
                m_p->drawEllipse(QPointF(xa, panel.storages[su].outcomes.center().y()), rad, rad);
            }
        } else if (e.kind == Core::EventKind::Grant || e.kind == Core::EventKind::Renewal) {
            const Core::Grant &g = t.grants[e.ref];
            const double x1 = std::max(X(g.expires), x + 1);
            m_p->drawRect(QRectF(x, r.holds.top() - 1, x1 - x, r.holds.height() + 2));
        }
    }

    // The keyboard focus: a dashed ring in the foreground colour, outside the selection halo
    // (yellow on white alone would not reach 3:1), around an action or a client's header cell.
    void paintFocusRing(const TimelinePanel &panel, const Core::Trace &t)
    {
        const QRectF r = TimelineRenderer::focusRingRect(m_s, t, m_axis, m_l, panel, m_o,
                                                         m_o.focusClient, m_o.focusAction);
        if (r.isEmpty())
            return;
        QPen ring(m_st.th.foreground, 2 * m_st.lw, Qt::DashLine);
        m_p->save();
        m_p->setBrush(Qt::NoBrush);
        m_p->setPen(ring);
        if (m_o.focusAction < 0) {
            m_p->drawRect(r);
        } else {
            m_p->setClipRect(plotClip(panel));
            const Core::Action &a =
                m_s.clients[std::size_t(m_o.focusClient)].actions[std::size_t(m_o.focusAction)];
            if (a.kind == Core::ActionKind::Pause)
                m_p->drawRoundedRect(r, 5, 5);
            else
                m_p->drawRect(r);
        }
        m_p->restore();
    }

    // Columns X() can return, for ColumnJumps.
    int firstColumn() const { return int(std::floor(m_xmin - 40)); }
    int lastColumn() const { return int(std::floor(m_xmax + 40)); }

    // Events are in time order (Trace::firstEventAt relies on it too), so a client's first event
    // at or after a tick is its first event whose index in Trace::events is at or after the
    // trace's first event at that tick. That one is found once per column for all lanes; each
    // lane then searches its own index list, an array of increasing numbers, instead of
    // fetching an event from all over the trace for every probe.
    std::size_t clientEventAfterColumn(const Core::Trace &t, const std::vector<std::uint32_t> &evs,
                                       std::size_t from, std::size_t to, int col,
                                       std::size_t &guess)
    {
        if (m_jumpsTrace != &t) {
            m_jumpsTrace = &t;
            m_eventJumps = ColumnJumps(firstColumn(), lastColumn());
            m_eventHint = 0;
            m_eventGuess = 0;
        }
        const Tick v = firstTickOfColumn(col);
        const std::size_t g = m_eventJumps.at(col, 0, [&](std::size_t) {
            // columns are asked for left to right by every lane: search on from the last answer
            // when it lies before this one
            const auto key = [&](std::size_t k) { return t.events[k].tick; };
            const std::size_t n = t.events.size();
            const std::size_t from = m_eventHint < n && key(m_eventHint) < v ? m_eventHint : 0;
            const std::size_t answer = gallopNear(from, n, v, from ? m_eventGuess : n / 2, key);
            if (answer > m_eventHint) {
                m_eventGuess = answer - m_eventHint;
                m_eventHint = answer;
            }
            return answer;
        });
        const std::size_t k =
            gallopNear(from, to, Tick(g), guess, [&](std::size_t n) { return Tick(evs[n]); });
        guess = k - from;
        return k;
    }

    PaintRecorder *m_p;
    Target m_target;
    Canvas m_canvas;
    const Bands &m_bands;
    const Style &m_st;
    const TimeAxis &m_axis;
    const TimelineLayout &m_l;
    const Core::Scenario &m_s;
    const TimelineRenderer::Options &m_o;
    std::vector<QRectF> *m_present = nullptr; // labels of what happens at the playhead
    double m_xmin = 0;
    double m_xmax = 0;
    Tick m_tLo = 0;
    Tick m_tHi = 0;
    const Core::Trace *m_jumpsTrace = nullptr;
    ColumnJumps m_eventJumps{0, -1};
    std::size_t m_eventHint = 0;
    std::size_t m_eventGuess = 0;
};

} // namespace

TimelineRenderer::TimelineRenderer() : m_cache(std::make_unique<RendererCache>()) {}

TimelineRenderer::~TimelineRenderer() = default;

TimelineRenderer::TimelineRenderer(const TimelineRenderer &other)
    : m_cache(std::make_unique<RendererCache>()), m_caching(other.m_caching)
{
}

TimelineRenderer &TimelineRenderer::operator=(const TimelineRenderer &other)
{
    if (this != &other) {
        m_cache->clear();
        m_caching = other.m_caching;
    }
    return *this;
}

void TimelineRenderer::setCaching(bool on)
{
    m_caching = on;
    if (!on)
        m_cache->clear();
}

int TimelineRenderer::staticLayerPaints() const
{
    return m_cache->staticLayerPaints();
}

int TimelineRenderer::contentLayerPaints() const
{
    return m_cache->contentLayerPaints();
}

void TimelineRenderer::paint(QPainter *p, const QRectF &rect, const Core::Scenario &s,
                             const Core::Trace &trace, const Core::Trace *unfenced,
                             const TimeAxis &axis, const Options &o) const
{
    p->save();
    p->setClipRect(rect);
    if (!(axis.pixelsPerTick > 0) || s.clients.size() != trace.clientEvents.size()) {
        p->fillRect(rect, o.theme.background);
        p->restore();
        return;
    }
    const TimelineLayout l = layout(s, o, rect);
    // per panel; null where the trace does not match the lanes (the panel stays empty)
    std::vector<const Core::Trace *> traces;
    for (const TimelinePanel &panel : l.panels) {
        const Core::Trace &t = (panel.bottom && unfenced) ? *unfenced : trace;
        traces.push_back(t.clientEvents.size() == s.clients.size() ? &t : nullptr);
    }
    RendererCache *cache = m_caching ? m_cache.get() : nullptr;
    if (cache) {
        cache->beginPaint();
        cache->useFonts(Style::fonts(o.theme), p->device()->logicalDpiX(),
                        p->device()->logicalDpiY());
    }
    const Style st(o.theme, p->device(), cache);
    const auto enableHints = [](QPainter *painter) {
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->setRenderHint(QPainter::TextAntialiasing, true);
    };
    const QRectF belowRuler(rect.left(), l.ruler.bottom(), rect.width(),
                            rect.bottom() - l.ruler.bottom());
    Target here = Target::of(p, cache);
    if (cache && QCoreApplication::instance() &&
        QThread::currentThread() == QCoreApplication::instance()->thread()) {
        here.helper = cache;
        here.dpiX = p->device()->logicalDpiX();
        here.dpiY = p->device()->logicalDpiY();
    }

    // Everything the trace decides, recorded first: a paint that would make the same calls as
    // the last one copies their picture instead.
    PaintRecorder local;
    PaintRecorder &content = cache ? cache->recording() : local;
    std::vector<QRectF> present; // labels at the playhead's tick: not dimmed
    content.begin(p);
    {
        // a known state to start from, wherever the calls are replayed
        content.setPen(QPen());
        content.setBrush(Qt::NoBrush);
        content.setFont(QFont());
        content.setRenderHint(QPainter::Antialiasing, true);
        content.setRenderHint(QPainter::TextAntialiasing, true);
        Painter painter(&content, here, st, axis, l, s, o);
        painter.notePresentLabels(&present);
        for (std::size_t i = 0; i < l.panels.size(); ++i)
            if (traces[i])
                painter.paintPanel(l.panels[i], *traces[i], int(i));
    }
    // Below the ruler only: its opaque fill used to be painted after the panels and covered
    // what reached over its edge (a compare panel title's top line).
    const auto replayContent = [&](QPainter *painter) {
        painter->save();
        painter->setClipRect(belowRuler, Qt::IntersectClip);
        content.replay(painter);
        painter->restore();
    };
    const auto paintStatic = [&](QPainter *painter) {
        PaintRecorder layer;
        layer.begin(painter);
        Painter(&layer, Target::of(painter, nullptr), st, axis, l, s, o).paintStatic(traces);
        layer.replay(painter);
    };

    // The static layer: from the cache on raster targets (it covers `rect` with an opaque fill,
    // so copying it gives the pixels painting it would), painted in place everywhere else.
    const std::optional<RendererCache::Target> target =
        cache && o.theme.background.alpha() == 255 &&
                RendererCache::textAsOnImages(p, Style::fonts(o.theme))
            ? RendererCache::rasterTarget(p, rect)
            : std::nullopt;
    if (target) {
        RendererCache::StaticKey key;
        key.rect = rect;
        key.deviceRect = target->deviceRect;
        key.dpr = target->dpr;
        key.dpiX = target->dpiX;
        key.dpiY = target->dpiY;
        key.renderHints = int(p->renderHints());
        key.theme = o.theme;
        key.fonts = Style::fonts(o.theme);
        key.compare = o.compare;
        key.collapsedPauses = o.collapsedPauses;
        for (const Core::Client &c : s.clients)
            key.clients.push_back(c.name);
        for (const Core::StorageSpec &spec : s.storages) {
            key.storages.push_back(spec.name);
            key.rules.push_back(int(spec.rule));
        }
        for (const Core::Trace *t : traces)
            key.panelFencing.push_back(t && t->fencing);
        key.axis = axis;
        key.pinBottom = o.pinBottom;
        const QImage *layer = cache->staticLayer(key, [&](QPainter *lp) {
            lp->setClipRect(rect);
            lp->fillRect(rect, o.theme.background);
            enableHints(lp);
            paintStatic(lp);
        });
        const QImage *withContent = !layer ? nullptr : cache->contentLayer([&](QPainter *cp) {
            cp->setClipRect(rect);
            enableHints(cp);
            replayContent(cp);
        });
        if (!layer) {
            cache->forgetContent();
            p->fillRect(rect, o.theme.background);
            enableHints(p);
            paintStatic(p);
        } else {
            p->drawImage(rect.topLeft(), withContent ? *withContent : *layer);
            enableHints(p);
        }
        if (!withContent)
            replayContent(p);
    } else {
        if (cache)
            cache->forgetContent();
        p->fillRect(rect, o.theme.background);
        enableHints(p);
        paintStatic(p);
        replayContent(p);
    }

    // What the playhead, hover and selection change, over the content.
    PaintRecorder overlay;
    overlay.begin(p);
    {
        Painter painter(&overlay, here, st, axis, l, s, o);
        for (std::size_t i = 0; i < l.panels.size(); ++i)
            if (traces[i])
                painter.paintOverlay(l.panels[i], *traces[i]);
        painter.paintRulerLine();
        const double bottom = l.panels.empty() ? l.plot.bottom() : l.panels.back().rect.bottom();
        painter.paintPlayhead(l.ruler.top(), bottom, present);
    }
    overlay.replay(p);
    p->restore();
}

double TimelineRenderer::fitFrom(const Core::Trace &)
{
    return 0;
}

double TimelineRenderer::fitTo(const Core::Trace &trace)
{
    return double(std::max(trace.horizon, trace.lastTick + 1));
}
