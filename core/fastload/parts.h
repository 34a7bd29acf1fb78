#pragma once

// A large file read in parts (fastload.h): where it was cut, the chunks between the cuts, and
// the work the threads share; and the reader as the parts use it (PartReader). This header is
// all the scenario reader (scenariofileread.cpp) knows of the parts, and PartReader all the
// parts know of the reader. Internal to the core.

#include "scenario.h"
#include "scenariofile.h"
#include "scenariofileread.h"

#include <simdjson.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Core::FastLoad {

namespace od = simdjson::ondemand;
using ScenarioFormat::ActionTally;

class Parts;

// The scenario reader as a file read in parts uses it: one reads the outer document, one on
// each thread reads the actions of chunks that are not in the plain shape (plainshape.h).
// Made by the reader's own file (ScenarioFormat::partReader), so the parts need not know it.
class PartReader
{
public:
    virtual ~PartReader() = default;
    // The outer document, read as any file is; a client's actions there go to the parts
    // (Parts::spansBefore, Parts::publish).
    virtual Scenario read(od::document &doc) = 0;
    // The actions read so far, over all clients (kept or tallied).
    virtual std::size_t actionCount() const = 0;
    // Before a chunk's first action: the storages the outer reader read.
    virtual void useStorages(const std::vector<std::string> &utf8,
                             const std::vector<StorageSpec> &storages) = 0;
    // An action of a chunk, read in full as reading alone reads it, which words any problem:
    // an element (`readAction`), or an object read again from its first key.
    virtual void readAction(std::size_t client, std::size_t index, od::value &v, Action &a) = 0;
    virtual void readActionObject(std::size_t client, std::size_t index, od::object &o,
                                  Action &a) = 0;
    // A write's value as the reader keeps it (strings that repeat share one QString).
    virtual QString text(std::string_view s) = 0;
};

// Makes a reader that adds its actions to `tally`; with `outer`, the reader of the outer
// document at `outerBegin`.
using MakePartReader = std::unique_ptr<PartReader> (*)(const FileLimits &limits, ActionTally &tally,
                                                       bool keepActions, Parts *outer,
                                                       const char *outerBegin);

// A cut is a guess: the place after a "}," (and white space) that a "{" follows, as between
// two actions. Each chunk is parsed on its own as an array ("[" + chunk + "]"); the ones that
// parse as a run of whole actions ("inner" chunks) are left out of the outer document, which is
// the file without them. The outer reader, reading the outer document from its start, proves
// each cut right: where a run of inner chunks was left out, it must meet an action of a
// client's list at the very place. Parsed from a place known to lie between two actions, an
// inner chunk that reads as whole actions ends between two actions too, so the next cut is
// right as well, and the outer document read on from there is the file as it is. The outer
// reader gives each client's list to the threads once it knows its length (Client); they make
// the list and read the client's chunks into their slots.
class Parts
{
public:
    // A part failed, or a cut was not where the outer reader found an action: every part stops.
    struct Abandoned
    {
    };

    struct Chunk
    {
        std::size_t begin = 0; // its first action's "{"
        std::size_t end = 0;   // the comma after its last action
        std::size_t actions = 0;
        bool inner = false; // a run of whole actions (as far as the count can tell)
    };
    // Where a run of inner chunks was left out: the offset in the outer document of the action
    // after them, and the chunks [first, last).
    struct Span
    {
        std::size_t at = 0;
        std::size_t first = 0;
        std::size_t last = 0;
        std::size_t actions = 0;
    };
    // A client the outer reader read to its end: its list's length, the actions the outer
    // document held (and their places in the list), and its spans (with their first places).
    struct Client
    {
        std::size_t client = 0;
        std::size_t actions = 0;
        std::vector<Action> held;
        std::vector<std::size_t> heldAt;
        std::vector<std::pair<std::size_t, std::size_t>> spans;
        std::vector<Action> list;
    };
    struct Task
    {
        Client *client = nullptr;
        std::size_t chunk = SIZE_MAX; // SIZE_MAX: make the client's list
        std::size_t base = 0;
    };

    Parts(const char *data, std::size_t size, std::size_t chunkBytes, bool keep);

    const char *data() const { return m_data; }
    bool keep() const { return m_keep; }
    std::vector<Chunk> &chunks() { return m_chunks; }

    // Phase 1, on every thread: the next chunk not yet looked at, or null.
    Chunk *nextToClassify();
    void classified(std::size_t n);
    void awaitClassified();

    // The outer document: the file without the inner chunks, with the spans where they were,
    // followed by SIMDJSON_PADDING bytes. Empty (the file itself is the outer document) when no
    // chunk is inner.
    std::string_view buildOuter();

    // The outer reader met an action at `at` (its offset in the outer document), the
    // client's `count`-th: the spans left out just before it belong to the client from there.
    // Returns the count with their actions.
    std::size_t spansBefore(std::size_t at, std::size_t count,
                            std::vector<std::pair<std::size_t, std::size_t>> &out);
    // The actions of the inner chunks.
    std::size_t spanActions() const;
    // Every span was met where it should be.
    void checkSpansMet() const;

    // The outer reader read a client's actions: the threads make its list and read its chunks.
    void publish(Client &&client, const std::vector<std::string> &storageUtf8,
                 const std::vector<StorageSpec> &storages);
    const std::vector<std::string> &storageUtf8() const { return m_storageUtf8; }
    const std::vector<StorageSpec> &storages() const { return m_storages; }

    // The outer reader is done: no more clients come.
    void outerDone();
    void failed();
    bool hasFailed() const { return m_failed.load(); }

    // Runs tasks until there are none and none can come (or a part failed). `run(task)` may
    // add tasks (a client's list made, its chunks follow).
    template <typename Run> void work(Run run)
    {
        for (;;) {
            Task task;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_changed.wait(lock, [&] {
                    return m_failed || !m_tasks.empty() || (m_outerDone && m_active == 0);
                });
                if (m_failed || m_tasks.empty())
                    return;
                task = m_tasks.front();
                m_tasks.pop_front();
                ++m_active;
            }
            try {
                run(task);
            } catch (...) { // Problem, Malformed, bad_alloc, Abandoned
                failed();
            }
            std::lock_guard<std::mutex> lock(m_mutex);
            --m_active;
            if (m_active == 0 && m_tasks.empty())
                m_changed.notify_all();
        }
    }
    // A made list's chunks, each from its place in the list.
    void addChunkTasks(Client &c);

    // When every part is done.
    void moveInto(Scenario &s);

private:
    void cut(std::size_t chunkBytes);
    std::size_t nextCut(std::size_t from, std::size_t *comma) const;
    std::size_t outerSize() const;

    const char *const m_data;
    const std::size_t m_size;
    const bool m_keep;
    std::vector<Chunk> m_chunks;
    std::size_t m_lastBegin = 0;
    std::atomic<std::size_t> m_nextChunk{0};
    std::vector<char> m_outer;
    std::vector<Span> m_spans;
    std::size_t m_nextSpan = 0; // (the outer reader's)
    std::vector<std::string> m_storageUtf8;
    std::vector<StorageSpec> m_storages;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::size_t m_classified = 0;
    std::deque<Client> m_clients; // (a deque: a client's place stays while others are added)
    std::deque<Task> m_tasks;
    std::size_t m_active = 0;
    bool m_outerDone = false;
    std::atomic<bool> m_failed{false};
};

} // namespace Core::FastLoad
