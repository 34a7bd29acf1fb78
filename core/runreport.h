#pragma once

// The JSON that `fencescope-cli run` prints (docs/SCENARIO.md section 8), streamed so a
// million-write trace is never held as one string.

#include "scenario.h"
#include "trace.h"

#include <QByteArray>

#include <cstdio>

namespace Core {

// Returns false when writing to `out` failed. `moreFields`: members of the report's object
// added after the summary, as JSON text ("\"live\": {...}"), for a command that reports more.
bool writeRunReport(std::FILE *out, const Scenario &scenario, const Trace &trace,
                    bool summaryOnly, const QByteArray &moreFields = {});

} // namespace Core
