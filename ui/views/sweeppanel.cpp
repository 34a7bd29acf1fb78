// The sweep panel: its controls, the run on a worker thread with progress and cancel, and
// the about line. The chart it draws, a click on a curve, and the exports are in
// sweeppanel_chart.cpp.
#include "views/sweeppanel.h"

#include "savefile.h"
#include "svgdocument.h"
#include "sweepreport.h"
#include "theme.h"
#include "views/lowpriority.h"

#include <QAreaSeries>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent>

#include <cmath>
#include <iterator>

namespace {

QSpinBox *spinBox(int min, int max, int value)
{
    auto *box = new QSpinBox;
    box->setRange(min, max);
    box->setValue(value);
    return box;
}

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

SweepPanel::SweepPanel(QWidget *parent)
    : QWidget(parent), m_quantity(new QComboBox), m_from(spinBox(0, 1'000'000, 1)),
      m_to(spinBox(0, 1'000'000, 40)), m_step(spinBox(1, 1'000'000, 1)), m_quantity2(new QComboBox),
      m_values2(new QLineEdit), m_runs(spinBox(1, 10'000'000, 1000)),
      m_seed(spinBox(0, 1'000'000'000, 1)), m_schedules(new QComboBox),
      m_jitter(spinBox(1, int(Core::kMaxJitter), 1)), m_about(new QLabel), m_outcome(new QComboBox),
      m_opens(new QComboBox), m_run(new QPushButton(tr("&Run"))),
      m_cancelButton(new QPushButton(tr("&Cancel"))), m_resume(new QPushButton(tr("Res&ume"))),
      m_exportPng(new QPushButton(tr("PNG..."))), m_exportSvg(new QPushButton(tr("SVG..."))),
      m_exportCsv(new QPushButton(tr("CSV..."))), m_progress(new QProgressBar),
      m_status(new QLabel), m_view(new QChartView)
{
    for (auto [w, name] :
         std::initializer_list<std::pair<QWidget *, const char *>>{{m_quantity, "quantity"},
                                                                   {m_from, "from"},
                                                                   {m_to, "to"},
                                                                   {m_step, "step"},
                                                                   {m_quantity2, "quantity2"},
                                                                   {m_values2, "values2"},
                                                                   {m_runs, "runs"},
                                                                   {m_seed, "seed"},
                                                                   {m_schedules, "schedules"},
                                                                   {m_jitter, "jitter"},
                                                                   {m_about, "about"},
                                                                   {m_outcome, "outcome"},
                                                                   {m_opens, "opens"},
                                                                   {m_run, "run"},
                                                                   {m_cancelButton, "cancel"},
                                                                   {m_resume, "resume"},
                                                                   {m_progress, "progress"},
                                                                   {m_status, "status"},
                                                                   {m_view, "chart"}})
        w->setObjectName(QLatin1String(name));
    m_quantity2->addItem(tr("none"));
    for (const Core::Quantity &q : Core::quantities()) {
        m_quantity->addItem(q.label, q.name);
        m_quantity2->addItem(q.label, q.name);
    }
    for (const Core::OutcomeSpec &o : Core::outcomes())
        m_outcome->addItem(o.label, o.name);
    m_opens->addItem(tr("the worst failing schedule"), QStringLiteral("worst"));
    m_opens->addItem(tr("the first failing schedule"), QStringLiteral("first"));
    m_opens->setToolTip(tr("Which schedule of a point a click on the chart opens: the one with "
                           "the most such writes, or the first one that had any"));
    m_values2->setPlaceholderText(tr("5,10,20 or 5..20:5"));
    m_values2->setText(QStringLiteral("5,10,20"));
    // the scenario itself first: one run per point, the curve of the story on screen; near
    // it, the same story with every action a little earlier or later; shaped like it, every
    // action anywhere (the quantity varied rarely decides then)
    m_schedules->addItem(tr("the scenario itself"), Core::toString(Core::SweepSchedules::Fixed));
    m_schedules->addItem(tr("near the scenario"), Core::toString(Core::SweepSchedules::Near));
    m_schedules->addItem(tr("shaped like the scenario"),
                         Core::toString(Core::SweepSchedules::Shaped));
    m_schedules->setToolTip(tr("The open scenario once per point; schedules near it (its own "
                               "actions, each moved a little); or random schedules shaped like "
                               "it (each action anywhere)"));
    m_jitter->setSuffix(tr(" tick"));
    m_jitter->setToolTip(tr("The most a schedule near the scenario moves an action, earlier or "
                            "later"));
    m_about->setWordWrap(true);
    // (wrapped to the width it is given: its one-line width must not widen the controls)
    m_about->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status->setWordWrap(true);

    auto *range = new QHBoxLayout;
    range->addWidget(m_from);
    range->addWidget(new QLabel(tr("to")));
    range->addWidget(m_to);
    range->addWidget(new QLabel(tr("step")));
    range->addWidget(m_step);
    auto *second = new QHBoxLayout;
    second->addWidget(m_quantity2);
    second->addWidget(m_values2);
    auto *schedules = new QHBoxLayout;
    schedules->addWidget(m_schedules, 1);
    schedules->addWidget(new QLabel(tr("moved by up to")));
    schedules->addWidget(m_jitter);
    auto *form = new QFormLayout;
    form->addRow(tr("&Vary"), m_quantity);
    form->addRow(tr("Values"), range);
    form->addRow(tr("Curves for"), second);
    auto *schedulesLabel = new QLabel(tr("Sche&dules"));
    schedulesLabel->setBuddy(m_schedules); // (a row of a layout has no buddy of its own)
    form->addRow(schedulesLabel, schedules);
    form->addRow(m_about);
    form->addRow(tr("Schedules per point"), m_runs);
    form->addRow(tr("S&eed"), m_seed);
    form->addRow(tr("&Plot"), m_outcome);
    form->addRow(tr("A click &opens"), m_opens);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_resume);
    buttons->addWidget(m_progress, 1);
    auto *exports = new QHBoxLayout;
    exports->addWidget(new QLabel(tr("Export:")));
    exports->addWidget(m_exportPng);
    exports->addWidget(m_exportSvg);
    exports->addWidget(m_exportCsv);
    exports->addStretch(1);

    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(240, 140);
    m_view->chart()->legend()->setAlignment(Qt::AlignBottom);

    // A bottom dock is wide and short: the controls on the left (they scroll when the dock is
    // lower than they are, so showing it never grows the window past the screen; Run, its
    // progress and what it said stay above them, in sight), the chart on the right with the
    // rest of the width.
    auto *controls = new QWidget;
    auto *column = new QVBoxLayout(controls);
    column->setContentsMargins(0, 0, 0, 0);
    column->addLayout(form);
    column->addLayout(exports);
    column->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("sweepControls"));
    scroll->setWidget(controls);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(controls->sizeHint().width() + 24);
    auto *left = new QVBoxLayout;
    left->addLayout(buttons);
    left->addWidget(m_status);
    left->addWidget(scroll, 1);
    auto *layout = new QHBoxLayout(this);
    layout->addLayout(left);
    layout->addWidget(m_view, 1);

    connect(m_run, &QPushButton::clicked, this, [this] { start(false); });
    connect(m_resume, &QPushButton::clicked, this, [this] { start(true); });
    connect(m_cancelButton, &QPushButton::clicked, this, &SweepPanel::cancel);
    connect(&m_watcher, &QFutureWatcher<Core::SweepResult>::finished, this, &SweepPanel::finished);
    connect(m_outcome, &QComboBox::currentIndexChanged, this, &SweepPanel::updateChart);
    connect(m_schedules, &QComboBox::currentIndexChanged, this, [this] {
        const QString mode = m_schedules->currentData().toString();
        m_runs->setEnabled(mode != Core::toString(Core::SweepSchedules::Fixed));
        m_jitter->setEnabled(mode == Core::toString(Core::SweepSchedules::Near));
    });
    connect(m_quantity2, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_values2->setEnabled(i > 0); });
    // the sentence follows every choice it names
    for (QComboBox *box : {m_quantity, m_quantity2, m_schedules})
        connect(box, &QComboBox::currentIndexChanged, this, &SweepPanel::updateAbout);
    for (QSpinBox *box : {m_runs, m_jitter})
        connect(box, &QSpinBox::valueChanged, this, &SweepPanel::updateAbout);
    connect(m_jitter, &QSpinBox::valueChanged, this,
            [this](int n) { m_jitter->setSuffix(n == 1 ? tr(" tick") : tr(" ticks")); });
    // a newly chosen quantity starts from a range that says something about it, inside its
    // limits (a clock rate is at least 1)
    connect(m_quantity, &QComboBox::currentIndexChanged, this, [this] {
        const Core::Quantity *q = Core::findQuantity(m_quantity->currentData().toString());
        if (!q)
            return;
        const Core::SuggestedRange r = Core::suggestedRange(*q);
        const int lo = int(std::min<Core::Tick>(q->min, 1'000'000));
        const int hi = int(std::min<Core::Tick>(q->max, 1'000'000));
        for (QSpinBox *box : {m_from, m_to})
            box->setRange(lo, hi);
        m_from->setValue(int(r.from));
        m_to->setValue(int(r.to));
        m_step->setValue(int(r.step));
    });
    connect(m_exportPng, &QPushButton::clicked, this,
            [this] { chooseExport(QStringLiteral("png")); });
    connect(m_exportSvg, &QPushButton::clicked, this,
            [this] { chooseExport(QStringLiteral("svg")); });
    connect(m_exportCsv, &QPushButton::clicked, this,
            [this] { chooseExport(QStringLiteral("csv")); });
    m_quantity2->setCurrentIndex(0);
    m_values2->setEnabled(false);
    m_schedules->setCurrentIndex(0);
    m_runs->setEnabled(false); // (the scenario itself: one run per point)
    m_jitter->setEnabled(false);
    updateAbout();
    updateButtons();
}

SweepPanel::~SweepPanel()
{
    m_cancel = true;
    m_watcher.waitForFinished();
}

void SweepPanel::setScenario(const Core::Scenario &scenario)
{
    m_scenario = scenario;
    updateAbout(); // (shaped schedules' sentence names the scenario's last tick)
}

void SweepPanel::updateAbout()
{
    Core::SweepSpec spec;
    spec.scenario = m_scenario;
    spec.vary.quantity = Core::findQuantity(m_quantity->currentData().toString());
    if (m_quantity2->currentIndex() > 0)
        spec.vary2.quantity = Core::findQuantity(m_quantity2->currentData().toString());
    spec.schedules = Core::sweepSchedulesFromString(m_schedules->currentData().toString())
                         .value_or(Core::SweepSchedules::Fixed);
    spec.runs = std::uint32_t(m_runs->value());
    spec.jitter = Core::Tick(m_jitter->value());
    m_about->setText(Core::schedulesSentence(spec));
}

QChart *SweepPanel::chart() const
{
    return m_view->chart();
}

QLineSeries *SweepPanel::shareSeries(std::size_t curve, bool fencing) const
{
    return curve < m_lines.size() ? m_lines[curve][fencing ? 1 : 0] : nullptr;
}

bool SweepPanel::specFromControls(Core::SweepSpec *spec, QString *error) const
{
    spec->scenario = m_scenario;
    spec->vary.quantity = Core::findQuantity(m_quantity->currentData().toString());
    const QString values =
        QStringLiteral("%1..%2:%3").arg(m_from->value()).arg(m_to->value()).arg(m_step->value());
    QString e = Core::parseSweepValues(values, &spec->vary.values, spec->vary.quantity);
    if (e.isEmpty() && m_quantity2->currentIndex() > 0) {
        spec->vary2.quantity = Core::findQuantity(m_quantity2->currentData().toString());
        e = Core::parseSweepValues(m_values2->text(), &spec->vary2.values, spec->vary2.quantity);
    }
    spec->schedules = Core::sweepSchedulesFromString(m_schedules->currentData().toString())
                          .value_or(Core::SweepSchedules::Fixed);
    spec->jitter = Core::Tick(m_jitter->value());
    spec->runs = std::uint32_t(m_runs->value());
    spec->seed = std::uint64_t(m_seed->value());
    if (e.isEmpty())
        e = Core::validate(*spec);
    return e.isEmpty() || fail(error, e);
}

void SweepPanel::start(bool resume)
{
    if (running())
        return;
    if (!resume) {
        QString error;
        Core::SweepSpec spec;
        if (!specFromControls(&spec, &error)) {
            m_status->setText(error);
            return;
        }
        m_spec = std::move(spec);
        m_result = Core::SweepResult{};
        updateChart();
    }
    m_cancel = false;
    m_status->setText(tr("Running..."));
    // the worker gets copies: the panel's spec and result change only on the GUI thread
    // at the lowest priority: the window stays smooth while every core sweeps
    m_watcher.setFuture(QtConcurrent::run([this, spec = m_spec, result = m_result]() mutable {
        return runAtLowPriority([&] {
            Core::runSweep(spec, &result, 0, &m_cancel, [this](const Core::SweepProgress &p) {
                QMetaObject::invokeMethod(
                    this, [this, p] { showProgress(p.schedules, p.total); }, Qt::QueuedConnection);
            });
            return result;
        });
    }));
    updateButtons();
}

void SweepPanel::cancel()
{
    m_cancel = true;
}

void SweepPanel::finished()
{
    m_result = m_watcher.result();
    const bool complete = m_result.complete();
    std::uint64_t done = 0;
    for (const Core::PointResult &p : m_result.points)
        done += p.runs;
    showProgress(done, std::uint64_t(m_spec.pointCount()) * m_spec.runsPerPoint());
    // what the chart shows: the sentence of the sweep that ran, whatever the choices say now
    m_status->setText(complete ? Core::schedulesSentence(m_spec)
                               : tr("Cancelled: %1 of %2 points done. Resume goes on from there.")
                                     .arg(m_result.donePoints())
                                     .arg(m_result.points.size()));
    updateChart();
    updateButtons();
    emit sweepFinished(complete);
}

void SweepPanel::showProgress(std::uint64_t done, std::uint64_t total)
{
    m_progress->setValue(total ? int(done * 1000 / total) : 0);
}

void SweepPanel::updateButtons()
{
    const bool busy = running();
    m_run->setEnabled(!busy);
    m_cancelButton->setEnabled(busy);
    m_resume->setEnabled(!busy && !m_result.points.empty() && !m_result.complete());
    const bool any = m_result.donePoints() > 0;
    m_exportPng->setEnabled(any);
    m_exportSvg->setEnabled(any);
    m_exportCsv->setEnabled(any);
}
