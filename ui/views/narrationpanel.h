#pragma once

// The story of the open scenario in words: its title and description, the explanation of the
// selected event in large readable text (both runs in compare mode), and the state of the
// system at the playhead (who holds the lock with which token, what each storage holds).

#include "theme.h"

#include "trace.h"

#include <QWidget>

class Document;
class ViewState;
class QLabel;

class NarrationPanel : public QWidget
{
    Q_OBJECT
public:
    NarrationPanel(Document *doc, ViewState *state, QWidget *parent = nullptr);

    void setTheme(const Theme &theme);
    QString explanation() const; // the text shown for the selection (plain)
    QString stateText() const;   // the state at the playhead (plain)
    // The heading and explanation of the selection: what a scroll area around the panel keeps in
    // view when the selection changes (a tall inspector below leaves the story little height).
    QWidget *selectedHeading() const;
    QWidget *selectedExplanation() const;

    QSize sizeHint() const override { return {440, 600}; }

    // The lines of the state at tick `now` of trace `t`: what stateText() shows at a playhead.
    static QStringList stateLines(const Core::Scenario &s, const Core::Trace &t, Core::Tick now);

private:
    void refreshStory();
    void refreshSelection();
    void refreshState();

    Document *m_doc;
    ViewState *m_state;
    Theme m_theme = Theme::light();
    QLabel *m_title;
    QLabel *m_description;
    QLabel *m_selectedHeading;
    QLabel *m_explanation;
    QLabel *m_other; // compare mode: the same event in the other run
    QLabel *m_stateHeading;
    QLabel *m_stateText;
};
