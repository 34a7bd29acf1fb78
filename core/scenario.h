#pragma once

// What the user drew: clients with their scheduled actions, storages and options.
// Plain value types; the simulator turns a Scenario into a Trace (trace.h).

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace Core {

using Tick = std::uint64_t;
using Token = std::uint64_t;

// Largest integer a scenario file may hold: JSON numbers are exact only up to 2^53.
inline constexpr Tick kMaxFileInteger = Tick(1) << 53;

enum class ActionKind : std::uint8_t { Acquire, Release, Pause, Write };

// The check a storage applies to an arriving token when fencing is on.
enum class FenceRule : std::uint8_t {
    Lt, // reject token < max_token: the correct rule, equal tokens pass
    Le, // reject token <= max_token: the too-strict pitfall
};

enum class TokenSource : std::uint8_t { Counter };

struct Action
{
    Tick at = 0;
    // ttl for Acquire, length for Pause, network delay for Write, unused for Release.
    Tick amount = 0;
    QString value;          // Write only
    std::uint32_t storage = 0; // Write only: index into Scenario::storages
    ActionKind kind = ActionKind::Acquire;
    QJsonObject extra; // keys this version does not know, kept for a lossless save

    static Action acquire(Tick at, Tick ttl);
    static Action release(Tick at);
    static Action pause(Tick at, Tick length);
    static Action write(Tick at, const QString &value, std::uint32_t storage = 0, Tick delay = 0);

    Tick ttl() const { return amount; }
    Tick length() const { return amount; }
    Tick delay() const { return amount; }

    friend bool operator==(const Action &a, const Action &b)
    {
        return a.at == b.at && a.amount == b.amount && a.value == b.value &&
               a.storage == b.storage && a.kind == b.kind && a.extra == b.extra;
    }
    friend bool operator!=(const Action &a, const Action &b) { return !(a == b); }
};

struct Client
{
    QString name;
    std::vector<Action> actions;
    QJsonObject extra;

    friend bool operator==(const Client &a, const Client &b)
    {
        return a.name == b.name && a.actions == b.actions && a.extra == b.extra;
    }
    friend bool operator!=(const Client &a, const Client &b) { return !(a == b); }
};

struct StorageSpec
{
    QString name;
    FenceRule rule = FenceRule::Lt;
    QJsonObject extra;

    friend bool operator==(const StorageSpec &a, const StorageSpec &b)
    {
        return a.name == b.name && a.rule == b.rule && a.extra == b.extra;
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
    std::vector<StorageSpec> storages{StorageSpec{QStringLiteral("db"), FenceRule::Lt, {}}};
    std::vector<Client> clients;
    QJsonObject extra;     // unknown top-level keys
    QJsonObject lockExtra; // unknown keys of "lock"

    std::size_t actionCount() const;
    int clientIndex(const QString &name) const;  // -1 when absent
    int storageIndex(const QString &name) const; // -1 when absent

    friend bool operator==(const Scenario &a, const Scenario &b)
    {
        return a.title == b.title && a.description == b.description && a.horizon == b.horizon &&
               a.fencing == b.fencing && a.tokens == b.tokens && a.storages == b.storages &&
               a.clients == b.clients && a.extra == b.extra && a.lockExtra == b.lockExtra;
    }
    friend bool operator!=(const Scenario &a, const Scenario &b) { return !(a == b); }
};

QString toString(ActionKind kind);  // "acquire", "release", "pause", "write"
QString toString(FenceRule rule);   // "lt", "le"
QString toString(TokenSource src);  // "counter"

} // namespace Core
