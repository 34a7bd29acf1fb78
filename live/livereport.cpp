#include "livereport.h"

#include "jsonout.h"
#include "simulator.h"

namespace Live {

namespace {

void divergences(Core::JsonOut &out, const Core::Scenario &s, const std::vector<Divergence> &ds,
                 const char *indent, const char *closing)
{
    out.raw("[");
    for (std::size_t i = 0; i < ds.size(); ++i) {
        const Divergence &d = ds[i];
        out.raw(i ? ",\n" : "\n").raw(indent).raw("{ ").key("kind").string(toString(d.kind));
        out.raw(", ").key("disagreement").boolean(d.disagreement);
        out.raw(", ").key("client");
        if (d.client < s.clients.size())
            out.string(s.clients[d.client].name);
        else
            out.null();
        out.raw(", ").key("at").number(d.tick);
        out.raw(", ").key("text").string(d.text).raw(" }");
    }
    if (!ds.empty())
        out.raw("\n").raw(closing);
    out.raw("]");
}

void summary(Core::JsonOut &out, const Core::Summary &sum)
{
    out.raw("{ ").key("accepted").number(sum.accepted);
    out.raw(", ").key("rejected").number(sum.rejected);
    out.raw(", ").key("corrupted").number(sum.corrupted);
    out.raw(", ").key("lockedOut").number(sum.lockedOut);
    out.raw(", ").key("skipped").number(sum.skipped);
    out.raw(", ").key("partial").number(sum.partial).raw(" }");
}

} // namespace

QByteArray liveSection(const LiveResult &r)
{
    const Core::Scenario &s = r.scenario;
    Core::JsonOut out;
    out.key("live").raw("{\n    ").key("etcd").string(r.etcdVersion);
    out.raw(",\n    ").key("url").string(r.etcdUrl.toString());
    out.raw(",\n    ").key("store").string(r.store == Store::Postgres ? QStringLiteral("postgres")
                                                                      : QStringLiteral("etcd"));
    out.raw(",\n    ").key("tickMs").raw(QByteArray::number(double(r.tickUs) / 1000).constData());
    out.raw(",\n    ").key("seconds").raw(QByteArray::number(r.seconds, 'f', 2).constData());
    out.raw(",\n    ").key("complete").boolean(r.complete);
    out.raw(",\n    ").key("stopped");
    if (r.stopped.isEmpty())
        out.null();
    else
        out.string(r.stopped);
    out.raw(",\n    ").key("verdict").string(toString(r.verdict));
    out.raw(",\n    ").key("verdictText").string(r.verdictText());
    // the prediction in brief: its grants' tokens, its writes' results, its final state
    const Core::Trace &p = r.predicted;
    out.raw(",\n    ").key("prediction").raw("{\n      ").key("grants").raw("[");
    bool first = true;
    for (const Core::Grant &g : p.grants) {
        if (g.renewal)
            continue;
        out.raw(first ? "" : ", ").raw("{ ").key("client").string(s.clients[g.client].name);
        out.raw(", ").key("at").number(g.at).raw(", ").key("token").number(g.token).raw(" }");
        first = false;
    }
    out.raw("],\n      ").key("writes").raw("[");
    first = true;
    for (const Core::Event &e : p.events) {
        if (e.kind != Core::EventKind::WriteArrived)
            continue;
        const Core::Write &w = p.writes[e.ref];
        out.raw(first ? "" : ", ").raw("{ ").key("client").string(s.clients[w.client].name);
        out.raw(", ").key("value").string(Core::writeValue(s, w));
        out.raw(", ").key("result").string(Core::toString(w.result)).raw(" }");
        first = false;
    }
    out.raw("],\n      ").key("final").raw("{ ");
    for (std::size_t i = 0; i < s.storages.size() && i < p.finals.size(); ++i) {
        out.raw(i ? ", " : "").string(s.storages[i].name).raw(": { ");
        out.key("value").string(p.finals[i].value);
        out.raw(", ").key("maxToken").number(p.finals[i].maxToken).raw(" }");
    }
    out.raw(" },\n      ").key("summary");
    summary(out, p.summary);
    out.raw("\n    },\n    ").key("divergences");
    divergences(out, s, r.divergences, "      ", "    ");
    out.raw("\n  }");
    return QByteArray::fromStdString(out.buffer());
}

QByteArray repeatReport(const Core::Scenario &s, const std::vector<LiveResult> &runs)
{
    Core::JsonOut out;
    int counts[4] = {0, 0, 0, 0};
    for (const LiveResult &r : runs)
        ++counts[int(r.verdict)];
    out.raw("{\n  ").key("title").string(s.title);
    out.raw(",\n  ").key("runs").number(runs.size());
    out.raw(",\n  ").key("agreed").number(std::uint64_t(counts[int(Verdict::Agreed)]));
    out.raw(",\n  ").key("disagreed").number(std::uint64_t(counts[int(Verdict::Disagreed)]));
    out.raw(",\n  ").key("unjudged").number(std::uint64_t(counts[int(Verdict::Unjudged)]));
    out.raw(",\n  ").key("partial").number(std::uint64_t(counts[int(Verdict::Partial)]));
    if (!runs.empty())
        out.raw(",\n  ").key("etcd").string(runs.front().etcdVersion);
    out.raw(",\n  ").key("results").raw("[");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const LiveResult &r = runs[i];
        out.raw(i ? ",\n    " : "\n    ").raw("{ ").key("run").number(i + 1);
        out.raw(", ").key("verdict").string(toString(r.verdict));
        out.raw(", ").key("seconds").raw(QByteArray::number(r.seconds, 'f', 2).constData());
        out.raw(", ").key("summary");
        summary(out, r.observed.summary);
        out.raw(",\n      ").key("divergences");
        divergences(out, r.scenario.clients.empty() ? s : r.scenario, r.divergences, "        ",
                    "      ");
        out.raw(" }");
    }
    out.raw(runs.empty() ? "]" : "\n  ]").raw("\n}\n");
    return QByteArray::fromStdString(out.buffer());
}

} // namespace Live
