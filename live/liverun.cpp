#include "liverun.h"

#include "etcdgateway.h"
#include "etcdserver.h"
#include "lane.h"
#include "laneprocess.h"
#include "postgresserver.h"
#include "simulator.h"
#include "tracerecorder.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <map>

namespace Live {

namespace {

// Between the last lane ready and the run's tick 0: every lane has its start by then.
const qint64 kStartSlackUs = 300'000;
const int kLanesReadyMs = 30000;

QString at(double ticks, double seconds)
{
    return QStringLiteral("at t=%1 (%2 s)")
        .arg(std::max(0.0, std::floor(ticks)), 0, 'f', 0)
        .arg(std::max(0.0, seconds), 0, 'f', 1);
}

// The union of a client's pauses: where its process is stopped.
std::vector<std::pair<Core::Tick, Core::Tick>> stretches(const Core::Client &c)
{
    std::vector<std::pair<Core::Tick, Core::Tick>> spans;
    for (const Core::Action &a : c.actions)
        if (a.kind == Core::ActionKind::Pause)
            spans.push_back({a.at, a.at + a.amount});
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<Core::Tick, Core::Tick>> out;
    for (const auto &s : spans) {
        if (!out.empty() && s.first <= out.back().second)
            out.back().second = std::max(out.back().second, s.second);
        else
            out.push_back(s);
    }
    return out;
}

QString leaseOfKey(const QString &key)
{
    return key.mid(key.lastIndexOf(QLatin1Char('/')) + 1);
}

} // namespace

QString LiveResult::verdictText() const
{
    if (!ran())
        return error;
    switch (verdict) {
    case Verdict::Agreed:
        return QStringLiteral("Reality agreed with the prediction: every outcome, the final "
                              "values and the order of tokens.");
    case Verdict::Disagreed: {
        const auto n = std::count_if(divergences.begin(), divergences.end(),
                                     [](const Divergence &d) { return d.disagreement; });
        return n == 1
                   ? QStringLiteral("Reality disagreed with the prediction in 1 place.")
                   : QStringLiteral("Reality disagreed with the prediction in %1 places.").arg(n);
    }
    case Verdict::Unjudged:
        return QStringLiteral("Some actions ran late on this machine: the run is neither "
                              "agreement nor disagreement.");
    case Verdict::Partial:
        break;
    }
    return QStringLiteral("The run stopped early (%1): what was observed so far is shown.")
        .arg(stopped);
}

LiveRun::LiveRun(const Core::Scenario &scenario, const LiveOptions &options, QObject *parent)
    : QObject(parent), m_scenario(scenario), m_options(options), m_progress(new QTimer(this)),
      m_deadline(new QTimer(this))
{
    qRegisterMetaType<Live::LiveResult>();
    m_progress->setInterval(100);
    connect(m_progress, &QTimer::timeout, this, &LiveRun::tickProgress);
    m_deadline->setSingleShot(true);
}

LiveRun::~LiveRun()
{
    m_phase = Phase::Done;
    for (LaneProcess *l : m_lanes)
        delete l;
    m_lanes.clear();
    if (m_watch)
        m_watch->abort();
}

QString LiveRun::check(const Core::Scenario &s, const LiveOptions &o, TickPlan *plan, bool *refused)
{
    const bool fencing = o.fencing.value_or(s.fencing);
    const Core::Scenario p = prediction(s, 1);
    const Core::Trace predicted = Core::simulate(p, fencing);
    const QStringList why = refusals(s, predicted);
    if (!why.isEmpty()) {
        if (refused)
            *refused = true;
        return QStringLiteral("cannot run on etcd: %1").arg(why.join(QLatin1String("; ")));
    }
    const TickPlan tp = planTicks(p, predicted, o.tickUs);
    if (!tp.error.isEmpty()) {
        if (refused)
            *refused = true;
        return tp.error;
    }
    if (o.store == Store::Postgres && PostgresServer::programs().isEmpty())
        return PostgresServer::missingMessage();
    if (o.store == Store::Postgres && !PostgresServer::driverProblem().isEmpty())
        return PostgresServer::driverProblem();
    if (!QFileInfo(o.laneProgram).isExecutable())
        return QStringLiteral("the program that runs a client lane is missing: %1")
            .arg(o.laneProgram);
    if (plan)
        *plan = tp;
    return {};
}

void LiveRun::fail(const QString &error)
{
    if (m_phase == Phase::Done)
        return;
    m_result.error = error;
    done();
}

qint64 LiveRun::nowUs() const
{
    return (monotonicNs() - m_t0) / 1000;
}

double LiveRun::ticksOf(qint64 us) const
{
    return m_plan.tickUs ? double(us) / double(m_plan.tickUs) : 0;
}

void LiveRun::start()
{
    m_result.fencing = m_options.fencing.value_or(m_scenario.fencing);
    m_result.store = m_options.store;
    m_phase = Phase::Starting;
    const QString problem = check(m_scenario, m_options, &m_plan, &m_result.refused);
    if (!problem.isEmpty()) {
        QTimer::singleShot(0, this, [this, problem] { fail(problem); });
        return;
    }
    m_result.tickUs = m_plan.tickUs;
    if (!m_options.etcd.isEmpty()) {
        connectEtcd(m_options.etcd);
        return;
    }
    if (EtcdServer::program().isEmpty()) {
        QTimer::singleShot(0, this, [this] { fail(EtcdServer::missingMessage()); });
        return;
    }
    m_etcd = std::make_unique<EtcdServer>();
    connect(m_etcd.get(), &EtcdServer::ready, this, [this] {
        m_result.etcdVersion = m_etcd->version();
        connectEtcd(m_etcd->url());
    });
    connect(m_etcd.get(), &EtcdServer::failed, this, &LiveRun::fail);
    connect(m_etcd.get(), &EtcdServer::died, this, [this](const QString &how) {
        if (m_phase == Phase::Running)
            stop(QStringLiteral("%1 %2").arg(how, at(ticksOf(nowUs()), nowUs() / 1e6)));
        else if (m_phase != Phase::Finishing && m_phase != Phase::Done)
            fail(how);
    });
    m_etcd->start();
}

void LiveRun::connectEtcd(const QUrl &url)
{
    m_result.etcdUrl = url;
    m_gateway = new EtcdGateway(url, this);
    m_gateway->get(QStringLiteral("/version"), [this, url](const QJsonObject &o,
                                                           const QString &error) {
        if (m_phase != Phase::Starting)
            return;
        const QString version = o.value(QLatin1String("etcdserver")).toString();
        if (!error.isEmpty() || version.isEmpty()) {
            fail(QStringLiteral("cannot reach etcd at %1: %2")
                     .arg(url.toString(), error.isEmpty() ? QStringLiteral("no version") : error));
            return;
        }
        m_result.etcdVersion = version;
        setUp();
    });
}

void LiveRun::setUp()
{
    // a prefix of its own: runs may share an etcd
    m_prefix = QStringLiteral("fencescope/%1/")
                   .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    // every fenced storage starts with max_token 0 (section 4), as a key the Txn can compare
    QJsonArray puts;
    for (std::uint32_t st = 0; st < m_scenario.storages.size(); ++st)
        if (m_options.store == Store::Etcd &&
            m_scenario.storages[st].check == Core::StorageCheck::Token)
            puts.append(Etcd::put(maxKey(m_prefix, st), paddedToken(0)));
    puts.append(Etcd::range(putsKey(m_prefix)));
    m_gateway->call(QStringLiteral("/v3/kv/txn"), Etcd::txn({}, puts, {}),
                    [this](const QJsonObject &reply, const QString &error) {
                        if (m_phase != Phase::Starting)
                            return;
                        if (!error.isEmpty()) {
                            fail(QStringLiteral("etcd: %1").arg(error));
                            return;
                        }
                        m_startRevision = Etcd::revision(reply);
                        m_result.scenario = prediction(m_scenario, m_startRevision);
                        m_result.predicted = Core::simulate(m_result.scenario, m_result.fencing);
                        if (m_options.store == Store::Postgres)
                            startPostgres();
                        else
                            startLanes();
                    });
}

void LiveRun::startPostgres()
{
    m_postgres = std::make_unique<PostgresServer>();
    connect(m_postgres.get(), &PostgresServer::ready, this, &LiveRun::startLanes);
    connect(m_postgres.get(), &PostgresServer::failed, this, &LiveRun::fail);
    connect(m_postgres.get(), &PostgresServer::died, this, [this](const QString &how) {
        if (m_phase == Phase::Running)
            stop(QStringLiteral("%1 %2").arg(how, at(ticksOf(nowUs()), nowUs() / 1e6)));
        else if (m_phase != Phase::Finishing && m_phase != Phase::Done)
            fail(how);
    });
    m_postgres->start(int(m_scenario.storages.size()));
}

void LiveRun::startLanes()
{
    m_phase = Phase::Lanes;
    m_ready = 0;
    for (std::uint32_t c = 0; c < m_scenario.clients.size(); ++c) {
        const LaneScript script = LaneScript::of(
            m_scenario, c, m_result.fencing, m_plan.tickUs,
            m_result.etcdUrl.toString(QUrl::RemovePath), m_prefix,
            m_postgres ? m_postgres->socketDir() : QString(), m_postgres ? m_postgres->port() : 0);
        auto *lane = new LaneProcess(m_options.laneProgram, script);
        m_lanes.push_back(lane);
        const int index = int(c);
        connect(lane, &LaneProcess::event, this,
                [this, index](const QJsonObject &ev) { record(index, ev); });
        connect(lane, &LaneProcess::died, this, [this, index](const QString &how) {
            const QString who =
                QStringLiteral("client %1's process %2").arg(m_scenario.clients[index].name, how);
            if (m_phase == Phase::Running)
                stop(QStringLiteral("%1 %2").arg(who, at(ticksOf(nowUs()), nowUs() / 1e6)));
            else if (m_phase == Phase::Lanes)
                fail(who);
        });
        lane->start();
    }
    m_deadline->disconnect();
    connect(m_deadline, &QTimer::timeout, this, [this] {
        if (m_phase == Phase::Lanes)
            fail(QStringLiteral("the client processes did not start in %1 s")
                     .arg(kLanesReadyMs / 1000));
    });
    m_deadline->start(kLanesReadyMs);
}

void LiveRun::record(int lane, QJsonObject ev)
{
    const QString kind = ev.value(QLatin1String("ev")).toString();
    if (kind == QLatin1String("ready")) {
        if (m_phase == Phase::Lanes && ++m_ready == m_lanes.size())
            go();
        return;
    }
    if (kind == QLatin1String("error")) {
        const QString who = m_scenario.clients[std::size_t(lane)].name;
        const QString message = ev.value(QLatin1String("message")).toString();
        if (m_phase == Phase::Running) {
            // etcd's own death, if that is why, says more: give it a moment to be told
            QTimer::singleShot(200, this, [this, who, message, when = nowUs()] {
                if (m_phase == Phase::Running)
                    stop(QStringLiteral("client %1 lost etcd %2: %3")
                             .arg(who, at(ticksOf(when), when / 1e6), message));
            });
        } else if (m_phase == Phase::Lanes) {
            fail(QStringLiteral("client %1: %2").arg(who, message));
        }
        return;
    }
    if (m_phase != Phase::Running && m_phase != Phase::Finishing)
        return;
    const qint64 us = ev.contains(QLatin1String("us"))
                          ? qint64(ev.value(QLatin1String("us")).toDouble())
                          : nowUs();
    m_seen.push_back({us, lane, ev});
}

void LiveRun::go()
{
    m_deadline->stop();
    m_t0 = monotonicNs() + kStartSlackUs * 1000;
    for (LaneProcess *l : m_lanes)
        l->go(m_t0);
    m_phase = Phase::Running;
    watchLock();
    scheduleRun();
    m_progress->start();
}

// A timer at tick `tick` of the run (its real time), calling `f` with how late it came.
void LiveRun::scheduleRun()
{
    const qint64 tickUs = m_plan.tickUs;
    const auto atTick = [this, tickUs](double tick, std::function<void(qint64 lateUs)> f) {
        const qint64 due = qint64(std::llround(tick * double(tickUs)));
        auto *t = new QTimer(this);
        t->setSingleShot(true);
        t->setTimerType(Qt::PreciseTimer);
        connect(t, &QTimer::timeout, this, [this, f, due] {
            if (m_phase == Phase::Running)
                f(nowUs() - due);
        });
        t->start(int(std::max<qint64>(0, (due - nowUs() + 999) / 1000)));
        m_timers.push_back(t);
    };
    const auto noteLate = [this, tickUs](qint64 lateUs, Core::Tick tick) {
        if (lateUs > tickUs / 4)
            m_seen.push_back({nowUs(),
                              -1,
                              {{QStringLiteral("ev"), QStringLiteral("late")},
                               {QStringLiteral("tick"), double(tick)},
                               {QStringLiteral("lateUs"), double(lateUs)}}});
    };
    // pauses: each client's process is stopped for the union of its pauses; every pause
    // action's own edges are recorded where they fall
    for (std::uint32_t c = 0; c < m_scenario.clients.size(); ++c) {
        const Core::Client &client = m_scenario.clients[c];
        std::map<Core::Tick, std::vector<std::pair<std::uint32_t, bool>>> edges;
        for (std::uint32_t i = 0; i < client.actions.size(); ++i) {
            const Core::Action &a = client.actions[i];
            if (a.kind != Core::ActionKind::Pause)
                continue;
            edges[a.at].push_back({i, true});
            edges[a.at + a.amount].push_back({i, false});
        }
        const auto spans = stretches(client);
        for (const auto &[tick, list] : edges) {
            bool stops = false, resumes = false;
            for (const auto &s : spans) {
                stops = stops || s.first == tick;
                resumes = resumes || s.second == tick;
            }
            atTick(double(tick), [this, c, tick = tick, list = list, stops, resumes,
                                  noteLate](qint64 late) {
                if (resumes)
                    m_lanes[c]->resume();
                if (stops)
                    m_lanes[c]->stop();
                const qint64 now = nowUs();
                for (const auto &[action, begins] : list)
                    m_seen.push_back({now,
                                      -1,
                                      {{QStringLiteral("ev"), begins ? QStringLiteral("pausebegin")
                                                                     : QStringLiteral("pauseend")},
                                       {QStringLiteral("client"), double(c)},
                                       {QStringLiteral("action"), double(action)},
                                       {QStringLiteral("tick"), double(tick)}}});
                if (resumes)
                    m_seen.push_back({now,
                                      -1,
                                      {{QStringLiteral("ev"), QStringLiteral("thaw")},
                                       {QStringLiteral("client"), double(c)},
                                       {QStringLiteral("tick"), double(tick)}}});
                noteLate(late, tick);
            });
        }
    }
    // the unrelated puts of lock.puts, at the start of every k-th tick
    if (const Core::Tick k = m_scenario.lock.putsEvery)
        for (Core::Tick t = k; t <= m_plan.lastTick; t += k)
            atTick(double(t), [this, t, noteLate](qint64 late) {
                noteLate(late, t);
                m_gateway->call(QStringLiteral("/v3/kv/put"),
                                {{QStringLiteral("key"), EtcdGateway::bytes(putsKey(m_prefix))},
                                 {QStringLiteral("value"), EtcdGateway::bytes(QString::number(t))}},
                                [this](const QJsonObject &reply, const QString &error) {
                                    if (error.isEmpty())
                                        m_seen.push_back(
                                            {nowUs(),
                                             -1,
                                             {{QStringLiteral("ev"), QStringLiteral("put")},
                                              {QStringLiteral("rev"),
                                               QString::number(Etcd::revision(reply))}}});
                                });
            });
    // the end: the prediction's last tick, and time for etcd to end a lease due then
    const double end =
        double(m_plan.lastTick + 1) + double(kLeaseEndMarginMs) * 1000 / double(tickUs);
    atTick(end, [this](qint64) { finishRun(); });
}

// Every change of the lock's keys, as it happens: when etcd deleted a key because its lease
// ran out is seen here (the lanes see only their own calls).
void LiveRun::watchLock()
{
    const QString owners = lockPrefix(m_prefix) + QLatin1Char('/');
    const QJsonObject create{
        {QStringLiteral("key"), EtcdGateway::bytes(owners)},
        {QStringLiteral("range_end"), EtcdGateway::bytes(EtcdGateway::prefixEnd(owners))},
        {QStringLiteral("start_revision"), QString::number(m_startRevision + 1)}};
    m_watch = m_gateway->stream(
        QStringLiteral("/v3/watch"), {{QStringLiteral("create_request"), create}},
        [this](const QJsonObject &result) {
            const qint64 now = nowUs();
            for (const QJsonValue &e : result.value(QLatin1String("events")).toArray()) {
                const QJsonObject kv = e[QLatin1String("kv")].toObject();
                m_seen.push_back(
                    {now,
                     -1,
                     {{QStringLiteral("ev"), QStringLiteral("lock")},
                      {QStringLiteral("deleted"),
                       e[QLatin1String("type")].toString() == QLatin1String("DELETE")},
                      {QStringLiteral("key"), EtcdGateway::text(kv.value(QLatin1String("key")))},
                      {QStringLiteral("rev"),
                       kv.value(QLatin1String("mod_revision")).toString()}}});
            }
        },
        [this](const QString &error) {
            m_watch = nullptr;
            if (m_phase != Phase::Running || error.isEmpty())
                return;
            const qint64 when = nowUs();
            // etcd's own exit, when that is why, says more: give it a moment to be told
            QTimer::singleShot(300, this, [this, error, when] {
                if (m_phase == Phase::Running)
                    stop(QStringLiteral("etcd stopped answering %1: %2")
                             .arg(at(ticksOf(when), when / 1e6), error));
            });
        });
}

void LiveRun::tickProgress()
{
    const qint64 us = nowUs();
    const double ticks = std::max(0.0, ticksOf(us));
    emit progress(std::min(Core::Tick(ticks), m_plan.lastTick), m_plan.lastTick,
                  std::max<qint64>(0, us) / 1e6);
}

void LiveRun::cancel()
{
    if (m_phase == Phase::Running)
        stop(QStringLiteral("cancelled %1").arg(at(ticksOf(nowUs()), nowUs() / 1e6)));
    else if (m_phase == Phase::Starting || m_phase == Phase::Lanes)
        fail(QStringLiteral("cancelled before the run started"));
}

void LiveRun::stop(const QString &why)
{
    if (m_phase != Phase::Running)
        return;
    m_result.stopped = why;
    finishRun();
}

void LiveRun::finishRun()
{
    if (m_phase != Phase::Running)
        return;
    m_phase = Phase::Finishing;
    m_result.seconds = std::max<qint64>(0, nowUs()) / 1e6;
    for (QTimer *t : m_timers)
        t->stop();
    m_progress->stop();
    for (LaneProcess *l : m_lanes)
        l->finish();
    if (QNetworkReply *w = m_watch) {
        m_watch = nullptr;
        w->abort();
    }
    readBack();
}

// What etcd holds at the end, to check the replies against; then the run's keys go (on a
// throwaway etcd they go with it anyway).
void LiveRun::readBack()
{
    const bool alive = m_result.stopped.isEmpty() || !m_etcd || m_etcd->processId() > 0;
    if (m_postgres) {
        readBackPostgres();
        if (m_etcd || !alive || !m_gateway) {
            done();
            return;
        }
        m_gateway->call(
            QStringLiteral("/v3/kv/deleterange"),
            {{QStringLiteral("key"), EtcdGateway::bytes(m_prefix)},
             {QStringLiteral("range_end"), EtcdGateway::bytes(EtcdGateway::prefixEnd(m_prefix))}},
            [this](const QJsonObject &, const QString &) { done(); });
        return;
    }
    if (!alive || !m_gateway) {
        done();
        return;
    }
    QJsonArray ranges;
    for (std::uint32_t st = 0; st < m_scenario.storages.size(); ++st) {
        ranges.append(Etcd::range(valueKey(m_prefix, st)));
        ranges.append(Etcd::range(maxKey(m_prefix, st)));
    }
    m_gateway->call(
        QStringLiteral("/v3/kv/txn"), Etcd::txn({}, ranges, {}),
        [this](const QJsonObject &reply, const QString &error) {
            if (error.isEmpty()) {
                for (std::uint32_t st = 0; st < m_scenario.storages.size(); ++st) {
                    Core::StorageState s;
                    const QJsonArray v = Etcd::txnKvs(reply, int(2 * st));
                    const QJsonArray m = Etcd::txnKvs(reply, int(2 * st + 1));
                    if (!v.isEmpty()) {
                        s.value = EtcdGateway::text(v[0][QLatin1String("value")]);
                        s.version = EtcdGateway::number(v[0][QLatin1String("version")]);
                    }
                    if (!m.isEmpty())
                        s.maxToken = EtcdGateway::text(m[0][QLatin1String("value")]).toULongLong();
                    m_readBack.push_back(s);
                }
            }
            if (m_etcd || !error.isEmpty()) {
                done();
                return;
            }
            m_gateway->call(QStringLiteral("/v3/kv/deleterange"),
                            {{QStringLiteral("key"), EtcdGateway::bytes(m_prefix)},
                             {QStringLiteral("range_end"),
                              EtcdGateway::bytes(EtcdGateway::prefixEnd(m_prefix))}},
                            [this](const QJsonObject &, const QString &) { done(); });
        });
}

void LiveRun::readBackPostgres()
{
    if (m_postgres->processId() <= 0)
        return;
    const QString name = QStringLiteral("fencescope-readback-%1").arg(quintptr(this));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(m_postgres->socketDir());
        db.setPort(m_postgres->port());
        db.setUserName(PostgresServer::user());
        db.setDatabaseName(QStringLiteral("postgres"));
        if (db.open()) {
            QSqlQuery q(QStringLiteral("SELECT value, max_token, version FROM storage ORDER BY id"),
                        db);
            while (q.next()) {
                Core::StorageState st;
                st.value = q.value(0).toString();
                st.maxToken = Core::Token(q.value(1).toLongLong());
                st.version = std::uint64_t(q.value(2).toLongLong());
                m_readBack.push_back(st);
            }
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
}

void LiveRun::done()
{
    if (m_phase == Phase::Done)
        return;
    const bool ran = m_phase == Phase::Finishing;
    m_phase = Phase::Done;
    m_deadline->stop();
    m_progress->stop();
    for (QTimer *t : m_timers)
        t->stop();
    if (QNetworkReply *w = m_watch) {
        m_watch = nullptr;
        w->abort();
    }
    for (LaneProcess *l : m_lanes)
        l->kill();
    if (m_etcd)
        m_etcd->stop();
    if (m_postgres)
        m_postgres->stop();
    if (ran) {
        RunLog log;
        m_result.observed = buildObserved(log);
        m_result.complete = m_result.stopped.isEmpty();
        m_result.divergences =
            compareRuns(m_result.scenario, m_result.predicted, m_result.observed, log);
        if (!m_result.complete)
            m_result.divergences.push_back(
                {DivergenceKind::Stopped, true, Core::kNone, Core::kNone,
                 m_result.observed.lastTick,
                 QStringLiteral("the run stopped: %1").arg(m_result.stopped)});
        m_result.verdict = verdictOf(m_result.divergences, m_result.complete);
    }
    // (queued: it may come from inside a signal of what was just stopped, and a receiver may
    // delete this run)
    QMetaObject::invokeMethod(
        this, [this] { emit finished(m_result); }, Qt::QueuedConnection);
}

std::vector<qint64> LiveRun::childProcesses() const
{
    std::vector<qint64> out;
    if (m_etcd && m_etcd->processId() > 0)
        out.push_back(m_etcd->processId());
    if (m_postgres && m_postgres->processId() > 0)
        out.push_back(m_postgres->processId());
    for (const LaneProcess *l : m_lanes)
        if (l->isRunning())
            out.push_back(l->processId());
    return out;
}

// Everything seen, in the order it happened, into a trace; and what the comparison needs
// beside it.
Core::Trace LiveRun::buildObserved(RunLog &log)
{
    const Core::Scenario &s = m_result.scenario;
    const double tickUs = double(m_plan.tickUs);
    log.startRevision = m_startRevision;
    log.tickSeconds = tickUs / 1e6;
    log.readBack = m_readBack;
    const auto str = [](const QJsonObject &o, const char *k) {
        return o.value(QLatin1String(k)).toString();
    };
    const auto num = [](const QJsonObject &o, const char *k) {
        return o.value(QLatin1String(k)).toDouble();
    };
    // the revisions of the lanes' own deletes: a lock key deleted otherwise ran out
    QSet<QString> laneDeletes;
    std::vector<qint64> lockDeletes; // when etcd deleted a lock key, in order
    for (const Observed &o : m_seen) {
        const QString ev = str(o.ev, "ev");
        if (o.lane >= 0 && (ev == QLatin1String("release") || ev == QLatin1String("refusal") ||
                            ev == QLatin1String("gaveup")))
            laneDeletes.insert(str(o.ev, "rev"));
        if (ev == QLatin1String("lock")) {
            log.lockRevisions.push_back(str(o.ev, "rev").toULongLong());
            if (o.ev.value(QLatin1String("deleted")).toBool())
                lockDeletes.push_back(o.us);
        }
        if (ev == QLatin1String("put"))
            log.putRevisions.push_back(str(o.ev, "rev").toULongLong());
        if (ev == QLatin1String("written") && o.ev.value(QLatin1String("applied")).toBool() &&
            !str(o.ev, "rev").isEmpty()) // (a storage in PostgreSQL takes no revision)
            log.storageRevisions.push_back(str(o.ev, "rev").toULongLong());
    }
    std::sort(lockDeletes.begin(), lockDeletes.end());
    // each fact at the time it happened: a grant when its Txn answered ("at"), and a waiter's
    // grant when the key before it was deleted (it may learn it only later, at its thaw)
    std::vector<Observed> seen = m_seen;
    std::map<int, qint64> waitingSince;
    std::sort(seen.begin(), seen.end(),
              [](const Observed &a, const Observed &b) { return a.us < b.us; });
    for (Observed &o : seen) {
        const QString ev = str(o.ev, "ev");
        if (o.ev.contains(QLatin1String("at")))
            o.us = qint64(num(o.ev, "at"));
        if (ev == QLatin1String("wait"))
            waitingSince[o.lane] = o.us;
        if (ev == QLatin1String("grant") && waitingSince.count(o.lane)) {
            const auto it = std::upper_bound(lockDeletes.begin(), lockDeletes.end(), o.us);
            if (it != lockDeletes.begin())
                o.us = std::max(waitingSince[o.lane], *(it - 1));
            waitingSince.erase(o.lane);
        }
        if (ev == QLatin1String("gaveup") || ev == QLatin1String("expired"))
            waitingSince.erase(o.lane);
    }
    std::stable_sort(seen.begin(), seen.end(),
                     [](const Observed &a, const Observed &b) { return a.us < b.us; });

    Core::TraceRecorder rec(s, m_result.fencing, Core::TokenSource::Etcd);
    QHash<QString, std::uint32_t> clientOfLease, epochOfLease;
    std::map<std::pair<int, std::uint32_t>, std::uint32_t> writeOf, checkOf, readOf;
    // per client: when each frozen stretch ended (its thaw), by the stretch's end tick
    std::map<std::pair<std::uint32_t, Core::Tick>, qint64> thaws;
    std::map<int, qint64> waitEnded; // per lane: when its last wait ended
    std::map<int, qint64> waitBegan;
    std::map<std::pair<int, std::uint32_t>, double> expectedStart;
    qint64 last = 0;
    for (const Observed &o : seen) {
        const QString ev = str(o.ev, "ev");
        const double t = double(o.us) / tickUs;
        last = std::max(last, o.us);
        if (o.lane < 0) {
            const auto c = std::uint32_t(num(o.ev, "client"));
            const auto action = std::uint32_t(num(o.ev, "action"));
            if (ev == QLatin1String("pausebegin")) {
                rec.pauseBegan(t, c, action);
            } else if (ev == QLatin1String("pauseend")) {
                rec.pauseEnded(t, c, action);
            } else if (ev == QLatin1String("thaw")) {
                thaws[{c, Core::Tick(num(o.ev, "tick"))}] = o.us;
            } else if (ev == QLatin1String("late")) {
                log.late.push_back({Core::kNone, Core::kNone, Core::Tick(num(o.ev, "tick")),
                                    num(o.ev, "lateUs") / 1e6});
            } else if (ev == QLatin1String("lock") &&
                       o.ev.value(QLatin1String("deleted")).toBool() &&
                       !laneDeletes.contains(str(o.ev, "rev"))) {
                // etcd deleted the key itself: its lease ran out
                const QString lease = leaseOfKey(str(o.ev, "key"));
                if (epochOfLease.contains(lease))
                    rec.leaseEnded(t, epochOfLease.value(lease));
            }
            continue;
        }
        const auto c = std::uint32_t(o.lane);
        const auto action = std::uint32_t(num(o.ev, "action"));
        const auto ttlOf = [&](std::uint32_t i) { return s.clients[c].actions[i].amount; };
        if (ev == QLatin1String("start")) {
            // when it should have begun: at its due time, or its client's thaw if it was
            // stopped then, or the end of the wait it queued behind
            const double dueUs = num(o.ev, "dueUs");
            double expected = dueUs;
            const Core::Tick due = s.clients[c].actions[action].at;
            for (const auto &span : stretches(s.clients[c]))
                if (span.first <= due && due < span.second) {
                    const auto it = thaws.find({c, span.second});
                    expected =
                        std::max(expected, it == thaws.end() ? double(o.us) : double(it->second));
                }
            if (waitBegan.count(o.lane) && waitBegan[o.lane] <= qint64(dueUs))
                expected = std::max(expected, double(waitEnded[o.lane]));
            expectedStart[{o.lane, action}] = expected;
        } else if (ev == QLatin1String("done") || ev == QLatin1String("wait")) {
            // late: it came to its end (or began to wait) more than a quarter tick after it
            // should have begun; a client stopped in the middle of an action ends it late too
            const auto it = expectedStart.find({o.lane, action});
            if (it != expectedStart.end()) {
                const double late = double(o.us) - it->second;
                if (late > tickUs / 4)
                    log.late.push_back({c, action, s.clients[c].actions[action].at, late / 1e6});
                expectedStart.erase(it);
            }
        }
        if (ev == QLatin1String("start") || ev == QLatin1String("done")) {
            // (measured above)
        } else if (ev == QLatin1String("grant")) {
            const QString lease = str(o.ev, "lease");
            const std::uint32_t epoch =
                rec.grant(t, c, action, str(o.ev, "token").toULongLong(), ttlOf(action));
            clientOfLease.insert(lease, c);
            epochOfLease.insert(lease, epoch);
            waitEnded[o.lane] = o.us;
        } else if (ev == QLatin1String("renewal")) {
            rec.renewal(t, c, action, ttlOf(action), false);
        } else if (ev == QLatin1String("keepalive")) {
            if (o.ev.value(QLatin1String("ok")).toBool())
                rec.renewal(t, c, action, ttlOf(action), true);
            else
                rec.keepaliveLost(t, c);
        } else if (ev == QLatin1String("refusal") || ev == QLatin1String("gaveup")) {
            const QString owner = str(o.ev, "owner");
            rec.refusal(t, c, action, clientOfLease.value(owner, c), ev == QLatin1String("gaveup"));
            waitEnded[o.lane] = o.us;
        } else if (ev == QLatin1String("wait")) {
            clientOfLease.insert(str(o.ev, "lease"), c);
            rec.waitBegan(t, c, action, str(o.ev, "key").toULongLong());
            waitBegan[o.lane] = o.us;
            waitEnded[o.lane] = std::numeric_limits<qint64>::max() / 2;
        } else if (ev == QLatin1String("expired")) {
            log.waitersExpired.push_back({c, action});
            rec.refusal(t, c, action, c, true);
            waitEnded[o.lane] = o.us;
        } else if (ev == QLatin1String("release")) {
            rec.release(t, c, action, o.ev.value(QLatin1String("effective")).toBool());
        } else if (ev == QLatin1String("checked")) {
            checkOf[{o.lane, action}] =
                rec.checked(t, c, action, o.ev.value(QLatin1String("passed")).toBool(),
                            Core::Tick(num(o.ev, "sendAt")));
        } else if (ev == QLatin1String("sent")) {
            const bool tagged = !o.ev.value(QLatin1String("token")).isNull();
            if (o.ev.value(QLatin1String("checked")).toBool() && checkOf.count({o.lane, action}))
                writeOf[{o.lane, action}] = rec.checkedWriteSent(
                    t, checkOf[{o.lane, action}], std::uint64_t(num(o.ev, "expected")));
            else
                writeOf[{o.lane, action}] = rec.writeSent(t, c, action, tagged ? rec.epochOf(c) : 0,
                                                          std::uint64_t(num(o.ev, "expected")));
        } else if (ev == QLatin1String("written")) {
            const auto it = writeOf.find({o.lane, action});
            if (it != writeOf.end())
                rec.writeArrived(t, it->second, o.ev.value(QLatin1String("applied")).toBool(),
                                 str(o.ev, "max").toULongLong(),
                                 std::uint64_t(num(o.ev, "version")));
        } else if (ev == QLatin1String("readsent")) {
            readOf[{o.lane, action}] = rec.readSent(t, c, action);
        } else if (ev == QLatin1String("read")) {
            const auto it = readOf.find({o.lane, action});
            if (it != readOf.end())
                rec.readArrived(t, it->second, std::uint64_t(num(o.ev, "version")));
        }
    }
    return rec.finish(double(last) / tickUs);
}

} // namespace Live
