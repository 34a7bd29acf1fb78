#pragma once

// A Trace of a run observed on a real system (live/: a real etcd, real paused processes) rather
// than simulated. The caller says what happened, in the order it happened, each fact at its
// real time in ticks with their fractions; the recorder keeps the tick each fact is rounded to
// (what the checker, the explanations and every question of trace.h read) and the real time
// beside it (Trace::eventTimes, Trace::leaseTimes, for drawing between ticks).
//
// What the run *did* is the caller's to say: who was granted which token, whether a storage
// applied a write and the max_token it answered. What it *means* is the model's, asked here as
// the simulator asks it: epochs count the grants in the order they were observed, a write is
// judged by the same checker (judgeWrite, docs/SCENARIO.md section 6), and beliefs begin and end by
// section 14's rules. So an observed run and its prediction are told apart only by what
// really happened.

#include "scenario.h"
#include "trace.h"

#include <optional>
#include <vector>

namespace Core {

class TraceRecorder
{
public:
    // `tokens`: the source whose tokens the run handed out (etcd's revisions for a live run).
    TraceRecorder(const Scenario &scenario, bool fencing, TokenSource tokens);

    // The lock service granted `client` a new lease (a new epoch) for its acquire `action`,
    // with this token and ttl. A waiting client's wait ends granted. Returns the epoch.
    std::uint32_t grant(double at, std::uint32_t client, std::uint32_t action, Token token,
                        Tick ttl);
    // The live holder renewed its lease: by an acquire (`keepalive` false) or by its keepalive
    // schedule (`action`: the acquire that set it). Its token and epoch stay.
    void renewal(double at, std::uint32_t client, std::uint32_t action, Tick ttl, bool keepalive);
    // An acquire refused because `holder` was in the way (a live holder, else a waiter ahead);
    // `gaveUp`: a waiting acquire whose waitFor ran out.
    void refusal(double at, std::uint32_t client, std::uint32_t action, std::uint32_t holder,
                 bool gaveUp = false);
    // A blocking acquire began to wait, with its own key's revision (etcd).
    void waitBegan(double at, std::uint32_t client, std::uint32_t action, Token key);
    // `effective`: the client was the live holder and the lock is free now.
    void release(double at, std::uint32_t client, std::uint32_t action, bool effective);
    // The lock service ended epoch `epoch`'s lease by expiry (etcd deleted its key).
    void leaseEnded(double at, std::uint32_t epoch);
    // A pause action began or ended (the client was stopped or continued).
    void pauseBegan(double at, std::uint32_t client, std::uint32_t action);
    void pauseEnded(double at, std::uint32_t client, std::uint32_t action);
    // A write left its client with the token of `epoch` (the client's grant at the time, or at
    // its check; 0: untagged). `expected`: for a version storage, the version it expects.
    // Returns the write's index.
    std::uint32_t writeSent(double at, std::uint32_t client, std::uint32_t action,
                            std::uint32_t epoch, std::uint64_t expected = 0);
    // The storage handled write `write`: applied or not, its max_token after (for a rejection:
    // the one it answered), and for every storage its version after (the writes it applied).
    void writeArrived(double at, std::uint32_t write, bool applied, Token maxToken,
                      std::uint64_t version);
    std::uint32_t readSent(double at, std::uint32_t client, std::uint32_t action);
    void readArrived(double at, std::uint32_t read, std::uint64_t version);
    // A check-then-write checked the client's own lease: passed (its write is sent at
    // `sendAt`, by writeSent(..., check) or later) or not (skipped: nothing is sent). Returns
    // the check's index.
    std::uint32_t checked(double at, std::uint32_t client, std::uint32_t action, bool passed,
                          Tick sendAt);
    // The write of a passed check was sent: writeSent() with the check's epoch, linked to it.
    std::uint32_t checkedWriteSent(double at, std::uint32_t check, std::uint64_t expected = 0);
    // A keepalive found the client's lease gone: it learns it lost the lock.
    void keepaliveLost(double at, std::uint32_t client);

    // The client's current epoch (0: never granted), what its next write carries.
    std::uint32_t epochOf(std::uint32_t client) const { return m_lanes[client].epoch; }
    // The epoch of the live lease and its holder (0 / kNone when the lock is free).
    std::uint32_t liveEpoch() const { return m_live ? m_epochs : 0; }
    std::uint32_t epochs() const { return m_epochs; }
    bool believes(std::uint32_t client) const { return m_lanes[client].believes; }

    // The trace of everything recorded. `last`: where the observation ended (ticks); a lease
    // not seen to end by then keeps the end its last grant or renewal promised. A write still
    // in flight has no result (it is left out of the summary and of its storage's list).
    Trace finish(double last);

private:
    struct Lane
    {
        std::uint32_t epoch = 0;
        bool believes = false;
        bool waiting = false;
        std::uint32_t wait = kNone;
        std::uint32_t beliefs = 0;
        std::vector<std::pair<double, double>> pauses; // real stretches, for the freezes
        std::vector<double> pauseFrom;                 // per action: a pause under way
    };

    Tick tickOf(double at) const;
    void record(double at, std::uint32_t client, EventKind kind, std::uint32_t ref);
    void startBelief(std::uint32_t client, double at, std::uint32_t epoch);
    void endBelief(std::uint32_t client, double at, BeliefEnd why);

    const Scenario &m_s;
    Trace m_t;
    std::vector<Lane> m_lanes;
    std::vector<bool> m_leaseEnded;             // per epoch: ended by expiry or release
    std::vector<std::uint32_t> m_newestApplied; // per storage
    std::vector<std::uint32_t> m_lastApplied;   // per storage
    std::vector<std::uint64_t> m_versions;      // per storage
    std::vector<Token> m_maxTokens;             // per storage: the last answer
    std::uint32_t m_epochs = 0;
    bool m_live = false; // the newest epoch's lease is live
    double m_last = 0;   // the latest time recorded
};

} // namespace Core
