// TimelineView, part: keyboard focus stops (Tab walks the lanes' items), what the accessibility
// layer and input methods ask, and the context menus of items and lanes.

#include "views/timelineview.h"

#include "document/comparison.h"

#include "document/document.h"
#include "document/editcommands.h"
#include "views/lanemenus.h"
#include "viewstate.h"

#include <QContextMenuEvent>
#include <QFocusEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QScrollArea>
#include <QUndoStack>

using Hit = TimelineRenderer::Hit;

using Hit = TimelineRenderer::Hit;

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
    if (l.panels.empty())
        return {};
    if (stop.isStorage()) {
        if (size_t(stop.storage) >= l.panels.front().storages.size())
            return {};
        const StorageLaneRects &r = l.panels.front().storages[size_t(stop.storage)];
        return r.header.united(r.lane);
    }
    if (size_t(stop.client) >= l.panels.front().clients.size())
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
    if (!area || l.panels.empty())
        return;
    const TimelinePanel &panel = l.panels.front();
    if (m_focus.isStorage() ? size_t(m_focus.storage) < panel.storages.size()
                            : size_t(m_focus.client) < panel.clients.size()) {
        const QRectF lane = m_focus.isStorage() ? panel.storages[size_t(m_focus.storage)].header
                                                : panel.clients[size_t(m_focus.client)].header;
        area->ensureVisible(int(lane.center().x()), int(lane.center().y()), 0,
                            int(lane.height() / 2) + 4);
    }
}

QPointF TimelineView::keyboardMenuPoint() const
{
    if (m_focus.isLane() || m_focus.isStorage()) {
        // the header cell: its menu is the lane's (a storage's body would offer a restart there)
        const TimelineLayout l = currentLayout();
        if (l.panels.empty())
            return {};
        const TimelinePanel &panel = l.panels.front();
        if (m_focus.isLane() && size_t(m_focus.client) < panel.clients.size())
            return panel.clients[size_t(m_focus.client)].header.center();
        if (m_focus.isStorage() && size_t(m_focus.storage) < panel.storages.size())
            return panel.storages[size_t(m_focus.storage)].header.center();
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
    if (m_drag.isActive())
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
        // docs/SCENARIO.md section 11 on the action itself, one undo step each
        const auto change = [this, c, i](const Core::Action &after, const QString &text) {
            m_doc->undoStack()->push(EditCommands::setAction(m_doc, c, i, after, text));
        };
        if (a.kind == Core::ActionKind::Acquire) {
            Core::Action after = a;
            // etcd's client sends a keepalive every TTL/3
            after.setKeepalive(a.keepalive() ? 0 : std::max<Core::Tick>(1, a.amount / 3));
            const QString text = a.keepalive() ? tr("Stop keepalives")
                                             : tr("Keep alive every %1 ticks").arg(after.keepalive());
            connect(menu.addAction(text), &QAction::triggered, this,
                    [change, after, text] { change(after, text); });
        } else if (a.kind == Core::ActionKind::Write) {
            Core::Action after = a;
            after.check = !a.check;
            after.setGap(0);
            QAction *check = menu.addAction(tr("Check the lease before writing"));
            check->setCheckable(true);
            check->setChecked(a.check);
            connect(check, &QAction::triggered, this,
                    [change, after, check] { change(after, check->text()); });
            // a lesson's question about this write, graded by the simulator
            if (m_predictEntry)
                connect(menu.addAction(tr("Predict what happens to this write…")),
                        &QAction::triggered, this,
                        [this, c, i] { emit writeQuestionRequested(c, i, false); });
            if (m_askEntry)
                connect(menu.addAction(tr("Ask what happens to this write (in the lesson)")),
                        &QAction::triggered, this,
                        [this, c, i] { emit writeQuestionRequested(c, i, true); });
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
