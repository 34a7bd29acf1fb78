#pragma once

// The main window's own actions: what each is called, its keys, its tooltip, its object name
// (tests and the quick tour find actions by it) and whether it is a switch.
// Made in one place, in the order the window has always added them, each added to the window
// so its shortcut works with menus and toolbar hidden too. What an action does, and the state
// it shows, is the window's (mainwindow_actions.cpp connects them); the menus and the toolbar
// are laid out there from these.

#include <QObject>

class QAction;
class QUndoStack;
class QWidget;

class WindowActions : public QObject
{
    Q_OBJECT
public:
    // Undo and Redo are the undo stack's own actions (their text follows the next command).
    WindowActions(QWidget *window, QUndoStack *undoStack);

    // File
    QAction *newFile, *open, *save, *saveAs, *quit;
    // Edit
    QAction *undo, *redo;
    // Simulation
    QAction *fencing, *compare;
    // View
    QAction *zoomIn, *zoomOut, *fit;
    // Playback
    QAction *play, *previous, *next, *showAll;
    // Edit: the scenario
    QAction *addClient, *removeClient, *addAcquire, *addWrite, *addPause, *addRelease;
    QAction *deleteAction;
    // File: export; Edit: copy; View: presentation
    QAction *exportPicture, *storyboard, *animation, *copyImage, *present;
    // Simulation > Run on etcd
    QAction *live;
};
