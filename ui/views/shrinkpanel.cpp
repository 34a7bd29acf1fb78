#include "views/shrinkpanel.h"

#include "failurestory.h"
#include "sweep.h"
#include "views/lowpriority.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

ShrinkPanel::ShrinkPanel(QWidget *parent)
    : QWidget(parent), m_failure(new QComboBox),
      m_any(new QCheckBox(tr("An&y write with this outcome"))), m_story(new QLabel),
      m_fencing(new QCheckBox(tr("Fencing on"))), m_seed(new QSpinBox), m_tries(new QSpinBox),
      m_find(new QPushButton(tr("&Find and shrink"))),
      m_cancelButton(new QPushButton(tr("Cancel"))), m_replayButton(new QPushButton(tr("Re&play"))),
      m_open(new QPushButton(tr("&Open"))), m_steps(new QListWidget), m_status(new QLabel)
{
    for (auto [w, name] :
         std::initializer_list<std::pair<QWidget *, const char *>>{{m_failure, "failure"},
                                                                   {m_any, "any"},
                                                                   {m_story, "story"},
                                                                   {m_fencing, "fencing"},
                                                                   {m_seed, "seed"},
                                                                   {m_tries, "tries"},
                                                                   {m_find, "find"},
                                                                   {m_cancelButton, "cancel"},
                                                                   {m_replayButton, "replay"},
                                                                   {m_open, "open"},
                                                                   {m_steps, "steps"},
                                                                   {m_status, "status"}})
        w->setObjectName(QLatin1String(name));
    for (const Core::OutcomeSpec &o : Core::outcomes())
        m_failure->addItem(o.label, o.name);
    m_seed->setRange(0, 1'000'000'000);
    m_seed->setValue(1);
    m_tries->setRange(1, 100'000'000);
    m_tries->setValue(100000);
    m_status->setWordWrap(true);
    m_story->setWordWrap(true);
    m_story->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_any->setToolTip(tr("Count every write the checker gives this outcome, also one that is not "
                         "the failure fencing is about (say a write by a client that never held "
                         "the lock)"));

    auto *form = new QFormLayout;
    form->addRow(tr("Fail&ure"), m_failure);
    form->addRow(QString(), m_any);
    form->addRow(m_story);
    form->addRow(QString(), m_fencing);
    form->addRow(tr("S&eed"), m_seed);
    form->addRow(tr("Schedules to try"), m_tries);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_find);
    buttons->addWidget(m_cancelButton);
    buttons->addStretch(1);
    buttons->addWidget(m_replayButton);
    buttons->addWidget(m_open);
    // side by side, as the sweep panel: a bottom dock is wide and short
    auto *controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addLayout(buttons);
    controls->addWidget(m_status);
    controls->addStretch(1);
    m_steps->setMinimumHeight(80);
    auto *layout = new QHBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_steps, 1);

    m_replay.setInterval(700);
    connect(&m_replay, &QTimer::timeout, this, &ShrinkPanel::replayNext);
    connect(m_find, &QPushButton::clicked, this, &ShrinkPanel::start);
    connect(m_cancelButton, &QPushButton::clicked, this, [this] { m_cancel = true; });
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &ShrinkPanel::finished);
    connect(m_steps, &QListWidget::currentRowChanged, this, &ShrinkPanel::rowChanged);
    connect(m_replayButton, &QPushButton::clicked, this, [this] {
        if (m_steps->currentRow() == 0)
            rowChanged(0);
        else
            m_steps->setCurrentRow(0);
        m_replay.start();
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (!m_found)
            return;
        const Core::Scenario s = Core::describedResult(*m_found, m_result);
        emit openScenario(s, s.description);
    });
    connect(m_failure, &QComboBox::currentIndexChanged, this, &ShrinkPanel::updateStory);
    connect(m_any, &QCheckBox::toggled, this, &ShrinkPanel::updateStory);
    m_cancelButton->setEnabled(false);
    m_replayButton->setEnabled(false);
    m_open->setEnabled(false);
    updateStory();
}

Core::FailureTarget ShrinkPanel::target() const
{
    return {std::size_t(std::max(0, m_failure->currentIndex())), m_fencing->isChecked(),
            m_any->isChecked()};
}

void ShrinkPanel::updateStory()
{
    const Core::FailureTarget t = target();
    const bool story = !t.any && Core::storyOf(t.outcome) != Core::FailureStory::Counted;
    m_story->setText(story ? tr("Looks for %1.").arg(Core::storyText(t.outcome))
                           : tr("Looks for any %1.").arg(Core::outcomes()[t.outcome].label));
}

ShrinkPanel::~ShrinkPanel()
{
    m_cancel = true;
    m_watcher.waitForFinished();
}

void ShrinkPanel::setScenario(const Core::Scenario &scenario)
{
    m_scenario = scenario;
    m_fencing->setChecked(scenario.fencing);
}

Core::Scenario ShrinkPanel::scenarioAt(std::size_t steps) const
{
    return m_found ? Core::replaySteps(*m_found, m_result.steps, steps) : Core::Scenario{};
}

void ShrinkPanel::start()
{
    if (running())
        return;
    if (m_scenario.actionCount() == 0) {
        m_status->setText(tr("The scenario has no actions to draw schedules from."));
        return;
    }
    m_replay.stop();
    m_cancel = false;
    m_found.reset();
    m_result = {};
    m_steps->clear();
    m_target = target();
    m_watcher.setFuture(QtConcurrent::run([this, target = m_target, shape = m_scenario,
                                           seed = std::uint64_t(m_seed->value()),
                                           tries = std::uint64_t(m_tries->value())] {
        return runAtLowPriority([&] { // the window stays smooth meanwhile
            Outcome o;
            o.find = Core::findFailure(shape, target, seed, tries, &m_cancel);
            if (o.find.schedule)
                o.shrink = Core::shrink(*o.find.schedule, target, &m_cancel);
            return o;
        });
    }));
    m_status->setText(tr("Searching..."));
    m_find->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_replayButton->setEnabled(false);
    m_open->setEnabled(false);
}

void ShrinkPanel::finished()
{
    const Outcome o = m_watcher.result();
    m_find->setEnabled(true);
    m_cancelButton->setEnabled(false);
    const QString what = Core::targetText(m_target) +
                         (m_target.fencing ? tr(" with fencing on") : tr(" with fencing off"));
    if (!o.find.schedule) {
        m_status->setText(tr("No %1 in %2 schedules of seed %3.")
                              .arg(what)
                              .arg(o.find.tried)
                              .arg(m_seed->value()));
        emit searchFinished(false);
        return;
    }
    m_found = o.find.schedule;
    m_result = o.shrink;
    m_status->setText(tr("Schedule %1 of seed %2 has a %3; shrunk from %4 to %5 actions in %6 "
                         "steps%7. %8")
                          .arg(o.find.run)
                          .arg(m_seed->value())
                          .arg(what)
                          .arg(m_found->actionCount())
                          .arg(m_result.shrunk.actionCount())
                          .arg(m_result.steps.size())
                          .arg(m_result.cancelled ? tr(" (stopped early)") : QString(),
                               Core::explainFailure(m_result.shrunk, m_target)));
    m_steps->addItem(
        tr("Schedule %1 as found: %2 actions").arg(o.find.run).arg(m_found->actionCount()));
    for (std::size_t i = 0; i < m_result.steps.size(); ++i)
        m_steps->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(m_result.steps[i].text));
    m_replayButton->setEnabled(true);
    m_open->setEnabled(true);
    emit searchFinished(true);
}

void ShrinkPanel::rowChanged(int row)
{
    if (row < 0 || !m_found)
        return;
    Core::Scenario s = scenarioAt(std::size_t(row));
    s.fencing = m_fencing->isChecked();
    emit stepScenario(s, m_steps->item(row)->text());
}

void ShrinkPanel::replayNext()
{
    const int next = m_steps->currentRow() + 1;
    if (next >= m_steps->count()) {
        m_replay.stop();
        return;
    }
    m_steps->setCurrentRow(next);
}
