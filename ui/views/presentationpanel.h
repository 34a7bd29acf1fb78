#pragma once

// Presentation mode's large explanation under the timeline: the step at the playhead
// (Core::storySteps: a client's action, a write's outcome, or what the lock service or a
// storage went through) told in one big sentence, the rest of that tick in a line each, and
// where the story stands ("step 3 of 6"). It tells only what has happened by the playhead. At
// the start it shows the scenario's title and its setting (not the description: that tells the
// ending); at the end the verdict and the description.

#include "theme.h"

#include "scenario.h"
#include "trace.h"

#include <QColor>
#include <QWidget>

#include <vector>

class Document;
struct Comparison;
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

    // Text sizes in pixels at a theme's font scale: the sentence is what the back row reads
    // (at least 24 px at the smallest scale presentation mode uses).
    static double sentencePixels(double fontScale) { return 19 * fontScale; }
    // The height the panel needs at `width` with `theme` for the tallest of its steps (start,
    // every step of the whole run, end), so that no step's text is ever cut and the timeline
    // above it does not move from step to step. Long runs: their first kMeasuredSteps steps.
    int requiredHeight(int width, const Theme &theme) const;
    // The same without "the rest of the tick" (the details), and with `other` false without
    // compare mode's paragraph on the other run too: what must not be cut. When the panel is
    // shorter, the details give way first, whole lines at a time, then that paragraph; the
    // step's sentence never does.
    int essentialHeight(int width, const Theme &theme, bool other = true, bool tight = false) const;
    // Tight: the least room a step's sentence can have under lanes that must all stay in view
    // (compare mode's two runs with two storages each at 1024x768): narrow margins, and the
    // step's heading on the keys' line at the bottom instead of a line of its own.
    void setTight(bool tight);
    static constexpr int kMeasuredSteps = 400;
    // The most lines of "the rest of the tick" a step shows; more are counted in one line.
    static constexpr int kDetailLines = 4;

    // What the panel shows, as plain text (for tests).
    QString heading() const;
    QString mainText() const;
    QString detailText() const;

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // What one step says, and the colour of the bar beside its sentence.
    struct Texts
    {
        QString heading;
        QString main;
        QString other; // compare mode: the other run's fate of the same write
        QString details;
        QColor border;
        QColor otherBorder;
    };
    void refresh();
    // Shows compare mode's other paragraph if it fits below the sentence, and as many whole
    // lines of the details as fit below both; none if none does.
    void fitDetails();
    int measure(int width, const Theme &theme, bool other, bool details, bool tight) const;
    int side() const;
    Texts textsNow() const;
    // The texts of the step at `tick` of the whole runs (measuring: no run is cut).
    // `cmp`: compare mode's two runs (null: the scenario's own run is `top`).
    Texts stepTexts(const Comparison *cmp, const Core::Trace &top,
                    const std::vector<Core::Tick> &ticks, Core::Tick tick) const;
    Texts startTexts(const std::vector<Core::Tick> &ticks) const;
    Texts endTexts(const Comparison *cmp, const Core::Trace &top) const;
    void applyFonts(const Theme &theme, QLabel *heading, QLabel *main, QLabel *other,
                    QLabel *details, QLabel *hint) const;

    Document *m_doc;
    ViewState *m_state;
    Theme m_theme = Theme::highContrast();
    Step m_step = Step::Start;
    QLabel *m_heading;
    QLabel *m_main;
    QLabel *m_other; // compare mode: the same write without fencing
    QLabel *m_details;
    QLabel *m_hint;
    QString m_allDetails; // the step's details; m_details shows the lines that fit
    QString m_allOther;   // the other run's paragraph; m_other shows it if it fits
    bool m_tight = false;
    bool m_stale = false; // changed while hidden: refreshed when shown
};
