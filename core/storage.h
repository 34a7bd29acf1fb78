#pragma once

// The seed's Storage: the fenced resource. One compare and at most one store per write.

#include "scenario.h"

#include <algorithm>
#include <optional>

namespace Core {

// `Value` is what a write stores: a string for the seed's model, or (in the simulator) the
// index of the write, so a write costs no string copy and the value is looked up when needed.
template<typename Value>
class BasicStorage
{
public:
    BasicStorage(bool fenced, FenceRule rule) : m_fenced(fenced), m_rule(rule) {}

    // A write carrying `token` (none: untagged). Returns true when applied; otherwise the
    // caller reports maxToken() back to the writer so it learns it lost the lock.
    bool write(std::optional<Token> token, const Value &value)
    {
        if (m_fenced) {
            if (!token)
                return false;
            // equal tokens are accepted under `lt`: the same holder writes many times
            const bool stale = m_rule == FenceRule::Lt ? *token < m_maxToken : *token <= m_maxToken;
            if (stale)
                return false;
            m_maxToken = *token;
        }
        m_value = value;
        return true;
    }

    // `check: "owner"` (section 15.4): the storage asked the lock service, which answered
    // whether it holds this write's grant with a live lease (`owned`). max_token is only the
    // largest token applied, for display: it decides nothing.
    bool writeIfOwner(bool owned, std::optional<Token> token, const Value &value)
    {
        if (m_fenced) {
            if (!token || !owned)
                return false;
            m_maxToken = std::max(m_maxToken, *token);
        }
        m_value = value;
        return true;
    }

    // `check: "same"` (section 15.5, etcd's contrib/lock storage): the first token is recorded
    // and only that one applies afterwards. Different is not lower: a newer owner is refused.
    bool writeIfSame(std::optional<Token> token, const Value &value)
    {
        if (m_fenced) {
            if (!token || (m_recorded && *token != m_maxToken))
                return false;
            m_maxToken = *token;
            m_recorded = true; // (a recorded token 0 is recorded too)
        }
        m_value = value;
        return true;
    }

    // A write on an unfenced path (a bypass client, section 11): applied without any check,
    // and max_token is left alone.
    void writeUnchecked(const Value &value) { m_value = value; }
    // A restart that loses a volatile max_token (section 12). Returns what was forgotten.
    Token forgetMaxToken()
    {
        const Token t = m_maxToken;
        m_maxToken = 0;
        m_recorded = false;
        return t;
    }

    bool fenced() const { return m_fenced; }
    FenceRule rule() const { return m_rule; }
    Token maxToken() const { return m_maxToken; }
    const Value &value() const { return m_value; }

    friend bool operator==(const BasicStorage &a, const BasicStorage &b)
    {
        return a.m_fenced == b.m_fenced && a.m_rule == b.m_rule && a.m_maxToken == b.m_maxToken &&
               a.m_recorded == b.m_recorded && a.m_value == b.m_value;
    }

private:
    bool m_fenced;
    FenceRule m_rule;
    Token m_maxToken = 0;
    bool m_recorded = false; // `same`: a token has been recorded
    Value m_value{};
};

using Storage = BasicStorage<QString>;

} // namespace Core
