#pragma once

// Pictures for slides: the timeline (or the fenced-over-unfenced comparison) rendered by the
// same TimelineRenderer as the window, laid out with a title, a legend of every symbol used,
// a caption and optionally the explanation of one outcome. PNG (1x/2x/4x), SVG (real text
// and shapes), PDF, and storyboards of numbered keyframes. Needs QtGui only, no widgets, so
// fencescope-cli uses it headless. Files are written whole or not at all. It draws the runs it
// is handed (ExportRuns) and simulates nothing itself.

#include "scenario.h"
#include "theme.h"
#include "timelinerenderer.h"
#include "trace.h"
#include "viewstate.h"

#include <QImage>
#include <QString>

#include <optional>
#include <vector>

struct ExportOptions
{
    enum class Format { Png, Svg, Pdf };

    std::optional<bool> fencing; // unset: the scenario's own switch
    bool compare = false;        // fenced over unfenced on one time axis
    double width = 1920;         // logical pixels (PNG pixels = width * scale)
    double scale = 1;            // PNG only: 1, 2, 4 for crisp slides
    // Tick range shown; unset: the whole scenario.
    std::optional<double> fromTick;
    std::optional<double> toTick;
    Core::Tick playhead = Core::kForever; // state at this tick: later events dimmed
    // Presentation mode's picture (a lesson's question, an animated lesson): the run stops at
    // the playhead (the caller hands the runs cut by Core::runBefore at Exporter::cutBefore,
    // as Document::traceBefore cuts them) and what comes after is hidden, not dimmed
    // (TimelineRenderer::Options::hideFuture); the legend and the caption tell only what has
    // happened. Needs a playhead.
    bool hideFuture = false;
    // The playhead stands just before its tick: nothing of that tick has happened yet (a
    // lesson scene's opening, before its first step).
    bool playheadBefore = false;
    double playheadTravel = 0; // an animation's line on its way to the next step, in ticks
    Theme theme = Theme::print();
    bool showTitle = true;
    bool showLegend = true;
    bool showCaption = true;
    QString caption;          // empty: the scenario's title and outcome summary
    Selection explain;        // a valid selection adds the explanation of that outcome
    // A 16:9 slide: the page is width x width*9/16, the text and lanes made smaller (to no less
    // than 0.6 of their size) until the picture fits it; the rest is background. A picture still
    // too tall then (a compare of many lanes, a narrow slide) is drawn smaller as a whole,
    // centred, so the page keeps its shape.
    bool slide = false;
    // At least this tall (logical pixels; 0: as tall as the picture): a storyboard's frames are
    // all as tall as its tallest, so they line up on slides and in a PDF.
    double minHeight = 0;
};

// The runs a picture draws, handed over by its caller: the window's Document holds them, the
// command line and an animation simulate once. For a picture that hides the future they are the
// runs cut at Exporter::cutBefore (Core::runBefore).
struct ExportRuns
{
    const Core::Trace &shown;              // the run drawn (compare mode: with fencing, on top)
    const Core::Trace *unfenced = nullptr; // compare mode: the same schedule without fencing
};

namespace Exporter {

// The fencing switch of the run a picture shows (ExportRuns::shown): on in compare mode, else
// ExportOptions::fencing or the scenario's own.
bool shownFencing(const Core::Scenario &scenario, const ExportOptions &options);

// Where the runs of a picture that hides the future are cut (Core::runBefore): the tick after
// the playhead, or the playhead's own when it stands before its tick. nullopt: drawn whole.
std::optional<Core::Tick> cutBefore(const ExportOptions &options);

// Format from a file name's extension; nullopt for anything else.
std::optional<ExportOptions::Format> formatFor(const QString &path);

// The caption used when ExportOptions::caption is empty.
QString defaultCaption(const Core::Scenario &scenario, const Core::Trace &trace);

// The caption of a picture with the playhead at `tick` (ExportOptions::caption empty): the
// step at that tick explained, as presentation mode does (Core::explainStep), then the rest of
// the tick a line each.
QString stepCaption(const Core::Scenario &scenario, const Core::Trace &trace, Core::Tick tick);

// Where the timeline sits in the picture, the options it is painted with (sizes grow with
// the picture's width beyond 1280 px) and its time axis, relative to that rectangle.
// Every picture below is of `scenario` and its `runs` (compare mode without ExportRuns::
// unfenced draws the run alone).
QRectF timelineRect(const Core::Scenario &scenario, const ExportRuns &runs,
                    const ExportOptions &options);
TimelineRenderer::Options timelineOptions(const ExportOptions &options);
TimeAxis timelineAxis(const Core::Scenario &scenario, const ExportRuns &runs,
                      const ExportOptions &options);

// Size of the laid-out picture in logical pixels.
QSizeF pageSize(const Core::Scenario &scenario, const ExportRuns &runs,
                const ExportOptions &options);

// Paints the whole picture onto any painter, `size` as returned by pageSize().
void paint(QPainter *p, const Core::Scenario &scenario, const ExportRuns &runs,
           const ExportOptions &options);

QImage renderImage(const Core::Scenario &scenario, const ExportRuns &runs,
                   const ExportOptions &options);
QByteArray renderSvg(const Core::Scenario &scenario, const ExportRuns &runs,
                     const ExportOptions &options);
QByteArray renderPdf(const Core::Scenario &scenario, const ExportRuns &runs,
                     const ExportOptions &options);

// Writes `path` in the format of its extension. Returns an empty string on success, else a
// one-line message; on failure no file (and no partial file) is left at `path`.
QString exportTo(const QString &path, const Core::Scenario &scenario, const ExportRuns &runs,
                 const ExportOptions &options);

// The ticks of the run's steps, as presentation mode walks them (Core::storySteps): every
// tick at which a client acts or a write arrives, and every restore, failover, failed
// election, clock step, storage restart and lock-delay's end.
std::vector<Core::Tick> keyframeTicks(const Core::Scenario &scenario, const Core::Trace &trace);

// A storyboard: one picture per tick with the playhead there, all of the whole `runs` (what
// comes after a frame's playhead is dimmed). `target` ending in .pdf gives one multi-page PDF,
// otherwise a folder (created if needed) of frame-01.png, frame-02.png... Returns "" on success
// or a message; on failure nothing written by this call is left.
QString exportStoryboard(const QString &target, const Core::Scenario &scenario,
                         const ExportRuns &runs, const ExportOptions &options,
                         const std::vector<Core::Tick> &ticks, QStringList *written = nullptr);

} // namespace Exporter
