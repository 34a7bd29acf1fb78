#pragma once

// What `fencescope-cli live` prints beside the run report of the observed run (docs/SCENARIO.md
// section 8, through Core::writeRunReport): a "live" member with where and how it ran, the
// verdict, the prediction in brief and every divergence; and, for --repeat, one report of
// how often reality agreed.

#include "liverun.h"

#include <QByteArray>

namespace Live {

// The member `"live": {...}` for Core::writeRunReport's moreFields.
QByteArray liveSection(const LiveResult &result);
// The whole report of `runs` runs of one scenario (JSON text, ending in a newline).
QByteArray repeatReport(const Core::Scenario &scenario, const std::vector<LiveResult> &runs);

} // namespace Live
