#include "window/playback.h"

#include "viewstate.h"

#include "trace.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace {
// Fast enough to look smooth, slow enough not to re-render for nothing.
constexpr int kFrameMs = 40;
} // namespace

Playback::Playback(ViewState *state, QObject *parent)
    : QObject(parent), m_state(state), m_timer(new QTimer(this))
{
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &Playback::advance);
}

bool Playback::isPlaying() const
{
    return m_timer->isActive();
}

void Playback::setSpeed(double ticksPerSecond)
{
    m_speed = std::max(0.1, ticksPerSecond);
    if (isPlaying())
        m_timer->start(std::max(kFrameMs, int(1000 / m_speed)));
}

void Playback::play()
{
    if (isPlaying())
        return;
    // from the start when there is no playhead or it already reached the end
    if (!m_state->hasPlayhead() || m_state->playhead() >= m_end)
        m_state->setPlayhead(0);
    m_carry = 0;
    // slow speeds step a whole tick per timeout; fast ones several ticks per frame
    m_timer->start(std::max(kFrameMs, int(1000 / m_speed)));
    emit playingChanged(true);
}

void Playback::pause()
{
    if (!isPlaying())
        return;
    m_timer->stop();
    emit playingChanged(false);
}

void Playback::toggle()
{
    if (isPlaying())
        pause();
    else
        play();
}

void Playback::advance()
{
    if (!m_state->hasPlayhead()) {
        pause();
        return;
    }
    m_carry += m_speed * m_timer->interval() / 1000.0;
    const double whole = std::floor(m_carry);
    if (whole < 1)
        return;
    m_carry -= whole;
    const Core::Tick next = std::min<Core::Tick>(m_end, m_state->playhead() + Core::Tick(whole));
    m_state->setPlayhead(next);
    if (next >= m_end)
        pause();
}

bool Playback::nextEventTick(const Core::Trace &trace, const ViewState &state, Core::Tick *tick)
{
    if (trace.events.empty())
        return false;
    if (!state.hasPlayhead()) {
        *tick = trace.events.front().tick;
        return true;
    }
    const std::uint32_t i = trace.firstEventAt(state.playhead() + 1);
    if (i >= trace.events.size())
        return false;
    *tick = trace.events[i].tick;
    return true;
}

bool Playback::previousEventTick(const Core::Trace &trace, const ViewState &state, Core::Tick *tick)
{
    if (trace.events.empty())
        return false;
    if (!state.hasPlayhead()) {
        *tick = trace.events.back().tick;
        return true;
    }
    if (state.playhead() == 0)
        return false;
    const std::uint32_t i = trace.lastEventAtOrBefore(state.playhead() - 1);
    if (i == Core::kNone)
        return false;
    *tick = trace.events[i].tick;
    return true;
}
