#include "document/changethrottle.h"

#include "document/document.h"

#include <QTimer>

ChangeThrottle::ChangeThrottle(Document *doc, QObject *parent, std::function<void()> refresh,
                               int interval)
    : QObject(parent), m_doc(doc), m_refresh(std::move(refresh)), m_timer(new QTimer(this)),
      m_interval(interval)
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_pending && m_doc->trace().complete())
            refreshNow();
    });
    connect(doc, &Document::changed, this, &ChangeThrottle::documentChanged);
}

void ChangeThrottle::documentChanged()
{
    m_pending = true;
    if (!m_doc->trace().complete())
        return; // the document emits changed() again when the run is complete
    if (!m_doc->isPreviewing()) {
        m_timer->stop();
        refreshNow();
        return;
    }
    // A view that took longer than a few ms last time would make the drag stutter on every
    // refresh (a chart of a million writes): it catches up when the drag ends.
    if (m_cost > kPreviewBudgetNs)
        return;
    const qint64 left = m_since.isValid() ? m_interval - m_since.elapsed() : 0;
    if (left <= 0) {
        m_timer->stop();
        refreshNow();
    } else if (!m_timer->isActive()) {
        m_timer->start(int(left));
    }
}

void ChangeThrottle::refreshNow()
{
    m_pending = false;
    m_since.restart();
    m_refresh();
    m_cost = m_since.nsecsElapsed();
}
