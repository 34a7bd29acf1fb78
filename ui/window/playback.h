#pragma once

// Plays the playhead forward at a chosen speed (ticks per second) and steps it from event to
// event. Owns only a timer: the playhead itself lives in ViewState, so scrubbing, stepping and
// playing all move the same thing.

#include "scenario.h"

#include <QObject>

class QTimer;
class ViewState;

namespace Core {
struct Trace;
}

class Playback : public QObject
{
    Q_OBJECT
public:
    explicit Playback(ViewState *state, QObject *parent = nullptr);

    bool isPlaying() const;
    double speed() const { return m_speed; }
    // Where playing stops (the trace's horizon).
    void setEnd(Core::Tick end) { m_end = end; }
    Core::Tick end() const { return m_end; }

    // The tick of the next (previous) event strictly after (before) the playhead; without a
    // playhead, the first (last) event. Returns false when there is none.
    static bool nextEventTick(const Core::Trace &trace, const ViewState &state, Core::Tick *tick);
    static bool previousEventTick(const Core::Trace &trace, const ViewState &state, Core::Tick *tick);

public slots:
    void setSpeed(double ticksPerSecond);
    void play();
    void pause();
    void toggle();

signals:
    void playingChanged(bool playing);

private:
    void advance();

    ViewState *m_state;
    QTimer *m_timer;
    double m_speed = 4;
    double m_carry = 0; // fractions of a tick not yet shown
    Core::Tick m_end = 0;
};
