// TimelineView, part: input. Drags of markers and edges (one edit per whole tick moved, one undo
// step when the drag ends), the mouse, hover and cursor, the wheel, and the keys the timeline
// claims.

#include "views/timelineview.h"

#include "document/comparison.h"

#include "document/document.h"
#include "document/editcommands.h"
#include "views/lanemenus.h"
#include "viewstate.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
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

constexpr double kWheelZoomPerNotch = 1.25;
constexpr double kWheelPanPx = 80; // pixels scrolled per wheel notch

} // namespace

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
        a.setGap(shifted(a.gap(), delta, 0));
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
        m_drag.label = tr("gap %1").arg(a.gap());
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
            if (m_focus.isStorage())
                LaneMenus::openStorageDialog(m_doc, m_focus.storage, this);
            else
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
    if (m_drag.active || !m_focusShown || !TimelineAccessible::isValid(m_doc->scenario(), m_focus))
        return false;
    const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
    if (m_focus.isStorage()) // Enter opens its settings
        return (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
               mods == Qt::NoModifier;
    if (!m_focus.isAction())
        return false;
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
