// Polling the room while a lesson is presented, through the real MainWindow (keys on
// windowHandle()), with phones simulated by raw HTTP over loopback (tests/common/rawhttp.h):
// P starts the poll at a question, the QR code and the address with the room code show, the
// votes count as they arrive, the counts stay hidden until H, V opens the second round, the
// reveal shows both rounds beside the typed hands with the right answer marked, the phones see
// the answer and their option's feedback, Esc stops the server.
//
// The lesson is the first built-in one; its second scene asks what happens to A's write, and
// the answer is B, "corrupted" (worked out by hand in tst_lessoncontroller.cpp's header).

#include "document/lessonsession.h"
#include "rawhttp.h"
#include "scripteddialogs.h"
#include "views/lessonstage.h"
#include "views/pollbox.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"
#include "window/roompoll.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QNetworkInterface>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <array>

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

// What QNetworkInterface lists for the teacher to pick, worked out here apart from the app:
// the IPv4 addresses of the interfaces that are up, running and not the loopback.
QList<std::pair<QString, QHostAddress>> machineAddresses()
{
    QList<std::pair<QString, QHostAddress>> found;
    for (const QNetworkInterface &i : QNetworkInterface::allInterfaces()) {
        const auto f = i.flags();
        if (!f.testFlag(QNetworkInterface::IsUp) || !f.testFlag(QNetworkInterface::IsRunning) ||
            f.testFlag(QNetworkInterface::IsLoopBack))
            continue;
        for (const QNetworkAddressEntry &e : i.addressEntries())
            if (e.ip().protocol() == QAbstractSocket::IPv4Protocol)
                found.append({i.name(), e.ip()});
    }
    return found;
}

// An address of TEST-NET-1 (RFC 5737) that no interface of this machine has: listening there
// fails. (A machine may have one of them: this sandbox's eth0 is 192.0.2.2.)
QString unlistenable()
{
    const QList<QHostAddress> own = QNetworkInterface::allAddresses();
    for (int last = 1; last < 255; ++last) {
        const QHostAddress a(QStringLiteral("192.0.2.%1").arg(last));
        if (!own.contains(a))
            return a.toString();
    }
    return QStringLiteral("192.0.2.254");
}

// `raw` to `address` (RawHttp::send knows only the loopback): the first response, or status 0.
// The server runs on this thread: the event loop turns while waiting.
Reply sendTo(const QHostAddress &address, quint16 port, const QByteArray &raw)
{
    QTcpSocket s;
    QByteArray data;
    Reply r;
    bool done = false;
    QObject::connect(&s, &QTcpSocket::connected, &s, [&] { s.write(raw); });
    QObject::connect(&s, &QTcpSocket::readyRead, &s, [&] {
        data += s.readAll();
        done = done || takeReply(data, r);
    });
    s.connectToHost(address, port);
    (void)QTest::qWaitFor([&] { return done || s.state() == QAbstractSocket::UnconnectedState; },
                          5000);
    return done ? r : Reply();
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
    // Picks item `index` of `list`, as choosing it in its popup does. (The popup's list does
    // not show on the offscreen platform during presentation, so it is not clicked.)
    static void pick(QComboBox *list, int index)
    {
        QVERIFY(list->isVisible() && list->isEnabled());
        list->setCurrentIndex(index);
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

    void openWindow()
    {
        m_window = std::make_unique<MainWindow>();
        scriptDialogs(window());
        window().resize(1280, 800);
        window().show();
        window().activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
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
        openWindow();
    }

    void cleanup()
    {
        if (session())
            session()->markSaved();
        m_window.reset();
        qputenv("FENCESCOPE_POLL_ADDRESS", "127.0.0.1"); // a test that changed it may have failed
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
        PollHistogram *histogram = box->histogram();
        QVERIFY(!histogram->isVisible());
        press(Qt::Key_H);
        // the bars: A 2, B 4, C 1, D 0. B, the most, is the longest; A half of it, C a
        // quarter (rounded down to whole pixels), D none; one row each, top to bottom
        QVERIFY(histogram->isVisible());
        QList<PollHistogram::Bar> bars = histogram->bars();
        QCOMPARE(bars.size(), 4);
        const int longest = bars[1].rect.width();
        QVERIFY2(longest >= 40, QByteArray::number(longest));
        QCOMPARE(bars[0].rect.width(), longest / 2);
        QCOMPARE(bars[2].rect.width(), longest / 4);
        QCOMPARE(bars[3].rect.width(), 0);
        for (int o = 0; o < 4; ++o) {
            QCOMPARE(bars[o].count, (std::array{2, 4, 1, 0})[std::size_t(o)]);
            QVERIFY(bars[o].rect.height() > 0);
            if (o > 0)
                QVERIFY(bars[o].rect.top() > bars[o - 1].rect.bottom());
        }
        // painted where they say, in their colour
        const QImage drawn = histogram->grab().toImage();
        QCOMPARE(drawn.pixelColor(bars[1].rect.center()), bars[1].colour);
        QCOMPARE(drawn.pixelColor(bars[0].rect.center()), bars[0].colour);
        QCOMPARE(stage()->phoneCount(0, 0), QStringLiteral("2"));
        QCOMPARE(stage()->phoneCount(0, 1), QStringLiteral("4"));
        QCOMPARE(stage()->phoneCount(0, 2), QStringLiteral("1"));
        QCOMPARE(stage()->phoneCount(0, 3), QStringLiteral("0"));
        press(Qt::Key_H);
        QCOMPARE(stage()->phoneCount(0, 1), QString());
        QVERIFY(!histogram->isVisible());

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
        // the bars of both rounds side by side on one scale (the most, 6, the longest): round 1
        // A 2, B 4, C 1, D 0; round 2 A 1, B 6; B's bars, the right answer, in the accepted colour
        QVERIFY(histogram->isVisible());
        bars = histogram->bars();
        QCOMPARE(bars.size(), 8);
        const int full = bars[5].rect.width(); // round 2, B
        QVERIFY2(full >= 40, QByteArray::number(full));
        QCOMPARE(bars[1].rect.width(), full * 4 / 6);
        QCOMPARE(bars[0].rect.width(), full * 2 / 6);
        QCOMPARE(bars[4].rect.width(), full / 6);
        QCOMPARE(bars[6].rect.width(), 0);
        QVERIFY(bars[4].rect.left() > bars[0].rect.left()); // round 2 to the right of round 1
        QCOMPARE(bars[4].rect.top(), bars[0].rect.top());
        const QColor accepted = Theme::byName(QStringLiteral("contrast")).accepted;
        QCOMPARE(bars[1].colour, accepted);
        QCOMPARE(bars[5].colour, accepted);
        for (const int other : {0, 2, 4})
            QVERIFY(bars[other].colour != accepted);
        const QImage revealed = histogram->grab().toImage();
        QCOMPARE(revealed.pixelColor(bars[5].rect.center()), accepted);
        QCOMPARE(revealed.pixelColor(bars[4].rect.center()), bars[4].colour);
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
        // File > Export Room Votes as CSV writes that CSV where the teacher says; a place that
        // cannot be written is said, and nothing is written
        QAction *exportVotes = window().findChild<QAction *>(QStringLiteral("exportRoomVotes"));
        QVERIFY(exportVotes && exportVotes->isEnabled());
        const QString csvPath = m_autosave.filePath(QStringLiteral("votes.csv"));
        scripted(window()).setNextPath(csvPath);
        exportVotes->trigger();
        QFile written(csvPath);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(written.readAll()), csv);
        const QString blocked = csvPath + QStringLiteral("/inside.csv"); // a file, not a folder
        scripted(window()).setNextPath(blocked);
        exportVotes->trigger();
        QVERIFY2(scripted(window()).lastError().startsWith(
                     QStringLiteral("Cannot write %1: ").arg(blocked)),
                 qPrintable(scripted(window()).lastError()));
        QVERIFY(!QFileInfo::exists(blocked));

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

    void theTeacherPicksTheInterface()
    {
        // FENCESCOPE_POLL_ADDRESS=127.0.0.1 (the tests'): offered first, as this computer
        // only, then every address QNetworkInterface lists, "name: address"
        const auto machine = machineAddresses();
        QStringList expected{QStringLiteral("this computer only (for a test): 127.0.0.1")};
        for (const auto &[name, address] : machine)
            expected << name + QStringLiteral(": ") + address.toString();
        toTheQuestion();
        PollBox *box = stage()->pollBox();
        auto *list = box->findChild<QComboBox *>(QStringLiteral("pollInterface"));
        QVERIFY(list->isVisible()); // picked before the poll starts too
        QVERIFY(list->isEnabled());
        QCOMPARE(box->interfaceTexts(), expected);
        QCOMPARE(list->currentIndex(), 0);
        QCOMPARE(list->focusPolicy(), Qt::NoFocus); // P, H, V stay presentation's

        press(Qt::Key_P);
        QVERIFY(poll()->isOn());
        const quint16 port = poll()->server()->port();
        const QString code = poll()->room()->code();
        QCOMPARE(box->addressText(),
                 QStringLiteral("http://127.0.0.1:%1/\nroom %2").arg(port).arg(code));
        const QByteArray phone = cookieOf(send(port, get("/?r=" + code.toLatin1())));
        QCOMPARE(send(port, post("/vote", vote(code, 1, 0), phone)).status, 200);
        QTRY_COMPARE(box->votesText(), QStringLiteral("1 vote"));

        if (machine.isEmpty()) {
            // only the loopback (an offscreen CI box): nothing else to move to, the poll stays
            QCOMPARE(list->count(), 1);
            pick(list, 0);
            QCOMPARE(list->currentIndex(), 0);
            QVERIFY(poll()->isOn());
            QCOMPARE(poll()->server()->port(), port);
            return;
        }
        // the first network instead: the poll moves there, the same code and the same vote
        pick(list, 1);
        QCOMPARE(list->currentIndex(), 1);
        QVERIFY(poll()->isOn());
        const QHostAddress there = machine.first().second;
        const quint16 moved = poll()->server()->port();
        QCOMPARE(poll()->room()->code(), code);
        QCOMPARE(
            box->addressText(),
            QStringLiteral("http://%1:%2/\nroom %3").arg(there.toString()).arg(moved).arg(code));
        QCOMPARE(box->votesText(), QStringLiteral("1 vote"));
        QCOMPARE(poll()->room()->counts(0).option(1), 1);
        // the loopback no longer answers; the new address does, and knows the phone's vote
        QCOMPARE(sendTo(QHostAddress::LocalHost, port, get("/")).status, 0);
        const Reply st = sendTo(there, moved, get("/state?room=" + code.toLatin1(), phone));
        QCOMPARE(st.status, 200);
        QCOMPARE(QJsonDocument::fromJson(st.body).object().value(QStringLiteral("voted")).toInt(),
                 1);
        // remembered by the interface's name: the next lesson starts there
        QCOMPARE(QSettings().value(QLatin1String(RoomPoll::kInterfaceKey)).toString(),
                 machine.first().first);
        // (the lesson's progress forgotten, the pick kept)
        m_window.reset();
        QSettings().clear();
        QSettings().setValue(QLatin1String(RoomPoll::kInterfaceKey), machine.first().first);
        openWindow();
        toTheQuestion();
        box = stage()->pollBox();
        QCOMPARE(box->findChild<QComboBox *>(QStringLiteral("pollInterface"))->currentIndex(), 1);
        press(Qt::Key_P);
        QVERIFY(poll()->isOn());
        QCOMPARE(poll()->server()->address(), there);
    }

    void aPickThatCannotListenKeepsThePoll()
    {
        // an interface listed a moment ago that is gone when picked: the poll stays where it
        // was (address, port, code, votes), the stage says why, and the pick is not remembered
        const QString gone = unlistenable();
        poll()->setInterfaceSource([gone] {
            return QList<Poll::PollServer::Interface>{
                {QStringLiteral("wlan-gone"), QHostAddress(gone)}};
        });
        toTheQuestion();
        PollBox *box = stage()->pollBox();
        auto *list = box->findChild<QComboBox *>(QStringLiteral("pollInterface"));
        QCOMPARE(box->interfaceTexts(),
                 (QStringList{QStringLiteral("this computer only (for a test): 127.0.0.1"),
                              QStringLiteral("wlan-gone: ") + gone}));
        press(Qt::Key_P);
        QVERIFY(poll()->isOn());
        const quint16 port = poll()->server()->port();
        const QString code = poll()->room()->code();
        const QByteArray phone = cookieOf(send(port, get("/?r=" + code.toLatin1())));
        QCOMPARE(send(port, post("/vote", vote(code, 2, 0), phone)).status, 200);

        pick(list, 1);
        QCOMPARE(list->currentIndex(), 0);
        QVERIFY2(box->reachText().startsWith(QStringLiteral("Cannot listen on ") + gone),
                 qPrintable(box->reachText()));
        QVERIFY(poll()->isOn());
        QCOMPARE(poll()->server()->address(), QHostAddress(QHostAddress::LocalHost));
        QCOMPARE(poll()->server()->port(), port);
        QCOMPARE(poll()->room()->code(), code);
        QCOMPARE(box->addressText(),
                 QStringLiteral("http://127.0.0.1:%1/\nroom %2").arg(port).arg(code));
        // the phone that scanned before still reaches the poll and its vote
        const Reply st = send(port, get("/state?room=" + code.toLatin1(), phone));
        QCOMPARE(st.status, 200);
        QCOMPARE(QJsonDocument::fromJson(st.body).object().value(QStringLiteral("voted")).toInt(),
                 2);
        QCOMPARE(send(port, post("/vote", vote(code, 1, 0), phone)).status, 200);
        QCOMPARE(poll()->room()->counts(0).total(), 1);
        QVERIFY(!QSettings().contains(QLatin1String(RoomPoll::kInterfaceKey)));
    }

    void withoutTheVariableTheMachinesInterfaces()
    {
        // what a teacher's laptop offers: its own interfaces only; with none (an offscreen CI
        // box), "no network", and the hands work as before
        qunsetenv("FENCESCOPE_POLL_ADDRESS");
        m_window.reset();
        init();
        toTheQuestion();
        PollBox *box = stage()->pollBox();
        auto *list = box->findChild<QComboBox *>(QStringLiteral("pollInterface"));
        const auto machine = machineAddresses();
        QStringList expected;
        for (const auto &[name, address] : machine)
            expected << name + QStringLiteral(": ") + address.toString();
        press(Qt::Key_P);
        if (machine.isEmpty()) {
            QCOMPARE(box->interfaceTexts(), QStringList{QStringLiteral("no network")});
            QVERIFY(!list->isEnabled());
            QVERIFY(!poll()->isOn());
            QCOMPARE(box->reachText(),
                     QStringLiteral("This computer has no network to poll the room on."));
        } else {
            QCOMPARE(box->interfaceTexts(), expected);
            QVERIFY(list->isEnabled());
            QCOMPARE(list->currentIndex(), 0);
            QVERIFY(poll()->isOn());
            QCOMPARE(poll()->server()->address(), machine.first().second);
            press(Qt::Key_P);
            QVERIFY(!poll()->isOn());
        }
        press(Qt::Key_A);
        QTest::keyClick(window().windowHandle(), '4');
        press(Qt::Key_Return);
        QCOMPARE(session()->currentAnswer().hands[0][0], 4);
        qputenv("FENCESCOPE_POLL_ADDRESS", "127.0.0.1");
    }

    void noNetworkKeepsTheHands()
    {
        // an address no interface has: the stage says why, the hands work as before
        qputenv("FENCESCOPE_POLL_ADDRESS", unlistenable().toLatin1());
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
