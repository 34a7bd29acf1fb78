// Explore (Ctrl+K) on the most common projector, 1280x800 (issue 31, item 6): the dock comes
// to the front of its tab group, the window stays on the screen, the lock and storage lanes stay
// in view and the client lanes scroll at their height (not squeezed to a row), at least one
// whole above the pinned ones (Explore takes the token chart's place), also after the app starts
// again with Explore left open; View > Reset layout brings the first start's layout
// back, every row in view. The offscreen platform gets that screen from a file (its
// `configfile`, read by qtbase's qoffscreenintegration.cpp), so this test has a main of its own.

#include "document/document.h"
#include "offscreenscreens.h"
#include "scripteddialogs.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWindow>

#include <map>
#include <memory>

namespace {

const QRect kScreen(0, 0, 1280, 800);

// What a person sees of the docks: which are on screen (a dock behind another's tab is not),
// and where.
std::map<QString, QRect> docksOnScreen(const MainWindow &w)
{
    std::map<QString, QRect> seen;
    for (QDockWidget *d : w.findChildren<QDockWidget *>())
        if (d->isVisible() && !d->visibleRegion().isEmpty())
            seen[d->objectName()] = QRect(d->mapTo(&w, QPoint(0, 0)), d->size());
    return seen;
}

QString describe(const std::map<QString, QRect> &docks)
{
    QStringList out;
    for (const auto &[name, r] : docks)
        out << QStringLiteral("%1 %2,%3 %4x%5")
                   .arg(name)
                   .arg(r.x())
                   .arg(r.y())
                   .arg(r.width())
                   .arg(r.height());
    return out.join(QStringLiteral("; "));
}

} // namespace

class TestExploreLayout : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    std::map<QString, QRect> m_firstStart;
    int m_firstTimelineHeight = 0;
    double m_firstLaneHeight = 0;

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
        QTest::qWait(50); // the layout's zero-timer (DockLayout::capDocks) runs
        return w;
    }

    void closeWindow()
    {
        m_window->document()->markSaved();
        m_window->close(); // as the app quits: the layout is saved
        m_window.reset();
    }

    // Every row of every lane (clients, lock service, storages) lies in what the timeline shows.
    // With a `scrolling` lane height, the client lanes may scroll under the lock and storage
    // lanes, pinned in view, but each keeps that height: they scroll, they are not squeezed.
    static void verifyEveryRowShows(MainWindow &w, double scrolling = 0)
    {
        auto *view = part<TimelineView>(w);
        const QRect shown = view->visibleRegion().boundingRect();
        const TimelineLayout layout = view->currentLayout();
        QCOMPARE(layout.panels.size(), std::size_t(1));
        const TimelinePanel &panel = layout.panels[0];
        QVERIFY(!panel.clients.empty());
        QVERIFY(!panel.storages.empty());
        std::vector<QRectF> rows;
        for (const ClientLaneRects &c : panel.clients) {
            if (scrolling > 0) {
                QCOMPARE(c.lane.height(), scrolling);
                continue;
            }
            rows.insert(rows.end(), {c.labels, c.markers, c.pauses, c.holds, c.believes});
            // not hidden under the pinned lock and storage lanes
            QVERIFY2(!panel.isPinned() || c.lane.bottom() <= panel.pinTop + 0.5,
                     qPrintable(QStringLiteral("lane %1..%2 under the pinned lanes from %3; the "
                                               "timeline shows %4..%5")
                                    .arg(c.lane.top())
                                    .arg(c.lane.bottom())
                                    .arg(panel.pinTop)
                                    .arg(shown.top())
                                    .arg(shown.bottom())));
        }
        // scrolling, at least one whole client lane shows above the pinned lanes
        if (scrolling > 0 && panel.isPinned())
            QVERIFY2(panel.pinTop - shown.top() >= scrolling - 0.5,
                     qPrintable(QStringLiteral("%1 px of client lanes above the pinned lanes, a "
                                               "lane is %2 px")
                                    .arg(panel.pinTop - shown.top())
                                    .arg(scrolling)));
        rows.push_back(panel.lock);
        for (const StorageLaneRects &s : panel.storages)
            rows.insert(rows.end(), {s.values, s.outcomes, s.maxToken});
        for (const QRectF &row : rows) {
            QVERIFY2(row.top() >= shown.top() - 0.5 && row.bottom() <= shown.bottom() + 1.5,
                     qPrintable(QStringLiteral("row %1..%2, timeline shows %3..%4")
                                    .arg(row.top())
                                    .arg(row.bottom())
                                    .arg(shown.top())
                                    .arg(shown.bottom())));
        }
    }

    static void verifyFitsTheScreen(const MainWindow &w)
    {
        QVERIFY2(kScreen.contains(w.frameGeometry()),
                 qPrintable(QStringLiteral("%1x%2 at %3,%4")
                                .arg(w.frameGeometry().width())
                                .arg(w.frameGeometry().height())
                                .arg(w.frameGeometry().x())
                                .arg(w.frameGeometry().y())));
    }

    // A menu entry clicked as a person clicks it: its menu opened, the entry clicked.
    static void clickEntry(MainWindow &w, const QString &name)
    {
        QAction *entry = w.findChild<QAction *>(name);
        QVERIFY(entry);
        QMenu *menu = nullptr;
        for (QAction *top : w.menuBar()->actions())
            if (top->menu() && top->menu()->actions().contains(entry))
                menu = top->menu();
        QVERIFY2(menu, qPrintable(name));
        menu->popup(w.geometry().topLeft() + QPoint(40, 40));
        QVERIFY(QTest::qWaitForWindowExposed(menu));
        QTest::mouseClick(menu->windowHandle(), Qt::LeftButton, {},
                          menu->actionGeometry(entry).center());
        QTRY_VERIFY(!menu->isVisible());
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_explorelayout"));
        QSettings().clear(); // a first start
        QCOMPARE(QGuiApplication::primaryScreen()->geometry(), kScreen);
        m_window = newWindow();
        m_firstStart = docksOnScreen(*m_window);
        m_firstLaneHeight =
            part<TimelineView>(*m_window)->currentLayout().panels[0].clients[0].lane.height();
        m_firstTimelineHeight =
            part<TimelineView>(*m_window)->visibleRegion().boundingRect().height();
    }

    void cleanupTestCase()
    {
        if (m_window)
            m_window->document()->markSaved();
        m_window.reset();
    }

    void firstStartShowsEveryRow()
    {
        QVERIFY(!m_firstStart.count(QStringLiteral("exploreDock")));
        QVERIFY(m_firstStart.count(QStringLiteral("eventLogDock")));
        verifyFitsTheScreen(*m_window);
        verifyEveryRowShows(*m_window);
    }

    // Ctrl+K: Explore in front of the event log, the window on the screen, the lock and storage
    // lanes in view. At 1280x800 the lanes (372 px) and Explore (its controls and chart) do not
    // both fit: the client lanes scroll under the pinned ones at their full height.
    void ctrlKRaisesExploreAndKeepsTheRows()
    {
        MainWindow &w = *m_window;
        QTest::keyClick(w.windowHandle(), Qt::Key_K, Qt::ControlModifier);
        auto *explore = w.findChild<QDockWidget *>(QStringLiteral("exploreDock"));
        QTRY_VERIFY(explore->isVisible());
        QTest::qWait(50);
        const std::map<QString, QRect> docks = docksOnScreen(w);
        QVERIFY2(docks.count(QStringLiteral("exploreDock")), qPrintable(describe(docks)));
        QVERIFY2(!docks.count(QStringLiteral("eventLogDock")), qPrintable(describe(docks)));
        QVERIFY(explore->height() > 150); // room for its controls and chart
        // the sweep's chart takes the token chart's place on this short screen
        QVERIFY(!part<TokenChart>(w)->isVisible());
        verifyFitsTheScreen(w);
        verifyEveryRowShows(w, m_firstLaneHeight);
    }

    // The app quit with Explore open and started again: the saved layout comes back, no worse.
    void restartWithExploreOpenKeepsTheRows()
    {
        closeWindow();
        m_window = newWindow();
        MainWindow &w = *m_window;
        QVERIFY(docksOnScreen(w).count(QStringLiteral("exploreDock")));
        verifyFitsTheScreen(w);
        verifyEveryRowShows(w, m_firstLaneHeight);
    }

    // View > Reset layout: the docks where the first start had them, Explore put away.
    void resetLayoutBringsTheFirstStartBack()
    {
        MainWindow &w = *m_window;
        clickEntry(w, QStringLiteral("resetLayout"));
        QTest::qWait(50);
        const std::map<QString, QRect> docks = docksOnScreen(w);
        QCOMPARE(describe(docks), describe(m_firstStart));
        QVERIFY(part<TokenChart>(w)->isVisible()); // back with Explore put away
        QCOMPARE(part<TimelineView>(w)->visibleRegion().boundingRect().height(),
                 m_firstTimelineHeight);
        verifyFitsTheScreen(w);
        verifyEveryRowShows(w);
    }
};

int main(int argc, char **argv)
{
    QTemporaryDir dir;
    if (!TestSupport::useOffscreenScreens(dir, {{QStringLiteral("projector"), kScreen}}))
        return 2;
    QApplication app(argc, argv);
    TestExploreLayout test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_explorelayout.moc"
