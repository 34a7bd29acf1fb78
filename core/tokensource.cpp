#include "tokensource.h"

namespace Core {

Token firstCounter(TokenSource source, const LockOptions &options)
{
    switch (source) {
    case TokenSource::Counter:
        return options.first;
    case TokenSource::Etcd:
        return options.revision;
    case TokenSource::ZooKeeper:
        return Token(1) << 32; // zkEpoch 1, counter 0: the first change is (1 << 32) | 1
    case TokenSource::RaftTerm:
        return 0;
    case TokenSource::ServiceTerm:
        return 1; // the service's leader is in term 1 from the start (section 15.2)
    case TokenSource::KafkaEpoch:
        return 0;
    case TokenSource::Chubby:
        return 1;
    case TokenSource::None:
    case TokenSource::Random:
    case TokenSource::WallClock:
        return 0;
    }
    return 0;
}

LockOptions lockOptionsFor(TokenSource source, const LockOptions &options)
{
    const LockOptions defaults;
    LockOptions o = options;
    if (source != TokenSource::Counter)
        o.first = defaults.first;
    if (source != TokenSource::Etcd) {
        o.revision = defaults.revision;
        o.putsEvery = defaults.putsEvery;
    }
    if (source != TokenSource::ZooKeeper)
        o.failovers.clear();
    if (source != TokenSource::RaftTerm && source != TokenSource::ServiceTerm)
        o.failedElections.clear();
    if (source != TokenSource::ServiceTerm)
        o.elections.clear();
    if (source != TokenSource::Random)
        o.seed = defaults.seed;
    if (source != TokenSource::WallClock) {
        o.clockOffset = defaults.clockOffset;
        o.clockSteps.clear();
    }
    if (!hasCounter(source))
        for (LockRestore &r : o.restores)
            r.bump = 0;
    return o;
}

bool hasCounter(TokenSource source)
{
    return source != TokenSource::None && source != TokenSource::Random &&
           source != TokenSource::WallClock;
}

Token randomToken(std::uint64_t seed, std::uint64_t n)
{
    // unsigned arithmetic wraps modulo 2^64, as the spec's generator requires
    std::uint64_t x = seed + n * 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x = x ^ (x >> 31);
    return (x >> 11) + 1;
}

std::int64_t wallClockAt(const LockOptions &options, Tick t)
{
    std::int64_t clock = std::int64_t(t) + std::int64_t(options.clockOffset);
    for (const ClockStep &step : options.clockSteps)
        if (step.at <= t)
            clock += step.by;
    return clock;
}

Token wallClockToken(const LockOptions &options, Tick t)
{
    const std::int64_t clock = wallClockAt(options, t);
    return clock < 0 ? 0 : Token(clock);
}

QString formatToken(TokenSource source, Token token)
{
    QString n = QString::number(token);
    switch (source) {
    case TokenSource::Counter:
        return n;
    case TokenSource::Etcd:
        return QStringLiteral("rev %1").arg(n);
    case TokenSource::ZooKeeper:
        return QStringLiteral("0x%1_%2")
            .arg(QString::number(token >> 32, 16))
            .arg(QString::number(token & 0xffffffffu, 16), 8, QLatin1Char('0'));
    case TokenSource::RaftTerm:
    case TokenSource::ServiceTerm:
        return QStringLiteral("term %1").arg(n);
    case TokenSource::KafkaEpoch:
        return QStringLiteral("epoch %1").arg(n);
    case TokenSource::Chubby:
        return QStringLiteral("lock:exclusive:%1").arg(n);
    case TokenSource::None:
        return QStringLiteral("no token");
    case TokenSource::Random:
        return QStringLiteral("#%1").arg(QString::number(token, 16));
    case TokenSource::WallClock:
        return QStringLiteral("clock %1").arg(n);
    }
    return n;
}

QString describeToken(TokenSource source, Token token)
{
    switch (source) {
    case TokenSource::Counter:
        return QStringLiteral("token %1").arg(token);
    case TokenSource::Etcd:
        return QStringLiteral("revision %1 (the create revision of the lock key)").arg(token);
    case TokenSource::ZooKeeper:
        return QStringLiteral("zxid %1 (ZooKeeper epoch %2, change #%3)")
            .arg(formatToken(source, token))
            .arg(token >> 32)
            .arg(token & 0xffffffffu);
    case TokenSource::RaftTerm:
        return QStringLiteral("Raft term %1 (the lock is leadership: its holder leads term %1)")
            .arg(token);
    case TokenSource::ServiceTerm:
        return QStringLiteral("term %1 of the lock service's own Raft leader (every grant of "
                              "that term shares it)")
            .arg(token);
    case TokenSource::KafkaEpoch:
        return QStringLiteral("producer epoch %1").arg(token);
    case TokenSource::Chubby:
        return QStringLiteral("sequencer lock:exclusive:%1 (generation %1)").arg(token);
    case TokenSource::None:
        return QStringLiteral("no token (the lock hands out none)");
    case TokenSource::Random:
        return QStringLiteral("random token %1").arg(token);
    case TokenSource::WallClock:
        return QStringLiteral("wall-clock token %1 (the lock server's clock)").arg(token);
    }
    return QString::number(token);
}

QString describeSource(TokenSource source)
{
    switch (source) {
    case TokenSource::Counter:
        return QStringLiteral("a counter that grows by 1 per grant");
    case TokenSource::Etcd:
        return QStringLiteral("etcd's store revision: every change to the key space adds 1");
    case TokenSource::ZooKeeper:
        return QStringLiteral("the ZooKeeper zxid: (epoch << 32) | counter, totally ordered");
    case TokenSource::RaftTerm:
        return QStringLiteral("leadership of a Raft group: each new holder is the leader "
                              "elected in a new term");
    case TokenSource::ServiceTerm:
        return QStringLiteral("the term of the lock service's own Raft leader: it orders "
                              "leaders, not lock owners");
    case TokenSource::KafkaEpoch:
        return QStringLiteral("Kafka's producer epoch: every InitProducerId bumps it");
    case TokenSource::Chubby:
        return QStringLiteral("Chubby's sequencer: the lock generation grows by 1 per grant");
    case TokenSource::None:
        return QStringLiteral("no fencing token (Redlock: a unique random value, no order)");
    case TokenSource::Random:
        return QStringLiteral("random numbers: unique, but in no order");
    case TokenSource::WallClock:
        return QStringLiteral("the lock server's wall clock, which NTP can step back");
    }
    return {};
}

} // namespace Core
