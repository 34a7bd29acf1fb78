#pragma once

// One client lane of a live run, in a process of its own (fencescope-live --lane): it runs its
// client's actions against a real etcd on real timers, from the run's start, and reports what
// each did. It does not know about its pauses: the coordinator stops the whole process
// (SIGSTOP) and continues it (SIGCONT), exactly a stopped VM, and timers that came due in
// between fire at the thaw, in their order (docs/SCENARIO.md section 3).
//
// The lock is etcd's concurrency.Mutex recipe (client/v3/concurrency/mutex.go), as its Go
// client runs it, over the JSON gateway:
// - an acquire grants a lease, then creates the client's own key "<lock>/<lease in hex>" under
//   that lease in a Txn (if its create_revision is 0) and reads the first key of the prefix
//   by create_revision in the same Txn: the lowest create_revision holds (tryAcquire);
// - a non-blocking acquire that does not hold deletes its key again (TryLock), two revisions;
// - a blocking acquire keeps its key and waits for the keys before it to go, as waitDeletes
//   does (the newest older key, watched until it is deleted, again until none is left), its
//   lease kept alive meanwhile every TTL/3 as etcd's client does (clientv3/lease.go);
// - the token is the key's create_revision, read back after the lock call (the Txn's header
//   revision is later than the key's when anything else happened in between);
// - the live holder's acquire is a keepalive on the same lease: a renewal, the same token;
// - a release deletes the key (Unlock) and revokes the lease (Session.Close).
// A write is a Txn on the storage's keys (lanescript.h): fenced, it applies only if the stored
// max_token is below the write's token plus one (lt) or below it (le); otherwise a plain put.
// With `--store postgres` it is an UPDATE of the storage's row instead, `WHERE max_token <=
// token` (lt) or `< token` (le), applied when it changed a row.

#include "lanescript.h"
#include "trace.h"

#include <QJsonObject>
#include <QObject>

#include <functional>

class QNetworkReply;
class QTimer;

namespace Live {

class EtcdGateway;

// CLOCK_MONOTONIC in nanoseconds: one clock for the coordinator and every lane process.
qint64 monotonicNs();

class Lane : public QObject
{
    Q_OBJECT
public:
    // `report` gets every event (one JSON object each: "ev" and its fields, "us" the time in
    // microseconds since the run's start).
    Lane(const LaneScript &script, std::function<void(const QJsonObject &)> report,
         QObject *parent = nullptr);
    ~Lane() override;

    // Reaches etcd once (so the first action does not pay for the connection), then reports
    // "ready".
    void prepare();
    // Runs the actions from the run's start at `t0` (monotonicNs()).
    void start(qint64 t0);

signals:
    // An etcd call failed: the lane cannot go on.
    void failed(const QString &message);

private:
    struct Pending; // a write or read held for its delay, or a checked write waiting out its gap

    qint64 dueNs(Core::Tick tick) const { return m_t0 + qint64(tick) * m_script.tickUs * 1000; }
    qint64 sinceStartUs() const;
    Core::Tick nowTick() const;
    void emitEvent(const char *ev, QJsonObject fields);
    void fail(const QString &message);
    void call(const QString &path, const QJsonObject &body,
              std::function<void(const QJsonObject &)> then);
    void at(qint64 due, std::function<void()> f);

    void scheduleNext();
    void runNext();
    void finishAction();
    bool deferredLeft() const;

    void acquire(const LaneAction &a);
    void freshAcquire(const LaneAction &a);
    void granted(const LaneAction &a, qint64 when);
    void waitDeletes(const LaneAction &a);
    void giveUp(const LaneAction &a);
    void release(const LaneAction &a);
    void write(const LaneAction &a);
    void send(const LaneAction &a, std::uint64_t token, bool checked);
    void store(const LaneAction &a, std::uint64_t token, bool checked);
    void storeInPostgres(const LaneAction &a, std::uint64_t token, bool finishesAction);
    void read(const LaneAction &a);

    void setKeepalive(const LaneAction &a, Core::Tick from);
    void keepaliveDue();
    void keepalive();
    void keepWaitingLeaseAlive();

    LaneScript m_script;
    std::function<void(const QJsonObject &)> m_report;
    EtcdGateway *m_gw;
    qint64 m_t0 = 0;
    bool m_failed = false;

    std::size_t m_next = 0;
    bool m_busy = false;
    std::uint32_t m_current = Core::kNone; // the action running (kNone: a keepalive)
    QTimer *m_actionTimer;

    // the lock, as the client knows it
    QString m_lease;    // the lease of its key (decimal, as the API takes it); empty: none
    QString m_leaseHex; // the same in hex, as the key names it
    qint64 m_leaseTtlS = 0;
    bool m_hasKey = false;     // it created its key and has not deleted it
    std::uint64_t m_token = 0; // the token it remembers (0: never granted: untagged writes)
    std::uint64_t m_myRev = 0; // its key's create_revision while it waits
    bool m_believes = false;   // it believes it holds the lock (section 14's rules)
    qint64 m_viewFrom = 0;     // its own view of its lease: last grant or renewal, and ttl
    qint64 m_viewTtlNs = 0;

    // the keepalive schedule of section 11
    Core::Tick m_kaEvery = 0;
    Core::Tick m_kaDue = 0;
    std::uint32_t m_kaAction = 0;
    bool m_kaPending = false;
    QTimer *m_kaTimer;

    // a blocking acquire waiting
    bool m_waiting = false;
    LaneAction m_waitAction;
    QNetworkReply *m_watch = nullptr;
    QTimer *m_waitLeaseTimer;
    QTimer *m_giveUpTimer;

    // per storage: the version and mod_revision it last knew (compare-and-set)
    std::vector<std::uint64_t> m_known;
    std::vector<std::uint64_t> m_knownMod;
};

} // namespace Live
