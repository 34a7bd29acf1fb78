#pragma once

// The monkey of tst_monkey.cpp: random actions on a MainWindow through its input path, and the
// bookkeeping that proves nothing was lost.
//
// monkey.cpp holds the actions (what a person does: drags, clicks, keys, menus, fields,
// dialogs), monkeyhistory.cpp what is checked after each one and at the checks (the undo
// history accounts for every change; undo everything, redo everything), and the failure report.

#include "timelinerenderer.h"

#include <QByteArray>
#include <QMetaObject>
#include <QPoint>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <functional>
#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

class Document;
class MainWindow;
class QDialog;
class QLineEdit;
class QUndoStack;
class QWidget;
class QWindow;

class Monkey
{
public:
    Monkey(MainWindow *window, quint64 seed);
    ~Monkey();

    // One random action (`step` counts from 1, for the failure report).
    void step(int step);
    // After the last step: the history checked once more, and every kind of element dragged.
    void finalCheck(int steps);

    bool failed() const { return !m_failure.isEmpty(); }
    // Seed, step, what went wrong, and the actions that led there.
    QString failure() const { return m_failure; }
    // What the run did, counted by kind (printed at the end of every run).
    QString summary() const;

private:
    using Hit = TimelineRenderer::Hit;
    // A point of the timeline a person can reach (in the window's coordinates) and what the
    // hit test says is there.
    struct Target
    {
        QPoint pos;
        Hit hit;
    };

    // --- random choices
    int pick(int n);
    bool chance(double p);
    template <typename T> const T &any(const std::vector<T> &v)
    {
        return v[size_t(pick(int(v.size())))];
    }

    // --- actions (monkey.cpp)
    static void turn();
    void drag();
    void click();
    void rightClick();
    void wheel();
    void key();
    void typeText(QWindow *window, const QString &text);
    void menuEntry();
    void inspectorEntry();
    void dialogEntry(QDialog *dialog);
    void presentationStep();
    void tourStep();
    void switchPreset();
    void openFile();
    void saveFile();
    void resizeWindow();
    // Runs `open` (a right-click, the Menu key) and handles the popup menu it brings up: an
    // entry at random, or none.
    void withPopup(const std::function<void()> &open);
    // Where each kind of element is, in the part of the timeline that shows.
    std::vector<Target> targets() const;
    QWindow *windowHandle() const;
    QWidget *openDialog() const;
    QString badOrGoodTick();
    // The answers to the questions an action may ask (unsaved changes, a path to save to).
    void chooseAnswers();

    // --- the history (monkeyhistory.cpp)
    void beginStep();
    void endStep();
    void endExport();
    // Before an action that may open another scenario (its new history ends this one).
    void beforeOpening();
    // Undo everything, then redo everything, through Edit > Undo and Edit > Redo; then the
    // trace against a fresh simulation. `why` is said in the log.
    void checkHistory(const char *why);
    // Brings the window back to a state where its menus take input: no dialog, popup, tour or
    // presentation (each left the way a person leaves it).
    void calmDown();
    QByteArray bytes() const;
    void log(const QString &what);
    void fail(const QString &what);

    MainWindow *m_window;
    Document *m_doc;
    QUndoStack *m_undo;
    std::mt19937_64 m_rng;
    quint64 m_seed;
    int m_step = 0;
    bool m_logAll = false;
    QMetaObject::Connection m_indexWatch;

    // the scenario as its history began, and as seen at each index of that history (known
    // ones only: an index whose command may have been replaced is forgotten)
    QByteArray m_opened;
    std::vector<std::optional<QByteArray>> m_states;
    // this step's start, and how its undo index moved
    QByteArray m_before;
    int m_countBefore = 0;
    int m_minIndex = 0;
    bool m_indexMoved = false;
    bool m_opening = false;
    // the lesson walked and its scene when the step began: going to another scene opens that
    // scene's scenario, a new history as a preset switch starts one
    const void *m_lessonBefore = nullptr;
    int m_sceneBefore = -1;

    QTemporaryDir m_files; // saves, exports
    QStringList m_saved;   // scenario files saved by the monkey, to open again
    QStringList m_broken;  // copies of tests/data's invalid and hostile files
    // a storyboard export the window took (its path, the window's last error before it)
    std::optional<std::pair<QString, QString>> m_storyboard;
    int m_fileCount = 0;

    QStringList m_recent; // the last actions, for the failure report
    QString m_failure;
    std::map<QString, int> m_counts; // what was done, for the summary
    std::map<Hit::Part, int> m_dragged;
};
