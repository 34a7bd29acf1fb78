#include "views/exportdialog.h"

#include "document/document.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kPreviewWidth = 520; // thumbnail width in device-independent pixels

struct FormatItem
{
    QString suffix; // "png", "svg", "pdf"
    double scale;
};

QString withSuffix(const QString &path, const QString &suffix)
{
    if (path.isEmpty())
        return path;
    const QFileInfo fi(path);
    if (fi.suffix().compare(suffix, Qt::CaseInsensitive) == 0)
        return path;
    const QString known = fi.suffix().toLower();
    QString base = path;
    if (known == QLatin1String("png") || known == QLatin1String("svg") ||
        known == QLatin1String("pdf"))
        base.chop(known.size() + 1);
    return suffix.isEmpty() ? base : base + QLatin1Char('.') + suffix;
}

} // namespace

ExportRuns exportRunsOf(const Document &doc, const ExportOptions &o)
{
    const Core::Trace &shown = doc.traceFor(Exporter::shownFencing(doc.scenario(), o));
    const Core::Trace *unfenced = o.compare ? &doc.traceFor(false) : nullptr;
    if (const std::optional<Core::Tick> before = Exporter::cutBefore(o))
        return {doc.traceBefore(shown, *before),
                unfenced ? &doc.traceBefore(*unfenced, *before) : nullptr};
    return {shown, unfenced};
}

ExportDialog::ExportDialog(Kind kind, const Document *doc, const ExportOptions &defaults,
                           std::optional<std::pair<double, double>> visible, const Theme &current,
                           const QString &path, QWidget *parent)
    : QDialog(parent), m_kind(kind), m_doc(doc), m_current(current), m_visible(visible),
      m_base(defaults)
{
    setObjectName(kind == Kind::Picture ? QStringLiteral("exportDialog")
                                        : QStringLiteral("storyboardDialog"));
    setWindowTitle(kind == Kind::Picture ? tr("Export picture") : tr("Export storyboard"));

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    // target
    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("path"));
    m_path->setMinimumWidth(360);
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    form->addRow(kind == Kind::Picture ? tr("File:") : tr("Save to:"), pathRow);

    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("format"));
    if (kind == Kind::Picture) {
        m_format->addItem(tr("PNG, 1× (width px)"),
                          QStringList{QStringLiteral("png"), QStringLiteral("1")});
        m_format->addItem(tr("PNG, 2× (crisp on slides)"),
                          QStringList{QStringLiteral("png"), QStringLiteral("2")});
        m_format->addItem(tr("PNG, 4× (print)"),
                          QStringList{QStringLiteral("png"), QStringLiteral("4")});
        m_format->addItem(tr("SVG (vector, real text)"),
                          QStringList{QStringLiteral("svg"), QStringLiteral("1")});
        m_format->addItem(tr("PDF (vector)"),
                          QStringList{QStringLiteral("pdf"), QStringLiteral("1")});
    } else {
        m_format->addItem(tr("Numbered PNGs in a folder (frame-01.png …)"),
                          QStringList{QString(), QStringLiteral("1")});
        m_format->addItem(tr("One multi-page PDF"),
                          QStringList{QStringLiteral("pdf"), QStringLiteral("1")});
    }
    form->addRow(tr("Format:"), m_format);

    if (kind == Kind::Storyboard) {
        m_frames = new QComboBox(this);
        m_frames->setObjectName(QStringLiteral("frames"));
        m_frames->addItem(tr("A frame at every tick where something happens"));
        m_frames->addItem(tr("Frames at the ticks listed below"));
        m_ticks = new QLineEdit(this);
        m_ticks->setObjectName(QStringLiteral("ticks"));
        m_ticks->setPlaceholderText(tr("e.g. 0, 5, 12, 30"));
        const std::vector<Core::Tick> every = Exporter::keyframeTicks(doc->scenario(), doc->trace());
        QStringList all;
        for (const Core::Tick t : every)
            all << QString::number(t);
        m_ticks->setText(all.join(QStringLiteral(", ")));
        form->addRow(tr("Frames:"), m_frames);
        form->addRow(tr("Ticks:"), m_ticks);
    }

    m_content = new QComboBox(this);
    m_content->setObjectName(QStringLiteral("content"));
    m_content->addItem(doc->scenario().fencing ? tr("The timeline (fencing on)")
                                               : tr("The timeline (fencing off)"));
    m_content->addItem(tr("Compare: fenced over unfenced"));
    m_content->setCurrentIndex(defaults.compare ? 1 : 0);
    form->addRow(tr("Show:"), m_content);

    m_range = new QComboBox(this);
    m_range->setObjectName(QStringLiteral("range"));
    m_range->addItem(tr("The whole scenario"));
    if (m_visible)
        m_range->addItem(tr("The visible range (t=%1 … %2)")
                             .arg(std::max(0.0, std::floor(m_visible->first)))
                             .arg(std::ceil(m_visible->second)));
    m_range->setCurrentIndex(defaults.fromTick && m_visible ? 1 : 0);
    form->addRow(tr("Range:"), m_range);

    m_title = new QCheckBox(tr("Title"), this);
    m_title->setObjectName(QStringLiteral("title"));
    m_title->setChecked(defaults.showTitle);
    m_legend = new QCheckBox(tr("Legend"), this);
    m_legend->setObjectName(QStringLiteral("legend"));
    m_legend->setChecked(defaults.showLegend);
    m_caption = new QCheckBox(tr("Caption"), this);
    m_caption->setObjectName(QStringLiteral("caption"));
    m_caption->setChecked(defaults.showCaption);
    m_explain = new QCheckBox(tr("Explain the selected outcome"), this);
    m_explain->setObjectName(QStringLiteral("explain"));
    m_explain->setEnabled(defaults.explain.isValid());
    m_explain->setChecked(defaults.explain.isValid());
    if (!defaults.explain.isValid())
        m_explain->setToolTip(tr("Select a write (or any action) in the window first"));
    m_slide = new QCheckBox(tr("16:9 slide"), this);
    m_slide->setObjectName(QStringLiteral("slide"));
    m_slide->setChecked(defaults.slide);
    m_slide->setToolTip(tr("The picture at the slide's shape: width × width·9/16, text and lanes "
                           "made smaller to fit (compare mode is taller than wide otherwise)"));
    auto *checks = new QHBoxLayout;
    checks->addWidget(m_slide);
    checks->addWidget(m_title);
    checks->addWidget(m_legend);
    checks->addWidget(m_caption);
    checks->addWidget(m_explain);
    checks->addStretch(1);
    // a storyboard's frames tell the story step by step; one outcome's text on every frame
    // would give the ending away on the first
    m_explain->setVisible(kind == Kind::Picture);
    form->addRow(tr("Include:"), checks);

    m_captionText = new QLineEdit(this);
    m_captionText->setObjectName(QStringLiteral("captionText"));
    m_shownDefaultCaption = defaultCaptionFor(defaults.compare);
    m_captionText->setText(defaults.caption.isEmpty() ? m_shownDefaultCaption : defaults.caption);
    m_captionText->setCursorPosition(0);
    form->addRow(tr("Caption text:"), m_captionText);

    m_theme = new QComboBox(this);
    m_theme->setObjectName(QStringLiteral("theme"));
    m_theme->addItem(tr("Print: white background, black text"));
    m_theme->addItem(tr("The window's theme (%1)").arg(current.name));
    m_theme->setCurrentIndex(defaults.theme.name == QLatin1String("print") ? 0 : 1);
    form->addRow(tr("Theme:"), m_theme);

    m_width = new QSpinBox(this);
    m_width->setObjectName(QStringLiteral("width"));
    m_width->setRange(320, 8000);
    m_width->setSingleStep(160);
    m_width->setSuffix(tr(" px"));
    m_width->setValue(int(std::lround(defaults.width)));
    m_size = new QLabel(this);
    m_size->setObjectName(QStringLiteral("size"));
    auto *widthRow = new QHBoxLayout;
    widthRow->addWidget(m_width);
    widthRow->addWidget(m_size, 1);
    form->addRow(tr("Width:"), widthRow);

    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setMinimumSize(kPreviewWidth, 220);
    m_preview->setFrameShape(QFrame::StyledPanel);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *row = new QHBoxLayout;
    row->addLayout(form, 3);
    auto *previewCol = new QVBoxLayout;
    auto *previewHeading = new QLabel(tr("Preview"), this);
    previewCol->addWidget(previewHeading);
    previewCol->addWidget(m_preview, 1);
    row->addLayout(previewCol, 2);
    auto *col = new QVBoxLayout(this);
    col->addLayout(row, 1);
    col->addWidget(m_error);
    col->addWidget(buttons);

    // the last export's choices and folder (a picture's), or a folder that exists
    const QString target = restoreSettings(path);
    // the format shown is the one the path's extension names, if it names one
    const QString suffix = QFileInfo(target).suffix().toLower();
    for (int i = 0; i < m_format->count(); ++i) {
        const QStringList d = m_format->itemData(i).toStringList();
        if (d.at(0) == suffix && (suffix != QLatin1String("png") ||
                                  std::abs(d.at(1).toDouble() - m_base.scale) < 0.01)) {
            m_format->setCurrentIndex(i);
            break;
        }
    }
    m_path->setText(target);
    formatChanged();

    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(150);
    connect(m_previewTimer, &QTimer::timeout, this, &ExportDialog::refreshPreview);

    connect(browse, &QPushButton::clicked, this, [this] {
        QString chosen;
        const bool pdf = m_format->currentData().toStringList().at(0) == QLatin1String("pdf");
        if (m_kind == Kind::Storyboard && !pdf)
            chosen = QFileDialog::getExistingDirectory(this, tr("Folder for the frames"),
                                                       m_path->text());
        else
            chosen = QFileDialog::getSaveFileName(
                this, windowTitle(), m_path->text(),
                tr("PNG image (*.png);;SVG drawing (*.svg);;PDF (*.pdf)"));
        if (!chosen.isEmpty()) {
            m_path->setText(chosen);
            pathEdited();
        }
    });
    connect(m_path, &QLineEdit::editingFinished, this, &ExportDialog::pathEdited);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged);
    connect(m_content, &QComboBox::currentIndexChanged, this, &ExportDialog::updateCaptionDefault);
    for (QComboBox *c : {m_content, m_range, m_theme, m_format})
        connect(c, &QComboBox::currentIndexChanged, this, &ExportDialog::schedulePreview);
    for (QCheckBox *c : {m_slide, m_title, m_legend, m_caption, m_explain})
        connect(c, &QCheckBox::toggled, this, &ExportDialog::schedulePreview);
    connect(m_caption, &QCheckBox::toggled, this, &ExportDialog::updateEnabled);
    connect(m_captionText, &QLineEdit::textChanged, this, &ExportDialog::schedulePreview);
    connect(m_width, &QSpinBox::valueChanged, this, &ExportDialog::schedulePreview);
    if (m_frames) {
        connect(m_frames, &QComboBox::currentIndexChanged, this, &ExportDialog::updateEnabled);
        connect(m_ticks, &QLineEdit::textChanged, this, &ExportDialog::schedulePreview);
    }
    updateEnabled();
    refreshPreview();
}

ExportDialog::~ExportDialog()
{
    hide();
}

QString ExportDialog::path() const
{
    const QString typed = m_path->text().trimmed();
    const QString suffix = m_format->currentData().toStringList().at(0);
    if (m_kind == Kind::Storyboard && suffix.isEmpty())
        return withSuffix(typed, QString()); // a folder
    return withSuffix(typed, suffix);
}

void ExportDialog::setPath(const QString &path)
{
    m_path->setText(path);
    pathEdited();
}

ExportOptions ExportDialog::options() const
{
    ExportOptions o = m_base;
    o.compare = m_content->currentIndex() == 1;
    if (o.compare)
        o.fencing.reset();
    const QStringList fmt = m_format->currentData().toStringList();
    o.scale = fmt.at(0) == QLatin1String("png") ? fmt.at(1).toDouble() : 1.0;
    o.width = m_width->value();
    if (m_range->currentIndex() == 1 && m_visible) {
        o.fromTick = m_visible->first;
        o.toTick = m_visible->second;
    } else {
        o.fromTick.reset();
        o.toTick.reset();
    }
    o.theme = m_theme->currentIndex() == 0 ? Theme::print() : m_current;
    o.showTitle = m_title->isChecked();
    o.showLegend = m_legend->isChecked();
    o.showCaption = m_caption->isChecked();
    o.slide = m_slide->isChecked();
    const QString caption = m_captionText->text().trimmed();
    // the default follows the content; only an edited caption is fixed
    o.caption = caption == m_shownDefaultCaption ? QString() : caption;
    o.explain = m_explain->isChecked() ? m_base.explain : Selection{};
    if (m_kind == Kind::Storyboard)
        o.explain = {}; // a storyboard explains nothing in particular: its frames tell the story
    return o;
}

void ExportDialog::setExplainChecked(bool on)
{
    m_explain->setChecked(on && m_base.explain.isValid());
}

std::vector<Core::Tick> ExportDialog::frameTicks(QString *error) const
{
    if (!m_frames || m_frames->currentIndex() == 0)
        return Exporter::keyframeTicks(m_doc->scenario(), m_doc->trace());
    std::vector<Core::Tick> ticks;
    const QStringList parts =
        m_ticks->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        bool ok = false;
        const qulonglong t = part.toULongLong(&ok);
        if (!ok || t > Core::kMaxFileInteger) {
            if (error)
                *error = tr("“%1” is not a tick: list whole numbers, e.g. 0, 5, 12").arg(part);
            return {};
        }
        ticks.push_back(Core::Tick(t));
    }
    if (ticks.empty() && error)
        *error = tr("List at least one tick, e.g. 0, 5, 12");
    return ticks;
}

QString ExportDialog::defaultFolder()
{
    // an account may have no Pictures folder (a fresh or a minimal desktop): make it, and if
    // that is impossible (a file in the way, a read-only home) use Documents or home
    for (const auto location :
         {QStandardPaths::PicturesLocation, QStandardPaths::DocumentsLocation}) {
        QString dir = QStandardPaths::writableLocation(location);
        if (!dir.isEmpty() && QDir().mkpath(dir) && QFileInfo(dir).isDir() &&
            QFileInfo(dir).isWritable())
            return dir;
    }
    return QDir::homePath();
}

QString ExportDialog::restoreSettings(const QString &path)
{
    QString target = path;
    QString folder;
    if (m_kind == Kind::Picture) {
        QSettings settings;
        settings.beginGroup(settingsGroup());
        if (settings.contains(QStringLiteral("width")))
            m_width->setValue(settings.value(QStringLiteral("width")).toInt());
        if (settings.contains(QStringLiteral("theme")))
            m_theme->setCurrentIndex(
                settings.value(QStringLiteral("theme")).toString() == QLatin1String("window") ? 1
                                                                                              : 0);
        const std::pair<QCheckBox *, const char *> checks[] = {
            {m_title, "title"}, {m_legend, "legend"}, {m_caption, "caption"}};
        for (const auto &[box, key] : checks)
            if (settings.contains(QLatin1String(key)))
                box->setChecked(settings.value(QLatin1String(key)).toBool());
        if (m_base.explain.isValid() && settings.contains(QStringLiteral("explain")))
            m_explain->setChecked(settings.value(QStringLiteral("explain")).toBool());
        const QString format = settings.value(QStringLiteral("format")).toString();
        if (format == QLatin1String("png") || format == QLatin1String("svg") ||
            format == QLatin1String("pdf")) {
            target = withSuffix(target, format);
            m_base.scale =
                std::clamp(settings.value(QStringLiteral("scale"), 1.0).toDouble(), 1.0, 4.0);
        }
        folder = settings.value(QStringLiteral("folder")).toString();
    }
    const QString name = QFileInfo(target).fileName();
    if (name.isEmpty())
        return target;
    // the remembered folder if it is still there, else the one offered if it is there
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QFileInfo(target).absolutePath();
    // the window offers Pictures, which need not exist: defaultFolder() makes it or falls back
    if (!QFileInfo(folder).isDir())
        folder = defaultFolder();
    return QDir(folder).filePath(name);
}

void ExportDialog::saveSettings() const
{
    if (m_kind != Kind::Picture)
        return;
    QSettings settings;
    settings.beginGroup(settingsGroup());
    const QStringList fmt = m_format->currentData().toStringList();
    settings.setValue(QStringLiteral("format"), fmt.at(0));
    settings.setValue(QStringLiteral("scale"), fmt.at(1).toDouble());
    settings.setValue(QStringLiteral("width"), m_width->value());
    settings.setValue(QStringLiteral("theme"), m_theme->currentIndex() == 0
                                                   ? QStringLiteral("print")
                                                   : QStringLiteral("window"));
    settings.setValue(QStringLiteral("title"), m_title->isChecked());
    settings.setValue(QStringLiteral("legend"), m_legend->isChecked());
    settings.setValue(QStringLiteral("caption"), m_caption->isChecked());
    if (m_base.explain.isValid())
        settings.setValue(QStringLiteral("explain"), m_explain->isChecked());
    settings.setValue(QStringLiteral("folder"), QFileInfo(path()).absolutePath());
}

QString ExportDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void ExportDialog::showError(const QString &error)
{
    m_error->setText(error);
    m_error->show();
}

void ExportDialog::accept()
{
    QString error;
    if (m_path->text().trimmed().isEmpty())
        error = tr("Choose where to save.");
    else if (m_kind == Kind::Storyboard)
        frameTicks(&error);
    if (!error.isEmpty()) {
        showError(error);
        return;
    }
    if (m_kind == Kind::Picture) {
        // written here, so that a failure leaves the dialog open with every choice in it
        const QString target = path();
        const QString dir = QFileInfo(target).absolutePath();
        if (!QFileInfo::exists(dir) &&
            QDir(dir) == QDir(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)))
            QDir().mkpath(dir);
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const ExportOptions o = options();
        error = Exporter::exportTo(target, m_doc->scenario(), exportRunsOf(*m_doc, o), o);
        QApplication::restoreOverrideCursor();
        if (!error.isEmpty()) {
            showError(
                tr("Nothing was exported: %1. Choose another folder or file name.").arg(error));
            m_path->setFocus();
            return;
        }
        saveSettings();
    }
    m_error->hide();
    QDialog::accept();
}

void ExportDialog::formatChanged()
{
    const QString typed = m_path->text().trimmed();
    if (!typed.isEmpty()) {
        const QSignalBlocker block(m_path);
        m_path->setText(path());
    }
    updateEnabled();
}

void ExportDialog::pathEdited()
{
    // a typed extension chooses the format (keeping the PNG scale)
    const QString suffix = QFileInfo(m_path->text().trimmed()).suffix().toLower();
    const QStringList current = m_format->currentData().toStringList();
    if (suffix.isEmpty() || current.at(0) == suffix)
        return;
    for (int i = 0; i < m_format->count(); ++i) {
        if (m_format->itemData(i).toStringList().at(0) == suffix) {
            m_format->setCurrentIndex(i);
            return;
        }
    }
}

QString ExportDialog::defaultCaptionFor(bool compare) const
{
    const Core::Trace &t =
        compare ? m_doc->traceFor(true)
                : m_doc->traceFor(m_base.fencing.value_or(m_doc->scenario().fencing));
    return Exporter::defaultCaption(m_doc->scenario(), t);
}

void ExportDialog::updateCaptionDefault()
{
    const QString fresh = defaultCaptionFor(m_content->currentIndex() == 1);
    if (m_captionText->text().trimmed() == m_shownDefaultCaption) {
        const QSignalBlocker block(m_captionText);
        m_captionText->setText(fresh);
        m_captionText->setCursorPosition(0);
    }
    m_shownDefaultCaption = fresh;
}

void ExportDialog::updateEnabled()
{
    m_captionText->setEnabled(m_caption->isChecked());
    if (m_ticks)
        m_ticks->setEnabled(m_frames->currentIndex() == 1);
    const QStringList fmt = m_format->currentData().toStringList();
    const bool png = fmt.at(0) == QLatin1String("png") || fmt.at(0).isEmpty();
    m_size->setVisible(png);
}

void ExportDialog::schedulePreview()
{
    m_previewTimer->start();
}

void ExportDialog::refreshPreview()
{
    ExportOptions o = options();
    const QSizeF page = Exporter::pageSize(m_doc->scenario(), exportRunsOf(*m_doc, o), o);
    const QStringList fmt = m_format->currentData().toStringList();
    if (fmt.at(0) == QLatin1String("png") || fmt.at(0).isEmpty())
        m_size->setText(
            (m_kind == Kind::Storyboard ? tr("→ %1 × %2 pixels per frame") : tr("→ %1 × %2 pixels"))
                .arg(std::lround(page.width() * o.scale))
                .arg(std::lround(page.height() * o.scale)));
    if (m_kind == Kind::Storyboard) {
        // the first frame, as the storyboard will draw it
        const std::vector<Core::Tick> ticks = frameTicks();
        if (!ticks.empty())
            o.playhead = ticks.front();
    }
    const qreal dpr = devicePixelRatioF();
    o.scale = kPreviewWidth * dpr / std::max(1.0, page.width());
    m_previewImage = Exporter::renderImage(m_doc->scenario(), exportRunsOf(*m_doc, o), o);
    // the exporter draws no smaller than a quarter scale: very wide pictures are shrunk here
    if (m_previewImage.width() > kPreviewWidth * dpr)
        m_previewImage =
            m_previewImage.scaledToWidth(int(kPreviewWidth * dpr), Qt::SmoothTransformation);
    QPixmap pm = QPixmap::fromImage(m_previewImage);
    pm.setDevicePixelRatio(dpr);
    m_preview->setPixmap(pm);
}
