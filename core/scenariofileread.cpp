// The scenario reader: one pass of simdjson's On-Demand parser over the document builds the
// Scenario and checks it, key by key, in file order (scenariofilevalues.h reads each value).
// A large file is read by the same reader in parts, on several threads (readScenarioInParts,
// docs/ARCHITECTURE.md "The loader"): the threads read chunks of actions, the reader the rest.
// Over 600 lines: it is one class, the reader, whose order of reading is the order in which
// problems are found and named, and splitting it would scatter that order over files; the
// chunks and the threads that read them (Parts, ChunkReader) are what the reader's
// readOuterActions() and readChunk() meet, so they sit beside it.

#include "scenariofileread.h"

#include "chunkscan.h"
#include "lockoptionsfile.h"
#include "scenariofilekeys.h"
#include "scenariofilevalues.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace Core::ScenarioFormat {
namespace {

// Strings that repeat (write values, mostly "x" or "ok") share one QString.
class StringCache
{
public:
    QString get(std::string_view s)
    {
        if (s.size() > kShort)
            return toQString(s);
        for (Entry &e : m_entries)
            if (e.bytes == s)
                return e.text;
        Entry &slot = m_entries[m_next++ % m_entries.size()];
        slot.bytes.assign(s);
        slot.text = toQString(s);
        return slot.text;
    }

private:
    static constexpr std::size_t kShort = 32;
    struct Entry
    {
        std::string bytes{"\xff"}; // matches no valid UTF-8
        QString text;
    };
    std::array<Entry, 8> m_entries;
    std::size_t m_next = 0;
};

// A large file read in parts (readScenarioInParts): where it was cut, the chunks between the
// cuts, and the work the threads share. A cut is a guess: the place after a "}," (and white
// space) that a "{" follows, as between two actions. Each chunk is parsed on its own as an
// array ("[" + chunk + "]"); the ones that parse as a run of whole actions ("inner" chunks) are
// left out of the outer document, which is the file without them. The outer reader, reading
// the outer document from its start, proves each cut right: where a run of inner chunks was
// left out, it must meet an action of a client's list at the very place. Parsed from a place
// known to lie between two actions, an inner chunk that reads as whole actions ends between two
// actions too, so the next cut is right as well, and the outer document read on from there is
// the file as it is. The outer reader gives each client's list to the threads once it knows
// its length (Client); they make the list and read the client's chunks into their slots.
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

    Parts(const char *data, std::size_t size, std::size_t chunkBytes, bool keep)
        : m_data(data), m_size(size), m_keep(keep)
    {
        cut(std::max<std::size_t>(chunkBytes, 1));
    }

    const char *data() const { return m_data; }
    bool keep() const { return m_keep; }
    std::vector<Chunk> &chunks() { return m_chunks; }

    // Phase 1, on every thread: the next chunk not yet looked at, or null.
    Chunk *nextToClassify()
    {
        const std::size_t i = m_nextChunk.fetch_add(1);
        return i < m_chunks.size() && !m_failed.load() ? &m_chunks[i] : nullptr;
    }
    void classified(std::size_t n)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_classified += n;
        m_changed.notify_all();
    }
    void awaitClassified()
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_changed.wait(lock, [&] { return m_failed || m_classified >= m_chunks.size(); });
    }

    // The outer document: the file without the inner chunks, with the spans where they were,
    // followed by SIMDJSON_PADDING bytes. Empty (the file itself is the outer document) when no
    // chunk is inner.
    std::string_view buildOuter()
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

    // The outer reader met an action at `at` (its offset in the outer document), the
    // client's `count`-th: the spans left out just before it belong to the client from there.
    // Returns the count with their actions.
    std::size_t spansBefore(std::size_t at, std::size_t count,
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
    // The actions of the inner chunks.
    std::size_t spanActions() const
    {
        std::size_t n = 0;
        for (const Span &span : m_spans)
            n += span.actions;
        return n;
    }
    // Every span was met where it should be.
    void checkSpansMet() const
    {
        if (m_nextSpan != m_spans.size())
            throw Abandoned{};
    }

    // The outer reader read a client's actions: the threads make its list and read its chunks.
    void publish(Client &&client, const std::vector<std::string> &storageUtf8,
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
    const std::vector<std::string> &storageUtf8() const { return m_storageUtf8; }
    const std::vector<StorageSpec> &storages() const { return m_storages; }

    // The outer reader is done: no more clients come.
    void outerDone()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_outerDone = true;
        m_changed.notify_all();
    }
    void failed()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_failed = true;
        m_changed.notify_all();
    }
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
    void addChunkTasks(Client &c)
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

    // When every part is done.
    void moveInto(Scenario &s)
    {
        for (Client &c : m_clients)
            s.clients[c.client].actions = std::move(c.list);
    }

private:
    // Cuts from the first client's actions on (what comes before them is rarely long and often
    // has "}, {" of its own, between storages, say): a cut there would make an inner chunk the
    // outer reader meets outside the actions, and the file would be read again alone.
    void cut(std::size_t chunkBytes)
    {
        const std::size_t actions = std::string_view(m_data, m_size).find("\"actions\"");
        if (actions == std::string_view::npos)
            return;
        std::vector<std::pair<std::size_t, std::size_t>> cuts; // a "{" and the comma before it
        std::size_t comma = 0;
        for (std::size_t begin = nextCut(actions + chunkBytes, &comma);
             begin != std::string_view::npos; begin = nextCut(begin + chunkBytes, &comma))
            cuts.emplace_back(begin, comma);
        // a chunk from each cut to the comma of the next; the rest of the file after the last
        for (std::size_t k = 0; k + 1 < cuts.size(); ++k)
            m_chunks.push_back(Chunk{cuts[k].first, cuts[k + 1].second, 0, false});
        if (!cuts.empty())
            m_lastBegin = cuts.back().first;
    }

    // The first "{" at or after `from` that follows a "}," (white space around the comma
    // allowed), with the comma's place; npos when there is none.
    std::size_t nextCut(std::size_t from, std::size_t *comma) const
    {
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

    std::size_t outerSize() const
    {
        std::size_t inner = 0;
        for (std::size_t k = 0; k < m_chunks.size(); ++k)
            if (m_chunks[k].inner)
                inner += (k + 1 < m_chunks.size() ? m_chunks[k + 1].begin : m_lastBegin) -
                         m_chunks[k].begin;
        return m_size - inner;
    }

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

// Reads the scenario from the document, in file order: the format version is checked before
// anything else is read, and the storages before the clients that name them; where a file puts
// them later, the parser goes back for what it skipped. Each action goes to the tally as it is
// read; for a check, the actions are read one by one into its scratch action and left out of the
// scenario.
class Loader
{
public:
    // With `parts`, this reads the outer document of a file read in parts (at `outer`).
    Loader(const FileLimits &limits, ActionTally &tally, bool keepActions,
           Parts *parts = nullptr, const char *outer = nullptr)
        : m_limits(limits), m_tally(tally), m_keep(keepActions), m_parts(parts), m_outer(outer)
    {
    }

    // A chunk of a file read in parts, `array`: `count` actions of the client, from its
    // `base`-th on, read into their slots of `list` (null for a check).
    void readChunk(std::size_t client, std::size_t base, std::size_t count, od::array &array,
                   std::vector<Action> *list, const Parts &parts)
    {
        if (m_storageNames != &parts.storages()) { // (the same for every chunk: copied once)
            m_storageUtf8 = parts.storageUtf8();
            // (as a plain action names them: quoted; a name with a quote or a backslash in it
            // is escaped there, and matches no plain one)
            m_storageQuoted.clear();
            for (const std::string &name : m_storageUtf8)
                m_storageQuoted.push_back(name.find_first_of("\"\\") == name.npos ? '"' + name + '"'
                                                                                  : std::string());
            m_storageNames = &parts.storages();
        }
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
                if (readPlainAction(o, a))
                    continue;
            }
            if (!a) {
                a = &m_tally.scratch;
                clear(*a);
            }
            if (object) {
                get(o.reset()); // read again, in full, from its first key
                readActionObject(client, index, o, *a);
            } else {
                readAction(client, index, e, *a); // (which words what it is instead)
            }
            m_tally.add(client, index, *a);
        }
        if (j != count)
            throw Parts::Abandoned{};
    }

    // The actions read so far, over all clients (kept or tallied).
    std::size_t actionCount() const { return m_actions; }

    Scenario read(od::document &doc)
    {
        Scenario s;
        std::vector<bool> done;
        bool versionOk = false;
        bool storagesDone = false;
        bool clientsSeen = false;
        std::array<int, kKeys> seen{};
        for (int pass = 0;; ++pass) {
            if (pass > 0)
                doc.rewind();
            od::object root = get(doc.get_object());
            std::size_t index = 0;
            bool left = false;
            for (auto member : root) {
                od::field field = get(std::move(member));
                const std::size_t i = index++;
                if (pass == 0)
                    done.push_back(false);
                if (done[i])
                    continue;
                std::string_view unknown;
                const Key k = keyOf(field, kRootKeys, &unknown);
                if (pass == 0 && k != Key::Unknown && ++seen[std::size_t(k)] > 1)
                    duplicate(keyName(k));
                const bool ready = k == Key::Fencescope ||
                                   (versionOk && (k != Key::Clients || storagesDone ||
                                                  (pass > 0 && !seen[std::size_t(Key::Storages)])));
                if (!ready) {
                    left = true;
                    continue;
                }
                done[i] = true;
                od::value v = field.value();
                switch (k) {
                case Key::Fencescope:
                    checkVersion(readToken(v, 2, m_limits));
                    versionOk = true;
                    break;
                case Key::Title:
                    s.title = optionalString(v, Key::Title);
                    break;
                case Key::Description:
                    s.description = optionalString(v, Key::Description);
                    break;
                case Key::Horizon:
                    s.horizon = integer(
                        readToken(v, 2, m_limits), [] { return QStringLiteral("horizon"); }, true);
                    break;
                case Key::Fencing: {
                    const Token t = readToken(v, 2, m_limits);
                    if (t.type != od::json_type::boolean)
                        fail(QStringLiteral("fencing"),
                             QStringLiteral("must be true or false, not %1").arg(typeName(t.type)));
                    s.fencing = t.boolean;
                    break;
                }
                case Key::Lock:
                    readLock(v, s);
                    break;
                case Key::Storages:
                    readStorages(v, s);
                    storagesDone = true;
                    break;
                case Key::Clients:
                    readClients(v, s);
                    clientsSeen = true;
                    break;
                default:
                    keep(s.extra, toQString(unknown), v, 2, QString());
                    break;
                }
            }
            const char *trailing = nullptr;
            if (pass == 0 && doc.current_location().get(trailing) != simdjson::OUT_OF_BOUNDS)
                throw Malformed{}; // something after the document
            if (!versionOk)
                fail(QStringLiteral("fencescope"),
                     QStringLiteral("missing: this is not a FenceScope scenario file (expected "
                                    "\"fencescope\": 1)"));
            if (!left)
                break;
            if (pass > 3)
                throw Malformed{}; // not reachable: each pass reads what the last one left
        }
        if (!clientsSeen)
            fail(QStringLiteral("clients"),
                 QStringLiteral("missing: a scenario needs at least one client"));
        return s;
    }

private:
    void checkVersion(const Token &version)
    {
        if (version.type != od::json_type::number || version.number.toDouble() != 1.0)
            fail(QStringLiteral("fencescope"),
                 QStringLiteral("unsupported format version %1 (this FenceScope reads version 1)")
                     .arg(version.describe()));
    }

    QString optionalString(od::value v, Key key)
    {
        const Token t = readToken(v, 2, m_limits);
        if (t.type != od::json_type::string)
            fail(keyName(key), QStringLiteral("must be a string, not %1").arg(typeName(t.type)));
        return toQString(t.text);
    }

    // An unknown key, kept with its value.
    void keep(QJsonObject &extra, const QString &key, od::value v, int depth, const QString &place)
    {
        const PathStep top{nullptr, &place, 0};
        const PathStep step{place.isEmpty() ? nullptr : &top, &key, 0};
        if (extra.contains(key))
            duplicate(pathText(&step));
        extra.insert(key, toJson(v, depth, m_limits, &step));
    }

    // The object's members: f(Key, value) for known keys (each at most once), kept otherwise.
    template <typename Place, typename F>
    void members(od::value v, KeySet set, int depth, QJsonObject &extra, Place place, F f)
    {
        enter(depth, m_limits);
        od::object object = get(v.get_object());
        members(object, set, depth, extra, place, f);
    }
    template <typename Place, typename F>
    void members(od::object &object, KeySet set, int depth, QJsonObject &extra, Place place, F f)
    {
        enter(depth, m_limits);
        KeySet seen = 0;
        for (auto member : object) {
            if (const simdjson::error_code e = member.error())
                throw Malformed{e};
            od::field &field = member.value_unsafe(); // (in place: a copy cost a stall a key)
            std::string_view unknown;
            const Key k = keyOf(field, set, &unknown);
            if (k == Key::Unknown) {
                keep(extra, toQString(unknown), field.value(), depth + 1, place());
                continue;
            }
            const KeySet bit = KeySet(1) << std::size_t(k);
            if (seen & bit)
                duplicate(join(place(), k));
            seen |= bit;
            f(k, field.value());
        }
    }

    // Calls read(i, element) for each element while the count is within `limit`; past it,
    // elements are only counted. Returns the count.
    template <typename Read>
    std::size_t elements(od::value v, int depth, std::size_t limit, Read read)
    {
        enter(depth, m_limits);
        std::size_t count = 0;
        for (auto element : get(v.get_array())) {
            od::value e = get(std::move(element));
            const std::size_t i = count++;
            if (count <= limit)
                read(i, e);
        }
        return count;
    }

    void readLock(od::value v, Scenario &s)
    {
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(QStringLiteral("lock"),
                 QStringLiteral("must be an object, not %1").arg(typeName(type)));
        Token tokens;
        members(
            v, kLockKeys, 2, s.lockExtra, [] { return QStringLiteral("lock"); },
            [&](Key, od::value value) { tokens = readToken(value, 3, m_limits); });
        if (tokens.present) {
            if (tokens.type != od::json_type::string)
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("must be a string, not %1").arg(typeName(tokens.type)));
            if (!tokenSourceFromString(toQString(tokens.text), &s.tokens)) {
                QStringList known;
                for (int i = 0; i < kTokenSourceCount; ++i)
                    known << toString(TokenSource(i));
                fail(QStringLiteral("lock.tokens"),
                     QStringLiteral("unknown token source \"%1\" (known: %2)")
                         .arg(toQString(tokens.text), known.join(QStringLiteral(", "))));
            }
        } else {
            s.tokens = TokenSource::Counter;
        }
        // the source's options stay in lockExtra for now: LockOptionsFile::take() reads them
        // once the whole file is in, knowing the source
    }

    void readStorages(od::value v, Scenario &s)
    {
        const QString place = QStringLiteral("storages");
        const od::json_type type = get(v.type());
        if (type != od::json_type::array)
            fail(place, QStringLiteral("must be an array, not %1").arg(typeName(type)));
        s.storages.clear();
        m_storageUtf8.clear();
        const std::size_t count = elements(
            v, 2, m_limits.maxStorages, [&](std::size_t i, od::value &e) { readStorage(i, e, s); });
        if (count == 0)
            fail(place, QStringLiteral("must list at least one storage (or be left out for the "
                                       "default \"db\")"));
        if (count > m_limits.maxStorages)
            fail(place, QStringLiteral("too many storages (%1; the limit is %2)")
                            .arg(count)
                            .arg(m_limits.maxStorages));
    }

    void readStorage(std::size_t i, od::value &v, Scenario &s)
    {
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(storagePlace(i), QStringLiteral("must be an object, not %1").arg(typeName(type)));
        Token nameToken;
        Token rule;
        Token check;
        Token maxToken;
        StorageSpec spec;
        members(
            v, kStorageKeys, 3, spec.extra, [i] { return storagePlace(i); },
            [&](Key k, od::value value) {
                switch (k) {
                case Key::Name:
                    nameToken = readToken(value, 4, m_limits);
                    break;
                case Key::Rule:
                    rule = readToken(value, 4, m_limits);
                    break;
                case Key::Check:
                    check = readToken(value, 4, m_limits);
                    break;
                case Key::MaxToken:
                    maxToken = readToken(value, 4, m_limits);
                    break;
                default: // Restarts
                    spec.restarts = ticks(value, 4, join(storagePlace(i), Key::Restarts));
                    break;
                }
            });
        spec.name = name(nameToken, storagePlace(i), false);
        if (s.storageIndex(spec.name) >= 0)
            fail(join(storagePlace(i), Key::Name),
                 QStringLiteral("duplicate storage name \"%1\"").arg(spec.name));
        if (rule.present) {
            const std::string_view r = rule.type == od::json_type::string ? rule.text : "";
            if (r == "lt")
                spec.rule = FenceRule::Lt;
            else if (r == "le")
                spec.rule = FenceRule::Le;
            else
                fail(join(storagePlace(i), Key::Rule),
                     QStringLiteral("must be \"lt\" or \"le\", not %1").arg(rule.describe()));
        }
        if (check.present) {
            const std::string_view c = check.type == od::json_type::string ? check.text : "";
            if (c == "token")
                spec.check = StorageCheck::Token;
            else if (c == "version")
                spec.check = StorageCheck::Version;
            else if (c == "owner")
                spec.check = StorageCheck::Owner;
            else if (c == "same")
                spec.check = StorageCheck::Same;
            else
                fail(join(storagePlace(i), Key::Check),
                     QStringLiteral("must be \"token\", \"version\", \"owner\" or \"same\", not %1")
                         .arg(check.describe()));
        }
        if (maxToken.present) {
            const std::string_view m = maxToken.type == od::json_type::string ? maxToken.text : "";
            if (m == "durable")
                spec.durable = true;
            else if (m == "volatile")
                spec.durable = false;
            else
                fail(join(storagePlace(i), Key::MaxToken),
                     QStringLiteral("must be \"durable\" or \"volatile\", not %1")
                         .arg(maxToken.describe()));
        }
        m_storageUtf8.emplace_back(nameToken.text);
        s.storages.push_back(std::move(spec));
    }

    QString name(const Token &v, const QString &place, bool client) const
    {
        if (!v.present)
            fail(join(place, Key::Name),
                 QStringLiteral("missing (every %1 needs a name)")
                     .arg(client ? QStringLiteral("client") : QStringLiteral("storage")));
        if (v.type != od::json_type::string)
            fail(join(place, Key::Name),
                 QStringLiteral("must be a string, not %1").arg(typeName(v.type)));
        QString n = toQString(v.text);
        if (n.trimmed().isEmpty())
            fail(join(place, Key::Name), QStringLiteral("must not be empty"));
        return n;
    }

    void readClients(od::value v, Scenario &s)
    {
        const QString place = QStringLiteral("clients");
        const od::json_type type = get(v.type());
        if (type != od::json_type::array)
            fail(place, QStringLiteral("must be an array, not %1").arg(typeName(type)));
        if (m_storageUtf8.empty()) // the default storage
            for (const StorageSpec &st : s.storages)
                m_storageUtf8.push_back(st.name.toStdString());
        m_storageNames = &s.storages;
        QHash<QString, std::size_t> seen;
        const std::size_t count =
            elements(v, 2, m_limits.maxClients,
                     [&](std::size_t i, od::value &e) { readClient(i, e, s, seen); });
        if (count == 0)
            fail(place, QStringLiteral("must list at least one client"));
        if (count > m_limits.maxClients)
            fail(place, QStringLiteral("too many clients (%1; the limit is %2)")
                            .arg(count)
                            .arg(m_limits.maxClients));
    }

    void readClient(std::size_t i, od::value &v, Scenario &s, QHash<QString, std::size_t> &seen)
    {
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(clientPlace(i), QStringLiteral("must be an object, not %1").arg(typeName(type)));
        Token nameToken;
        Client c;
        std::optional<Problem> held; // a wrong "actions" waits for the name's problems
        members(
            v, kClientKeys, 3, c.extra, [i] { return clientPlace(i); },
            [&](Key k, od::value value) {
                if (k == Key::Name) {
                    nameToken = readToken(value, 4, m_limits);
                    return;
                }
                if (k == Key::Clock) {
                    readClock(value, join(clientPlace(i), Key::Clock), c.clock);
                    return;
                }
                if (k == Key::Bypass) {
                    const Token t = readToken(value, 4, m_limits);
                    if (t.type != od::json_type::boolean)
                        fail(join(clientPlace(i), Key::Bypass),
                             QStringLiteral("must be true or false, not %1").arg(t.describe()));
                    c.bypass = t.boolean;
                    return;
                }
                const od::json_type t = get(value.type());
                if (t == od::json_type::array)
                    readActions(i, value, c.actions);
                else
                    held = Problem{join(clientPlace(i), Key::Actions) +
                                   QStringLiteral(": must be an array, not %1").arg(typeName(t))};
            });
        c.name = name(nameToken, clientPlace(i), true);
        const auto previous = seen.constFind(c.name);
        if (previous != seen.constEnd())
            fail(join(clientPlace(i), Key::Name),
                 QStringLiteral("duplicate client name \"%1\" (also clients[%2])")
                     .arg(c.name)
                     .arg(previous.value()));
        seen.insert(c.name, i);
        if (held)
            throw *held;
        s.clients.push_back(std::move(c));
    }

    // Fails naming the first key of `unknown`, which members() kept: an object of the format's
    // own (a clock, a clock step) has no room for keys of later versions.
    static void noUnknownKeys(const QJsonObject &unknown, const QString &place, const char *known)
    {
        if (!unknown.isEmpty())
            fail(place + QLatin1Char('.') + unknown.begin().key(),
                 QStringLiteral("unknown key (known: %1)").arg(QLatin1String(known)));
    }

    // A list of ticks, sorted (at one tick, one event is as good as many; the simulator reads
    // them in order).
    std::vector<Tick> ticks(od::value v, int depth, const QString &place)
    {
        if (get(v.type()) != od::json_type::array)
            fail(place, QStringLiteral("must be an array, not %1")
                            .arg(readToken(v, depth, m_limits).describe()));
        std::vector<Tick> out;
        const std::size_t limit = LockOptionsFile::kMaxScheduledTicks;
        const std::size_t count = elements(v, depth, limit, [&](std::size_t j, od::value &e) {
            out.push_back(integer(
                readToken(e, depth + 1, m_limits),
                [&] { return QStringLiteral("%1[%2]").arg(place).arg(j); }, false));
        });
        if (count > limit)
            fail(place,
                 QStringLiteral("too many entries (%1; the limit is %2)").arg(count).arg(limit));
        std::sort(out.begin(), out.end());
        return out;
    }

    // clients[i].clock: {"rate": r, "steps": [{"at": t, "by": d}, ...]}, both optional.
    void readClock(od::value v, const QString &place, ClientClock &clock)
    {
        if (get(v.type()) != od::json_type::object)
            fail(place, QStringLiteral("must be an object (rate, steps), not %1")
                            .arg(readToken(v, 4, m_limits).describe()));
        QJsonObject unknown;
        members(
            v, kClockKeys, 4, unknown, [&place] { return place; },
            [&](Key k, od::value value) {
                if (k == Key::Rate)
                    clock.rateMilli = rate(value, join(place, Key::Rate));
                else
                    clock.steps = clockSteps(value, join(place, Key::Steps));
            });
        noUnknownKeys(unknown, place, "rate, steps");
    }

    // A clock rate in thousandths, judged by the decimal text as written (a double would take
    // 0.1000000000000000001 for 0.1).
    std::uint32_t rate(od::value v, const QString &place)
    {
        if (get(v.type()) != od::json_type::number)
            fail(place, QStringLiteral("%1, not %2")
                            .arg(QLatin1String(kRateRule), readToken(v, 5, m_limits).describe()));
        readNumber(v); // the grammar: a syntax error is worded as one
        std::string_view text = v.raw_json_token();
        while (!text.empty() && isSpace(text.back()))
            text.remove_suffix(1);
        QString problem;
        const std::optional<std::uint32_t> milli = parseRateText(toQString(text), &problem);
        if (!milli)
            fail(place, problem);
        return *milli;
    }

    std::vector<ClockStep> clockSteps(od::value v, const QString &place)
    {
        if (get(v.type()) != od::json_type::array)
            fail(place, QStringLiteral("must be an array, not %1")
                            .arg(readToken(v, 5, m_limits).describe()));
        std::vector<ClockStep> out;
        const std::size_t limit = LockOptionsFile::kMaxClockSteps;
        const std::size_t count = elements(v, 5, limit, [&](std::size_t j, od::value &e) {
            const QString at = QStringLiteral("%1[%2]").arg(place).arg(j);
            if (get(e.type()) != od::json_type::object)
                fail(at, QStringLiteral("must be an object (at, by), not %1")
                             .arg(readToken(e, 6, m_limits).describe()));
            Token when;
            Token by;
            QJsonObject unknown;
            members(
                e, kStepKeys, 6, unknown, [&at] { return at; },
                [&](Key k, od::value value) {
                    (k == Key::At ? when : by) = readToken(value, 7, m_limits);
                });
            noUnknownKeys(unknown, at, "at, by");
            ClockStep step;
            step.at = required(
                when, [&] { return join(at, Key::At); }, false);
            step.by = signedInteger(by, join(at, Key::By));
            out.push_back(step);
        });
        if (count > limit)
            fail(place,
                 QStringLiteral("too many entries (%1; the limit is %2)").arg(count).arg(limit));
        // in order of `at`, as the simulator reads them; steps at one tick keep the file's order
        std::stable_sort(out.begin(), out.end(),
                         [](const ClockStep &a, const ClockStep &b) { return a.at < b.at; });
        return out;
    }

    void readActions(std::size_t client, od::value &v, std::vector<Action> &list)
    {
        const std::size_t room =
            m_actions < m_limits.maxActions ? m_limits.maxActions - m_actions : 0;
        enter(4, m_limits);
        od::array array = get(v.get_array());
        std::size_t count = 0;
        if (m_parts) {
            readOuterActions(client, array, room, count);
        } else if (!m_keep) {
            for (auto element : array) {
                od::value e = get(std::move(element));
                const std::size_t j = count++;
                if (count <= room) {
                    Action &a = m_tally.scratch;
                    clear(a);
                    readAction(client, j, e, a);
                    m_tally.add(client, j, a);
                }
            }
        } else {
            // Counted first, so the list is allocated once at its size, in huge pages and
            // populated, before anything is written there: growing it moved every action a
            // second time, into pages touched one 4 KiB fault at a time (on a virtual machine,
            // more than the reading).
            list.reserve(std::min(get(array.count_elements()), room));
            prepareMemory(list.data(), list.capacity() * sizeof(Action));
            for (auto element : array) {
                od::value e = get(std::move(element));
                const std::size_t j = count++;
                // built where it stays: a failed action fails the whole file anyway
                if (count <= room) {
                    Action &a = list.emplace_back();
                    readAction(client, j, e, a);
                    m_tally.add(client, j, a);
                }
            }
        }
        m_actions += count;
        if (m_actions > m_limits.maxActions)
            fail(join(clientPlace(client), Key::Actions),
                 QStringLiteral("too many actions (more than %1 in the file)")
                     .arg(m_limits.maxActions));
    }

    // A client's actions in the outer document of a file read in parts: the ones there are
    // read here, in a list of their own, and each span met before an action adds its
    // actions to the client's count (Parts::spansBefore); at the end the client goes to the
    // threads, which make its list and read the spans' chunks into it.
    void readOuterActions(std::size_t client, od::array &array, std::size_t room,
                          std::size_t &count)
    {
        Parts::Client job;
        job.client = client;
        for (auto element : array) {
            od::value e = get(std::move(element));
            const auto at = std::size_t(get(e.current_location()) - m_outer);
            count = m_parts->spansBefore(at, count, job.spans);
            const std::size_t j = count++;
            if (count > room)
                continue;
            Action *a = &m_tally.scratch;
            if (m_keep) {
                a = &job.held.emplace_back();
                job.heldAt.push_back(j);
            } else {
                clear(*a);
            }
            readAction(client, j, e, *a);
            m_tally.add(client, j, *a);
        }
        job.actions = count;
        if (count <= room)
            m_parts->publish(std::move(job), m_storageUtf8, *m_storageNames);
    }

    // The scratch action as a new one: copied from one made once (copying its empty texts and
    // kept keys costs nothing; making new ones is a call each, a million times).
    static void clear(Action &a)
    {
        static const Action fresh;
        a = fresh;
    }

    // An action of a chunk in the plain shape nearly every action of a large file has: "at" and
    // "do", then the keys of its kind (an acquire's ttl, a pause's for, a write's value,
    // storage and delay, a read's storage and delay), each once and spelled without escapes,
    // numbers as plain digits. Read into `a` (when given) and tallied without a Token for each
    // key; false, with `a` and the tally untouched, for anything else: the caller reads the
    // object again in full, which words any problem. (tst_scenariofilecheck compares reading
    // in chunks with reading alone, which never takes this path.)
    bool readPlainAction(od::object &o, Action *a)
    {
        if (m_limits.maxDepth < 5)
            return false;
        constexpr auto first = std::size_t(Key::At);
        const auto bit = [](Key k) { return 1u << (std::size_t(k) - first); };
        std::uint32_t seen = 0;
        Tick at = 0;
        Tick ttl = 0; // or the pause's length
        Tick delay = 0;
        ActionKind kind = ActionKind::Acquire;
        std::string_view value;
        std::uint32_t storageIndex = 0;
        for (auto member : o) {
            if (const simdjson::error_code e = member.error())
                throw Malformed{e};
            od::field &field = member.value_unsafe();
            const Key k = rawKey(field.key().raw());
            if (k < Key::At || k > Key::Delay || (seen & bit(k)))
                return false;
            seen |= bit(k);
            od::value &v = field.value(); // (in place: a copy of what was just stored stalls)
            switch (k) {
            case Key::Do:
                if (!plainKind(v.raw_json_token(), kind))
                    return false;
                get(v.get_raw_json_string()); // (consumed as a string, as readString() does)
                break;
            case Key::Value:
                if (*v.raw_json_token().data() != '"')
                    return false;
                value = readString(v);
                break;
            case Key::Storage: {
                const std::string_view token = withoutTrailingSpace(v.raw_json_token());
                while (storageIndex < m_storageQuoted.size() &&
                       m_storageQuoted[storageIndex] != token)
                    ++storageIndex;
                if (storageIndex == m_storageQuoted.size())
                    return false;
                get(v.get_raw_json_string());
                break;
            }
            default: {
                Tick &tick = k == Key::At ? at : k == Key::Delay ? delay : ttl;
                if (!plainTick(v.raw_json_token(), tick))
                    return false;
                break;
            }
            }
        }
        if (!(seen & bit(Key::At)) || !(seen & bit(Key::Do)))
            return false;
        const std::uint32_t rest = seen & ~(bit(Key::At) | bit(Key::Do));
        if (kind == ActionKind::Acquire || kind == ActionKind::Pause) {
            if (rest != bit(kind == ActionKind::Acquire ? Key::Ttl : Key::For) || ttl == 0)
                return false;
        } else if (kind == ActionKind::Release) {
            if (rest)
                return false;
        } else {
            const std::uint32_t needed = kind == ActionKind::Write ? bit(Key::Value) : 0;
            if ((rest & ~(bit(Key::Storage) | bit(Key::Delay))) != needed)
                return false;
            ttl = delay;
        }
        if (a) {
            a->at = at;
            a->kind = kind;
            a->amount = ttl;
            a->storage = storageIndex;
            if (kind == ActionKind::Write && m_keep)
                a->value = m_values.get(value);
        }
        m_tally.keepalives.addPlain(at, ttl);
        ++m_tally.plainInChunks;
        return true;
    }

    // The kind of action the token (a string and the whitespace after it) names, spelled
    // without escapes.
    static bool plainKind(std::string_view raw, ActionKind &out)
    {
        const std::string_view token = withoutTrailingSpace(raw);
        const auto is = [&](std::string_view quoted, ActionKind k) {
            if (token != quoted)
                return false;
            out = k;
            return true;
        };
        switch (token.size()) {
        case 9:
            return is("\"acquire\"", ActionKind::Acquire) || is("\"release\"", ActionKind::Release);
        case 7:
            return is("\"write\"", ActionKind::Write) || is("\"pause\"", ActionKind::Pause);
        case 6:
            return is("\"read\"", ActionKind::Read);
        default:
            return false;
        }
    }

    // A number of up to 16 digits without a leading zero (or a lone 0), then only whitespace:
    // what readNumber() reads as that integer, and integer() takes as a tick (2^53 has 16).
    static bool plainTick(std::string_view token, Tick &out)
    {
        const char *p = token.data();
        const char *end = p + token.size();
        Tick n = 0;
        if (p < end && *p == '0') {
            ++p;
        } else {
            const char *last = p + std::min<std::ptrdiff_t>(end - p, 16);
            if (p == last || *p < '1' || *p > '9')
                return false;
            while (p < last && *p >= '0' && *p <= '9')
                n = n * 10 + Tick(*p++ - '0');
        }
        while (p < end && isSpace(*p))
            ++p;
        if (p != end || n > kMaxFileInteger)
            return false;
        out = n;
        return true;
    }

    void readAction(std::size_t client, std::size_t index, od::value &v, Action &a)
    {
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(actionPlace(client, index),
                 QStringLiteral("must be an object, not %1").arg(typeName(type)));
        od::object object = get(v.get_object());
        readActionObject(client, index, object, a);
    }

    void readActionObject(std::size_t client, std::size_t index, od::object &v, Action &a)
    {
        const auto place = [client, index] { return actionPlace(client, index); };
        constexpr auto first = std::size_t(Key::At);
        // the fields are kept from one action to the next: each is overwritten when read
        auto &f = m_fields;
        for (Token &t : f)
            t.present = false;
        std::uint32_t read = 0; // the keys present, one bit each from "at" on
        // unknown keys go to the action only if there are any (most actions have none, and
        // then hold nothing for them)
        if (!m_unknown.isEmpty()) // (left over from an action that failed)
            m_unknown = QJsonObject();
        members(v, kActionKeys, 5, m_unknown, place, [&](Key k, od::value value) {
            const std::size_t i = std::size_t(k) - first;
            readToken(f[i], value, 6, m_limits, &m_containers[i]);
            read |= 1u << i;
        });
        if (!m_unknown.isEmpty())
            a.setExtra(std::exchange(m_unknown, QJsonObject()));
        const auto field = [&](Key k) -> const Token & { return f[std::size_t(k) - first]; };
        const auto at = [&](Key k) { return [&place, k] { return join(place(), k); }; };

        if (!field(Key::At).present)
            fail(join(place(), Key::At),
                 QStringLiteral("missing (every action needs the tick it happens at)"));
        a.at = integer(field(Key::At), at(Key::At), false);
        const Token &what = field(Key::Do);
        if (!what.present)
            fail(join(place(), Key::Do),
                 QStringLiteral("missing (one of acquire, release, pause, write, read)"));
        if (what.type != od::json_type::string)
            fail(join(place(), Key::Do),
                 QStringLiteral("must be a string, not %1").arg(typeName(what.type)));
        std::uint32_t known = 0; // of the keys after "do", those this kind of action has
        const auto bit = [](Key k) { return 1u << (std::size_t(k) - first); };
        if (what.text == "acquire") {
            a.kind = ActionKind::Acquire;
            a.amount = required(field(Key::Ttl), at(Key::Ttl), true);
            known = bit(Key::Ttl);
        } else if (what.text == "release") {
            a.kind = ActionKind::Release;
        } else if (what.text == "pause") {
            a.kind = ActionKind::Pause;
            a.amount = required(field(Key::For), at(Key::For), true);
            known = bit(Key::For);
        } else if (what.text == "write") {
            a.kind = ActionKind::Write;
            readWrite(field(Key::Value), place, a);
            readTarget(field(Key::Storage), field(Key::Delay), place, a);
            known = bit(Key::Value) | bit(Key::Storage) | bit(Key::Delay);
        } else if (what.text == "read") {
            a.kind = ActionKind::Read;
            if (field(Key::Value).present)
                fail(join(place(), Key::Value),
                     QStringLiteral("not on a read (a read learns a storage's version; it "
                                    "writes no value)"));
            readTarget(field(Key::Storage), field(Key::Delay), place, a);
            known = bit(Key::Storage) | bit(Key::Delay);
        } else {
            fail(join(place(), Key::Do),
                 QStringLiteral("unknown action \"%1\" (known: acquire, release, pause, write, "
                                "read)")
                     .arg(toQString(what.text)));
        }
        // sections 11 and 12: each key belongs to one kind of action and is refused elsewhere
        constexpr std::uint32_t kPitfallKeys =
            1u << (std::size_t(Key::Keepalive) - first) | 1u << (std::size_t(Key::Check) - first) |
            1u << (std::size_t(Key::Gap) - first) | 1u << (std::size_t(Key::Group) - first);
        if (read & kPitfallKeys)
            readPitfallKeys(field(Key::Keepalive), field(Key::Check), field(Key::Gap),
                            field(Key::Group), place, a);
        // v1 keys of other kinds of action are unknown keys here, kept like any other
        if (read & ~known & ~(bit(Key::At) | bit(Key::Do)) & ~kPitfallKeys)
            for (auto k = std::size_t(Key::Ttl); k <= std::size_t(Key::Delay); ++k)
                if (!(known & bit(Key(k))) && field(Key(k)).present)
                    a.editExtra().insert(keyName(Key(k)), field(Key(k)).toJson());
    }

    // An acquire's keepalive; a write's check, gap and group.
    template <typename Place>
    void readPitfallKeys(const Token &keepalive, const Token &check, const Token &gap,
                         const Token &group, Place place, Action &a)
    {
        const auto only = [&](Key k, ActionKind kind, const char *why) {
            const QString here = toString(a.kind);
            const bool vowel = a.kind == ActionKind::Acquire;
            fail(join(place(), k),
                 QStringLiteral("only on %1 (%2), not on %3 %4")
                     .arg(kind == ActionKind::Acquire ? QStringLiteral("an acquire")
                                                      : QStringLiteral("a write"),
                          QLatin1String(why), vowel ? QStringLiteral("an") : QStringLiteral("a"),
                          here));
        };
        if (keepalive.present) {
            if (a.kind != ActionKind::Acquire)
                only(Key::Keepalive, ActionKind::Acquire, "it renews the lease that acquire gets");
            a.setKeepalive(integer(
                keepalive, [&] { return join(place(), Key::Keepalive); }, true));
        }
        if (check.present) {
            if (a.kind != ActionKind::Write)
                only(Key::Check, ActionKind::Write, "the client checks its lease before writing");
            if (check.type != od::json_type::boolean)
                fail(join(place(), Key::Check),
                     QStringLiteral("must be true or false, not %1").arg(check.describe()));
            a.check = check.boolean;
        }
        if (gap.present) {
            if (a.kind != ActionKind::Write)
                only(Key::Gap, ActionKind::Write, "the ticks between a write's check and its send");
            if (!a.check)
                fail(join(place(), Key::Gap), QStringLiteral("only with \"check\": true"));
            a.setGap(integer(
                gap, [&] { return join(place(), Key::Gap); }, false));
        }
        if (group.present) {
            if (a.kind != ActionKind::Write)
                only(Key::Group, ActionKind::Write, "one update across storages");
            if (group.type != od::json_type::string || group.text.empty())
                fail(join(place(), Key::Group),
                     QStringLiteral("must be a non-empty string, not %1").arg(group.describe()));
            if (m_keep) // a check keeps no text of an action
                a.setGroup(m_values.get(group.text));
        }
    }

    template <typename Place> void readWrite(const Token &value, Place place, Action &a)
    {
        if (!value.present)
            fail(join(place(), Key::Value),
                 QStringLiteral("missing (a write needs the value it writes)"));
        if (value.type != od::json_type::string)
            fail(join(place(), Key::Value),
                 QStringLiteral("must be a string, not %1").arg(typeName(value.type)));
        if (m_keep) // a check keeps no text of an action
            a.value = m_values.get(value.text);
    }

    // A write's or a read's storage (the first one when left out) and network delay.
    template <typename Place>
    void readTarget(const Token &storage, const Token &delay, Place place, Action &a)
    {
        if (storage.present) {
            if (storage.type != od::json_type::string)
                fail(join(place(), Key::Storage),
                     QStringLiteral("must be a storage name, not %1").arg(typeName(storage.type)));
            std::size_t found = 0;
            while (found < m_storageUtf8.size() && m_storageUtf8[found] != storage.text)
                ++found;
            if (found == m_storageUtf8.size())
                fail(join(place(), Key::Storage),
                     QStringLiteral("unknown storage \"%1\" (known: %2)")
                         .arg(toQString(storage.text), storageNames()));
            a.storage = std::uint32_t(found);
        }
        if (delay.present)
            a.amount = integer(
                delay, [&] { return join(place(), Key::Delay); }, false);
    }

    // In file order, so the message is the same on every run.
    QString storageNames() const
    {
        QStringList names;
        for (const StorageSpec &st : *m_storageNames)
            names << st.name;
        return names.join(QLatin1String(", "));
    }

    const FileLimits &m_limits;
    ActionTally &m_tally;
    const bool m_keep;
    Parts *const m_parts;     // null unless this reads the outer document of a file in parts
    const char *const m_outer; // (that document)
    QJsonObject m_unknown;            // readAction()'s unknown keys of the action
    std::vector<std::string> m_storageUtf8; // the storages' names as the file spells them
    std::vector<std::string> m_storageQuoted; // (of a file read in parts, readPlainAction())
    const std::vector<StorageSpec> *m_storageNames = nullptr;
    std::size_t m_actions = 0;
    StringCache m_values;
    std::array<Token, std::size_t(Key::Group) - std::size_t(Key::At) + 1> m_fields;
    std::array<QJsonValue, std::size_t(Key::Group) - std::size_t(Key::At) + 1> m_containers;
};

} // namespace

Scenario readScenario(od::document &doc, const FileLimits &limits, ActionTally &tally,
                      bool keepActions)
{
    Loader loader(limits, tally, keepActions);
    Scenario s = loader.read(doc);
    tally.actions = loader.actionCount();
    return s;
}

namespace {

// What a thread of a file read in parts keeps from chunk to chunk: a parser and a buffer that
// fit a chunk (their pages stay warm, where a parser of the whole file had to fault in 4 bytes
// of index for each byte of it), and its tally.
class ChunkReader
{
public:
    ChunkReader(Parts &parts, od::parser &parser, const FileLimits &limits)
        : m_parts(parts), m_parser(parser), m_loader(limits, tally, parts.keep())
    {
    }

    ActionTally tally;

    // Phase 1: each chunk not yet looked at, counted: inner if it is a run of array elements
    // whose first is an object with a "do" key (an action, not a storage or a clock step).
    void classifyAll()
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

    void classify(Parts::Chunk &chunk)
    {
        // a look at the bytes says most (chunkscan.h); with a backslash in them, the parser
        const ChunkScan scan = scanChunk(
            std::string_view(m_parts.data() + chunk.begin, chunk.end - chunk.begin));
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

    // Nothing follows the document's value.
    static bool atEnd(od::document &doc)
    {
        const char *trailing = nullptr;
        return doc.current_location().get(trailing) == simdjson::OUT_OF_BOUNDS;
    }

    void run(const Parts::Task &task)
    {
        Parts::Client &c = *task.client;
        if (task.chunk == SIZE_MAX) { // the client's list, at its full length
            if (m_parts.keep()) {
                c.list.reserve(c.actions);
                // (populated in one call: its unaligned ends were 3,000 faults of 4 KiB at 1M)
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
        m_loader.readChunk(c.client, task.base, chunk.actions, array,
                           m_parts.keep() ? &c.list : nullptr, m_parts);
        if (!atEnd(doc))
            throw Parts::Abandoned{};
    }

private:
    // "[" + the chunk + "]", and the padding simdjson reads past it
    simdjson::simdjson_result<od::document> parse(const Parts::Chunk &chunk)
    {
        const std::size_t n = chunk.end - chunk.begin;
        if (m_buffer.size() < n + 2 + simdjson::SIMDJSON_PADDING)
            m_buffer.resize(n + 2 + simdjson::SIMDJSON_PADDING);
        m_buffer[0] = '[';
        std::memcpy(m_buffer.data() + 1, m_parts.data() + chunk.begin, n);
        m_buffer[n + 1] = ']';
        return m_parser.iterate(m_buffer.data(), n + 2, m_buffer.size());
    }

    static bool isAction(od::value &v)
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

    Parts &m_parts;
    od::parser &m_parser;
    Loader m_loader;
    std::vector<char> m_buffer;
};

} // namespace

std::optional<Scenario> readScenarioInParts(od::parser &parser, const char *data, std::size_t size,
                                            const FileLimits &limits, ActionTally &tally,
                                            bool keepActions, int parts, std::size_t chunkBytes)
{
    Parts shared(data, size, chunkBytes, keepActions);
    const auto count = std::size_t(std::max(parts, 1));
    std::deque<od::parser> parsers; // the helpers' (this thread's is the caller's)
    std::deque<ChunkReader> readers;
    readers.emplace_back(shared, parser, limits);
    std::vector<std::thread> helpers;
    try {
        for (std::size_t i = 1; i < count; ++i)
            readers.emplace_back(shared, parsers.emplace_back(), limits);
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
        Loader loader(limits, outerTally, keepActions, &shared, begin);
        s = loader.read(doc);
        shared.checkSpansMet();
        actions = loader.actionCount();
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

} // namespace Core::ScenarioFormat
