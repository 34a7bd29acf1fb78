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
    if (fenced && st.byVersion)
        condition = QStringLiteral(" AND version = :expected"); // compare-and-set
    else if (fenced && token == 0)
        condition = QStringLiteral(" AND false"); // untagged: rejected (section 4)
    else if (fenced)
        condition = st.le ? QStringLiteral(" AND max_token < :token")
                          : QStringLiteral(" AND max_token <= :token");
    const bool setsMax = fenced && !st.byVersion && token != 0;
    q.prepare(QStringLiteral("UPDATE storage SET value = :value, version = version + 1%1 WHERE "
                             "id = :id%2 RETURNING max_token, version")
                  .arg(setsMax ? QStringLiteral(", max_token = :token") : QString(), condition));
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

// The write reaches the storage: one Txn, fenced or not.
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
    QJsonArray compares;
    QJsonArray success{Etcd::put(value, a.value)};
    QJsonArray failure;
    if (st.byVersion) {
        // compare-and-set on the mod_revision it last read (0: a key it never saw)
        if (fenced)
            compares.append(Etcd::compare(value, "MOD", "EQUAL", num(m_knownMod[a.storage])));
        success.append(Etcd::range(value));
        failure.append(Etcd::range(value));
    } else {
        if (fenced) {
            // apply only while max_token is not above the token (lt), or below it (le); an
            // untagged write compares with "", which nothing is below
            const QString bound = token == 0 ? QString() : paddedToken(st.le ? token : token + 1);
            compares.append(Etcd::compare(max, "VALUE", "LESS", bound));
            success.append(Etcd::put(max, paddedToken(token)));
        }
        success.append(Etcd::range(value));
        success.append(Etcd::range(max));
        failure.append(Etcd::range(value));
        failure.append(Etcd::range(max));
    }
    call(kTxn, Etcd::txn(compares, success, failure),
         [this, a, token, finishesAction, st, fenced](const QJsonObject &t) {
             const bool applied = t.value(QLatin1String("succeeded")).toBool();
             // (the ranges come after the puts of the branch taken)
             const int firstRange = applied ? (st.byVersion ? 1 : (fenced ? 2 : 1)) : 0;
             const QJsonArray v = Etcd::txnKvs(t, firstRange);
             const std::uint64_t version =
                 v.isEmpty() ? 0 : EtcdGateway::number(v[0][QLatin1String("version")]);
             const std::uint64_t mod =
                 v.isEmpty() ? 0 : EtcdGateway::number(v[0][QLatin1String("mod_revision")]);
             std::uint64_t maxToken = 0;
             if (!st.byVersion) {
                 const QJsonArray m = Etcd::txnKvs(t, firstRange + 1);
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
