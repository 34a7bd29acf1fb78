#include "animation.h"

#include "lessonplay.h"
#include "runstate.h"
#include "simulator.h"
#include "storysteps.h"

#include <QFileInfo>
#include <QPainter>
#include <QRegularExpression>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace Animation {
namespace {

// How long the playhead takes from one step to the next, whatever the ticks between them: a
// long gap is no more to watch than a short one.
constexpr double kTravelSeconds = 0.8;

// A shot's runs, each simulated once: the one shown, whose steps are told (the top panel's in
// compare mode, fenced, as presentation mode tells it), and the unfenced one in compare mode.
void simulateShot(Shot &shot)
{
    shot.shown = std::make_shared<const Core::Trace>(
        Core::simulate(shot.scenario, Exporter::shownFencing(shot.scenario, shot.picture)));
    if (shot.picture.compare)
        shot.unfenced = std::make_shared<const Core::Trace>(Core::simulate(shot.scenario, false));
}

// A lesson's steps with their shots' runs cut where each step's frames hide the future: one
// cut a step, made by core (Core::runBefore), whatever number of frames hold it.
void cutSteps(Plan &p)
{
    for (Step &step : p.steps) {
        const Shot &shot = p.shots[std::size_t(step.shot)];
        if (!shot.lesson)
            continue;
        ExportOptions o;
        o.hideFuture = true;
        o.playhead = step.tick;
        o.playheadBefore = step.before;
        const std::optional<Core::Tick> before = Exporter::cutBefore(o);
        if (!before)
            continue;
        step.cutShown = std::make_shared<const Core::Trace>(
            Core::runBefore(shot.scenario, *shot.shown, *before));
        if (shot.unfenced)
            step.cutUnfenced = std::make_shared<const Core::Trace>(
                Core::runBefore(shot.scenario, *shot.unfenced, *before));
    }
}

// Smoothstep: the playhead leaves a step and reaches the next one gently.
double ease(double t)
{
    return t * t * (3 - 2 * t);
}

int periodsFor(double seconds, int fps)
{
    return std::max(1, int(std::lround(seconds * fps)));
}

int even(int n)
{
    return n + (n & 1);
}

// A lesson's Markdown (narration, prompt, feedback: **bold**, *italics*, `code`) as the words a
// caption shows, read by Qt's Markdown reader without HTML, as the handout and the stage read it.
QString plain(const QString &markdown)
{
    if (markdown.isEmpty())
        return {};
    QTextDocument doc;
    doc.setMarkdown(markdown, QTextDocument::MarkdownNoHTML);
    return doc.toPlainText().trimmed();
}

const Shot &shotOf(const Plan &p, const Frame &f)
{
    // a scenario's verdict comes after its last step
    return f.kind == Frame::Kind::Verdict || std::size_t(f.step) >= p.steps.size()
               ? p.shots.back()
               : p.shots[std::size_t(p.steps[std::size_t(f.step)].shot)];
}

// One size for every frame: the tallest page (captions differ in length), even for video.
void sizeFrames(Plan &p)
{
    QSizeF page;
    for (std::size_t i = 0; i < p.frames.size(); ++i) {
        if (p.frames[i].kind == Frame::Kind::Travel)
            continue; // its step's page
        page = page.expandedTo(Exporter::pageSize(shotOf(p, p.frames[i]).scenario, frameRuns(p, i),
                                                  frameOptions(p, i)));
    }
    const double scale =
        std::clamp(p.shots.empty() ? 1.0 : p.shots.front().picture.scale, 0.25, 8.0);
    p.size = QSize(even(int(std::lround(page.width() * scale))),
                   even(int(std::ceil(page.height() * scale))));
}

} // namespace

std::optional<AnimationOptions::Format> formatFor(const QString &path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("gif"))
        return AnimationOptions::Format::Gif;
    if (ext == QLatin1String("mp4"))
        return AnimationOptions::Format::Mp4;
    if (ext == QLatin1String("webm"))
        return AnimationOptions::Format::WebM;
    return std::nullopt;
}

std::vector<Step> captionedSteps(const Core::Scenario &scenario, const Core::Trace &trace)
{
    // the story's steps (core/storysteps.h) with the storyboard's captions: presentation mode
    // steps through the same ticks and tells them in the same words
    std::vector<Step> steps;
    for (const Core::Tick tick : Core::storyStepTicks(scenario, trace))
        steps.push_back({tick, Exporter::stepCaption(scenario, trace, tick)});
    return steps;
}

double readingSeconds(const QString &caption)
{
    const qsizetype words =
        caption.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts).size();
    return std::min(12.0, 2.0 + 0.25 * double(words));
}

Plan plan(const Core::Scenario &scenario, const AnimationOptions &options)
{
    Plan p;
    p.fps = std::clamp(options.fps, AnimationLimits::kMinFps, AnimationLimits::kMaxFps);
    p.shots.push_back({scenario, options.picture, false});
    simulateShot(p.shots.back());
    const ExportOptions &picture = options.picture;
    const Core::Trace &trace = *p.shots.back().shown;
    // a long run is refused before a sentence is made for each of its steps
    const std::uint32_t first =
        picture.fromTick ? trace.firstEventAt(Core::Tick(std::ceil(*picture.fromTick))) : 0;
    const std::uint32_t last = picture.toTick
                                   ? trace.firstEventAt(Core::Tick(std::floor(*picture.toTick)) + 1)
                                   : std::uint32_t(trace.events.size());
    if (last > first && last - first > std::uint32_t(AnimationLimits::kMaxEvents)) {
        p.problem = QObject::tr("the run has %1 events, too many to animate (at most %2): choose "
                                "a range of it")
                        .arg(last - first)
                        .arg(AnimationLimits::kMaxEvents);
        return p;
    }
    for (const Step &step : captionedSteps(scenario, trace)) {
        // a range shows only its own steps
        if ((picture.fromTick && double(step.tick) < *picture.fromTick) ||
            (picture.toTick && double(step.tick) > *picture.toTick))
            continue;
        p.steps.push_back(step);
    }
    if (p.steps.size() > std::size_t(AnimationLimits::kMaxSteps)) {
        p.problem = QObject::tr("the run has %1 steps, too many to animate (at most %2): choose a "
                                "range of it")
                        .arg(p.steps.size())
                        .arg(AnimationLimits::kMaxSteps);
        p.steps.clear();
        return p;
    }
    // compare mode reads both runs' sentences at each step
    std::vector<Step> other;
    if (picture.compare)
        other = captionedSteps(scenario, *p.shots.back().unfenced);
    const auto holdFor = [&](const QString &caption) {
        return periodsFor(options.stepSeconds ? *options.stepSeconds : readingSeconds(caption),
                          p.fps);
    };
    const int travelFrames = std::max(2, int(std::lround(kTravelSeconds * p.fps)));
    int at = 0;
    for (std::size_t k = 0; k < p.steps.size(); ++k) {
        QString read = p.steps[k].caption;
        for (const Step &o : other)
            if (o.tick == p.steps[k].tick)
                read += QLatin1Char(' ') + o.caption;
        Frame hold;
        hold.kind = Frame::Kind::Hold;
        hold.step = int(k);
        hold.playhead = p.steps[k].tick;
        hold.start = at;
        hold.periods = holdFor(read);
        at += hold.periods;
        p.frames.push_back(hold);
        if (k + 1 == p.steps.size())
            break;
        const double distance = double(p.steps[k + 1].tick - p.steps[k].tick);
        for (int i = 1; i < travelFrames; ++i) {
            Frame travel = hold;
            travel.kind = Frame::Kind::Travel;
            travel.travel = distance * ease(double(i) / travelFrames);
            travel.start = at;
            travel.periods = 1;
            at += 1;
            p.frames.push_back(travel);
        }
    }
    Frame verdict;
    verdict.kind = Frame::Kind::Verdict;
    verdict.step = int(p.steps.size());
    verdict.playhead = Core::kForever;
    verdict.start = at;
    {
        QString read = Exporter::defaultCaption(scenario, trace);
        if (picture.compare)
            read += QLatin1Char(' ') + Exporter::defaultCaption(scenario, *p.shots.back().unfenced);
        verdict.periods = holdFor(read);
    }
    at += verdict.periods;
    p.frames.push_back(verdict);
    p.periods = at;
    sizeFrames(p);
    return p;
}

Plan lessonPlan(const Core::Lesson &lesson, const AnimationOptions &options)
{
    Plan p;
    p.fps = std::clamp(options.fps, AnimationLimits::kMinFps, AnimationLimits::kMaxFps);
    const std::vector<Core::ScenePlay> plays = Core::playLesson(lesson);
    const QStringList problems = Core::lessonProblems(lesson, plays);
    if (!problems.isEmpty()) { // a question without one right option has no reveal to show
        p.problem = problems.first();
        return p;
    }
    for (std::size_t i = 0; i < lesson.scenes.size(); ++i) {
        const Core::LessonScene &scene = lesson.scenes[i];
        const Core::ScenePlay &play = plays[i];
        const Core::SceneView &view = scene.view;
        Shot shot{scene.scenario, options.picture, true};
        ExportOptions &picture = shot.picture;
        // (compare with another token source is not drawn by the exporter: the scene's run
        // alone is shown then)
        picture.compare = view.compare == Core::SceneCompare::Fencing;
        picture.fencing = play.fencing;
        picture.fromTick.reset();
        picture.toTick.reset();
        if (view.from)
            picture.fromTick = double(*view.from);
        if (view.to)
            picture.toTick = double(*view.to);
        const int index = int(p.shots.size());
        // told as presentation mode tells it: the top panel's run in compare mode (fenced);
        // otherwise the run the scene plays, already simulated
        if (picture.compare) {
            simulateShot(shot);
        } else {
            shot.shown = std::make_shared<const Core::Trace>(play.trace);
        }
        p.shots.push_back(shot);
        const Core::Trace &told = *shot.shown;
        const Core::Tick first = told.events.empty() ? 0 : told.events.front().tick;
        const std::uint32_t shownFrom = view.from ? told.firstEventAt(*view.from) : 0;
        const std::uint32_t shownTo =
            view.to ? told.firstEventAt(*view.to + 1) : std::uint32_t(told.events.size());
        if (shownTo > shownFrom &&
            shownTo - shownFrom > std::uint32_t(AnimationLimits::kMaxEvents)) {
            p.problem = QObject::tr("scenes[%1]: the run has %2 events, too many to animate (at "
                                    "most %3): give the scene's view a range")
                            .arg(i)
                            .arg(shownTo - shownFrom)
                            .arg(AnimationLimits::kMaxEvents);
            p.steps.clear();
            p.frames.clear();
            return p;
        }
        const std::vector<Step> steps = captionedSteps(scene.scenario, told);
        const Core::LessonQuestion *q = scene.question ? &*scene.question : nullptr;

        // the opening: the scene's words, the playhead at the view's or before the first step
        Step opening;
        opening.shot = index;
        opening.caption = scene.title.isEmpty() ? scene.scenario.title : scene.title;
        if (!scene.narration.isEmpty())
            opening.caption += QLatin1Char('\n') + plain(scene.narration);
        if (view.playhead) {
            opening.tick = *view.playhead;
        } else {
            opening.tick = steps.empty() ? first : steps.front().tick;
            opening.before = true;
        }
        p.steps.push_back(opening);
        for (Step step : steps) {
            if (view.playhead && step.tick <= *view.playhead)
                continue; // shown at the opening already
            if ((q && step.tick > q->freeze) || (view.to && step.tick > *view.to))
                break;
            if (view.from && step.tick < *view.from)
                continue;
            step.shot = index;
            p.steps.push_back(step);
        }
        if (q) {
            Step question;
            question.shot = index;
            question.tick = q->freeze;
            question.caption = plain(q->prompt);
            for (std::size_t o = 0; o < q->options.size(); ++o)
                question.caption += QLatin1Char('\n') + Core::optionLine(*q, o);
            p.steps.push_back(question);
            Step answer;
            answer.shot = index;
            answer.tick = play.reveal();
            const std::size_t right = std::size_t(play.right());
            answer.caption = QObject::tr("Answer: %1").arg(Core::optionLine(*q, right)) +
                             QLatin1Char('\n') +
                             plain(Core::revealText(scene, scene.scenario, play));
            for (std::size_t o = 0; o < q->options.size(); ++o)
                if (o != right && !q->options[o].feedback.isEmpty())
                    answer.caption +=
                        QStringLiteral("\n\u2022 %1: %2")
                            .arg(Core::optionLine(*q, o), plain(q->options[o].feedback));
            p.steps.push_back(answer);
        } else {
            // the scene's end: the whole run and its verdict, as presentation's end shows it
            Step end;
            end.shot = index;
            end.tick = Core::kForever;
            end.caption = Exporter::defaultCaption(scene.scenario, told);
            if (picture.compare)
                end.caption +=
                    QLatin1Char('\n') + Exporter::defaultCaption(scene.scenario, *shot.unfenced);
            p.steps.push_back(end);
        }
    }
    if (p.steps.size() > std::size_t(AnimationLimits::kMaxSteps)) {
        p.problem = QObject::tr("the lesson has %1 steps, too many to animate (at most %2)")
                        .arg(p.steps.size())
                        .arg(AnimationLimits::kMaxSteps);
        p.steps.clear();
        return p;
    }

    const int travelFrames = std::max(2, int(std::lround(kTravelSeconds * p.fps)));
    int at = 0;
    for (std::size_t k = 0; k < p.steps.size(); ++k) {
        const Step &step = p.steps[k];
        Frame hold;
        hold.kind = Frame::Kind::Hold;
        hold.step = int(k);
        hold.playhead = step.tick;
        hold.start = at;
        hold.periods = periodsFor(
            options.stepSeconds ? *options.stepSeconds : readingSeconds(step.caption), p.fps);
        at += hold.periods;
        p.frames.push_back(hold);
        // the playhead travels to the next step of the same scene; a new scene, or its end,
        // is a cut
        if (k + 1 == p.steps.size())
            continue;
        const Step &next = p.steps[k + 1];
        if (next.shot != step.shot || next.tick == Core::kForever || next.tick <= step.tick)
            continue;
        const double distance = double(next.tick - step.tick);
        for (int i = 1; i < travelFrames; ++i) {
            Frame travel = hold;
            travel.kind = Frame::Kind::Travel;
            travel.travel = distance * ease(double(i) / travelFrames);
            travel.start = at;
            travel.periods = 1;
            at += 1;
            p.frames.push_back(travel);
        }
    }
    p.periods = at;
    cutSteps(p);
    sizeFrames(p);
    return p;
}

ExportOptions frameOptions(const Plan &plan, std::size_t index)
{
    const Frame &f = plan.frames.at(index);
    const Shot &shot = shotOf(plan, f);
    ExportOptions o = shot.picture;
    o.caption.clear(); // each step's own caption, the verdict's at the end
    o.explain = {};
    if (f.kind == Frame::Kind::Verdict) {
        o.playhead = Core::kForever;
        o.playheadTravel = 0;
        return o;
    }
    const Step &step = plan.steps[std::size_t(f.step)];
    o.playhead = step.tick;
    o.playheadTravel = f.travel;
    if (shot.lesson) {
        o.caption = step.caption;
        o.hideFuture = true;
        o.playheadBefore = step.before;
    }
    return o;
}

ExportRuns frameRuns(const Plan &plan, std::size_t index)
{
    const Frame &f = plan.frames.at(index);
    const Shot &shot = shotOf(plan, f);
    if (f.kind != Frame::Kind::Verdict && std::size_t(f.step) < plan.steps.size()) {
        const Step &step = plan.steps[std::size_t(f.step)];
        if (step.cutShown)
            return {*step.cutShown, step.cutUnfenced.get()};
    }
    return {*shot.shown, shot.unfenced.get()};
}

QImage renderFrame(const Plan &plan, std::size_t index, double scale)
{
    const Shot &shot = shotOf(plan, plan.frames.at(index));
    ExportOptions o = frameOptions(plan, index);
    o.scale = std::clamp(shot.picture.scale, 0.25, 8.0) * scale;
    const QImage page = Exporter::renderImage(shot.scenario, frameRuns(plan, index), o);
    QImage frame(QSize(int(std::lround(plan.size.width() * scale)),
                       int(std::lround(plan.size.height() * scale))),
                 QImage::Format_RGB32);
    frame.fill(o.theme.background);
    QPainter p(&frame);
    p.drawImage(0, 0, page);
    p.end();
    return frame;
}

QImage renderFrame(const Core::Scenario &, const AnimationOptions &, const Plan &plan,
                   std::size_t index, double scale)
{
    return renderFrame(plan, index, scale);
}

} // namespace Animation
