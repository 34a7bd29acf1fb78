#pragma once

// A tick typed by a person. Any text may be typed; Return, Tab or leaving the field commits
// it. Text that is not a tick a scenario file can hold (a whole number >= the minimum, at most
// 2^53) is refused: the field gets a red frame and a message under it, keeps what was typed so
// it can be corrected, and commits nothing. Escape puts the last good value back. Up/Down
// (keys or the small arrows) step by one, Page Up/Down by ten, within the limits.
//
// A field without a value (nothing selected) is blank with a dash as placeholder: never a
// stale number.

#include "scenario.h"

#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QToolButton;

class TickField : public QWidget
{
    Q_OBJECT
public:
    explicit TickField(QWidget *parent = nullptr);

    // The smallest good value and what to say when it is undercut ("a lease lasts at least
    // 1 tick").
    void setMinimum(Core::Tick minimum, const QString &message = {});
    Core::Tick minimum() const { return m_minimum; }
    // A further check on a well-formed value (e.g. that an action's end stays in the file's
    // range): returns the message for a refused value, or an empty string.
    void setCheck(std::function<QString(Core::Tick)> check) { m_check = std::move(check); }

    // The last good value shown (from the scenario); nullopt: blank.
    void setValue(std::optional<Core::Tick> value);
    std::optional<Core::Tick> value() const { return m_value; }

    // True while the field holds typing that is not its value (not committed, or refused).
    bool isEdited() const;

    // The message shown under the field, empty when the text is good.
    QString error() const { return m_error; }
    void showError(const QString &message);
    void clearError();

    // The line the user types in, and the message under it (for tests and focus chains).
    QLineEdit *lineEdit() const { return m_edit; }
    QLabel *messageLabel() const { return m_message; }

    // What a text means: the tick, or the message refusing it (parse only, no signals).
    std::optional<Core::Tick> parse(const QString &text, QString *error) const;

signals:
    // A good value different from the shown one; `stepped` for arrow steps (which may merge
    // into one undo step), false for a typed value.
    void committed(Core::Tick value, bool stepped);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void commitText();
    bool showsValue() const; // the text is the value's (or blank without one)
    void step(int delta);
    void updateButtons();
    void fitMessage();

    QLineEdit *m_edit;
    QToolButton *m_up;
    QToolButton *m_down;
    QLabel *m_message;
    Core::Tick m_minimum = 0;
    QString m_minimumMessage;
    std::function<QString(Core::Tick)> m_check;
    std::optional<Core::Tick> m_value;
    QString m_error;
};
