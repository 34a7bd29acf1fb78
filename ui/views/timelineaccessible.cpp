#include "views/timelineaccessible.h"

#include "views/timelineview.h"
#include "viewstate.h"

#include <QAccessibleWidget>
#include <QPointer>
#include <QWindow>

#include <map>
#include <tuple>

namespace {

// Time order inside one client: by tick, ties by position in the list.
bool before(const Core::Action &a, int i, const Core::Action &b, int j)
{
    return a.at != b.at ? a.at < b.at : i < j;
}

// The earliest action of `c` after (index `from`, or every one when from < 0); -1 when none.
int laterAction(const Core::Client &c, int from)
{
    int best = -1;
    for (int i = 0; i < int(c.actions.size()); ++i) {
        if (from >= 0 && !before(c.actions[size_t(from)], from, c.actions[size_t(i)], i))
            continue;
        if (best < 0 || before(c.actions[size_t(i)], i, c.actions[size_t(best)], best))
            best = i;
    }
    return best;
}

// The latest action of `c` before (index `from`, or every one when from < 0); -1 when none.
int earlierAction(const Core::Client &c, int from)
{
    int best = -1;
    for (int i = 0; i < int(c.actions.size()); ++i) {
        if (from >= 0 && !before(c.actions[size_t(i)], i, c.actions[size_t(from)], from))
            continue;
        if (best < 0 || before(c.actions[size_t(best)], best, c.actions[size_t(i)], i))
            best = i;
    }
    return best;
}

} // namespace

bool TimelineAccessible::isValid(const Core::Scenario &s, FocusStop stop)
{
    if (stop.isStorage())
        return size_t(stop.storage) < s.storages.size();
    if (stop.client < 0 || size_t(stop.client) >= s.clients.size())
        return false;
    return stop.action < 0 || size_t(stop.action) < s.clients[size_t(stop.client)].actions.size();
}

FocusStop TimelineAccessible::next(const Core::Scenario &s, FocusStop from, bool forward)
{
    const int clients = int(s.clients.size());
    const int storages = int(s.storages.size());
    // the last stop of the clients: the last client's latest action, or its header
    const auto lastOfClients = [&]() -> FocusStop {
        if (clients == 0)
            return {};
        return {clients - 1, earlierAction(s.clients[size_t(clients - 1)], -1)};
    };
    const auto firstStorage = [&] { return storages > 0 ? FocusStop::ofStorage(0) : FocusStop{}; };
    if (!isValid(s, from)) {
        if (forward)
            return clients > 0 ? FocusStop{0, -1} : firstStorage();
        return storages > 0 ? FocusStop::ofStorage(storages - 1) : lastOfClients();
    }
    if (from.isStorage()) {
        if (forward)
            return from.storage + 1 < storages ? FocusStop::ofStorage(from.storage + 1)
                                               : FocusStop{};
        return from.storage > 0 ? FocusStop::ofStorage(from.storage - 1) : lastOfClients();
    }
    const Core::Client &c = s.clients[size_t(from.client)];
    if (forward) {
        const int i = laterAction(c, from.action);
        if (i >= 0)
            return {from.client, i};
        return from.client + 1 < clients ? FocusStop{from.client + 1, -1} : firstStorage();
    }
    if (from.isAction()) {
        const int i = earlierAction(c, from.action);
        return {from.client, i}; // -1: the lane's own header
    }
    if (from.client == 0)
        return {};
    const int prev = from.client - 1;
    return {prev, earlierAction(s.clients[size_t(prev)], -1)};
}

QString TimelineAccessible::describe(const Core::Scenario &s, FocusStop stop)
{
    if (!isValid(s, stop))
        return {};
    if (stop.isStorage()) {
        const Core::StorageSpec &st = s.storages[size_t(stop.storage)];
        std::size_t writes = 0;
        for (const Core::Client &c : s.clients)
            for (const Core::Action &a : c.actions)
                writes += a.kind == Core::ActionKind::Write && a.storage == size_t(stop.storage);
        return writes == 1 ? tr("Storage %1 lane, 1 write").arg(st.name)
                           : tr("Storage %1 lane, %2 writes").arg(st.name).arg(writes);
    }
    const Core::Client &c = s.clients[size_t(stop.client)];
    if (stop.isLane()) {
        if (c.actions.size() == 1)
            return tr("Client %1 lane, 1 action").arg(c.name);
        return tr("Client %1 lane, %2 actions").arg(c.name).arg(c.actions.size());
    }
    const Core::Action &a = c.actions[size_t(stop.action)];
    switch (a.kind) {
    case Core::ActionKind::Pause:
        return tr("Client %1, pause from %2 to %3").arg(c.name).arg(a.at).arg(a.at + a.amount);
    case Core::ActionKind::Acquire:
        return tr("Client %1, acquire at %2 with ttl %3").arg(c.name).arg(a.at).arg(a.amount);
    case Core::ActionKind::Release:
        return tr("Client %1, release at %2").arg(c.name).arg(a.at);
    case Core::ActionKind::Write: {
        const QString storage =
            a.storage < s.storages.size() ? s.storages[a.storage].name : QString::number(a.storage);
        if (a.amount > 0)
            return tr("Client %1, write '%2' to %3 at %4, delay %5")
                .arg(c.name, a.value, storage)
                .arg(a.at)
                .arg(a.amount);
        return tr("Client %1, write '%2' to %3 at %4").arg(c.name, a.value, storage).arg(a.at);
    }
    case Core::ActionKind::Read: {
        const QString storage =
            a.storage < s.storages.size() ? s.storages[a.storage].name : QString::number(a.storage);
        return tr("Client %1, read the version of %2 at %3").arg(c.name, storage).arg(a.at);
    }
    }
    return {};
}

// --- the accessible tree -------------------------------------------------------------------

namespace {

class TimelineInterface;

// A client lane (stop.action -1) or one action, of a live view.
class StopItem : public QAccessibleInterface
{
public:
    StopItem(TimelineView *view, FocusStop stop) : m_view(view), m_stop(stop) {}

    bool isValid() const override
    {
        return m_view && TimelineAccessible::isValid(m_view->scenario(), m_stop);
    }
    QObject *object() const override { return nullptr; }
    QWindow *window() const override { return m_view ? m_view->window()->windowHandle() : nullptr; }
    QAccessibleInterface *childAt(int x, int y) const override;
    QAccessibleInterface *parent() const override;
    QAccessibleInterface *child(int index) const override;
    int childCount() const override
    {
        if (!isValid() || !m_stop.isLane())
            return 0;
        return int(m_view->scenario().clients[size_t(m_stop.client)].actions.size());
    }
    int indexOfChild(const QAccessibleInterface *child) const override
    {
        const auto *item = dynamic_cast<const StopItem *>(child);
        if (!item || !m_stop.isLane() || item->m_stop.client != m_stop.client ||
            !item->m_stop.isAction())
            return -1;
        return item->m_stop.action;
    }
    QString text(QAccessible::Text t) const override
    {
        if (!isValid())
            return {};
        if (t == QAccessible::Name)
            return TimelineAccessible::describe(m_view->scenario(), m_stop);
        if (t == QAccessible::Description && m_stop.isLane())
            return TimelineAccessible::tr("Tab walks through its actions");
        if (t == QAccessible::Description && m_stop.isStorage())
            return TimelineAccessible::tr("Enter or the Menu key opens its settings");
        return {};
    }
    void setText(QAccessible::Text, const QString &) override {}
    QRect rect() const override
    {
        if (!isValid())
            return {};
        const QRect r = m_view->stopRect(m_stop).toAlignedRect();
        return r.isEmpty() ? QRect() : QRect(m_view->mapToGlobal(r.topLeft()), r.size());
    }
    QAccessible::Role role() const override
    {
        return m_stop.isAction() ? QAccessible::ListItem : QAccessible::List;
    }
    QAccessible::State state() const override
    {
        QAccessible::State st;
        if (!isValid()) {
            st.invalid = true;
            return st;
        }
        st.focusable = true;
        st.focused = m_view->hasFocus() && m_view->focusStop() == m_stop;
        if (m_stop.isAction()) {
            st.selectable = true;
            st.selected =
                m_view->viewState()->selection() == Selection{m_stop.client, m_stop.action};
        }
        const QRect r = m_view->stopRect(m_stop).toAlignedRect();
        st.invisible = !m_view->isVisible() || !m_view->rect().intersects(r);
        st.offscreen = st.invisible;
        return st;
    }

    QPointer<TimelineView> m_view;
    FocusStop m_stop;
};

// The widget: a pane whose children are the client lanes.
class TimelineInterface : public QAccessibleWidget
{
public:
    explicit TimelineInterface(TimelineView *view) : QAccessibleWidget(view, QAccessible::Pane) {}
    ~TimelineInterface() override
    {
        for (const auto &entry : m_items)
            if (QAccessible::accessibleInterface(entry.second))
                QAccessible::deleteAccessibleInterface(entry.second);
    }

    TimelineView *view() const { return static_cast<TimelineView *>(widget()); }

    // The one interface for `stop`, made on first use.
    QAccessibleInterface *item(FocusStop stop) const
    {
        if (!TimelineAccessible::isValid(view()->scenario(), stop))
            return nullptr;
        const auto key = std::make_tuple(stop.client, stop.action, stop.storage);
        const auto it = m_items.find(key);
        if (it != m_items.end())
            if (QAccessibleInterface *known = QAccessible::accessibleInterface(it->second))
                return known;
        auto *made = new StopItem(view(), stop);
        m_items[key] = QAccessible::registerAccessibleInterface(made);
        return made;
    }

    // The client lanes, then the storage lanes.
    int childCount() const override
    {
        return int(view()->scenario().clients.size() + view()->scenario().storages.size());
    }
    FocusStop laneAt(int index) const
    {
        const int clients = int(view()->scenario().clients.size());
        return index < clients ? FocusStop{index, -1} : FocusStop::ofStorage(index - clients);
    }
    QAccessibleInterface *child(int index) const override
    {
        return index < 0 ? nullptr : item(laneAt(index));
    }
    int indexOfChild(const QAccessibleInterface *child) const override
    {
        const auto *i = dynamic_cast<const StopItem *>(child);
        if (!i || i->m_view != view())
            return -1;
        if (i->m_stop.isStorage())
            return int(view()->scenario().clients.size()) + i->m_stop.storage;
        return i->m_stop.isLane() ? i->m_stop.client : -1;
    }
    QAccessibleInterface *childAt(int x, int y) const override
    {
        const QPoint local = view()->mapFromGlobal(QPoint(x, y));
        for (int c = 0; c < childCount(); ++c)
            if (view()->stopRect(laneAt(c)).contains(local))
                return item(laneAt(c));
        return nullptr;
    }
    QAccessibleInterface *focusChild() const override
    {
        if (!view()->hasFocus())
            return nullptr;
        return item(view()->focusStop());
    }

private:
    mutable std::map<std::tuple<int, int, int>, QAccessible::Id> m_items; // client, action, storage
};

TimelineInterface *treeOf(TimelineView *view)
{
    // ours unless someone installed a factory for TimelineView before us
    return dynamic_cast<TimelineInterface *>(QAccessible::queryAccessibleInterface(view));
}

QAccessibleInterface *StopItem::childAt(int x, int y) const
{
    if (!isValid() || !m_stop.isLane())
        return nullptr;
    const QPoint local = m_view->mapFromGlobal(QPoint(x, y));
    for (int i = 0; i < childCount(); ++i)
        if (m_view->stopRect({m_stop.client, i}).contains(local))
            if (TimelineInterface *tree = treeOf(m_view))
                return tree->item({m_stop.client, i});
    return nullptr;
}

QAccessibleInterface *StopItem::parent() const
{
    if (!m_view)
        return nullptr;
    TimelineInterface *tree = treeOf(m_view);
    if (!tree || !m_stop.isAction())
        return tree;
    return tree->item({m_stop.client, -1});
}

QAccessibleInterface *StopItem::child(int index) const
{
    if (!isValid() || !m_stop.isLane() || index < 0 || index >= childCount())
        return nullptr;
    TimelineInterface *tree = treeOf(m_view);
    return tree ? tree->item({m_stop.client, index}) : nullptr;
}

QAccessibleInterface *factory(const QString &className, QObject *object)
{
    if (className == QLatin1String("TimelineView") && object && object->isWidgetType())
        return new TimelineInterface(static_cast<TimelineView *>(object));
    return nullptr;
}

} // namespace

void TimelineAccessible::installFactory()
{
    static const bool installed = [] {
        QAccessible::installFactory(factory);
        return true;
    }();
    Q_UNUSED(installed);
}

void TimelineAccessible::notifyFocus(TimelineView *view, FocusStop stop)
{
    if (!QAccessible::isActive() || !view->hasFocus())
        return;
    TimelineInterface *tree = treeOf(view);
    if (QAccessibleInterface *item = tree ? tree->item(stop) : nullptr) {
        QAccessibleEvent event(item, QAccessible::Focus);
        QAccessible::updateAccessibility(&event);
    }
}
