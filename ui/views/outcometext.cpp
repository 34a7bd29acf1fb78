#include "views/outcometext.h"

#include <QEvent>
#include <QPainter>
#include <QTextLayout>

#include <algorithm>

OutcomeText::OutcomeText(QWidget *parent) : QWidget(parent)
{
    // no height for width: inside the inspector's scroll area that would be a minimum, and
    // the text would make the fields scroll rather than end in "…" in a short dock. It
    // takes the height left over (a stretch), asking for a few lines.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void OutcomeText::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    relayout();
    updateGeometry();
    update();
}

QSize OutcomeText::sizeHint() const
{
    const int w = 240;
    return {w, int(std::min<qsizetype>(3, wrap(w).size())) * lineHeight()};
}

void OutcomeText::changeEvent(QEvent *e)
{
    if (e->type() == QEvent::FontChange) {
        relayout();
        updateGeometry();
    }
    QWidget::changeEvent(e);
}

void OutcomeText::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics fm = fontMetrics();
    for (int i = 0; i < m_shown.size(); ++i)
        p.drawText(QPoint(0, i * lineHeight() + fm.ascent()), m_shown.at(i));
}

QStringList OutcomeText::wrap(int width) const
{
    QStringList lines;
    if (m_text.isEmpty())
        return lines;
    QTextLayout layout(m_text, font());
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(std::max(1, width));
        lines << m_text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines;
}

void OutcomeText::relayout()
{
    const QStringList lines = wrap(width());
    const int room = std::max(1, height() / lineHeight());
    m_elided = lines.size() > room;
    if (!m_elided) {
        m_shown = lines;
    } else {
        m_shown = lines.mid(0, room - 1);
        // the rest of the text, on one line, cut at a glyph boundary with "…"
        QStringList rest = lines.mid(room - 1);
        m_shown << fontMetrics().elidedText(rest.join(QLatin1Char(' ')), Qt::ElideRight, width());
    }
    setToolTip(m_elided ? m_text : QString());
    update();
}
