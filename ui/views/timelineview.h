#pragma once

// The timeline widget: asks the renderer to paint the document's trace, turns mouse and
// keyboard input into zoom/scroll on the ViewState and into edit commands on the Document.
// It never simulates: a drag (TimelineDrag, which the view feeds the mouse) edits the scenario
// through the document, which re-simulates and emits changed(); the view repaints from the new
// trace.
//
// Keyboard: Tab / Shift+Tab walk the focus through each client lane's header and its actions
// (then on out of the widget; Ctrl+Tab leaves at once; Tab in lands on the selected action);
// a focused action is the selection. Once Tab or a click has put the focus on an action,
// Left / Right nudge it one tick (Shift: ten), one undo step per run of nudges; Enter asks for
// the inspector; Delete and Backspace remove it; Esc clears it (the focus stays on its lane);
// the Menu key (Shift+F10) opens the focused item's right-click menu. The focus order and
// what a screen reader hears are in timelineaccessible.h.

#include "theme.h"
#include "timecoordinates.h"
#include "timelinerenderer.h"
#include "views/timelineaccessible.h"
#include "views/timelinedrag.h"

#include <optional>
#include <utility>

#include "scenario.h"

#include <QPointF>
#include <QWidget>

class Document;
class QMenu;
class ViewState;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    TimelineView(Document *doc, ViewState *state, QWidget *parent = nullptr);

    void setTheme(const Theme &theme);
    const Theme &theme() const { return m_theme; }
    const TimelineRenderer &renderer() const { return m_renderer; }
    // How far a drag step re-simulates before the repaint (the rest follows between frames).
    Core::Tick previewThrough() const;
    // The axis the widget paints with: ViewState zoom/scroll, plot starting after the header.
    TimeAxis axis() const;
    // Options as painted now (theme, playhead, selection, hover, compare).
    TimelineRenderer::Options options() const;
    // The lane geometry inside this widget.
    TimelineLayout currentLayout() const;
    bool isDragging() const { return m_drag.isActive(); }
    // What a drag shows next to the cursor ("gap 2", "delay 3"); empty when not dragging.
    QString dragLabel() const { return m_drag.label(); }
    // Where that text's box is drawn (widget coordinates); empty when not dragging.
    QRectF dragLabelRect() const;
    const Core::Scenario &scenario() const;
    ViewState *viewState() const { return m_state; }
    // Where a focus stop is, in widget coordinates (top panel); empty for none. A lane: its
    // header cell and plot; an action: the box its focus ring is drawn around.
    QRectF stopRect(FocusStop stop) const;
    // Where the keyboard focus stands inside the timeline (none: nowhere yet).
    FocusStop focusStop() const { return m_focus; }
    // Moves the focus there: an action becomes the selection, a lane header clears it.
    void setFocusStop(FocusStop stop);

    // The tick range fitToWindow() shows: a lesson's scene's view (from, to); nullopt: the
    // whole run.
    void setFitRange(std::optional<std::pair<double, double>> range);
    std::optional<std::pair<double, double>> fitRange() const { return m_fitRange; }
    // Lessons: a write's right-click menu offers "Predict what happens to this write…" (a
    // question of the student's own) and, while a lesson is edited, "Ask what happens to this
    // write" in the lesson's scene. Both only emit writeQuestionRequested.
    void setWriteQuestions(bool predict, bool ask);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    void fitToWindow();
    void zoomIn();
    void zoomOut();

signals:
    // The item under the mouse changed (for a status bar); empty when none.
    void hoverTextChanged(const QString &text);
    // Enter on a focused action: show the inspector for it (the selection is already set).
    void inspectRequested();
    // A write's "Predict…" (inLesson false) or "Ask what happens to this write" (true).
    void writeQuestionRequested(int client, int action, bool inLesson);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool event(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    bool focusNextPrevChild(bool next) override;
    QVariant inputMethodQuery(Qt::InputMethodQuery query) const override;

private:
    // A drag on empty space scrolls: it changes only the ViewState's axis, never the document,
    // so it stays with the widget (item drags are m_drag's).
    struct Pan
    {
        bool active = false;
        bool moved = false;
        QPointF pressPos;
        double pressFirstTick = 0;
    };

    const Core::Trace &bottomTrace() const;
    const Core::Trace &topTrace() const;
    QString describeHit(const TimelineRenderer::Hit &hit) const;
    QFont dragLabelFont() const;
    TimelineRenderer::Hit hitAt(QPointF pos) const;
    void updateDrag(QPointF pos);
    // Esc during a drag: an item drag puts its action back, a pan its axis.
    void cancelDrag();
    void updateHover(QPointF pos);
    void updateCursor(const TimelineRenderer::Hit &hit);
    void removeSelected();
    void zoomBy(double factor, double anchorX);
    void nudge(qint64 ticks);
    void revealFocus();
    void updateAccessibleDescription();
    bool claimsKey(const QKeyEvent *event) const;
    QPointF keyboardMenuPoint() const;
    // The storage lane's part of a right-click menu at `pos` (docs/SCENARIO.md section 12).
    void addStorageEntries(QMenu *menu, int storage, QPointF pos);

    Document *m_doc;
    ViewState *m_state;
    TimelineRenderer m_renderer;
    Theme m_theme = Theme::light();
    TimelineDrag m_drag;
    Pan m_pan;
    TimelineRenderer::Hit m_hover;
    bool m_fittedOnce = false;
    // The axis the last fitToWindow() set (first tick, pixels per tick); refitted on a resize
    // while the axis is still that
    std::optional<std::pair<double, double>> m_fittedAxis;
    std::vector<bool> m_neverPauses; // per client, for compare mode's compact lanes
    FocusStop m_focus;
    // Put here by Tab or a click (not by a selection made elsewhere): ringed, and the arrows
    // nudge it.
    bool m_focusShown = false;
    double m_paintedPinBottom = 0; // Options::pinBottom of the last paint
    std::optional<std::pair<double, double>> m_fitRange;
    bool m_predictEntry = false;
    bool m_askEntry = false;
};
