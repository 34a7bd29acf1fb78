#pragma once

// Back / Next / Exit buttons over presentation mode, for a mouse, a touch screen or a lost
// clicker. They appear when the pointer moves or the screen is touched and fade out of the way
// a few seconds later, unless the pointer rests on them.

#include <QWidget>

class QTimer;
class QToolButton;
struct Theme;

class PresentationControls : public QWidget
{
    Q_OBJECT
public:
    explicit PresentationControls(QWidget *parent);

    void setTheme(const Theme &theme);
    // Show the buttons for a while (pointer moved, screen touched).
    void reveal();
    // Hide now (presentation mode ended).
    void dismiss();
    // How long the buttons stay after the last movement.
    static constexpr int kShowMs = 3000;

signals:
    void back();
    void next();
    void exit();

protected:
    void enterEvent(QEnterEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void place();

    QToolButton *m_back;
    QToolButton *m_next;
    QToolButton *m_exit;
    QTimer *m_hide;
};
