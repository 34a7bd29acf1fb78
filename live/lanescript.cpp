#include "lanescript.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace Live {

namespace {

const char *kindName(Core::ActionKind kind)
{
    switch (kind) {
    case Core::ActionKind::Acquire:
        return "acquire";
    case Core::ActionKind::Release:
        return "release";
    case Core::ActionKind::Write:
        return "write";
    case Core::ActionKind::Read:
        return "read";
    case Core::ActionKind::Pause:
        break;
    }
    return "pause";
}

// A whole number the script carries (JSON numbers are exact far beyond any tick a live run has).
bool readTick(const QJsonObject &o, const char *key, Core::Tick *out)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) {
        *out = 0;
        return true;
    }
    const double d = v.toDouble(-1);
    if (d < 0 || d > double(Core::kMaxFileInteger) || d != double(Core::Tick(d)))
        return false;
    *out = Core::Tick(d);
    return true;
}

} // namespace

LaneScript LaneScript::of(const Core::Scenario &s, std::uint32_t client, bool fencing,
                          qint64 tickUs, const QString &etcd, const QString &prefix,
                          const QString &postgres, int postgresPort)
{
    LaneScript out;
    out.etcd = etcd;
    out.postgres = postgres;
    out.postgresPort = postgresPort;
    out.prefix = prefix;
    out.client = client;
    const Core::Client &c = s.clients[client];
    out.name = c.name;
    out.bypass = c.bypass;
    out.fencing = fencing;
    out.tickUs = tickUs;
    for (const Core::StorageSpec &st : s.storages)
        out.storages.push_back(
            {st.check == Core::StorageCheck::Version, st.rule == Core::FenceRule::Le,
             st.check == Core::StorageCheck::Owner, st.check == Core::StorageCheck::Same});
    for (std::uint32_t i = 0; i < c.actions.size(); ++i) {
        const Core::Action &a = c.actions[i];
        if (a.kind == Core::ActionKind::Pause)
            continue; // imposed from outside: the coordinator stops the process
        LaneAction la;
        la.index = i;
        la.at = a.at;
        la.kind = a.kind;
        la.amount = a.amount;
        la.value = a.value;
        la.storage = a.storage;
        la.check = a.check;
        la.gap = a.gap();
        la.keepalive = a.keepalive();
        la.wait = a.wait || a.waitFor();
        la.waitFor = a.waitFor();
        out.actions.push_back(la);
    }
    // a client's actions run in order of `at`, ties in listed order (section 3)
    std::stable_sort(out.actions.begin(), out.actions.end(),
                     [](const LaneAction &x, const LaneAction &y) { return x.at < y.at; });
    return out;
}

QJsonObject LaneScript::toJson() const
{
    QJsonArray st;
    for (const LaneStorage &s : storages)
        st.append(QJsonObject{{QStringLiteral("byVersion"), s.byVersion},
                              {QStringLiteral("le"), s.le},
                              {QStringLiteral("byOwner"), s.byOwner},
                              {QStringLiteral("bySame"), s.bySame}});
    QJsonArray acts;
    for (const LaneAction &a : actions) {
        QJsonObject o{{QStringLiteral("index"), double(a.index)},
                      {QStringLiteral("at"), double(a.at)},
                      {QStringLiteral("do"), QLatin1String(kindName(a.kind))},
                      {QStringLiteral("amount"), double(a.amount)}};
        if (a.kind == Core::ActionKind::Write || a.kind == Core::ActionKind::Read)
            o.insert(QStringLiteral("storage"), double(a.storage));
        if (a.kind == Core::ActionKind::Write) {
            o.insert(QStringLiteral("value"), a.value);
            o.insert(QStringLiteral("check"), a.check);
            o.insert(QStringLiteral("gap"), double(a.gap));
        }
        if (a.kind == Core::ActionKind::Acquire) {
            o.insert(QStringLiteral("keepalive"), double(a.keepalive));
            o.insert(QStringLiteral("wait"), a.wait);
            o.insert(QStringLiteral("waitFor"), double(a.waitFor));
        }
        acts.append(o);
    }
    return {{QStringLiteral("etcd"), etcd},
            {QStringLiteral("postgres"), postgres},
            {QStringLiteral("postgresPort"), postgresPort},
            {QStringLiteral("prefix"), prefix},
            {QStringLiteral("client"), double(client)},
            {QStringLiteral("name"), name},
            {QStringLiteral("bypass"), bypass},
            {QStringLiteral("fencing"), fencing},
            {QStringLiteral("tickUs"), double(tickUs)},
            {QStringLiteral("storages"), st},
            {QStringLiteral("actions"), acts}};
}

std::optional<LaneScript> LaneScript::fromJson(const QJsonObject &o, QString *error)
{
    LaneScript s;
    s.etcd = o.value(QLatin1String("etcd")).toString();
    s.prefix = o.value(QLatin1String("prefix")).toString();
    s.postgres = o.value(QLatin1String("postgres")).toString();
    s.postgresPort = o.value(QLatin1String("postgresPort")).toInt();
    s.name = o.value(QLatin1String("name")).toString();
    s.bypass = o.value(QLatin1String("bypass")).toBool();
    s.fencing = o.value(QLatin1String("fencing")).toBool(true);
    Core::Tick client = 0, tick = 0;
    if (s.etcd.isEmpty() || s.prefix.isEmpty() || !readTick(o, "client", &client) ||
        !readTick(o, "tickUs", &tick) || tick == 0) {
        *error = QStringLiteral("script: etcd, prefix, client and tickUs are required");
        return std::nullopt;
    }
    s.client = std::uint32_t(client);
    s.tickUs = qint64(tick);
    const QJsonArray st = o.value(QLatin1String("storages")).toArray();
    for (const QJsonValue v : st)
        s.storages.push_back({v[QLatin1String("byVersion")].toBool(),
                              v[QLatin1String("le")].toBool(), v[QLatin1String("byOwner")].toBool(),
                              v[QLatin1String("bySame")].toBool()});
    const QJsonArray acts = o.value(QLatin1String("actions")).toArray();
    for (qsizetype i = 0; i < acts.size(); ++i) {
        const QJsonObject a = acts[i].toObject();
        LaneAction la;
        Core::Tick index = 0, storage = 0;
        QString kind = a.value(QLatin1String("do")).toString();
        if (kind == QLatin1String("acquire"))
            la.kind = Core::ActionKind::Acquire;
        else if (kind == QLatin1String("release"))
            la.kind = Core::ActionKind::Release;
        else if (kind == QLatin1String("write"))
            la.kind = Core::ActionKind::Write;
        else if (kind == QLatin1String("read"))
            la.kind = Core::ActionKind::Read;
        else
            kind.clear();
        if (kind.isEmpty() || !readTick(a, "index", &index) || !readTick(a, "at", &la.at) ||
            !readTick(a, "amount", &la.amount) || !readTick(a, "storage", &storage) ||
            !readTick(a, "gap", &la.gap) || !readTick(a, "keepalive", &la.keepalive) ||
            !readTick(a, "waitFor", &la.waitFor) || storage >= s.storages.size()) {
            *error = QStringLiteral("script: actions[%1] is not an action").arg(i);
            return std::nullopt;
        }
        la.index = std::uint32_t(index);
        la.storage = std::uint32_t(storage);
        la.value = a.value(QLatin1String("value")).toString();
        la.check = a.value(QLatin1String("check")).toBool();
        la.wait = a.value(QLatin1String("wait")).toBool();
        s.actions.push_back(la);
    }
    return s;
}

QString lockPrefix(const QString &prefix)
{
    return prefix + QLatin1String("lock");
}

QString lockKey(const QString &prefix, const QString &leaseHex)
{
    // concurrency.NewMutex adds "/" to the prefix; tryAcquire names the key by the session's
    // lease in hex (client/v3/concurrency/mutex.go)
    return lockPrefix(prefix) + QLatin1Char('/') + leaseHex;
}

QString valueKey(const QString &prefix, std::uint32_t storage)
{
    return prefix + QStringLiteral("storage/%1/value").arg(storage);
}

QString maxKey(const QString &prefix, std::uint32_t storage)
{
    return prefix + QStringLiteral("storage/%1/max").arg(storage);
}

QString putsKey(const QString &prefix)
{
    return prefix + QLatin1String("puts");
}

std::optional<qint64> wholeSeconds(Core::Tick ticks, qint64 tickUs)
{
    const double us = double(ticks) * double(tickUs);
    const qint64 seconds = std::llround(us / 1e6);
    if (seconds <= 0 || std::abs(us - double(seconds) * 1e6) > double(ticks))
        return std::nullopt;
    return seconds;
}

QString paddedToken(Core::Token token)
{
    return QStringLiteral("%1").arg(token, 20, 10, QLatin1Char('0'));
}

} // namespace Live
