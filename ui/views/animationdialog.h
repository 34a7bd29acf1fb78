#pragma once

// File > Export Animation…: the run as an animated GIF, an MP4 or a WebM video, with a preview
// that plays the animation as it will be written (the same plan and frames, smaller). With a
// lesson open, "Show" offers the whole lesson too (Animation::lessonPlan: each scene as
// presentation walks it; the range is then each scene's view's).
//
// Export writes the file on a worker thread: the window keeps drawing, a progress bar counts
// the frames, and Cancel stops the writing (nothing is left behind; the dialog stays open with
// every choice in it). A failure keeps the dialog open too and says why under the form.

#include "animation.h"
#include "theme.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QThreadPool>

#include <atomic>
#include <optional>
#include <utility>

class Document;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

class AnimationDialog : public QDialog
{
    Q_OBJECT
public:
    // `defaults`: the picture options to start from (the window's view or the last export's);
    // `visible`: the tick range on screen, offered as a range; `current`: the window's theme.
    AnimationDialog(const Document *doc, const AnimationOptions &defaults,
                    std::optional<std::pair<double, double>> visible, const Theme &current,
                    const QString &path, QWidget *parent = nullptr);
    // Cancels an export still running and waits for it.
    ~AnimationDialog() override;

    // Offers `lesson` as a third choice of what to show: the whole lesson.
    void setLesson(const Core::Lesson &lesson);
    // The whole lesson is chosen.
    bool showsLesson() const;

    // The target, its extension following the format.
    QString path() const;
    void setPath(const QString &path);
    AnimationOptions options() const;

    // The preview: the plan it plays, the frame shown and its picture (for tests).
    const Animation::Plan &previewPlan() const { return m_plan; }
    std::size_t previewFrame() const { return m_frame; }
    QImage previewImage() const { return m_previewImage; }
    // Shows frame `index` of the plan now, and plays on from there.
    void showPreviewFrame(std::size_t index);
    // Makes the plan again from the options now (it normally follows edits after a pause).
    void refreshPlan();

    // Export pressed: starts writing on a worker thread. The dialog is accepted when the file
    // is written; a failure or a cancel keeps it open with errorText() saying so.
    void startExport();
    bool isExporting() const { return m_watcher.isRunning(); }
    // Cancel pressed while exporting: stops the writing (finished() follows).
    void cancelExport();
    QString errorText() const;

    void accept() override; // Export
    void reject() override; // Cancel: stops an export first, else closes

signals:
    void exportFinished(bool written);

private:
    void formatChanged();
    void pathEdited();
    void updateEnabled();
    void schedulePlan();
    void advancePreview();
    void exportDone();
    void showError(const QString &error);

    const Document *m_doc;
    Core::Scenario m_scenario;            // what the worker draws: the dialog's own copy
    std::optional<Core::Lesson> m_lesson; // the open lesson, offered whole
    Theme m_current;
    std::optional<std::pair<double, double>> m_visible;
    AnimationOptions m_base;

    QLineEdit *m_path = nullptr;
    QComboBox *m_format = nullptr;
    QComboBox *m_content = nullptr;
    QComboBox *m_range = nullptr;
    QCheckBox *m_title = nullptr;
    QCheckBox *m_legend = nullptr;
    QComboBox *m_theme = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_fps = nullptr;
    QComboBox *m_holdMode = nullptr;
    QDoubleSpinBox *m_holdSeconds = nullptr;
    QSpinBox *m_loop = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_preview = nullptr;
    QLabel *m_step = nullptr;
    QPushButton *m_play = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_exportButton = nullptr;
    QTimer *m_planTimer = nullptr;
    QTimer *m_frameTimer = nullptr;

    Animation::Plan m_plan;
    AnimationOptions m_planOptions;
    std::size_t m_frame = 0;
    QImage m_previewImage;

    QThreadPool m_pool; // its own thread: a sweep or a search in the global pool does not delay it
    QFutureWatcher<QString> m_watcher;
    std::atomic<bool> m_cancel{false};
};
