#include "scenario.h"

#include <algorithm>

namespace Core {

const QString Action::kNoText;
const QJsonObject Action::kNoKeys;

bool Action::sameRare(const Action &a, const Action &b)
{
    if (a.rare == b.rare)
        return true;
    static const ActionRare none;
    return (a.rare ? *a.rare : none) == (b.rare ? *b.rare : none);
}

Action Action::acquire(Tick at, Tick ttl)
{
    Action a;
    a.at = at;
    a.amount = ttl;
    a.kind = ActionKind::Acquire;
    return a;
}

Action Action::release(Tick at)
{
    Action a;
    a.at = at;
    a.kind = ActionKind::Release;
    return a;
}

Action Action::pause(Tick at, Tick length)
{
    Action a;
    a.at = at;
    a.amount = length;
    a.kind = ActionKind::Pause;
    return a;
}

Action Action::write(Tick at, const QString &value, std::uint32_t storage, Tick delay)
{
    Action a;
    a.at = at;
    a.amount = delay;
    a.value = value;
    a.storage = storage;
    a.kind = ActionKind::Write;
    return a;
}

Action Action::read(Tick at, std::uint32_t storage, Tick delay)
{
    Action a;
    a.at = at;
    a.amount = delay;
    a.storage = storage;
    a.kind = ActionKind::Read;
    return a;
}

std::int64_t ClientClock::local(Tick t) const
{
    // floor(rate * t) with the rate in thousandths: exact, and t * rateMilli needs 70 bits
    __extension__ using Wide = unsigned __int128;
    const auto scaled = static_cast<Wide>(t) * rateMilli / 1000;
    std::int64_t v = static_cast<std::int64_t>(scaled);
    for (const ClockStep &s : steps) {
        if (s.at > t)
            break;
        v += s.by;
    }
    return v;
}

Tick ClientClock::leaseEndsAt(Tick grantedAt, Tick ttl) const
{
    __extension__ using Wide = __int128;
    const Wide target = Wide(local(grantedAt)) + Wide(ttl);
    // local() is floor(rate * t) plus a constant between steps: find the first tick reaching
    // the target in each stretch from the grant on.
    Tick from = grantedAt;
    Wide stepped = 0;
    std::size_t k = 0;
    for (; k < steps.size() && steps[k].at <= grantedAt; ++k)
        stepped += steps[k].by;
    for (;;) {
        const Tick to = k < steps.size() ? steps[k].at : ~Tick(0);
        const Wide need = target - stepped; // floor(rateMilli * t / 1000) >= need
        Wide t = need <= 0 ? 0 : (need * 1000 + rateMilli - 1) / rateMilli;
        if (t < Wide(from))
            t = from;
        if (t < Wide(to))
            return Tick(t);
        if (k >= steps.size())
            return ~Tick(0);
        stepped += steps[k].by;
        from = steps[k].at;
        ++k;
    }
}

bool Scenario::usesPitfalls() const
{
    if (setupUsesPitfalls())
        return true;
    for (const Client &c : clients)
        for (const Action &a : c.actions)
            if (a.usesPitfalls())
                return true;
    return false;
}

bool Scenario::setupUsesPitfalls() const
{
    for (const StorageSpec &st : storages)
        if (st.check != StorageCheck::Token || !st.durable || !st.restarts.empty())
            return true;
    for (const Client &c : clients)
        if (c.bypass || !c.clock.isDefault())
            return true;
    return false;
}

namespace {
constexpr std::uint64_t kSaturated = ~std::uint64_t(0);
std::uint64_t saturatedAdd(std::uint64_t a, std::uint64_t b)
{
    return a > kSaturated - b ? kSaturated : a + b;
}
} // namespace

std::uint64_t Scenario::keepaliveBound(std::uint64_t limit,
                                       std::pair<std::size_t, std::size_t> *first) const
{
    KeepaliveBound bound;
    for (std::size_t c = 0; c < clients.size(); ++c)
        for (std::size_t i = 0; i < clients[c].actions.size(); ++i)
            bound.add(c, i, clients[c].actions[i]);
    return bound.total(*this, limit, first);
}

void KeepaliveBound::add(std::size_t client, std::size_t index, const Action &a)
{
    addPlain(a.at, saturatedAdd(saturatedAdd(a.amount, a.gap()), a.waitFor()));
    if (a.keepalive())
        m_renewals.push_back({client, index, a.at, a.keepalive()});
}

void KeepaliveBound::addPlain(Tick at, Tick amount)
{
    m_latest = std::max<std::uint64_t>(m_latest, at);
    m_extra = saturatedAdd(m_extra, amount);
}

void KeepaliveBound::merge(const KeepaliveBound &other)
{
    m_latest = std::max(m_latest, other.m_latest);
    m_extra = saturatedAdd(m_extra, other.m_extra);
    // total() stops at the first renewal in file order that passes the limit: a part of a file
    // read in parts adds its actions in the order it reads its chunks, so the lists are put in
    // file order here (few actions have a keepalive)
    m_renewals.insert(m_renewals.end(), other.m_renewals.begin(), other.m_renewals.end());
    std::sort(m_renewals.begin(), m_renewals.end(), [](const Renewal &a, const Renewal &b) {
        return a.client != b.client ? a.client < b.client : a.index < b.index;
    });
}

std::uint64_t KeepaliveBound::total(const Scenario &s, std::uint64_t limit,
                                    std::pair<std::size_t, std::size_t> *first) const
{
    if (m_renewals.empty())
        return 0;
    std::uint64_t latest = std::max<std::uint64_t>(m_latest, s.horizon.value_or(0));
    for (const LockRestore &r : s.lock.restores)
        latest = std::max<std::uint64_t>(latest, r.at);
    for (Tick t : s.lock.failovers)
        latest = std::max<std::uint64_t>(latest, t);
    for (Tick t : s.lock.failedElections)
        latest = std::max<std::uint64_t>(latest, t);
    for (const ClockStep &c : s.lock.clockSteps)
        latest = std::max<std::uint64_t>(latest, c.at);
    for (const StorageSpec &st : s.storages)
        for (Tick t : st.restarts)
            latest = std::max<std::uint64_t>(latest, t);
    const std::uint64_t end = saturatedAdd(latest, saturatedAdd(m_extra, s.lock.lockDelay));
    std::uint64_t total = 0;
    for (const Renewal &r : m_renewals) {
        total = saturatedAdd(total, saturatedAdd((end - std::min(end, r.at)) / r.every, 1));
        if (total > limit && first) {
            *first = {r.client, r.index};
            return total;
        }
    }
    return total;
}

bool Scenario::hasVersionStorage() const
{
    for (const StorageSpec &st : storages)
        if (st.check == StorageCheck::Version)
            return true;
    return false;
}

std::size_t Scenario::actionCount() const
{
    std::size_t n = 0;
    for (const Client &c : clients)
        n += c.actions.size();
    return n;
}

int Scenario::clientIndex(const QString &name) const
{
    for (std::size_t i = 0; i < clients.size(); ++i)
        if (clients[i].name == name)
            return int(i);
    return -1;
}

int Scenario::storageIndex(const QString &name) const
{
    for (std::size_t i = 0; i < storages.size(); ++i)
        if (storages[i].name == name)
            return int(i);
    return -1;
}

QString toString(ActionKind kind)
{
    switch (kind) {
    case ActionKind::Acquire:
        return QStringLiteral("acquire");
    case ActionKind::Release:
        return QStringLiteral("release");
    case ActionKind::Pause:
        return QStringLiteral("pause");
    case ActionKind::Write:
        return QStringLiteral("write");
    case ActionKind::Read:
        return QStringLiteral("read");
    }
    return {};
}

QString toString(FenceRule rule)
{
    return rule == FenceRule::Le ? QStringLiteral("le") : QStringLiteral("lt");
}

QString toString(TokenSource src)
{
    const auto i = int(src);
    return i < kTokenSourceCount ? QString::fromLatin1(kTokenSourceNames[i]) : QString();
}

bool tokenSourceFromString(const QString &name, TokenSource *src)
{
    for (int i = 0; i < kTokenSourceCount; ++i) {
        if (name == QLatin1String(kTokenSourceNames[i])) {
            *src = TokenSource(i);
            return true;
        }
    }
    return false;
}

bool isMonotonic(TokenSource src)
{
    // a service term does not go back, but it does not grow from one owner to the next either:
    // two owners of one term share it (section 15.2)
    return src != TokenSource::None && src != TokenSource::Random &&
           src != TokenSource::WallClock && src != TokenSource::ServiceTerm;
}

QString toString(StorageCheck check)
{
    switch (check) {
    case StorageCheck::Token:
        return QStringLiteral("token");
    case StorageCheck::Version:
        return QStringLiteral("version");
    case StorageCheck::Owner:
        return QStringLiteral("owner");
    case StorageCheck::Same:
        return QStringLiteral("same");
    }
    return {};
}

} // namespace Core
