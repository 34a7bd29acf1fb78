#pragma once

// Hints for big buffers written once from front to back, into fresh memory: every first touch
// of a 4 KiB page is a fault, and on a virtual machine faults cost more than reading a scenario
// or simulating what is written there. Both are only hints: where the kernel does not know
// them, nothing changes.

#include <cstddef>

namespace Core {

// Transparent huge pages for the buffer's 2 MiB aligned middle: one fault for every 2 MiB.
// For room that may stay partly unused (a parser's buffers).
void adviseHugePages(const void *data, std::size_t bytes);

// The same, and every page of the buffer faulted in at once, in one call: for room that is all
// written (a list reserved at its length). Small buffers are left alone.
void prepareMemory(const void *data, std::size_t bytes);

} // namespace Core
