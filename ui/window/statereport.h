#pragma once

// What the window shows, written as JSON to a file whenever it changes, so a script that drives
// the real app under Xvfb (scripts/xvfb-check.sh) can check what its keys and drags did and find
// where to drag. Only created when FENCESCOPE_STATE_FILE names a file; costs nothing otherwise.

#include <QByteArray>
#include <QObject>
#include <QString>

class MainWindow;
class QTimer;

class StateReport : public QObject
{
    Q_OBJECT
public:
    StateReport(MainWindow *window, const QString &path);

    // The JSON written: fencing, compare, presenting, playhead, undo index, counts, title, and
    // screen positions of the first client's pause row at a few ticks.
    static QByteArray describe(const MainWindow &window);

private:
    void write();

    MainWindow *m_window;
    QString m_path;
    QByteArray m_last;
    QTimer *m_poll;
};
