#include "sweep.h"

#include "scenariofile.h"
#include "simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace Core {

namespace {

// The longest run a schedule near `s` can have: acquires as early and everything else as late
// as the jitter allows (keepaliveBound() grows with both).
void stretchByJitter(Scenario &s, Tick jitter)
{
    for (Client &c : s.clients)
        for (Action &a : c.actions)
            a.at =
                a.kind == ActionKind::Acquire ? (a.at > jitter ? a.at - jitter : 0) : a.at + jitter;
}

} // namespace

QString toString(SweepSchedules schedules)
{
    switch (schedules) {
    case SweepSchedules::Fixed:
        return QStringLiteral("fixed");
    case SweepSchedules::Near:
        return QStringLiteral("near");
    case SweepSchedules::Shaped:
        return QStringLiteral("shaped");
    }
    return {};
}

std::optional<SweepSchedules> sweepSchedulesFromString(const QString &name)
{
    for (SweepSchedules s : {SweepSchedules::Fixed, SweepSchedules::Near, SweepSchedules::Shaped})
        if (toString(s) == name)
            return s;
    return std::nullopt;
}

Interval wilsonInterval(std::uint64_t successes, std::uint64_t trials)
{
    if (trials == 0)
        return {};
    const double z = 1.96;
    const double n = double(trials);
    const double p = double(std::min(successes, trials)) / n;
    const double z2n = z * z / n;
    const double centre = (p + z2n / 2) / (1 + z2n);
    const double half = z / (1 + z2n) * std::sqrt(p * (1 - p) / n + z2n / (4 * n));
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::size_t SweepSpec::pointCount() const
{
    return vary.values.size() * (vary2.quantity ? vary2.values.size() : 1);
}

Tick SweepSpec::x(std::size_t point) const
{
    return vary.values[point % vary.values.size()];
}

std::optional<Tick> SweepSpec::x2(std::size_t point) const
{
    if (!vary2.quantity)
        return std::nullopt;
    return vary2.values[point / vary.values.size()];
}

QString validate(const SweepSpec &spec)
{
    for (const SweepAxis *axis : {&spec.vary, &spec.vary2}) {
        if (!axis->quantity) {
            if (axis == &spec.vary)
                return QStringLiteral("nothing to vary");
            continue;
        }
        const Quantity &q = *axis->quantity;
        if (axis->values.empty())
            return QStringLiteral("%1: no values").arg(q.name);
        for (Tick v : axis->values)
            if (v < q.min || v > q.max)
                return QStringLiteral("%1: %2 is outside %3..%4")
                    .arg(q.name)
                    .arg(v)
                    .arg(q.min)
                    .arg(q.max);
    }
    if (spec.vary2.quantity == spec.vary.quantity)
        return QStringLiteral("%1 is varied twice").arg(spec.vary.quantity->name);
    if (spec.pointCount() > 10000)
        return QStringLiteral("%1 points: at most 10000").arg(spec.pointCount());
    if (spec.random() && (spec.runs < 1 || spec.runs > 10'000'000))
        return QStringLiteral("runs: %1 is outside 1..10000000").arg(spec.runs);
    if (spec.scenario.clients.empty())
        return QStringLiteral("the scenario has no clients");
    if (spec.schedules == SweepSchedules::Near) {
        if (spec.jitter < 1 || spec.jitter > kMaxJitter)
            return QStringLiteral("jitter: %1 is outside 1..%2").arg(spec.jitter).arg(kMaxJitter);
        Tick last = 0;
        for (const Client &c : spec.scenario.clients)
            for (const Action &a : c.actions)
                last = std::max(last, a.at);
        if (last > kMaxFileInteger - spec.jitter)
            return QStringLiteral("jitter: an action at t=%1 would move past the largest tick, %2")
                .arg(last)
                .arg(kMaxFileInteger);
    }
    for (const SweepAxis *axis : {&spec.vary, &spec.vary2}) {
        if (axis->quantity && axis->quantity->missing) {
            const QString why = axis->quantity->missing(spec.scenario);
            if (!why.isEmpty())
                return QStringLiteral("%1: %2").arg(axis->quantity->name, why);
        }
    }
    // the loader's bound on keepalives (scenariofile.cpp), at every point: a keepalive every
    // tick over a long run would renew for ever. Checked only where keepalives can be. The
    // bound grows with every duration and the number of clients and shrinks with the period,
    // so its largest value is at a corner: each axis at its largest value or, for keepalive,
    // its smallest period (0 is none). At most four scenarios, whatever the number of points.
    if (spec.vary.quantity->name == QLatin1String("keepalive") ||
        (spec.vary2.quantity && spec.vary2.quantity->name == QLatin1String("keepalive")) ||
        spec.scenario.keepaliveBound(1) > 0) {
        const std::uint64_t kLimit = FileLimits{}.maxActions;
        const auto corners = [](const SweepAxis &axis) {
            std::vector<Tick> out;
            if (!axis.quantity)
                return out;
            const auto [lo, hi] = std::minmax_element(axis.values.begin(), axis.values.end());
            if (axis.quantity->name == QLatin1String("keepalive")) {
                Tick shortest = 0;
                for (Tick v : axis.values)
                    if (v && (!shortest || v < shortest))
                        shortest = v;
                if (shortest)
                    out.push_back(shortest);
                if (*hi != shortest)
                    out.push_back(*hi);
            } else {
                out.push_back(*lo);
                if (*hi != *lo)
                    out.push_back(*hi);
            }
            return out;
        };
        const std::vector<Tick> xs = corners(spec.vary);
        std::vector<Tick> ys = corners(spec.vary2);
        if (ys.empty())
            ys.push_back(0); // (no second axis)
        for (Tick y : ys) {
            for (Tick x : xs) {
                Scenario s = spec.scenario;
                if (spec.schedules == SweepSchedules::Near)
                    stretchByJitter(s, spec.jitter);
                spec.vary.quantity->apply(s, x);
                QString label = QStringLiteral("%1 = %2").arg(spec.vary.quantity->name).arg(x);
                if (spec.vary2.quantity) {
                    spec.vary2.quantity->apply(s, y);
                    label += QStringLiteral(", %1 = %2").arg(spec.vary2.quantity->name).arg(y);
                }
                if (s.keepaliveBound(kLimit) > kLimit)
                    return QStringLiteral("%1: too many keepalives: a run could renew more "
                                          "than %2 times")
                        .arg(label)
                        .arg(kLimit);
            }
        }
    }
    return {};
}

void OutcomeStat::add(std::uint32_t run, std::uint64_t count)
{
    if (count == 0)
        return;
    ++schedules;
    writes += count;
    firstRun = std::min(firstRun, run);
    if (count > worstWrites || (count == worstWrites && run < worstRun)) {
        worstWrites = count;
        worstRun = run;
    }
}

void OutcomeStat::merge(const OutcomeStat &o)
{
    schedules += o.schedules;
    writes += o.writes;
    firstRun = std::min(firstRun, o.firstRun);
    if (o.worstWrites > worstWrites || (o.worstWrites == worstWrites && o.worstRun < worstRun)) {
        worstWrites = o.worstWrites;
        worstRun = o.worstRun;
    }
}

bool SweepResult::complete() const
{
    return std::all_of(points.begin(), points.end(), [](const PointResult &p) { return p.done; });
}

std::size_t SweepResult::donePoints() const
{
    return std::size_t(
        std::count_if(points.begin(), points.end(), [](const PointResult &p) { return p.done; }));
}

Scenario pointScenario(const SweepSpec &spec, std::size_t point)
{
    Scenario s = spec.scenario;
    spec.vary.quantity->apply(s, spec.x(point));
    if (spec.vary2.quantity)
        spec.vary2.quantity->apply(s, *spec.x2(point));
    return s;
}

QString pointLabel(const SweepSpec &spec, std::size_t point)
{
    QString label = QStringLiteral("%1 = %2").arg(spec.vary.quantity->name).arg(spec.x(point));
    if (spec.vary2.quantity)
        label += QStringLiteral(", %1 = %2").arg(spec.vary2.quantity->name).arg(*spec.x2(point));
    return label;
}

QString schedulesSentence(const SweepSpec &spec)
{
    QString set;
    if (spec.vary.quantity && spec.vary2.quantity)
        set = QStringLiteral("%1 and %2 set to the point's values")
                  .arg(spec.vary.quantity->name, spec.vary2.quantity->name);
    else if (spec.vary.quantity)
        set = QStringLiteral("%1 set to the point's value").arg(spec.vary.quantity->name);
    else
        set = QStringLiteral("the varied quantity set to the point's value");
    const QString schedules = spec.runs == 1 ? QStringLiteral("1 schedule")
                                             : QStringLiteral("%1 schedules").arg(spec.runs);
    switch (spec.schedules) {
    case SweepSchedules::Fixed:
        return QStringLiteral("Each point runs the scenario itself once, with %1.").arg(set);
    case SweepSchedules::Near:
        return QStringLiteral("Each point runs %1 near the scenario: its own actions, each "
                              "client's in their order, each moved by a seeded amount of at "
                              "most %2, earlier or later, with %3.")
            .arg(schedules,
                 spec.jitter == 1 ? QStringLiteral("1 tick")
                                  : QStringLiteral("%1 ticks").arg(spec.jitter),
                 set);
    case SweepSchedules::Shaped: {
        Tick last = 0;
        for (const Client &c : spec.scenario.clients)
            for (const Action &a : c.actions)
                last = std::max(last, a.at);
        return QStringLiteral("Each point runs %1 shaped like the scenario: its clients, each "
                              "drawing as many actions of the kinds it uses, each at a random "
                              "tick from 0 to %2 with durations from the scenario's ranges, "
                              "with %3.")
            .arg(schedules)
            .arg(last)
            .arg(set);
    }
    }
    return {};
}

Scenario sweepSchedule(const SweepSpec &spec, std::size_t point, std::uint32_t run)
{
    Scenario s = pointScenario(spec, point);
    const QString title = s.title.isEmpty() ? QStringLiteral("scenario") : s.title;
    if (spec.schedules == SweepSchedules::Near) {
        s = nearSchedule(s, spec.jitter, scheduleSeed(spec.seed, run));
        s.title = QStringLiteral("%1: sweep schedule %2 at %3")
                      .arg(title)
                      .arg(run)
                      .arg(pointLabel(spec, point));
        s.description =
            QStringLiteral("Schedule %1 of a sweep with seed %2 (%3 schedules per point near "
                           "\"%4\": its actions each moved by up to %5 ticks), at %6.")
                .arg(run)
                .arg(spec.seed)
                .arg(spec.runs)
                .arg(title)
                .arg(spec.jitter)
                .arg(pointLabel(spec, point));
    } else if (spec.schedules == SweepSchedules::Shaped) {
        s = generateSchedule(shapeOf(s), scheduleSeed(spec.seed, run));
        s.title = QStringLiteral("%1: sweep schedule %2 at %3")
                      .arg(title)
                      .arg(run)
                      .arg(pointLabel(spec, point));
        s.description =
            QStringLiteral("Schedule %1 of a sweep with seed %2 (%3 random schedules per point) "
                           "shaped like \"%4\", at %5.")
                .arg(run)
                .arg(spec.seed)
                .arg(spec.runs)
                .arg(title, pointLabel(spec, point));
    } else {
        s.title = QStringLiteral("%1 at %2").arg(title, pointLabel(spec, point));
        s.description =
            QStringLiteral("\"%1\" with %2 (a sweep point).").arg(title, pointLabel(spec, point));
    }
    s.horizon.reset();
    return s;
}

namespace {

// A slice of a point's runs: the unit a thread takes. Small enough to balance two cores on a
// few points and to stop soon after a cancel, large enough that taking one costs nothing.
struct Item
{
    std::size_t point = 0;
    std::uint32_t from = 0;
    std::uint32_t to = 0;
};

constexpr std::uint32_t kItemRuns = 256;

struct Job
{
    const SweepSpec &spec;
    std::vector<ScheduleShape> shapes; // per point, Shaped
    std::vector<Scenario> schedules;   // per point: the schedule (Fixed) or its base (Near)
    std::vector<std::size_t> pointOf;  // points to do
    std::vector<Item> items;
    std::vector<PointResult> itemResults;
    std::vector<char> itemDone;
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> simulated{0};
    std::atomic<int> running{0};
    const std::atomic<bool> *cancel = nullptr;
    std::mutex mutex;
    std::condition_variable finished;

    explicit Job(const SweepSpec &s) : spec(s) {}

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }

    void work()
    {
        Simulator simulator(Simulator::kNoCheckpoints); // every run is a new schedule
        Trace trace;
        ScheduleDrawer drawer;           // this thread's own strings: no count shared
        NearDrawer near;                 // (its copy of the base's strings is only read)
        std::size_t drawnFor = SIZE_MAX; // the point whose shape or base the drawer has
        for (;;) {
            const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= items.size() || cancelled())
                break;
            const Item &item = items[i];
            // a new point's shape may differ in more than its actions (clock rates, lock
            // options): the drawer starts from its base, then only the actions are drawn again
            if (spec.random() && item.point != drawnFor) {
                if (spec.schedules == SweepSchedules::Near)
                    near.setBase(schedules[item.point], spec.jitter);
                else
                    drawer.setShape(shapes[item.point]);
                drawnFor = item.point;
            }
            PointResult r; // counted here, stored once: no cache line shared with a neighbour
            for (std::uint32_t run = item.from; run < item.to; ++run) {
                const Scenario *s = spec.schedules == SweepSchedules::Shaped
                                        ? &drawer.draw(scheduleSeed(spec.seed, run))
                                    : spec.schedules == SweepSchedules::Near
                                        ? &near.draw(scheduleSeed(spec.seed, run))
                                        : &schedules[item.point];
                // only the summary is judged: no events or lane lists are recorded
                simulator.summarize(*s, true, trace);
                for (std::size_t k = 0; k < kOutcomeCount; ++k)
                    r.fenced[k].add(run, outcomes()[k].writes(trace));
                // a fenced run that applied every write is the unfenced run too
                if (!unfencedRunsAlike(trace))
                    simulator.summarizeAgain(false);
                for (std::size_t k = 0; k < kOutcomeCount; ++k)
                    r.unfenced[k].add(run, outcomes()[k].writes(trace));
            }
            r.runs = item.to - item.from;
            simulated.fetch_add(r.runs, std::memory_order_relaxed);
            itemResults[i] = r;
            itemDone[i] = 1; // both read only after the threads are joined
        }
        std::lock_guard<std::mutex> lock(mutex);
        if (--running == 0)
            finished.notify_all();
    }
};

} // namespace

bool runSweep(const SweepSpec &spec, SweepResult *result, int threads,
              const std::atomic<bool> *cancel,
              const std::function<void(const SweepProgress &)> &progress)
{
    const std::size_t points = spec.pointCount();
    if (result->points.size() != points)
        result->points.assign(points, PointResult{});
    const std::uint32_t runs = spec.runsPerPoint();

    Job job(spec);
    job.cancel = cancel;
    if (spec.schedules == SweepSchedules::Shaped)
        job.shapes.resize(points);
    else
        job.schedules.resize(points);
    std::uint64_t before = 0;
    for (std::size_t p = 0; p < points; ++p) {
        if (result->points[p].done) {
            before += result->points[p].runs;
            continue;
        }
        result->points[p] = PointResult{};
        if (spec.schedules == SweepSchedules::Shaped) {
            job.shapes[p] = shapeOf(pointScenario(spec, p));
        } else {
            job.schedules[p] = pointScenario(spec, p);
            if (spec.schedules == SweepSchedules::Near)
                job.schedules[p].horizon.reset(); // (moved actions may reach past it)
        }
        for (std::uint32_t from = 0; from < runs; from += kItemRuns)
            job.items.push_back({p, from, std::min(runs, from + kItemRuns)});
    }
    job.itemResults.resize(job.items.size());
    job.itemDone.assign(job.items.size(), 0);
    const SweepProgress total{before, std::uint64_t(points) * runs};

    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    threads = int(
        std::min<std::size_t>(std::size_t(threads), std::max<std::size_t>(1, job.items.size())));
    std::vector<std::thread> pool;
    pool.reserve(std::size_t(threads));
    job.running = threads;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&job] { job.work(); });
    {
        std::unique_lock<std::mutex> lock(job.mutex);
        while (job.running > 0) {
            job.finished.wait_for(lock, std::chrono::milliseconds(100));
            if (progress && job.running > 0) {
                lock.unlock();
                progress({before + job.simulated.load(), total.total});
                lock.lock();
            }
        }
    }
    for (std::thread &t : pool)
        t.join();

    // a point is done when every slice of it is; counts are sums, first and worst runs minima,
    // so the merge order (and the number of threads) cannot change them
    std::vector<char> complete(points, 1);
    for (std::size_t i = 0; i < job.items.size(); ++i)
        if (!job.itemDone[i])
            complete[job.items[i].point] = 0;
    for (std::size_t i = 0; i < job.items.size(); ++i) {
        const Item &item = job.items[i];
        if (!complete[item.point])
            continue;
        PointResult &p = result->points[item.point];
        p.runs += job.itemResults[i].runs;
        for (std::size_t k = 0; k < kOutcomeCount; ++k) {
            p.fenced[k].merge(job.itemResults[i].fenced[k]);
            p.unfenced[k].merge(job.itemResults[i].unfenced[k]);
        }
    }
    std::uint64_t simulated = 0;
    for (std::size_t p = 0; p < points; ++p) {
        PointResult &r = result->points[p];
        if (!r.done && complete[p] && r.runs == runs)
            r.done = true;
        else if (!r.done)
            r = PointResult{};
        if (r.done)
            simulated += r.runs;
    }
    if (progress)
        progress({simulated, total.total});
    return result->complete();
}

} // namespace Core
