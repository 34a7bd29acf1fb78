#pragma once

// One line across the top of the window that answers "did fencing work?": outcome counts with
// their marker shapes and colours, each storage's final value and max_token, and the verdict
// (safety held / violated) in words, not only in colour.

#include "theme.h"

#include <QWidget>

class Document;
class QLabel;
class QHBoxLayout;

class SummaryStrip : public QWidget
{
    Q_OBJECT
public:
    explicit SummaryStrip(Document *doc, QWidget *parent = nullptr);

    void setTheme(const Theme &theme);
    // Counts as numbers beside their markers (names in tooltips), for a narrow screen.
    void setCompact(bool compact);
    bool isCompact() const { return m_compact; }
    // Everything the strip says, as plain text (for tests and accessibility).
    QString text() const;
    QString verdict() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();
    void elideFinals();

    Document *m_doc;
    Theme m_theme = Theme::light();
    QLabel *m_fencing;
    QLabel *m_icons[4];
    QLabel *m_counts[4];
    QLabel *m_finals;
    QLabel *m_verdict;
    bool m_compact = false;
    QString m_finalsText; // m_finals shows as much of it as fits
};
