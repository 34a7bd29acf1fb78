#pragma once

// Polling the room from its phones while a lesson is presented (docs/POLL.md; README, "Poll
// the room"). P (or the button on the question) starts the server for the rest of the lesson;
// each question then opens a round for the phones, Revealing closes it, the answer shows the
// right option and each option's feedback on the phones. V opens the second round (Peer
// Instruction's vote after discussion), H shows or hides the counts (hidden by default: the
// first vote is each student's own). The poll stops when the presentation or the lesson ends,
// or when the teacher stops it. The counts go to the lesson's session (its progress).

#include "pollroom.h"
#include "pollserver.h"

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

class LessonController;
class LessonSession;
class LessonStage;

class RoomPoll : public QObject
{
    Q_OBJECT
public:
    // Votes are shown at most this often (ms).
    static constexpr int kShowMs = 100;

    RoomPoll(LessonController *lessons, LessonStage *stage, QObject *parent = nullptr);
    ~RoomPoll() override;

    // The address FENCESCOPE_POLL_ADDRESS names (a hotspot's; 127.0.0.1 in the tests): offered
    // first among the interfaces, and the default unless the teacher picked another before.
    void setAddress(const QHostAddress &address);

    // The addresses the teacher picks from (the poll box's list): the computer's interfaces
    // (Poll::PollServer::interfaces()), with FENCESCOPE_POLL_ADDRESS's first when it names
    // another (the loopback: "this computer only (for a test)").
    struct Choice
    {
        QString name; // remembered (QSettings, kInterfaceKey): the interface's, or the address
        QString label;
        QHostAddress address;
    };
    const QList<Choice> &choices() const { return m_choices; }
    // Where the interfaces come from: the computer's (Poll::PollServer::interfaces()), or a
    // list of a test's, with an address no interface has, to pick one that cannot be listened on.
    using InterfaceSource = std::function<QList<Poll::PollServer::Interface>()>;
    void setInterfaceSource(InterfaceSource source);
    int chosen() const { return m_chosen; }
    // The teacher picks choices()[index]: a poll that is on moves there (the same room code,
    // the same counts; the phones scan the new address). Remembered, unless the poll is on and
    // cannot listen there: it then stays where it was, and the stage says why.
    void choose(int index);
    static constexpr char kInterfaceKey[] = "poll/interface";

    // Starts the server for the lesson shown; false when it cannot (no network: the stage
    // says why, and the hands are counted as before).
    bool start();
    void stop();
    bool isOn() const { return m_server && m_server->isListening(); }
    void toggleHistogram();
    bool histogramShown() const { return m_histogram; }
    bool secondRound();

    // The keys the poll takes in presentation (P, H, V): while a lesson is presented.
    static bool isPollKey(int key);
    void key(int key);

    Poll::Room *room() const { return m_room.get(); }
    Poll::PollServer *server() const { return m_server.get(); }
    // Every question's counts as CSV (Poll::Room::csv()), this lesson's session's too.
    QString csv() const;

signals:
    void changed();

private:
    void follow(); // the lesson's stage -> the room
    void show();   // the room -> the stage
    void keep();   // the counts -> the session
    void sessionChanged(LessonSession *session);
    QString questionId() const;
    void listChoices(); // the computer's interfaces now, the teacher's pick kept by name

    LessonController *m_lessons;
    LessonStage *m_stage;
    QPointer<LessonSession> m_session;
    QHostAddress m_address;
    QList<Choice> m_choices;
    InterfaceSource m_interfaces = &Poll::PollServer::interfaces;
    int m_chosen = -1;
    std::unique_ptr<Poll::Room> m_room;
    std::unique_ptr<Poll::PollServer> m_server;
    QString m_error;
    bool m_histogram = false;
    QTimer m_showSoon; // a vote or a page served: shown within kShowMs
};
