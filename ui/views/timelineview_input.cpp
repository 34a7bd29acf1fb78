// TimelineView, part: input. The mouse (a press on a marker or an edge starts a TimelineDrag, on
// empty space a pan), hover and cursor, the wheel, and the keys the timeline claims.

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

constexpr double kWheelZoomPerNotch = 1.25;
constexpr double kWheelPanPx = 80; // pixels scrolled per wheel notch

} // namespace

// --- dragging ----------------------------------------------------------------------------
// An item drag is m_drag's (views/timelinedrag.h): the widget hands it the pointer, the zoom
// and how far to preview, and keeps the cursor and the label's painting.

void TimelineView::updateDrag(QPointF pos)
{
    m_drag.move(pos, m_state->pixelsPerTick(), previewThrough());
    update();
}

void TimelineView::cancelDrag()
{
    if (m_drag.isActive()) {
        m_drag.cancel();
    } else if (m_pan.active) {
        const double first = m_pan.pressFirstTick;
        m_pan = Pan();
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
    m_pan = Pan();
    if (hit.isItem() && hit.client >= 0 && hit.action >= 0) {
        m_state->setSelection({hit.client, hit.action});
        m_focusShown = true; // clicked here: the arrows nudge it
    }
    if (m_drag.begin(hit, pos, hit.bottomPanel ? bottomTrace() : topTrace())) {
        setCursor(hit.part == Hit::PauseBody || hit.part == Hit::AcquireMarker ||
                          hit.part == Hit::WriteMarker || hit.part == Hit::ReleaseMarker
                      ? Qt::ClosedHandCursor
                      : Qt::SizeHorCursor);
        QToolTip::hideText();
    } else if (!hit.isItem() && hit.part != Hit::LaneHeader) {
        // empty space: drag pans, a click clears the selection
        m_pan.active = true;
        m_pan.pressPos = pos;
        m_pan.pressFirstTick = m_state->firstTick();
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    if (m_drag.isActive()) {
        updateDrag(pos);
        return;
    }
    if (m_pan.active && (event->buttons() & Qt::LeftButton)) {
        const double dx = pos.x() - m_pan.pressPos.x();
        if (m_pan.moved || std::abs(dx) >= 3) {
            m_pan.moved = true;
            setCursor(Qt::ClosedHandCursor);
            m_state->setAxis(m_pan.pressFirstTick - dx / m_state->pixelsPerTick(),
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
    if (m_drag.isActive()) {
        if (m_drag.hasMoved())
            updateDrag(event->position());
        m_drag.finish();
        update();
    } else if (m_pan.active) {
        const bool moved = m_pan.moved;
        m_pan = Pan();
        if (!moved)
            m_state->clearSelection();
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
        if (!m_drag.isActive())
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
        if (m_drag.isActive() || m_pan.active)
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
        if (!m_drag.isActive()) {
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
    if (m_drag.isActive() || !m_focusShown ||
        !TimelineAccessible::isValid(m_doc->scenario(), m_focus))
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
    after.at = TimelineDrag::shifted(after.at, ticks, 0);
    if (after == current)
        return; // already at tick 0
    // mergeable: a run of nudges of this action is one undo step
    m_doc->undoStack()->push(EditCommands::setAction(
        m_doc, c, i, after, tr("Nudge %1").arg(Core::toString(after.kind)), true));
    revealFocus();
}
