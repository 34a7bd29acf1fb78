// The find-and-shrink panel, driven offscreen through its window: the steps it lists are the
// shrinker's, each row replays the scenario after that step, Open gives the result with its
// history, and a failure's story is kept unless asked for any.

#include "panelclicks.h"
#include "scenariofile.h"
#include "sweep.h"
#include "sweepreport.h"
#include "theme.h"
#include "views/shrinkpanel.h"
#include "windowparts.h"

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

Q_DECLARE_METATYPE(Core::Scenario)

class TestShrinkPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<Core::Scenario>(); }

    // The find-and-shrink panel: the steps it lists are the shrinker's, each row replays the
    // scenario after that step, and Open gives the result with its history.
    void findShrinkAndReplay()
    {
        ShrinkPanel panel;
        panel.setScenario(Core::ScenarioFile::defaultScenario());
        panel.setReplayInterval(10);
        panel.resize(700, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(part<QCheckBox>(panel, "fencing")->isChecked()); // the scenario's switch
        click(&panel, "fencing");
        QVERIFY(!part<QCheckBox>(panel, "fencing")->isChecked());
        part<QSpinBox>(panel, "seed")->setValue(3);
        // the story is what the search keeps, said under the choice
        QVERIFY(!part<QCheckBox>(panel, "any")->isChecked());
        QCOMPARE(part<QLabel>(panel, "story")->text(),
                 QStringLiteral("Looks for a stale write: due while its writer held the lock, it "
                                "arrived after that lease had ended."));
        QSignalSpy done(&panel, &ShrinkPanel::searchFinished);
        click(&panel, "find");
        QVERIFY(arrived(done, 60000));
        QCOMPARE(done.first().first().toBool(), true);

        // the same as the core's search and shrink (tst_shrink works it out: schedule 1070)
        const Core::FindResult found =
            Core::findFailure(Core::ScenarioFile::defaultScenario(), {0, false}, 3, 100000);
        QVERIFY(found.schedule);
        QCOMPARE(found.run, std::uint64_t(1070));
        QCOMPARE(panel.foundSchedule(), *found.schedule);
        const QString status = part<QLabel>(panel, "status")->text();
        QVERIFY2(status.startsWith(QLatin1String("Schedule 1070 of seed 3 has a stale corrupted "
                                                 "write with fencing off; shrunk from 6 to 5 "
                                                 "actions in 12 steps. t=4: A wrote 'A2' with "
                                                 "token 1")),
                 qPrintable(status));
        const Core::ShrinkResult expected = Core::shrink(*found.schedule, {0, false});
        QCOMPARE(panel.result().shrunk, expected.shrunk);
        auto *steps = part<QListWidget>(panel, "steps");
        QCOMPARE(steps->count(), int(expected.steps.size()) + 1);
        for (std::size_t i = 0; i < expected.steps.size(); ++i)
            QCOMPARE(steps->item(int(i) + 1)->text(),
                     QStringLiteral("%1. %2").arg(i + 1).arg(expected.steps[i].text));

        // a click on a step shows the scenario after it
        QSignalSpy step(&panel, &ShrinkPanel::stepScenario);
        const QRect row = steps->visualItemRect(steps->item(2));
        QTest::mouseClick(panel.windowHandle(), Qt::LeftButton, {},
                          steps->viewport()->mapTo(&panel, row.center()));
        QCOMPARE(step.size(), 1);
        Core::Scenario after2 = Core::replaySteps(*found.schedule, expected.steps, 2);
        QCOMPARE(step.first().first().value<Core::Scenario>(), after2);
        QCOMPARE(step.first().at(1).toString(), steps->item(2)->text());

        // replay: every state from the schedule found to the result, in order
        step.clear();
        click(&panel, "replay");
        QTRY_COMPARE_WITH_TIMEOUT(step.size(), steps->count(), 10000);
        for (int i = 0; i < steps->count(); ++i)
            QCOMPARE(step.at(i).first().value<Core::Scenario>(),
                     Core::replaySteps(*found.schedule, expected.steps, std::size_t(i)));
        QCOMPARE(step.last().first().value<Core::Scenario>().clients, expected.shrunk.clients);

        if (qEnvironmentVariableIsSet("FENCESCOPE_SHRINK_SCREENSHOT")) // to look at it
            panel.grab().save(qEnvironmentVariable("FENCESCOPE_SHRINK_SCREENSHOT"));
        QSignalSpy open(&panel, &ShrinkPanel::openScenario);
        click(&panel, "open");
        QCOMPARE(open.size(), 1);
        const auto result = open.first().first().value<Core::Scenario>();
        QCOMPARE(result.clients, expected.shrunk.clients);
        QVERIFY(!result.fencing);
        QVERIFY(result.description.contains(QLatin1String("of seed 3 shaped like")));
        QVERIFY(result.description.contains(QLatin1String("Shrunk to 1-minimal")));
        QVERIFY(result.description.contains(expected.steps.back().text));

        // any corrupted write, ticked by its key: schedule 2 and A writing without the lock
        QTest::keyClick(panel.windowHandle(), Qt::Key_Y, Qt::AltModifier);
        // (a mnemonic clicks the way animateClick() does, a moment later)
        QTRY_VERIFY(part<QCheckBox>(panel, "any")->isChecked());
        QCOMPARE(part<QLabel>(panel, "story")->text(),
                 QStringLiteral("Looks for any corrupted write."));
        done.clear();
        click(&panel, "find");
        QVERIFY(arrived(done, 60000));
        QVERIFY(part<QLabel>(panel, "status")
                    ->text()
                    .startsWith(QLatin1String("Schedule 2 of seed 3 has a corrupted write with "
                                              "fencing off; shrunk from 6 to 3 actions")));
        QCOMPARE(panel.result().shrunk.clients[0].actions,
                 std::vector<Core::Action>({Core::Action::write(1, QStringLiteral("A1"))}));
    }

    void nothingToFindWithFencing()
    {
        ShrinkPanel panel;
        panel.setScenario(Core::ScenarioFile::defaultScenario());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        part<QSpinBox>(panel, "tries")->setValue(2000);
        QSignalSpy done(&panel, &ShrinkPanel::searchFinished);
        click(&panel, "find");
        QVERIFY(arrived(done, 60000));
        QCOMPARE(done.first().first().toBool(), false);
        QCOMPARE(part<QLabel>(panel, "status")->text(),
                 QStringLiteral("No stale corrupted write with fencing on in 2000 schedules of "
                                "seed 1."));
        QVERIFY(!part<QPushButton>(panel, "open")->isEnabled());
        QCOMPARE(part<QListWidget>(panel, "steps")->count(), 0);
    }
};

QTEST_MAIN(TestShrinkPanel)
#include "tst_shrinkpanel.moc"
