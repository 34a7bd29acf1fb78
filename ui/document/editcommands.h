#pragma once

// One QUndoCommand per kind of edit. Commands change the scenario through Document::edit()
// and remember only what they need to undo (never a whole scenario: files can hold a
// million actions).

#include "scenario.h"

#include <QUndoCommand>

class Document;
class ViewState;

namespace EditCommands {

enum { SetActionId = 1 };

// Replace one action. `mergeable` commands on the same action that change the same field
// merge (arrow nudges); a nudge of another field is a step of its own.
class SetAction : public QUndoCommand
{
public:
    SetAction(Document *doc, int client, int index, const Core::Action &before,
              const Core::Action &after, const QString &text, bool mergeable = false);
    void redo() override;
    void undo() override;
    int id() const override { return m_mergeable ? SetActionId : -1; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    Document *m_doc;
    int m_client;
    int m_index;
    Core::Action m_before;
    Core::Action m_after;
    bool m_mergeable;
};

// The command pushed when a drag ends (TimelineDrag::finish). The live preview already left the
// scenario in its new state, so the push must not apply (and re-simulate) it a second time; undo
// and later redos behave like any SetAction.
class FinishedDrag : public SetAction
{
public:
    using SetAction::SetAction;
    void redo() override;

private:
    bool m_applied = true;
};

// Where a new action at `at` goes in a client's list: after every action at or before it,
// so the list stays in time order and ties keep their listed order.
int insertionIndex(const Core::Client &client, Core::Tick at);

QUndoCommand *setAction(Document *doc, int client, int index, const Core::Action &after,
                        const QString &text = {}, bool mergeable = false);
QUndoCommand *insertAction(Document *doc, int client, int index, const Core::Action &action);
QUndoCommand *removeAction(Document *doc, int client, int index);
QUndoCommand *insertClient(Document *doc, int index, const Core::Client &client);
QUndoCommand *removeClient(Document *doc, int index);
QUndoCommand *renameClient(Document *doc, int index, const QString &name);
// A client on an unfenced path (docs/SCENARIO.md section 11): its writes skip every check.
QUndoCommand *setClientBypass(Document *doc, int index, bool bypass);
QUndoCommand *setFencing(Document *doc, bool on);
// Another token source (docs/SCENARIO.md section 9); options of other sources go back to their
// defaults (Core::lockOptionsFor), and come back with undo.
QUndoCommand *setTokenSource(Document *doc, Core::TokenSource source);
QUndoCommand *setStorageRule(Document *doc, int storage, Core::FenceRule rule);
// A storage's whole spec (docs/SCENARIO.md section 12: rule, check, durability, restarts); `text`
// names what changed ("Compare-and-set on a version in jn"). The name and kept keys stay.
QUndoCommand *setStorage(Document *doc, int storage, const Core::StorageSpec &after,
                         const QString &text);
// A client's own clock (section 11): rate and steps.
QUndoCommand *setClientClock(Document *doc, int client, const Core::ClientClock &after,
                             const QString &text);
QUndoCommand *setTitle(Document *doc, const QString &title, const QString &description);
QUndoCommand *setHorizon(Document *doc, std::optional<Core::Tick> horizon);

// Removes the selected action (one undo step) and clears the selection; false when nothing
// valid is selected. Shared by the Delete key on the timeline and Edit > Delete.
bool removeSelectedAction(Document *doc, ViewState *state);

// A client name not used yet ("C", "D", ... then "Client 27", ...).
QString freshClientName(const Core::Scenario &scenario);

} // namespace EditCommands
