#pragma once

// The JSON that `fencescope-cli run` prints (SCENARIO.md section 8), streamed so a
// million-write trace is never held as one string.

#include "scenario.h"
#include "trace.h"

#include <cstdio>

namespace Core {

// Returns false when writing to `out` failed.
bool writeRunReport(std::FILE *out, const Scenario &scenario, const Trace &trace,
                    bool summaryOnly);

} // namespace Core
