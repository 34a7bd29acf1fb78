// MainWindow, part: export. The options the window passes to the exporter, the export and
// storyboard dialogs, and copy as image.

#include "mainwindow.h"

#include "document.h"
#include "exportdialog.h"
#include "playback.h"
#include "timelinerenderer.h"
#include "timelineview.h"
#include "viewstate.h"

#include "explain.h"

#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QScreen>
#include <QStatusBar>

#include <algorithm>

// ---------------------------------------------------------------------------------------------
// Export

ExportOptions MainWindow::exportOptions() const
{
    ExportOptions o;
    if (m_exportOptions)
        o = *m_exportOptions;
    else
        o.compare = m_state->compare();
    // what is selected now is what gets explained, unless the last export left it out
    o.explain = m_explainInExport ? m_state->selection() : Selection{};
    if (o.fromTick) {
        // "the visible range" means what is on screen now
        if (const auto range = visibleTickRange()) {
            o.fromTick = range->first;
            o.toTick = range->second;
        }
    }
    return o;
}

std::optional<std::pair<double, double>> MainWindow::visibleTickRange() const
{
    auto *view = qobject_cast<TimelineView *>(m_timeline);
    if (!view)
        return std::nullopt;
    const double plot = view->width() - TimelineRenderer::headerWidth(view->options());
    if (plot < 10)
        return std::nullopt;
    const double first = m_state->firstTick();
    return std::pair{first, first + plot / m_state->pixelsPerTick()};
}

QString MainWindow::exportPathGuess(const QString &suffix) const
{
    const QString path = m_doc->filePath();
    // next to the open file; an untitled or built-in scenario exports to the desktop's Pictures
    const QString dir =
        path.isEmpty() ? ExportDialog::defaultFolder() : QFileInfo(path).absolutePath();
    const QString base =
        path.isEmpty() ? QStringLiteral("fencescope") : QFileInfo(path).completeBaseName();
    return QDir(dir).filePath(suffix.isEmpty() ? base + QStringLiteral("-storyboard")
                                               : base + QLatin1Char('.') + suffix);
}

void MainWindow::exportWithDialog()
{
    m_playback->pause();
    const QString path =
        m_exportPath.isEmpty() ? exportPathGuess(QStringLiteral("png")) : m_exportPath;
    ExportOptions defaults = exportOptions();
    defaults.explain = m_state->selection();
    ExportDialog dialog(ExportDialog::Kind::Picture, m_doc, defaults, visibleTickRange(), m_theme,
                        path, this);
    dialog.setExplainChecked(m_explainInExport);
    if (!askExport(dialog))
        return;
    m_exportOptions = dialog.options();
    m_explainInExport = m_exportOptions->explain.isValid() || !m_state->selection().isValid();
    m_exportPath = dialog.path();
    // the dialog wrote the file when Export was pressed (a failure kept it open)
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(dialog.path())), 6000);
}

void MainWindow::exportStoryboardWithDialog()
{
    m_playback->pause();
    const QString path = m_storyboardPath.isEmpty() ? exportPathGuess(QString()) : m_storyboardPath;
    ExportDialog dialog(ExportDialog::Kind::Storyboard, m_doc, exportOptions(), visibleTickRange(),
                        m_theme, path, this);
    if (!askExport(dialog))
        return;
    m_storyboardPath = dialog.path();
    QString error;
    const std::vector<Core::Tick> ticks = dialog.frameTicks(&error);
    QStringList written;
    if (error.isEmpty())
        error = Exporter::exportStoryboard(dialog.path(), m_doc->scenario(), dialog.options(),
                                           ticks, &written);
    if (!error.isEmpty()) {
        reportError(tr("Cannot export storyboard"), error);
        return;
    }
    statusBar()->showMessage(tr("Wrote %n frame(s) to %1", nullptr, int(ticks.size()))
                                 .arg(QDir::toNativeSeparators(dialog.path())),
                             6000);
}

QImage MainWindow::copyAsImage()
{
    const QImage image = Exporter::renderImage(m_doc->scenario(), exportOptions());
    if (image.isNull()) {
        reportError(tr("Cannot copy picture"), tr("The picture could not be drawn (too large?)."));
        return image;
    }
    QGuiApplication::clipboard()->setImage(image);
    statusBar()->showMessage(tr("Copied a %1 × %2 picture").arg(image.width()).arg(image.height()),
                             4000);
    return image;
}

bool MainWindow::askExport(ExportDialog &dialog)
{
    if (!m_interactive)
        return m_exportHandler && m_exportHandler(dialog);
    return dialog.exec() == QDialog::Accepted;
}
