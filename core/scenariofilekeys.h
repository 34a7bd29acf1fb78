#pragma once

// The keys of scenario file version 1 (docs/SCENARIO.md section 7): one table, which the reader
// (scenariofileread.cpp) matches raw keys against, tells known keys from kept ones with, and
// the writers (scenariofilewrite.cpp, lockoptionsfile.cpp) spell them from; the lock options'
// reader (lockoptionsfile.cpp) looks its keys up by the same names. Internal to the core.

#include <QString>

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>

namespace Core::ScenarioFormat {

enum class Key : std::uint8_t
{
    // the root
    Fencescope,
    Title,
    Description,
    Horizon,
    Fencing,
    Lock,
    Storages,
    Clients,
    // lock, storages[i], clients[i]
    Tokens,
    Name,
    Rule,
    Actions,
    // clients[i].actions[j]
    At,
    Do,
    Ttl,
    For,
    Value,
    Storage,
    Delay,
    // clients[i].actions[j], docs/SCENARIO.md sections 11 and 12 (right after Delay: one range)
    Keepalive,
    Check, // also storages[i]
    Gap,
    Group,
    // clients[i], its clock and the clock's steps
    Clock,
    Bypass,
    Rate,
    Steps,
    By,
    // storages[i]
    MaxToken,
    Restarts,
    // lock (token sources, restores, lock-delay) and an acquire's wait keys: read and written by
    // lockoptionsfile.cpp from the kept keys (docs/SCENARIO.md sections 9, 10 and 14), never
    // matched by the reader itself
    First,
    Revision,
    Puts,
    Every,
    Failovers,
    FailedElections,
    Seed,
    ClockOffset,
    ClockSteps,
    Restores,
    Elections,
    From,
    Bump,
    LockDelay,
    Wait,
    WaitFor,
    Unknown
};
constexpr std::size_t kKeys = std::size_t(Key::Unknown);
constexpr std::array<std::string_view, kKeys> kKeyNames = {
    "fencescope", "title",       "description", "horizon",  "fencing",   "lock",
    "storages",   "clients",     "tokens",      "name",     "rule",      "actions",
    "at",         "do",          "ttl",         "for",      "value",     "storage",
    "delay",      "keepalive",   "check",       "gap",      "group",     "clock",
    "bypass",     "rate",        "steps",       "by",       "maxToken",  "restarts",
    "first",      "revision",    "puts",        "every",    "failovers", "failedElections",
    "seed",       "clockOffset", "clockSteps",  "restores", "elections", "from",
    "bump",       "lockDelay",   "wait",        "waitFor"};

// Which keys an object of each kind knows.
using KeySet = std::uint64_t;
static_assert(kKeys <= 64, "one bit per key");
constexpr KeySet keys(std::initializer_list<Key> list)
{
    KeySet set = 0;
    for (Key k : list)
        set |= KeySet(1) << std::size_t(k);
    return set;
}
constexpr KeySet kRootKeys = keys({Key::Fencescope, Key::Title, Key::Description, Key::Horizon,
                                   Key::Fencing, Key::Lock, Key::Storages, Key::Clients});
constexpr KeySet kLockKeys = keys({Key::Tokens});
constexpr KeySet kStorageKeys =
    keys({Key::Name, Key::Rule, Key::Check, Key::MaxToken, Key::Restarts});
constexpr KeySet kClientKeys = keys({Key::Name, Key::Actions, Key::Clock, Key::Bypass});
constexpr KeySet kClockKeys = keys({Key::Rate, Key::Steps});
constexpr KeySet kStepKeys = keys({Key::At, Key::By});
constexpr KeySet kActionKeys = keys({Key::At, Key::Do, Key::Ttl, Key::For, Key::Value, Key::Storage,
                                     Key::Delay, Key::Keepalive, Key::Check, Key::Gap, Key::Group});

// A key as the writer spells it: the reader's list is the writer's (each name is a literal, so
// its bytes end in a NUL).
inline const char *keyText(Key k)
{
    return kKeyNames[std::size_t(k)].data();
}

inline QString keyName(Key k)
{
    return QString::fromLatin1(kKeyNames[std::size_t(k)].data(),
                               qsizetype(kKeyNames[std::size_t(k)].size()));
}

// A known key and its closing quote as the two 8-byte words a raw key is compared with.
struct PackedKey
{
    std::uint64_t word[2] = {};
    std::uint64_t mask[2] = {};
};
constexpr std::uint64_t byteAt(std::size_t i, unsigned char c)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return std::uint64_t(c) << (8 * (7 - i));
#else
    return std::uint64_t(c) << (8 * i);
#endif
}
constexpr std::array<PackedKey, kKeys> packKeys()
{
    std::array<PackedKey, kKeys> packed{};
    for (std::size_t k = 0; k < kKeys; ++k) {
        const std::string_view name = kKeyNames[k];
        for (std::size_t i = 0; i <= name.size(); ++i) {
            const unsigned char c = i < name.size() ? name[i] : '"';
            packed[k].word[i / 8] |= byteAt(i % 8, c);
            packed[k].mask[i / 8] |= byteAt(i % 8, 0xff);
        }
    }
    return packed;
}
// (a name of 16 bytes or more would not compile: word[2] is out of range in a constant)
constexpr std::array<PackedKey, kKeys> kPackedKeys = packKeys();

// Whether the raw key at `raw` (just past its opening quote) is `k`'s name and its closing
// quote. The raw key is followed by its value, the end of the object and the padding, so
// reading 16 bytes from its start stays inside the buffer.
inline bool rawIs(const char *raw, Key k)
{
    const PackedKey &p = kPackedKeys[std::size_t(k)];
    std::uint64_t have = 0;
    std::memcpy(&have, raw, 8);
    if ((have & p.mask[0]) != p.word[0])
        return false;
    if (p.mask[1] == 0)
        return true;
    std::memcpy(&have, raw + 8, 8);
    return (have & p.mask[1]) == p.word[1];
}

// The known key spelled by the raw bytes, without escapes; Unknown otherwise. A switch on the
// first byte: a million actions have five keys each, and trying every known key was the
// loader's largest cost.
inline Key rawKey(const char *raw)
{
    switch (raw[0]) {
    case 'a':
        return rawIs(raw, Key::At)        ? Key::At
               : rawIs(raw, Key::Actions) ? Key::Actions
                                          : Key::Unknown;
    case 'b':
        return rawIs(raw, Key::Bypass) ? Key::Bypass : rawIs(raw, Key::By) ? Key::By : Key::Unknown;
    case 'c':
        return rawIs(raw, Key::Clients) ? Key::Clients
               : rawIs(raw, Key::Check) ? Key::Check
               : rawIs(raw, Key::Clock) ? Key::Clock
                                        : Key::Unknown;
    case 'd':
        return rawIs(raw, Key::Do)            ? Key::Do
               : rawIs(raw, Key::Delay)       ? Key::Delay
               : rawIs(raw, Key::Description) ? Key::Description
                                              : Key::Unknown;
    case 'f':
        return rawIs(raw, Key::For)          ? Key::For
               : rawIs(raw, Key::Fencing)    ? Key::Fencing
               : rawIs(raw, Key::Fencescope) ? Key::Fencescope
                                             : Key::Unknown;
    case 'g':
        return rawIs(raw, Key::Gap) ? Key::Gap : rawIs(raw, Key::Group) ? Key::Group : Key::Unknown;
    case 'h':
        return rawIs(raw, Key::Horizon) ? Key::Horizon : Key::Unknown;
    case 'k':
        return rawIs(raw, Key::Keepalive) ? Key::Keepalive : Key::Unknown;
    case 'l':
        return rawIs(raw, Key::Lock) ? Key::Lock : Key::Unknown;
    case 'm':
        return rawIs(raw, Key::MaxToken) ? Key::MaxToken : Key::Unknown;
    case 'n':
        return rawIs(raw, Key::Name) ? Key::Name : Key::Unknown;
    case 'r':
        return rawIs(raw, Key::Rule)       ? Key::Rule
               : rawIs(raw, Key::Rate)     ? Key::Rate
               : rawIs(raw, Key::Restarts) ? Key::Restarts
                                           : Key::Unknown;
    case 's':
        return rawIs(raw, Key::Storage)    ? Key::Storage
               : rawIs(raw, Key::Storages) ? Key::Storages
               : rawIs(raw, Key::Steps)    ? Key::Steps
                                           : Key::Unknown;
    case 't':
        return rawIs(raw, Key::Ttl)      ? Key::Ttl
               : rawIs(raw, Key::Title)  ? Key::Title
               : rawIs(raw, Key::Tokens) ? Key::Tokens
                                         : Key::Unknown;
    case 'v':
        return rawIs(raw, Key::Value) ? Key::Value : Key::Unknown;
    default:
        return Key::Unknown;
    }
}

} // namespace Core::ScenarioFormat
