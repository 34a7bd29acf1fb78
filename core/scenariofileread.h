#pragma once

// The scenario reader (scenariofileread.cpp): builds a Scenario from a parsed document, in
// file order, checking every key; with a tally, checks every action without keeping it.
// Internal to the core: ScenarioFile::parse, load, checkBytes and checkFile are its callers.

#include "lockoptionsfile.h"
#include "scenario.h"
#include "scenariofile.h"

#include <QString>

#include <simdjson.h>

#include <cstddef>

namespace Core::ScenarioFormat {

// What a check keeps of the actions instead of the actions: each is read into one scratch
// action, with every check the loader makes, and then only counted and summed up.
struct ActionTally
{
    Action scratch;
    std::size_t actions = 0;
    QString waitProblem; // the first of LockOptionsFile::take()'s problems with an action
    KeepaliveBound keepalives;

    void add(std::size_t client, std::size_t index, Action &a)
    {
        if (waitProblem.isEmpty())
            waitProblem = LockOptionsFile::takeWait(a, client, index);
        keepalives.add(client, index, a);
    }
};

// The scenario in `doc` (a JSON object). Throws Problem (scenariofilevalues.h) for a problem
// with the content, Malformed where the second look at the file must word it. With a tally,
// the clients come without their actions, which the tally counted (tally->actions).
Scenario readScenario(simdjson::ondemand::document &doc, const FileLimits &limits,
                      ActionTally *tally);

} // namespace Core::ScenarioFormat
