#pragma once

// What the token source tests share (tests/core/tst_tokensources*.cpp): a client lane, a
// scenario of lanes under one source, the actions as the spec names them, and the refusals and
// waits of a trace in a line each. `using namespace TokenSchedules;` is their one using line:
// it brings these, the core's names, and what they use of the other test helpers.
//
// FENCESCOPE_QUICK=1 cuts the schedule count of the properties for slow (sanitizer) builds.

#include "randomscenario.h"
#include "scenario.h"
#include "trace.h"
#include "tracetext.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace TokenSchedules {

using namespace Core;
using TestSupport::arrivals;
using TestSupport::grants;
using TestSupport::kEnoughBump;
using TestSupport::randomScenario;
using TestSupport::RandomScenarioOptions;

inline int scheduleCount()
{
    return qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 1000 : 10000;
}

inline Client lane(const QString &name, std::vector<Action> actions)
{
    return Client{name, std::move(actions), {}, false, {}};
}

inline Scenario scenario(TokenSource tokens, std::vector<Client> clients, bool fencing = true)
{
    Scenario s;
    s.title = QStringLiteral("hand-worked");
    s.tokens = tokens;
    s.fencing = fencing;
    s.clients = std::move(clients);
    return s;
}

inline Action acquire(Tick at, Tick ttl)
{
    return Action::acquire(at, ttl);
}
inline Action waiting(Tick at, Tick ttl, Tick waitFor = 0)
{
    Action a = Action::acquire(at, ttl);
    a.wait = true;
    a.setWaitFor(waitFor);
    return a;
}
inline Action release(Tick at)
{
    return Action::release(at);
}
inline Action pause(Tick at, Tick length)
{
    return Action::pause(at, length);
}
inline Action write(Tick at, const char *value, Tick delay = 0)
{
    return Action::write(at, QString::fromUtf8(value), 0, delay);
}

inline QStringList refusals(const Scenario &s, const Trace &t)
{
    QStringList out;
    for (const Refusal &r : t.refusals)
        out << QStringLiteral("%1@%2 by %3 e%4%5")
                   .arg(s.clients[r.client].name)
                   .arg(r.at)
                   .arg(s.clients[r.holder].name)
                   .arg(r.holderEpoch)
                   .arg(r.gaveUp ? QStringLiteral(" gave up") : QString());
    return out;
}

inline QStringList waits(const Scenario &s, const Trace &t)
{
    QStringList out;
    for (const Wait &w : t.waits)
        out << QStringLiteral("%1 %2->%3 %4 key%5")
                   .arg(s.clients[w.client].name)
                   .arg(w.from)
                   .arg(w.to == kForever ? QStringLiteral("end") : QString::number(w.to))
                   .arg(w.granted          ? QStringLiteral("granted")
                        : w.to == kForever ? QStringLiteral("waiting")
                                           : QStringLiteral("gave up"))
                   .arg(w.key);
    return out;
}

} // namespace TokenSchedules
