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

// Sections 11 and 12, one line each (tst_pitfalls, tst_storagepitfalls, tst_presets).
// "client@tick reason" for each time a client learnt it lost the lock.
inline QStringList lost(const Core::Scenario &s, const Core::Trace &t)
{
    QStringList out;
    for (const Core::Lost &l : t.lost)
        out << QStringLiteral("%1@%2 %3")
                   .arg(s.clients[l.client].name)
                   .arg(l.at)
                   .arg(l.reason == Core::LostReason::Check ? QStringLiteral("check")
                                                      : QStringLiteral("keepalive"));
    return out;
}

// "client value@tick" for each checked write that sent nothing.
inline QStringList skips(const Core::Scenario &s, const Core::Trace &t)
{
    QStringList out;
    for (const Core::Skip &k : t.skips)
        out << QStringLiteral("%1 %2@%3")
                   .arg(s.clients[k.client].name, s.clients[k.client].actions[k.action].value)
                   .arg(k.at);
    return out;
}

// "client sent->arrived vVERSION" for each read.
inline QStringList reads(const Core::Scenario &s, const Core::Trace &t)
{
    QStringList out;
    for (const Core::Read &r : t.reads)
        out << QStringLiteral("%1 %2->%3 v%4")
                   .arg(s.clients[r.client].name)
                   .arg(r.sentAt)
                   .arg(r.arrivedAt)
                   .arg(r.version);
    return out;
}

// "value expEXPECTED vVERSION" for each arrived write, in arrival order.
inline QStringList versions(const Core::Scenario &s, const Core::Trace &t)
{
    QStringList out;
    for (const Core::Event &e : t.events)
        if (e.kind == Core::EventKind::WriteArrived)
            out << QStringLiteral("%1 exp%2 v%3")
                       .arg(Core::writeValue(s, t.writes[e.ref]))
                       .arg(t.writeVersions.at(e.ref).expected)
                       .arg(t.writeVersions.at(e.ref).version);
    return out;
}

// "client/group [applied] [not applied]( partial)", joined by "; ".
inline QString groups(const Core::Scenario &s, const Core::Trace &t)
{
    QStringList out;
    for (const Core::GroupOutcome &g : t.groups) {
        QStringList applied, notApplied;
        for (std::uint32_t i : g.applied)
            applied << s.storages[i].name;
        for (std::uint32_t i : g.notApplied)
            notApplied << s.storages[i].name;
        out << QStringLiteral("%1/%2 [%3] [%4]%5")
                   .arg(s.clients[g.client].name, g.name, applied.join(QLatin1Char(',')),
                        notApplied.join(QLatin1Char(',')),
                        g.partial ? QStringLiteral(" partial") : QString());
    }
    return out.join(QStringLiteral("; "));
}


} // namespace TestSupport
