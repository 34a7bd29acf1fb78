// Simulation > Run on etcd, driven as a user would: the menu entry, Start, the progress while
// the window keeps answering, Cancel, and at the end compare mode with "Predicted" over
// "Observed on etcd 3.4.x", the divergences listed and each leading to its action; a scenario
// that cannot run says why before anything starts; an edit ends the comparison. Runs on a real
// etcd, which the dialog starts itself. FENCESCOPE_LIVE_SCREENSHOT=FILE.png also saves the
// window after a run of the default scenario (README's picture).

#include "document/comparison.h"
#include "document/document.h"
#include "livesupport.h"
#include "views/livedialog.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/filecontroller.h"
#include "window/mainwindow.h"
#include "windowfixture.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

class TestLiveDialog : public QObject
{
    Q_OBJECT

    TestSupport::OwnRunBase m_ownBase; // (first: every run of this test makes its folders there)

    WindowFixture m_window{WindowFixture::Options().sized(1400, 900)};

    // Simulation > Run on etcd…, by the mouse through the menu bar.
    LiveDialog *openDialog()
    {
        QMenuBar *bar = m_window->menuBar();
        QAction *simulation = nullptr;
        for (QAction *a : bar->actions())
            if (a->text() == QLatin1String("&Simulation"))
                simulation = a;
        if (!simulation)
            return nullptr;
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(simulation).center());
        QMenu *menu = simulation->menu();
        if (!QTest::qWaitFor([menu] { return menu->isVisible(); }))
            return nullptr;
        QAction *live = m_window->findChild<QAction *>(QStringLiteral("runOnEtcd"));
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(live).center());
        LiveDialog *dialog = m_window->findChild<LiveDialog *>();
        if (dialog && !QTest::qWaitFor([dialog] { return dialog->isVisible(); }))
            return nullptr;
        return dialog;
    }

private slots:
    void initTestCase()
    {
        WindowFixture::useOwnSettings("tst_livedialog");
        qputenv("FENCESCOPE_LIVE_HELPER", TestSupport::liveHelper().toUtf8());
        m_folders = TestSupport::runFolders();
    }

    void init() { QVERIFY(m_window.open()); }

    void cleanup()
    {
        m_window.close();
        QCOMPARE(TestSupport::childProcesses(), std::vector<qint64>{});
        QCOMPARE(TestSupport::runFolders(), m_folders);
    }

    // A holds the lock from 0 and writes twice, renewing at 3: 13 ticks of 200 ms.
    void runShowsThePredictionOverWhatEtcdDid()
    {
        QVERIFY(part<FileController>(*m_window)->openPreset(QStringLiteral("reentrant-holder-lt")));
        LiveDialog *dialog = openDialog();
        QVERIFY(dialog);
        QVERIFY2(dialog->reasonLabel()->text().contains(QLatin1String("200 ms a tick: 13 ticks")),
                 qPrintable(dialog->reasonLabel()->text()));
        QCOMPARE(dialog->tickField()->value(), 200.0);
        QVERIFY(dialog->startButton()->isEnabled());
        QSignalSpy finished(dialog, &LiveDialog::runFinished);
        QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
        QVERIFY(dialog->isRunning());
        QVERIFY(!dialog->startButton()->isEnabled());
        QVERIFY(dialog->cancelButton()->isEnabled());
        // progress in words, and the window answering meanwhile: Space plays its run
        QTRY_VERIFY_WITH_TIMEOUT(dialog->statusLabel()->text().startsWith(QLatin1String("t=")),
                                 30000);
        QVERIFY2(dialog->statusLabel()->text().contains(QLatin1String(" of 13, real ")),
                 qPrintable(dialog->statusLabel()->text()));
        // (the user clicks the main window: the window manager activates it)
        QApplication::setActiveWindow(m_window.get());
        QTRY_VERIFY(m_window->isActiveWindow());
        QTest::keyClick(m_window->windowHandle(), Qt::Key_Space); // play
        QTRY_VERIFY(m_window->viewState()->hasPlayhead());
        QTest::keyClick(m_window->windowHandle(), Qt::Key_Space); // pause
        QVERIFY(dialog->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY(!dialog->isRunning());

        const Live::LiveResult &r = dialog->result();
        QVERIFY2(r.ran(), qPrintable(r.error));
        QVERIFY(r.complete);
        QVERIFY(!dialog->verdictLabel()->text().isEmpty());
        QVERIFY(dialog->divergenceList()->count() > 0);
        // compare mode: the prediction over what etcd did, each run with its own title
        QVERIFY(m_window->viewState()->compare());
        const Comparison cmp = comparison(*m_window->document(), *m_window->viewState());
        QVERIFY(cmp.bySource);
        QVERIFY2(cmp.top.title.startsWith(QLatin1String("Predicted")), qPrintable(cmp.top.title));
        QVERIFY2(cmp.bottom.title.startsWith(QLatin1String("Observed on etcd 3.4.")),
                 qPrintable(cmp.bottom.title));
        // the observed run keeps its real times: A's grant a little after tick 0
        QCOMPARE(cmp.bottom.trace->eventTimes.size(), cmp.bottom.trace->events.size());
        QVERIFY(cmp.bottom.trace->eventTime(0) > 0);
        QCOMPARE(cmp.bottom.trace->summary.accepted, 2u);
        QVERIFY(cmp.top.trace->tokens == Core::TokenSource::Etcd);
        // an edit ends the comparison: it was a run of the scenario as it was
        QTest::keyClick(m_window->windowHandle(), Qt::Key_F);
        QVERIFY(!m_window->document()->comparedRuns());
        QVERIFY(!comparison(*m_window->document(), *m_window->viewState())
                     .top.title.startsWith(QLatin1String("Predicted")));
        QVERIFY(dialog->startButton()->isEnabled());
    }

    // A divergence of one action leads to it: activated, it is the selection.
    void divergenceLeadsToItsAction()
    {
        const QString screenshot = qEnvironmentVariable("FENCESCOPE_LIVE_SCREENSHOT");
        if (!screenshot.isEmpty())
            m_window->resize(1600, 1000);
        QVERIFY(part<FileController>(*m_window)->openPreset(QStringLiteral("default")));
        LiveDialog *dialog = openDialog();
        QVERIFY(dialog);
        QSignalSpy finished(dialog, &LiveDialog::runFinished);
        // A's lease ends late (etcd's lessor looks for expired leases every 500 ms): a note
        // about client A. Within 50 ms of the model, which the lessor's phase allows now and
        // then, no note is made: the run is made again, at most three times in all.
        QListWidget *list = dialog->divergenceList();
        int row = -1;
        for (int attempt = 1; attempt <= 3 && row < 0; ++attempt) {
            QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), attempt, 60000);
            QVERIFY2(dialog->result().ran(), qPrintable(dialog->result().error));
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->text().contains(QLatin1String("etcd ended A's lease")))
                    row = i;
            if (row < 0)
                QTRY_VERIFY(dialog->startButton()->isEnabled());
        }
        QVERIFY2(row >= 0, "no lease end of A listed in three runs");
        if (!screenshot.isEmpty()) {
            // over the story and the chart, the two panels in full view
            dialog->resize(520, 430);
            dialog->move(m_window->geometry().right() - dialog->width(),
                         m_window->geometry().bottom() - dialog->height() - 30);
            QTest::qWait(200);
            QPixmap window = m_window->grab();
            QPainter p(&window);
            p.drawPixmap(dialog->geometry().topLeft() - m_window->geometry().topLeft(),
                         dialog->grab());
            p.end();
            QVERIFY(window.save(screenshot));
        }
        // activated, the note selects the acquire whose lease it was
        list->setCurrentRow(row);
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(m_window->viewState()->selection(), (Selection{0, 0}));
    }

    void cancelKeepsWhatWasObserved()
    {
        QVERIFY(part<FileController>(*m_window)->openPreset(QStringLiteral("default")));
        LiveDialog *dialog = openDialog();
        QVERIFY(dialog);
        QSignalSpy finished(dialog, &LiveDialog::runFinished);
        QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->statusLabel()->text().startsWith(QLatin1String("t=6 ")) ||
                dialog->statusLabel()->text().startsWith(QLatin1String("t=7 ")),
            60000);
        QTest::mouseClick(dialog->cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        const Live::LiveResult &r = dialog->result();
        QVERIFY(!r.complete);
        QVERIFY2(r.stopped.startsWith(QLatin1String("cancelled at t=")), qPrintable(r.stopped));
        const Comparison cmp = comparison(*m_window->document(), *m_window->viewState());
        QVERIFY2(cmp.bottom.title.contains(QLatin1String(": partial, cancelled at t=")),
                 qPrintable(cmp.bottom.title));
        QCOMPARE(cmp.bottom.trace->grants.size(), std::size_t(1));   // A's; B's comes at 12
        QCOMPARE(cmp.bottom.trace->refusals.size(), std::size_t(1)); // B's at 5
    }

    void refusedScenarioSaysWhy()
    {
        QVERIFY(part<FileController>(*m_window)->openPreset(QStringLiteral("zookeeper-failover")));
        LiveDialog *dialog = openDialog();
        QVERIFY(dialog);
        QVERIFY(!dialog->startButton()->isEnabled());
        QVERIFY2(dialog->reasonLabel()->text().startsWith(
                     QLatin1String("This scenario cannot run: cannot run on etcd: its tokens are "
                                   "ZooKeeper zxids")),
                 qPrintable(dialog->reasonLabel()->text()));
        // the next scenario can
        QVERIFY(part<FileController>(*m_window)->openPreset(QStringLiteral("default")));
        QTRY_VERIFY(dialog->startButton()->isEnabled());
        QCOMPARE(dialog->tickField()->value(), 300.0);
        // a tick too short for the margin after A's lease is refused at once
        dialog->tickField()->setValue(200);
        QVERIFY(!dialog->startButton()->isEnabled());
        QVERIFY2(dialog->reasonLabel()->text().contains(QLatin1String("it needs at least 600 ms")),
                 qPrintable(dialog->reasonLabel()->text()));
    }

private:
    QStringList m_folders;
};

QTEST_MAIN(TestLiveDialog)
#include "tst_livedialog.moc"
