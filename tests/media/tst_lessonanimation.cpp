// An animated lesson (Animation::lessonPlan, exportLesson; docs/LESSONS.md, "An animated
// lesson"), checked as tst_animation checks a scenario's: the plan worked out by hand for a
// small lesson, the written files read back with the libraries that wrote them, and the frames
// held at a scene's opening and at its question compared with the scene drawn alone.

#include "animation.h"
#include "animationsupport.h"
#include "exportruns.h"
#include "lessonfile.h"
#include "lessonplay.h"
#include "mediadecode.h"
#include "scenariofile.h"
#include "simulator.h"

#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

namespace {

// tests/data/lessons/good/two-scenes: the default preset twice, the second time with a
// question frozen at t=29 (A's write arrives at 30 and is rejected: option A).
Core::Lesson twoScenes()
{
    const Core::LessonLoadResult r = Core::LessonFile::load(
        QStringLiteral(FENCESCOPE_TESTDATA "/lessons/good/two-scenes.fencescope-lesson.json"));
    if (!r.ok())
        qFatal("%s", qPrintable(r.error));
    return *r.lesson;
}

// A picture of a lesson's scene drawn alone, as presentation shows it: the default run (fenced)
// stopped at `tick` (just before it with `before`), the future hidden, `caption` under it.
QImage sceneAlone(const AnimationOptions &o, QSize canvas, Core::Tick tick, bool before,
                  const QString &caption)
{
    ExportOptions picture = o.picture;
    picture.fencing = true;
    picture.playhead = tick;
    picture.playheadBefore = before;
    picture.hideFuture = true;
    picture.caption = caption;
    QImage frame(canvas, QImage::Format_RGB32);
    frame.fill(picture.theme.background);
    QPainter p(&frame);
    p.drawImage(0, 0,
                Exporter::renderImage(Core::ScenarioFile::defaultScenario(),
                                      TestRuns(Core::ScenarioFile::defaultScenario(), picture),
                                      picture));
    p.end();
    return frame;
}

} // namespace

class TestLessonAnimation : public QObject
{
    Q_OBJECT

private slots:
    // A lesson plays its scenes in order as presentation walks them (LessonController::
    // positions), by hand for two-scenes: scene 1 (no question) opens before its first step
    // with its title and narration, steps through 0, 1, 5, 12, 13, 30 and ends on the whole
    // run; scene 2 opens the same way, steps to 13, holds the question at its freeze (29),
    // and the answer at A's write's arrival (30). A scene's opening and its first step share
    // a tick (no travel), a new scene and a scene's end are cuts; every other pair of steps
    // has 7 travel frames (0.8 s at 10 fps, as a scenario's animation).
    void lessonPlanWalksTheScenes()
    {
        const Animation::Plan p = Animation::lessonPlan(twoScenes(), smallOptions());
        QCOMPARE(p.problem, QString());
        QCOMPARE(p.shots.size(), std::size_t(2));
        QVERIFY(p.shots[0].lesson && p.shots[1].lesson);
        struct Expected
        {
            int shot;
            Core::Tick tick;
            bool before;
        };
        const std::vector<Expected> expected{
            {0, 0, true},   {0, 0, false},  {0, 1, false},  {0, 5, false},
            {0, 12, false}, {0, 13, false}, {0, 30, false}, {0, Core::kForever, false},
            {1, 0, true},   {1, 0, false},  {1, 1, false},  {1, 5, false},
            {1, 12, false}, {1, 13, false}, {1, 29, false}, {1, 30, false}};
        QCOMPARE(p.steps.size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(p.steps[k].shot, expected[k].shot);
            QCOMPARE(p.steps[k].tick, expected[k].tick);
            QCOMPARE(p.steps[k].before, expected[k].before);
        }
        // the narration as the opening's caption, its Markdown read
        QCOMPARE(p.steps[0].caption,
                 QStringLiteral("The schedule\nA pauses for a long time: its lease ends while "
                                "it sleeps."));
        QCOMPARE(p.steps[8].caption, QStringLiteral("A wakes up\nB holds the lock now."));
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Core::Trace t = Core::simulate(s, true);
        QCOMPARE(p.steps[1].caption, Exporter::stepCaption(s, t, 0));
        QCOMPARE(p.steps[13].caption, Exporter::stepCaption(s, t, 13));
        QCOMPARE(p.steps[7].caption, Exporter::defaultCaption(s, t)); // the verdict
        QCOMPARE(p.steps[14].caption,
                 QStringLiteral("What happens to A's write?\nA. A's write \"A\" is rejected\n"
                                "B. A's write \"A\" is corrupted"));
        QVERIFY2(p.steps[15].caption.startsWith(
                     QStringLiteral("Answer: A. A's write \"A\" is rejected\n")),
                 qPrintable(p.steps[15].caption));
        QVERIFY(p.steps[15].caption.endsWith(
            QStringLiteral("\n\u2022 B. A's write \"A\" is corrupted: The storage has seen "
                           "token 2.")));

        QCOMPARE(p.frames.size(), std::size_t(16 + 5 * 7 + 6 * 7));
        QCOMPARE(p.periods, 16 * 10 + 11 * 7);
        int at = 0;
        std::size_t holds = 0;
        for (std::size_t i = 0; i < p.frames.size(); ++i) {
            const Animation::Frame &f = p.frames[i];
            QCOMPARE(f.start, at);
            at += f.periods;
            QVERIFY(f.kind != Animation::Frame::Kind::Verdict);
            if (f.kind == Animation::Frame::Kind::Hold) {
                QCOMPARE(f.step, int(holds));
                QCOMPARE(f.periods, 10);
                ++holds;
            } else {
                QCOMPARE(f.periods, 1);
                const Core::Tick next = p.steps[std::size_t(f.step) + 1].tick;
                QVERIFY(f.travel > 0 && f.travel < double(next - f.playhead));
            }
            // every frame hides the future as presentation does (a scene's end has its
            // playhead past the run: the whole run shows)
            const ExportOptions o = Animation::frameOptions(p, i);
            QCOMPARE(o.playhead, f.playhead);
            QCOMPARE(o.hideFuture, true);
            QCOMPARE(o.caption, p.steps[std::size_t(f.step)].caption);
        }
        QCOMPARE(holds, p.steps.size());
        // without --step-seconds each hold lasts as long as its words take to read
        AnimationOptions reading = smallOptions();
        reading.stepSeconds.reset();
        const Animation::Plan r = Animation::lessonPlan(twoScenes(), reading);
        for (const Animation::Frame &f : r.frames)
            if (f.kind == Animation::Frame::Kind::Hold)
                QCOMPARE(f.periods, int(std::lround(Animation::readingSeconds(
                                                        r.steps[std::size_t(f.step)].caption) *
                                                    10)));
    }

    void writtenLessonShowsEachScene_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<double>("tolerance"); // mean difference from the picture, of 255
        QTest::newRow("gif") << QStringLiteral("gif") << 1.0;
        QTest::newRow("mp4") << QStringLiteral("mp4") << 2.0;
    }

    // The file holds the plan's frames for the plan's times, and the frame held at a scene's
    // opening is that scene drawn alone with its narration as the caption (not the other
    // scene's); the question's hold is the run stopped at the freeze with the prompt and the
    // options.
    void writtenLessonShowsEachScene()
    {
        QFETCH(QString, suffix);
        QFETCH(double, tolerance);
        const Core::Lesson lesson = twoScenes();
        const AnimationOptions o = smallOptions();
        const Animation::Plan p = Animation::lessonPlan(lesson, o);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lesson.") + suffix);
        QCOMPARE(Animation::exportLesson(path, lesson, o), QString());
        QCOMPARE(filesIn(dir.path()), QStringList{QStringLiteral("lesson.") + suffix});
        const MediaDecode::Animation a = MediaDecode::read(path);
        QCOMPARE(a.size, p.size);
        QCOMPARE(a.frames.size(), std::size_t(93));
        QVERIFY2(std::abs(a.seconds() - 23.7) < 1e-6, qPrintable(QString::number(a.seconds())));
        for (std::size_t i = 0; i < p.frames.size(); ++i) {
            QVERIFY(std::abs(a.frames[i].start - p.frames[i].start / 10.0) < 1e-6);
            QVERIFY(std::abs(a.frames[i].duration - p.frames[i].periods / 10.0) < 1e-6);
        }
        const QString first = QStringLiteral("The schedule\nA pauses for a long time: its lease "
                                             "ends while it sleeps.");
        const QString second = QStringLiteral("A wakes up\nB holds the lock now.");
        // scene 2 opens after scene 1's 8 holds and 35 travel frames: 11.5 s
        const struct
        {
            double at;
            QString own;
            QString other;
        } openings[] = {{0.5, first, second}, {11.5 + 0.5, second, first}};
        const int belowTimeline =
            int(Exporter::timelineRect(lesson.scenes[0].scenario,
                                       TestRuns(lesson.scenes[0].scenario, o.picture), o.picture)
                    .bottom()) +
            1;
        for (const auto &opening : openings) {
            const MediaDecode::Frame *held = a.at(opening.at);
            QVERIFY(held);
            const QImage alone = sceneAlone(o, p.size, 0, true, opening.own);
            const double same = MediaDecode::meanDifference(held->image, alone);
            QVERIFY2(same < tolerance, qPrintable(QString::number(same)));
            const QImage other = sceneAlone(o, p.size, 0, true, opening.other);
            const QRect caption = differingBelow(alone, other, belowTimeline);
            QVERIFY(!caption.isEmpty());
            const double own = MediaDecode::meanDifference(held->image, alone, caption);
            const double wrong = MediaDecode::meanDifference(held->image, other, caption);
            QVERIFY2(wrong > 4 * own + 5,
                     qPrintable(QStringLiteral("%1 against %2").arg(own).arg(wrong)));
        }
        // the question: after scene 2's opening and 5 steps (6 holds) and 5 travels
        const double question = 11.5 + 6 * 1.0 + 5 * 0.7;
        const MediaDecode::Frame *asked = a.at(question + 0.5);
        QVERIFY(asked);
        QVERIFY(std::abs(asked->start - question) < 1e-6);
        const Core::LessonQuestion &q = *lesson.scenes[1].question;
        const QString prompt = QStringLiteral("What happens to A's write?\n") +
                               Core::optionLine(q, 0) + QLatin1Char('\n') + Core::optionLine(q, 1);
        const QImage frozen = sceneAlone(o, p.size, 29, false, prompt);
        const double same = MediaDecode::meanDifference(asked->image, frozen);
        QVERIFY2(same < tolerance, qPrintable(QString::number(same)));
        // and not the run at its reveal: where the two differ (the rejection at 30, the
        // playhead), the frame is the frozen one
        const QImage revealed = sceneAlone(o, p.size, 30, false, prompt);
        const QRect rows = differingBelow(frozen, revealed, 0);
        QVERIFY(!rows.isEmpty());
        const double own = MediaDecode::meanDifference(asked->image, frozen, rows);
        const double wrong = MediaDecode::meanDifference(asked->image, revealed, rows);
        QVERIFY2(wrong > 4 * own + 1,
                 qPrintable(QStringLiteral("%1 against %2").arg(own).arg(wrong)));
    }

    // A lesson whose question has no right option on its run has no reveal to animate: one
    // line naming the scene's question, and no file.
    void anUnsoundLessonLeavesNoFile()
    {
        Core::Lesson lesson = twoScenes();
        lesson.scenes[1].question->options[0].claim.outcome = Core::ClaimOutcome::Accepted;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lesson.gif"));
        const QString error = Animation::exportLesson(path, lesson, smallOptions());
        QVERIFY2(
            error.startsWith(QStringLiteral("cannot export to %1: scenes[1].question").arg(path)),
            qPrintable(error));
        QCOMPARE(error.count(QLatin1Char('\n')), 0);
        QCOMPARE(filesIn(dir.path()), QStringList());
    }
};

QTEST_MAIN(TestLessonAnimation)
#include "tst_lessonanimation.moc"
