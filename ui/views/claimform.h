#pragma once

// The lesson editor's small form for an option's claim (docs/LESSONS.md, "Claims"): what kind
// of claim, and the names it takes from the scene's scenario (a client's write, a storage, a
// grant), offered as lists so that a claim names only what the scenario has. It shows the
// sentence the option will read, made by core from the claim itself (Core::claimText), and
// whether it holds in the scene's run, judged by core on that run.

#include "lesson.h"
#include "scenario.h"
#include "trace.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

class ClaimForm : public QWidget
{
    Q_OBJECT
public:
    explicit ClaimForm(QWidget *parent = nullptr);

    // The scenario the claim names things of (the scene's), and the run it is judged on (the
    // scene's run, LessonSession::sceneRun: the form runs nothing itself).
    void setScene(const Core::Scenario &scenario, const Core::Trace &run);
    // The form filled with `claim` (editing an option).
    void setClaim(const Core::Claim &claim);
    // The claim as the form says it now.
    Core::Claim claim() const;
    // The sentence the option will read.
    QString sentence() const;

    // The kinds of claim, in the order of the kind list.
    enum Kind
    {
        WriteOutcome,
        FinalValue,
        FinalMaxToken,
        GrantToken,
        GrantNoToken,
        GrantWritten,
        GrantAbove,
        GrantBelow,
        GrantSame,
        Some,
        No,
        LockExclusive,
        LockOverlapping,
        BeliefExclusive,
        BeliefOverlapping,
    };
    void setKind(Kind kind);
    Kind kind() const;
    // For tests: the lists and fields.
    QComboBox *kindBox() const { return m_kind; }
    QComboBox *clientBox() const { return m_client; }
    QComboBox *writeBox() const { return m_write; }
    QComboBox *outcomeBox() const { return m_outcome; }
    QComboBox *storageBox() const { return m_storage; }
    QLineEdit *valueEdit() const { return m_value; }
    QLineEdit *tokenEdit() const { return m_token; }
    QLabel *sentenceLabel() const { return m_sentence; }

signals:
    void changed();

private:
    void fillLists();
    void fillWrites();
    void update();

    Core::Scenario m_scenario;
    Core::Trace m_trace; // the scene's run, the claim judged on it
    // a write named otherwise than the form names writes (by storage, by nth of all writes):
    // kept as it is while the form shows it
    std::optional<Core::WriteRef> m_keptWrite;
    QFormLayout *m_form;
    QComboBox *m_kind;
    QComboBox *m_client;
    QComboBox *m_write;
    QComboBox *m_outcome;
    QComboBox *m_storage;
    QLineEdit *m_value;
    QLineEdit *m_token;
    QLineEdit *m_text;
    QSpinBox *m_nth;
    QComboBox *m_other;
    QSpinBox *m_otherNth;
    QLabel *m_sentence;
    bool m_filling = false;
};
