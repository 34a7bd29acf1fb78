#pragma once

// What the panel tests share (the sweep panel's, the find-and-shrink panel's): a click on a
// panel's part by its name, through the window as a person clicks, and a signal that may have
// come already.

#include "windowparts.h"

#include <QCheckBox>
#include <QPoint>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>

// A click in the middle of a child, or for a check box on its box.
inline void click(QWidget *panel, const char *name)
{
    QWidget *w = part<QWidget>(*panel, name);
    const QPoint at =
        qobject_cast<QCheckBox *>(w) ? QPoint(8, w->height() / 2) : w->rect().center();
    QTest::mouseClick(panel->windowHandle(), Qt::LeftButton, {}, w->mapTo(panel, at));
}

// A small sweep can end while the click that started it is still being delivered: then the
// signal is already in the spy, and QSignalSpy::wait would wait for a second one.
inline bool arrived(QSignalSpy &spy, int ms)
{
    return !spy.isEmpty() || spy.wait(ms);
}
