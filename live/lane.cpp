#include "lane.h"

#include "etcdgateway.h"
#include "lanecalls.h"

#include <QJsonArray>
#include <QNetworkReply>
#include <QSqlDatabase>
#include <QSqlError>
#include <QTimer>

#include <cmath>
#include <ctime>
#include <utility>

namespace Live {

using namespace LaneCalls;

namespace {

// a report's "at": whole microseconds since the run's start (the nanoseconds truncated)
double wholeMicroseconds(qint64 ns)
{
    const qint64 us = ns / 1000;
    return double(us);
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
    m_gw->call(path, body,
               [this, then = std::move(then)](const QJsonObject &reply, const QString &error) {
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
    QTimer::singleShot(int(ms), Qt::PreciseTimer, this, [this, f = std::move(f)] {
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
                                       {QStringLiteral("at"), wholeMicroseconds(when - m_t0)}});
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
                                     {QStringLiteral("at"), wholeMicroseconds(when - m_t0)},
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
                                 {QStringLiteral("at"), wholeMicroseconds(when - m_t0)}});
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
                     for (const QJsonValue e : result.value(QLatin1String("events")).toArray())
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

// (the storages: lanestorage.cpp)

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
