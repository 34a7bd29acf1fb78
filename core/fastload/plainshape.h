#pragma once

// The plain shape nearly every action of a large file has: "at" and "do", then the keys of its
// kind (an acquire's ttl, a pause's for, a write's value, storage and delay, a read's storage
// and delay), each once and spelled without escapes, numbers as plain digits. A chunk's reader
// (chunkreader.h) reads such an action without a Token for each key, the kind and the storage
// matched on their raw bytes; anything else it hands to the scenario reader in full. Internal
// to the core.

#include "scenario.h"
#include "scenariofile.h"

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace Core::FastLoad {

// What a plain action says (`amount`: an acquire's ttl, a pause's length, a write's or a read's
// delay; `value`: a write's, as the file spells it, valid while the chunk's document is).
struct PlainAction
{
    Tick at = 0;
    ActionKind kind = ActionKind::Acquire;
    Tick amount = 0;
    std::uint32_t storage = 0;
    std::string_view value;
};

class PlainShape
{
public:
    explicit PlainShape(const FileLimits &limits);

    // The storages the outer reader read, by their names in the file.
    void useStorages(const std::vector<std::string> &utf8);

    // The action in `object` when it is in the plain shape (its values in range: what the full
    // reading would take without a problem). False for anything else, with the object read
    // part way: the caller reads it again from its first key, in full, which words any problem.
    bool read(simdjson::ondemand::object &object, PlainAction &out) const;

private:
    bool m_deepEnough; // (the limits allow an action's values: with less, the full reading fails)
    // each storage's name as a plain action spells it, quoted; empty for a name with a quote
    // or a backslash (escaped there, so it matches no plain one)
    std::vector<std::string> m_storageQuoted;
};

} // namespace Core::FastLoad
