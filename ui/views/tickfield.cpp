#include "views/tickfield.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

const QString kErrorFrame =
    QStringLiteral("QLineEdit { border: 2px solid #c0392b; border-radius: 3px; "
                   "padding: 1px 2px; }");

QToolButton *arrowButton(Qt::ArrowType arrow, QWidget *parent)
{
    auto *b = new QToolButton(parent);
    b->setArrowType(arrow);
    b->setAutoRepeat(true);
    b->setFocusPolicy(Qt::NoFocus); // the typed text keeps the focus
    b->setAutoRaise(true);
    return b;
}

} // namespace

TickField::TickField(QWidget *parent) : QWidget(parent)
{
    m_edit = new QLineEdit(this);
    m_edit->setPlaceholderText(QStringLiteral("—"));
    m_edit->installEventFilter(this);
    m_up = arrowButton(Qt::UpArrow, this);
    m_up->setToolTip(tr("One tick more (Up)"));
    m_down = arrowButton(Qt::DownArrow, this);
    m_down->setToolTip(tr("One tick less (Down)"));
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_message->hide();

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    row->addWidget(m_edit, 1);
    row->addWidget(m_down);
    row->addWidget(m_up);
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(0, 0, 0, 0);
    col->setSpacing(2);
    col->addLayout(row);
    col->addWidget(m_message);
    setFocusProxy(m_edit);

    connect(m_edit, &QLineEdit::editingFinished, this, &TickField::commitText);
    // typing undone back to the value (Ctrl+Z): nothing is refused any more
    connect(m_edit, &QLineEdit::textChanged, this, [this] {
        if (!m_error.isEmpty() && showsValue())
            clearError();
    });
    connect(m_up, &QToolButton::clicked, this, [this] { step(1); });
    connect(m_down, &QToolButton::clicked, this, [this] { step(-1); });
    updateButtons();
}

void TickField::setMinimum(Core::Tick minimum, const QString &message)
{
    m_minimum = minimum;
    m_minimumMessage = message;
    updateButtons();
}

void TickField::setValue(std::optional<Core::Tick> value)
{
    m_value = value;
    m_edit->setText(value ? QString::number(qulonglong(*value)) : QString());
    clearError();
    updateButtons();
}

bool TickField::showsValue() const
{
    return m_edit->text() == (m_value ? QString::number(qulonglong(*m_value)) : QString());
}

bool TickField::isEdited() const
{
    return !m_error.isEmpty() || !showsValue();
}

void TickField::fitMessage()
{
    // all the message's lines at the field's width: a form lays rows out by their minimum
    // heights, and a wrapped label's own minimum is one line whatever its width
    m_message->setMinimumHeight(
        m_message->isHidden() ? 0 : m_message->heightForWidth(std::max(1, width())));
}

void TickField::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitMessage();
}

void TickField::showError(const QString &message)
{
    m_error = message;
    m_message->setText(message);
    m_message->show();
    fitMessage();
    m_edit->setStyleSheet(kErrorFrame);
    m_edit->setToolTip(message);
}

void TickField::clearError()
{
    if (m_error.isEmpty() && m_message->isHidden())
        return;
    m_error.clear();
    m_message->clear();
    m_message->hide();
    fitMessage();
    m_edit->setStyleSheet(QString());
    m_edit->setToolTip(QString());
}

std::optional<Core::Tick> TickField::parse(const QString &typed, QString *error) const
{
    const QString text = typed.trimmed();
    static const QRegularExpression number(QStringLiteral("^([+-]?)([0-9]+)$"));
    const QRegularExpressionMatch m = number.match(text);
    QString why;
    std::optional<Core::Tick> tick;
    if (text.isEmpty()) {
        why = tr("Type a tick: a whole number of 0 or more.");
    } else if (!m.hasMatch()) {
        why = tr("“%1” is not a tick: type a whole number, like 12.").arg(text);
    } else {
        // more digits than 2^53 has cannot be a tick, and would overflow the conversion
        QString digits = m.captured(2);
        while (digits.size() > 1 && digits.startsWith(QLatin1Char('0')))
            digits.remove(0, 1);
        bool ok = digits.size() <= 16;
        const qulonglong v = ok ? digits.toULongLong(&ok) : 0;
        if (m.captured(1) == QLatin1String("-") && digits != QLatin1String("0"))
            why = tr("Ticks cannot be negative (%1): time starts at 0.").arg(text);
        else if (!ok || v > Core::kMaxFileInteger)
            why = tr("%1 is too large: a scenario file holds ticks up to 2^53 = %2.")
                      .arg(text)
                      .arg(qulonglong(Core::kMaxFileInteger));
        else if (v < m_minimum)
            why = m_minimumMessage.isEmpty() ? tr("At least %1.").arg(qulonglong(m_minimum))
                                             : m_minimumMessage;
        else if (m_check)
            why = m_check(Core::Tick(v));
        if (why.isEmpty())
            tick = Core::Tick(v);
    }
    if (error)
        *error = why;
    return tick;
}

void TickField::commitText()
{
    if (!m_value && m_edit->text().isEmpty())
        return; // nothing to edit (no selection)
    QString why;
    const std::optional<Core::Tick> tick = parse(m_edit->text(), &why);
    if (!tick) {
        showError(why);
        return;
    }
    clearError();
    if (tick == m_value) {
        m_edit->setText(QString::number(qulonglong(*tick))); // "007" reads 7 again
        return;
    }
    emit committed(*tick, false);
}

void TickField::step(int delta)
{
    if (!m_value || !isEnabled())
        return;
    const Core::Tick v = *m_value;
    Core::Tick next = v;
    if (delta < 0)
        next = v >= m_minimum + Core::Tick(-delta) ? v - Core::Tick(-delta) : m_minimum;
    else
        next = std::min(Core::kMaxFileInteger, v + Core::Tick(delta));
    if (next == v)
        return;
    if (m_check) {
        const QString why = m_check(next);
        if (!why.isEmpty()) {
            showError(why);
            return;
        }
    }
    clearError();
    m_edit->setText(QString::number(qulonglong(next)));
    emit committed(next, true);
}

void TickField::updateButtons()
{
    m_up->setEnabled(m_value && *m_value < Core::kMaxFileInteger);
    m_down->setEnabled(m_value && *m_value > m_minimum);
}

bool TickField::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_edit &&
        (event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride)) {
        const auto *key = static_cast<QKeyEvent *>(event);
        int delta = 0;
        switch (key->key()) {
        case Qt::Key_Up:
            delta = 1;
            break;
        case Qt::Key_Down:
            delta = -1;
            break;
        case Qt::Key_PageUp:
            delta = 10;
            break;
        case Qt::Key_PageDown:
            delta = -10;
            break;
        case Qt::Key_Escape:
            if (m_error.isEmpty() && showsValue())
                return false; // nothing to undo here: Escape means what it means elsewhere
            break;
        default:
            return false;
        }
        if (key->modifiers() & ~Qt::KeypadModifier)
            return false;
        if (event->type() == QEvent::ShortcutOverride) {
            event->accept(); // the field's keys, not a window shortcut's
            return true;
        }
        if (delta != 0)
            step(delta);
        else
            setValue(m_value); // Escape: the last good value back
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void TickField::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::EnabledChange)
        updateButtons();
    QWidget::changeEvent(event);
}
