#include "viewstate.h"

#include <QtGlobal>

#include <algorithm>

ViewState::ViewState(QObject *parent) : QObject(parent) {}

void ViewState::setAxis(double firstTick, double pixelsPerTick)
{
    pixelsPerTick = qBound(kMinPixelsPerTick, pixelsPerTick, kMaxPixelsPerTick);
    if (qFuzzyCompare(firstTick + 1, m_firstTick + 1) && qFuzzyCompare(pixelsPerTick, m_pixelsPerTick))
        return;
    m_firstTick = firstTick;
    m_pixelsPerTick = pixelsPerTick;
    emit axisChanged();
}

void ViewState::scrollBy(double ticks)
{
    setAxis(m_firstTick + ticks, m_pixelsPerTick);
}

void ViewState::zoomAround(double anchorTick, double factor)
{
    const double ppt = qBound(kMinPixelsPerTick, m_pixelsPerTick * factor, kMaxPixelsPerTick);
    // keep the anchor's screen offset: (anchor - first) * ppt stays constant
    const double offsetPx = (anchorTick - m_firstTick) * m_pixelsPerTick;
    setAxis(anchorTick - offsetPx / ppt, ppt);
}

void ViewState::fit(double from, double to, double width)
{
    const double span = std::max(1.0, to - from);
    setAxis(from, std::max(1.0, width) / span);
}

void ViewState::setSelection(const Selection &selection)
{
    if (selection == m_selection)
        return;
    m_selection = selection;
    emit selectionChanged(selection);
}

void ViewState::setPlayhead(Core::Tick tick)
{
    if (tick == m_playhead)
        return;
    m_playhead = tick;
    emit playheadChanged(tick);
}

void ViewState::setPlayheadBefore(bool on)
{
    if (on == m_playheadBefore)
        return;
    m_playheadBefore = on;
    emit playheadChanged(m_playhead);
}

void ViewState::setHideFuture(bool on)
{
    if (on == m_hideFuture)
        return;
    m_hideFuture = on;
    emit playheadChanged(m_playhead);
}

std::optional<Core::Tick> ViewState::shownBefore() const
{
    if (!m_hideFuture || !hasPlayhead())
        return std::nullopt;
    return playheadBefore() ? m_playhead : m_playhead + 1;
}

void ViewState::setCompare(bool on)
{
    if (on == m_compare)
        return;
    m_compare = on;
    emit compareChanged(on);
}

void ViewState::setCompareSource(std::optional<Core::TokenSource> source)
{
    if (source == m_compareSource)
        return;
    m_compareSource = source;
    emit compareSourceChanged();
}
