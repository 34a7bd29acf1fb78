// The room's vote with no network (poll/pollroom.h): codes, cookies, rounds, replaced votes,
// closed rounds, counts worked out by hand, what is saved and the CSV.

#include "pollroom.h"
#include "qrmatrix.h"

#include <QSet>
#include <QTest>

#include <map>

using Poll::Confidence;
using Poll::Room;

namespace {

Poll::Question question(const QString &id, int options)
{
    Poll::Question q;
    q.id = id;
    q.prompt = QStringLiteral("Prompt of %1").arg(id);
    for (int i = 0; i < options; ++i)
        q.options << QStringLiteral("option %1").arg(i);
    return q;
}

// The browsers of one room: phone n's cookie, issued by the room the first time it is asked for.
struct Phones
{
    explicit Phones(Room &room) : room(room) {}
    Room &room;
    std::map<int, QByteArray> given;
    QByteArray operator()(int n)
    {
        QByteArray &c = given[n];
        if (c.isEmpty())
            c = room.issueCookie();
        return c;
    }
};

} // namespace

class TestPollRoom : public QObject
{
    Q_OBJECT
private slots:
    void codesAreFourLettersWithoutIOrO()
    {
        QSet<QString> seen;
        for (int i = 0; i < 200; ++i) {
            const QString code = Room::newCode();
            QCOMPARE(code.size(), 4);
            for (const QChar c : code) {
                QVERIFY2(c >= u'A' && c <= u'Z', qPrintable(code));
                QVERIFY2(c != u'I' && c != u'O', qPrintable(code));
            }
            seen.insert(code);
        }
        // 24^4 = 331776 codes: 200 draws that repeat more than a few times are not random
        QVERIFY(seen.size() > 190);
        Room room(QStringLiteral("KXQB"));
        QVERIFY(room.codeMatches(QStringLiteral(" kxqb ")));
        QVERIFY(!room.codeMatches(QStringLiteral("KXQ")));
        QVERIFY(!room.codeMatches(QStringLiteral("KXQC")));
    }

    void cookies()
    {
        const QByteArray a = Room::newCookie();
        QCOMPARE(a.size(), 32);
        QVERIFY(Room::isCookie(a));
        QVERIFY(a != Room::newCookie());
        QVERIFY(!Room::isCookie(QByteArray(32, 'g')));
        QVERIFY(!Room::isCookie(a.left(31)));
        QVERIFY(!Room::isCookie(a.toUpper().replace('0', 'F') + "0"));
        QVERIFY(!Room::isCookie(QByteArray()));
    }

    void issuedCookies()
    {
        // only what the room gave is known; a well-formed cookie it never gave is not
        Room room;
        QCOMPARE(room.cookiesIssued(), 0);
        const QByteArray a = room.issueCookie();
        const QByteArray b = room.issueCookie();
        QVERIFY(Room::isCookie(a) && Room::isCookie(b));
        QVERIFY(a != b);
        QVERIFY(room.issued(a) && room.issued(b));
        QVERIFY(!room.issued(Room::newCookie()));
        QVERIFY(!room.issued(QByteArray()));
        QCOMPARE(room.cookiesIssued(), 2);
        // another room (a poll started again) knows none of them
        QVERIFY(!Room().issued(a));
    }

    void noQuestionTakesNoVote()
    {
        Room room;
        Phones cookie{room};
        QCOMPARE(room.state(), Room::State::Idle);
        QCOMPARE(room.vote(cookie(1), QString(), 0, 0, Confidence::Sure), Room::VoteResult::Closed);
        QCOMPARE(room.rounds(), 0);
    }

    void votesCountedByHand()
    {
        Room room;
        Phones cookie{room};
        room.ask(question(QStringLiteral("q1"), 3));
        QCOMPARE(room.state(), Room::State::Open);
        const QString id = QStringLiteral("q1");
        // phones 1..5: A sure, A guess, B fairly sure, C sure, C sure
        QCOMPARE(room.vote(cookie(1), id, 0, 0, Confidence::Sure), Room::VoteResult::Counted);
        QCOMPARE(room.vote(cookie(2), id, 0, 0, Confidence::Guess), Room::VoteResult::Counted);
        QCOMPARE(room.vote(cookie(3), id, 0, 1, Confidence::FairlySure), Room::VoteResult::Counted);
        QCOMPARE(room.vote(cookie(4), id, 0, 2, Confidence::Sure), Room::VoteResult::Counted);
        QCOMPARE(room.vote(cookie(5), id, 0, 2, Confidence::Sure), Room::VoteResult::Counted);
        // phone 5 changes its mind: B, guess. Its C is gone.
        QCOMPARE(room.vote(cookie(5), id, 0, 1, Confidence::Guess), Room::VoteResult::Replaced);
        const Poll::Counts c = room.counts(0);
        QCOMPARE(c.option(0), 2);
        QCOMPARE(c.option(1), 2);
        QCOMPARE(c.option(2), 1);
        QCOMPARE(c.total(), 5);
        QCOMPARE(c.votes[0], (std::array<int, 3>{1, 0, 1}));
        QCOMPARE(c.votes[1], (std::array<int, 3>{1, 1, 0}));
        QCOMPARE(c.votes[2], (std::array<int, 3>{0, 0, 1}));
        QCOMPARE(room.choice(cookie(5), 0), 1);
        QCOMPARE(room.choice(cookie(9), 0), -1);
    }

    void refusedVotesChangeNothing()
    {
        Room room;
        Phones cookie{room};
        const QString id = QStringLiteral("q");
        room.ask(question(id, 2));
        QCOMPARE(room.vote(cookie(1), id, 0, 2, Confidence::Sure), Room::VoteResult::BadOption);
        QCOMPARE(room.vote(cookie(1), id, 0, -1, Confidence::Sure), Room::VoteResult::BadOption);
        QCOMPARE(room.vote("nope", id, 0, 0, Confidence::Sure), Room::VoteResult::BadCookie);
        // of a cookie's shape but never issued by this room: a forgery, or another poll's
        QCOMPARE(room.vote(Room::newCookie(), id, 0, 0, Confidence::Sure),
                 Room::VoteResult::UnknownCookie);
        QCOMPARE(room.vote(Room().issueCookie(), id, 0, 0, Confidence::Sure),
                 Room::VoteResult::UnknownCookie);
        QCOMPARE(room.vote(cookie(1), QStringLiteral("other"), 0, 0, Confidence::Sure),
                 Room::VoteResult::WrongRound);
        QCOMPARE(room.vote(cookie(1), id, 1, 0, Confidence::Sure), Room::VoteResult::WrongRound);
        QCOMPARE(room.counts(0).total(), 0);
        QCOMPARE(room.vote(cookie(1), id, 0, 1, Confidence::Sure), Room::VoteResult::Counted);
        room.close();
        QCOMPARE(room.state(), Room::State::Closed);
        QCOMPARE(room.vote(cookie(2), id, 0, 0, Confidence::Sure), Room::VoteResult::Closed);
        // a closed round keeps the vote it had: the replacement is refused too
        QCOMPARE(room.vote(cookie(1), id, 0, 0, Confidence::Sure), Room::VoteResult::Closed);
        QCOMPARE(room.counts(0).option(1), 1);
        QCOMPARE(room.counts(0).total(), 1);
    }

    void twoRounds()
    {
        Room room;
        Phones cookie{room};
        const QString id = QStringLiteral("q");
        room.ask(question(id, 4));
        room.vote(cookie(1), id, 0, 0, Confidence::Guess);
        room.vote(cookie(2), id, 0, 0, Confidence::Guess);
        room.vote(cookie(3), id, 0, 3, Confidence::Sure);
        QVERIFY(room.openSecondRound());
        QCOMPARE(room.round(), 1);
        QCOMPARE(room.rounds(), 2);
        QVERIFY(!room.openSecondRound()); // two rounds at most
        // a page still showing round 1 votes into it: refused
        QCOMPARE(room.vote(cookie(4), id, 0, 1, Confidence::Sure), Room::VoteResult::WrongRound);
        // after discussion: all three on D, each counted once in round 2
        for (int p = 1; p <= 3; ++p)
            QCOMPARE(room.vote(cookie(p), id, 1, 3, Confidence::Sure), Room::VoteResult::Counted);
        QCOMPARE(room.counts(0).option(0), 2);
        QCOMPARE(room.counts(0).option(3), 1);
        QCOMPARE(room.counts(1).option(0), 0);
        QCOMPARE(room.counts(1).option(3), 3);
        QCOMPARE(room.counts(1).votes[3], (std::array<int, 3>{0, 0, 3}));
        room.reveal(3, {QStringLiteral("fb A"), {}, {}, {}});
        QCOMPARE(room.state(), Room::State::Revealed);
        QCOMPARE(room.question().right, 3);
        QCOMPARE(room.vote(cookie(5), id, 1, 3, Confidence::Sure), Room::VoteResult::Closed);
        room.unreveal();
        QCOMPARE(room.question().right, -1);
        QCOMPARE(room.state(), Room::State::Open);
    }

    void askingAgainKeepsTheVotes()
    {
        Room room;
        Phones cookie{room};
        room.ask(question(QStringLiteral("q1"), 2));
        room.vote(cookie(1), QStringLiteral("q1"), 0, 1, Confidence::Sure);
        room.ask(question(QStringLiteral("q2"), 3));
        QCOMPARE(room.counts(0).total(), 0);
        room.vote(cookie(1), QStringLiteral("q2"), 0, 2, Confidence::Sure);
        room.clear();
        QCOMPARE(room.state(), Room::State::Idle);
        room.ask(question(QStringLiteral("q1"), 2));
        QCOMPARE(room.counts(0).option(1), 1);
        QCOMPARE(room.counts(QStringLiteral("q2"), 0).option(2), 1);
        QCOMPARE(room.askedIds(), (QStringList{QStringLiteral("q1"), QStringLiteral("q2")}));
    }

    void changesTheServerPushes()
    {
        // what the phones' live sockets are sent on (pollserver.h): each change they see, once;
        // a vote, or a step that changes nothing, calls nothing
        Room room;
        Phones cookie{room};
        int changes = 0;
        room.setOnChange([&] { ++changes; });
        room.ask(question(QStringLiteral("q1"), 2));
        QCOMPARE(changes, 1);
        room.vote(cookie(1), QStringLiteral("q1"), 0, 1, Confidence::Sure);
        QCOMPARE(changes, 1);
        room.close();
        QCOMPARE(changes, 2);
        room.close(); // closed already
        QCOMPARE(changes, 2);
        room.reveal(1, {});
        QCOMPARE(changes, 3);
        room.unreveal();
        QCOMPARE(changes, 4);
        room.unreveal(); // not revealed
        QCOMPARE(changes, 4);
        QVERIFY(room.openSecondRound());
        QCOMPARE(changes, 5);
        QVERIFY(!room.openSecondRound()); // there is no third
        QCOMPARE(changes, 5);
        room.ask(question(QStringLiteral("q1"), 2)); // asked again
        QCOMPARE(changes, 6);
        room.clear();
        QCOMPARE(changes, 7);
        room.reveal(0, {}); // no question
        QCOMPARE(changes, 7);
        room.restore(room.save());
        QCOMPARE(changes, 8);
        room.setOnChange({});
        room.ask(question(QStringLiteral("q2"), 2));
        QCOMPARE(changes, 8);
    }

    void savedAreCountsOnly()
    {
        Room room;
        Phones cookie{room};
        const QString id = QStringLiteral("q");
        room.ask(question(id, 2));
        room.vote(cookie(1), id, 0, 0, Confidence::Sure);
        room.vote(cookie(2), id, 0, 1, Confidence::Guess);
        room.openSecondRound();
        room.vote(cookie(1), id, 1, 1, Confidence::FairlySure);
        const QVariantMap saved = room.save();
        // no cookie anywhere in what is saved
        QVERIFY(!QString::fromUtf8(QTest::toString(saved)).contains(QLatin1String(cookie(1))));
        Room again;
        again.restore(saved);
        QCOMPARE(again.state(), Room::State::Idle);
        QCOMPARE(again.counts(id, 0).votes[0], (std::array<int, 3>{0, 0, 1}));
        QCOMPARE(again.counts(id, 0).votes[1], (std::array<int, 3>{1, 0, 0}));
        QCOMPARE(again.counts(id, 1).votes[1], (std::array<int, 3>{0, 1, 0}));
        // asked again after the restore: round 2 closed, a new vote there is one more
        again.ask(question(id, 2));
        QCOMPARE(again.round(), 1);
        QCOMPARE(again.counts(1).total(), 1);
        // hostile saved data: ignored, no crash
        Room junk;
        junk.restore({{QStringLiteral("questions"), QVariantList{QStringLiteral("x"), 3}}});
        QVERIFY(junk.askedIds().isEmpty());
    }

    void csv()
    {
        Room room;
        Phones cookie{room};
        Poll::Question q = question(QStringLiteral("s2"), 2);
        q.prompt = QStringLiteral("Which write, \"A\" or B?");
        q.options = QStringList{QStringLiteral("A's, at t=30"), QStringLiteral("B's")};
        room.ask(q);
        room.vote(cookie(1), q.id, 0, 0, Confidence::Sure);
        room.vote(cookie(2), q.id, 0, 0, Confidence::Guess);
        room.vote(cookie(3), q.id, 0, 1, Confidence::FairlySure);
        QCOMPARE(
            room.csv(),
            QStringLiteral("question,prompt,round,option,text,guess,fairly sure,sure,total\r\n"
                           "s2,\"Which write, \"\"A\"\" or B?\",1,A,\"A's, at t=30\",1,0,1,2\r\n"
                           "s2,\"Which write, \"\"A\"\" or B?\",1,B,B's,0,1,0,1\r\n"));
    }

    void qrCodeOfTheAddress()
    {
        // "http://192.168.100.200:65535/?r=KXQB" is 36 bytes: in byte mode at level M,
        // version 3 (29 modules) holds 42 bytes and version 2 holds 26 (ISO 18004, table 7)
        const Poll::QrMatrix m =
            Poll::qrEncode(QStringLiteral("http://192.168.100.200:65535/?r=KXQB"));
        QCOMPARE(m.size, 29);
        QCOMPARE(m.dark.size(), std::size_t(29 * 29));
        // the three finder patterns: a dark 7x7 ring, a light ring inside, a dark 3x3 centre,
        // at the top left, top right and bottom left
        for (const auto &[ox, oy] : {std::pair{0, 0}, std::pair{22, 0}, std::pair{0, 22}}) {
            for (int y = 0; y < 7; ++y)
                for (int x = 0; x < 7; ++x) {
                    const int ring = std::max(std::abs(x - 3), std::abs(y - 3));
                    QCOMPARE(m.at(ox + x, oy + y), ring != 2);
                }
        }
        // timing pattern on row 6 between the finders: dark, light, dark...
        for (int x = 8; x < 21; ++x)
            QCOMPARE(m.at(x, 6), x % 2 == 0);
        QCOMPARE(Poll::qrEncode(QString(8000, QLatin1Char('x'))).size, 0); // too long: none
    }
};

QTEST_GUILESS_MAIN(TestPollRoom)
#include "tst_pollroom.moc"
