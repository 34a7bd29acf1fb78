#pragma once

// Presentation on a screen of its own: when View > Present on names another screen than the
// main window's (a projector beside a laptop), presentation mode opens this top-level window
// full screen there, while the main window stays where it was for the teacher. It shows what
// presentation mode shows in the main window: the timeline and the step's sentence under it,
// with the on-screen Back / Next / Exit buttons. Its views are new views of the main window's
// Document and ViewState (one simulation, one playhead: the main window's views follow the same
// step). PresentationController makes it, drives it and hides it; closing it ends presentation.

#include "theme.h"

#include <QWidget>

class Document;
class PresentationControls;
class PresentationPanel;
class TimelineView;
class ViewState;
class QScrollArea;
class QSplitter;

class PresentationWindow : public QWidget
{
    Q_OBJECT
public:
    // A window of its own (Qt::Window) owned by `owner`, the main window.
    PresentationWindow(Document *doc, ViewState *state, QWidget *owner);

    TimelineView *view() const { return m_view; }
    QScrollArea *scroll() const { return m_scroll; }   // the timeline's
    QSplitter *splitter() const { return m_splitter; } // holds the timeline only
    PresentationPanel *panel() const { return m_panel; }
    PresentationControls *controls() const { return m_controls; }

    const Theme &theme() const { return m_theme; }
    void setTheme(const Theme &theme);

signals:
    // The window was closed (its close button, Alt+F4): presentation ends.
    void closed();

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    TimelineView *m_view;
    QScrollArea *m_scroll;
    QSplitter *m_splitter;
    PresentationPanel *m_panel;
    PresentationControls *m_controls;
    Theme m_theme = Theme::highContrast();
};
