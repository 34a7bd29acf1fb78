#pragma once

// Runs a program as a user's shell would, for the tests that drive the real binaries
// (tests/cli): its exit status and what it wrote, with optional input, working folder, a file
// for standard output and no display.

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace CliProcess {

struct Result
{
    int exitCode = -1; // -1: it did not start, or did not finish in time (killed); -2: crashed
    QByteArray out;
    QByteArray err;
};

struct Options
{
    QByteArray input;         // written to standard input, which is then closed
    QString workingDirectory; // empty: the test's own
    QString stdoutFile;       // non-empty: standard output goes to this file
    // QT_QPA_PLATFORM and DISPLAY removed: a command that draws must manage without a display
    bool noDisplay = false;
    QProcessEnvironment extra; // added to the environment
    int timeoutMs = 120000;
};

inline Result run(const QString &program, const QStringList &args, const Options &o = {})
{
    QProcess p;
    if (!o.workingDirectory.isEmpty())
        p.setWorkingDirectory(o.workingDirectory);
    if (!o.stdoutFile.isEmpty())
        p.setStandardOutputFile(o.stdoutFile);
    if (o.noDisplay || !o.extra.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (o.noDisplay) {
            env.remove(QStringLiteral("QT_QPA_PLATFORM"));
            env.remove(QStringLiteral("DISPLAY"));
        }
        for (const QString &key : o.extra.keys())
            env.insert(key, o.extra.value(key));
        p.setProcessEnvironment(env);
    }
    p.start(program, args);
    Result r;
    if (!p.waitForStarted(10000))
        return r;
    p.write(o.input);
    p.closeWriteChannel();
    if (!p.waitForFinished(o.timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace CliProcess
