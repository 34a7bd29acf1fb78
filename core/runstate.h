#pragma once

// The state of a run at a tick, answered once for every view: who holds the lock and with
// which token; what each client remembers and believes, and whether it is frozen or acting in
// a zombie window; what each storage holds and what it compares an arriving write against
// (max_token, or a compare-and-set storage's version), at a tick and as a step series. The
// story, the token chart and the timeline's storage rows ask here; nothing here decides a rule
// again: the lock is Trace::leaseAt's, a zombie is Trace::zombieBeliefAt's.
//
// "At tick t" is always the end of tick t, after everything that happened at t.

#include "scenario.h"
#include "trace.h"

#include <vector>

namespace Core {

// Where a run's pictures end: its horizon, or one past its last event when that is later (a
// run that goes on past the scenario's horizon).
Tick runEnd(const Trace &trace);

// ---- the lock and the clients ----------------------------------------------------------------

// The lease of an epoch (1, 2, ...), or nullptr.
const Lease *leaseOfEpoch(const Trace &trace, std::uint32_t epoch);
// The belief of `client` that began last before tick t (it may have ended since), or nullptr.
const Belief *beliefBefore(const Trace &trace, std::uint32_t client, Tick t);
// The belief `client` holds at the end of tick t (from <= t < to), or nullptr.
const Belief *beliefAt(const Trace &trace, std::uint32_t client, Tick t);
// The stretch in which `client` is frozen at tick t, or nullptr.
const Freeze *freezeAt(const Trace &trace, std::uint32_t client, Tick t);

struct LockState
{
    const Lease *holder = nullptr; // the live lease (Trace::leaseAt), nullptr: the lock is free
    const Lease *last = nullptr;   // the last lease granted by then: the last token handed out
};
LockState lockStateAt(const Trace &trace, Tick t);

struct ClientState
{
    // The grant it remembers (its last grant or renewal by then): its writes carry this
    // epoch's token. 0: never granted, its writes go untagged.
    std::uint32_t epoch = 0;
    Token token = 0;
    const Belief *belief = nullptr;  // what it believes it holds, nullptr: nothing
    const Lease *believed = nullptr; // the lease of that belief
    bool holds = false;              // it believes, and the lease it believes in is the live one
    bool zombie = false;             // inside that belief's zombie window (Trace::zombieBeliefAt)
    TickRange zombieWindow;          // of the belief (empty: it sends nothing on a lost lease)
    const Freeze *frozen = nullptr;  // the pause it is in, nullptr: running
};
ClientState clientStateAt(const Trace &trace, std::uint32_t client, Tick t);

// ---- the events of an action ------------------------------------------------------------

// The event where an action ran (grant/renewal/refusal, release, write sent, pause start): the
// first event at or after its scheduled tick that belongs to it; kNone if it has not run.
// Deferred actions run when the client thaws, so the search starts at `at`. Bounded: a frozen
// stretch can pile many deferred actions onto one tick, and a painter asks this per frame.
std::uint32_t runEventOf(const Scenario &scenario, const Trace &trace, int client, int action);
// The event of `kind` with record `ref` on client `client`'s lane at `tick`; kNone if none.
std::uint32_t eventOf(const Trace &trace, int client, Tick tick, EventKind kind, std::uint32_t ref);
// The check-then-write (docs/SCENARIO.md section 11) that sent write `write` (an index into
// Trace::writes), or nullptr: the write was not checked.
const Check *checkOfWrite(const Trace &trace, std::uint32_t write);

// ---- the storages ----------------------------------------------------------------------------

// What a storage's level is.
enum class StorageGauge : std::uint8_t
{
    MaxToken,    // the highest token it accepted (0 with fencing off: it checks none); a restart
                 // of a volatile storage forgets it (docs/SCENARIO.md section 12)
    Version,     // a compare-and-set storage's version: the writes it applied (section 12)
    StoredToken, // the token the data it holds came with (0: empty, or written untagged)
};

// What a storage compares an arriving write against: Version for a compare-and-set storage
// (check "version") whose writes' versions the trace holds, else MaxToken.
StorageGauge comparedGauge(const Scenario &scenario, const Trace &trace, std::uint32_t storage);

// Where write `write` (an index into Trace::writes) stands among the arrivals at its storage:
// its index in Trace::storageWrites of that storage. Within a tick, arrival order is send order
// (a delayed packet was sent before the writes sent at its arrival tick), so that list is in
// (arrivedAt, index) order.
std::size_t arrivalPosition(const Trace &trace, std::uint32_t write);

// The newest restart of `storage` at or before tick t that forgot a max_token (an index into
// Trace::restarts), or kNone: none did (a durable storage forgets nothing, docs/SCENARIO.md
// section 12).
std::uint32_t forgettingRestartBefore(const Trace &trace, std::uint32_t storage, Tick t);

// A storage's state at the end of tick t: its value, max_token (after restarts), version and
// last applied write.
StorageState storageStateAt(const Scenario &scenario, const Trace &trace, std::uint32_t storage,
                            Tick t);

// ---- a run cut at a tick ------------------------------------------------------------------

// `full` (a complete run of `scenario` with full.fencing) as it stands before tick `before`: a
// partial trace holding nothing of that tick or later, on the whole run's axis (its horizon and
// lastTick), so what goes on at the cut is drawn on and a view hides what lies past it
// (docs/SEMANTICS.md "Hiding the future"). `full` itself when there is nothing after the cut
// (or `full` is partial). The one place a run is cut: presentation mode, a lesson's question,
// a handout and an animation all ask here.
Trace runBefore(const Scenario &scenario, const Trace &full, Tick before);

// One storage's level over the run. O(restarts) to make; a write's level is O(1), a tick's
// O(log n): cheap enough for a painter that asks once per pixel column.
class StorageLevel
{
public:
    StorageLevel(const Scenario &scenario, const Trace &trace, std::uint32_t storage,
                 StorageGauge gauge);
    // The gauge the storage compares (comparedGauge).
    StorageLevel(const Scenario &scenario, const Trace &trace, std::uint32_t storage);

    StorageGauge gauge() const { return m_gauge; }
    // The level right after write `write` (index into Trace::writes, one that arrived here)
    // was handled. Not for StoredToken, whose level is the last applied write's (at()).
    std::uint64_t afterWrite(std::uint32_t write) const
    {
        return m_gauge == StorageGauge::Version ? m_trace->writeVersions[write].version
                                                : m_trace->writes[write].maxToken;
    }
    // The ticks at which a restart dropped the level to 0, in time order: a volatile
    // max_token forgotten. A restart comes before the arrivals of its tick.
    const std::vector<Tick> &drops() const { return m_drops; }
    // The highest level the storage reaches (the top of a scale for it).
    std::uint64_t highest() const;
    // The level at the end of tick t.
    std::uint64_t at(Tick t) const;

    struct Step
    {
        Tick at = 0;
        std::uint64_t level = 0; // from this tick on
    };
    // The level as a step series: {0, 0} first, then each change at its tick. Changes less
    // than `bucket` ticks after the last one kept are folded into it (the kept step takes the
    // latest level): a million writes need not become a million points.
    std::vector<Step> steps(Tick bucket = 1) const;

private:
    const Trace *m_trace;
    std::uint32_t m_storage;
    StorageGauge m_gauge;
    std::vector<Tick> m_drops;
};

} // namespace Core
