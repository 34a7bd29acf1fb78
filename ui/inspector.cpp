#include "inspector.h"

#include "document.h"
#include "editcommands.h"
#include "eventlogmodel.h"
#include "viewstate.h"

#include "explain.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace {

QDoubleSpinBox *tickBox(QWidget *parent, double min)
{
    // a double spin box with no decimals holds every tick a file may hold (up to 2^53) exactly
    auto *b = new QDoubleSpinBox(parent);
    b->setDecimals(0);
    b->setRange(min, double(Core::kMaxFileInteger));
    b->setKeyboardTracking(false); // commit on Enter or focus out, not per digit
    b->setAccelerated(true);
    return b;
}

} // namespace

Inspector::Inspector(Document *doc, ViewState *state, QWidget *parent)
    : QWidget(parent), m_doc(doc), m_state(state)
{
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(12, 8, 12, 8);
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_kind = new QLabel(this);
    QFont bold = m_kind->font();
    bold.setBold(true);
    m_kind->setFont(bold);
    m_name = new QLineEdit(this);
    m_at = tickBox(this, 0);
    m_amountLabel = new QLabel(this);
    m_amount = tickBox(this, 0);
    m_valueLabel = new QLabel(tr("Value"), this);
    m_value = new QLineEdit(this);
    m_storageLabel = new QLabel(tr("Storage"), this);
    m_storage = new QComboBox(this);
    m_outcome = new QLabel(this);
    m_outcome->setWordWrap(true);
    // a form layout does not grow rows for wrapped text: reserve two lines
    m_outcome->setMinimumHeight(m_outcome->fontMetrics().lineSpacing() * 2 + 4);
    m_delete = new QPushButton(tr("Delete action"), this);

    m_form->addRow(tr("Action"), m_kind);
    m_form->addRow(tr("Client"), m_name);
    m_form->addRow(tr("At tick"), m_at);
    m_form->addRow(m_amountLabel, m_amount);
    m_form->addRow(m_valueLabel, m_value);
    m_form->addRow(m_storageLabel, m_storage);
    m_form->addRow(tr("Outcome"), m_outcome);
    col->addLayout(m_form);
    col->addWidget(m_delete, 0, Qt::AlignRight);
    col->addStretch(1);

    connect(m_at, &QDoubleSpinBox::valueChanged, this, &Inspector::commitAt);
    connect(m_amount, &QDoubleSpinBox::valueChanged, this, &Inspector::commitAmount);
    connect(m_value, &QLineEdit::editingFinished, this, &Inspector::commitValue);
    connect(m_storage, &QComboBox::currentIndexChanged, this, &Inspector::commitStorage);
    connect(m_name, &QLineEdit::editingFinished, this, &Inspector::commitName);
    connect(m_delete, &QPushButton::clicked, this, &Inspector::deleteRequested);
    connect(doc, &Document::changed, this, &Inspector::refresh);
    connect(state, &ViewState::selectionChanged, this, &Inspector::refresh);
    refresh();
}

void Inspector::refresh()
{
    m_refreshing = true;
    const Selection sel = m_state->selection();
    const Core::Scenario &s = m_doc->scenario();
    const bool valid = sel.isValid() && size_t(sel.client) < s.clients.size() &&
                       size_t(sel.action) < s.clients[size_t(sel.client)].actions.size();
    for (QWidget *w : std::initializer_list<QWidget *>{m_name, m_at, m_amount, m_value, m_storage, m_delete})
        w->setEnabled(valid);
    if (!valid) {
        m_kind->setText(tr("Nothing selected"));
        m_name->clear();
        m_outcome->setText(tr("Select an action on the timeline or in the event log."));
        for (QWidget *w : std::initializer_list<QWidget *>{m_amountLabel, m_amount, m_valueLabel, m_value,
                                                  m_storageLabel, m_storage})
            w->setVisible(false);
        m_refreshing = false;
        return;
    }
    const Core::Client &c = s.clients[size_t(sel.client)];
    const Core::Action &a = c.actions[size_t(sel.action)];
    m_kind->setText(Core::toString(a.kind));
    if (!m_name->hasFocus())
        m_name->setText(c.name);
    m_at->setValue(double(a.at));
    const bool hasAmount = a.kind != Core::ActionKind::Release;
    m_amountLabel->setVisible(hasAmount);
    m_amount->setVisible(hasAmount);
    switch (a.kind) {
    case Core::ActionKind::Acquire:
        m_amountLabel->setText(tr("Lease (ttl)"));
        m_amount->setMinimum(1);
        break;
    case Core::ActionKind::Pause:
        m_amountLabel->setText(tr("Pause for"));
        m_amount->setMinimum(1);
        break;
    case Core::ActionKind::Write:
        m_amountLabel->setText(tr("Network delay"));
        m_amount->setMinimum(0);
        break;
    case Core::ActionKind::Release:
        break;
    }
    m_amount->setValue(double(a.amount));
    const bool isWrite = a.kind == Core::ActionKind::Write;
    for (QWidget *w : std::initializer_list<QWidget *>{m_valueLabel, m_value, m_storageLabel, m_storage})
        w->setVisible(isWrite);
    if (isWrite) {
        if (!m_value->hasFocus())
            m_value->setText(a.value);
        m_storage->clear();
        for (const Core::StorageSpec &st : s.storages)
            m_storage->addItem(st.name);
        m_storage->setCurrentIndex(int(a.storage));
    }
    const Core::Trace &t = m_doc->trace();
    const std::uint32_t e = Core::outcomeEvent(s, t, std::uint32_t(sel.client), std::uint32_t(sel.action));
    m_outcome->setText(e == Core::kNone ? tr("(has not run)")
                                        : QStringLiteral("t=%1 %2: %3")
                                              .arg(qulonglong(t.events[e].tick))
                                              .arg(EventLogModel::kindName(t.events[e].kind),
                                                   Core::briefEvent(s, t, e)));
    m_refreshing = false;
}

namespace {

// The selected action, if the selection still names one.
const Core::Action *selectedAction(const Document *doc, const Selection &sel)
{
    const Core::Scenario &s = doc->scenario();
    if (!sel.isValid() || size_t(sel.client) >= s.clients.size() ||
        size_t(sel.action) >= s.clients[size_t(sel.client)].actions.size())
        return nullptr;
    return &s.clients[size_t(sel.client)].actions[size_t(sel.action)];
}

} // namespace

void Inspector::commitAt()
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || Core::Tick(m_at->value()) == a->at)
        return;
    Core::Action after = *a;
    after.at = Core::Tick(m_at->value());
    m_doc->undoStack()->push(EditCommands::setAction(m_doc, sel.client, sel.action, after,
                                                     tr("Move %1").arg(Core::toString(a->kind)), true));
}

void Inspector::commitAmount()
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || Core::Tick(m_amount->value()) == a->amount)
        return;
    Core::Action after = *a;
    after.amount = Core::Tick(m_amount->value());
    m_doc->undoStack()->push(EditCommands::setAction(m_doc, sel.client, sel.action, after,
                                                     tr("Change %1").arg(m_amountLabel->text().toLower()),
                                                     true));
}

void Inspector::commitValue()
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || a->kind != Core::ActionKind::Write || m_value->text() == a->value)
        return;
    Core::Action after = *a;
    after.value = m_value->text();
    m_doc->undoStack()->push(EditCommands::setAction(m_doc, sel.client, sel.action, after, tr("Change value")));
}

void Inspector::commitStorage()
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || a->kind != Core::ActionKind::Write || m_storage->currentIndex() < 0 ||
        std::uint32_t(m_storage->currentIndex()) == a->storage)
        return;
    Core::Action after = *a;
    after.storage = std::uint32_t(m_storage->currentIndex());
    m_doc->undoStack()->push(EditCommands::setAction(m_doc, sel.client, sel.action, after, tr("Change storage")));
}

void Inspector::commitName()
{
    const Selection sel = m_state->selection();
    if (m_refreshing || !selectedAction(m_doc, sel))
        return;
    const QString name = m_name->text().trimmed();
    const Core::Scenario &s = m_doc->scenario();
    const QString old = s.clients[size_t(sel.client)].name;
    // names are unique and non-empty (the file format requires it): refuse, show the old one
    if (name.isEmpty() || name == old || s.clientIndex(name) >= 0) {
        m_name->setText(old);
        return;
    }
    m_doc->undoStack()->push(EditCommands::renameClient(m_doc, sel.client, name));
}
