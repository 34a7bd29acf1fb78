// fencescope-cli: a thin headless client of the simulation core.

#include "runreport.h"
#include "scenariofile.h"
#include "simulator.h"

#include <QCoreApplication>
#include <QFile>
#include <QStringList>

#include <cstdio>

using namespace Core;

namespace {

const char kUsage[] =
    "usage: fencescope-cli run FILE [--fencing on|off] [--summary]\n"
    "       fencescope-cli check FILE\n"
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

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    if (args.isEmpty())
        return invalid(QStringLiteral("missing command (run, check); try --help"));
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
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "fencescope-cli: out of memory\n");
        return 1;
    }
    return invalid(QStringLiteral("unknown command \"%1\" (run, check); try --help").arg(command));
}
