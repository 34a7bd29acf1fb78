#include "views/claimform.h"

#include "lessonclaims.h"
#include "lessonpredict.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>

#include <algorithm>
#include <iterator>
#include <vector>

namespace {

struct KindName
{
    ClaimForm::Kind kind;
    const char *text;
};

// The kinds as the list offers them, in the words of the sentences they make.
const KindName kKinds[] = {
    {ClaimForm::WriteOutcome, QT_TRANSLATE_NOOP("ClaimForm", "A write is accepted, rejected…")},
    {ClaimForm::FinalValue, QT_TRANSLATE_NOOP("ClaimForm", "A storage ends with a value")},
    {ClaimForm::FinalMaxToken, QT_TRANSLATE_NOOP("ClaimForm", "A storage ends with a max_token")},
    {ClaimForm::GrantToken, QT_TRANSLATE_NOOP("ClaimForm", "A grant carries a token")},
    {ClaimForm::GrantNoToken, QT_TRANSLATE_NOOP("ClaimForm", "A grant carries no token")},
    {ClaimForm::GrantWritten,
     QT_TRANSLATE_NOOP("ClaimForm", "A grant's token reads (its source's own form)")},
    {ClaimForm::GrantAbove, QT_TRANSLATE_NOOP("ClaimForm", "A grant's token is above another's")},
    {ClaimForm::GrantBelow, QT_TRANSLATE_NOOP("ClaimForm", "A grant's token is below another's")},
    {ClaimForm::GrantSame, QT_TRANSLATE_NOOP("ClaimForm", "A grant's token equals another's")},
    {ClaimForm::Some, QT_TRANSLATE_NOOP("ClaimForm", "Some write is …")},
    {ClaimForm::No, QT_TRANSLATE_NOOP("ClaimForm", "No write is …")},
    {ClaimForm::LockExclusive,
     QT_TRANSLATE_NOOP("ClaimForm", "The lock is never held by two at once")},
    {ClaimForm::LockOverlapping,
     QT_TRANSLATE_NOOP("ClaimForm", "Two clients hold the lock at some moment")},
    {ClaimForm::BeliefExclusive,
     QT_TRANSLATE_NOOP("ClaimForm", "Never two clients believe they hold it")},
    {ClaimForm::BeliefOverlapping,
     QT_TRANSLATE_NOOP("ClaimForm", "Two clients believe they hold it at some moment")},
};

const Core::ClaimOutcome kOutcomes[] = {
    Core::ClaimOutcome::Accepted,  Core::ClaimOutcome::Rejected, Core::ClaimOutcome::Corrupted,
    Core::ClaimOutcome::LockedOut, Core::ClaimOutcome::Skipped,  Core::ClaimOutcome::Partial,
};

bool isGrant(ClaimForm::Kind k)
{
    return k >= ClaimForm::GrantToken && k <= ClaimForm::GrantSame;
}

bool comparesGrants(ClaimForm::Kind k)
{
    return k == ClaimForm::GrantAbove || k == ClaimForm::GrantBelow || k == ClaimForm::GrantSame;
}

} // namespace

ClaimForm::ClaimForm(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("claimForm"));
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("claimKind"));
    for (const KindName &k : kKinds)
        m_kind->addItem(tr(k.text), int(k.kind));
    m_client = new QComboBox(this);
    m_client->setObjectName(QStringLiteral("claimClient"));
    m_write = new QComboBox(this);
    m_write->setObjectName(QStringLiteral("claimWrite"));
    m_outcome = new QComboBox(this);
    m_outcome->setObjectName(QStringLiteral("claimOutcome"));
    m_storage = new QComboBox(this);
    m_storage->setObjectName(QStringLiteral("claimStorage"));
    m_value = new QLineEdit(this);
    m_value->setObjectName(QStringLiteral("claimValue"));
    m_value->setPlaceholderText(tr("empty: the storage ends empty"));
    m_token = new QLineEdit(this);
    m_token->setObjectName(QStringLiteral("claimToken"));
    m_token->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,15}")), this));
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("claimTokenText"));
    m_text->setPlaceholderText(tr("rev 8, term 3, epoch 1…"));
    m_nth = new QSpinBox(this);
    m_nth->setObjectName(QStringLiteral("claimNth"));
    m_nth->setRange(0, 1'000'000);
    m_nth->setSpecialValueText(tr("its only grant"));
    m_other = new QComboBox(this);
    m_other->setObjectName(QStringLiteral("claimOther"));
    m_otherNth = new QSpinBox(this);
    m_otherNth->setObjectName(QStringLiteral("claimOtherNth"));
    m_otherNth->setRange(0, 1'000'000);
    m_otherNth->setSpecialValueText(tr("its only grant"));
    m_sentence = new QLabel(this);
    m_sentence->setObjectName(QStringLiteral("claimSentence"));
    m_sentence->setWordWrap(true);
    m_form->addRow(tr("Claim"), m_kind);
    m_form->addRow(tr("Client"), m_client);
    m_form->addRow(tr("Write"), m_write);
    m_form->addRow(tr("Outcome"), m_outcome);
    m_form->addRow(tr("Storage"), m_storage);
    m_form->addRow(tr("Value"), m_value);
    m_form->addRow(tr("Token"), m_token);
    m_form->addRow(tr("Reads"), m_text);
    m_form->addRow(tr("Grant no."), m_nth);
    m_form->addRow(tr("Than client"), m_other);
    m_form->addRow(tr("Its grant no."), m_otherNth);
    m_form->addRow(m_sentence);
    for (QComboBox *box : {m_kind, m_write, m_outcome, m_storage, m_other})
        connect(box, &QComboBox::currentIndexChanged, this, [this] { update(); });
    connect(m_client, &QComboBox::currentIndexChanged, this, [this] {
        if (m_filling)
            return;
        m_keptWrite.reset();
        fillWrites();
        update();
    });
    for (QLineEdit *edit : {m_value, m_token, m_text})
        connect(edit, &QLineEdit::textEdited, this, [this] { update(); });
    for (QSpinBox *box : {m_nth, m_otherNth})
        connect(box, &QSpinBox::valueChanged, this, [this] { update(); });
    update();
}

void ClaimForm::setScene(const Core::Scenario &scenario, const Core::Trace &run)
{
    m_scenario = scenario;
    m_trace = run;
    fillLists();
    update();
}

void ClaimForm::fillLists()
{
    m_filling = true;
    const QString client = m_client->currentText();
    const QString storage = m_storage->currentText();
    const QString other = m_other->currentText();
    m_client->clear();
    m_other->clear();
    for (const Core::Client &c : m_scenario.clients) {
        m_client->addItem(c.name);
        m_other->addItem(c.name);
    }
    m_storage->clear();
    for (const Core::StorageSpec &s : m_scenario.storages)
        m_storage->addItem(s.name);
    m_client->setCurrentIndex(std::max(0, m_client->findText(client)));
    m_other->setCurrentIndex(std::max(0, m_other->findText(other)));
    m_storage->setCurrentIndex(std::max(0, m_storage->findText(storage)));
    m_filling = false;
    fillWrites();
}

void ClaimForm::fillWrites()
{
    m_filling = true;
    m_write->clear();
    const int c = m_client->currentIndex();
    if (c >= 0 && std::size_t(c) < m_scenario.clients.size()) {
        // the client's writes in the order they run, each named as a claim names it
        const std::vector<Core::Action> &actions = m_scenario.clients[std::size_t(c)].actions;
        std::vector<std::uint32_t> writes;
        for (std::uint32_t i = 0; i < actions.size(); ++i)
            if (actions[i].kind == Core::ActionKind::Write)
                writes.push_back(i);
        std::stable_sort(writes.begin(), writes.end(), [&](std::uint32_t a, std::uint32_t b) {
            return actions[a].at < actions[b].at;
        });
        for (const std::uint32_t i : writes)
            m_write->addItem(
                tr("%1 (sent at t=%2)")
                    .arg(Core::writeRefText(Core::writeRefFor(m_scenario, std::uint32_t(c), i)))
                    .arg(actions[i].at),
                i);
    }
    if (m_keptWrite)
        m_write->addItem(Core::writeRefText(*m_keptWrite), -1);
    m_write->setCurrentIndex(m_keptWrite ? m_write->count() - 1 : 0);
    m_filling = false;
}

void ClaimForm::setKind(Kind kind)
{
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(int(kind))));
}

ClaimForm::Kind ClaimForm::kind() const
{
    return Kind(m_kind->currentData().toInt());
}

void ClaimForm::setClaim(const Core::Claim &claim)
{
    m_filling = true;
    Kind k = WriteOutcome;
    switch (claim.kind) {
    case Core::ClaimKind::Write:
        k = WriteOutcome;
        break;
    case Core::ClaimKind::Final:
        k = claim.finalValue ? FinalValue : FinalMaxToken;
        break;
    case Core::ClaimKind::Grant:
        switch (claim.test) {
        case Core::TokenTest::Equals:
            k = GrantToken;
            break;
        case Core::TokenTest::Written:
            k = GrantWritten;
            break;
        case Core::TokenTest::NoToken:
            k = GrantNoToken;
            break;
        case Core::TokenTest::Above:
            k = GrantAbove;
            break;
        case Core::TokenTest::Below:
            k = GrantBelow;
            break;
        case Core::TokenTest::Same:
            k = GrantSame;
            break;
        }
        break;
    case Core::ClaimKind::Some:
        k = Some;
        break;
    case Core::ClaimKind::No:
        k = No;
        break;
    case Core::ClaimKind::Lock:
        k = claim.exclusive ? LockExclusive : LockOverlapping;
        break;
    case Core::ClaimKind::Belief:
        k = claim.exclusive ? BeliefExclusive : BeliefOverlapping;
        break;
    }
    setKind(k);
    const QString client =
        claim.kind == Core::ClaimKind::Write ? claim.write.client : claim.grant.client;
    m_client->setCurrentIndex(std::max(0, m_client->findText(client)));
    m_keptWrite.reset();
    m_filling = false;
    fillWrites();
    m_filling = true;
    if (claim.kind == Core::ClaimKind::Write) {
        // the write the claim names, if the form's names include it; else kept as written
        int found = -1;
        const int c = m_client->currentIndex();
        for (int i = 0; i < m_write->count() && c >= 0; ++i)
            if (Core::writeRefFor(m_scenario, std::uint32_t(c),
                                  std::uint32_t(m_write->itemData(i).toInt())) == claim.write)
                found = i;
        if (found < 0) {
            m_keptWrite = claim.write;
            m_write->addItem(Core::writeRefText(claim.write), -1);
            found = m_write->count() - 1;
        }
        m_write->setCurrentIndex(found);
    }
    m_outcome->setCurrentIndex(std::max(0, m_outcome->findData(int(claim.outcome))));
    m_storage->setCurrentIndex(std::max(0, m_storage->findText(claim.storage)));
    m_value->setText(claim.finalValue.value_or(QString()));
    m_token->setText(QString::number(
        claim.kind == Core::ClaimKind::Final ? claim.finalMaxToken.value_or(0) : claim.token));
    m_text->setText(claim.tokenText);
    m_nth->setValue(int(claim.grant.nth));
    m_other->setCurrentIndex(std::max(0, m_other->findText(claim.other.client)));
    m_otherNth->setValue(int(claim.other.nth));
    m_filling = false;
    update();
}

Core::Claim ClaimForm::claim() const
{
    Core::Claim c;
    const Kind k = kind();
    const int client = m_client->currentIndex();
    switch (k) {
    case WriteOutcome:
        c.kind = Core::ClaimKind::Write;
        if (m_write->currentData().toInt() < 0 && m_keptWrite)
            c.write = *m_keptWrite;
        else if (client >= 0 && m_write->currentIndex() >= 0)
            c.write = Core::writeRefFor(m_scenario, std::uint32_t(client),
                                        std::uint32_t(m_write->currentData().toInt()));
        else
            c.write.client = m_client->currentText();
        c.outcome = Core::ClaimOutcome(m_outcome->currentData().toInt());
        break;
    case FinalValue:
    case FinalMaxToken:
        c.kind = Core::ClaimKind::Final;
        c.storage = m_storage->currentText();
        if (k == FinalValue)
            c.finalValue = m_value->text();
        else
            c.finalMaxToken = Core::Token(m_token->text().toULongLong());
        break;
    case Some:
    case No:
        c.kind = k == Some ? Core::ClaimKind::Some : Core::ClaimKind::No;
        c.outcome = Core::ClaimOutcome(m_outcome->currentData().toInt());
        break;
    case LockExclusive:
    case LockOverlapping:
        c.kind = Core::ClaimKind::Lock;
        c.exclusive = k == LockExclusive;
        break;
    case BeliefExclusive:
    case BeliefOverlapping:
        c.kind = Core::ClaimKind::Belief;
        c.exclusive = k == BeliefExclusive;
        break;
    default: // the grants
        c.kind = Core::ClaimKind::Grant;
        c.grant.client = m_client->currentText();
        c.grant.nth = std::uint32_t(m_nth->value());
        c.test = k == GrantToken     ? Core::TokenTest::Equals
                 : k == GrantNoToken ? Core::TokenTest::NoToken
                 : k == GrantWritten ? Core::TokenTest::Written
                 : k == GrantAbove   ? Core::TokenTest::Above
                 : k == GrantBelow   ? Core::TokenTest::Below
                                     : Core::TokenTest::Same;
        c.token = Core::Token(m_token->text().toULongLong());
        c.tokenText = k == GrantWritten ? m_text->text() : QString();
        if (comparesGrants(k)) {
            c.other.client = m_other->currentText();
            c.other.nth = std::uint32_t(m_otherNth->value());
        }
        break;
    }
    return c;
}

QString ClaimForm::sentence() const
{
    return Core::claimText(claim());
}

void ClaimForm::update()
{
    const Kind k = kind();
    const bool write = k == WriteOutcome;
    const bool outcome = write || k == Some || k == No;
    // "partial" (an update half applied) is said of some or no update, not of one write
    const int wanted = write ? int(std::size(kOutcomes)) - 1 : int(std::size(kOutcomes));
    if (m_outcome->count() != wanted) {
        const QSignalBlocker block(m_outcome);
        const int was = m_outcome->currentData().toInt();
        m_outcome->clear();
        for (const Core::ClaimOutcome o : kOutcomes)
            if (!(write && o == Core::ClaimOutcome::Partial))
                m_outcome->addItem(Core::toString(o), int(o));
        m_outcome->setCurrentIndex(std::max(0, m_outcome->findData(was)));
    }
    m_form->setRowVisible(m_client, write || isGrant(k));
    m_form->setRowVisible(m_write, write);
    m_form->setRowVisible(m_outcome, outcome);
    m_form->setRowVisible(m_storage, k == FinalValue || k == FinalMaxToken);
    m_form->setRowVisible(m_value, k == FinalValue);
    m_form->setRowVisible(m_token, k == FinalMaxToken || k == GrantToken);
    m_form->setRowVisible(m_text, k == GrantWritten);
    m_form->setRowVisible(m_nth, isGrant(k));
    m_form->setRowVisible(m_other, comparesGrants(k));
    m_form->setRowVisible(m_otherNth, comparesGrants(k));
    // the sentence the room will read, and what the scene's run makes of it
    const Core::Claim c = claim();
    QString judged;
    if (!m_scenario.clients.empty()) {
        const Core::ClaimVerdict v = Core::judgeClaim(c, m_scenario, m_trace);
        if (!v.error.isEmpty())
            judged = tr("It does not fit the scene: %1").arg(v.error);
        else
            judged = v.holds ? tr("It holds in the scene's run.")
                             : tr("It does not hold in the scene's run.");
    }
    m_sentence->setText(tr("The option reads: “%1”. %2").arg(Core::claimText(c), judged));
    if (!m_filling)
        emit changed();
}
