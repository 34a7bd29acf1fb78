// fencescope-loadreference: the lean QtCore reference `run --summary` is measured against
// (bench/load.sh): the file read whole with QFile, parsed by QJsonDocument, its actions taken
// into a Scenario with no more checks than a read needs (the types of the keys used; no places
// in messages, no limits, no kept keys), then simulated summary-only as `run --summary` does,
// and the summary's counts printed.
//   fencescope-loadreference FILE

#include "simulator.h"
#include "trace.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace {

using namespace Core;

bool toAction(const QJsonObject &o, const QStringList &storages, Action &a)
{
    const QJsonValue at = o.value(QLatin1String("at"));
    const QString what = o.value(QLatin1String("do")).toString();
    if (!at.isDouble())
        return false;
    a.at = Tick(at.toInteger());
    const auto tick = [&](const char *key) {
        return Tick(o.value(QLatin1String(key)).toInteger());
    };
    if (what == QLatin1String("acquire")) {
        a.kind = ActionKind::Acquire;
        a.amount = tick("ttl");
    } else if (what == QLatin1String("release")) {
        a.kind = ActionKind::Release;
    } else if (what == QLatin1String("pause")) {
        a.kind = ActionKind::Pause;
        a.amount = tick("for");
    } else if (what == QLatin1String("write") || what == QLatin1String("read")) {
        a.kind = what == QLatin1String("write") ? ActionKind::Write : ActionKind::Read;
        a.value = o.value(QLatin1String("value")).toString();
        const QJsonValue storage = o.value(QLatin1String("storage"));
        if (storage.isString()) {
            const qsizetype i = storages.indexOf(storage.toString());
            if (i < 0)
                return false;
            a.storage = std::uint32_t(i);
        }
        a.amount = tick("delay");
    } else {
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (app.arguments().size() != 2) {
        std::fprintf(stderr, "usage: fencescope-loadreference FILE\n");
        return 2;
    }
    QFile file(app.arguments().at(1));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "fencescope-loadreference: cannot open the file\n");
        return 2;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (!doc.isObject()) {
        std::fprintf(stderr, "fencescope-loadreference: %s\n", qPrintable(error.errorString()));
        return 2;
    }
    const QJsonObject root = doc.object();
    Scenario s;
    s.title = root.value(QLatin1String("title")).toString();
    s.fencing = root.value(QLatin1String("fencing")).toBool(true);
    QStringList names;
    for (const QJsonValue v : root.value(QLatin1String("storages")).toArray()) {
        StorageSpec spec;
        spec.name = v.toObject().value(QLatin1String("name")).toString();
        spec.rule = v.toObject().value(QLatin1String("rule")).toString() == QLatin1String("le")
                        ? FenceRule::Le
                        : FenceRule::Lt;
        names << spec.name;
        s.storages.push_back(spec);
    }
    if (s.storages.empty()) {
        s.storages.emplace_back().name = QStringLiteral("db");
        names << QStringLiteral("db");
    }
    for (const QJsonValue v : root.value(QLatin1String("clients")).toArray()) {
        const QJsonObject o = v.toObject();
        Client &c = s.clients.emplace_back();
        c.name = o.value(QLatin1String("name")).toString();
        const QJsonArray actions = o.value(QLatin1String("actions")).toArray();
        c.actions.reserve(std::size_t(actions.size()));
        for (const QJsonValue a : actions)
            if (!toAction(a.toObject(), names, c.actions.emplace_back())) {
                std::fprintf(stderr, "fencescope-loadreference: an action it cannot read\n");
                return 2;
            }
    }
    Trace trace;
    const Summary &summary =
        Simulator(Simulator::kNoCheckpoints).summarize(s, s.fencing, trace);
    std::printf("%zu actions: %zu writes accepted, %zu rejected\n", s.actionCount(),
                std::size_t(summary.accepted), std::size_t(summary.rejected));
    return 0;
}
