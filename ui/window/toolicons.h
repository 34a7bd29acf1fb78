#pragma once

// The window's toolbar and playback icons, drawn in the theme's own text colour so they read on
// every theme (the style's stock icons are dark grey, nearly invisible on the dark theme).

#include <QColor>
#include <QIcon>

namespace ToolIcons {

enum class Kind { Open, Save, Undo, Redo, Play, Pause, Previous, Next, ZoomIn, ZoomOut, Fit, Present };

// `color` for the normal state, `disabled` for a disabled action.
QIcon make(Kind kind, const QColor &color, const QColor &disabled);

} // namespace ToolIcons
