#pragma once

// Scenario file version 1 (docs/SCENARIO.md section 7): JSON <-> Scenario, with errors that name
// the place and the problem, documented limits, and atomic saves.
//
// The keys of sections 11 and 12 (keepalive, check, gap, group, read; a client's clock and
// bypass; a storage's check, maxToken and restarts) are read by the same loader, where these
// points are ours to decide:
// - a clock's rate is judged by its decimal value as written, exactly: 1.500, 1.5e0 and 15e-1
//   are all 1.5; 0.0005 and 0.1000000000000000001 have more than three decimals;
// - a clock's steps are sorted by `at` (steps at one tick keep the file's order) and a
//   storage's restarts by tick, as the simulator reads them; duplicates are kept;
// - a key of one kind of action on another is an error naming it (keepalive on a write), while
//   the v1 keys of another kind stay kept unknown keys (a ttl on a write), as before;
// - a clock and a clock step take no unknown keys (like the lock's restores);
// - save writes each of these keys only when it differs from its default.

#include "scenario.h"

#include <QByteArray>
#include <QString>
#include <QStringView>

#include <cstdint>
#include <optional>
#include <vector>

namespace Core {

struct FileLimits
{
    qint64 maxFileBytes = qint64(256) << 20; // 256 MiB
    std::size_t maxActions = 4'000'000;      // over all clients
    std::size_t maxClients = 1000;
    std::size_t maxStorages = 100;
    int maxDepth = 64; // JSON nesting (a scenario needs 5 levels; kept keys may nest more)
    // How a large file is read (the result is the same either way): from `partsFrom` bytes on,
    // by `parts` threads at once (0: one for each core, at most 4), in chunks of about
    // `partBytes` bytes of actions (docs/ARCHITECTURE.md, "The loader").
    qint64 partsFrom = qint64(4) << 20;
    int parts = 0;
    std::size_t partBytes = std::size_t(128) << 10;
};

struct LoadResult
{
    std::optional<Scenario> scenario;
    QString error; // "place: problem", empty on success

    bool ok() const { return scenario.has_value(); }
};

// What a check reports of a file that loads: the counts `fencescope-cli check` prints.
struct CheckResult
{
    QString error; // exactly load()'s error for the same bytes, empty when they load
    QString title;
    std::size_t clients = 0;
    std::size_t storages = 0;
    std::size_t actions = 0;

    bool ok() const { return error.isEmpty(); }
};

// A clock's rate as the file writes it, in thousandths (1000 is the lock service's own speed):
// `text` must be a JSON number (no sign, no spaces around it) from 0.001 to 100 with at most
// three decimals, judged on its decimal digits exactly, as the loader judges a client's
// clock.rate (1.500, 1.5e0 and 15e-1 are all 1500; 0.0005 is refused). Otherwise empty, with
// *error (when given) set to the loader's wording: "must be a number ..., not <text>".
std::optional<std::uint32_t> parseRateText(QStringView text, QString *error = nullptr);
// A rate in thousandths as the file writes it, the shortest decimal: 1500 is "1.5", 1 is
// "0.001", 100000 is "100". parseRateText(rateText(m)) == m for every rate it accepts.
QString rateText(std::uint32_t milli);

namespace ScenarioFile {

// Parses the bytes of a scenario file. Never throws, never returns half a scenario.
LoadResult parse(const QByteArray &json, const FileLimits &limits = {});
// Reads and parses a file; errors about the file itself (missing, too large) name it.
LoadResult load(const QString &path, const FileLimits &limits = {});
// parse() and load() without keeping the actions: each is read into one scratch action by the
// same reader, with the same checks, limits and messages, and counted. Much less memory for a
// large file (nothing per action), and no page of it to clear.
CheckResult checkBytes(const QByteArray &json, const FileLimits &limits = {});
CheckResult checkFile(const QString &path, const FileLimits &limits = {});
// Human-readable JSON in the documented key order; parse(serialize(s)) == s.
QByteArray serialize(const Scenario &scenario);
// Atomic: the old file stays intact unless the new one was written completely.
bool save(const Scenario &scenario, const QString &path, QString *error = nullptr);

// Qt resource path of the built-in scenarios ("default" is the seed's own).
QString builtinPath(const QString &name);
// Names of the built-in scenarios in menu order, the default first.
QStringList builtinNames();
// The built-in scenarios as a course takes them: the basics, where tokens come from, how
// fencing goes wrong; every built-in scenario is in exactly one group (one not placed in the
// table is in a last group, "More").
struct BuiltinGroup
{
    QString title;
    QStringList names;
};
std::vector<BuiltinGroup> builtinGroups();
// The seed's scenario; never fails (it is compiled in and covered by tests).
Scenario defaultScenario();

} // namespace ScenarioFile
} // namespace Core
