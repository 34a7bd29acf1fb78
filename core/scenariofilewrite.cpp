// The scenario writer: serialize() writes the documented key order with the key table's
// spelling (scenariofilekeys.h), each key of sections 11 and 12 only when it differs from its
// default; save() replaces a file atomically.

#include "scenariofile.h"

#include "jsonout.h"
#include "lockoptionsfile.h"
#include "savefile.h"
#include "scenariofilekeys.h"

#include <QJsonObject>

namespace Core {
namespace {

using namespace ScenarioFormat;

void writeExtra(JsonOut &out, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        out.raw(", ").string(it.key()).raw(": ").value(it.value());
    }
}

// A client's clock, when it is not the lock service's: ", clock: {...}".
void writeClock(JsonOut &out, const ClientClock &clock)
{
    if (clock.isDefault())
        return;
    out.raw(", ").key(keyText(Key::Clock)).raw("{ ");
    const char *comma = "";
    if (clock.rateMilli != 1000) {
        out.key(keyText(Key::Rate)).raw(rateText(clock.rateMilli).toLatin1().constData());
        comma = ", ";
    }
    if (!clock.steps.empty()) {
        out.raw(comma).key(keyText(Key::Steps));
        LockOptionsFile::writeClockSteps(out, clock.steps);
    }
    out.raw(" }");
}

} // namespace

namespace ScenarioFile {

QByteArray serialize(const Scenario &s)
{
    JsonOut out;
    out.raw("{\n  ").key(keyText(Key::Fencescope)).number(1);
    out.raw(",\n  ").key(keyText(Key::Title)).string(s.title);
    if (!s.description.isEmpty())
        out.raw(",\n  ").key(keyText(Key::Description)).string(s.description);
    if (s.horizon)
        out.raw(",\n  ").key(keyText(Key::Horizon)).number(*s.horizon);
    out.raw(",\n  ").key(keyText(Key::Fencing)).boolean(s.fencing);
    out.raw(",\n  ")
        .key(keyText(Key::Lock))
        .raw("{ ")
        .key(keyText(Key::Tokens))
        .string(toString(s.tokens));
    LockOptionsFile::writeLock(out, s);
    writeExtra(out, s.lockExtra);
    out.raw(" }");
    out.raw(",\n  ").key(keyText(Key::Storages)).raw("[");
    for (std::size_t i = 0; i < s.storages.size(); ++i) {
        const StorageSpec &st = s.storages[i];
        out.raw(i ? ",\n    " : "\n    ").raw("{ ").key(keyText(Key::Name)).string(st.name);
        out.raw(", ").key(keyText(Key::Rule)).string(toString(st.rule));
        if (st.check != StorageCheck::Token)
            out.raw(", ").key(keyText(Key::Check)).string(toString(st.check));
        if (!st.durable)
            out.raw(", ").key(keyText(Key::MaxToken)).string(QStringLiteral("volatile"));
        if (!st.restarts.empty()) {
            out.raw(", ").key(keyText(Key::Restarts)).raw("[");
            for (std::size_t r = 0; r < st.restarts.size(); ++r)
                out.raw(r ? ", " : "").number(st.restarts[r]);
            out.raw("]");
        }
        writeExtra(out, st.extra);
        out.raw(" }");
    }
    out.raw(" ]");
    out.raw(",\n  ").key(keyText(Key::Clients)).raw("[");
    for (std::size_t c = 0; c < s.clients.size(); ++c) {
        const Client &client = s.clients[c];
        out.raw(c ? ",\n    " : "\n    ").raw("{ ").key(keyText(Key::Name)).string(client.name);
        writeClock(out, client.clock);
        if (client.bypass)
            out.raw(", ").key(keyText(Key::Bypass)).boolean(true);
        writeExtra(out, client.extra);
        out.raw(", ").key(keyText(Key::Actions)).raw("[");
        for (std::size_t i = 0; i < client.actions.size(); ++i) {
            const Action &a = client.actions[i];
            out.raw(i ? ",\n      " : "\n      ").raw("{ ").key(keyText(Key::At)).number(a.at);
            out.raw(", ").key(keyText(Key::Do)).string(toString(a.kind));
            switch (a.kind) {
            case ActionKind::Acquire:
                out.raw(", ").key(keyText(Key::Ttl)).number(a.amount);
                if (a.keepalive())
                    out.raw(", ").key(keyText(Key::Keepalive)).number(a.keepalive());
                LockOptionsFile::writeAcquire(out, a);
                break;
            case ActionKind::Pause:
                out.raw(", ").key(keyText(Key::For)).number(a.amount);
                break;
            case ActionKind::Write:
                out.raw(", ").key(keyText(Key::Value)).string(a.value);
                if (a.storage != 0 && a.storage < s.storages.size())
                    out.raw(", ").key(keyText(Key::Storage)).string(s.storages[a.storage].name);
                if (a.amount != 0)
                    out.raw(", ").key(keyText(Key::Delay)).number(a.amount);
                if (a.check)
                    out.raw(", ").key(keyText(Key::Check)).boolean(true);
                if (a.check && a.gap())
                    out.raw(", ").key(keyText(Key::Gap)).number(a.gap());
                if (!a.group().isEmpty())
                    out.raw(", ").key(keyText(Key::Group)).string(a.group());
                break;
            case ActionKind::Read:
                if (a.storage != 0 && a.storage < s.storages.size())
                    out.raw(", ").key(keyText(Key::Storage)).string(s.storages[a.storage].name);
                if (a.amount != 0)
                    out.raw(", ").key(keyText(Key::Delay)).number(a.amount);
                break;
            case ActionKind::Release:
                break;
            }
            writeExtra(out, a.extra());
            out.raw(" }");
        }
        out.raw(client.actions.empty() ? "] }" : " ] }");
    }
    out.raw(" ]");
    writeExtra(out, s.extra);
    out.raw("\n}\n");
    return QByteArray(out.buffer().data(), qsizetype(out.buffer().size()));
}

bool save(const Scenario &scenario, const QString &path, QString *error)
{
    const std::optional<SaveFailure> failed = saveWhole(path, serialize(scenario));
    if (failed && error)
        *error = cannotSave(path, *failed);
    return !failed;
}

} // namespace ScenarioFile
} // namespace Core
