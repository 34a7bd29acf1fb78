#pragma once

// Scenario file version 1 (SCENARIO.md section 7): JSON <-> Scenario, with errors that name
// the place and the problem, documented limits, and atomic saves.

#include "scenario.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace Core {

struct FileLimits
{
    qint64 maxFileBytes = qint64(256) << 20; // 256 MiB
    std::size_t maxActions = 4'000'000;      // over all clients
    std::size_t maxClients = 1000;
    std::size_t maxStorages = 100;
    int maxDepth = 64; // JSON nesting (a scenario needs 5 levels; kept keys may nest more)
};

struct LoadResult
{
    std::optional<Scenario> scenario;
    QString error; // "place: problem", empty on success

    bool ok() const { return scenario.has_value(); }
};

namespace ScenarioFile {

// Parses the bytes of a scenario file. Never throws, never returns half a scenario.
LoadResult parse(const QByteArray &json, const FileLimits &limits = {});
// Reads and parses a file; errors about the file itself (missing, too large) name it.
LoadResult load(const QString &path, const FileLimits &limits = {});
// Human-readable JSON in the documented key order; parse(serialize(s)) == s.
QByteArray serialize(const Scenario &scenario);
// Atomic: the old file stays intact unless the new one was written completely.
bool save(const Scenario &scenario, const QString &path, QString *error = nullptr);

// Qt resource path of the built-in scenarios ("default" is the seed's own).
QString builtinPath(const QString &name);
// Names of the built-in scenarios in menu order, the default first.
QStringList builtinNames();
// The seed's scenario; never fails (it is compiled in and covered by tests).
Scenario defaultScenario();

} // namespace ScenarioFile
} // namespace Core
