// A lesson's handout (ui/render/handout.*): one page per question and per answer, the cover and
// the sources; and the question's picture, which must show nothing of the run after the freeze
// tick: it is the same picture whatever happens later, and the outcome the question asks about
// is not drawn.

#include "exporter.h"
#include "exportruns.h"
#include "handout.h"
#include "lessonfile.h"
#include "presetfile.h"
#include "recordingdevice.h"
#include "timelinerenderer.h"

#include <QTest>

using namespace Core;

namespace {

int pdfPages(const QByteArray &pdf)
{
    // every page object says "/Type /Page"; the page tree says "/Type /Pages"
    return int(pdf.count("/Type /Page\n") + pdf.count("/Type /Page ") + pdf.count("/Type /Page/") +
               pdf.count("/Type /Page>"));
}

Lesson builtin(const char *name)
{
    const LessonLoadResult r = LessonFile::load(LessonFile::builtinPath(QLatin1String(name)));
    if (!r.ok())
        qFatal("%s", qPrintable(r.error));
    return *r.lesson;
}

// The default preset, fenced, with a question on A's write frozen at `freeze`.
LessonScene defaultScene(Tick freeze)
{
    LessonScene scene;
    scene.source = SceneSource::Preset;
    scene.reference = QStringLiteral("default");
    scene.scenario = TestSupport::preset("default");
    LessonQuestion q;
    q.prompt = QStringLiteral("What happens to A's write?");
    q.freeze = freeze;
    Claim c;
    c.kind = ClaimKind::Write;
    c.write.client = QStringLiteral("A");
    c.write.value = QStringLiteral("A");
    c.outcome = ClaimOutcome::Rejected;
    q.options.push_back({c, {}, {}});
    c.outcome = ClaimOutcome::Corrupted;
    q.options.push_back({c, {}, {}});
    scene.question = q;
    return scene;
}

int countColour(const QImage &image, const QRect &area, const QColor &colour)
{
    int n = 0;
    const QRect r = area.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            if ((image.pixel(x, y) & 0xffffff) == (colour.rgb() & 0xffffff))
                ++n;
    return n;
}

// Where a picture's timeline is and where its ticks fall, in the picture's coordinates.
struct Placed
{
    QRectF timeline; // in the picture
    TimeAxis axis;   // relative to `timeline`
    TimelineLayout layout;
    double x(double tick) const { return timeline.left() + axis.tickToX(tick); }
    double belowRuler() const { return timeline.top() + layout.ruler.bottom(); }
};

Placed placed(const LessonScene &scene, const ExportOptions &o)
{
    Placed pl;
    pl.timeline = Exporter::timelineRect(scene.scenario, TestRuns(scene.scenario, o), o);
    pl.axis = Exporter::timelineAxis(scene.scenario, TestRuns(scene.scenario, o), o);
    pl.layout = TimelineRenderer::layout(scene.scenario, Exporter::timelineOptions(o),
                                         QRectF(QPointF(0, 0), pl.timeline.size()));
    return pl;
}

// The words a write's outcome label starts with (ui/render/passes/outcomelabels.h): on a token
// storage, and on a compare-and-set storage (section 13's versions).
QStringList outcomeWords(ClaimOutcome outcome)
{
    switch (outcome) {
    case ClaimOutcome::Accepted:
        return {QStringLiteral("accepted")};
    case ClaimOutcome::Rejected:
        return {QStringLiteral("rejected"), QStringLiteral("expected version")};
    case ClaimOutcome::Corrupted:
        return {QStringLiteral("CORRUPTED")};
    case ClaimOutcome::LockedOut:
        return {QStringLiteral("LOCKED OUT")};
    case ClaimOutcome::Skipped:
    case ClaimOutcome::Partial:
        break;
    }
    return {};
}

} // namespace

class TestHandout : public QObject
{
    Q_OBJECT
private slots:
    // the cover, a page per question, a page per answer, the sources
    void pages()
    {
        const Lesson why = builtin("1-why-a-lock-needs-fencing"); // 7 questions
        const std::vector<ScenePlay> plays = playLesson(why);
        QCOMPARE(pdfPages(Handout::render(why, plays)), 1 + 7 + 7 + 1);
        HandoutOptions noKey;
        noKey.answerKey = false;
        QCOMPARE(pdfPages(Handout::render(why, plays, noKey)), 1 + 7 + 1);
        Lesson bare = why;
        bare.sources.clear();
        QCOMPARE(pdfPages(Handout::render(bare, plays, noKey)), 1 + 7);
        QVERIFY(Handout::render(why, plays).startsWith("%PDF"));
    }

    // What happens after the freeze does not change the question's picture: A's late write
    // carries another value, which the picture at t=29 cannot show. At t=30 it shows (the
    // comparison can fail).
    void questionPictureShowsNothingAfterTheFreeze()
    {
        LessonScene scene = defaultScene(29);
        LessonScene other = scene;
        other.scenario.clients[0].actions[2].value = QStringLiteral("Z");
        other.question->options[0].claim.write.value = QStringLiteral("Z");
        other.question->options[1].claim.write.value = QStringLiteral("Z");
        const QImage before = Handout::questionPicture(scene, playScene(scene));
        QVERIFY(!before.isNull());
        QCOMPARE(before, Handout::questionPicture(other, playScene(other)));

        scene.question->freeze = 30;
        other.question->freeze = 30;
        QVERIFY(Handout::questionPicture(scene, playScene(scene)) !=
                Handout::questionPicture(other, playScene(other)));
    }

    // The rejection at t=30 is in the storage lane of the whole run's picture, and nowhere in the
    // question's picture frozen at t=29, which shares its layout.
    void theOutcomeAskedAboutIsNotDrawn()
    {
        const LessonScene scene = defaultScene(29);
        const QImage frozen = Handout::questionPicture(scene, playScene(scene));
        ExportOptions o;
        o.width = frozen.width();
        o.theme = Theme::print();
        o.fencing = true;
        o.showTitle = false;
        o.showLegend = false;
        o.showCaption = false;
        const QImage whole = Exporter::renderImage(scene.scenario, TestRuns(scene.scenario, o), o);
        const QRectF timeline =
            Exporter::timelineRect(scene.scenario, TestRuns(scene.scenario, o), o);
        const TimelineLayout layout = TimelineRenderer::layout(
            scene.scenario, Exporter::timelineOptions(o), QRectF(QPointF(0, 0), timeline.size()));
        const QRect lane = layout.panels.front()
                               .storages.front()
                               .lane.translated(timeline.topLeft())
                               .toAlignedRect();
        const QColor rejected = o.theme.rejected;
        QVERIFY(countColour(whole, lane, rejected) > 20);
        QCOMPARE(countColour(frozen, lane, rejected), 0);
        // and B's accepted write at t=13, before the freeze, is in both
        QVERIFY(countColour(frozen, lane, o.theme.accepted) > 20);
    }

    // Every built-in question's picture, as the sheet draws it, is what the projector shows at
    // the freeze: below the ruler nothing is drawn (text or filled shape, after the clip) that
    // starts right of the freeze tick, and nothing reaches past it further than the labels of
    // the freeze tick's own events may (PaintContext: at most 9 px at the print theme's sizes,
    // and the words of a label anchored there). The playhead is at the freeze.
    void everyBuiltinQuestionShowsNothingPastTheFreeze_data()
    {
        QTest::addColumn<QString>("lesson");
        for (const QString &name : LessonFile::builtinNames())
            QTest::newRow(qPrintable(name)) << name;
    }
    void everyBuiltinQuestionShowsNothingPastTheFreeze()
    {
        QFETCH(QString, lesson);
        const Lesson l = builtin(qPrintable(lesson));
        const std::vector<ScenePlay> plays = playLesson(l);
        int questions = 0;
        for (std::size_t i = 0; i < l.scenes.size(); ++i) {
            const LessonScene &scene = l.scenes[i];
            if (!scene.question)
                continue;
            ++questions;
            const Placed pl = placed(scene, Handout::questionPictureOptions(scene, plays[i]));
            RecordingDevice device(QSize(1000, 2000));
            {
                QPainter p(&device);
                Handout::paintQuestionPicture(&p, scene, plays[i]);
            }
            const QColor background =
                Handout::questionPictureOptions(scene, plays[i]).theme.background;
            const double freeze = pl.x(double(scene.question->freeze));
            const double next = pl.x(double(scene.question->freeze) + 1);
            QVERIFY2(next > freeze, qPrintable(l.scenes[i].title));
            int below = 0;
            for (const RecordingDevice::Text &t : device.texts) {
                if (t.shown.isEmpty() || t.shown.bottom() <= pl.belowRuler())
                    continue;
                ++below;
                // a label of the freeze tick's own events may start just right of it
                QVERIFY2(t.shown.left() < std::max(next, freeze + 10),
                         qPrintable(QStringLiteral("%1, question at t=%2: \"%3\" at x=%4, the "
                                                   "freeze tick at x=%5")
                                        .arg(scene.title)
                                        .arg(scene.question->freeze)
                                        .arg(t.text)
                                        .arg(t.shown.left())
                                        .arg(freeze)));
            }
            QVERIFY(below > 0); // the lanes' names and what happened before are there
            for (const RecordingDevice::Shape &f : device.filled) {
                if (f.shown.isEmpty() || f.shown.bottom() <= pl.belowRuler() + 0.5)
                    continue;
                if (f.shown.left() <= pl.timeline.left() + pl.layout.plot.left() + 0.5 &&
                    f.shown.right() >= pl.timeline.left() + pl.layout.plot.right() - 0.5)
                    continue; // a lane's background across the whole plot
                if (f.brush.rgb() == background.rgb()) // (any alpha)
                    continue; // a plate under a label of the freeze tick: it shows nothing
                QVERIFY2(f.shown.left() < std::max(next, freeze + 10) &&
                             f.shown.right() <= freeze + 10,
                         qPrintable(QStringLiteral("%1, question at t=%2: a shape in %3 from "
                                                   "x=%4 to %5, the freeze tick at x=%6")
                                        .arg(scene.title)
                                        .arg(scene.question->freeze)
                                        .arg(f.brush.name())
                                        .arg(f.shown.left())
                                        .arg(f.shown.right())
                                        .arg(freeze)));
            }
        }
        QVERIFY(questions >= 3);
    }

    // Every built-in answer's picture shows what decides its question: something is drawn at
    // the deciding event's tick below the ruler, and a write's outcome is written out.
    void everyBuiltinAnswerShowsTheDecidingOutcome_data()
    {
        everyBuiltinQuestionShowsNothingPastTheFreeze_data();
    }
    void everyBuiltinAnswerShowsTheDecidingOutcome()
    {
        QFETCH(QString, lesson);
        const Lesson l = builtin(qPrintable(lesson));
        const std::vector<ScenePlay> plays = playLesson(l);
        int writes = 0;
        for (std::size_t i = 0; i < l.scenes.size(); ++i) {
            const LessonScene &scene = l.scenes[i];
            if (!scene.question)
                continue;
            const ScenePlay &play = plays[i];
            QVERIFY(play.right() >= 0);
            QVERIFY(play.reveal() > scene.question->freeze);
            const Placed pl = placed(scene, Handout::answerPictureOptions(scene, play));
            RecordingDevice device(QSize(1000, 3000));
            {
                QPainter p(&device);
                Handout::paintAnswerPicture(&p, scene, play);
            }
            const double reveal = pl.x(double(play.reveal()));
            const auto at = [&](const QRectF &r) {
                return !r.isEmpty() && r.bottom() > pl.belowRuler() &&
                       r.bottom() <= pl.timeline.bottom() && r.left() <= reveal + 1 &&
                       r.right() >= reveal - 1 && r.width() < pl.layout.plot.width() / 2;
            };
            bool drawn = false;
            for (const RecordingDevice::Shape &f : device.filled)
                drawn = drawn || at(f.shown);
            for (const RecordingDevice::Text &t : device.texts)
                drawn = drawn || at(t.shown);
            QVERIFY2(drawn, qPrintable(QStringLiteral("%1: nothing at the reveal, t=%2")
                                           .arg(scene.title)
                                           .arg(play.reveal())));
            const Claim &claim = scene.question->options[std::size_t(play.right())].claim;
            const QStringList words =
                claim.kind == ClaimKind::Write ? outcomeWords(claim.outcome) : QStringList();
            if (words.isEmpty())
                continue;
            ++writes;
            // the label sits beside the write's glyph at its arrival
            bool told = false;
            for (const RecordingDevice::Text &t : device.texts)
                for (const QString &word : words)
                    told = told || (t.text.startsWith(word) && !t.shown.isEmpty() &&
                                    std::abs(t.shown.center().x() - reveal) < 200);
            QVERIFY2(told, qPrintable(QStringLiteral("%1: no \"%2\" near the reveal at t=%3")
                                          .arg(scene.title, words.join(QStringLiteral("\" or \"")))
                                          .arg(play.reveal())));
        }
        QVERIFY(writes > 0);
    }
};

QTEST_MAIN(TestHandout)
#include "tst_handout.moc"
