#pragma once

// Paints a Trace as lanes on a tick axis onto any QPainter: the widget, a QImage, an SVG or a
// PDF. No widget calls, no scrollbars: everything comes from the rectangle it is given, so the
// exporter and the view draw the same picture. The renderer never edits and never simulates.
//
// Built for a million actions: each lane paints only the visible slice (binary search), one item
// per pixel column when they crowd, and labels only where there is room for them.

#include "theme.h"
#include "timecoordinates.h"
#include "timelinelayout.h"
#include "viewstate.h"

#include "scenario.h"
#include "trace.h"

#include <QRectF>
#include <QSizeF>
#include <QString>

#include <memory>
#include <vector>

class QPainter;
class RendererCache;
namespace Render {
class PaintedRegions;
}

class TimelineRenderer
{
public:
    TimelineRenderer();
    ~TimelineRenderer();
    // A copy starts with empty caches: they describe the last paint of one renderer.
    TimelineRenderer(const TimelineRenderer &other);
    TimelineRenderer &operator=(const TimelineRenderer &other);

    // On (the default), painting onto a raster target (widget, QImage, QPixmap) reuses what did
    // not change since this renderer's last paint: the static layer (background, header column,
    // grid, ruler) as an image; the picture of everything the trace decides over it, when the
    // paint would make exactly the calls the last one made (hover, selection and playhead are
    // drawn over it); sprites of items drawn again at the same sub-pixel offset; label widths.
    // Off, every paint draws everything; the pixels are the same either way, but for sprites of
    // strokes and shapes at odd sub-pixel offsets, where a rare edge pixel can come out one level
    // (of 255) apart. Vector targets (SVG, PDF) never get images: only label widths are reused.
    // Zoomed out on a big run, a helper thread records the storage lanes (painting thread only).
    // Caches make paint() mutate the renderer: one renderer paints on one thread at a time.
    void setCaching(bool on);
    bool caching() const { return m_caching; }
    // How often the static layer, and the picture of the trace-dependent content over it, have
    // been painted (tests check that they are reused and renewed).
    int staticLayerPaints() const;
    int contentLayerPaints() const;

    struct Options
    {
        Theme theme = Theme::light();
        Core::Tick playhead = Core::kForever; // everything after it is dimmed
        // The playhead stands just before its tick: everything is dimmed, its tick too
        // (presentation mode's "start", before the first event).
        bool playheadBefore = false;
        // Presentation mode and a lesson's question: what comes after the playhead is hidden,
        // not dimmed (the trace painted should end there too: Document::traceBefore). Only
        // the labels of the playhead's own tick may reach past it.
        bool hideFuture = false;
        // An animation on its way to the next step: the line (and its tick on the badge) is
        // drawn this many ticks past the playhead, and the veil starts at the line. What is
        // shown bright stays the playhead's: no event lies between two steps.
        double playheadTravel = 0;
        Selection selection;
        int hoverClient = -1;
        int hoverAction = -1;
        // Keyboard focus inside the timeline, drawn as a dashed ring in the theme's foreground:
        // an action (focusAction >= 0) or, with focusAction -1, the client lane's header cell;
        // with focusClient -1, the header cell of storage lane focusStorage.
        // -1: none (the widget has no focus, or nothing inside it is focused).
        int focusClient = -1;
        int focusAction = -1;
        int focusStorage = -1;
        bool compare = false; // fenced trace on top, unfenced trace below
        // Per client: true leaves out the (empty) pause row of a client that never pauses.
        // Compare mode uses it so both stacks of lanes fit on one screen. Empty: none.
        std::vector<bool> collapsedPauses;
        QString compareTopLabel;    // empty: a default ("Fencing ON ...")
        QString compareBottomLabel; // empty: a default ("Fencing OFF ...")
        // Compare mode's bottom panel, when it is the schedule under another token source: its
        // scenario (the same lanes, other lock options), for tokens in that source's words.
        // Null: the bottom panel is the painted scenario's, unfenced. Not owned.
        const Core::Scenario *bottomScenario = nullptr;
        // The same for the top panel, when its run is not the painted scenario's own (a
        // prediction over a run observed on etcd, each with etcd's tokens). Not owned.
        const Core::Scenario *topScenario = nullptr;
        // The y (in the painted rect's coordinates) where what is visible ends, when the picture
        // is taller than its window (a scroll area): the last panel's lock and storage lanes are
        // then drawn ending there, over the client lanes, instead of off screen. 0: not pinned.
        double pinBottom = 0;
        // The y where the visible part begins (with pinBottom): the pinned lanes never start
        // above it.
        double pinTop = 0;
    };

    struct Hit
    {
        enum Part {
            None,
            PauseBody,     // move the pause
            PauseStart,    // resize from the left
            PauseEnd,      // resize from the right
            LeaseEnd,      // change the ttl of the acquire that set this expiry
            AcquireMarker, // grant, renewal or refusal
            WriteMarker,
            DelayHead,     // arrow head of a delayed write: change the delay
            ReleaseMarker,
            StorageWrite,  // a write's arrival on a storage lane
            LockSegment,   // a lease on the lock-service lane
            LaneHeader,    // the header cell of a client lane
            // docs/SCENARIO.md sections 11 and 12
            CheckSend,    // the end of a check bracket, where the write goes out: change the gap
            CheckBracket, // the rest of the bracket: the check, and the gap after it
            Pitfall,      // a keepalive, a lost lock, a skipped write, a read: `ref` is its event
            OwnLeaseEnd,  // where a client's own clock ends its lease: `ref` into Trace::leases
            Restart,      // a storage restart: `ref` into Trace::restarts
        };
        Part part = None;
        int client = -1;  // scenario client, or -1
        int action = -1;  // index into that client's actions, or -1
        // Lane within its panel: 0..clients-1 the client lanes, clients the lock lane,
        // clients + 1 + s storage s; -1 for the ruler or outside the lanes.
        int lane = -1;
        bool bottomPanel = false; // compare mode: the unfenced panel
        std::uint32_t ref = Core::kNone; // see the parts that use it

        bool isItem() const { return part != None && part != LaneHeader; }
        // Parts a drag changes (everything but a click-only item).
        bool isDraggable() const
        {
            return part == PauseBody || part == PauseStart || part == PauseEnd ||
                   part == LeaseEnd || part == AcquireMarker || part == WriteMarker ||
                   part == DelayHead || part == ReleaseMarker || part == CheckSend;
        }
    };

    // Width of the lane label column; the plot area (and the token chart's) starts there.
    static double headerWidth(const Options &options);
    // Room left free between the header column and the first tick of a fitted picture, so the
    // first ruler label and a glyph at the first tick are drawn whole.
    static double plotInset(const Options &options) { return 24 * options.theme.fontScale; }
    // Where every lane goes inside `rect`. Pure: the same answer for the same inputs.
    static TimelineLayout layout(const Core::Scenario &scenario, const Options &options,
                                 const QRectF &rect);
    // The size that shows every lane at its natural height at the given width.
    // The height the ruler and the lanes that stay pinned when the lanes scroll need (compare
    // mode: both runs' storages and the bottom run's title; else the lock and storage lanes).
    static double pinnedHeight(const Core::Scenario &scenario, const Options &options,
                               double width);
    static QSizeF preferredSize(const Core::Scenario &scenario, const Options &options,
                                double width = 900);

    void paint(QPainter *p, const QRectF &rect, const Core::Scenario &s, const Core::Trace &trace,
               const Core::Trace *unfenced, const TimeAxis &axis, const Options &o) const;

    // What lies under `pos`. Pure. In compare mode, pass the bottom panel's trace as `bottom`
    // (when omitted, `trace` is used for both: only storage outcomes differ between them).
    Hit hitTest(const Core::Scenario &s, const Core::Trace &trace, const TimeAxis &axis,
                const QRectF &rect, const Options &o, QPointF pos,
                const Core::Trace *bottom = nullptr) const;

    // Where the focus ring of Options::focusClient / focusAction goes in `panel` of layout `l`:
    // around the action's marker where it ran (a pause: its block), or inside the client's
    // header cell (action -1). Empty for none. The view uses it for its accessible items too.
    static QRectF focusRingRect(const Core::Scenario &s, const Core::Trace &t, const TimeAxis &axis,
                                const TimelineLayout &l, const TimelinePanel &panel,
                                const Options &o, int client, int action);

    // One-line description of a hit for tooltips and the status bar, built on demand.
    static QString describe(const Core::Scenario &s, const Core::Trace &trace, const Hit &hit);

    // Where the last paint painted each interactive element, and what each is: the regions its
    // passes recorded, when asked to record them (off by default: the hit test records its own,
    // around the point it looks at, so a paint for the screen records nothing it would not use).
    void setRecordsRegions(bool on) { m_recordsRegions = on; }
    const Render::PaintedRegions &paintedRegions() const;

    // Tick span that shows the whole run (for fit to window).
    static double fitFrom(const Core::Trace &trace);
    static double fitTo(const Core::Trace &trace);

private:
    // Not part of the renderer's value: a const paint() fills it (see setCaching).
    std::unique_ptr<RendererCache> m_cache;
    std::unique_ptr<Render::PaintedRegions> m_regions; // of the last paint; a paint() fills it
    bool m_caching = true;
    bool m_recordsRegions = false;
};
