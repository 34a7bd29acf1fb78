// The room's page in a real browser: headless Chromium (Debian's `chromium`) opens the poll's
// address on 127.0.0.1 while the real MainWindow presents a lesson's question, votes, sees the
// waiting screen and then the reveal with its option's feedback, and the projector's counts
// match. After the page's live socket opens, the waiting screen and the reveal come pushed: the
// page asks GET /state no more. Chromium is driven through its DevTools protocol over a
// QWebSocket (Runtime.evaluate clicks and reads text). The test starts Chromium itself with a
// temporary profile and stops it; with no Chromium it fails (scripts/deps.sh installs it).

#include "document/lessonsession.h"
#include "scripteddialogs.h"
#include "views/lessonstage.h"
#include "views/pollbox.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"
#include "window/roompoll.h"
#include "windowparts.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWebSocket>

#include <memory>

#include <unistd.h>

namespace {

const QString kLesson = QStringLiteral("1-why-a-lock-needs-fencing");

// A page's DevTools session: one call at a time, answered by id.
class DevTools
{
public:
    bool open(const QUrl &url)
    {
        QObject::connect(&m_ws, &QWebSocket::textMessageReceived, &m_ws, [this](const QString &m) {
            const QJsonObject o = QJsonDocument::fromJson(m.toUtf8()).object();
            if (o.contains(QStringLiteral("id")))
                m_replies.insert(o.value(QStringLiteral("id")).toInt(), o);
        });
        m_ws.open(url);
        return QTest::qWaitFor([&] { return m_ws.state() == QAbstractSocket::ConnectedState; },
                               10000);
    }
    QJsonObject call(const QString &method, const QJsonObject &params = {})
    {
        const int id = ++m_id;
        m_ws.sendTextMessage(
            QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("id"), id},
                                                        {QStringLiteral("method"), method},
                                                        {QStringLiteral("params"), params}})
                                  .toJson(QJsonDocument::Compact)));
        if (!QTest::qWaitFor([&] { return m_replies.contains(id); }, 10000))
            return {};
        return m_replies.take(id);
    }
    // The value of a JavaScript expression in the page.
    QJsonValue eval(const QString &expression)
    {
        const QJsonObject r =
            call(QStringLiteral("Runtime.evaluate"), {{QStringLiteral("expression"), expression},
                                                      {QStringLiteral("returnByValue"), true}});
        return r.value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("value"));
    }
    bool waitFor(const QString &expression, int ms = 10000)
    {
        return QTest::qWaitFor([&] { return eval(expression).toBool(); }, ms);
    }
    void close() { m_ws.close(); }

private:
    QWebSocket m_ws;
    int m_id = 0;
    QHash<int, QJsonObject> m_replies;
};

} // namespace

class TestPollBrowser : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_autosave;
    QTemporaryDir m_profile;
    QProcess m_chromium;
    quint16 m_devtoolsPort = 0;

    MainWindow &window() { return *m_window; }
    LessonStage *stage() { return part<LessonStage>(window()); }
    RoomPoll *poll() { return window().findChild<RoomPoll *>(QStringLiteral("roomPoll")); }
    void press(Qt::Key key, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QTest::keyClick(window().windowHandle(), key, mods);
    }
    // The page target Chromium opened, as a DevTools URL.
    QUrl pageTarget()
    {
        QNetworkAccessManager net;
        QUrl found;
        const bool listed = QTest::qWaitFor(
            [&] {
                QNetworkReply *r = net.get(QNetworkRequest(
                    QUrl(QStringLiteral("http://127.0.0.1:%1/json/list").arg(m_devtoolsPort))));
                if (!QTest::qWaitFor([&] { return r->isFinished(); }, 5000))
                    return false;
                for (const QJsonValue &t : QJsonDocument::fromJson(r->readAll()).array())
                    if (t.toObject().value(QStringLiteral("type")).toString() ==
                        QLatin1String("page"))
                        found = QUrl(
                            t.toObject().value(QStringLiteral("webSocketDebuggerUrl")).toString());
                r->deleteLater();
                return found.isValid();
            },
            10000);
        return listed ? found : QUrl();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_pollbrowser"));
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
        qputenv("FENCESCOPE_POLL_ADDRESS", "127.0.0.1");
        const QString chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
        if (chromium.isEmpty())
            QFAIL("Chromium is not installed: this test opens the room's page in it. "
                  "scripts/deps.sh installs it (Debian's package `chromium`).");
        QStringList args{QStringLiteral("--headless=new"),
                         QStringLiteral("--remote-debugging-port=0"),
                         QStringLiteral("--remote-debugging-address=127.0.0.1"),
                         QStringLiteral("--user-data-dir=") + m_profile.path(),
                         QStringLiteral("--no-first-run"),
                         QStringLiteral("--no-default-browser-check"),
                         QStringLiteral("--disable-gpu"),
                         QStringLiteral("--disable-extensions"),
                         QStringLiteral("--disable-background-networking"),
                         QStringLiteral("--window-size=390,844"),
                         QStringLiteral("about:blank")};
        if (geteuid() == 0)
            args.prepend(QStringLiteral("--no-sandbox")); // Chromium refuses root otherwise
        // its own messages (no D-Bus here, no GPU) would bury the test's
        m_chromium.setStandardOutputFile(QProcess::nullDevice());
        m_chromium.setStandardErrorFile(QProcess::nullDevice());
        // everything it writes goes into the profile, removed at the end
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_profile.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_profile.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_profile.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("TMPDIR"), m_profile.path()); // its singleton socket's folder
        m_chromium.setProcessEnvironment(env);
        m_chromium.start(chromium, args);
        QVERIFY2(m_chromium.waitForStarted(10000), qPrintable(m_chromium.errorString()));
        // Chromium writes the port it took, then the browser's path, into the profile
        const QString portFile = m_profile.filePath(QStringLiteral("DevToolsActivePort"));
        QVERIFY2(QTest::qWaitFor([&] { return QFile::exists(portFile); }, 20000),
                 "Chromium wrote no DevToolsActivePort");
        QFile f(portFile);
        QVERIFY(QTest::qWaitFor(
            [&] {
                if (!f.open(QIODevice::ReadOnly))
                    return false;
                m_devtoolsPort = quint16(f.readLine().trimmed().toUInt());
                f.close();
                return m_devtoolsPort != 0;
            },
            5000));
    }

    void cleanupTestCase()
    {
        if (m_chromium.state() != QProcess::NotRunning) {
            m_chromium.terminate();
            if (!m_chromium.waitForFinished(5000)) {
                m_chromium.kill();
                m_chromium.waitForFinished(5000);
            }
        }
        m_window.reset();
        m_profile.remove();
        QVERIFY(!QDir(m_profile.path()).exists());
    }

    void votesAndSeesTheReveal()
    {
        QSettings().clear();
        m_window = std::make_unique<MainWindow>();
        scriptDialogs(window());
        window().resize(1280, 800);
        window().show();
        window().activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QVERIFY(window().openBuiltinLesson(kLesson));
        press(Qt::Key_Right, Qt::AltModifier);
        press(Qt::Key_F11);
        for (int i = 0; i < 6; ++i)
            press(Qt::Key_Right);
        QCOMPARE(window().lessons()->stage(), LessonController::Stage::Question);
        press(Qt::Key_P);
        QVERIFY(poll()->isOn());
        const QString url = poll()->server()->joinUrl();
        QVERIFY(url.startsWith(QStringLiteral("http://127.0.0.1:")));

        DevTools page;
        const QUrl target = pageTarget();
        QVERIFY2(target.isValid(), "Chromium has no page to drive");
        QVERIFY(page.open(target));
        page.call(QStringLiteral("Page.navigate"), {{QStringLiteral("url"), url}});
        // the question and its options, as text
        QVERIFY(page.waitFor(QStringLiteral("!document.getElementById('ask').hidden")));
        QVERIFY(page.eval(QStringLiteral("document.getElementById('prompt').textContent"))
                    .toString()
                    .startsWith(QStringLiteral("A wakes at t=30")));
        QCOMPARE(page.eval(QStringLiteral("document.querySelectorAll('#options button').length"))
                     .toInt(),
                 4);
        QCOMPARE(
            page.eval(QStringLiteral(
                          "document.querySelector('#options button[data-o=\"1\"]').textContent"))
                .toString(),
            QStringLiteral("B. A's write \"A\" is corrupted"));
        QTRY_VERIFY(stage()->pollBox()->reachText().startsWith(QStringLiteral("Phones reach")));
        // the page opened its live socket (ws://127.0.0.1:PORT/live, with its cookie and
        // origin): from now on it polls /state no more (a request already on its way lands)
        QVERIFY(page.waitFor(QStringLiteral("document.body.dataset.live === 'open'")));
        QTRY_COMPARE(poll()->server()->liveSockets(), 1);
        QTest::qWait(100);
        const int polled = poll()->server()->statesServed();
        QVERIFY(polled >= 1); // the first state, before the socket
        // A, sure: the wrong one, to see its feedback at the reveal
        page.eval(
            QStringLiteral("document.querySelector('#options button[data-o=\"0\"]').click();"
                           "document.querySelector('#confidence button[data-c=\"2\"]').click();"
                           "document.getElementById('send').click(); true"));
        QVERIFY(page.waitFor(QStringLiteral("!document.getElementById('waiting').hidden")));
        QVERIFY(page.eval(QStringLiteral("document.getElementById('waiting').textContent"))
                    .toString()
                    .contains(QStringLiteral("Waiting for the reveal")));
        // the projector counts it: one vote, option A, sure
        QTRY_COMPARE(stage()->pollBox()->votesText(), QStringLiteral("1 vote"));
        QCOMPARE(poll()->room()->counts(0).votes[0], (std::array<int, 3>{0, 0, 1}));
        QCOMPARE(poll()->room()->counts(0).total(), 1);
        press(Qt::Key_H);
        QCOMPARE(stage()->phoneCount(0, 0), QStringLiteral("1"));
        QCOMPARE(stage()->phoneCount(0, 1), QStringLiteral("0"));

        // the reveal: the phone shows B and the feedback of A, as text
        press(Qt::Key_Right);
        QTRY_COMPARE(window().lessons()->stage(), LessonController::Stage::Answer);
        QVERIFY(page.waitFor(QStringLiteral("!document.getElementById('revealed').hidden")));
        QCOMPARE(
            page.eval(QStringLiteral("document.getElementById('answer').textContent")).toString(),
            QStringLiteral("Answer: B. A's write \"A\" is corrupted"));
        const QString mine =
            page.eval(QStringLiteral("document.getElementById('mine').textContent")).toString();
        QVERIFY2(mine.startsWith(QStringLiteral("You chose A. A's write \"A\" is rejected.")),
                 qPrintable(mine));
        QVERIFY2(mine.contains(QStringLiteral("This storage checks nothing")), qPrintable(mine));
        QCOMPARE(stage()->phoneCount(0, 0), QStringLiteral("1"));
        QCOMPARE(stage()->mark(1), QStringLiteral("✓"));
        // the vote's waiting screen and the reveal came on the socket: no /state asked since
        QCOMPARE(poll()->server()->statesServed(), polled);
        QCOMPARE(poll()->server()->liveSockets(), 1);

        page.close();
        press(Qt::Key_Escape);
        QVERIFY(!poll()->isOn());
        session()->markSaved();
    }

private:
    LessonSession *session() { return window().lessons()->session(); }
};

QTEST_MAIN(TestPollBrowser)
#include "tst_pollbrowser.moc"
