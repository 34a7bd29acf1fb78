#pragma once

// Every question the window asks a person, and every error it shows one: message boxes, file
// dialogs, the export and animation dialogs. The window and its controllers ask through this
// interface only, so a test answers in place of the person (tests/common/scripteddialogs.h)
// and nothing modal is ever shown there. WidgetDialogs asks a person.

#include <QMessageBox>
#include <QString>

class AnimationDialog;
class ExportDialog;
class QWidget;

class Dialogs
{
public:
    virtual ~Dialogs() = default;

    // Whether a person answers: the first run's quick tour and Help > About show only then.
    virtual bool isInteractive() const = 0;
    // An error the user must see (the window shows its last line in the status bar too).
    virtual void reportError(const QString &title, const QString &message) = 0;
    // Save, Discard or Cancel for the unsaved changes of the scenario called `name`.
    virtual QMessageBox::StandardButton askUnsavedChanges(const QString &name) = 0;
    virtual QMessageBox::StandardButton askQuestion(const QString &title, const QString &text,
                                                    QMessageBox::StandardButtons buttons,
                                                    QMessageBox::StandardButton defaultButton) = 0;
    // File dialogs; an empty path when cancelled. `current` is the open scenario's file.
    virtual QString askOpenPath(const QString &current) = 0;
    virtual QString askSavePath(const QString &current) = 0;
    virtual QString askOpenLessonPath() = 0;
    virtual QString askSaveLessonPath(const QString &suggested) = 0;
    // Where to write a CSV file (the room's votes), `suggested` its name.
    virtual QString askSaveCsvPath(const QString &title, const QString &suggested) = 0;
    // Shows an export dialog built by the caller; true when the user chose Export.
    virtual bool askExport(ExportDialog &dialog) = 0;
    // Shows the animation dialog; true when it wrote the file.
    virtual bool askAnimation(AnimationDialog &dialog) = 0;
    // Help > About.
    virtual void showAbout() = 0;
};

// The real dialogs, modal over `parent`.
class WidgetDialogs : public Dialogs
{
public:
    explicit WidgetDialogs(QWidget *parent) : m_parent(parent) {}

    bool isInteractive() const override { return true; }
    void reportError(const QString &title, const QString &message) override;
    QMessageBox::StandardButton askUnsavedChanges(const QString &name) override;
    QMessageBox::StandardButton askQuestion(const QString &title, const QString &text,
                                            QMessageBox::StandardButtons buttons,
                                            QMessageBox::StandardButton defaultButton) override;
    QString askOpenPath(const QString &current) override;
    QString askSavePath(const QString &current) override;
    QString askOpenLessonPath() override;
    QString askSaveLessonPath(const QString &suggested) override;
    QString askSaveCsvPath(const QString &title, const QString &suggested) override;
    bool askExport(ExportDialog &dialog) override;
    bool askAnimation(AnimationDialog &dialog) override;
    void showAbout() override;

private:
    QWidget *m_parent;
};
