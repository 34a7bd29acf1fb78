// The event log model: structurally sound (QAbstractItemModelTester) on the default scenario
// and through document edits and resets, with the right text in its cells, and lazy.

#include "document/document.h"
#include "document/editcommands.h"
#include "views/eventlogmodel.h"

#include "scenariofile.h"

#include <QAbstractItemModelTester>
#include <QTest>
#include <QUndoStack>

using Core::EventKind;

class TestEventLogModel : public QObject
{
    Q_OBJECT

    static int findRow(const EventLogModel &m, const QString &kind, const QString &client)
    {
        for (int r = 0; r < m.rowCount(); ++r)
            if (m.index(r, EventLogModel::EventColumn).data().toString() == kind &&
                m.index(r, EventLogModel::ClientColumn).data().toString() == client)
                return r;
        return -1;
    }

private slots:
    void testerOnDefaultAndThroughEdits()
    {
        Document doc;
        EventLogModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), int(doc.trace().events.size()));
        QCOMPARE(model.columnCount(), int(EventLogModel::ColumnCount));

        doc.undoStack()->push(EditCommands::setFencing(&doc, false));
        QCOMPARE(model.rowCount(), int(doc.trace().events.size()));
        doc.undoStack()->push(EditCommands::removeClient(&doc, 1));
        QCOMPARE(model.rowCount(), int(doc.trace().events.size()));
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(model.rowCount(), int(doc.trace().events.size()));
        doc.reset(Core::ScenarioFile::load(QStringLiteral(":/scenarios/three-owners.json")).scenario.value());
        QCOMPARE(model.rowCount(), int(doc.trace().events.size()));
        Core::Scenario empty = doc.scenario();
        for (Core::Client &c : empty.clients)
            c.actions.clear();
        doc.reset(empty);
        QCOMPARE(model.rowCount(), 0);
    }

    void resetSignalOnEveryEdit()
    {
        Document doc;
        EventLogModel model(&doc);
        int resets = 0;
        connect(&model, &QAbstractItemModel::modelReset, this, [&] { ++resets; });
        doc.undoStack()->push(EditCommands::setFencing(&doc, false));
        QCOMPARE(resets, 1);
        doc.undoStack()->undo();
        QCOMPARE(resets, 2);
    }

    void rowContentOfTheDefaultScenario()
    {
        Document doc;
        EventLogModel model(&doc);
        // first row: A's grant of token 1 at t=0
        QCOMPARE(model.index(0, EventLogModel::TickColumn).data().toString(), QStringLiteral("0"));
        QCOMPARE(model.index(0, EventLogModel::ClientColumn).data().toString(), QStringLiteral("A"));
        QCOMPARE(model.index(0, EventLogModel::EventColumn).data().toString(), QStringLiteral("grant"));
        QCOMPARE(model.index(0, EventLogModel::TokenColumn).data().toString(), QStringLiteral("1"));

        const int refused = findRow(model, QStringLiteral("refused"), QStringLiteral("B"));
        QVERIFY(refused >= 0);
        QCOMPARE(model.index(refused, EventLogModel::TickColumn).data().toString(), QStringLiteral("5"));
        QCOMPARE(model.index(refused, EventLogModel::ExplanationColumn).data().toString(),
                 QStringLiteral("A holds the lock"));

        const int rejected = findRow(model, QStringLiteral("write arrives"), QStringLiteral("A"));
        QVERIFY(rejected >= 0);
        const QModelIndex result = model.index(rejected, EventLogModel::ResultColumn);
        QCOMPARE(result.data().toString(), QStringLiteral("rejected"));
        QCOMPARE(result.data(EventLogModel::ResultRole).toInt(), int(Core::WriteResult::Rejected));
        QVERIFY(!result.data(Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(model.index(rejected, EventLogModel::TickColumn).data().toString(), QStringLiteral("30"));
        QCOMPARE(model.index(rejected, EventLogModel::TokenColumn).data().toString(), QStringLiteral("1"));
        QCOMPARE(model.index(rejected, EventLogModel::StorageColumn).data().toString(), QStringLiteral("db"));
        QCOMPARE(model.index(rejected, EventLogModel::ExplanationColumn).data().toString(),
                 QStringLiteral("token 1 < max 2: rejected, lock lost"));
        QVERIFY(result.data(Qt::ToolTipRole).toString().contains(
            QStringLiteral("had already accepted token 2 from B at t=13")));
        // A's write is action 2 of client 0
        QCOMPARE(result.data(EventLogModel::ClientRole).toInt(), 0);
        QCOMPARE(result.data(EventLogModel::ActionRole).toInt(), 2);

        doc.undoStack()->push(EditCommands::setFencing(&doc, false));
        QCOMPARE(model.index(rejected, EventLogModel::ResultColumn).data().toString(),
                 QStringLiteral("CORRUPTED"));
    }

    void tokensInTheSourcesOwnForm()
    {
        // etcd-restore: A's grant at t=0 is the first change of the store (revision 1 before
        // it): rev 2, and its write at t=1 carries it
        Document doc;
        doc.reset(Core::ScenarioFile::load(QStringLiteral(":/scenarios/etcd-restore.json"))
                      .scenario.value());
        EventLogModel model(&doc);
        const int grant = findRow(model, QStringLiteral("grant"), QStringLiteral("A"));
        QCOMPARE(grant, 0);
        const QModelIndex token = model.index(grant, EventLogModel::TokenColumn);
        QCOMPARE(token.data().toString(), QStringLiteral("rev 2"));
        QCOMPARE(token.data(Qt::ToolTipRole).toString(),
                 QStringLiteral("revision 2 (the create revision of the lock key)"));
        // the other cells keep the explanation as their tooltip
        QCOMPARE(model.index(grant, EventLogModel::EventColumn).data(Qt::ToolTipRole),
                 token.data(EventLogModel::FullExplanationRole));
        const int sent = findRow(model, QStringLiteral("write sent"), QStringLiteral("A"));
        QVERIFY(sent > 0);
        QCOMPARE(model.index(sent, EventLogModel::TokenColumn).data().toString(),
                 QStringLiteral("rev 2"));

        // Chubby's sequencer; a refusal carries no token
        doc.reset(Core::ScenarioFile::load(QStringLiteral(":/scenarios/chubby-lock-delay.json"))
                      .scenario.value());
        QCOMPARE(model.index(0, EventLogModel::TokenColumn).data().toString(),
                 QStringLiteral("lock:exclusive:1"));
        // Redlock: no token at all, on the grant and on the (untagged) write
        doc.reset(Core::ScenarioFile::load(QStringLiteral(":/scenarios/redlock-no-token.json"))
                      .scenario.value());
        QCOMPARE(model.index(0, EventLogModel::EventColumn).data().toString(),
                 QStringLiteral("grant"));
        QCOMPARE(model.index(0, EventLogModel::TokenColumn).data().toString(),
                 QStringLiteral("no token"));
        const int untagged = findRow(model, QStringLiteral("write sent"), QStringLiteral("A"));
        QVERIFY(untagged > 0);
        QCOMPARE(model.index(untagged, EventLogModel::TokenColumn).data().toString(),
                 QStringLiteral("none"));
    }

    void largeTraceIsLazy()
    {
        // 200k writes: the model answers at once, whatever the size, and only for asked rows
        Core::Scenario s = Core::ScenarioFile::defaultScenario();
        Core::Client &b = s.clients[1];
        for (int i = 0; i < 200000; ++i)
            b.actions.push_back(Core::Action::write(Core::Tick(14 + i), QStringLiteral("v")));
        Document doc;
        doc.reset(s);
        EventLogModel model(&doc);
        QVERIFY(model.rowCount() > 400000);
        const int last = model.rowCount() - 1;
        QVERIFY(!model.index(last, EventLogModel::EventColumn).data().toString().isEmpty());
    }
};

QTEST_MAIN(TestEventLogModel)
#include "tst_eventlogmodel.moc"
