#include "window/windowactions.h"

#include <QAction>
#include <QUndoStack>
#include <QWidget>

namespace {

// Every binding once: an action that lists a key twice (Ctrl+Shift+Z given by hand and again
// through QKeySequence::Redo on platforms whose Redo is Ctrl+Shift+Z) makes Qt call the key
// "ambiguous" and do nothing.
QList<QKeySequence> keys(std::initializer_list<QKeySequence> own,
                         QKeySequence::StandardKey standard = QKeySequence::UnknownKey)
{
    QList<QKeySequence> all(own);
    if (standard != QKeySequence::UnknownKey)
        all += QKeySequence::keyBindings(standard);
    QList<QKeySequence> unique;
    for (const QKeySequence &k : all)
        if (!k.isEmpty() && !unique.contains(k))
            unique << k;
    return unique;
}

} // namespace

WindowActions::WindowActions(QWidget *window, QUndoStack *undoStack) : QObject(window)
{
    const auto make = [window](const QString &name, const QString &text,
                               const QKeySequence &key = {}) {
        auto *a = new QAction(text, window);
        a->setObjectName(name);
        if (!key.isEmpty())
            a->setShortcut(key);
        window->addAction(a); // shortcuts work with menus and toolbars hidden too
        return a;
    };

    newFile = make(QStringLiteral("new"), tr("&New"), QKeySequence::New);
    open = make(QStringLiteral("open"), tr("&Open…"), QKeySequence::Open);
    save = make(QStringLiteral("save"), tr("&Save"), QKeySequence::Save);
    saveAs = make(QStringLiteral("saveAs"), tr("Save &As…"), QKeySequence::SaveAs);
    quit = make(QStringLiteral("quit"), tr("&Quit"), QKeySequence::Quit);

    undo = undoStack->createUndoAction(window, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undo"));
    undo->setShortcuts(keys({}, QKeySequence::Undo));
    window->addAction(undo);
    redo = undoStack->createRedoAction(window, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redo"));
    redo->setShortcuts(keys({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)}, QKeySequence::Redo));
    window->addAction(redo);

    fencing = make(QStringLiteral("fencing"), tr("&Fencing"), QKeySequence(Qt::Key_F));
    fencing->setCheckable(true);
    fencing->setToolTip(tr("Fencing on/off (F): does the storage check tokens?"));
    compare =
        make(QStringLiteral("compare"), tr("&Compare fenced / unfenced"), QKeySequence(Qt::Key_C));
    compare->setCheckable(true);
    compare->setToolTip(tr("Show the same schedule with fencing on and off, one above the "
                           "other (C)"));

    zoomIn = make(QStringLiteral("zoomIn"), tr("Zoom &in"));
    zoomIn->setShortcuts(
        keys({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}, QKeySequence::ZoomIn));
    zoomOut = make(QStringLiteral("zoomOut"), tr("Zoom &out"));
    zoomOut->setShortcuts(keys({QKeySequence(Qt::Key_Minus)}, QKeySequence::ZoomOut));
    fit = make(QStringLiteral("fit"), tr("&Fit to window"));
    fit->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_0), QKeySequence(Qt::Key_Home)});

    play = make(QStringLiteral("play"), tr("&Play"), QKeySequence(Qt::Key_Space));
    play->setToolTip(tr("Play / pause (Space)"));
    previous =
        make(QStringLiteral("previousEvent"), tr("P&revious event"), QKeySequence(Qt::Key_Left));
    previous->setToolTip(tr("Move the playhead to the previous event (Left)"));
    next = make(QStringLiteral("nextEvent"), tr("&Next event"), QKeySequence(Qt::Key_Right));
    next->setToolTip(tr("Move the playhead to the next event (Right)"));
    showAll = make(QStringLiteral("showAll"), tr("Show &all"), QKeySequence(Qt::Key_End));
    showAll->setToolTip(tr("Remove the playhead and show the whole run (End)"));

    addClient = make(QStringLiteral("addClient"), tr("Add &client"));
    removeClient = make(QStringLiteral("removeClient"), tr("Remove client"));
    addAcquire = make(QStringLiteral("addAcquire"), tr("Add &acquire"));
    addWrite = make(QStringLiteral("addWrite"), tr("Add &write"));
    addPause = make(QStringLiteral("addPause"), tr("Add &pause"));
    addRelease = make(QStringLiteral("addRelease"), tr("Add r&elease"));
    deleteAction = make(QStringLiteral("delete"), tr("&Delete action"), QKeySequence::Delete);

    exportPicture =
        make(QStringLiteral("export"), tr("&Export Picture…"), QKeySequence(Qt::CTRL | Qt::Key_E));
    exportPicture->setToolTip(tr("Save the timeline as PNG, SVG or PDF for slides (Ctrl+E)"));
    storyboard = make(QStringLiteral("exportStoryboard"), tr("Export &Storyboard…"));
    storyboard->setToolTip(tr("One picture per step of the story: numbered PNGs or a "
                              "multi-page PDF"));
    animation = make(QStringLiteral("exportAnimation"), tr("Export Ani&mation…"));
    animation->setToolTip(tr("The run as it plays, a caption per step: an animated GIF or "
                             "an MP4 or WebM video"));
    copyImage = make(QStringLiteral("copyImage"), tr("Copy as &Image"),
                     QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copyImage->setToolTip(tr("Put the picture (as the last export, or at 1920 px on white) "
                             "on the clipboard"));
    present = make(QStringLiteral("present"), tr("&Presentation"), QKeySequence(Qt::Key_F11));
    present->setCheckable(true);
    present->setToolTip(tr("Presentation: full screen, large text, one step per key press "
                           "(F11; Esc leaves)"));

    live = make(QStringLiteral("runOnEtcd"), tr("Run on &etcd…"));
    live->setToolTip(tr("Run the scenario on a real etcd, in real time, and compare what it "
                        "did with the prediction"));

    // keys without modifiers must not fire while the user types in the inspector; line edits
    // and spin boxes claim them through ShortcutOverride, so window shortcuts are safe
    for (QAction *a : {fencing, compare, play, previous, next, deleteAction})
        a->setShortcutContext(Qt::WindowShortcut);
}
