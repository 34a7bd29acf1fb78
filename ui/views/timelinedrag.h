#pragma once

// A drag of one action on the timeline, without the widget: what was grabbed, the action as it
// was on press, and the edits of each step. Every step moves the grabbed part by the whole
// number of ticks the pointer has gone from the press (at the pixels per tick it is given) and
// previews the result with Document::setAction(..., previewThrough); finish() pushes one undo
// step (EditCommands::FinishedDrag) if the action changed, cancel() puts it back and pushes
// nothing. TimelineView keeps the mouse, the cursor and the painting of label(); it calls
// begin() on press, move() on each move and on release, finish() on release, cancel() on Esc.

#include "timelinerenderer.h"

#include "scenario.h"
#include "trace.h"

#include <QCoreApplication>
#include <QPointF>
#include <QString>

class Document;

class TimelineDrag
{
    Q_DECLARE_TR_FUNCTIONS(TimelineDrag)
public:
    using Hit = TimelineRenderer::Hit;

    explicit TimelineDrag(Document *doc);

    // Grabs the action `hit` names, pressed at `pos`; false (and nothing grabbed) when the hit
    // is not a part a drag changes. `trace` is the one the hit was found in: a lease end's
    // expiry on press is read there, for the label.
    bool begin(const Hit &hit, QPointF pos, const Core::Trace &trace);
    // The pointer is at `pos`. Less than 3 px from the press (either way) is no move yet: nothing
    // changes. Otherwise the label says the new value and the document gets the edited action,
    // re-simulated through `previewThrough` (TimelineView::previewThrough()).
    void move(QPointF pos, double pixelsPerTick, Core::Tick previewThrough);
    // Ends the drag: one undo step when the action changed, none when it did not.
    void finish();
    // Ends the drag with the action as it was on press; nothing on the undo stack.
    void cancel();

    bool isActive() const { return m_active; }
    // Past the 3 px a press may wobble: the drag has edited (or may edit) the action.
    bool hasMoved() const { return m_moved; }
    const Hit &hit() const { return m_hit; }
    // The action as it was on press.
    const Core::Action &before() const { return m_before; }
    QPointF pressPos() const { return m_pressPos; }
    // Where the pointer was last (the label is drawn next to it).
    QPointF lastPos() const { return m_lastPos; }
    // The value next to the pointer ("gap 2", "ttl 5: expires at 12"); empty before a move.
    QString label() const { return m_active && m_moved ? m_label : QString(); }

    // The grabbed action as a pointer at `pos` leaves it: whole ticks from the press, kept in
    // range (ticks >= 0, a pause's length and a ttl >= 1, a check's gap >= 0).
    Core::Action draggedAction(QPointF pos, double pixelsPerTick) const;

    // value + delta, kept at or above min and at most the largest tick a file holds (the
    // arrow-key nudge keeps its ticks the same way).
    static Core::Tick shifted(Core::Tick value, qint64 delta, Core::Tick min);

private:
    QString undoText() const;
    QString labelFor(const Core::Action &a) const;

    Document *m_doc;
    bool m_active = false;
    bool m_moved = false;
    Hit m_hit;
    Core::Action m_before;
    Core::Tick m_leaseEnd = 0; // LeaseEnd: the expiry on press
    QPointF m_pressPos;
    QPointF m_lastPos;
    QString m_label;
};
