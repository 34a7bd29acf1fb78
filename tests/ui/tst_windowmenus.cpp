// The window's menus and toolbar, as WindowActions lays them out (ui/window/windowactions.*):
// the menu bar's menus in order, each menu's entries in order (written here from the design,
// not read from the program), every action with a key reachable from a menu, and the entries
// made from lists (presets, lessons, themes) doing what they name when a person picks them.
// The toolbar's rule box follows the document, whatever changed it.

#include "document/document.h"
#include "viewstate.h"
#include "window/mainwindow.h"
#include "windowfixture.h"

#include "scenariofile.h"
#include "tokensource.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QToolBar>
#include <QUndoStack>

namespace {

// A menu's entries: an action's object name, a submenu's title, "|" for a separator, and a
// section's title in brackets.
QStringList entries(const QMenu *menu)
{
    QStringList out;
    for (QAction *a : menu->actions()) {
        if (a->menu())
            out << a->menu()->title();
        else if (a->isSeparator())
            out << (a->text().isEmpty() ? QStringLiteral("|") : QLatin1Char('[') + a->text() + ']');
        else
            out << a->objectName();
    }
    return out;
}

QMenu *topMenu(QMainWindow &window, const QString &title)
{
    for (QAction *a : window.menuBar()->actions())
        if (a->text() == title)
            return a->menu();
    return nullptr;
}

} // namespace

class TestWindowMenus : public QObject
{
    Q_OBJECT

    WindowFixture m_window;
    MainWindow &window() { return *m_window; }

private slots:
    void initTestCase() { WindowFixture::useOwnSettings("tst_windowmenus"); }

    void init() { QVERIFY(m_window.open()); }

    void cleanup() { m_window.close(); }

    void theMenuBarInOrder()
    {
        QStringList titles;
        for (QAction *a : window().menuBar()->actions())
            titles << a->text();
        QCOMPARE(titles, (QStringList{"&File", "&Edit", "&Simulation", "S&cenarios", "&View",
                                      "&Playback", "&Help"}));
    }

    void eachMenuInOrder()
    {
        QCOMPARE(entries(topMenu(window(), "&File")),
                 (QStringList{"new", "open", "Open &Recent", "|", "openLesson", "closeLesson",
                              "exportRoomVotes", "|", "save", "saveAs", "|", "export",
                              "exportStoryboard", "exportAnimation", "|", "quit"}));
        QCOMPARE(
            entries(topMenu(window(), "&Edit")),
            (QStringList{"undo", "redo", "|", "copyImage", "|", "addAcquire", "addWrite",
                         "addPause", "addRelease", "delete", "|", "addClient", "removeClient"}));
        QCOMPARE(entries(topMenu(window(), "&Simulation")),
                 (QStringList{"fencing", "Storage &rule", "&Token source", "compare",
                              "Compare &with", "|", "runOnEtcd"}));
        QCOMPARE(entries(topMenu(window(), "&Playback")),
                 (QStringList{"play", "previousEvent", "nextEvent", "showAll", "|", "previousScene",
                              "nextScene"}));
        QCOMPARE(entries(topMenu(window(), "&Help")), (QStringList{"tour", "&Lessons", "about"}));
        // View: the window's own entries, then presentation's settings, then the docks'
        // switches (whose titles the dock layout owns: only their start is checked here)
        const QStringList view = entries(topMenu(window(), "&View"));
        const QStringList own{"zoomIn", "zoomOut", "fit", "|",      "compare",
                              "|",      "&Theme",  "|",   "present"};
        QCOMPARE(view.mid(0, own.size()), own);
        const qsizetype reset = view.indexOf(QStringLiteral("resetLayout"));
        QVERIFY(reset > own.size());
        QCOMPARE(view.value(reset + 1), QStringLiteral("|"));
        QVERIFY(view.size() > reset + 2); // the docks follow
    }

    // A key a person can press is also an entry they can find: every action with a shortcut
    // is in a menu (the menu bar's, or a submenu of it).
    void everyActionWithAKeyIsInAMenu()
    {
        QSet<QAction *> inMenus;
        const std::function<void(QMenu *)> walk = [&](QMenu *m) {
            for (QAction *a : m->actions()) {
                inMenus.insert(a);
                if (a->menu())
                    walk(a->menu());
            }
        };
        for (QAction *top : window().menuBar()->actions())
            walk(top->menu());
        int withKeys = 0;
        for (QAction *a : window().actions()) {
            if (a->shortcuts().isEmpty())
                continue;
            ++withKeys;
            QVERIFY2(inMenus.contains(a), qPrintable(a->objectName()));
        }
        QVERIFY(withKeys >= 20); // (the window's own: File, Edit, View, Playback, scenes)
    }

    void theToolBar()
    {
        auto *tb = window().findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(tb);
        QStringList names;
        for (QAction *a : tb->actions()) {
            if (a->isSeparator())
                names << QStringLiteral("|");
            else if (QWidget *w = tb->widgetForAction(a); w && !a->objectName().size())
                names << (w->objectName().isEmpty() ? QStringLiteral("label") : w->objectName());
            else
                names << a->objectName();
        }
        QCOMPARE(names, (QStringList{"open", "save", "|", "undo", "redo", "|", "fencing", "label",
                                     "rule", "compare", "present", "|", "addButton", "|", "zoomOut",
                                     "zoomIn", "fit"}));
    }

    // Scenarios: an entry for each built-in preset, grouped, and picking one opens it.
    void scenariosOpenTheirPreset()
    {
        QMenu *scenarios = topMenu(window(), "S&cenarios");
        QStringList presets;
        for (QAction *a : scenarios->actions())
            if (!a->isSeparator())
                presets << a->data().toString();
        QStringList builtin;
        for (const Core::ScenarioFile::BuiltinGroup &g : Core::ScenarioFile::builtinGroups())
            builtin += g.names;
        QCOMPARE(presets, builtin);
        QVERIFY(builtin.contains(QStringLiteral("zookeeper-failover")));

        window().findChild<QAction *>(QStringLiteral("preset-zookeeper-failover"))->trigger();
        const Core::LoadResult want = Core::ScenarioFile::load(
            Core::ScenarioFile::builtinPath(QStringLiteral("zookeeper-failover")));
        QVERIFY(want.ok());
        QCOMPARE(window().document()->scenario(), *want.scenario);
    }

    // View > Theme: one checked, the one picked, and it stays picked in a new window.
    void aThemePickedIsCheckedAndKept()
    {
        auto *dark = window().findChild<QAction *>(QStringLiteral("theme-dark"));
        auto *light = window().findChild<QAction *>(QStringLiteral("theme-light"));
        light->trigger();
        QVERIFY(light->isChecked());
        dark->trigger();
        QVERIFY(dark->isChecked());
        QVERIFY(!light->isChecked());
        m_window.reopen();
        QVERIFY(window().findChild<QAction *>(QStringLiteral("theme-dark"))->isChecked());
        QVERIFY(!window().findChild<QAction *>(QStringLiteral("theme-contrast"))->isChecked());
        window().findChild<QAction *>(QStringLiteral("theme-light"))->trigger();
    }

    // Simulation > Compare with offers every token source but the scenario's own (a run beside
    // itself shows nothing, and a lesson's scene refuses it); a source compared with that
    // becomes the scenario's own gives way to fencing off.
    void compareWithLeavesOutTheScenariosOwnSource()
    {
        const auto action = [this](const QString &name) {
            return window().findChild<QAction *>(name);
        };
        const Core::TokenSource own = window().document()->scenario().tokens;
        const Core::TokenSource other = Core::TokenSource((int(own) + 1) % Core::kTokenSourceCount);
        const QString ownName = QStringLiteral("compareWith-") + Core::toString(own);
        const QString otherName = QStringLiteral("compareWith-") + Core::toString(other);
        QVERIFY(!action(ownName)->isEnabled());
        QVERIFY(action(otherName)->isEnabled());
        QVERIFY(action(QStringLiteral("compareWith-fencing"))->isEnabled());

        action(otherName)->trigger();
        QVERIFY(window().viewState()->compare());
        QVERIFY(window().viewState()->compareSource() == other);
        // the scenario takes that source: it is no longer offered, and compare shows fencing off
        action(QStringLiteral("tokens-") + Core::toString(other))->trigger();
        QVERIFY(window().document()->scenario().tokens == other);
        QVERIFY(!action(otherName)->isEnabled());
        QVERIFY(action(ownName)->isEnabled());
        QVERIFY(!window().viewState()->compareSource().has_value());
        QVERIFY(action(QStringLiteral("compareWith-fencing"))->isChecked());
        // undo gives the first source back, and with it the entry
        window().document()->undoStack()->undo();
        QVERIFY(window().document()->scenario().tokens == own);
        QVERIFY(action(otherName)->isEnabled());
        QVERIFY(!action(ownName)->isEnabled());
    }

    // The toolbar's rule box shows "le" when a storage compares with <=, whatever set it: the
    // Simulation menu, then undo.
    void theRuleBoxFollowsTheDocument()
    {
        auto *box = window().findChild<QComboBox *>(QStringLiteral("rule"));
        QCOMPARE(box->currentIndex(), 0); // the default scenario's storage rejects token < max
        window().findChild<QAction *>(QStringLiteral("ruleLe"))->trigger();
        QVERIFY(window().document()->scenario().storages.front().rule == Core::FenceRule::Le);
        QCOMPARE(box->currentIndex(), 1);
        window().document()->undoStack()->undo();
        QCOMPARE(box->currentIndex(), 0);
        // and the box itself sets every storage's rule
        box->setCurrentIndex(1);
        emit box->activated(1);
        QVERIFY(window().document()->scenario().storages.front().rule == Core::FenceRule::Le);
    }
};

QTEST_MAIN(TestWindowMenus)
#include "tst_windowmenus.moc"
