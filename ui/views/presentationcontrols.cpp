#include "views/presentationcontrols.h"

#include "theme.h"

#include <QHBoxLayout>
#include <QTimer>
#include <QToolButton>

PresentationControls::PresentationControls(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("presentationControls"));
    setAttribute(Qt::WA_StyledBackground);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(8, 6, 8, 6);
    row->setSpacing(6);
    const auto button = [this, row](const QString &name, const QString &text, const QString &tip) {
        auto *b = new QToolButton(this);
        b->setObjectName(name);
        b->setText(text);
        b->setToolTip(tip);
        b->setAccessibleName(tip);
        b->setFocusPolicy(Qt::NoFocus); // the keys stay with the presentation
        b->setCursor(Qt::PointingHandCursor);
        row->addWidget(b);
        return b;
    };
    m_back = button(QStringLiteral("presentationBack"), tr("◀  Back"),
                    tr("Previous step (Left, Page Up)"));
    m_next = button(QStringLiteral("presentationNext"), tr("Next  ▶"),
                    tr("Next step (Right, Page Down, Space)"));
    m_exit = button(QStringLiteral("presentationExit"), tr("✕  Exit"),
                    tr("Leave presentation mode (Esc, F11)"));
    connect(m_back, &QToolButton::clicked, this, &PresentationControls::back);
    connect(m_next, &QToolButton::clicked, this, &PresentationControls::next);
    connect(m_exit, &QToolButton::clicked, this, &PresentationControls::exit);

    m_hide = new QTimer(this);
    m_hide->setSingleShot(true);
    m_hide->setInterval(kShowMs);
    connect(m_hide, &QTimer::timeout, this, [this] {
        if (!underMouse())
            hide();
    });
    hide();
}

void PresentationControls::setTheme(const Theme &theme)
{
    // large enough to hit from a lectern, in the presentation's own colours
    QFont f = font();
    f.setPointSizeF(std::max(12.0, 11.0 * theme.fontScale));
    f.setBold(true);
    setFont(f);
    setStyleSheet(
        QStringLiteral("#presentationControls { background: %1; border: 1px solid %2;"
                       " border-radius: 8px; }"
                       " QToolButton { color: %3; background: transparent; padding: 8px 16px;"
                       " border-radius: 6px; }"
                       " QToolButton:hover { background: %4; }")
            .arg(theme.background.name(), theme.muted.name(), theme.foreground.name(),
                 theme.laneStripe.name()));
    adjustSize();
    place();
}

void PresentationControls::reveal()
{
    place();
    show();
    raise();
    m_hide->start();
}

void PresentationControls::dismiss()
{
    m_hide->stop();
    hide();
}

void PresentationControls::enterEvent(QEnterEvent *event)
{
    m_hide->stop(); // stays while the pointer rests on it
    QWidget::enterEvent(event);
}

void PresentationControls::leaveEvent(QEvent *event)
{
    m_hide->start();
    QWidget::leaveEvent(event);
}

void PresentationControls::place()
{
    if (!parentWidget())
        return;
    adjustSize();
    const QRect room = parentWidget()->rect();
    move(room.right() - width() - 24, room.bottom() - height() - 24);
}
