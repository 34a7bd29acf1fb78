#include "schedulegen.h"

#include <algorithm>

namespace Core {

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
                if (a.keepalive) {
                    ++shape.keepalives;
                    widen(shape.keepalive, seen[3], a.keepalive);
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
                    widen(shape.gap, seen[4], a.gap);
                }
                if (!a.group.isEmpty()) {
                    ++shape.grouped;
                    if (std::find(shape.groups.begin(), shape.groups.end(), a.group) ==
                        shape.groups.end())
                        shape.groups.push_back(a.group);
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

} // namespace

void generateSchedule(const ScheduleShape &shape, std::uint64_t seed, Scenario *out)
{
    if (out->clients.size() != shape.base.clients.size() || out->storages != shape.base.storages)
        *out = shape.base;
    Rng rng(seed);
    const auto storages = std::uint64_t(std::max<std::size_t>(1, shape.base.storages.size()));
    // true with probability k / n; draws a number only when that is neither 0 nor 1, so a
    // scenario without the key (k = 0) draws exactly the numbers it did before keys existed
    const auto chance = [&rng](std::size_t k, std::size_t n) {
        return k != 0 && (k >= n || rng.next() % n < k);
    };
    thread_local std::vector<Drawn> drawn; // grows to the longest client once per thread
    for (std::size_t c = 0; c < shape.clients.size(); ++c) {
        const ScheduleShape::ClientShape &cs = shape.clients[c];
        drawn.resize(cs.actions);
        for (std::size_t i = 0; i < cs.actions; ++i) {
            Drawn d;
            const std::uint64_t pick = rng.next() % cs.kindsUpTo[4];
            std::size_t kind = 0;
            while (pick >= cs.kindsUpTo[kind])
                ++kind;
            d.kind = ActionKind(kind);
            d.at = rng.next() % shape.span;
            d.index = std::uint32_t(i);
            switch (d.kind) {
            case ActionKind::Acquire:
                d.amount = rng.between(shape.ttl.min, shape.ttl.max);
                if (chance(shape.keepalives, shape.acquires))
                    d.keepalive = rng.between(shape.keepalive.min, shape.keepalive.max);
                break;
            case ActionKind::Release:
                break;
            case ActionKind::Pause:
                d.amount = rng.between(shape.pause.min, shape.pause.max);
                break;
            case ActionKind::Write:
                d.amount = rng.between(shape.delay.min, shape.delay.max);
                d.storage = std::uint32_t(rng.next() % storages);
                if (chance(shape.checks, shape.writes)) {
                    d.check = true;
                    d.gap = rng.between(shape.gap.min, shape.gap.max);
                }
                if (chance(shape.grouped, shape.writes))
                    d.group = std::int32_t(rng.next() % shape.groups.size());
                break;
            case ActionKind::Read:
                d.amount = rng.between(shape.readDelay.min, shape.readDelay.max);
                d.storage = shape.readStorages[rng.next() % shape.readStorages.size()];
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
            a.keepalive = d.keepalive;
            a.check = d.check;
            a.gap = d.gap;
            if (d.kind == ActionKind::Write)
                assign(a.value, cs.values[d.index]);
            else if (!a.value.isNull())
                a.value = QString();
            if (d.group >= 0)
                assign(a.group, shape.groups[std::size_t(d.group)]);
            else if (!a.group.isNull())
                a.group = QString();
            if (!a.extra.isEmpty())
                a.extra = QJsonObject();
        }
    }
}

Scenario generateSchedule(const ScheduleShape &shape, std::uint64_t seed)
{
    Scenario s;
    generateSchedule(shape, seed, &s);
    return s;
}

} // namespace Core
