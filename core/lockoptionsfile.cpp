#include "lockoptionsfile.h"

#include "scenariofilekeys.h"
#include "tokensource.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <climits>
#include <cmath>

namespace Core::LockOptionsFile {

namespace {

// the key table the scenario file's reader and writer use (scenariofilekeys.h)
using ScenarioFormat::Key;
using ScenarioFormat::keyName;
using ScenarioFormat::keyText;

// A problem: thrown inside take() and caught there, so every check is one line.
struct Problem
{
    QString text;
};

[[noreturn]] void fail(const QString &place, const QString &problem)
{
    throw Problem{place + QStringLiteral(": ") + problem};
}

QString describe(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const qint64 i = v.toInteger(LLONG_MIN);
        return i != LLONG_MIN ? QString::number(i) : QString::number(v.toDouble(), 'g', 17);
    }
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("missing");
}

// An integer in [lo, hi] (within 2^53 either way: exact in JSON), or a problem naming `place`.
qint64 integer(const QJsonValue &v, const QString &place, qint64 lo, qint64 hi)
{
    const QString what = lo == 1   ? QStringLiteral("must be a positive integer")
                         : lo == 0 ? QStringLiteral("must be a non-negative integer")
                                   : QStringLiteral("must be an integer");
    const double d = v.toDouble();
    if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d))
        fail(place, QStringLiteral("%1, not %2").arg(what, describe(v)));
    // exact for integers (kept as qint64), LLONG_MIN beyond the 64-bit range
    const qint64 i = v.toInteger(LLONG_MIN);
    if (i != LLONG_MIN && lo >= 0 && i < lo)
        fail(place, QStringLiteral("%1, not %2").arg(what, describe(v)));
    if (i == LLONG_MIN || i < lo || i > hi)
        fail(place, lo < 0 ? QStringLiteral("%1 within 2^53 (9007199254740992) either way, not %2")
                                 .arg(what, describe(v))
                           : QStringLiteral("%1 no larger than 2^53 (9007199254740992), not %2")
                                 .arg(what, describe(v)));
    return i;
}

constexpr qint64 kMax = qint64(kMaxFileInteger);

Tick tick(const QJsonValue &v, const QString &place)
{
    return Tick(integer(v, place, 0, kMax));
}

QJsonObject object(const QJsonValue &v, const QString &place, const QStringList &known)
{
    if (!v.isObject())
        fail(place, QStringLiteral("must be an object, not %1").arg(describe(v)));
    QJsonObject o = v.toObject();
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        if (!known.contains(it.key()))
            fail(place + QLatin1Char('.') + it.key(),
                 QStringLiteral("unknown key (known: %1)").arg(known.join(QStringLiteral(", "))));
    return o;
}

QJsonArray array(const QJsonValue &v, const QString &place, int max)
{
    if (!v.isArray())
        fail(place, QStringLiteral("must be an array, not %1").arg(describe(v)));
    QJsonArray a = v.toArray();
    if (a.size() > max)
        fail(place,
             QStringLiteral("too many entries (%1; the limit is %2)").arg(a.size()).arg(max));
    return a;
}

std::vector<Tick> ticks(const QJsonValue &v, const QString &place)
{
    std::vector<Tick> out;
    const QJsonArray a = array(v, place, kMaxScheduledTicks);
    for (qsizetype i = 0; i < a.size(); ++i)
        out.push_back(tick(a[i], QStringLiteral("%1[%2]").arg(place).arg(i)));
    // at one tick, one event is as good as many: kept sorted, as the simulator reads them
    std::sort(out.begin(), out.end());
    return out;
}

QString sourceName(TokenSource src)
{
    return QLatin1Char('"') + toString(src) + QLatin1Char('"');
}

void takeLockKeys(Scenario &s)
{
    QJsonObject &extra = s.lockExtra;
    LockOptions &lock = s.lock;
    // `only` (and `also`, when it is not `only`): the sources the key belongs to
    const auto takeFor = [&](Key key, TokenSource only, TokenSource also, bool any,
                             const auto &read) {
        const QString name = keyName(key);
        const auto it = extra.constFind(name);
        if (it == extra.constEnd())
            return;
        const QString place = keyName(Key::Lock) + QLatin1Char('.') + name;
        if (!any && s.tokens != only && s.tokens != also)
            fail(place, also == only
                            ? QStringLiteral("only for lock.tokens %1, not %2")
                                  .arg(sourceName(only), sourceName(s.tokens))
                            : QStringLiteral("only for lock.tokens %1 or %2, not %3")
                                  .arg(sourceName(only), sourceName(also), sourceName(s.tokens)));
        const QJsonValue v = it.value();
        extra.remove(name);
        read(v, place);
    };
    const auto take = [&](Key key, TokenSource only, bool any, const auto &read) {
        takeFor(key, only, only, any, read);
    };
    take(Key::First, TokenSource::Counter, false, [&](const QJsonValue &v, const QString &p) {
        lock.first = Token(integer(v, p, 0, kMax));
    });
    take(Key::Revision, TokenSource::Etcd, false, [&](const QJsonValue &v, const QString &p) {
        lock.revision = Token(integer(v, p, 0, kMax));
    });
    take(Key::Puts, TokenSource::Etcd, false, [&](const QJsonValue &v, const QString &p) {
        const QJsonObject o = object(v, p, {keyName(Key::Every)});
        if (!o.contains(keyName(Key::Every)))
            fail(p + (QLatin1Char('.') + keyName(Key::Every)),
                 QStringLiteral("missing (must be a positive integer)"));
        lock.putsEvery = Tick(integer(o.value(keyName(Key::Every)),
                                      p + (QLatin1Char('.') + keyName(Key::Every)), 1, kMax));
    });
    take(Key::Failovers, TokenSource::ZooKeeper, false,
         [&](const QJsonValue &v, const QString &p) { lock.failovers = ticks(v, p); });
    takeFor(Key::FailedElections, TokenSource::RaftTerm, TokenSource::ServiceTerm, false,
            [&](const QJsonValue &v, const QString &p) { lock.failedElections = ticks(v, p); });
    take(Key::Elections, TokenSource::ServiceTerm, false,
         [&](const QJsonValue &v, const QString &p) { lock.elections = ticks(v, p); });
    take(Key::Seed, TokenSource::Random, false, [&](const QJsonValue &v, const QString &p) {
        lock.seed = std::uint64_t(integer(v, p, 0, kMax));
    });
    take(Key::ClockOffset, TokenSource::WallClock, false,
         [&](const QJsonValue &v, const QString &p) {
             lock.clockOffset = Tick(integer(v, p, 0, kMax));
         });
    take(Key::ClockSteps, TokenSource::WallClock, false,
         [&](const QJsonValue &v, const QString &p) {
             const QJsonArray a = array(v, p, kMaxClockSteps);
             lock.clockSteps.clear();
             for (qsizetype i = 0; i < a.size(); ++i) {
                 const QString at = QStringLiteral("%1[%2]").arg(p).arg(i);
                 const QJsonObject o = object(a[i], at, {keyName(Key::At), keyName(Key::By)});
                 for (const Key key : {Key::At, Key::By})
                     if (!o.contains(keyName(key)))
                         fail(at + QLatin1Char('.') + keyName(key), QStringLiteral("missing"));
                 ClockStep step;
                 step.at =
                     tick(o.value(keyName(Key::At)), at + (QLatin1Char('.') + keyName(Key::At)));
                 step.by = integer(o.value(keyName(Key::By)),
                                   at + (QLatin1Char('.') + keyName(Key::By)), -kMax, kMax);
                 lock.clockSteps.push_back(step);
             }
             std::stable_sort(lock.clockSteps.begin(), lock.clockSteps.end(),
                              [](const ClockStep &a, const ClockStep &b) { return a.at < b.at; });
         });
    take(Key::Restores, TokenSource::Counter, true, [&](const QJsonValue &v, const QString &p) {
        const QJsonArray a = array(v, p, kMaxRestores);
        lock.restores.clear();
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString at = QStringLiteral("%1[%2]").arg(p).arg(i);
            const QJsonObject o =
                object(a[i], at, {keyName(Key::At), keyName(Key::From), keyName(Key::Bump)});
            for (const Key key : {Key::At, Key::From})
                if (!o.contains(keyName(key)))
                    fail(at + QLatin1Char('.') + keyName(key),
                         QStringLiteral("missing (must be a non-negative integer)"));
            LockRestore r;
            r.at = tick(o.value(keyName(Key::At)), at + (QLatin1Char('.') + keyName(Key::At)));
            r.from =
                tick(o.value(keyName(Key::From)), at + (QLatin1Char('.') + keyName(Key::From)));
            if (r.from >= r.at)
                fail(at + (QLatin1Char('.') + keyName(Key::From)),
                     QStringLiteral("must be less than at (%1), not %2").arg(r.at).arg(r.from));
            if (o.contains(keyName(Key::Bump))) {
                if (!hasCounter(s.tokens))
                    fail(at + (QLatin1Char('.') + keyName(Key::Bump)),
                         QStringLiteral("not for lock.tokens %1: it has no counter to bump")
                             .arg(sourceName(s.tokens)));
                r.bump = Token(integer(o.value(keyName(Key::Bump)),
                                       at + (QLatin1Char('.') + keyName(Key::Bump)), 0, kMax));
            }
            lock.restores.push_back(r);
        }
        std::stable_sort(lock.restores.begin(), lock.restores.end(),
                         [](const LockRestore &a, const LockRestore &b) { return a.at < b.at; });
    });
    take(Key::LockDelay, TokenSource::Counter, true, [&](const QJsonValue &v, const QString &p) {
        lock.lockDelay = Tick(integer(v, p, 0, kMax));
    });

    if (s.tokens == TokenSource::WallClock) {
        // the server's clock, and so every token, must stay >= 0: it is lowest right at a step
        for (std::size_t i = 0; i < lock.clockSteps.size(); ++i) {
            const Tick at = lock.clockSteps[i].at;
            const std::int64_t clock = wallClockAt(lock, at);
            if (clock < 0)
                fail(QStringLiteral("lock.clockSteps"),
                     QStringLiteral("the lock server's clock would be %1 at tick %2: a token must "
                                    "not be negative")
                         .arg(clock)
                         .arg(at));
        }
    }
}

// An acquire's wait and waitFor, out of its kept keys.
void takeWaitKeys(Action &a, std::size_t client, std::size_t index)
{
    if (a.kind != ActionKind::Acquire || a.extra().isEmpty())
        return;
    const QString waitKey = keyName(Key::Wait), forKey = keyName(Key::WaitFor);
    const QJsonValue wait = a.extra().value(waitKey);
    const QJsonValue waitFor = a.extra().value(forKey);
    if (wait.isUndefined() && waitFor.isUndefined())
        return;
    const QString place = QStringLiteral("clients[%1].actions[%2].").arg(client).arg(index);
    if (!wait.isUndefined()) {
        if (!wait.isBool())
            fail(place + waitKey,
                 QStringLiteral("must be true or false, not %1").arg(describe(wait)));
        a.wait = wait.toBool();
        a.editExtra().remove(waitKey);
    }
    if (!waitFor.isUndefined()) {
        a.setWaitFor(Tick(integer(waitFor, place + forKey, 1, kMax)));
        if (!wait.isUndefined() && !a.wait)
            fail(place + forKey, QStringLiteral("needs a blocking acquire, but wait is false"));
        a.wait = true; // waitFor implies wait
        a.editExtra().remove(forKey);
    }
}

} // namespace

QString take(Scenario &s)
{
    QString lock = takeLock(s);
    if (!lock.isEmpty())
        return lock;
    for (std::size_t c = 0; c < s.clients.size(); ++c)
        for (std::size_t i = 0; i < s.clients[c].actions.size(); ++i) {
            QString wait = takeWait(s.clients[c].actions[i], c, i);
            if (!wait.isEmpty())
                return wait;
        }
    return {};
}

QString takeLock(Scenario &s)
{
    try {
        takeLockKeys(s);
    } catch (const Problem &p) {
        return p.text;
    }
    return {};
}

QString takeWait(Action &a, std::size_t client, std::size_t index)
{
    try {
        takeWaitKeys(a, client, index);
    } catch (const Problem &p) {
        return p.text;
    }
    return {};
}

void writeClockSteps(JsonOut &out, const std::vector<ClockStep> &steps)
{
    out.raw("[");
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const ClockStep &st = steps[i];
        out.raw(i ? ", " : "")
            .raw("{ ")
            .key(keyText(Key::At))
            .number(st.at)
            .raw(", ")
            .key(keyText(Key::By));
        if (st.by < 0) // in unsigned arithmetic: the most negative step too
            out.raw("-").number(std::uint64_t(0) - std::uint64_t(st.by));
        else
            out.number(std::uint64_t(st.by));
        out.raw(" }");
    }
    out.raw("]");
}

void writeLock(JsonOut &out, const Scenario &s)
{
    const LockOptions &o = s.lock;
    const LockOptions defaults;
    const auto ticks = [&](const char *key, const std::vector<Tick> &list) {
        out.raw(", ").key(key).raw("[");
        for (std::size_t i = 0; i < list.size(); ++i)
            out.raw(i ? ", " : "").number(list[i]);
        out.raw("]");
    };
    switch (s.tokens) {
    case TokenSource::Counter:
        if (o.first != defaults.first)
            out.raw(", ").key(keyText(Key::First)).number(o.first);
        break;
    case TokenSource::Etcd:
        if (o.revision != defaults.revision)
            out.raw(", ").key(keyText(Key::Revision)).number(o.revision);
        if (o.putsEvery)
            out.raw(", ")
                .key(keyText(Key::Puts))
                .raw("{ ")
                .key(keyText(Key::Every))
                .number(o.putsEvery)
                .raw(" }");
        break;
    case TokenSource::ZooKeeper:
        if (!o.failovers.empty())
            ticks(keyText(Key::Failovers), o.failovers);
        break;
    case TokenSource::RaftTerm:
        if (!o.failedElections.empty())
            ticks(keyText(Key::FailedElections), o.failedElections);
        break;
    case TokenSource::ServiceTerm:
        if (!o.elections.empty())
            ticks(keyText(Key::Elections), o.elections);
        if (!o.failedElections.empty())
            ticks(keyText(Key::FailedElections), o.failedElections);
        break;
    case TokenSource::Random:
        if (o.seed != defaults.seed)
            out.raw(", ").key(keyText(Key::Seed)).number(o.seed);
        break;
    case TokenSource::WallClock:
        if (o.clockOffset != defaults.clockOffset)
            out.raw(", ").key(keyText(Key::ClockOffset)).number(o.clockOffset);
        if (!o.clockSteps.empty()) {
            out.raw(", ").key(keyText(Key::ClockSteps));
            writeClockSteps(out, o.clockSteps);
        }
        break;
    default:
        break;
    }
    if (!o.restores.empty()) {
        out.raw(", ").key(keyText(Key::Restores)).raw("[");
        for (std::size_t i = 0; i < o.restores.size(); ++i) {
            const LockRestore &r = o.restores[i];
            out.raw(i ? ", " : "").raw("{ ").key(keyText(Key::At)).number(r.at);
            out.raw(", ").key(keyText(Key::From)).number(r.from);
            if (r.bump)
                out.raw(", ").key(keyText(Key::Bump)).number(r.bump);
            out.raw(" }");
        }
        out.raw("]");
    }
    if (o.lockDelay)
        out.raw(", ").key(keyText(Key::LockDelay)).number(o.lockDelay);
}

void writeAcquire(JsonOut &out, const Action &a)
{
    if (a.wait)
        out.raw(", ").key(keyText(Key::Wait)).boolean(true);
    if (a.waitFor())
        out.raw(", ").key(keyText(Key::WaitFor)).number(a.waitFor());
}

} // namespace Core::LockOptionsFile
