// fencescope-cli: a thin headless client of the simulation core. Its commands and options are
// defined once, in clicommands.cpp.
//
// This file is built twice (app/CMakeLists.txt): as fencescope-cli, on QtCore alone, and as its
// picture helper (FENCESCOPE_CLI_PICTURES), which also draws with QtGui and encodes with FFmpeg.
// Loading those libraries would make every command's start-up several times as long
// (docs/ARCHITECTURE.md, "The CLI"), so fencescope-cli hands export, storyboard, animate and
// lesson handout to the helper, and every other command runs without it. `live` goes to the
// live helper (app/livehelper.cpp) the same way.

#include "clicommands.h"
#include "clilesson.h"
#include "clioutput.h"
#include "runreport.h"
#include "savefile.h"
#include "scenariofile.h"
#include "shrink.h"
#include "simulator.h"
#include "sweepreport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QStringList>

#if FENCESCOPE_CLI_PICTURES
#include "animation.h"
#include "exporter.h"

#include <QGuiApplication>
#endif

#include <memory>
#include <string>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace Core;
using Cli::invalid;
using Cli::isStandardStream;
using Cli::writeAll;

namespace {

LoadResult loadArgument(const QString &file)
{
    if (file == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            return {std::nullopt, QStringLiteral("file: cannot read standard input")};
        return ScenarioFile::parse(in.readAll());
    }
    return ScenarioFile::load(file);
}

int run(const Cli::Invocation &inv)
{
    const QString &file = inv.files.first();
    LoadResult loaded = loadArgument(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    const Scenario &s = *loaded.scenario;
    const bool fencing = inv.fencing.value_or(s.fencing);
    Trace trace;
    if (inv.summary) // the report reads only fencing, tokens, finals and the summary
        Simulator(Simulator::kNoCheckpoints).summarize(s, fencing, trace);
    else
        trace = simulate(s, fencing);
    if (!writeRunReport(stdout, s, trace, inv.summary)) {
        std::fprintf(stderr, "fencescope-cli: cannot write the report to standard output\n");
        return 1;
    }
    // A large scenario and its trace are left for the process's exit to take back: freeing a
    // million actions one by one is a visible share of a `run --summary` (docs/PERFORMANCE.md).
    // They stay reachable until then, so no leak checker counts them.
    if (s.actionCount() >= 100000) {
        static const LoadResult *const leftLoaded = new LoadResult(std::move(loaded));
        static const Trace *const leftTrace = new Trace(std::move(trace));
        Q_UNUSED(leftLoaded);
        Q_UNUSED(leftTrace);
    }
    return 0;
}

// A check reads every action as run would, without keeping them: a large file is checked in
// a fraction of the memory and time.
int check(const Cli::Invocation &inv)
{
    const QString &file = inv.files.first();
    CheckResult checked;
    if (file == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            checked.error = QStringLiteral("file: cannot read standard input");
        else
            checked = ScenarioFile::checkBytes(in.readAll());
    } else {
        checked = ScenarioFile::checkFile(file);
    }
    if (!checked.ok())
        return invalid(file + QLatin1String(": ") + checked.error);
    std::printf("%s: ok (\"%s\", %zu clients, %zu storages, %zu actions)\n", qPrintable(file),
                checked.title.toUtf8().constData(), checked.clients, checked.storages,
                checked.actions);
    return 0;
}

#if FENCESCOPE_CLI_PICTURES
// What the command line asks to draw, over ExportOptions' defaults.
ExportOptions pictureOptions(const Cli::Invocation &inv)
{
    const Cli::PictureArgs &a = inv.picture;
    ExportOptions o;
    o.fencing = inv.fencing;
    o.compare = a.compare;
    o.width = a.width.value_or(o.width);
    o.scale = a.scale.value_or(o.scale);
    o.fromTick = a.fromTick;
    o.toTick = a.toTick;
    o.playhead = a.playhead.value_or(o.playhead);
    if (!a.theme.isEmpty())
        o.theme = Theme::byName(a.theme);
    o.caption = a.caption;
    o.showTitle = !a.noTitle;
    o.showLegend = !a.noLegend;
    o.showCaption = !a.noCaption;
    o.slide = a.slide;
    return o;
}

// The runs a picture of `s` with `o` draws, simulated once here (the exporter simulates
// nothing): the run shown and, in compare mode, the unfenced one.
struct PictureRuns
{
    Core::Trace shown;
    Core::Trace unfenced;
    bool compare = false;
    ExportRuns runs() const { return {shown, compare ? &unfenced : nullptr}; }
};

PictureRuns simulatePicture(const Core::Scenario &s, const ExportOptions &o)
{
    PictureRuns r;
    r.shown = Core::simulate(s, Exporter::shownFencing(s, o));
    r.compare = o.compare;
    if (o.compare)
        r.unfenced = Core::simulate(s, false);
    return r;
}

int exportPicture(const Cli::Invocation &inv)
{
    if (isStandardStream(inv.output))
        return invalid(QStringLiteral("export: cannot write a picture to standard output (give a "
                                      "file ending in .png, .svg or .pdf)"));
    if (!Exporter::formatFor(inv.output))
        return invalid(QStringLiteral("export: cannot export to %1: unknown format (use .png, .svg "
                                      "or .pdf)")
                           .arg(inv.output));
    const QString &file = inv.files.first();
    const LoadResult loaded = loadArgument(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    const ExportOptions o = pictureOptions(inv);
    const PictureRuns runs = simulatePicture(*loaded.scenario, o);
    const QString failed = Exporter::exportTo(inv.output, *loaded.scenario, runs.runs(), o);
    if (!failed.isEmpty())
        return invalid(QStringLiteral("export: ") + failed);
    return 0;
}

int storyboard(const Cli::Invocation &inv)
{
    if (inv.everyEvent && !inv.ticks.empty())
        return invalid(QStringLiteral("storyboard: choose --every-event or --at, not both"));
    if (isStandardStream(inv.output))
        return invalid(QStringLiteral("storyboard: cannot write pictures to standard output (give "
                                      "a folder or a file ending in .pdf)"));
    const QString &file = inv.files.first();
    const LoadResult loaded = loadArgument(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    const Core::Scenario &s = *loaded.scenario;
    const ExportOptions o = pictureOptions(inv);
    const PictureRuns runs = simulatePicture(s, o);
    std::vector<Core::Tick> ticks = inv.ticks;
    if (ticks.empty()) // the steps of the run with the picture's fencing switch
        ticks = Exporter::keyframeTicks(
            s, o.compare && !inv.fencing.value_or(s.fencing) ? runs.unfenced : runs.shown);
    QStringList written;
    const QString failed =
        Exporter::exportStoryboard(inv.output, s, runs.runs(), o, ticks, &written);
    if (!failed.isEmpty())
        return invalid(failed);
    for (const QString &f : written)
        std::printf("%s\n", qPrintable(f));
    return 0;
}

int animate(const Cli::Invocation &inv)
{
    if (isStandardStream(inv.output))
        return invalid(QStringLiteral("animate: cannot write an animation to standard output "
                                      "(give a file ending in .gif, .mp4 or .webm)"));
    const std::optional<AnimationOptions::Format> format = Animation::formatFor(inv.output);
    if (!format)
        return invalid(QStringLiteral("animate: cannot export to %1: unknown format (use .gif, "
                                      ".mp4 or .webm)")
                           .arg(inv.output));
    if (inv.loop && *format != AnimationOptions::Format::Gif)
        return invalid(QStringLiteral("animate: --loop is for a GIF (a video's player decides "
                                      "whether it loops)"));
    if (!inv.lesson.isEmpty() && (inv.picture.fromTick || inv.picture.toTick))
        return invalid(QStringLiteral("animate: --from and --to are for a scenario (each scene of "
                                      "a lesson shows the range its view gives)"));
    if (!inv.lesson.isEmpty() && inv.picture.compare)
        return invalid(QStringLiteral("animate: --compare is for a scenario (each scene of a "
                                      "lesson compares as its view says)"));
    if (!inv.lesson.isEmpty() && inv.fencing)
        return invalid(QStringLiteral("animate: --fencing is for a scenario (each scene of a "
                                      "lesson runs with its view's switch)"));
    AnimationOptions options;
    options.picture = pictureOptions(inv);
    options.picture.width = inv.picture.width.value_or(AnimationLimits::kDefaultWidth);
    options.picture.playhead = Core::kForever;
    options.fps = inv.fps.value_or(options.fps);
    options.stepSeconds = inv.stepSeconds;
    options.loop = inv.loop.value_or(0);
    QString failed;
    if (!inv.lesson.isEmpty()) {
        const Core::LessonLoadResult lesson = Cli::loadLesson(inv.lesson);
        if (!lesson.ok())
            return invalid(inv.lesson + QLatin1String(": ") + lesson.error);
        failed = Animation::exportLesson(inv.output, *lesson.lesson, options);
    } else {
        const QString &file = inv.files.first();
        const LoadResult loaded = loadArgument(file);
        if (!loaded.ok())
            return invalid(file + QLatin1String(": ") + loaded.error);
        failed = Animation::exportTo(inv.output, *loaded.scenario, options);
    }
    if (!failed.isEmpty())
        return invalid(QStringLiteral("animate: ") + failed);
    return 0;
}
#else
// export, storyboard and animate in the picture helper, live in the live helper: `relative` to
// this program's folder (the build tree and an install lay them out alike). It gets the same
// arguments and gives the exit status.
int runHelper(const char *command, const char *what, const char *relative, char **argv)
{
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    std::string helper = relative;
    if (n > 0) {
        const std::string program(self, std::size_t(n));
        helper = program.substr(0, program.rfind('/') + 1) + helper;
    }
    execv(helper.c_str(), argv);
    std::fprintf(stderr, "fencescope-cli: %s: cannot start the %s %s: %s\n", command, what,
                 helper.c_str(), std::strerror(errno));
    return 1;
}
#endif

// "sweep: 42% (117600 of 280000 schedules)" over and over on one line, only on a terminal.
class Progress
{
public:
    explicit Progress(const char *command)
        : m_command(command), m_shown(isatty(fileno(stderr)) != 0)
    {
    }
    ~Progress() { clear(); }
    void show(std::uint64_t done, std::uint64_t total, const char *unit)
    {
        if (!m_shown || total == 0)
            return;
        std::fprintf(stderr, "\r%s: %3d%% (%llu of %llu %s)", m_command, int(done * 100 / total),
                     static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                     unit);
        std::fflush(stderr);
        m_dirty = true;
    }
    void clear()
    {
        if (m_dirty)
            std::fputs("\r\033[K", stderr);
        m_dirty = false;
    }
    // A line that stays, above the progress.
    void say(const QString &line)
    {
        if (!m_shown)
            return;
        clear();
        std::fprintf(stderr, "%s\n", line.toUtf8().constData());
    }

private:
    const char *m_command;
    bool m_shown;
    bool m_dirty = false;
};

int sweep(const Cli::Invocation &inv)
{
    if (inv.json && !inv.csv.isEmpty())
        return invalid(QStringLiteral("sweep: choose --csv or --json, not both"));
    if (inv.fixed && inv.schedules && *inv.schedules != SweepSchedules::Fixed)
        return invalid(QStringLiteral("sweep: --fixed is --schedules fixed, not --schedules %1")
                           .arg(toString(*inv.schedules)));
    const SweepSchedules schedules =
        inv.fixed ? SweepSchedules::Fixed : inv.schedules.value_or(SweepSchedules::Near);
    if (schedules == SweepSchedules::Fixed && inv.runs != 0)
        return invalid(
            QStringLiteral("sweep: %1 runs FILE itself once per point, not --runs "
                           "schedules")
                .arg(inv.fixed ? QStringLiteral("--fixed") : QStringLiteral("--schedules fixed")));
    if (schedules != SweepSchedules::Near && inv.jitter)
        return invalid(QStringLiteral("sweep: --jitter moves the actions of near schedules, not "
                                      "of --schedules %1")
                           .arg(toString(schedules)));
    const QString &file = inv.files.first();
    LoadResult loaded = loadArgument(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    SweepSpec spec;
    spec.scenario = std::move(*loaded.scenario);
    spec.vary = inv.vary;
    spec.vary2 = inv.vary2;
    spec.schedules = schedules;
    spec.jitter = inv.jitter.value_or(1);
    spec.runs = inv.runs ? std::uint32_t(inv.runs) : 100;
    spec.seed = inv.seed;
    const QString error = validate(spec);
    if (!error.isEmpty())
        return invalid(QStringLiteral("sweep: ") + error);
    SweepResult result;
    Progress progress("sweep");
    // what a point's schedules are, for the person watching (the JSON says it too)
    progress.say(schedulesSentence(spec));
    runSweep(spec, &result, inv.threads, nullptr,
             [&](const SweepProgress &p) { progress.show(p.schedules, p.total, "schedules"); });
    progress.clear();
    const QByteArray text = inv.json ? sweepJson(spec, result) : sweepCsv(spec, result);
    if (!inv.csv.isEmpty() && !isStandardStream(inv.csv)) {
        if (const std::optional<SaveFailure> failed = saveWhole(inv.csv, text))
            return invalid(QStringLiteral("sweep: ") + cannotWrite(inv.csv, *failed));
        return 0;
    }
    return writeAll(stdout, text) ? 0 : 1;
}

int find(const Cli::Invocation &inv)
{
    const QString &file = inv.files.first();
    LoadResult loaded = loadArgument(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    const Scenario &shape = *loaded.scenario;
    if (shape.clients.empty() || shape.actionCount() == 0)
        return invalid(QStringLiteral("find: %1 has no actions to draw schedules from").arg(file));
    const FailureTarget target{std::size_t(inv.failure), inv.fencing.value_or(shape.fencing),
                               inv.anyFailure};
    const std::uint64_t tries = inv.runs ? inv.runs : 100000;
    const QString what =
        QStringLiteral("%1 with fencing %2")
            .arg(targetText(target), target.fencing ? QStringLiteral("on") : QStringLiteral("off"));
    const FindResult found = findFailure(shape, target, inv.seed, tries);
    if (!found.schedule) {
        std::fprintf(stderr, "fencescope-cli: find: no %s in %llu schedules of seed %llu\n",
                     what.toUtf8().constData(), static_cast<unsigned long long>(found.tried),
                     static_cast<unsigned long long>(inv.seed));
        return 1;
    }
    Scenario out = *found.schedule;
    QStringList lines{QStringLiteral("found schedule %1 of seed %2 (a %3, %4 actions) after %5 "
                                     "tries")
                          .arg(found.run)
                          .arg(inv.seed)
                          .arg(what)
                          .arg(out.actionCount())
                          .arg(found.tried)};
    if (inv.shrink) {
        const ShrinkResult shrunk = shrink(out, target);
        lines << QStringLiteral("shrunk to %1 actions in %2 steps (%3 simulations):")
                     .arg(shrunk.shrunk.actionCount())
                     .arg(shrunk.steps.size())
                     .arg(shrunk.simulations);
        for (std::size_t i = 0; i < shrunk.steps.size(); ++i)
            lines << QStringLiteral("  %1. %2").arg(i + 1).arg(shrunk.steps[i].text);
        out = describedResult(out, shrunk);
    }
    lines << QStringLiteral("the failure: ") + explainFailure(out, target);
    const QByteArray text = lines.join(QLatin1Char('\n')).toUtf8() + '\n';
    if (isStandardStream(inv.output)) {
        // the scenario is the output; what was found goes beside it, on standard error
        if (!writeAll(stdout, ScenarioFile::serialize(out)))
            return 1;
        return writeAll(stderr, text) ? 0 : 1;
    }
    QString failed;
    if (!ScenarioFile::save(out, inv.output, &failed))
        return invalid(QStringLiteral("find: cannot write %1: %2").arg(inv.output, failed));
    return writeAll(stdout, text) ? 0 : 1;
}

int unknownCommand(const QString &command)
{
    return invalid(QStringLiteral("unknown command \"%1\" (%2); try --help")
                       .arg(command, Cli::commandNames()));
}

} // namespace

// The CLI promises exactly one line on stderr for an error: Qt's own chatter (e.g. about
// XDG_RUNTIME_DIR on a headless machine) must not add lines. Critical messages still pass.
void quietMessages(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtCriticalMsg || type == QtFatalMsg)
        std::fprintf(stderr, "fencescope-cli: %s\n", message.simplified().toUtf8().constData());
}

int main(int argc, char **argv)
{
    // the command is the first argument (after "--", which ends the options it has none of)
    const int first = argc > 1 && qstrcmp(argv[1], "--") == 0 ? 2 : 1;
    const bool pictures =
        argc > first &&
        (qstrcmp(argv[first], "export") == 0 || qstrcmp(argv[first], "storyboard") == 0 ||
         qstrcmp(argv[first], "animate") == 0 ||
         (qstrcmp(argv[first], "lesson") == 0 && argc > first + 1 &&
          qstrcmp(argv[first + 1], "handout") == 0));
#if !FENCESCOPE_CLI_PICTURES
    if (pictures)
        return runHelper(argv[first], "picture helper", FENCESCOPE_PICTURE_HELPER, argv);
    // live runs on QtNetwork, whose libraries (Kerberos, libproxy, ...) would more than double
    // the start-up of every other command
    if (argc > first && qstrcmp(argv[first], "live") == 0)
        return runHelper(argv[first], "live helper", FENCESCOPE_LIVE_HELPER, argv);
#endif
    qInstallMessageHandler(quietMessages);
    std::unique_ptr<QCoreApplication> app;
#if FENCESCOPE_CLI_PICTURES
    // Pictures need fonts and a paint engine, not a display: render offscreen unless the
    // user chose a platform.
    if (pictures && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (pictures)
        app = std::make_unique<QGuiApplication>(argc, argv);
#endif
    if (!app)
        app = std::make_unique<QCoreApplication>(argc, argv);

    // The command's own options come after its name: everything from there on is its own.
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")},
                                        QStringLiteral("show this help"));
    const QCommandLineOption versionOption(QStringLiteral("version"),
                                           QStringLiteral("print the version"));
    parser.addOption(helpOption);
    parser.addOption(versionOption);
    if (!parser.parse(app->arguments())) {
        const QStringList unknown = parser.unknownOptionNames();
        if (unknown.isEmpty())
            return invalid(parser.errorText());
        return invalid(
            QStringLiteral("unknown option %1%2; try --help")
                .arg(unknown.first().size() == 1 ? QLatin1String("-") : QLatin1String("--"),
                     unknown.first()));
    }
    if (parser.isSet(versionOption)) {
        std::printf("fencescope-cli %s\n", FENCESCOPE_VERSION);
        return 0;
    }
    QStringList args = parser.positionalArguments();
    if (parser.isSet(helpOption)) {
        std::fputs(qPrintable(Cli::overviewHelp()), stdout);
        return 0;
    }
    if (args.isEmpty())
        return invalid(QStringLiteral("missing command (%1); try --help").arg(Cli::commandNames()));
    QString command = args.takeFirst();
    // a command of two words: lesson check, lesson handout
    if (command == QLatin1String("lesson") && !args.isEmpty() &&
        !args.first().startsWith(QLatin1Char('-')))
        command += QLatin1Char(' ') + args.takeFirst();
    if (command == QLatin1String("help")) {
        if (args.isEmpty()) {
            std::fputs(qPrintable(Cli::overviewHelp()), stdout);
            return 0;
        }
        if (args.size() >= 2 && args.first() == QLatin1String("lesson"))
            args.replace(0, args.first() + QLatin1Char(' ') + args.takeAt(1));
        const Cli::CommandSpec *spec = Cli::findCommand(args.first());
        if (!spec || args.size() > 1)
            return spec
                       ? invalid(QStringLiteral("help: one COMMAND only, got also %1").arg(args[1]))
                       : unknownCommand(args.first());
        std::fputs(qPrintable(Cli::commandHelp(*spec)), stdout);
        return 0;
    }
    if (command == QLatin1String("lesson"))
        return invalid(QStringLiteral("lesson: missing what to do (lesson check LESSON, or lesson "
                                      "handout LESSON -o SHEET.pdf); try --help"));
    const Cli::CommandSpec *spec = Cli::findCommand(command);
    if (!spec)
        return unknownCommand(command);
    try {
        Cli::Invocation inv;
        const QString error = Cli::parse(*spec, args, &inv);
        if (!error.isEmpty())
            return invalid(error);
        if (inv.help) {
            std::fputs(qPrintable(Cli::commandHelp(*spec)), stdout);
            return 0;
        }
        if (command == QLatin1String("run"))
            return run(inv);
        if (command == QLatin1String("check"))
            return check(inv);
#if FENCESCOPE_CLI_PICTURES
        if (command == QLatin1String("export"))
            return exportPicture(inv);
        if (command == QLatin1String("storyboard"))
            return storyboard(inv);
        if (command == QLatin1String("animate"))
            return animate(inv);
#endif
        if (command == QLatin1String("sweep"))
            return sweep(inv);
        if (command == QLatin1String("lesson check"))
            return Cli::lessonCheck(inv);
#if FENCESCOPE_CLI_PICTURES
        if (command == QLatin1String("lesson handout"))
            return Cli::lessonHandout(inv);
#endif
        if (command == QLatin1String("find"))
            return find(inv);
        return invalid(
            QStringLiteral("%1: runs in its own helper, through fencescope-cli").arg(command));
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "fencescope-cli: out of memory\n");
        return 1;
    }
}
