#include "window/exportcontroller.h"

#include "document/document.h"
#include "timelinerenderer.h"
#include "views/animationdialog.h"
#include "views/exportdialog.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/playback.h"

#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QSettings>

ExportController::ExportController(Parts parts, Hooks hooks, QObject *parent)
    : QObject(parent), m_parts(parts), m_hooks(std::move(hooks))
{
    // the last export's "explain the selected outcome" choice, also after a restart
    QSettings settings;
    settings.beginGroup(ExportDialog::settingsGroup());
    m_explain = settings.value(QStringLiteral("explain"), true).toBool();
}

ExportOptions ExportController::options() const
{
    ExportOptions o;
    if (m_last)
        o = *m_last;
    else
        o.compare = m_parts.state->compare();
    // what is selected now is what gets explained, unless the last export left it out
    o.explain = m_explain ? m_parts.state->selection() : Selection{};
    if (o.fromTick) {
        // "the visible range" means what is on screen now
        if (const auto range = visibleTickRange()) {
            o.fromTick = range->first;
            o.toTick = range->second;
        }
    }
    return o;
}

std::optional<std::pair<double, double>> ExportController::visibleTickRange() const
{
    const TimelineView *view = m_parts.view;
    const double plot = view->width() - TimelineRenderer::headerWidth(view->options());
    if (plot < 10)
        return std::nullopt;
    const double first = m_parts.state->firstTick();
    return std::pair{first, first + plot / m_parts.state->pixelsPerTick()};
}

QString ExportController::pathGuess(const QString &suffix) const
{
    const QString path = m_parts.doc->filePath();
    const QString dir =
        path.isEmpty() ? ExportDialog::defaultFolder() : QFileInfo(path).absolutePath();
    const QString base =
        path.isEmpty() ? QStringLiteral("fencescope") : QFileInfo(path).completeBaseName();
    return QDir(dir).filePath(suffix.isEmpty() ? base + QStringLiteral("-storyboard")
                                               : base + QLatin1Char('.') + suffix);
}

void ExportController::exportPicture()
{
    m_parts.playback->pause();
    m_parts.doc->settle(); // the dialog draws the whole run, not a drag's partial one
    const QString path = m_picturePath.isEmpty() ? pathGuess(QStringLiteral("png")) : m_picturePath;
    ExportOptions defaults = options();
    defaults.explain = m_parts.state->selection();
    ExportDialog dialog(ExportDialog::Kind::Picture, m_parts.doc, defaults, visibleTickRange(),
                        m_hooks.theme(), path, m_parts.window);
    dialog.setExplainChecked(m_explain);
    if (!m_hooks.askExport(dialog))
        return;
    m_last = dialog.options();
    m_explain = m_last->explain.isValid() || !m_parts.state->selection().isValid();
    m_picturePath = dialog.path();
    // the dialog wrote the file when Export was pressed (a failure kept it open)
    m_hooks.showStatus(tr("Exported %1").arg(QDir::toNativeSeparators(dialog.path())), 6000);
}

void ExportController::exportStoryboard()
{
    m_parts.playback->pause();
    m_parts.doc->settle(); // the dialog draws the whole run, not a drag's partial one
    const QString path = m_storyboardPath.isEmpty() ? pathGuess(QString()) : m_storyboardPath;
    ExportDialog dialog(ExportDialog::Kind::Storyboard, m_parts.doc, options(), visibleTickRange(),
                        m_hooks.theme(), path, m_parts.window);
    if (!m_hooks.askExport(dialog))
        return;
    m_storyboardPath = dialog.path();
    QString error;
    const std::vector<Core::Tick> ticks = dialog.frameTicks(&error);
    QStringList written;
    if (error.isEmpty())
        error = Exporter::exportStoryboard(dialog.path(), m_parts.doc->scenario(),
                                           exportRunsOf(*m_parts.doc, dialog.options()),
                                           dialog.options(), ticks, &written);
    if (!error.isEmpty()) {
        m_hooks.reportError(tr("Cannot export storyboard"), error);
        return;
    }
    m_hooks.showStatus((ticks.size() == 1 ? tr("Wrote 1 frame to %1")
                                          : tr("Wrote %1 frames to %2").arg(ticks.size()))
                           .arg(QDir::toNativeSeparators(dialog.path())),
                       6000);
}

void ExportController::exportAnimation()
{
    m_parts.playback->pause();
    const QString path =
        m_animationPath.isEmpty() ? pathGuess(QStringLiteral("gif")) : m_animationPath;
    AnimationOptions defaults;
    if (m_lastAnimation) {
        defaults = *m_lastAnimation;
    } else {
        // the view's compare mode; the picture's other choices, at an animation's width
        defaults.picture = options();
        defaults.picture.width = AnimationLimits::kDefaultWidth;
        defaults.picture.scale = 1;
    }
    if (defaults.picture.fromTick) {
        if (const auto range = visibleTickRange()) {
            defaults.picture.fromTick = range->first;
            defaults.picture.toTick = range->second;
        }
    }
    AnimationDialog dialog(m_parts.doc, defaults, visibleTickRange(), m_hooks.theme(), path,
                           m_parts.window);
    if (const Core::Lesson *lesson = m_hooks.lesson ? m_hooks.lesson() : nullptr)
        dialog.setLesson(*lesson);
    if (!m_hooks.askAnimation(dialog))
        return;
    m_lastAnimation = dialog.options();
    m_animationPath = dialog.path();
    m_hooks.showStatus(tr("Exported %1").arg(QDir::toNativeSeparators(dialog.path())), 6000);
}

QImage ExportController::copyAsImage()
{
    m_parts.doc->settle(); // the whole run, not a drag's partial one
    const ExportOptions o = options();
    QImage image =
        Exporter::renderImage(m_parts.doc->scenario(), exportRunsOf(*m_parts.doc, o), o);
    if (image.isNull()) {
        m_hooks.reportError(tr("Cannot copy picture"),
                            tr("The picture could not be drawn (too large?)."));
        return image;
    }
    QGuiApplication::clipboard()->setImage(image);
    m_hooks.showStatus(tr("Copied a %1 × %2 picture").arg(image.width()).arg(image.height()), 4000);
    return image;
}
