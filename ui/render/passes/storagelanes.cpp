// The storage lanes: each write's arrival with its outcome glyph and label, the stored values,
// and the max_token step line; a restart's line and words are storagerestarts.cpp's. Zoomed out
// on a big run, where every storage lane is drawn a column at a time, a helper thread records
// them while the painting thread records the other passes, and their calls are put where they
// belong (see beginPanel()).

#include "passes.h"

#include "outcomelabels.h"
#include "paintcontext.h"
#include "storagerestarts.h"

#include "runstate.h"

#include <QImage>
#include <QSemaphore>
#include <QThreadPool>

namespace Render {

namespace {

class StorageLanesPainter : public OutcomeLabels
{
public:
    using OutcomeLabels::OutcomeLabels;
    explicit StorageLanesPainter(const PaintContext &c) : OutcomeLabels(c) {}

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

    // Starts recording the panel's storage lanes into `storages` on the helper thread; it
    // releases `done` when it has finished, however it ends.
    void recordOnHelper(const TimelinePanel &panel, const Core::Trace &t, PaintRecorder &storages,
                        QSemaphore &storagesDone) const
    {
        storages.continueFrom(*m_p);
        const StorageLanesPainter self = *this;
        helperPool().start([self, &panel, &t, &storages, &storagesDone] {
            // released however this ends: the painting thread waits for it
            const std::unique_ptr<QSemaphore, void (*)(QSemaphore *)> done(
                &storagesDone, [](QSemaphore *s) { s->release(); });
            // its own fonts and width tables: fonts resolve per thread, and the tables are
            // written while measuring
            QImage metrics(1, 1, QImage::Format_ARGB32_Premultiplied);
            metrics.setDotsPerMeterX(int(std::lround(self.m_target.dpiX / 0.0254)));
            metrics.setDotsPerMeterY(int(std::lround(self.m_target.dpiY / 0.0254)));
            const Style style(self.m_st.th, &metrics, self.m_target.helper, true);
            Target target;
            target.bands = self.m_target.bands;
            StorageLanesPainter helper(&storages, target, style, self.m_axis, self.m_l, self.m_s,
                                       self.m_o);
            for (std::size_t s = 0; s < panel.storages.size(); ++s)
                helper.paintStorage(int(s), panel.storages[s], t);
        });
    }

    // Whether a helper thread records this panel's storage lanes (pinned lanes are painted in
    // two parts, each clipped: no helper then).
    bool helped(const TimelinePanel &panel, const Core::Trace &t) const
    {
        return m_target.helper && !panel.isPinned() && denseStorages(panel, t);
    }

    // Each write's arrival, as the hit test finds it: within a grip (and two pixels) of where
    // its glyph stands, across its lane, over a restart's line. One per pixel column, the one
    // whose glyph is painted there: the worst outcome among the column's first writes, the first
    // of it (as paintStorage shows a crowded column). On the painting thread, whichever thread
    // records the lanes.
    void recordArrivals(const TimelinePanel &panel, const Core::Trace &t) const
    {
        const double reach = kGrip * std::max(1.0, m_st.f) + 2;
        for (std::size_t s = 0; s < panel.storages.size() && s < t.storageWrites.size(); ++s) {
            const std::vector<std::uint32_t> &ws = t.storageWrites[s];
            const QRectF &lane = panel.storages[s].lane;
            if (!meetsRows(lane))
                continue;
            TimelineRenderer::Hit hit;
            hit.part = TimelineRenderer::Hit::StorageWrite;
            hit.lane = int(panel.clients.size() + 1 + s);
            hit.bottomPanel = panel.bottom;
            std::size_t i = firstArrival(t, ws, m_tLo);
            while (i < ws.size() && t.writes[ws[i]].arrivedAt <= m_tHi) {
                const Tick last = lastTickOfColumn(column(t.writes[ws[i]].arrivedAt));
                std::uint32_t shown = ws[i];
                std::size_t j = i + 1;
                for (; j < ws.size() && j < i + 16 && t.writes[ws[j]].arrivedAt <= last; ++j)
                    if (severity(t.writes[ws[j]].result) > severity(t.writes[shown].result))
                        shown = ws[j];
                const Core::Write &w = t.writes[shown];
                hit.client = int(w.client);
                hit.action = int(w.action);
                const double x = X(w.arrivedAt);
                region(QRectF(x - reach, lane.top(), 2 * reach, lane.height()), hit,
                       RegionZ::StorageWrite, x);
                // the rest of the column adds nothing
                i = j < ws.size() && t.writes[ws[j]].arrivedAt <= last
                        ? gallop(j, ws.size(), last + 1,
                                 [&](std::size_t n) { return t.writes[ws[n]].arrivedAt; })
                        : j;
            }
        }
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
        StorageRestarts(*this).paintRestarts(su, r, t);
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
            // More writes arriving in this glyph's pixel column (two writes at one tick): a
            // count on the glyph, so the second one is not hidden behind the first. Hover text
            // and the event log list each.
            {
                const Tick lastTick = lastTickOfColumn(col);
                std::size_t n = i + 1;
                while (n < hi && n < i + 100 && t.writes[ws[n]].arrivedAt <= lastTick)
                    ++n;
                if (n - i > 1) {
                    const QString count =
                        n - i >= 100 ? QStringLiteral("99+") : QStringLiteral("×%1").arg(n - i);
                    const double bw = m_st.fmSmall.horizontalAdvance(count) + 6 * m_st.f;
                    const double bh = m_st.fmSmall.height() + 1;
                    const QRectF badge(x + gr * 0.55, y - gr - bh * 0.75, bw, bh);
                    m_p->setPen(QPen(m_st.th.outcome(w.result), 1));
                    m_p->setBrush(m_st.chip);
                    m_p->drawRoundedRect(badge, 3, 3);
                    m_p->setFont(m_st.small);
                    m_p->setPen(m_st.th.foreground);
                    m_p->drawText(badge, Qt::AlignCenter, count);
                    noteLabel(x, badge);
                    labels.addGlyph(badge.left(), badge.right());
                }
            }
            const double nextX = j < hi ? X(t.writes[ws[j]].arrivedAt) : m_xmax + 1000;
            outcomeLabels.push_back({shown, x, nextX});
            // the glyph itself: a label left of it ends 4 px before it, one right of it starts
            // 2 px after it (what left-to-right placement used to leave)
            labels.addGlyph(x - gr - 4, x + gr + 2);
            i = j;
        }
        placeOutcomeLabels(outcomeLabels, labels, r, t, su, gr);
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
        // core's level of the storage (core/runstate.h): a compare-and-set storage shows its
        // version ("v3") where a token storage shows max_token; a volatile max_token drops to
        // 0 where a restart forgot it
        const Core::StorageLevel level(m_s, t, s);
        const bool version = level.gauge() == Core::StorageGauge::Version;
        const auto valueOf = [&](std::uint32_t w) -> Core::Token { return level.afterWrite(w); };
        const std::vector<Tick> &drops = level.drops();
        const double top = double(std::max<Core::Token>(1, level.highest()));
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
        // inside the plot, never cut by its edge; the restarts' words first, then each step's
        LabelSpans labels;
        labels.min = m_xmin;
        labels.max = m_xmax - 2;
        labels.gap = 6;
        StorageRestarts(*this).labelRestarts(s, row, t, level, labels);
        m_p->setFont(m_st.small);
        std::size_t i = lo;
        const auto label = [&](double x, Core::Token v) {
            // a step just left of the plot (in view by the slack of a tick) is told at its edge
            x = std::max(x, m_xmin);
            // (where no label can start, the text is not even made: a step per column)
            if (!labels.fits(x + 4, 0))
                return;
            // (a max_token in the source's own form, as every other token on the timeline)
            const QString text =
                version ? QObject::tr("v%1").arg(v) : QObject::tr("max %1").arg(tokenShort(m_s, v));
            // under a high line, over a low one: always inside the row
            const double h = m_st.fmSmall.height();
            const double y = yOf(v);
            const double top = y - row.top() > h + 1 ? y - h - 1 : y + 2;
            Label label = Label::note(text, m_st.th.maxTokenText, QRectF(0, top, 0, h), x, 4);
            label.spans = &labels;
            label.take = true; // a group's words go elsewhere
            placeLabel(label);
        };
        if (cur > 0)
            label(std::max(m_xmin, line.front().x()), cur);
        // one step per pixel column at most: the value at the column's end, found by jumping
        // a restart comes before the arrivals of its tick (docs/SCENARIO.md section 14)
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
            // where no restart's words are, the longest that fits; noted at the plot's left:
            // what the storage is, not what happens in it
            Label label = Label::note({}, m_st.th.muted, r.maxToken, m_xmin, 6);
            label.forms = {QObject::tr("max_token stays 0: this storage does not check tokens"),
                           QObject::tr("max_token stays 0")};
            label.pad = 2;
            label.end = m_xmax;
            label.free = true;
            label.take = true;
            placeLabel(label);
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
};

} // namespace

struct StorageLanesPass::Helper
{
    PaintRecorder storages;
    QSemaphore done;
};

StorageLanesPass::StorageLanesPass() = default;

StorageLanesPass::~StorageLanesPass()
{
    wait();
}

void StorageLanesPass::wait()
{
    if (m_helper)
        m_helper->done.acquire();
    m_helper.reset();
}

void StorageLanesPass::beginPanel(const PaintContext &c, const TimelinePanel &panel,
                                  const Core::Trace &t)
{
    wait();
    const StorageLanesPainter p(c);
    if (!p.helped(panel, t))
        return;
    m_helper = std::make_unique<Helper>();
    p.recordOnHelper(panel, t, m_helper->storages, m_helper->done);
}

bool StorageLanesPass::recordsRegions() const
{
    return true;
}

void StorageLanesPass::paint(const PaintContext &c, const TimelinePanel &panel,
                             const Core::Trace &t, int)
{
    if (c.regions()) {
        StorageRestarts(c).recordRestarts(panel, t);
        StorageLanesPainter(c).recordArrivals(panel, t);
    }
    if (m_helper) {
        m_helper->done.acquire();
        c.recorder()->append(m_helper->storages);
        m_helper.reset();
        return;
    }
    if (c.narrowed())
        return; // the hit test's look: what it finds is recorded above, the picture is no one's
    StorageLanesPainter p(c);
    for (std::size_t s = 0; s < panel.storages.size(); ++s)
        p.paintStorage(int(s), panel.storages[s], t);
}

} // namespace Render
