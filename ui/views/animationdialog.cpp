#include "views/animationdialog.h"

#include "document/document.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kPreviewWidth = 480; // the preview's width in device-independent pixels

const char *const kSuffixes[] = {"gif", "mp4", "webm"};

QString withSuffix(const QString &path, const QString &suffix)
{
    if (path.isEmpty())
        return path;
    const QFileInfo fi(path);
    if (fi.suffix().compare(suffix, Qt::CaseInsensitive) == 0)
        return path;
    QString base = path;
    if (Animation::formatFor(path))
        base.chop(fi.suffix().size() + 1);
    return base + QLatin1Char('.') + suffix;
}

} // namespace

AnimationDialog::AnimationDialog(const Document *doc, const AnimationOptions &defaults,
                                 std::optional<std::pair<double, double>> visible,
                                 const Theme &current, const QString &path, QWidget *parent)
    : QDialog(parent), m_doc(doc), m_scenario(doc->scenario()), m_current(current),
      m_visible(visible), m_base(defaults)
{
    setObjectName(QStringLiteral("animationDialog"));
    m_pool.setMaxThreadCount(1);
    setWindowTitle(tr("Export animation"));
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("path"));
    m_path->setMinimumWidth(320);
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("File:"), pathRow);

    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("format"));
    m_format->addItem(tr("Animated GIF (PowerPoint, Google Slides, Impress; loops)"));
    m_format->addItem(tr("MP4 video, H.264 (PowerPoint, Keynote, Impress)"));
    m_format->addItem(tr("WebM video, VP9 (browsers, Impress)"));
    // what each slide program needs, as README's "Export Animation" says with its sources
    m_format->setToolTip(
        tr("Google Slides inserts a video from Google Drive: upload the MP4 there first.\n"
           "LibreOffice Impress on Linux plays an MP4 with GStreamer's libav plugin "
           "(gstreamer1.0-libav)."));
    form->addRow(tr("Format:"), m_format);

    m_content = new QComboBox(this);
    m_content->setObjectName(QStringLiteral("content"));
    m_content->addItem(doc->scenario().fencing ? tr("The timeline (fencing on)")
                                               : tr("The timeline (fencing off)"));
    m_content->addItem(tr("Compare: fenced over unfenced"));
    m_content->setCurrentIndex(defaults.picture.compare ? 1 : 0);
    form->addRow(tr("Show:"), m_content);

    m_range = new QComboBox(this);
    m_range->setObjectName(QStringLiteral("range"));
    m_range->addItem(tr("The whole scenario"));
    if (m_visible)
        m_range->addItem(tr("The visible range (t=%1 … %2)")
                             .arg(std::max(0.0, std::floor(m_visible->first)))
                             .arg(std::ceil(m_visible->second)));
    m_range->setCurrentIndex(defaults.picture.fromTick && m_visible ? 1 : 0);
    form->addRow(tr("Range:"), m_range);

    m_title = new QCheckBox(tr("Title"), this);
    m_title->setObjectName(QStringLiteral("title"));
    m_title->setChecked(defaults.picture.showTitle);
    m_legend = new QCheckBox(tr("Legend"), this);
    m_legend->setObjectName(QStringLiteral("legend"));
    m_legend->setChecked(defaults.picture.showLegend);
    auto *checks = new QHBoxLayout;
    checks->addWidget(m_title);
    checks->addWidget(m_legend);
    checks->addStretch(1);
    form->addRow(tr("Include:"), checks);

    m_theme = new QComboBox(this);
    m_theme->setObjectName(QStringLiteral("theme"));
    m_theme->addItem(tr("Print: white background, black text"));
    m_theme->addItem(tr("The window's theme (%1)").arg(current.name));
    m_theme->setCurrentIndex(defaults.picture.theme.name == QLatin1String("print") ? 0 : 1);
    form->addRow(tr("Theme:"), m_theme);

    m_width = new QSpinBox(this);
    m_width->setObjectName(QStringLiteral("width"));
    m_width->setRange(320, 3840);
    m_width->setSingleStep(160);
    m_width->setSuffix(tr(" px"));
    m_width->setValue(int(std::lround(defaults.picture.width)));
    form->addRow(tr("Width:"), m_width);

    m_fps = new QSpinBox(this);
    m_fps->setObjectName(QStringLiteral("fps"));
    m_fps->setRange(AnimationLimits::kMinFps, AnimationLimits::kMaxFps);
    m_fps->setSuffix(tr(" frames a second"));
    m_fps->setValue(defaults.fps);
    m_fps->setToolTip(tr("How smoothly the playhead travels from one step to the next"));
    form->addRow(tr("Playhead:"), m_fps);

    m_holdMode = new QComboBox(this);
    m_holdMode->setObjectName(QStringLiteral("holdMode"));
    m_holdMode->addItem(tr("Long enough to read its caption"));
    m_holdMode->addItem(tr("The same time for every step:"));
    m_holdMode->setCurrentIndex(defaults.stepSeconds ? 1 : 0);
    m_holdSeconds = new QDoubleSpinBox(this);
    m_holdSeconds->setObjectName(QStringLiteral("holdSeconds"));
    m_holdSeconds->setRange(AnimationLimits::kMinStepSeconds, AnimationLimits::kMaxStepSeconds);
    m_holdSeconds->setDecimals(1);
    m_holdSeconds->setSingleStep(0.5);
    m_holdSeconds->setSuffix(tr(" s"));
    m_holdSeconds->setValue(defaults.stepSeconds.value_or(4.0));
    auto *holdRow = new QHBoxLayout;
    holdRow->addWidget(m_holdMode, 1);
    holdRow->addWidget(m_holdSeconds);
    form->addRow(tr("Each step holds:"), holdRow);

    m_loop = new QSpinBox(this);
    m_loop->setObjectName(QStringLiteral("loop"));
    m_loop->setRange(0, AnimationLimits::kMaxLoop);
    m_loop->setSpecialValueText(tr("for ever"));
    m_loop->setSuffix(tr(" times"));
    m_loop->setValue(defaults.loop);
    form->addRow(tr("GIF plays:"), m_loop);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    form->addRow(QString(), m_summary);

    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setMinimumSize(kPreviewWidth, 260);
    m_preview->setFrameShape(QFrame::StyledPanel);
    m_step = new QLabel(this);
    m_step->setObjectName(QStringLiteral("step"));
    m_play = new QPushButton(tr("Pause"), this);
    m_play->setObjectName(QStringLiteral("play"));
    auto *playRow = new QHBoxLayout;
    playRow->addWidget(m_step, 1);
    playRow->addWidget(m_play);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progress"));
    m_progress->setFormat(tr("frame %v of %m"));
    m_progress->hide();
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_exportButton = buttons->button(QDialogButtonBox::Ok);
    m_exportButton->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &AnimationDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AnimationDialog::reject);

    auto *row = new QHBoxLayout;
    row->addLayout(form, 3);
    auto *previewCol = new QVBoxLayout;
    previewCol->addWidget(new QLabel(tr("Preview"), this));
    previewCol->addWidget(m_preview, 1);
    previewCol->addLayout(playRow);
    row->addLayout(previewCol, 2);
    auto *col = new QVBoxLayout(this);
    col->addLayout(row, 1);
    col->addWidget(m_progress);
    col->addWidget(m_error);
    col->addWidget(buttons);

    const std::optional<AnimationOptions::Format> format = Animation::formatFor(path);
    m_format->setCurrentIndex(format ? int(*format) : 0);
    m_path->setText(withSuffix(path, QLatin1String(kSuffixes[m_format->currentIndex()])));

    m_planTimer = new QTimer(this);
    m_planTimer->setSingleShot(true);
    m_planTimer->setInterval(150);
    connect(m_planTimer, &QTimer::timeout, this, &AnimationDialog::refreshPlan);
    m_frameTimer = new QTimer(this);
    m_frameTimer->setSingleShot(true);
    connect(m_frameTimer, &QTimer::timeout, this, &AnimationDialog::advancePreview);
    connect(m_play, &QPushButton::clicked, this, [this] {
        if (m_frameTimer->isActive()) {
            m_frameTimer->stop();
            m_play->setText(tr("Play"));
        } else {
            m_play->setText(tr("Pause"));
            advancePreview();
        }
    });
    connect(&m_watcher, &QFutureWatcher<QString>::finished, this, &AnimationDialog::exportDone);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getSaveFileName(
            this, windowTitle(), m_path->text(),
            tr("Animated GIF (*.gif);;MP4 video (*.mp4);;WebM video (*.webm)"));
        if (!chosen.isEmpty())
            setPath(chosen);
    });
    connect(m_path, &QLineEdit::editingFinished, this, &AnimationDialog::pathEdited);
    connect(m_format, &QComboBox::currentIndexChanged, this, &AnimationDialog::formatChanged);
    for (QComboBox *c : {m_content, m_range, m_theme, m_holdMode})
        connect(c, &QComboBox::currentIndexChanged, this, &AnimationDialog::schedulePlan);
    for (QCheckBox *c : {m_title, m_legend})
        connect(c, &QCheckBox::toggled, this, &AnimationDialog::schedulePlan);
    for (QSpinBox *s : {m_width, m_fps})
        connect(s, &QSpinBox::valueChanged, this, &AnimationDialog::schedulePlan);
    connect(m_holdSeconds, &QDoubleSpinBox::valueChanged, this, &AnimationDialog::schedulePlan);
    connect(m_holdMode, &QComboBox::currentIndexChanged, this, &AnimationDialog::updateEnabled);
    updateEnabled();
    refreshPlan();
}

AnimationDialog::~AnimationDialog()
{
    m_cancel = true;
    m_watcher.waitForFinished();
    hide(); // as ExportDialog: no focus-out reaches a half-destroyed dialog
}

void AnimationDialog::setLesson(const Core::Lesson &lesson)
{
    m_lesson = lesson;
    m_content->addItem(tr("The whole lesson: %1 (%n scenes)", nullptr, int(lesson.scenes.size()))
                           .arg(lesson.title));
    updateEnabled();
}

bool AnimationDialog::showsLesson() const
{
    return m_lesson && m_content->currentIndex() == 2;
}

QString AnimationDialog::path() const
{
    return withSuffix(m_path->text().trimmed(),
                      QLatin1String(kSuffixes[std::max(0, m_format->currentIndex())]));
}

void AnimationDialog::setPath(const QString &path)
{
    m_path->setText(path);
    pathEdited();
}

AnimationOptions AnimationDialog::options() const
{
    AnimationOptions o = m_base;
    ExportOptions &p = o.picture;
    p.compare = m_content->currentIndex() == 1;
    if (p.compare)
        p.fencing.reset();
    p.width = m_width->value();
    p.scale = 1;
    if (m_range->currentIndex() == 1 && m_visible) {
        p.fromTick = m_visible->first;
        p.toTick = m_visible->second;
    } else {
        p.fromTick.reset();
        p.toTick.reset();
    }
    p.theme = m_theme->currentIndex() == 0 ? Theme::print() : m_current;
    p.showTitle = m_title->isChecked();
    p.showLegend = m_legend->isChecked();
    p.showCaption = true; // the captions are the story
    p.caption.clear();
    p.explain = {};
    p.playhead = Core::kForever;
    o.fps = m_fps->value();
    o.stepSeconds = m_holdMode->currentIndex() == 1 ? std::optional<double>(m_holdSeconds->value())
                                                    : std::nullopt;
    o.loop = m_loop->value();
    return o;
}

void AnimationDialog::formatChanged()
{
    if (!m_path->text().trimmed().isEmpty()) {
        const QSignalBlocker block(m_path);
        m_path->setText(path());
    }
    updateEnabled();
}

void AnimationDialog::pathEdited()
{
    // a typed extension chooses the format
    const std::optional<AnimationOptions::Format> format =
        Animation::formatFor(m_path->text().trimmed());
    if (format && int(*format) != m_format->currentIndex())
        m_format->setCurrentIndex(int(*format));
}

void AnimationDialog::updateEnabled()
{
    m_holdSeconds->setEnabled(m_holdMode->currentIndex() == 1);
    m_loop->setEnabled(m_format->currentIndex() == 0);
    const bool idle = !isExporting();
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_path, m_format, m_content, m_range, m_title, m_legend,
                                          m_theme, m_width, m_fps, m_holdMode})
        w->setEnabled(idle);
    if (!idle) {
        m_holdSeconds->setEnabled(false);
        m_loop->setEnabled(false);
    }
    m_range->setEnabled(idle && !showsLesson()); // each scene's view gives its range
    m_exportButton->setEnabled(idle && m_plan.problem.isEmpty());
}

void AnimationDialog::schedulePlan()
{
    m_planTimer->start();
}

void AnimationDialog::refreshPlan()
{
    m_planOptions = options();
    m_plan = showsLesson() ? Animation::lessonPlan(*m_lesson, m_planOptions)
                           : Animation::plan(m_scenario, m_planOptions);
    updateEnabled();
    m_exportButton->setEnabled(m_plan.problem.isEmpty() && !isExporting());
    if (!m_plan.problem.isEmpty()) {
        m_frameTimer->stop();
        m_summary->setText(m_plan.problem);
        m_preview->clear();
        m_previewImage = QImage();
        m_step->clear();
        return;
    }
    m_summary->setText(tr("→ %1 × %2 pixels, %3 s, %4 steps, %5 frames")
                           .arg(m_plan.size.width())
                           .arg(m_plan.size.height())
                           .arg(m_plan.seconds(), 0, 'f', 1)
                           .arg(m_plan.steps.size())
                           .arg(m_plan.frames.size()));
    showPreviewFrame(0);
}

void AnimationDialog::showPreviewFrame(std::size_t index)
{
    if (m_plan.frames.empty())
        return;
    m_frame = std::min(index, m_plan.frames.size() - 1);
    const qreal dpr = devicePixelRatioF();
    const double scale = kPreviewWidth * dpr / std::max(1, m_plan.size.width());
    m_previewImage = Animation::renderFrame(m_scenario, m_planOptions, m_plan, m_frame, scale);
    QPixmap pm = QPixmap::fromImage(m_previewImage);
    pm.setDevicePixelRatio(dpr);
    m_preview->setPixmap(pm);
    const Animation::Frame &f = m_plan.frames[m_frame];
    if (f.kind == Animation::Frame::Kind::Verdict)
        m_step->setText(tr("The verdict"));
    else
        m_step->setText(tr("Step %1 of %2 · t=%3")
                            .arg(f.step + 1)
                            .arg(m_plan.steps.size())
                            .arg(f.playhead + Core::Tick(std::floor(f.travel))));
    if (m_play->text() == tr("Pause"))
        m_frameTimer->start(int(std::lround(f.periods * 1000.0 / m_plan.fps)));
}

void AnimationDialog::advancePreview()
{
    if (m_plan.frames.empty())
        return;
    showPreviewFrame((m_frame + 1) % m_plan.frames.size());
}

QString AnimationDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void AnimationDialog::showError(const QString &error)
{
    m_error->setText(error);
    m_error->show();
}

void AnimationDialog::accept()
{
    startExport();
}

void AnimationDialog::startExport()
{
    if (isExporting())
        return;
    if (m_path->text().trimmed().isEmpty()) {
        showError(tr("Choose where to save."));
        return;
    }
    m_error->hide();
    m_cancel = false;
    const QString target = path();
    const AnimationOptions o = options();
    const Core::Scenario scenario = m_scenario;
    const std::optional<Core::Lesson> lesson =
        showsLesson() ? m_lesson : std::optional<Core::Lesson>();
    m_progress->setRange(0, int(m_plan.frames.size()));
    m_progress->setValue(0);
    m_progress->show();
    // drawn and encoded off the GUI thread: the window keeps drawing, Cancel stays live
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [this, target, o, scenario, lesson] {
        const Animation::Progress progress = [this](int done, int total) {
            QMetaObject::invokeMethod(
                m_progress,
                [bar = m_progress, done, total] {
                    bar->setMaximum(total);
                    bar->setValue(done);
                },
                Qt::QueuedConnection);
            return !m_cancel.load();
        };
        return lesson ? Animation::exportLesson(target, *lesson, o, progress)
                      : Animation::exportTo(target, scenario, o, progress);
    }));
    updateEnabled();
}

void AnimationDialog::cancelExport()
{
    m_cancel = true;
}

void AnimationDialog::reject()
{
    if (isExporting()) {
        cancelExport();
        return;
    }
    QDialog::reject();
}

void AnimationDialog::exportDone()
{
    const QString error = m_watcher.result();
    m_progress->hide();
    updateEnabled();
    if (error.isEmpty()) {
        emit exportFinished(true);
        QDialog::accept();
        return;
    }
    showError(error == Animation::cancelledMessage()
                  ? tr("Cancelled: nothing was written.")
                  : tr("Nothing was exported: %1. Choose another folder or file name.").arg(error));
    emit exportFinished(false);
}
