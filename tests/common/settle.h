// The window as a person sees it a moment after a key: every queued fit and layout run.
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QRect>
#include <QWidget>

namespace TestSupport {

// Presentation fits the window from the event loop (a queued fit when the poll's box changes
// shape, then the layout requests and scroll bars that follow). Such a chain has no fixed
// length; a slower build (the sanitizers) runs it over more passes. This runs the loop until
// the geometry of every widget under `top` stays the same over three passes in a row.
inline void settle(QWidget *top)
{
    const auto shape = [top] {
        QList<QRect> all{top->geometry()};
        for (const QWidget *w : top->findChildren<QWidget *>())
            all << (w->isVisible() ? w->geometry() : QRect());
        return all;
    };
    QList<QRect> before = shape();
    int same = 0;
    for (int pass = 0; pass < 200 && same < 3; ++pass) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        const QList<QRect> now = shape();
        same = now == before ? same + 1 : 0;
        before = now;
    }
}

} // namespace TestSupport
