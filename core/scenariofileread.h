#pragma once

// The scenario reader (scenariofileread.cpp): builds a Scenario from a parsed document, in
// file order, checking every key; for a check, checks every action without keeping it.
// Internal to the core: ScenarioFile::parse, load, checkBytes and checkFile are its callers.

#include "lockoptionsfile.h"
#include "scenario.h"
#include "scenariofile.h"

#include <QString>

#include <simdjson.h>

#include <cstddef>

namespace Core::ScenarioFormat {

// What the reader learns of the actions as it reads each one, while the action is in the cache
// (a second pass over a million loaded actions missed the cache on every one): the first
// problem with a blocking acquire's keys, which it takes into the action, and the keepalive
// bound. A check keeps nothing else of the actions: each is read into the one scratch action.
struct ActionTally
{
    Action scratch;
    std::size_t actions = 0;
    QString waitProblem; // the first of LockOptionsFile::takeWait()'s problems with an action
    KeepaliveBound keepalives;

    void add(std::size_t client, std::size_t index, Action &a)
    {
        if (waitProblem.isEmpty())
            waitProblem = LockOptionsFile::takeWait(a, client, index);
        keepalives.add(client, index, a);
    }
};

// The scenario in `doc` (a JSON object). Throws Problem (scenariofilevalues.h) for a problem
// with the content, Malformed where the second look at the file must word it. Every action is
// added to `tally` as it is read; with `keepActions` false, the clients come without their
// actions (a check).
Scenario readScenario(simdjson::ondemand::document &doc, const FileLimits &limits,
                      ActionTally &tally, bool keepActions);

} // namespace Core::ScenarioFormat
