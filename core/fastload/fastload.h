#pragma once

// The loader's speed machinery, behind one call: a large file read in parts, on a thread for
// each core (docs/ARCHITECTURE.md, "The loader"). The scenario reader (scenariofileread.cpp) is
// the simple path and reads every file the same way without it; this only makes a large valid
// file come in sooner, with the same result. Internal to the core.
//
// Each trick stays because the benchmark shows it pays (BM_Load at 1M actions, 61 MB, median of
// 5; docs/PERFORMANCE.md, "load", has the runs):
// - parts, a thread for each core (readInParts): 165 ms read alone -> 73-104 ms, on 2 cores.
// - the plain shape, in chunks (plainshape.h): 91-99 -> 62-72 ms of the reading thread's CPU.
// - huge pages for simdjson's buffers (operator new[], fastload.cpp): CPU 238-262 -> 62-72 ms.

#include "fastload/parts.h"

#include <optional>

namespace Core::FastLoad {

// The scenario in `data` (followed by SIMDJSON_PADDING readable bytes), as readScenario() reads
// it, when the file is large enough to be read in parts (FileLimits::partsFrom) and there is
// more than one thread to read it with (FileLimits::parts, else one for each core, up to 4).
// Empty when it is not, or when anything fails, with `tally` untouched: the caller reads the
// file alone, which finds and names the problem.
std::optional<Scenario> read(od::parser &parser, const char *data, std::size_t size,
                             const FileLimits &limits, ActionTally &tally, bool keepActions,
                             MakePartReader makeReader);

// The same, always in `parts` parts (the first on this thread with `parser`): the file is cut
// into chunks of about `chunkBytes` bytes at the places that look like the gap between two
// actions, each thread parses chunks of its own with a small parser, and the outer reader reads
// what is left (everything but the chunks found to be runs of whole actions), which says
// whether each cut really fell between two actions of a client.
std::optional<Scenario> readInParts(od::parser &parser, const char *data, std::size_t size,
                                    const FileLimits &limits, ActionTally &tally, bool keepActions,
                                    int parts, std::size_t chunkBytes, MakePartReader makeReader);

} // namespace Core::FastLoad
