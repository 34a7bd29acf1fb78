#pragma once

// What a thread of a file read in parts (fastload.h) keeps from chunk to chunk: a parser and a
// buffer that fit a chunk (their pages stay warm, where a parser of the whole file had to fault
// in 4 bytes of index for each byte of it), its tally, and a reader for the actions not in the
// plain shape. Internal to the core.

#include "fastload/parts.h"
#include "fastload/plainshape.h"

#include <memory>
#include <vector>

namespace Core::FastLoad {

class ChunkReader
{
public:
    ChunkReader(Parts &parts, od::parser &parser, const FileLimits &limits,
                MakePartReader makeReader);

    ActionTally tally;

    // Phase 1: each chunk not yet looked at, counted: inner if it is a run of array elements
    // whose first is an object with a "do" key (an action, not a storage or a clock step).
    void classifyAll();

    // A task of Parts::work(): a client's list made, or a chunk read into it.
    void run(const Parts::Task &task);

private:
    void classify(Parts::Chunk &chunk);
    void readChunk(std::size_t client, std::size_t base, std::size_t count, od::array &array,
                   std::vector<Action> *list);
    // "[" + the chunk + "]", and the padding simdjson reads past it
    simdjson::simdjson_result<od::document> parse(const Parts::Chunk &chunk);

    Parts &m_parts;
    od::parser &m_parser;
    std::unique_ptr<PartReader> m_reader;
    PlainShape m_plain;
    bool m_storagesKnown = false;
    std::vector<char> m_buffer;
};

} // namespace Core::FastLoad
