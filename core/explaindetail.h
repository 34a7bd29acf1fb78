#pragma once

// The pieces explain.cpp, explainwrites.cpp, explainbrief.cpp and explainpitfalls.cpp share: how
// a tick, a token, a value and a name read in the explanations, a delayed write's sending, and
// the texts of sections 11 and 12 (keepalives, checks, reads, versions, bypass, restarts,
// groups), which explain.cpp calls from its event switch.

#include "scenario.h"
#include "trace.h"

#include <QString>

namespace Core::ExplainDetail {

QString num(std::uint64_t v);
QString at(Tick t);                       // "t=30"
QString quoted(const QString &value);     // "'A'"
QString tok(const Trace &trace, Token t); // in the source's own form
QString clientName(const Scenario &s, std::uint32_t c);
QString storageName(const Scenario &s, std::uint32_t i);

// A write leaving its client; one that arrives at once is told as its arrival (explainWrite).
QString explainWriteSent(const Scenario &s, const Trace &trace, std::uint32_t index);

QString explainRead(const Scenario &s, const Trace &trace, const Read &r, bool arrived);
QString explainCheck(const Scenario &s, const Trace &trace, const Check &c);
QString explainSkip(const Scenario &s, const Trace &trace, const Skip &k);
QString explainLost(const Scenario &s, const Trace &trace, const Lost &l);
QString explainKeepalive(const Scenario &s, const Trace &trace, const Grant &g);
// A write to a version storage (compare-and-set), whatever its result.
QString explainVersionWrite(const Scenario &s, const Trace &trace, std::uint32_t index);
// Extra sentences for a token-storage write: a bypass client's unchecked write, a volatile
// max_token forgotten in a restart before it, a check-then-write's check. Empty when none.
QString pitfallNotes(const Scenario &s, const Trace &trace, std::uint32_t index);
QString briefPitfallEvent(const Scenario &s, const Trace &trace, const Event &e);
// A write to an `owner` or `same` storage (section 15), whatever its result; and in a few words.
QString explainOwnerOrSameWrite(const Scenario &s, const Trace &trace, std::uint32_t index);
QString briefOwnerOrSameWrite(const Scenario &s, const Trace &trace, const Write &w);

} // namespace Core::ExplainDetail
