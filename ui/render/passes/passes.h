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

#define FENCESCOPE_LANES_PASS(Name)                                                                \
    class Name final : public RenderPass                                                           \
    {                                                                                              \
    public:                                                                                        \
        void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,        \
                   int) override;                                                                  \
    }

FENCESCOPE_LANES_PASS(ConnectorsPass);
FENCESCOPE_LANES_PASS(BeliefsPass);
FENCESCOPE_LANES_PASS(LockWaitsPass);
FENCESCOPE_LANES_PASS(LeasesPass);
FENCESCOPE_LANES_PASS(LockEventsPass);
FENCESCOPE_LANES_PASS(LeaseMarksPass);
FENCESCOPE_LANES_PASS(ClientLanesPass);
FENCESCOPE_LANES_PASS(CheckBracketsPass);
FENCESCOPE_LANES_PASS(ReadsAndGroupsPass);
FENCESCOPE_LANES_PASS(HighlightPass);
#undef FENCESCOPE_LANES_PASS

class StorageLanesPass final : public RenderPass
{
public:
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
    Where where() const override { return Where::Panel; }
    void paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
               int panelIndex) override;
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
