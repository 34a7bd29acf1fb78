#pragma once

// Readable failures for the core's enums. Core::toString() already exists for most of them and
// ADL would prefer it (it returns a QString) over a QTest::toString specialization, so those are
// compared through their names with QCOMPARE_NAME.

#include "scenario.h"
#include "trace.h"

#include <QtTest/qtestcase.h>

#define QCOMPARE_NAME(actual, expected) QCOMPARE(Core::toString(actual), Core::toString(expected))

namespace QTest {

template<>
inline char *toString(const Core::BeliefEnd &e)
{
    static const char *const names[] = {"Never", "Regranted", "Refused", "Rejected", "Released"};
    return qstrdup(names[int(e)]);
}

template <> inline char *toString(const Core::TickRange &r)
{
    return qstrdup(QStringLiteral("[%1, %2)").arg(r.from).arg(r.to).toUtf8().constData());
}

} // namespace QTest
