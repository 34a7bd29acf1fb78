#pragma once

// The natural height of every row of a lane, at font scale 1 (everything scales with
// Theme::fontScale): shared by the layout, the passes and the hit test.

#include "timelinerenderer.h"

#include "scenario.h"

namespace Render {

// Natural sizes at font scale 1; everything scales with Theme::fontScale.
constexpr double kHeader = 132;
constexpr double kRuler = 30;
constexpr double kPanelTitle = 28;
constexpr double kPad = 4;
constexpr double kLabelRow = 18;
constexpr double kMarkerRow = 18;
constexpr double kPauseRow = 18;
constexpr double kHoldRow = 22;
constexpr double kBeliefRow = 16;
constexpr double kLockLane = 36;
constexpr double kLockEventRow = 16; // restores, failovers, ... over the lock lane's bars
constexpr double kValueRow = 24;
constexpr double kOutcomeRow = 22;
constexpr double kMaxTokenRow = 26;
// Hit tolerance around edges and markers, in pixels at font scale 1.
constexpr double kGrip = 6;

inline double clientLaneHeight(double f, bool collapsedPauses = false)
{
    const double pauses = collapsedPauses ? 0 : kPauseRow + 2;
    return (kPad + kLabelRow + kMarkerRow + pauses + kHoldRow + 2 + kBeliefRow + 2 * kPad) * f;
}

inline bool pausesCollapsed(const TimelineRenderer::Options &o, std::size_t client)
{
    return client < o.collapsedPauses.size() && o.collapsedPauses[client];
}

inline double storageLaneHeight(double f)
{
    return (kPad + kValueRow + kOutcomeRow + kMaxTokenRow + 2 * kPad) * f;
}

// Whether the lock service itself does anything worth a row of its own (sections 10 and 15).
inline bool hasLockEvents(const Core::Scenario &s)
{
    const Core::LockOptions &l = s.lock;
    return !l.restores.empty() || !l.failovers.empty() || !l.failedElections.empty() ||
           !l.elections.empty() || !l.clockSteps.empty() || l.lockDelay > 0;
}

inline double lockLaneHeight(const Core::Scenario &s, double f)
{
    return (kLockLane + (hasLockEvents(s) ? kLockEventRow : 0)) * f;
}

inline double panelHeight(const Core::Scenario &s, const TimelineRenderer::Options &o, bool titled)
{
    const double f = o.theme.fontScale;
    double clients = 0;
    for (std::size_t c = 0; c < s.clients.size(); ++c)
        clients += clientLaneHeight(f, pausesCollapsed(o, c));
    return (titled ? kPanelTitle * f : 0) + clients + lockLaneHeight(s, f) +
           double(s.storages.size()) * storageLaneHeight(f);
}

} // namespace Render
