#include "views/livedialog.h"

#include "childprocess.h"
#include "document/comparison.h"
#include "document/document.h"
#include "etcdserver.h"
#include "viewstate.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <cmath>

namespace {

enum Role
{
    ClientRole = Qt::UserRole,
    ActionRole,
    TickRole
};

bool sameSchedule(const Core::Scenario &a, const Core::Scenario &b)
{
    return a.clients == b.clients && a.storages == b.storages && a.tokens == b.tokens &&
           a.lock == b.lock && a.fencing == b.fencing;
}

} // namespace

LiveDialog::LiveDialog(Document *doc, ViewState *state, QWidget *parent)
    : QDialog(parent), m_doc(doc), m_state(state), m_title(new QLabel), m_reason(new QLabel),
      m_fencing(new QComboBox), m_store(new QComboBox), m_tick(new QDoubleSpinBox),
      m_ownEtcd(new QRadioButton(tr("Start a throwaway etcd on this machine"))),
      m_givenEtcd(new QRadioButton(tr("Use a running etcd:"))),
      m_url(new QLineEdit(QStringLiteral("http://127.0.0.1:2379"))), m_progress(new QProgressBar),
      m_status(new QLabel), m_verdict(new QLabel), m_list(new QListWidget),
      m_start(new QPushButton(tr("&Start"))), m_cancel(new QPushButton(tr("&Cancel run")))
{
    setWindowTitle(tr("Run on etcd"));
    setObjectName(QStringLiteral("liveDialog"));
    const std::pair<QWidget *, const char *> names[] = {
        {m_reason, "liveReason"},     {m_fencing, "liveFencing"},     {m_tick, "liveTick"},
        {m_ownEtcd, "liveOwnEtcd"},   {m_givenEtcd, "liveGivenEtcd"}, {m_url, "liveUrl"},
        {m_progress, "liveProgress"}, {m_status, "liveStatus"},       {m_verdict, "liveVerdict"},
        {m_list, "liveDivergences"},  {m_start, "liveStart"},         {m_cancel, "liveCancel"}};
    for (const auto &[w, name] : names)
        w->setObjectName(QLatin1String(name));
    m_title->setWordWrap(true);
    m_reason->setWordWrap(true);
    m_verdict->setWordWrap(true);
    m_status->setText(tr("Not started."));
    m_fencing->addItem(tr("as the scenario says"));
    m_fencing->addItem(tr("on"));
    m_fencing->addItem(tr("off"));
    m_store->addItem(tr("keys in the same etcd"));
    m_store->addItem(tr("rows in a throwaway PostgreSQL (UPDATE … WHERE max_token <= token)"));
    m_tick->setRange(double(Live::kMinTickUs) / 1000, 60000);
    m_tick->setDecimals(3);
    m_tick->setSuffix(tr(" ms"));
    m_tick->setToolTip(tr("Real milliseconds per tick. etcd's lease TTLs are whole seconds, and "
                          "etcd ends a lease up to half a second late: the default is the "
                          "smallest tick that fits both."));
    m_ownEtcd->setChecked(true);
    m_url->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_cancel->setEnabled(false);
    m_list->setWordWrap(true);
    m_list->setToolTip(tr("Activate a divergence to select its action on the timeline"));

    auto *etcd = new QHBoxLayout;
    etcd->addWidget(m_givenEtcd);
    etcd->addWidget(m_url, 1);
    auto *form = new QFormLayout;
    form->addRow(tr("Fencing:"), m_fencing);
    form->addRow(tr("Tick:"), m_tick);
    form->addRow(tr("Storages:"), m_store);
    form->addRow(tr("etcd:"), m_ownEtcd);
    form->addRow(QString(), etcd);
    auto *buttons = new QDialogButtonBox;
    buttons->addButton(m_start, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancel, QDialogButtonBox::ActionRole);
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_reason);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_verdict);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
    resize(560, 480);

    connect(m_start, &QPushButton::clicked, this, &LiveDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_run)
            m_run->cancel();
    });
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    connect(m_fencing, &QComboBox::currentIndexChanged, this, &LiveDialog::refresh);
    connect(m_tick, &QDoubleSpinBox::valueChanged, this, &LiveDialog::recheck);
    connect(m_store, &QComboBox::currentIndexChanged, this, &LiveDialog::recheck);
    connect(m_givenEtcd, &QRadioButton::toggled, m_url, &QLineEdit::setEnabled);
    connect(m_givenEtcd, &QRadioButton::toggled, this, &LiveDialog::recheck);
    connect(m_list, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { showDivergence(m_list->row(item)); });
    connect(m_doc, &Document::changed, this, [this] {
        if (!isRunning())
            refresh();
    });
    refresh();
}

LiveDialog::~LiveDialog() = default;

bool LiveDialog::isRunning() const
{
    return m_run && m_run->isRunning();
}

Live::LiveOptions LiveDialog::options() const
{
    Live::LiveOptions o;
    if (m_fencing->currentIndex() > 0)
        o.fencing = m_fencing->currentIndex() == 1;
    if (m_givenEtcd->isChecked())
        o.etcd = QUrl(m_url->text().trimmed());
    o.store = m_store->currentIndex() == 1 ? Live::Store::Postgres : Live::Store::Etcd;
    o.tickUs = qint64(std::llround(m_tick->value() * 1000));
    o.laneProgram = Live::laneProgram();
    return o;
}

// The scenario (or the fencing) changed: the tick it runs at, from scratch.
void LiveDialog::refresh()
{
    const Core::Scenario &s = m_doc->scenario();
    m_title->setText(tr("<b>%1</b>").arg(s.title.toHtmlEscaped()));
    Live::LiveOptions o = options();
    o.tickUs.reset();
    Live::TickPlan plan;
    Live::LiveRun::check(s, o, &plan);
    m_plannedTickUs = plan.tickUs;
    if (plan.tickUs) {
        const QSignalBlocker quiet(m_tick);
        m_tick->setValue(double(plan.tickUs) / 1000);
    }
    recheck();
}

// What would stop a run with the fields as they are, said before anything starts.
void LiveDialog::recheck()
{
    if (isRunning())
        return;
    const Core::Scenario &s = m_doc->scenario();
    Live::TickPlan plan;
    QString problem = Live::LiveRun::check(s, options(), &plan);
    if (problem.isEmpty() && m_ownEtcd->isChecked() && Live::EtcdServer::program().isEmpty())
        problem = Live::EtcdServer::missingMessage();
    m_start->setEnabled(problem.isEmpty());
    m_tick->setEnabled(m_plannedTickUs > 0);
    if (!problem.isEmpty()) {
        m_reason->setText(tr("This scenario cannot run: %1").arg(problem));
        return;
    }
    m_reason->setText(tr("It runs in real time, %1 a tick: %2 ticks take about %3 s. Each client "
                         "is a process of its own, paused for its pauses; the lock is etcd's "
                         "concurrency.Mutex, a fenced write a Txn on max_token.")
                          .arg(Live::tickText(plan.tickUs))
                          .arg(plan.lastTick)
                          .arg(std::ceil(plan.seconds()), 0, 'f', 0));
}

void LiveDialog::start()
{
    if (isRunning())
        return;
    m_ranScenario = m_doc->scenario();
    m_run = std::make_unique<Live::LiveRun>(m_ranScenario, options());
    connect(m_run.get(), &Live::LiveRun::progress, this,
            [this](Core::Tick tick, Core::Tick of, double seconds) {
                m_progress->setRange(0, int(of));
                m_progress->setValue(int(tick));
                m_status->setText(
                    tr("t=%1 of %2, real %3 s").arg(tick).arg(of).arg(seconds, 0, 'f', 1));
            });
    connect(m_run.get(), &Live::LiveRun::finished, this, &LiveDialog::finished);
    m_start->setEnabled(false);
    m_cancel->setEnabled(true);
    for (QWidget *w : {static_cast<QWidget *>(m_fencing), static_cast<QWidget *>(m_store),
                       static_cast<QWidget *>(m_tick), static_cast<QWidget *>(m_ownEtcd),
                       static_cast<QWidget *>(m_givenEtcd), static_cast<QWidget *>(m_url)})
        w->setEnabled(false);
    m_list->clear();
    m_verdict->clear();
    m_status->setText(m_ownEtcd->isChecked() ? tr("Starting etcd and the clients…")
                                             : tr("Starting the clients…"));
    m_run->start();
}

void LiveDialog::finished(const Live::LiveResult &r)
{
    m_result = r;
    m_run.release()->deleteLater(); // (it is in its own signal)
    m_cancel->setEnabled(false);
    m_fencing->setEnabled(true);
    m_store->setEnabled(true);
    m_ownEtcd->setEnabled(true);
    m_givenEtcd->setEnabled(true);
    m_url->setEnabled(m_givenEtcd->isChecked());
    recheck();
    if (!r.ran()) {
        m_status->setText(r.error);
        emit runFinished();
        return;
    }
    m_status->setText(tr("Ran %1 s on etcd %2, %3 a tick.")
                          .arg(r.seconds, 0, 'f', 1)
                          .arg(r.etcdVersion, Live::tickText(r.tickUs)));
    m_verdict->setText(QStringLiteral("<b>%1</b>").arg(r.verdictText().toHtmlEscaped()));
    for (const Live::Divergence &d : r.divergences) {
        auto *item =
            new QListWidgetItem(tr("t=%1 · %2: %3")
                                    .arg(d.tick)
                                    .arg(d.disagreement ? tr("disagrees") : tr("note"), d.text),
                                m_list);
        item->setData(ClientRole, d.client == Core::kNone ? -1 : int(d.client));
        item->setData(ActionRole, d.action == Core::kNone ? -1 : int(d.action));
        item->setData(TickRole, double(d.tick));
        if (d.disagreement) {
            QFont bold = item->font();
            bold.setBold(true);
            item->setFont(bold);
        }
    }
    if (r.divergences.empty())
        new QListWidgetItem(tr("No divergence at all: every time and token as predicted."), m_list);
    // the two runs in compare mode, while the scenario is still the one that ran
    if (sameSchedule(m_ranScenario, m_doc->scenario())) {
        auto runs = std::make_shared<ComparedRuns>();
        const QString fencing = r.fencing ? tr("fencing on") : tr("fencing off");
        runs->top = {r.scenario, r.predicted, tr("the prediction"),
                     tr("Predicted (%1): the model, with etcd's revisions as tokens").arg(fencing)};
        QString title =
            tr("Observed on etcd %1 (%2, %3 a tick%4)")
                .arg(r.etcdVersion, fencing, Live::tickText(r.tickUs),
                     r.store == Live::Store::Postgres ? tr(", storages in PostgreSQL") : QString());
        if (!r.complete)
            title += tr(": partial, %1").arg(r.stopped);
        runs->bottom = {r.scenario, r.observed, tr("etcd %1").arg(r.etcdVersion), title};
        m_doc->setComparedRuns(std::move(runs));
        m_state->setCompare(true);
    } else {
        m_verdict->setText(m_verdict->text() +
                           tr("<br>The scenario changed while it ran: compare mode shows it as "
                              "it is now."));
    }
    emit runFinished();
}

void LiveDialog::showDivergence(int row)
{
    const QListWidgetItem *item = m_list->item(row);
    if (!item || !m_doc->comparedRuns())
        return;
    const int client = item->data(ClientRole).toInt();
    const int action = item->data(ActionRole).toInt();
    m_state->setCompare(true);
    if (client >= 0 && action >= 0)
        m_state->setSelection({client, action});
}

void LiveDialog::closeEvent(QCloseEvent *event)
{
    if (isRunning())
        m_run->cancel(); // nothing it started outlives the dialog's run
    QDialog::closeEvent(event);
}
