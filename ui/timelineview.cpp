#include "timelineview.h"

#include "document.h"
#include "viewstate.h"

#include <QPainter>

TimelineView::TimelineView(Document *doc, ViewState *state, QWidget *parent)
    : QWidget(parent), m_doc(doc), m_state(state)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    connect(m_doc, &Document::changed, this, qOverload<>(&QWidget::update));
    connect(m_state, &ViewState::axisChanged, this, qOverload<>(&QWidget::update));
}

void TimelineView::setTheme(const Theme &theme)
{
    m_theme = theme;
    updateGeometry();
    update();
}

TimeAxis TimelineView::axis() const
{
    TimeAxis a;
    a.firstTick = m_state->firstTick();
    a.pixelsPerTick = m_state->pixelsPerTick();
    a.left = TimelineRenderer::headerWidth(options());
    return a;
}

TimelineRenderer::Options TimelineView::options() const
{
    TimelineRenderer::Options o;
    o.theme = m_theme;
    o.playhead = m_state->playhead();
    o.selection = m_state->selection();
    o.compare = m_state->compare();
    return o;
}

TimelineLayout TimelineView::currentLayout() const
{
    return TimelineRenderer::layout(m_doc->scenario(), options(), QRectF(rect()));
}

QSize TimelineView::sizeHint() const
{
    return TimelineRenderer::preferredSize(m_doc->scenario(), options(), 900).toSize();
}

QSize TimelineView::minimumSizeHint() const
{
    return QSize(300, 120);
}

void TimelineView::fitToWindow() {}
void TimelineView::zoomIn() {}
void TimelineView::zoomOut() {}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    m_renderer.paint(&p, QRectF(rect()), m_doc->scenario(), m_doc->trace(), nullptr, axis(),
                     options());
}

void TimelineView::resizeEvent(QResizeEvent *event) { QWidget::resizeEvent(event); }
void TimelineView::showEvent(QShowEvent *event) { QWidget::showEvent(event); }
void TimelineView::mousePressEvent(QMouseEvent *event) { QWidget::mousePressEvent(event); }
void TimelineView::mouseMoveEvent(QMouseEvent *event) { QWidget::mouseMoveEvent(event); }
void TimelineView::mouseReleaseEvent(QMouseEvent *event) { QWidget::mouseReleaseEvent(event); }
void TimelineView::mouseDoubleClickEvent(QMouseEvent *event) { QWidget::mouseDoubleClickEvent(event); }
void TimelineView::wheelEvent(QWheelEvent *event) { QWidget::wheelEvent(event); }
void TimelineView::keyPressEvent(QKeyEvent *event) { QWidget::keyPressEvent(event); }
void TimelineView::leaveEvent(QEvent *event) { QWidget::leaveEvent(event); }
void TimelineView::contextMenuEvent(QContextMenuEvent *event) { QWidget::contextMenuEvent(event); }
bool TimelineView::event(QEvent *event) { return QWidget::event(event); }
