// Inspector, part: what its text fields do with keys while they are typed in. Undo and redo
// undo the typing first, then act on the document as everywhere else in the window; Ctrl+Tab
// leaves the field; Escape puts back a name being typed or refused (and the name's message is
// fitted to the box's width as it resizes).
#include "views/inspector.h"

#include "document/document.h"
#include "views/tickfield.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QUndoStack>

#include <algorithm>

std::vector<QLineEdit *> Inspector::textFields() const
{
    return {m_name,  m_at->lineEdit(),        m_amount->lineEdit(),
            m_value, m_keepalive->lineEdit(), m_gap->lineEdit(),
            m_group};
}

TickField *Inspector::tickFieldOf(const QLineEdit *edit) const
{
    for (TickField *f : {m_at, m_amount, m_keepalive, m_gap})
        if (f->lineEdit() == edit)
            return f;
    return nullptr;
}

bool Inspector::fieldEdited(const QLineEdit *edit) const
{
    if (const TickField *f = tickFieldOf(edit))
        return f->isEdited();
    if (edit == m_name)
        return !m_nameError.isEmpty() || m_name->isModified();
    return edit->isModified(); // value and group: set by typing, cleared by commit and refresh
}

void Inspector::resetField(QLineEdit *edit)
{
    if (TickField *f = tickFieldOf(edit)) {
        f->setValue(f->value());
        return;
    }
    if (edit == m_name)
        showNameError({});
    edit->setModified(false);
    refresh();
}

bool Inspector::fieldKey(QLineEdit *edit, QKeyEvent *key)
{
    const bool press = key->type() == QEvent::KeyPress;
    // Ctrl+Tab leaves the field (as it leaves the timeline): the next or previous control
    if ((key->key() == Qt::Key_Tab || key->key() == Qt::Key_Backtab) &&
        (key->modifiers() & Qt::ControlModifier)) {
        key->accept();
        if (press)
            focusNextPrevChild(key->key() == Qt::Key_Tab &&
                               !(key->modifiers() & Qt::ShiftModifier));
        return true;
    }
    const bool undo = key->matches(QKeySequence::Undo);
    if (!undo && !key->matches(QKeySequence::Redo))
        return false;
    // Undo in a field being typed in undoes the typing; in a field that shows the scenario (or
    // once the typing is undone) it is the document's undo, as everywhere else in the window.
    // QLineEdit takes Ctrl+Z for itself even with nothing to undo: it would do nothing.
    if (fieldEdited(edit)) {
        if (undo && !edit->isUndoAvailable()) { // typed before a refresh: the scenario's value
            key->accept();
            if (press)
                resetField(edit);
            return true;
        }
        return false; // QLineEdit's own undo and redo
    }
    key->accept();
    if (press) {
        QUndoStack *stack = m_doc->undoStack();
        undo ? stack->undo() : stack->redo();
    }
    return true;
}

void Inspector::fitNameMessage()
{
    // all its lines at the box's width (a wrapped label's own minimum is one line)
    const int width = std::max(1, m_nameMessage->parentWidget()->width());
    m_nameMessage->setMinimumHeight(m_nameError.isEmpty() ? 0
                                                          : m_nameMessage->heightForWidth(width));
}

bool Inspector::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize && watched == m_nameMessage->parentWidget())
        fitNameMessage();
    if ((event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        const std::vector<QLineEdit *> fields = textFields();
        const auto it = std::find(fields.begin(), fields.end(), watched);
        if (it != fields.end() && fieldKey(*it, static_cast<QKeyEvent *>(event)))
            return true;
    }
    // Escape in a name being typed or refused puts the client's name back
    if (watched == m_name &&
        (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) &&
        static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape &&
        (m_name->isModified() || !m_nameError.isEmpty())) {
        if (event->type() == QEvent::KeyPress) {
            showNameError({});
            m_name->setModified(false);
            refresh();
        }
        event->accept();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}
