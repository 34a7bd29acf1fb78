// Lane planning, a function of the scenario alone: the order in which a client's actions run
// and the tick each runs at (after thawing), its pause edges and frozen stretches; where two
// plans of an edited lane start to agree (for rejoining); when a frozen lane does something.
#include "simulatorimpl.h"

#include <exception>
#include <system_error>
#include <thread>

namespace Core {

using namespace SimulatorDetail;

// Every lane's plan. Lanes are planned apart from one another, so a large scenario's are
// planned on two threads: this one takes the first clients and a helper the last ones, about
// half the actions each: planning reads every action twice over from memory, a large share of
// a summary-only run (docs/PERFORMANCE.md). Sweeps and drags, a few actions or one lane at a
// time, start no thread.
void Simulator::Impl::prepareLanes()
{
    const auto nc = std::uint32_t(s->clients.size());
    std::uint32_t split = nc; // the helper plans clients [split, nc)
    std::size_t total = 0;
    for (const Client &client : s->clients)
        total += client.actions.size();
    if (nc > 1 && total >= kPlanInTwoFrom && std::thread::hardware_concurrency() > 1) {
        std::size_t last = 0;
        while (split > 1 && 2 * (last + s->clients[split - 1].actions.size()) <= total + 1)
            last += s->clients[--split].actions.size();
        if (last == 0)
            split = nc; // one client holds more than half: nothing to share
    }
    if (split == nc) {
        for (std::uint32_t c = 0; c < nc; ++c)
            prepareLane(c, lanes[c].plan);
        return;
    }
    std::exception_ptr failed;
    std::thread helper;
    try {
        helper = std::thread([&] {
            try {
                std::vector<std::uint32_t> byTime;
                for (std::uint32_t c = split; c < nc; ++c)
                    prepareLane(c, lanes[c].plan, byTime);
            } catch (...) { // (out of memory: rethrown here, as planning alone would)
                failed = std::current_exception();
            }
        });
    } catch (const std::system_error &) { // no thread to be had: all of them here
        split = nc;
    }
    try {
        for (std::uint32_t c = 0; c < split; ++c)
            prepareLane(c, lanes[c].plan);
    } catch (...) {
        if (helper.joinable())
            helper.join();
        throw;
    }
    if (helper.joinable())
        helper.join();
    if (failed)
        std::rethrow_exception(failed);
}

// Run order of one client's actions into `plan`, and its frozen stretches into the trace:
// a function of the scenario. Runs again for the edited client on every drag step, so the
// usual case (actions listed in time order, pauses not overlapping) avoids sorting and
// temporary lists.
void Simulator::Impl::prepareLane(std::uint32_t c, Plan &plan, std::vector<std::uint32_t> &byTime)
{
    const std::vector<Action> &actions = s->clients[c].actions;
    const auto n = std::uint32_t(actions.size());
    // Actions run in order of `at`, ties in listed order. Files are usually sorted already: the
    // first pass finds the pauses in listed order and checks the order on the way, and only
    // when it is not sorted is the list sorted and passed again.
    byTime.clear();
    bool listedInOrder = true;
    const auto nth = [&](std::uint32_t k) { return listedInOrder ? k : byTime[k]; };

    // Frozen stretches: the union of the pause windows [p, p + d).
    std::vector<Freeze> &freezes = t->freezes[c];
    const auto findPauses = [&] {
        freezes.clear();
        plan.edges.clear();
        Tick last = 0;
        bool sorted = true;
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t i = nth(k);
            const Action &a = actions[i];
            sorted &= a.at >= last; // (always true on the second pass, in time order)
            last = a.at;
            if (a.kind != ActionKind::Pause)
                continue;
            const Tick end = a.at + a.amount;
            plan.edges.push_back({a.at, i, true});
            plan.edges.push_back({end, i, false});
            if (!freezes.empty() && a.at <= freezes.back().to)
                freezes.back().to = std::max(freezes.back().to, end);
            else
                freezes.push_back({a.at, end});
        }
        return sorted;
    };
    if (!findPauses()) {
        listedInOrder = false;
        if (byTime.capacity() < actions.size()) {
            byTime.reserve(actions.size());
            SimulatorDetail::prepareMemory(byTime);
        }
        byTime.resize(actions.size());
        for (std::uint32_t i = 0; i < byTime.size(); ++i)
            byTime[i] = i;
        std::stable_sort(byTime.begin(), byTime.end(), [&](std::uint32_t a, std::uint32_t b) {
            return actions[a].at < actions[b].at;
        });
        findPauses();
    }
    // At one tick: a thaw before a new pause, then in listed order.
    const auto edgeBefore = [](const PauseEdge &a, const PauseEdge &b) {
        if (a.tick != b.tick)
            return a.tick < b.tick;
        if (a.start != b.start)
            return !a.start;
        return a.action < b.action;
    };
    if (!std::is_sorted(plan.edges.begin(), plan.edges.end(), edgeBefore))
        std::sort(plan.edges.begin(), plan.edges.end(), edgeBefore);

    // Everything else runs at its tick, or when the client thaws if frozen then. Deferred
    // actions keep their order and come before those due at the thaw tick, which sorting
    // by `at` already gives. The same pass counts what start() reserves for and whether the
    // lane uses anything of sections 11 and 12, so no other pass reads the actions.
    // (every action but the pauses, each of which has two edges: sized once, filled in place)
    const std::size_t planned = actions.size() - plan.edges.size() / 2;
    if (plan.order.capacity() < planned) { // (a first run: fresh memory, prepared in one go)
        plan.order.reserve(planned);
        plan.runAt.reserve(planned);
        SimulatorDetail::prepareMemory(plan.order);
        SimulatorDetail::prepareMemory(plan.runAt);
    }
    plan.order.resize(planned);
    plan.runAt.resize(planned);
    plan.storageWrites.assign(s->storages.size(), 0);
    std::uint32_t waits = 0, writes = 0, acquires = 0, releases = 0;
    bool pitfalls = false;
    std::size_t f = 0, j = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t i = nth(k);
        const Action &a = actions[i];
        if (a.kind == ActionKind::Pause)
            continue;
        while (f < freezes.size() && freezes[f].to <= a.at)
            ++f;
        const bool frozen = f < freezes.size() && freezes[f].from <= a.at;
        plan.order[j] = i;
        plan.runAt[j++] = frozen ? freezes[f].to : a.at;
        // counted without a branch on the kind (as good as random in a sweep), but for the
        // per-storage count
        const bool write = a.kind == ActionKind::Write;
        const bool acquire = a.kind == ActionKind::Acquire;
        waits += unsigned(acquire) & unsigned(a.wait | (a.waitFor() != 0));
        writes += write;
        acquires += acquire;
        releases += a.kind == ActionKind::Release;
        if (write)
            ++plan.storageWrites[a.storage];
        pitfalls |= a.usesPitfalls();
    }
    plan.writes = writes;
    plan.acquires = acquires;
    plan.releases = releases;
    plan.pitfalls = pitfalls;
    lanes[c].waitActions = waits;
}

// The first tick from which two plans of a lane, one of whose actions (`action`) was edited,
// do the same things at the same ticks: everything they differ in happens before it.
Tick Simulator::Impl::plansAgreeFrom(const Plan &a, const Plan &b, std::uint32_t action)
{
    Tick from = 0;
    std::size_t i = a.order.size(), j = b.order.size();
    while (i && j && a.order[i - 1] == b.order[j - 1] && a.runAt[i - 1] == b.runAt[j - 1])
        --i, --j;
    if (i)
        from = std::max(from, a.runAt[i - 1] + 1);
    if (j)
        from = std::max(from, b.runAt[j - 1] + 1);
    i = a.edges.size(), j = b.edges.size();
    while (i && j && a.edges[i - 1].tick == b.edges[j - 1].tick &&
           a.edges[i - 1].action == b.edges[j - 1].action &&
           a.edges[i - 1].start == b.edges[j - 1].start)
        --i, --j;
    if (i)
        from = std::max(from, a.edges[i - 1].tick + 1);
    if (j)
        from = std::max(from, b.edges[j - 1].tick + 1);
    // the edited action may run at the same tick and still do something else (a new TTL)
    for (const Plan *p : {&a, &b}) {
        const auto it = std::find(p->order.begin(), p->order.end(), action);
        if (it != p->order.end())
            from = std::max(from, p->runAt[std::size_t(it - p->order.begin())] + 1);
    }
    return from;
}

// The tick a lane does something due at `at`: then, or when it thaws if frozen then.
Tick Simulator::Impl::thawOf(std::uint32_t c, Tick at) const
{
    const std::vector<Freeze> &f = t->freezes[c];
    auto it = std::upper_bound(f.begin(), f.end(), at,
                               [](Tick x, const Freeze &z) { return x < z.from; });
    if (it != f.begin() && at < (it - 1)->to)
        return (it - 1)->to;
    return at;
}

} // namespace Core
