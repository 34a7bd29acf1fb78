#pragma once

// Zoom, scroll, selection, playhead and compare mode, shared by every view of a document
// (timeline, token chart, event log). Views listen to the signals; none of them owns this.

#include "scenario.h"
#include "trace.h"

#include <QObject>

#include <optional>

// What is selected, in scenario terms so it survives re-simulation: one action of one client.
struct Selection
{
    int client = -1;
    int action = -1;

    bool isValid() const { return client >= 0 && action >= 0; }
    friend bool operator==(const Selection &a, const Selection &b)
    {
        return a.client == b.client && a.action == b.action;
    }
    friend bool operator!=(const Selection &a, const Selection &b) { return !(a == b); }
};

class ViewState : public QObject
{
    Q_OBJECT
public:
    static constexpr double kMinPixelsPerTick = 1e-6;
    static constexpr double kMaxPixelsPerTick = 400;

    explicit ViewState(QObject *parent = nullptr);

    // Time axis: the tick at the left edge of the lanes and the zoom.
    double firstTick() const { return m_firstTick; }
    double pixelsPerTick() const { return m_pixelsPerTick; }
    void setAxis(double firstTick, double pixelsPerTick);
    void scrollBy(double ticks);
    // Zoom by `factor` keeping `anchorTick` at the same place on screen.
    void zoomAround(double anchorTick, double factor);
    // Show [from, to] across `width` pixels.
    void fit(double from, double to, double width);

    Selection selection() const { return m_selection; }
    void setSelection(const Selection &selection);
    void clearSelection() { setSelection({}); }

    // Everything after the playhead is dimmed (hidden while hidesFuture()); kForever: no
    // playhead, all shown.
    Core::Tick playhead() const { return m_playhead; }
    bool hasPlayhead() const { return m_playhead != Core::kForever; }
    void setPlayhead(Core::Tick tick);
    void clearPlayhead() { setPlayhead(Core::kForever); }
    // The playhead stands just before its tick: nothing of that tick has happened yet
    // (presentation mode's start, before the first step). Emits playheadChanged.
    bool playheadBefore() const { return m_playheadBefore && hasPlayhead(); }
    void setPlayheadBefore(bool on);

    // Presentation mode and a lesson's question: what has not happened by the playhead is
    // hidden in every view, not dimmed, so a room can predict it. Views then show each run as
    // it stands before shownBefore() (Document::traceBefore). Emits playheadChanged.
    bool hidesFuture() const { return m_hideFuture; }
    void setHideFuture(bool on);
    // The first tick a view must not show anything of; nullopt: everything is shown.
    std::optional<Core::Tick> shownBefore() const;

    // Two runs of the schedule, one above the other on one time axis: fenced over unfenced, or,
    // with a compare source, the scenario's own token source over that one (same fencing).
    bool compare() const { return m_compare; }
    void setCompare(bool on);
    std::optional<Core::TokenSource> compareSource() const { return m_compareSource; }
    void setCompareSource(std::optional<Core::TokenSource> source);

signals:
    void axisChanged();
    void selectionChanged(const Selection &selection);
    void playheadChanged(Core::Tick tick);
    void compareChanged(bool on);
    void compareSourceChanged();

private:
    double m_firstTick = -1;
    double m_pixelsPerTick = 20;
    Selection m_selection;
    Core::Tick m_playhead = Core::kForever;
    bool m_playheadBefore = false;
    bool m_hideFuture = false;
    bool m_compare = false;
    std::optional<Core::TokenSource> m_compareSource;
};
