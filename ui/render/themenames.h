#pragma once

// The names of the built-in themes, in QtCore alone: fencescope-cli lists and checks them
// (--theme) without loading QtGui, which only its picture helper loads (app/CMakeLists.txt).
// Theme::byName() gives the theme of each.

#include <QString>
#include <QStringList>

inline QStringList themeNames()
{
    return {QStringLiteral("light"), QStringLiteral("dark"), QStringLiteral("print"),
            QStringLiteral("contrast")};
}
