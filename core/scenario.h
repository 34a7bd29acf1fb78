#pragma once

// What the user drew: clients with their scheduled actions, storages and options.
// Plain value types; the simulator turns a Scenario into a Trace (trace.h).

#include <QJsonObject>
#include <QSharedData>
#include <QSharedDataPointer>
#include <QString>

#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

namespace Core {

using Tick = std::uint64_t;
using Token = std::uint64_t;

// Largest integer a scenario file may hold: JSON numbers are exact only up to 2^53.
inline constexpr Tick kMaxFileInteger = Tick(1) << 53;

// Read (docs/SCENARIO.md section 12): learn a storage's version, for compare-and-set.
enum class ActionKind : std::uint8_t
{
    Acquire,
    Release,
    Pause,
    Write,
    Read
};

// The check a storage applies to an arriving token when fencing is on.
enum class FenceRule : std::uint8_t
{
    Lt, // reject token < max_token: the correct rule, equal tokens pass
    Le, // reject token <= max_token: the too-strict pitfall
};

// Where the lock service's tokens come from (docs/SCENARIO.md section 9).
enum class TokenSource : std::uint8_t
{
    Counter,    // previous + 1, from lock.first
    Etcd,       // the store revision at which the lock key was created
    ZooKeeper,  // the zxid of the lock znode: (zkEpoch << 32) | counter
    RaftTerm,   // the term of the grant
    KafkaEpoch, // the producer epoch: every InitProducerId bumps it, the holder's too
    Chubby,     // a sequencer's lock generation
    None,       // Redlock: no token at all
    Random,     // a seeded draw per grant: unique, unordered
    WallClock,  // the lock server's clock at the grant
    // the term of the lock service's own Raft leader (section 15.2): every grant between two
    // elections shares it, so it orders leaders, not lock owners
    ServiceTerm,
};
// Each source's name in a scenario file (docs/SCENARIO.md section 9; service-term: section
// 15.2), in the enum's order: with the enum, the one list a new source is added to by hand; the
// count follows it (docs/ARCHITECTURE.md, "Adding a token source").
inline constexpr const char *kTokenSourceNames[] = {
    "counter", "etcd", "zookeeper", "raft-term", "kafka-epoch",
    "chubby",  "none", "random",    "wallclock", "service-term",
};
inline constexpr int kTokenSourceCount = int(std::size(kTokenSourceNames));

// What few actions have: the options of sections 10-12 and keys this version does not know.
// An action without any of them holds none of this (Action::rare is null).
struct ActionRare : QSharedData
{
    Tick waitFor = 0;
    Tick keepalive = 0;
    Tick gap = 0;
    QString group;
    QJsonObject extra;
    friend bool operator==(const ActionRare &a, const ActionRare &b)
    {
        return a.waitFor == b.waitFor && a.keepalive == b.keepalive && a.gap == b.gap &&
               a.group == b.group && a.extra == b.extra;
    }
};

struct Action
{
    // (a loaded file holds a million of these, and every page of them is cleared by the kernel
    // before it is written: what most actions use is here, 56 bytes, the rest in `rare`)
    Tick at = 0;
    // ttl for Acquire, length for Pause, network delay for Write and Read, unused for Release.
    Tick amount = 0;
    QString value;             // Write only
    std::uint32_t storage = 0; // Write and Read: index into Scenario::storages
    bool check = false;
    bool wait = false;
    ActionKind kind = ActionKind::Acquire;

    // Acquire only: a blocking acquire (etcd's Lock(), Curator's acquire()) waits while the lock
    // is taken instead of being refused, for at most `waitFor` ticks (0: without a limit).
    Tick waitFor() const { return rare ? rare->waitFor : 0; }
    // Acquire only: renew every `keepalive` ticks while the lease is held (0: no keepalives)
    Tick keepalive() const { return rare ? rare->keepalive : 0; }
    // Write only: check-then-write (section 11): check the lease by the client's own clock at
    // the write's tick, skip it if expired, else send `gap` ticks later
    Tick gap() const { return rare ? rare->gap : 0; }
    // Write only: one update across storages with the client's other writes of this name
    // (section 12); empty: none
    const QString &group() const { return rare ? rare->group : kNoText; }
    // keys this version does not know, kept for a lossless save
    const QJsonObject &extra() const { return rare ? rare->extra : kNoKeys; }

    void setWaitFor(Tick t) { set(&ActionRare::waitFor, t); }
    void setKeepalive(Tick t) { set(&ActionRare::keepalive, t); }
    void setGap(Tick t) { set(&ActionRare::gap, t); }
    void setGroup(const QString &g) { set(&ActionRare::group, g); }
    void setExtra(const QJsonObject &e) { set(&ActionRare::extra, e); }
    // The unknown keys to change in place (an action without any gets its `rare` for them).
    QJsonObject &editExtra() { return own().extra; }
    // Holds nothing beyond the fields most actions use (no `rare`): what a loader keeps a
    // million of.
    bool plain() const { return !rare; }

    static Action acquire(Tick at, Tick ttl);
    static Action release(Tick at);
    static Action pause(Tick at, Tick length);
    static Action write(Tick at, const QString &value, std::uint32_t storage = 0, Tick delay = 0);
    static Action read(Tick at, std::uint32_t storage = 0, Tick delay = 0);

    Tick ttl() const { return amount; }
    Tick length() const { return amount; }
    Tick delay() const { return amount; }

    friend bool operator==(const Action &a, const Action &b)
    {
        return a.at == b.at && a.amount == b.amount && a.value == b.value &&
               a.storage == b.storage && a.kind == b.kind && a.wait == b.wait &&
               a.check == b.check && sameRare(a, b);
    }
    friend bool operator!=(const Action &a, const Action &b) { return !(a == b); }

    // Uses something of sections 11 and 12: a keepalive, a check, a group, or it is a read.
    bool usesPitfalls() const
    {
        return check || kind == ActionKind::Read ||
               (rare && (rare->keepalive || rare->gap || !rare->group.isEmpty()));
    }

private:
    // what group() and extra() give without `rare` (no guard on the way: a sweep asks a
    // million times a second)
    static const QString kNoText;
    static const QJsonObject kNoKeys;
    static bool sameRare(const Action &a, const Action &b);
    ActionRare &own()
    {
        if (!rare)
            rare.reset(new ActionRare);
        return *rare; // (detaches from a copy's)
    }
    template <typename T, typename V> void set(T ActionRare::*field, const V &v)
    {
        if (!rare && v == T())
            return; // nothing to hold
        own().*field = v;
    }
    QSharedDataPointer<ActionRare> rare;
};

static_assert(sizeof(Action) <= 56, "an action grew: a loaded file holds a million of them");

// An NTP step of the lock server's clock (`lock.clockSteps`): from tick `at` on, `by` more.
struct ClockStep
{
    Tick at = 0;
    std::int64_t by = 0;
    friend bool operator==(const ClockStep &a, const ClockStep &b)
    {
        return a.at == b.at && a.by == b.by;
    }
};

// `lock.restores`: at the start of tick `at` the lock service comes back from a snapshot taken
// at the end of tick `from` (< at), and `bump` is added to its counter (etcd's --bump-revision).
struct LockRestore
{
    Tick at = 0;
    Tick from = 0;
    Token bump = 0;
    friend bool operator==(const LockRestore &a, const LockRestore &b)
    {
        return a.at == b.at && a.from == b.from && a.bump == b.bump;
    }
};

// Everything about the lock service but its token source (Scenario::tokens). Each option
// belongs to one source (docs/SCENARIO.md section 14, "First values"); the loader refuses it
// elsewhere, the simulator ignores it elsewhere.
struct LockOptions
{
    Token first = 1;                   // counter
    Token revision = 1;                // etcd: the store's revision before the first change
    Tick putsEvery = 0;                // etcd: an unrelated put every k-th tick; 0: none
    std::vector<Tick> failovers;       // zookeeper: a new leader at the start of these ticks
    std::vector<Tick> failedElections; // raft-term, service-term: a term without a leader
    std::vector<Tick> elections;       // service-term: the service's leader changed (a new term)
    std::uint64_t seed = 1;            // random
    Tick clockOffset = 1000;           // wallclock: the server's clock at tick 0
    std::vector<ClockStep> clockSteps; // wallclock
    std::vector<LockRestore> restores; // any source; in order of `at`
    Tick lockDelay = 0;                // Chubby's lock-delay after an expiry (any source)

    friend bool operator==(const LockOptions &a, const LockOptions &b)
    {
        return a.first == b.first && a.revision == b.revision && a.putsEvery == b.putsEvery &&
               a.failovers == b.failovers && a.failedElections == b.failedElections &&
               a.elections == b.elections && a.seed == b.seed && a.clockOffset == b.clockOffset &&
               a.clockSteps == b.clockSteps && a.restores == b.restores &&
               a.lockDelay == b.lockDelay;
    }
    friend bool operator!=(const LockOptions &a, const LockOptions &b) { return !(a == b); }
};

// A client's own clock (section 11): local(t) = floor(rate * t) + the steps with at <= t. The
// client judges its own lease by it; the lock service always counts ticks.
struct ClientClock
{
    std::uint32_t rateMilli = 1000; // the rate times 1000: 1 (0.001) to 100000 (100)
    std::vector<ClockStep> steps;   // in order of `at`

    bool isDefault() const { return rateMilli == 1000 && steps.empty(); }
    // The client's local time at tick t, exact in integers (may be negative after steps back).
    std::int64_t local(Tick t) const;
    // The first tick at which the client judges a lease it got at `grantedAt` with `ttl` as
    // expired: local(t) - local(grantedAt) >= ttl. A client clock that runs slow gives a tick
    // after the real end; steps back can put it later still.
    Tick leaseEndsAt(Tick grantedAt, Tick ttl) const;
    friend bool operator==(const ClientClock &a, const ClientClock &b)
    {
        return a.rateMilli == b.rateMilli && a.steps == b.steps;
    }
};

struct Client
{
    QString name;
    std::vector<Action> actions;
    ClientClock clock;
    bool bypass = false; // an unfenced path: its writes skip every storage's check
    QJsonObject extra;

    friend bool operator==(const Client &a, const Client &b)
    {
        return a.name == b.name && a.actions == b.actions && a.clock == b.clock &&
               a.bypass == b.bypass && a.extra == b.extra;
    }
    friend bool operator!=(const Client &a, const Client &b) { return !(a == b); }
};

// What a storage compares (sections 12 and 15): the token (fencing), a version (compare-and-set),
// the lock service's own state (`owner`: etcd's IsOwner() in a Txn, Chubby's CheckSequencer), or
// the one token it first saw (`same`: etcd's contrib/lock storage).
enum class StorageCheck : std::uint8_t
{
    Token,
    Version,
    Owner,
    Same
};

struct StorageSpec
{
    QString name;
    FenceRule rule = FenceRule::Lt;
    StorageCheck check = StorageCheck::Token;
    // false: max_token is kept in memory only and is 0 after a restart ("maxToken": "volatile")
    bool durable = true;
    std::vector<Tick> restarts; // the storage restarts at the start of these ticks, in order

    QJsonObject extra;

    static StorageSpec named(const QString &name)
    {
        StorageSpec s;
        s.name = name;
        return s;
    }

    friend bool operator==(const StorageSpec &a, const StorageSpec &b)
    {
        return a.name == b.name && a.rule == b.rule && a.check == b.check &&
               a.durable == b.durable && a.restarts == b.restarts && a.extra == b.extra;
    }
    friend bool operator!=(const StorageSpec &a, const StorageSpec &b) { return !(a == b); }
};

struct Scenario
{
    QString title;
    QString description;
    std::optional<Tick> horizon; // unset: enough to show every event
    bool fencing = true;
    TokenSource tokens = TokenSource::Counter;
    LockOptions lock;
    std::vector<StorageSpec> storages{StorageSpec::named(QStringLiteral("db"))};
    std::vector<Client> clients;
    QJsonObject extra;     // unknown top-level keys
    QJsonObject lockExtra; // unknown keys of "lock"

    std::size_t actionCount() const;
    int clientIndex(const QString &name) const;  // -1 when absent
    int storageIndex(const QString &name) const; // -1 when absent
    // True when anything of sections 11 and 12 is used: keepalives, checks, groups, reads,
    // client clocks, bypass clients, restarts, volatile or version storages.
    bool usesPitfalls() const;
    // The same, leaving out the actions (Action::usesPitfalls): what a simulator's lane plans
    // do not tell it.
    bool setupUsesPitfalls() const;
    bool hasVersionStorage() const;
    // More keepalive renewals than any run of this scenario can have: every run ends by the
    // latest tick anything is scheduled (or the horizon) plus every duration, delay and gap.
    // `first` gets the client and action of the first keepalive acquire at which the running
    // sum passes `limit` (when it does). Saturates at UINT64_MAX.
    std::uint64_t keepaliveBound(std::uint64_t limit = ~std::uint64_t(0),
                                 std::pair<std::size_t, std::size_t> *first = nullptr) const;

    friend bool operator==(const Scenario &a, const Scenario &b)
    {
        return a.title == b.title && a.description == b.description && a.horizon == b.horizon &&
               a.fencing == b.fencing && a.tokens == b.tokens && a.lock == b.lock &&
               a.storages == b.storages && a.clients == b.clients && a.extra == b.extra &&
               a.lockExtra == b.lockExtra;
    }
    friend bool operator!=(const Scenario &a, const Scenario &b) { return !(a == b); }
};

// Scenario::keepaliveBound() gathered one action at a time, for a reader that checks every
// action without keeping it (ScenarioFile::checkFile).
class KeepaliveBound
{
public:
    void add(std::size_t client, std::size_t index, const Action &a);
    // The same for an action with no keepalive, gap or wait limit: its tick and its amount.
    void addPlain(Tick at, Tick amount);
    // Adds what `other` gathered from other actions of the same file (a file read in parts, in
    // any order): the bound is as if every action was added here, in file order.
    void merge(const KeepaliveBound &other);
    // The bound for the actions added, in `s` (its horizon, lock and storages; not its actions).
    std::uint64_t total(const Scenario &s, std::uint64_t limit,
                        std::pair<std::size_t, std::size_t> *first) const;

private:
    struct Renewal
    {
        std::size_t client;
        std::size_t index;
        Tick at;
        Tick every;
    };
    std::uint64_t m_latest = 0; // the latest action's tick
    std::uint64_t m_extra = 0;  // every duration, delay and gap, saturated
    std::vector<Renewal> m_renewals;
};

QString toString(ActionKind kind); // "acquire", "release", "pause", "write", "read"
QString toString(FenceRule rule);  // "lt", "le"
QString toString(TokenSource src); // "counter", "etcd", "zookeeper", "raft-term", ...
// The source named `name` in a file's `lock.tokens`; false when there is none of that name.
bool tokenSourceFromString(const QString &name, TokenSource *src);
// True for the sources whose tokens grow from one owner to the next (absent restores without
// enough bump): not none, random, wallclock, nor service-term (owners of one term share it).
bool isMonotonic(TokenSource src);
QString toString(StorageCheck check); // "token", "version", "owner", "same"

} // namespace Core
