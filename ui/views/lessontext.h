#pragma once

// What the lesson's views share: a lesson's Markdown shown in a label (Qt's Markdown reader,
// without HTML, as the handout reads it), and the words for where a scene stands.

#include <QFont>
#include <QLabel>
#include <QString>
#include <QTextDocument>

namespace LessonText {

// `markdown` (narration, a prompt, feedback, an explanation: **bold**, *italics*, `code`) as
// the rich text a QLabel shows, in `font`: the text's own size and family, not the document's
// default (the label's font would lose to it).
inline QString html(const QString &markdown, const QFont &font)
{
    if (markdown.isEmpty())
        return {};
    QTextDocument doc;
    doc.setDefaultFont(font);
    doc.setMarkdown(markdown, QTextDocument::MarkdownNoHTML);
    return doc.toHtml();
}

// A label that wraps, for one part of a lesson's text.
inline QLabel *label(QWidget *parent, const QString &name, Qt::TextFormat format = Qt::PlainText)
{
    auto *l = new QLabel(parent);
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setTextFormat(format);
    l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return l;
}

} // namespace LessonText
