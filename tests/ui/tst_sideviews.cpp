// The side views in the real window: the Story opens at its top (its title whole), not
// scrolled to the selection the window opens with; the Story, the inspector and the event log
// follow the lecture-hall theme's larger text; an edit leaves the Story where the user scrolled it.

#include "document/document.h"
#include "scripteddialogs.h"
#include "views/inspector.h"
#include "views/narrationpanel.h"
#include "viewstate.h"
#include "window/filecontroller.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

class TestSideViews : public QObject
{
    Q_OBJECT

    // The window shown at `size`, its dialogs scripted; false when it never got exposed.
    static bool showAt(MainWindow &w, QSize size)
    {
        scriptDialogs(w);
        w.resize(size);
        w.show();
        return QTest::qWaitForWindowExposed(&w);
    }

    static QScrollArea *storyScroll(MainWindow &w)
    {
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("storyDock"));
        return dock ? qobject_cast<QScrollArea *>(dock->widget()) : nullptr;
    }

    // The story's first label (the title) lies wholly inside what the scroll area shows.
    static bool titleWhole(QScrollArea *scroll, NarrationPanel *story)
    {
        const auto labels = story->findChildren<QLabel *>(Qt::FindDirectChildrenOnly);
        if (labels.isEmpty())
            return false;
        QLabel *title = labels.front();
        const QRect r(title->mapTo(scroll->viewport(), QPoint()), title->size());
        return !title->text().isEmpty() && scroll->viewport()->rect().contains(r);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_sideviews"));
        QSettings().clear();
    }

    void storyOpensAtTheTop_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1366x768") << QSize(1366, 768);
    }
    void storyOpensAtTheTop()
    {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showAt(w, size));
        QTest::qWait(50);
        QScrollArea *scroll = storyScroll(w);
        QVERIFY(scroll);
        // the window opens with the telling outcome selected and explained...
        QVERIFY(w.viewState()->selection().isValid());
        QVERIFY(!part<NarrationPanel>(w)->explanation().isEmpty());
        // ... and the story read from its top
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);
        QVERIFY(titleWhole(scroll, part<NarrationPanel>(w)));

        // another scenario opens at the top too, after the story had been scrolled down
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        QVERIFY(part<FileController>(w)->openPreset(QStringLiteral("kleppmann-gc-pause")));
        QTest::qWait(50);
        QVERIFY(w.viewState()->selection().isValid());
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);
        QVERIFY(titleWhole(scroll, part<NarrationPanel>(w)));

        // a selection made afterwards is still brought into view when the story is short
        if (scroll->verticalScrollBar()->maximum() > 0) {
            w.viewState()->clearSelection();
            w.viewState()->setSelection({0, 2}); // A's write
            QTest::qWait(50);
            QWidget *heading = part<NarrationPanel>(w)->selectedHeading();
            const QRect r(heading->mapTo(scroll->viewport(), QPoint()), heading->size());
            QVERIFY(scroll->viewport()->rect().contains(r));
        }
        w.document()->markSaved();
    }

    // An edit of the selected action (each step of a drag is one) keeps the story where the user
    // scrolled it: only another selection brings its explanation into view.
    void anEditKeepsTheStoryWhereTheUserScrolledIt()
    {
        MainWindow w;
        QVERIFY(showAt(w, QSize(1024, 768)));
        QVERIFY(part<FileController>(w)->openPreset(QStringLiteral("default")));
        QTest::qWait(50);
        QScrollArea *scroll = storyScroll(w);
        QVERIFY(scroll);
        w.viewState()->clearSelection();
        w.viewState()->setSelection({0, 2}); // A's stale write, explained below the story's top
        QTest::qWait(50);
        const int explained = scroll->verticalScrollBar()->value();
        QVERIFY2(explained > 0, "the story is short enough here to scroll to the explanation");
        // the user scrolls back to the story's top, then moves the write a tick, and back
        scroll->verticalScrollBar()->setValue(0);
        Document *doc = w.document();
        for (const Core::Tick delta : {1, -1}) {
            Core::Action a = doc->scenario().clients[0].actions[2];
            a.at += delta;
            doc->setAction(0, 2, a);
            QTest::qWait(50);
            QCOMPARE(w.viewState()->selection(), Selection({0, 2}));
            QCOMPARE(scroll->verticalScrollBar()->value(), 0);
        }
        // another selection still scrolls
        w.viewState()->setSelection({1, 0});
        w.viewState()->setSelection({0, 2});
        QTest::qWait(50);
        QCOMPARE(scroll->verticalScrollBar()->value(), explained);
        doc->markSaved();
    }

    // View > Theme > lecture hall: the Story's, the inspector's and the event log's text grow
    // by the theme's font scale (1.6), and shrink back with the light theme.
    void lectureHallThemeGrowsTheSideViews()
    {
        MainWindow w;
        QVERIFY(showAt(w, QSize(1920, 1080)));
        w.setThemeByName(QStringLiteral("light"));
        const auto sizes = [&w] {
            QWidget *explanation = part<NarrationPanel>(w)->selectedExplanation();
            return std::array<double, 5>{
                explanation->font().pointSizeF(),
                part<Inspector>(w)->valueEdit()->font().pointSizeF(),
                part<QTableView>(w, QStringLiteral("eventLog"))->font().pointSizeF(),
                double(part<QTableView>(w, QStringLiteral("eventLog"))
                           ->verticalHeader()
                           ->defaultSectionSize()),
                double(part<QTableView>(w, QStringLiteral("eventLog"))->columnWidth(1))};
        };
        const std::array<double, 5> light = sizes();
        w.setThemeByName(QStringLiteral("contrast"));
        const std::array<double, 5> big = sizes();
        QTest::qWait(50);
        if (!qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOT_DIR"))
            w.grab().save(qEnvironmentVariable("FENCESCOPE_SCREENSHOT_DIR") +
                          QStringLiteral("/lecture-hall.png"));
        for (int i = 0; i < 3; ++i)
            QVERIFY2(std::abs(big[size_t(i)] - 1.6 * light[size_t(i)]) < 0.05,
                     qPrintable(QStringLiteral("view %1: %2 pt, light %3 pt")
                                    .arg(i)
                                    .arg(big[size_t(i)])
                                    .arg(light[size_t(i)])));
        // the log's rows are made for the larger text
        QVERIFY(big[3] > light[3]);
        QVERIFY(big[3] >=
                QFontMetrics(part<QTableView>(w, QStringLiteral("eventLog"))->font()).height() + 4);
        QVERIFY(std::abs(big[4] - 1.6 * light[4]) <= 1); // and its columns for it
        w.setThemeByName(QStringLiteral("light"));
        QCOMPARE(sizes(), light);
        w.document()->markSaved();
    }
};

QTEST_MAIN(TestSideViews)
#include "tst_sideviews.moc"
