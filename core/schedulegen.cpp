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

ScheduleShape shapeOf(const Scenario &scenario)
{
    ScheduleShape shape;
    shape.base = scenario;
    shape.base.horizon.reset(); // drawn actions may reach past the original horizon
    bool seen[3] = {false, false, false};
    ScheduleShape::Span *spans[3] = {&shape.ttl, &shape.pause, &shape.delay};
    Tick last = 0;
    for (Client &client : shape.base.clients) {
        ScheduleShape::ClientShape c;
        c.actions = client.actions.size();
        std::array<std::size_t, 4> counts{};
        for (const Action &a : client.actions) {
            ++counts[std::size_t(a.kind)];
            last = std::max(last, a.at);
            const int range = a.kind == ActionKind::Acquire ? 0
                              : a.kind == ActionKind::Pause ? 1
                              : a.kind == ActionKind::Write ? 2
                                                            : -1;
            if (range < 0)
                continue;
            ScheduleShape::Span &span = *spans[range];
            if (!seen[range]) {
                span = {a.amount, a.amount};
                seen[range] = true;
            }
            span.min = std::min(span.min, a.amount);
            span.max = std::max(span.max, a.amount);
        }
        std::size_t sum = 0;
        for (std::size_t k = 0; k < 4; ++k)
            c.kindsUpTo[k] = (sum += counts[k]);
        c.values.reserve(c.actions);
        for (std::size_t i = 0; i < c.actions; ++i)
            c.values.push_back(client.name + QString::number(i + 1));
        client.actions.clear();
        shape.clients.push_back(std::move(c));
    }
    shape.span = last + 1;
    return shape;
}

void generateSchedule(const ScheduleShape &shape, std::uint64_t seed, Scenario *out)
{
    if (out->clients.size() != shape.base.clients.size() || out->storages != shape.base.storages)
        *out = shape.base;
    Rng rng(seed);
    const auto storages = std::uint64_t(std::max<std::size_t>(1, shape.base.storages.size()));
    for (std::size_t c = 0; c < shape.clients.size(); ++c) {
        const ScheduleShape::ClientShape &cs = shape.clients[c];
        std::vector<Action> &actions = out->clients[c].actions;
        actions.resize(cs.actions);
        for (std::size_t i = 0; i < cs.actions; ++i) {
            Action &a = actions[i];
            const std::uint64_t pick = rng.next() % cs.kindsUpTo[3];
            std::size_t kind = 0;
            while (pick >= cs.kindsUpTo[kind])
                ++kind;
            a.kind = ActionKind(kind);
            a.at = rng.next() % shape.span;
            a.storage = 0;
            switch (a.kind) {
            case ActionKind::Acquire:
                a.amount = rng.between(shape.ttl.min, shape.ttl.max);
                a.value.clear();
                break;
            case ActionKind::Release:
                a.amount = 0;
                a.value.clear();
                break;
            case ActionKind::Pause:
                a.amount = rng.between(shape.pause.min, shape.pause.max);
                a.value.clear();
                break;
            case ActionKind::Write:
                a.amount = rng.between(shape.delay.min, shape.delay.max);
                a.storage = std::uint32_t(rng.next() % storages);
                a.value = cs.values[i];
                break;
            case ActionKind::Read: // (not drawn: kinds cover acquire to write)
                a.amount = 0;
                a.value.clear();
                break;
            }
            if (!a.extra.isEmpty())
                a.extra = QJsonObject();
        }
        // in time order, as a user draws them; ties keep the order they were drawn in. A few
        // actions per client: insertion sort, no allocation.
        for (std::size_t i = 1; i < actions.size(); ++i) {
            for (std::size_t j = i; j > 0 && actions[j - 1].at > actions[j].at; --j)
                std::swap(actions[j - 1], actions[j]);
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
