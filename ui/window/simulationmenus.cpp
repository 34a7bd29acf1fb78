#include "window/simulationmenus.h"

#include "document/document.h"
#include "document/editcommands.h"
#include "viewstate.h"

#include "tokensource.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>

SimulationMenus::SimulationMenus(Document *doc, ViewState *state,
                                 std::function<void(Core::FenceRule)> setRule, QObject *parent)
    : QObject(parent), m_doc(doc), m_state(state), m_setRule(std::move(setRule))
{
    connect(m_doc, &Document::changed, this, &SimulationMenus::followDocument);
}

void SimulationMenus::addRuleAndTokens(QMenu *menu)
{
    QMenu *rule = menu->addMenu(tr("Storage &rule"));
    QAction *lt = rule->addAction(tr("token < max_token rejects (lt, correct)"));
    lt->setObjectName(QStringLiteral("ruleLt"));
    connect(lt, &QAction::triggered, this, [this] { m_setRule(Core::FenceRule::Lt); });
    QAction *le = rule->addAction(tr("token <= max_token rejects (le, too strict)"));
    le->setObjectName(QStringLiteral("ruleLe"));
    connect(le, &QAction::triggered, this, [this] { m_setRule(Core::FenceRule::Le); });
    // where tokens come from (docs/SCENARIO.md section 9): one undo step, the same schedule
    QMenu *tokens = menu->addMenu(tr("&Token source"));
    tokens->setObjectName(QStringLiteral("tokenSourceMenu"));
    m_tokens = new QActionGroup(this);
    for (int i = 0; i < Core::kTokenSourceCount; ++i) {
        const auto src = Core::TokenSource(i);
        QAction *a = tokens->addAction(
            QStringLiteral("%1 (%2)").arg(Core::toString(src), Core::describeSource(src)));
        a->setObjectName(QStringLiteral("tokens-") + Core::toString(src));
        a->setCheckable(true);
        a->setData(i);
        m_tokens->addAction(a);
        connect(a, &QAction::triggered, this, [this, src] {
            if (m_doc->scenario().tokens != src)
                m_doc->undoStack()->push(EditCommands::setTokenSource(m_doc, src));
        });
    }
    followDocument();
}

void SimulationMenus::addCompareWith(QMenu *menu)
{
    // What compare mode puts under the scenario's run: the same schedule unfenced, or under
    // another token source (issue of the lesson "which sources keep the order?")
    QMenu *against = menu->addMenu(tr("Compare &with"));
    against->setObjectName(QStringLiteral("compareWithMenu"));
    auto *group = new QActionGroup(this);
    const auto add = [this, against, group](const QString &text, const QString &name,
                                            std::optional<Core::TokenSource> src) {
        QAction *a = against->addAction(text);
        a->setObjectName(name);
        a->setCheckable(true);
        a->setChecked(m_state->compareSource() == src);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, src] {
            m_state->setCompareSource(src);
            m_state->setCompare(true);
        });
        connect(m_state, &ViewState::compareSourceChanged, a,
                [this, a, src] { a->setChecked(m_state->compareSource() == src); });
    };
    add(tr("Fencing off (the same schedule unfenced)"), QStringLiteral("compareWith-fencing"),
        std::nullopt);
    against->addSeparator();
    for (int i = 0; i < Core::kTokenSourceCount; ++i) {
        const auto src = Core::TokenSource(i);
        add(tr("%1 tokens (%2)").arg(Core::toString(src), Core::describeSource(src)),
            QStringLiteral("compareWith-") + Core::toString(src), src);
        m_compareWith << against->actions().constLast();
    }
    followDocument();
}

void SimulationMenus::addRuleBox(QToolBar *toolBar)
{
    toolBar->addWidget(new QLabel(tr("  Rule: "), toolBar));
    m_ruleBox = new QComboBox(toolBar);
    m_ruleBox->setObjectName(QStringLiteral("rule"));
    m_ruleBox->addItem(tr("reject token < max (lt)"), int(Core::FenceRule::Lt));
    m_ruleBox->addItem(tr("reject token <= max (le)"), int(Core::FenceRule::Le));
    m_ruleBox->setToolTip(tr("How the storage compares an arriving token with max_token"));
    connect(m_ruleBox, &QComboBox::activated, this,
            [this](int i) { m_setRule(Core::FenceRule(m_ruleBox->itemData(i).toInt())); });
    toolBar->addWidget(m_ruleBox);
    followDocument();
}

void SimulationMenus::followDocument()
{
    const Core::Scenario &s = m_doc->scenario();
    if (m_tokens)
        for (QAction *a : m_tokens->actions())
            a->setChecked(a->data().toInt() == int(s.tokens));
    for (int i = 0; i < int(m_compareWith.size()); ++i)
        m_compareWith[i]->setEnabled(Core::TokenSource(i) != s.tokens);
    // the source compared with became the scenario's own: compare with fencing off instead
    if (!m_compareWith.isEmpty() && m_state->compareSource() == s.tokens)
        m_state->setCompareSource(std::nullopt);
    if (m_ruleBox) {
        const bool anyLe =
            std::any_of(s.storages.begin(), s.storages.end(),
                        [](const Core::StorageSpec &st) { return st.rule == Core::FenceRule::Le; });
        m_ruleBox->setCurrentIndex(anyLe ? 1 : 0);
    }
}
