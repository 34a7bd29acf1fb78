#include "views/lanedialogs.h"

#include "scenariofile.h"

#include "lockoptionsfile.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <string>

namespace {

const QString kErrorFrame =
    QStringLiteral("QLineEdit { border: 2px solid #c0392b; border-radius: 3px; "
                   "padding: 1px 2px; }");

QLabel *messageLabel(QWidget *parent)
{
    auto *l = new QLabel(parent);
    l->setWordWrap(true);
    l->setStyleSheet(QStringLiteral("color: #c0392b;"));
    l->hide();
    return l;
}

void showError(QLineEdit *edit, QLabel *message, const QString &text)
{
    message->setText(text);
    message->setVisible(!text.isEmpty());
    edit->setStyleSheet(text.isEmpty() ? QString() : kErrorFrame);
    edit->setToolTip(text);
}

// Digits of a whole number without its leading zeros, or empty when `text` is not one.
QString wholeDigits(const QString &text)
{
    static const QRegularExpression number(QStringLiteral("^[0-9]+$"));
    if (!number.match(text).hasMatch())
        return {};
    QString digits = text;
    while (digits.size() > 1 && digits.startsWith(QLatin1Char('0')))
        digits.remove(0, 1);
    return digits;
}

// A tick: 0 to 2^53, the largest integer a scenario file holds exactly.
std::optional<Core::Tick> parseTick(const QString &typed, const QString &what, QString *error)
{
    const QString text = typed.trimmed();
    const QString digits = wholeDigits(text.startsWith(QLatin1Char('+')) ? text.mid(1) : text);
    bool ok = !digits.isEmpty() && digits.size() <= 16;
    const qulonglong v = ok ? digits.toULongLong(&ok) : 0;
    if (ok && v <= Core::kMaxFileInteger)
        return Core::Tick(v);
    if (text.startsWith(QLatin1Char('-')) && !wholeDigits(text.mid(1)).isEmpty())
        *error = StorageDialog::tr("%1 “%2” is before tick 0: time starts at 0.").arg(what, text);
    else if (!digits.isEmpty())
        *error = StorageDialog::tr("%1 %2 is too large: a scenario file holds ticks up to "
                                   "2^53 = %3.")
                     .arg(what, text)
                     .arg(qulonglong(Core::kMaxFileInteger));
    else
        *error = StorageDialog::tr("%1 “%2” is not a tick: type a whole number, like 12.")
                     .arg(what, text);
    return std::nullopt;
}

// A step's `by`: a whole number within 2^53 either way (steps back are negative).
std::optional<std::int64_t> parseShift(const QString &typed, const QString &what, QString *error)
{
    const QString text = typed.trimmed();
    const bool back = text.startsWith(QLatin1Char('-'));
    const QString digits =
        wholeDigits(back || text.startsWith(QLatin1Char('+')) ? text.mid(1) : text);
    bool ok = !digits.isEmpty() && digits.size() <= 16;
    const qulonglong v = ok ? digits.toULongLong(&ok) : 0;
    if (ok && v <= Core::kMaxFileInteger)
        return back ? -std::int64_t(v) : std::int64_t(v);
    if (!digits.isEmpty())
        *error = ClockDialog::tr("%1 %2 is too large: a step is within 2^53 = %3 either way.")
                     .arg(what, text)
                     .arg(qulonglong(Core::kMaxFileInteger));
    else
        *error = ClockDialog::tr("%1 “%2” is not a whole number of ticks (like 5, or -5 for a "
                                 "step back).")
                     .arg(what, text);
    return std::nullopt;
}

// Whether the focus has just gone to the dialog's buttons: a press on OK takes it there before
// the release clicks. A message shown then would move OK from under the pointer, so the check
// is left to accept() (and Cancel needs none).
bool leavingForTheButtons(const QDialogButtonBox *buttons)
{
    const QWidget *focus = QApplication::focusWidget();
    return focus && buttons->isAncestorOf(focus);
}

} // namespace

namespace LaneDialogs {

std::optional<std::uint32_t> parseRate(const QString &typed, QString *error)
{
    // the loader's own rule (Core::parseRateText), with words for a person typing
    const QString text = typed.trimmed();
    if (const auto milli = Core::parseRateText(text))
        return milli;
    *error = text.isEmpty()
                 ? ClockDialog::tr("Type a rate: a number from 0.001 to 100 with at most "
                                   "three decimals, like 0.5 (half speed).")
                 : ClockDialog::tr("“%1” is not a rate: a number from 0.001 to 100 with at "
                                   "most three decimals, like 0.5 (half speed).")
                       .arg(text);
    return std::nullopt;
}

std::optional<std::vector<Core::Tick>> parseTicks(const QString &text, QString *error)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    const QStringList parts = text.split(separators, Qt::SkipEmptyParts);
    const int limit = Core::LockOptionsFile::kMaxScheduledTicks;
    if (parts.size() > limit) {
        *error = StorageDialog::tr("Too many restarts (%1; a scenario file holds at most %2).")
                     .arg(parts.size())
                     .arg(limit);
        return std::nullopt;
    }
    std::vector<Core::Tick> ticks;
    ticks.reserve(std::size_t(parts.size()));
    for (int i = 0; i < parts.size(); ++i) {
        const auto t = parseTick(parts[i], StorageDialog::tr("Restart %1:").arg(i + 1), error);
        if (!t)
            return std::nullopt;
        ticks.push_back(*t);
    }
    std::sort(ticks.begin(), ticks.end());
    return ticks;
}

QString ticksText(const std::vector<Core::Tick> &ticks)
{
    QStringList parts;
    for (const Core::Tick t : ticks)
        parts << QString::number(qulonglong(t));
    return parts.join(QStringLiteral(", "));
}

} // namespace LaneDialogs

// --- storage --------------------------------------------------------------------------------

StorageDialog::StorageDialog(const Core::StorageSpec &spec, QWidget *parent)
    : QDialog(parent), m_spec(spec)
{
    setWindowTitle(tr("Storage %1").arg(spec.name));
    auto *form = new QFormLayout;
    m_rule = new QComboBox(this);
    m_rule->addItem(tr("reject token < max_token (equal tokens pass)"));
    m_rule->addItem(tr("reject token <= max_token (too strict: the holder locks itself out)"));
    m_rule->setCurrentIndex(spec.rule == Core::FenceRule::Le ? 1 : 0);
    form->addRow(tr("&Rule"), m_rule);
    m_check = new QComboBox(this);
    m_check->addItem(tr("the fencing token"));
    m_check->addItem(tr("a version (compare-and-set)"));
    // section 15: the combo's index is the StorageCheck, so a file's check survives the dialog
    m_check->addItem(tr("the lock service (asks if the grant is live)"));
    m_check->addItem(tr("the first token only"));
    m_check->setCurrentIndex(int(spec.check));
    form->addRow(tr("&Checks"), m_check);
    m_durable =
        new QCheckBox(tr("max_token persisted with the data (else lost on a restart)"), this);
    m_durable->setChecked(spec.durable);
    form->addRow(QString(), m_durable);
    m_restarts = new QLineEdit(LaneDialogs::ticksText(spec.restarts), this);
    m_restarts->setPlaceholderText(tr("none (ticks, like 12, 30)"));
    m_restartsMessage = messageLabel(this);
    auto *restarts = new QVBoxLayout;
    restarts->setContentsMargins(0, 0, 0, 0);
    restarts->addWidget(m_restarts);
    restarts->addWidget(m_restartsMessage);
    auto *restartsLabel = new QLabel(tr("Restarts &at"), this);
    restartsLabel->setBuddy(m_restarts); // a row of a layout gets no buddy by itself
    form->addRow(restartsLabel, restarts);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    connect(buttons, &QDialogButtonBox::accepted, this, &StorageDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &StorageDialog::reject);
    // a shown message goes as soon as the text is right; a new one waits for the field to be left
    connect(m_restarts, &QLineEdit::textEdited, this, [this] {
        if (!m_restartsMessage->isHidden())
            checkRestarts();
    });
    connect(m_restarts, &QLineEdit::editingFinished, this, [this, buttons] {
        if (!leavingForTheButtons(buttons))
            checkRestarts();
    });

    auto *box = new QVBoxLayout(this);
    box->addLayout(form);
    box->addWidget(buttons);
}

bool StorageDialog::checkRestarts()
{
    QString error;
    const auto ticks = LaneDialogs::parseTicks(m_restarts->text(), &error);
    showError(m_restarts, m_restartsMessage, ticks ? QString() : error);
    if (ticks)
        m_spec.restarts = *ticks;
    return ticks.has_value();
}

void StorageDialog::accept()
{
    if (!checkRestarts()) {
        m_restarts->setFocus();
        return;
    }
    m_spec.rule = m_rule->currentIndex() == 1 ? Core::FenceRule::Le : Core::FenceRule::Lt;
    m_spec.check = Core::StorageCheck(std::max(0, m_check->currentIndex()));
    m_spec.durable = m_durable->isChecked();
    QDialog::accept();
}

// --- clock ----------------------------------------------------------------------------------

ClockDialog::ClockDialog(const QString &client, const Core::ClientClock &clock, QWidget *parent)
    : QDialog(parent), m_clock(clock)
{
    setWindowTitle(tr("Clock of %1").arg(client));
    auto *box = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("%1 judges its own lease by this clock: its time at tick t is "
                                "floor(rate × t) plus the steps made by then. The lock service "
                                "counts ticks.")
                                 .arg(client),
                             this);
    intro->setWordWrap(true);
    box->addWidget(intro);

    auto *form = new QFormLayout;
    m_rate = new QLineEdit(Core::rateText(clock.rateMilli), this);
    m_rate->setPlaceholderText(tr("1 (exact); 0.5 runs at half speed"));
    m_rateMessage = messageLabel(this);
    auto *rate = new QVBoxLayout;
    rate->setContentsMargins(0, 0, 0, 0);
    rate->addWidget(m_rate);
    rate->addWidget(m_rateMessage);
    auto *rateLabel = new QLabel(tr("&Rate"), this);
    rateLabel->setBuddy(m_rate);
    form->addRow(rateLabel, rate);
    box->addLayout(form);

    box->addWidget(new QLabel(tr("Steps (an NTP correction: from tick “at” on, “by” ticks "
                                 "more; negative steps back):"),
                              this));
    m_steps = new QTableWidget(0, 2, this);
    m_steps->setHorizontalHeaderLabels({tr("at (tick)"), tr("by (ticks)")});
    m_steps->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_steps->verticalHeader()->setVisible(true);
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (const Core::ClockStep &st : clock.steps) {
        const int row = m_steps->rowCount();
        m_steps->insertRow(row);
        m_steps->setItem(row, 0, new QTableWidgetItem(QString::number(qulonglong(st.at))));
        m_steps->setItem(row, 1, new QTableWidgetItem(QString::number(qlonglong(st.by))));
    }
    box->addWidget(m_steps);
    m_stepsMessage = messageLabel(this);
    box->addWidget(m_stepsMessage);
    auto *rowButtons = new QHBoxLayout;
    m_add = new QPushButton(tr("&Add step"), this);
    m_remove = new QPushButton(tr("Re&move step"), this);
    m_add->setAutoDefault(false);
    m_remove->setAutoDefault(false);
    rowButtons->addWidget(m_add);
    rowButtons->addWidget(m_remove);
    rowButtons->addStretch();
    box->addLayout(rowButtons);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    box->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ClockDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ClockDialog::reject);
    connect(m_rate, &QLineEdit::textEdited, this, [this] {
        if (!m_rateMessage->isHidden())
            checkRate();
    });
    connect(m_rate, &QLineEdit::editingFinished, this, [this, buttons] {
        if (!leavingForTheButtons(buttons))
            checkRate();
    });
    connect(m_steps, &QTableWidget::cellChanged, this, [this, buttons] {
        if (!leavingForTheButtons(buttons) || !m_stepsMessage->isHidden())
            checkSteps(false);
    });
    connect(m_add, &QPushButton::clicked, this, [this] {
        if (m_steps->rowCount() >= Core::LockOptionsFile::kMaxClockSteps) {
            m_stepsMessage->setText(
                tr("A clock has at most %1 steps.").arg(Core::LockOptionsFile::kMaxClockSteps));
            m_stepsMessage->show();
            return;
        }
        // after the last step: a step forward of one tick, to be edited
        const int row = m_steps->rowCount();
        bool ok = false;
        const qulonglong last = row > 0 && m_steps->item(row - 1, 0)
                                    ? m_steps->item(row - 1, 0)->text().toULongLong(&ok)
                                    : 0;
        const QSignalBlocker quiet(m_steps);
        m_steps->insertRow(row);
        m_steps->setItem(row, 0, new QTableWidgetItem(QString::number(ok ? last + 1 : 0)));
        m_steps->setItem(row, 1, new QTableWidgetItem(QStringLiteral("1")));
        m_steps->setCurrentCell(row, 0);
        m_steps->editItem(m_steps->item(row, 0));
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int row = m_steps->currentRow();
        if (row < 0)
            return;
        m_steps->removeRow(row);
        checkSteps(false);
    });
    resize(sizeHint().expandedTo(QSize(420, 360)));
}

bool ClockDialog::checkRate()
{
    QString error;
    const auto milli = LaneDialogs::parseRate(m_rate->text(), &error);
    showError(m_rate, m_rateMessage, milli ? QString() : error);
    if (milli)
        m_clock.rateMilli = *milli;
    return milli.has_value();
}

bool ClockDialog::checkSteps(bool focusTheBadCell)
{
    std::vector<Core::ClockStep> steps;
    QString error;
    int badRow = -1;
    int badColumn = 0;
    for (int row = 0; row < m_steps->rowCount() && badRow < 0; ++row) {
        const QTableWidgetItem *at = m_steps->item(row, 0);
        const QTableWidgetItem *by = m_steps->item(row, 1);
        Core::ClockStep step;
        const auto t =
            parseTick(at ? at->text() : QString(), tr("Step %1, at:").arg(row + 1), &error);
        if (!t) {
            badRow = row;
            break;
        }
        const auto d =
            parseShift(by ? by->text() : QString(), tr("Step %1, by:").arg(row + 1), &error);
        if (!d) {
            badRow = row;
            badColumn = 1;
            break;
        }
        step.at = *t;
        step.by = *d;
        steps.push_back(step);
    }
    m_stepsMessage->setText(error);
    m_stepsMessage->setVisible(badRow >= 0);
    if (badRow >= 0) {
        if (focusTheBadCell) {
            m_steps->setCurrentCell(badRow, badColumn);
            m_steps->setFocus();
        }
        return false;
    }
    // in order of `at`, as the loader and the simulator read them
    std::stable_sort(
        steps.begin(), steps.end(),
        [](const Core::ClockStep &a, const Core::ClockStep &b) { return a.at < b.at; });
    m_clock.steps = std::move(steps);
    return true;
}

void ClockDialog::accept()
{
    if (!checkRate()) {
        m_rate->setFocus();
        return;
    }
    if (!checkSteps(true))
        return;
    QDialog::accept();
}
