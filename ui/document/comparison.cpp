#include "document/comparison.h"

#include "document/document.h"
#include "storysteps.h"
#include "tokensource.h"
#include "viewstate.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

QString sourceRunName(Core::TokenSource source)
{
    return QCoreApplication::translate("Comparison", "%1 tokens").arg(Core::toString(source));
}

QString Comparison::about(bool topSide, const QString &text) const
{
    if (bySource)
        return QCoreApplication::translate("Comparison", "With %1: %2")
            .arg(side(topSide).name, text);
    return topSide ? QCoreApplication::translate("Comparison", "With fencing: %1").arg(text)
                   : QCoreApplication::translate("Comparison", "Without fencing: %1").arg(text);
}

const Core::Trace &comparisonTopTrace(const Document &doc, std::optional<Core::TokenSource> source)
{
    if (const ComparedRuns *runs = doc.comparedRuns())
        return runs->top.trace;
    return source ? doc.trace() : doc.traceFor(true);
}

const Core::Trace &comparisonBottomTrace(const Document &doc,
                                         std::optional<Core::TokenSource> source)
{
    if (const ComparedRuns *runs = doc.comparedRuns())
        return runs->bottom.trace;
    return source ? doc.traceWithSource(*source) : doc.traceFor(false);
}

const Core::Trace &shownTrace(const Document &doc, const ViewState &state,
                              const Core::Trace &full)
{
    const std::optional<Core::Tick> before = state.shownBefore();
    return before ? doc.traceBefore(full, *before) : full;
}

std::vector<Core::Tick> storyTicks(const Document &doc, const ViewState &state)
{
    if (!state.compare())
        return Core::storyStepTicks(doc.scenario(), doc.trace());
    const Comparison c = comparison(doc, state.compareSource());
    const std::vector<Core::Tick> top = Core::storyStepTicks(*c.top.scenario, *c.top.trace);
    const std::vector<Core::Tick> bottom =
        Core::storyStepTicks(*c.bottom.scenario, *c.bottom.trace);
    std::vector<Core::Tick> both;
    std::set_union(top.begin(), top.end(), bottom.begin(), bottom.end(), std::back_inserter(both));
    return both;
}

Comparison comparison(const Document &doc, const ViewState &state)
{
    Comparison c = comparison(doc, state.compareSource());
    c.top.trace = &shownTrace(doc, state, *c.top.trace);
    c.bottom.trace = &shownTrace(doc, state, *c.bottom.trace);
    return c;
}

Comparison comparison(const Document &doc, std::optional<Core::TokenSource> other)
{
    Comparison c;
    if (const ComparedRuns *runs = doc.comparedRuns()) {
        c.bySource = true;
        c.top = {&runs->top.scenario, &runs->top.trace, runs->top.name, runs->top.title};
        c.bottom = {&runs->bottom.scenario, &runs->bottom.trace, runs->bottom.name,
                    runs->bottom.title};
        return c;
    }
    if (!other) {
        c.top = {&doc.scenario(), &comparisonTopTrace(doc, other),
                 QCoreApplication::translate("Comparison", "fenced"),
                 QCoreApplication::translate("Comparison",
                                             "Fencing ON: the storage checks every token")};
        c.bottom = {&doc.scenario(), &comparisonBottomTrace(doc, other),
                    QCoreApplication::translate("Comparison", "unfenced"),
                    QCoreApplication::translate("Comparison",
                                                "Fencing OFF: the same schedule, tokens ignored")};
        return c;
    }
    c.bySource = true;
    const Core::Scenario &s = doc.scenario();
    const QString fencing = s.fencing ? QCoreApplication::translate("Comparison", "fencing on")
                                      : QCoreApplication::translate("Comparison", "fencing off");
    c.top = {&s, &comparisonTopTrace(doc, other), sourceRunName(s.tokens),
             QCoreApplication::translate("Comparison", "%1 (%2): %3")
                 .arg(sourceRunName(s.tokens), fencing, Core::describeSource(s.tokens))};
    const Core::Scenario &alt = doc.scenarioWithSource(*other);
    c.bottom = {&alt, &comparisonBottomTrace(doc, other), sourceRunName(*other),
                QCoreApplication::translate("Comparison", "%1 (%2): the same schedule, %3")
                    .arg(sourceRunName(*other), fencing, Core::describeSource(*other))};
    return c;
}
