// A large file read in parts (fastload.h): the threads, and what they hand back.

#include "fastload/fastload.h"

#include "fastload/chunkreader.h"
#include "fastload/memoryhints.h"
#include "scenariofilevalues.h"

#include <algorithm>
#include <deque>
#include <new>
#include <thread>

// simdjson makes a parser's buffers (the index of the file's structure, 4 bytes for each byte
// of the file, and the room for its strings) with the nothrow array new, in its own library:
// this is that allocation function as the standard library has it (the throwing one, null
// instead of bad_alloc), with one addition: a large block is asked for in huge pages. A parser
// of a large file writes its index once from end to end, and on a virtual machine the page
// faults of 4 KiB pages were most of that. What is made is what the standard one makes, so the
// standard delete[] frees it and sanitizers and valgrind see the allocations they expect. (It is
// defined here, in the file the entry points call, so every program that loads a file links it.)
void *operator new[](std::size_t bytes, const std::nothrow_t &) noexcept
{
    void *block = nullptr;
    try {
        block = ::operator new[](bytes);
    } catch (...) {
        return nullptr;
    }
    constexpr std::size_t kLarge = std::size_t(8) << 20; // four huge pages and more
    if (bytes >= kLarge)
        Core::adviseHugePages(block, bytes);
    return block;
}

namespace Core::FastLoad {
namespace {

using ScenarioFormat::get;

// The threads that read a large file (FileLimits::parts).
int partsFor(const FileLimits &limits)
{
    if (limits.parts > 0)
        return limits.parts;
    return int(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

} // namespace

std::optional<Scenario> read(od::parser &parser, const char *data, std::size_t size,
                             const FileLimits &limits, ActionTally &tally, bool keepActions,
                             MakePartReader makeReader)
{
    const int parts = partsFor(limits);
    if (qint64(size) < limits.partsFrom || parts < 2)
        return std::nullopt;
    return readInParts(parser, data, size, limits, tally, keepActions, parts, limits.partBytes,
                       makeReader);
}

std::optional<Scenario> readInParts(od::parser &parser, const char *data, std::size_t size,
                                    const FileLimits &limits, ActionTally &tally, bool keepActions,
                                    int parts, std::size_t chunkBytes, MakePartReader makeReader)
{
    Parts shared(data, size, chunkBytes, keepActions);
    const auto count = std::size_t(std::max(parts, 1));
    std::deque<od::parser> parsers; // the helpers' (this thread's is the caller's)
    std::deque<ChunkReader> readers;
    readers.emplace_back(shared, parser, limits, makeReader);
    std::vector<std::thread> helpers;
    try {
        for (std::size_t i = 1; i < count; ++i)
            readers.emplace_back(shared, parsers.emplace_back(), limits, makeReader);
        helpers.reserve(count - 1);
        for (std::size_t i = 1; i < count; ++i)
            helpers.emplace_back([&shared, &reader = readers[i]] {
                reader.classifyAll(); // (catches what it throws: so does work())
                shared.work([&](const Parts::Task &t) { reader.run(t); });
            });
    } catch (...) { // no thread (or no memory) to be had: those started do the work
    }
    ActionTally outerTally;
    std::optional<Scenario> s;
    std::size_t actions = 0;
    try {
        readers[0].classifyAll();
        shared.awaitClassified();
        const std::string_view outer = shared.buildOuter();
        const char *begin = outer.empty() ? data : outer.data();
        const std::size_t length = outer.empty() ? size : outer.size();
        od::document doc = get(parser.iterate(begin, length, length + simdjson::SIMDJSON_PADDING));
        const std::unique_ptr<PartReader> reader =
            makeReader(limits, outerTally, keepActions, &shared, begin);
        s = reader->read(doc);
        shared.checkSpansMet();
        actions = reader->actionCount();
    } catch (...) { // Problem, Malformed, bad_alloc, Abandoned: read again, alone
        shared.failed();
    }
    shared.outerDone();
    // (the caller's parser is free again: this thread reads chunks too)
    shared.work([&](const Parts::Task &t) { readers[0].run(t); });
    for (std::thread &t : helpers)
        t.join();
    if (shared.hasFailed())
        return std::nullopt;
    if (keepActions)
        shared.moveInto(*s);
    tally.merge(outerTally);
    for (const ChunkReader &r : readers)
        tally.merge(r.tally);
    tally.actions = actions;
    tally.inChunks = shared.spanActions();
    return s;
}

} // namespace Core::FastLoad
