// Monkey, part: the history. After every action the undo index must account for the scenario
// (a change without a step of its own is lost to undo); at each check, undoing everything gives
// back the scenario as opened and redoing everything the last one, byte for byte, each index
// on the way the scenario seen there; and the document's traces are those a fresh simulation
// gives.

#include "monkey.h"

#include "document/document.h"
#include "document/lessonsession.h"
#include "tracecompare.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"

#include "scenariofile.h"
#include "simulator.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QMenu>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

namespace {

// Where two serializations first differ: "line 12: "at": 5, / "at": 6,".
QString firstDifference(const QByteArray &a, const QByteArray &b)
{
    const QList<QByteArray> x = a.split('\n'), y = b.split('\n');
    for (qsizetype i = 0; i < std::max(x.size(), y.size()); ++i) {
        const QByteArray l = i < x.size() ? x[i].trimmed() : QByteArray("(end)");
        const QByteArray r = i < y.size() ? y[i].trimmed() : QByteArray("(end)");
        if (l != r)
            return QStringLiteral("line %1: expected %2, found %3")
                .arg(i + 1)
                .arg(QString::fromUtf8(l), QString::fromUtf8(r));
    }
    return QStringLiteral("(no line differs)");
}

} // namespace

QByteArray Monkey::bytes() const
{
    return Core::ScenarioFile::serialize(m_doc->scenario());
}

void Monkey::log(const QString &what)
{
    const QString line = QStringLiteral("%1: %2").arg(m_step).arg(what);
    if (m_logAll)
        qInfo("%s", qPrintable(line));
    m_recent << line;
    if (m_recent.size() > 40)
        m_recent.removeFirst();
}

void Monkey::fail(const QString &what)
{
    if (failed())
        return; // the first failure is the one to replay
    m_failure = QStringLiteral("monkey seed %1, step %2: %3\n"
                               "replay: FENCESCOPE_MONKEY_SEED=%1 FENCESCOPE_MONKEY_STEPS=%2 "
                               "FENCESCOPE_MONKEY_LOG=1\nthe last actions:\n  %4")
                    .arg(m_seed)
                    .arg(m_step)
                    .arg(what, m_recent.join(QStringLiteral("\n  ")));
    qWarning("%s", qPrintable(m_failure));
}

void Monkey::beginStep()
{
    m_before = bytes();
    m_countBefore = m_undo->count();
    m_minIndex = m_undo->index();
    m_indexMoved = false;
    m_opening = false;
    const LessonSession *lesson = m_window->lessons()->session();
    m_lessonBefore = lesson;
    m_sceneBefore = lesson ? lesson->scene() : -1;
}

void Monkey::beforeOpening()
{
    checkHistory("before opening another scenario");
    beginStep();
    m_opening = true;
}

void Monkey::endStep()
{
    if (failed())
        return;
    const int index = m_undo->index();
    const int count = m_undo->count();
    const QByteArray now = bytes();
    // a history that had steps and has none now was cleared; one that had none and has none
    // still, with the scenario changed, was either opened anew or changed without an undo step.
    // But an edit merged into the only step so that it undoes it (a nudge left, then right)
    // leaves that step obsolete, and QUndoStack drops it: the scenario is the one opened then.
    const bool mergedAway = count == 0 && m_countBefore == 1 && now == m_opened;
    const bool cleared = count == 0 && !mergedAway && (m_countBefore > 0 || now != m_before);
    if (cleared) {
        // a new history: only what opens a scenario may start one (a lesson's step, key, button
        // or menu entry that goes to another scene opens that scene's)
        const LessonSession *lesson = m_window->lessons()->session();
        const bool sceneOpened =
            lesson && (lesson != m_lessonBefore || lesson->scene() != m_sceneBefore);
        if (!m_opening && !sceneOpened) {
            fail(m_countBefore > 0
                     ? QStringLiteral("the undo history was cleared by an action that opens "
                                      "nothing")
                     : QStringLiteral("the scenario changed without an undo step: %1")
                           .arg(firstDifference(m_before, now)));
            return;
        }
        m_opened = now;
        m_states.assign(1, now);
        return;
    }
    if (!m_indexMoved && now != m_before) {
        fail(QStringLiteral("the scenario changed without an undo step: %1")
                 .arg(firstDifference(m_before, now)));
        return;
    }
    if (index == 0 && now != m_opened) {
        fail(QStringLiteral("at undo index 0 the scenario is not the one opened: %1")
                 .arg(firstDifference(m_opened, now)));
        return;
    }
    // the commands above the lowest index this step reached may be new: what was seen there
    // before no longer says anything (but what is seen now does)
    m_states.resize(size_t(count) + 1);
    for (int i = m_minIndex + 1; i <= count; ++i)
        m_states[size_t(i)].reset();
    m_states[size_t(index)] = now;
}

void Monkey::calmDown()
{
    QWindow *main = windowHandle();
    for (int round = 0; round < 8; ++round) {
        if (auto *popup = QApplication::activePopupWidget()) {
            popup->close();
            continue;
        }
        if (QWidget *dialog = openDialog()) {
            QTest::keyClick(dialog->windowHandle(), Qt::Key_Escape);
            continue;
        }
        if (m_window->findChild<QObject *>(QStringLiteral("quickTour"))) {
            QTest::keyClick(main, Qt::Key_Escape);
            QCoreApplication::processEvents();
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
            continue;
        }
        if (m_window->isPresenting()) {
            QTest::keyClick(main, Qt::Key_Escape);
            continue;
        }
        break;
    }
    if (QApplication::activeWindow() != m_window) {
        m_window->activateWindow();
        QCoreApplication::processEvents();
    }
}

void Monkey::checkHistory(const char *why)
{
    if (failed())
        return;
    calmDown();
    if (openDialog() || QApplication::activePopupWidget() || m_window->isPresenting()) {
        fail(QStringLiteral("Esc did not close every dialog, menu and the presentation"));
        return;
    }
    log(QStringLiteral("check the history (%1)").arg(QLatin1String(why)));
    ++m_counts[QStringLiteral("history checks")];
    auto *undo = m_window->findChild<QAction *>(QStringLiteral("undo"));
    auto *redo = m_window->findChild<QAction *>(QStringLiteral("redo"));
    const int index = m_undo->index();
    const int count = m_undo->count();
    const QByteArray current = bytes();
    m_states.resize(size_t(count) + 1);
    m_states[size_t(index)] = current;

    // Compares the scenario at `at` with what was seen there, or remembers it.
    const auto seen = [this](int at, const QString &how) {
        const QByteArray now = bytes();
        if (m_undo->index() != at) {
            fail(QStringLiteral("%1 left the undo index at %2, not %3").arg(how).arg(m_undo->index()).arg(at));
            return false;
        }
        std::optional<QByteArray> &known = m_states[size_t(at)];
        if (known && *known != now) {
            fail(QStringLiteral("%1 to index %2 gives another scenario than was seen there: %3")
                     .arg(how)
                     .arg(at)
                     .arg(firstDifference(*known, now)));
            return false;
        }
        known = now;
        return true;
    };

    for (int i = index; i > 0; --i) {
        undo->trigger();
        turn();
        if (!seen(i - 1, QStringLiteral("Edit > Undo")))
            return;
    }
    if (bytes() != m_opened) {
        fail(QStringLiteral("undoing everything does not give back the scenario as opened: %1")
                 .arg(firstDifference(m_opened, bytes())));
        return;
    }
    for (int i = 0; i < count; ++i) {
        redo->trigger();
        turn();
        if (!seen(i + 1, QStringLiteral("Edit > Redo")))
            return;
    }
    if (index == count && bytes() != current) {
        fail(QStringLiteral("redoing everything does not give the last scenario: %1")
                 .arg(firstDifference(current, bytes())));
        return;
    }
    for (int i = count; i > index; --i) {
        undo->trigger();
        turn();
        if (!seen(i - 1, QStringLiteral("Edit > Undo")))
            return;
    }
    if (bytes() != current) {
        fail(QStringLiteral("after the check the scenario is not the one before it: %1")
                 .arg(firstDifference(current, bytes())));
        return;
    }

    // what the views draw is the run of that scenario, as a fresh simulation has it
    m_doc->settle();
    const Core::Scenario &s = m_doc->scenario();
    QString why2;
    if (!TestSupport::sameTrace(m_doc->trace(), Core::simulate(s), &why2))
        fail(QStringLiteral("the document's trace differs from a fresh run: %1").arg(why2));
    else if (!TestSupport::sameTrace(m_doc->traceFor(!s.fencing), Core::simulate(s, !s.fencing), &why2))
        fail(QStringLiteral("the document's other-fencing trace differs from a fresh run: %1").arg(why2));
}

void Monkey::finalCheck(int steps)
{
    m_step = steps + 1;
    checkHistory("at the end");
    if (failed())
        return;
    // a long run that never dragged some kind of element has stopped finding it: weaker than
    // it claims to be
    if (steps < 5000)
        return;
    QStringList missing;
    for (const Hit::Part part :
         {Hit::PauseBody, Hit::PauseStart, Hit::PauseEnd, Hit::LeaseEnd, Hit::AcquireMarker,
          Hit::WriteMarker, Hit::DelayHead, Hit::ReleaseMarker, Hit::CheckSend})
        if (m_dragged[part] == 0)
            missing << QString::number(int(part));
    if (!missing.isEmpty())
        fail(QStringLiteral("%1 steps never dragged the parts %2 (TimelineRenderer::Hit::Part)")
                 .arg(steps)
                 .arg(missing.join(QStringLiteral(", "))));
}

QString Monkey::summary() const
{
    QStringList parts;
    for (const auto &[what, n] : m_counts)
        parts << QStringLiteral("%1 %2").arg(what).arg(n);
    QStringList drags;
    for (const auto &[part, n] : m_dragged)
        drags << QStringLiteral("%1:%2").arg(int(part)).arg(n);
    return QStringLiteral("monkey: %1; drags by Hit::Part %2")
        .arg(parts.join(QStringLiteral(", ")), drags.join(u' '));
}
