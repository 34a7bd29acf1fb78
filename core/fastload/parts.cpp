// A large file read in parts: the cuts, the outer document, and the work the threads share
// (parts.h; docs/ARCHITECTURE.md, "The loader").

#include "fastload/parts.h"

#include "scenariofilevalues.h"

#include <algorithm>
#include <cstring>

namespace Core::FastLoad {

Parts::Parts(const char *data, std::size_t size, std::size_t chunkBytes, bool keep)
    : m_data(data), m_size(size), m_keep(keep)
{
    cut(std::max<std::size_t>(chunkBytes, 1));
}

Parts::Chunk *Parts::nextToClassify()
{
    const std::size_t i = m_nextChunk.fetch_add(1);
    return i < m_chunks.size() && !m_failed.load() ? &m_chunks[i] : nullptr;
}

void Parts::classified(std::size_t n)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_classified += n;
    m_changed.notify_all();
}

void Parts::awaitClassified()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return m_failed || m_classified >= m_chunks.size(); });
}

std::string_view Parts::buildOuter()
{
    // its regions: [0, the first inner chunk), each outer chunk up to the next chunk, and
    // the rest of the file from the last chunk's end
    std::size_t from = 0;
    std::size_t k = 0;
    const auto append = [&](std::size_t to) {
        m_outer.insert(m_outer.end(), m_data + from, m_data + to);
    };
    while (k < m_chunks.size()) {
        if (!m_chunks[k].inner) {
            ++k;
            continue;
        }
        if (m_outer.empty())
            m_outer.reserve(outerSize() + simdjson::SIMDJSON_PADDING);
        append(m_chunks[k].begin);
        Span span;
        span.first = k;
        while (k < m_chunks.size() && m_chunks[k].inner)
            span.actions += m_chunks[k++].actions;
        span.last = k;
        from = k < m_chunks.size() ? m_chunks[k].begin : m_lastBegin;
        span.at = m_outer.size();
        m_spans.push_back(span);
    }
    if (m_spans.empty())
        return {};
    append(m_size);
    const std::size_t size = m_outer.size();
    m_outer.resize(size + simdjson::SIMDJSON_PADDING, ' ');
    return {m_outer.data(), size};
}

std::size_t Parts::spansBefore(std::size_t at, std::size_t count,
                               std::vector<std::pair<std::size_t, std::size_t>> &out)
{
    while (m_nextSpan < m_spans.size() && m_spans[m_nextSpan].at <= at) {
        if (m_spans[m_nextSpan].at < at) // a cut fell somewhere else than between actions
            throw Abandoned{};
        out.emplace_back(m_nextSpan, count);
        count += m_spans[m_nextSpan++].actions;
    }
    return count;
}

std::size_t Parts::spanActions() const
{
    std::size_t n = 0;
    for (const Span &span : m_spans)
        n += span.actions;
    return n;
}

void Parts::checkSpansMet() const
{
    if (m_nextSpan != m_spans.size())
        throw Abandoned{};
}

void Parts::publish(Client &&client, const std::vector<std::string> &storageUtf8,
                    const std::vector<StorageSpec> &storages)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_clients.empty()) { // (the storages are read before the first client's actions)
        m_storageUtf8 = storageUtf8;
        m_storages = storages;
    }
    Client &c = m_clients.emplace_back(std::move(client));
    m_tasks.push_back(Task{&c});
    m_changed.notify_one();
}

void Parts::outerDone()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_outerDone = true;
    m_changed.notify_all();
}

void Parts::failed()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_failed = true;
    m_changed.notify_all();
}

void Parts::addChunkTasks(Client &c)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const auto &[span, base] : c.spans) {
        std::size_t at = base;
        for (std::size_t k = m_spans[span].first; k < m_spans[span].last; ++k) {
            m_tasks.push_back(Task{&c, k, at});
            at += m_chunks[k].actions;
        }
    }
    m_changed.notify_all();
}

void Parts::moveInto(Scenario &s)
{
    for (Client &c : m_clients)
        s.clients[c.client].actions = std::move(c.list);
}

// Cuts from the first client's actions on (what comes before them is rarely long and often
// has "}, {" of its own, between storages, say): a cut there would make an inner chunk the
// outer reader meets outside the actions, and the file would be read again alone.
void Parts::cut(std::size_t chunkBytes)
{
    const std::size_t actions = std::string_view(m_data, m_size).find("\"actions\"");
    if (actions == std::string_view::npos)
        return;
    std::vector<std::pair<std::size_t, std::size_t>> cuts; // a "{" and the comma before it
    std::size_t comma = 0;
    for (std::size_t begin = nextCut(actions + chunkBytes, &comma); begin != std::string_view::npos;
         begin = nextCut(begin + chunkBytes, &comma))
        cuts.emplace_back(begin, comma);
    // a chunk from each cut to the comma of the next; the rest of the file after the last
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k)
        m_chunks.push_back(Chunk{cuts[k].first, cuts[k + 1].second, 0, false});
    if (!cuts.empty())
        m_lastBegin = cuts.back().first;
}

// The first "{" at or after `from` that follows a "}," (white space around the comma
// allowed), with the comma's place; npos when there is none.
std::size_t Parts::nextCut(std::size_t from, std::size_t *comma) const
{
    using ScenarioFormat::isSpace;
    while (from < m_size) {
        const void *found = std::memchr(m_data + from, ',', m_size - from);
        if (!found)
            return std::string_view::npos;
        const auto at = std::size_t(static_cast<const char *>(found) - m_data);
        std::size_t before = at;
        while (before > 0 && isSpace(m_data[before - 1]))
            --before;
        std::size_t after = at + 1;
        while (after < m_size && isSpace(m_data[after]))
            ++after;
        if (before > 0 && m_data[before - 1] == '}' && after < m_size && m_data[after] == '{') {
            *comma = at;
            return after;
        }
        from = at + 1;
    }
    return std::string_view::npos;
}

std::size_t Parts::outerSize() const
{
    std::size_t inner = 0;
    for (std::size_t k = 0; k < m_chunks.size(); ++k)
        if (m_chunks[k].inner)
            inner +=
                (k + 1 < m_chunks.size() ? m_chunks[k + 1].begin : m_lastBegin) - m_chunks[k].begin;
    return m_size - inner;
}

} // namespace Core::FastLoad
