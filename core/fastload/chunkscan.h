#pragma once

// A quick look at the bytes of a chunk of a large file read in parts (fastload/parts.h,
// Parts): how many actions it holds, if it is a run of whole actions, without parsing it. The
// look only guesses; the chunk is parsed and read later all the same, and a count that turns out
// wrong makes the file be read again alone. Internal to the core.

#include <cstddef>
#include <string_view>

namespace Core::FastLoad {

struct ChunkScan
{
    enum class Verdict
    {
        Counted,  // `objects` elements, each an object, if the text is a run of array elements
        NotInner, // not a run of whole actions (an array or a bracket in it, a string left open,
                  // or a first object without a "do" key)
        Unsure,   // a backslash: a quote may be escaped, so where the strings are is not known
    };
    Verdict verdict = Verdict::NotInner;
    std::size_t objects = 0;
};

// `text` starts at a "{" (else: NotInner).
ChunkScan scanChunk(std::string_view text);

} // namespace Core::FastLoad
