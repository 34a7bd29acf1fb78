#pragma once

// What the two files of Lane (lane.cpp: the lock; lanestorage.cpp: the storages) share: the
// gateway's paths they call, the connection of a lane to PostgreSQL, and two small helpers.
// Internal to live/.

#include "etcdgateway.h"

#include <QJsonValue>
#include <QString>

namespace Live::LaneCalls {

inline const QString kGrant = QStringLiteral("/v3/lease/grant");
inline const QString kKeepalive = QStringLiteral("/v3/lease/keepalive");
inline const QString kRevoke = QStringLiteral("/v3/lease/revoke");
inline const QString kTxn = QStringLiteral("/v3/kv/txn");
inline const QString kRange = QStringLiteral("/v3/kv/range");
inline const QString kDelete = QStringLiteral("/v3/kv/deleterange");
inline const QString kWatch = QStringLiteral("/v3/watch");
inline const QString kConnection = QStringLiteral("lane");

inline QString num(std::uint64_t n)
{
    return QString::number(n);
}

// The lease a lock key belongs to, from its name "<lock>/<lease in hex>".
inline QString leaseOfKey(const QJsonValue &base64Key)
{
    const QString key = EtcdGateway::text(base64Key);
    return key.mid(key.lastIndexOf(QLatin1Char('/')) + 1);
}

} // namespace Live::LaneCalls
