#pragma once

// The selected action's exact numbers, editable: tick, ttl / pause length / network delay,
// written value and storage, and the client's name. Every change is pushed as an EditCommand
// on the document's undo stack; spin-box nudges of one field merge into one undo step.

#include <QWidget>

class Document;
class ViewState;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

class Inspector : public QWidget
{
    Q_OBJECT
public:
    Inspector(Document *doc, ViewState *state, QWidget *parent = nullptr);

    // For tests: the editors.
    QLineEdit *nameEdit() const { return m_name; }
    QDoubleSpinBox *atEdit() const { return m_at; }
    QDoubleSpinBox *amountEdit() const { return m_amount; }
    QLineEdit *valueEdit() const { return m_value; }
    QComboBox *storageEdit() const { return m_storage; }

signals:
    void deleteRequested();

private:
    void refresh();
    void commitAt();
    void commitAmount();
    void commitValue();
    void commitStorage();
    void commitName();

    Document *m_doc;
    ViewState *m_state;
    bool m_refreshing = false;
    QLabel *m_kind;
    QLineEdit *m_name;
    QDoubleSpinBox *m_at;
    QLabel *m_amountLabel;
    QDoubleSpinBox *m_amount;
    QLabel *m_valueLabel;
    QLineEdit *m_value;
    QLabel *m_storageLabel;
    QComboBox *m_storage;
    QLabel *m_outcome;
    QPushButton *m_delete;
    QFormLayout *m_form;
};
