#pragma once

// A picture's runs simulated here, as a caller of the exporter simulates them (the exporter
// simulates nothing): the run shown (Exporter::shownFencing), the unfenced one in compare mode,
// each cut at Exporter::cutBefore by Core::runBefore when the picture hides the future. Passes
// as the ExportRuns of one call: Exporter::renderImage(s, TestRuns(s, o), o).

#include "exporter.h"
#include "runstate.h"
#include "simulator.h"

struct TestRuns
{
    Core::Trace shown;
    Core::Trace unfenced;
    bool compare = false;

    TestRuns(const Core::Scenario &s, const ExportOptions &o) : compare(o.compare)
    {
        shown = Core::simulate(s, Exporter::shownFencing(s, o));
        if (compare)
            unfenced = Core::simulate(s, false);
        if (const std::optional<Core::Tick> before = Exporter::cutBefore(o)) {
            shown = Core::runBefore(s, shown, *before);
            if (compare)
                unfenced = Core::runBefore(s, unfenced, *before);
        }
    }
    ExportRuns runs() const { return {shown, compare ? &unfenced : nullptr}; }
    operator ExportRuns() const { return runs(); } // NOLINT: one call's runs, by design
};
