// The scenario reader: one pass of simdjson's On-Demand parser over the document builds the
// Scenario and checks it, key by key, in file order (scenariofilevalues.h reads each value).
// A large file is read by the same reader in parts, on several threads (fastload/, behind
// FastLoad::read): there the reader reads the outer document and hands each client's list to
// the parts (readOuterActions), and reads in full the chunks' actions that are not in the plain
// shape; fastload/parts.h is all it knows of them, PartReader all they know of it.
// Over 600 lines: it is one class, the reader, whose order of reading is the order in which
// problems are found and named, and splitting it would scatter that order over files.

#include "scenariofileread.h"

#include "fastload/parts.h"
#include "lockoptionsfile.h"
#include "scenariofilekeys.h"
#include "scenariofilevalues.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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

// Reads the scenario from the document, in file order: the format version is checked before
// anything else is read, and the storages before the clients that name them; where a file puts
// them later, the parser goes back for what it skipped. Each action goes to the tally as it is
// read; for a check, the actions are read one by one into its scratch action and left out of the
// scenario. In a file read in parts, it is the PartReader of the outer document, or of a
// thread's chunks.
class Loader final : public FastLoad::PartReader
{
public:
    // With `parts`, this reads the outer document of a file read in parts (at `outer`).
    Loader(const FileLimits &limits, ActionTally &tally, bool keepActions,
           FastLoad::Parts *parts = nullptr, const char *outer = nullptr)
        : m_limits(limits), m_tally(tally), m_keep(keepActions), m_parts(parts), m_outer(outer)
    {
    }

    // The actions read so far, over all clients (kept or tallied).
    std::size_t actionCount() const override { return m_actions; }

    // A thread's reader of chunks: the storages the outer reader read.
    void useStorages(const std::vector<std::string> &utf8,
                     const std::vector<StorageSpec> &storages) override
    {
        m_storageUtf8 = utf8;
        m_storageNames = &storages;
    }

    QString text(std::string_view s) override { return m_values.get(s); }

    Scenario read(od::document &doc) override
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
            v, kClockKeys, 4, unknown, [&place]() -> const QString & { return place; },
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
                e, kStepKeys, 6, unknown, [&at]() -> const QString & { return at; },
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
                    Action &a = m_tally.freshScratch();
                    readAction(client, j, e, a);
                    m_tally.add(client, j, a);
                }
            }
        } else {
            // Counted first, so the list is allocated once at its size: growing it would move
            // every action read so far again at each doubling.
            list.reserve(std::min(get(array.count_elements()), room));
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
        FastLoad::Parts::Client job;
        job.client = client;
        for (auto element : array) {
            od::value e = get(std::move(element));
            const auto at = std::size_t(get(e.current_location()) - m_outer);
            count = m_parts->spansBefore(at, count, job.spans);
            const std::size_t j = count++;
            if (count > room)
                continue;
            Action *a = nullptr;
            if (m_keep) {
                a = &job.held.emplace_back();
                job.heldAt.push_back(j);
            } else {
                a = &m_tally.freshScratch();
            }
            readAction(client, j, e, *a);
            m_tally.add(client, j, *a);
        }
        job.actions = count;
        if (count <= room)
            m_parts->publish(std::move(job), m_storageUtf8, *m_storageNames);
    }

    void readAction(std::size_t client, std::size_t index, od::value &v, Action &a) override
    {
        const od::json_type type = get(v.type());
        if (type != od::json_type::object)
            fail(actionPlace(client, index),
                 QStringLiteral("must be an object, not %1").arg(typeName(type)));
        od::object object = get(v.get_object());
        readActionObject(client, index, object, a);
    }

    void readActionObject(std::size_t client, std::size_t index, od::object &v, Action &a) override
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
    FastLoad::Parts *const m_parts;         // null unless this reads the outer document in parts
    const char *const m_outer;              // (that document)
    QJsonObject m_unknown;                  // readAction()'s unknown keys of the action
    std::vector<std::string> m_storageUtf8; // the storages' names as the file spells them
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

std::unique_ptr<FastLoad::PartReader> partReader(const FileLimits &limits, ActionTally &tally,
                                                 bool keepActions, FastLoad::Parts *outer,
                                                 const char *outerBegin)
{
    return std::make_unique<Loader>(limits, tally, keepActions, outer, outerBegin);
}

} // namespace Core::ScenarioFormat
