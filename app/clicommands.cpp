#include "clicommands.h"

#include "animationlimits.h"
#include "sweepreport.h"
#include "themenames.h"

#include <cmath>
#include <utility>

namespace Cli {

namespace {

bool parseNumber(const QString &text, double *out, double min, double max)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool parseTick(const QString &text, Core::Tick *out)
{
    bool ok = false;
    const qulonglong v = text.trimmed().toULongLong(&ok);
    if (!ok || v > Core::kMaxFileInteger)
        return false;
    *out = v;
    return true;
}

// ---- the options, each defined once -------------------------------------------------------

OptionSpec output(const QString &valueName, const QString &description)
{
    return {{QStringLiteral("o"), QStringLiteral("output")},
            valueName,
            description,
            [](const QString &v, Invocation *inv) {
                if (v.isEmpty())
                    return QStringLiteral("-o needs a value");
                inv->output = v;
                return QString();
            }};
}

OptionSpec fencing()
{
    return {{QStringLiteral("fencing")},
            QStringLiteral("on|off"),
            QStringLiteral("override the file's fencing switch"),
            [](const QString &v, Invocation *inv) {
                if (v != QLatin1String("on") && v != QLatin1String("off"))
                    return QStringLiteral("--fencing takes on or off, not \"%1\"").arg(v);
                inv->fencing = v == QLatin1String("on");
                return QString();
            }};
}

OptionSpec flag(const QString &name, const QString &description,
                std::function<void(Invocation *)> set)
{
    return {
        {name}, QString(), description, [set = std::move(set)](const QString &, Invocation *inv) {
            set(inv);
            return QString();
        }};
}

OptionSpec help()
{
    return {{QStringLiteral("h"), QStringLiteral("help")},
            QString(),
            QStringLiteral("show this help"),
            [](const QString &, Invocation *inv) {
                inv->help = true;
                return QString();
            }};
}

OptionSpec tickBound(const QString &name, const QString &description, bool from)
{
    return {{name},
            QStringLiteral("TICK"),
            description,
            [name, from](const QString &v, Invocation *inv) {
                Core::Tick t = 0;
                if (!parseTick(v, &t))
                    return QStringLiteral("--%1 takes a tick, not \"%2\"").arg(name, v);
                (from ? inv->picture.fromTick : inv->picture.toTick) = double(t);
                return QString();
            }};
}

// What export and storyboard both draw with, after their own options.
std::vector<OptionSpec> pictureOptions()
{
    return {
        fencing(),
        flag(QStringLiteral("compare"),
             QStringLiteral("draw the schedule fenced over unfenced on one time axis"),
             [](Invocation *inv) { inv->picture.compare = true; }),
        flag(QStringLiteral("slide"),
             QStringLiteral("a 16:9 slide, WIDTH x WIDTH*9/16: text and lanes smaller to fit"),
             [](Invocation *inv) { inv->picture.slide = true; }),
        {{QStringLiteral("width")},
         QStringLiteral("PX"),
         QStringLiteral("width in logical pixels, 320 to 16384 (default 1920)"),
         [](const QString &v, Invocation *inv) {
             double width = 0;
             if (!parseNumber(v, &width, 320, 16384))
                 return QStringLiteral("--width takes pixels from 320 to 16384, not \"%1\"").arg(v);
             inv->picture.width = width;
             return QString();
         }},
        {{QStringLiteral("scale")},
         QStringLiteral("S"),
         QStringLiteral("PNG pixels per logical pixel, 0.25 to 8 (default 1)"),
         [](const QString &v, Invocation *inv) {
             double scale = 0;
             if (!parseNumber(v, &scale, 0.25, 8))
                 return QStringLiteral("--scale takes a factor from 0.25 to 8, not \"%1\"").arg(v);
             inv->picture.scale = scale;
             return QString();
         }},
        tickBound(QStringLiteral("from"), QStringLiteral("first tick shown (default: the start)"),
                  true),
        tickBound(QStringLiteral("to"), QStringLiteral("last tick shown (default: the end)"),
                  false),
        {{QStringLiteral("theme")},
         themeNames().join(QLatin1Char('|')),
         QStringLiteral("colours (default print: a white background)"),
         [](const QString &v, Invocation *inv) {
             if (!themeNames().contains(v))
                 return QStringLiteral("--theme takes %1, not \"%2\"")
                     .arg(themeNames().join(QLatin1Char('|')), v);
             inv->picture.theme = v;
             return QString();
         }},
        {{QStringLiteral("caption")},
         QStringLiteral("TEXT"),
         QStringLiteral("caption under the picture (default: the outcome summary)"),
         [](const QString &v, Invocation *inv) {
             inv->picture.caption = v;
             return QString();
         }},
        flag(QStringLiteral("no-title"), QStringLiteral("leave out the title"),
             [](Invocation *inv) { inv->picture.noTitle = true; }),
        flag(QStringLiteral("no-legend"), QStringLiteral("leave out the legend"),
             [](Invocation *inv) { inv->picture.noLegend = true; }),
        flag(QStringLiteral("no-caption"), QStringLiteral("leave out the caption"),
             [](Invocation *inv) { inv->picture.noCaption = true; }),
    };
}

OptionSpec number(const QString &name, const QString &description, std::uint64_t min,
                  std::uint64_t max, std::function<void(Invocation *, std::uint64_t)> set)
{
    return {{name},
            QStringLiteral("N"),
            description,
            [name, min, max, set = std::move(set)](const QString &v, Invocation *inv) {
                bool ok = false;
                const qulonglong n = v.trimmed().toULongLong(&ok);
                if (!ok || n < min || n > max)
                    return QStringLiteral("--%1 takes a whole number from %2 to %3, not \"%4\"")
                        .arg(name)
                        .arg(min)
                        .arg(max)
                        .arg(v);
                set(inv, n);
                return QString();
            }};
}

OptionSpec seed()
{
    return number(QStringLiteral("seed"),
                  QStringLiteral("seed of the random schedules (default 1)"), 0,
                  Core::kMaxFileInteger, [](Invocation *inv, std::uint64_t n) { inv->seed = n; });
}

OptionSpec axis(const QString &name, const QString &description, bool second)
{
    return {{name},
            QStringLiteral("Q=VALUES"),
            description,
            [name, second](const QString &v, Invocation *inv) {
                Core::SweepAxis axis;
                const QString error = Core::parseSweepAxis(v, &axis);
                if (!error.isEmpty())
                    return QStringLiteral("--%1: %2").arg(name, error);
                (second ? inv->vary2 : inv->vary) = axis;
                return QString();
            }};
}

std::vector<CommandSpec> makeCommands()
{
    std::vector<CommandSpec> all;
    all.push_back({QStringLiteral("run"),
                   QStringLiteral("simulate FILE and print the run report as JSON"),
                   QStringLiteral(
                       "Simulates the scenario and prints the run report: grants (and renewals) in "
                       "the order they happened, refusals, writes in arrival order with their "
                       "result, the final state of each storage and a summary."),
                   QString(),
                   {fencing(),
                    flag(QStringLiteral("summary"),
                         QStringLiteral("print only title, fencing, final state and summary"),
                         [](Invocation *inv) { inv->summary = true; }),
                    help()}});
    all.push_back({QStringLiteral("check"),
                   QStringLiteral("validate FILE: what is wrong with it, or that it is fine"),
                   QStringLiteral("Reads the scenario and says where it is invalid and why, or "
                                  "that it is fine with its title and size."),
                   QString(),
                   {help()}});

    CommandSpec exportCommand{
        QStringLiteral("export"),
        QStringLiteral("draw FILE's timeline as a PNG, SVG or PDF"),
        QStringLiteral("Draws the picture the app draws, laid out for a slide: title, timeline, a "
                       "legend of every symbol used and a caption. No display is needed."),
        QStringLiteral("OUT.(png|svg|pdf)"),
        {output(QStringLiteral("OUT.(png|svg|pdf)"),
                QStringLiteral("the picture to write; its extension picks the format")),
         {{QStringLiteral("at")},
          QStringLiteral("TICK"),
          QStringLiteral("show the state at this tick (later events dimmed)"),
          [](const QString &v, Invocation *inv) {
              Core::Tick t = 0;
              if (!parseTick(v, &t))
                  return QStringLiteral("--at takes a tick, not \"%1\"").arg(v);
              inv->picture.playhead = t;
              return QString();
          }}}};
    const std::vector<OptionSpec> picture = pictureOptions();
    exportCommand.options.insert(exportCommand.options.end(), picture.begin(), picture.end());
    exportCommand.options.push_back(help());
    all.push_back(exportCommand);

    CommandSpec storyboard{
        QStringLiteral("storyboard"),
        QStringLiteral("draw one keyframe per event tick, or per listed tick"),
        QStringLiteral("Draws the export picture once per keyframe, with the state at that tick, "
                       "as DIR/frame-01.png ... or one page each in a multi-page PDF."),
        QStringLiteral("DIR_OR_PDF"),
        {output(QStringLiteral("DIR_OR_PDF"),
                QStringLiteral("a folder for the frames, or a .pdf with a page per frame")),
         flag(QStringLiteral("every-event"),
              QStringLiteral("a keyframe at every tick where something happens (the default)"),
              [](Invocation *inv) { inv->everyEvent = true; }),
         {{QStringLiteral("at")},
          QStringLiteral("T1,T2,..."),
          QStringLiteral("a keyframe at each listed tick (not with --every-event)"),
          [](const QString &v, Invocation *inv) {
              for (const QString &part : v.split(QLatin1Char(','))) {
                  Core::Tick t = 0;
                  if (!parseTick(part, &t))
                      return QStringLiteral("--at takes ticks (T or T1,T2,...), not \"%1\"").arg(v);
                  inv->ticks.push_back(t);
              }
              return QString();
          }}}};
    storyboard.options.insert(storyboard.options.end(), picture.begin(), picture.end());
    storyboard.options.push_back(help());
    all.push_back(storyboard);

    CommandSpec animate{
        QStringLiteral("animate"),
        QStringLiteral("the run as it plays: an animated GIF, an MP4 or a WebM video"),
        QStringLiteral(
            "Plays the run as presentation mode steps through it, drawn as export draws it: "
            "each step holds long enough to read its caption (2 s and a quarter of a second a "
            "word, unless --step-seconds), the playhead travels to the next step, and the last "
            "frame shows the verdict. With --lesson, a lesson's scenes in order as presentation "
            "mode walks them: each scene's narration held first, its steps, a question held at "
            "its freeze tick with its options A-E and then its reveal, the future hidden as on "
            "the projector (docs/LESSONS.md). GIF (a palette of the theme's colours), H.264 in "
            "MP4 or VP9 in WebM (yuv420p, even width and height, as slide software plays "
            "them)."),
        QStringLiteral("OUT.(gif|mp4|webm)"),
        {output(QStringLiteral("OUT.(gif|mp4|webm)"),
                QStringLiteral("the animation to write; its extension picks the format")),
         number(QStringLiteral("fps"),
                QStringLiteral("frames a second as the playhead travels, %1 to %2 (default %3)")
                    .arg(AnimationLimits::kMinFps)
                    .arg(AnimationLimits::kMaxFps)
                    .arg(AnimationLimits::kDefaultFps),
                AnimationLimits::kMinFps, AnimationLimits::kMaxFps,
                [](Invocation *inv, std::uint64_t n) { inv->fps = int(n); }),
         {{QStringLiteral("step-seconds")},
          QStringLiteral("S"),
          QStringLiteral("how long each step holds, %1 to %2 (default: by its words)")
              .arg(AnimationLimits::kMinStepSeconds)
              .arg(AnimationLimits::kMaxStepSeconds),
          [](const QString &v, Invocation *inv) {
              double seconds = 0;
              if (!parseNumber(v, &seconds, AnimationLimits::kMinStepSeconds,
                               AnimationLimits::kMaxStepSeconds))
                  return QStringLiteral("--step-seconds takes seconds from %1 to %2, not \"%3\"")
                      .arg(AnimationLimits::kMinStepSeconds)
                      .arg(AnimationLimits::kMaxStepSeconds)
                      .arg(v);
              inv->stepSeconds = seconds;
              return QString();
          }},
         number(QStringLiteral("loop"),
                QStringLiteral("GIF: times it plays, 0 for ever (default 0)"), 0,
                AnimationLimits::kMaxLoop,
                [](Invocation *inv, std::uint64_t n) { inv->loop = int(n); }),
         {{QStringLiteral("lesson")},
          QStringLiteral("LESSON"),
          QStringLiteral("a lesson's scenes in order, instead of FILE"),
          [](const QString &v, Invocation *inv) {
              if (v.isEmpty())
                  return QStringLiteral("--lesson needs a lesson file");
              inv->lesson = v;
              return QString();
          },
          false,
          true}}};
    // the picture options but the caption's: each step's caption is the animation's story
    for (const OptionSpec &o : picture) {
        const QString name = o.names.first();
        if (name == QLatin1String("caption") || name == QLatin1String("no-caption"))
            continue;
        OptionSpec option = o;
        if (name == QLatin1String("width"))
            option.description =
                QStringLiteral("width in logical pixels, 320 to 16384 (default %1)")
                    .arg(AnimationLimits::kDefaultWidth);
        if (name == QLatin1String("scale"))
            option.description = QStringLiteral("pixels per logical pixel, 0.25 to 8 (default 1)");
        animate.options.push_back(option);
    }
    animate.options.push_back(help());
    all.push_back(animate);

    all.push_back(
        {QStringLiteral("sweep"),
         QStringLiteral("share of failing schedules as a quantity varies, as CSV or JSON"),
         QStringLiteral(
             "Varies one quantity (and a second one, for a family of curves) over the given "
             "values. At each point it simulates --runs seeded schedules near FILE (its own "
             "actions, each client's in their order, each moved by at most --jitter ticks), or "
             "with --schedules shaped random schedules shaped like FILE (its clients, action "
             "kinds and ranges, keepalives, checks, groups, reads, clocks, storages and lock "
             "options, each action at a random tick), or with --fixed FILE itself, fenced and "
             "unfenced, and counts the schedules with at least one corrupted, locked-out, "
             "rejected or skipped write or half-applied update (partial), with 95% Wilson "
             "intervals and the first and worst such schedule. Quantities: pause, ttl, delay, "
             "clients, keepalive (0: off), gap, clock (a client clock's rate in thousandths: 500 "
             "is half speed), lockDelay, bump. VALUES is FROM..TO, FROM..TO:STEP or V1,V2,... The "
             "numbers depend only on the seed, never on --threads. Prints CSV unless --csv or "
             "--json (whose \"about\" says in a sentence what a point's schedules are, as "
             "stderr does when it is a terminal, with the progress)."),
         QString(),
         {[] {
              OptionSpec vary = axis(QStringLiteral("vary"),
                                     QStringLiteral("the quantity varied along the x axis"), false);
              vary.required = true;
              return vary;
          }(),
          axis(QStringLiteral("vary2"), QStringLiteral("a second quantity: one curve per value"),
               true),
          number(QStringLiteral("runs"), QStringLiteral("seeded schedules per point (default 100)"),
                 1, 10'000'000, [](Invocation *inv, std::uint64_t n) { inv->runs = n; }),
          seed(),
          number(QStringLiteral("threads"), QStringLiteral("threads (default: one per core)"), 1,
                 256, [](Invocation *inv, std::uint64_t n) { inv->threads = int(n); }),
          {{QStringLiteral("schedules")},
           QStringLiteral("KIND"),
           QStringLiteral("near FILE (default), shaped (like it) or fixed (FILE itself)"),
           [](const QString &v, Invocation *inv) {
               inv->schedules = Core::sweepSchedulesFromString(v);
               if (!inv->schedules)
                   return QStringLiteral("--schedules takes near, shaped or fixed, not \"%1\"")
                       .arg(v);
               return QString();
           }},
          number(QStringLiteral("jitter"),
                 QStringLiteral("the most a near schedule moves an action, in ticks (default 1)"),
                 1, Core::kMaxJitter, [](Invocation *inv, std::uint64_t n) { inv->jitter = n; }),
          flag(QStringLiteral("fixed"),
               QStringLiteral("vary FILE itself, one schedule per point (--schedules fixed)"),
               [](Invocation *inv) { inv->fixed = true; }),
          {{QStringLiteral("csv")},
           QStringLiteral("OUT"),
           QStringLiteral(
               "write the CSV to OUT instead of standard output (\"-\": standard output)"),
           [](const QString &v, Invocation *inv) {
               if (v.isEmpty())
                   return QStringLiteral("--csv needs a value");
               inv->csv = v;
               return QString();
           }},
          flag(QStringLiteral("json"), QStringLiteral("print JSON instead of CSV"),
               [](Invocation *inv) { inv->json = true; }),
          help()}});

    all.push_back(
        {QStringLiteral("find"),
         QStringLiteral("find a failing schedule of FILE's shape and shrink it to 1-minimal"),
         QStringLiteral(
             "Searches seeded random schedules shaped like FILE for one with the chosen failure, "
             "shrinks it (drops clients and actions, shortens TTLs, pauses, delays, gaps and "
             "keepalive periods, moves actions earlier) until removing any one action or "
             "shortening any one of them by a tick makes the failure disappear, and saves it as "
             "a scenario file whose "
             "description records the seed, the search and every shrink step. The failure keeps "
             "its story: a corrupted or rejected write must be a stale one (due while its writer "
             "held the lock, arriving after that lease ended), a locked-out write the live "
             "holder's own; --any takes any write the checker gives the outcome. Prints the "
             "steps and the failure's write (on standard error when -o - writes the scenario to "
             "standard output). Exit status 1 when no schedule within --runs fails."),
         QStringLiteral("OUT.json"),
         {output(QStringLiteral("OUT.json"),
                 QStringLiteral("the file to write (\"-\": standard output)")),
          {{QStringLiteral("failure")},
           QStringLiteral("corrupted|lockedOut|rejected|partial|skipped"),
           QStringLiteral("what to look for (default corrupted)"),
           [](const QString &v, Invocation *inv) {
               inv->failure = Core::outcomeIndex(v);
               if (inv->failure < 0)
                   return QStringLiteral("--failure takes corrupted, lockedOut, rejected, partial "
                                         "or skipped, not \"%1\"")
                       .arg(v);
               return QString();
           }},
          fencing(),
          seed(),
          number(QStringLiteral("runs"),
                 QStringLiteral("schedules to try at most (default 100000)"), 1, 100'000'000,
                 [](Invocation *inv, std::uint64_t n) { inv->runs = n; }),
          flag(QStringLiteral("any"), QStringLiteral("any write with the outcome, story or not"),
               [](Invocation *inv) { inv->anyFailure = true; }),
          flag(QStringLiteral("no-shrink"), QStringLiteral("save the schedule found as it is"),
               [](Invocation *inv) { inv->shrink = false; }),
          help()}});

    CommandSpec lessonCheck{
        QStringLiteral("lesson check"),
        QStringLiteral("validate a lesson, run its scenes, print each question's answer"),
        QStringLiteral(
            "Reads the lesson (*.fencescope-lesson.json) and every scene's scenario, runs each "
            "scene and prints each question with its options, the option that holds as the "
            "simulator decides it, the tick the reveal plays to and what happens there. A "
            "question where no option holds, or several do, or whose answer is on screen "
            "before its freeze tick, is an error of the lesson: every such problem is printed "
            "and the exit status is 2, as for a file that does not load."),
        QString(),
        {help()}};
    lessonCheck.fileName = QStringLiteral("LESSON");
    all.push_back(lessonCheck);

    CommandSpec handout{
        QStringLiteral("lesson handout"),
        QStringLiteral("write a lesson's prediction sheet and answer key as a PDF"),
        QStringLiteral(
            "Writes a PDF for the room: each question with its scene's picture frozen at the "
            "freeze tick (nothing after it drawn) and room to write a prediction, then an "
            "answer key with each picture after the reveal, the option that holds and the "
            "explanation. The pictures are export's, on the print theme. No display is "
            "needed."),
        QStringLiteral("SHEET.pdf"),
        {output(QStringLiteral("SHEET.pdf"), QStringLiteral("the PDF to write")),
         flag(QStringLiteral("no-key"), QStringLiteral("leave out the answer key"),
              [](Invocation *inv) { inv->noKey = true; }),
         help()}};
    handout.fileName = QStringLiteral("LESSON");
    all.push_back(handout);

    all.push_back(
        {QStringLiteral("live"),
         QStringLiteral("run FILE on a real etcd and compare it with the prediction"),
         QStringLiteral(
             "Runs the scenario in real time against a real etcd (a throwaway one it starts on "
             "127.0.0.1, or --etcd URL): each client a process of its own, paused with SIGSTOP "
             "and continued with SIGCONT, the lock etcd's concurrency.Mutex recipe, a fenced "
             "write a Txn on max_token. Prints the run report of the observed run, with a "
             "\"live\" member: the etcd version, the tick, the prediction (the scenario with "
             "etcd's revisions as tokens) and every divergence from it, each explained, and "
             "whether reality agreed. With --repeat N it runs N times and reports how often "
             "reality agreed, and where not. Scenarios that cannot run on etcd (ZooKeeper, "
             "Raft, Kafka or Chubby tokens, random or wall-clock tokens, Redlock, restores, "
             "lock-delays, client clocks, storage restarts) are refused with the reason. "
             "Exit status 1 when the run stopped early (etcd or a client died) or etcd is not "
             "installed."),
         QString(),
         {{{QStringLiteral("etcd")},
           QStringLiteral("auto|URL"),
           QStringLiteral("the etcd: auto starts a throwaway one (the default), or the client "
                          "URL of a running one, e.g. http://127.0.0.1:2379"),
           [](const QString &v, Invocation *inv) {
               if (v.isEmpty())
                   return QStringLiteral("--etcd needs a value");
               if (v != QLatin1String("auto") && !v.startsWith(QLatin1String("http://")))
                   return QStringLiteral("--etcd takes auto or an http:// URL, not \"%1\"").arg(v);
               inv->etcd = v == QLatin1String("auto") ? QString() : v;
               return QString();
           }},
          {{QStringLiteral("store")},
           QStringLiteral("etcd|postgres"),
           QStringLiteral(
               "where the storages are: keys in the same etcd (the default), or rows "
               "in a throwaway PostgreSQL, fenced by UPDATE ... WHERE max_token <= token"),
           [](const QString &v, Invocation *inv) {
               if (v != QLatin1String("etcd") && v != QLatin1String("postgres"))
                   return QStringLiteral("--store takes etcd or postgres, not \"%1\"").arg(v);
               inv->postgres = v == QLatin1String("postgres");
               return QString();
           }},
          {{QStringLiteral("tick-ms")},
           QStringLiteral("MS"),
           QStringLiteral("real milliseconds per tick, 200 to 60000 (default: the smallest that "
                          "makes every ttl whole seconds and leaves 600 ms after each lease end)"),
           [](const QString &v, Invocation *inv) {
               double ms = 0;
               if (!parseNumber(v, &ms, 200, 60000) || std::round(ms * 1000) != ms * 1000)
                   return QStringLiteral("--tick-ms takes milliseconds from 200 to 60000 (at "
                                         "most three decimals), not \"%1\"")
                       .arg(v);
               inv->tickMs = ms;
               return QString();
           }},
          fencing(),
          number(QStringLiteral("repeat"),
                 QStringLiteral("run it N times and report how often reality agreed (default 1)"),
                 1, 1000, [](Invocation *inv, std::uint64_t n) { inv->repeat = n; }),
          help()}});
    return all;
}

} // namespace

const std::vector<CommandSpec> &commands()
{
    static const std::vector<CommandSpec> all = makeCommands();
    return all;
}

const CommandSpec *findCommand(const QString &name)
{
    for (const CommandSpec &c : commands()) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

QString commandNames()
{
    QStringList names;
    for (const CommandSpec &c : commands())
        names << c.name;
    return names.join(QLatin1String(", "));
}

} // namespace Cli
