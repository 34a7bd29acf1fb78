#pragma once

// File > Export… and File > Export Storyboard…: chooses the file, the format and what the
// picture shows, with a live thumbnail drawn by the exporter itself (what you see is what is
// written). Everything is drawn by Exporter, so the CLI, the dialog and the clipboard all
// render one picture.
//
// The picture dialog writes the file itself when Export is pressed: a failed export (a
// read-only folder, a folder that is a file) keeps the dialog open with every setting as it
// was and says why under the form. The last successful export's format, scale, width, theme,
// checkboxes and folder are remembered (QSettings) and offered the next time, also after a
// restart. A target folder that does not exist is replaced by defaultFolder().

#include "exporter.h"
#include "theme.h"

#include <QDialog>

#include <optional>
#include <utility>
#include <vector>

class Document;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

// The runs a picture of `doc` with `options` draws, as the Document holds them: its traces are
// made once per change of the scenario (the unfenced one and the runs cut before a playhead on
// first asking), never per picture or preview.
ExportRuns exportRunsOf(const Document &doc, const ExportOptions &options);

class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Kind
    {
        Picture,
        Storyboard
    };

    // `defaults`: options to start from (the last export's, or the window's view). `visible`:
    // the tick range on screen, offered as "visible range"; `current`: the window's theme.
    ExportDialog(Kind kind, const Document *doc, const ExportOptions &defaults,
                 std::optional<std::pair<double, double>> visible, const Theme &current,
                 const QString &path, QWidget *parent = nullptr);
    // Hides first: a dialog destroyed while shown loses focus on its way out, and the path
    // field's editingFinished must not reach a half-destroyed ExportDialog.
    ~ExportDialog() override;

    Kind kind() const { return m_kind; }
    // The target: a picture file (its extension follows the format), or for a storyboard a
    // folder of numbered PNGs or one .pdf.
    QString path() const;
    void setPath(const QString &path);
    ExportOptions options() const;
    // Whether "explain the selected outcome" starts ticked (when there is a selection).
    void setExplainChecked(bool on);
    // Storyboard frames: every event, or the ticks typed in. Empty with an error when the
    // typed list is not a list of ticks.
    std::vector<Core::Tick> frameTicks(QString *error = nullptr) const;
    // The thumbnail as last rendered (for tests; null before the first render).
    QImage preview() const { return m_previewImage; }
    // Renders the thumbnail now (it normally follows edits after a short pause).
    void refreshPreview();

    // Where pictures go by default: the desktop's Pictures folder (created when missing), else
    // Documents, else the home folder.
    static QString defaultFolder();
    // The QSettings group holding the remembered picture options.
    static QString settingsGroup() { return QStringLiteral("exportPicture"); }
    // The message under the form after a refused or failed export (empty when none).
    QString errorText() const;

    void accept() override;

private:
    void formatChanged();
    void pathEdited();
    void updateCaptionDefault();
    void updateEnabled();
    void schedulePreview();
    QString defaultCaptionFor(bool compare) const;
    QString restoreSettings(const QString &path);
    void saveSettings() const;
    void showError(const QString &error);

    Kind m_kind;
    const Document *m_doc;
    Theme m_current;
    std::optional<std::pair<double, double>> m_visible;
    ExportOptions m_base;
    QString m_shownDefaultCaption; // the caption field holds this until the user edits it

    QLineEdit *m_path = nullptr;
    QComboBox *m_format = nullptr;
    QComboBox *m_content = nullptr;
    QComboBox *m_range = nullptr;
    QComboBox *m_frames = nullptr;
    QLineEdit *m_ticks = nullptr;
    QCheckBox *m_title = nullptr;
    QCheckBox *m_legend = nullptr;
    QCheckBox *m_caption = nullptr;
    QCheckBox *m_slide = nullptr;
    QLineEdit *m_captionText = nullptr;
    QCheckBox *m_explain = nullptr;
    QComboBox *m_theme = nullptr;
    QSpinBox *m_width = nullptr;
    QLabel *m_size = nullptr;
    QLabel *m_preview = nullptr;
    QLabel *m_error = nullptr;
    QTimer *m_previewTimer = nullptr;
    QImage m_previewImage;
};
