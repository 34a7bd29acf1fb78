#pragma once

// What compare mode puts one above the other: the same schedule fenced over unfenced, or, when
// the view has a compare source, under the scenario's own token source over that source (with
// the scenario's fencing switch). Every view that shows compare mode (timeline, story, summary,
// presentation, chart, export) asks here, so they all speak of the same two runs by the same
// names.

#include "scenario.h"
#include "trace.h"

#include <QString>

#include <optional>
#include <vector>

class Document;
class ViewState;

struct ComparisonSide
{
    const Core::Scenario *scenario = nullptr;
    const Core::Trace *trace = nullptr;
    QString name;  // "fenced", "unfenced", "counter tokens", "random tokens"
    QString title; // the panel's title: "Fencing ON: the storage checks every token", ...
};

// Two runs from outside the document's simulations (a run observed on etcd and its
// prediction: live/), each with the scenario it ran, its name and its panel title. While the
// document holds them (Document::comparedRuns), compare mode shows them, by name like two token
// sources.
struct ComparedRuns
{
    struct Run
    {
        Core::Scenario scenario;
        Core::Trace trace;
        QString name;
        QString title;
    };
    Run top;
    Run bottom;
};

struct Comparison
{
    ComparisonSide top;
    ComparisonSide bottom;
    // two runs by name (two token sources, or compared runs), not fenced / unfenced
    bool bySource = false;

    // "fenced" / "unfenced", or "counter" / "random": what tells the two runs apart in a sentence.
    const ComparisonSide &side(bool topSide) const { return topSide ? top : bottom; }
    // A statement about one run, saying which: "With fencing: ...", "Without fencing: ...",
    // "With random tokens: ...".
    QString about(bool topSide, const QString &text) const;
};

// Only the traces of the two runs, without their names: what a repaint and a hit test need on
// a drag's path. comparison() uses the same two.
const Core::Trace &comparisonTopTrace(const Document &doc, std::optional<Core::TokenSource> source);
const Core::Trace &comparisonBottomTrace(const Document &doc,
                                         std::optional<Core::TokenSource> source);

// The two runs of compare mode for `doc` as `state` shows it (whether or not compare mode is
// on): while the state hides the future, each run as it stands before the playhead's next tick.
Comparison comparison(const Document &doc, const ViewState &state);
// The same for a compare source given directly (std::nullopt: fenced over unfenced).
Comparison comparison(const Document &doc, std::optional<Core::TokenSource> source);
// A run (one of the document's) as a view of `state` shows it: all of it, or, while the state
// hides the future (presentation, a lesson's question), only what happened before
// ViewState::shownBefore(). Every view that draws or tells a run asks here.
const Core::Trace &shownTrace(const Document &doc, const ViewState &state, const Core::Trace &full);
// The ticks presentation mode steps through for what `state` shows (Core::storySteps): the
// scenario's run, or in compare mode both runs' steps together; always of the whole runs.
std::vector<Core::Tick> storyTicks(const Document &doc, const ViewState &state);
// The side names of a comparison by source: "counter tokens", "etcd revisions", ...
QString sourceRunName(Core::TokenSource source);
