// Over ~600 lines because it is one widget's whole input: mouse drags, wheel, keys and focus,
// context menu, each a few small functions around the same hit test and axis.

#include "timelineview.h"

#include "comparison.h"

#include "document.h"
#include "editcommands.h"
#include "lanemenus.h"
#include "viewstate.h"

#include <QContextMenuEvent>
#include <QFocusEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolTip>
#include <QUndoStack>
#include <QWheelEvent>

#include <cmath>

using Hit = TimelineRenderer::Hit;

namespace {

// The command pushed when a drag ends. The live preview already left the scenario in its new
// state, so the push must not apply (and re-simulate) it a second time; undo and later redos
// behave like any SetAction.
class FinishedDrag : public EditCommands::SetAction
{
public:
    using EditCommands::SetAction::SetAction;
    void redo() override
    {
        if (m_applied) {
            m_applied = false;
            return;
        }
        EditCommands::SetAction::redo();
    }

private:
    bool m_applied = true;
};

// value + delta, kept at or above min (ticks and lengths never go below 0 or 1)
Core::Tick shifted(Core::Tick value, qint64 delta, Core::Tick min)
{
    if (delta < 0) {
        const Core::Tick d = Core::Tick(-delta);
        return value >= min + d ? value - d : min;
    }
    return std::max(min, std::min(value + Core::Tick(delta), Core::kMaxFileInteger));
}

QString dragText(Hit::Part part)
{
    switch (part) {
    case Hit::PauseBody:
        return TimelineView::tr("Move pause");
    case Hit::PauseStart:
    case Hit::PauseEnd:
        return TimelineView::tr("Resize pause");
    case Hit::LeaseEnd:
        return TimelineView::tr("Change lease ttl");
    case Hit::AcquireMarker:
        return TimelineView::tr("Move acquire");
    case Hit::WriteMarker:
        return TimelineView::tr("Move write");
    case Hit::DelayHead:
        return TimelineView::tr("Change network delay");
    case Hit::ReleaseMarker:
        return TimelineView::tr("Move release");
    case Hit::CheckSend:
        return TimelineView::tr("Change gap");
    default:
        return {};
    }
}

constexpr double kZoomStep = 1.5;
constexpr double kWheelZoomPerNotch = 1.25;
constexpr double kWheelPanPx = 80; // pixels scrolled per wheel notch

} // namespace

TimelineView::TimelineView(Document *doc, ViewState *state, QWidget *parent)
    : QWidget(parent), m_doc(doc), m_state(state)
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
        if (!m_focus.isNone() && !TimelineAccessible::isValid(s, m_focus))
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

void TimelineView::setPlayheadBefore(bool on)
{
    if (m_playheadBefore == on)
        return;
    m_playheadBefore = on;
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
        if (m_state->compareSource()) {
            const Comparison cmp = comparison(*m_doc, *m_state);
            o.compareTopLabel = cmp.top.title;
            o.compareBottomLabel = cmp.bottom.title;
            o.bottomScenario = cmp.bottom.scenario;
        }
    }
    o.playheadBefore = m_playheadBefore && m_state->hasPlayhead();
    // taller than its scroll area: the lock and storage lanes end where the visible part does
    const QRect visible = visibleRegion().boundingRect();
    if (!visible.isEmpty() && visible.bottom() + 1 < height())
        o.pinBottom = visible.bottom() + 1;
    if (m_hover.isItem() && !m_drag.active) {
        o.hoverClient = m_hover.client;
        o.hoverAction = m_hover.action;
    }
    if (hasFocus() && m_focusShown && TimelineAccessible::isValid(m_doc->scenario(), m_focus)) {
        o.focusClient = m_focus.client;
        o.focusAction = m_focus.action;
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
    return m_state->compare() ? comparisonTopTrace(*m_doc, m_state->compareSource()) : m_doc->trace();
}

const Core::Trace &TimelineView::bottomTrace() const
{
    return m_state->compare() ? comparisonBottomTrace(*m_doc, m_state->compareSource())
                              : m_doc->trace();
}

QString TimelineView::describeHit(const Hit &hit) const
{
    // the bottom panel under another token source speaks that source's words
    const Core::Scenario &s = hit.bottomPanel && m_state->compare() && m_state->compareSource()
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
    const double from = TimelineRenderer::fitFrom(t);
    const double to = TimelineRenderer::fitTo(t);
    const double ppt = plotWidth / std::max(1.0, to - from);
    m_state->setAxis(from - leftMargin / ppt, ppt);
    m_fittedAxis = std::make_pair(m_state->firstTick(), m_state->pixelsPerTick());
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

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const bool compare = m_state->compare();
    m_renderer.paint(&p, QRectF(rect()), m_doc->scenario(), topTrace(),
                     compare ? &bottomTrace() : nullptr, axis(), options());
    const QRectF box = dragLabelRect();
    if (!box.isEmpty()) {
        // the value being dragged, next to the cursor
        p.setFont(dragLabelFont());
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(m_theme.foreground, 1));
        p.setBrush(m_theme.background);
        p.drawRoundedRect(box, 5, 5);
        p.setPen(m_theme.foreground);
        p.drawText(box, Qt::AlignCenter, m_drag.label);
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
    if (!m_drag.active || !m_drag.moved || m_drag.label.isEmpty())
        return {};
    const QFontMetricsF fm(dragLabelFont());
    const double w = fm.horizontalAdvance(m_drag.label) + 14;
    const double h = fm.height() + 8;
    const QPointF at = m_drag.lastPos;
    // A marker's own label sits in the row above it ("write 'A' with token 1"): the value goes
    // below the cursor there, so it never covers the label of what is being dragged; elsewhere
    // (pause edges, lease ends, delay heads) above it, clear of the bar under the cursor.
    const Hit::Part part = m_drag.hit.part;
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

// --- dragging ----------------------------------------------------------------------------

Core::Action TimelineView::draggedAction(QPointF pos) const
{
    // whole ticks only: the drag moves by a whole number of ticks from where it was grabbed
    const qint64 delta =
        qint64(std::llround((pos.x() - m_drag.pressPos.x()) / m_state->pixelsPerTick()));
    Core::Action a = m_drag.before;
    switch (m_drag.hit.part) {
    case Hit::PauseBody:
    case Hit::AcquireMarker:
    case Hit::WriteMarker:
    case Hit::ReleaseMarker:
        a.at = shifted(a.at, delta, 0);
        break;
    case Hit::PauseStart: {
        // the end stays put; at least one tick of pause remains
        const Core::Tick end = a.at + a.amount;
        a.at = std::min(shifted(a.at, delta, 0), end - 1);
        a.amount = end - a.at;
        break;
    }
    case Hit::PauseEnd:
    case Hit::LeaseEnd:
        a.amount = shifted(a.amount, delta, 1); // pause length and ttl stay >= 1
        break;
    case Hit::DelayHead:
        a.amount = shifted(a.amount, delta, 0);
        break;
    case Hit::CheckSend:
        // the check stays where it is; the send moves (a pause inside the gap is the pitfall)
        a.gap = shifted(a.gap, delta, 0);
        break;
    default:
        break;
    }
    return a;
}

void TimelineView::updateDrag(QPointF pos)
{
    m_drag.lastPos = pos;
    if (!m_drag.moved && std::abs(pos.x() - m_drag.pressPos.x()) < 3 &&
        std::abs(pos.y() - m_drag.pressPos.y()) < 3)
        return;
    m_drag.moved = true;
    const Core::Action a = draggedAction(pos);
    const int c = m_drag.hit.client;
    const int i = m_drag.hit.action;
    switch (m_drag.hit.part) {
    case Hit::PauseBody:
        m_drag.label = tr("pause %1 → %2").arg(a.at).arg(a.at + a.amount);
        break;
    case Hit::PauseStart:
        m_drag.label = tr("starts at %1 (%2 ticks)").arg(a.at).arg(a.amount);
        break;
    case Hit::PauseEnd:
        m_drag.label = tr("ends at %1 (%2 ticks)").arg(a.at + a.amount).arg(a.amount);
        break;
    case Hit::LeaseEnd:
        m_drag.label = tr("ttl %1: expires at %2")
                           .arg(a.amount)
                           .arg(m_drag.leaseEnd - m_drag.before.amount + a.amount);
        break;
    case Hit::DelayHead:
        m_drag.label = tr("delay %1").arg(a.amount);
        break;
    case Hit::CheckSend:
        m_drag.label = tr("gap %1").arg(a.gap);
        break;
    default:
        m_drag.label = tr("at %1").arg(a.at);
        break;
    }
    const Core::Action &current = m_doc->scenario().clients[size_t(c)].actions[size_t(i)];
    if (current != a)
        m_doc->setAction(c, i, a, previewThrough());
    update();
}

void TimelineView::finishDrag()
{
    const int c = m_drag.hit.client;
    const int i = m_drag.hit.action;
    const Core::Action after = m_doc->scenario().clients[size_t(c)].actions[size_t(i)];
    const Core::Action before = m_drag.before;
    const Hit::Part part = m_drag.hit.part;
    m_drag = Drag();
    if (after != before)
        m_doc->undoStack()->push(new FinishedDrag(
            m_doc, c, i, before, after,
            // a read's marker is found like a write's
            part == Hit::WriteMarker && before.kind == Core::ActionKind::Read ? tr("Move read")
                                                                              : dragText(part)));
    m_doc->endPreview();
    update();
}

void TimelineView::cancelDrag()
{
    if (m_drag.active) {
        const int c = m_drag.hit.client;
        const int i = m_drag.hit.action;
        const Core::Action before = m_drag.before;
        m_drag = Drag();
        if (m_doc->scenario().clients[size_t(c)].actions[size_t(i)] != before)
            m_doc->setAction(c, i, before);
    } else if (m_drag.panning) {
        const double first = m_drag.pressFirstTick;
        m_drag = Drag();
        m_state->setAxis(first, m_state->pixelsPerTick());
    }
    unsetCursor();
    update();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    setFocus(Qt::MouseFocusReason);
    const QPointF pos = event->position();
    const Hit hit = hitAt(pos);
    m_drag = Drag();
    m_drag.pressPos = pos;
    m_drag.lastPos = pos;
    m_drag.pressFirstTick = m_state->firstTick();
    m_drag.hit = hit;
    if (hit.isItem() && hit.client >= 0 && hit.action >= 0) {
        m_state->setSelection({hit.client, hit.action});
        m_focusShown = true; // clicked here: the arrows nudge it
    }
    if (hit.isDraggable() && hit.client >= 0 && hit.action >= 0) {
        m_drag.active = true;
        m_drag.before = m_doc->scenario().clients[size_t(hit.client)].actions[size_t(hit.action)];
        if (hit.part == Hit::LeaseEnd) {
            const Core::Trace &t = hit.bottomPanel ? bottomTrace() : topTrace();
            for (const Core::Grant &g : t.grants) // rare: one press, not per frame
                if (g.client == std::uint32_t(hit.client) && g.action == std::uint32_t(hit.action))
                    m_drag.leaseEnd = g.expires;
        }
        setCursor(hit.part == Hit::PauseBody || hit.part == Hit::AcquireMarker ||
                          hit.part == Hit::WriteMarker || hit.part == Hit::ReleaseMarker
                      ? Qt::ClosedHandCursor
                      : Qt::SizeHorCursor);
        QToolTip::hideText();
    } else if (!hit.isItem() && hit.part != Hit::LaneHeader) {
        m_drag.panning = true; // empty space: drag pans, a click clears the selection
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    if (m_drag.active) {
        updateDrag(pos);
        return;
    }
    if (m_drag.panning && (event->buttons() & Qt::LeftButton)) {
        const double dx = pos.x() - m_drag.pressPos.x();
        if (m_drag.moved || std::abs(dx) >= 3) {
            m_drag.moved = true;
            setCursor(Qt::ClosedHandCursor);
            m_state->setAxis(m_drag.pressFirstTick - dx / m_state->pixelsPerTick(),
                             m_state->pixelsPerTick());
        }
        return;
    }
    updateHover(pos);
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    if (m_drag.active) {
        if (m_drag.moved)
            updateDrag(event->position());
        finishDrag();
    } else if (m_drag.panning) {
        const bool moved = m_drag.moved;
        m_drag = Drag();
        if (!moved)
            m_state->clearSelection();
    } else {
        m_drag = Drag();
    }
    updateHover(event->position());
    event->accept();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    // a double click on empty space fits the whole run
    const Hit hit = hitAt(event->position());
    if (!hit.isItem() && hit.part != Hit::LaneHeader && event->button() == Qt::LeftButton) {
        fitToWindow();
        return;
    }
    QWidget::mouseDoubleClickEvent(event);
}

void TimelineView::updateHover(QPointF pos)
{
    const Hit hit = hitAt(pos);
    updateCursor(hit);
    if (hit.part != m_hover.part || hit.client != m_hover.client || hit.action != m_hover.action ||
        hit.bottomPanel != m_hover.bottomPanel || hit.ref != m_hover.ref) {
        const bool repaint = hit.isItem() || m_hover.isItem();
        m_hover = hit;
        if (repaint)
            update();
        emit hoverTextChanged(hit.isItem() ? describeHit(hit) : QString());
    }
}

void TimelineView::updateCursor(const Hit &hit)
{
    switch (hit.part) {
    case Hit::PauseStart:
    case Hit::PauseEnd:
    case Hit::LeaseEnd:
    case Hit::DelayHead:
    case Hit::CheckSend:
        setCursor(Qt::SizeHorCursor);
        break;
    case Hit::PauseBody:
    case Hit::AcquireMarker:
    case Hit::WriteMarker:
    case Hit::ReleaseMarker:
        setCursor(Qt::OpenHandCursor);
        break;
    case Hit::StorageWrite:
    case Hit::LockSegment:
    case Hit::LaneHeader:
        setCursor(Qt::PointingHandCursor);
        break;
    case Hit::CheckBracket:
    case Hit::Pitfall:
    case Hit::OwnLeaseEnd:
    case Hit::Restart:
    case Hit::None:
        unsetCursor(); // hover text only
        break;
    }
}

void TimelineView::leaveEvent(QEvent *event)
{
    if (m_hover.part != Hit::None) {
        m_hover = Hit();
        update();
        emit hoverTextChanged({});
    }
    QWidget::leaveEvent(event);
}

bool TimelineView::event(QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride && claimsKey(static_cast<QKeyEvent *>(event))) {
        // Left and Right step the playhead window-wide; on a focused action they nudge it
        event->accept();
        return true;
    }
    if (event->type() == QEvent::ToolTip) {
        // built on demand: only when the tooltip is actually asked for
        auto *help = static_cast<QHelpEvent *>(event);
        const Hit hit = hitAt(help->pos());
        QString text;
        if (!m_drag.active)
            text = describeHit(hit);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

// --- wheel and keys ------------------------------------------------------------------------

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint d = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        const double notches = d.y() / 120.0;
        if (notches != 0)
            zoomBy(std::pow(kWheelZoomPerNotch, notches), event->position().x());
    } else {
        // plain wheel and shift+wheel (often delivered as horizontal) both pan in time
        const int delta = d.x() != 0 ? d.x() : d.y();
        m_state->scrollBy(-delta / 120.0 * kWheelPanPx / m_state->pixelsPerTick());
    }
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Escape:
        if (m_drag.active || m_drag.panning)
            cancelDrag();
        else
            m_state->clearSelection();
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        return;
    case Qt::Key_Minus:
        zoomOut();
        return;
    case Qt::Key_Home:
        fitToWindow();
        return;
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        if (!m_drag.active) {
            removeSelected();
            return;
        }
        break;
    case Qt::Key_Left:
    case Qt::Key_Right:
        if (claimsKey(event)) {
            const qint64 step = (event->modifiers() & Qt::ShiftModifier) ? 10 : 1;
            nudge(event->key() == Qt::Key_Left ? -step : step);
            return;
        }
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (claimsKey(event)) {
            emit inspectRequested();
            return;
        }
        break;
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
        // Ctrl+Tab leaves the timeline at once, however many actions are left to walk
        if (event->modifiers() & Qt::ControlModifier) {
            const bool back =
                event->key() == Qt::Key_Backtab || (event->modifiers() & Qt::ShiftModifier);
            QWidget::focusNextPrevChild(!back);
            return;
        }
        break;
    default:
        break;
    }
    QWidget::keyPressEvent(event);
}

bool TimelineView::claimsKey(const QKeyEvent *event) const
{
    if (m_drag.active || !m_focusShown || !m_focus.isAction() ||
        !TimelineAccessible::isValid(m_doc->scenario(), m_focus))
        return false;
    const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
        return mods == Qt::NoModifier || mods == Qt::ShiftModifier;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return mods == Qt::NoModifier;
    default:
        return false;
    }
}

void TimelineView::nudge(qint64 ticks)
{
    const int c = m_focus.client;
    const int i = m_focus.action;
    const Core::Action &current = m_doc->scenario().clients[size_t(c)].actions[size_t(i)];
    Core::Action after = current;
    after.at = shifted(after.at, ticks, 0);
    if (after == current)
        return; // already at tick 0
    // mergeable: a run of nudges of this action is one undo step
    m_doc->undoStack()->push(EditCommands::setAction(
        m_doc, c, i, after, tr("Nudge %1").arg(Core::toString(after.kind)), true));
    revealFocus();
}

// --- keyboard focus ------------------------------------------------------------------------

const Core::Scenario &TimelineView::scenario() const
{
    return m_doc->scenario();
}

QRectF TimelineView::stopRect(FocusStop stop) const
{
    const Core::Scenario &s = m_doc->scenario();
    if (!TimelineAccessible::isValid(s, stop))
        return {};
    const TimelineLayout l = currentLayout();
    if (l.panels.empty() || size_t(stop.client) >= l.panels.front().clients.size())
        return {};
    if (stop.isLane()) {
        const ClientLaneRects &r = l.panels.front().clients[size_t(stop.client)];
        return r.header.united(r.lane);
    }
    // the box the focus ring is drawn around
    return TimelineRenderer::focusRingRect(s, topTrace(), axis(), l, l.panels.front(), options(),
                                           stop.client, stop.action);
}

void TimelineView::setFocusStop(FocusStop stop)
{
    if (!TimelineAccessible::isValid(m_doc->scenario(), stop))
        stop = {};
    m_focus = stop;
    m_focusShown = !stop.isNone();
    // the selection follows; its signal leaves m_focus as it is (see the constructor)
    if (stop.isAction())
        m_state->setSelection({stop.client, stop.action});
    else
        m_state->clearSelection();
    revealFocus();
    updateAccessibleDescription();
    TimelineAccessible::notifyFocus(this, m_focus);
    update();
}

bool TimelineView::focusNextPrevChild(bool next)
{
    if (hasFocus()) {
        const FocusStop to = TimelineAccessible::next(m_doc->scenario(), m_focus, next);
        if (!to.isNone()) {
            setFocusStop(to);
            return true;
        }
    }
    return QWidget::focusNextPrevChild(next); // past the last stop: on to the next widget
}

void TimelineView::focusInEvent(QFocusEvent *event)
{
    QWidget::focusInEvent(event);
    // Tab comes in on the selected action (picked in the event log, say), else at the first
    // stop, Shift+Tab at the last; a click or a window switch keeps what was focused
    if (event->reason() == Qt::TabFocusReason || event->reason() == Qt::BacktabFocusReason) {
        const Selection sel = m_state->selection();
        setFocusStop(sel.isValid()
                         ? FocusStop{sel.client, sel.action}
                         : TimelineAccessible::next(m_doc->scenario(), {},
                                                    event->reason() == Qt::TabFocusReason));
    }
    updateAccessibleDescription();
    update();
}

void TimelineView::focusOutEvent(QFocusEvent *event)
{
    QWidget::focusOutEvent(event);
    update(); // the focus ring and frame go
}

void TimelineView::revealFocus()
{
    const Core::Scenario &s = m_doc->scenario();
    if (!TimelineAccessible::isValid(s, m_focus))
        return;
    const TimelineLayout l = currentLayout();
    if (m_focus.isAction()) {
        // time: bring the action on screen, a third in from the left, when it is off it
        const Core::Tick at = s.clients[size_t(m_focus.client)].actions[size_t(m_focus.action)].at;
        const TimeAxis a = axis();
        const double x = a.tickToX(double(at));
        const double margin = 24 * m_theme.fontScale;
        if (x < l.plot.left() + margin || x > l.plot.right() - margin)
            m_state->setAxis(double(at) - l.plot.width() / 3 / a.pixelsPerTick, a.pixelsPerTick);
    }
    // height: the lane into view when the timeline scrolls vertically
    QWidget *viewport = parentWidget();
    auto *area = viewport ? qobject_cast<QScrollArea *>(viewport->parentWidget()) : nullptr;
    if (area && !l.panels.empty() && size_t(m_focus.client) < l.panels.front().clients.size()) {
        const QRectF lane = l.panels.front().clients[size_t(m_focus.client)].header;
        area->ensureVisible(int(lane.center().x()), int(lane.center().y()), 0,
                            int(lane.height() / 2) + 4);
    }
}

QPointF TimelineView::keyboardMenuPoint() const
{
    if (m_focus.isLane()) {
        const TimelineLayout l = currentLayout();
        if (!l.panels.empty() && size_t(m_focus.client) < l.panels.front().clients.size())
            return l.panels.front().clients[size_t(m_focus.client)].header.center();
    }
    return stopRect(m_focus).center();
}

QVariant TimelineView::inputMethodQuery(Qt::InputMethodQuery query) const
{
    // where the window puts a keyboard-opened context menu: at the focused item
    if (query == Qt::ImCursorRectangle && TimelineAccessible::isValid(m_doc->scenario(), m_focus))
        return QRectF(keyboardMenuPoint(), QSizeF(1, 1)).toRect();
    return QWidget::inputMethodQuery(query);
}

void TimelineView::updateAccessibleDescription()
{
    QString text = TimelineAccessible::describe(m_doc->scenario(), m_focus);
    if (text.isEmpty())
        text = tr("Lanes of clients, lock service and storages over time. Tab walks through "
                  "the lanes and their actions; Left and Right move the focused action.");
    if (text != accessibleDescription())
        setAccessibleDescription(text);
}

void TimelineView::removeSelected()
{
    EditCommands::removeSelectedAction(m_doc, m_state);
}

// --- context menu --------------------------------------------------------------------------

void TimelineView::contextMenuEvent(QContextMenuEvent *event)
{
    if (m_drag.active)
        return;
    QPointF pos = event->pos();
    if (event->reason() == QContextMenuEvent::Keyboard) {
        // the Menu key or Shift+F10: the menu of the focused lane header or action
        if (!TimelineAccessible::isValid(m_doc->scenario(), m_focus)) {
            QWidget::contextMenuEvent(event);
            return;
        }
        pos = keyboardMenuPoint();
    }
    const QPoint globalPos = mapToGlobal(pos.toPoint());
    const Hit hit = hitAt(pos);
    const Core::Scenario &s = m_doc->scenario();
    QMenu menu(this);
    // a storage lane (header or body): its check, durability and restarts (section 12)
    const int storage = hit.lane - int(s.clients.size()) - 1;
    if (hit.lane > int(s.clients.size()) && storage < int(s.storages.size()))
        addStorageEntries(&menu, storage, pos);
    if (hit.client < 0 || size_t(hit.client) >= s.clients.size()) {
        if (!menu.isEmpty())
            menu.exec(globalPos);
        else
            QWidget::contextMenuEvent(event);
        return;
    }
    const int c = hit.client;
    const QString name = s.clients[size_t(c)].name;
    if (hit.part == Hit::LaneHeader) {
        QAction *remove = menu.addAction(tr("Remove client %1").arg(name));
        remove->setEnabled(s.clients.size() > 1);
        connect(remove, &QAction::triggered, this, [this, c] {
            m_state->clearSelection();
            m_doc->undoStack()->push(EditCommands::removeClient(m_doc, c));
        });
        // an unfenced path (a background job, an old code path): its writes skip the check
        QAction *bypass =
            menu.addAction(tr("Unfenced path: %1's writes bypass the check").arg(name));
        bypass->setCheckable(true);
        bypass->setChecked(s.clients[size_t(c)].bypass);
        connect(bypass, &QAction::toggled, this, [this, c](bool on) {
            m_doc->undoStack()->push(EditCommands::setClientBypass(m_doc, c, on));
        });
        menu.addSeparator();
        LaneMenus::addClockEntries(&menu, m_doc, c, this);
        menu.exec(globalPos);
        return;
    }
    const bool onClientLane = hit.lane == c;
    if (onClientLane) {
        const Core::Tick tick = Core::Tick(axis().snapTick(pos.x()));
        const auto add = [this, c](const Core::Action &a) {
            const int index =
                EditCommands::insertionIndex(m_doc->scenario().clients[size_t(c)], a.at);
            m_doc->undoStack()->push(EditCommands::insertAction(m_doc, c, index, a));
            m_state->setSelection({c, index});
        };
        connect(menu.addAction(tr("Add pause at %1").arg(tick)), &QAction::triggered, this,
                [add, tick] { add(Core::Action::pause(tick, 10)); });
        connect(menu.addAction(tr("Add acquire at %1").arg(tick)), &QAction::triggered, this,
                [add, tick] { add(Core::Action::acquire(tick, 10)); });
        connect(menu.addAction(tr("Add write at %1").arg(tick)), &QAction::triggered, this,
                [add, tick, name] { add(Core::Action::write(tick, name)); });
        connect(menu.addAction(tr("Add release at %1").arg(tick)), &QAction::triggered, this,
                [add, tick] { add(Core::Action::release(tick)); });
        connect(menu.addAction(tr("Add read at %1").arg(tick)), &QAction::triggered, this,
                [add, tick] { add(Core::Action::read(tick)); });
    }
    if (hit.isItem() && hit.action >= 0 &&
        size_t(hit.action) < s.clients[size_t(c)].actions.size()) {
        if (!menu.isEmpty())
            menu.addSeparator();
        const Core::Action &a = s.clients[size_t(c)].actions[size_t(hit.action)];
        const int i = hit.action;
        // SCENARIO.md section 11 on the action itself, one undo step each
        const auto change = [this, c, i](const Core::Action &after, const QString &text) {
            m_doc->undoStack()->push(EditCommands::setAction(m_doc, c, i, after, text));
        };
        if (a.kind == Core::ActionKind::Acquire) {
            Core::Action after = a;
            // etcd's client sends a keepalive every TTL/3
            after.keepalive = a.keepalive ? 0 : std::max<Core::Tick>(1, a.amount / 3);
            const QString text = a.keepalive ? tr("Stop keepalives")
                                             : tr("Keep alive every %1 ticks").arg(after.keepalive);
            connect(menu.addAction(text), &QAction::triggered, this,
                    [change, after, text] { change(after, text); });
        } else if (a.kind == Core::ActionKind::Write) {
            Core::Action after = a;
            after.check = !a.check;
            after.gap = 0;
            QAction *check = menu.addAction(tr("Check the lease before writing"));
            check->setCheckable(true);
            check->setChecked(a.check);
            connect(check, &QAction::triggered, this,
                    [change, after, check] { change(after, check->text()); });
        }
        connect(menu.addAction(tr("Remove %1 of %2").arg(Core::toString(a.kind), name)),
                &QAction::triggered, this, [this, c, i] {
                    m_state->clearSelection();
                    m_doc->undoStack()->push(EditCommands::removeAction(m_doc, c, i));
                });
    }
    if (menu.isEmpty())
        return;
    menu.exec(globalPos);
}

void TimelineView::addStorageEntries(QMenu *menu, int storage, QPointF pos)
{
    const TimelineLayout l = currentLayout();
    std::optional<Core::Tick> tick;
    std::optional<Core::Tick> restart;
    if (pos.x() >= l.plot.left()) {
        // on the lane body: a restart at the clicked tick; one drawn near the click can go
        const TimeAxis a = axis();
        tick = Core::Tick(std::max<qint64>(0, a.snapTick(pos.x())));
        double best = 6 * std::max(1.0, m_theme.fontScale);
        for (const Core::Tick r : m_doc->scenario().storages[size_t(storage)].restarts) {
            const double d = std::abs(a.tickToX(double(r)) - pos.x());
            if (d <= best) {
                best = d;
                restart = r;
            }
        }
    }
    LaneMenus::addStorageEntries(menu, m_doc, storage, tick, restart, this);
}
