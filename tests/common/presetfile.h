#pragma once

// A built-in scenario by name (resources/scenarios/NAME.json, compiled into the core), for tests
// that work a preset's lesson out by hand. A preset that does not load stops the test at once.

#include "scenariofile.h"

#include <QString>

namespace TestSupport {

inline Core::Scenario preset(const char *name)
{
    const Core::LoadResult r =
        Core::ScenarioFile::load(QStringLiteral(":/scenarios/%1.json").arg(QLatin1String(name)));
    if (!r.ok())
        qFatal("%s: %s", name, qPrintable(r.error));
    return *r.scenario;
}

} // namespace TestSupport
