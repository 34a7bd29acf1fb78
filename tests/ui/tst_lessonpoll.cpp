// Polling the room while a lesson is presented, through the real MainWindow (keys on
// windowHandle()), with phones simulated by raw HTTP over loopback (tests/common/rawhttp.h):
// P starts the poll at a question, the QR code and the address with the room code show, the
// votes count as they arrive, the counts stay hidden until H, V opens the second round, the
// reveal shows both rounds beside the typed hands with the right answer marked, the phones see
// the answer and their option's feedback, Esc stops the server.
//
// The lesson is the first built-in one; its second scene asks what happens to A's write, and
// the answer is B, "corrupted" (worked out by hand in tst_lessoncontroller.cpp's header).

#include "lessoncontroller.h"
#include "lessonsession.h"
#include "lessonstage.h"
#include "mainwindow.h"
#include "pollbox.h"
#include "rawhttp.h"
#include "roompoll.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace RawHttp;

namespace {

const QString kLesson = QStringLiteral("1-why-a-lock-needs-fencing");

QByteArray vote(const QString &room, int option, int round, int confidence = 1)
{
    return QStringLiteral(
               R"({"room":"%1","question":"scene-2","round":%2,"option":%3,"confidence":%4})")
        .arg(room)
        .arg(round)
        .arg(option)
        .arg(confidence)
        .toUtf8();
}

} // namespace

class TestLessonPoll : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_autosave;

    MainWindow &window() { return *m_window; }
    LessonController *lessons() { return window().lessons(); }
    LessonSession *session() { return lessons()->session(); }
    LessonStage *stage() { return window().lessonStage(); }
    RoomPoll *poll() { return window().findChild<RoomPoll *>(QStringLiteral("roomPoll")); }
    void press(Qt::Key key, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QTest::keyClick(window().windowHandle(), key, mods);
    }
    void toTheQuestion()
    {
        QVERIFY(window().openBuiltinLesson(kLesson));
        press(Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(session()->scene(), 1);
        press(Qt::Key_F11);
        QVERIFY(window().isPresenting());
        for (int i = 0; i < 6; ++i)
            press(Qt::Key_Right);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_lessonpoll"));
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
        // the phones are this test, on loopback
        qputenv("FENCESCOPE_POLL_ADDRESS", "127.0.0.1");
    }

    void init()
    {
        QSettings().clear();
        QTest::failOnWarning(QRegularExpression(QStringLiteral("Ambiguous shortcut")));
        m_window = std::make_unique<MainWindow>();
        window().setInteractive(false);
        window().resize(1280, 800);
        window().show();
        window().activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }

    void cleanup()
    {
        if (session())
            session()->markSaved();
        m_window.reset();
    }

    void pollTheRoom()
    {
        toTheQuestion();
        PollBox *box = stage()->pollBox();
        auto *startButton = box->findChild<QPushButton *>(QStringLiteral("pollStart"));
        QVERIFY(startButton->isVisible()); // the button on the question
        QVERIFY(!poll()->isOn());
        QCOMPARE(box->addressText(), QString());

        press(Qt::Key_P);
        QVERIFY(poll()->isOn());
        QVERIFY(!startButton->isVisible());
        Poll::PollServer *server = poll()->server();
        const quint16 port = server->port();
        const QString code = poll()->room()->code();
        QCOMPARE(box->addressText(),
                 QStringLiteral("http://127.0.0.1:%1/\nroom %2").arg(port).arg(code));
        QVERIFY(box->reachText().startsWith(QStringLiteral("No phone has reached")));
        // the QR code of the address with the code, drawn in black and white squares only
        auto *qr = box->findChild<QrCodeWidget *>();
        QVERIFY(qr->isVisible());
        QVERIFY(qr->matrix().size >= 21); // version 1 at least (ISO 18004)
        const QImage shot = qr->grab().toImage();
        for (int y = 0; y < shot.height(); y += 3)
            for (int x = 0; x < shot.width(); x += 3) {
                const QRgb c = shot.pixel(x, y);
                QVERIFY(c == qRgb(0, 0, 0) || c == qRgb(255, 255, 255));
            }
        QCOMPARE(box->votesText(), QStringLiteral("0 votes"));

        // seven phones load the page: the stage says they reach it
        QList<QByteArray> phones;
        for (int i = 0; i < 7; ++i)
            phones << cookieOf(send(port, get("/?r=" + code.toLatin1())));
        QTRY_VERIFY(box->reachText().startsWith(QStringLiteral("Phones reach this page")));
        // round 1: B B B B A A C
        const int first[] = {1, 1, 1, 1, 0, 0, 2};
        for (int i = 0; i < 7; ++i)
            QCOMPARE(send(port, post("/vote", vote(code, first[i], 0), phones[i])).status, 200);
        QTRY_COMPARE(box->votesText(), QStringLiteral("7 votes"));
        // hidden until the teacher shows them
        for (int o = 0; o < 4; ++o)
            QCOMPARE(stage()->phoneCount(0, o), QString());
        press(Qt::Key_H);
        QCOMPARE(stage()->phoneCount(0, 0), QStringLiteral("2"));
        QCOMPARE(stage()->phoneCount(0, 1), QStringLiteral("4"));
        QCOMPARE(stage()->phoneCount(0, 2), QStringLiteral("1"));
        QCOMPARE(stage()->phoneCount(0, 3), QStringLiteral("0"));
        press(Qt::Key_H);
        QCOMPARE(stage()->phoneCount(0, 1), QString());

        // hands typed beside them, not added: A 12
        press(Qt::Key_A);
        QTest::keyClick(window().windowHandle(), '1');
        QTest::keyClick(window().windowHandle(), '2');
        press(Qt::Key_Return);
        QCOMPARE(session()->currentAnswer().hands[0][0], 12);

        // V: the second vote, after discussion; a page still on round 1 is refused
        press(Qt::Key_V);
        QCOMPARE(poll()->room()->round(), 1);
        QCOMPARE(box->votesText(), QStringLiteral("0 votes after talk"));
        QCOMPARE(send(port, post("/vote", vote(code, 0, 0), phones[0])).status, 409);
        // round 2: B B B B B B A
        for (int i = 0; i < 7; ++i)
            QCOMPARE(send(port, post("/vote", vote(code, i == 6 ? 0 : 1, 1), phones[i])).status,
                     200);
        QTRY_COMPARE(box->votesText(), QStringLiteral("7 votes after talk"));

        // the reveal: both rounds side by side, B marked, hands beside
        press(Qt::Key_Right);
        QTRY_COMPARE(lessons()->stage(), LessonController::Stage::Answer);
        QCOMPARE(stage()->mark(1), QStringLiteral("✓"));
        QCOMPARE(stage()->phoneCount(0, 0), QStringLiteral("2"));
        QCOMPARE(stage()->phoneCount(0, 1), QStringLiteral("4"));
        QCOMPARE(stage()->phoneCount(1, 0), QStringLiteral("1"));
        QCOMPARE(stage()->phoneCount(1, 1), QStringLiteral("6"));
        QCOMPARE(stage()->phoneCount(1, 2), QStringLiteral("0"));
        QCOMPARE(stage()->handsField(0, 0)->text(), QStringLiteral("12"));
        QCOMPARE(session()->currentAnswer().hands[0][0], 12);
        // a phone sees the answer and the feedback of the option it chose (A, the lesson's)
        const Reply st = send(port, get("/state?room=" + code.toLatin1(), phones[6]));
        const QJsonObject o = QJsonDocument::fromJson(st.body).object();
        QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("revealed"));
        QCOMPARE(o.value(QStringLiteral("right")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("chose")).toInt(), 0);
        QVERIFY(o.value(QStringLiteral("feedback"))
                    .toArray()
                    .at(0)
                    .toString()
                    .startsWith(QStringLiteral("This storage checks nothing")));
        QCOMPARE(send(port, post("/vote", vote(code, 1, 1), phones[6])).status, 409);

        // the counts are the session's, and its CSV's
        QVERIFY(!session()->pollCounts().isEmpty());
        // every vote "fairly sure" (confidence 1): guess, fairly sure, sure, total
        const QString csv = poll()->csv();
        QVERIFY2(
            csv.contains(QStringLiteral(",1,B,\"A's write \"\"A\"\" is corrupted\",0,4,0,4\r\n")),
            qPrintable(csv));
        QVERIFY2(
            csv.contains(QStringLiteral(",2,B,\"A's write \"\"A\"\" is corrupted\",0,6,0,6\r\n")),
            qPrintable(csv));
        QVERIFY(
            csv.contains(QStringLiteral(",2,A,\"A's write \"\"A\"\" is rejected\",0,1,0,1\r\n")));

        // back to the question: its second round open again, with its votes; phone 7 changes
        // its mind to B (round 2: B 7)
        press(Qt::Key_Left);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
        QCOMPARE(poll()->room()->state(), Poll::Room::State::Open);
        QCOMPARE(send(port, post("/vote", vote(code, 1, 1), phones[6])).status, 200);
        QCOMPARE(poll()->room()->counts(1).option(1), 7);
        QCOMPARE(poll()->room()->counts(1).total(), 7);
        QCOMPARE(poll()->room()->counts(0).total(), 7);

        // Esc: presentation ends, the poll stops, the port is closed
        press(Qt::Key_Escape);
        QVERIFY(!window().isPresenting());
        QVERIFY(!poll()->isOn());
        QCOMPARE(send(port, get("/"), 1000).status, 0);
    }

    void noNetworkKeepsTheHands()
    {
        // an address no interface has: the stage says why, the hands work as before
        qputenv("FENCESCOPE_POLL_ADDRESS", "192.0.2.1"); // TEST-NET-1 (RFC 5737)
        m_window.reset();
        init();
        toTheQuestion();
        press(Qt::Key_P);
        QVERIFY(!poll()->isOn());
        QVERIFY2(stage()->pollBox()->reachText().startsWith(QStringLiteral("Cannot listen")),
                 qPrintable(stage()->pollBox()->reachText()));
        press(Qt::Key_A);
        QTest::keyClick(window().windowHandle(), '3');
        press(Qt::Key_Return);
        QCOMPARE(session()->currentAnswer().hands[0][0], 3);
        qputenv("FENCESCOPE_POLL_ADDRESS", "127.0.0.1");
    }
};

QTEST_MAIN(TestLessonPoll)
#include "tst_lessonpoll.moc"
