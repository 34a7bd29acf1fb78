// MainWindow, part: presentation mode. Full screen, docks put away, the presentation theme and
// text size, and the application-wide event filter whose keys win over every shortcut while
// presenting (it also fits the lanes when the splitter or the viewport is resized).

#include "mainwindow.h"

#include "document.h"
#include "playback.h"
#include "presentationcontrols.h"
#include "presentationpanel.h"
#include "summarystrip.h"
#include "timelinerenderer.h"
#include "timelineview.h"
#include "tokenchart.h"
#include "viewstate.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QWindow>

#include <algorithm>

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // presentation mode watches the whole application: its keys win over every shortcut.
    // A real key press visits the QWindow first and then the focus widget: only the widget's
    // copy is acted on (claiming the window's would swallow the key before any widget saw it).
    if (isPresenting()) {
        const QEvent::Type type = event->type();
        if (type == QEvent::ShortcutOverride || type == QEvent::KeyPress) {
            auto *w = qobject_cast<QWidget *>(watched);
            // claiming the ShortcutOverride keeps Space, Home, End... from firing their
            // actions; the step happens once, on the widget's key press
            if (w && w->window() == this &&
                presentationKey(static_cast<QKeyEvent *>(event), type == QEvent::KeyPress)) {
                event->accept();
                return true;
            }
        } else if (type == QEvent::MouseMove || type == QEvent::TouchBegin ||
                   type == QEvent::MouseButtonPress) {
            // a mouse, a touch screen or a lost clicker: the on-screen buttons come up
            auto *w = qobject_cast<QWidget *>(watched);
            if (w && w->window() == this)
                m_presControls->reveal();
        } else if (type == QEvent::Resize && watched == m_timeline) {
            static_cast<TimelineView *>(m_timeline)->fitToWindow();
        }
    }
    if (m_timelineScroll && watched == m_timelineScroll->viewport() &&
        event->type() == QEvent::Resize)
        m_timeline->update();
    // the splitter's height settles after the window's (docks, toolbar): fit when it does
    if (watched == m_splitter && event->type() == QEvent::Resize)
        fitSplitter();
    return QMainWindow::eventFilter(watched, event);
}

// ---------------------------------------------------------------------------------------------
// Presentation mode

Theme MainWindow::presentationTheme() const
{
    const QSettings settings;
    Theme t = Theme::byName(
        settings.value(QLatin1String(kPresentationThemeKey), QStringLiteral("contrast"))
            .toString());
    if (t.name == QLatin1String("print"))
        t = Theme::highContrast();
    const double scale = std::clamp(
        settings.value(QLatin1String(kPresentationScaleKey), kPresentationScaleDefault).toDouble(),
        1.0, 3.0);
    t.fontScale = scale;
    t.lineScale = std::max(2.0, scale * 1.25);
    return t;
}

void MainWindow::setPresentationSetting(const QString &key, const QVariant &value)
{
    QSettings().setValue(key, value);
    if (isPresenting())
        fitPresentation();
}

void MainWindow::setPresenting(bool on)
{
    if (on == isPresenting()) {
        m_presentAct->setChecked(on);
        return;
    }
    auto *view = static_cast<TimelineView *>(m_timeline);
    if (on) {
        Presented p;
        p.dockState = saveState();
        p.windowState = windowState();
        p.geometry = geometry();
        p.menuBar = menuBar()->isVisibleTo(this);
        p.statusBar = statusBar()->isVisibleTo(this);
        p.theme = m_theme;
        p.firstTick = m_state->firstTick();
        p.pixelsPerTick = m_state->pixelsPerTick();
        p.playhead = m_state->playhead();
        p.selection = m_state->selection();
        p.splitterSizes = m_splitter->sizes();
        m_presented = p;
        m_playback->pause();
        // a highlighted outcome would give away the end of the story
        m_syncingSelection = true; // the event log keeps its row for when we come back
        m_state->clearSelection();
        m_syncingSelection = false;

        menuBar()->hide();
        statusBar()->hide();
        for (QToolBar *tb : findChildren<QToolBar *>())
            tb->hide();
        for (QDockWidget *d : findChildren<QDockWidget *>())
            d->hide();
        m_summary->hide();
        m_chart->hide();
        m_playbackBar->hide();
        m_presPanel->show();
        qApp->installEventFilter(this);
        m_presentAct->setChecked(true);
        // offscreen and on platforms without full screen this only resizes: harmless
        setWindowState(windowState() | Qt::WindowFullScreen);
        fitPresentation();
        presentationStart();
        view->setFocus();
        // the full-screen geometry arrives later on some platforms: fit again then
        QTimer::singleShot(0, this, [this] {
            if (isPresenting())
                fitPresentation();
        });
        return;
    }

    qApp->removeEventFilter(this);
    m_presControls->dismiss();
    const Presented p = *m_presented;
    m_presented.reset();
    m_presAtStart = false;
    view->setPlayheadBefore(false);
    m_presPanel->hide();
    m_timelineScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_splitter->setMinimumHeight(0);
    m_splitter->setMaximumHeight(QWIDGETSIZE_MAX);
    setWindowState(p.windowState);
    if (!(p.windowState & (Qt::WindowMaximized | Qt::WindowFullScreen)))
        setGeometry(p.geometry);
    menuBar()->setVisible(p.menuBar);
    statusBar()->setVisible(p.statusBar);
    for (QToolBar *tb : findChildren<QToolBar *>())
        tb->show();
    m_summary->show();
    m_chart->show();
    m_playbackBar->show();
    restoreState(p.dockState);
    m_theme = p.theme;
    applyTheme();
    m_splitter->setSizes(p.splitterSizes);
    m_state->setSelection(p.selection); // first: selecting may scroll to the outcome
    m_state->setAxis(p.firstTick, p.pixelsPerTick);
    m_state->setPlayhead(p.playhead);
    m_presentAct->setChecked(false);
    fitSplitter();
}

void MainWindow::fitPresentation()
{
    auto *view = qobject_cast<TimelineView *>(m_timeline);
    if (!view || !isPresenting())
        return;
    // the chosen text size, made smaller when the lanes (compare mode: two sets) would not
    // leave the explanation about a third of the screen
    Theme t = presentationTheme();
    TimelineRenderer::Options o = view->options();
    o.theme = t;
    o.theme.fontScale = 1;
    const double natural = TimelineRenderer::preferredSize(m_doc->scenario(), o, 900).height();
    // menus, toolbars and status bar are hidden: the window is the timeline and the panel
    const double room = std::max(200, height()) * 0.64;
    if (natural * t.fontScale > room - 12)
        t.fontScale = std::max(0.7, (room - 12) / natural); // the margin: rounding of fonts
    t.lineScale = std::max(2.0, t.fontScale * 1.25);
    if (m_theme.name != t.name || m_theme.fontScale != t.fontScale) {
        m_theme = t;
        applyTheme();
    }
    o.theme = m_theme;
    const int lanes =
        int(std::ceil(TimelineRenderer::preferredSize(m_doc->scenario(), o, 900).height())) + 4;
    view->setMinimumHeight(lanes);
    // the lanes get what they need (more clients than fit: scrolled), the explanation the rest
    const int timeline = std::min(lanes, int(room));
    m_splitter->setMinimumHeight(timeline);
    m_splitter->setMaximumHeight(timeline);
    m_timelineScroll->setVerticalScrollBarPolicy(lanes > timeline ? Qt::ScrollBarAsNeeded
                                                                  : Qt::ScrollBarAlwaysOff);
    view->fitToWindow();
}

bool MainWindow::presentationKey(QKeyEvent *event, bool act)
{
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    void (MainWindow::*step)() = nullptr;
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_PageDown:
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        step = &MainWindow::presentationNext;
        break;
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_PageUp:
    case Qt::Key_Backspace:
        step = &MainWindow::presentationPrevious;
        break;
    case Qt::Key_Home:
        step = &MainWindow::presentationStart;
        break;
    case Qt::Key_End:
        step = &MainWindow::presentationEnd;
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
            const double now = presentationTheme().fontScale;
            const double next = event->key() == Qt::Key_Minus ? now - 0.2 : now + 0.2;
            setPresentationSetting(QLatin1String(kPresentationScaleKey),
                                   std::clamp(next, 1.0, 3.0));
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

void MainWindow::presentationStart()
{
    const Core::Trace &t = m_doc->trace();
    m_playback->pause();
    m_presAtStart = true;
    static_cast<TimelineView *>(m_timeline)->setPlayheadBefore(true);
    m_state->setPlayhead(t.events.empty() ? 0 : t.events.front().tick);
    m_presPanel->setStep(PresentationPanel::Step::Start);
}

void MainWindow::presentationEnd()
{
    m_playback->pause();
    m_presAtStart = false;
    static_cast<TimelineView *>(m_timeline)->setPlayheadBefore(false);
    m_state->clearPlayhead();
    m_presPanel->setStep(PresentationPanel::Step::End);
}

void MainWindow::presentationNext()
{
    const Core::Trace &t = m_doc->trace();
    if (t.events.empty())
        return;
    Core::Tick tick = t.events.front().tick;
    if (!m_presAtStart && !Playback::nextEventTick(t, *m_state, &tick))
        return; // the last step stays: End shows everything
    m_presAtStart = false;
    static_cast<TimelineView *>(m_timeline)->setPlayheadBefore(false);
    m_playback->pause();
    m_state->setPlayhead(tick);
    m_presPanel->setStep(PresentationPanel::Step::AtTick);
}

void MainWindow::presentationPrevious()
{
    const Core::Trace &t = m_doc->trace();
    if (m_presAtStart || t.events.empty())
        return;
    Core::Tick tick = 0;
    if (Playback::previousEventTick(t, *m_state, &tick)) {
        m_playback->pause();
        m_state->setPlayhead(tick);
        m_presPanel->setStep(PresentationPanel::Step::AtTick);
    } else {
        presentationStart(); // before the first event: nothing shown yet
    }
}
