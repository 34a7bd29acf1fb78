#pragma once

// Presentation mode (View > Presentation, F11): full screen, the presentation theme and text
// size, only the timeline and a large explanation; arrows, Space and Page Up/Down step from event
// to event, Home and End go to the start and the whole run. While presenting it watches the
// whole application, so its keys win over every shortcut of the window.
//
// It takes over parts of the window it is given (Parts) and puts them back exactly as they were
// when presentation ends; what only the window can do (its theme, fitting its splitter, clearing
// the selection without the event log following) it asks through Hooks.
//
// Presenting on another screen than the window's (View > Present on: a projector beside a
// laptop), it shows the same in a PresentationWindow of its own, full screen there, and leaves
// the window where it is; its keys work in both windows. A lesson presents in the window.

#include "theme.h"
#include "views/presentationpanel.h"
#include "viewstate.h"

#include "scenario.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QRect>

#include <functional>
#include <optional>

class Document;
class Playback;
class PresentationControls;
class PresentationWindow;
class TimelineView;
class QAction;
class QKeyEvent;
class QMainWindow;
class QMenu;
class QScreen;
class QScrollArea;
class QSplitter;
class QWidget;

// A walk of its own through what presentation mode shows: a lesson's scenes, each with its
// opening, its steps, its question and the reveal (LessonController). While one is walking,
// presentation mode's steps, its keys and the room under the timeline ask it.
class PresentationWalk
{
public:
    virtual ~PresentationWalk() = default;
    virtual bool walking() const = 0;
    // Presentation began: show where the walk stands. Ended: the normal window's view of it
    // (presentation puts back only the window's layout and theme then, not its playhead).
    virtual void began() = 0;
    virtual void ended() = 0;
    virtual void forward() = 0;
    virtual void back() = 0;
    virtual void toStart() = 0;
    virtual void toEnd() = 0;
    // Who a key pressed while presenting is for: presentation mode's own keys, the walk's
    // (key() acts on them), or the widget it was sent to (a field being typed in).
    enum class KeyUse
    {
        Presentation,
        Walk,
        Widget
    };
    virtual KeyUse keyUse(const QKeyEvent *event, const QObject *receiver) const = 0;
    virtual void key(QKeyEvent *event) = 0;
    // The height the walk's own panel needs under the timeline at `width` with `theme`.
    virtual int panelHeight(int width, const Theme &theme) const = 0;
};

class PresentationController : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        QMainWindow *window = nullptr;
        Document *doc = nullptr;
        ViewState *state = nullptr;
        Playback *playback = nullptr;
        TimelineView *view = nullptr;
        QScrollArea *scroll = nullptr; // the timeline's scroll area
        QSplitter *splitter = nullptr; // timeline over chart
        PresentationPanel *panel = nullptr;
        PresentationControls *controls = nullptr;
        QAction *action = nullptr; // View > Presentation, kept checked while presenting
        QList<QWidget *> putAway;  // shown again afterwards (summary, chart, playback bar)
        QList<QAction *> keys;     // whose keys work in a PresentationWindow too (compare...)
    };
    struct Hooks
    {
        std::function<Theme()> theme;                // the window's theme now
        std::function<void(const Theme &)> setTheme; // applied to every view
        std::function<void()> fitWindow;             // the splitter fitted to the lanes
        std::function<void()> clearSelectionQuietly; // the event log keeps its row
    };

    // QSettings keys of the View menu's presentation theme and text size
    static constexpr const char *kThemeKey = "presentation/theme";
    static constexpr const char *kScaleKey = "presentation/fontScale";
    // the screen presentation opens on (QScreen::name()); absent or unplugged: the window's own
    static constexpr const char *kScreenKey = "presentation/screen";
    static constexpr double kScaleDefault = 1.6;
    // The smallest text size presentation mode shrinks to when lanes and sentence would not
    // both fit: the timeline's smallest labels (11 px at 1x) at 14 px, the sentence at 24 px.
    // Below it the lanes scroll instead (the lock and storage lanes stay pinned).
    static constexpr double kSmallestScale = 14.0 / 11.0;

    PresentationController(Parts parts, Hooks hooks, QObject *parent = nullptr);

    bool isPresenting() const { return m_saved.has_value(); }
    // Presenting in the PresentationWindow, on another screen than the window's.
    bool onOwnScreen() const { return m_saved && m_saved->ownWindow; }
    // That window (null until presentation first opened it).
    PresentationWindow *presentationWindow() const { return m_own; }
    // Before the first event (Home): the whole timeline dimmed.
    bool atStart() const { return m_atStart; }

    // The theme presentation uses: the chosen one (print becomes high contrast), at the chosen
    // text size with lines to match.
    Theme theme() const;
    // Stores a presentation setting and, while presenting, fits the window to it.
    void setSetting(const QString &key, const QVariant &value);
    // Sizes text and lanes to the screen: the largest text size up to the chosen one at which
    // the lanes and every step's explanation both fit; at the smallest, the lanes scroll.
    void fit();
    // The screen presentation opens on: the chosen one if it is attached, else the window's.
    QScreen *screen() const;
    // Whether presentation opens in a window of its own now: the chosen screen is attached and
    // is not the window's, and no lesson is walking (its stage is the window's).
    bool wantsOwnWindow() const;
    // Its settings in `menu` (View): the theme, the text size, and the screen to present on.
    void addMenus(QMenu *menu);

    void setPresenting(bool on);
    // While `walk` is walking (a lesson is open), steps and keys are its (null: none).
    void setWalk(PresentationWalk *walk) { m_walk = walk; }
    bool isWalking() const { return m_walk && m_walk->walking(); }
    void next();
    void previous();
    void start();
    void end();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // True for the keys presentation mode handles; acts on them when `act`.
    bool handleKey(QKeyEvent *event, bool act, const QObject *receiver);
    void showActingLane();
    void begin();
    void beginOnOwnScreen(QScreen *target);
    void finish();
    // What presentation shows and fits: the window's parts, or its own window's.
    QWidget *shownWindow() const;
    TimelineView *view() const;
    QScrollArea *scroll() const;
    QSplitter *splitter() const;
    PresentationPanel *panel() const;
    PresentationControls *controls() const;
    Theme shownTheme() const;
    void setShownTheme(const Theme &theme);
    // The step shown; the window's own panel follows too (it tells the same step when
    // presentation ends in the window, and a state report reads it).
    void setStep(PresentationPanel::Step step);
    void connectControls(PresentationControls *controls);

    // What presentation mode replaced, to put back when it ends.
    struct Saved
    {
        QByteArray dockState;
        Qt::WindowStates windowState;
        QRect geometry;
        QPointer<QScreen> screen;
        bool menuBar = true;
        bool statusBar = true;
        Theme theme;
        double firstTick = 0;
        double pixelsPerTick = 1;
        Core::Tick playhead = 0;
        Selection selection;
        QList<int> splitterSizes;
        bool ownWindow = false; // in the PresentationWindow: the window was left alone
    };

    Parts m_parts;
    Hooks m_hooks;
    std::optional<Saved> m_saved;
    bool m_atStart = false;
    // fit() measures a lesson's stage by showing its parts in turn, which can resize the
    // splitter, whose resize asks for fit() again: that inner call has nothing to add.
    bool m_fitting = false;
    PresentationWalk *m_walk = nullptr;
    PresentationWindow *m_own = nullptr; // made the first time it is needed; the window's child
};
