// fencescope-live: the live helper, installed beside the picture helper. Two jobs:
// - `fencescope-cli live ...`, handed over whole by fencescope-cli (which loads no QtNetwork:
//   cli.cpp says why), parsed from the same command table (clicommands.cpp);
// - `--lane`: one client lane of a live run, started by the run's coordinator (this helper's
//   live command, or the app's Simulation > Run on etcd). Its script comes on standard input,
//   then the run's start; it reports on standard output; standard input's end ends it.

#include "clicommands.h"
#include "lane.h"
#include "livereport.h"
#include "liverun.h"
#include "runreport.h"
#include "scenariofile.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QSocketNotifier>

#include <cmath>
#include <cstdio>
#include <memory>
#include <unistd.h>

namespace {

int invalid(const QString &message)
{
    std::fprintf(stderr, "fencescope-cli: %s\n", message.simplified().toUtf8().constData());
    return 2;
}

int failed(const QString &message)
{
    std::fprintf(stderr, "fencescope-cli: %s\n", message.simplified().toUtf8().constData());
    return 1;
}

void quietMessages(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtCriticalMsg || type == QtFatalMsg)
        std::fprintf(stderr, "fencescope-live: %s\n", message.simplified().toUtf8().constData());
}

void report(const QJsonObject &event)
{
    const QByteArray line = QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n';
    std::fwrite(line.constData(), 1, std::size_t(line.size()), stdout);
    std::fflush(stdout);
}

int lane(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    std::unique_ptr<Live::Lane> lane;
    QByteArray pending;
    QSocketNotifier input(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&input, &QSocketNotifier::activated, &app, [&] {
        char buffer[8192];
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n <= 0) { // the run is over
            input.setEnabled(false);
            app.quit();
            return;
        }
        pending.append(buffer, n);
        for (qsizetype nl; (nl = pending.indexOf('\n')) >= 0;) {
            const QJsonObject line = QJsonDocument::fromJson(pending.left(nl)).object();
            pending.remove(0, nl + 1);
            if (!lane) {
                QString error;
                const std::optional<Live::LaneScript> script =
                    Live::LaneScript::fromJson(line, &error);
                if (!script) {
                    report({{QStringLiteral("ev"), QStringLiteral("error")},
                            {QStringLiteral("message"), error}});
                    app.exit(1);
                    return;
                }
                lane = std::make_unique<Live::Lane>(*script, report);
                QObject::connect(lane.get(), &Live::Lane::failed, &app, [&app] { app.exit(1); });
                lane->prepare();
            } else {
                lane->start(line.value(QLatin1String("t0")).toString().toLongLong());
            }
        }
    });
    return app.exec();
}

Core::LoadResult loadArgument(const QString &file)
{
    if (file == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            return {std::nullopt, QStringLiteral("file: cannot read standard input")};
        return Core::ScenarioFile::parse(in.readAll());
    }
    return Core::ScenarioFile::load(file);
}

// "live: t=12 of 40, real 3.6 s" over and over on one line, only on a terminal.
void showProgress(Core::Tick tick, Core::Tick of, double seconds, int run, int runs)
{
    if (!isatty(fileno(stderr)))
        return;
    const QString prefix =
        runs > 1 ? QStringLiteral("run %1 of %2, ").arg(run).arg(runs) : QString();
    std::fprintf(stderr, "\rlive: %st=%llu of %llu, real %.1f s\033[K", prefix.toUtf8().constData(),
                 static_cast<unsigned long long>(tick), static_cast<unsigned long long>(of),
                 seconds);
    std::fflush(stderr);
}

void clearProgress()
{
    if (isatty(fileno(stderr)))
        std::fputs("\r\033[K", stderr);
}

int live(int argc, char **argv)
{
    qInstallMessageHandler(quietMessages);
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments();
    args.removeFirst();
    if (!args.isEmpty() && args.first() == QLatin1String("--"))
        args.removeFirst();
    if (args.isEmpty() || args.first() != QLatin1String("live"))
        return invalid(QStringLiteral("fencescope-live runs `live` and client lanes (--lane)"));
    args.removeFirst();
    const Cli::CommandSpec &spec = *Cli::findCommand(QStringLiteral("live"));
    Cli::Invocation inv;
    const QString error = Cli::parse(spec, args, &inv);
    if (!error.isEmpty())
        return invalid(error);
    if (inv.help) {
        std::fputs(qPrintable(Cli::commandHelp(spec)), stdout);
        return 0;
    }
    const QString &file = inv.files.first();
    const Core::LoadResult loaded = loadArgument(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    const Core::Scenario &s = *loaded.scenario;
    Live::LiveOptions options;
    options.etcd = QUrl(inv.etcd);
    options.store = inv.postgres ? Live::Store::Postgres : Live::Store::Etcd;
    if (inv.tickMs)
        options.tickUs = qint64(std::llround(*inv.tickMs * 1000));
    options.fencing = inv.fencing;
    options.laneProgram = QCoreApplication::applicationFilePath();
    bool refused = false;
    const QString problem = Live::LiveRun::check(s, options, nullptr, &refused);
    if (!problem.isEmpty())
        return refused ? invalid(QStringLiteral("live: %1: %2").arg(file, problem))
                       : failed(QStringLiteral("live: %1").arg(problem));

    std::vector<Live::LiveResult> results;
    const int runs = int(inv.repeat);
    for (int r = 1; r <= runs; ++r) {
        Live::LiveRun run(s, options);
        QEventLoop loop;
        QObject::connect(&run, &Live::LiveRun::progress, &loop,
                         [r, runs](Core::Tick t, Core::Tick of, double seconds) {
                             showProgress(t, of, seconds, r, runs);
                         });
        QObject::connect(&run, &Live::LiveRun::finished, &loop,
                         [&](const Live::LiveResult &result) {
                             results.push_back(result);
                             loop.quit();
                         });
        run.start();
        loop.exec();
        clearProgress();
        const Live::LiveResult &result = results.back();
        if (!result.ran())
            return result.refused ? invalid(QStringLiteral("live: %1: %2").arg(file, result.error))
                                  : failed(QStringLiteral("live: %1").arg(result.error));
    }
    bool stopped = false;
    for (const Live::LiveResult &r : results)
        if (!r.complete) {
            std::fprintf(stderr, "fencescope-cli: live: the run stopped: %s\n",
                         r.stopped.toUtf8().constData());
            stopped = true;
        }
    if (runs == 1) {
        const Live::LiveResult &r = results.front();
        if (!Core::writeRunReport(stdout, r.scenario, r.observed, false, Live::liveSection(r)))
            return failed(QStringLiteral("cannot write the report to standard output"));
    } else {
        const QByteArray text = Live::repeatReport(s, results);
        if (std::fwrite(text.constData(), 1, std::size_t(text.size()), stdout) !=
                std::size_t(text.size()) ||
            std::fflush(stdout) != 0)
            return failed(QStringLiteral("cannot write the report to standard output"));
    }
    return stopped ? 1 : 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && qstrcmp(argv[1], "--lane") == 0)
        return lane(argc, argv);
    return live(argc, argv);
}
