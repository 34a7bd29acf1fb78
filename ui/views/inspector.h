#pragma once

// The selected action's exact numbers, editable: tick, ttl / pause length / network delay,
// written value and storage, and the client's name. Every change is pushed as an EditCommand
// on the document's undo stack: each field's edit is its own undo step; arrow steps of one
// field in a row merge into one.
//
// A bad entry (a negative or huge tick, a name another client has) is refused at its field:
// red frame, a message under it, the typed text kept for correcting, the scenario unchanged.
// The outcome text wraps; when the dock is too short for it, its last line ends in "…" and
// the whole text is the tooltip.

#include "scenario.h"
#include "viewstate.h"

#include <QWidget>

#include <vector>

class Document;
class OutcomeText;
class TickField;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QKeyEvent;
class QPushButton;
class QScrollArea;

class Inspector : public QWidget
{
    Q_OBJECT
public:
    Inspector(Document *doc, ViewState *state, QWidget *parent = nullptr);

    // The lecture-hall theme's larger text (Theme::fontScale): 1 is the application's size.
    void setFontScale(double scale);

    // What its fields ask for, as before they scrolled: the dock is laid out by these.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // For tests: the editors.
    QLineEdit *nameEdit() const { return m_name; }
    QLabel *nameMessage() const { return m_nameMessage; }
    TickField *atEdit() const { return m_at; }
    TickField *amountEdit() const { return m_amount; }
    QLineEdit *valueEdit() const { return m_value; }
    QComboBox *storageEdit() const { return m_storage; }
    // docs/SCENARIO.md sections 11 and 12: an acquire's keepalive, a write's check, gap and group
    TickField *keepaliveEdit() const { return m_keepalive; }
    QCheckBox *checkEdit() const { return m_check; }
    TickField *gapEdit() const { return m_gap; }
    QLineEdit *groupEdit() const { return m_group; }
    // The outcome: the whole text, the lines as drawn, and whether the last one was cut short
    // with "…" (then the tooltip holds the whole text).
    QWidget *outcomeWidget() const;
    QString outcomeText() const;
    QStringList outcomeLines() const;
    bool outcomeElided() const;

signals:
    void deleteRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();
    void commitAt(Core::Tick at, bool stepped);
    void commitAmount(Core::Tick amount, bool stepped);
    void commitValue();
    void commitStorage();
    void commitName();
    void commitKeepalive(Core::Tick every, bool stepped);
    void commitCheck();
    void commitGap(Core::Tick gap, bool stepped);
    void commitGroup();
    void showNameError(const QString &message);
    void fitNameMessage();
    // The text fields (the tick fields' too), for their keys.
    std::vector<QLineEdit *> textFields() const;
    TickField *tickFieldOf(const QLineEdit *edit) const;
    // The field holds typing not yet committed (or refused): it differs from the scenario.
    bool fieldEdited(const QLineEdit *edit) const;
    void resetField(QLineEdit *edit);
    // Ctrl+Z, Ctrl+Shift+Z and Ctrl+Tab in a field; true when handled.
    bool fieldKey(QLineEdit *edit, QKeyEvent *key);
    QString endCheck(Core::Tick at, Core::Tick amount) const;
    // Puts the row of `field` (one of m_rows) into the form and shows it, or takes it out.
    void showRow(QWidget *field, bool on);

    Document *m_doc;
    ViewState *m_state;
    bool m_refreshing = false;
    Selection m_shown; // the action the fields show: their refused entries belong to it
    QLabel *m_kind;
    QLineEdit *m_name;
    QLabel *m_nameMessage;
    QString m_nameError;
    TickField *m_at;
    QLabel *m_amountLabel;
    TickField *m_amount;
    QLabel *m_valueLabel;
    QLineEdit *m_value;
    QLabel *m_storageLabel;
    QComboBox *m_storage;
    QLabel *m_keepaliveLabel;
    TickField *m_keepalive;
    QLabel *m_checkLabel;
    QCheckBox *m_check;
    QLabel *m_gapLabel;
    TickField *m_gap;
    QLabel *m_groupLabel;
    QLineEdit *m_group;
    OutcomeText *m_outcome;
    QPushButton *m_delete;
    QFormLayout *m_form;
    struct Row
    {
        QWidget *label;
        QWidget *field;
    };
    std::vector<Row> m_rows; // the rows that come and go, in the form's order
    QScrollArea *m_scroll;
    QFont m_baseFont; // the font at scale 1
};
