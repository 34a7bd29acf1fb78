// The inspector as a person uses it: click into a field, type, press Return or Tab. Bad
// entries are refused at their field with a visible message and change nothing; good ones are
// one undo step each; a field with nothing to show is blank; the outcome text is never cut.

#include "document/document.h"
#include "scripteddialogs.h"
#include "views/inspector.h"
#include "views/tickfield.h"
#include "viewstate.h"
#include "window/mainwindow.h"
#include "windowparts.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>
#include <QVBoxLayout>

#include <memory>

using namespace Core;

namespace {

// A: acquire 0 (ttl 10), pause 2 for 15, write "a" at 5; B: acquire 12 (ttl 10), write "b" 14.
Scenario twoClients()
{
    Scenario s;
    s.title = QStringLiteral("inspector");
    Client a{QStringLiteral("A"),
             {Action::acquire(0, 10), Action::pause(2, 15), Action::write(5, QStringLiteral("a"))},
             {},
             false,
             {}};
    Client b{QStringLiteral("B"),
             {Action::acquire(12, 10), Action::write(14, QStringLiteral("b"))},
             {},
             false,
             {}};
    s.clients = {a, b};
    return s;
}

const QString kTooLarge = QStringLiteral("99999999999999999999");

} // namespace

class TestInspector : public QObject
{
    Q_OBJECT

    std::unique_ptr<QWidget> m_host;
    Document *m_doc = nullptr;
    ViewState *m_state = nullptr;
    Inspector *m_inspector = nullptr;

    const Action &action(int c, int i) const
    {
        return m_doc->scenario().clients[size_t(c)].actions[size_t(i)];
    }
    QWindow *window() const { return m_host->windowHandle(); }
    int undoCount() const { return m_doc->undoStack()->count(); }

    // Clicks into `edit`, selects what it holds and types `text` key by key, then `commit`.
    void type(QLineEdit *edit, const QString &text, Qt::Key commit = Qt::Key_Return)
    {
        QTest::mouseClick(window(), Qt::LeftButton, {},
                          edit->mapTo(m_host.get(), edit->rect().center()));
        QTRY_VERIFY(edit->hasFocus());
        QTest::keyClick(window(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(window(), Qt::Key_Backspace);
        for (const QChar ch : text)
            QTest::keyClick(window(), ch.toLatin1());
        QCOMPARE(edit->text(), text); // every key reached the field: nothing was swallowed
        if (commit != Qt::Key_unknown)
            QTest::keyClick(window(), commit);
    }

    // The field refused what was typed: the message is shown under it, the typed text stays
    // for correcting, and neither the scenario nor the undo stack moved.
    void expectRefused(TickField *field, const QString &typed, const QString &messagePart,
                       const Scenario &before, int undoBefore)
    {
        QVERIFY2(field->error().contains(messagePart), qPrintable(field->error()));
        QVERIFY(field->messageLabel()->isVisibleTo(m_host.get()));
        QCOMPARE(field->messageLabel()->text(), field->error());
        QVERIFY(!field->lineEdit()->styleSheet().isEmpty()); // the red frame
        QCOMPARE(field->lineEdit()->text(), typed);
        QCOMPARE(m_doc->scenario(), before);
        QCOMPARE(undoCount(), undoBefore);
    }

private slots:
    void init()
    {
        m_host = std::make_unique<QWidget>();
        m_doc = new Document(m_host.get());
        m_doc->reset(twoClients());
        m_state = new ViewState(m_host.get());
        m_inspector = new Inspector(m_doc, m_state, m_host.get());
        auto *col = new QVBoxLayout(m_host.get());
        col->addWidget(m_inspector);
        m_host->resize(360, 520);
        m_host->show();
        m_host->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_host.get()));
    }

    void cleanup() { m_host.reset(); }

    // docs/SCENARIO.md sections 11 and 12: a keepalive on an acquire, check, gap and group on a
    // write; each typed or clicked through the window, one undo step each.
    void keepaliveCheckGapAndGroup()
    {
        m_state->setSelection({1, 0}); // B's acquire at 12, ttl 10
        QVERIFY(m_inspector->keepaliveEdit()->isVisibleTo(m_host.get()));
        QVERIFY(!m_inspector->checkEdit()->isVisibleTo(m_host.get()));
        type(m_inspector->keepaliveEdit()->lineEdit(), QStringLiteral("3"));
        QCOMPARE(action(1, 0).keepalive(), Tick(3));
        QCOMPARE(undoCount(), 1);
        // the run's last events are at 17 (A thaws, its write runs): B's keepalive at 15
        // renews the lease, the one due at 18 would be after the run
        QStringList keepalives;
        for (const Grant &g : m_doc->trace().grants)
            if (g.keepalive)
                keepalives << QStringLiteral("%1->%2").arg(g.at).arg(g.expires);
        QCOMPARE(keepalives, QStringList({"15->25"}));
        QCOMPARE(m_doc->trace().grants[1].at, Tick(12));

        m_state->setSelection({0, 2}); // A's write "a" at 5
        QVERIFY(!m_inspector->keepaliveEdit()->isVisibleTo(m_host.get()));
        QVERIFY(!m_inspector->gapEdit()->isEnabled());
        QCheckBox *check = m_inspector->checkEdit();
        QTest::mouseClick(window(), Qt::LeftButton, {},
                          check->mapTo(m_host.get(), QPoint(8, check->height() / 2)));
        QVERIFY(action(0, 2).check);
        QCOMPARE(undoCount(), 2);
        QVERIFY(m_inspector->gapEdit()->isEnabled());
        type(m_inspector->gapEdit()->lineEdit(), QStringLiteral("4"));
        QCOMPARE(action(0, 2).gap(), Tick(4));
        type(m_inspector->groupEdit(), QStringLiteral("order"));
        QCOMPARE(action(0, 2).group(), QStringLiteral("order"));
        QCOMPARE(undoCount(), 4);
        // A is frozen [2,17): the write due at 5 runs at 17; its check finds the ttl-10 lease
        // (from 0) gone by A's clock: skipped
        QCOMPARE(m_doc->trace().skips.size(), std::size_t(1));
        // a gap cannot be negative: refused at the field
        const Scenario before = m_doc->scenario();
        type(m_inspector->gapEdit()->lineEdit(), QStringLiteral("-1"));
        expectRefused(m_inspector->gapEdit(), QStringLiteral("-1"), QStringLiteral("negative"),
                      before, 4);
        QTest::keyClick(window(), Qt::Key_Escape);
        // undo walks back: group, gap, check, keepalive
        for (int i = 0; i < 4; ++i)
            m_doc->undoStack()->undo();
        QCOMPARE(m_doc->scenario(), twoClients());
        QVERIFY(!m_inspector->checkEdit()->isChecked());
        QCOMPARE(m_inspector->groupEdit()->text(), QString());
    }

    void typedTickMovesTheAction()
    {
        m_state->setSelection({0, 1}); // A's pause
        QCOMPARE(m_inspector->atEdit()->lineEdit()->text(), QStringLiteral("2"));
        type(m_inspector->atEdit()->lineEdit(), QStringLiteral("4"));
        QCOMPARE(action(0, 1).at, Tick(4));
        QCOMPARE(action(0, 1).amount, Tick(15));
        QCOMPARE(undoCount(), 1);
        QVERIFY(m_inspector->atEdit()->error().isEmpty());
        QVERIFY(m_inspector->atEdit()->messageLabel()->isHidden());
    }

    void negativeTickIsRefused()
    {
        m_state->setSelection({0, 1});
        const Scenario before = m_doc->scenario();
        type(m_inspector->atEdit()->lineEdit(), QStringLiteral("-5"));
        expectRefused(m_inspector->atEdit(), QStringLiteral("-5"), QStringLiteral("negative"),
                      before, 0);
        // Escape puts the scenario's value back
        QTest::keyClick(window(), Qt::Key_Escape);
        QCOMPARE(m_inspector->atEdit()->lineEdit()->text(), QStringLiteral("2"));
        QVERIFY(m_inspector->atEdit()->error().isEmpty());
        QVERIFY(m_inspector->atEdit()->messageLabel()->isHidden());
    }

    void refusedEntryIsKeptWhenFocusLeaves()
    {
        m_state->setSelection({0, 1});
        const Scenario before = m_doc->scenario();
        // Tab commits too; the bad text stays in the field while its action is selected
        type(m_inspector->atEdit()->lineEdit(), QStringLiteral("7x"), Qt::Key_Tab);
        QVERIFY(!m_inspector->atEdit()->lineEdit()->hasFocus());
        expectRefused(m_inspector->atEdit(), QStringLiteral("7x"), QStringLiteral("not a tick"),
                      before, 0);
        // another field's good edit does not wipe it
        type(m_inspector->amountEdit()->lineEdit(), QStringLiteral("20"));
        QCOMPARE(action(0, 1).amount, Tick(20));
        QCOMPARE(m_inspector->atEdit()->lineEdit()->text(), QStringLiteral("7x"));
        QVERIFY(!m_inspector->atEdit()->error().isEmpty());
        // another selection shows that action's values, and no message
        m_state->setSelection({1, 0});
        QCOMPARE(m_inspector->atEdit()->lineEdit()->text(), QStringLiteral("12"));
        QVERIFY(m_inspector->atEdit()->error().isEmpty());
    }

    void hugeTickIsRefusedNotClamped_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message");
        QTest::newRow("20 digits") << kTooLarge << QStringLiteral("2^53");
        QTest::newRow("2^53 + 1") << QStringLiteral("9007199254740993") << QStringLiteral("2^53");
        QTest::newRow("2^64") << QStringLiteral("18446744073709551616") << QStringLiteral("2^53");
        QTest::newRow("decimal") << QStringLiteral("3.5") << QStringLiteral("whole number");
        QTest::newRow("exponent") << QStringLiteral("1e9") << QStringLiteral("whole number");
        QTest::newRow("empty") << QString() << QStringLiteral("whole number");
    }

    void hugeTickIsRefusedNotClamped()
    {
        QFETCH(QString, typed);
        QFETCH(QString, message);
        m_state->setSelection({0, 1});
        const Scenario before = m_doc->scenario();
        type(m_inspector->atEdit()->lineEdit(), typed);
        expectRefused(m_inspector->atEdit(), typed, message, before, 0);
    }

    void limitsOfTheFileFormat()
    {
        m_state->setSelection({0, 1}); // a pause of 15
        // 2^53 itself is a tick a file may hold
        type(m_inspector->atEdit()->lineEdit(), QStringLiteral("9007199254740992"));
        QCOMPARE(action(0, 1).at, kMaxFileInteger);
        QVERIFY(m_inspector->atEdit()->error().isEmpty());
        // but the pause's end, at + length, must stay below 2^54
        const Scenario before = m_doc->scenario();
        type(m_inspector->amountEdit()->lineEdit(), QStringLiteral("9007199254740992"));
        expectRefused(m_inspector->amountEdit(), QStringLiteral("9007199254740992"),
                      QStringLiteral("2^54"), before, 1);
        type(m_inspector->amountEdit()->lineEdit(), QStringLiteral("9007199254740991"));
        QCOMPARE(action(0, 1).amount, kMaxFileInteger - 1);
        QVERIFY(m_inspector->amountEdit()->error().isEmpty());
    }

    void leaseAndPauseLastAtLeastOneTick_data()
    {
        QTest::addColumn<int>("actionIndex");
        QTest::addColumn<QString>("message");
        QTest::newRow("ttl") << 0 << QStringLiteral("A lease lasts at least 1 tick");
        QTest::newRow("pause") << 1 << QStringLiteral("A pause lasts at least 1 tick");
    }

    void leaseAndPauseLastAtLeastOneTick()
    {
        QFETCH(int, actionIndex);
        QFETCH(QString, message);
        m_state->setSelection({0, actionIndex});
        const Scenario before = m_doc->scenario();
        type(m_inspector->amountEdit()->lineEdit(), QStringLiteral("0"));
        expectRefused(m_inspector->amountEdit(), QStringLiteral("0"), message, before, 0);
        // the Down arrow stops at 1 as well
        type(m_inspector->amountEdit()->lineEdit(), QStringLiteral("1"));
        QCOMPARE(action(0, actionIndex).amount, Tick(1));
        QTest::keyClick(window(), Qt::Key_Down);
        QCOMPARE(action(0, actionIndex).amount, Tick(1));
        QCOMPARE(undoCount(), 1);
    }

    void aWriteMayHaveNoDelay()
    {
        m_state->setSelection({0, 2});
        QCOMPARE(m_inspector->amountEdit()->lineEdit()->text(), QStringLiteral("0"));
        type(m_inspector->amountEdit()->lineEdit(), QStringLiteral("3"));
        QCOMPARE(action(0, 2).amount, Tick(3));
        type(m_inspector->amountEdit()->lineEdit(), QStringLiteral("0"));
        QCOMPARE(action(0, 2).amount, Tick(0));
        QVERIFY(m_inspector->amountEdit()->error().isEmpty());
    }

    void renameToAnExistingNameIsRefused()
    {
        m_state->setSelection({0, 0});
        const Scenario before = m_doc->scenario();
        QLineEdit *name = m_inspector->nameEdit();
        type(name, QStringLiteral("B"));
        QVERIFY(m_inspector->nameMessage()->isVisibleTo(m_host.get()));
        QVERIFY2(m_inspector->nameMessage()->text().contains(QStringLiteral("“B”")),
                 qPrintable(m_inspector->nameMessage()->text()));
        QVERIFY(!name->styleSheet().isEmpty());
        QCOMPARE(name->text(), QStringLiteral("B")); // kept for correcting, not silently reverted
        QCOMPARE(m_doc->scenario(), before);
        QCOMPARE(undoCount(), 0);
        // an empty name is refused the same way
        QTest::keyClick(window(), Qt::Key_Backspace);
        QTest::keyClick(window(), Qt::Key_Return);
        QVERIFY(m_inspector->nameMessage()->text().contains(QStringLiteral("needs a name")));
        QCOMPARE(m_doc->scenario(), before);
        // Escape: the client's name back, no message
        QTest::keyClick(window(), Qt::Key_Escape);
        QCOMPARE(name->text(), QStringLiteral("A"));
        QVERIFY(m_inspector->nameMessage()->isHidden());
        // corrected: renamed, message gone, one undo step
        type(name, QStringLiteral("Zed"));
        QCOMPARE(m_doc->scenario().clients[0].name, QStringLiteral("Zed"));
        QVERIFY(m_inspector->nameMessage()->isHidden());
        QVERIFY(name->styleSheet().isEmpty());
        QCOMPARE(undoCount(), 1);
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->scenario().clients[0].name, QStringLiteral("A"));
        QCOMPARE(name->text(), QStringLiteral("A"));
    }

    void disabledFieldsAreBlank()
    {
        m_state->setSelection({0, 1});
        QCOMPARE(m_inspector->atEdit()->lineEdit()->text(), QStringLiteral("2"));
        m_state->clearSelection();
        TickField *at = m_inspector->atEdit();
        QVERIFY(!at->isEnabled());
        QCOMPARE(at->lineEdit()->text(), QString()); // no stale "2"
        QCOMPARE(at->value(), std::nullopt);
        QCOMPARE(m_inspector->nameEdit()->text(), QString());
        QCOMPARE(m_inspector->amountEdit()->lineEdit()->text(), QString());
        // a release has no amount: that field is blank too, not the last action's ttl
        Scenario s = twoClients();
        s.clients[0].actions.push_back(Action::release(30));
        m_doc->reset(s);
        m_state->setSelection({0, 0});
        QCOMPARE(m_inspector->amountEdit()->lineEdit()->text(), QStringLiteral("10"));
        m_state->setSelection({0, 3});
        QCOMPARE(m_inspector->amountEdit()->value(), std::nullopt);
        QCOMPARE(m_inspector->amountEdit()->lineEdit()->text(), QString());
    }

    void separateFieldEditsAreSeparateUndoSteps()
    {
        m_state->setSelection({0, 1});
        type(m_inspector->atEdit()->lineEdit(), QStringLiteral("3"));
        type(m_inspector->amountEdit()->lineEdit(), QStringLiteral("9"));
        QCOMPARE(undoCount(), 2);
        m_doc->undoStack()->undo(); // only the length
        QCOMPARE(action(0, 1).at, Tick(3));
        QCOMPARE(action(0, 1).amount, Tick(15));
        m_doc->undoStack()->undo(); // then the tick
        QCOMPARE(action(0, 1).at, Tick(2));
    }

    void arrowStepsOfOneFieldAreOneUndoStep()
    {
        m_state->setSelection({0, 1});
        QLineEdit *at = m_inspector->atEdit()->lineEdit();
        QTest::mouseClick(window(), Qt::LeftButton, {},
                          at->mapTo(m_host.get(), at->rect().center()));
        QTRY_VERIFY(at->hasFocus());
        for (int i = 0; i < 3; ++i)
            QTest::keyClick(window(), Qt::Key_Up);
        QCOMPARE(action(0, 1).at, Tick(5));
        QCOMPARE(at->text(), QStringLiteral("5"));
        QCOMPARE(undoCount(), 1);
        // the other field's steps are a step of their own
        QLineEdit *amount = m_inspector->amountEdit()->lineEdit();
        QTest::mouseClick(window(), Qt::LeftButton, {},
                          amount->mapTo(m_host.get(), amount->rect().center()));
        QTRY_VERIFY(amount->hasFocus());
        QTest::keyClick(window(), Qt::Key_PageDown);
        QCOMPARE(action(0, 1).amount, Tick(5));
        QCOMPARE(undoCount(), 2);
        m_doc->undoStack()->undo();
        QCOMPARE(action(0, 1).amount, Tick(15));
        QCOMPARE(action(0, 1).at, Tick(5));
        m_doc->undoStack()->undo();
        QCOMPARE(action(0, 1).at, Tick(2));
        // stepped there and back: nothing left to undo
        QTest::mouseClick(window(), Qt::LeftButton, {},
                          at->mapTo(m_host.get(), at->rect().center()));
        QTest::keyClick(window(), Qt::Key_Up);
        QTest::keyClick(window(), Qt::Key_Down);
        QCOMPARE(action(0, 1).at, Tick(2));
        QCOMPARE(m_doc->undoStack()->index(), 0);
    }

    // The refused entry's message sits under its field, inside the inspector, in the dock's
    // width (and can be looked at: FENCESCOPE_SCREENSHOT_DIR keeps the picture).
    // Ctrl+Z in a field being typed in undoes the typing; in a field that shows the scenario
    // it undoes the last edit of the document, and again on the next press (QLineEdit took
    // the key for itself and did nothing). Ctrl+Shift+Z redoes. Through the window's keys.
    void undoInAField()
    {
        m_state->setSelection({0, 2}); // A's write at 5
        QLineEdit *at = m_inspector->atEdit()->lineEdit();
        type(at, QStringLiteral("7"));
        QCOMPARE(action(0, 2).at, Tick(7));
        type(at, QStringLiteral("8"));
        QCOMPARE(action(0, 2).at, Tick(8));
        QCOMPARE(undoCount(), 2);
        QVERIFY(at->hasFocus());
        // typing not committed: Ctrl+Z takes it back, the scenario is untouched
        type(at, QStringLiteral("12"), Qt::Key_unknown);
        QTest::keyClick(window(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(at->text(), QStringLiteral("8"));
        QCOMPARE(action(0, 2).at, Tick(8));
        // the field shows the scenario: the document's undo, twice
        QTest::keyClick(window(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(action(0, 2).at, Tick(7));
        QCOMPARE(at->text(), QStringLiteral("7"));
        QTest::keyClick(window(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(action(0, 2).at, Tick(5));
        QCOMPARE(at->text(), QStringLiteral("5"));
        QVERIFY(at->hasFocus());
        QTest::keyClick(window(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(action(0, 2).at, Tick(7));
        QCOMPARE(at->text(), QStringLiteral("7"));

        // a refused entry: Ctrl+Z takes the typing back and the message goes with it
        type(at, kTooLarge);
        QVERIFY(!m_inspector->atEdit()->error().isEmpty());
        QTest::keyClick(window(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(at->text(), QStringLiteral("7"));
        QVERIFY(m_inspector->atEdit()->error().isEmpty());
        QVERIFY(m_inspector->atEdit()->messageLabel()->isHidden());

        // a text field: the value committed, then undone from the field
        QLineEdit *value = m_inspector->valueEdit();
        type(value, QStringLiteral("zz"));
        QCOMPARE(action(0, 2).value, QStringLiteral("zz"));
        QTest::keyClick(window(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(action(0, 2).value, QStringLiteral("a"));
        QCOMPARE(value->text(), QStringLiteral("a"));
        // and the name field, the same way
        QLineEdit *name = m_inspector->nameEdit();
        type(name, QStringLiteral("Alice"));
        QCOMPARE(m_doc->scenario().clients[0].name, QStringLiteral("Alice"));
        QTest::keyClick(window(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(m_doc->scenario().clients[0].name, QStringLiteral("A"));
        QCOMPARE(name->text(), QStringLiteral("A"));
    }

    // Ctrl+Tab leaves a field (forwards), Ctrl+Shift+Tab too (backwards): it is the way out of
    // a text field in the timeline and the rest of the window.
    void ctrlTabLeavesTheField()
    {
        m_state->setSelection({0, 2});
        QLineEdit *at = m_inspector->atEdit()->lineEdit();
        QTest::mouseClick(window(), Qt::LeftButton, {},
                          at->mapTo(m_host.get(), at->rect().center()));
        QTRY_VERIFY(at->hasFocus());
        QTest::keyClick(window(), Qt::Key_Tab, Qt::ControlModifier);
        QTRY_VERIFY(!at->hasFocus());
        QWidget *next = QApplication::focusWidget();
        QVERIFY(next);
        QTest::mouseClick(window(), Qt::LeftButton, {},
                          at->mapTo(m_host.get(), at->rect().center()));
        QTRY_VERIFY(at->hasFocus());
        QTest::keyClick(window(), Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(!at->hasFocus());
        QVERIFY(QApplication::focusWidget() != next); // the other way
    }

    void messageFitsUnderTheField()
    {
        m_host->resize(220, 520);
        m_state->setSelection({0, 1});
        type(m_inspector->atEdit()->lineEdit(), kTooLarge);
        QTRY_VERIFY(m_inspector->atEdit()->messageLabel()->isVisible());
        QCoreApplication::processEvents();
        QLabel *message = m_inspector->atEdit()->messageLabel();
        const QRect edit(m_inspector->atEdit()->lineEdit()->mapTo(m_inspector, QPoint()),
                         m_inspector->atEdit()->lineEdit()->size());
        const QRect shown(message->mapTo(m_inspector, QPoint()), message->size());
        QVERIFY(shown.top() >= edit.bottom());
        QVERIFY2(m_inspector->rect().contains(shown), qPrintable(QStringLiteral("%1,%2 %3x%4")
                                                                     .arg(shown.x())
                                                                     .arg(shown.y())
                                                                     .arg(shown.width())
                                                                     .arg(shown.height())));
        QVERIFY(message->height() >= message->heightForWidth(message->width())); // all its lines
        const QImage shot = m_host->grab().toImage();
        QVERIFY(!shot.isNull());
        if (!qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOT_DIR"))
            shot.save(qEnvironmentVariable("FENCESCOPE_SCREENSHOT_DIR") +
                      QStringLiteral("/inspector-refused.png"));
    }

    // A short dock: the text wraps into the lines there are, the last one ends in "…", and
    // the whole text is the tooltip. No line is drawn cut through its glyphs.
    void outcomeInAShortDockIsElidedWithATooltip()
    {
        m_state->setSelection({0, 2}); // A's stale write, the longest outcome
        const QString full = m_inspector->outcomeText();
        QVERIFY(full.size() > 30);
        QWidget *outcome = m_inspector->outcomeWidget();
        // a dock squeezed by its neighbours gives less than the text asks for
        m_host->layout()->removeWidget(m_inspector);
        m_inspector->setGeometry(0, 0, 160, 120);
        QCoreApplication::processEvents();
        QTRY_VERIFY(m_inspector->outcomeElided());
        const QStringList lines = m_inspector->outcomeLines();
        QVERIFY(!lines.isEmpty());
        QVERIFY(lines.last().endsWith(QChar(0x2026)));
        QCOMPARE(outcome->toolTip(), full);
        QVERIFY(int(lines.size()) * outcome->fontMetrics().lineSpacing() <= outcome->height());
        for (const QString &line : lines)
            QVERIFY(outcome->fontMetrics().horizontalAdvance(line) <= outcome->width());
        // given room again, the whole text, no tooltip
        m_inspector->setGeometry(0, 0, 360, 700);
        QTRY_VERIFY(!m_inspector->outcomeElided());
        QCOMPARE(m_inspector->outcomeLines().join(QLatin1Char(' ')).simplified(),
                 full.simplified());
        QCOMPARE(outcome->toolTip(), QString());
    }
};

// The real window at a projector's 1280x800: every action's outcome is shown whole, or cut
// at a line with "…" and the whole text in its tooltip.
class TestInspectorInWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_inspector"));
        QSettings().clear();
    }

    // While a refused entry's message shows under a field, every row stays whole: at a
    // projector's 1280x800 and 1024x768 the Value row once disappeared, and the message was
    // cut to one of its two lines. A dock too short for the rows scrolls instead.
    void errorKeepsEveryRow_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1024x768") << QSize(1024, 768);
    }
    void errorKeepsEveryRow()
    {
        QFETCH(QSize, size);
        MainWindow w;
        scriptDialogs(w);
        w.resize(size);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        Inspector *in = part<Inspector>(w);
        w.viewState()->setSelection({0, 2}); // A's write: every row of a write shows
        QCoreApplication::processEvents();
        QLineEdit *at = in->atEdit()->lineEdit();
        QTest::mouseClick(w.windowHandle(), Qt::LeftButton, {}, at->mapTo(&w, at->rect().center()));
        QTRY_VERIFY(at->hasFocus());
        QTest::keyClick(w.windowHandle(), Qt::Key_A, Qt::ControlModifier);
        for (const QChar ch : QStringLiteral("99999999999999999999"))
            QTest::keyClick(w.windowHandle(), ch.toLatin1());
        QTest::keyClick(w.windowHandle(), Qt::Key_Return);
        QVERIFY(!in->atEdit()->error().isEmpty());
        QCoreApplication::processEvents();
        QLabel *message = in->atEdit()->messageLabel();
        QVERIFY(message->isVisible());
        QVERIFY2(message->height() >= message->heightForWidth(message->width()),
                 qPrintable(QStringLiteral("the message is %1 px of the %2 its lines need")
                                .arg(message->height())
                                .arg(message->heightForWidth(message->width()))));
        // every field of a write: shown, at least as tall as it asks, none over another
        const std::vector<QWidget *> fields{in->nameEdit(),  in->atEdit(),      in->amountEdit(),
                                            in->valueEdit(), in->storageEdit(), in->checkEdit(),
                                            in->gapEdit(),   in->groupEdit()};
        std::vector<QRect> rects;
        for (QWidget *f : fields) {
            QVERIFY(f->isVisible());
            QVERIFY2(f->height() >= f->minimumSizeHint().height(),
                     qPrintable(QStringLiteral("%1: %2 px high, asks at least %3")
                                    .arg(QLatin1String(f->metaObject()->className()))
                                    .arg(f->height())
                                    .arg(f->minimumSizeHint().height())));
            const QRect r(f->mapTo(in, QPoint()), f->size());
            for (const QRect &other : rects)
                QVERIFY(!r.intersects(other));
            rects.push_back(r);
        }
        // the Value row can be seen: in view, or scrolled to
        auto *scroll = in->findChild<QScrollArea *>(QStringLiteral("inspectorScroll"));
        QVERIFY(scroll);
        scroll->ensureWidgetVisible(in->valueEdit());
        QCoreApplication::processEvents();
        const QRect value(in->valueEdit()->mapTo(scroll->viewport(), QPoint()),
                          in->valueEdit()->size());
        QVERIFY(scroll->viewport()->rect().contains(value));
        w.document()->markSaved();
    }

    // A refused tick while fewer rows show than before (an acquire after a write): Qt 6.4's
    // QFormLayout kept the rows it hid at their old places and, once the wrapped message made
    // the form height-for-width, wrote their heights past the end of its list of the rows
    // shown, corrupting the heap (the monkey's crashes in the timeline, the token chart and
    // label text; see Inspector::showRow). The form holds only the rows shown, each in its
    // place, as the selection goes from a write to an acquire and back.
    void refusedTickWithFewerRows()
    {
        MainWindow w;
        scriptDialogs(w);
        w.resize(1280, 800);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        Inspector *in = part<Inspector>(w);
        const std::vector<Action> &actions = w.document()->scenario().clients[0].actions;
        int write = -1;
        int acquire = -1;
        for (int i = 0; i < int(actions.size()); ++i) {
            if (write < 0 && actions[size_t(i)].kind == ActionKind::Write)
                write = i;
            if (acquire < 0 && actions[size_t(i)].kind == ActionKind::Acquire)
                acquire = i;
        }
        QVERIFY(write >= 0 && acquire >= 0);
        auto *form = in->findChild<QFormLayout *>();
        QVERIFY(form);
        // every widget the form lays out is shown, and the fields run down in their order
        const auto expectRows = [&](const std::vector<QWidget *> &fields) {
            for (int i = 0; i < form->count(); ++i)
                if (QWidget *item = form->itemAt(i)->widget())
                    QVERIFY2(!item->isHidden(),
                             qPrintable(QStringLiteral("a hidden %1 in the form")
                                            .arg(QLatin1String(item->metaObject()->className()))));
            QCOMPARE(form->rowCount(), int(fields.size()) + 1); // and the Action row
            int bottom = 0;
            for (QWidget *f : fields) {
                QVERIFY(f->isVisible());
                const QRect r(f->mapTo(in, QPoint()), f->size());
                QVERIFY2(r.top() >= bottom, f->metaObject()->className());
                bottom = r.bottom();
            }
        };

        w.viewState()->setSelection({0, write}); // every row of a write
        QCoreApplication::processEvents();
        const std::vector<QWidget *> writeRows{in->nameEdit(),  in->atEdit(),      in->amountEdit(),
                                               in->valueEdit(), in->storageEdit(), in->checkEdit(),
                                               in->gapEdit(),   in->groupEdit()};
        expectRows(writeRows);
        if (QTest::currentTestFailed())
            return;

        w.viewState()->setSelection({0, acquire}); // fewer rows: no value, storage, check, gap
        QCoreApplication::processEvents();
        QLineEdit *at = in->atEdit()->lineEdit();
        QTest::mouseClick(w.windowHandle(), Qt::LeftButton, {}, at->mapTo(&w, at->rect().center()));
        QTRY_VERIFY(at->hasFocus());
        QTest::keyClick(w.windowHandle(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(w.windowHandle(), Qt::Key_A);
        QTest::keyClick(w.windowHandle(), Qt::Key_Tab);
        QVERIFY(!in->atEdit()->error().isEmpty());
        QCoreApplication::processEvents();
        QVERIFY(in->atEdit()->messageLabel()->isVisible());
        expectRows({in->nameEdit(), in->atEdit(), in->amountEdit(), in->keepaliveEdit()});
        if (QTest::currentTestFailed())
            return;

        w.viewState()->setSelection({0, write}); // the write's rows come back in their places
        QCoreApplication::processEvents();
        expectRows(writeRows);
        w.document()->markSaved();
    }

    // Text typed in a field, not committed, when the window is destroyed by its owner (no close
    // first): ~QWidget hides the window, the field loses the focus and commits the text, and the
    // document's change reached MainWindow::documentChanged after that class's part was gone
    // (a crash in statusBar(); the monkey, seed 7, after its run). Deleting must just work.
    void typedTextWhenTheWindowIsDeleted()
    {
        auto w = std::make_unique<MainWindow>();
        scriptDialogs(*w);
        w->resize(1280, 800);
        w->show();
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        w->viewState()->setSelection({0, 2}); // A's write: its Group field shows
        QCoreApplication::processEvents();
        QLineEdit *group = part<Inspector>(*w)->groupEdit();
        QTest::mouseClick(w->windowHandle(), Qt::LeftButton, {},
                          group->mapTo(w.get(), group->rect().center()));
        QTRY_VERIFY(group->hasFocus());
        QTest::keyClick(w->windowHandle(), Qt::Key_G);
        QCOMPARE(group->text(), QStringLiteral("g"));
        QVERIFY(!w->document()->isModified()); // typed, not committed
        w.reset();
    }

    // The Storage box shows each storage's whole name, not its first letters ("top", "ind",
    // "obj"): the window opens on "db", and the box kept that width for longer names.
    void storageNamesAreWhole()
    {
        MainWindow w;
        scriptDialogs(w);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.viewState()->setSelection({0, 2}); // A's write to db
        QCoreApplication::processEvents();
        QComboBox *box = part<Inspector>(w)->storageEdit();
        QVERIFY(box->isVisible());
        Scenario s = w.document()->scenario();
        s.storages.clear();
        for (const char *name : {"topic", "index", "objects"}) {
            StorageSpec spec;
            spec.name = QLatin1String(name);
            s.storages.push_back(spec);
        }
        w.document()->reset(s);
        w.viewState()->setSelection({0, 2});
        QCoreApplication::processEvents();
        QCOMPARE(box->count(), 3);
        // what a box of these names asks for, whole: a fresh one measures them
        QComboBox probe;
        probe.setFont(box->font());
        for (int i = 0; i < box->count(); ++i)
            probe.addItem(box->itemText(i));
        QVERIFY2(box->width() >= probe.sizeHint().width(),
                 qPrintable(QStringLiteral("%1 px for names that need %2")
                                .arg(box->width())
                                .arg(probe.sizeHint().width())));
        w.document()->markSaved();
    }

    void outcomeAtProjectorSize()
    {
        MainWindow w;
        scriptDialogs(w);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCoreApplication::processEvents();
        Inspector *inspector = part<Inspector>(w);
        QWidget *outcome = inspector->outcomeWidget();
        const Scenario &s = w.document()->scenario();
        int checked = 0;
        for (int c = 0; c < int(s.clients.size()); ++c) {
            for (int i = 0; i < int(s.clients[size_t(c)].actions.size()); ++i) {
                w.viewState()->setSelection({c, i});
                QCoreApplication::processEvents();
                const QString full = inspector->outcomeText();
                const QStringList lines = inspector->outcomeLines();
                QVERIFY(outcome->isVisible());
                QVERIFY2(int(lines.size()) * outcome->fontMetrics().lineSpacing() <=
                             outcome->height(),
                         qPrintable(full));
                if (inspector->outcomeElided())
                    QCOMPARE(outcome->toolTip(), full);
                else
                    QCOMPARE(lines.join(QLatin1Char(' ')).simplified(), full.simplified());
                ++checked;
            }
        }
        QVERIFY(checked > 3);
        w.document()->markSaved();
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TestInspector fields;
    TestInspectorInWindow window;
    return QTest::qExec(&fields, argc, argv) | QTest::qExec(&window, argc, argv);
}

#include "tst_inspector.moc"
