#pragma once

// A trace's grants and write arrivals as one line each, for tests that compare them with
// sequences worked out by hand.

#include "simulator.h"

#include <QStringList>

namespace TestSupport {

// "client@tick tTOKEN eEPOCH grant|renewal expEXPIRES"
inline QStringList grants(const Core::Scenario &s, const Core::Trace &t)
{
    QStringList out;
    for (const Core::Grant &g : t.grants)
        out << QStringLiteral("%1@%2 t%3 e%4 %5 exp%6")
                   .arg(s.clients[g.client].name)
                   .arg(g.at)
                   .arg(g.token)
                   .arg(g.epoch)
                   .arg(g.renewal ? QStringLiteral("renewal") : QStringLiteral("grant"))
                   .arg(g.expires);
    return out;
}

// Writes in arrival order: "client value sent->arrived token epoch result maxToken expired".
inline QStringList arrivals(const Core::Scenario &s, const Core::Trace &t)
{
    QStringList out;
    for (const Core::Event &e : t.events) {
        if (e.kind != Core::EventKind::WriteArrived)
            continue;
        const Core::Write &w = t.writes[e.ref];
        out << QStringLiteral("%1 %2 %3->%4 %5 e%6 %7 max%8 %9")
                   .arg(s.clients[w.client].name, Core::writeValue(s, w))
                   .arg(w.sentAt)
                   .arg(w.arrivedAt)
                   .arg(w.tagged ? QStringLiteral("t%1").arg(t.tokenOf(w))
                                 : QStringLiteral("untagged"))
                   .arg(w.epoch)
                   .arg(Core::toString(w.result))
                   .arg(w.maxToken)
                   .arg(w.expired ? QStringLiteral("expired") : QStringLiteral("live"));
    }
    return out;
}

} // namespace TestSupport
