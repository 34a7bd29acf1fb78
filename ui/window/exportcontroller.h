#pragma once

// File > Export picture, Export storyboard, Export animation and Copy as image: the options the
// window hands the exporter, the dialogs that ask for them, and what the last export chose (kept
// for the next).
//
// The options start from the last export's, else from the view (compare mode, the selection
// explained) on the print theme; "the visible range" always means what is on screen now.
// Dialogs are shown through Hooks::askExport and askAnimation, so tests can answer them without
// a modal loop.

#include "animation.h"
#include "exporter.h"
#include "theme.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <utility>

class AnimationDialog;
class Document;
class ExportDialog;
class Playback;
class TimelineView;
class ViewState;
class QImage;
class QWidget;

class ExportController : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        QWidget *window = nullptr; // the dialogs' parent
        Document *doc = nullptr;
        ViewState *state = nullptr;
        Playback *playback = nullptr;
        TimelineView *view = nullptr;
    };
    struct Hooks
    {
        std::function<Theme()> theme;                                      // the window's
        std::function<bool(ExportDialog &)> askExport;                     // true: Export pressed
        std::function<bool(AnimationDialog &)> askAnimation;               // true: file written
        std::function<void(const QString &, const QString &)> reportError; // title, message
        std::function<void(const QString &, int)> showStatus;              // text, milliseconds
        std::function<const Core::Lesson *()> lesson; // the open lesson, or null
    };

    ExportController(Parts parts, Hooks hooks, QObject *parent = nullptr);

    // The options the dialogs start from (see the top of this file).
    ExportOptions options() const;
    // The tick range on screen; nullopt before the timeline has a width.
    std::optional<std::pair<double, double>> visibleTickRange() const;

    void exportPicture();
    void exportStoryboard();
    // The run as an animated GIF or a video (the dialog writes it, with progress and Cancel).
    void exportAnimation();
    // Renders the picture with the current options onto the clipboard.
    QImage copyAsImage();

private:
    // Next to the open file; an untitled or built-in scenario exports to the Pictures folder.
    // An empty suffix: the storyboard's folder.
    QString pathGuess(const QString &suffix) const;

    Parts m_parts;
    Hooks m_hooks;
    std::optional<ExportOptions> m_last; // the last export's options
    bool m_explain = true;               // explain the selected outcome (unless unticked last time)
    QString m_picturePath;
    QString m_storyboardPath;
    QString m_animationPath;
    std::optional<AnimationOptions> m_lastAnimation; // the last animation's options
};
