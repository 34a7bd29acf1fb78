#include "views/tokenchart.h"

#include "document/comparison.h"

#include "document/changethrottle.h"
#include "document/document.h"
#include "outcomemarker.h"
#include "timecoordinates.h"
#include "views/eventlogmodel.h"
#include "viewstate.h"

#include "explain.h"
#include "runstate.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace {

// At most this many buckets across a trace: a million writes must not become a million
// points (QtCharts draws each one); within a bucket only the last change is kept.
constexpr double kBuckets = 6000;
// Scatter markers are far more expensive than line points; the chart is about 1,000 px wide.
constexpr double kScatterBuckets = 600;

double tokenY(const Core::Trace &t, const Core::Write &w)
{
    return double(t.tokenOf(w));
}

} // namespace

TokenChart::TokenChart(Document *doc, ViewState *state, QWidget *parent)
    : QChartView(parent), m_doc(doc), m_state(state)
{
    setFrameShape(QFrame::NoFrame);
    setRenderHint(QPainter::Antialiasing);
    setMouseTracking(true);

    auto *c = new QChart;
    c->setMargins({0, 0, 0, 0});
    c->layout()->setContentsMargins(0, 0, 0, 0);
    c->setBackgroundRoundness(0);
    // the legend is painted in drawForeground: the built-in one cannot show the marker shapes
    c->legend()->hide();
    c->setAnimationOptions(QChart::NoAnimation);
    setChart(c);
    // scene x must equal widget x (the time axis is shared with the timeline): anchor the
    // scene top-left, and let the chart shrink with the widget instead of scrolling inside it
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    c->setMinimumSize(120, 80);

    m_timeAxis = new QValueAxis(this);
    m_timeAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_timeAxis->setTickType(QValueAxis::TicksDynamic);
    m_timeAxis->setTickAnchor(0);
    m_tokenAxis = new QValueAxis(this);
    m_tokenAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_tokenAxis->setTitleText(tr("token"));
    // drawForeground names the tokens (tokenLabels): in the source's own form, and always the
    // lowest and the highest
    m_tokenAxis->setLabelsVisible(false);
    m_tokenAxis->setGridLineVisible(false);
    m_tokenAxis->setTitleVisible(false); // (it had no room left of hidden labels: drawn there)
    c->addAxis(m_timeAxis, Qt::AlignBottom);
    c->addAxis(m_tokenAxis, Qt::AlignLeft);

    m_grants = new QScatterSeries(this);
    m_grants->setName(tr("token granted"));
    m_grants->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_grants->setMarkerSize(9);
    m_grantPoints.series = m_grants;

    const QString names[4] = {tr("accepted"), tr("rejected"), tr("corrupted"), tr("locked out")};
    for (int r = 0; r < 4; ++r) {
        auto *s = new QScatterSeries(this);
        s->setName(names[r]);
        // a rectangle filled with a texture of the timeline's marker: the same shapes everywhere
        s->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        s->setMarkerSize(kMarker);
        s->setPen(QPen(Qt::transparent));
        m_outcomePoints[r].series = s;
    }

    new ChangeThrottle(doc, this, [this] { rebuild(); });
    connect(state, &ViewState::axisChanged, this, &TokenChart::syncAxis);
    connect(state, &ViewState::compareChanged, this, &TokenChart::rebuild);
    connect(state, &ViewState::compareSourceChanged, this, &TokenChart::rebuild);
    connect(state, &ViewState::playheadChanged, viewport(), [this] { viewport()->update(); });
    connect(state, &ViewState::selectionChanged, viewport(), [this] { viewport()->update(); });

    auto hook = [this](QScatterSeries *s) {
        connect(s, &QScatterSeries::hovered, this, [this, s](const QPointF &p, bool on) {
            const QString text = on ? describePoint(s, nearestPoint(s, p)) : QString();
            emit hoverTextChanged(text);
            if (on)
                QToolTip::showText(QCursor::pos(), text, this);
            else
                QToolTip::hideText();
        });
        connect(s, &QScatterSeries::clicked, this,
                [this, s](const QPointF &p) { activatePoint(s, nearestPoint(s, p)); });
    };
    hook(m_grants);
    for (Scatter &sc : m_outcomePoints)
        hook(sc.series);

    applyTheme();
    rebuild();
}

TokenChart::~TokenChart() = default;

QScatterSeries *TokenChart::outcomeSeries(Core::WriteResult result) const
{
    return m_outcomePoints[int(result)].series;
}

QLineSeries *TokenChart::storageSeries(int storage, bool unfenced) const
{
    const std::vector<QLineSeries *> &v = unfenced ? m_unfencedLines : m_storageLines;
    return storage >= 0 && size_t(storage) < v.size() ? v[size_t(storage)] : nullptr;
}

void TokenChart::setTheme(const Theme &theme)
{
    m_theme = theme;
    applyTheme();
    rebuild(); // line pens and marker textures depend on the theme
}

void TokenChart::setHeaderWidth(double px)
{
    if (qFuzzyCompare(px, m_headerWidth))
        return;
    m_headerWidth = px;
    syncAxis();
}

const Core::Trace &TokenChart::primaryTrace() const
{
    // compare mode: the top run (fenced, or the scenario's own source) is the main picture
    return m_state->compare() ? comparisonTopTrace(*m_doc, m_state->compareSource())
                              : m_doc->trace();
}

void TokenChart::applyTheme()
{
    QChart *c = chart();
    c->setBackgroundBrush(m_theme.background);
    c->setPlotAreaBackgroundVisible(false);
    c->legend()->setLabelColor(m_theme.foreground);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * m_theme.fontScale);
    c->legend()->setFont(small);
    for (QValueAxis *a : {m_timeAxis, m_tokenAxis}) {
        a->setLabelsColor(m_theme.foreground);
        a->setLabelsFont(small);
        a->setLinePenColor(m_theme.muted);
        a->setGridLineColor(
            m_theme.laneStripe.darker(m_theme.name == QLatin1String("dark") ? 70 : 108));
        a->setTitleBrush(m_theme.muted);
        a->setTitleFont(small);
    }
    m_grants->setColor(m_theme.lease);
    m_grants->setBorderColor(m_theme.background);
    for (int r = 0; r < 4; ++r) {
        const auto result = Core::WriteResult(r);
        m_outcomePoints[r].series->setBrush(
            QBrush(OutcomeMarker::image(Theme::shape(result), kMarker, m_theme.outcome(result),
                                        m_theme.outcome(result).darker(170))));
    }
    setBackgroundBrush(m_theme.background);
    viewport()->update();
}

void TokenChart::rebuild()
{
    QChart *c = chart();
    const Core::Trace &t = primaryTrace();
    // fenced / unfenced: the unfenced run's corruptions are overlaid. Two token sources are not:
    // their tokens do not share an axis (a counter's 3 against a random 64-bit number).
    const Comparison cmp = comparison(*m_doc, *m_state);
    const Core::Trace *unfenced = m_state->compare() && !cmp.bySource ? cmp.bottom.trace : nullptr;
    const Core::Scenario &s = m_doc->scenario();
    const double bucket =
        std::max(1.0, std::floor(double(std::max<Core::Tick>(t.horizon, 1)) / kBuckets));

    // Scatter points: one pass over the events, in time order. QtCharts makes a graphics item
    // of every scatter point, so a crowded series keeps one point per scatter bucket (the
    // highest token in it): a long run must not become 100,000 items.
    const double scatterBucket =
        std::max(1.0, std::floor(double(std::max<Core::Tick>(t.horizon, 1)) / kScatterBuckets));
    const auto addPoint = [&](Scatter &sc, QList<QPointF> &pts, double x, double y,
                              std::uint32_t ev) {
        if (!pts.isEmpty()) {
            const double last = pts.back().x();
            if (last == x ? pts.back().y() == y
                          : std::floor(last / scatterBucket) == std::floor(x / scatterBucket)) {
                if (y > pts.back().y()) {
                    pts.back() = {x, y};
                    sc.events.back() = ev;
                }
                return;
            }
        }
        pts.append({x, y});
        sc.events.push_back(ev);
    };
    QList<QPointF> grantPts;
    QList<QPointF> outcomePts[4];
    m_grantPoints.events.clear();
    m_grantPoints.trace = &t;
    for (Scatter &sc : m_outcomePoints) {
        sc.events.clear();
        sc.trace = &t;
    }
    for (std::uint32_t i = 0; i < t.events.size(); ++i) {
        const Core::Event &e = t.events[i];
        if (e.kind == Core::EventKind::Grant) {
            const Core::Grant &g = t.grants[e.ref];
            addPoint(m_grantPoints, grantPts, double(g.at), double(g.token), i);
        } else if (e.kind == Core::EventKind::WriteArrived) {
            const Core::Write &w = t.writes[e.ref];
            const int r = int(w.result);
            addPoint(m_outcomePoints[r], outcomePts[r], double(w.arrivedAt), tokenY(t, w), i);
        }
    }
    if (unfenced) {
        // the corruptions the unfenced run would suffer, on top of the fenced picture
        Scatter &sc = m_outcomePoints[int(Core::WriteResult::Corrupted)];
        sc.trace = unfenced;
        for (std::uint32_t i = 0; i < unfenced->events.size(); ++i) {
            const Core::Event &e = unfenced->events[i];
            if (e.kind != Core::EventKind::WriteArrived)
                continue;
            const Core::Write &w = unfenced->writes[e.ref];
            if (w.result == Core::WriteResult::Corrupted)
                addPoint(sc, outcomePts[int(Core::WriteResult::Corrupted)], double(w.arrivedAt),
                         tokenY(*unfenced, w), i);
        }
    }

    // every token the chart plots (the points as bucketed, a few thousand at most): the token
    // axis is fitted to them
    std::vector<double> levels;
    bool markerAtZero = false; // an untagged write: the axis must show 0
    for (const QList<QPointF> *pts :
         {&grantPts, &outcomePts[0], &outcomePts[1], &outcomePts[2], &outcomePts[3]})
        for (const QPointF &p : *pts) {
            levels.push_back(p.y());
            markerAtZero = markerAtZero || p.y() == 0;
        }

    // Step lines per storage, as core has them (core/runstate.h): max_token when fenced,
    // restarts included; the stored data's token when not; nothing for a compare-and-set
    // storage, which compares versions, not tokens (its lane shows them). Each line runs to
    // the end of the run.
    const auto stepLine = [&](const Core::Trace &tr, std::uint32_t st) {
        QList<QPointF> pts;
        if (Core::comparedGauge(s, tr, st) == Core::StorageGauge::Version)
            return pts;
        const Core::StorageLevel level(
            s, tr, st, tr.fencing ? Core::StorageGauge::MaxToken : Core::StorageGauge::StoredToken);
        const std::vector<Core::StorageLevel::Step> steps = level.steps(Core::Tick(bucket));
        double value = double(steps.front().level);
        pts.append({0, value});
        for (std::size_t i = 1; i < steps.size(); ++i) {
            const double x = double(steps[i].at);
            pts.append({x, value});
            value = double(steps[i].level);
            pts.append({x, value});
            levels.push_back(value);
        }
        pts.append({double(Core::runEnd(tr)), value});
        return pts;
    };
    const auto ensureLines = [&](std::vector<QLineSeries *> &lines, std::size_t n) {
        while (lines.size() > n) {
            // deleted later, after the item QtCharts deletes later: the item's destructor
            // still reaches its series
            if (c->series().contains(lines.back()))
                c->removeSeries(lines.back());
            lines.back()->deleteLater();
            lines.pop_back();
        }
        while (lines.size() < n) {
            auto *l = new QLineSeries(this);
            connect(l, &QLineSeries::hovered, this, [this, l](const QPointF &p, bool on) {
                const QString text =
                    on ? tr("%1 at t=%2").arg(l->name()).arg(std::llround(p.x())) : QString();
                emit hoverTextChanged(text);
                if (on)
                    QToolTip::showText(QCursor::pos(), text, this);
            });
            lines.push_back(l);
        }
    };
    const std::size_t ns = s.storages.size();
    ensureLines(m_storageLines, ns);
    ensureLines(m_unfencedLines, unfenced ? ns : 0);
    // Distinguish storages by dash pattern, not only by colour.
    const Qt::PenStyle dashes[] = {Qt::SolidLine, Qt::DashDotLine, Qt::DotLine};
    for (std::uint32_t st = 0; st < ns; ++st) {
        QLineSeries *l = m_storageLines[st];
        if (Core::comparedGauge(s, t, st) == Core::StorageGauge::Version)
            l->setName(tr("%1 compares versions: no max_token").arg(s.storages[st].name));
        else
            l->setName(t.fencing
                           ? tr("%1 max_token").arg(s.storages[st].name)
                           : tr("%1: token of stored data (fencing off)").arg(s.storages[st].name));
        l->setPen(QPen(m_theme.maxToken, 2.5 * m_theme.lineScale, dashes[st % 3]));
        l->replace(stepLine(t, st));
        if (unfenced) {
            QLineSeries *u = m_unfencedLines[st];
            u->setName(tr("%1 data token, unfenced").arg(s.storages[st].name));
            u->setPen(QPen(m_theme.corrupted, 2 * m_theme.lineScale, Qt::DashLine));
            u->replace(stepLine(*unfenced, st));
        }
    }
    m_grants->replace(grantPts);
    for (int r = 0; r < 4; ++r)
        m_outcomePoints[r].series->replace(outcomePts[r]);

    // Attach a series when it first has points: lines under markers, grants under outcomes.
    // One that has none later stays attached and draws nothing (the legend, drawn in
    // drawForeground, skips it). Removing it would not do: QtCharts hides a removed series'
    // item and deletes it later, but the next change of the series' pen shows it again, and
    // painting it then asks for the chart it no longer has (a crash).
    const auto attach = [&](QAbstractSeries *series, bool show) {
        if (show && !c->series().contains(series)) {
            c->addSeries(series);
            series->attachAxis(m_timeAxis);
            series->attachAxis(m_tokenAxis);
        }
    };
    for (QLineSeries *l : m_storageLines)
        attach(l, l->count() > 0);
    for (QLineSeries *l : m_unfencedLines)
        attach(l, l->count() > 0);
    attach(m_grants, !grantPts.isEmpty());
    for (int r = 0; r < 4; ++r)
        attach(m_outcomePoints[r].series, !outcomePts[r].isEmpty());
    fitTokens(std::move(levels), markerAtZero);
    updateTokenTicks();
    syncAxis();
    viewport()->update();
}

// Range and grid step change together. QtCharts lays the axis out after each call, so a new
// range with the old step (or the reverse) would briefly ask for a grid line per tick: a
// million graphics items for a long run. A fixed few ticks in between avoid that.
void TokenChart::setAxis(QValueAxis *axis, double min, double max, double interval)
{
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setTickCount(2);
    axis->setRange(min, max);
    axis->setTickAnchor(0);
    axis->setTickInterval(interval);
    axis->setTickType(QValueAxis::TicksDynamic);
}

void TokenChart::fitTokens(std::vector<double> levels, bool markerAtZero)
{
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    const auto firstPositive = std::upper_bound(levels.begin(), levels.end(), 0.0);
    const std::vector<double> positive(firstPositive, levels.end());
    // An axis from 0 squeezes tokens that differ little against their size into one line (33
    // and 34, 992 and 1000, zxids): then it runs from the lowest token to the highest, unless
    // an untagged write's marker sits at 0. Differences of a tenth of the highest token and
    // more read well from 0.
    double gap = 0;
    for (std::size_t i = 1; i < positive.size(); ++i)
        gap = i == 1 ? positive[i] - positive[i - 1] : std::min(gap, positive[i] - positive[i - 1]);
    m_tokenZoomed = !markerAtZero && positive.size() >= 2 && gap < 0.1 * positive.back();
    m_tokenLo = m_tokenZoomed ? positive.front() : 0;
    m_tokenHi = positive.empty() ? 1 : positive.back();
    m_tokenLevels.clear();
    for (const double v : levels)
        if (v >= m_tokenLo)
            m_tokenLevels.push_back(v);
    if (m_tokenLevels.empty() || m_tokenLevels.front() != m_tokenLo)
        m_tokenLevels.insert(m_tokenLevels.begin(), m_tokenLo);
}

void TokenChart::updateTokenTicks()
{
    // The plotted range and room for half a marker (and a pixel) beyond it at both ends, so a
    // marker at the lowest or highest token is drawn whole, never cut by the plot's edge.
    const double height = plotRect().height();
    const double room = kMarker / 2.0 + 2;
    const double span = std::max(1.0, m_tokenHi - m_tokenLo);
    const double total = height > 2 * room + 4 ? span * height / (height - 2 * room) : 3 * span;
    const double margin = room * total / std::max(1.0, height);
    // (the axis's own labels and grid are hidden: drawForeground writes each token in its
    // source's form; a fixed interval keeps QtCharts from laying out a grid line per token)
    setAxis(m_tokenAxis, m_tokenLo - margin, m_tokenHi + margin, total);
    m_tokenAxis->setTickAnchor(m_tokenLo - margin); // its only ticks are its two ends
}

QRectF TokenChart::plotRect() const
{
    // the widget's size, not the chart's: a fixed plot area from a taller moment would keep
    // the chart from shrinking with the widget
    const QSizeF size = viewport()->size();
    const double w = std::max(10.0, size.width() - m_headerWidth - kRight);
    const double h = std::max(10.0, size.height() - kTop - kBottom);
    return {m_headerWidth, kTop, w, h};
}

void TokenChart::syncAxis()
{
    const QRectF plot = plotRect();
    chart()->setPlotArea(plot);
    const double ppt = m_state->pixelsPerTick();
    const double first = m_state->firstTick();
    // the timeline ruler's step, so the grid lines fall on the same ticks
    setAxis(m_timeAxis, first, first + plot.width() / ppt,
            double(TimeCoordinates::rulerStep(ppt, 70)));
    viewport()->update();
}

void TokenChart::resizeEvent(QResizeEvent *event)
{
    // shrink the plot area first, so the chart's minimum size lets it follow the widget
    const double w = std::max(10.0, event->size().width() - m_headerWidth - kRight);
    const double h = std::max(10.0, event->size().height() - kTop - kBottom);
    chart()->setPlotArea(QRectF(m_headerWidth, kTop, w, h));
    QChartView::resizeEvent(event);
    if (event->size().height() != event->oldSize().height())
        updateTokenTicks();
    syncAxis();
}

void TokenChart::wheelEvent(QWheelEvent *event)
{
    // zoom like the timeline: the tick under the cursor stays put
    if (event->modifiers() & Qt::ControlModifier) {
        const double anchor = m_state->firstTick() + (event->position().x() - plotRect().left()) /
                                                         m_state->pixelsPerTick();
        m_state->zoomAround(anchor, event->angleDelta().y() > 0 ? 1.25 : 0.8);
        event->accept();
        return;
    }
    const double px =
        event->angleDelta().x() != 0 ? event->angleDelta().x() : event->angleDelta().y();
    m_state->scrollBy(-px / 120.0 * 60.0 / m_state->pixelsPerTick());
    event->accept();
}

const TokenChart::Scatter *TokenChart::scatterOf(const QAbstractSeries *series) const
{
    if (series == m_grants)
        return &m_grantPoints;
    for (const Scatter &sc : m_outcomePoints)
        if (sc.series == series)
            return &sc;
    return nullptr;
}

int TokenChart::nearestPoint(const QAbstractSeries *series, QPointF value) const
{
    const auto *xy = qobject_cast<const QXYSeries *>(series);
    if (!xy)
        return -1;
    const QList<QPointF> pts = xy->points();
    int best = -1;
    double bestD = 0;
    // points are in time order: look only near the x of the hovered value
    const auto it = std::lower_bound(pts.begin(), pts.end(), value.x() - 2,
                                     [](const QPointF &p, double x) { return p.x() < x; });
    for (auto jt = it; jt != pts.end() && jt->x() <= value.x() + 2; ++jt) {
        const double d = std::hypot(jt->x() - value.x(), jt->y() - value.y());
        if (best < 0 || d < bestD) {
            best = int(jt - pts.begin());
            bestD = d;
        }
    }
    return best;
}

std::uint32_t TokenChart::eventAt(const QAbstractSeries *series, int index) const
{
    const Scatter *sc = scatterOf(series);
    if (!sc || index < 0 || size_t(index) >= sc->events.size())
        return Core::kNone;
    const std::uint32_t e = sc->events[size_t(index)];
    // during a drag the points may be older than a trace cut back to a checkpoint
    return sc->trace && e < sc->trace->events.size() ? e : Core::kNone;
}

QString TokenChart::describePoint(const QAbstractSeries *series, int index) const
{
    const Scatter *sc = scatterOf(series);
    const std::uint32_t e = eventAt(series, index);
    if (!sc || e == Core::kNone || !sc->trace)
        return {};
    const Core::Trace &t = *sc->trace;
    const Core::Scenario &s = m_doc->scenario();
    const Core::Event &ev = t.events[e];
    QString text = tr("t=%1 %2: %3 — %4")
                       .arg(qulonglong(ev.tick))
                       .arg(s.clients[ev.client].name, EventLogModel::kindName(ev.kind),
                            Core::briefEvent(s, t, e));
    if (sc == &m_outcomePoints[int(Core::WriteResult::Corrupted)] && m_state->compare())
        text += tr(" (without fencing)");
    return text;
}

void TokenChart::activatePoint(const QAbstractSeries *series, int index)
{
    const Scatter *sc = scatterOf(series);
    const std::uint32_t e = eventAt(series, index);
    if (!sc || e == Core::kNone || !sc->trace)
        return;
    const Core::Event &ev = sc->trace->events[e];
    m_state->setSelection({int(ev.client), int(Core::actionOfEvent(*sc->trace, e))});
}
