#include "window/dialogs.h"

#include "views/animationdialog.h"
#include "views/exportdialog.h"
#include "window/aboutdialog.h"

#include "lessonfile.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("MainWindow", text);
}

} // namespace

void WidgetDialogs::reportError(const QString &title, const QString &message)
{
    QMessageBox::warning(m_parent, title, message);
}

QMessageBox::StandardButton WidgetDialogs::askUnsavedChanges(const QString &name)
{
    return QMessageBox::question(
        m_parent, tr("Unsaved changes"), tr("“%1” has unsaved changes. Save them first?").arg(name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
}

QMessageBox::StandardButton WidgetDialogs::askQuestion(const QString &title, const QString &text,
                                                       QMessageBox::StandardButtons buttons,
                                                       QMessageBox::StandardButton defaultButton)
{
    return QMessageBox::question(m_parent, title, text, buttons, defaultButton);
}

QString WidgetDialogs::askOpenPath(const QString &current)
{
    return QFileDialog::getOpenFileName(m_parent, tr("Open scenario"), QFileInfo(current).path(),
                                        tr("FenceScope scenarios (*.json);;All files (*)"));
}

QString WidgetDialogs::askSavePath(const QString &current)
{
    QString path = QFileDialog::getSaveFileName(m_parent, tr("Save scenario"),
                                                current.isEmpty() ? tr("scenario.json") : current,
                                                tr("FenceScope scenarios (*.json)"));
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return path;
}

QString WidgetDialogs::askOpenLessonPath()
{
    return QFileDialog::getOpenFileName(m_parent, tr("Open lesson"), QString(),
                                        tr("FenceScope lessons (*%1);;All files (*)")
                                            .arg(QLatin1String(Core::LessonFile::kSuffix)));
}

QString WidgetDialogs::askSaveLessonPath(const QString &suggested)
{
    return QFileDialog::getSaveFileName(
        m_parent, tr("Save lesson"), suggested,
        tr("FenceScope lessons (*%1)").arg(QLatin1String(Core::LessonFile::kSuffix)));
}

QString WidgetDialogs::askSaveCsvPath(const QString &title, const QString &suggested)
{
    return QFileDialog::getSaveFileName(m_parent, title, suggested, tr("CSV (*.csv)"));
}

bool WidgetDialogs::askExport(ExportDialog &dialog)
{
    return dialog.exec() == QDialog::Accepted;
}

bool WidgetDialogs::askAnimation(AnimationDialog &dialog)
{
    return dialog.exec() == QDialog::Accepted;
}

void WidgetDialogs::showAbout()
{
    AboutDialog(m_parent).exec();
}
