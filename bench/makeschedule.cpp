// fencescope-makeschedule: writes a generated, seeded schedule (the one the benchmarks use) as a
// scenario file, for timing the CLI on large files (bench/load.sh).
//   fencescope-makeschedule ACTIONS FILE [SEED]

#include "schedulegenerator.h"
#include "scenariofile.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    bool ok = args.size() == 3 || args.size() == 4;
    const std::size_t actions = ok ? args[1].toULongLong(&ok) : 0;
    bool seedOk = true;
    const std::uint64_t seed = args.size() == 4 ? args[3].toULongLong(&seedOk) : 42;
    if (!ok || !seedOk || actions == 0) {
        std::fprintf(stderr, "usage: fencescope-makeschedule ACTIONS FILE [SEED]\n");
        return 2;
    }
    QString error;
    if (!Core::ScenarioFile::save(Bench::makeSchedule(actions, 6, seed), args[2], &error)) {
        std::fprintf(stderr, "fencescope-makeschedule: %s\n", qPrintable(error));
        return 1;
    }
    return 0;
}
