#include "laneprocess.h"

#include "childprocess.h"

#include <QJsonDocument>
#include <QTimer>

#include <csignal>

namespace Live {

namespace {

// How long a lane has to end by itself once its input is closed.
const int kFinishGraceMs = 1000;

} // namespace

LaneProcess::LaneProcess(const QString &program, const LaneScript &script, QObject *parent)
    : QObject(parent),
      m_script(QJsonDocument(script.toJson()).toJson(QJsonDocument::Compact) + '\n'),
      m_client(script.client)
{
    m_process.setProgram(program);
    m_process.setArguments({QStringLiteral("--lane")});
    dieWithParent(m_process);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &LaneProcess::readLines);
    connect(&m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_process.readAllStandardError();
        if (m_stderr.size() > 16 * 1024)
            m_stderr = m_stderr.right(4 * 1024);
    });
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readLines();
        if (m_finishing)
            return;
        QString how;
        if (status == QProcess::CrashExit) {
            how = QStringLiteral("was killed");
        } else {
            how = QStringLiteral("exited with status %1").arg(code);
            const QList<QByteArray> lines = m_stderr.trimmed().split('\n');
            if (!lines.isEmpty() && !lines.back().isEmpty())
                how += QStringLiteral(": ") + QString::fromUtf8(lines.back()).simplified();
        }
        emit died(how);
    });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && !m_finishing)
            emit died(QStringLiteral("could not start %1: %2")
                          .arg(m_process.program(), m_process.errorString()));
    });
}

LaneProcess::~LaneProcess()
{
    m_finishing = true;
    kill();
}

void LaneProcess::start()
{
    m_process.start();
    m_process.write(m_script);
}

void LaneProcess::go(qint64 t0)
{
    m_process.write(QJsonDocument(QJsonObject{{QStringLiteral("t0"), QString::number(t0)}})
                        .toJson(QJsonDocument::Compact) +
                    '\n');
}

bool LaneProcess::stop()
{
    const qint64 pid = m_process.processId();
    if (pid <= 0 || ::kill(pid_t(pid), SIGSTOP) != 0)
        return false;
    m_stopped = true;
    return true;
}

bool LaneProcess::resume()
{
    const qint64 pid = m_process.processId();
    if (pid <= 0 || ::kill(pid_t(pid), SIGCONT) != 0)
        return false;
    m_stopped = false;
    return true;
}

void LaneProcess::finish()
{
    if (m_finishing)
        return;
    m_finishing = true;
    if (m_stopped)
        resume();
    m_process.closeWriteChannel();
    QTimer::singleShot(kFinishGraceMs, this, &LaneProcess::kill);
}

void LaneProcess::kill()
{
    m_finishing = true;
    if (m_stopped)
        resume(); // (a stopped process takes SIGKILL too, but reaping is quicker awake)
    killNow(m_process);
}

void LaneProcess::readLines()
{
    m_pending += m_process.readAllStandardOutput();
    for (qsizetype nl; (nl = m_pending.indexOf('\n')) >= 0;) {
        const QByteArray line = m_pending.left(nl);
        m_pending.remove(0, nl + 1);
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (!o.isEmpty())
            emit reported(o);
    }
}

} // namespace Live
