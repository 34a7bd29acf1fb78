#include "window/windowactions.h"

#include "window/presentationcontroller.h"
#include "window/simulationmenus.h"

#include "lessonfile.h"
#include "scenariofile.h"

#include <QAction>
#include <QActionGroup>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QMenuBar>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

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

WindowActions::WindowActions(QMainWindow *window, QUndoStack *undoStack)
    : QObject(window), m_window(window)
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

    openLesson = make(QStringLiteral("openLesson"), tr("Open &Lesson…"));
    openLesson->setToolTip(tr("A lesson: scenes that ask the room to predict, then reveal"));
    closeLesson = make(QStringLiteral("closeLesson"), tr("Close Lesso&n"));
    closeLesson->setEnabled(false);
    exportVotes = make(QStringLiteral("exportRoomVotes"), tr("Export Room &Votes as CSV…"));
    exportVotes->setToolTip(tr("The phones' votes on this lesson's questions (counts only)"));
    exportVotes->setEnabled(false);

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
    resetLayout = make(QStringLiteral("resetLayout"), tr("&Reset layout"));
    resetLayout->setToolTip(tr("The docks, the window's size and the lanes as on a first start"));

    play = make(QStringLiteral("play"), tr("&Play"), QKeySequence(Qt::Key_Space));
    play->setToolTip(tr("Play / pause (Space)"));
    previous =
        make(QStringLiteral("previousEvent"), tr("P&revious event"), QKeySequence(Qt::Key_Left));
    previous->setToolTip(tr("Move the playhead to the previous event (Left)"));
    next = make(QStringLiteral("nextEvent"), tr("&Next event"), QKeySequence(Qt::Key_Right));
    next->setToolTip(tr("Move the playhead to the next event (Right)"));
    showAll = make(QStringLiteral("showAll"), tr("Show &all"), QKeySequence(Qt::Key_End));
    showAll->setToolTip(tr("Remove the playhead and show the whole run (End)"));
    // Left and Right move the playhead; with Alt they go from scene to scene
    previousScene = make(QStringLiteral("previousScene"), tr("Previous &scene"),
                         QKeySequence(Qt::ALT | Qt::Key_Left));
    previousScene->setEnabled(false);
    nextScene =
        make(QStringLiteral("nextScene"), tr("Next s&cene"), QKeySequence(Qt::ALT | Qt::Key_Right));
    nextScene->setEnabled(false);

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

    tour = make(QStringLiteral("tour"), tr("Quick &tour"));
    about = make(QStringLiteral("about"), tr("&About FenceScope"));
    about->setMenuRole(QAction::AboutRole);

    // keys without modifiers must not fire while the user types in the inspector; line edits
    // and spin boxes claim them through ShortcutOverride, so window shortcuts are safe
    for (QAction *a : {fencing, compare, play, previous, next, deleteAction})
        a->setShortcutContext(Qt::WindowShortcut);
}

void WindowActions::layOut(SimulationMenus *simulation, PresentationController *presentation)
{
    QMenuBar *bar = m_window->menuBar();
    QMenu *file = bar->addMenu(tr("&File"));
    file->addAction(newFile);
    file->addAction(open);
    m_recent = file->addMenu(tr("Open &Recent"));
    m_recent->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(openLesson);
    file->addAction(closeLesson);
    file->addAction(exportVotes);
    file->addSeparator();
    file->addAction(save);
    file->addAction(saveAs);
    file->addSeparator();
    file->addAction(exportPicture);
    file->addAction(storyboard);
    file->addAction(animation);
    file->addSeparator();
    file->addAction(quit);

    QMenu *edit = bar->addMenu(tr("&Edit"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(copyImage);
    edit->addSeparator();
    edit->addAction(addAcquire);
    edit->addAction(addWrite);
    edit->addAction(addPause);
    edit->addAction(addRelease);
    edit->addAction(deleteAction);
    edit->addSeparator();
    edit->addAction(addClient);
    edit->addAction(removeClient);

    QMenu *sim = bar->addMenu(tr("&Simulation"));
    sim->addAction(fencing);
    simulation->addRuleAndTokens(sim);
    sim->addAction(compare);
    simulation->addCompareWith(sim);
    sim->addSeparator();
    sim->addAction(live);

    addScenariosMenu();

    m_view = bar->addMenu(tr("&View"));
    m_view->addAction(zoomIn);
    m_view->addAction(zoomOut);
    m_view->addAction(fit);
    m_view->addSeparator();
    m_view->addAction(compare);
    m_view->addSeparator();
    m_view->addMenu(themeMenu());
    m_view->addSeparator();
    m_view->addAction(present);
    presentation->addMenus(m_view);
    m_view->addAction(resetLayout);
    m_view->addSeparator(); // the docks' switches follow

    QMenu *playback = bar->addMenu(tr("&Playback"));
    playback->addAction(play);
    playback->addAction(previous);
    playback->addAction(next);
    playback->addAction(showAll);
    playback->addSeparator();
    playback->addAction(previousScene);
    playback->addAction(nextScene);

    QMenu *help = bar->addMenu(tr("&Help"));
    help->addAction(tour);
    help->addMenu(lessonsMenu());
    help->addAction(about);

    addToolBar(simulation);
}

void WindowActions::checkTheme(const QString &name)
{
    for (QAction *a : m_themes->actions())
        a->setChecked(a->data().toString() == name);
}

void WindowActions::addScenariosMenu()
{
    QMenu *scenarios = m_window->menuBar()->addMenu(tr("S&cenarios"));
    scenarios->setObjectName(QStringLiteral("scenariosMenu"));
    // grouped as a course takes them, a section each
    for (const Core::ScenarioFile::BuiltinGroup &group : Core::ScenarioFile::builtinGroups()) {
        scenarios->addSection(group.title);
        for (const QString &name : group.names) {
            const Core::LoadResult r =
                Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
            QAction *a = scenarios->addAction(
                r.ok() && !r.scenario->title.isEmpty() ? r.scenario->title : name);
            a->setObjectName(QStringLiteral("preset-") + name);
            a->setData(name);
            connect(a, &QAction::triggered, this, [this, name] { emit presetChosen(name); });
        }
    }
}

QMenu *WindowActions::themeMenu()
{
    auto *themes = new QMenu(tr("&Theme"), m_window);
    m_themes = new QActionGroup(this);
    for (const auto &[name, label] :
         {std::pair{QStringLiteral("light"), tr("&Light")},
          std::pair{QStringLiteral("dark"), tr("&Dark")},
          std::pair{QStringLiteral("contrast"), tr("Lecture &hall (large)")}}) {
        QAction *a = themes->addAction(label);
        a->setObjectName(QStringLiteral("theme-") + name);
        a->setCheckable(true);
        a->setData(name);
        m_themes->addAction(a);
        connect(a, &QAction::triggered, this, [this, name = name] { emit themeChosen(name); });
    }
    return themes;
}

QMenu *WindowActions::lessonsMenu()
{
    auto *lessons = new QMenu(tr("&Lessons"), m_window);
    lessons->setObjectName(QStringLiteral("lessonsMenu"));
    for (const QString &name : Core::LessonFile::builtinNames()) {
        // a lesson's title, without reading the whole lesson (its scenes load when chosen)
        QString title = name;
        if (QFile f(Core::LessonFile::builtinPath(name)); f.open(QIODevice::ReadOnly)) {
            const QString own = QJsonDocument::fromJson(f.readAll())
                                    .object()
                                    .value(QStringLiteral("title"))
                                    .toString();
            if (!own.isEmpty())
                title = own;
        }
        QAction *a = lessons->addAction(title);
        a->setObjectName(QStringLiteral("lesson-") + name);
        a->setData(name);
        connect(a, &QAction::triggered, this, [this, name] { emit lessonChosen(name); });
    }
    return lessons;
}

void WindowActions::addToolBar(SimulationMenus *simulation)
{
    // It fits 1280 px (a projector) with nothing pushed behind the » extension: the file,
    // undo and zoom actions are icons (their names are in tooltips and menus), the lesson's
    // switches keep their words, and the Add actions share one menu button.
    QToolBar *tb = m_window->addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("mainToolBar"));
    tb->setMovable(false);
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    const auto iconOnly = [tb](QAction *a) {
        tb->addAction(a);
        if (auto *b = qobject_cast<QToolButton *>(tb->widgetForAction(a)))
            b->setToolButtonStyle(Qt::ToolButtonIconOnly);
        if (a->toolTip() == a->iconText() && !a->shortcut().isEmpty())
            a->setToolTip(QStringLiteral("%1 (%2)").arg(
                a->iconText(), a->shortcut().toString(QKeySequence::NativeText)));
    };
    iconOnly(open);
    iconOnly(save);
    tb->addSeparator();
    iconOnly(undo);
    iconOnly(redo);
    tb->addSeparator();
    tb->addAction(fencing);
    simulation->addRuleBox(tb);
    tb->addAction(compare);
    tb->addAction(present);
    tb->addSeparator();
    auto *add = new QToolButton(tb);
    add->setObjectName(QStringLiteral("addButton"));
    add->setText(tr("Add"));
    add->setToolTip(
        tr("Add an acquire, a write, a pause or a release at the playhead, or a client"));
    add->setPopupMode(QToolButton::InstantPopup);
    add->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *addMenu = new QMenu(add);
    for (QAction *a : {addAcquire, addWrite, addPause, addRelease})
        addMenu->addAction(a);
    addMenu->addSeparator();
    addMenu->addAction(addClient);
    add->setMenu(addMenu);
    tb->addWidget(add);
    tb->addSeparator();
    iconOnly(zoomOut);
    iconOnly(zoomIn);
    iconOnly(fit);
}
