// A laptop and a projector (README, "Export, slides and presentation mode"; issue 31, item 15):
// View > Present on chooses the projector, F11 presents full screen there, Esc brings the
// window back to the laptop where it was, and the choice is remembered by the next window.
// The offscreen platform is given two screens side by side, from a file (its `configfile`,
// read by qtbase's qoffscreenintegration.cpp), so this test has a main of its own.

#include "document/document.h"
#include "offscreenscreens.h"
#include "scripteddialogs.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWindow>

#include <memory>

namespace {

const QRect kLaptop(0, 0, 1280, 800);
const QRect kProjector(1280, 0, 1920, 1080);

QMenu *viewMenu(MainWindow &w)
{
    for (QAction *a : w.menuBar()->actions())
        if (a->menu() && a->menu()->findChild<QMenu *>(QStringLiteral("presentOn")))
            return a->menu();
    qFatal("no menu holds Present on");
}

} // namespace

class TestPresentScreen : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;

    std::unique_ptr<MainWindow> newWindow()
    {
        auto w = std::make_unique<MainWindow>();
        scriptDialogs(*w);
        w->show();
        w->activateWindow();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(w.get()));
            QVERIFY(QTest::qWaitForWindowActive(w.get()));
        }();
        return w;
    }

    // The offscreen platform has no window manager to give the keyboard back to the window
    // when a menu closes: a person's next click on the window does.
    static void backToTheWindow(MainWindow &w)
    {
        w.activateWindow();
        [&] { QVERIFY(QTest::qWaitForWindowActive(&w)); }();
    }

    // View > Present on, as a person opens it: the submenu is shown (its entries are the screens
    // attached then) and the entry naming `screenName` is clicked. Returns the entries offered.
    QStringList chooseScreen(MainWindow &w, const QString &screenName)
    {
        QMenu *presentOn = viewMenu(w)->findChild<QMenu *>(QStringLiteral("presentOn"));
        presentOn->popup(w.geometry().center());
        QStringList offered;
        QAction *pick = nullptr;
        for (QAction *a : presentOn->actions()) {
            offered << a->text();
            if (a->data().toString() == screenName)
                pick = a;
        }
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(presentOn));
            QVERIFY2(pick, qPrintable(offered.join(QLatin1Char('|'))));
        }();
        if (pick)
            QTest::mouseClick(presentOn->windowHandle(), Qt::LeftButton, {},
                              presentOn->actionGeometry(pick).center());
        presentOn->hide();
        backToTheWindow(w);
        return offered;
    }

    // The entry of the submenu that is checked, by its screen name ("" for the window's own).
    static QString checkedScreen(MainWindow &w)
    {
        QMenu *presentOn = viewMenu(w)->findChild<QMenu *>(QStringLiteral("presentOn"));
        presentOn->popup(w.geometry().center());
        QString checked = QStringLiteral("(none)");
        for (QAction *a : presentOn->actions())
            if (a->isChecked())
                checked = a->data().toString();
        presentOn->hide();
        backToTheWindow(w);
        return checked;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_presentscreen"));
        QSettings().clear();
        const QList<QScreen *> screens = QGuiApplication::screens();
        QCOMPARE(screens.size(), 2);
        QCOMPARE(screens[0]->geometry(), kLaptop);
        QCOMPARE(screens[1]->geometry(), kProjector);
        m_window = newWindow();
    }

    void cleanupTestCase()
    {
        m_window->document()->markSaved();
        m_window.reset();
    }

    void presentsOnTheChosenScreenAndComesBack()
    {
        MainWindow &w = *m_window;
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        const QRect before = w.geometry();
        QVERIFY(kLaptop.contains(before));

        // both screens are offered, by name and size, after the window's own
        const QStringList offered = chooseScreen(w, QStringLiteral("projector"));
        QCOMPARE(offered, QStringList({QStringLiteral("The window's screen"),
                                       QStringLiteral("laptop (1280×800)"),
                                       QStringLiteral("projector (1920×1080)")}));
        QCOMPARE(checkedScreen(w), QStringLiteral("projector"));

        QTest::keyClick(w.windowHandle(), Qt::Key_F11);
        QVERIFY(w.findChild<QAction *>(QStringLiteral("present"))->isChecked());
        QCOMPARE(w.screen()->name(), QStringLiteral("projector"));
        QTRY_COMPARE(w.geometry(), kProjector);

        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        QVERIFY(!w.findChild<QAction *>(QStringLiteral("present"))->isChecked());
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QTRY_COMPARE(w.geometry(), before);
    }

    // The next window (the app started again) presents on the projector too; "The window's
    // screen" presents where the window is.
    void theChoiceIsRemembered()
    {
        m_window->document()->markSaved();
        m_window.reset();
        m_window = newWindow();
        MainWindow &w = *m_window;
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QCOMPARE(checkedScreen(w), QStringLiteral("projector"));
        QTest::keyClick(w.windowHandle(), Qt::Key_F11);
        QCOMPARE(w.screen()->name(), QStringLiteral("projector"));
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));

        chooseScreen(w, QString());
        QCOMPARE(checkedScreen(w), QString());
        QTest::keyClick(w.windowHandle(), Qt::Key_F11);
        QVERIFY(w.findChild<QAction *>(QStringLiteral("present"))->isChecked());
        QCOMPARE(w.screen()->name(), QStringLiteral("laptop"));
        QTRY_COMPARE(w.geometry(), kLaptop);
        QTest::keyClick(w.windowHandle(), Qt::Key_Escape);
        QVERIFY(!w.findChild<QAction *>(QStringLiteral("present"))->isChecked());
    }
};

int main(int argc, char **argv)
{
    QTemporaryDir dir;
    if (!TestSupport::useOffscreenScreens(
            dir, {{QStringLiteral("laptop"), kLaptop}, {QStringLiteral("projector"), kProjector}}))
        return 2;
    QApplication app(argc, argv);
    TestPresentScreen test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_presentscreen.moc"
