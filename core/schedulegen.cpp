#include "schedulegen.h"

#include <algorithm>

namespace Core {

Remainder::Remainder(std::uint64_t d) : m_divisor(d)
{
    Q_ASSERT(d >= 1);
    __extension__ using Wide = unsigned __int128;
    unsigned log = 0; // the smallest with 2^log >= d
    while (log < 64 && (std::uint64_t(1) << log) < d)
        ++log;
    // the paper's m - 2^64; it fits in 64 bits since 2^log - d < d
    m_magic = std::uint64_t((((Wide(1) << log) - d) << 64) / d) + 1;
    m_shift1 = log > 0 ? 1 : 0;
    m_shift2 = log > 0 ? log - 1 : 0;
}

std::uint64_t scheduleSeed(std::uint64_t seed, std::uint64_t run)
{
    // two rounds of splitmix: seeds 1 and 2 give unrelated streams, as do runs 1 and 2
    Rng mix(seed ^ (run * 0xd1b54a32d192ed03ull));
    mix.next();
    return mix.next();
}

namespace {

void widen(ScheduleShape::Span &span, bool &seen, Tick value)
{
    if (!seen) {
        span = {value, value};
        seen = true;
    }
    span.min = std::min(span.min, value);
    span.max = std::max(span.max, value);
}

} // namespace

ScheduleShape shapeOf(const Scenario &scenario)
{
    ScheduleShape shape;
    shape.base = scenario;
    shape.base.horizon.reset(); // drawn actions may reach past the original horizon
    bool seen[6] = {false, false, false, false, false, false};
    Tick last = 0;
    for (Client &client : shape.base.clients) {
        ScheduleShape::ClientShape c;
        c.actions = client.actions.size();
        std::array<std::size_t, 5> counts{};
        for (const Action &a : client.actions) {
            ++counts[std::size_t(a.kind)];
            last = std::max(last, a.at);
            switch (a.kind) {
            case ActionKind::Acquire:
                widen(shape.ttl, seen[0], a.amount);
                ++shape.acquires;
                if (a.keepalive()) {
                    ++shape.keepalives;
                    widen(shape.keepalive, seen[3], a.keepalive());
                }
                break;
            case ActionKind::Pause:
                widen(shape.pause, seen[1], a.amount);
                break;
            case ActionKind::Write:
                widen(shape.delay, seen[2], a.amount);
                ++shape.writes;
                if (a.check) {
                    ++shape.checks;
                    widen(shape.gap, seen[4], a.gap());
                }
                if (!a.group().isEmpty()) {
                    ++shape.grouped;
                    if (std::find(shape.groups.begin(), shape.groups.end(), a.group()) ==
                        shape.groups.end())
                        shape.groups.push_back(a.group());
                }
                break;
            case ActionKind::Read:
                widen(shape.readDelay, seen[5], a.amount);
                break;
            case ActionKind::Release:
                break;
            }
        }
        std::size_t sum = 0;
        for (std::size_t k = 0; k < counts.size(); ++k)
            c.kindsUpTo[k] = (sum += counts[k]);
        c.values.reserve(c.actions);
        for (std::size_t i = 0; i < c.actions; ++i)
            c.values.push_back(client.name + QString::number(i + 1));
        client.actions.clear();
        shape.clients.push_back(std::move(c));
    }
    shape.span = last + 1;
    for (std::size_t i = 0; i < shape.base.storages.size(); ++i)
        if (shape.base.storages[i].check == StorageCheck::Version)
            shape.readStorages.push_back(std::uint32_t(i));
    if (shape.readStorages.empty())
        for (std::size_t i = 0; i < std::max<std::size_t>(1, shape.base.storages.size()); ++i)
            shape.readStorages.push_back(std::uint32_t(i));
    return shape;
}

ScheduleShape unsharedCopy(const ScheduleShape &shape)
{
    ScheduleShape copy = shape;
    for (ScheduleShape::ClientShape &c : copy.clients)
        for (QString &v : c.values)
            v.detach();
    for (QString &g : copy.groups)
        g.detach();
    return copy;
}

namespace {

// One drawn action before it is sorted into place: plain numbers, so the sort moves 48 bytes
// and no strings (the sweep draws millions of schedules; this was a fifth of its time).
struct Drawn
{
    Tick at = 0;
    Tick amount = 0;
    Tick keepalive = 0;
    Tick gap = 0;
    std::uint32_t storage = 0;
    std::uint32_t index = 0; // the action's number among the client's, for its value
    std::int32_t group = -1; // into ScheduleShape::groups
    ActionKind kind = ActionKind::Acquire;
    bool check = false;
};

// Assigns without touching the reference count when it already holds that very string.
void assign(QString &to, const QString &from)
{
    if (!to.isSharedWith(from))
        to = from;
}

constexpr std::uint32_t kNoValue = 0xffffffffu; // (ScheduleDrawer: an action that holds none)

// n % d with the division itself: for a schedule drawn once.
class Division
{
public:
    explicit Division(std::uint64_t d = 1) : m_divisor(d) {}
    std::uint64_t of(std::uint64_t n) const { return n % m_divisor; }
    std::uint64_t divisor() const { return m_divisor; }

private:
    std::uint64_t m_divisor;
};

template <typename Mod>
void setDivisors(ScheduleDetail::Divisors<Mod> &d, const ScheduleShape &shape)
{
    const auto count = [](std::size_t n) { return Mod(std::max<std::size_t>(1, n)); };
    const auto width = [](const ScheduleShape::Span &r) {
        return Mod(r.max > r.min ? r.max - r.min + 1 : 1);
    };
    d.span = Mod(shape.span);
    d.storages = count(shape.base.storages.size());
    d.readStorages = count(shape.readStorages.size());
    d.groups = count(shape.groups.size());
    d.acquires = count(shape.acquires);
    d.writes = count(shape.writes);
    d.ttl = width(shape.ttl);
    d.keepalive = width(shape.keepalive);
    d.pause = width(shape.pause);
    d.delay = width(shape.delay);
    d.gap = width(shape.gap);
    d.readDelay = width(shape.readDelay);
    d.kinds.clear();
    for (const ScheduleShape::ClientShape &c : shape.clients)
        d.kinds.push_back(count(c.kindsUpTo[4]));
}

// Draws the actions of schedule `seed` into `out`, which holds a schedule of this shape, with
// the remainders of `div`, the shape's divisors; `value(c, k, d)` gives action k of client c
// (in time order) the value of its draw `d`, and drops any keys it kept of an earlier file.
template <typename Mod, typename SetValue>
void drawActions(const ScheduleShape &shape, const ScheduleDetail::Divisors<Mod> &div,
                 std::uint64_t seed, Scenario *out, SetValue value)
{
    Rng rng(seed);
    // in [r.min, r.max], as Rng::between
    const auto between = [&rng](const ScheduleShape::Span &r, const Mod &width) {
        return r.max <= r.min ? r.min : r.min + width.of(rng.next());
    };
    // true with probability k / n; draws a number only when that is neither 0 nor 1, so a
    // scenario without the key (k = 0) draws exactly the numbers it did before keys existed
    const auto chance = [&rng](std::size_t k, const Mod &n) {
        return k != 0 && (k >= n.divisor() || n.of(rng.next()) < k);
    };
    thread_local std::vector<Drawn> drawn; // grows to the longest client once per thread
    // keepalives, gaps and groups: what a drawn action may keep in Action::rare
    const bool rareKeys = shape.keepalives || shape.checks || shape.grouped;
    for (std::size_t c = 0; c < shape.clients.size(); ++c) {
        const ScheduleShape::ClientShape &cs = shape.clients[c];
        drawn.resize(cs.actions);
        for (std::size_t i = 0; i < cs.actions; ++i) {
            Drawn d;
            // the first kind whose cumulative count is above the pick: the number of counts at
            // or below it (the counts only grow), without a loop whose length is random
            const std::uint64_t pick = div.kinds[c].of(rng.next());
            const std::size_t kind =
                std::size_t(pick >= cs.kindsUpTo[0]) + std::size_t(pick >= cs.kindsUpTo[1]) +
                std::size_t(pick >= cs.kindsUpTo[2]) + std::size_t(pick >= cs.kindsUpTo[3]);
            d.kind = ActionKind(kind);
            d.at = div.span.of(rng.next());
            d.index = std::uint32_t(i);
            switch (d.kind) {
            case ActionKind::Acquire:
                d.amount = between(shape.ttl, div.ttl);
                if (chance(shape.keepalives, div.acquires))
                    d.keepalive = between(shape.keepalive, div.keepalive);
                break;
            case ActionKind::Release:
                break;
            case ActionKind::Pause:
                d.amount = between(shape.pause, div.pause);
                break;
            case ActionKind::Write:
                d.amount = between(shape.delay, div.delay);
                d.storage = std::uint32_t(div.storages.of(rng.next()));
                if (chance(shape.checks, div.writes)) {
                    d.check = true;
                    d.gap = between(shape.gap, div.gap);
                }
                if (chance(shape.grouped, div.writes))
                    d.group = std::int32_t(div.groups.of(rng.next()));
                break;
            case ActionKind::Read:
                d.amount = between(shape.readDelay, div.readDelay);
                d.storage = shape.readStorages[div.readStorages.of(rng.next())];
                break;
            }
            // in time order, as a user draws them; ties keep the order they were drawn in.
            // A few actions per client: insertion sort, no allocation.
            std::size_t j = i;
            for (; j > 0 && drawn[j - 1].at > d.at; --j)
                drawn[j] = drawn[j - 1];
            drawn[j] = d;
        }
        std::vector<Action> &actions = out->clients[c].actions;
        actions.resize(cs.actions);
        for (std::size_t k = 0; k < cs.actions; ++k) {
            const Drawn &d = drawn[k];
            Action &a = actions[k];
            a.kind = d.kind;
            a.at = d.at;
            a.amount = d.amount;
            a.storage = d.storage;
            a.check = d.check;
            value(c, k, d);
            if (!rareKeys && a.plain())
                continue; // nothing drawn that an action keeps in `rare`, nor left from before
            a.setKeepalive(d.keepalive);
            a.setGap(d.gap);
            if (d.group >= 0) {
                const QString &group = shape.groups[std::size_t(d.group)];
                if (!a.group().isSharedWith(group))
                    a.setGroup(group);
            } else if (!a.group().isNull()) {
                a.setGroup(QString());
            }
        }
    }
}

} // namespace

void generateSchedule(const ScheduleShape &shape, std::uint64_t seed, Scenario *out)
{
    if (out->clients.size() != shape.base.clients.size() || out->storages != shape.base.storages)
        *out = shape.base;
    thread_local ScheduleDetail::Divisors<Division> divisors;
    setDivisors(divisors, shape);
    drawActions(shape, divisors, seed, out, [&](std::size_t c, std::size_t k, const Drawn &d) {
        Action &a = out->clients[c].actions[k];
        if (d.kind == ActionKind::Write)
            assign(a.value, shape.clients[c].values[d.index]);
        else if (!a.value.isNull())
            a.value = QString();
        if (!a.plain() && !a.extra().isEmpty()) // (`out` may have been loaded from a file)
            a.setExtra(QJsonObject());
    });
}

Scenario generateSchedule(const ScheduleShape &shape, std::uint64_t seed)
{
    Scenario s;
    generateSchedule(shape, seed, &s);
    return s;
}

void ScheduleDrawer::setShape(const ScheduleShape &shape)
{
    m_shape = unsharedCopy(shape);
    setDivisors(m_divisors, shape);
    m_schedule = shape.base;
    m_pool.resize(shape.clients.size());
    m_held.resize(shape.clients.size());
    for (std::size_t c = 0; c < shape.clients.size(); ++c) {
        m_pool[c] = shape.clients[c].values;
        for (QString &v : m_pool[c])
            v.detach();
        m_held[c].assign(shape.clients[c].actions, kNoValue);
    }
}

const Scenario &ScheduleDrawer::draw(std::uint64_t seed)
{
    // every value back into the pool (the actions are left with null strings), then each
    // write takes its own
    for (std::size_t c = 0; c < m_held.size(); ++c) {
        std::vector<Action> &actions = m_schedule.clients[c].actions;
        for (std::size_t k = 0; k < m_held[c].size(); ++k)
            if (m_held[c][k] != kNoValue)
                actions[k].value.swap(m_pool[c][m_held[c][k]]);
    }
    drawActions(m_shape, m_divisors, seed, &m_schedule,
                // (its actions never had keys of a file: they were all drawn here)
                [this](std::size_t c, std::size_t k, const Drawn &d) {
                    if (d.kind == ActionKind::Write) {
                        m_schedule.clients[c].actions[k].value.swap(m_pool[c][d.index]);
                        m_held[c][k] = d.index;
                    } else {
                        m_held[c][k] = kNoValue;
                    }
                });
    return m_schedule;
}

void NearDrawer::setBase(const Scenario &base, Tick jitter)
{
    m_schedule = base;
    m_jitter = std::max<Tick>(1, jitter);
    m_at.resize(base.clients.size());
    for (std::size_t c = 0; c < base.clients.size(); ++c) {
        std::vector<Action> &actions = m_schedule.clients[c].actions;
        // in the order they run (ties as listed), and listed so: a tie after moving then runs
        // in that same order
        std::stable_sort(actions.begin(), actions.end(),
                         [](const Action &a, const Action &b) { return a.at < b.at; });
        m_at[c].resize(actions.size());
        for (std::size_t i = 0; i < actions.size(); ++i)
            m_at[c][i] = actions[i].at;
    }
}

const Scenario &NearDrawer::draw(std::uint64_t seed)
{
    Rng rng(seed);
    const std::uint64_t width = 2 * m_jitter + 1; // -jitter .. +jitter
    for (std::size_t c = 0; c < m_at.size(); ++c) {
        std::vector<Action> &actions = m_schedule.clients[c].actions;
        for (std::size_t i = 0; i < actions.size(); ++i) {
            const std::uint64_t draw = rng.next() % width;
            const Tick at = m_at[c][i];
            Tick moved = draw >= m_jitter        ? at + (draw - m_jitter)
                         : at >= m_jitter - draw ? at - (m_jitter - draw)
                                                 : 0;
            // never ahead of the action before it, nor at its tick unless it was there: a
            // pause moved onto its client's acquire would freeze the acquire too, and the
            // story would change
            if (i > 0)
                moved = std::max(moved, actions[i - 1].at + (at > m_at[c][i - 1] ? 1 : 0));
            actions[i].at = moved;
        }
    }
    return m_schedule;
}

Scenario nearSchedule(const Scenario &base, Tick jitter, std::uint64_t seed)
{
    NearDrawer drawer;
    drawer.setBase(base, jitter);
    return drawer.draw(seed);
}

} // namespace Core
