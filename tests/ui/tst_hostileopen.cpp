// Every file of the corrupted-input corpus through the app's own open path: a broken file is
// reported with its place and the scenario the user is working on stays exactly as it was,
// undo history included. Odd-but-valid files open.

#include "document/document.h"
#include "document/editcommands.h"
#include "hostilefiles.h"
#include "scripteddialogs.h"
#include "window/filecontroller.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QFileInfo>
#include <QTest>
#include <QUndoStack>

class TestHostileOpen : public QObject
{
    Q_OBJECT
private slots:
    void openKeepsWorkOrLoads_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &f : HostileFiles::all())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void openKeepsWorkOrLoads()
    {
        QFETCH(QString, file);
        MainWindow window;
        scriptDialogs(window);
        Document *doc = window.document();
        // the user's unsaved work: fencing switched off and the horizon changed (the switch alone
        // is not worth saving in a built-in scenario)
        doc->undoStack()->push(EditCommands::setFencing(doc, false));
        doc->undoStack()->push(EditCommands::setHorizon(doc, Core::Tick(50)));
        const Core::Scenario before = doc->scenario();
        const int undoSteps = doc->undoStack()->count();

        const bool opened = part<FileController>(window)->openFile(file);
        if (HostileFiles::valid().contains(QFileInfo(file).fileName())) {
            QVERIFY2(opened, qPrintable(scripted(window).lastError()));
            QCOMPARE(doc->filePath(), file);
            return;
        }
        QVERIFY(!opened);
        QVERIFY(!scripted(window).lastError().isEmpty());
        QCOMPARE(doc->scenario(), before);
        QCOMPARE(doc->undoStack()->count(), undoSteps);
        QVERIFY(doc->isModified());
        QCOMPARE(doc->trace().summary.corrupted, 1u); // the trace still matches the scenario
    }
};

QTEST_MAIN(TestHostileOpen)
#include "tst_hostileopen.moc"
