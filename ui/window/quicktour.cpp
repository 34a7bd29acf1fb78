#include "window/quicktour.h"

#include "views/timelineview.h"

#include <QAction>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QSettings>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr int kHolePad = 6; // the lit hole reaches this far past the target
constexpr int kCardWidth = 360;
constexpr int kCardGap = 14; // between the hole and the card

// A rectangle of the timeline, in host coordinates, cut to what is on screen of it.
QRect onTimeline(QWidget *host, const std::function<QRectF(const TimelineView *)> &part)
{
    const TimelineView *view = host->findChild<TimelineView *>();
    if (!view || !view->isVisible())
        return {};
    const QRect r = part(view).toAlignedRect() & view->visibleRegion().boundingRect();
    if (r.isEmpty())
        return {};
    return QRect(view->mapTo(host, r.topLeft()), r.size());
}

// A client lane (header cell and plot) of the timeline's first panel.
QRectF clientLane(const TimelineView *view, int client)
{
    const TimelineLayout l = view->currentLayout();
    if (l.panels.empty() || size_t(client) >= l.panels.front().clients.size())
        return {};
    const ClientLaneRects &c = l.panels.front().clients[size_t(client)];
    return c.header.united(c.lane);
}

// The toolbar button of the host's action `name`.
QRect toolButton(QWidget *host, const QString &name)
{
    const auto *action = host->findChild<QAction *>(name);
    const auto *bar = host->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
    QWidget *button = action && bar ? bar->widgetForAction(const_cast<QAction *>(action)) : nullptr;
    if (!button || !button->isVisible())
        return {};
    return QRect(button->mapTo(host, QPoint(0, 0)), button->size());
}

} // namespace

QString QuickTour::settingsKey()
{
    return QStringLiteral("tour/done");
}

bool QuickTour::shouldShowOnFirstRun()
{
    return !QSettings().value(settingsKey(), false).toBool();
}

std::vector<QuickTour::Step> QuickTour::defaultSteps()
{
    std::vector<Step> s;
    s.push_back({{},
                 {},
                 tr("Welcome to FenceScope"),
                 tr("A lock service with leases hands every new owner a higher token. A client "
                    "that pauses past its lease may still write with its old token: with "
                    "fencing the storage rejects it, without fencing it overwrites newer data. "
                    "This tour shows where to look.")});
    s.push_back({{},
                 [](QWidget *host) {
                     return onTimeline(host, [](const TimelineView *v) {
                         return clientLane(v, 0).united(clientLane(v, 1));
                     });
                 },
                 tr("Client lanes"),
                 tr("One lane per client: its acquires, pauses (hatched) and writes. The bar "
                    "under them is where it really holds the lease; where it only believes it "
                    "does, the zombie window is hatched in orange.")});
    s.push_back({{},
                 [](QWidget *host) {
                     return onTimeline(host, [](const TimelineView *v) {
                         const TimelineLayout l = v->currentLayout();
                         return l.panels.empty()
                                    ? QRectF()
                                    : l.panels.front().lock.united(l.panels.front().lockHeader);
                     });
                 },
                 tr("The lock service"),
                 tr("Who holds the lease when, and the token each new owner gets: every grant "
                    "a higher number.")});
    s.push_back({{},
                 [](QWidget *host) {
                     return onTimeline(host, [](const TimelineView *v) {
                         const TimelineLayout l = v->currentLayout();
                         QRectF r;
                         if (!l.panels.empty())
                             for (const StorageLaneRects &st : l.panels.front().storages)
                                 r |= st.lane.united(st.header);
                         return r;
                     });
                 },
                 tr("The storage"),
                 tr("Every write as it arrives, with its outcome: accepted, rejected by fencing "
                    "(its token is lower than the highest seen, max_token) or a silent "
                    "overwrite.")});
    s.push_back({{},
                 [](QWidget *host) {
                     return onTimeline(host, [](const TimelineView *v) {
                         // A's pause over its lease: the two lengths to compare
                         const TimelineLayout l = v->currentLayout();
                         if (l.panels.empty() || l.panels.front().clients.empty())
                             return QRectF();
                         const ClientLaneRects &a = l.panels.front().clients.front();
                         return a.pauses.united(a.holds);
                     });
                 },
                 tr("Drag A's pause shorter"),
                 tr("Grab the right edge of A's pause and drag it left, before A's lease runs "
                    "out: A's write goes out in time and the danger is gone. Ctrl+Z undoes. "
                    "With the keyboard: Tab to an action, Left and Right move it.")});
    s.push_back({{},
                 [](QWidget *host) { return toolButton(host, QStringLiteral("fencing")); },
                 tr("Press F to toggle fencing"),
                 tr("Turn fencing off and A's stale write silently overwrites B's newer data; "
                    "turn it on and the storage rejects it.")});
    s.push_back({{},
                 [](QWidget *host) { return toolButton(host, QStringLiteral("compare")); },
                 tr("Press C to compare"),
                 tr("The same schedule twice, fencing on above and off below, on one time "
                    "axis.")});
    s.push_back({QStringLiteral("storyDock"),
                 {},
                 tr("The story"),
                 tr("What happened, in plain words, step by step; select an event to have it "
                    "explained.")});
    s.push_back({QStringLiteral("inspectorDock"),
                 {},
                 tr("The inspector"),
                 tr("The selected action's numbers, to edit exactly. Enter on a focused action "
                    "in the timeline brings you here.")});
    s.push_back({{},
                 {},
                 tr("That's all"),
                 tr("Help > Quick tour shows this again. Space plays the run; F11 presents it.")});
    return s;
}

QuickTour::QuickTour(QWidget *host, std::vector<Step> steps)
    : QWidget(host), m_host(host), m_steps(std::move(steps))
{
    setObjectName(QStringLiteral("quickTour"));
    setAccessibleName(tr("Quick tour"));
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_DeleteOnClose);
    hide();

    auto *card = new QFrame(this);
    card->setFrameShape(QFrame::StyledPanel);
    m_card = card;
    m_card->setObjectName(QStringLiteral("quickTourCard"));
    m_card->setAutoFillBackground(true);
    m_card->setFixedWidth(kCardWidth);
    m_title = new QLabel(m_card);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_text = new QLabel(m_card);
    m_text->setWordWrap(true);
    m_counter = new QLabel(m_card);
    m_back = new QPushButton(tr("&Back"), m_card);
    m_back->setObjectName(QStringLiteral("tourBack"));
    m_next = new QPushButton(tr("&Next"), m_card);
    m_next->setObjectName(QStringLiteral("tourNext"));
    m_done = new QPushButton(tr("&Done"), m_card);
    m_done->setObjectName(QStringLiteral("tourDone"));
    m_done->setToolTip(tr("End the tour (Esc); Help > Quick tour shows it again"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_counter);
    buttons->addStretch();
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    buttons->addWidget(m_done);
    auto *box = new QVBoxLayout(m_card);
    box->addWidget(m_title);
    box->addWidget(m_text);
    box->addLayout(buttons);
    connect(m_back, &QPushButton::clicked, this, &QuickTour::back);
    connect(m_next, &QPushButton::clicked, this, &QuickTour::next);
    connect(m_done, &QPushButton::clicked, this, &QuickTour::finish);
    for (QPushButton *b : {m_back, m_next, m_done})
        b->installEventFilter(this); // the arrows step the tour, not the focus between buttons

    host->installEventFilter(this);
}

QRect QuickTour::targetRect() const
{
    if (m_current < 0 || m_current >= stepCount())
        return {};
    const Step &s = m_steps[size_t(m_current)];
    if (s.rect)
        return s.rect(m_host);
    if (s.target.isEmpty())
        return {};
    const auto *w = m_host->findChild<QWidget *>(s.target);
    if (!w || !w->isVisible())
        return {};
    return QRect(w->mapTo(m_host, QPoint(0, 0)), w->size());
}

void QuickTour::start()
{
    setGeometry(m_host->rect());
    show();
    raise();
    showStep(0);
}

void QuickTour::next()
{
    if (m_current + 1 >= stepCount())
        finish();
    else
        showStep(m_current + 1);
}

void QuickTour::back()
{
    if (m_current > 0)
        showStep(m_current - 1);
}

void QuickTour::finish()
{
    QSettings().setValue(settingsKey(), true);
    m_host->removeEventFilter(this);
    emit finished();
    close(); // and deleted (WA_DeleteOnClose)
}

void QuickTour::showStep(int i)
{
    if (stepCount() == 0) {
        finish();
        return;
    }
    m_current = std::clamp(i, 0, stepCount() - 1);
    const Step &s = m_steps[size_t(m_current)];
    const bool last = m_current + 1 == stepCount();
    m_title->setText(s.title);
    m_text->setText(s.text);
    m_counter->setText(tr("%1 of %2").arg(m_current + 1).arg(stepCount()));
    m_back->setEnabled(m_current > 0);
    m_next->setVisible(!last);
    setAccessibleDescription(s.title + QStringLiteral(": ") + s.text);
    placeCard();
    update();
    // the button Return presses: Next, or Done at the end
    (last ? m_done : m_next)->setFocus(Qt::OtherFocusReason);
    emit stepChanged(m_current);
}

void QuickTour::placeCard()
{
    // the height its wrapped text needs at the card's fixed width (adjustSize() measured the
    // labels at their own preferred width on the first card: a line short, cut top and bottom)
    QLayout *box = m_card->layout();
    box->invalidate();
    box->activate();
    const int height = box->hasHeightForWidth() ? box->totalHeightForWidth(kCardWidth)
                                                : box->totalSizeHint().height();
    m_card->resize(kCardWidth, std::max(height, box->totalMinimumSize().height()));
    const QRect area = rect().adjusted(8, 8, -8, -8);
    const QSize size = m_card->size();
    const QRect target = targetRect();
    QPoint at;
    if (target.isEmpty()) {
        at = area.center() - QPoint(size.width() / 2, size.height() / 2);
    } else {
        const QRect hole = target.adjusted(-kHolePad, -kHolePad, kHolePad, kHolePad);
        // below the target if it fits, else above, else over its lower part
        if (hole.bottom() + kCardGap + size.height() <= area.bottom())
            at = QPoint(hole.left(), hole.bottom() + kCardGap);
        else if (hole.top() - kCardGap - size.height() >= area.top())
            at = QPoint(hole.left(), hole.top() - kCardGap - size.height());
        else if (hole.left() - kCardGap - size.width() >= area.left())
            at = QPoint(hole.left() - kCardGap - size.width(), hole.top());
        else
            at = QPoint(hole.left(), hole.bottom() - size.height());
    }
    at.setX(std::clamp(at.x(), area.left(), std::max(area.left(), area.right() - size.width())));
    at.setY(std::clamp(at.y(), area.top(), std::max(area.top(), area.bottom() - size.height())));
    m_card->move(at);
}

void QuickTour::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QPainterPath dim;
    dim.addRect(QRectF(rect()));
    const QRect target = targetRect();
    QRectF hole;
    if (!target.isEmpty()) {
        hole = QRectF(target.adjusted(-kHolePad, -kHolePad, kHolePad, kHolePad));
        QPainterPath lit;
        lit.addRoundedRect(hole, 6, 6);
        dim = dim.subtracted(lit);
    }
    p.fillPath(dim, QColor(0, 0, 0, 160));
    if (!hole.isEmpty()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(hole, 6, 6);
    }
}

bool QuickTour::event(QEvent *event)
{
    // the window's Left, Right and Esc shortcuts must not fire under the tour
    if (event->type() == QEvent::ShortcutOverride) {
        const auto *k = static_cast<QKeyEvent *>(event);
        switch (k->key()) {
        case Qt::Key_Escape:
        case Qt::Key_Left:
        case Qt::Key_Right:
        case Qt::Key_Return:
        case Qt::Key_Enter:
            event->accept();
            return true;
        default:
            break;
        }
    }
    return QWidget::event(event);
}

void QuickTour::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Escape:
        finish();
        return;
    case Qt::Key_Right:
        next();
        return;
    case Qt::Key_Left:
        back();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        // on a button: that button (Back goes back); elsewhere Next
        if (auto *b = qobject_cast<QPushButton *>(focusWidget()); b && b->isVisible())
            b->click();
        else
            next();
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

bool QuickTour::focusNextPrevChild(bool next)
{
    // Tab stays on the card's buttons: the window under the overlay is out of reach meanwhile
    std::vector<QWidget *> order;
    for (QWidget *b : {static_cast<QWidget *>(m_back), static_cast<QWidget *>(m_next),
                       static_cast<QWidget *>(m_done)})
        if (b->isVisible() && b->isEnabled())
            order.push_back(b);
    if (order.empty())
        return true;
    const auto it = std::find(order.begin(), order.end(), focusWidget());
    const int n = int(order.size());
    const int k = it == order.end() ? 0 : int(it - order.begin());
    order[size_t(((k + (next ? 1 : -1)) % n + n) % n)]->setFocus(next ? Qt::TabFocusReason
                                                                      : Qt::BacktabFocusReason);
    return true;
}

bool QuickTour::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress && watched != m_host) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Left || key == Qt::Key_Right) {
            key == Qt::Key_Left ? back() : next();
            return true;
        }
    }
    if (watched == m_host && event->type() == QEvent::Resize && isVisible()) {
        setGeometry(m_host->rect());
        placeCard();
    }
    return QWidget::eventFilter(watched, event);
}
