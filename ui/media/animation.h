#pragma once

// The run as it plays, for slides: an animated GIF (giflib) or a video, H.264 in MP4 or VP9 in
// WebM (FFmpeg's libavcodec and libavformat). Every frame is an exported picture (Exporter, the
// same renderer as the window): each step of the story is held long enough to read its caption,
// the playhead travels smoothly to the next step, and the last frame shows the verdict. A hold
// is one frame with a long duration, never the same frame repeated.
//
// A lesson animates too (lessonPlan): its scenes in order, each as presentation mode walks it
// (the narration, the steps, a question held at its freeze tick and its reveal), the future
// hidden as the projector hides it (docs/LESSONS.md, "An animated lesson").
//
// The plan (which picture, for how long) is plain data and cheap; drawing and encoding a frame
// is not, so writing reports progress and can be cancelled. Files are written whole or not at
// all: into a temporary file beside the target, renamed over it at the end.

#include "animationlimits.h"
#include "exporter.h"
#include "lesson.h"

#include <QImage>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

struct AnimationOptions
{
    enum class Format
    {
        Gif,
        Mp4,
        WebM
    };

    // What each frame draws: width, scale, theme, compare, title, legend, range. Its playhead
    // and caption are the animation's to set.
    ExportOptions picture = defaultPicture();
    int fps = AnimationLimits::kDefaultFps; // frames a second while the playhead travels
    std::optional<double> stepSeconds;      // how long each step holds; unset: by its caption
    int loop = 0;                           // GIF: times played, 0 forever

    // An exported picture at a slide's 1280 px (a PNG's default is 1920: a video of that size
    // is larger and slower, and slides scale it anyway).
    static ExportOptions defaultPicture()
    {
        ExportOptions o;
        o.width = AnimationLimits::kDefaultWidth;
        return o;
    }
};

namespace Animation {

// Format from a file name's extension (.gif, .mp4, .webm); nullopt for anything else.
std::optional<AnimationOptions::Format> formatFor(const QString &path);

// What a stretch of the animation draws: a scenario's run with its picture options (each
// frame sets the playhead and, for a lesson, the caption). One for a scenario; one per scene
// for a lesson.
struct Shot
{
    Core::Scenario scenario;
    ExportOptions picture;
    // A lesson's scene: what comes after the playhead is hidden, as presentation mode hides it
    // (ExportOptions::hideFuture), and each frame's caption is its step's.
    bool lesson = false;
    // Its runs, simulated once for the whole animation (the exporter simulates nothing): the run
    // shown (Exporter::shownFencing) and, in compare mode, the unfenced one.
    std::shared_ptr<const Core::Trace> shown{};
    std::shared_ptr<const Core::Trace> unfenced{};
};

// One step of the story: presentation mode's step, with the caption the storyboard shows.
struct Step
{
    Core::Tick tick = 0; // kForever: the whole run (a lesson scene's end, its verdict)
    QString caption;
    int shot = 0;        // Plan::shots
    bool before = false; // the playhead just before `tick`: nothing of it shown (an opening)
    // A lesson's step: its shot's runs cut at the playhead (Core::runBefore), once for every
    // frame that holds the step or travels from it. Null: the shot's whole runs.
    std::shared_ptr<const Core::Trace> cutShown{};
    std::shared_ptr<const Core::Trace> cutUnfenced{};
};

// The steps of a run (Core::storySteps) and their captions. The one place they are taken from.
std::vector<Step> captionedSteps(const Core::Scenario &scenario, const Core::Trace &trace);

// How long a caption is shown by default: 2 s, and a quarter of a second a word (about 240
// words a minute), at most 12 s.
double readingSeconds(const QString &caption);

// One picture of the animation and how long it stays.
struct Frame
{
    enum class Kind
    {
        Hold,
        Travel,
        Verdict
    } kind = Kind::Hold;
    int step = 0;            // the step held, or travelled from
    Core::Tick playhead = 0; // Hold and Travel: the step's tick
    double travel = 0;       // Travel: the line this many ticks past it
    int start = 0;           // in frame periods (1 / fps) from the start
    int periods = 1;         // how long it stays, in frame periods
};

struct Plan
{
    std::vector<Shot> shots;
    std::vector<Step> steps;
    std::vector<Frame> frames;
    int fps = 15;
    int periods = 0; // the whole animation, in frame periods
    QSize size;      // every frame's pixels: the largest page, even on both sides
    // Why there is no animation to write (too many steps), else empty; then no frames.
    QString problem;
    double seconds() const { return double(periods) / fps; }
};

// The frames for `scenario` with `options`. Cheap but for the page sizes (a layout each).
Plan plan(const Core::Scenario &scenario, const AnimationOptions &options);

// The frames for `lesson`: its scenes in order, each as presentation mode walks it
// (LessonController::positions): the opening, held with the scene's title and narration as the
// caption, the playhead at the view's or just before the first step; each step up to the view's
// end or the question's freeze tick, with its caption; for a question, the hold at the freeze
// tick with the prompt and the options A-E as the caption, then the playhead travels to the
// deciding event and holds the answer (the option that holds, the reveal in the system's words,
// the feedback of the others); without one, the whole run and its verdict. The future is hidden
// in every frame but a scene's end. Each scene's view gives its fencing switch, compare and
// range (options.picture's range and compare are not used). A question that has not exactly
// one right option makes Plan::problem.
Plan lessonPlan(const Core::Lesson &lesson, const AnimationOptions &options);

// The picture of frame `index`, `plan.size` pixels (scaled by `scale` for a preview), the page
// at its top on the theme's background.
QImage renderFrame(const Plan &plan, std::size_t index, double scale = 1);
// The same (`scenario` and `options` are those the plan was made of).
QImage renderFrame(const Core::Scenario &scenario, const AnimationOptions &options,
                   const Plan &plan, std::size_t index, double scale = 1);
// The export options of frame `index`: its shot's picture at the frame's playhead and caption.
ExportOptions frameOptions(const Plan &plan, std::size_t index);
// The runs frame `index` draws (with frameOptions): its step's cut runs, or its shot's.
ExportRuns frameRuns(const Plan &plan, std::size_t index);

// Called after each frame written with (frames done, frames in all); returning false cancels.
using Progress = std::function<bool(int done, int total)>;

// Writes `path` in the format of its extension. Returns "" on success, else one line saying
// why (an unknown extension, a missing encoder, a folder that cannot be written, a full disk,
// "cancelled"); then no file is left at `path` (an old one stays as it was), and no temporary.
QString exportTo(const QString &path, const Core::Scenario &scenario,
                 const AnimationOptions &options, const Progress &progress = {});
// The same for a lesson (lessonPlan).
QString exportLesson(const QString &path, const Core::Lesson &lesson,
                     const AnimationOptions &options, const Progress &progress = {});

// The message exportTo() returns when `progress` cancelled it.
QString cancelledMessage();

} // namespace Animation
