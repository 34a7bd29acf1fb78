#pragma once

// A sweep's numbers as text: CSV (one row per point) and JSON (fencescope-cli sweep, the sweep
// panel's export), and the axis syntax of the command line ("pause=1..40:3", "ttl=5,10,20").

#include "sweep.h"

#include <QByteArray>
#include <QString>

namespace Core {

// "1..40" (every tick), "1..40:3" (from 1 in steps of 3, up to 40) or "5,10,20". Returns "" or
// an error naming the problem; checks the range of the quantity when one is given.
QString parseSweepValues(const QString &text, std::vector<Tick> *values,
                         const Quantity *quantity = nullptr);
// "pause=1..40:3": a quantity of quantities() and its values.
QString parseSweepAxis(const QString &text, SweepAxis *axis);

// Header and one row per finished point: the varied values, runs, and per side (unfenced
// first) and outcome: schedules, share, Wilson low and high, first and worst run.
QByteArray sweepCsv(const SweepSpec &spec, const SweepResult &result);
QByteArray sweepJson(const SweepSpec &spec, const SweepResult &result);

} // namespace Core
