#pragma once

// What the animation tests share: small options that write quickly, where two pictures differ,
// the files a folder holds.

#include "animation.h"

#include <QDir>
#include <QImage>
#include <QRect>
#include <QStringList>

// Small and short, so that three formats are written and read in a few seconds.
inline AnimationOptions smallOptions()
{
    AnimationOptions o;
    o.picture.width = 640;
    o.fps = 10;
    o.stepSeconds = 1;
    return o;
}

// The rows where two pictures differ below `top` (the steps' captions, under the legend).
inline QRect differingBelow(const QImage &a, const QImage &b, int top)
{
    QRect r;
    for (int y = top; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (a.pixel(x, y) != b.pixel(x, y)) {
                r |= QRect(0, y, a.width(), 1);
                break;
            }
    return r;
}

inline QStringList filesIn(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
}
