#include "window/presentationwindow.h"

#include "views/presentationcontrols.h"
#include "views/presentationpanel.h"
#include "views/timelineview.h"

#include <QCloseEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

PresentationWindow::PresentationWindow(Document *doc, ViewState *state, QWidget *owner)
    : QWidget(owner, Qt::Window)
{
    setObjectName(QStringLiteral("presentationWindow"));
    setWindowTitle(tr("FenceScope presentation"));
    setAutoFillBackground(true);
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(0);

    // laid out as the main window's central widget is (MainWindow::createViews), without the
    // chart presentation mode puts away, so PresentationController::fit() sizes both alike
    m_view = new TimelineView(doc, state, this);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("timelineScroll"));
    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setFocusProxy(m_view);
    // the pinned lock and storage lanes move with a scroll: the whole view is painted again
    connect(m_scroll->verticalScrollBar(), &QScrollBar::valueChanged, m_view,
            qOverload<>(&QWidget::update));
    m_scroll->viewport()->installEventFilter(this);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_scroll);
    col->addWidget(m_splitter, 1);

    m_panel = new PresentationPanel(doc, state, this);
    col->addWidget(m_panel, 1);

    m_controls = new PresentationControls(this);
    setTheme(m_theme);
}

void PresentationWindow::setTheme(const Theme &theme)
{
    m_theme = theme;
    QPalette pal = palette();
    pal.setColor(QPalette::Window, theme.background);
    pal.setColor(QPalette::WindowText, theme.foreground);
    setPalette(pal);
    m_view->setTheme(theme);
    m_panel->setTheme(theme);
    m_controls->setTheme(theme);
}

void PresentationWindow::closeEvent(QCloseEvent *event)
{
    QWidget::closeEvent(event);
    if (event->isAccepted())
        emit closed();
}

bool PresentationWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize)
        m_view->update();
    return QWidget::eventFilter(watched, event);
}
