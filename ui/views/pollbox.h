#pragma once

// The room's poll on presentation's lesson stage (docs/POLL.md): the QR code of the page's
// address and the address itself with the 4-letter room code, whether any phone has reached the
// page (campus Wi-Fi may keep phones from the laptop), the votes counted so far, and the
// teacher's buttons: Poll the room, Show votes, Vote again, Stop. The counts per option are
// the stage's (LessonStage), beside the hands typed. It shows a PollView; the room poll
// (ui/window/roompoll.h) says what it holds.

#include "theme.h"

#include "qrmatrix.h"

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
    QPushButton *m_start;
    QPushButton *m_histogram;
    QPushButton *m_again;
    QPushButton *m_stop;
};
