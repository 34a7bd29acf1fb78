// ScenarioFile's entry points: a file or bytes to a Scenario (or to a check's counts), with the
// file's own problems (missing, too large, UTF-16) named before its content is read; only a
// file that fails is looked at a second time (jsonsyntax.cpp) to word a syntax error with its
// line and column. The reader is scenariofileread.cpp, the writer scenariofilewrite.cpp; a large
// file is read in parts by the speed machinery in fastload/, behind one call (FastLoad::read).

#include "scenariofile.h"

#include "fastload/fastload.h"
#include "jsonsyntax.h"
#include "lockoptionsfile.h"
#include "scenariofileread.h"
#include "scenariofilevalues.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <string_view>

namespace Core {
namespace {

using namespace ScenarioFormat;

QString mib(qint64 bytes)
{
    return QString::number(double(bytes) / double(1 << 20), 'f', 1) + QStringLiteral(" MiB");
}

QString tooLarge(qint64 size, const FileLimits &limits)
{
    return QStringLiteral("file: too large (%1; the limit is %2)")
        .arg(mib(size), mib(limits.maxFileBytes));
}

// `data` is followed by at least SIMDJSON_PADDING readable bytes. With a tally, the scenario
// returned has clients without actions (for check(), which only counts it).
LoadResult parsePadded(const char *data, std::size_t size, const FileLimits &limits,
                       ActionTally *tally)
{
    LoadResult result;
    if (qint64(size) > limits.maxFileBytes) {
        result.error = tooLarge(qint64(size), limits);
        return result;
    }
    const std::string_view head(data, std::min<std::size_t>(size, 3));
    if (head.substr(0, 2) == "\xff\xfe" || head.substr(0, 2) == "\xfe\xff") {
        result.error = QStringLiteral("file: encoded as UTF-16; scenario files are UTF-8 (save it "
                                      "as UTF-8)");
        return result;
    }
    // a UTF-8 byte order mark is allowed before the document
    const std::size_t skip = head == "\xef\xbb\xbf" ? 3 : 0;
    std::optional<Problem> problem;
    std::optional<simdjson::error_code> malformed;
    try {
        od::parser parser;
        ActionTally own;
        ActionTally &facts = tally ? *tally : own;
        // the fast path: a large file read by a thread for each core (fastload/); empty for a
        // small file, or when a part fails
        result.scenario =
            FastLoad::read(parser, data + skip, size - skip, limits, facts, !tally, partReader);
        if (!result.scenario) { // read alone: this names the problem a part failed on
            od::document doc = get(
                parser.iterate(data + skip, size - skip, size - skip + simdjson::SIMDJSON_PADDING));
            const od::json_type type = get(doc.type());
            if (type != od::json_type::object)
                throw Problem{QStringLiteral("file: must be a JSON object with \"fencescope\": 1 "
                                             "at the top, not %1")
                                  .arg(type == od::json_type::array
                                           ? QStringLiteral("an array")
                                           : QStringLiteral("a bare value"))};
            result.scenario = readScenario(doc, limits, facts, !tally);
        }
        // token sources, restores, lock-delay and blocking acquires (lockoptionsfile.h): the
        // lock's problems come first, then the actions' in file order, as take() reports them
        result.error = LockOptionsFile::takeLock(*result.scenario);
        if (result.error.isEmpty())
            result.error = facts.waitProblem;
        // keepalives are events of their own: a keepalive every tick up to a horizon near 2^53
        // would run for ever, so their number is bounded like the actions'
        std::pair<std::size_t, std::size_t> at;
        if (result.error.isEmpty() &&
            facts.keepalives.total(*result.scenario, limits.maxActions, &at) > limits.maxActions)
            result.error = QStringLiteral("clients[%1].actions[%2].keepalive: too many "
                                          "keepalives: with every keepalive this short, a run "
                                          "this long could renew more than %3 times (use a "
                                          "longer keepalive or a shorter horizon)")
                               .arg(at.first)
                               .arg(at.second)
                               .arg(limits.maxActions);
        if (!result.error.isEmpty())
            result.scenario.reset(); // never half a scenario
        return result;
    } catch (Problem &p) {
        problem = std::move(p);
    } catch (const Malformed &m) {
        malformed = m.code;
    } catch (const std::bad_alloc &) {
        result.error = QStringLiteral("file: not enough memory to load it");
        return result;
    }
    // A syntax error anywhere wins over a problem with the content: it says more about the file.
    const QByteArray bytes = QByteArray::fromRawData(data, qsizetype(size));
    result.error = JsonSyntax::problem(bytes, limits.maxDepth);
    if (result.error.isEmpty() && problem)
        result.error = problem->text;
    if (result.error.isEmpty()) // not reachable: the second look finds what simdjson refused
        result.error = QStringLiteral("file: not valid JSON (%1)")
                           .arg(QString::fromLatin1(simdjson::error_message(*malformed)));
    return result;
}

LoadResult parseBytes(const QByteArray &json, const FileLimits &limits, ActionTally *tally)
{
    if (json.size() > limits.maxFileBytes)
        return {std::nullopt, tooLarge(json.size(), limits)};
    // simdjson reads up to SIMDJSON_PADDING bytes past the end (never writes them, never minds
    // what they hold): a buffer with that much room left is parsed where it is, without a copy
    if (json.capacity() - json.size() >= qsizetype(simdjson::SIMDJSON_PADDING))
        return parsePadded(json.constData(), std::size_t(json.size()), limits, tally);
    try {
        const simdjson::padded_string padded(json.constData(), std::size_t(json.size()));
        return parsePadded(padded.data(), padded.size(), limits, tally);
    } catch (const std::bad_alloc &) {
        return {std::nullopt, QStringLiteral("file: not enough memory to load it")};
    }
}

LoadResult loadFile(const QString &path, const FileLimits &limits, ActionTally *tally)
{
    LoadResult result;
    QFile file(path);
    const QFileInfo info(path);
    if (info.isDir()) {
        result.error = QStringLiteral("file: %1 is a folder, not a scenario file").arg(path);
        return result;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        result.error = QStringLiteral("file: cannot open %1 (%2)").arg(path, file.errorString());
        return result;
    }
    if (file.size() > limits.maxFileBytes) {
        result.error = tooLarge(file.size(), limits);
        return result;
    }
    const auto unreadable = [&] {
        return LoadResult{
            std::nullopt,
            QStringLiteral("file: cannot read %1 (%2)").arg(path, file.errorString())};
    };
    try {
        // read straight into a buffer with the padding simdjson reads past the end
        const auto size = std::size_t(file.size());
        simdjson::padded_string padded(size);
        if (!padded.data())
            throw std::bad_alloc();
        const qint64 got = size ? file.read(padded.data(), qint64(size)) : 0;
        if (got < 0)
            return unreadable();
        char probe = 0;
        const qint64 more = file.read(&probe, 1);
        if (more < 0)
            return unreadable();
        if (std::size_t(got) == size && more == 0)
            return parsePadded(padded.data(), size, limits, tally);
        // the file is not as large as it said (it grew), or it is a stream with no size (a
        // pipe such as <(generate), /dev/stdin, a terminal): a read gives what has come so
        // far, so read on until the end, as standard input is read
        QByteArray bytes(padded.data(), qsizetype(got));
        // (the probe's byte by its address: append(probe, more) was append(count, char), 123
        // bytes of \x01 for a '{')
        bytes.append(&probe, qsizetype(more));
        while (more > 0 && bytes.size() <= limits.maxFileBytes) {
            const QByteArray chunk = file.read(limits.maxFileBytes + 1 - bytes.size());
            if (chunk.isEmpty())
                break; // the end (or an error, looked at below)
            bytes += chunk;
        }
        if (file.error() != QFileDevice::NoError)
            return unreadable();
        return parseBytes(bytes, limits, tally);
    } catch (const std::bad_alloc &) {
        return {std::nullopt, QStringLiteral("file: not enough memory to load it")};
    }
}

// A check's result from the outline parsePadded() returned with the tally.
CheckResult checked(const LoadResult &outline, const ActionTally &tally)
{
    CheckResult r;
    r.error = outline.error;
    if (!outline.ok())
        return r;
    r.title = outline.scenario->title;
    r.clients = outline.scenario->clients.size();
    r.storages = outline.scenario->storages.size();
    r.actions = tally.actions;
    return r;
}

} // namespace

namespace ScenarioFile {

LoadResult parse(const QByteArray &json, const FileLimits &limits)
{
    return parseBytes(json, limits, nullptr);
}

LoadResult load(const QString &path, const FileLimits &limits)
{
    return loadFile(path, limits, nullptr);
}

CheckResult checkBytes(const QByteArray &json, const FileLimits &limits)
{
    ActionTally tally;
    return checked(parseBytes(json, limits, &tally), tally);
}

CheckResult checkFile(const QString &path, const FileLimits &limits)
{
    ActionTally tally;
    return checked(loadFile(path, limits, &tally), tally);
}

QString builtinPath(const QString &name)
{
    return QStringLiteral(":/scenarios/%1.json").arg(name);
}

QStringList builtinNames()
{
    // every file compiled in (core/CMakeLists.txt globs resources/scenarios), the default first
    QStringList names;
    for (const QString &file :
         QDir(QStringLiteral(":/scenarios"))
             .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const QString name = file.chopped(5);
        if (name == QLatin1String("default"))
            names.prepend(name);
        else
            names.append(name);
    }
    return names;
}

std::vector<BuiltinGroup> builtinGroups()
{
    // the order a lecture takes them in, within each group too
    std::vector<BuiltinGroup> groups{
        {QStringLiteral("Basics"),
         {QStringLiteral("default"), QStringLiteral("delayed-packet"),
          QStringLiteral("kleppmann-gc-pause"), QStringLiteral("three-owners"),
          QStringLiteral("renewal-keeps-token"), QStringLiteral("reentrant-holder-lt"),
          QStringLiteral("reentrant-holder-le"), QStringLiteral("le-locks-out-holder")}},
        {QStringLiteral("Where tokens come from"),
         {QStringLiteral("etcd-revisions"), QStringLiteral("etcd-owner-txn"),
          QStringLiteral("zookeeper-failover"), QStringLiteral("raft-term"),
          QStringLiteral("service-term"), QStringLiteral("kafka-zombie-producer"),
          QStringLiteral("chubby-lock-delay"), QStringLiteral("chubby-sequencer"),
          QStringLiteral("redlock-no-token"), QStringLiteral("random-tokens"),
          QStringLiteral("random-tokens-check-and-set"), QStringLiteral("wallclock-step-back"),
          QStringLiteral("etcd-restore"), QStringLiteral("etcd-restore-bump")}},
        {QStringLiteral("How fencing goes wrong"),
         {QStringLiteral("check-then-write-gap"), QStringLiteral("keepalive-gc-pause"),
          QStringLiteral("slow-client-clock"), QStringLiteral("bypass-background-job"),
          QStringLiteral("journalnode-volatile-max-token"),
          QStringLiteral("journalnode-durable-max-token"),
          QStringLiteral("compare-and-set-version"), QStringLiteral("different-is-not-lower"),
          QStringLiteral("two-resources-partial")}},
    };
    const QStringList all = builtinNames();
    for (BuiltinGroup &g : groups)
        g.names.erase(std::remove_if(g.names.begin(), g.names.end(),
                                     [&](const QString &n) { return !all.contains(n); }),
                      g.names.end());
    BuiltinGroup more{QStringLiteral("More"), {}};
    for (const QString &n : all)
        if (std::none_of(groups.begin(), groups.end(),
                         [&](const BuiltinGroup &g) { return g.names.contains(n); }))
            more.names << n;
    if (!more.names.isEmpty())
        groups.push_back(more);
    return groups;
}

Scenario defaultScenario()
{
    LoadResult r = load(builtinPath(QStringLiteral("default")));
    if (r.ok())
        return std::move(*r.scenario);
    // Only reachable if the resource failed to link in (tests cover that it does not).
    Scenario s;
    s.title = r.error;
    s.clients.emplace_back().name = QStringLiteral("A");
    return s;
}

} // namespace ScenarioFile
} // namespace Core
