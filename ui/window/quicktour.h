#pragma once

// Help > Quick tour: a short guide over the real window. A semi-transparent overlay covers the
// host window, leaves a lit hole with a ring around the step's target and shows a card with the
// step's title and text and Back / Next / Done. Esc (or Done) ends it; either way the tour is
// remembered as done (QSettings "tour/done") so it is offered only on the first run.

#include <QRect>
#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

class QLabel;
class QPushButton;

class QuickTour : public QWidget
{
    Q_OBJECT
public:
    struct Step
    {
        // What to light up: a widget of the host found by objectName, or a rectangle in host
        // coordinates from `rect` (asked each time: windows move and resize). Neither, or a
        // target that is hidden: the card alone, in the middle.
        QString target;
        std::function<QRect(QWidget *host)> rect;
        QString title;
        QString text;
    };

    // The settings key that remembers the tour was finished or dismissed.
    static QString settingsKey();
    // True until a tour was finished or dismissed once.
    static bool shouldShowOnFirstRun();
    // FenceScope's own tour over the main window (object names of MainWindow's widgets).
    static std::vector<Step> defaultSteps();

    // Covers `host` (a child of it, resized with it); call start() to show it.
    QuickTour(QWidget *host, std::vector<Step> steps);

    int stepCount() const { return int(m_steps.size()); }
    int currentStep() const { return m_current; }
    const Step &step(int i) const { return m_steps[size_t(i)]; }
    // Where the current step's target is, in host (= this widget's) coordinates; empty: none.
    QRect targetRect() const;
    // The card with the text and buttons (tests find the buttons through it).
    QWidget *card() const { return m_card; }

public slots:
    void start();
    void next(); // on the last step: finish()
    void back();
    void finish(); // Done and Esc: remembered as done, then closed and deleted later

signals:
    void stepChanged(int step);
    void finished();

protected:
    void paintEvent(QPaintEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    bool focusNextPrevChild(bool next) override;

private:
    void showStep(int i);
    void placeCard();

    QWidget *m_host;
    std::vector<Step> m_steps;
    int m_current = -1;
    QWidget *m_card;
    QLabel *m_title;
    QLabel *m_text;
    QLabel *m_counter;
    QPushButton *m_back;
    QPushButton *m_next;
    QPushButton *m_done;
};
