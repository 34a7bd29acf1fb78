#include "window/presentationcontroller.h"

#include "document/comparison.h"
#include "document/document.h"
#include "storysteps.h"
#include "timelinerenderer.h"
#include "views/presentationcontrols.h"
#include "views/presentationpanel.h"
#include "views/timelineview.h"
#include "window/playback.h"
#include "window/presentationwindow.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMainWindow>
#include <QMenuBar>
#include <QScopedValueRollback>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QWindow>

#include <algorithm>
#include <cmath>
#include <iterator>

PresentationController::PresentationController(Parts parts, Hooks hooks, QObject *parent)
    : QObject(parent), m_parts(std::move(parts)), m_hooks(std::move(hooks))
{
    connectControls(m_parts.controls);
}

void PresentationController::connectControls(PresentationControls *controls)
{
    connect(controls, &PresentationControls::back, this, &PresentationController::previous);
    connect(controls, &PresentationControls::next, this, &PresentationController::next);
    connect(controls, &PresentationControls::exit, this, [this] { setPresenting(false); });
}

bool PresentationController::eventFilter(QObject *watched, QEvent *event)
{
    // Installed on the whole application while presenting. A real key press visits the
    // QWindow first and then the focus widget: only the widget's copy is acted on (claiming the
    // window's would swallow the key before any widget saw it).
    const QEvent::Type type = event->type();
    auto *w = qobject_cast<QWidget *>(watched);
    // (on a screen of its own: the clicker's keys work in the teacher's window too)
    const bool inWindow = w && w->window() == shownWindow();
    const bool keysHere = inWindow || (w && w->window() == m_parts.window);
    if (type == QEvent::ShortcutOverride || type == QEvent::KeyPress) {
        // claiming the ShortcutOverride keeps Space, Home, End... from firing their actions;
        // the step happens once, on the widget's key press
        if (keysHere &&
            handleKey(static_cast<QKeyEvent *>(event), type == QEvent::KeyPress, watched)) {
            event->accept();
            return true;
        }
    } else if (type == QEvent::MouseMove || type == QEvent::TouchBegin ||
               type == QEvent::MouseButtonPress) {
        // a mouse, a touch screen or a lost clicker: the on-screen buttons come up
        if (inWindow)
            controls()->reveal();
    } else if (type == QEvent::Resize && watched == view()) {
        view()->fitToWindow();
    }
    return QObject::eventFilter(watched, event);
}

Theme PresentationController::theme() const
{
    const QSettings settings;
    Theme t = Theme::byName(
        settings.value(QLatin1String(kThemeKey), QStringLiteral("contrast")).toString());
    if (t.name == QLatin1String("print"))
        t = Theme::highContrast();
    const double scale =
        std::clamp(settings.value(QLatin1String(kScaleKey), kScaleDefault).toDouble(), 1.0, 3.0);
    t.fontScale = scale;
    t.lineScale = std::max(2.0, scale * 1.25);
    return t;
}

void PresentationController::setSetting(const QString &key, const QVariant &value)
{
    QSettings().setValue(key, value);
    if (isPresenting())
        fit();
}

void PresentationController::setPresenting(bool on)
{
    if (on == isPresenting()) {
        m_parts.action->setChecked(on);
        return;
    }
    if (on)
        begin();
    else
        finish();
}

void PresentationController::begin()
{
    if (wantsOwnWindow()) {
        beginOnOwnScreen(screen());
        return;
    }
    QMainWindow *window = m_parts.window;
    Saved s;
    s.dockState = window->saveState();
    s.windowState = window->windowState();
    s.geometry = window->geometry();
    s.screen = window->screen();
    s.menuBar = window->menuBar()->isVisibleTo(window);
    s.statusBar = window->statusBar()->isVisibleTo(window);
    s.theme = m_hooks.theme();
    s.firstTick = m_parts.state->firstTick();
    s.pixelsPerTick = m_parts.state->pixelsPerTick();
    s.playhead = m_parts.state->playhead();
    s.selection = m_parts.state->selection();
    s.splitterSizes = m_parts.splitter->sizes();
    m_saved = s;
    m_parts.playback->pause();
    // a highlighted outcome would give away the end of the story
    m_hooks.clearSelectionQuietly();

    window->menuBar()->hide();
    window->statusBar()->hide();
    for (QToolBar *tb : window->findChildren<QToolBar *>())
        tb->hide();
    for (QDockWidget *d : window->findChildren<QDockWidget *>())
        d->hide();
    for (QWidget *w : m_parts.putAway)
        w->hide();
    m_parts.panel->show();
    // what has not happened yet is hidden, not dimmed: the room predicts it
    m_parts.state->setHideFuture(true);
    qApp->installEventFilter(this);
    m_parts.action->setChecked(true);
    // the chosen screen (a projector), its whole area: set as well as asked for, since
    // without a window manager full screen is only a wish
    QScreen *target = screen();
    if (window->windowHandle() && target)
        window->windowHandle()->setScreen(target);
    window->setWindowState(window->windowState() | Qt::WindowFullScreen);
    if (target)
        window->setGeometry(target->geometry());
    fit();
    if (isWalking())
        m_walk->began();
    else
        start();
    m_parts.view->setFocus();
    // the full-screen geometry arrives later on some platforms: fit again then
    QTimer::singleShot(0, this, [this] {
        if (isPresenting())
            fit();
    });
}

void PresentationController::finish()
{
    QMainWindow *window = m_parts.window;
    qApp->removeEventFilter(this);
    controls()->dismiss();
    const Saved s = *m_saved;
    m_saved.reset();
    m_atStart = false;
    m_parts.state->setPlayheadBefore(false);
    m_parts.state->setHideFuture(false);
    if (s.ownWindow) {
        // (hidden, not closed: closing is what ends presentation from that window)
        m_own->hide();
        window->activateWindow();
        if (isWalking()) {
            m_parts.action->setChecked(false);
            m_walk->ended();
            return;
        }
        m_parts.state->setSelection(s.selection);
        m_parts.state->setAxis(s.firstTick, s.pixelsPerTick);
        m_parts.state->setPlayhead(s.playhead);
        m_parts.action->setChecked(false);
        m_hooks.fitWindow();
        return;
    }
    m_parts.panel->hide();
    m_parts.scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_parts.splitter->setMinimumHeight(0);
    m_parts.panel->setMinimumHeight(0);
    m_parts.splitter->setMaximumHeight(QWIDGETSIZE_MAX);
    // back where it was, on the screen it was on (the laptop's, when presenting on a projector)
    if (window->windowHandle() && s.screen)
        window->windowHandle()->setScreen(s.screen);
    window->setWindowState(s.windowState);
    if (!(s.windowState & (Qt::WindowMaximized | Qt::WindowFullScreen)))
        window->setGeometry(s.geometry);
    window->menuBar()->setVisible(s.menuBar);
    window->statusBar()->setVisible(s.statusBar);
    for (QToolBar *tb : window->findChildren<QToolBar *>())
        tb->show();
    for (QWidget *w : m_parts.putAway)
        w->show();
    window->restoreState(s.dockState);
    m_hooks.setTheme(s.theme);
    m_parts.splitter->setSizes(s.splitterSizes);
    if (isWalking()) {
        // a lesson may show another scene now: it shows it as the normal window does
        m_parts.action->setChecked(false);
        m_hooks.fitWindow();
        m_walk->ended();
        return;
    }
    m_parts.state->setSelection(s.selection); // first: selecting may scroll to the outcome
    m_parts.state->setAxis(s.firstTick, s.pixelsPerTick);
    m_parts.state->setPlayhead(s.playhead);
    m_parts.action->setChecked(false);
    m_hooks.fitWindow();
}

void PresentationController::fit()
{
    TimelineView *view = this->view();
    if (!isPresenting() || m_fitting)
        return;
    if (onOwnScreen() && isWalking()) {
        // a lesson opened from the teacher's window while presenting on the projector: its
        // stage (question, votes, reveal) is the window's, so presentation moves to the window,
        // on the same screen, once the lesson has loaded
        QTimer::singleShot(0, this, [this] {
            if (onOwnScreen() && isWalking()) {
                finish();
                begin();
            }
        });
        return;
    }
    const QScopedValueRollback<bool> fitting(m_fitting, true);
    const Core::Scenario &scenario = m_parts.doc->scenario();
    const int height = std::max(200, shownWindow()->height());
    const int width = std::max(320, shownWindow()->width());
    const Theme chosen = theme();
    TimelineRenderer::Options o = view->options();
    const auto sizedAt = [&](double scale) {
        Theme t = chosen;
        t.fontScale = scale;
        t.lineScale = std::max(2.0, scale * 1.25);
        return t;
    };
    const auto lanesAt = [&](double scale) {
        o.theme = sizedAt(scale);
        return int(std::ceil(TimelineRenderer::preferredSize(scenario, o, width).height())) + 4;
    };
    const auto panelAt = [&](double scale) {
        const int own = panel()->requiredHeight(width, sizedAt(scale));
        return isWalking() ? std::max(own, m_walk->panelHeight(width, sizedAt(scale))) : own;
    };
    // The chosen text size, made smaller until the lanes (compare mode: two sets) and the
    // tallest step's explanation both fit, never below the smallest readable size; there
    // the lanes scroll, with the lock and storage lanes pinned in view.
    double scale = std::max(kSmallestScale, chosen.fontScale);
    while (scale > kSmallestScale && lanesAt(scale) + panelAt(scale) > height)
        scale = std::max(kSmallestScale, scale - 0.05);
    const Theme t = sizedAt(scale);
    const Theme now = shownTheme();
    if (now.name != t.name || now.fontScale != t.fontScale)
        setShownTheme(t);
    const int lanes = lanesAt(scale);
    view->setMinimumHeight(lanes);
    // Scrolled, the pinned lanes (compare mode: both runs' outcomes) fit all the same: the
    // explanation gives way below its sentences (the rest of the tick, whole lines at a time).
    o.theme = t;
    const int pinned =
        std::min(lanes, int(std::ceil(TimelineRenderer::pinnedHeight(scenario, o, width))) + 4);
    // (a lesson's question and reveal are never cut: the stage keeps the height it needs)
    int below = isWalking() ? panelAt(scale) : panel()->essentialHeight(width, t);
    // (compare mode's paragraph on the other run gives way to both runs' pinned lanes)
    if (!isWalking() && pinned > height - below)
        below = panel()->essentialHeight(width, t, false);
    // (and then the panel's margins and heading line, before the lanes would not all show)
    const bool tight = !isWalking() && pinned > height - below;
    if (tight)
        below = panel()->essentialHeight(width, t, false, true);
    panel()->setTight(tight);
    const int timeline = std::max({100, std::min(lanes, height - panelAt(scale)),
                                   std::min({pinned, height - 200, height - below})});
    // (the explanation then takes what is left, its paragraph cut below the sentence, and
    // never makes the window taller than its screen)
    panel()->setMinimumHeight(1);
    splitter()->setMinimumHeight(timeline);
    splitter()->setMaximumHeight(timeline);
    scroll()->setVerticalScrollBarPolicy(lanes > timeline ? Qt::ScrollBarAsNeeded
                                                          : Qt::ScrollBarAlwaysOff);
    view->fitToWindow();
}

bool PresentationController::handleKey(QKeyEvent *event, bool act, const QObject *receiver)
{
    if (isWalking()) {
        switch (m_walk->keyUse(event, receiver)) {
        case PresentationWalk::KeyUse::Walk:
            if (act)
                m_walk->key(event);
            return true;
        case PresentationWalk::KeyUse::Widget:
            return false;
        case PresentationWalk::KeyUse::Presentation:
            break;
        }
    }
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    void (PresentationController::*step)() = nullptr;
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_PageDown:
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        step = &PresentationController::next;
        break;
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_PageUp:
    case Qt::Key_Backspace:
        step = &PresentationController::previous;
        break;
    case Qt::Key_Home:
        step = &PresentationController::start;
        break;
    case Qt::Key_End:
        step = &PresentationController::end;
        break;
    case Qt::Key_Escape:
    case Qt::Key_F11:
        if (act)
            setPresenting(false);
        return true;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus: {
        if (act) {
            const double now = theme().fontScale;
            const double next = event->key() == Qt::Key_Minus ? now - 0.2 : now + 0.2;
            setSetting(QLatin1String(kScaleKey), std::clamp(next, 1.0, 3.0));
        }
        return true;
    }
    default:
        return false;
    }
    if (act)
        (this->*step)();
    return true;
}

void PresentationController::showActingLane()
{
    // Lanes taller than the screen scroll under the pinned lock and storage lanes: the lane of
    // whoever acts in this step comes into the part above them.
    QScrollBar *bar = scroll()->verticalScrollBar();
    if (!bar || bar->maximum() <= 0 || !m_parts.state->hasPlayhead())
        return;
    const Core::Trace &t = m_parts.doc->trace();
    const Core::StoryStep step =
        Core::storyStepAt(m_parts.doc->scenario(), t, m_parts.state->playhead());
    if (step.ref == Core::kNone || step.subject != Core::StoryStep::Subject::Event)
        return;
    TimelineRenderer::Options o = view()->options();
    o.pinBottom = 0; // where the lanes are in the whole picture
    const TimelineLayout l =
        TimelineRenderer::layout(m_parts.doc->scenario(), o, QRectF(view()->rect()));
    const std::size_t client = t.events[step.ref].client;
    if (l.panels.empty() || client >= l.panels.front().clients.size())
        return;
    // compare mode: the top panel's lane (the story is told of it), above the lanes pinned
    // at the bottom (their height, whatever the scroll)
    const QRectF lane = l.panels.front().clients[client].lane;
    const TimelineLayout now = view()->currentLayout();
    const QRect visible = view()->visibleRegion().boundingRect();
    const double pinned = now.panels.empty() || std::isinf(now.panels.front().pinTop)
                              ? 0
                              : std::max(0.0, visible.bottom() + 1 - now.panels.front().pinTop);
    const int room = scroll()->viewport()->height() - int(std::ceil(pinned));
    const int top = bar->value();
    if (lane.top() >= top && lane.bottom() <= top + room)
        return;
    bar->setValue(std::clamp(int(lane.bottom()) - room + 4, 0, bar->maximum()));
}

void PresentationController::start()
{
    if (isWalking()) {
        m_walk->toStart();
        return;
    }
    const std::vector<Core::Tick> ticks = storyTicks(*m_parts.doc, *m_parts.state);
    m_parts.playback->pause();
    m_atStart = true;
    m_parts.state->setPlayheadBefore(true);
    m_parts.state->setPlayhead(ticks.empty() ? 0 : ticks.front());
    setStep(PresentationPanel::Step::Start);
}

void PresentationController::end()
{
    if (isWalking()) {
        m_walk->toEnd();
        return;
    }
    m_parts.playback->pause();
    m_atStart = false;
    m_parts.state->setPlayheadBefore(false);
    m_parts.state->clearPlayhead();
    setStep(PresentationPanel::Step::End);
}

void PresentationController::next()
{
    if (isWalking()) {
        m_walk->forward();
        return;
    }
    const std::vector<Core::Tick> ticks = storyTicks(*m_parts.doc, *m_parts.state);
    if (ticks.empty())
        return;
    Core::Tick tick = ticks.front();
    if (!m_atStart) {
        if (!m_parts.state->hasPlayhead())
            return; // the last step stays: End shows everything
        const auto it = std::upper_bound(ticks.begin(), ticks.end(), m_parts.state->playhead());
        if (it == ticks.end())
            return;
        tick = *it;
    }
    m_atStart = false;
    m_parts.playback->pause();
    m_parts.state->setPlayheadBefore(false);
    m_parts.state->setPlayhead(tick);
    setStep(PresentationPanel::Step::AtTick);
    showActingLane();
}

void PresentationController::previous()
{
    if (isWalking()) {
        m_walk->back();
        return;
    }
    const std::vector<Core::Tick> ticks = storyTicks(*m_parts.doc, *m_parts.state);
    if (m_atStart || ticks.empty())
        return;
    if (!m_parts.state->hasPlayhead()) { // from the whole run back to the last step
        m_parts.state->setPlayhead(ticks.back());
        setStep(PresentationPanel::Step::AtTick);
        return;
    }
    const auto it = std::lower_bound(ticks.begin(), ticks.end(), m_parts.state->playhead());
    if (it == ticks.begin()) {
        start(); // before the first step: nothing shown yet
        return;
    }
    m_parts.playback->pause();
    m_parts.state->setPlayhead(*std::prev(it));
    setStep(PresentationPanel::Step::AtTick);
    showActingLane();
}
