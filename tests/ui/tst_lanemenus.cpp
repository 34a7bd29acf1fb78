// docs/SCENARIO.md sections 11 and 12 edited from a lane's right-click menu: a storage's check,
// durability and restarts, a client's clock; the "..." dialogs with their fields that refuse
// what the file's loader refuses. Right-clicks and keys go through the windows; every change is
// one undo step, and the trace follows it.
//
// The journalnode-volatile-max-token preset, worked out by hand (docs/SCENARIO.md sections 5, 12):
//   A: acquire 0 ttl 5 (token 1), write A1 at 1, pause [2, 16), write A2 at 3 (sent at 16).
//   B: acquire 6 ttl 20 (token 2), write B1 at 7, write B2 at 18. Storage jn restarts at 12.
//   volatile: A1 accepted (max 1), B1 accepted (max 2), the restart forgets 2, A2 (token 1 >= 0)
//   is applied over B1: corrupted; B2 accepted. durable (or no restart): A2 rejected (1 < 2).
//
// The slow-client-clock preset: A acquires at 0 ttl 10 (token 1), checks and writes at 15;
// B acquires at 11 (token 2), writes at 12. A's clock runs at 0.5: local(15) - local(0) = 7 <
// 10, A writes and is rejected. At rate 1 (15 >= 10) or 2 (30 >= 10) the check skips the write.

#include "document/document.h"
#include "scenariofile.h"
#include "simulator.h"
#include "testprinters.h"
#include "views/lanedialogs.h"
#include "views/timelineview.h"
#include "viewstate.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtTest>

using Core::Tick;

namespace {

Core::Scenario preset(const QString &name)
{
    Core::LoadResult r = Core::ScenarioFile::load(Core::ScenarioFile::builtinPath(name));
    if (!r.ok())
        qFatal("preset %s: %s", qPrintable(name), qPrintable(r.error));
    return *r.scenario;
}

// Arrivals in order: "A A1 corrupted".
QStringList outcomes(const Core::Scenario &s, const Core::Trace &t)
{
    QStringList out;
    for (const Core::Event &e : t.events) {
        if (e.kind != Core::EventKind::WriteArrived)
            continue;
        const Core::Write &w = t.writes[e.ref];
        out << QStringLiteral("%1 %2 %3")
                   .arg(s.clients[w.client].name, Core::writeValue(s, w), Core::toString(w.result));
    }
    return out;
}

// Every entry of a menu and its submenus, by text.
QList<QAction *> entries(const QMenu *menu)
{
    QList<QAction *> out;
    for (QAction *a : menu->actions()) {
        if (a->isSeparator())
            continue;
        out << a;
        if (a->menu())
            out << entries(a->menu());
    }
    return out;
}

} // namespace

class TestLaneMenus : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        Document doc;
        ViewState state;
        QWidget window;
        TimelineView *view = new TimelineView(&doc, &state, &window);
        explicit Fixture(const QString &name)
        {
            doc.reset(preset(name));
            auto *box = new QVBoxLayout(&window);
            box->addWidget(view);
            window.resize(1000, view->sizeHint().height() + 40);
            window.show();
            window.activateWindow();
            if (!QTest::qWaitForWindowActive(&window))
                qFatal("window not active");
            state.setAxis(-2, 20); // tick t at header + (t + 2) * 20 px
        }
        // Where tick `t` is on storage lane `s` (in the window), or its header cell.
        QPoint onStorage(int s, std::optional<Tick> t) const
        {
            const StorageLaneRects r = view->currentLayout().panels.front().storages[size_t(s)];
            const double x = t ? view->axis().tickToX(double(*t)) : r.header.center().x();
            return view->mapTo(&window, QPointF(x, r.lane.center().y()).toPoint());
        }
        QPoint onHeader(int c) const
        {
            const ClientLaneRects r = view->currentLayout().panels.front().clients[size_t(c)];
            return view->mapTo(&window, r.header.center().toPoint());
        }
        // Right-clicks at `at` through the window, triggers the entry named `trigger` (none:
        // nothing) and returns the entries' texts, a checked one with " [x]".
        QStringList rightClick(QPoint at, const QString &trigger = {})
        {
            QStringList texts;
            bool found = trigger.isEmpty();
            QTimer::singleShot(0, &window, [&] {
                auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
                if (!menu)
                    return;
                const QList<QAction *> all = entries(menu);
                for (QAction *a : all)
                    texts << a->text() + (a->isChecked() ? QStringLiteral(" [x]") : QString());
                menu->close();
                for (QAction *a : all)
                    if (a->text() == trigger) {
                        found = true;
                        a->trigger();
                    }
            });
            QTest::mouseClick(window.windowHandle(), Qt::RightButton, {}, at);
            if (!found)
                qWarning("no entry %s in %s", qPrintable(trigger), qPrintable(texts.join(u'|')));
            return texts;
        }
        template <typename Dialog> Dialog *dialog()
        {
            Dialog *d = view->findChild<Dialog *>();
            if (d && !QTest::qWaitForWindowActive(d))
                return nullptr;
            return d;
        }
        int undoCount() const { return doc.undoStack()->count(); }
    };

    // Clicks into `edit` in its dialog, replaces its text key by key through the window.
    static void type(QDialog *d, QLineEdit *edit, const QString &text)
    {
        QTest::mouseClick(d->windowHandle(), Qt::LeftButton, {},
                          edit->mapTo(d, edit->rect().center()));
        QTRY_VERIFY(edit->hasFocus());
        QTest::keyClick(d->windowHandle(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(d->windowHandle(), Qt::Key_Backspace);
        for (const QChar ch : text)
            QTest::keyClick(d->windowHandle(), ch.toLatin1());
        QCOMPARE(edit->text(), text);
    }
    static void keys(QDialog *d, const QString &text)
    {
        for (const QChar ch : text)
            QTest::keyClick(d->windowHandle(), ch.toLatin1());
    }
    static void click(QDialog *d, QWidget *w)
    {
        QTest::mouseClick(d->windowHandle(), Qt::LeftButton, {}, w->mapTo(d, w->rect().center()));
    }
    // on its box: a check box stretched across the form has nothing clickable at its middle
    static void click(QDialog *d, QCheckBox *box)
    {
        QTest::mouseClick(d->windowHandle(), Qt::LeftButton, {},
                          box->mapTo(d, QPoint(6, box->height() / 2)));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_lanemenus"));
        QSettings().clear();
    }

    void storageMenuMakesMaxTokenDurable()
    {
        Fixture f(QStringLiteral("journalnode-volatile-max-token"));
        const QStringList corrupting = {"A A1 accepted", "B B1 accepted", "A A2 corrupted",
                                        "B B2 accepted"};
        QCOMPARE(outcomes(f.doc.scenario(), f.doc.trace()), corrupting);
        const QStringList texts = f.rightClick(f.onStorage(0, 5));
        QCOMPARE(texts,
                 QStringList({"Compare-and-set on a version", "max_token persisted with the data",
                              "Add restart at 5", "Storage jn..."}));
        f.rightClick(f.onStorage(0, 5), QStringLiteral("max_token persisted with the data"));
        QVERIFY(f.doc.scenario().storages[0].durable);
        QCOMPARE(f.undoCount(), 1);
        QCOMPARE(f.doc.undoStack()->undoText(),
                 QStringLiteral("max_token of jn persisted with the data"));
        // the restart at 12 forgets nothing now: A's stale write is turned away
        QCOMPARE(f.doc.trace().restarts.size(), std::size_t(1));
        QCOMPARE(f.doc.trace().restarts[0].forgot, Core::Token(0));
        QCOMPARE(outcomes(f.doc.scenario(), f.doc.trace()),
                 QStringList({"A A1 accepted", "B B1 accepted", "A A2 rejected", "B B2 accepted"}));
        QVERIFY(f.rightClick(f.onStorage(0, 5))
                    .contains(QStringLiteral("max_token persisted with the data [x]")));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario(), preset(QStringLiteral("journalnode-volatile-max-token")));
        QCOMPARE(outcomes(f.doc.scenario(), f.doc.trace()), corrupting);
    }

    void storageMenuAddsAndRemovesRestarts()
    {
        Fixture f(QStringLiteral("journalnode-volatile-max-token"));
        // on the restart's line (and 3 px beside it) it can go; there is none to add there
        const QPoint beside = f.onStorage(0, 12) + QPoint(3, 0);
        const QStringList texts = f.rightClick(beside);
        QVERIFY2(texts.contains(QStringLiteral("Remove restart at 12")),
                 qPrintable(texts.join(u'|')));
        QVERIFY(!texts.contains(QStringLiteral("Add restart at 12")));
        f.rightClick(beside, QStringLiteral("Remove restart at 12"));
        QVERIFY(f.doc.scenario().storages[0].restarts.empty());
        QVERIFY(f.doc.trace().restarts.empty());
        QCOMPARE(outcomes(f.doc.scenario(), f.doc.trace()),
                 QStringList({"A A1 accepted", "B B1 accepted", "A A2 rejected", "B B2 accepted"}));
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Remove restart of jn at 12"));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().storages[0].restarts, std::vector<Tick>({12}));

        // far from any restart: only "Add"
        QVERIFY(!f.rightClick(f.onStorage(0, 4)).contains(QStringLiteral("Remove restart at 12")));
        f.rightClick(f.onStorage(0, 4), QStringLiteral("Add restart at 4"));
        QCOMPARE(f.doc.scenario().storages[0].restarts, std::vector<Tick>({4, 12}));
        // at 4 the volatile storage forgets A's token 1
        QCOMPARE(f.doc.trace().restarts.size(), std::size_t(2));
        QCOMPARE(f.doc.trace().restarts[0].tick, Tick(4));
        QCOMPARE(f.doc.trace().restarts[0].forgot, Core::Token(1));
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Restart jn at 4"));
        QCOMPARE(f.doc.undoStack()->index(), 1); // one step (the undone removal is gone)
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario().storages[0].restarts, std::vector<Tick>({12}));
    }

    void storageHeaderMenuSwitchesToVersions()
    {
        Fixture f(QStringLiteral("journalnode-volatile-max-token"));
        // the header has no tick: no restart entries
        const QStringList texts = f.rightClick(f.onStorage(0, std::nullopt));
        QCOMPARE(texts, QStringList({"Compare-and-set on a version",
                                     "max_token persisted with the data", "Storage jn..."}));
        f.rightClick(f.onStorage(0, std::nullopt), QStringLiteral("Compare-and-set on a version"));
        QVERIFY(f.doc.scenario().storages[0].check == Core::StorageCheck::Version);
        QCOMPARE(f.doc.undoStack()->undoText(),
                 QStringLiteral("Compare-and-set on a version in jn"));
        // nobody reads; a writer knows the version its own applied write made (docs/SCENARIO.md
        // section 14). A1 makes it 1 and A knows it; B, the live holder, knows 0 and is locked
        // out twice; A's late write expects 1 and is applied on what it saw: accepted
        QCOMPARE(
            outcomes(f.doc.scenario(), f.doc.trace()),
            QStringList({"A A1 accepted", "B B1 lockedOut", "A A2 accepted", "B B2 lockedOut"}));
        f.doc.undoStack()->undo();
        QVERIFY(f.doc.scenario().storages[0].check == Core::StorageCheck::Token);
    }

    void storageDialogEditsEverythingInOneStep()
    {
        Fixture f(QStringLiteral("journalnode-volatile-max-token"));
        f.rightClick(f.onStorage(0, 5), QStringLiteral("Storage jn..."));
        auto *d = f.dialog<StorageDialog>();
        QVERIFY(d);
        QCOMPARE(d->windowTitle(), QStringLiteral("Storage jn"));
        QCOMPARE(d->restartsEdit()->text(), QStringLiteral("12"));
        QVERIFY(!d->durableEdit()->isChecked());
        d->ruleEdit()->setCurrentIndex(1); // le
        click(d, d->durableEdit());
        QVERIFY(d->durableEdit()->isChecked());
        type(d, d->restartsEdit(), QStringLiteral("20, 5 5"));
        click(d, d->okButton());
        QTRY_VERIFY(!f.view->findChild<StorageDialog *>());
        const Core::StorageSpec &st = f.doc.scenario().storages[0];
        QCOMPARE(st.name, QStringLiteral("jn"));
        QVERIFY(st.rule == Core::FenceRule::Le);
        QVERIFY(st.check == Core::StorageCheck::Token);
        QVERIFY(st.durable);
        QCOMPARE(st.restarts, std::vector<Tick>({5, 5, 20})); // sorted, as the loader keeps them
        QCOMPARE(f.undoCount(), 1);
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Edit storage jn"));
        QCOMPARE(f.doc.trace().restarts.size(), std::size_t(3));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario(), preset(QStringLiteral("journalnode-volatile-max-token")));
    }

    void storageDialogRefusesBadRestarts_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a tick")
            << QStringLiteral("12, x") << QStringLiteral("Restart 2: “x” is not a tick");
        QTest::newRow("negative") << QStringLiteral("-3")
                                  << QStringLiteral("Restart 1: “-3” is before tick 0");
        QTest::newRow("beyond 2^53") << QStringLiteral("9007199254740993")
                                     << QStringLiteral("Restart 1: 9007199254740993 is too large");
        QTest::newRow("a fraction")
            << QStringLiteral("1.5") << QStringLiteral("Restart 1: “1.5” is not a tick");
    }

    void storageDialogRefusesBadRestarts()
    {
        QFETCH(QString, typed);
        QFETCH(QString, message);
        Fixture f(QStringLiteral("journalnode-volatile-max-token"));
        f.rightClick(f.onStorage(0, std::nullopt), QStringLiteral("Storage jn..."));
        auto *d = f.dialog<StorageDialog>();
        QVERIFY(d);
        click(d, d->durableEdit()); // a good change in another field goes nowhere either
        type(d, d->restartsEdit(), typed);
        click(d, d->okButton());
        QVERIFY(d->isVisible());
        QVERIFY(d->restartsMessage()->isVisible());
        QVERIFY2(d->restartsMessage()->text().startsWith(message),
                 qPrintable(d->restartsMessage()->text()));
        QCOMPARE(d->restartsEdit()->text(), typed); // kept for correcting
        QVERIFY(d->restartsEdit()->hasFocus());
        QCOMPARE(f.undoCount(), 0);
        QCOMPARE(f.doc.scenario(), preset(QStringLiteral("journalnode-volatile-max-token")));
        // corrected: the message goes, OK takes it
        type(d, d->restartsEdit(), QStringLiteral("12"));
        QVERIFY(d->restartsMessage()->isHidden());
        click(d, d->okButton());
        QTRY_VERIFY(!f.view->findChild<StorageDialog *>());
        QCOMPARE(f.undoCount(), 1);
        QVERIFY(f.doc.scenario().storages[0].durable);
    }

    void clockQuickEntries()
    {
        Fixture f(QStringLiteral("slow-client-clock"));
        QCOMPARE(outcomes(f.doc.scenario(), f.doc.trace()),
                 QStringList({"B B accepted", "A A rejected"}));
        QVERIFY(f.doc.trace().skips.empty());
        const QStringList texts = f.rightClick(f.onHeader(0));
        QCOMPARE(texts,
                 QStringList({"Remove client A", "Unfenced path: A's writes bypass the check",
                              "Clock speed of A", "Clock runs slow (half speed) [x]",
                              "Clock runs fast (double)", "Clock exact", "Clock of A..."}));
        f.rightClick(f.onHeader(0), QStringLiteral("Clock exact"));
        QCOMPARE(f.doc.scenario().clients[0].clock.rateMilli, 1000u);
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Clock of A exact"));
        // by an exact clock A sees its lease gone at 15: the write is skipped, B's data stays
        QCOMPARE(outcomes(f.doc.scenario(), f.doc.trace()), QStringList({"B B accepted"}));
        QCOMPARE(f.doc.trace().skips.size(), std::size_t(1));
        QCOMPARE(f.doc.trace().skips[0].at, Tick(15));
        f.rightClick(f.onHeader(0), QStringLiteral("Clock runs fast (double)"));
        QCOMPARE(f.doc.scenario().clients[0].clock.rateMilli, 2000u);
        QCOMPARE(f.doc.trace().skips.size(), std::size_t(1));
        QCOMPARE(f.undoCount(), 2);
        // the checked entry again changes nothing, and pushes nothing
        f.rightClick(f.onHeader(0), QStringLiteral("Clock runs fast (double)"));
        QCOMPARE(f.undoCount(), 2);
        f.doc.undoStack()->undo();
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario(), preset(QStringLiteral("slow-client-clock")));
        QVERIFY(f.doc.trace().skips.empty());
    }

    void clockDialogEditsRateAndSteps()
    {
        Fixture f(QStringLiteral("slow-client-clock"));
        f.rightClick(f.onHeader(0), QStringLiteral("Clock of A..."));
        auto *d = f.dialog<ClockDialog>();
        QVERIFY(d);
        QCOMPARE(d->rateEdit()->text(), QStringLiteral("0.5"));
        QCOMPARE(d->stepsTable()->rowCount(), 0);
        type(d, d->rateEdit(), QStringLiteral("1.000"));
        click(d, d->addStepButton());
        QCOMPARE(d->stepsTable()->rowCount(), 1);
        // the new row's "at" is being edited: type over it, Tab on to "by"
        QTest::keyClick(d->windowHandle(), Qt::Key_A, Qt::ControlModifier);
        keys(d, QStringLiteral("12"));
        QTest::keyClick(d->windowHandle(), Qt::Key_Tab);
        QTest::keyClick(d->windowHandle(), Qt::Key_A, Qt::ControlModifier);
        keys(d, QStringLiteral("-6"));
        QTest::keyClick(d->windowHandle(), Qt::Key_Return);
        QCOMPARE(d->stepsTable()->item(0, 0)->text(), QStringLiteral("12"));
        QCOMPARE(d->stepsTable()->item(0, 1)->text(), QStringLiteral("-6"));
        click(d, d->okButton());
        QTRY_VERIFY(!f.view->findChild<ClockDialog *>());
        const Core::ClientClock &clock = f.doc.scenario().clients[0].clock;
        QCOMPARE(clock.rateMilli, 1000u);
        QCOMPARE(clock.steps.size(), std::size_t(1));
        QCOMPARE(clock.steps[0].at, Tick(12));
        QCOMPARE(clock.steps[0].by, std::int64_t(-6));
        QCOMPARE(f.undoCount(), 1);
        QCOMPARE(f.doc.undoStack()->undoText(), QStringLiteral("Edit clock of A"));
        // exact, but set back 6 at 12: local(15) = 9 < 10, A still believes and writes
        QVERIFY(f.doc.trace().skips.empty());
        QCOMPARE(outcomes(f.doc.scenario(), f.doc.trace()),
                 QStringList({"B B accepted", "A A rejected"}));
        f.doc.undoStack()->undo();
        QCOMPARE(f.doc.scenario(), preset(QStringLiteral("slow-client-clock")));
    }

    void clockDialogRefusesBadRates_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::newRow("a fraction of a thousandth") << QStringLiteral("0.0005");
        QTest::newRow("over 100") << QStringLiteral("100.001");
        QTest::newRow("zero") << QStringLiteral("0");
        QTest::newRow("negative") << QStringLiteral("-1");
        QTest::newRow("not JSON") << QStringLiteral(".5");
        QTest::newRow("words") << QStringLiteral("fast");
    }

    void clockDialogRefusesBadRates()
    {
        QFETCH(QString, typed);
        Fixture f(QStringLiteral("slow-client-clock"));
        f.rightClick(f.onHeader(0), QStringLiteral("Clock of A..."));
        auto *d = f.dialog<ClockDialog>();
        QVERIFY(d);
        type(d, d->rateEdit(), typed);
        click(d, d->okButton());
        QVERIFY(d->isVisible());
        QVERIFY(d->rateMessage()->isVisible());
        QCOMPARE(d->rateMessage()->text(),
                 QStringLiteral("“%1” is not a rate: a number from 0.001 to 100 with at most "
                                "three decimals, like 0.5 (half speed).")
                     .arg(typed));
        QVERIFY(d->rateEdit()->hasFocus());
        QCOMPARE(f.undoCount(), 0);
        QCOMPARE(f.doc.scenario(), preset(QStringLiteral("slow-client-clock")));
        QTest::keyClick(d->windowHandle(), Qt::Key_Escape); // Cancel: nothing changes
        QTRY_VERIFY(!f.view->findChild<ClockDialog *>());
        QCOMPARE(f.undoCount(), 0);
    }

    void clockDialogRefusesBadSteps()
    {
        Fixture f(QStringLiteral("slow-client-clock"));
        f.rightClick(f.onHeader(0), QStringLiteral("Clock of A..."));
        auto *d = f.dialog<ClockDialog>();
        QVERIFY(d);
        click(d, d->addStepButton());
        QTest::keyClick(d->windowHandle(), Qt::Key_Tab); // keep at 0, on to "by"
        QTest::keyClick(d->windowHandle(), Qt::Key_A, Qt::ControlModifier);
        keys(d, QStringLiteral("soon"));
        QTest::keyClick(d->windowHandle(), Qt::Key_Return);
        click(d, d->okButton());
        QVERIFY(d->isVisible());
        QVERIFY(d->stepsMessage()->isVisible());
        QVERIFY2(d->stepsMessage()->text().startsWith(
                     QStringLiteral("Step 1, by: “soon” is not a whole number")),
                 qPrintable(d->stepsMessage()->text()));
        QCOMPARE(d->stepsTable()->currentColumn(), 1); // at the bad cell
        QCOMPARE(f.undoCount(), 0);
        // removed again: OK with nothing changed pushes nothing
        click(d, d->removeStepButton());
        QCOMPARE(d->stepsTable()->rowCount(), 0);
        QVERIFY(d->stepsMessage()->isHidden());
        click(d, d->okButton());
        QTRY_VERIFY(!f.view->findChild<ClockDialog *>());
        QCOMPARE(f.undoCount(), 0);
        QCOMPARE(f.doc.scenario(), preset(QStringLiteral("slow-client-clock")));
    }

    // The rate as the loader judges a file's text: the same texts in a file load or fail alike.
    void rateTextAsTheLoaderJudgesIt_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("milli"); // 0: refused
        QTest::newRow("1.500") << QStringLiteral("1.500") << 1500;
        QTest::newRow("15e-1") << QStringLiteral("15e-1") << 1500;
        QTest::newRow("0.001") << QStringLiteral("0.001") << 1;
        QTest::newRow("100") << QStringLiteral("100") << 100000;
        QTest::newRow("1E2") << QStringLiteral("1E2") << 100000;
        QTest::newRow("0.5e+1") << QStringLiteral("0.5e+1") << 5000;
        QTest::newRow("blanks") << QStringLiteral(" 0.25 ") << 250;
        QTest::newRow("0.0005") << QStringLiteral("0.0005") << 0;
        QTest::newRow("many decimals") << QStringLiteral("0.1000000000000000001") << 0;
        QTest::newRow("100.001") << QStringLiteral("100.001") << 0;
        QTest::newRow("1e3") << QStringLiteral("1e3") << 0;
        QTest::newRow("0") << QStringLiteral("0") << 0;
        QTest::newRow("-1") << QStringLiteral("-1") << 0;
        QTest::newRow("01") << QStringLiteral("01") << 0;
        QTest::newRow("5.") << QStringLiteral("5.") << 0;
        QTest::newRow("empty") << QString() << 0;
    }

    void rateTextAsTheLoaderJudgesIt()
    {
        QFETCH(QString, text);
        QFETCH(int, milli);
        QString error;
        const auto got = LaneDialogs::parseRate(text, &error);
        QCOMPARE(got.has_value(), milli != 0);
        if (got)
            QCOMPARE(int(*got), milli);
        else
            QVERIFY(!error.isEmpty());
        // the loader agrees on the same text in a file
        const QByteArray file =
            QByteArrayLiteral(R"({"fencescope": 1, "clients": [{"name": "A", "clock": {"rate": )") +
            text.toUtf8() + QByteArrayLiteral(R"(}, "actions": []}]})");
        const Core::LoadResult r = Core::ScenarioFile::parse(file);
        if (text.trimmed().isEmpty())
            return; // an empty value is not JSON at all
        QCOMPARE(r.ok(), milli != 0);
        if (r.ok())
            QCOMPARE(int(r.scenario->clients[0].clock.rateMilli), milli);
    }

};

QTEST_MAIN(TestLaneMenus)
#include "tst_lanemenus.moc"
