#pragma once

// Presentation mode's large explanation under the timeline: the events at the playhead tick
// told in one big sentence (the most telling one: a write's outcome before a grant, a grant
// before a pause edge), the other events of that tick in a line each, and where the story
// stands ("step 3 of 6"). At the start it shows the scenario's title and description; at the
// end the verdict.

#include "theme.h"

#include "scenario.h"
#include "trace.h"

#include <QWidget>

class Document;
class ViewState;
class QLabel;

class PresentationPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Step
    {
        Start,
        AtTick,
        End
    };

    PresentationPanel(Document *doc, ViewState *state, QWidget *parent = nullptr);

    void setTheme(const Theme &theme);
    void setStep(Step step);
    Step step() const { return m_step; }

    // What the panel shows, as plain text (for tests).
    QString heading() const;
    QString mainText() const;
    QString detailText() const;

    // The event of `tick` that tells the most (kNone when nothing happens then).
    static std::uint32_t mainEventAt(const Core::Trace &trace, Core::Tick tick);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refresh();

    Document *m_doc;
    ViewState *m_state;
    Theme m_theme = Theme::highContrast();
    Step m_step = Step::Start;
    QLabel *m_heading;
    QLabel *m_main;
    QLabel *m_other; // compare mode: the same write without fencing
    QLabel *m_details;
    QLabel *m_hint;
    bool m_stale = false; // changed while hidden: refreshed when shown
};
