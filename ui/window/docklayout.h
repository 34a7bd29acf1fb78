#pragma once

// The main window's layout: the docks around the timeline (the story and the inspector at the
// right, the event log and Explore tabbed at the bottom), the height shared between the lanes
// and the token chart, the screen-size heuristics behind both, View > Reset layout, and the
// window's geometry and dock state kept in QSettings (group "window").

#include <QByteArray>
#include <QObject>
#include <QSize>

#include <functional>

class Document;
class TimelineView;
class TokenChart;
class ViewState;
class QDockWidget;
class QMainWindow;
class QMenu;
class QSplitter;
class QWidget;

class DockLayout : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        QMainWindow *window = nullptr;
        Document *doc = nullptr;
        ViewState *state = nullptr;
        TimelineView *view = nullptr; // in its scroll area, the splitter's upper part
        QSplitter *splitter = nullptr;
        TokenChart *chart = nullptr; // the splitter's lower part
        QMenu *viewMenu = nullptr;   // the docks' toggles go here
    };
    struct Hooks
    {
        std::function<bool()> isPresenting;
        std::function<void()> fitPresentation; // presenting, the presentation fits instead
    };

    DockLayout(Parts parts, Hooks hooks, QObject *parent = nullptr);

    // The docks, each holding its widget; their toggles in the View menu (Explore's with
    // Ctrl+K). Explore starts hidden. Returns the Explore dock.
    QDockWidget *addDocks(QWidget *story, QWidget *inspector, QWidget *log, QWidget *explore);
    // Once the window is built: keeps its layout for Reset layout, sizes the window to the
    // screen, then restores where the window, its docks and toolbar were last time.
    void start();
    // The lanes get the height they need, the chart the rest (never less than a readable
    // chart): no empty band under the last lane.
    void fitSplitter();
    // Compare mode's two stacks of lanes need the height: the event log steps aside while
    // comparing (View > Event log brings it back) and returns when compare mode ends.
    void setComparing(bool on);
    // View > Reset layout: the docks, the window's size and the lanes as on a first start.
    void resetLayout();
    // Kept on close (not while presenting: full screen with the docks put away).
    void saveWindowSettings();

private:
    void restoreWindowSettings();
    // Docks restored too large for this screen are brought back to a share of the window.
    void capDocks();
    bool compactHeight() const;
    int logHeight() const;
    int exploreHeight() const;
    QSize defaultWindowSize() const;

    static constexpr int kWindowStateVersion = 1;

    Parts m_parts;
    Hooks m_hooks;
    QByteArray m_defaultLayout; // the dock layout as the window was built, for Reset layout
    bool m_logHiddenForCompare = false;
    bool m_chartHiddenForExplore = false; // Explore took its place (fitSplitter)
};
