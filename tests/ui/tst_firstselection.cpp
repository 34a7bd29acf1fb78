// What the window selects when a scenario is opened: core's choice (Core::mostTellingWrite,
// docs/SEMANTICS.md "One ranking of outcomes"), the write of the most telling outcome that
// arrived first: corrupted, then locked out, then rejected, the same order the storage lane uses
// where glyphs share a pixel. Each expected write is read off the file and its report by hand.

#include "document/document.h"
#include "scenariofile.h"
#include "scripteddialogs.h"
#include "viewstate.h"
#include "window/filecontroller.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

class TestFirstSelection : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_firstselection"));
        QSettings().clear();
    }

    void init()
    {
        m_window = std::make_unique<MainWindow>();
        scriptDialogs(*m_window);
        m_window->show();
    }

    void cleanup()
    {
        m_window->document()->markSaved(); // no question on close
        m_window.reset();
    }

    void mostTellingOutcomeFirst_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("client");
        QTest::addColumn<int>("action");
        // default: only A's write (action 2, sent at 30) fails, rejected
        QTest::newRow("default: rejected") << QStringLiteral("default") << 0 << 2;
        // redlock-no-token: B's untagged write at 13 (B's action 2) is locked out, A's at 30
        // rejected: the live holder refused comes first, though A is client 0
        QTest::newRow("redlock-no-token: locked out over rejected")
            << QStringLiteral("redlock-no-token") << 1 << 2;
        // different-is-not-lower: A's token 1 at 20 rejected, C's token 3 at 23 (C's action 1)
        // locked out
        QTest::newRow("different-is-not-lower: locked out over rejected")
            << QStringLiteral("different-is-not-lower") << 2 << 1;
    }

    void mostTellingOutcomeFirst()
    {
        QFETCH(QString, preset);
        QFETCH(int, client);
        QFETCH(int, action);
        QVERIFY(part<FileController>(*m_window)->openPreset(preset));
        QCOMPARE(m_window->viewState()->selection(), (Selection{client, action}));
    }

    // redlock-no-token with fencing off: B's write at 13 is applied (accepted), A's stale one at
    // 30 overwrites it (corrupted): corrupted comes first
    void corruptedFirst()
    {
        QFile preset(QStringLiteral(":/scenarios/redlock-no-token.json"));
        QVERIFY(preset.open(QIODevice::ReadOnly));
        QByteArray json = preset.readAll();
        QVERIFY(json.contains("\"fencing\": true"));
        json.replace("\"fencing\": true", "\"fencing\": false");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("unfenced.json"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(json);
        out.close();
        QVERIFY(part<FileController>(*m_window)->openFile(path));
        QVERIFY(!m_window->document()->scenario().fencing);
        QCOMPARE(m_window->viewState()->selection(), (Selection{0, 2}));
    }

    // Two rejected writes of A's: "A1" sent at 8 with delay 10 arrives at 18, "A2" sent at 9
    // with no delay arrives at 9 (B's token 2 at 7 came before both): A2, action 2, is the one
    // turned away first, though A1 was sent first.
    void firstToArriveNotFirstSent()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("arrival.json"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({
  "fencescope": 1, "title": "Sent first, arrives last", "fencing": true,
  "storages": [ { "name": "db", "rule": "lt" } ],
  "clients": [
    { "name": "A", "actions": [
      { "at": 0, "do": "acquire", "ttl": 5 },
      { "at": 8, "do": "write", "value": "A1", "delay": 10 },
      { "at": 9, "do": "write", "value": "A2" } ] },
    { "name": "B", "actions": [
      { "at": 6, "do": "acquire", "ttl": 20 },
      { "at": 7, "do": "write", "value": "B" } ] } ]
})");
        out.close();
        QVERIFY(part<FileController>(*m_window)->openFile(path));
        QCOMPARE(m_window->viewState()->selection(), (Selection{0, 2}));
    }

    // all accepted: nothing to single out
    void nothingWhenAllAccepted()
    {
        QVERIFY(part<FileController>(*m_window)->openPreset(QStringLiteral("default")));
        m_window->viewState()->clearSelection();
        QVERIFY(part<FileController>(*m_window)->openPreset(QStringLiteral("renewal-keeps-token")));
        for (const Core::Write &w : m_window->document()->trace().writes)
            QVERIFY(w.result == Core::WriteResult::Accepted);
        QVERIFY(!m_window->viewState()->selection().isValid());
    }
};

QTEST_MAIN(TestFirstSelection)
#include "tst_firstselection.moc"
