// The inspector's outcome: wrapped text that never shows half a line. When the height given
// holds fewer lines than the text needs, the last one shown ends in "…" and the whole text
// becomes the tooltip. (A QLabel in a short dock is simply cut, often through the middle of a
// line.)
#pragma once

#include <QStringList>
#include <QWidget>

class OutcomeText : public QWidget
{
public:
    explicit OutcomeText(QWidget *parent);

    void setText(const QString &text);
    QString text() const { return m_text; }
    QStringList shownLines() const { return m_shown; }
    bool isElided() const { return m_elided; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {60, lineHeight()}; }

protected:
    void resizeEvent(QResizeEvent *) override { relayout(); }
    void changeEvent(QEvent *e) override;
    void paintEvent(QPaintEvent *) override;

private:
    int lineHeight() const { return fontMetrics().lineSpacing(); }
    // The text broken at word boundaries (anywhere in a word longer than the width).
    QStringList wrap(int width) const;
    void relayout();

    QString m_text;
    QStringList m_shown;
    bool m_elided = false;
};
