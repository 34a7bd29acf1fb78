#pragma once

// Paces a view that needs the whole trace (chart, event log, story panels): it refreshes on
// every document change, except that partial traces are skipped (the change that completes
// them follows) and, while a drag previews its edit, it refreshes at most every `interval`
// milliseconds, so the timeline alone decides how fast a drag step is; a view whose last refresh
// took more than a few milliseconds waits for the drag's end. The last change of a drag is never
// lost: a pending refresh runs when the interval is over or the drag ends.

#include <QElapsedTimer>
#include <QObject>

#include <functional>

class Document;
class QTimer;

class ChangeThrottle : public QObject
{
    Q_OBJECT
public:
    ChangeThrottle(Document *doc, QObject *parent, std::function<void()> refresh,
                   int interval = 100);

    bool isPending() const { return m_pending; }

    // What one refresh may cost for a view to follow a drag while it is in progress.
    static constexpr qint64 kPreviewBudgetNs = 5'000'000;

private:
    void documentChanged();
    void refreshNow();

    Document *m_doc;
    std::function<void()> m_refresh;
    QTimer *m_timer;
    QElapsedTimer m_since; // since the last refresh
    int m_interval;
    qint64 m_cost = 0; // how long the last refresh took, ns
    bool m_pending = false;
};
