// fencescope-cli: a thin headless client of the simulation core.

#include "exporter.h"
#include "runreport.h"
#include "scenariofile.h"
#include "simulator.h"

#include <QFile>
#include <QGuiApplication>
#include <QStringList>

#include <memory>

#include <cmath>
#include <cstdio>

using namespace Core;

namespace {

const char kUsage[] =
    "usage: fencescope-cli run FILE [--fencing on|off] [--summary]\n"
    "       fencescope-cli check FILE\n"
    "       fencescope-cli export FILE -o OUT.(png|svg|pdf) [--fencing on|off] [--compare]\n"
    "                      [--width PX] [--scale S] [--at TICK] [--from TICK] [--to TICK]\n"
    "                      [--theme light|dark|print|contrast] [--caption TEXT]\n"
    "                      [--no-title] [--no-legend] [--no-caption]\n"
    "       fencescope-cli storyboard FILE -o DIR_OR_PDF [--every-event | --at T1,T2,...]\n"
    "                      [same picture options as export]\n"
    "FILE may be - for standard input. Exit status: 0 done, 2 invalid input or usage, 1 other.\n";

// Exactly one line on stderr, then exit status 2.
int invalid(const QString &message)
{
    const QByteArray line = message.simplified().toUtf8();
    std::fprintf(stderr, "fencescope-cli: %s\n", line.constData());
    return 2;
}

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

int run(const QStringList &args)
{
    QString file;
    bool summary = false;
    std::optional<bool> fencing;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("--summary")) {
            summary = true;
        } else if (a == QLatin1String("--fencing") || a.startsWith(QLatin1String("--fencing="))) {
            QString v;
            if (a.contains(QLatin1Char('=')))
                v = a.section(QLatin1Char('='), 1);
            else if (i + 1 < args.size())
                v = args[++i];
            if (v == QLatin1String("on"))
                fencing = true;
            else if (v == QLatin1String("off"))
                fencing = false;
            else
                return invalid(QStringLiteral("--fencing takes on or off, not \"%1\"").arg(v));
        } else if (a.startsWith(QLatin1Char('-')) && a != QLatin1String("-")) {
            return invalid(QStringLiteral("run: unknown option %1").arg(a));
        } else if (file.isEmpty()) {
            file = a;
        } else {
            return invalid(QStringLiteral("run: one FILE only, got also %1").arg(a));
        }
    }
    if (file.isEmpty())
        return invalid(QStringLiteral("run: missing FILE (usage: fencescope-cli run FILE "
                                      "[--fencing on|off] [--summary])"));
    LoadResult loaded = loadArgument(file);
    if (!loaded.ok())
        return invalid(file + QLatin1String(": ") + loaded.error);
    const Scenario &s = *loaded.scenario;
    const Trace trace = simulate(s, fencing.value_or(s.fencing));
    if (!writeRunReport(stdout, s, trace, summary)) {
        std::fprintf(stderr, "fencescope-cli: cannot write the report to standard output\n");
        return 1;
    }
    return 0;
}

int check(const QStringList &args)
{
    if (args.size() != 1)
        return invalid(QStringLiteral("check: expects exactly one FILE"));
    const LoadResult loaded = loadArgument(args[0]);
    if (!loaded.ok())
        return invalid(args[0] + QLatin1String(": ") + loaded.error);
    const Scenario &s = *loaded.scenario;
    std::printf("%s: ok (\"%s\", %zu clients, %zu storages, %zu actions)\n",
                qPrintable(args[0]), s.title.toUtf8().constData(), s.clients.size(),
                s.storages.size(), s.actionCount());
    return 0;
}

// Picture options shared by export and storyboard. Returns an error message or "".
struct PictureArgs
{
    QString file;
    QString out;
    ExportOptions options;
    bool everyEvent = false;
    std::vector<Core::Tick> ticks; // storyboard --at list
};

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
    const qulonglong v = text.toULongLong(&ok);
    if (!ok || v > Core::kMaxFileInteger)
        return false;
    *out = v;
    return true;
}

QString parsePicture(const QString &command, const QStringList &args, PictureArgs *pa)
{
    const auto value = [&](qsizetype &i, const QString &name, QString *v) {
        if (i + 1 >= args.size())
            return QStringLiteral("%1: %2 needs a value").arg(command, name);
        *v = args[++i];
        return QString();
    };
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        QString v;
        QString error;
        if (a == QLatin1String("-o") || a == QLatin1String("--output")) {
            error = value(i, a, &pa->out);
        } else if (a == QLatin1String("--fencing")) {
            if ((error = value(i, a, &v)).isEmpty()) {
                if (v != QLatin1String("on") && v != QLatin1String("off"))
                    return QStringLiteral("--fencing takes on or off, not \"%1\"").arg(v);
                pa->options.fencing = v == QLatin1String("on");
            }
        } else if (a == QLatin1String("--compare")) {
            pa->options.compare = true;
        } else if (a == QLatin1String("--width")) {
            if ((error = value(i, a, &v)).isEmpty() &&
                !parseNumber(v, &pa->options.width, 320, 16384))
                return QStringLiteral("--width takes pixels from 320 to 16384, not \"%1\"").arg(v);
        } else if (a == QLatin1String("--scale")) {
            if ((error = value(i, a, &v)).isEmpty() && !parseNumber(v, &pa->options.scale, 0.25, 8))
                return QStringLiteral("--scale takes a factor from 0.25 to 8, not \"%1\"").arg(v);
        } else if (a == QLatin1String("--from") || a == QLatin1String("--to")) {
            Core::Tick t = 0;
            if ((error = value(i, a, &v)).isEmpty()) {
                if (!parseTick(v, &t))
                    return QStringLiteral("%1 takes a tick, not \"%2\"").arg(a, v);
                (a == QLatin1String("--from") ? pa->options.fromTick : pa->options.toTick) = double(t);
            }
        } else if (a == QLatin1String("--at")) {
            if ((error = value(i, a, &v)).isEmpty()) {
                const QStringList parts = v.split(QLatin1Char(','));
                for (const QString &part : parts) {
                    Core::Tick t = 0;
                    if (!parseTick(part.trimmed(), &t))
                        return QStringLiteral("--at takes ticks (T or T1,T2,...), not \"%1\"").arg(v);
                    pa->ticks.push_back(t);
                }
                if (command == QLatin1String("export")) {
                    if (pa->ticks.size() != 1)
                        return QStringLiteral("export: --at takes one tick");
                    pa->options.playhead = pa->ticks.front();
                }
            }
        } else if (a == QLatin1String("--every-event")) {
            pa->everyEvent = true;
        } else if (a == QLatin1String("--theme")) {
            if ((error = value(i, a, &v)).isEmpty()) {
                if (!Theme::names().contains(v))
                    return QStringLiteral("--theme takes %1, not \"%2\"")
                        .arg(Theme::names().join(QLatin1String("|")), v);
                pa->options.theme = Theme::byName(v);
            }
        } else if (a == QLatin1String("--caption")) {
            error = value(i, a, &pa->options.caption);
        } else if (a == QLatin1String("--no-title")) {
            pa->options.showTitle = false;
        } else if (a == QLatin1String("--no-legend")) {
            pa->options.showLegend = false;
        } else if (a == QLatin1String("--no-caption")) {
            pa->options.showCaption = false;
        } else if (a.startsWith(QLatin1Char('-')) && a != QLatin1String("-")) {
            return QStringLiteral("%1: unknown option %2").arg(command, a);
        } else if (pa->file.isEmpty()) {
            pa->file = a;
        } else {
            return QStringLiteral("%1: one FILE only, got also %2").arg(command, a);
        }
        if (!error.isEmpty())
            return error;
    }
    if (pa->file.isEmpty())
        return QStringLiteral("%1: missing FILE (try --help)").arg(command);
    if (pa->out.isEmpty())
        return QStringLiteral("%1: missing -o OUTPUT (try --help)").arg(command);
    return {};
}

int exportPicture(const QStringList &args)
{
    PictureArgs pa;
    const QString error = parsePicture(QStringLiteral("export"), args, &pa);
    if (!error.isEmpty())
        return invalid(error);
    if (!Exporter::formatFor(pa.out))
        return invalid(QStringLiteral("export: cannot export to %1: unknown format (use .png, .svg "
                                      "or .pdf)")
                           .arg(pa.out));
    const LoadResult loaded = loadArgument(pa.file);
    if (!loaded.ok())
        return invalid(pa.file + QLatin1String(": ") + loaded.error);
    const QString failed = Exporter::exportTo(pa.out, *loaded.scenario, pa.options);
    if (!failed.isEmpty())
        return invalid(QStringLiteral("export: ") + failed);
    return 0;
}

int storyboard(const QStringList &args)
{
    PictureArgs pa;
    const QString error = parsePicture(QStringLiteral("storyboard"), args, &pa);
    if (!error.isEmpty())
        return invalid(error);
    if (pa.everyEvent && !pa.ticks.empty())
        return invalid(QStringLiteral("storyboard: choose --every-event or --at, not both"));
    const LoadResult loaded = loadArgument(pa.file);
    if (!loaded.ok())
        return invalid(pa.file + QLatin1String(": ") + loaded.error);
    const Core::Scenario &s = *loaded.scenario;
    std::vector<Core::Tick> ticks = pa.ticks;
    if (ticks.empty()) {
        const Core::Trace trace = Core::simulate(s, pa.options.fencing.value_or(s.fencing));
        ticks = Exporter::keyframeTicks(trace);
    }
    QStringList written;
    const QString failed = Exporter::exportStoryboard(pa.out, s, pa.options, ticks, &written);
    if (!failed.isEmpty())
        return invalid(failed);
    for (const QString &f : written)
        std::printf("%s\n", qPrintable(f));
    return 0;
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
    qInstallMessageHandler(quietMessages);
    // Pictures need fonts and a paint engine, not a display: render offscreen unless the
    // user chose a platform.
    const bool pictures = argc > 1 && (qstrcmp(argv[1], "export") == 0 ||
                                       qstrcmp(argv[1], "storyboard") == 0);
    if (pictures && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> app;
    if (pictures)
        app = std::make_unique<QGuiApplication>(argc, argv);
    else
        app = std::make_unique<QCoreApplication>(argc, argv);
    QStringList args = app->arguments().mid(1);
    if (args.isEmpty())
        return invalid(QStringLiteral("missing command (run, check, export, storyboard); try --help"));
    const QString command = args.takeFirst();
    if (command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (command == QLatin1String("--version")) {
        std::printf("fencescope-cli %s\n", FENCESCOPE_VERSION);
        return 0;
    }
    try {
        if (command == QLatin1String("run"))
            return run(args);
        if (command == QLatin1String("check"))
            return check(args);
        if (command == QLatin1String("export"))
            return exportPicture(args);
        if (command == QLatin1String("storyboard"))
            return storyboard(args);
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "fencescope-cli: out of memory\n");
        return 1;
    }
    return invalid(QStringLiteral("unknown command \"%1\" (run, check, export, storyboard); try "
                                  "--help")
                       .arg(command));
}
