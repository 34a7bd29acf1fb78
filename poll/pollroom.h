#pragma once

// The room's vote on a lesson's question (docs/POLL.md), with no network: the room code, the
// question asked, its rounds (Peer Instruction's first vote and the second after discussion)
// and the votes. A browser is known only by a random cookie the server gave it; a second vote
// from it in the same round replaces its first. No name or address is kept, and what is saved
// (save(), csv()) holds only counts.

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <array>
#include <functional>
#include <map>
#include <vector>

namespace Poll {

enum class Confidence
{
    Guess,
    FairlySure,
    Sure,
};
constexpr int kConfidences = 3;
constexpr int kRounds = 2;     // the first vote, and the second after discussion
constexpr int kMaxOptions = 5; // A to E, as a lesson's question has
constexpr int kCodeLetters = 4;

// "guess", "fairly sure", "sure": the words of the page and of the CSV.
QString confidenceName(Confidence confidence);

// The votes of one round: per option, per confidence.
struct Counts
{
    std::vector<std::array<int, kConfidences>> votes; // [option][confidence]
    int option(int option) const;
    int total() const;
    friend bool operator==(const Counts &a, const Counts &b) { return a.votes == b.votes; }
};

// A question as the phones see it: its texts only, never HTML (the page sets them as text).
struct Question
{
    QString id; // stable within the lesson: a second ask() of the same id keeps its votes
    QString prompt;
    QStringList options;
    // at the reveal
    int right = -1;       // the option that holds; -1: none, or not revealed
    QStringList feedback; // per option, may be empty
};

class Room
{
public:
    enum class State
    {
        Idle,     // no question asked
        Open,     // the round takes votes
        Closed,   // the round ended, waiting for the reveal
        Revealed, // the answer is shown; no votes
    };
    enum class VoteResult
    {
        Counted,       // a first vote from this browser in this round
        Replaced,      // it had voted: its vote is now this one
        Closed,        // no round open (409)
        BadOption,     // no such option (400)
        BadCookie,     // no browser cookie, or not of its shape (400)
        UnknownCookie, // of a cookie's shape, but this room never gave it: a forgery (403)
        WrongRound,    // the vote was for another question or round (409)
    };

    // A fresh room code: kCodeLetters letters from the system's CSPRNG, no I or O (read aloud
    // and typed on a phone, they pass for 1 and 0).
    static QString newCode();
    // A fresh browser cookie: 128 bits from the system's CSPRNG, as 32 hex digits.
    static QByteArray newCookie();
    static bool isCookie(const QByteArray &cookie);
    // A fresh cookie the room remembers as given: only a browser holding one votes (a
    // well-formed cookie the room never gave is a forgery). Kept for the poll's life, so a
    // server started again on another interface still knows the phones.
    QByteArray issueCookie();
    bool issued(const QByteArray &cookie) const { return m_issued.contains(cookie); }
    int cookiesIssued() const { return int(m_issued.size()); }

    explicit Room(const QString &code = newCode());

    // Called after each change the phones must see: a question asked or cleared, a round
    // opened or closed, the reveal and its undoing, a restore. Not after a vote: a vote changes
    // only its own browser's view. One observer (the server that pushes to the phones); an
    // empty function removes it.
    void setOnChange(std::function<void()> onChange) { m_onChange = std::move(onChange); }

    QString code() const { return m_code; }
    // The code as typed: case and surrounding spaces do not matter.
    bool codeMatches(const QString &typed) const;

    // Asks `question` (2 to kMaxOptions options): its first round opens; one asked before has
    // its last round open again, with the votes it had (the teacher went back to it).
    void ask(const Question &question);
    // No question asked (a scene without one): phones wait.
    void clear();
    // The second round of the question asked ("Vote again"): open, empty.
    bool openSecondRound();
    // The round takes no more votes.
    void close();
    // Shows the answer: `right` and the feedback per option; no more votes.
    void reveal(int right, const QStringList &feedback);
    // Back to the question's last round, open again (the teacher went back from the reveal).
    void unreveal();

    State state() const { return m_state; }
    const Question &question() const { return m_question; }
    bool hasQuestion() const { return m_state != State::Idle; }
    // 0: the first round, 1: the second
    int round() const { return m_round; }
    // Rounds the question asked has had (1 or 2); 0 when none is asked.
    int rounds() const;

    // Counts the vote of the browser holding `cookie`, which must be one the room issued.
    VoteResult vote(const QByteArray &cookie, const QString &questionId, int round, int option,
                    Confidence confidence);
    // What the browser with `cookie` chose in the asked question's `round`; -1: nothing.
    int choice(const QByteArray &cookie, int round) const;

    // The asked question's votes in `round`; and any question's, by its id.
    Counts counts(int round) const;
    Counts counts(const QString &questionId, int round) const;
    // Every question asked, in the order first asked.
    QStringList askedIds() const;

    // Counts only (no cookie): what a lesson's session keeps, and restores (the counts then
    // stay; a phone voting again after a restore counts as a new one).
    QVariantMap save() const;
    void restore(const QVariantMap &saved);
    // question, prompt, round, option, text, guess, fairly sure, sure, total: one line per
    // option of each round of each question asked (RFC 4180 quoting).
    QString csv() const;

private:
    struct Round
    {
        std::map<QByteArray, std::pair<int, Confidence>> votes; // cookie -> option, confidence
        Counts restored;                                        // counted before a restore
    };
    struct Asked
    {
        Question question;
        std::vector<Round> rounds; // 1 or 2
        State state = State::Open;
    };
    Asked *asked();
    const Asked *asked() const;
    Counts countsOf(const Asked &a, int round) const;
    void changed() const
    {
        if (m_onChange)
            m_onChange();
    }

    QString m_code;
    State m_state = State::Idle;
    Question m_question;
    int m_round = 0;
    std::vector<Asked> m_asked; // in the order first asked
    QSet<QByteArray> m_issued;  // the cookies given to browsers
    std::function<void()> m_onChange;
};

} // namespace Poll
