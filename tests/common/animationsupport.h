#pragma once

// What the animation tests share: small options that write quickly, where two pictures differ,
// the files a folder holds, a row per format, the old file a failed export must keep.

#include "animation.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QRect>
#include <QStringList>
#include <QTest>

// Small and short, so that three formats are written and read in a few seconds.
inline AnimationOptions smallOptions()
{
    AnimationOptions o;
    o.picture.width = 640;
    o.fps = 10;
    o.stepSeconds = 1;
    return o;
}

// Smaller still, for the tests that look at the files a write leaves, not at its pictures.
inline AnimationOptions tinyOptions()
{
    AnimationOptions o = smallOptions();
    o.picture.width = 320;
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

// One row per format the writers know, in a column "name": a.gif, a.mp4, a.webm.
inline void addFormatRows()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("gif") << QStringLiteral("a.gif");
    QTest::newRow("mp4") << QStringLiteral("a.mp4");
    QTest::newRow("webm") << QStringLiteral("a.webm");
}

// What an export found at its target before it began: a failed one leaves it so.
inline QByteArray oldAnimation()
{
    return QByteArrayLiteral("old animation");
}

inline bool writeOldAnimation(const QString &path)
{
    QFile old(path);
    return old.open(QIODevice::WriteOnly) && old.write(oldAnimation()) == oldAnimation().size();
}

inline QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
