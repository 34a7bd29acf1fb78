// LiveRun, part: what was seen, as a trace. What the storages hold at the end, read back;
// everything the lanes reported, when the coordinator stopped and continued them, and the
// changes of the lock's keys, in the order it happened, told to a Core::TraceRecorder; and what
// the comparison needs beside it (RunLog).
#include "liverun.h"

#include "etcdgateway.h"
#include "etcdserver.h"
#include "lanescript.h"
#include "postgresserver.h"
#include "tracerecorder.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace Live {

namespace {

QString leaseOfKey(const QString &key)
{
    return key.mid(key.lastIndexOf(QLatin1Char('/')) + 1);
}

} // namespace

// The union of a client's pauses: where its process is stopped.
std::vector<std::pair<Core::Tick, Core::Tick>> LiveRun::frozenStretches(const Core::Client &c)
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
            for (const auto &span : frozenStretches(s.clients[c]))
                if (span.first <= due && due < span.second) {
                    const auto it = thaws.find({c, span.second});
                    expected =
                        std::max(expected, it == thaws.end() ? double(o.us) : double(it->second));
                }
            if (waitBegan.count(o.lane) && waitBegan[o.lane] <= qint64(dueUs))
                expected = std::max(expected, double(waitEnded[o.lane]));
            expectedStart[{o.lane, action}] = expected;
            // late: it began more than a quarter tick after it should have
            const double late = double(o.us) - expected;
            if (late > tickUs / 4)
                log.late.push_back({c, action, due, late / 1e6, false});
        } else if (ev == QLatin1String("done") || ev == QLatin1String("wait")) {
            // slow: it had not come to its end (or begun to wait) a tick after it should have
            // begun, so the next tick's events may have come first (a client stopped in the
            // middle of an action ends it late too)
            const auto it = expectedStart.find({o.lane, action});
            if (it != expectedStart.end()) {
                const double took = double(o.us) - it->second;
                if (took >= tickUs)
                    log.late.push_back(
                        {c, action, s.clients[c].actions[action].at, took / 1e6, true});
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
