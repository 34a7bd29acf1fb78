// Lane, part: its storages. A write is a Txn on the storage's keys in etcd, fenced or not, or
// with --store postgres an UPDATE of the storage's row; a read learns the version. The lock and
// the keepalives are in lane.cpp.
#include "lane.h"

#include "lanecalls.h"

#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace Live {

using namespace LaneCalls;

void Lane::write(const LaneAction &a)
{
    if (!a.check) {
        send(a, m_token, false);
        return;
    }
    // check-then-write (section 11): the client's own view of its own lease, by its own clock
    const qint64 now = monotonicNs();
    const bool live = m_believes && now - m_viewFrom < m_viewTtlNs;
    emitEvent("checked", {{QStringLiteral("action"), double(a.index)},
                          {QStringLiteral("passed"), live},
                          {QStringLiteral("sendAt"), double(a.at + a.gap)}});
    if (!live) {
        m_believes = false; // a skipped check ends the belief
        finishAction();
        return;
    }
    const std::uint64_t token = m_token; // the token remembered at the check
    if (a.gap == 0) {
        send(a, token, true);
        return;
    }
    // the send does not hold up the client's later actions
    at(dueNs(a.at + a.gap), [this, a, token] { send(a, token, true); });
    finishAction();
}

// The write leaves the client now; with a delay it is held that long before it is sent.
void Lane::send(const LaneAction &a, std::uint64_t token, bool checked)
{
    const bool inAction = m_busy && !(a.check && a.gap > 0);
    QJsonObject sent{{QStringLiteral("action"), double(a.index)},
                     {QStringLiteral("token"), token ? QJsonValue(num(token)) : QJsonValue()},
                     {QStringLiteral("checked"), checked}};
    if (m_script.storages[a.storage].byVersion)
        sent.insert(QStringLiteral("expected"), double(m_known[a.storage]));
    emitEvent("sent", sent);
    if (a.amount == 0) {
        store(a, token, inAction);
        return;
    }
    const qint64 due = monotonicNs() + qint64(a.amount) * m_script.tickUs * 1000;
    at(due, [this, a, token] { store(a, token, false); });
    if (inAction)
        finishAction();
}

// The write reaches a storage in PostgreSQL: one UPDATE, fenced by its WHERE, answered by the
// count of rows it changed.
void Lane::storeInPostgres(const LaneAction &a, std::uint64_t token, bool finishesAction)
{
    const LaneStorage &st = m_script.storages[a.storage];
    const bool fenced = m_script.fencing && !m_script.bypass;
    QSqlQuery q(QSqlDatabase::database(kConnection));
    QString condition;
    if (fenced && st.bySame)
        condition = token == 0 ? QStringLiteral(" AND false")
                               : QStringLiteral(" AND (NOT recorded OR max_token = :token)");
    else if (fenced && st.byVersion)
        condition = QStringLiteral(" AND version = :expected"); // compare-and-set
    else if (fenced && token == 0)
        condition = QStringLiteral(" AND false"); // untagged: rejected (section 4)
    else if (fenced)
        condition = st.le ? QStringLiteral(" AND max_token < :token")
                          : QStringLiteral(" AND max_token <= :token");
    const bool setsMax = fenced && !st.byVersion && token != 0;
    q.prepare(
        QStringLiteral("UPDATE storage SET value = :value, version = version + 1%1 WHERE "
                       "id = :id%2 RETURNING max_token, version")
            .arg(setsMax ? QStringLiteral(", max_token = :token, recorded = true") : QString(),
                 condition));
    q.bindValue(QStringLiteral(":value"), a.value);
    q.bindValue(QStringLiteral(":id"), int(a.storage));
    if (condition.contains(QLatin1String(":expected")))
        q.bindValue(QStringLiteral(":expected"), qint64(m_known[a.storage]));
    if (setsMax || condition.contains(QLatin1String(":token")))
        q.bindValue(QStringLiteral(":token"), qint64(token));
    if (!q.exec()) {
        fail(QStringLiteral("PostgreSQL: %1").arg(q.lastError().text()));
        return;
    }
    const bool applied = q.numRowsAffected() == 1;
    if (!applied) { // the answer: the row as it stands
        q.prepare(QStringLiteral("SELECT max_token, version FROM storage WHERE id = :id"));
        q.bindValue(QStringLiteral(":id"), int(a.storage));
        if (!q.exec()) {
            fail(QStringLiteral("PostgreSQL: %1").arg(q.lastError().text()));
            return;
        }
    }
    std::uint64_t maxToken = 0, version = 0;
    if (q.next()) {
        maxToken = std::uint64_t(q.value(0).toLongLong());
        version = std::uint64_t(q.value(1).toLongLong());
    }
    if (applied)
        m_known[a.storage] = version;
    else if (token == m_token && m_believes)
        m_believes = false;
    emitEvent("written", {{QStringLiteral("action"), double(a.index)},
                          {QStringLiteral("applied"), applied},
                          {QStringLiteral("max"), num(st.byVersion ? 0 : maxToken)},
                          {QStringLiteral("version"), double(version)}});
    if (finishesAction)
        finishAction();
}

// The write reaches the storage: one Txn, fenced or not. Every branch ends with a read of the
// value key (its version) and, but for a version storage, of the max_token key (the answer).
void Lane::store(const LaneAction &a, std::uint64_t token, bool finishesAction)
{
    if (!m_script.postgres.isEmpty()) {
        storeInPostgres(a, token, finishesAction);
        return;
    }
    const LaneStorage &st = m_script.storages[a.storage];
    const QString value = valueKey(m_script.prefix, a.storage);
    const QString max = maxKey(m_script.prefix, a.storage);
    const bool fenced = m_script.fencing && !m_script.bypass;
    QJsonArray reads{Etcd::range(value)};
    if (!st.byVersion)
        reads.append(Etcd::range(max));
    const auto then = [&reads](QJsonArray ops) {
        for (const QJsonValue r : reads)
            ops.append(r);
        return ops;
    };
    QJsonObject txn;
    if (!fenced) {
        // an unfenced storage or path: applied, and max_token (the record) left alone
        txn = Etcd::txn({}, then({Etcd::put(value, a.value)}), {});
    } else if (st.byVersion) {
        // compare-and-set on the mod_revision it last read (0: a key it never saw)
        txn = Etcd::txn({Etcd::compare(value, "MOD", "EQUAL", num(m_knownMod[a.storage]))},
                        then({Etcd::put(value, a.value)}), then({}));
    } else if (st.byOwner) {
        // the Txn etcd's recipe guards a write with (mutex.go, IsOwner): the writer's own lock
        // key, still created at its token's revision; a key it no longer has is not there
        const QString key = token != 0 && token == m_token && !m_leaseHex.isEmpty()
                                ? lockKey(m_script.prefix, m_leaseHex)
                                : lockKey(m_script.prefix, QStringLiteral("none"));
        txn = Etcd::txn({Etcd::compare(key, "CREATE", "EQUAL", num(token ? token : 1))},
                        then({Etcd::put(value, a.value), Etcd::put(max, paddedToken(token))}),
                        then({}));
    } else if (st.bySame) {
        // the first token is recorded, and only that one applies afterwards (contrib/lock)
        const QJsonObject inner =
            Etcd::txn({Etcd::compare(max, "VALUE", "EQUAL", paddedToken(token))},
                      then({Etcd::put(value, a.value)}), then({}));
        txn = token == 0
                  ? Etcd::txn({}, then({}), {}) // untagged: nothing applies
                  : Etcd::txn({Etcd::compare(max, "CREATE", "EQUAL", QStringLiteral("0"))},
                              then({Etcd::put(max, paddedToken(token)), Etcd::put(value, a.value)}),
                              {QJsonObject{{QStringLiteral("request_txn"), inner}}});
    } else {
        // apply only while max_token is not above the token (lt), or below it (le); an
        // untagged write compares with "", which nothing is below
        const QString bound = token == 0 ? QString() : paddedToken(st.le ? token : token + 1);
        txn = Etcd::txn({Etcd::compare(max, "VALUE", "LESS", bound)},
                        then({Etcd::put(value, a.value), Etcd::put(max, paddedToken(token))}),
                        then({}));
    }
    const bool untaggedSame = fenced && st.bySame && token == 0;
    call(kTxn, txn, [this, a, token, finishesAction, st, untaggedSame](const QJsonObject &t) {
        bool applied = t.value(QLatin1String("succeeded")).toBool() && !untaggedSame;
        QJsonArray responses = t.value(QLatin1String("responses")).toArray();
        if (!applied && responses.size() == 1 &&
            responses[0].toObject().contains(QLatin1String("response_txn"))) {
            const QJsonObject inner = responses[0][QLatin1String("response_txn")].toObject();
            applied = inner.value(QLatin1String("succeeded")).toBool();
            responses = inner.value(QLatin1String("responses")).toArray();
        }
        // the reads at the end of the branch taken
        const int reads = st.byVersion ? 1 : 2;
        const auto kvsAt = [&](int fromEnd) {
            const qsizetype i = responses.size() - fromEnd;
            return i < 0 ? QJsonArray()
                         : responses[i][QLatin1String("response_range")][QLatin1String("kvs")]
                               .toArray();
        };
        const QJsonArray v = kvsAt(reads);
        const std::uint64_t version =
            v.isEmpty() ? 0 : EtcdGateway::number(v[0][QLatin1String("version")]);
        const std::uint64_t mod =
            v.isEmpty() ? 0 : EtcdGateway::number(v[0][QLatin1String("mod_revision")]);
        std::uint64_t maxToken = 0;
        if (!st.byVersion) {
            const QJsonArray m = kvsAt(1);
            if (!m.isEmpty())
                maxToken = EtcdGateway::text(m[0][QLatin1String("value")]).toULongLong();
        }
        if (applied) {
            m_known[a.storage] = version; // the reply tells the new version
            m_knownMod[a.storage] = mod;
        } else if (token == m_token && m_believes) {
            m_believes = false; // the rejection's reply: the lock is gone
        }
        emitEvent("written", {{QStringLiteral("action"), double(a.index)},
                              {QStringLiteral("applied"), applied},
                              {QStringLiteral("max"), num(maxToken)},
                              {QStringLiteral("version"), double(version)},
                              {QStringLiteral("rev"), num(Etcd::revision(t))}});
        if (finishesAction)
            finishAction();
    });
}

void Lane::read(const LaneAction &a)
{
    emitEvent("readsent", {{QStringLiteral("action"), double(a.index)}});
    const auto fetch = [this, a](bool finishes) {
        if (!m_script.postgres.isEmpty()) {
            QSqlQuery q(QSqlDatabase::database(kConnection));
            q.prepare(QStringLiteral("SELECT version FROM storage WHERE id = :id"));
            q.bindValue(QStringLiteral(":id"), int(a.storage));
            if (!q.exec() || !q.next()) {
                fail(QStringLiteral("PostgreSQL: %1").arg(q.lastError().text()));
                return;
            }
            m_known[a.storage] = std::uint64_t(q.value(0).toLongLong());
            emitEvent("read", {{QStringLiteral("action"), double(a.index)},
                               {QStringLiteral("version"), double(m_known[a.storage])}});
            if (finishes)
                finishAction();
            return;
        }
        call(kRange,
             {{QStringLiteral("key"), EtcdGateway::bytes(valueKey(m_script.prefix, a.storage))}},
             [this, a, finishes](const QJsonObject &r) {
                 const QJsonArray kvs = Etcd::kvs(r);
                 const std::uint64_t version =
                     kvs.isEmpty() ? 0 : EtcdGateway::number(kvs[0][QLatin1String("version")]);
                 m_known[a.storage] = version;
                 m_knownMod[a.storage] =
                     kvs.isEmpty() ? 0 : EtcdGateway::number(kvs[0][QLatin1String("mod_revision")]);
                 emitEvent("read", {{QStringLiteral("action"), double(a.index)},
                                    {QStringLiteral("version"), double(version)}});
                 if (finishes)
                     finishAction();
             });
    };
    if (a.amount == 0) {
        fetch(true);
        return;
    }
    at(monotonicNs() + qint64(a.amount) * m_script.tickUs * 1000, [fetch] { fetch(false); });
    finishAction();
}

} // namespace Live
