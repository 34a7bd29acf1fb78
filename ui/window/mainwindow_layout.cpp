// MainWindow, part: the views in the docks (story, inspector, event log, Explore) and what
// connects them; where the docks go, the height shared between lanes and chart and the saved
// geometry are the DockLayout's (docklayout.*).

#include "window/mainwindow.h"

#include "document/changethrottle.h"
#include "document/document.h"
#include "views/eventlogmodel.h"
#include "views/inspector.h"
#include "views/lessonstage.h"
#include "views/narrationpanel.h"
#include "views/shrinkpanel.h"
#include "views/sweeppanel.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/docklayout.h"
#include "window/filecontroller.h"
#include "window/presentationcontroller.h"
#include "window/windowactions.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLayout>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

void MainWindow::createDocks()
{
    DockLayout::Parts parts;
    parts.window = this;
    parts.doc = m_doc;
    parts.state = m_state;
    parts.view = m_timeline;
    parts.splitter = m_splitter;
    parts.chart = m_chart;
    parts.viewMenu = m_actions->viewMenu();
    DockLayout::Hooks hooks;
    // (presenting on a screen of its own leaves the window as it is: it lays out as ever)
    hooks.isPresenting = [this] { return isPresenting() && !m_presentation->onOwnScreen(); };
    hooks.fitPresentation = [this] { m_presentation->fit(); };
    m_layout = new DockLayout(parts, hooks, this);

    m_narration = new NarrationPanel(m_doc, m_state, this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_narration);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // A selection's explanation is what the user asked for: on a short story (a small screen, a
    // tall inspector below) it scrolls into view, its heading at the top when it does not fit,
    // once the panel has laid out the new text (the explanation wins where both do not fit).
    // Only for another selection: documentChanged() says the same one again after every edit
    // (its outcome may be another log row), and a drag's every step would lay the story out
    // again and pull it back to the explanation the user may have scrolled away from.
    connect(m_state, &ViewState::selectionChanged, scroll,
            [this, scroll, shown = Selection()](const Selection &sel) mutable {
                if (sel == shown)
                    return;
                shown = sel;
                QTimer::singleShot(0, scroll, [this, scroll] {
                    if (!m_state->selection().isValid())
                        return;
                    // (the nested layouts too: a narrow dock wraps the new text over more lines)
                    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
                    scroll->widget()->layout()->activate();
                    // the heading first, then the explanation: where both do not fit, the
                    // explanation
                    scroll->ensureWidgetVisible(m_narration->selectedHeading(), 0, 6);
                    scroll->ensureWidgetVisible(m_narration->selectedExplanation(), 0, 6);
                });
            });

    m_inspector = new Inspector(m_doc, m_state, this);
    connect(m_inspector, &Inspector::deleteRequested, this, &MainWindow::deleteSelected);
    m_logModel = new EventLogModel(m_doc, this);
    m_log = new QTableView(this);
    m_log->setObjectName(QStringLiteral("eventLog"));
    m_log->setModel(m_logModel);
    m_log->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_log->setSelectionMode(QAbstractItemView::SingleSelection);
    m_log->setAlternatingRowColors(true);
    m_log->setWordWrap(false);
    m_log->verticalHeader()->hide();
    // fixed row heights: the view never measures millions of rows
    m_log->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_log->verticalHeader()->setDefaultSectionSize(m_log->fontMetrics().height() + 8);
    QHeaderView *h = m_log->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setStretchLastSection(true);
    const int widths[] = {56, 70, 110, 60, 70, 110};
    for (int c = 0; c < 6; ++c)
        m_log->setColumnWidth(c, widths[c]);
    // Explore: sweeps over many seeded schedules shaped like the open scenario, and the search
    // for a failing schedule with its shrinking. A tab next to the event log; its chart or its
    // shrink steps open a schedule in the timeline.
    m_sweep = new SweepPanel(this);
    m_shrink = new ShrinkPanel(this);
    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("exploreTabs"));
    tabs->addTab(m_sweep, tr("&Sweep"));
    tabs->addTab(m_shrink, tr("Find and s&hrink"));
    QDockWidget *explore = m_layout->addDocks(scroll, m_inspector, m_log, tabs);
    // the panels read the scenario when they show and then follow it, paced like the other
    // whole-run views (a drag on a long run does not copy its scenario at every step)
    const auto follow = [this, explore] {
        if (!explore->isVisible())
            return;
        m_sweep->setScenario(m_doc->scenario());
        m_shrink->setScenario(m_doc->scenario());
    };
    new ChangeThrottle(m_doc, explore, follow);
    connect(explore, &QDockWidget::visibilityChanged, this, [follow](bool shown) {
        if (shown)
            follow();
    });
    const auto open = [this](const Core::Scenario &s) { m_files->openExplored(s); };
    connect(m_sweep, &SweepPanel::openScenario, this, open);
    connect(m_shrink, &ShrinkPanel::openScenario, this, open);
    connect(m_shrink, &ShrinkPanel::stepScenario, this, open);
}

void MainWindow::fitSplitter()
{
    if (m_layout) // (not before the docks are made)
        m_layout->fitSplitter();
}

void MainWindow::resetLayout()
{
    m_layout->resetLayout();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_timelineScroll->viewport() && event->type() == QEvent::Resize)
        m_timeline->update();
    // the splitter's height settles after the window's (docks, toolbar): fit when it does
    if (watched == m_splitter && event->type() == QEvent::Resize)
        fitSplitter();
    if (m_lessonStageScroll && watched == m_lessonStage &&
        (event->type() == QEvent::ShowToParent || event->type() == QEvent::HideToParent))
        m_lessonStageScroll->setVisible(event->type() == QEvent::ShowToParent);
    return QMainWindow::eventFilter(watched, event);
}
