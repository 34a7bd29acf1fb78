#pragma once

// The coordinator's side of one client lane: its process (`program --lane`), told its script
// on standard input, heard line by line on standard output, paused and continued with SIGSTOP
// and SIGCONT, and killed with its parent (childprocess.h).

#include "lanescript.h"

#include <QJsonObject>
#include <QObject>
#include <QProcess>

namespace Live {

class LaneProcess : public QObject
{
    Q_OBJECT
public:
    LaneProcess(const QString &program, const LaneScript &script, QObject *parent = nullptr);
    ~LaneProcess() override; // kills it if it still runs

    void start();
    // The run's start, once every lane is ready.
    void go(qint64 t0);
    bool stop();   // SIGSTOP: false if it could not be sent
    bool resume(); // SIGCONT
    bool isStopped() const { return m_stopped; }
    // Asks it to end (closes its input, continues it if stopped), then kills it after a grace.
    void finish();
    void kill();
    qint64 processId() const { return m_process.processId(); }
    std::uint32_t client() const { return m_client; }
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }

signals:
    // one line the process wrote: what it did and when (a JSON object)
    void reported(const QJsonObject &event);
    // The process ended before finish() was asked for: how ("killed by signal 9", "exited with
    // status 1: what it said last").
    void died(const QString &how);

private:
    void readLines();

    QProcess m_process;
    QByteArray m_script;
    QByteArray m_pending;
    QByteArray m_stderr;
    std::uint32_t m_client;
    bool m_stopped = false;
    bool m_finishing = false;
};

} // namespace Live
