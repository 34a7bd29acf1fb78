#include "shrink.h"

#include "explain.h"
#include "failurestory.h"
#include "schedulegen.h"
#include "simulator.h"
#include "sweep.h"

#include <QStringList>

namespace Core {

namespace {

// One simulator and trace for every test of a search or shrink: a test costs a simulation.
class Tester
{
public:
    explicit Tester(const FailureTarget &target) : m_target(target) {}

    bool fails(const Scenario &s)
    {
        ++m_runs;
        m_simulator.run(s, m_target.fencing, m_trace);
        if (m_target.any)
            return outcomes()[m_target.outcome].writes(m_trace) > 0;
        return storyCount(s, m_trace, m_target.outcome) > 0;
    }
    std::uint64_t runs() const { return m_runs; }

private:
    FailureTarget m_target;
    Simulator m_simulator;
    Trace m_trace;
    std::uint64_t m_runs = 0;
};

QString actionText(const Client &client, const Action &a)
{
    QString what = client.name + QStringLiteral("'s ") + toString(a.kind);
    if (a.kind == ActionKind::Write)
        what += QStringLiteral(" \"%1\"").arg(a.value);
    return what + QStringLiteral(" at t=%1").arg(a.at);
}

QString durationName(ActionKind kind)
{
    switch (kind) {
    case ActionKind::Acquire:
        return QStringLiteral("TTL");
    case ActionKind::Pause:
        return QStringLiteral("length");
    case ActionKind::Write:
    case ActionKind::Read:
        return QStringLiteral("delay");
    case ActionKind::Release:
        break;
    }
    return {};
}

Tick shortest(ActionKind kind)
{
    // ttl and pause lengths are positive, network delays may be 0
    return kind == ActionKind::Write || kind == ActionKind::Read ? 0 : 1;
}

QString stepText(const Scenario &before, const ShrinkStep &step)
{
    const Client &client = before.clients[step.client];
    switch (step.move) {
    case ShrinkMove::RemoveClient:
        return QStringLiteral("removed client %1 (%2 actions)")
            .arg(client.name)
            .arg(client.actions.size());
    case ShrinkMove::RemoveAction:
        return QStringLiteral("removed ") + actionText(client, client.actions[step.action]);
    case ShrinkMove::Shorten: {
        const Action &a = client.actions[step.action];
        return QStringLiteral("shortened the %1 of %2 from %3 to %4")
            .arg(durationName(a.kind), actionText(client, a))
            .arg(step.from)
            .arg(step.to);
    }
    case ShrinkMove::MoveEarlier:
        return QStringLiteral("moved %1 to t=%2")
            .arg(actionText(client, client.actions[step.action]))
            .arg(step.to);
    case ShrinkMove::ShortenGap:
        return QStringLiteral("shortened the gap of %1 from %2 to %3")
            .arg(actionText(client, client.actions[step.action]))
            .arg(step.from)
            .arg(step.to);
    case ShrinkMove::ShortenKeepalive:
        return QStringLiteral("shortened the keepalive period of %1 from %2 to %3")
            .arg(actionText(client, client.actions[step.action]))
            .arg(step.from)
            .arg(step.to);
    }
    return {};
}

class Shrinker
{
public:
    Shrinker(const Scenario &s, const FailureTarget &target, const std::atomic<bool> *cancel)
        : m_tester(target), m_cancel(cancel)
    {
        m_result.shrunk = s;
    }

    ShrinkResult run()
    {
        // passes until one changes nothing: that last pass tried every removal and every
        // one-tick shortening and none kept the failure, which is what 1-minimal means
        for (bool changed = true; changed && !cancelled();) {
            changed = false;
            changed |= removeClients();
            changed |= removeActions();
            changed |= shortenDurations();
            changed |= moveEarlier();
        }
        m_result.cancelled = cancelled();
        m_result.simulations = m_tester.runs();
        return std::move(m_result);
    }

private:
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }

    Scenario &current() { return m_result.shrunk; }

    bool tryStep(const ShrinkStep &step)
    {
        Scenario candidate = current();
        applyStep(candidate, step);
        if (!m_tester.fails(candidate))
            return false;
        ShrinkStep taken = step;
        taken.text = stepText(current(), step);
        m_result.steps.push_back(std::move(taken));
        m_result.shrunk = std::move(candidate);
        return true;
    }

    bool removeClients()
    {
        bool changed = false;
        for (std::size_t c = current().clients.size(); c-- > 0 && !cancelled();) {
            if (current().clients.size() > 1)
                changed |= tryStep({ShrinkMove::RemoveClient, std::uint32_t(c), 0, 0, 0, {}});
        }
        return changed;
    }

    bool removeActions()
    {
        bool changed = false;
        for (std::size_t c = current().clients.size(); c-- > 0 && !cancelled();) {
            for (std::size_t a = current().clients[c].actions.size(); a-- > 0;) {
                changed |= tryStep(
                    {ShrinkMove::RemoveAction, std::uint32_t(c), std::uint32_t(a), 0, 0, {}});
            }
        }
        return changed;
    }

    // Lowers a value by at least one tick while the failure persists: one tick first (the test
    // that 1-minimality needs), then the lowest a bisection finds. Only tested values are taken.
    bool lower(ShrinkMove move, std::size_t c, std::size_t a, Tick value, Tick floor)
    {
        if (value <= floor)
            return false;
        const auto step = [&](Tick to) {
            return ShrinkStep{move, std::uint32_t(c), std::uint32_t(a), value, to, {}};
        };
        Scenario probe = current();
        const auto failsAt = [&](Tick to) {
            applyStep(probe, step(to));
            return m_tester.fails(probe);
        };
        if (!failsAt(value - 1))
            return false;
        Tick lo = floor, hi = value - 1; // hi fails
        while (lo < hi) {
            const Tick mid = lo + (hi - lo) / 2;
            if (failsAt(mid))
                hi = mid;
            else
                lo = mid + 1;
        }
        ShrinkStep taken = step(hi);
        taken.text = stepText(current(), taken);
        applyStep(current(), taken);
        m_result.steps.push_back(std::move(taken));
        return true;
    }

    bool shortenDurations()
    {
        bool changed = false;
        for (std::size_t c = 0; c < current().clients.size() && !cancelled(); ++c) {
            for (std::size_t a = 0; a < current().clients[c].actions.size(); ++a) {
                const Action &action = current().clients[c].actions[a];
                if (action.kind != ActionKind::Release)
                    changed |=
                        lower(ShrinkMove::Shorten, c, a, action.amount, shortest(action.kind));
                // (`action` may have moved: lower() replaced the scenario)
                const Action &now = current().clients[c].actions[a];
                if (now.kind == ActionKind::Write && now.check)
                    changed |= lower(ShrinkMove::ShortenGap, c, a, now.gap(), 0);
                const Action &again = current().clients[c].actions[a];
                if (again.kind == ActionKind::Acquire && again.keepalive())
                    changed |= lower(ShrinkMove::ShortenKeepalive, c, a, again.keepalive(), 1);
            }
        }
        return changed;
    }

    bool moveEarlier()
    {
        bool changed = false;
        for (std::size_t c = 0; c < current().clients.size() && !cancelled(); ++c) {
            for (std::size_t a = 0; a < current().clients[c].actions.size(); ++a)
                changed |=
                    lower(ShrinkMove::MoveEarlier, c, a, current().clients[c].actions[a].at, 0);
        }
        return changed;
    }

    Tester m_tester;
    const std::atomic<bool> *m_cancel;
    ShrinkResult m_result;
};

} // namespace

bool hasFailure(const Scenario &scenario, const FailureTarget &target)
{
    return Tester(target).fails(scenario);
}

QString targetText(const FailureTarget &target)
{
    const QString &label = outcomes()[target.outcome].label;
    if (target.any)
        return label;
    switch (storyOf(target.outcome)) {
    case FailureStory::StaleWrite:
        return QStringLiteral("stale ") + label; // "stale corrupted write"
    case FailureStory::HoldersWrite:
        return label + QStringLiteral(" of the live holder");
    case FailureStory::Counted:
        break;
    }
    return label;
}

QString explainFailure(const Scenario &scenario, const FailureTarget &target)
{
    const Trace trace = simulate(scenario, target.fencing);
    const QString &name = outcomes()[target.outcome].name;
    if (name == QLatin1String("partial")) {
        for (std::size_t g = 0; g < trace.groups.size(); ++g)
            if (trace.groups[g].partial)
                return explainGroup(scenario, trace, std::uint32_t(g));
        return {};
    }
    if (name == QLatin1String("skipped")) {
        for (std::size_t e = 0; e < trace.events.size(); ++e)
            if (trace.events[e].kind == EventKind::Skipped)
                return explainEvent(scenario, trace, std::uint32_t(e));
        return {};
    }
    std::uint32_t write = kNone;
    if (!target.any) {
        write = firstStoryWrite(scenario, trace, target.outcome);
    } else {
        for (std::size_t i = 0; i < trace.writes.size() && write == kNone; ++i)
            if (toString(trace.writes[i].result) == name)
                write = std::uint32_t(i);
    }
    return write == kNone ? QString() : explainWrite(scenario, trace, write);
}

FindResult findFailure(const Scenario &shape, const FailureTarget &target, std::uint64_t seed,
                       std::uint64_t maxTries, const std::atomic<bool> *cancel)
{
    FindResult found;
    const ScheduleShape schedules = shapeOf(shape);
    Tester tester(target);
    Scenario s;
    for (std::uint64_t run = 0; run < maxTries; ++run) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        generateSchedule(schedules, scheduleSeed(seed, run), &s);
        ++found.tried;
        if (!tester.fails(s))
            continue;
        const QString title = shape.title.isEmpty() ? QStringLiteral("scenario") : shape.title;
        s.title =
            QStringLiteral("%1: failing schedule %2 of seed %3").arg(title).arg(run).arg(seed);
        s.description = QStringLiteral("Schedule %1 of seed %2 shaped like \"%3\": the first of %4 "
                                       "tried with a %5 with fencing %6.")
                            .arg(run)
                            .arg(seed)
                            .arg(title)
                            .arg(found.tried)
                            .arg(targetText(target),
                                 target.fencing ? QStringLiteral("on") : QStringLiteral("off"));
        s.fencing = target.fencing;
        found.schedule = std::move(s);
        found.run = run;
        break;
    }
    return found;
}

ShrinkResult shrink(const Scenario &scenario, const FailureTarget &target,
                    const std::atomic<bool> *cancel)
{
    return Shrinker(scenario, target, cancel).run();
}

Scenario describedResult(const Scenario &found, const ShrinkResult &result)
{
    Scenario out = result.shrunk;
    out.title.replace(QLatin1String("failing schedule"), QLatin1String("shrunk failing schedule"));
    QStringList steps;
    for (std::size_t i = 0; i < result.steps.size(); ++i)
        steps << QStringLiteral("%1. %2").arg(i + 1).arg(result.steps[i].text);
    out.description = found.description +
                      QStringLiteral(" Shrunk to 1-minimal (removing any one action or shortening "
                                     "any one duration, gap or keepalive period by a tick makes "
                                     "the failure disappear) in %1 steps: ")
                          .arg(result.steps.size()) +
                      steps.join(QLatin1String("; ")) + QLatin1Char('.');
    if (result.cancelled)
        out.description += QStringLiteral(" (Stopped early: it may shrink further.)");
    return out;
}

void applyStep(Scenario &s, const ShrinkStep &step)
{
    switch (step.move) {
    case ShrinkMove::RemoveClient:
        s.clients.erase(s.clients.begin() + step.client);
        break;
    case ShrinkMove::RemoveAction: {
        auto &actions = s.clients[step.client].actions;
        actions.erase(actions.begin() + step.action);
        break;
    }
    case ShrinkMove::Shorten:
        s.clients[step.client].actions[step.action].amount = step.to;
        break;
    case ShrinkMove::MoveEarlier:
        s.clients[step.client].actions[step.action].at = step.to;
        break;
    case ShrinkMove::ShortenGap:
        s.clients[step.client].actions[step.action].setGap(step.to);
        break;
    case ShrinkMove::ShortenKeepalive:
        s.clients[step.client].actions[step.action].setKeepalive(step.to);
        break;
    }
}

Scenario replaySteps(const Scenario &start, const std::vector<ShrinkStep> &steps, std::size_t count)
{
    Scenario s = start;
    for (std::size_t i = 0; i < count && i < steps.size(); ++i)
        applyStep(s, steps[i]);
    return s;
}

} // namespace Core
