// Polling the room while a lesson is presented, through the real MainWindow (keys on
// windowHandle()), with phones simulated by raw HTTP over loopback (tests/common/rawhttp.h):
// P starts the poll at a question, the QR code and the address with the room code show, the
// votes count as they arrive, the counts stay hidden until H, V opens the second round, the
// reveal shows both rounds beside the typed hands with the right answer marked, the phones see
// the answer and their option's feedback, Esc stops the server. Also: the box's buttons
// clicked, the next question with the poll on, what the QR code encodes and paints, the counts
// kept across closing and opening the lesson (and a damaged progress entry), the interfaces.
// (Over 600 lines: every case drives the same window, lesson and phones through one fixture,
// which a split would copy.)
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
#include "windowfixture.h"
#include "windowparts.h"

#include "qrmatrix.h"

#include <QAction>
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
#include <QTemporaryDir>
#include <QTest>

#include <array>

using namespace RawHttp;

namespace {

const QString kLesson = QStringLiteral("1-why-a-lock-needs-fencing");

QByteArray voteOn(const QString &question, const QString &room, int option, int round,
                  int confidence = 1)
{
    return QStringLiteral(R"({"room":"%1","question":"%2","round":%3,"option":%4,"confidence":%5})")
        .arg(room, question)
        .arg(round)
        .arg(option)
        .arg(confidence)
        .toUtf8();
}

// A vote on the second scene's question, the one toTheQuestion() stops at.
QByteArray vote(const QString &room, int option, int round, int confidence = 1)
{
    return voteOn(QStringLiteral("scene-2"), room, option, round, confidence);
}

// Scene 2's question and options as the phones and the CSV have them: its prompt as plain text,
// each option's claim in words (Core::claimText), quoted as RFC 4180 wants for the quotes in it.
const QString kPrompt = QStringLiteral("A wakes at t=30 and sends the write it was about to send "
                                       "when it froze. The storage checks nothing. What happens "
                                       "to A's write?");
QString optionField(const QString &is)
{
    return QStringLiteral("\"A's write \"\"A\"\" is %1\"").arg(is);
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

    // (settings cleared by init, not by each open: a new run of the program reads them)
    WindowFixture m_window{WindowFixture::Options().sized(1280, 800).failingOnAmbiguousShortcuts()};
    QTemporaryDir m_autosave;

    MainWindow &window() { return *m_window; }
    LessonController *lessons() { return window().lessons(); }
    LessonSession *session() { return lessons()->session(); }
    LessonStage *stage() { return part<LessonStage>(window()); }
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

    // Right through the presentation, as the presenter steps on, to the question of `scene`
    // (0-based).
    void onToTheQuestionOf(int scene)
    {
        for (int i = 0; i < 80 && !(session()->scene() == scene &&
                                    lessons()->stage() == LessonController::Stage::Question);
             ++i)
            press(Qt::Key_Right);
        QCOMPARE(session()->scene(), scene);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
    }
    QPushButton *button(const char *name)
    {
        return stage()->pollBox()->findChild<QPushButton *>(QLatin1String(name));
    }
    // A click on a button of the poll box, shown: as the teacher's mouse does it.
    static void click(QPushButton *b)
    {
        QVERIFY(b && b->isVisible() && b->isEnabled());
        QTest::mouseClick(b, Qt::LeftButton);
    }
    // The CSV File > Export Room Votes as CSV writes.
    QString exportedVotes(const QString &name)
    {
        const QString path = m_autosave.filePath(name);
        scripted(window()).setNextPath(path);
        auto *action = window().findChild<QAction *>(QStringLiteral("exportRoomVotes"));
        if (!action || !action->isEnabled())
            return QStringLiteral("(Export Room Votes is not enabled)");
        action->trigger();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return QStringLiteral("(nothing written to %1)").arg(path);
        return QString::fromUtf8(f.readAll());
    }

private slots:
    void initTestCase()
    {
        WindowFixture::useOwnSettings("tst_lessonpoll");
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
        // the phones are this test, on loopback
        qputenv("FENCESCOPE_POLL_ADDRESS", "127.0.0.1");
    }

    void init()
    {
        QSettings().clear();
        QVERIFY(m_window.open());
    }

    void cleanup()
    {
        m_window.close();
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

    void theQrCodeIsTheAddressShown()
    {
        // the QR code encodes the address shown beside it with the room code shown beside it
        // (scanned: no typing), and is drawn module for module, in whole pixels, with its quiet
        // zone (ISO 18004: 4 modules)
        toTheQuestion();
        press(Qt::Key_P);
        QVERIFY(poll()->isOn());
        PollBox *box = stage()->pollBox();
        const QStringList shown = box->addressText().split(QLatin1Char('\n'));
        QCOMPARE(shown.size(), 2);
        const quint16 port = poll()->server()->port();
        QCOMPARE(shown[0], QStringLiteral("http://127.0.0.1:%1/").arg(port));
        QVERIFY(shown[1].startsWith(QStringLiteral("room ")));
        const QString code = shown[1].mid(5);
        QVERIFY2(QRegularExpression(QStringLiteral("^[A-HJ-NP-Z]{4}$")).match(code).hasMatch(),
                 qPrintable(code));
        const QString join = shown[0] + QStringLiteral("?r=") + code;
        QCOMPARE(poll()->server()->joinUrl(), join);
        auto *qr = box->findChild<QrCodeWidget *>();
        QVERIFY(qr->isVisible());
        const Poll::QrMatrix expected = Poll::qrEncode(join);
        QVERIFY(expected.size >= 21);
        QCOMPARE(qr->matrix().size, expected.size);
        QVERIFY(qr->matrix().dark == expected.dark);
        // what is painted: the dark pixels' bounds are the code's (its three finder patterns
        // sit in the corners), a whole number of pixels per module, each module's centre dark
        // exactly where the matrix says, and 4 light modules around it at least
        const QImage shot = qr->grab().toImage();
        QCOMPARE(shot.width(), shot.height());
        QRect dark;
        for (int y = 0; y < shot.height(); ++y)
            for (int x = 0; x < shot.width(); ++x)
                if (shot.pixel(x, y) == qRgb(0, 0, 0))
                    dark |= QRect(x, y, 1, 1);
        QCOMPARE(dark.width(), dark.height());
        QCOMPARE(dark.width() % expected.size, 0);
        const int unit = dark.width() / expected.size;
        QVERIFY2(unit >= 2, QByteArray::number(unit)); // a phone across the room reads it
        QVERIFY(dark.left() >= 4 * unit && dark.top() >= 4 * unit);
        QVERIFY(shot.width() - 1 - dark.right() >= 4 * unit);
        QVERIFY(shot.height() - 1 - dark.bottom() >= 4 * unit);
        for (int y = 0; y < expected.size; ++y)
            for (int x = 0; x < expected.size; ++x) {
                const QPoint centre(dark.left() + x * unit + unit / 2,
                                    dark.top() + y * unit + unit / 2);
                const QRgb want = expected.at(x, y) ? qRgb(0, 0, 0) : qRgb(255, 255, 255);
                QVERIFY2(shot.pixel(centre) == want,
                         qPrintable(QStringLiteral("module %1,%2").arg(x).arg(y)));
            }
        // the address scanned is the page, with the code: the page loads, with a cookie
        const Reply page = send(port, get("/?r=" + code.toLatin1()));
        QCOMPARE(page.status, 200);
        QVERIFY(!cookieOf(page).isEmpty());
    }

    void theButtonsOnTheStage()
    {
        // the teacher's mouse instead of the keys: Poll the room, Show votes, Vote again, Stop
        toTheQuestion();
        PollBox *box = stage()->pollBox();
        QPushButton *start = button("pollStart");
        QPushButton *showVotes = button("pollShowVotes");
        QPushButton *again = button("pollAgain");
        QPushButton *stop = button("pollStop");
        QVERIFY(!showVotes->isVisible() && !again->isVisible() && !stop->isVisible());
        // the bars and the button that shows them, each found by a name of its own
        QCOMPARE(box->findChildren<QWidget *>(QStringLiteral("pollHistogram")),
                 QList<QWidget *>{box->histogram()});
        QCOMPARE(box->findChildren<QWidget *>(QStringLiteral("pollShowVotes")),
                 QList<QWidget *>{showVotes});

        click(start);
        QVERIFY(poll()->isOn());
        QVERIFY(!start->isVisible());
        QVERIFY(stop->isVisible());
        const quint16 port = poll()->server()->port();
        const QString code = poll()->room()->code();
        // three phones: B, B, A
        QList<QByteArray> phones;
        for (int i = 0; i < 3; ++i)
            phones << cookieOf(send(port, get("/?r=" + code.toLatin1())));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(send(port, post("/vote", vote(code, i == 2 ? 0 : 1, 0), phones[i])).status,
                     200);
        QTRY_COMPARE(box->votesText(), QStringLiteral("3 votes"));

        // Show votes: the counts and the bars; its label says the click hides them again
        QCOMPARE(showVotes->text(), QStringLiteral("Show votes (H)"));
        QVERIFY(!box->histogram()->isVisible());
        QCOMPARE(stage()->phoneCount(0, 1), QString());
        click(showVotes);
        QVERIFY(box->histogram()->isVisible());
        QCOMPARE(showVotes->text(), QStringLiteral("Hide votes (H)"));
        QCOMPARE(stage()->phoneCount(0, 0), QStringLiteral("1"));
        QCOMPARE(stage()->phoneCount(0, 1), QStringLiteral("2"));
        QCOMPARE(stage()->phoneCount(0, 2), QStringLiteral("0"));
        click(showVotes);
        QVERIFY(!box->histogram()->isVisible());
        QCOMPARE(stage()->phoneCount(0, 1), QString());
        QCOMPARE(showVotes->text(), QStringLiteral("Show votes (H)"));
        click(showVotes);
        QVERIFY(box->histogram()->isVisible());

        // Vote again: the second round, empty, its counts hidden again; no third round
        click(again);
        QCOMPARE(poll()->room()->round(), 1);
        QCOMPARE(poll()->room()->state(), Poll::Room::State::Open);
        QCOMPARE(box->votesText(), QStringLiteral("0 votes after talk"));
        QVERIFY(!box->histogram()->isVisible());
        QCOMPARE(showVotes->text(), QStringLiteral("Show votes (H)"));
        QVERIFY(!again->isVisible());
        QCOMPARE(send(port, post("/vote", vote(code, 1, 1), phones[2])).status, 200);
        QTRY_COMPARE(box->votesText(), QStringLiteral("1 vote after talk"));

        // Stop poll: the port closes, the box offers to poll again, the votes are the session's
        click(stop);
        QVERIFY(!poll()->isOn());
        QCOMPARE(send(port, get("/"), 1000).status, 0);
        QVERIFY(start->isVisible());
        QVERIFY(!stop->isVisible() && !showVotes->isVisible());
        QCOMPARE(box->addressText(), QString());
        QVERIFY(window().isPresenting()); // the lesson goes on, with the hands
        Poll::Room kept;
        kept.restore(session()->pollCounts());
        QCOMPARE(kept.counts(QStringLiteral("scene-2"), 0).option(1), 2);
        QCOMPARE(kept.counts(QStringLiteral("scene-2"), 0).total(), 3);
        QCOMPARE(kept.counts(QStringLiteral("scene-2"), 1).option(1), 1);

        // Poll the room again: a new room code; the question's last round with its vote
        click(start);
        QVERIFY(poll()->isOn());
        QCOMPARE(poll()->room()->round(), 1);
        QCOMPARE(box->votesText(), QStringLiteral("1 vote after talk"));
        QCOMPARE(poll()->room()->counts(0).total(), 3);
    }

    void theNextQuestionWithThePollOn()
    {
        // the poll goes on through the lesson: the next question is a new round on the same
        // server, port and room code (the phones scanned once), its counts hidden again
        toTheQuestion();
        press(Qt::Key_P);
        Poll::PollServer *server = poll()->server();
        const quint16 port = server->port();
        const QString code = poll()->room()->code();
        const QString address = stage()->pollBox()->addressText();
        QList<QByteArray> phones;
        for (int i = 0; i < 3; ++i)
            phones << cookieOf(send(port, get("/?r=" + code.toLatin1())));
        // scene 2: A, B, B; the counts shown (H)
        for (int i = 0; i < 3; ++i)
            QCOMPARE(send(port, post("/vote", vote(code, i == 0 ? 0 : 1, 0), phones[i])).status,
                     200);
        press(Qt::Key_H);
        QTRY_COMPARE(stage()->phoneCount(0, 1), QStringLiteral("2"));
        // the reveal, and back to the same question: the counts as the teacher left them
        press(Qt::Key_Right);
        QTRY_COMPARE(lessons()->stage(), LessonController::Stage::Answer);
        press(Qt::Key_Left);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
        QVERIFY(stage()->pollBox()->histogram()->isVisible());
        QCOMPARE(stage()->phoneCount(0, 1), QStringLiteral("2"));

        // the reveal, then on to scene 3's question ("Take the whole run, to the end")
        onToTheQuestionOf(2);
        QVERIFY(poll()->isOn());
        QCOMPARE(poll()->server(), server);
        QCOMPARE(server->port(), port);
        QCOMPARE(poll()->room()->code(), code);
        PollBox *box = stage()->pollBox();
        QCOMPARE(box->addressText(), address);
        QCOMPARE(poll()->room()->question().id, QStringLiteral("scene-3"));
        QCOMPARE(poll()->room()->round(), 0);
        QCOMPARE(poll()->room()->rounds(), 1);
        QCOMPARE(poll()->room()->state(), Poll::Room::State::Open);
        QCOMPARE(box->votesText(), QStringLiteral("0 votes"));
        // the first vote on it is each student's own: the counts hidden until H again
        QVERIFY(!box->histogram()->isVisible());
        QCOMPARE(stage()->phoneCount(0, 0), QString());
        QCOMPARE(button("pollShowVotes")->text(), QStringLiteral("Show votes (H)"));
        // a phone, with the cookie it had, sees the new question
        const Reply st = send(port, get("/state?room=" + code.toLatin1(), phones[0]));
        QCOMPARE(st.status, 200);
        const QJsonObject o = QJsonDocument::fromJson(st.body).object();
        QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QCOMPARE(o.value(QStringLiteral("question")).toString(), QStringLiteral("scene-3"));
        QCOMPARE(o.value(QStringLiteral("round")).toInt(), 0);
        QCOMPARE(o.value(QStringLiteral("prompt")).toString(),
                 QStringLiteral("Take the whole run, to the end. Which of these is true?"));
        QCOMPARE(o.value(QStringLiteral("options")).toArray().size(), 4);
        // it votes there (C, then D); a page still on scene 2 is refused and changes nothing
        const QString q3 = QStringLiteral("scene-3");
        QCOMPARE(send(port, post("/vote", voteOn(q3, code, 2, 0), phones[0])).status, 200);
        QCOMPARE(send(port, post("/vote", voteOn(q3, code, 3, 0), phones[1])).status, 200);
        QCOMPARE(send(port, post("/vote", vote(code, 0, 0), phones[2])).status, 409);
        QTRY_COMPARE(box->votesText(), QStringLiteral("2 votes"));
        press(Qt::Key_H);
        QCOMPARE(stage()->phoneCount(0, 0), QStringLiteral("0"));
        QCOMPARE(stage()->phoneCount(0, 2), QStringLiteral("1"));
        QCOMPARE(stage()->phoneCount(0, 3), QStringLiteral("1"));
        // scene 2's votes are kept as they were: A 1, B 2
        QCOMPARE(poll()->room()->counts(QStringLiteral("scene-2"), 0).option(0), 1);
        QCOMPARE(poll()->room()->counts(QStringLiteral("scene-2"), 0).option(1), 2);
        QCOMPARE(poll()->room()->counts(QStringLiteral("scene-2"), 0).total(), 3);
        QCOMPARE(poll()->room()->askedIds(),
                 (QStringList{QStringLiteral("scene-2"), QStringLiteral("scene-3")}));
    }

    void theCountsOutliveTheLesson()
    {
        // votes in, the lesson closed at once (the last vote not yet shown), opened again: the
        // CSV has every vote; and so after the program starts again
        toTheQuestion();
        press(Qt::Key_P);
        const quint16 port = poll()->server()->port();
        const QString code = poll()->room()->code();
        QList<QByteArray> phones;
        for (int i = 0; i < 5; ++i)
            phones << cookieOf(send(port, get("/?r=" + code.toLatin1())));
        // round 1 (confidence 0 guess, 1 fairly sure, 2 sure): B sure, A guess changed to
        // B guess, A fairly sure, C sure, B fairly sure
        const int guess = 0, fairly = 1, sure = 2;
        QCOMPARE(send(port, post("/vote", vote(code, 1, 0, sure), phones[0])).status, 200);
        QCOMPARE(send(port, post("/vote", vote(code, 0, 0, guess), phones[1])).status, 200);
        QCOMPARE(send(port, post("/vote", vote(code, 1, 0, guess), phones[1])).status, 200);
        QCOMPARE(send(port, post("/vote", vote(code, 0, 0, fairly), phones[2])).status, 200);
        QCOMPARE(send(port, post("/vote", vote(code, 2, 0, sure), phones[3])).status, 200);
        QCOMPARE(send(port, post("/vote", vote(code, 1, 0, fairly), phones[4])).status, 200);
        QTRY_COMPARE(stage()->pollBox()->votesText(), QStringLiteral("5 votes"));
        // round 2: phones 1-4 B sure, phone 5 A guess; File > Close Lesson right after
        press(Qt::Key_V);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(send(port, post("/vote", vote(code, 1, 1, sure), phones[i])).status, 200);
        QCOMPARE(send(port, post("/vote", vote(code, 0, 1, guess), phones[4])).status, 200);
        window().findChild<QAction *>(QStringLiteral("closeLesson"))->trigger();
        QVERIFY(!session());
        QVERIFY(!poll()->isOn());
        QCOMPARE(send(port, get("/"), 1000).status, 0);
        press(Qt::Key_Escape);
        QVERIFY(!window().isPresenting());

        // worked by hand: round 1 A 0/1/0, B 1/1/1, C 0/0/1, D none; round 2 A 1/0/0, B 0/0/4
        const QString head =
            QStringLiteral("question,prompt,round,option,text,guess,fairly sure,sure,total\r\n");
        const auto line = [](int round, QChar option, const QString &is, int g, int f, int s) {
            return QStringLiteral("scene-2,%1,%2,%3,%4,%5,%6,%7,%8\r\n")
                .arg(kPrompt)
                .arg(round)
                .arg(option)
                .arg(optionField(is))
                .arg(g)
                .arg(f)
                .arg(s)
                .arg(g + f + s);
        };
        const QString rejected = QStringLiteral("rejected"),
                      corrupted = QStringLiteral("corrupted"),
                      accepted = QStringLiteral("accepted"), skipped = QStringLiteral("skipped");
        const QString expected =
            head + line(1, u'A', rejected, 0, 1, 0) + line(1, u'B', corrupted, 1, 1, 1) +
            line(1, u'C', accepted, 0, 0, 1) + line(1, u'D', skipped, 0, 0, 0) +
            line(2, u'A', rejected, 1, 0, 0) + line(2, u'B', corrupted, 0, 0, 4) +
            line(2, u'C', accepted, 0, 0, 0) + line(2, u'D', skipped, 0, 0, 0);

        // (compared line by line: CRLF, RFC 4180's line end, splits them)
        const QString crlf = QStringLiteral("\r\n");
        QVERIFY(window().openBuiltinLesson(kLesson));
        QCOMPARE(session()->scene(), 1);
        QCOMPARE(exportedVotes(QStringLiteral("reopened.csv")).split(crlf), expected.split(crlf));

        // a new run of the program: the same counts, and a poll started again shows them
        m_window.close();
        QVERIFY(m_window.open());
        QVERIFY(window().openBuiltinLesson(kLesson));
        QCOMPARE(exportedVotes(QStringLiteral("restarted.csv")).split(crlf), expected.split(crlf));
        press(Qt::Key_F11);
        for (int i = 0; i < 6; ++i)
            press(Qt::Key_Right);
        QCOMPARE(lessons()->stage(), LessonController::Stage::Question);
        press(Qt::Key_P);
        QVERIFY(poll()->isOn());
        QCOMPARE(stage()->pollBox()->votesText(), QStringLiteral("5 votes after talk"));
        press(Qt::Key_H);
        QCOMPARE(stage()->phoneCount(1, 0), QStringLiteral("1"));
        QCOMPARE(stage()->phoneCount(1, 1), QStringLiteral("4"));
    }

    void aDamagedPollEntryLosesNothingElse()
    {
        // the progress remembered for the lesson (QSettings), with its poll entry damaged:
        // what is not a question of the poll's shape is dropped without a word (as a damaged
        // answer is: progress is the app's own memory, not the user's file), what is kept
        // opens, and the scene, the answer picked and the hands typed are all there
        QVERIFY(window().openBuiltinLesson(kLesson));
        const int scenes = session()->sceneCount();
        window().findChild<QAction *>(QStringLiteral("closeLesson"))->trigger();
        QSettings settings;
        settings.beginGroup(QLatin1String(LessonController::kProgressGroup));
        const QStringList keys = settings.childKeys();
        QCOMPARE(keys.size(), 1);
        const QString key = keys.first();
        settings.endGroup();

        QVariantList answers;
        for (int i = 0; i < scenes; ++i)
            answers << QVariantMap();
        answers[1] =
            QVariantMap{{QStringLiteral("picked"), 1},
                        {QStringLiteral("revealed"), true},
                        {QStringLiteral("hands"),
                         QVariantList{QVariantList{12, 3, -1, -1}, QVariantList{-1, 20, -1, -1}}}};
        const auto roundOf = [](const QVariantList &perOption) { return QVariant(perOption); };
        // a question of the poll's shape, with a count that is no number (0), a negative one
        // (0) and a third option's counts for its two options (dropped); one with no id; one
        // with six options (A-E at most); one that is no question at all
        const QVariantMap good{
            {QStringLiteral("id"), QStringLiteral("scene-2")},
            {QStringLiteral("prompt"), QStringLiteral("P")},
            {QStringLiteral("options"), QStringList{QStringLiteral("a"), QStringLiteral("b")}},
            {QStringLiteral("rounds"),
             QVariantList{roundOf({QVariantList{1, QStringLiteral("x"), -4}, QVariantList{0, 0, 2},
                                   QVariantList{9, 9, 9}})}}};
        const QVariantMap noId{
            {QStringLiteral("options"), QStringList{QStringLiteral("a")}},
            {QStringLiteral("rounds"), QVariantList{roundOf({QVariantList{5, 5, 5}})}}};
        const QVariantMap tooMany{
            {QStringLiteral("id"), QStringLiteral("scene-3")},
            {QStringLiteral("options"),
             QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"),
                         QStringLiteral("d"), QStringLiteral("e"), QStringLiteral("f")}},
            {QStringLiteral("rounds"), QVariantList{roundOf({QVariantList{7, 7, 7}})}}};
        const QString head =
            QStringLiteral("question,prompt,round,option,text,guess,fairly sure,sure,total\r\n");
        const QList<std::pair<QVariant, QString>> damaged{
            {QStringLiteral("not counts at all"), head},
            {QVariantMap{{QStringLiteral("questions"), QStringLiteral("not a list")}}, head},
            {QVariantMap{{QStringLiteral("questions"),
                          QVariantList{good, noId, tooMany, QStringLiteral("no question")}}},
             head + QStringLiteral("scene-2,P,1,A,a,1,0,0,1\r\nscene-2,P,1,B,b,0,0,2,2\r\n")},
        };
        int n = 0;
        for (const auto &[entry, csv] : damaged) {
            const QVariantMap progress{{QStringLiteral("scene"), 1},
                                       {QStringLiteral("scenes"), scenes},
                                       {QStringLiteral("answers"), answers},
                                       {QStringLiteral("poll"), entry}};
            settings.setValue(
                QLatin1String(LessonController::kProgressGroup) + QLatin1Char('/') + key, progress);
            settings.sync();
            QVERIFY(window().openBuiltinLesson(kLesson));
            QCOMPARE(session()->scene(), 1);
            QCOMPARE(session()->answer(1).picked, 1);
            QVERIFY(session()->answer(1).revealed);
            QCOMPARE(session()->answer(1).hands[0][0], 12);
            QCOMPARE(session()->answer(1).hands[0][1], 3);
            QCOMPARE(session()->answer(1).hands[1][1], 20);
            QCOMPARE(session()->answer(1).hands[0][2], -1);
            QCOMPARE(exportedVotes(QStringLiteral("damaged-%1.csv").arg(n++)), csv);
            window().findChild<QAction *>(QStringLiteral("closeLesson"))->trigger();
            QVERIFY(!session());
        }
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
        m_window.close();
        QSettings().clear();
        QSettings().setValue(QLatin1String(RoomPoll::kInterfaceKey), machine.first().first);
        QVERIFY(m_window.open());
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
        m_window.close();
        init();
        toTheQuestion();
        PollBox *box = stage()->pollBox();
        auto *list = box->findChild<QComboBox *>(QStringLiteral("pollInterface"));
        const auto machine = machineAddresses();
        // in a network namespace of its own (tests/CMakeLists.txt, tst_lessonpoll_nonetwork)
        // the case of no network must be the one that runs
        if (qEnvironmentVariableIntValue("FENCESCOPE_EXPECT_NO_NETWORK") == 1)
            QVERIFY2(machine.isEmpty(), "an interface is up in the test's network namespace");
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
        m_window.close();
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
