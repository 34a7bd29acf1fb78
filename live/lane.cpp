#include "lane.h"

#include "etcdgateway.h"

#include <QJsonArray>
#include <QNetworkReply>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>

#include <cmath>
#include <ctime>

namespace Live {

namespace {

const QString kGrant = QStringLiteral("/v3/lease/grant");
const QString kKeepalive = QStringLiteral("/v3/lease/keepalive");
const QString kRevoke = QStringLiteral("/v3/lease/revoke");
const QString kTxn = QStringLiteral("/v3/kv/txn");
const QString kRange = QStringLiteral("/v3/kv/range");
const QString kDelete = QStringLiteral("/v3/kv/deleterange");
const QString kWatch = QStringLiteral("/v3/watch");
const QString kConnection = QStringLiteral("lane");

QString num(std::uint64_t n)
{
    return QString::number(n);
}

// The lease a lock key belongs to, from its name "<lock>/<lease in hex>".
QString leaseOfKey(const QJsonValue &base64Key)
{
    const QString key = EtcdGateway::text(base64Key);
    return key.mid(key.lastIndexOf(QLatin1Char('/')) + 1);
}

} // namespace

qint64 monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

Lane::Lane(const LaneScript &script, std::function<void(const QJsonObject &)> report,
           QObject *parent)
    : QObject(parent), m_script(script), m_report(std::move(report)),
      m_gw(new EtcdGateway(QUrl(script.etcd), this)), m_actionTimer(new QTimer(this)),
      m_kaTimer(new QTimer(this)), m_waitLeaseTimer(new QTimer(this)),
      m_giveUpTimer(new QTimer(this)), m_known(script.storages.size(), 0),
      m_knownMod(script.storages.size(), 0)
{
    for (QTimer *t : {m_actionTimer, m_kaTimer, m_giveUpTimer}) {
        t->setSingleShot(true);
        t->setTimerType(Qt::PreciseTimer);
    }
    connect(m_actionTimer, &QTimer::timeout, this, &Lane::runNext);
    connect(m_kaTimer, &QTimer::timeout, this, &Lane::keepaliveDue);
    connect(m_waitLeaseTimer, &QTimer::timeout, this, &Lane::keepWaitingLeaseAlive);
    connect(m_giveUpTimer, &QTimer::timeout, this, [this] { giveUp(m_waitAction); });
}

Lane::~Lane() = default;

qint64 Lane::sinceStartUs() const
{
    return (monotonicNs() - m_t0) / 1000;
}

Core::Tick Lane::nowTick() const
{
    const double ticks = double(monotonicNs() - m_t0) / (double(m_script.tickUs) * 1000);
    return ticks <= 0 ? 0 : Core::Tick(std::llround(ticks));
}

void Lane::emitEvent(const char *ev, QJsonObject fields)
{
    fields.insert(QStringLiteral("ev"), QLatin1String(ev));
    if (m_t0)
        fields.insert(QStringLiteral("us"), double(sinceStartUs()));
    m_report(fields);
}

void Lane::fail(const QString &message)
{
    if (m_failed)
        return;
    m_failed = true;
    m_actionTimer->stop();
    m_kaTimer->stop();
    m_waitLeaseTimer->stop();
    m_giveUpTimer->stop();
    emitEvent("error", {{QStringLiteral("message"), message}});
    emit failed(message);
}

void Lane::call(const QString &path, const QJsonObject &body,
                std::function<void(const QJsonObject &)> then)
{
    m_gw->call(path, body, [this, then](const QJsonObject &reply, const QString &error) {
        if (m_failed)
            return;
        if (!error.isEmpty()) {
            fail(QStringLiteral("etcd: %1").arg(error));
            return;
        }
        then(reply);
    });
}

void Lane::at(qint64 due, std::function<void()> f)
{
    const qint64 ms = std::max<qint64>(0, (due - monotonicNs() + 999999) / 1000000);
    QTimer::singleShot(int(ms), Qt::PreciseTimer, this, [this, f] {
        if (!m_failed)
            f();
    });
}

void Lane::prepare()
{
    if (!m_script.postgres.isEmpty()) {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), kConnection);
        db.setHostName(m_script.postgres);
        db.setPort(m_script.postgresPort);
        db.setUserName(QStringLiteral("fencescope"));
        db.setDatabaseName(QStringLiteral("postgres"));
        if (!db.open()) {
            fail(QStringLiteral("PostgreSQL: %1").arg(db.lastError().text()));
            return;
        }
    }
    m_gw->get(QStringLiteral("/version"), [this](const QJsonObject &, const QString &error) {
        if (!error.isEmpty()) {
            fail(QStringLiteral("etcd: %1").arg(error));
            return;
        }
        emitEvent("ready", {});
    });
}

void Lane::start(qint64 t0)
{
    m_t0 = t0;
    scheduleNext();
}

// ---- the actions, one after the other ------------------------------------------------------

void Lane::scheduleNext()
{
    if (m_busy || m_failed)
        return;
    // a keepalive that fell due while the client was stopped runs after the actions that came
    // due then (section 14, phase 6)
    if (m_kaPending && !deferredLeft()) {
        m_kaPending = false;
        m_busy = true;
        keepalive();
        return;
    }
    if (m_next >= m_script.actions.size())
        return;
    const qint64 wait = dueNs(m_script.actions[m_next].at) - monotonicNs();
    m_actionTimer->start(int(std::max<qint64>(0, (wait + 999999) / 1000000)));
}

// Actions due at an earlier tick than now that have not run: what a thaw finds waiting.
bool Lane::deferredLeft() const
{
    return m_next < m_script.actions.size() && m_script.actions[m_next].at < nowTick();
}

void Lane::runNext()
{
    if (m_busy || m_failed || m_next >= m_script.actions.size())
        return;
    const LaneAction &a = m_script.actions[m_next++];
    m_busy = true;
    m_current = a.index;
    emitEvent("start", {{QStringLiteral("action"), double(a.index)},
                        {QStringLiteral("dueUs"), double(a.at) * double(m_script.tickUs)}});
    switch (a.kind) {
    case Core::ActionKind::Acquire:
        acquire(a);
        break;
    case Core::ActionKind::Release:
        release(a);
        break;
    case Core::ActionKind::Write:
        write(a);
        break;
    case Core::ActionKind::Read:
        read(a);
        break;
    case Core::ActionKind::Pause:
        finishAction();
        break;
    }
}

void Lane::finishAction()
{
    // (the coordinator measures how late each action came to its end by this)
    if (m_current != Core::kNone)
        emitEvent("done", {{QStringLiteral("action"), double(m_current)}});
    m_current = Core::kNone;
    m_busy = false;
    scheduleNext();
}

// ---- the lock ------------------------------------------------------------------------------

void Lane::acquire(const LaneAction &a)
{
    // an acquire that runs ends the keepalive schedule (a refused one does not: see below)
    if (!m_hasKey) {
        freshAcquire(a);
        return;
    }
    // it may still be the live holder: then the acquire is a keepalive on the same lease
    call(kKeepalive, {{QStringLiteral("ID"), m_lease}}, [this, a](const QJsonObject &reply) {
        const qint64 when = monotonicNs();
        const QJsonObject result = reply.value(QLatin1String("result")).toObject();
        if (EtcdGateway::number(result.value(QLatin1String("TTL"))) == 0) {
            m_hasKey = false; // the lease is gone, and its key with it
            freshAcquire(a);
            return;
        }
        // read the key back: the same key, the same create_revision, the same token
        call(kRange,
             {{QStringLiteral("key"), EtcdGateway::bytes(lockKey(m_script.prefix, m_leaseHex))}},
             [this, a, when](const QJsonObject &r) {
                 const QJsonArray kvs = Etcd::kvs(r);
                 if (kvs.isEmpty() ||
                     EtcdGateway::number(kvs[0][QLatin1String("create_revision")]) != m_token) {
                     m_hasKey = false;
                     freshAcquire(a);
                     return;
                 }
                 m_believes = true;
                 m_viewFrom = when;
                 m_viewTtlNs = qint64(a.amount) * m_script.tickUs * 1000;
                 emitEvent("renewal", {{QStringLiteral("action"), double(a.index)},
                                       {QStringLiteral("at"), double((when - m_t0) / 1000)}});
                 setKeepalive(a, nowTick());
                 finishAction();
             });
    });
}

void Lane::freshAcquire(const LaneAction &a)
{
    const qint64 ttlS = wholeSeconds(a.amount, m_script.tickUs).value_or(1);
    call(kGrant, {{QStringLiteral("TTL"), num(std::uint64_t(ttlS))}},
         [this, a, ttlS](const QJsonObject &g) {
             const std::uint64_t id = EtcdGateway::number(g.value(QLatin1String("ID")));
             const QString lease = num(id);
             const QString leaseHex = QString::number(id, 16);
             const QString key = lockKey(m_script.prefix, leaseHex);
             const QString owners = lockPrefix(m_script.prefix) + QLatin1Char('/');
             // tryAcquire: put self in the waiters unless the key is there; fetch the holder
             const QJsonObject txn =
                 Etcd::txn({Etcd::compare(key, "CREATE", "EQUAL", QStringLiteral("0"))},
                           {Etcd::put(key, QString(), lease), Etcd::firstCreated(owners)},
                           {Etcd::range(key), Etcd::firstCreated(owners)});
             call(kTxn, txn, [this, a, ttlS, lease, leaseHex, key](const QJsonObject &t) {
                 const qint64 when = monotonicNs();
                 const bool created = t.value(QLatin1String("succeeded")).toBool();
                 const std::uint64_t myRev =
                     created ? Etcd::revision(t)
                             : EtcdGateway::number(
                                   Etcd::txnKvs(t, 0)[0][QLatin1String("create_revision")]);
                 const QJsonArray owner = Etcd::txnKvs(t, 1);
                 const bool holds =
                     owner.isEmpty() ||
                     EtcdGateway::number(owner[0][QLatin1String("create_revision")]) == myRev;
                 if (holds || a.wait) {
                     // it has a key now (any earlier lease of its own is gone)
                     m_lease = lease;
                     m_leaseHex = leaseHex;
                     m_leaseTtlS = ttlS;
                     m_hasKey = true;
                     m_myRev = myRev;
                     m_kaEvery = 0;
                     m_kaTimer->stop();
                 }
                 if (holds) {
                     granted(a, when);
                     return;
                 }
                 const QString ownerLease = leaseOfKey(owner[0][QLatin1String("key")]);
                 if (a.wait) {
                     emitEvent("wait", {{QStringLiteral("action"), double(a.index)},
                                        {QStringLiteral("key"), num(myRev)},
                                        {QStringLiteral("lease"), leaseHex},
                                        {QStringLiteral("owner"), ownerLease}});
                     m_waiting = true;
                     // the session keeps its lease alive while the lock is awaited
                     m_waitLeaseTimer->start(int(std::max<qint64>(1, ttlS) * 1000 / 3));
                     m_waitAction = a;
                     if (a.waitFor) {
                         const qint64 ms =
                             (dueNs(a.at + a.waitFor) - monotonicNs() + 999999) / 1000000;
                         m_giveUpTimer->start(int(std::max<qint64>(0, ms)));
                     }
                     waitDeletes(a);
                     return;
                 }
                 // TryLock: cannot lock, so delete the key again; the lease goes with it
                 call(kDelete, {{QStringLiteral("key"), EtcdGateway::bytes(key)}},
                      [this, a, lease, ownerLease, when](const QJsonObject &d) {
                          emitEvent("refusal",
                                    {{QStringLiteral("action"), double(a.index)},
                                     {QStringLiteral("owner"), ownerLease},
                                     {QStringLiteral("at"), double((when - m_t0) / 1000)},
                                     {QStringLiteral("rev"), num(Etcd::revision(d))}});
                          m_gw->call(kRevoke, {{QStringLiteral("ID"), lease}},
                                     [](const QJsonObject &, const QString &) {});
                          finishAction();
                      });
             });
         });
}

// The lock is the client's: its token is its key's create_revision, read back.
void Lane::granted(const LaneAction &a, qint64 when)
{
    call(kRange,
         {{QStringLiteral("key"), EtcdGateway::bytes(lockKey(m_script.prefix, m_leaseHex))}},
         [this, a, when](const QJsonObject &r) {
             const QJsonArray kvs = Etcd::kvs(r);
             if (kvs.isEmpty()) {
                 // the session's lease ran out before the lock was ours (mutex.go's
                 // ErrSessionExpired): the acquire got nothing
                 m_hasKey = false;
                 emitEvent("expired", {{QStringLiteral("action"), double(a.index)}});
                 finishAction();
                 return;
             }
             const std::uint64_t token =
                 EtcdGateway::number(kvs[0][QLatin1String("create_revision")]);
             m_token = token;
             m_believes = true;
             m_viewFrom = when;
             m_viewTtlNs = qint64(a.amount) * m_script.tickUs * 1000;
             emitEvent("grant", {{QStringLiteral("action"), double(a.index)},
                                 {QStringLiteral("token"), num(token)},
                                 {QStringLiteral("lease"), m_leaseHex},
                                 {QStringLiteral("at"), double((when - m_t0) / 1000)}});
             setKeepalive(a, nowTick());
             finishAction();
         });
}

void Lane::waitDeletes(const LaneAction &a)
{
    const QString owners = lockPrefix(m_script.prefix) + QLatin1Char('/');
    // the newest key created before this one: when it is gone, look again (waitDeletes)
    call(kTxn, Etcd::txn({}, {Etcd::firstCreated(owners, true, m_myRev - 1)}, {}),
         [this, a](const QJsonObject &t) {
             if (!m_waiting)
                 return;
             const QJsonArray before = Etcd::txnKvs(t, 0);
             if (before.isEmpty()) {
                 const qint64 when = monotonicNs();
                 m_waiting = false;
                 m_waitLeaseTimer->stop();
                 m_giveUpTimer->stop();
                 // renewed once at the grant, so its lease runs from the grant as the model's
                 call(kKeepalive, {{QStringLiteral("ID"), m_lease}},
                      [this, a, when](const QJsonObject &) { granted(a, when); });
                 return;
             }
             const QString key = EtcdGateway::text(before[0][QLatin1String("key")]);
             QJsonObject create{{QStringLiteral("key"), EtcdGateway::bytes(key)},
                                {QStringLiteral("start_revision"), num(Etcd::revision(t))}};
             m_watch = m_gw->stream(
                 kWatch, {{QStringLiteral("create_request"), create}},
                 [this, a](const QJsonObject &result) {
                     for (const QJsonValue &e : result.value(QLatin1String("events")).toArray())
                         if (e[QLatin1String("type")].toString() == QLatin1String("DELETE") &&
                             m_watch) {
                             QNetworkReply *w = m_watch;
                             m_watch = nullptr;
                             w->abort();
                             waitDeletes(a);
                             return;
                         }
                 },
                 [this](const QString &error) {
                     if (m_watch && !error.isEmpty() && m_waiting)
                         fail(QStringLiteral("etcd: %1").arg(error));
                 });
         });
}

// A waiting acquire's waitFor ran out: it deletes its key and gives up (section 10).
void Lane::giveUp(const LaneAction &a)
{
    if (!m_waiting)
        return;
    m_waiting = false;
    m_waitLeaseTimer->stop();
    if (QNetworkReply *w = m_watch) {
        m_watch = nullptr;
        w->abort();
    }
    const QString owners = lockPrefix(m_script.prefix) + QLatin1Char('/');
    call(kTxn,
         Etcd::txn(
             {},
             {Etcd::firstCreated(owners), Etcd::deleteKey(lockKey(m_script.prefix, m_leaseHex))},
             {}),
         [this, a](const QJsonObject &t) {
             const QJsonArray owner = Etcd::txnKvs(t, 0);
             emitEvent("gaveup",
                       {{QStringLiteral("action"), double(a.index)},
                        {QStringLiteral("owner"),
                         owner.isEmpty() ? QString() : leaseOfKey(owner[0][QLatin1String("key")])},
                        {QStringLiteral("rev"), num(Etcd::revision(t))}});
             m_gw->call(kRevoke, {{QStringLiteral("ID"), m_lease}},
                        [](const QJsonObject &, const QString &) {});
             m_hasKey = false;
             m_lease.clear();
             finishAction();
         });
}

void Lane::keepWaitingLeaseAlive()
{
    if (m_waiting && !m_lease.isEmpty())
        m_gw->call(kKeepalive, {{QStringLiteral("ID"), m_lease}},
                   [](const QJsonObject &, const QString &) {});
}

void Lane::release(const LaneAction &a)
{
    m_kaEvery = 0;
    m_kaTimer->stop();
    m_believes = false;
    if (!m_hasKey) {
        // Unlock of a mutex it does not hold: nothing to delete
        emitEvent("release", {{QStringLiteral("action"), double(a.index)},
                              {QStringLiteral("effective"), false}});
        finishAction();
        return;
    }
    const QString key = lockKey(m_script.prefix, m_leaseHex);
    call(kDelete, {{QStringLiteral("key"), EtcdGateway::bytes(key)}},
         [this, a](const QJsonObject &d) {
             const bool deleted = EtcdGateway::number(d.value(QLatin1String("deleted"))) > 0;
             emitEvent("release", {{QStringLiteral("action"), double(a.index)},
                                   {QStringLiteral("effective"), deleted},
                                   {QStringLiteral("rev"), num(Etcd::revision(d))}});
             m_gw->call(kRevoke, {{QStringLiteral("ID"), m_lease}},
                        [](const QJsonObject &, const QString &) {});
             m_hasKey = false;
             m_lease.clear();
             finishAction();
         });
}

// ---- storages ------------------------------------------------------------------------------

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

// ---- keepalives ----------------------------------------------------------------------------

// An acquire that got the lock sets its schedule (section 14: keepalive 0 stops it).
void Lane::setKeepalive(const LaneAction &a, Core::Tick from)
{
    m_kaEvery = a.keepalive;
    m_kaAction = a.index;
    m_kaPending = false;
    m_kaTimer->stop();
    if (!m_kaEvery)
        return;
    m_kaDue = from + m_kaEvery;
    m_kaTimer->start(int(std::max<qint64>(0, (dueNs(m_kaDue) - monotonicNs() + 999999) / 1000000)));
}

void Lane::keepaliveDue()
{
    if (!m_kaEvery || m_failed)
        return;
    if (m_busy || deferredLeft()) {
        m_kaPending = true; // after the actions that came due first
        return;
    }
    m_busy = true;
    keepalive();
}

// One keepalive of the schedule: a renewal of the live lease, or the news that it is gone.
void Lane::keepalive()
{
    if (!m_kaEvery || m_lease.isEmpty()) {
        finishAction();
        return;
    }
    call(kKeepalive, {{QStringLiteral("ID"), m_lease}}, [this](const QJsonObject &reply) {
        const qint64 when = monotonicNs();
        const QJsonObject result = reply.value(QLatin1String("result")).toObject();
        if (EtcdGateway::number(result.value(QLatin1String("TTL"))) > 0) {
            m_believes = true;
            m_viewFrom = when;
            emitEvent("keepalive", {{QStringLiteral("action"), double(m_kaAction)},
                                    {QStringLiteral("ok"), true}});
            m_kaDue = nowTick() + m_kaEvery;
            m_kaTimer->start(
                int(std::max<qint64>(0, (dueNs(m_kaDue) - monotonicNs() + 999999) / 1000000)));
        } else {
            emitEvent("keepalive", {{QStringLiteral("action"), double(m_kaAction)},
                                    {QStringLiteral("ok"), false}});
            m_believes = false;
            m_hasKey = false;
            m_kaEvery = 0; // it does not acquire again by itself
        }
        finishAction();
    });
}

} // namespace Live
