#include "runreport.h"

#include "jsonout.h"
#include "simulator.h"
#include "tokensource.h"

namespace Core {

bool writeRunReport(std::FILE *file, const Scenario &s, const Trace &trace, bool summaryOnly,
                    const QByteArray &moreFields)
{
    JsonOut out(file);
    out.raw("{\n  ").key("title").string(s.title);
    out.raw(",\n  ").key("fencing").boolean(trace.fencing);
    // Fields beyond section 8 appear only when the scenario uses what they report, so a
    // version-1 file without the extensions gets exactly the report of section 8.
    if (trace.tokens != TokenSource::Counter)
        out.raw(",\n  ").key("tokens").string(toString(trace.tokens));
    const bool noToken = trace.tokens == TokenSource::None;
    if (!summaryOnly) {
        out.raw(",\n  ").key("grants").raw("[");
        for (std::size_t i = 0; i < trace.grants.size(); ++i) {
            const Grant &g = trace.grants[i];
            out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("client").string(s.clients[g.client].name);
            out.raw(", ").key("at").number(g.at);
            out.raw(", ").key("token");
            if (noToken)
                out.null(); // Redlock hands out none (section 14, "None")
            else
                out.number(g.token);
            out.raw(", ").key("epoch").number(g.epoch);
            out.raw(", ").key("renewal").boolean(g.renewal);
            out.raw(", ").key("expires").number(g.expires);
            if (g.keepalive)
                out.raw(", ").key("keepalive").boolean(true); // section 13
            out.raw(" }");
        }
        out.raw(trace.grants.empty() ? "]" : "\n  ]");

        out.raw(",\n  ").key("refusals").raw("[");
        for (std::size_t i = 0; i < trace.refusals.size(); ++i) {
            const Refusal &r = trace.refusals[i];
            out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("client").string(s.clients[r.client].name);
            out.raw(", ").key("at").number(r.at);
            out.raw(", ").key("holder").string(s.clients[r.holder].name);
            if (r.gaveUp)
                out.raw(", ").key("gaveUp").boolean(true);
            out.raw(" }");
        }
        out.raw(trace.refusals.empty() ? "]" : "\n  ]");

        // blocking acquires (section 10): when each began to wait and how the wait ended
        if (!trace.waits.empty()) {
            out.raw(",\n  ").key("waits").raw("[");
            for (std::size_t i = 0; i < trace.waits.size(); ++i) {
                const Wait &w = trace.waits[i];
                out.raw(i ? ",\n    " : "\n    ")
                    .raw("{ ")
                    .key("client")
                    .string(s.clients[w.client].name);
                out.raw(", ").key("at").number(w.from);
                out.raw(", ").key("until");
                if (w.to == kForever)
                    out.null(); // still waiting when the run ended
                else
                    out.number(w.to);
                out.raw(", ").key("granted").boolean(w.granted).raw(" }");
            }
            out.raw("\n  ]");
        }

        // the lock service's own events (sections 9 and 10), with its counter after each
        if (!trace.lockEvents.empty()) {
            out.raw(",\n  ").key("lockEvents").raw("[");
            for (std::size_t i = 0; i < trace.lockEvents.size(); ++i) {
                const LockEvent &e = trace.lockEvents[i];
                out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("at").number(e.tick);
                out.raw(", ").key("event").string(toString(e.kind));
                if (e.kind == LockEventKind::Restore) {
                    const LockRestore &r = s.lock.restores[e.ref];
                    out.raw(", ").key("from").number(r.from);
                    out.raw(", ").key("bump").number(r.bump);
                    out.raw(", ").key("holder");
                    if (e.holder == kNone)
                        out.null();
                    else
                        out.string(s.clients[e.holder].name);
                }
                if (hasCounter(trace.tokens))
                    out.raw(", ").key("counter").number(e.counter);
                out.raw(" }");
            }
            out.raw("\n  ]");
        }

        // writes in arrival order, which is the order of their WriteArrived events
        out.raw(",\n  ").key("writes").raw("[");
        bool first = true;
        for (const Event &e : trace.events) {
            if (e.kind != EventKind::WriteArrived)
                continue;
            const Write &w = trace.writes[e.ref];
            out.raw(first ? "\n    " : ",\n    ").raw("{ ");
            first = false;
            out.key("client").string(s.clients[w.client].name);
            out.raw(", ").key("value").string(writeValue(s, w));
            out.raw(", ").key("storage").string(s.storages[w.storage].name);
            out.raw(", ").key("sentAt").number(w.sentAt);
            out.raw(", ").key("arrivedAt").number(w.arrivedAt);
            out.raw(", ").key("token");
            if (w.tagged)
                out.number(trace.tokenOf(w));
            else
                out.null();
            out.raw(", ").key("epoch").number(w.epoch);
            out.raw(", ").key("result").string(toString(w.result));
            out.raw(", ").key("maxToken").number(w.maxToken);
            out.raw(", ").key("expired").boolean(w.expired);
            if (s.storages[w.storage].check == StorageCheck::Version) {
                const WriteVersion &v = trace.writeVersions[e.ref];
                out.raw(", ").key("expected").number(v.expected);
                out.raw(", ").key("version").number(v.version);
            }
            out.raw(" }");
        }
        out.raw(first ? "]" : "\n  ]");

        // sections 13 and 14: always present, possibly empty
        out.raw(",\n  ").key("skipped").raw("[");
        for (std::size_t i = 0; i < trace.skips.size(); ++i) {
            const Skip &k = trace.skips[i];
            const Action &a = s.clients[k.client].actions[k.action];
            out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("client").string(s.clients[k.client].name);
            out.raw(", ").key("value").string(a.value);
            out.raw(", ").key("storage").string(s.storages[a.storage].name);
            out.raw(", ").key("at").number(k.at).raw(" }");
        }
        out.raw(trace.skips.empty() ? "]" : "\n  ]");

        out.raw(",\n  ").key("lost").raw("[");
        for (std::size_t i = 0; i < trace.lost.size(); ++i) {
            const Lost &l = trace.lost[i];
            out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("client").string(s.clients[l.client].name);
            out.raw(", ").key("at").number(l.at);
            out.raw(", ").key("reason").string(toString(l.reason)).raw(" }");
        }
        out.raw(trace.lost.empty() ? "]" : "\n  ]");

        out.raw(",\n  ").key("groups").raw("[");
        const auto storageList = [&](const std::vector<std::uint32_t> &list) {
            out.raw("[");
            for (std::size_t j = 0; j < list.size(); ++j) {
                if (j)
                    out.raw(", ");
                out.string(s.storages[list[j]].name);
            }
            out.raw("]");
        };
        for (std::size_t i = 0; i < trace.groups.size(); ++i) {
            const GroupOutcome &g = trace.groups[i];
            out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("client").string(s.clients[g.client].name);
            out.raw(", ").key("group").string(g.name);
            out.raw(", ").key("applied");
            storageList(g.applied);
            out.raw(", ").key("notApplied");
            storageList(g.notApplied);
            out.raw(", ").key("partial").boolean(g.partial).raw(" }");
        }
        out.raw(trace.groups.empty() ? "]" : "\n  ]");

        out.raw(",\n  ").key("reads").raw("[");
        bool firstRead = true;
        for (const Event &e : trace.events) { // in arrival order, like writes
            if (e.kind != EventKind::ReadArrived)
                continue;
            const Read &r = trace.reads[e.ref];
            out.raw(firstRead ? "\n    " : ",\n    ").raw("{ ");
            firstRead = false;
            out.key("client").string(s.clients[r.client].name);
            out.raw(", ").key("storage").string(s.storages[r.storage].name);
            out.raw(", ").key("sentAt").number(r.sentAt);
            out.raw(", ").key("arrivedAt").number(r.arrivedAt);
            out.raw(", ").key("version").number(r.version).raw(" }");
        }
        out.raw(firstRead ? "]" : "\n  ]");

        // section 15.3: the leases a new leader re-armed, always present
        out.raw(",\n  ").key("rearms").raw("[");
        for (std::size_t i = 0; i < trace.rearms.size(); ++i) {
            const Rearm &r = trace.rearms[i];
            out.raw(i ? ",\n    " : "\n    ")
                .raw("{ ")
                .key("client")
                .string(s.clients[r.client].name);
            out.raw(", ").key("at").number(r.at);
            out.raw(", ").key("expires").number(r.expires).raw(" }");
        }
        out.raw(trace.rearms.empty() ? "]" : "\n  ]");
    }

    out.raw(",\n  ").key("final").raw("{");
    for (std::size_t i = 0; i < s.storages.size(); ++i) {
        out.raw(i ? ",\n    " : "\n    ").string(s.storages[i].name).raw(": { ");
        out.key("value").string(trace.finals[i].value);
        out.raw(", ").key("maxToken").number(trace.finals[i].maxToken);
        if (s.storages[i].check == StorageCheck::Version)
            out.raw(", ").key("version").number(trace.finals[i].version);
        out.raw(" }");
    }
    out.raw("\n  }");
    const Summary &sum = trace.summary;
    out.raw(",\n  ").key("summary").raw("{ ");
    out.key("accepted").number(sum.accepted);
    out.raw(", ").key("rejected").number(sum.rejected);
    out.raw(", ").key("corrupted").number(sum.corrupted);
    out.raw(", ").key("lockedOut").number(sum.lockedOut);
    out.raw(", ").key("skipped").number(sum.skipped);
    out.raw(", ").key("partial").number(sum.partial).raw(" }");
    if (!moreFields.isEmpty())
        out.raw(",\n  ").raw(moreFields.constData());
    out.raw("\n}\n");
    return out.flush() && std::fflush(file) == 0;
}

} // namespace Core
