#include "views/inspector.h"

#include "document/document.h"
#include "document/editcommands.h"
#include "views/eventlogmodel.h"
#include "views/outcometext.h"
#include "views/tickfield.h"

#include "explain.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

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

// An action's end (at + ttl, length or delay) must stay a number the simulation and the file
// format agree on: below 2^54.
constexpr Core::Tick kMaxEnd = Core::Tick(1) << 54;

const QString kNameErrorFrame = QStringLiteral(
    "QLineEdit { border: 2px solid #c0392b; border-radius: 3px; padding: 1px 2px; }");

} // namespace

Inspector::Inspector(Document *doc, ViewState *state, QWidget *parent)
    : QWidget(parent), m_doc(doc), m_state(state), m_baseFont(font())
{
    // The fields in a scroll area: a dock too short for them (a projector, an error message
    // under a field) scrolls, instead of squeezing rows over each other until one is lost.
    auto *content = new QWidget;
    auto *col = new QVBoxLayout(content);
    col->setContentsMargins(12, 8, 12, 8);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("inspectorScroll"));
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(content);
    // as narrow as the dock makes it: the rows share the width (no sideways scrolling)
    content->setMinimumWidth(1);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_scroll);
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_kind = new QLabel(this);
    QFont bold = m_kind->font();
    bold.setBold(true);
    m_kind->setFont(bold);

    auto *nameBox = new QWidget(this);
    m_name = new QLineEdit(nameBox);
    m_nameMessage = new QLabel(nameBox);
    m_nameMessage->setWordWrap(true);
    m_nameMessage->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_nameMessage->hide();
    auto *nameCol = new QVBoxLayout(nameBox);
    nameCol->setContentsMargins(0, 0, 0, 0);
    nameCol->setSpacing(2);
    nameCol->addWidget(m_name);
    nameCol->addWidget(m_nameMessage);
    nameBox->setFocusProxy(m_name);
    nameBox->installEventFilter(this); // its width: the name message's lines (fitNameMessage)
    m_name->installEventFilter(this);

    m_at = new TickField(this);
    m_at->setObjectName(QStringLiteral("at"));
    m_amountLabel = new QLabel(this);
    m_amount = new TickField(this);
    m_amount->setObjectName(QStringLiteral("amount"));
    m_valueLabel = new QLabel(tr("Value"), this);
    m_value = new QLineEdit(this);
    m_storageLabel = new QLabel(tr("Storage"), this);
    m_storage = new QComboBox(this);
    // as wide as its longest storage name, whenever the names change ("topic", never "top")
    m_storage->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_keepaliveLabel = new QLabel(tr("Keepalive every"), this);
    m_keepalive = new TickField(this);
    m_keepalive->setObjectName(QStringLiteral("keepalive"));
    m_keepalive->setMinimum(0);
    m_keepalive->setToolTip(tr("Renew the lease every this many ticks while not frozen (etcd's "
                               "client: every TTL/3); 0: no keepalives"));
    m_checkLabel = new QLabel(tr("Check first"), this);
    // Short, as check boxes are: a box's words never wrap, and a 1024 px projector leaves the
    // dock 300 px (the whole sentence was cut to "...skip if e"). The tooltip and What's This
    // say it all.
    m_check = new QCheckBox(tr("skip if expired"), this);
    const QString checkTip = tr("Check-then-write: at the write's tick the client checks its "
                                "lease by its own clock and skips the write if the lease has "
                                "expired; else it sends the write the gap's ticks later (a "
                                "pause in between makes the check worthless: Kleppmann 2016)");
    for (QWidget *w : std::initializer_list<QWidget *>{m_checkLabel, m_check}) {
        w->setToolTip(checkTip);
        w->setWhatsThis(checkTip);
    }
    m_check->setAccessibleName(tr("Check the lease by its own clock first, skip if expired"));
    m_gapLabel = new QLabel(tr("Gap to send"), this);
    m_gap = new TickField(this);
    m_gap->setObjectName(QStringLiteral("gap"));
    m_gap->setMinimum(0);
    m_gap->setToolTip(tr("Ticks from the check to the send: a pause in them makes the check "
                         "worthless, the pause comes after it (Kleppmann 2016)"));
    m_groupLabel = new QLabel(tr("Group"), this);
    m_group = new QLineEdit(this);
    m_group->setPlaceholderText(tr("none (one update across storages)"));
    m_outcome = new OutcomeText(this);
    m_delete = new QPushButton(tr("Delete action"), this);

    m_form->addRow(tr("Action"), m_kind);
    m_form->addRow(tr("Client"), nameBox);
    m_form->addRow(tr("At tick"), m_at);
    m_form->addRow(m_amountLabel, m_amount);
    m_form->addRow(m_valueLabel, m_value);
    m_form->addRow(m_storageLabel, m_storage);
    m_form->addRow(m_keepaliveLabel, m_keepalive);
    m_form->addRow(m_checkLabel, m_check);
    m_form->addRow(m_gapLabel, m_gap);
    m_form->addRow(m_groupLabel, m_group);
    m_rows = {{m_amountLabel, m_amount},       {m_valueLabel, m_value}, {m_storageLabel, m_storage},
              {m_keepaliveLabel, m_keepalive}, {m_checkLabel, m_check}, {m_gapLabel, m_gap},
              {m_groupLabel, m_group}};
    col->addLayout(m_form);
    // the outcome is the longest text here: the dock's whole width and the height left over,
    // not the narrow field column of the form
    auto *outcomeHeading = new QLabel(tr("Outcome"), this);
    col->addSpacing(4);
    col->addWidget(outcomeHeading);
    col->addWidget(m_outcome, 1);
    col->addWidget(m_delete, 0, Qt::AlignRight);

    m_at->setCheck([this](Core::Tick at) {
        const Core::Action *a = selectedAction(m_doc, m_state->selection());
        return a ? endCheck(at, a->amount) : QString();
    });
    m_amount->setCheck([this](Core::Tick amount) {
        const Core::Action *a = selectedAction(m_doc, m_state->selection());
        return a ? endCheck(a->at, amount) : QString();
    });

    // Ctrl+Z and Ctrl+Tab in every field (eventFilter)
    for (QLineEdit *edit : textFields())
        edit->installEventFilter(this);

    connect(m_at, &TickField::committed, this, &Inspector::commitAt);
    connect(m_amount, &TickField::committed, this, &Inspector::commitAmount);
    connect(m_value, &QLineEdit::editingFinished, this, &Inspector::commitValue);
    connect(m_storage, &QComboBox::currentIndexChanged, this, &Inspector::commitStorage);
    connect(m_name, &QLineEdit::editingFinished, this, &Inspector::commitName);
    connect(m_keepalive, &TickField::committed, this, &Inspector::commitKeepalive);
    connect(m_check, &QCheckBox::toggled, this, &Inspector::commitCheck);
    connect(m_gap, &TickField::committed, this, &Inspector::commitGap);
    connect(m_group, &QLineEdit::editingFinished, this, &Inspector::commitGroup);
    connect(m_delete, &QPushButton::clicked, this, &Inspector::deleteRequested);
    connect(doc, &Document::changed, this, &Inspector::refresh);
    connect(state, &ViewState::selectionChanged, this, &Inspector::refresh);
    refresh();
}

QSize Inspector::sizeHint() const
{
    return m_scroll->widget()->sizeHint() +
           QSize(m_scroll->verticalScrollBar()->sizeHint().width(), 0);
}

QSize Inspector::minimumSizeHint() const
{
    // all the fields' height: the docks are laid out as before they scrolled (a window that
    // cannot give this much leaves them scrolling instead of squeezed); at most three tenths of
    // the screen's width, so that a 1024 px projector keeps the window on it, the lanes and
    // compare mode's verdicts beside the dock (the fields' rows then share what is left)
    QSize size = m_scroll->widget()->layout()->minimumSize();
    if (const QScreen *s = screen())
        size.setWidth(std::min(size.width(), s->availableGeometry().width() * 3 / 10));
    return size;
}

void Inspector::setFontScale(double scale)
{
    QFont f = m_baseFont;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * scale);
    else
        f.setPixelSize(std::max(1, int(std::lround(f.pixelSize() * scale))));
    setFont(f);
    // Text grown for a lecture hall may leave a 1024 px projector's dock too narrow for a
    // label and its field side by side: each such field goes under its label, both whole. (At
    // the base size the rows stay side by side: wrapping would ask the dock for more height
    // than the story above it can spare.)
    m_form->setRowWrapPolicy(scale > 1 ? QFormLayout::WrapLongRows : QFormLayout::DontWrapRows);
    // the dock is laid out by what the fields ask for (sizeHint), which the scroll area does
    // not pass on by itself
    m_scroll->widget()->layout()->activate();
    updateGeometry();
}

QWidget *Inspector::outcomeWidget() const
{
    return m_outcome;
}

QString Inspector::outcomeText() const
{
    return m_outcome->text();
}

QStringList Inspector::outcomeLines() const
{
    return m_outcome->shownLines();
}

bool Inspector::outcomeElided() const
{
    return m_outcome->isElided();
}

QString Inspector::endCheck(Core::Tick at, Core::Tick amount) const
{
    const Core::Action *a = selectedAction(m_doc, m_state->selection());
    if (!a || a->kind == Core::ActionKind::Release || at + amount < kMaxEnd)
        return {};
    return tr("t=%1 plus %2 ends past 2^54, the latest end a scenario may hold.")
        .arg(qulonglong(at))
        .arg(qulonglong(amount));
}

// A row that comes and goes is taken out of the form, not hidden in it. Qt 6.4's QFormLayout
// keeps a hidden row's place from the last layout that showed it (setupVerticalLayoutData
// skips the row without resetting its vLayoutIndex), and once a wrapped message under a field
// makes the form height-for-width, setupHfwLayoutData writes that row's heights at its old place
// in a list sized for the rows shown now: past the list's end, into whatever the heap holds
// there (qtbase 6.4.2, src/widgets/kernel/qformlayout.cpp). A refused entry under an action
// with fewer rows than one shown before (an acquire after a write) corrupted the heap that way.
void Inspector::showRow(QWidget *field, bool on)
{
    const auto it = std::find_if(m_rows.begin(), m_rows.end(),
                                 [field](const Row &r) { return r.field == field; });
    Q_ASSERT(it != m_rows.end());
    const auto rowOf = [this](QWidget *w) {
        int row = -1;
        QFormLayout::ItemRole role;
        m_form->getWidgetPosition(w, &row, &role);
        return row;
    };
    const int row = rowOf(field);
    if (on && row < 0) {
        // after the rows before it that are in the form
        int at = rowOf(m_at) + 1;
        for (auto r = m_rows.begin(); r != it; ++r)
            if (const int before = rowOf(r->field); before >= 0)
                at = before + 1;
        m_form->insertRow(at, it->label, it->field);
    } else if (!on && row >= 0) {
        const QFormLayout::TakeRowResult taken = m_form->takeRow(row);
        delete taken.labelItem; // the items only: the widgets stay, hidden, for the next time
        delete taken.fieldItem;
    }
    it->label->setVisible(on);
    it->field->setVisible(on);
}

void Inspector::refresh()
{
    m_refreshing = true;
    const Selection sel = m_state->selection();
    const Core::Scenario &s = m_doc->scenario();
    const Core::Action *a = selectedAction(m_doc, sel);
    const bool valid = a != nullptr;
    // a refused entry stays for correcting while its action stays selected; any other
    // selection shows the scenario's values
    const bool sameAction = valid && sel == m_shown;
    m_shown = valid ? sel : Selection{};
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_name, m_at, m_amount, m_value, m_storage, m_keepalive,
                                          m_check, m_gap, m_group, m_delete})
        w->setEnabled(valid);
    if (!valid) {
        m_kind->setText(tr("Nothing selected"));
        m_name->clear();
        showNameError({});
        m_at->setValue(std::nullopt); // blank, never the last selection's number
        m_amount->setValue(std::nullopt);
        m_value->clear();
        m_outcome->setText(tr("Select an action on the timeline or in the event log."));
        for (const Row &r : m_rows)
            showRow(r.field, false);
        m_refreshing = false;
        return;
    }
    const Core::Client &c = s.clients[size_t(sel.client)];
    m_kind->setText(Core::toString(a->kind));
    // a name being typed (or refused) stays; anything else shows the scenario's
    if (!(sameAction && (m_name->isModified() || !m_nameError.isEmpty()))) {
        m_name->setText(c.name);
        showNameError({});
    }
    if (!(sameAction && !m_at->error().isEmpty()))
        m_at->setValue(a->at);
    const bool hasAmount = a->kind != Core::ActionKind::Release;
    showRow(m_amount, hasAmount);
    switch (a->kind) {
    case Core::ActionKind::Acquire:
        m_amountLabel->setText(tr("Lease (ttl)"));
        m_amount->setMinimum(1, tr("A lease lasts at least 1 tick."));
        break;
    case Core::ActionKind::Pause:
        m_amountLabel->setText(tr("Pause for"));
        m_amount->setMinimum(1, tr("A pause lasts at least 1 tick."));
        break;
    case Core::ActionKind::Write:
    case Core::ActionKind::Read:
        m_amountLabel->setText(tr("Network delay"));
        m_amount->setMinimum(0);
        break;
    case Core::ActionKind::Release:
        break;
    }
    if (!hasAmount)
        m_amount->setValue(std::nullopt);
    else if (!(sameAction && !m_amount->error().isEmpty()))
        m_amount->setValue(a->amount);
    const bool isWrite = a->kind == Core::ActionKind::Write;
    const bool hasStorage = isWrite || a->kind == Core::ActionKind::Read;
    for (QWidget *field : std::initializer_list<QWidget *>{m_value, m_check, m_gap, m_group})
        showRow(field, isWrite);
    showRow(m_storage, hasStorage);
    const bool isAcquire = a->kind == Core::ActionKind::Acquire;
    showRow(m_keepalive, isAcquire);
    if (!isAcquire)
        m_keepalive->setValue(std::nullopt);
    else if (!(sameAction && !m_keepalive->error().isEmpty()))
        m_keepalive->setValue(a->keepalive());
    m_check->setChecked(isWrite && a->check);
    m_gap->setEnabled(isWrite && a->check);
    if (!isWrite || !a->check)
        m_gap->setValue(isWrite ? std::optional<Core::Tick>(0) : std::nullopt);
    else if (!(sameAction && !m_gap->error().isEmpty()))
        m_gap->setValue(a->gap());
    if (!(sameAction && m_group->isModified()))
        m_group->setText(isWrite ? a->group() : QString());
    if (hasStorage) {
        if (isWrite && !(sameAction && m_value->isModified()))
            m_value->setText(a->value);
        m_storage->clear();
        for (const Core::StorageSpec &st : s.storages)
            m_storage->addItem(st.name);
        m_storage->setCurrentIndex(int(a->storage));
    } else {
        m_value->clear();
        m_storage->clear();
    }
    const Core::Trace &t = m_doc->trace();
    const std::uint32_t e =
        Core::outcomeEvent(s, t, std::uint32_t(sel.client), std::uint32_t(sel.action));
    m_outcome->setText(e == Core::kNone ? tr("(has not run)")
                                        : QStringLiteral("t=%1 %2: %3")
                                              .arg(qulonglong(t.events[e].tick))
                                              .arg(EventLogModel::kindName(t.events[e].kind),
                                                   Core::briefEvent(s, t, e)));
    m_refreshing = false;
}

void Inspector::commitAt(Core::Tick at, bool stepped)
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || at == a->at)
        return;
    Core::Action after = *a;
    after.at = at;
    m_doc->undoStack()->push(EditCommands::setAction(
        m_doc, sel.client, sel.action, after, tr("Move %1").arg(Core::toString(a->kind)), stepped));
}

void Inspector::commitAmount(Core::Tick amount, bool stepped)
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || a->kind == Core::ActionKind::Release || amount == a->amount)
        return;
    Core::Action after = *a;
    after.amount = amount;
    m_doc->undoStack()->push(
        EditCommands::setAction(m_doc, sel.client, sel.action, after,
                                tr("Change %1").arg(m_amountLabel->text().toLower()), stepped));
}

void Inspector::commitValue()
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || a->kind != Core::ActionKind::Write)
        return;
    m_value->setModified(false); // committed: from now on the field follows the scenario
    if (m_value->text() == a->value)
        return;
    Core::Action after = *a;
    after.value = m_value->text();
    m_doc->undoStack()->push(
        EditCommands::setAction(m_doc, sel.client, sel.action, after, tr("Change value")));
}

void Inspector::commitStorage()
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a ||
        (a->kind != Core::ActionKind::Write && a->kind != Core::ActionKind::Read) ||
        m_storage->currentIndex() < 0 || std::uint32_t(m_storage->currentIndex()) == a->storage)
        return;
    Core::Action after = *a;
    after.storage = std::uint32_t(m_storage->currentIndex());
    m_doc->undoStack()->push(
        EditCommands::setAction(m_doc, sel.client, sel.action, after, tr("Change storage")));
}

void Inspector::commitKeepalive(Core::Tick every, bool stepped)
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || a->kind != Core::ActionKind::Acquire || every == a->keepalive())
        return;
    Core::Action after = *a;
    after.setKeepalive(every);
    m_doc->undoStack()->push(EditCommands::setAction(m_doc, sel.client, sel.action, after,
                                                     tr("Change keepalive"), stepped));
}

void Inspector::commitCheck()
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || a->kind != Core::ActionKind::Write ||
        m_check->isChecked() == a->check)
        return;
    Core::Action after = *a;
    after.check = m_check->isChecked();
    if (!after.check)
        after.setGap(0); // a gap only belongs to a check (the file refuses it otherwise)
    m_doc->undoStack()->push(EditCommands::setAction(m_doc, sel.client, sel.action, after,
                                                     after.check ? tr("Check before writing")
                                                                 : tr("Write without checking")));
}

void Inspector::commitGap(Core::Tick gap, bool stepped)
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || a->kind != Core::ActionKind::Write || !a->check || gap == a->gap())
        return;
    Core::Action after = *a;
    after.setGap(gap);
    m_doc->undoStack()->push(
        EditCommands::setAction(m_doc, sel.client, sel.action, after, tr("Change gap"), stepped));
}

void Inspector::commitGroup()
{
    const Selection sel = m_state->selection();
    const Core::Action *a = selectedAction(m_doc, sel);
    if (m_refreshing || !a || a->kind != Core::ActionKind::Write)
        return;
    m_group->setModified(false);
    const QString group = m_group->text().trimmed(); // empty: no group
    if (group == a->group()) {
        m_group->setText(group);
        return;
    }
    Core::Action after = *a;
    after.setGroup(group);
    m_doc->undoStack()->push(
        EditCommands::setAction(m_doc, sel.client, sel.action, after, tr("Change group")));
}

void Inspector::commitName()
{
    const Selection sel = m_state->selection();
    if (m_refreshing || !selectedAction(m_doc, sel))
        return;
    const QString name = m_name->text().trimmed();
    const Core::Scenario &s = m_doc->scenario();
    const QString old = s.clients[size_t(sel.client)].name;
    // names are unique and non-empty (the file format requires it): refuse at the field and
    // keep what was typed, so the user sees why and can correct it
    if (name.isEmpty()) {
        showNameError(tr("A client needs a name (it still is “%1”).").arg(old));
        return;
    }
    if (name != old && s.clientIndex(name) >= 0) {
        showNameError(
            tr("“%1” is another client's name: names are unique (this one still is “%2”).")
                .arg(name, old));
        return;
    }
    showNameError({});
    m_name->setModified(false); // committed: from now on the field follows the scenario
    if (name == old) {
        m_name->setText(old); // typed spaces around the name are not part of it
        return;
    }
    m_doc->undoStack()->push(EditCommands::renameClient(m_doc, sel.client, name));
}

void Inspector::showNameError(const QString &message)
{
    if (message == m_nameError)
        return;
    m_nameError = message;
    m_nameMessage->setText(message);
    m_nameMessage->setVisible(!message.isEmpty());
    fitNameMessage();
    m_name->setStyleSheet(message.isEmpty() ? QString() : kNameErrorFrame);
    m_name->setToolTip(message);
}
