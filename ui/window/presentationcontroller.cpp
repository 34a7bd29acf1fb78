#include "presentationcontroller.h"

#include "document.h"
#include "playback.h"
#include "presentationcontrols.h"
#include "presentationpanel.h"
#include "timelinerenderer.h"
#include "timelineview.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QMainWindow>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <cmath>

PresentationController::PresentationController(Parts parts, Hooks hooks, QObject *parent)
    : QObject(parent), m_parts(std::move(parts)), m_hooks(std::move(hooks))
{
    connect(m_parts.controls, &PresentationControls::back, this, &PresentationController::previous);
    connect(m_parts.controls, &PresentationControls::next, this, &PresentationController::next);
    connect(m_parts.controls, &PresentationControls::exit, this, [this] { setPresenting(false); });
}

bool PresentationController::eventFilter(QObject *watched, QEvent *event)
{
    // Installed on the whole application while presenting. A real key press visits the
    // QWindow first and then the focus widget: only the widget's copy is acted on (claiming the
    // window's would swallow the key before any widget saw it).
    const QEvent::Type type = event->type();
    auto *w = qobject_cast<QWidget *>(watched);
    const bool inWindow = w && w->window() == m_parts.window;
    if (type == QEvent::ShortcutOverride || type == QEvent::KeyPress) {
        // claiming the ShortcutOverride keeps Space, Home, End... from firing their actions;
        // the step happens once, on the widget's key press
        if (inWindow && handleKey(static_cast<QKeyEvent *>(event), type == QEvent::KeyPress)) {
            event->accept();
            return true;
        }
    } else if (type == QEvent::MouseMove || type == QEvent::TouchBegin ||
               type == QEvent::MouseButtonPress) {
        // a mouse, a touch screen or a lost clicker: the on-screen buttons come up
        if (inWindow)
            m_parts.controls->reveal();
    } else if (type == QEvent::Resize && watched == m_parts.view) {
        m_parts.view->fitToWindow();
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
    QMainWindow *window = m_parts.window;
    Saved s;
    s.dockState = window->saveState();
    s.windowState = window->windowState();
    s.geometry = window->geometry();
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
    qApp->installEventFilter(this);
    m_parts.action->setChecked(true);
    // offscreen and on platforms without full screen this only resizes: harmless
    window->setWindowState(window->windowState() | Qt::WindowFullScreen);
    fit();
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
    m_parts.controls->dismiss();
    const Saved s = *m_saved;
    m_saved.reset();
    m_atStart = false;
    m_parts.view->setPlayheadBefore(false);
    m_parts.panel->hide();
    m_parts.scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_parts.splitter->setMinimumHeight(0);
    m_parts.splitter->setMaximumHeight(QWIDGETSIZE_MAX);
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
    m_parts.state->setSelection(s.selection); // first: selecting may scroll to the outcome
    m_parts.state->setAxis(s.firstTick, s.pixelsPerTick);
    m_parts.state->setPlayhead(s.playhead);
    m_parts.action->setChecked(false);
    m_hooks.fitWindow();
}

void PresentationController::fit()
{
    TimelineView *view = m_parts.view;
    if (!isPresenting())
        return;
    // the chosen text size, made smaller when the lanes (compare mode: two sets) would not
    // leave the explanation about a third of the screen
    Theme t = theme();
    TimelineRenderer::Options o = view->options();
    o.theme = t;
    o.theme.fontScale = 1;
    const Core::Scenario &scenario = m_parts.doc->scenario();
    const double natural = TimelineRenderer::preferredSize(scenario, o, 900).height();
    // menus, toolbars and status bar are hidden: the window is the timeline and the panel
    const double room = std::max(200, m_parts.window->height()) * 0.64;
    if (natural * t.fontScale > room - 12)
        t.fontScale = std::max(0.7, (room - 12) / natural); // the margin: rounding of fonts
    t.lineScale = std::max(2.0, t.fontScale * 1.25);
    const Theme now = m_hooks.theme();
    if (now.name != t.name || now.fontScale != t.fontScale)
        m_hooks.setTheme(t);
    o.theme = m_hooks.theme();
    const int lanes =
        int(std::ceil(TimelineRenderer::preferredSize(scenario, o, 900).height())) + 4;
    view->setMinimumHeight(lanes);
    // the lanes get what they need (more clients than fit: scrolled), the explanation the rest
    const int timeline = std::min(lanes, int(room));
    m_parts.splitter->setMinimumHeight(timeline);
    m_parts.splitter->setMaximumHeight(timeline);
    m_parts.scroll->setVerticalScrollBarPolicy(lanes > timeline ? Qt::ScrollBarAsNeeded
                                                                : Qt::ScrollBarAlwaysOff);
    view->fitToWindow();
}

bool PresentationController::handleKey(QKeyEvent *event, bool act)
{
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

void PresentationController::start()
{
    const Core::Trace &t = m_parts.doc->trace();
    m_parts.playback->pause();
    m_atStart = true;
    m_parts.view->setPlayheadBefore(true);
    m_parts.state->setPlayhead(t.events.empty() ? 0 : t.events.front().tick);
    m_parts.panel->setStep(PresentationPanel::Step::Start);
}

void PresentationController::end()
{
    m_parts.playback->pause();
    m_atStart = false;
    m_parts.view->setPlayheadBefore(false);
    m_parts.state->clearPlayhead();
    m_parts.panel->setStep(PresentationPanel::Step::End);
}

void PresentationController::next()
{
    const Core::Trace &t = m_parts.doc->trace();
    if (t.events.empty())
        return;
    Core::Tick tick = t.events.front().tick;
    if (!m_atStart && !Playback::nextEventTick(t, *m_parts.state, &tick))
        return; // the last step stays: End shows everything
    m_atStart = false;
    m_parts.view->setPlayheadBefore(false);
    m_parts.playback->pause();
    m_parts.state->setPlayhead(tick);
    m_parts.panel->setStep(PresentationPanel::Step::AtTick);
}

void PresentationController::previous()
{
    const Core::Trace &t = m_parts.doc->trace();
    if (m_atStart || t.events.empty())
        return;
    Core::Tick tick = 0;
    if (Playback::previousEventTick(t, *m_parts.state, &tick)) {
        m_parts.playback->pause();
        m_parts.state->setPlayhead(tick);
        m_parts.panel->setStep(PresentationPanel::Step::AtTick);
    } else {
        start(); // before the first event: nothing shown yet
    }
}
