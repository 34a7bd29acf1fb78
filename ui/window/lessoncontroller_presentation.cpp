// LessonController, part: presentation. A scene walked through as the room sees it: its
// positions (the opening, each story step up to the freeze, the question, the answer), the keys
// that move between them and those a question or the room's poll takes.
#include "window/lessoncontroller.h"

#include "document/comparison.h"
#include "document/lessonsession.h"
#include "views/lessonstage.h"
#include "views/presentationpanel.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/playback.h"
#include "window/roompoll.h"

#include <QKeyEvent>

#include <algorithm>

std::vector<LessonController::Position> LessonController::positions() const
{
    std::vector<Position> list{{Stage::Opening, 0}};
    const Core::LessonScene &scene = m_session->currentScene();
    const Core::LessonQuestion *q = m_session->question();
    for (const Core::Tick t : storyTicks(*m_parts.doc, *m_parts.state)) {
        if (scene.view.playhead && t <= *scene.view.playhead)
            continue; // shown at the opening already
        if ((q && t > q->freeze) || (scene.view.to && t > *scene.view.to))
            break;
        if (scene.view.from && t < *scene.view.from)
            continue;
        list.push_back({Stage::Step, t});
    }
    if (q) {
        list.push_back({Stage::Question, q->freeze});
        list.push_back({Stage::Answer, 0});
    } else {
        list.push_back({Stage::End, 0});
    }
    return list;
}

void LessonController::go(int position, bool animate)
{
    stopReveal();
    const std::vector<Position> list = positions();
    position = std::clamp(position, 0, int(list.size()) - 1);
    m_position = position;
    const Position p = list[std::size_t(position)];
    ViewState &st = *m_parts.state;
    m_parts.playback->pause();
    const Core::LessonScene &scene = m_session->currentScene();
    const auto showStage = [this](bool on) {
        m_parts.stage->setVisible(on);
        m_parts.presentationPanel->setVisible(!on);
    };
    switch (p.stage) {
    case Stage::Opening:
        if (scene.view.playhead) {
            st.setPlayheadBefore(false);
            st.setPlayhead(*scene.view.playhead);
        } else {
            // before the first step: nothing of the run shown yet
            const std::vector<Core::Tick> ticks = storyTicks(*m_parts.doc, st);
            st.setPlayheadBefore(true);
            st.setPlayhead(ticks.empty() ? 0 : ticks.front());
        }
        m_parts.stage->setMode(LessonStage::Mode::Opening);
        showStage(true);
        break;
    case Stage::Step:
        st.setPlayheadBefore(false);
        st.setPlayhead(p.tick);
        m_parts.presentationPanel->setStep(PresentationPanel::Step::AtTick);
        showStage(false);
        break;
    case Stage::Question:
        st.setPlayheadBefore(false);
        st.setPlayhead(p.tick);
        m_parts.stage->setMode(LessonStage::Mode::Question);
        showStage(true);
        break;
    case Stage::Answer:
        showStage(true);
        if (animate) {
            startReveal();
            return;
        }
        m_revealTarget = m_session->play().right() >= 0 ? m_session->play().reveal()
                                                        : m_session->question()->freeze;
        finishReveal();
        return;
    case Stage::End:
        st.setPlayheadBefore(false);
        st.clearPlayhead();
        m_parts.presentationPanel->setStep(PresentationPanel::Step::End);
        showStage(false);
        break;
    case Stage::None:
    case Stage::Revealing:
        break;
    }
    setStage(p.stage);
}

void LessonController::began()
{
    // the scene from its opening, as the normal window showed it (a student's change kept)
    stopReveal();
    applyView();
    m_parts.presentation->fit();
    go(0, false);
}

void LessonController::ended()
{
    stopReveal();
    if (m_poll)
        m_poll->stop();
    m_parts.stage->hide();
    m_parts.presentationPanel->hide();
    if (!m_session)
        return;
    applyView();
    applyNormal();
}

void LessonController::forward()
{
    if (!m_session)
        return;
    if (m_stage == Stage::Revealing) {
        finishReveal(); // the presenter is ahead of the animation
        return;
    }
    if (m_position + 1 < int(positions().size()))
        go(m_position + 1, true);
    else
        nextScene();
}

void LessonController::back()
{
    if (!m_session)
        return;
    if (m_stage == Stage::Revealing) {
        stopReveal();
        go(m_position - 1, false); // the question again
        return;
    }
    if (m_position > 0) {
        go(m_position - 1, false);
    } else if (m_session->scene() > 0) {
        m_enterAtEnd = true; // the scene before, where it ended
        previousScene();
    }
}

void LessonController::toStart()
{
    if (m_session)
        go(0, false);
}

void LessonController::toEnd()
{
    if (m_session)
        go(int(positions().size()) - 1, false);
}

PresentationWalk::KeyUse LessonController::keyUse(const QKeyEvent *event,
                                                  const QObject *receiver) const
{
    if (!m_session)
        return KeyUse::Presentation;
    const int k = event->key();
    if (m_parts.stage->isHandsField(receiver)) {
        // typing the hands: the field keeps its keys, but a clicker's and the way out
        if (k == Qt::Key_PageUp || k == Qt::Key_PageDown || k == Qt::Key_F11)
            return KeyUse::Presentation;
        if (k == Qt::Key_Escape || k == Qt::Key_Return || k == Qt::Key_Enter)
            return KeyUse::Walk;
        return KeyUse::Widget;
    }
    const bool plain =
        !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier));
    if (plain && (m_stage == Stage::Question || m_stage == Stage::Revealing) && k >= Qt::Key_A &&
        k <= Qt::Key_E) {
        const Core::LessonQuestion *q = m_session->question();
        if (q && std::size_t(k - Qt::Key_A) < q->options.size())
            return KeyUse::Walk;
    }
    if (plain && m_poll && RoomPoll::isPollKey(k))
        return KeyUse::Walk;
    return KeyUse::Presentation;
}

void LessonController::key(QKeyEvent *event)
{
    const int k = event->key();
    if (k == Qt::Key_Escape || k == Qt::Key_Return || k == Qt::Key_Enter) {
        m_parts.view->setFocus(Qt::OtherFocusReason); // counted: the keys step again
        return;
    }
    if (m_poll && RoomPoll::isPollKey(k)) {
        m_poll->key(k);
        return;
    }
    if (k >= Qt::Key_A && k <= Qt::Key_E)
        m_parts.stage->focusHands(event->modifiers() & Qt::ShiftModifier ? 1 : 0, k - Qt::Key_A);
}

int LessonController::panelHeight(int width, const Theme &theme) const
{
    return m_session ? m_parts.stage->requiredHeight(width, theme) : 0;
}
