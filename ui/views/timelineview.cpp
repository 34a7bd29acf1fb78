// TimelineView: construction, the options it paints with, zoom and painting. Its input is in
// parts of their own: timelineview_input.cpp (mouse, panning, wheel, keys) and
// timelineview_focus.cpp (keyboard focus stops, context menus); what a drag of a marker or an
// edge does to the scenario is TimelineDrag's (timelinedrag.h).

#include "views/timelineview.h"

#include "document/comparison.h"

#include "document/document.h"
#include "viewstate.h"

#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolTip>

#include <cmath>

using Hit = TimelineRenderer::Hit;

namespace {

constexpr double kZoomStep = 1.5; // Zoom In / Zoom Out

} // namespace

TimelineView::TimelineView(Document *doc, ViewState *state, QWidget *parent)
    : QWidget(parent), m_doc(doc), m_state(state), m_drag(doc)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setContextMenuPolicy(Qt::DefaultContextMenu);
    TimelineAccessible::installFactory();
    setAccessibleName(tr("Timeline"));
    updateAccessibleDescription();
    const auto findPauses = [this] {
        const Core::Scenario &s = m_doc->scenario();
        m_neverPauses.assign(s.clients.size(), true);
        for (std::size_t c = 0; c < s.clients.size(); ++c)
            for (const Core::Action &a : s.clients[c].actions)
                if (a.kind == Core::ActionKind::Pause) {
                    m_neverPauses[c] = false;
                    break;
                }
    };
    findPauses();
    connect(m_doc, &Document::changed, this, [this, findPauses] {
        findPauses();
        // the focused action or client may be gone (undo of an insert, another file)
        const Core::Scenario &s = m_doc->scenario();
        if (m_focus.isStorage() && !TimelineAccessible::isValid(s, m_focus))
            m_focus =
                s.storages.empty() ? FocusStop{} : FocusStop::ofStorage(int(s.storages.size()) - 1);
        else if (!m_focus.isNone() && !TimelineAccessible::isValid(s, m_focus))
            m_focus = s.clients.empty()
                          ? FocusStop{}
                          : FocusStop{std::min(m_focus.client, int(s.clients.size()) - 1), -1};
        updateAccessibleDescription(); // a nudge changes the words too
        updateGeometry();              // clients or storages may have come or gone
        update();
    });
    connect(m_state, &ViewState::axisChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &ViewState::selectionChanged, this, [this](const Selection &sel) {
        // the focus follows the selection (a click, the event log); when the selection goes
        // (Esc, Delete) the focus stays on the lane it was in. A selection made elsewhere (the
        // event log, the chart, the one the window opens with) moves the focus without showing
        // it: the arrows go on stepping the playhead until Tab or a click puts the focus here.
        if (sel.isValid()) {
            if (FocusStop{sel.client, sel.action} != m_focus)
                m_focusShown = false;
            m_focus = {sel.client, sel.action};
        } else if (m_focus.isAction())
            m_focus = {m_focus.client, -1};
        updateAccessibleDescription();
        update();
    });
    connect(m_state, &ViewState::playheadChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &ViewState::compareChanged, this, [this] {
        updateGeometry();
        update();
    });
    connect(m_state, &ViewState::compareSourceChanged, this, qOverload<>(&QWidget::update));
}

void TimelineView::setTheme(const Theme &theme)
{
    m_theme = theme;
    updateGeometry();
    update();
}

Core::Tick TimelineView::previewThrough() const
{
    // what is on screen, and as much again: a write sent on screen usually lands there too
    const TimeAxis a = axis();
    const double last = a.lastTickAt(std::max(0.0, width() - a.left));
    const double through = std::ceil(last + (last - a.firstTick));
    return through >= double(Core::kMaxFileInteger) ? Core::kForever
                                                    : Core::Tick(std::max(0.0, through));
}

TimeAxis TimelineView::axis() const
{
    TimeAxis a;
    a.firstTick = m_state->firstTick();
    a.pixelsPerTick = m_state->pixelsPerTick();
    a.left = TimelineRenderer::headerWidth(options());
    return a;
}

TimelineRenderer::Options TimelineView::options() const
{
    TimelineRenderer::Options o;
    o.theme = m_theme;
    o.playhead = m_state->playhead();
    o.selection = m_state->selection();
    o.compare = m_state->compare();
    if (o.compare) {
        o.collapsedPauses = m_neverPauses; // two stacks of lanes: leave out empty pause rows
        if (m_state->compareSource() || m_doc->comparedRuns()) {
            const Comparison cmp = comparison(*m_doc, *m_state);
            o.compareTopLabel = cmp.top.title;
            o.compareBottomLabel = cmp.bottom.title;
            o.bottomScenario = cmp.bottom.scenario;
            if (cmp.top.scenario != &m_doc->scenario())
                o.topScenario = cmp.top.scenario;
        }
    }
    o.playheadBefore = m_state->playheadBefore();
    o.hideFuture = m_state->hidesFuture() && m_state->hasPlayhead();
    // taller than its scroll area: the lock and storage lanes end where the visible part does
    const QRect visible = visibleRegion().boundingRect();
    if (!visible.isEmpty() && visible.bottom() + 1 < height()) {
        o.pinBottom = visible.bottom() + 1;
        o.pinTop = visible.top();
    }
    if (m_hover.isItem() && !m_drag.isActive()) {
        o.hoverClient = m_hover.client;
        o.hoverAction = m_hover.action;
    }
    if (hasFocus() && m_focusShown && TimelineAccessible::isValid(m_doc->scenario(), m_focus)) {
        o.focusClient = m_focus.client;
        o.focusAction = m_focus.action;
        o.focusStorage = m_focus.storage;
    }
    return o;
}

TimelineLayout TimelineView::currentLayout() const
{
    return TimelineRenderer::layout(m_doc->scenario(), options(), QRectF(rect()));
}

QSize TimelineView::sizeHint() const
{
    return TimelineRenderer::preferredSize(m_doc->scenario(), options(), 900).toSize();
}

QSize TimelineView::minimumSizeHint() const
{
    return QSize(320, 160);
}

const Core::Trace &TimelineView::topTrace() const
{
    return shownTrace(*m_doc, *m_state,
                      m_state->compare() ? comparisonTopTrace(*m_doc, m_state->compareSource())
                                         : m_doc->trace());
}

const Core::Trace &TimelineView::bottomTrace() const
{
    return shownTrace(*m_doc, *m_state,
                      m_state->compare() ? comparisonBottomTrace(*m_doc, m_state->compareSource())
                                         : m_doc->trace());
}

QString TimelineView::describeHit(const Hit &hit) const
{
    // the bottom panel under another token source speaks that source's words
    const Core::Scenario &s = hit.bottomPanel && m_state->compare() &&
                                      (m_state->compareSource() || m_doc->comparedRuns())
                                  ? *comparison(*m_doc, *m_state).bottom.scenario
                                  : m_doc->scenario();
    return TimelineRenderer::describe(s, hit.bottomPanel ? bottomTrace() : topTrace(), hit);
}

Hit TimelineView::hitAt(QPointF pos) const
{
    return m_renderer.hitTest(m_doc->scenario(), topTrace(), axis(), QRectF(rect()), options(), pos,
                              &bottomTrace());
}

// --- zoom --------------------------------------------------------------------------------

void TimelineView::fitToWindow()
{
    // a margin on both sides so labels at the first and last tick stay readable
    const double leftMargin = 36 * m_theme.fontScale;
    const double rightMargin = 24 * m_theme.fontScale;
    const double plotWidth =
        width() - TimelineRenderer::headerWidth(options()) - leftMargin - rightMargin;
    if (plotWidth <= 10)
        return;
    const Core::Trace &t = m_doc->trace();
    const double from = m_fitRange ? m_fitRange->first : TimelineRenderer::fitFrom(t);
    const double to = m_fitRange ? m_fitRange->second : TimelineRenderer::fitTo(t);
    const double ppt = plotWidth / std::max(1.0, to - from);
    m_state->setAxis(from - leftMargin / ppt, ppt);
    m_fittedAxis = std::make_pair(m_state->firstTick(), m_state->pixelsPerTick());
}

void TimelineView::setFitRange(std::optional<std::pair<double, double>> range)
{
    m_fitRange = range;
}

void TimelineView::setWriteQuestions(bool predict, bool ask)
{
    m_predictEntry = predict;
    m_askEntry = ask;
}

void TimelineView::zoomIn()
{
    const TimelineLayout l = currentLayout();
    zoomBy(kZoomStep, l.plot.center().x());
}

void TimelineView::zoomOut()
{
    const TimelineLayout l = currentLayout();
    zoomBy(1 / kZoomStep, l.plot.center().x());
}

void TimelineView::zoomBy(double factor, double anchorX)
{
    m_state->zoomAround(axis().xToTick(anchorX), factor);
}

// --- painting ----------------------------------------------------------------------------

void TimelineView::paintEvent(QPaintEvent *event)
{
    const TimelineRenderer::Options o = options();
    // The pinned lanes sit where the visible part ends: when that moved, a repaint of only
    // part of the widget (a strip a scroll or a resize exposed) would leave their old copy
    // standing in the rest. Then the whole widget is painted again.
    if (o.pinBottom != m_paintedPinBottom) {
        m_paintedPinBottom = o.pinBottom;
        if (!event->region().contains(visibleRegion().boundingRect()))
            update();
    }
    QPainter p(this);
    const bool compare = m_state->compare();
    m_renderer.paint(&p, QRectF(rect()), m_doc->scenario(), topTrace(),
                     compare ? &bottomTrace() : nullptr, axis(), o);
    const QRectF box = dragLabelRect();
    if (!box.isEmpty()) {
        // the value being dragged, next to the cursor
        p.setFont(dragLabelFont());
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(m_theme.foreground, 1));
        p.setBrush(m_theme.background);
        p.drawRoundedRect(box, 5, 5);
        p.setPen(m_theme.foreground);
        p.drawText(box, Qt::AlignCenter, m_drag.label());
    }
    if (hasFocus()) {
        // the widget's own focus frame, as the desktop draws it around any focused control
        p.setRenderHint(QPainter::Antialiasing, false);
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
    }
}

QFont TimelineView::dragLabelFont() const
{
    QFont f = font();
    f.setPixelSize(int(std::lround(13 * m_theme.fontScale)));
    f.setBold(true);
    return f;
}

QRectF TimelineView::dragLabelRect() const
{
    const QString label = m_drag.label();
    if (label.isEmpty())
        return {};
    const QFontMetricsF fm(dragLabelFont());
    const double w = fm.horizontalAdvance(label) + 14;
    const double h = fm.height() + 8;
    const QPointF at = m_drag.lastPos();
    // A marker's own label sits in the row above it ("write 'A' with token 1"): the value goes
    // below the cursor there, so it never covers the label of what is being dragged; elsewhere
    // (pause edges, lease ends, delay heads) above it, clear of the bar under the cursor.
    const Hit::Part part = m_drag.hit().part;
    const bool below =
        part == Hit::AcquireMarker || part == Hit::WriteMarker || part == Hit::ReleaseMarker;
    QRectF box(at.x() + 14, below ? at.y() + 16 : at.y() - h - 10, w, h);
    if (box.right() > width() - 2)
        box.moveRight(at.x() - 14);
    if (box.top() < 2)
        box.moveTop(at.y() + 18);
    if (box.bottom() > height() - 2)
        box.moveBottom(at.y() - 10);
    return box;
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Still as the last fit left it (nobody zoomed or scrolled since): the whole run stays in
    // view as the window settles (docks sized after the first show) or is resized.
    if (m_fittedAxis && event->size().width() != event->oldSize().width() &&
        m_state->firstTick() == m_fittedAxis->first &&
        m_state->pixelsPerTick() == m_fittedAxis->second)
        fitToWindow();
}

void TimelineView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_fittedOnce) {
        m_fittedOnce = true;
        fitToWindow();
    }
}
