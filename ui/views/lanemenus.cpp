#include "views/lanemenus.h"

#include "document/document.h"
#include "document/editcommands.h"
#include "views/lanedialogs.h"

#include <QCoreApplication>
#include <QMenu>
#include <QPointer>
#include <QUndoStack>

#include <algorithm>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("LaneMenus", text);
}

} // namespace

namespace LaneMenus {

void addStorageEntries(QMenu *menu, Document *doc, int storage, std::optional<Core::Tick> at,
                       std::optional<Core::Tick> restart, QWidget *dialogParent)
{
    const Core::StorageSpec &spec = doc->scenario().storages[std::size_t(storage)];
    const QString name = spec.name;
    const auto change = [doc, storage](auto edit, const QString &text) {
        Core::StorageSpec after = doc->scenario().storages[std::size_t(storage)];
        edit(after);
        doc->undoStack()->push(EditCommands::setStorage(doc, storage, after, text));
    };

    QAction *version = menu->addAction(tr("Compare-and-set on a version"));
    version->setCheckable(true);
    version->setChecked(spec.check == Core::StorageCheck::Version);
    QObject::connect(version, &QAction::triggered, menu, [change, name](bool on) {
        change(
            [on](Core::StorageSpec &s) {
                s.check = on ? Core::StorageCheck::Version : Core::StorageCheck::Token;
            },
            on ? tr("Compare-and-set on a version in %1").arg(name)
               : tr("Fencing tokens checked in %1").arg(name));
    });
    QAction *durable = menu->addAction(tr("max_token persisted with the data"));
    durable->setCheckable(true);
    durable->setChecked(spec.durable);
    QObject::connect(durable, &QAction::triggered, menu, [change, name](bool on) {
        change([on](Core::StorageSpec &s) { s.durable = on; },
               on ? tr("max_token of %1 persisted with the data").arg(name)
                  : tr("max_token of %1 in memory only").arg(name));
    });

    menu->addSeparator();
    if (at && std::find(spec.restarts.begin(), spec.restarts.end(), *at) == spec.restarts.end()) {
        const Core::Tick tick = *at;
        QObject::connect(menu->addAction(tr("Add restart at %1").arg(tick)), &QAction::triggered,
                         menu, [change, name, tick] {
                             change(
                                 [tick](Core::StorageSpec &s) {
                                     // sorted, as the loader and the simulator keep them
                                     s.restarts.insert(std::upper_bound(s.restarts.begin(),
                                                                        s.restarts.end(), tick),
                                                       tick);
                                 },
                                 tr("Restart %1 at %2").arg(name).arg(tick));
                         });
    }
    if (restart) {
        const Core::Tick r = *restart;
        QObject::connect(menu->addAction(tr("Remove restart at %1").arg(r)), &QAction::triggered,
                         menu, [change, name, r] {
                             change(
                                 [r](Core::StorageSpec &s) {
                                     const auto it =
                                         std::find(s.restarts.begin(), s.restarts.end(), r);
                                     if (it != s.restarts.end())
                                         s.restarts.erase(it);
                                 },
                                 tr("Remove restart of %1 at %2").arg(name).arg(r));
                         });
    }
    menu->addSeparator();
    QPointer<QWidget> parent(dialogParent);
    QObject::connect(menu->addAction(tr("Storage %1...").arg(name)), &QAction::triggered, menu,
                     [doc, storage, parent] { openStorageDialog(doc, storage, parent); });
}

void addClockEntries(QMenu *menu, Document *doc, int client, QWidget *dialogParent)
{
    const Core::Client &c = doc->scenario().clients[std::size_t(client)];
    const QString name = c.name;
    const Core::ClientClock clock = c.clock;
    QMenu *speed = menu->addMenu(tr("Clock speed of %1").arg(name));
    const auto quick = [&](const QString &label, const QString &text, std::uint32_t rateMilli,
                           bool dropSteps) {
        Core::ClientClock after = clock;
        after.rateMilli = rateMilli;
        if (dropSteps)
            after.steps.clear();
        QAction *a = speed->addAction(label);
        a->setCheckable(true);
        a->setChecked(after == clock);
        QObject::connect(a, &QAction::triggered, menu, [doc, client, after, text] {
            if (!(doc->scenario().clients[std::size_t(client)].clock == after))
                doc->undoStack()->push(EditCommands::setClientClock(doc, client, after, text));
        });
    };
    // a slow clock believes an expired lease; a fast one gives it up early
    quick(tr("Clock runs slow (half speed)"), tr("Clock of %1 at half speed").arg(name), 500,
          false);
    quick(tr("Clock runs fast (double)"), tr("Clock of %1 at double speed").arg(name), 2000, false);
    quick(tr("Clock exact"), tr("Clock of %1 exact").arg(name), 1000, true);
    QPointer<QWidget> parent(dialogParent);
    QObject::connect(menu->addAction(tr("Clock of %1...").arg(name)), &QAction::triggered, menu,
                     [doc, client, parent] { openClockDialog(doc, client, parent); });
}

void openStorageDialog(Document *doc, int storage, QWidget *parent)
{
    const Core::StorageSpec before = doc->scenario().storages[std::size_t(storage)];
    auto *dialog = new StorageDialog(before, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QDialog::accepted, doc, [doc, storage, dialog, before] {
        const Core::Scenario &s = doc->scenario();
        // the scenario may have been replaced meanwhile: edit only the storage that was opened
        if (std::size_t(storage) >= s.storages.size() || s.storages[std::size_t(storage)] != before)
            return;
        Core::StorageSpec after = dialog->spec();
        if (after != before)
            doc->undoStack()->push(EditCommands::setStorage(
                doc, storage, after, tr("Edit storage %1").arg(before.name)));
    });
    dialog->open();
}

void openClockDialog(Document *doc, int client, QWidget *parent)
{
    const Core::Client &c = doc->scenario().clients[std::size_t(client)];
    const QString name = c.name;
    const Core::ClientClock before = c.clock;
    auto *dialog = new ClockDialog(name, before, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QDialog::accepted, doc, [doc, client, dialog, name, before] {
        const Core::Scenario &s = doc->scenario();
        if (std::size_t(client) >= s.clients.size() ||
            s.clients[std::size_t(client)].name != name ||
            !(s.clients[std::size_t(client)].clock == before))
            return;
        const Core::ClientClock after = dialog->clock();
        if (!(after == before))
            doc->undoStack()->push(
                EditCommands::setClientClock(doc, client, after, tr("Edit clock of %1").arg(name)));
    });
    dialog->open();
}

} // namespace LaneMenus
