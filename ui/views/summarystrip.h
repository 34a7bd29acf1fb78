#pragma once

// One line across the top of the window that answers "did fencing work?": outcome counts with
// their marker shapes and colours, each storage's final value and max_token, and the verdict
// (safety held / violated) in words, not only in colour.

#include "theme.h"

#include <QWidget>

#include <optional>

class Document;
class QLabel;
class QHBoxLayout;

class SummaryStrip : public QWidget
{
    Q_OBJECT
public:
    explicit SummaryStrip(Document *doc, QWidget *parent = nullptr);

    void setTheme(const Theme &theme);
    // Compare mode: the counts and final values are the fenced run's (the upper panel) and the
    // verdict speaks of both runs, each by name.
    void setCompare(bool compare);
    // compare mode's other run: another token source instead of the other fencing
    void setCompareSource(std::optional<Core::TokenSource> source);
    // True when the final values do not fit and are shortened (their full text is in the tooltip).
    bool finalsElided() const;
    // Narrower than the full text needs, the counts become numbers beside their markers (their
    // names in tooltips); the minimum size is that of the compact strip with the short verdict.
    bool isCompact() const { return m_compact; }
    QSize minimumSizeHint() const override;
    // Everything the strip says, as plain text (for tests and accessibility).
    QString text() const;
    // The verdict as the badge shows it: the longest of verdictForms() that fits whole.
    QString verdict() const;
    // Its longest or shortest form.
    QString verdictText(bool compact) const;
    // Every way the badge can say the verdict, longest first (the tooltip tells the rest).
    QStringList verdictForms() const;

    // The verdict on one run, in words.
    static QString verdictOf(const Core::Summary &summary);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void refresh();
    void elideFinals();
    void showCounts(bool compact);
    void fit();

    Document *m_doc;
    Theme m_theme = Theme::light();
    QLabel *m_fencing;
    QLabel *m_icons[4];
    QLabel *m_counts[4];
    QLabel *m_finals;
    QLabel *m_verdict;
    bool m_compact = false;
    int m_narrowest = 0; // the compact strip's width with the short verdict, as last measured
    bool m_compare = false;
    std::optional<Core::TokenSource> m_compareSource;
    QString m_finalsText; // m_finals shows as much of it as fits
    QString m_finalsEssential; // the first storage's name and value, or nothing at all
};
