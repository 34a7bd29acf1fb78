#pragma once

// A built-in scenario by name (resources/scenarios/NAME.json, compiled into the core), for tests
// that work a preset's lesson out by hand. A preset that does not load stops the test at once.

#include "scenariofile.h"

#include <QString>

namespace TestSupport {

inline Core::Scenario preset(const QString &name)
{
    const Core::LoadResult r = Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
    if (!r.ok())
        qFatal("%s: %s", qPrintable(name), qPrintable(r.error));
    return *r.scenario;
}

inline Core::Scenario preset(const char *name)
{
    return preset(QLatin1String(name));
}

} // namespace TestSupport
