#pragma once

// The seed's LockService on a virtual clock: one lock, every new owner gets a token from the
// configured source (docs/SCENARIO.md sections 2, 9, 10 and 14). O(1) per call, except that a
// blocking acquire joins a queue of waiters. Epochs are the simulator's ground truth and count
// grants only; they are never rewound, not even by a restore.

#include "scenario.h"
#include "tokensource.h"

#include <vector>

namespace Core {

class LockService
{
public:
    enum class Outcome : std::uint8_t
    {
        Grant,
        Renewal,
        Refusal,
        Wait
    };

    struct Reply
    {
        Outcome outcome;
        Token token;          // for a refusal: the holder's token
        std::uint32_t epoch;  // for a refusal: the holder's epoch (0: a waiter is in the way)
        std::uint32_t holder; // who holds the lock after the call (refusal: who is in the way)
        Tick expires;         // the holder's lease expiry after the call
    };

    // A blocking acquire that could not be granted yet (docs/SCENARIO.md section 10).
    struct Waiter
    {
        std::uint32_t client = 0;
        std::uint32_t action = 0; // index into the client's actions
        Tick ttl = 0;
        Tick since = 0;        // the tick it began to wait
        Tick giveUp = kNoTick; // the tick its waitFor runs out
        Token key = 0;         // etcd, zookeeper: the revision (zxid) of its own key
        friend bool operator==(const Waiter &a, const Waiter &b)
        {
            return a.client == b.client && a.action == b.action && a.ttl == b.ttl &&
                   a.since == b.since && a.giveUp == b.giveUp && a.key == b.key;
        }
    };

    static constexpr std::uint32_t kNobody = 0xffffffffu;
    static constexpr Tick kNoTick = ~Tick(0);

    LockService() = default;
    // `options` must outlive the service (the scenario does).
    LockService(TokenSource source, const LockOptions &options)
        : m_source(source), m_options(&options)
    {
        m_counter = firstCounter(source, options);
    }

    // An acquire at `now` (after settle(now)). With `wait`, an acquire that would be refused
    // joins the waiters instead (giving up at now + waitFor when waitFor > 0).
    Reply acquire(std::uint32_t client, Tick ttl, Tick now, bool wait = false, Tick waitFor = 0,
                  std::uint32_t action = 0)
    {
        expireThrough(now);
        if (m_source == TokenSource::KafkaEpoch) {
            // InitProducerId is never refused: it fences whoever held the epoch, itself too
            grant(client, ttl, now, nextToken(now));
            return {Outcome::Grant, m_token, m_epoch, m_holder, m_expires};
        }
        if (isLive(now)) {
            if (m_holder == client) {
                // the live holder renews: the owner has not changed, so neither does the token
                m_expires = now + ttl;
                m_ttl = ttl;
                return {Outcome::Renewal, m_token, m_epoch, m_holder, m_expires};
            }
            return refuseOrWait(client, ttl, now, wait, waitFor, action, m_holder, m_epoch,
                                m_token);
        }
        // waiters come first, then a lock-delay keeps everyone but the expired holder out
        if (!m_waiters.empty())
            return refuseOrWait(client, ttl, now, wait, waitFor, action, m_waiters.front().client,
                                0, 0);
        if (now < m_delayUntil && client != m_delayClient)
            return refuseOrWait(client, ttl, now, wait, waitFor, action, m_delayClient, m_epoch,
                                m_token);
        grant(client, ttl, now, nextToken(now));
        return {Outcome::Grant, m_token, m_epoch, m_holder, m_expires};
    }

    // A keepalive (section 11): the live holder's lease is extended to now + ttl, keeping its
    // token and epoch (for Kafka too: a heartbeat). False when `client` is not the live holder:
    // the keepalive found its lease gone, and nothing changes.
    bool renew(std::uint32_t client, Tick ttl, Tick now)
    {
        expireThrough(now);
        if (!isLiveHolder(client, now))
            return false;
        m_expires = now + ttl;
        m_ttl = ttl;
        return true;
    }

    // True when `client` was the live holder and has now given the lock up.
    bool release(std::uint32_t client, Tick now)
    {
        if (!isLive(now) || m_holder != client)
            return false;
        m_expires = now; // the lease ends at this tick
        if (m_keyLive)
            changeKeySpace(1); // etcd, zookeeper: the lock key is deleted
        m_keyLive = false;
        return true;
    }

    // Whether the first waiter can have the lock at `now`, and if so grants it. Returns the
    // waiter that was served (its grant is then the lock's state), or nothing.
    bool serveWaiter(Tick now, Waiter *served)
    {
        expireThrough(now);
        if (m_waiters.empty() || isLive(now))
            return false;
        const Waiter w = m_waiters.front();
        if (now < m_delayUntil && w.client != m_delayClient)
            return false;
        m_waiters.erase(m_waiters.begin());
        // etcd and zookeeper: the waiter's own key, created when it began to wait, is the lock
        grant(w.client, w.ttl, now, isKeyed() ? w.key : nextToken(now));
        *served = w;
        return true;
    }

    // Removes the first waiter whose waitFor runs out at `now` into `gaveUp`; false when none.
    bool giveUp(Tick now, Waiter *gaveUp)
    {
        for (auto it = m_waiters.begin(); it != m_waiters.end(); ++it) {
            if (it->giveUp == now) {
                *gaveUp = *it;
                m_waiters.erase(it);
                changeKeySpace(1); // its key is deleted
                return true;
            }
        }
        return false;
    }

    // Lazy bookkeeping that nobody sees until the next call: etcd's background puts through
    // tick `t`, and a lease end at or before `t` (its key deleted, a lock-delay begun).
    void settle(Tick t)
    {
        putsThrough(t);
        expireThrough(t);
    }
    void putsThrough(Tick t)
    {
        const Tick every = m_options && m_source == TokenSource::Etcd ? m_options->putsEvery : 0;
        if (every && t > m_putsThrough)
            m_counter += t / every - m_putsThrough / every;
        if (t > m_putsThrough)
            m_putsThrough = t;
    }
    void expireThrough(Tick t)
    {
        if (!m_keyLive || m_expires > t)
            return;
        m_keyLive = false;
        changeKeySpace(1); // etcd, zookeeper: the session's key goes with its lease
        if (m_delayOnExpiry && m_options && m_options->lockDelay) {
            m_delayUntil = m_expires + m_options->lockDelay;
            m_delayClient = m_holder;
        }
    }

    // A new ZooKeeper leader: zkEpoch + 1, counter 0.
    void failover()
    {
        if (m_source == TokenSource::ZooKeeper)
            m_counter = ((m_counter >> 32) + 1) << 32;
    }
    // A Raft term passes without a leader (raft-term: the lock's own group; service-term: the
    // lock service's).
    void failedElection()
    {
        if (m_source == TokenSource::RaftTerm || m_source == TokenSource::ServiceTerm)
            ++m_counter;
    }
    // service-term: the lock service's own leader changed, a new term (section 15.2).
    void election()
    {
        if (m_source == TokenSource::ServiceTerm)
            ++m_counter;
    }
    // A new leader starts the live lease's timeout afresh (section 15.3: ZooKeeper's session
    // tracker at a failover): its end becomes now + the ttl that last set it. The holder is
    // not told. False when no lease is live at `now`.
    bool rearm(Tick now)
    {
        if (!isLive(now))
            return false;
        m_expires = now + m_ttl;
        return true;
    }

    // At the start of tick `now` the service comes back as `snapshot` was at the end of tick
    // `from` (section 14, "Restores"). Waiters keep waiting; epochs and random's draws go on.
    // etcd and ZooKeeper re-arm the snapshot's holder when its lease was live at the end of
    // `from` (section 15.3: the new leader refreshes every lease): it then holds until now +
    // the ttl that set it. Returns true when it did.
    bool restore(const LockService &snapshot, Tick from, Token bump, Tick now)
    {
        m_holder = snapshot.m_holder;
        m_expires = snapshot.m_expires;
        m_ttl = snapshot.m_ttl;
        const bool rearmed = isKeyed() && snapshot.m_holder != kNobody && snapshot.m_keyLive &&
                             snapshot.m_expires > from;
        if (rearmed)
            m_expires = now + m_ttl; // (its key stays: it is not deleted at `now`)
        m_token = snapshot.m_token;
        m_epoch = snapshot.m_epoch;
        m_keyLive = snapshot.m_keyLive;
        m_delayUntil = snapshot.m_delayUntil;
        m_delayClient = snapshot.m_delayClient;
        if (hasCounter(m_source))
            m_counter = snapshot.m_counter + bump;
        // a snapshot lease that ended meanwhile is deleted now, but that is no expiry to delay
        m_delayOnExpiry = !(m_keyLive && m_expires <= now);
        m_putsThrough = now ? now - 1 : 0; // the puts after `from` are forgotten with the rest
        // keys of waiters that came after the snapshot are gone: each creates its key again
        for (Waiter &w : m_waiters)
            if (w.since > from &&
                (m_source == TokenSource::Etcd || m_source == TokenSource::ZooKeeper))
                w.key = ++m_counter;
        return rearmed;
    }

    bool isLive(Tick now) const { return m_holder != kNobody && now < m_expires; }
    bool isLiveHolder(std::uint32_t client, Tick now) const
    {
        return isLive(now) && m_holder == client;
    }
    std::uint32_t holder() const { return m_holder; }
    Token token() const { return m_token; }
    // The epoch of the holder's grant (after a restore: the snapshot holder's).
    std::uint32_t epoch() const { return m_epoch; }
    // Grants so far: the newest epoch.
    std::uint32_t epochCount() const { return m_epochCount; }
    Tick expires() const { return m_expires; }
    // The ttl of the grant or renewal that last set the lease's end (what a re-arm uses).
    Tick ttl() const { return m_ttl; }
    TokenSource source() const { return m_source; }
    // The source's own counter: next counter/chubby/kafka token, etcd revision, zxid, term.
    Token counter() const { return m_counter; }
    const std::vector<Waiter> &waiters() const { return m_waiters; }
    Tick delayUntil() const { return m_delayUntil; }

    // The next tick at which the waiters need the service: the first give-up, and the tick
    // the lock can be free for the first waiter (kNoTick: none).
    Tick nextGiveUp() const
    {
        Tick t = kNoTick;
        for (const Waiter &w : m_waiters)
            t = std::min(t, w.giveUp);
        return t;
    }
    Tick nextFree() const
    {
        if (m_waiters.empty())
            return kNoTick;
        Tick t = m_holder == kNobody ? 0 : m_expires;
        if (m_waiters.front().client != m_delayClient)
            t = std::max(t, m_delayUntil);
        return t;
    }

    // The same state: every later call gets the same reply from both.
    friend bool operator==(const LockService &a, const LockService &b)
    {
        return a.m_holder == b.m_holder && a.m_expires == b.m_expires && a.m_ttl == b.m_ttl &&
               a.m_token == b.m_token && a.m_epoch == b.m_epoch &&
               a.m_epochCount == b.m_epochCount && a.m_counter == b.m_counter &&
               a.m_delayUntil == b.m_delayUntil && a.m_delayClient == b.m_delayClient &&
               a.m_putsThrough == b.m_putsThrough && a.m_keyLive == b.m_keyLive &&
               a.m_delayOnExpiry == b.m_delayOnExpiry && a.m_source == b.m_source &&
               a.m_waiters == b.m_waiters;
    }

private:
    Reply refuseOrWait(std::uint32_t client, Tick ttl, Tick now, bool wait, Tick waitFor,
                       std::uint32_t action, std::uint32_t inTheWay, std::uint32_t epoch,
                       Token token)
    {
        if (wait || waitFor) {
            // etcd's Lock() and Curator create their own key and watch the one before it
            changeKeySpace(1);
            Waiter w;
            w.client = client;
            w.action = action;
            w.ttl = ttl;
            w.since = now;
            w.giveUp = waitFor ? now + waitFor : kNoTick;
            w.key = isKeyed() ? m_counter : 0;
            m_waiters.push_back(w);
            return {Outcome::Wait, token, epoch, inTheWay, m_expires};
        }
        changeKeySpace(2); // it created its own key, saw an older one and deleted its own
        return {Outcome::Refusal, token, epoch, inTheWay, m_expires};
    }

    void grant(std::uint32_t client, Tick ttl, Tick now, Token token)
    {
        ++m_epochCount;
        m_epoch = m_epochCount;
        m_token = token;
        m_holder = client;
        m_expires = now + ttl;
        m_ttl = ttl;
        m_keyLive = true;
        m_delayOnExpiry = true;
        m_delayUntil = 0; // a grant ends any lock-delay
        m_delayClient = kNobody;
    }

    // The token of a new grant that creates no waiter's key.
    Token nextToken(Tick now)
    {
        switch (m_source) {
        case TokenSource::Counter:
        case TokenSource::Chubby:
        case TokenSource::KafkaEpoch:
            return m_counter++;
        case TokenSource::Etcd:
        case TokenSource::ZooKeeper:
        case TokenSource::RaftTerm:
            return ++m_counter; // the creating change (a new term) is the token
        case TokenSource::ServiceTerm:
            return m_counter; // the service leader's current term: shared by its grants
        case TokenSource::None:
            return 0;
        case TokenSource::Random:
            return randomToken(m_options ? m_options->seed : 1, m_epochCount + 1);
        case TokenSource::WallClock:
            return m_options ? wallClockToken(*m_options, now) : now + 1000;
        }
        return 0;
    }

    // etcd and zookeeper: the lock is a key (znode) whose creating change is its token
    bool isKeyed() const
    {
        return m_source == TokenSource::Etcd || m_source == TokenSource::ZooKeeper;
    }
    void changeKeySpace(Token changes)
    {
        if (isKeyed())
            m_counter += changes;
    }

    std::uint32_t m_holder = kNobody;
    Tick m_expires = 0;
    Tick m_ttl = 0;
    Token m_token = 0;
    std::uint32_t m_epoch = 0;
    std::uint32_t m_epochCount = 0;
    Token m_counter = 1; // counter's default: the first token is 1
    Tick m_delayUntil = 0;
    std::uint32_t m_delayClient = kNobody;
    Tick m_putsThrough = 0;
    bool m_keyLive = false;      // the holder's lease has not ended by expiry or release yet
    bool m_delayOnExpiry = true; // false for a restored lease that already ended
    TokenSource m_source = TokenSource::Counter;
    const LockOptions *m_options = nullptr;
    std::vector<Waiter> m_waiters; // in the order they began to wait
};

} // namespace Core
