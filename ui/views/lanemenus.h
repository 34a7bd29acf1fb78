#pragma once

// The entries of the timeline's right-click menus for docs/SCENARIO.md sections 11 and 12 that
// belong to a whole lane: a storage's check, durability and restarts, a client's clock. Each
// entry is one undo step on the document; the "..." entries open a dialog (lanedialogs.h),
// window-modal, whose OK is one undo step.

#include "scenario.h"

#include <optional>

class Document;
class QMenu;
class QWidget;

namespace LaneMenus {

// A storage lane's entries. `tick`: where the lane was clicked ("Add restart at 12"; none on
// the header); `restart`: the restart under the click, if any ("Remove restart at 12").
void addStorageEntries(QMenu *menu, Document *doc, int storage, std::optional<Core::Tick> tick,
                       std::optional<Core::Tick> restart, QWidget *dialogParent);

// A client lane header's clock entries: a submenu of quick rates and the clock dialog.
void addClockEntries(QMenu *menu, Document *doc, int client, QWidget *dialogParent);

// The dialogs themselves (open, not exec: the caller goes on; OK pushes the command).
void openStorageDialog(Document *doc, int storage, QWidget *parent);
void openClockDialog(Document *doc, int client, QWidget *parent);

} // namespace LaneMenus
