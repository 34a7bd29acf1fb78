#pragma once

// Every pass of the timeline, in the order the renderer runs them (TimelineRenderer::paint):
//
//   static layer   BackgroundPass (background, lane stripes and headers, grid; ruler)
//   content        ConnectorsPass, BeliefsPass, LockWaitsPass, LeasesPass, LockEventsPass,
//                  LeaseMarksPass, ClientLanesPass, CheckBracketsPass, StorageLanesPass (with
//                  the outcome labels), ReadsAndGroupsPass, then PanelTitlePass
//   overlay        TokenCounterPass, HighlightPass, FocusRingPass, PlayheadPass
//
// Later passes draw over earlier ones. One file per pass in this folder.
//
// Every pass of the content layer (ContentPasses) declares `bool recordsRegions() const
// override;` and answers in its own file (next to its paint()) whether it records where it
// paints its interactive elements: making one of its elements interactive is then a change to
// that file alone (docs/ARCHITECTURE.md, "Adding a new lane element").

#include "renderpass.h"

#include <QRectF>

#include <memory>
#include <vector>

namespace Render {

class BackgroundPass final : public RenderPass
{
public:
    Where where() const override { return Where::Panel; }
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
    void finish(const PaintContext &c) override;
};

// Faint connectors from each write down to the storage lane it arrives on (connectors.cpp).
class ConnectorsPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// A paused client's frozen stretches, and the belief row with its zombie part (beliefs.cpp).
class BeliefsPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// Blocking acquires waiting, and the lock-delay after an expiry (lockwaits.cpp).
class LockWaitsPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// The lease bars on the client lanes and the lock service lane's segments (leases.cpp).
class LeasesPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// The lock service lane's event row: restores, failovers, elections, clock steps
// (lockevents.cpp).
class LockEventsPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// Keepalives, a client's own lease end, where it learns it lost the lock, bypass writes
// (leasemarks.cpp).
class LeaseMarksPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// The client lanes' markers, delay arrows and pauses, with their labels (clientlanes.cpp).
class ClientLanesPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// Check-then-write brackets and skipped writes (checkbrackets.cpp).
class CheckBracketsPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// Reads of a version, and groups of writes across storages (readsgroups.cpp).
class ReadsAndGroupsPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// The hover and selection halos, over the content (overlays.cpp).
class HighlightPass final : public RenderPass
{
public:
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

class StorageLanesPass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    StorageLanesPass();
    ~StorageLanesPass() override;
    // Starts the helper thread on a panel whose storage lanes are all dense.
    void beginPanel(const PaintContext &c, const TimelinePanel &panel,
                    const Core::Trace &t) override;
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;

private:
    void wait();
    struct Helper;
    std::unique_ptr<Helper> m_helper; // this panel's storage lanes, recorded by the helper
};

class PanelTitlePass final : public RenderPass
{
public:
    bool recordsRegions() const override;
    Where where() const override { return Where::Panel; }
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int panelIndex) override;
};

// The passes of the content layer, in the order TimelineRenderer::paint runs them. The hit
// test runs those of them that record regions, narrowed to the point it looks at, and reads the
// regions they record.
struct ContentPasses
{
    ConnectorsPass connectors;
    BeliefsPass beliefs;
    LockWaitsPass lockWaits;
    LeasesPass leases;
    LockEventsPass lockEvents;
    LeaseMarksPass leaseMarks;
    ClientLanesPass clientLanes;
    CheckBracketsPass checkBrackets;
    StorageLanesPass storageLanes;
    ReadsAndGroupsPass readsAndGroups;
    PanelTitlePass panelTitle;

    std::vector<RenderPass *> list()
    {
        return {&connectors,   &beliefs,        &lockWaits,   &leases,
                &lockEvents,   &leaseMarks,     &clientLanes, &checkBrackets,
                &storageLanes, &readsAndGroups, &panelTitle};
    }
};

class TokenCounterPass final : public RenderPass
{
public:
    Where where() const override { return Where::Panel; }
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

class FocusRingPass final : public RenderPass
{
public:
    Where where() const override { return Where::Panel; }
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int) override;
};

// The ruler's bottom line and the playhead, over everything; `present` are the labels at the
// playhead's tick, which it leaves bright (noted by the content passes).
class PlayheadPass final : public RenderPass
{
public:
    // `present`: the labels of the playhead's tick, which stay bright over the dimmed future
    explicit PlayheadPass(const std::vector<QRectF> *present = nullptr) : m_present(present) {}
    Where where() const override { return Where::Panel; }
    void paint(const PaintContext &, const TimelinePanel &, const Core::Trace &, int) override {}
    void finish(const PaintContext &c) override;

private:
    const std::vector<QRectF> *m_present;
};

} // namespace Render
