#pragma once

// Colours and sizes for every view and export. Outcomes use the Okabe-Ito palette, which
// stays distinct for colour-blind viewers, and every outcome also has its own marker shape,
// so nothing is told by colour alone.

#include "themenames.h"
#include "trace.h"

#include <QColor>
#include <QString>
#include <QStringList>

enum class MarkerShape { Circle, Cross, Triangle, Diamond };

struct Theme
{
    QString name;
    QColor background;
    QColor foreground;   // text, axis
    QColor muted;        // secondary text, grid
    QColor laneStripe;   // every other lane
    QColor lease;        // actual lock holding
    QColor belief;       // where a client believes it holds the lock
    QColor zombie;       // believes but does not hold: the danger
    QColor pause;
    QColor accepted;
    QColor rejected;
    QColor corrupted;
    QColor lockedOut;
    QColor refusal;
    QColor write;        // a write in flight (sent, not arrived)
    QColor maxToken;     // storage max_token step line
    QColor playhead;
    QColor selection;
    // Text in an outcome's (or the zombie's, or max_token's) colour. The Okabe-Ito fills above
    // are too light for text on a light background: these are the same hues, dark enough (or
    // light enough, on dark) for WCAG AA, 4.5:1, on the background and on a lane stripe.
    QColor acceptedText;
    QColor rejectedText;
    QColor corruptedText;
    QColor lockedOutText;
    QColor zombieText;
    QColor maxTokenText;
    double fontScale = 1.0; // presentation mode makes text larger
    double lineScale = 1.0; // and lines thicker

    // Every field: the renderer keeps a picture of the static layer per theme.
    friend bool operator==(const Theme &a, const Theme &b)
    {
        return a.name == b.name && a.background == b.background && a.foreground == b.foreground &&
               a.muted == b.muted && a.laneStripe == b.laneStripe && a.lease == b.lease &&
               a.belief == b.belief && a.zombie == b.zombie && a.pause == b.pause &&
               a.accepted == b.accepted && a.rejected == b.rejected && a.corrupted == b.corrupted &&
               a.lockedOut == b.lockedOut && a.refusal == b.refusal && a.write == b.write &&
               a.maxToken == b.maxToken && a.playhead == b.playhead && a.selection == b.selection &&
               a.acceptedText == b.acceptedText && a.rejectedText == b.rejectedText &&
               a.corruptedText == b.corruptedText && a.lockedOutText == b.lockedOutText &&
               a.zombieText == b.zombieText && a.maxTokenText == b.maxTokenText &&
               a.fontScale == b.fontScale && a.lineScale == b.lineScale;
    }
    friend bool operator!=(const Theme &a, const Theme &b) { return !(a == b); }

    QColor outcome(Core::WriteResult r) const
    {
        switch (r) {
        case Core::WriteResult::Accepted:
            return accepted;
        case Core::WriteResult::Rejected:
            return rejected;
        case Core::WriteResult::Corrupted:
            return corrupted;
        case Core::WriteResult::LockedOut:
            return lockedOut;
        }
        return foreground;
    }
    // The colour to write an outcome's words in (outcome() is for its marker).
    QColor outcomeText(Core::WriteResult r) const
    {
        switch (r) {
        case Core::WriteResult::Accepted:
            return acceptedText;
        case Core::WriteResult::Rejected:
            return rejectedText;
        case Core::WriteResult::Corrupted:
            return corruptedText;
        case Core::WriteResult::LockedOut:
            return lockedOutText;
        }
        return foreground;
    }
    static MarkerShape shape(Core::WriteResult r)
    {
        switch (r) {
        case Core::WriteResult::Accepted:
            return MarkerShape::Circle;
        case Core::WriteResult::Rejected:
            return MarkerShape::Cross;
        case Core::WriteResult::Corrupted:
            return MarkerShape::Triangle;
        case Core::WriteResult::LockedOut:
            return MarkerShape::Diamond;
        }
        return MarkerShape::Circle;
    }

    static Theme light()
    {
        Theme t;
        t.name = QStringLiteral("light");
        t.background = QColor(0xffffff);
        t.foreground = QColor(0x1a1a1a);
        t.muted = QColor(0x666666); // 0x8a8a8a read 3.4:1, below AA
        t.laneStripe = QColor(0xf3f5f8);
        t.lease = QColor(0x0072B2);     // blue
        t.belief = QColor(0x56B4E9);    // sky blue
        t.zombie = QColor(0xD55E00);    // vermillion, hatched
        t.pause = QColor(0x6b6b6b);
        t.accepted = QColor(0x009E73);  // bluish green
        t.rejected = QColor(0xE69F00);  // orange
        t.corrupted = QColor(0xD55E00); // vermillion
        t.lockedOut = QColor(0xCC79A7); // reddish purple
        t.refusal = QColor(0x6b6b6b);
        t.write = QColor(0x1a1a1a);
        t.maxToken = QColor(0x0072B2);
        t.playhead = QColor(0xc0392b);
        t.selection = QColor(0xF0E442); // yellow halo
        t.acceptedText = QColor(0x00704f);
        t.rejectedText = QColor(0x8a5a00);
        t.corruptedText = QColor(0xa84400);
        t.lockedOutText = QColor(0x9c3d7a);
        t.zombieText = t.corruptedText;
        t.maxTokenText = QColor(0x005a8c);
        return t;
    }
    static Theme dark()
    {
        Theme t = light();
        t.name = QStringLiteral("dark");
        t.background = QColor(0x1e1f22);
        t.foreground = QColor(0xe8e8e8);
        t.muted = QColor(0x8c8f94);
        t.laneStripe = QColor(0x26282c);
        t.lease = QColor(0x3d9be0);
        t.pause = QColor(0xa0a0a0);
        t.refusal = QColor(0xa0a0a0);
        t.write = QColor(0xe8e8e8);
        t.maxToken = QColor(0x56B4E9);
        t.playhead = QColor(0xff6b5b);
        // on dark the outcome hues themselves read well, once a little lighter
        t.acceptedText = QColor(0x2ec4a0);
        t.rejectedText = QColor(0xE69F00);
        t.corruptedText = QColor(0xff8c42);
        t.lockedOutText = QColor(0xe39bc3);
        t.zombieText = t.corruptedText;
        t.maxTokenText = QColor(0x56B4E9);
        return t;
    }
    // White background, black text: for printing and slides.
    static Theme print()
    {
        Theme t = light();
        t.name = QStringLiteral("print");
        t.foreground = QColor(Qt::black); // QColor(0x000000) would be ambiguous: 0 is a null pointer
        t.laneStripe = QColor(0xf6f6f6);
        t.muted = QColor(0x4d4d4d); // seen from the back of a room: secondary text stays strong
        return t;
    }
    // Lecture halls: black on white, thick lines, large text.
    static Theme highContrast()
    {
        Theme t = print();
        t.name = QStringLiteral("contrast");
        t.laneStripe = QColor(0xeeeeee);
        t.muted = QColor(0x444444);
        t.fontScale = 1.6;
        t.lineScale = 2.0;
        return t;
    }
    // The text face of every view and export: real families, best first (QFont picks the first
    // installed one), so a picture measured here names a face the viewer of an SVG also has.
    static QStringList fontFamilies()
    {
        return {QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans"),
                QStringLiteral("Liberation Sans"), QStringLiteral("Arial")};
    }
    // The same list for CSS (an SVG's font-family), ending in the generic family.
    static QString cssFontFamilies()
    {
        return fontFamilies().join(QStringLiteral(", ")) + QStringLiteral(", sans-serif");
    }
    static QStringList names() { return themeNames(); }
    // Unknown names give the light theme.
    static Theme byName(const QString &name)
    {
        if (name == QLatin1String("dark"))
            return dark();
        if (name == QLatin1String("print"))
            return print();
        if (name == QLatin1String("contrast"))
            return highContrast();
        return light();
    }
};
