// The quantities a sweep varies and the outcomes it counts (declared in sweep.h): one entry
// each, with what a quantity sets in a scenario and when it changes nothing there.

#include "sweep.h"

#include <algorithm>

namespace Core {

namespace {

void setAmounts(Scenario &s, ActionKind kind, Tick value)
{
    for (Client &c : s.clients)
        for (Action &a : c.actions)
            if (a.kind == kind)
                a.amount = value;
}

// More clients: copies of the existing ones in lane order (A, B, then A2, B2, ...), each doing
// what its original does; fewer: the last lanes go.
void setClientCount(Scenario &s, Tick value)
{
    const std::size_t n = s.clients.size();
    if (value <= n || n == 0) {
        s.clients.resize(std::min<std::size_t>(n, std::size_t(value)));
        return;
    }
    for (std::size_t i = n; i < value; ++i) {
        Client copy = s.clients[i % n];
        for (int k = int(i / n) + 1;; ++k) {
            const QString name = s.clients[i % n].name + QString::number(k);
            if (s.clientIndex(name) < 0) {
                copy.name = name;
                break;
            }
        }
        s.clients.push_back(std::move(copy));
    }
}

void setKeepalives(Scenario &s, Tick value)
{
    for (Client &c : s.clients)
        for (Action &a : c.actions)
            if (a.kind == ActionKind::Acquire)
                a.setKeepalive(value);
}

void setGaps(Scenario &s, Tick value)
{
    for (Client &c : s.clients)
        for (Action &a : c.actions)
            if (a.kind == ActionKind::Write && a.check)
                a.setGap(value);
}

// The value is the rate in thousandths of real speed, exactly the file's "rate" times 1000
// (500: a clock at half speed); a client's clock steps stay as they are.
void setClockRates(Scenario &s, Tick value)
{
    for (Client &c : s.clients)
        c.clock.rateMilli = std::uint32_t(value);
}

void setBumps(Scenario &s, Tick value)
{
    for (LockRestore &r : s.lock.restores)
        r.bump = value;
}

bool hasAction(const Scenario &s, bool (*is)(const Action &))
{
    for (const Client &c : s.clients)
        for (const Action &a : c.actions)
            if (is(a))
                return true;
    return false;
}

QString needsAcquire(const Scenario &s)
{
    return hasAction(s, [](const Action &a) { return a.kind == ActionKind::Acquire; })
               ? QString()
               : QStringLiteral("the scenario has no acquire");
}

} // namespace

const std::vector<Quantity> &quantities()
{
    static const std::vector<Quantity> all{
        {QStringLiteral("pause"), QStringLiteral("pause length (ticks)"), 1, 1'000'000,
         [](Scenario &s, Tick v) { setAmounts(s, ActionKind::Pause, v); }},
        {QStringLiteral("ttl"), QStringLiteral("lease TTL (ticks)"), 1, 1'000'000,
         [](Scenario &s, Tick v) { setAmounts(s, ActionKind::Acquire, v); }},
        {QStringLiteral("delay"), QStringLiteral("network delay of writes (ticks)"), 0, 1'000'000,
         [](Scenario &s, Tick v) { setAmounts(s, ActionKind::Write, v); }},
        {QStringLiteral("clients"), QStringLiteral("number of clients"), 1, 1000, setClientCount},
        // 0 turns keepalives off, as an acquire without the key
        {QStringLiteral("keepalive"), QStringLiteral("keepalive period of acquires (ticks)"), 0,
         1'000'000, setKeepalives, needsAcquire},
        {QStringLiteral("gap"), QStringLiteral("gap after a write's check (ticks)"), 0, 1'000'000,
         setGaps,
         [](const Scenario &s) {
             return hasAction(
                        s, [](const Action &a) { return a.kind == ActionKind::Write && a.check; })
                        ? QString()
                        : QStringLiteral("the scenario has no checked write (\"check\": true)");
         }},
        // the file's rate 0.001..100 in thousandths, as ClientClock::rateMilli
        {QStringLiteral("clock"), QStringLiteral("client clock rate (1/1000 of real speed)"), 1,
         100'000, setClockRates,
         [](const Scenario &s) {
             // (the lock service counts ticks: only a check reads the client's own clock)
             return hasAction(
                        s, [](const Action &a) { return a.kind == ActionKind::Write && a.check; })
                        ? QString()
                        : QStringLiteral("the scenario has no checked write (\"check\": true), "
                                         "the only thing a client's clock decides");
         }},
        {QStringLiteral("lockDelay"), QStringLiteral("lock-delay after an expiry (ticks)"), 0,
         1'000'000, [](Scenario &s, Tick v) { s.lock.lockDelay = v; },
         [](const Scenario &s) {
             if (s.tokens == TokenSource::KafkaEpoch)
                 return QStringLiteral("kafka-epoch never refuses an acquire, so a lock-delay "
                                       "changes nothing");
             return needsAcquire(s);
         }},
        // a bump is a number of tokens, and a zxid counts in 2^32s: up to the file's limit
        {QStringLiteral("bump"), QStringLiteral("bump of the lock service's restores"), 0,
         kMaxFileInteger, setBumps,
         [](const Scenario &s) {
             if (s.lock.restores.empty())
                 return QStringLiteral("the scenario has no lock restore (lock.restores)");
             if (s.tokens == TokenSource::Random || s.tokens == TokenSource::WallClock ||
                 s.tokens == TokenSource::None)
                 return QStringLiteral("lock.tokens %1 has no counter to bump")
                     .arg(toString(s.tokens));
             return QString();
         }},
    };
    return all;
}

SuggestedRange suggestedRange(const Quantity &q)
{
    if (q.name == QLatin1String("clock"))
        return {500, 1500, 50}; // half to one and a half times real speed
    if (q.name == QLatin1String("clients"))
        return {1, 10, 1};
    if (q.name == QLatin1String("pause") || q.name == QLatin1String("ttl"))
        return {1, 40, 1};
    return {q.min, q.min + 20, 1}; // delays, periods, gaps and bumps from 0 (keepalive: off)
}

const Quantity *findQuantity(const QString &name)
{
    for (const Quantity &q : quantities())
        if (q.name == name)
            return &q;
    return nullptr;
}

QStringList quantityNames()
{
    QStringList names;
    for (const Quantity &q : quantities())
        names << q.name;
    return names;
}

const std::array<OutcomeSpec, kOutcomeCount> &outcomes()
{
    static const std::array<OutcomeSpec, kOutcomeCount> all{{
        {QStringLiteral("corrupted"), QStringLiteral("corrupted write"),
         [](const Trace &t) { return t.summary.corrupted; }},
        {QStringLiteral("lockedOut"), QStringLiteral("locked-out write"),
         [](const Trace &t) { return t.summary.lockedOut; }},
        {QStringLiteral("rejected"), QStringLiteral("rejected write"),
         [](const Trace &t) { return t.summary.rejected; }},
        {QStringLiteral("partial"), QStringLiteral("half-applied update"),
         [](const Trace &t) { return t.summary.partial; }},
        {QStringLiteral("skipped"), QStringLiteral("skipped write"),
         [](const Trace &t) { return t.summary.skipped; }},
    }};
    return all;
}

int outcomeIndex(const QString &name)
{
    for (std::size_t i = 0; i < kOutcomeCount; ++i)
        if (outcomes()[i].name == name)
            return int(i);
    return -1;
}

} // namespace Core
