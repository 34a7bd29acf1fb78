#pragma once

// One kind of timeline element, drawn by itself. The renderer runs a list of passes in order
// for each panel (compare mode has two), as Qt Creator's tracing library runs its
// TimelineRenderPasses: each pass draws what lies in the visible tick range its context gives
// it (PaintContext::tLo() .. tHi(), found by binary search in the trace's sorted lists).
//
// Where a pass runs decides its clip: a Lanes pass draws inside the plot area, once per part
// of the panel (twice when the lock and storage lanes are pinned to the bottom of the window:
// see PaintContext::inPinnedParts); consecutive Lanes passes share one clip and one split into
// parts, so their calls come in the order of the list. A Panel pass runs once per panel with no
// clip of the renderer's (it clips for itself where it needs to).

#include "timelinelayout.h"

#include "trace.h"

#include <vector>

namespace Render {

class PaintContext;

class RenderPass
{
public:
    enum class Where
    {
        Lanes,
        Panel
    };

    RenderPass() = default;
    RenderPass(const RenderPass &) = delete;
    RenderPass &operator=(const RenderPass &) = delete;
    virtual ~RenderPass() = default;

    virtual Where where() const { return Where::Lanes; }
    // True for a pass that records where it paints its interactive elements
    // (PaintContext::region): the hit test runs those passes (tst_paintedregions checks that
    // the hit test finds every region a paint records).
    virtual bool recordsRegions() const { return false; }
    // For a Lanes pass: before the first part of a panel, inside the plot's clip.
    virtual void beginPanel(const PaintContext &, const TimelinePanel &, const Core::Trace &) {}
    // Draws the pass over `panel` (a part of it, for a Lanes pass), whose trace is `trace`.
    virtual void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &trace,
                       int panelIndex) = 0;
    // After every panel (the ruler, the playhead).
    virtual void finish(const PaintContext &) {}
};

// Runs `passes` in order over every panel of the context's layout that has a trace
// (traces[i] null: panel i is not painted), then finishes them in order.
void runPasses(const PaintContext &c, const std::vector<RenderPass *> &passes,
               const std::vector<const Core::Trace *> &traces);

} // namespace Render
