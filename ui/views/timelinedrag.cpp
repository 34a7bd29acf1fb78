#include "views/timelinedrag.h"

#include "document/document.h"
#include "document/editcommands.h"

#include "lockfacts.h"

#include <QUndoStack>

#include <algorithm>
#include <cmath>

using Hit = TimelineRenderer::Hit;

TimelineDrag::TimelineDrag(Document *doc) : m_doc(doc) {}

Core::Tick TimelineDrag::shifted(Core::Tick value, qint64 delta, Core::Tick min)
{
    if (delta < 0) {
        const Core::Tick d = Core::Tick(-delta);
        return value >= min + d ? value - d : min;
    }
    return std::max(min, std::min(value + Core::Tick(delta), Core::kMaxFileInteger));
}

bool TimelineDrag::begin(const Hit &hit, QPointF pos, const Core::Trace &trace)
{
    *this = TimelineDrag(m_doc);
    m_pressPos = pos;
    m_lastPos = pos;
    if (!hit.isDraggable() || hit.client < 0 || hit.action < 0)
        return false;
    m_active = true;
    m_hit = hit;
    m_before = m_doc->scenario().clients[size_t(hit.client)].actions[size_t(hit.action)];
    if (hit.part == Hit::LeaseEnd)
        if (const Core::Grant *g = Core::lastGrantOfAcquire(trace, std::uint32_t(hit.client),
                                                            std::uint32_t(hit.action)))
            m_leaseEnd = g->expires;
    return true;
}

Core::Action TimelineDrag::draggedAction(QPointF pos, double pixelsPerTick) const
{
    // whole ticks only: the drag moves by a whole number of ticks from where it was grabbed
    const qint64 delta = qint64(std::llround((pos.x() - m_pressPos.x()) / pixelsPerTick));
    Core::Action a = m_before;
    switch (m_hit.part) {
    case Hit::PauseBody:
    case Hit::AcquireMarker:
    case Hit::WriteMarker:
    case Hit::ReleaseMarker:
        a.at = shifted(a.at, delta, 0);
        break;
    case Hit::PauseStart: {
        // the end stays put; at least one tick of pause remains
        const Core::Tick end = a.at + a.amount;
        a.at = std::min(shifted(a.at, delta, 0), end - 1);
        a.amount = end - a.at;
        break;
    }
    case Hit::PauseEnd:
    case Hit::LeaseEnd:
        a.amount = shifted(a.amount, delta, 1); // pause length and ttl stay >= 1
        break;
    case Hit::DelayHead:
        a.amount = shifted(a.amount, delta, 0);
        break;
    case Hit::CheckSend:
        // the check stays where it is; the send moves (a pause inside the gap is the pitfall)
        a.setGap(shifted(a.gap(), delta, 0));
        break;
    default:
        break;
    }
    return a;
}

QString TimelineDrag::labelFor(const Core::Action &a) const
{
    switch (m_hit.part) {
    case Hit::PauseBody:
        return tr("pause %1 → %2").arg(a.at).arg(a.at + a.amount);
    case Hit::PauseStart:
        return tr("starts at %1 (%2 ticks)").arg(a.at).arg(a.amount);
    case Hit::PauseEnd:
        return tr("ends at %1 (%2 ticks)").arg(a.at + a.amount).arg(a.amount);
    case Hit::LeaseEnd:
        return tr("ttl %1: expires at %2")
            .arg(a.amount)
            .arg(m_leaseEnd - m_before.amount + a.amount);
    case Hit::DelayHead:
        return tr("delay %1").arg(a.amount);
    case Hit::CheckSend:
        return tr("gap %1").arg(a.gap());
    default:
        return tr("at %1").arg(a.at);
    }
}

void TimelineDrag::move(QPointF pos, double pixelsPerTick, Core::Tick previewThrough)
{
    if (!m_active)
        return;
    m_lastPos = pos;
    if (!m_moved && std::abs(pos.x() - m_pressPos.x()) < 3 &&
        std::abs(pos.y() - m_pressPos.y()) < 3)
        return;
    m_moved = true;
    const Core::Action a = draggedAction(pos, pixelsPerTick);
    m_label = labelFor(a);
    const int c = m_hit.client;
    const int i = m_hit.action;
    const Core::Action &current = m_doc->scenario().clients[size_t(c)].actions[size_t(i)];
    if (current != a)
        m_doc->setAction(c, i, a, previewThrough);
}

QString TimelineDrag::undoText() const
{
    switch (m_hit.part) {
    case Hit::PauseBody:
        return tr("Move pause");
    case Hit::PauseStart:
    case Hit::PauseEnd:
        return tr("Resize pause");
    case Hit::LeaseEnd:
        return tr("Change lease ttl");
    case Hit::AcquireMarker:
        return tr("Move acquire");
    case Hit::WriteMarker:
        // a read's marker is found like a write's
        return m_before.kind == Core::ActionKind::Read ? tr("Move read") : tr("Move write");
    case Hit::DelayHead:
        return tr("Change network delay");
    case Hit::ReleaseMarker:
        return tr("Move release");
    case Hit::CheckSend:
        return tr("Change gap");
    default:
        return {};
    }
}

void TimelineDrag::finish()
{
    if (!m_active)
        return;
    const int c = m_hit.client;
    const int i = m_hit.action;
    const Core::Action after = m_doc->scenario().clients[size_t(c)].actions[size_t(i)];
    const Core::Action before = m_before;
    const QString text = undoText();
    *this = TimelineDrag(m_doc);
    if (after != before)
        m_doc->undoStack()->push(new EditCommands::FinishedDrag(m_doc, c, i, before, after, text));
    m_doc->endPreview();
}

void TimelineDrag::cancel()
{
    if (!m_active)
        return;
    const int c = m_hit.client;
    const int i = m_hit.action;
    const Core::Action before = m_before;
    *this = TimelineDrag(m_doc);
    if (m_doc->scenario().clients[size_t(c)].actions[size_t(i)] != before)
        m_doc->setAction(c, i, before);
    // (dragged back to where it was, nothing is set again: the preview still ends here)
    m_doc->endPreview();
}
