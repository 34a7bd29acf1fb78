// A thread's reading of the chunks of a file read in parts (chunkreader.h): each chunk counted
// by a look at its bytes (chunkscan.h), then, once the outer reader has handed over its client,
// parsed with a small parser and read into the client's list.

#include "fastload/chunkreader.h"

#include "fastload/chunkscan.h"
#include "fastload/memoryhints.h"
#include "scenariofilevalues.h"

#include <cstring>
#include <string_view>
#include <utility>

namespace Core::FastLoad {
namespace {

using ScenarioFormat::get;

// Nothing follows the document's value.
bool atEnd(od::document &doc)
{
    const char *trailing = nullptr;
    return doc.current_location().get(trailing) == simdjson::OUT_OF_BOUNDS;
}

bool isAction(od::value &v)
{
    od::object object;
    if (v.get_object().get(object))
        return false;
    for (auto member : object) {
        od::field field;
        if (std::move(member).get(field))
            return false;
        if (field.key() == "do")
            return true;
    }
    return false;
}

} // namespace

ChunkReader::ChunkReader(Parts &parts, od::parser &parser, const FileLimits &limits,
                         MakePartReader makeReader)
    : m_parts(parts), m_parser(parser),
      m_reader(makeReader(limits, tally, parts.keep(), nullptr, nullptr)), m_plain(limits)
{
}

void ChunkReader::classifyAll()
{
    std::size_t n = 0;
    try {
        while (Parts::Chunk *chunk = m_parts.nextToClassify()) {
            ++n;
            classify(*chunk);
        }
    } catch (...) { // (no memory for the buffer)
        m_parts.failed();
    }
    m_parts.classified(n);
}

void ChunkReader::classify(Parts::Chunk &chunk)
{
    // a look at the bytes says most (chunkscan.h); with a backslash in them, the parser
    const ChunkScan scan =
        scanChunk(std::string_view(m_parts.data() + chunk.begin, chunk.end - chunk.begin));
    if (scan.verdict != ChunkScan::Verdict::Unsure) {
        chunk.inner = scan.verdict == ChunkScan::Verdict::Counted;
        chunk.actions = scan.objects;
        return;
    }
    od::document doc;
    if (parse(chunk).get(doc))
        return;
    od::array array;
    if (doc.get_array().get(array))
        return;
    std::size_t count = 0;
    for (auto element : array) {
        od::value v;
        if (std::move(element).get(v) || (count++ == 0 && !isAction(v)))
            return;
    }
    if (atEnd(doc)) {
        chunk.actions = count;
        chunk.inner = true;
    }
}

void ChunkReader::run(const Parts::Task &task)
{
    Parts::Client &c = *task.client;
    if (task.chunk == SIZE_MAX) { // the client's list, at its full length
        if (m_parts.keep()) {
            c.list.reserve(c.actions);
            // huge pages, populated in one call, before the chunks write it (fastload.h)
            prepareMemory(c.list.data(), c.list.capacity() * sizeof(Action));
            c.list.resize(c.actions);
            for (std::size_t i = 0; i < c.held.size(); ++i)
                c.list[c.heldAt[i]] = std::move(c.held[i]);
            c.held = {};
            c.heldAt = {};
        }
        m_parts.addChunkTasks(c);
        return;
    }
    const Parts::Chunk &chunk = m_parts.chunks()[task.chunk];
    od::document doc = get(parse(chunk));
    od::array array = get(doc.get_array());
    readChunk(c.client, task.base, chunk.actions, array, m_parts.keep() ? &c.list : nullptr);
    if (!atEnd(doc))
        throw Parts::Abandoned{};
}

// `count` actions of the client, from its `base`-th on, read into their slots of `list` (null
// for a check).
void ChunkReader::readChunk(std::size_t client, std::size_t base, std::size_t count,
                            od::array &array, std::vector<Action> *list)
{
    if (!m_storagesKnown) { // (the same for every chunk: copied once)
        m_reader->useStorages(m_parts.storageUtf8(), m_parts.storages());
        m_plain.useStorages(m_parts.storageUtf8());
        m_storagesKnown = true;
    }
    PlainAction plain;
    std::size_t j = 0;
    for (auto element : array) {
        od::value e = get(std::move(element));
        if (j == count)
            throw Parts::Abandoned{};
        const std::size_t index = base + j++;
        Action *a = list ? &(*list)[index] : nullptr;
        const bool object = get(e.type()) == od::json_type::object;
        od::object o;
        if (object) {
            o = get(e.get_object());
            if (m_plain.read(o, plain)) {
                if (a) {
                    a->at = plain.at;
                    a->kind = plain.kind;
                    a->amount = plain.amount;
                    a->storage = plain.storage;
                    if (plain.kind == ActionKind::Write)
                        a->value = m_reader->text(plain.value);
                }
                tally.keepalives.addPlain(plain.at, plain.amount);
                ++tally.plainInChunks;
                continue;
            }
        }
        if (!a)
            a = &tally.freshScratch();
        if (object) {
            get(o.reset()); // read again, in full, from its first key
            m_reader->readActionObject(client, index, o, *a);
        } else {
            m_reader->readAction(client, index, e, *a); // (which words what it is instead)
        }
        tally.add(client, index, *a);
    }
    if (j != count)
        throw Parts::Abandoned{};
}

simdjson::simdjson_result<od::document> ChunkReader::parse(const Parts::Chunk &chunk)
{
    const std::size_t n = chunk.end - chunk.begin;
    if (m_buffer.size() < n + 2 + simdjson::SIMDJSON_PADDING)
        m_buffer.resize(n + 2 + simdjson::SIMDJSON_PADDING);
    m_buffer[0] = '[';
    std::memcpy(m_buffer.data() + 1, m_parts.data() + chunk.begin, n);
    m_buffer[n + 1] = ']';
    return m_parser.iterate(m_buffer.data(), n + 2, m_buffer.size());
}

} // namespace Core::FastLoad
