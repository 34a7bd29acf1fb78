#pragma once

// The dialogs behind a lane's right-click menu (docs/SCENARIO.md sections 11 and 12): a storage's
// rule, check, durability and restarts; a client's clock, its rate and steps.
//
// A field refuses what the scenario file's loader would refuse, with the same limits
// (core/scenariofile.cpp, core/lockoptionsfile.h): a red frame and a message under it, naming
// the field and the entry; OK then keeps the dialog open and changes nothing until it is
// corrected. The caller pushes an accepted dialog's result as one undo step.

#include "scenario.h"

#include <QDialog>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace LaneDialogs {

// A typed rate in thousandths, judged as the loader judges a file's rate text: JSON's number
// grammar, the exact decimal value (1.500 and 15e-1 are 1.5), from 0.001 to 100 with at most
// three decimals. Leading and trailing blanks are ignored.
std::optional<std::uint32_t> parseRate(const QString &text, QString *error);
// Ticks typed as "12, 30 45" (commas or blanks between them), each 0 to 2^53, at most
// LockOptionsFile::kMaxScheduledTicks of them; sorted, duplicates kept, as the loader does.
std::optional<std::vector<Core::Tick>> parseTicks(const QString &text, QString *error);
QString ticksText(const std::vector<Core::Tick> &ticks);

} // namespace LaneDialogs

class StorageDialog : public QDialog
{
    Q_OBJECT
public:
    explicit StorageDialog(const Core::StorageSpec &spec, QWidget *parent = nullptr);

    // The spec as edited; complete once the dialog is accepted.
    Core::StorageSpec spec() const { return m_spec; }

    QComboBox *ruleEdit() const { return m_rule; }
    QComboBox *checkEdit() const { return m_check; }
    QCheckBox *durableEdit() const { return m_durable; }
    QLineEdit *restartsEdit() const { return m_restarts; }
    QLabel *restartsMessage() const { return m_restartsMessage; }
    QPushButton *okButton() const { return m_ok; }

public slots:
    void accept() override;

private:
    bool checkRestarts();

    Core::StorageSpec m_spec;
    QComboBox *m_rule;
    QComboBox *m_check;
    QCheckBox *m_durable;
    QLineEdit *m_restarts;
    QLabel *m_restartsMessage;
    QPushButton *m_ok;
};

class ClockDialog : public QDialog
{
    Q_OBJECT
public:
    ClockDialog(const QString &client, const Core::ClientClock &clock, QWidget *parent = nullptr);

    // The clock as edited; complete once the dialog is accepted. Steps are in order of `at`
    // (steps at one tick keep the table's order), as the loader orders them.
    Core::ClientClock clock() const { return m_clock; }

    QLineEdit *rateEdit() const { return m_rate; }
    QLabel *rateMessage() const { return m_rateMessage; }
    QTableWidget *stepsTable() const { return m_steps; }
    QPushButton *addStepButton() const { return m_add; }
    QPushButton *removeStepButton() const { return m_remove; }
    QLabel *stepsMessage() const { return m_stepsMessage; }
    QPushButton *okButton() const { return m_ok; }

public slots:
    void accept() override;

private:
    bool checkRate();
    bool checkSteps(bool focusTheBadCell);

    Core::ClientClock m_clock;
    QLineEdit *m_rate;
    QLabel *m_rateMessage;
    QTableWidget *m_steps;
    QPushButton *m_add;
    QPushButton *m_remove;
    QLabel *m_stepsMessage;
    QPushButton *m_ok;
};
