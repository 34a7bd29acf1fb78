#include "document/editcommands.h"

#include "tokensource.h"

#include "document/document.h"
#include "viewstate.h"

#include <QUndoStack>

#include <QCoreApplication>

#include <algorithm>
#include <functional>
#include <utility>

using Core::Action;
using Core::Scenario;

namespace EditCommands {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("EditCommands", text);
}

// A command made of a change and its inverse.
class Change : public QUndoCommand
{
public:
    using Fn = std::function<void(Scenario &)>;
    Change(Document *doc, const QString &text, Fn redo, Fn undo)
        : QUndoCommand(text), m_doc(doc), m_redo(std::move(redo)), m_undo(std::move(undo))
    {
    }
    void redo() override { m_doc->edit(m_redo); }
    void undo() override { m_doc->edit(m_undo); }

private:
    Document *m_doc;
    Fn m_redo;
    Fn m_undo;
};

QString describe(const Action &a)
{
    return Core::toString(a.kind);
}

} // namespace

SetAction::SetAction(Document *doc, int client, int index, const Action &before,
                     const Action &after, const QString &text, bool mergeable)
    : QUndoCommand(text.isEmpty() ? tr("Change %1").arg(describe(after)) : text), m_doc(doc),
      m_client(client), m_index(index), m_before(before), m_after(after), m_mergeable(mergeable)
{
}

void SetAction::redo()
{
    m_doc->setAction(m_client, m_index, m_after);
}

void SetAction::undo()
{
    m_doc->setAction(m_client, m_index, m_before);
}

void FinishedDrag::redo()
{
    if (m_applied) {
        m_applied = false;
        return;
    }
    SetAction::redo();
}

namespace {

// Which parts of an action an edit changes, one bit each.
unsigned changedFields(const Action &before, const Action &after)
{
    return (before.at != after.at ? 1u : 0u) | (before.amount != after.amount ? 2u : 0u) |
           (before.value != after.value ? 4u : 0u) | (before.storage != after.storage ? 8u : 0u) |
           (before.kind != after.kind ? 16u : 0u) | (before.extra() != after.extra() ? 32u : 0u);
}

} // namespace

bool SetAction::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const SetAction *>(other);
    if (!o->m_mergeable || o->m_client != m_client || o->m_index != m_index)
        return false;
    // nudges of one field in a row are one step; an edit of another field is a step of its own
    if (changedFields(m_before, m_after) != changedFields(o->m_before, o->m_after))
        return false;
    m_after = o->m_after;
    // nudged back to where it started: nothing left to undo
    setObsolete(m_after == m_before);
    return true;
}

int insertionIndex(const Core::Client &client, Core::Tick at)
{
    const auto it = std::upper_bound(client.actions.begin(), client.actions.end(), at,
                                     [](Core::Tick t, const Action &a) { return t < a.at; });
    return int(it - client.actions.begin());
}

QUndoCommand *setAction(Document *doc, int client, int index, const Action &after,
                        const QString &text, bool mergeable)
{
    const Action before = doc->scenario().clients[size_t(client)].actions[size_t(index)];
    return new SetAction(doc, client, index, before, after, text, mergeable);
}

QUndoCommand *insertAction(Document *doc, int client, int index, const Action &action)
{
    const QString name = doc->scenario().clients[size_t(client)].name;
    return new Change(
        doc, tr("Add %1 to %2").arg(describe(action), name),
        [=](Scenario &s) {
            auto &v = s.clients[size_t(client)].actions;
            v.insert(v.begin() + index, action);
        },
        [=](Scenario &s) {
            auto &v = s.clients[size_t(client)].actions;
            v.erase(v.begin() + index);
        });
}

QUndoCommand *removeAction(Document *doc, int client, int index)
{
    const Core::Client &c = doc->scenario().clients[size_t(client)];
    const Action action = c.actions[size_t(index)];
    return new Change(
        doc, tr("Remove %1 of %2").arg(describe(action), c.name),
        [=](Scenario &s) {
            auto &v = s.clients[size_t(client)].actions;
            v.erase(v.begin() + index);
        },
        [=](Scenario &s) {
            auto &v = s.clients[size_t(client)].actions;
            v.insert(v.begin() + index, action);
        });
}

QUndoCommand *insertClient(Document *doc, int index, const Core::Client &client)
{
    return new Change(
        doc, tr("Add client %1").arg(client.name),
        [=](Scenario &s) { s.clients.insert(s.clients.begin() + index, client); },
        [=](Scenario &s) { s.clients.erase(s.clients.begin() + index); });
}

QUndoCommand *removeClient(Document *doc, int index)
{
    const Core::Client client = doc->scenario().clients[size_t(index)];
    return new Change(
        doc, tr("Remove client %1").arg(client.name),
        [=](Scenario &s) { s.clients.erase(s.clients.begin() + index); },
        [=](Scenario &s) { s.clients.insert(s.clients.begin() + index, client); });
}

QUndoCommand *renameClient(Document *doc, int index, const QString &name)
{
    const QString old = doc->scenario().clients[size_t(index)].name;
    return new Change(
        doc, tr("Rename %1 to %2").arg(old, name),
        [=](Scenario &s) { s.clients[size_t(index)].name = name; },
        [=](Scenario &s) { s.clients[size_t(index)].name = old; });
}

QUndoCommand *setClientBypass(Document *doc, int index, bool bypass)
{
    const bool old = doc->scenario().clients[size_t(index)].bypass;
    const QString name = doc->scenario().clients[size_t(index)].name;
    return new Change(
        doc, bypass ? tr("%1 bypasses the check").arg(name) : tr("%1 is fenced").arg(name),
        [=](Scenario &s) { s.clients[size_t(index)].bypass = bypass; },
        [=](Scenario &s) { s.clients[size_t(index)].bypass = old; });
}

QUndoCommand *setFencing(Document *doc, bool on)
{
    const bool old = doc->scenario().fencing;
    return new Change(
        doc, on ? tr("Fencing on") : tr("Fencing off"),
        [=](Scenario &s) { s.fencing = on; }, [=](Scenario &s) { s.fencing = old; });
}

QUndoCommand *setTokenSource(Document *doc, Core::TokenSource source)
{
    const Core::TokenSource oldSource = doc->scenario().tokens;
    const Core::LockOptions old = doc->scenario().lock;
    const Core::LockOptions kept = Core::lockOptionsFor(source, old);
    return new Change(
        doc, tr("Token source %1").arg(Core::toString(source)),
        [=](Scenario &s) {
            s.tokens = source;
            s.lock = kept;
        },
        [=](Scenario &s) {
            s.tokens = oldSource;
            s.lock = old;
        });
}

QUndoCommand *setStorageRule(Document *doc, int storage, Core::FenceRule rule)
{
    const Core::FenceRule old = doc->scenario().storages[size_t(storage)].rule;
    return new Change(
        doc, tr("Rule %1 for %2").arg(Core::toString(rule), doc->scenario().storages[size_t(storage)].name),
        [=](Scenario &s) { s.storages[size_t(storage)].rule = rule; },
        [=](Scenario &s) { s.storages[size_t(storage)].rule = old; });
}

QUndoCommand *setStorage(Document *doc, int storage, const Core::StorageSpec &after,
                         const QString &text)
{
    const Core::StorageSpec old = doc->scenario().storages[size_t(storage)];
    Core::StorageSpec spec = after;
    // what the dialog does not edit stays as it was (writes and reads name the storage)
    spec.name = old.name;
    spec.extra = old.extra;
    return new Change(
        doc, text, [=](Scenario &s) { s.storages[size_t(storage)] = spec; },
        [=](Scenario &s) { s.storages[size_t(storage)] = old; });
}

QUndoCommand *setClientClock(Document *doc, int client, const Core::ClientClock &after,
                             const QString &text)
{
    const Core::ClientClock old = doc->scenario().clients[size_t(client)].clock;
    return new Change(
        doc, text, [=](Scenario &s) { s.clients[size_t(client)].clock = after; },
        [=](Scenario &s) { s.clients[size_t(client)].clock = old; });
}

QUndoCommand *setTitle(Document *doc, const QString &title, const QString &description)
{
    const QString oldTitle = doc->scenario().title;
    const QString oldDescription = doc->scenario().description;
    return new Change(
        doc, tr("Edit title"),
        [=](Scenario &s) {
            s.title = title;
            s.description = description;
        },
        [=](Scenario &s) {
            s.title = oldTitle;
            s.description = oldDescription;
        });
}

QUndoCommand *setHorizon(Document *doc, std::optional<Core::Tick> horizon)
{
    const std::optional<Core::Tick> old = doc->scenario().horizon;
    return new Change(
        doc, tr("Change horizon"), [=](Scenario &s) { s.horizon = horizon; },
        [=](Scenario &s) { s.horizon = old; });
}

bool removeSelectedAction(Document *doc, ViewState *state)
{
    const Selection sel = state->selection();
    const Scenario &s = doc->scenario();
    if (!sel.isValid() || size_t(sel.client) >= s.clients.size() ||
        size_t(sel.action) >= s.clients[size_t(sel.client)].actions.size())
        return false;
    state->clearSelection();
    doc->undoStack()->push(removeAction(doc, sel.client, sel.action));
    return true;
}

QString freshClientName(const Scenario &scenario)
{
    for (char c = 'A'; c <= 'Z'; ++c) {
        QString name(QLatin1Char{c});
        if (scenario.clientIndex(name) < 0)
            return name;
    }
    for (int i = 27;; ++i) {
        QString name = tr("Client %1").arg(i);
        if (scenario.clientIndex(name) < 0)
            return name;
    }
}

} // namespace EditCommands
