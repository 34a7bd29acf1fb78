#pragma once

// The main window's actions and their places: what each is called, its keys, its tooltip, its
// object name (tests and the quick tour find actions by it) and whether it is a switch; and the
// menu bar and toolbar laid out from them (layOut). Every action is added to the window, so its
// shortcut works with menus and toolbar hidden too. What an action does, and the state it shows,
// is the window's: mainwindow_actions.cpp and mainwindow_lessons.cpp connect them. The entries
// made from lists (a preset, a lesson, a theme) say what was chosen through a signal.

#include <QObject>
#include <QString>

class PresentationController;
class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;
class QUndoStack;
class SimulationMenus;

class WindowActions : public QObject
{
    Q_OBJECT
public:
    // Undo and Redo are the undo stack's own actions (their text follows the next command).
    WindowActions(QMainWindow *window, QUndoStack *undoStack);

    // File
    QAction *newFile, *open, *save, *saveAs, *quit;
    // File: lessons
    QAction *openLesson, *closeLesson, *exportVotes;
    // Edit
    QAction *undo, *redo;
    // Simulation
    QAction *fencing, *compare;
    // View
    QAction *zoomIn, *zoomOut, *fit, *resetLayout;
    // Playback
    QAction *play, *previous, *next, *showAll, *previousScene, *nextScene;
    // Edit: the scenario
    QAction *addClient, *removeClient, *addAcquire, *addWrite, *addPause, *addRelease;
    QAction *deleteAction;
    // File: export; Edit: copy; View: presentation
    QAction *exportPicture, *storyboard, *animation, *copyImage, *present;
    // Simulation > Run on etcd
    QAction *live;
    // Help
    QAction *tour, *about;

    // The menu bar (File, Edit, Simulation, Scenarios, View, Playback, Help) and the toolbar.
    // Simulation's choices and presentation's settings are submenus their owners make.
    void layOut(SimulationMenus *simulation, PresentationController *presentation);
    // File > Open Recent (the FileController fills it) and View (the docks add their switches).
    QMenu *recentMenu() const { return m_recent; }
    QMenu *viewMenu() const { return m_view; }

    // View > Theme's check on `name`.
    void checkTheme(const QString &name);

signals:
    void presetChosen(const QString &name);
    void lessonChosen(const QString &name);
    void themeChosen(const QString &name);

private:
    void addScenariosMenu();
    QMenu *themeMenu();
    QMenu *lessonsMenu();
    void addToolBar(SimulationMenus *simulation);

    QMainWindow *m_window;
    QActionGroup *m_themes = nullptr;
    QMenu *m_recent = nullptr;
    QMenu *m_view = nullptr;
};
