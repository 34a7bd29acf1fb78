#include "window/statereport.h"

#include "document/document.h"
#include "document/lessonsession.h"
#include "savefile.h"
#include "timelinelayout.h"
#include "views/lessonstage.h"
#include "views/presentationpanel.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTimer>
#include <QUndoStack>

StateReport::StateReport(MainWindow *window, const QString &path)
    : QObject(window), m_window(window), m_path(path)
{
    // polled, not wired to every signal: it must see exactly what a person would see, late
    // repaints and restored layouts included
    m_poll = new QTimer(this);
    m_poll->setInterval(50);
    connect(m_poll, &QTimer::timeout, this, &StateReport::write);
    m_poll->start();
}

QByteArray StateReport::describe(const MainWindow &w)
{
    const Document *doc = w.document();
    const ViewState *state = w.viewState();
    const Core::Summary &m = doc->trace().summary;
    QJsonObject o;
    o[QStringLiteral("title")] = w.windowTitle();
    o[QStringLiteral("fencing")] = doc->scenario().fencing;
    o[QStringLiteral("compare")] = state->compare();
    o[QStringLiteral("presenting")] = w.isPresenting();
    o[QStringLiteral("presentationStep")] = int(w.presentationPanel()->step());
    // a lesson: the scene (from 1; 0: none), where it stands, the first vote's hands, the
    // option the stage marks as holding (A-E; empty before the reveal)
    const LessonSession *lesson = w.lessons()->session();
    o[QStringLiteral("lessonScene")] = lesson ? lesson->scene() + 1 : 0;
    static const char *const stages[] = {"none",      "opening", "step", "question",
                                         "revealing", "answer",  "end"};
    o[QStringLiteral("lessonStage")] = QLatin1String(stages[int(w.lessons()->stage())]);
    QStringList hands;
    QString marked;
    for (int i = 0; lesson && i < LessonSession::kOptions; ++i) {
        hands << QString::number(lesson->currentAnswer().hands[0][std::size_t(i)]);
        if (w.lessonStage()->mark(i) == QStringLiteral("✓"))
            marked = QChar(u'A' + i);
    }
    o[QStringLiteral("lessonHands")] = hands.join(u' ');
    o[QStringLiteral("lessonMarked")] = marked;
    o[QStringLiteral("playhead")] = state->hasPlayhead() ? double(state->playhead()) : -1.0;
    // presentation's sentence: all of it shows (its label is as tall as its wrapped text)
    if (auto *sentence = w.presentationPanel()->findChild<QLabel *>(QStringLiteral("presentationText")))
        o[QStringLiteral("sentenceWhole")] =
            !sentence->isVisible() || sentence->heightForWidth(sentence->width()) <= sentence->height();
    o[QStringLiteral("windowSize")] =
        QStringLiteral("%1x%2").arg(w.frameGeometry().width()).arg(w.frameGeometry().height());
    o[QStringLiteral("undoIndex")] = doc->undoStack()->index();
    o[QStringLiteral("modified")] = doc->isModified();
    o[QStringLiteral("accepted")] = double(m.accepted);
    o[QStringLiteral("rejected")] = double(m.rejected);
    o[QStringLiteral("corrupted")] = double(m.corrupted);
    o[QStringLiteral("lockedOut")] = double(m.lockedOut);
    const auto &clients = doc->scenario().clients;
    if (!clients.empty() && clients[0].actions.size() > 1)
        o[QStringLiteral("clientAPauseLength")] = double(clients[0].actions[1].length());
    // where client A's pause row is on the screen, at ticks 0..horizon
    if (auto *view = qobject_cast<TimelineView *>(w.timeline()); view && view->isVisible()) {
        const TimelineLayout l = view->currentLayout();
        if (!l.panels.empty() && !l.panels[0].clients.empty()) {
            const double y = l.panels[0].clients[0].pauses.center().y();
            QJsonArray xs;
            for (Core::Tick t = 0; t <= doc->trace().horizon; ++t)
                xs.append(view->mapToGlobal(QPointF(view->axis().tickToX(double(t)), y)).x());
            const QRect shown = view->visibleRegion().boundingRect();
            const QPoint origin = view->mapToGlobal(shown.topLeft());
            o[QStringLiteral("timelineRect")] = QStringLiteral("%1x%2+%3+%4")
                                                    .arg(shown.width())
                                                    .arg(shown.height())
                                                    .arg(origin.x())
                                                    .arg(origin.y());
            o[QStringLiteral("pauseRowY")] = view->mapToGlobal(QPointF(0, y)).y();
            o[QStringLiteral("tickX")] = xs;
        }
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

void StateReport::write()
{
    const QByteArray now = describe(*m_window);
    if (now == m_last)
        return;
    if (!Core::saveWhole(m_path, now + '\n'))
        m_last = now;
}
