#pragma once

// What the tests of fencescope-cli's run report and command line share (tests/cli/tst_cli*.cpp):
// the CLI run as a process with a minute to finish, the paths of the built-in scenarios and of
// the test data, a report read as JSON, and the shape of a usage error (exit status 2, nothing
// on standard output, exactly one line on standard error).

#include "cliprocess.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace CliRun {

using Result = CliProcess::Result;

inline Result cli(const QStringList &args, const QByteArray &input = {},
                  const QString &stdoutFile = {})
{
    CliProcess::Options o;
    o.input = input;
    o.stdoutFile = stdoutFile;
    o.timeoutMs = 60000;
    return CliProcess::run(QStringLiteral(FENCESCOPE_CLI), args, o);
}

inline QString scenarioPath(const QString &name)
{
    return QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/%1.json").arg(name);
}

inline QString dataPath(const QString &name)
{
    return QStringLiteral(FENCESCOPE_TESTDATA "/%1").arg(name);
}

inline QJsonObject parseObject(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        qWarning("not a JSON object: %s\n%s", qPrintable(error.errorString()), json.constData());
    return doc.object();
}

inline QJsonObject object(const char *json)
{
    return parseObject(QByteArray(json));
}

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline void expectUsageError(const Result &r, const QString &line)
{
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.isEmpty(), r.out.constData());
    QCOMPARE(r.err.count('\n'), 1); // exactly one line
    QVERIFY(r.err.endsWith('\n'));
    QCOMPARE(QString::fromUtf8(r.err.trimmed()), line);
}

} // namespace CliRun
