#pragma once

// What one client lane of a live run does, as its process is told it (one JSON object on its
// standard input), and what it reports back (one JSON object per line on its standard output).
// The coordinator (LiveRun) writes the script, the lane (Lane, in fencescope-live --lane) reads
// it; both read the key layout from here.
//
// Keys of a run, all under its prefix (so runs can share an etcd):
//   <prefix>lock/<lease id in hex>   the lock: etcd's concurrency.Mutex keys under "<prefix>lock"
//   <prefix>storage/<n>/value        storage n's value (its etcd version counts applied writes)
//   <prefix>storage/<n>/max          storage n's max_token, zero-padded (etcd compares bytes)
//   <prefix>puts                     the unrelated puts of `lock.puts`

#include "scenario.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace Live {

// What a storage checks, as the lane's writes carry it out.
struct LaneStorage
{
    bool byVersion = false; // compare-and-set on the value key's mod_revision (section 12)
    bool le = false;        // rule le: reject token <= max_token
    bool byOwner = false;   // section 15.4: a Txn guarded by the writer's own lock key
    bool bySame = false;    // section 15.5: only the token it first recorded applies
};

struct LaneAction
{
    std::uint32_t index = 0; // in the client's actions
    Core::Tick at = 0;
    Core::ActionKind kind = Core::ActionKind::Acquire;
    Core::Tick amount = 0; // ttl, or a write's or read's delay
    QString value;
    std::uint32_t storage = 0;
    bool check = false;
    Core::Tick gap = 0;
    Core::Tick keepalive = 0;
    bool wait = false;
    Core::Tick waitFor = 0;
};

struct LaneScript
{
    QString etcd; // the gateway's base URL, http://127.0.0.1:PORT
    // `--store postgres`: the storages are rows of PostgreSQL's table `storage` (its socket's
    // folder and port); empty: keys in etcd
    QString postgres;
    int postgresPort = 0;
    QString prefix; // every key of the run starts with it
    std::uint32_t client = 0;
    QString name;
    bool bypass = false; // an unfenced path: its writes skip the check
    bool fencing = true;
    qint64 tickUs = 0; // one tick in microseconds
    std::vector<LaneStorage> storages;
    std::vector<LaneAction> actions; // in the order they run: by `at`, ties as listed; no pauses

    // The script of `client` in `scenario`.
    static LaneScript of(const Core::Scenario &scenario, std::uint32_t client, bool fencing,
                         qint64 tickUs, const QString &etcd, const QString &prefix,
                         const QString &postgres = {}, int postgresPort = 0);
    QJsonObject toJson() const;
    // nullopt and a message naming the place when `json` is not a script.
    static std::optional<LaneScript> fromJson(const QJsonObject &json, QString *error);
};

// The key layout above.
QString lockPrefix(const QString &prefix);                       // "<prefix>lock"
QString lockKey(const QString &prefix, const QString &leaseHex); // "<prefix>lock/<hex>"
QString valueKey(const QString &prefix, std::uint32_t storage);
QString maxKey(const QString &prefix, std::uint32_t storage);
QString putsKey(const QString &prefix);
// `ticks` of `tickUs` each as whole seconds (etcd's TTLs are), or nullopt when they are not:
// within a microsecond a tick, as a tick of 1/7 s is kept in whole microseconds.
std::optional<qint64> wholeSeconds(Core::Tick ticks, qint64 tickUs);

// A token as the max_token key holds it: 20 digits, so that etcd's byte order is number order.
QString paddedToken(Core::Token token);

} // namespace Live
