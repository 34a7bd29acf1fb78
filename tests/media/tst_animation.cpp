// Animations are checked as a viewer gets them: each written file is read back with the library
// that wrote it (giflib, libavformat/libavcodec), and its frames, their times and their pictures
// are compared with the plan and with each step drawn alone by the exporter.

#include "animation.h"
#include "animationsupport.h"
#include "exportruns.h"
#include "filesizelimit.h"
#include "mediadecode.h"
#include "scenariofile.h"
#include "simulator.h"
#include "videowriter.h"

#include <QDir>
#include <QFile>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

namespace {

// The step at `tick` drawn alone, as the storyboard draws it, on the animation's canvas.
QImage stepAlone(const Core::Scenario &s, const AnimationOptions &o, QSize canvas, Core::Tick tick)
{
    ExportOptions picture = o.picture;
    picture.playhead = tick;
    QImage frame(canvas, QImage::Format_RGB32);
    frame.fill(picture.theme.background);
    QPainter p(&frame);
    p.drawImage(0, 0, Exporter::renderImage(s, TestRuns(s, picture), picture));
    p.end();
    return frame;
}

} // namespace

class TestAnimation : public QObject
{
    Q_OBJECT

private slots:
    void formatFromExtension()
    {
        QCOMPARE(Animation::formatFor(QStringLiteral("a.GIF")), AnimationOptions::Format::Gif);
        QCOMPARE(Animation::formatFor(QStringLiteral("x/y.mp4")), AnimationOptions::Format::Mp4);
        QCOMPARE(Animation::formatFor(QStringLiteral("talk.webm")), AnimationOptions::Format::WebM);
        QVERIFY(!Animation::formatFor(QStringLiteral("a.avi")));
        QVERIFY(!Animation::formatFor(QStringLiteral("gif")));
    }

    void readingTimeGrowsWithTheWords()
    {
        QCOMPARE(Animation::readingSeconds(QString()), 2.0);
        QCOMPARE(Animation::readingSeconds(QStringLiteral("one two  three\nfour")), 3.0);
        // 40 words: 2 + 10 s, the most a step holds by itself
        QCOMPARE(Animation::readingSeconds(QStringLiteral("word ").repeated(40)), 12.0);
        QCOMPARE(Animation::readingSeconds(QStringLiteral("word ").repeated(55)), 12.0);
    }

    void theStepsAreTheStoryboards()
    {
        // default.json, by hand: A granted token 1 at 0; A's pause from 1; B refused at 5 (A's
        // lease lasts to 10); B granted token 2 at 12; B's write, no delay, accepted at 13; A
        // wakes at 30 and its write with token 1 arrives, rejected.
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Core::Trace t = Core::simulate(s, true);
        const std::vector<Animation::Step> steps = Animation::captionedSteps(s, t);
        std::vector<Core::Tick> ticks;
        for (const Animation::Step &step : steps) {
            ticks.push_back(step.tick);
            QCOMPARE(step.caption, Exporter::stepCaption(s, t, step.tick));
        }
        QCOMPARE(ticks, (std::vector<Core::Tick>{0, 1, 5, 12, 13, 30}));
        QVERIFY(steps[4].caption.contains(QStringLiteral("accepted")));
        QVERIFY(steps[5].caption.contains(QStringLiteral("rejected")));
    }

    void planHoldsTravelsAndEndsOnTheVerdict()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const Animation::Plan p = Animation::plan(s, smallOptions());
        // six steps held 1 s (10 periods at 10 fps); 0.8 s between two steps is 8 periods, the
        // last of which is the next hold: 7 travel frames; the verdict held 1 s
        QCOMPARE(p.steps.size(), std::size_t(6));
        QCOMPARE(p.frames.size(), std::size_t(6 + 5 * 7 + 1));
        QCOMPARE(p.periods, 6 * 10 + 5 * 7 + 10);
        QCOMPARE(p.seconds(), 10.5);
        const int holdStarts[] = {0, 17, 34, 51, 68, 85};
        int holds = 0;
        int at = 0;
        for (std::size_t i = 0; i < p.frames.size(); ++i) {
            const Animation::Frame &f = p.frames[i];
            QCOMPARE(f.start, at); // back to back
            at += f.periods;
            if (f.kind == Animation::Frame::Kind::Hold) {
                QCOMPARE(f.start, holdStarts[holds]);
                QCOMPARE(f.periods, 10);
                QCOMPARE(f.playhead, p.steps[std::size_t(holds)].tick);
                ++holds;
            } else if (f.kind == Animation::Frame::Kind::Travel) {
                // on its way from its step to the next, moving on every frame
                const Animation::Frame &before = p.frames[i - 1];
                const double gap = double(p.steps[std::size_t(f.step) + 1].tick - f.playhead);
                QCOMPARE(f.periods, 1);
                QVERIFY(f.travel >
                        (before.kind == Animation::Frame::Kind::Travel ? before.travel : 0.0));
                QVERIFY(f.travel < gap);
            }
        }
        QCOMPARE(holds, 6);
        QCOMPARE(p.frames.back().kind, Animation::Frame::Kind::Verdict);
        QCOMPARE(p.frames.back().start, 95);
        QCOMPARE(p.frames.back().periods, 10);
        // every frame has the tallest page's size, even for 4:2:0 video
        QCOMPARE(p.size.width(), 640);
        QCOMPARE(p.size.height() % 2, 0);
        AnimationOptions o = smallOptions();
        double tallest =
            Exporter::pageSize(s, TestRuns(s, o.picture), o.picture).height(); // the verdict's
        for (const Animation::Step &step : p.steps) {
            o.picture.playhead = step.tick;
            tallest = std::max(tallest,
                               Exporter::pageSize(s, TestRuns(s, o.picture), o.picture).height());
        }
        QCOMPARE(p.size.height(), int(std::ceil(tallest)) + int(std::ceil(tallest)) % 2);
    }

    void holdsFollowTheCaptionsByDefault()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        AnimationOptions o;
        const Animation::Plan p = Animation::plan(s, o);
        QCOMPARE(p.fps, 15);
        // 0.8 s of travel at 15 fps: 12 periods, 11 of them travel frames
        QCOMPARE(p.frames.size(), std::size_t(6 + 5 * 11 + 1));
        for (const Animation::Frame &f : p.frames)
            if (f.kind == Animation::Frame::Kind::Hold)
                QCOMPARE(f.periods, int(std::lround(Animation::readingSeconds(
                                                        p.steps[std::size_t(f.step)].caption) *
                                                    15)));
        // the verdict's caption: "Fencing on: 1 accepted, ... no write overwrote newer data." is
        // 18 words: 2 + 4.5 s
        QCOMPARE(p.frames.back().periods, int(std::lround(6.5 * 15)));
        QCOMPARE(p.size.width(), 1280); // an animation's default width
    }

    void aRangeTellsOnlyItsSteps()
    {
        AnimationOptions o = smallOptions();
        o.picture.fromTick = 5;
        o.picture.toTick = 13;
        const Animation::Plan p = Animation::plan(Core::ScenarioFile::defaultScenario(), o);
        QCOMPARE(p.steps.size(), std::size_t(3));
        QCOMPARE(p.steps.front().tick, Core::Tick(5));
        QCOMPARE(p.steps.back().tick, Core::Tick(13));
    }

    void aLongRunAsksForARange()
    {
        // A holds the lock for 1000 ticks and writes at every tick from 1 to 310, each arriving
        // at once: 311 ticks with something happening, each a step
        QString json = QStringLiteral(R"({"fencescope": 1, "title": "long", "horizon": 400,
            "storages": [{"name": "db"}], "clients": [{"name": "A", "actions": [
            {"at": 0, "do": "acquire", "ttl": 1000})");
        for (int t = 1; t <= 310; ++t)
            json += QStringLiteral(R"(, {"at": %1, "do": "write", "value": "v%1"})").arg(t);
        json += QStringLiteral("]}]}");
        const Core::LoadResult loaded = Core::ScenarioFile::parse(json.toUtf8());
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        AnimationOptions o = smallOptions();
        Animation::Plan p = Animation::plan(*loaded.scenario, o);
        QCOMPARE(p.problem, QStringLiteral("the run has 311 steps, too many to animate (at most "
                                           "300): choose a range of it"));
        QVERIFY(p.frames.empty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.gif"));
        QCOMPARE(Animation::exportTo(path, *loaded.scenario, o),
                 QStringLiteral("cannot export to %1: %2").arg(path, p.problem));
        QCOMPARE(filesIn(dir.path()), QStringList());
        // a range of it: ticks 100 to 199
        o.picture.fromTick = 100;
        o.picture.toTick = 199;
        p = Animation::plan(*loaded.scenario, o);
        QCOMPARE(p.problem, QString());
        QCOMPARE(p.steps.size(), std::size_t(100));

        // 5001 writes arrive: more events than are ever told one by one, refused before their
        // sentences are made (a grant and at least an arrival for each write)
        QString many = QStringLiteral(R"({"fencescope": 1, "title": "many", "storages":
            [{"name": "db"}], "clients": [{"name": "A", "actions": [
            {"at": 0, "do": "acquire", "ttl": 100000})");
        for (int t = 1; t <= 5001; ++t)
            many += QStringLiteral(R"(, {"at": %1, "do": "write", "value": "v"})").arg(t);
        many += QStringLiteral("]}]}");
        const Core::LoadResult big = Core::ScenarioFile::parse(many.toUtf8());
        QVERIFY2(big.ok(), qPrintable(big.error));
        const std::size_t events = Core::simulate(*big.scenario, true).events.size();
        QVERIFY(events > 5002);
        p = Animation::plan(*big.scenario, smallOptions());
        QCOMPARE(p.problem, QStringLiteral("the run has %1 events, too many to animate (at most "
                                           "5000): choose a range of it")
                                .arg(events));
    }

    void writtenFilesHoldEachStep_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QString>("codec");
        QTest::addColumn<double>("tolerance"); // mean difference from the picture, of 255
        QTest::newRow("gif") << QStringLiteral("gif") << QStringLiteral("gif") << 1.0;
        QTest::newRow("mp4") << QStringLiteral("mp4") << QStringLiteral("h264") << 2.0;
        QTest::newRow("webm") << QStringLiteral("webm") << QStringLiteral("vp9") << 2.5;
    }

    void writtenFilesHoldEachStep()
    {
        QFETCH(QString, suffix);
        QFETCH(QString, codec);
        QFETCH(double, tolerance);
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        const AnimationOptions o = smallOptions();
        const Animation::Plan p = Animation::plan(s, o);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.") + suffix);
        int calls = 0;
        QCOMPARE(Animation::exportTo(path, s, o,
                                     [&](int done, int total) {
                                         ++calls;
                                         return done <= total;
                                     }),
                 QString());
        QCOMPARE(calls, int(p.frames.size()));
        QCOMPARE(filesIn(dir.path()), QStringList{QStringLiteral("run.") + suffix});

        const MediaDecode::Animation a = MediaDecode::read(path);
        QCOMPARE(a.codec, codec);
        QCOMPARE(a.size, p.size);
        if (suffix != QLatin1String("gif"))
            QCOMPARE(a.pixelFormat, QStringLiteral("yuv420p"));
        // one frame per frame of the plan: a hold is one long frame
        QCOMPARE(a.frames.size(), p.frames.size());
        QVERIFY2(std::abs(a.seconds() - 10.5) < 1e-6, qPrintable(QString::number(a.seconds())));
        for (std::size_t i = 0; i < p.frames.size(); ++i) {
            QVERIFY(std::abs(a.frames[i].start - p.frames[i].start / 10.0) < 1e-6);
            QVERIFY(std::abs(a.frames[i].duration - p.frames[i].periods / 10.0) < 1e-6);
        }

        // the frame held for step k is step k drawn alone, caption and all
        const int belowTimeline =
            int(Exporter::timelineRect(s, TestRuns(s, o.picture), o.picture).bottom()) + 1;
        for (std::size_t k = 0; k < p.steps.size(); ++k) {
            const MediaDecode::Frame *held = a.at((17 * double(k) + 5) / 10.0);
            QVERIFY(held);
            const QImage alone = stepAlone(s, o, p.size, p.steps[k].tick);
            const double same = MediaDecode::meanDifference(held->image, alone);
            QVERIFY2(same < tolerance, qPrintable(QStringLiteral("step %1: %2").arg(k).arg(same)));
            // and not its neighbour: in the caption, where the two differ, it is step k's
            const std::size_t other = k + 1 < p.steps.size() ? k + 1 : k - 1;
            const QImage next = stepAlone(s, o, p.size, p.steps[other].tick);
            const QRect caption = differingBelow(alone, next, belowTimeline);
            QVERIFY(!caption.isEmpty());
            const double own = MediaDecode::meanDifference(held->image, alone, caption);
            const double neighbour = MediaDecode::meanDifference(held->image, next, caption);
            QVERIFY2(neighbour > 4 * own + 5,
                     qPrintable(QStringLiteral("step %1: caption off by %2, from step %3's by %4")
                                    .arg(k)
                                    .arg(own)
                                    .arg(other)
                                    .arg(neighbour)));
        }
        // the last frame: the whole run and its verdict
        ExportOptions verdict = o.picture;
        QImage whole(p.size, QImage::Format_RGB32);
        whole.fill(verdict.theme.background);
        QPainter painter(&whole);
        painter.drawImage(0, 0, Exporter::renderImage(s, TestRuns(s, verdict), verdict));
        painter.end();
        QVERIFY(MediaDecode::meanDifference(a.frames.back().image, whole) < tolerance);
    }

    void gifAndVideoShowTheSamePictures()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        AnimationOptions o = smallOptions();
        o.picture.theme = Theme::dark(); // another palette than the print theme's
        QTemporaryDir dir;
        const QString gifPath = dir.filePath(QStringLiteral("a.gif"));
        const QString mp4Path = dir.filePath(QStringLiteral("a.mp4"));
        QCOMPARE(Animation::exportTo(gifPath, s, o), QString());
        QCOMPARE(Animation::exportTo(mp4Path, s, o), QString());
        const MediaDecode::Animation gif = MediaDecode::read(gifPath);
        const MediaDecode::Animation mp4 = MediaDecode::read(mp4Path);
        QCOMPARE(gif.size, mp4.size);
        QCOMPARE(gif.frames.size(), mp4.frames.size());
        double worst = 0;
        for (std::size_t i = 0; i < gif.frames.size(); ++i)
            worst = std::max(worst,
                             MediaDecode::meanDifference(gif.frames[i].image, mp4.frames[i].image));
        QVERIFY2(worst < 3, qPrintable(QString::number(worst)));
        // and they are not all one picture: the playhead moves between them
        QVERIFY(MediaDecode::meanDifference(gif.frames[1].image, gif.frames[2].image) > 0.01);
    }

    void gifLoopsAsAsked()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        QTemporaryDir dir;
        AnimationOptions o = tinyOptions();
        o.stepSeconds = 0.5;
        const std::pair<int, std::optional<int>> cases[] = {
            {0, 0},            // for ever: a count of 0
            {1, std::nullopt}, // once: no loop block at all
            {3, 2}};           // three times: repeated twice after the first
        for (const auto &[loop, count] : cases) {
            o.loop = loop;
            const QString path = dir.filePath(QStringLiteral("loop%1.gif").arg(loop));
            QCOMPARE(Animation::exportTo(path, s, o), QString());
            QCOMPARE(MediaDecode::readGif(path).loopCount, count);
        }
    }

    void failuresLeaveNoFile()
    {
        const Core::Scenario s = Core::ScenarioFile::defaultScenario();
        AnimationOptions o = tinyOptions();
        QTemporaryDir dir;
        QString error = Animation::exportTo(dir.filePath(QStringLiteral("a.avi")), s, o);
        QCOMPARE(error, QStringLiteral("cannot export to %1: unknown format (use .gif, .mp4 or "
                                       ".webm)")
                            .arg(dir.filePath(QStringLiteral("a.avi"))));
        error = Animation::exportTo(dir.filePath(QStringLiteral("missing/a.gif")), s, o);
        QVERIFY2(error.startsWith(QStringLiteral("cannot write ")), qPrintable(error));
        // a folder that is a file: no one can write under it, root included
        QFile blocker(dir.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        for (const QString &name : {QStringLiteral("file/a.gif"), QStringLiteral("file/a.mp4")}) {
            error = Animation::exportTo(dir.filePath(name), s, o);
            QVERIFY2(error.startsWith(QStringLiteral("cannot write ")), qPrintable(error));
        }
        QCOMPARE(filesIn(dir.path()), QStringList{QStringLiteral("file")});
    }

    void cancelLeavesNoFile_data() { addFormatRows(); }

    void cancelLeavesNoFile()
    {
        QFETCH(QString, name);
        AnimationOptions o = tinyOptions();
        QTemporaryDir dir;
        int calls = 0;
        const QString error = Animation::exportTo(
            dir.filePath(name), Core::ScenarioFile::defaultScenario(), o, [&](int done, int) {
                ++calls;
                return done < 3;
            });
        QCOMPARE(error, Animation::cancelledMessage());
        QCOMPARE(calls, 3);
        QCOMPARE(filesIn(dir.path()), QStringList());
    }

    void fullDiskKeepsTheOldFile_data() { addFormatRows(); }

    void fullDiskKeepsTheOldFile()
    {
        // A full disk, for root too: a file size limit (RLIMIT_FSIZE) smaller than the
        // animation makes a write fail half way. The old file stays, no temporary is left.
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QVERIFY(writeOldAnimation(path));
        AnimationOptions o = smallOptions();
        // (a write past 8192 bytes fails, as on a full disk)
        QString error;
        {
            const FileSizeLimit limit(8192);
            QVERIFY(limit.ok());
            error = Animation::exportTo(path, Core::ScenarioFile::defaultScenario(), o);
        }
        QVERIFY2(error.startsWith(QStringLiteral("cannot write %1: ").arg(path)),
                 qPrintable(error));
        QCOMPARE(error.count(QLatin1Char('\n')), 0);
        QCOMPARE(contents(path), oldAnimation());
        QCOMPARE(filesIn(dir.path()), QStringList{name});
    }

    void aMissingEncoderIsNamed()
    {
        QCOMPARE(VideoWriter::missingEncoder(VideoWriter::Codec::H264), QString());
        QCOMPARE(VideoWriter::missingEncoder(VideoWriter::Codec::Vp9), QString());
        QCOMPARE(VideoWriter::missingEncoder(VideoWriter::Codec::H264, "no-such-encoder"),
                 QStringLiteral("this FFmpeg has no H.264 encoder (no-such-encoder)"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.mp4"));
        VideoWriter writer(path, VideoWriter::Codec::H264, QSize(64, 64), 15, "no-such-encoder");
        QCOMPARE(writer.error(),
                 QStringLiteral("this FFmpeg has no H.264 encoder (no-such-encoder)"));
        QVERIFY(!QFile::exists(path));
    }
};

QTEST_MAIN(TestAnimation)
#include "tst_animation.moc"
