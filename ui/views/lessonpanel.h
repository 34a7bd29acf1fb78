#pragma once

// A lesson at a student's desk: the Lesson dock of the normal window. Where the lesson stands
// (scene k of n, with buttons to the scene before and after, Alt+Left / Alt+Right), the scene's
// narration, and its question: the student picks an option before the reveal, then "Check my
// answer" marks the option that holds, says whether the pick was right, and shows each wrong
// option's feedback, the deciding event in the simulator's words and the author's explanation.
//
// The question is judged on the run the window shows (LessonSession::play), so after a drag
// the marks follow the changed run, and a question no option (or several) of which holds any
// more says so. A question of the student's own ("Predict" on a write) is shown the same way.

#include "theme.h"

#include <QWidget>

#include <vector>

class LessonSession;
class QButtonGroup;
class QGridLayout;
class QLabel;
class QPushButton;
class QRadioButton;

class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LessonPanel(QWidget *parent = nullptr);

    void setSession(LessonSession *session);
    void setTheme(const Theme &theme);
    // The reveal is under way (the run playing on to the deciding event): no marks yet.
    void setRevealing(bool revealing);

    // For tests and the keyboard: the parts a student uses.
    QRadioButton *optionButton(int option) const;
    QPushButton *checkButton() const { return m_check; }
    QPushButton *previousButton() const { return m_previous; }
    QPushButton *nextButton() const { return m_next; }
    QPushButton *sceneRunButton() const { return m_sceneRun; }
    QPushButton *dropOwnButton() const { return m_dropOwn; }
    // What it shows, as plain text.
    QString position() const;
    QString prompt() const;
    QString verdictText() const;
    QString problemText() const;
    QString feedbackText(int option) const;
    QString mark(int option) const;
    QString revealText() const;

signals:
    void previousScene();
    void nextScene();
    // "Check my answer": the student has picked and asks for the reveal.
    void revealRequested();
    // "Back to the scene's run": the scene's scenario as the lesson has it, again.
    void sceneRunRequested();

private:
    struct Row
    {
        QRadioButton *button = nullptr;
        QLabel *text = nullptr;
        QLabel *mark = nullptr;
        QLabel *feedback = nullptr;
    };
    void refresh();
    void applyFonts();

    LessonSession *m_session = nullptr;
    Theme m_theme = Theme::light();
    bool m_revealing = false;
    QLabel *m_lessonTitle;
    QLabel *m_objectives;
    QPushButton *m_previous;
    QLabel *m_position;
    QPushButton *m_next;
    QLabel *m_sceneTitle;
    QLabel *m_narration;
    QWidget *m_question;
    QLabel *m_own;
    QPushButton *m_dropOwn;
    QLabel *m_prompt;
    QString m_promptText;
    QButtonGroup *m_group;
    std::vector<Row> m_rows;
    QPushButton *m_check;
    QLabel *m_problem;
    QLabel *m_verdict;
    QLabel *m_reveal;
    QLabel *m_explanation;
    QLabel *m_changed;
    QPushButton *m_sceneRun;
    QLabel *m_predictHint;
    bool m_filling = false;
};
