// A lesson's handout (ui/render/handout.*): one page per question and per answer, the cover and
// the sources; and the question's picture, which must show nothing of the run after the freeze
// tick: it is the same picture whatever happens later, and the outcome the question asks about
// is not drawn.

#include "exporter.h"
#include "handout.h"
#include "lessonfile.h"
#include "presetfile.h"
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
        const QImage whole = Exporter::renderImage(scene.scenario, o);
        const QRectF timeline = Exporter::timelineRect(scene.scenario, o);
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
};

QTEST_MAIN(TestHandout)
#include "tst_handout.moc"
