#pragma once

// A lesson in presentation mode, under the timeline in place of the step's sentence: a scene's
// opening (its title and narration), its question (the prompt and the options A-E in large
// type, with a field per option for the hands raised, and a second column for Peer
// Instruction's second vote after discussion), and the reveal (the option that holds marked,
// each wrong option's feedback beside it, the deciding event in the simulator's words and the
// author's explanation). It shows what the session holds (LessonSession); what the room sees of
// the run, and when, is the lesson controller's to say.

#include "theme.h"
#include "views/pollbox.h"

#include <QWidget>

#include <array>
#include <vector>

class LessonSession;
class PollBox;
class QGridLayout;
class QLabel;
class QLineEdit;

class LessonStage : public QWidget
{
    Q_OBJECT
public:
    enum class Mode
    {
        Opening,   // the scene's title and narration, before its first step
        Question,  // the run stopped at the freeze tick
        Revealing, // the run playing on to the deciding event: still the question
        Answer,    // the reveal
    };

    explicit LessonStage(QWidget *parent = nullptr);

    void setSession(LessonSession *session);
    void setTheme(const Theme &theme);
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    // Shows the session's scene again (its texts, its question's verdict).
    void refresh();
    // The room's poll (docs/POLL.md): the box with its QR code beside the question, and the
    // phones' votes per option in its bars, when the teacher shows them and at the answer.
    // shapeChanged() when the box's parts come or go (not when a count changes): the
    // stage's height may then change, and presentation fits the window again.
    void setPoll(const PollView &poll);
    PollBox *pollBox() const { return m_pollBox; }
    // The phones' votes the bars show for `option` in `round` (0, 1); empty when not shown.
    QString phoneCount(int round, int option) const;

    // The height the stage needs at `width` with `theme` for the tallest of the shown scene's
    // modes, so that no text is cut and the timeline does not move between them. The answer
    // counts its hands columns only when some hands are typed: the first count typed (or the
    // last cleared) is a shapeChanged().
    int requiredHeight(int width, const Theme &theme) const;

    // The field of the hands raised for `option` in `vote` (0: first, 1: second); null when
    // the question has no such option.
    QLineEdit *handsField(int vote, int option) const;
    // Puts the keyboard into that field, its text selected (the presenter types a number).
    void focusHands(int vote, int option);
    bool isHandsField(const QObject *object) const;

    // What it shows, as plain text (for tests and the state report).
    QString heading() const;
    QString prompt() const;
    QString optionText(int option) const;
    // "✓" or "✗" beside an option at the answer, else empty.
    QString mark(int option) const;
    QString feedbackText(int option) const;
    QString revealText() const;
    QString problemText() const;

    // Text sizes in pixels at a font scale of 1 (presentation multiplies them by its scale):
    // the prompt is the step's sentence's size.
    static constexpr double kPromptPixels = 19;
    static constexpr double kOptionPixels = 17;
    static constexpr double kNarrationPixels = 15;
    static constexpr double kDetailPixels = 13;

signals:
    // The poll's box's parts, or the answer's hands columns, came or went.
    void shapeChanged();

private:
    struct Row
    {
        QLabel *mark = nullptr;
        QLabel *text = nullptr;
        std::array<QLineEdit *, 2> hands{};
        QLabel *feedback = nullptr;
    };
    void build();
    void applyFonts();
    void fill();
    void handsEdited(int vote, int option, const QString &text);
    QFont sized(double pixels, bool bold = false) const;
    void restyle(QWidget *widget, const QString &sheet) const;

    LessonSession *m_session = nullptr;
    Theme m_theme = Theme::highContrast();
    Mode m_mode = Mode::Opening;
    QLabel *m_heading;
    QLabel *m_title;
    QLabel *m_narration;
    QString m_narrationText; // the Markdown the label shows as rich text
    QLabel *m_prompt;
    QString m_promptText;
    QWidget *m_options;
    QGridLayout *m_grid;
    QLabel *m_voteHeads[2];
    PollBox *m_pollBox;
    PollView m_poll;
    std::vector<Row> m_rows;
    QLabel *m_problem;
    QLabel *m_reveal;
    QLabel *m_explanation;
    QString m_explanationText;
    QLabel *m_hint;
    bool m_filling = false;
    bool m_measuring = false;  // requiredHeight() at work
    bool m_handsTyped = false; // some hands typed at the scene's question (the answer shows them)
};
