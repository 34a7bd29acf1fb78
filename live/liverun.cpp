#include "liverun.h"

#include "etcdgateway.h"
#include "etcdserver.h"
#include "lane.h"
#include "laneprocess.h"
#include "postgresserver.h"
#include "simulator.h"

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
    if (o.store == Store::Postgres)
        for (const Core::StorageSpec &st : s.storages)
            if (st.check == Core::StorageCheck::Owner) {
                if (refused)
                    *refused = true;
                return QStringLiteral("cannot run on PostgreSQL: storage %1 asks etcd for the "
                                      "writer's lock key (check owner): keep it in etcd")
                    .arg(st.name);
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
        connect(lane, &LaneProcess::reported, this,
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

void LiveRun::record(int lane, const QJsonObject &ev)
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
    const auto atTick = [this, tickUs](double tick, const std::function<void(qint64 lateUs)> &f) {
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
        const auto spans = frozenStretches(client);
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
            for (const QJsonValue e : result.value(QLatin1String("events")).toArray()) {
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

} // namespace Live
