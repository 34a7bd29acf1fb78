#pragma once

// The token sources of docs/SCENARIO.md section 9 as pure functions: their first values, the
// seeded draw of `random`, the lock server's clock of `wallclock`, and each token written in
// its system's own form, so every view (timeline, chart, log, story, CLI) shows it alike.

#include "scenario.h"

#include <QString>

namespace Core {

// The source's counter before the first change (section 14, "First values"): the next
// token for counter, chubby and kafka-epoch; the store revision (etcd), zxid (zookeeper) and
// term (raft-term) that the first change adds 1 to; 0 where there is no counter.
Token firstCounter(TokenSource source, const LockOptions &options);
// True for the sources whose counter a restore puts back and a bump raises.
bool hasCounter(TokenSource source);
// The lock options as they stand after switching to `source`: every option that belongs to
// another source goes back to its default (the file refuses it there, section 14), restores
// and the lock-delay stay, a restore's bump only where there is a counter to bump.
LockOptions lockOptionsFor(TokenSource source, const LockOptions &options);
// random: the token of grant number n (1, 2, ...) for seed s, exactly as section 9 says.
Token randomToken(std::uint64_t seed, std::uint64_t n);
// wallclock: the lock server's clock at tick t, as a signed number (the loader refuses steps
// that make it negative at any tick; the token is then this value).
std::int64_t wallClockAt(const LockOptions &options, Tick t);
Token wallClockToken(const LockOptions &options, Tick t);

// A token as its system writes it: counter "7", etcd "rev 7", zookeeper "0x1_00000003",
// raft-term "term 3", kafka-epoch "epoch 3", chubby "lock:exclusive:7", random "#a3f…" (hex),
// wallclock "clock 1012", none "no token". Short enough for a label on a lease bar.
QString formatToken(TokenSource source, Token token);
// The same with what it means, for tooltips and explanations: "zxid 0x1_00000003 (ZooKeeper
// epoch 1, change #3)", "create revision 7 of the lock key", "Raft term 3", ...
QString describeToken(TokenSource source, Token token);
// What the source is, in its system's words: "etcd's store revision", "the ZooKeeper zxid", ...
QString describeSource(TokenSource source);

} // namespace Core
