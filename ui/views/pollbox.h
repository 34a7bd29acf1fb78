#pragma once

// The room's poll on presentation's lesson stage (docs/POLL.md): the QR code of the page's
// address and the address itself with the 4-letter room code, whether any phone has reached the
// page (campus Wi-Fi may keep phones from the laptop), the votes counted so far, and the
// teacher's buttons: Poll the room, Show votes, Vote again, Stop, and the list of the
// addresses to listen on. The counts per option are the stage's (LessonStage), beside the hands
// typed; the box draws them as bars (PollHistogram) when shown and at the reveal. It shows a
// PollView; the room poll (ui/window/roompoll.h) says what it holds.

#include "theme.h"

#include "qrmatrix.h"

#include <QList>
#include <QRect>
#include <QStringList>
#include <QWidget>

#include <array>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

// What the stage shows of the poll.
struct PollView
{
    bool on = false;        // the server listens
    QString error;          // why it could not start
    QString address;        // http://192.168.1.5:40123/
    QString code;           // KXQB
    Poll::QrMatrix qr;      // of the address with the code
    int pages = 0;          // pages served: a phone reached the computer
    int round = 0;          // 0 or 1
    int rounds = 0;         // rounds the question has had (0: no question)
    bool open = false;      // the round takes votes
    bool histogram = false; // the teacher shows the counts (hidden by default)
    int right = -1;         // at the reveal, the option that holds; -1 before
    // votes per round and option (empty: no question)
    std::array<std::vector<int>, 2> counts;
    // the addresses the teacher picks from ("eth0: 192.168.1.5"), and the one picked (-1: none,
    // no network)
    QStringList interfaces;
    int interface = -1;
    int votes(int r) const;
};

// A QR code drawn as squares of whole pixels, with its quiet zone.
class QrCodeWidget : public QWidget
{
    Q_OBJECT
public:
    explicit QrCodeWidget(QWidget *parent = nullptr);
    void setMatrix(const Poll::QrMatrix &matrix);
    const Poll::QrMatrix &matrix() const { return m_matrix; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *) override;

private:
    Poll::QrMatrix m_matrix;
};

// The counts as bars (H, and at the reveal): per option a horizontal bar per round, as long as
// its count against the largest, the count beside it in large type; round 1 and round 2 side
// by side, the right option's bars in the theme's accepted colour at the reveal.
class PollHistogram : public QWidget
{
    Q_OBJECT
public:
    explicit PollHistogram(QWidget *parent = nullptr);
    void setView(const PollView &view, const Theme &theme);
    QSize sizeHint() const override;

    // Where each bar is drawn at the present size: what paintEvent() draws, and what the tests
    // read.
    struct Bar
    {
        int round = 0;
        int option = 0;
        int count = 0;
        QRect rect; // zero wide for no votes
        QColor colour;
    };
    QList<Bar> bars() const;

protected:
    void paintEvent(QPaintEvent *) override;

private:
    int rowHeight() const;
    int labelWidth() const;
    int countWidth() const;
    PollView m_view;
    Theme m_theme = Theme::highContrast();
};

class PollBox : public QWidget
{
    Q_OBJECT
public:
    explicit PollBox(QWidget *parent = nullptr);
    void setTheme(const Theme &theme);
    void setView(const PollView &view, bool asking);
    const PollView &view() const { return m_view; }

    // What it shows, as plain text (tests, the state report).
    QString addressText() const;
    QString reachText() const;
    // The addresses offered, as the list shows them ("no network" alone when there is none).
    QStringList interfaceTexts() const;
    // The bars, shown when the teacher shows the votes (H) and at the reveal.
    PollHistogram *histogram() const { return m_bars; }
    QString votesText() const;

    // The side of the QR code at a font scale of 1, in pixels: readable from the back rows of a
    // classroom at 1280x800 with presentation's larger type.
    static constexpr int kQrPixels = 150;

signals:
    void startRequested();
    void stopRequested();
    void histogramRequested();
    void secondRoundRequested();
    void interfaceChosen(int index);

private:
    Theme m_theme = Theme::highContrast();
    PollView m_view;
    QrCodeWidget *m_qr;
    QLabel *m_address;
    QLabel *m_reach;
    QLabel *m_votes;
    QComboBox *m_interface;
    PollHistogram *m_bars;
    QPushButton *m_start;
    QPushButton *m_histogram;
    QPushButton *m_again;
    QPushButton *m_stop;
};
