#pragma once

// What happened when a Scenario ran: every event in the order it happened, the records behind
// them, and the state over time (leases, beliefs, storage values) so a view can draw any tick.
// Produced only by simulate(); views read it, nobody edits it.

#include "scenario.h"

#include <limits>
#include <vector>

namespace Core {

inline constexpr Tick kForever = std::numeric_limits<Tick>::max();
inline constexpr std::uint32_t kNone = 0xffffffffu;

enum class EventKind : std::uint8_t
{
    Grant,        // ref: Trace::grants
    Renewal,      // ref: Trace::grants
    Refusal,      // ref: Trace::refusals
    Release,      // ref: Trace::releases
    PauseStart,   // ref: index of the pause in the client's actions
    PauseEnd,     // ref: index of the pause in the client's actions
    WriteSent,    // ref: Trace::writes
    WriteArrived, // ref: Trace::writes; the write's result is known from here on
    ReadSent,     // ref: Trace::reads
    ReadArrived,  // ref: Trace::reads; the version is known from here on
    Checked,      // a check-then-write found the lease live; ref: Trace::checks
    Skipped,      // a check-then-write found the lease gone and sent nothing; ref: Trace::skips
    Lost,         // the client learnt it lost the lock (keepalive, check); ref: Trace::lost
};

enum class WriteResult : std::uint8_t
{
    Accepted,  // applied, and nothing newer had been applied before it
    Rejected,  // not applied: a stale writer was correctly turned away
    Corrupted, // applied although a write of a later epoch was already applied: data lost
    LockedOut, // not applied although its writer was the live holder of the newest epoch
};

// The checker of docs/SCENARIO.md section 6 for a write its storage has handled. `overNewer`: the
// storage had already applied newer data (a write of a later epoch; for a version storage, a
// version newer than the writer had read); `liveNewest`: at its arrival the writer held the
// newest epoch's live lease. One rule for a simulated run and for a run observed on a real
// system (Core::TraceRecorder).
constexpr WriteResult judgeWrite(bool applied, bool overNewer, bool liveNewest)
{
    if (applied)
        return overNewer ? WriteResult::Corrupted : WriteResult::Accepted;
    return liveNewest ? WriteResult::LockedOut : WriteResult::Rejected;
}

struct Event
{
    Tick tick = 0;
    std::uint32_t ref = 0;
    std::uint16_t client = 0;
    EventKind kind = EventKind::Grant;
};

struct Grant // a grant or a renewal
{
    Tick at = 0;
    Tick expires = 0;
    Token token = 0;
    std::uint32_t epoch = 0;
    std::uint32_t client = 0;
    std::uint32_t action = 0; // index into the client's actions
    bool renewal = false;
    bool keepalive = false; // a renewal sent by the client's keepalive schedule
};

struct Refusal
{
    Tick at = 0;
    std::uint32_t client = 0;
    std::uint32_t action = 0;
    // who was in the way: the live holder, else the first waiter, else the client whose
    // lock-delay it was (docs/SCENARIO.md section 14)
    std::uint32_t holder = 0;
    std::uint32_t holderEpoch = 0; // 0 when a waiter was in the way
    bool gaveUp = false;           // a blocking acquire whose waitFor ran out
};

// A blocking acquire that had to wait: from the tick it began to wait until it was granted or
// gave up (to = kForever: still waiting when the run ended).
struct Wait
{
    Tick from = 0;
    Tick to = 0;
    Token key = 0; // etcd, zookeeper: the revision (zxid) of the waiter's own key
    std::uint32_t client = 0;
    std::uint32_t action = 0;
    std::uint32_t outcome = 0; // index into grants (granted) or refusals (gave up)
    bool granted = false;
};

// Something that happened to the lock service itself (sections 9 and 10).
enum class LockEventKind : std::uint8_t
{
    Restore,        // ref: index into Scenario::lock.restores
    Failover,       // zookeeper: a new leader; ref: index into lock.failovers
    FailedElection, // raft-term: a term with no leader; ref: index into lock.failedElections
    ClockStep,      // wallclock: the server's clock stepped; ref: index into lock.clockSteps
    Election,       // service-term: the service's own leader changed; ref: into lock.elections
};

struct LockEvent
{
    Tick tick = 0;
    Token counter = 0; // the source's counter right after it (section 9's revision, zxid, ...)
    std::uint32_t ref = 0;
    LockEventKind kind = LockEventKind::Restore;
    // Restore: the holder and lease end it brought back (holder kNone: the lock was free)
    std::uint32_t holder = kNone;
    Tick expires = 0;
};

// A lease whose timeout a new leader started afresh (section 15.3): a ZooKeeper failover, an
// etcd or ZooKeeper restore. The holder is not told; its lease simply lasts longer.
struct Rearm
{
    Tick at = 0;
    Tick expires = 0; // the lease's new end
    std::uint32_t client = 0;
    std::uint32_t epoch = 0;
};

struct Release
{
    Tick at = 0;
    std::uint32_t client = 0;
    std::uint32_t action = 0;
    std::uint32_t epoch = 0; // the epoch that ended, when effective
    bool effective = false;  // false: the client was not the live holder, nothing changed
};

struct Write
{
    Tick sentAt = 0;
    Tick arrivedAt = 0;
    // (the token it carries is its epoch's: Trace::tokenOf, which keeps the record at 48 bytes)
    Token maxToken = 0;      // storage's max_token after handling (for a rejection: the reply)
    std::uint32_t epoch = 0; // epoch of the grant that gave the token; 0 when untagged
    std::uint32_t client = 0;
    std::uint32_t action = 0; // index into the client's actions (for the value)
    std::uint32_t storage = 0;
    std::uint32_t overwrote = kNone; // applied write whose value this one replaced
    WriteResult result = WriteResult::Accepted;
    bool tagged = false;
    bool expired = false; // arrived after its writer's lease had ended
    bool applied = false;
};

// Most of a trace is writes: this size is most of its bytes per action (docs/PERFORMANCE.md).
static_assert(sizeof(Write) <= 48, "a write record grew");

// One epoch's lease: from its grant until it expired or was released (renewals extend it).
struct Lease
{
    Tick start = 0;
    Tick end = 0;
    Token token = 0;
    std::uint32_t epoch = 0;
    std::uint32_t client = 0;
    bool released = false;
};

// A stretch of time in which a client is frozen (the union of its overlapping pauses).
struct Freeze
{
    Tick from = 0;
    Tick to = 0;
};

enum class BeliefEnd : std::uint8_t
{
    Never,     // still believes at the end of the run
    Regranted, // a new grant replaced the belief
    Refused,   // (not used: a refusal leaves the belief as it is, docs/SCENARIO.md section 14)
    Rejected,  // the storage turned a write down and replied with its max_token
    Released,  // the client gave the lock up
    Told,      // a keepalive found the lease gone: "told: lease gone"
    Skipped,   // a check-then-write found the lease expired by the client's own clock
};

// Check-then-write (section 11), one per checked write that ran.
struct Check
{
    Tick at = 0;     // the tick of the check
    Tick sendAt = 0; // the tick it sends (after thawing); meaningful when passed
    std::uint32_t client = 0;
    std::uint32_t action = 0;
    std::uint32_t epoch = 0;       // the grant whose token it remembered at the check
    std::uint32_t write = kNone;   // the write it sent (kNone: skipped, or not sent yet)
    bool passed = false;           // false: skipped (Trace::skips)
};

// A checked write that was skipped: nothing was sent (section 13's `skipped`).
struct Skip
{
    Tick at = 0; // the check's tick
    std::uint32_t client = 0;
    std::uint32_t action = 0;
    std::uint32_t epoch = 0;
    bool believed = false; // the client believed until then: also in Trace::lost
};

enum class LostReason : std::uint8_t
{
    Keepalive, // a keepalive found the lease gone
    Check,     // a check-then-write found the lease expired
};

// The client learnt it had lost the lock (section 13's `lost`).
struct Lost
{
    Tick at = 0;
    std::uint32_t client = 0;
    std::uint32_t epoch = 0; // the grant it had believed in
    LostReason reason = LostReason::Keepalive;
};

// A read of a storage's version (section 12).
struct Read
{
    Tick sentAt = 0;
    Tick arrivedAt = 0;
    std::uint64_t version = 0; // learnt at arrival
    std::uint32_t client = 0;
    std::uint32_t action = 0;
    std::uint32_t storage = 0;
    bool arrived = false;
};

// A storage restarted at the start of `tick` (section 12).
struct StorageRestart
{
    Tick tick = 0;
    Token forgot = 0; // the max_token it lost: 0 when durable (or when it was 0)
    std::uint32_t storage = 0;
    std::uint32_t ref = 0; // index into the storage's `restarts`
};

// What a write to a version storage compared (section 12): Trace::writeVersions.
struct WriteVersion
{
    std::uint64_t expected = 0; // the version its client last knew there, when it was sent
    std::uint64_t version = 0;  // after handling; for a rejection the current one
};

// One client's writes of one group name: an update across storages (section 12).
struct GroupOutcome
{
    QString name;
    std::uint32_t client = 0;
    std::vector<std::uint32_t> applied;    // storages, in the order of the group's writes
    std::vector<std::uint32_t> notApplied; // skipped, rejected, unsent or still in flight
    std::vector<std::uint32_t> writes;     // the group's sent writes, in sending order
    bool partial = false;
};

// Where a client *believes* it holds the lock. Compare with Lease: the difference is the zombie
// window in which it acts on a lock it no longer has.
struct Belief
{
    Tick from = 0;
    Tick to = kForever;
    std::uint32_t epoch = 0;
    BeliefEnd end = BeliefEnd::Never;
};

// A stretch of ticks [from, to); empty when from == to.
struct TickRange
{
    Tick from = 0;
    Tick to = 0;
    bool empty() const { return to <= from; }
    friend bool operator==(const TickRange &a, const TickRange &b)
    {
        return a.from == b.from && a.to == b.to;
    }
};

// Where something of a run observed on a real system really happened, in ticks with their
// fractions (Trace::eventTimes, Trace::leaseTimes).
struct RealSpan
{
    double from = 0;
    double to = 0;
};

struct StorageState
{
    QString value;
    Token maxToken = 0;
    std::uint64_t version = 0; // writes applied so far
    std::uint32_t lastWrite = kNone; // last applied write
};

struct Summary
{
    std::uint64_t accepted = 0;
    std::uint64_t rejected = 0;
    std::uint64_t corrupted = 0;
    std::uint64_t lockedOut = 0;
    std::uint64_t skipped = 0; // checked writes that sent nothing
    std::uint64_t partial = 0; // groups half applied
    bool safe() const { return corrupted == 0 && partial == 0; }
};

struct Trace
{
    bool fencing = true;
    TokenSource tokens = TokenSource::Counter; // the scenario's, to show tokens in its form
    // A partial trace (Simulator stopped early, a drag in progress) holds everything that
    // happened before this tick, exactly as the full run would; writes arriving later have no
    // result yet. lastTick, horizon, finals and summary are final only when complete().
    Tick pendingFrom = kForever;
    Tick horizon = 0;  // the scenario's, or enough to show every event
    Tick lastTick = 0; // tick of the last event or lease end

    std::vector<Event> events; // in the order they happened
    std::vector<Grant> grants; // grants and renewals in order
    std::vector<Refusal> refusals;
    std::vector<Release> releases;
    std::vector<Write> writes; // in the order they were sent
    std::vector<Lease> leases; // one per epoch: leases[e - 1]
    std::vector<Wait> waits;   // blocking acquires that waited, in the order they began
    std::vector<LockEvent> lockEvents; // restores, failovers, ... in time order
    std::vector<Rearm> rearms;         // leases re-armed by a new leader, in the order they were
    // Sections 11 and 12 (empty when the scenario uses none of them):
    std::vector<Check> checks;             // check-then-writes, in the order they checked
    std::vector<Skip> skips;               // checked writes that sent nothing
    std::vector<Lost> lost;                // clients told they lost the lock, in time order
    std::vector<Read> reads;               // in the order they were sent
    std::vector<StorageRestart> restarts;  // in time order
    // Per write, when the scenario has a version storage (else empty): what it compared.
    std::vector<WriteVersion> writeVersions;
    std::vector<GroupOutcome> groups;      // lane order, then first appearance of the name

    // Per client: its events (indices into events), frozen stretches and beliefs, by time.
    std::vector<std::vector<std::uint32_t>> clientEvents;
    std::vector<std::vector<Freeze>> freezes;
    std::vector<std::vector<Belief>> beliefs;
    // Per storage: the writes that arrived there (indices into writes), in arrival order.
    std::vector<std::vector<std::uint32_t>> storageWrites;
    // Per storage: only the writes that were not simply accepted (rejected, corrupted, locked
    // out), in arrival order, so a view zoomed far out can still show every one of them.
    std::vector<std::vector<std::uint32_t>> storageIncidents;
    std::vector<StorageState> finals;
    Summary summary;

    // A run observed on a real system (Core::TraceRecorder) keeps each event at the tick it is
    // rounded to, for the checker and every question below, and here where it really
    // happened, for drawing between ticks: per event, and per lease its grant and its end.
    // Empty for a simulated run, whose events happen exactly at their ticks.
    std::vector<double> eventTimes;
    std::vector<RealSpan> leaseTimes;
    double eventTime(std::uint32_t e) const
    {
        return e < eventTimes.size() ? eventTimes[e] : double(events[e].tick);
    }
    RealSpan leaseTime(std::size_t i) const
    {
        return i < leaseTimes.size() ? leaseTimes[i]
                                     : RealSpan{double(leases[i].start), double(leases[i].end)};
    }

    bool complete() const { return pendingFrom == kForever; }
    // The token a write carried: the one its epoch's grant handed out; 0 when untagged.
    Token tokenOf(const Write &w) const { return w.epoch ? leases[w.epoch - 1].token : 0; }

    // Lock holder at the end of tick t (after everything that happened at t): the live lease
    // or nullptr.
    const Lease *leaseAt(Tick t) const;
    // First event with tick >= t / last event with tick <= t (events.size() / kNone if none).
    std::uint32_t firstEventAt(Tick t) const;
    std::uint32_t lastEventAtOrBefore(Tick t) const;

    // The zombie window of a client's belief: where it *acts* on a lock it no longer has. It
    // opens when the believed lease ends and closes with the last write the client sends on
    // that belief's token after that, [lease end, that write's tick + 1). A belief that
    // outlives its lease but sends nothing on it goes on quietly and has no window (empty
    // range): only a stale action makes a zombie. A write sent at the tick the belief ends
    // counts when its own rejection ended it. `belief` indexes beliefs[client]. One binary
    // search, then a walk back over the client's events after the lease ended.
    TickRange zombieWindow(std::uint32_t client, std::size_t belief) const;
    // Every non-empty zombie window of a client, in time order.
    std::vector<TickRange> zombieWindows(std::uint32_t client) const;
    // The belief of `client` whose zombie window contains tick t, or nullptr.
    const Belief *zombieBeliefAt(std::uint32_t client, Tick t) const;
};

QString toString(WriteResult result); // "accepted", "rejected", "corrupted", "lockedOut"
QString toString(LostReason reason);  // "keepalive", "check"
QString toString(EventKind kind);
// "restore", "failover", "failedElection", "clockStep", "election"
QString toString(LockEventKind kind);

} // namespace Core
