#include "runreport.h"

#include "jsonout.h"
#include "simulator.h"
#include "tokensource.h"

namespace Core {

bool writeRunReport(std::FILE *file, const Scenario &s, const Trace &trace, bool summaryOnly)
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
            out.raw(", ").key("expires").number(g.expires).raw(" }");
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
            out.raw(", ").key("expired").boolean(w.expired).raw(" }");
        }
        out.raw(first ? "]" : "\n  ]");
    }

    out.raw(",\n  ").key("final").raw("{");
    for (std::size_t i = 0; i < s.storages.size(); ++i) {
        out.raw(i ? ",\n    " : "\n    ").string(s.storages[i].name).raw(": { ");
        out.key("value").string(trace.finals[i].value);
        out.raw(", ").key("maxToken").number(trace.finals[i].maxToken).raw(" }");
    }
    out.raw("\n  }");
    const Summary &sum = trace.summary;
    out.raw(",\n  ").key("summary").raw("{ ");
    out.key("accepted").number(sum.accepted);
    out.raw(", ").key("rejected").number(sum.rejected);
    out.raw(", ").key("corrupted").number(sum.corrupted);
    out.raw(", ").key("lockedOut").number(sum.lockedOut).raw(" }");
    out.raw("\n}\n");
    return out.flush() && std::fflush(file) == 0;
}

} // namespace Core
