#pragma once

// The seed's LockService on a virtual clock: one lock, every new owner gets a higher token.
// O(1) per call. Epochs are the simulator's ground truth and count grants only.

#include "scenario.h"

namespace Core {

class LockService
{
public:
    enum class Outcome : std::uint8_t { Grant, Renewal, Refusal };

    struct Reply
    {
        Outcome outcome;
        Token token;          // for a refusal: the holder's token
        std::uint32_t epoch;  // for a refusal: the holder's epoch
        std::uint32_t holder; // who holds the lock after the call
        Tick expires;         // the holder's lease expiry after the call
    };

    static constexpr std::uint32_t kNobody = 0xffffffffu;

    Reply acquire(std::uint32_t client, Tick ttl, Tick now)
    {
        if (isLive(now)) {
            if (m_holder != client)
                return {Outcome::Refusal, m_token, m_epoch, m_holder, m_expires};
            // the live holder renews: the owner has not changed, so neither does the token
            m_expires = now + ttl;
            return {Outcome::Renewal, m_token, m_epoch, m_holder, m_expires};
        }
        // never held, released or expired (also when the expired holder asks again): a new owner
        ++m_token;
        ++m_epoch;
        m_holder = client;
        m_expires = now + ttl;
        return {Outcome::Grant, m_token, m_epoch, m_holder, m_expires};
    }

    // True when `client` was the live holder and has now given the lock up.
    bool release(std::uint32_t client, Tick now)
    {
        if (!isLive(now) || m_holder != client)
            return false;
        m_expires = now; // the lease ends at this tick
        return true;
    }

    bool isLive(Tick now) const { return m_holder != kNobody && now < m_expires; }
    bool isLiveHolder(std::uint32_t client, Tick now) const
    {
        return isLive(now) && m_holder == client;
    }
    std::uint32_t holder() const { return m_holder; }
    Token token() const { return m_token; }
    std::uint32_t epoch() const { return m_epoch; }
    Tick expires() const { return m_expires; }

    // The same state: every later call gets the same reply from both.
    friend bool operator==(const LockService &a, const LockService &b)
    {
        return a.m_holder == b.m_holder && a.m_expires == b.m_expires && a.m_token == b.m_token &&
               a.m_epoch == b.m_epoch;
    }

private:
    std::uint32_t m_holder = kNobody;
    Tick m_expires = 0;
    Token m_token = 0;
    std::uint32_t m_epoch = 0;
};

} // namespace Core
