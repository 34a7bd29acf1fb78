#pragma once

// The window's dialogs answered by a test (window/dialogs.h): nothing modal is ever shown.
// Errors are recorded (lastError()), the unsaved-changes question gets unsavedAnswer, other
// questions get questionAnswer (the text asked is in lastQuestion()), file dialogs return
// nextPath, and the export dialogs are built for real but handed to the export handler (the
// animation's to the animation handler) instead of being shown (no handler: cancelled).
//
//   MainWindow w;
//   scriptDialogs(w);                        // before anything would ask
//   scripted(w).setNextPath(path);
//   QVERIFY(scripted(w).lastError().isEmpty());

#include "window/dialogs.h"
#include "window/mainwindow.h"

#include <functional>
#include <memory>
#include <utility>

class ScriptedDialogs : public Dialogs
{
public:
    QString lastError() const { return m_lastError; }
    QString lastQuestion() const { return m_lastQuestion; }
    void setUnsavedAnswer(QMessageBox::StandardButton b) { m_unsavedAnswer = b; }
    void setQuestionAnswer(QMessageBox::StandardButton b) { m_questionAnswer = b; }
    void setNextPath(const QString &path) { m_nextPath = path; }
    void setExportHandler(std::function<bool(ExportDialog &)> handler)
    {
        m_exportHandler = std::move(handler);
    }
    void setAnimationHandler(std::function<bool(AnimationDialog &)> handler)
    {
        m_animationHandler = std::move(handler);
    }

    bool isInteractive() const override { return false; }
    void reportError(const QString &, const QString &message) override { m_lastError = message; }
    QMessageBox::StandardButton askUnsavedChanges(const QString &) override
    {
        return m_unsavedAnswer;
    }
    QMessageBox::StandardButton askQuestion(const QString &, const QString &text,
                                            QMessageBox::StandardButtons,
                                            QMessageBox::StandardButton) override
    {
        m_lastQuestion = text;
        return m_questionAnswer;
    }
    QString askOpenPath(const QString &) override { return m_nextPath; }
    QString askSavePath(const QString &) override { return m_nextPath; }
    QString askOpenLessonPath() override { return m_nextPath; }
    QString askSaveLessonPath(const QString &) override { return m_nextPath; }
    QString askSaveCsvPath(const QString &, const QString &) override { return m_nextPath; }
    bool askExport(ExportDialog &dialog) override
    {
        return m_exportHandler && m_exportHandler(dialog);
    }
    bool askAnimation(AnimationDialog &dialog) override
    {
        return m_animationHandler && m_animationHandler(dialog);
    }
    void showAbout() override {}

private:
    QString m_lastError;
    QString m_lastQuestion;
    QMessageBox::StandardButton m_unsavedAnswer = QMessageBox::Cancel;
    QMessageBox::StandardButton m_questionAnswer = QMessageBox::Cancel;
    QString m_nextPath;
    std::function<bool(ExportDialog &)> m_exportHandler;
    std::function<bool(AnimationDialog &)> m_animationHandler;
};

// Gives the window scripted dialogs; returns them.
inline ScriptedDialogs &scriptDialogs(MainWindow &window)
{
    auto dialogs = std::make_unique<ScriptedDialogs>();
    ScriptedDialogs &scripted = *dialogs;
    window.setDialogs(std::move(dialogs));
    return scripted;
}

// The scripted dialogs scriptDialogs() gave the window.
inline ScriptedDialogs &scripted(const MainWindow &window)
{
    auto *dialogs = dynamic_cast<ScriptedDialogs *>(&window.dialogs());
    Q_ASSERT(dialogs); // scriptDialogs(window) first
    return *dialogs;
}
