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
#include <cstdint>
#include <memory>
#include <utility>

namespace Core::FastLoad {
class Parts;
class PartReader;
} // namespace Core::FastLoad

namespace Core::ScenarioFormat {

// What the reader learns of the actions as it reads each one, while the action is in the cache
// (a second pass over a million loaded actions missed the cache on every one): the first
// problem with a blocking acquire's keys, which it takes into the action, and the keepalive
// bound. A check keeps nothing else of the actions: each is read into the one scratch action.
struct ActionTally
{
    Action scratch;
    std::size_t actions = 0;
    QString waitProblem; // the first (by place) of LockOptionsFile::takeWait()'s problems
    std::pair<std::size_t, std::size_t> waitAt{SIZE_MAX, SIZE_MAX}; // its action
    KeepaliveBound keepalives;
    std::size_t inChunks = 0; // of a file read in parts, the actions its threads read in chunks
    std::size_t plainInChunks = 0; // of those, the ones read in the plain shape (a shortcut)

    // The scratch action as a new one: copied from one made once (copying its empty texts and
    // kept keys costs nothing; making new ones is a call each, a million times).
    Action &freshScratch()
    {
        static const Action fresh;
        scratch = fresh;
        return scratch;
    }

    // (in any order: a part of a file read in parts reads its chunks as they come)
    void add(std::size_t client, std::size_t index, Action &a)
    {
        QString problem = LockOptionsFile::takeWait(a, client, index);
        if (!problem.isEmpty() && std::make_pair(client, index) < waitAt) {
            waitProblem = std::move(problem);
            waitAt = {client, index};
        }
        keepalives.add(client, index, a);
    }

    // What another part of the file's reading tallied (FastLoad::readInParts): as if this one
    // had read its actions too.
    void merge(const ActionTally &other)
    {
        if (other.waitAt < waitAt) {
            waitProblem = other.waitProblem;
            waitAt = other.waitAt;
        }
        keepalives.merge(other.keepalives);
        plainInChunks += other.plainInChunks;
    }
};

// The scenario in `doc` (a JSON object). Throws Problem (scenariofilevalues.h) for a problem
// with the content, Malformed where the second look at the file must word it. Every action is
// added to `tally` as it is read; with `keepActions` false, the clients come without their
// actions (a check).
Scenario readScenario(simdjson::ondemand::document &doc, const FileLimits &limits,
                      ActionTally &tally, bool keepActions);

// The reader as a file read in parts uses it (fastload/parts.h): with `outer`, the reader of
// the outer document at `outerBegin`; without, a thread's reader of chunks. What parsePadded()
// hands FastLoad::read(), which knows the reader by this alone.
std::unique_ptr<FastLoad::PartReader> partReader(const FileLimits &limits, ActionTally &tally,
                                                 bool keepActions, FastLoad::Parts *outer,
                                                 const char *outerBegin);

} // namespace Core::ScenarioFormat
