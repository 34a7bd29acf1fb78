#pragma once

// Where each lane of the timeline sits inside the painted rectangle. Computed from the scenario
// (how many clients and storages) and the options (font scale, compare mode) only, never from a
// trace, so the renderer, the hit test, the view and the tests agree on every pixel.

#include <QRectF>

#include <limits>

#include <vector>

// One client lane, split into rows from top to bottom.
struct ClientLaneRects
{
    QRectF lane;     // the whole lane, plot area only (right of the header column)
    QRectF header;   // the lane's part of the header column (client name)
    QRectF labels;   // text above the markers ("acquire ttl 10", "write 'A'")
    QRectF markers;  // acquire, refusal, release and write glyphs; delay arrows
    QRectF pauses;   // hatched pause blocks
    QRectF holds;    // the lease bar: where it actually holds the lock
    QRectF believes; // where it believes it holds the lock; the zombie window inside
};

struct StorageLaneRects
{
    QRectF lane;
    QRectF header;
    QRectF values;   // the stored value between changes
    QRectF outcomes; // arriving writes: glyph and text
    QRectF maxToken; // max_token as a step line
};

// One set of lanes. Compare mode stacks two panels (fenced over unfenced) on one time axis.
struct TimelinePanel
{
    bool bottom = false;
    QRectF rect;  // all lanes of this panel, header column included
    QRectF title; // panel label strip (compare mode only; empty otherwise)
    std::vector<ClientLaneRects> clients;
    QRectF lock;       // lock-service lane, plot area
    QRectF lockHeader; // its header cell
    // Inside `lock`: a row on top for what happens to the service itself (restores, failovers,
    // failed elections, clock steps, lock-delay), only when the scenario has any (else empty,
    // at the lane's top), and the lease bars under it.
    QRectF lockEvents;
    QRectF lockBars;
    std::vector<StorageLaneRects> storages;
    // The lock-service and storage lanes pinned to the bottom of what is visible (Options::
    // pinBottom), over the client lanes that scroll under them; empty when not pinned. The
    // storage lane is where the outcome is: it stays on screen at any size and client count.
    // In compare mode both panels' lanes are pinned, the top panel's above the bottom one's,
    // when both would not show where they are.
    QRectF pinned;
    // Where the pinned lanes of all panels begin: a client lane at or below it is hidden
    // (+inf when nothing is pinned).
    double pinTop = std::numeric_limits<double>::infinity();

    bool isPinned() const { return !pinned.isEmpty(); }
    // Whether y lies under the pinned lanes (a client lane there is hidden).
    bool underPinned(double y) const { return y >= pinTop; }
};

struct TimelineLayout
{
    double headerWidth = 0;
    QRectF ruler;    // tick labels along the top, plot area only
    QRectF plot;     // everything right of the header column, below the ruler
    std::vector<TimelinePanel> panels; // one, or two in compare mode (top = fenced)

    // The panel containing y, or nullptr: under the pinned lanes, the panel whose lanes are
    // pinned there.
    const TimelinePanel *panelAt(double y) const
    {
        for (const TimelinePanel &p : panels)
            if (p.isPinned() && y >= p.pinned.top() && y < p.pinned.bottom())
                return &p;
        for (const TimelinePanel &p : panels)
            if (y >= p.rect.top() && y < p.rect.bottom() && !p.underPinned(y))
                return &p;
        return nullptr;
    }
};
