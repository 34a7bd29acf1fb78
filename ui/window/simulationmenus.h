#pragma once

// Simulation's menus of choices: the storage rule, the token source and what compare mode puts
// beside the run, and the toolbar's rule box. Each entry changes the document (one undo step) or
// the view state, and its check follows them, whatever made the change (undo, a file, a lesson's
// scene).

#include "scenario.h"

#include <QList>
#include <QObject>

#include <functional>

class Document;
class QAction;
class QActionGroup;
class QComboBox;
class QMenu;
class QToolBar;
class ViewState;

class SimulationMenus : public QObject
{
    Q_OBJECT
public:
    // `setRule` sets every storage's rule in one undo step (the toolbar's rule box does too).
    SimulationMenus(Document *doc, ViewState *state, std::function<void(Core::FenceRule)> setRule,
                    QObject *parent);

    // Simulation > Storage rule and Simulation > Token source, into `menu`.
    void addRuleAndTokens(QMenu *menu);
    // Simulation > Compare with, into `menu`. The scenario's own token source is not offered:
    // a run beside itself shows nothing, and a lesson's scene refuses it.
    void addCompareWith(QMenu *menu);
    // The toolbar's rule box: "le" when any storage compares with <=.
    void addRuleBox(QToolBar *toolBar);

private:
    void followDocument();

    Document *m_doc;
    ViewState *m_state;
    std::function<void(Core::FenceRule)> m_setRule;
    QActionGroup *m_tokens = nullptr;
    QComboBox *m_ruleBox = nullptr;
    QList<QAction *> m_compareWith; // (Compare with's token sources, in their order)
};
