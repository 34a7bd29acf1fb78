#include "runreport.h"

#include "jsonout.h"
#include "simulator.h"

namespace Core {

bool writeRunReport(std::FILE *file, const Scenario &s, const Trace &trace, bool summaryOnly)
{
    JsonOut out(file);
    out.raw("{\n  ").key("title").string(s.title);
    out.raw(",\n  ").key("fencing").boolean(trace.fencing);
    if (!summaryOnly) {
        out.raw(",\n  ").key("grants").raw("[");
        for (std::size_t i = 0; i < trace.grants.size(); ++i) {
            const Grant &g = trace.grants[i];
            out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("client").string(s.clients[g.client].name);
            out.raw(", ").key("at").number(g.at);
            out.raw(", ").key("token").number(g.token);
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
            out.raw(", ").key("holder").string(s.clients[r.holder].name).raw(" }");
        }
        out.raw(trace.refusals.empty() ? "]" : "\n  ]");

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
