#pragma once

// What the pitfall tests share (tests/core/tst_pitfalls.cpp, tst_storagepitfalls.cpp): a client
// lane, a scenario of lanes, the actions as the spec names them (an acquire with its keepalive,
// a write to a storage, a checked write with its gap, a write of a group) and a client's
// beliefs in a line. `using namespace PitfallSchedules;` is their one using line: it brings
// these, the core's names, and what they use of the other test helpers.

#include "scenario.h"
#include "trace.h"
#include "tracetext.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace PitfallSchedules {

using namespace Core;
using TestSupport::arrivals;
using TestSupport::grants;
using TestSupport::groups;
using TestSupport::lost;
using TestSupport::reads;
using TestSupport::skips;
using TestSupport::versions;

inline Client lane(const QString &name, std::vector<Action> actions)
{
    Client c;
    c.name = name;
    c.actions = std::move(actions);
    return c;
}

inline Scenario scenario(std::vector<Client> clients, bool fencing = true)
{
    Scenario s;
    s.title = QStringLiteral("hand-worked");
    s.fencing = fencing;
    s.clients = std::move(clients);
    return s;
}

inline Action acquire(Tick at, Tick ttl, Tick keepalive = 0)
{
    Action a = Action::acquire(at, ttl);
    a.setKeepalive(keepalive);
    return a;
}

inline Action write(Tick at, const char *value, std::uint32_t storage = 0, Tick delay = 0)
{
    return Action::write(at, QString::fromUtf8(value), storage, delay);
}

inline Action checked(Tick at, const char *value, Tick gap = 0)
{
    Action a = write(at, value);
    a.check = true;
    a.setGap(gap);
    return a;
}

inline Action grouped(Tick at, const char *value, std::uint32_t storage, const char *group)
{
    Action a = write(at, value, storage);
    a.setGroup(QString::fromUtf8(group));
    return a;
}

inline QString beliefs(const Trace &t, std::uint32_t client)
{
    QStringList out;
    for (const Belief &b : t.beliefs[client])
        out << QStringLiteral("e%1 [%2,%3)")
                   .arg(b.epoch)
                   .arg(b.from)
                   .arg(b.to == kForever ? QStringLiteral("inf") : QString::number(b.to));
    return out.join(QStringLiteral(", "));
}

} // namespace PitfallSchedules
