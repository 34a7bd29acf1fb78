// Background work of the window (sweeps, find and shrink) runs at the lowest CPU priority so
// the window stays smooth: the work's thread, and threads it starts, have nice 19; the caller
// keeps its own priority and gets the work's result.

#include "views/lowpriority.h"

#include <QTest>

#include <sys/resource.h>
#include <unistd.h>

#include <string>
#include <thread>

namespace {

int niceOfThisThread()
{
    return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
}

} // namespace

class TestLowPriority : public QObject
{
    Q_OBJECT
private slots:
    void workRunsAtNice19AndReturnsItsResult()
    {
        const int before = niceOfThisThread();
        QVERIFY(before < 19);
        int inside = -100;
        int started = -100;
        const std::string result = runAtLowPriority([&] {
            inside = niceOfThisThread();
            // what runSweep does: its worker threads inherit the priority
            std::thread t([&] { started = niceOfThisThread(); });
            t.join();
            return std::string("done");
        });
        QCOMPARE(result, std::string("done"));
        QCOMPARE(inside, 19);
        QCOMPARE(started, 19);
        QCOMPARE(niceOfThisThread(), before);
    }
};

QTEST_GUILESS_MAIN(TestLowPriority)
#include "tst_lowpriority.moc"
