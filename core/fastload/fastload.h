#pragma once

// The loader's speed machinery, behind one seam: FastLoad::read is all the entry points
// (scenariofile.cpp) know of it, and the scenario reader (scenariofileread.cpp) is the simple
// path, which reads every file the same way without it (docs/ARCHITECTURE.md, "The loader").
// It only makes a large valid file come in sooner, with the same result. Internal to the core.
//
// Each trick stays because the benchmark shows it pays (docs/PERFORMANCE.md, "The loader's
// tricks, each on and off", has the runs; BM_Load: 1M actions, 61 MB, median of 5):
// - parts, a thread for each core (readInParts): 165 ms read alone -> 73-104 ms, on 2 cores.
// - the plain shape, in chunks (plainshape.h): 91-99 -> 62-72 ms of the reading thread's CPU.
// - huge pages for simdjson's buffers (operator new[], fastload.cpp): CPU 238-262 -> 62-72 ms.
// - the clients' lists in huge pages, populated in one call (chunkreader.cpp): CPU 140 -> 63 ms.
// Tried and dropped: mapping a file with MAP_POPULATE instead of reading it (`check` at 1M was
// no faster mapped), huge-page advice for the buffer a file is read into (the replaced
// operator new[] already gives it).

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
