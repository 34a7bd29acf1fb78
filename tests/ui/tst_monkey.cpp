// A seeded monkey on the real MainWindow (issue 32, "nothing lost, whatever a person does").
//
// Thousands of random actions go through the window's input path: drags of every kind of element
// the timeline's hit test knows (tests/ui/monkey.cpp finds where each one is), keys and
// shortcuts, menu entries, right-click menus, the inspector's fields and the lane dialogs with
// bad entries mixed in, preset switches and file opens, compare, presentation, undo and redo.
// After every action the history must account for the scenario, and at checks (before each
// switch or open, which starts a new history, now and then on its own, and at the end) undoing
// everything gives back the scenario as it was opened byte for byte (ScenarioFile::serialize),
// and redoing everything the last one; the document's trace is then the one a fresh
// simulation of its scenario gives. Nothing may crash.
//
//   FENCESCOPE_MONKEY_STEPS  how many actions: 10,000 for the whole run (too long to run with
//                            every test run); by default 400 as ctest runs it, 150 with
//                            FENCESCOPE_QUICK (the sanitizer build, where every step is slower)
//                            (the whole run needs QTEST_FUNCTION_TIMEOUT above QtTest's 300 s)
//   FENCESCOPE_MONKEY_SEED   the seed (default 32); a failure or a crash prints seed and step:
//                            FENCESCOPE_MONKEY_SEED=S FENCESCOPE_MONKEY_STEPS=N replays up to it
//   FENCESCOPE_MONKEY_LOG=1  print every action as it is done
//
// Modal dialogs never block: the window answers with scripted dialogs (scripteddialogs.h), the
// unsaved-changes answer and the paths of Open and Save are chosen by the monkey before an
// action that may ask, and the export dialogs are handed to handlers it sets.

#include "monkey.h"
#include "scripteddialogs.h"

#include "document/document.h"
#include "tracecompare.h"
#include "window/mainwindow.h"

#include "scenariofile.h"
#include "simulator.h"

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <unistd.h>

// GCC says it builds with AddressSanitizer by __SANITIZE_ADDRESS__, clang 14 (the asan preset's
// compiler) only by __has_feature (clang's docs/AddressSanitizer.rst, "Conditional Compilation
// with __has_feature(address_sanitizer)").
#if defined(__SANITIZE_ADDRESS__)
#define FENCESCOPE_MONKEY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FENCESCOPE_MONKEY_ASAN 1
#endif
#endif
#if defined(FENCESCOPE_MONKEY_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

namespace {

// The same seed, the same run: QHash's order (menus, sets in the app) is the same in every
// process. Before main(), so before the first hash is made.
const bool g_deterministicHashes = [] {
    QHashSeed::setDeterministicGlobalSeed();
    return true;
}();

// Where the monkey is, for a crash: written before each action, printed by the handlers below.
char g_where[512] = "monkey: not started\n";

void printWhere()
{
    const ssize_t written = ::write(STDERR_FILENO, g_where, std::strlen(g_where));
    (void)written; // nothing to do about a failed write while crashing
}

struct sigaction g_previous[NSIG];

void onFatalSignal(int sig, siginfo_t *info, void *context)
{
    printWhere();
    // then whatever handled it before (QtTest's report, or the default: core dump)
    const struct sigaction &prev = g_previous[sig];
    if (prev.sa_flags & SA_SIGINFO) {
        if (prev.sa_sigaction) {
            prev.sa_sigaction(sig, info, context);
            return;
        }
    } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
        prev.sa_handler(sig);
        return;
    }
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void installCrashReport()
{
    for (const int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = onFatalSignal;
        sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(sig, &sa, &g_previous[sig]);
    }
#if defined(FENCESCOPE_MONKEY_ASAN)
    // a sanitizer's report ends the process without a signal unless abort_on_error is set
    __sanitizer_set_death_callback(printWhere);
#endif
}

// The offscreen platform's notes on what it cannot do (raise, grab the keyboard) and QTest's on
// a drag that leaves the window say nothing about the app: thousands of them would bury the
// messages that do.
QtMessageHandler g_qtestHandler = nullptr;

void quietHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg &&
        (message.startsWith(QLatin1String("This plugin does not support")) ||
         message.contains(QLatin1String("occurs outside target window"))))
        return;
    g_qtestHandler(type, context, message);
}

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok ? v : fallback;
}

} // namespace

class TestMonkey : public QObject
{
    Q_OBJECT

    QTemporaryDir m_autosave;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_monkey"));
        QSettings().clear();
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
        installCrashReport();
        g_qtestHandler = qInstallMessageHandler(quietHandler);
    }

    void nothingLostWhateverAPersonDoes()
    {
        const int steps = envInt("FENCESCOPE_MONKEY_STEPS",
                                 qEnvironmentVariableIsSet("FENCESCOPE_QUICK") ? 150 : 400);
        bool seedOk = false;
        quint64 seed = qEnvironmentVariable("FENCESCOPE_MONKEY_SEED").toULongLong(&seedOk);
        if (!seedOk)
            seed = 32;
        qInfo("monkey: seed %llu, %d steps (replay: FENCESCOPE_MONKEY_SEED=%llu "
              "FENCESCOPE_MONKEY_STEPS=%d)",
              seed, steps, seed, steps);

        MainWindow window;
        scriptDialogs(window);
        window.resize(1280, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        Monkey monkey(&window, seed);
        for (int step = 1; step <= steps && !monkey.failed(); ++step) {
            std::snprintf(g_where, sizeof g_where,
                          "monkey: crashed at seed %llu step %d; replay with "
                          "FENCESCOPE_MONKEY_SEED=%llu FENCESCOPE_MONKEY_STEPS=%d\n",
                          seed, step, seed, step);
            monkey.step(step);
        }
        if (!monkey.failed())
            monkey.finalCheck(steps);
        std::snprintf(g_where, sizeof g_where, "monkey: crashed after its run (seed %llu)\n", seed);
        qInfo("%s", qPrintable(monkey.summary()));
        QVERIFY2(!monkey.failed(), qPrintable(monkey.failure()));
        window.document()->markSaved(); // no question on close
    }
};

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
