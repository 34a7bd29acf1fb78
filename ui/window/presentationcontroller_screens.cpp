// PresentationController, part: the screen presentation opens on (View > Present on) and the
// window of its own it opens there when that screen is not the window's (a projector beside a
// laptop: presentationwindow.h), with the parts presentation shows and fits in either case.

#include "window/presentationcontroller.h"

#include "views/presentationcontrols.h"
#include "views/presentationpanel.h"
#include "views/timelineview.h"
#include "window/playback.h"
#include "window/presentationwindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QTimer>
#include <QWindow>

#include <cmath>

void PresentationController::beginOnOwnScreen(QScreen *target)
{
    // The window stays as it is (the teacher's view of the same step): only what presenting
    // changes in the shared view state is kept, to be put back when it ends.
    Saved s;
    s.ownWindow = true;
    s.firstTick = m_parts.state->firstTick();
    s.pixelsPerTick = m_parts.state->pixelsPerTick();
    s.playhead = m_parts.state->playhead();
    s.selection = m_parts.state->selection();
    if (!m_own) {
        m_own = new PresentationWindow(m_parts.doc, m_parts.state, m_parts.window);
        connectControls(m_own->controls());
        m_own->addActions(m_parts.keys); // (their shortcuts are the window's otherwise)
        connect(m_own, &PresentationWindow::closed, this, [this] { setPresenting(false); });
    }
    m_saved = s;
    m_parts.playback->pause();
    m_hooks.clearSelectionQuietly();
    m_parts.state->setHideFuture(true);
    qApp->installEventFilter(this);
    m_parts.action->setChecked(true);
    m_own->setTheme(theme());
    // on the projector, its whole area: the screen set as well as the geometry asked for,
    // since without a window manager full screen is only a wish
    m_own->setGeometry(target->geometry());
    m_own->winId(); // (its QWindow, to be put on that screen before it shows)
    m_own->windowHandle()->setScreen(target);
    m_own->showFullScreen();
    m_own->setGeometry(target->geometry());
    fit();
    if (isWalking())
        m_walk->began();
    else
        start();
    m_own->activateWindow();
    m_own->view()->setFocus();
    // the full-screen geometry arrives later on some platforms: fit again then
    QTimer::singleShot(0, this, [this] {
        if (isPresenting())
            fit();
    });
}

QScreen *PresentationController::screen() const
{
    const QString name = QSettings().value(QLatin1String(kScreenKey)).toString();
    for (QScreen *s : QGuiApplication::screens())
        if (!name.isEmpty() && s->name() == name)
            return s;
    return m_parts.window->screen();
}

bool PresentationController::wantsOwnWindow() const
{
    const QScreen *target = screen();
    return target && target != m_parts.window->screen() && !isWalking();
}

QWidget *PresentationController::shownWindow() const
{
    return onOwnScreen() ? static_cast<QWidget *>(m_own) : m_parts.window;
}

TimelineView *PresentationController::view() const
{
    return onOwnScreen() ? m_own->view() : m_parts.view;
}

QScrollArea *PresentationController::scroll() const
{
    return onOwnScreen() ? m_own->scroll() : m_parts.scroll;
}

QSplitter *PresentationController::splitter() const
{
    return onOwnScreen() ? m_own->splitter() : m_parts.splitter;
}

PresentationPanel *PresentationController::panel() const
{
    return onOwnScreen() ? m_own->panel() : m_parts.panel;
}

PresentationControls *PresentationController::controls() const
{
    return onOwnScreen() ? m_own->controls() : m_parts.controls;
}

Theme PresentationController::shownTheme() const
{
    return onOwnScreen() ? m_own->theme() : m_hooks.theme();
}

void PresentationController::setShownTheme(const Theme &theme)
{
    if (onOwnScreen())
        m_own->setTheme(theme);
    else
        m_hooks.setTheme(theme);
}

void PresentationController::setStep(PresentationPanel::Step step)
{
    panel()->setStep(step);
    if (panel() != m_parts.panel)
        m_parts.panel->setStep(step);
}

void PresentationController::addMenus(QMenu *menu)
{
    QMenu *presTheme = menu->addMenu(tr("Presentation t&heme"));
    auto *presThemes = new QActionGroup(presTheme);
    const QString chosenTheme = theme().name;
    for (const auto &[name, label] :
         {std::pair{QStringLiteral("contrast"), tr("Lecture hall: black on white")},
          std::pair{QStringLiteral("dark"), tr("Dark")},
          std::pair{QStringLiteral("light"), tr("Light")}}) {
        QAction *a = presTheme->addAction(label);
        a->setObjectName(QStringLiteral("presentationTheme-") + name);
        a->setCheckable(true);
        a->setChecked(name == chosenTheme);
        presThemes->addAction(a);
        // (copied into the lambda: C++17 captures no structured binding by name)
        connect(a, &QAction::triggered, this, [this, name = name] {
            setSetting(QLatin1String(PresentationController::kThemeKey), name);
        });
    }
    QMenu *presSize = menu->addMenu(tr("Presentation text si&ze"));
    auto *presSizes = new QActionGroup(presSize);
    const double chosenScale = QSettings()
                                   .value(QLatin1String(PresentationController::kScaleKey),
                                          PresentationController::kScaleDefault)
                                   .toDouble();
    for (const double scale : {1.3, 1.6, 2.0, 2.5}) {
        QAction *a = presSize->addAction(tr("%1×").arg(scale));
        a->setCheckable(true);
        a->setChecked(std::abs(scale - chosenScale) < 0.01);
        presSizes->addAction(a);
        connect(a, &QAction::triggered, this, [this, scale] {
            setSetting(QLatin1String(PresentationController::kScaleKey), scale);
        });
    }
    // a laptop and a projector: presentation opens full screen on the projector, and the
    // window comes back to the laptop's screen when it ends
    QMenu *presOn = menu->addMenu(tr("Present &on"));
    presOn->setObjectName(QStringLiteral("presentOn"));
    connect(presOn, &QMenu::aboutToShow, this, [presOn] {
        presOn->clear();
        auto *group = new QActionGroup(presOn);
        const QString chosen =
            QSettings().value(QLatin1String(PresentationController::kScreenKey)).toString();
        const auto add = [&](const QString &label, const QString &name) {
            QAction *a = presOn->addAction(label);
            a->setCheckable(true);
            a->setData(name);
            a->setChecked(name == chosen);
            group->addAction(a);
            connect(a, &QAction::triggered, presOn, [name] {
                QSettings().setValue(QLatin1String(PresentationController::kScreenKey), name);
            });
        };
        add(tr("The window's screen"), QString());
        for (const QScreen *screen : QGuiApplication::screens())
            add(tr("%1 (%2×%3)")
                    .arg(screen->name())
                    .arg(screen->size().width())
                    .arg(screen->size().height()),
                screen->name());
    });
}
