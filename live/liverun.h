#pragma once

// A scenario run on a real etcd, in real time: the coordinator of a live run.
//
// It starts a throwaway etcd (or uses one given by URL), starts one process per client lane
// (lane.h), gives them a common start, stops and continues them for their pauses, makes the
// scenario's unrelated puts, and watches the lock's keys, so it sees when etcd ended each
// lease. At the end it records what every lane reported into a Core::Trace (TraceRecorder),
// runs the prediction (the scenario with etcd's revisions as tokens, from the revision etcd
// was at), and compares the two (divergence.h). Everything it started is gone when it
// finishes: processes, folders, and on a shared etcd the run's keys.

#include "divergence.h"
#include "livecapability.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QUrl>

#include <memory>
#include <optional>
#include <vector>

class QNetworkReply;
class QTimer;

namespace Live {

class EtcdGateway;
class EtcdServer;
class LaneProcess;
class PostgresServer;

// Where the storages are: keys in the same etcd, or rows in a throwaway PostgreSQL.
enum class Store : std::uint8_t
{
    Etcd,
    Postgres
};

struct LiveOptions
{
    QUrl etcd; // empty: start a throwaway etcd
    Store store = Store::Etcd;
    std::optional<qint64> tickUs; // unset: planTicks' choice
    std::optional<bool> fencing;  // unset: the scenario's switch
    QString laneProgram;          // runs a lane as `laneProgram --lane`
};

struct LiveResult
{
    QString error; // nothing ran: why, in one line (refused, no etcd, no tick fits, ...)
    bool refused = false;
    Core::Scenario scenario; // the prediction's: etcd's revisions, from where etcd was
    bool fencing = true;
    Core::Trace predicted;
    Core::Trace observed; // what was observed, so far when it stopped early
    QString etcdVersion;  // "3.4.23"
    QUrl etcdUrl;
    Store store = Store::Etcd;
    qint64 tickUs = 0;
    bool complete = false;
    QString stopped; // why it stopped early: "etcd was killed at t=12 (3.6 s)"
    std::vector<Divergence> divergences;
    Verdict verdict = Verdict::Partial;
    double seconds = 0; // real time from the start to the end

    bool ran() const { return error.isEmpty(); }
    // "Reality agreed with the prediction." and the like, one sentence.
    QString verdictText() const;
};

class LiveRun : public QObject
{
    Q_OBJECT
public:
    LiveRun(const Core::Scenario &scenario, const LiveOptions &options, QObject *parent = nullptr);
    ~LiveRun() override;

    // What would stop the run before anything starts (refusals, no tick fits), or "". On
    // success `plan` gets the tick.
    static QString check(const Core::Scenario &scenario, const LiveOptions &options,
                         TickPlan *plan = nullptr, bool *refused = nullptr);

    void start();
    void cancel();
    bool isRunning() const { return m_phase != Phase::Idle && m_phase != Phase::Done; }
    // The processes it started that still run: etcd's and the lanes' (for tests).
    std::vector<qint64> childProcesses() const;

signals:
    // While it runs: the tick it is at, of how many, and real seconds since the start.
    void progress(Core::Tick tick, Core::Tick of, double seconds);
    // Always, once: the result (result.ran() false when nothing ran).
    void finished(const Live::LiveResult &result);

private:
    enum class Phase
    {
        Idle,
        Starting,
        Lanes,
        Running,
        Finishing,
        Done
    };
    struct Observed // one thing seen, at its time in microseconds since the start
    {
        qint64 us = 0;
        int lane = -1; // -1: the coordinator's own
        QJsonObject ev;
    };

    void fail(const QString &error);
    void connectEtcd(const QUrl &url);
    void setUp();
    void startPostgres();
    void startLanes();
    void go();
    void scheduleRun();
    void watchLock();
    void tickProgress();
    void stop(const QString &why);
    void finishRun();
    void readBack();
    void readBackPostgres();
    void done();
    void record(int lane, const QJsonObject &ev);
    qint64 nowUs() const;
    double ticksOf(qint64 us) const;
    Core::Trace buildObserved(RunLog &log); // (liverunrecord.cpp)
    // The union of a client's pauses: where its process is stopped.
    static std::vector<std::pair<Core::Tick, Core::Tick>> frozenStretches(const Core::Client &c);

    Core::Scenario m_scenario;
    LiveOptions m_options;
    LiveResult m_result;
    TickPlan m_plan;
    Phase m_phase = Phase::Idle;
    std::unique_ptr<EtcdServer> m_etcd;
    std::unique_ptr<PostgresServer> m_postgres;
    EtcdGateway *m_gateway = nullptr;
    QString m_prefix;
    std::vector<LaneProcess *> m_lanes;
    std::size_t m_ready = 0;
    qint64 m_t0 = 0;
    QElapsedTimer m_clock;
    std::vector<QTimer *> m_timers;
    QTimer *m_progress;
    QTimer *m_deadline; // a phase that takes too long
    QNetworkReply *m_watch = nullptr;
    std::vector<Observed> m_seen;
    std::vector<std::pair<std::uint32_t, double>> m_pauseEdges; // (client, tick) for lateness
    std::vector<Core::StorageState> m_readBack;
    std::uint64_t m_startRevision = 0;
};

} // namespace Live

Q_DECLARE_METATYPE(Live::LiveResult)
