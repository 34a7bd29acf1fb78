// Monkey, part: the actions. Everything goes in as a person's input goes in: mouse and keys
// through the window (QTest on its QWindow), menu entries triggered as a click on them triggers
// them, right-click menus answered while they are open. The wheel is the exception: QTest has
// none, so a QWheelEvent is sent to the timeline as its window would deliver it.
//
// Over 600 lines: one catalogue of what a person can do, in four sections (the timeline, keys
// and menus, fields and dialogs, presentation and the tour) that share the input helpers and the
// lists of good and bad entries at the top; the checks of the history are in monkeyhistory.cpp.

#include "monkey.h"
#include "scripteddialogs.h"
#include "windowparts.h"

#include "document/document.h"
#include "views/animationdialog.h"
#include "views/exportdialog.h"
#include "views/inspector.h"
#include "views/lanedialogs.h"
#include "views/tickfield.h"
#include "views/timelineview.h"
#include "window/mainwindow.h"
#include "window/playback.h"

#include "scenariofile.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>

#include <algorithm>
#include <memory>
#include <set>

namespace {

} // namespace

// One turn of the event loop, as the application's own loop turns between two inputs: what an
// input posted (repaints, timers due) is handled, and objects deleted later are deleted. QTest's
// input functions process events but leave deferred deletes, which no loop of a running app
// keeps: without them a chart's removed series would be painted after its removal.
void Monkey::turn()
{
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

namespace {

// A new press far (in time) from the last release: QTest stamps its events, and two presses
// within the double-click interval at one place would be a double click nobody meant.
void afterMouse()
{
    QTest::lastMouseTimestamp += 2 * QTest::mouseDoubleClickInterval;
}

// Every entry of a menu and its submenus that a click could trigger.
void entriesOf(const QMenu *menu, std::vector<QAction *> *out)
{
    for (QAction *a : menu->actions()) {
        if (a->isSeparator() || !a->isVisible() || !a->isEnabled())
            continue;
        if (a->menu())
            entriesOf(a->menu(), out);
        else
            out->push_back(a);
    }
}

struct KeyPress
{
    Qt::Key key;
    Qt::KeyboardModifiers mods;
    const char *name;
};

// The window's keys and the timeline's (README's tables), a few typed characters, and the
// shortcuts that open, save, export and present. Ctrl+Q is not among them: the run would end.
const std::vector<KeyPress> kKeys = {
    {Qt::Key_F, Qt::NoModifier, "F"},
    {Qt::Key_C, Qt::NoModifier, "C"},
    {Qt::Key_Space, Qt::NoModifier, "Space"},
    {Qt::Key_Left, Qt::NoModifier, "Left"},
    {Qt::Key_Right, Qt::NoModifier, "Right"},
    {Qt::Key_Left, Qt::ShiftModifier, "Shift+Left"},
    {Qt::Key_Right, Qt::ShiftModifier, "Shift+Right"},
    {Qt::Key_Up, Qt::NoModifier, "Up"},
    {Qt::Key_Down, Qt::NoModifier, "Down"},
    {Qt::Key_PageUp, Qt::NoModifier, "PageUp"},
    {Qt::Key_PageDown, Qt::NoModifier, "PageDown"},
    {Qt::Key_Home, Qt::NoModifier, "Home"},
    {Qt::Key_End, Qt::NoModifier, "End"},
    {Qt::Key_Plus, Qt::NoModifier, "+"},
    {Qt::Key_Minus, Qt::NoModifier, "-"},
    {Qt::Key_0, Qt::ControlModifier, "Ctrl+0"},
    {Qt::Key_Delete, Qt::NoModifier, "Delete"},
    {Qt::Key_Backspace, Qt::NoModifier, "Backspace"},
    {Qt::Key_Z, Qt::ControlModifier, "Ctrl+Z"},
    {Qt::Key_Z, Qt::ControlModifier, "Ctrl+Z"},
    {Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier, "Ctrl+Shift+Z"},
    {Qt::Key_Tab, Qt::NoModifier, "Tab"},
    {Qt::Key_Tab, Qt::NoModifier, "Tab"},
    {Qt::Key_Backtab, Qt::ShiftModifier, "Shift+Tab"},
    {Qt::Key_Tab, Qt::ControlModifier, "Ctrl+Tab"},
    {Qt::Key_Return, Qt::NoModifier, "Return"},
    {Qt::Key_Escape, Qt::NoModifier, "Esc"},
    {Qt::Key_F11, Qt::NoModifier, "F11"},
    {Qt::Key_K, Qt::ControlModifier, "Ctrl+K"},
    {Qt::Key_E, Qt::ControlModifier, "Ctrl+E"},
    {Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier, "Ctrl+Shift+C"},
    {Qt::Key_S, Qt::ControlModifier, "Ctrl+S"},
    {Qt::Key_N, Qt::ControlModifier, "Ctrl+N"},
    {Qt::Key_O, Qt::ControlModifier, "Ctrl+O"},
    {Qt::Key_Menu, Qt::NoModifier, "Menu"},
    {Qt::Key_F10, Qt::ShiftModifier, "Shift+F10"},
    {Qt::Key_1, Qt::NoModifier, "1"},
    {Qt::Key_7, Qt::NoModifier, "7"},
    {Qt::Key_A, Qt::NoModifier, "A"},
};

// What a field is given: good values and the bad ones a person types by mistake.
const std::vector<QString> kNames = {
    QStringLiteral("A"),  QStringLiteral("B"),   QStringLiteral("C"), QString(),
    QStringLiteral("  "), QStringLiteral("Zed"), QStringLiteral("A2")};
const std::vector<QString> kValues = {QStringLiteral("x"), QString(), QStringLiteral("A"),
                                      QStringLiteral("new value"), QStringLiteral("\"q\"")};
const std::vector<QString> kRates = {
    QStringLiteral("0.5"), QStringLiteral("2"),      QStringLiteral("1"),
    QStringLiteral("0"),   QStringLiteral("abc"),    QStringLiteral("100.0001"),
    QStringLiteral("1e2"), QStringLiteral("0.0015"), QString()};
const std::vector<QString> kTickLists = {QStringLiteral("12"),
                                         QStringLiteral("5, 30"),
                                         QStringLiteral("-1"),
                                         QStringLiteral("abc"),
                                         QString(),
                                         QStringLiteral("3 3"),
                                         QStringLiteral("99999999999999999999")};

} // namespace

Monkey::Monkey(MainWindow *window, quint64 seed)
    : m_window(window), m_doc(window->document()), m_undo(window->document()->undoStack()),
      m_rng(seed), m_seed(seed)
{
    m_logAll = qEnvironmentVariableIntValue("FENCESCOPE_MONKEY_LOG") != 0;
    m_indexWatch = QObject::connect(m_undo, &QUndoStack::indexChanged, m_window, [this](int index) {
        m_indexMoved = true;
        m_minIndex = std::min(m_minIndex, index);
    });
    // the broken and hostile files of tests/data, copied: Ctrl+S after opening one writes it
    const QDir data(QStringLiteral(FENCESCOPE_TESTDATA));
    for (const QString &dir : {QStringLiteral("invalid"), QStringLiteral("hostile")}) {
        QDir().mkpath(m_files.filePath(dir));
        for (const QFileInfo &f : QDir(data.filePath(dir)).entryInfoList(QDir::Files)) {
            const QString copy = m_files.filePath(dir + QLatin1Char('/') + f.fileName());
            if (f.size() < 64 * 1024 && QFile::copy(f.filePath(), copy))
                m_broken << copy;
        }
    }

    m_opened = bytes();
    m_states.assign(size_t(m_undo->count()) + 1, std::nullopt);
    m_states[size_t(m_undo->index())] = m_opened;

    // File > Export Picture… and Export Storyboard…: cancelled, written into the monkey's
    // folder, or refused (a folder that does not exist); a refused export leaves no file
    scripted(*m_window).setExportHandler([this](ExportDialog &d) {
        ++m_counts[QStringLiteral("export dialogs")];
        const int r = pick(10);
        if (r < 6)
            return false;
        const bool storyboard = d.kind() == ExportDialog::Kind::Storyboard;
        const QString name = QStringLiteral("export-%1").arg(++m_fileCount);
        const QString path =
            r == 9 ? m_files.filePath(QStringLiteral("missing/") + name + QStringLiteral(".png"))
            : storyboard ? m_files.filePath(name + QStringLiteral(".pdf"))
                         : m_files.filePath(name + QStringLiteral(".png"));
        d.setPath(path);
        d.accept();
        const bool accepted = d.result() == QDialog::Accepted;
        if (storyboard) {
            // the window writes a storyboard after its dialog closed: endExport() looks
            if (accepted)
                m_storyboard = {d.path(), scripted(*m_window).lastError()};
        } else if (accepted != QFileInfo::exists(path)) {
            // a picture is written by the dialog, which stays open on a failure
            fail(accepted
                     ? QStringLiteral("an export said it wrote %1, and there is no file").arg(path)
                     : QStringLiteral("a refused export left %1").arg(path));
        }
        return accepted;
    });
    // Export Animation… is looked at and cancelled: writing a video is seconds of work
    scripted(*m_window).setAnimationHandler([this](AnimationDialog &) {
        ++m_counts[QStringLiteral("animation dialogs")];
        return false;
    });
}

Monkey::~Monkey()
{
    QObject::disconnect(m_indexWatch);
    scripted(*m_window).setExportHandler({});
    scripted(*m_window).setAnimationHandler({});
}

int Monkey::pick(int n)
{
    return n <= 1 ? 0 : int(std::uniform_int_distribution<int>(0, n - 1)(m_rng));
}

bool Monkey::chance(double p)
{
    return std::uniform_real_distribution<double>(0, 1)(m_rng) < p;
}

QWindow *Monkey::windowHandle() const
{
    return m_window->windowHandle();
}

QWidget *Monkey::openDialog() const
{
    for (QWidget *w : QApplication::topLevelWidgets())
        if (qobject_cast<QDialog *>(w) && w->isVisible())
            return w;
    return nullptr;
}

void Monkey::step(int step)
{
    m_step = step;
    QElapsedTimer clock;
    clock.start();
    if (auto *popup = QApplication::activePopupWidget()) // a combo box's list left open
        QTest::keyClick(popup->focusWidget() ? popup->focusWidget() : popup, Qt::Key_Escape);
    QWidget *dialog = openDialog();
    if (!dialog && QApplication::activeWindow() != m_window)
        m_window->activateWindow();
    // A person acts at a person's pace: by now the rest of a run is simulated (it is finished
    // between frames) and the playhead stopped where it was going. Taken here at once, so that
    // a seed replays the same actions however fast the machine is.
    m_doc->settle();
    part<Playback>(*m_window)->pause();
    beginStep();
    if (dialog) {
        dialogEntry(static_cast<QDialog *>(dialog)); // window-modal: nothing else takes input
    } else if (m_window->findChild<QObject *>(QStringLiteral("quickTour")) && chance(0.5)) {
        tourStep();
    } else if (m_window->isPresenting() && chance(0.6)) {
        presentationStep();
    } else {
        // weights: what a person does most is drag, type and press keys
        const int r = pick(100);
        if (r < 22)
            drag();
        else if (r < 28)
            click();
        else if (r < 37)
            rightClick();
        else if (r < 41)
            wheel();
        else if (r < 60)
            key();
        else if (r < 69 && !m_window->isPresenting()) // the menu bar is hidden while presenting
            menuEntry();
        else if (r < 69)
            key();
        else if (r < 85)
            inspectorEntry();
        else if (r < 88)
            switchPreset();
        else if (r < 90)
            openFile();
        else if (r < 92)
            saveFile();
        else if (r < 93)
            resizeWindow();
        else if (r < 94) {
            checkHistory("now and then");
            beginStep();
        } else
            key();
    }
    turn();
    endExport();
    endStep();
    if (m_logAll && clock.elapsed() > 200)
        qInfo("%d: took %lld ms", step, qint64(clock.elapsed()));
}

void Monkey::endExport()
{
    if (!m_storyboard)
        return;
    // a storyboard the window took is there afterwards (a PDF, or a folder of frames), or the
    // window said why not
    const auto [path, errorBefore] = *m_storyboard;
    m_storyboard.reset();
    if (!QFileInfo::exists(path) && scripted(*m_window).lastError() == errorBefore)
        fail(QStringLiteral("a storyboard export to %1 wrote nothing and said nothing").arg(path));
}

// --- the timeline --------------------------------------------------------------------------

std::vector<Monkey::Target> Monkey::targets() const
{
    TimelineView *view = part<TimelineView>(*m_window);
    if (!view->isVisible())
        return {};
    const TimelineLayout layout = view->currentLayout();
    const TimeAxis axis = view->axis();
    const Core::Scenario &s = m_doc->scenario();
    const Core::Trace &t = m_doc->trace();

    // the ticks where something is: actions, their ends, and what the run made of them
    std::set<Core::Tick> ticks;
    for (const Core::Client &c : s.clients)
        for (const Core::Action &a : c.actions) {
            ticks.insert(a.at);
            ticks.insert(a.at + a.amount);
            ticks.insert(a.at + a.gap());
        }
    for (const Core::StorageSpec &st : s.storages)
        ticks.insert(st.restarts.begin(), st.restarts.end());
    for (const Core::Grant &g : t.grants) {
        ticks.insert(g.at);
        ticks.insert(g.expires);
    }
    for (const Core::Write &w : t.writes) {
        ticks.insert(w.sentAt);
        ticks.insert(w.arrivedAt);
    }
    for (const Core::Check &c : t.checks) {
        ticks.insert(c.at);
        ticks.insert(c.sendAt);
    }
    for (const Core::Lease &l : t.leases)
        ticks.insert(l.end);

    // the rows of every lane, where its elements are drawn
    std::vector<double> rows;
    std::vector<QPointF> headers;
    for (const TimelinePanel &p : layout.panels) {
        for (const ClientLaneRects &c : p.clients) {
            for (const QRectF &r : {c.labels, c.markers, c.pauses, c.holds, c.believes})
                rows.push_back(r.center().y());
            headers.push_back(c.header.center());
        }
        for (const QRectF &r : {p.lockEvents, p.lockBars})
            rows.push_back(r.center().y());
        for (const StorageLaneRects &st : p.storages) {
            for (const QRectF &r : {st.values, st.outcomes, st.maxToken})
                rows.push_back(r.center().y());
            headers.push_back(st.header.center());
        }
    }

    std::vector<QPointF> points = headers;
    for (const Core::Tick tick : ticks) {
        const double x = axis.tickToX(double(tick));
        if (x < layout.plot.left() || x > layout.plot.right())
            continue;
        for (const double dx : {-3.0, 0.0, 3.0})
            for (const double y : rows)
                points.emplace_back(x + dx, y);
    }
    auto &rng = const_cast<std::mt19937_64 &>(m_rng);
    for (int i = 0; i < 20; ++i) // and anywhere at all
        points.emplace_back(std::uniform_real_distribution<double>(0, view->width())(rng),
                            std::uniform_real_distribution<double>(0, view->height())(rng));
    std::shuffle(points.begin(), points.end(), rng);
    if (points.size() > 300)
        points.resize(300);

    std::vector<Target> out;
    const QRegion visible = view->visibleRegion();
    const TimelineRenderer::Options options = view->options();
    for (const QPointF &p : points) {
        if (!visible.contains(p.toPoint()))
            continue;
        const Hit hit = view->renderer().hitTest(s, t, axis, QRectF(view->rect()), options, p);
        out.push_back({view->mapTo(m_window, p.toPoint()), hit});
    }
    return out;
}

void Monkey::drag()
{
    const std::vector<Target> all = targets();
    if (all.empty()) {
        key();
        return;
    }
    // every kind of element as often as any other, however many of each there are
    std::map<Hit::Part, std::vector<Target>> byPart;
    for (const Target &t : all)
        byPart[t.hit.part].push_back(t);
    std::vector<Hit::Part> draggable, others;
    for (const auto &[part, targets] : byPart)
        (targets.front().hit.isDraggable() ? draggable : others).push_back(part);
    const Hit::Part part = !draggable.empty() && chance(0.8)
                               ? any(draggable)
                               : any(others.empty() ? draggable : others);
    const Target target = any(byPart[part]);

    const double ppt = m_window->viewState()->pixelsPerTick();
    const int ticks = chance(0.1) ? pick(401) - 200 : pick(61) - 30;
    QPoint by(int(std::lround(ticks * ppt)), pick(9) - 4);
    if (chance(0.1))
        by = QPoint(pick(5) - 2, pick(5) - 2); // under the 3 px a drag needs: a click
    else if (chance(0.1))
        by.setY(pick(401) - 200); // onto another lane, or off the window
    const QPoint from = target.pos, to = from + by;
    const Qt::KeyboardModifiers mods = chance(0.1) ? Qt::ShiftModifier : Qt::NoModifier;
    const bool cancel = chance(0.1);
    log(QStringLiteral("drag part %1 (client %2, action %3) from %4,%5 by %6,%7%8")
            .arg(int(part))
            .arg(target.hit.client)
            .arg(target.hit.action)
            .arg(from.x())
            .arg(from.y())
            .arg(by.x())
            .arg(by.y())
            .arg(cancel ? QStringLiteral(", Esc") : QString()));
    ++m_dragged[part];

    QWindow *w = windowHandle();
    QTest::mousePress(w, Qt::LeftButton, mods, from);
    turn();
    const int moves = 1 + pick(6);
    for (int i = 1; i <= moves; ++i) {
        QTest::mouseMove(w, from + by * i / moves);
        turn();
    }
    if (cancel) {
        QTest::keyClick(w, Qt::Key_Escape);
        turn();
    }
    QTest::mouseRelease(w, Qt::LeftButton, mods, to);
    afterMouse();
}

void Monkey::click()
{
    const std::vector<Target> all = targets();
    if (all.empty()) {
        key();
        return;
    }
    const Target t = any(all);
    const bool twice = chance(0.2);
    log(QStringLiteral("%1 part %2 at %3,%4")
            .arg(twice ? QStringLiteral("double-click") : QStringLiteral("click"))
            .arg(int(t.hit.part))
            .arg(t.pos.x())
            .arg(t.pos.y()));
    ++m_counts[QStringLiteral("clicks")];
    if (twice)
        QTest::mouseDClick(windowHandle(), Qt::LeftButton, {}, t.pos);
    else
        QTest::mouseClick(windowHandle(), Qt::LeftButton, {}, t.pos);
    afterMouse();
}

void Monkey::withPopup(const std::function<void()> &open)
{
    // the menu runs its own event loop: it is answered from a timer inside that loop
    struct State
    {
        bool armed = true;
        QString chosen = QStringLiteral("no menu");
    };
    auto state = std::make_shared<State>();
    const int choice = pick(1000);
    const bool none = chance(0.1);
    QTimer::singleShot(0, m_window, [state, choice, none] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!state->armed || !menu)
            return;
        std::vector<QAction *> entries;
        entriesOf(menu, &entries);
        menu->close();
        if (entries.empty() || none) {
            state->chosen = QStringLiteral("closed");
            return;
        }
        QAction *a = entries[size_t(choice) % entries.size()];
        state->chosen = a->text();
        a->trigger();
    });
    open();
    state->armed = false;
    log(QStringLiteral("  menu entry: %1").arg(state->chosen));
}

void Monkey::rightClick()
{
    QPoint at;
    const std::vector<Target> all = targets();
    if (all.empty() || chance(0.1)) // anywhere in the window: docks, toolbar, log
        at = QPoint(pick(m_window->width()), pick(m_window->height()));
    else
        at = any(all).pos;
    log(QStringLiteral("right-click at %1,%2").arg(at.x()).arg(at.y()));
    ++m_counts[QStringLiteral("right-clicks")];
    withPopup([&] { QTest::mouseClick(windowHandle(), Qt::RightButton, {}, at); });
    afterMouse();
}

void Monkey::wheel()
{
    TimelineView *view = part<TimelineView>(*m_window);
    if (!view->isVisible()) {
        key();
        return;
    }
    const QPointF at(pick(view->width()), pick(view->height()));
    const int notches = chance(0.5) ? 1 : -1 - pick(2);
    const Qt::KeyboardModifiers mods = chance(0.5)   ? Qt::ControlModifier
                                       : chance(0.5) ? Qt::ShiftModifier
                                                     : Qt::NoModifier;
    log(QStringLiteral("wheel %1 at %2,%3 (modifiers %4)")
            .arg(notches)
            .arg(at.x())
            .arg(at.y())
            .arg(int(mods)));
    ++m_counts[QStringLiteral("wheels")];
    QWheelEvent e(at, view->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, mods,
                  Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view, &e);
}

// --- keys and menus ------------------------------------------------------------------------

void Monkey::key()
{
    const KeyPress &k = any(kKeys);
    const QString name = QLatin1String(k.name);
    log(QStringLiteral("key %1").arg(name));
    ++m_counts[QStringLiteral("keys")];
    if (name == QLatin1String("Ctrl+N") || name == QLatin1String("Ctrl+O")) {
        chooseAnswers();
        if (name == QLatin1String("Ctrl+O") && !m_saved.isEmpty())
            scripted(*m_window).setNextPath(m_saved[pick(int(m_saved.size()))]);
        beforeOpening();
    } else if (name == QLatin1String("Ctrl+S")) {
        chooseAnswers();
    }
    if (k.key == Qt::Key_Menu || k.key == Qt::Key_F10)
        withPopup([&] { QTest::keyClick(windowHandle(), k.key, k.mods); });
    else
        QTest::keyClick(windowHandle(), k.key, k.mods);
}

void Monkey::typeText(QWindow *window, const QString &text)
{
    for (const QChar ch : text)
        QTest::keyClick(window, ch.toLatin1());
}

void Monkey::menuEntry()
{
    std::vector<QAction *> all;
    auto *recent = m_window->findChild<QMenu *>(QStringLiteral("recentMenu"));
    std::vector<QAction *> recentEntries;
    if (recent)
        entriesOf(recent, &recentEntries);
    for (QAction *top : m_window->menuBar()->actions())
        if (top->menu())
            entriesOf(top->menu(), &all);
    all.erase(
        std::remove_if(all.begin(), all.end(),
                       [](const QAction *a) { return a->objectName() == QLatin1String("quit"); }),
        all.end());
    if (all.empty())
        return;
    QAction *a = any(all);
    const QString name = a->objectName();
    log(QStringLiteral("menu %1 (%2)").arg(a->text(), name));
    ++m_counts[QStringLiteral("menu entries")];
    const bool opens =
        name == QLatin1String("new") || name == QLatin1String("open") ||
        name.startsWith(QLatin1String("preset-")) || name.startsWith(QLatin1String("lesson-")) ||
        name == QLatin1String("openLesson") ||
        std::find(recentEntries.begin(), recentEntries.end(), a) != recentEntries.end();
    if (opens || name == QLatin1String("save") || name == QLatin1String("saveAs"))
        chooseAnswers();
    if (name == QLatin1String("open") && !m_saved.isEmpty() && chance(0.7))
        scripted(*m_window).setNextPath(m_saved[pick(int(m_saved.size()))]);
    if (opens)
        beforeOpening();
    a->trigger();
}

void Monkey::chooseAnswers()
{
    const int r = pick(10);
    scripted(*m_window).setUnsavedAnswer(r < 6   ? QMessageBox::Discard
                                         : r < 8 ? QMessageBox::Cancel
                                                 : QMessageBox::Save);
    scripted(*m_window).setQuestionAnswer(chance(0.5) ? QMessageBox::Yes : QMessageBox::No);
    // a path for Save As (or Save of a scenario without a file): new, unwritable, or none
    const int p = pick(10);
    const QString path =
        p < 8   ? m_files.filePath(QStringLiteral("saved-%1.fencescope.json").arg(++m_fileCount))
        : p < 9 ? QStringLiteral("/proc/fencescope-monkey/x.fencescope.json")
                : QString();
    scripted(*m_window).setNextPath(path);
    if (p < 8)
        m_saved << path; // opened again later if it was written (a missing one is refused)
}

void Monkey::switchPreset()
{
    const QStringList names = Core::ScenarioFile::builtinNames();
    const QString name = names[pick(int(names.size()))];
    auto *a = m_window->findChild<QAction *>(QStringLiteral("preset-") + name);
    if (!a || m_window->isPresenting()) {
        key();
        return;
    }
    log(QStringLiteral("Scenarios > %1").arg(name));
    ++m_counts[QStringLiteral("preset switches")];
    chooseAnswers();
    beforeOpening();
    a->trigger();
}

void Monkey::openFile()
{
    // what a person may pick: a file saved before, a broken or hostile file, nothing there, a
    // folder, or Cancel
    QStringList paths = m_saved + m_broken;
    paths << m_files.filePath(QStringLiteral("nothing-here.json")) << m_files.path() << QString();
    const QString path = paths[pick(int(paths.size()))];
    log(QStringLiteral("open %1").arg(path.isEmpty() ? QStringLiteral("(cancel)") : path));
    ++m_counts[QStringLiteral("opens")];
    chooseAnswers();
    scripted(*m_window).setNextPath(path);
    beforeOpening();
    if (chance(0.5))
        QTest::keyClick(windowHandle(), Qt::Key_O, Qt::ControlModifier);
    else
        m_window->findChild<QAction *>(QStringLiteral("open"))->trigger();
}

void Monkey::saveFile()
{
    chooseAnswers();
    const bool as = chance(0.5);
    log(QStringLiteral("%1").arg(as ? QStringLiteral("File > Save As") : QStringLiteral("Ctrl+S")));
    ++m_counts[QStringLiteral("saves")];
    if (as)
        m_window->findChild<QAction *>(QStringLiteral("saveAs"))->trigger();
    else
        QTest::keyClick(windowHandle(), Qt::Key_S, Qt::ControlModifier);
    // what was saved reads back as the scenario on screen
    const QString path = m_doc->filePath();
    if (!path.isEmpty() && !m_doc->isModified()) {
        const Core::LoadResult r = Core::ScenarioFile::load(path);
        if (!r.ok() || !(*r.scenario == m_doc->scenario()))
            fail(QStringLiteral("%1 does not read back as the scenario saved: %2")
                     .arg(path, r.error));
    }
}

void Monkey::resizeWindow()
{
    if (m_window->isPresenting()) {
        presentationStep();
        return;
    }
    const std::vector<QSize> sizes = {
        {1024, 768}, {1280, 800}, {1366, 768}, {1600, 1000}, {900, 600}};
    const QSize size = any(sizes);
    log(QStringLiteral("resize to %1x%2").arg(size.width()).arg(size.height()));
    m_window->resize(size);
}

// --- fields and dialogs --------------------------------------------------------------------

QString Monkey::badOrGoodTick()
{
    static const std::vector<QString> bad = {
        QStringLiteral("-1"),  QStringLiteral("abc"),  QString(),
        QStringLiteral("  "),  QStringLiteral("1e3"),  QStringLiteral("9007199254740993"),
        QStringLiteral("0"),   QStringLiteral("12.5"), QStringLiteral("99999999999999999999"),
        QStringLiteral("0x10")};
    return chance(0.6) ? QString::number(pick(60)) : any(bad);
}

void Monkey::inspectorEntry()
{
    Inspector *ins = part<Inspector>(*m_window);
    std::vector<QWidget *> fields;
    for (QWidget *w : std::initializer_list<QWidget *>{
             ins->nameEdit(), ins->atEdit()->lineEdit(), ins->amountEdit()->lineEdit(),
             ins->valueEdit(), ins->storageEdit(), ins->keepaliveEdit()->lineEdit(),
             ins->checkEdit(), ins->gapEdit()->lineEdit(), ins->groupEdit()})
        if (w->isVisible() && w->isEnabled() && w->visibleRegion().contains(w->rect().center()))
            fields.push_back(w);
    if (fields.empty()) {
        click(); // nothing selected: a person selects something first
        return;
    }
    QWidget *field = any(fields);
    QWindow *w = windowHandle();
    const QPoint at = field->mapTo(m_window, field->rect().center());
    ++m_counts[QStringLiteral("inspector entries")];
    if (auto *box = qobject_cast<QCheckBox *>(field)) {
        log(QStringLiteral("inspector: click %1").arg(box->text()));
        QTest::mouseClick(w, Qt::LeftButton, {},
                          field->mapTo(m_window, QPoint(6, field->height() / 2)));
        afterMouse();
        return;
    }
    if (qobject_cast<QComboBox *>(field)) {
        log(QStringLiteral("inspector: the storage list"));
        QTest::mouseClick(w, Qt::LeftButton, {}, at);
        afterMouse();
        if (QWidget *popup = QApplication::activePopupWidget()) {
            QWidget *list = popup->focusWidget() ? popup->focusWidget() : popup;
            for (int i = pick(3); i > 0; --i)
                QTest::keyClick(list, Qt::Key_Down);
            QTest::keyClick(list, chance(0.8) ? Qt::Key_Return : Qt::Key_Escape);
        }
        return;
    }
    auto *edit = static_cast<QLineEdit *>(field);
    const bool tick = qobject_cast<TickField *>(edit->parentWidget()) != nullptr;
    QTest::mouseClick(w, Qt::LeftButton, {}, at);
    afterMouse();
    if (tick && chance(0.3)) {
        static const std::vector<Qt::Key> steps = {Qt::Key_Up, Qt::Key_Down, Qt::Key_PageUp,
                                                   Qt::Key_PageDown};
        const Qt::Key k = any(steps);
        const int n = 1 + pick(3);
        log(QStringLiteral("inspector: %1 x key %2 in %3")
                .arg(n)
                .arg(int(k))
                .arg(edit->objectName()));
        for (int i = 0; i < n; ++i)
            QTest::keyClick(w, k);
        return;
    }
    QString text;
    if (tick)
        text = badOrGoodTick();
    else if (edit == ins->nameEdit())
        text = any(kNames);
    else if (edit == ins->groupEdit())
        text = chance(0.5) ? QString() : QStringLiteral("g%1").arg(pick(3));
    else
        text = any(kValues);
    static const std::vector<std::pair<Qt::Key, Qt::KeyboardModifiers>> commits = {
        {Qt::Key_Return, Qt::NoModifier},   {Qt::Key_Return, Qt::NoModifier},
        {Qt::Key_Tab, Qt::NoModifier},      {Qt::Key_Escape, Qt::NoModifier},
        {Qt::Key_Z, Qt::ControlModifier},   {Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier},
        {Qt::Key_Tab, Qt::ControlModifier}, {Qt::Key_unknown, Qt::NoModifier}};
    const auto commit = any(commits);
    log(QStringLiteral("inspector: type '%1' in %2, then key %3 (modifiers %4)")
            .arg(text, edit->objectName())
            .arg(int(commit.first))
            .arg(int(commit.second)));
    QTest::keyClick(w, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(w, Qt::Key_Backspace);
    typeText(w, text);
    if (commit.first != Qt::Key_unknown) // none: left typed, to be committed by leaving it
        QTest::keyClick(w, commit.first, commit.second);
}

void Monkey::dialogEntry(QDialog *dialog)
{
    QWindow *w = dialog->windowHandle();
    const auto clickOn = [&](QWidget *target, QPoint at) {
        QTest::mouseClick(w, Qt::LeftButton, {}, target->mapTo(dialog, at));
        afterMouse();
    };
    const auto typeInto = [&](QLineEdit *edit, const QString &text) {
        clickOn(edit, edit->rect().center());
        QTest::keyClick(w, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(w, Qt::Key_Backspace);
        typeText(w, text);
        if (chance(0.5))
            QTest::keyClick(w, Qt::Key_Tab);
    };
    const auto choose = [&](QComboBox *box) {
        clickOn(box, box->rect().center());
        if (QWidget *popup = QApplication::activePopupWidget()) {
            QWidget *list = popup->focusWidget() ? popup->focusWidget() : popup;
            QTest::keyClick(list, chance(0.5) ? Qt::Key_Down : Qt::Key_Up);
            QTest::keyClick(list, Qt::Key_Return);
        }
    };
    ++m_counts[QStringLiteral("dialog entries")];
    if (chance(0.35)) {
        const int r = pick(10);
        auto *buttons = dialog->findChild<QDialogButtonBox *>();
        QPushButton *ok = buttons ? buttons->button(QDialogButtonBox::Ok) : nullptr;
        QPushButton *cancel = buttons ? buttons->button(QDialogButtonBox::Cancel) : nullptr;
        if (r < 6 && ok) {
            log(QStringLiteral("dialog: OK"));
            clickOn(ok, ok->rect().center());
        } else if (r < 8 && cancel) {
            log(QStringLiteral("dialog: Cancel"));
            clickOn(cancel, cancel->rect().center());
        } else {
            log(QStringLiteral("dialog: Esc"));
            QTest::keyClick(w, Qt::Key_Escape);
        }
        return;
    }
    if (auto *storage = qobject_cast<StorageDialog *>(dialog)) {
        switch (pick(4)) {
        case 0: {
            const QString text = any(kTickLists);
            log(QStringLiteral("storage dialog: restarts '%1'").arg(text));
            typeInto(storage->restartsEdit(), text);
            break;
        }
        case 1:
            log(QStringLiteral("storage dialog: durable"));
            clickOn(storage->durableEdit(), QPoint(6, storage->durableEdit()->height() / 2));
            break;
        case 2:
            log(QStringLiteral("storage dialog: rule"));
            choose(storage->ruleEdit());
            break;
        default:
            log(QStringLiteral("storage dialog: check"));
            choose(storage->checkEdit());
            break;
        }
    } else if (auto *clock = qobject_cast<ClockDialog *>(dialog)) {
        QTableWidget *table = clock->stepsTable();
        switch (pick(4)) {
        case 0: {
            const QString text = any(kRates);
            log(QStringLiteral("clock dialog: rate '%1'").arg(text));
            typeInto(clock->rateEdit(), text);
            break;
        }
        case 1:
            log(QStringLiteral("clock dialog: add a step"));
            clickOn(clock->addStepButton(), clock->addStepButton()->rect().center());
            break;
        case 2:
            log(QStringLiteral("clock dialog: remove a step"));
            if (clock->removeStepButton()->isEnabled())
                clickOn(clock->removeStepButton(), clock->removeStepButton()->rect().center());
            break;
        default: {
            if (table->rowCount() == 0)
                break;
            const QModelIndex cell =
                table->model()->index(pick(table->rowCount()), pick(table->columnCount()));
            const QString text = badOrGoodTick();
            log(QStringLiteral("clock dialog: step %1,%2 '%3'")
                    .arg(cell.row())
                    .arg(cell.column())
                    .arg(text));
            clickOn(table->viewport(), table->visualRect(cell).center());
            typeText(w, text.isEmpty() ? QStringLiteral("x") : text);
            QTest::keyClick(w, Qt::Key_Return);
            break;
        }
        }
    } else {
        log(QStringLiteral("dialog %1: Esc").arg(QLatin1String(dialog->metaObject()->className())));
        QTest::keyClick(w, Qt::Key_Escape);
    }
}

// --- presentation and the tour -------------------------------------------------------------

void Monkey::presentationStep()
{
    static const std::vector<KeyPress> keys = {
        {Qt::Key_Right, Qt::NoModifier, "Right"}, {Qt::Key_Right, Qt::NoModifier, "Right"},
        {Qt::Key_Down, Qt::NoModifier, "Down"},   {Qt::Key_PageDown, Qt::NoModifier, "PageDown"},
        {Qt::Key_Space, Qt::NoModifier, "Space"}, {Qt::Key_Left, Qt::NoModifier, "Left"},
        {Qt::Key_Up, Qt::NoModifier, "Up"},       {Qt::Key_PageUp, Qt::NoModifier, "PageUp"},
        {Qt::Key_Home, Qt::NoModifier, "Home"},   {Qt::Key_End, Qt::NoModifier, "End"},
        {Qt::Key_Plus, Qt::NoModifier, "+"},      {Qt::Key_Minus, Qt::NoModifier, "-"},
        {Qt::Key_C, Qt::NoModifier, "C"},         {Qt::Key_Escape, Qt::NoModifier, "Esc"},
        {Qt::Key_F11, Qt::NoModifier, "F11"}};
    ++m_counts[QStringLiteral("presentation steps")];
    // the Back / Next / Exit buttons come up when the mouse moves
    if (chance(0.15)) {
        QTest::mouseMove(windowHandle(), QPoint(pick(m_window->width()), pick(m_window->height())));
        std::vector<QPushButton *> buttons;
        if (QWidget *controls =
                m_window->findChild<QWidget *>(QStringLiteral("presentationControls")))
            for (QPushButton *b : controls->findChildren<QPushButton *>())
                if (b->isVisible() && b->isEnabled())
                    buttons.push_back(b);
        if (!buttons.empty()) {
            QPushButton *b = any(buttons);
            log(QStringLiteral("presentation: button %1").arg(b->text()));
            QTest::mouseClick(windowHandle(), Qt::LeftButton, {},
                              b->mapTo(m_window, b->rect().center()));
            afterMouse();
            return;
        }
    }
    const KeyPress &k = any(keys);
    log(QStringLiteral("presentation: key %1").arg(QLatin1String(k.name)));
    QTest::keyClick(windowHandle(), k.key, k.mods);
}

void Monkey::tourStep()
{
    static const std::vector<Qt::Key> keys = {Qt::Key_Right,  Qt::Key_Right, Qt::Key_Left,
                                              Qt::Key_Return, Qt::Key_Tab,   Qt::Key_Escape};
    const Qt::Key k = any(keys);
    log(QStringLiteral("quick tour: key %1").arg(int(k)));
    ++m_counts[QStringLiteral("tour keys")];
    QTest::keyClick(windowHandle(), k);
}
