#pragma once

// The lesson editor (a dock): edits the open lesson while it is shown, without code. The
// lesson's title, audience, objectives and sources; its scenes (add one from the scenario and
// view the window shows, keep the run shown for a scene, reorder, delete); the shown scene's
// title, narration and view; its question: the prompt, the freeze tick (typed, or from the
// playhead), the options, each a claim written in a small form (ClaimForm) or picked from the
// run (right-click a write: "ask what happens to this write"), with its feedback, and the
// explanation.
//
// Every change is one undo step on the lesson's own stack (lessoncommands.h; typing in one field
// is one step); Ctrl+Z and Ctrl+Shift+Z in the editor are the lesson's. A problem shows at its
// field as it is typed: the lesson is checked by the lesson reader itself (its first problem,
// with its place) and its questions judged by core on their runs (no option, or several, hold).
// Saving is the window's (atomic, and only a lesson that loads is written).

#include "lesson.h"
#include "theme.h"

#include "document/lessonsession.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

class ClaimForm;
class Document;
class ViewState;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QToolButton;
class QGroupBox;
class QVBoxLayout;

class LessonEditor : public QWidget
{
    Q_OBJECT
public:
    LessonEditor(Document *doc, ViewState *state, QWidget *parent = nullptr);

    void setSession(LessonSession *session);
    LessonSession *session() const { return m_session; }
    // The tick range the timeline shows now, for a new scene's view (the window knows it).
    void setVisibleRange(std::function<std::optional<std::pair<double, double>>()> range)
    {
        m_visibleRange = std::move(range);
    }
    void setFontScale(double scale);

    // The problems shown now: by place ("scenes[2].question.freeze"), in core's words.
    std::map<QString, QString> problems() const { return m_problems; }
    // The message under a field (empty when it has none), for tests.
    QString messageAt(const QWidget *field) const;

    // For tests: the fields, as a person reaches them.
    QLineEdit *titleEdit() const { return m_title; }
    QLineEdit *audienceEdit() const { return m_audience; }
    QPlainTextEdit *objectivesEdit() const { return m_objectives; }
    QPlainTextEdit *sourcesEdit() const { return m_sources; }
    QListWidget *sceneList() const { return m_scenes; }
    QLineEdit *sceneTitleEdit() const { return m_sceneTitle; }
    QPlainTextEdit *narrationEdit() const { return m_narration; }
    QComboBox *fencingBox() const { return m_fencing; }
    QComboBox *compareBox() const { return m_compare; }
    QLineEdit *fromEdit() const { return m_from; }
    QLineEdit *toEdit() const { return m_to; }
    QLineEdit *playheadEdit() const { return m_playhead; }
    QPlainTextEdit *promptEdit() const { return m_prompt; }
    QLineEdit *freezeEdit() const { return m_freeze; }
    QPlainTextEdit *explanationEdit() const { return m_explanation; }
    // the selected option's feedback (select it in optionList() first)
    QLineEdit *feedbackEdit() const { return m_feedback; }
    ClaimForm *claimForm() const { return m_claim; }
    QPushButton *button(const QString &objectName) const;
    QListWidget *optionList() const { return m_options; }

signals:
    void saveRequested();
    void saveAsRequested();
    // A new lesson of one scene, the scenario and view the window shows.
    void newLessonRequested(const Core::Lesson &lesson);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void build();
    void refresh();
    void fillLesson();
    void fillScene();
    void fillQuestion();
    void checkProblems();
    void showMessage(QWidget *field, const QString &message);
    void push(class QUndoCommand *command);
    int typing(QObject *field);

    // Edits, each one command.
    void addScene();
    void keepRunForScene();
    void moveScene(int by);
    void deleteScene();
    void editView(int typing);
    void addQuestion();
    void removeQuestion();
    void editFreeze(const QString &text);
    void freezeFromPlayhead();
    void addOption();
    void replaceOption();
    void removeOption();
    void editFeedback(const QString &text);
    Core::LessonScene sceneFromWindow() const;
    Core::Lesson newLesson() const;

    Document *m_doc;
    ViewState *m_state;
    QPointer<LessonSession> m_session;
    std::function<std::optional<std::pair<double, double>>()> m_visibleRange;
    bool m_filling = false;
    std::map<QString, QString> m_problems;
    std::map<const QWidget *, QLabel *> m_messages; // field -> the message under it
    std::map<QObject *, int> m_typing;              // field -> its typing session
    int m_nextTyping = 1;

    QWidget *m_empty;   // no lesson: "New lesson from this scenario"
    QWidget *m_content; // a lesson
    class QScrollArea *m_scroll;
    QToolButton *m_undo;
    QToolButton *m_redo;
    QLabel *m_general; // problems not at a field shown (another scene's, the file's)
    QLineEdit *m_title;
    QLineEdit *m_audience;
    QPlainTextEdit *m_objectives;
    QPlainTextEdit *m_sources;
    QListWidget *m_scenes;
    QLineEdit *m_sceneTitle;
    QPlainTextEdit *m_narration;
    QComboBox *m_fencing;
    QComboBox *m_compare;
    QLineEdit *m_from;
    QLineEdit *m_to;
    QLineEdit *m_playhead;
    QLabel *m_source;
    QGroupBox *m_questionBox;
    QWidget *m_questionFields;
    QPlainTextEdit *m_prompt;
    QLineEdit *m_freeze;
    QListWidget *m_options;
    QLineEdit *m_feedback;
    ClaimForm *m_claim;
    QPlainTextEdit *m_explanation;
    QLabel *m_verdict;
    std::vector<QPushButton *> m_buttons;
};
