#include "views/summarystrip.h"

#include "document/comparison.h"

#include "document/changethrottle.h"
#include "document/document.h"
#include "outcomemarker.h"
#include "views/contrast.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>

SummaryStrip::SummaryStrip(Document *doc, QWidget *parent) : QWidget(parent), m_doc(doc)
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(10, 6, 10, 6);
    row->setSpacing(6);
    m_fencing = new QLabel(this);
    m_fencing->setObjectName(QStringLiteral("fencingBadge"));
    row->addWidget(m_fencing);
    row->addSpacing(14);
    for (int r = 0; r < 4; ++r) {
        m_icons[r] = new QLabel(this);
        m_counts[r] = new QLabel(this);
        row->addWidget(m_icons[r]);
        row->addWidget(m_counts[r]);
        row->addSpacing(12);
    }
    m_finals = new QLabel(this);
    m_finals->setTextFormat(Qt::PlainText);
    // the first thing to give way on a narrow window (its full text is in the tooltip)
    m_finals->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_finals->installEventFilter(this);
    row->addWidget(m_finals, 1);
    m_verdict = new QLabel(this);
    m_verdict->setObjectName(QStringLiteral("verdict"));
    m_verdict->setTextFormat(Qt::PlainText);
    row->addWidget(m_verdict);

    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    setFont(f);
    new ChangeThrottle(doc, this, [this] { refresh(); });
    setTheme(m_theme);
}

void SummaryStrip::setTheme(const Theme &theme)
{
    m_theme = theme;
    for (int r = 0; r < 4; ++r)
        m_icons[r]->setPixmap(OutcomeMarker::icon(theme, Core::WriteResult(r), 16).pixmap(16, 16));
    refresh();
}

void SummaryStrip::setCompare(bool compare)
{
    if (compare == m_compare)
        return;
    m_compare = compare;
    refresh();
}

void SummaryStrip::setCompareSource(std::optional<Core::TokenSource> source)
{
    if (source == m_compareSource)
        return;
    m_compareSource = source;
    refresh();
}

bool SummaryStrip::finalsElided() const
{
    return m_finals->text() != m_finalsText;
}

void SummaryStrip::refresh()
{
    const Comparison cmp = comparison(*m_doc, m_compareSource);
    const Core::Trace &t = m_compare ? *cmp.top.trace : m_doc->trace();
    const Core::Scenario &s = m_doc->scenario();
    const Core::Summary &m = t.summary;
    const std::uint64_t counts[4] = {m.accepted, m.rejected, m.corrupted, m.lockedOut};
    const QString names[4] = {tr("accepted"), tr("rejected"), tr("corrupted"), tr("locked out")};
    for (int r = 0; r < 4; ++r) {
        const QString full = QStringLiteral("%1 %2").arg(qulonglong(counts[r])).arg(names[r]);
        m_counts[r]->setText(m_compact ? QString::number(qulonglong(counts[r])) : full);
        m_counts[r]->setToolTip(full);
        m_icons[r]->setToolTip(full);
        // zero counts fade so the ones that matter stand out
        const QColor c = counts[r] == 0 ? m_theme.muted : m_theme.foreground;
        m_counts[r]->setStyleSheet(QStringLiteral("color: %1;%2")
                                       .arg(c.name(), counts[r] > 0 && r >= 2
                                                          ? QStringLiteral(" font-weight: bold;")
                                                          : QString()));
    }

    QStringList rules;
    for (const Core::StorageSpec &st : s.storages)
        rules << Core::toString(st.rule);
    rules.removeDuplicates();
    if (m_compare && cmp.bySource)
        m_fencing->setText(
            tr("%1 run (top), %2")
                .arg(cmp.top.name,
                     t.fencing ? tr("fencing ON (rule %1)").arg(rules.join(QLatin1Char('/')))
                               : tr("fencing OFF")));
    else if (m_compare)
        m_fencing->setText(tr("Fenced run (top), rule %1").arg(rules.join(QLatin1Char('/'))));
    else
        m_fencing->setText(t.fencing ? tr("Fencing ON (rule %1)").arg(rules.join(QLatin1Char('/')))
                                     : tr("Fencing OFF"));
    // white text on a badge dark enough to read it (WCAG AA)
    const QColor white(Qt::white);
    const QColor badge = Contrast::behind(white, t.fencing ? m_theme.lease : m_theme.muted);
    m_fencing->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: white; border-radius: 4px;"
                       " padding: 3px 8px; font-weight: bold; }")
            .arg(badge.name()));

    QStringList finals;
    for (std::size_t i = 0; i < s.storages.size() && i < t.finals.size(); ++i) {
        const Core::StorageState &f = t.finals[i];
        const QString value =
            f.lastWrite == Core::kNone ? tr("(empty)") : QStringLiteral("'%1'").arg(f.value);
        finals << (t.fencing ? tr("%1 ends with %2, max_token %3")
                                   .arg(s.storages[i].name, value)
                                   .arg(qulonglong(f.maxToken))
                             : tr("%1 ends with %2").arg(s.storages[i].name, value));
    }
    m_finalsText = QStringLiteral("   ") + finals.join(QStringLiteral("  ·  "));
    elideFinals();
    m_finals->setToolTip(finals.join(QLatin1Char('\n')));

    const QColor good = Contrast::behind(white, m_theme.accepted);
    const QColor bad = Contrast::behind(white, m_theme.corrupted);
    // in compare mode the badge's colour is the bottom run's (unfenced, or the other source):
    // that is where the danger shows; unless the top run is the unsafe one
    const Core::Summary &bottom = cmp.bottom.trace->summary;
    const Core::Summary &judged = !m_compare ? m : !m.safe() ? m : bottom;
    m_verdict->setText(verdict());
    m_verdict->setStyleSheet(
        QStringLiteral(
            "QLabel { background: %1; color: white; border-radius: 4px; padding: 4px 10px;"
            " font-weight: bold; }")
            .arg((judged.safe() ? good : bad).name()));
    const auto tip = [](const Core::Summary &x) {
        QString text = x.safe() ? tr("No write overwrote data of a newer lock owner.")
                                : tr("Some writes overwrote data written under a newer token: "
                                     "the lock alone did not protect the storage.");
        if (x.lockedOut > 0)
            text += QLatin1Char(' ') +
                    (x.lockedOut == 1
                         ? tr("The live holder's own write was turned away once (locked out): a "
                              "liveness failure, not a safety one.")
                         : tr("The live holder's own writes were turned away %1 times (locked "
                              "out): a liveness failure, not a safety one.")
                               .arg(qulonglong(x.lockedOut)));
        return text;
    };
    if (!m_compare)
        m_verdict->setToolTip(tip(m));
    else if (cmp.bySource)
        m_verdict->setToolTip(
            tr("With %1: %2\nWith %3: %4").arg(cmp.top.name, tip(m), cmp.bottom.name, tip(bottom)));
    else
        m_verdict->setToolTip(tr("With fencing: %1\nWithout fencing: %2").arg(tip(m), tip(bottom)));
}

bool SummaryStrip::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_finals && event->type() == QEvent::Resize)
        elideFinals();
    return QWidget::eventFilter(watched, event);
}

void SummaryStrip::elideFinals()
{
    // the whole text, else as much of it as keeps the first storage's name and value whole
    // ("db ends with 'B'…"), else nothing: "d…" tells no one anything (the tooltip has it all)
    const QFontMetrics fm = m_finals->fontMetrics();
    const QString elided = fm.elidedText(m_finalsText, Qt::ElideRight, m_finals->width());
    const QString first = m_finalsText.section(QStringLiteral("  ·  "), 0, 0);
    const QString essential = first.section(QStringLiteral(", max_token"), 0, 0);
    m_finals->setText(elided == m_finalsText || elided.size() > essential.size() + 1 ? elided
                                                                                     : QString());
}

void SummaryStrip::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    refresh();
}

int SummaryStrip::fullExtra() const
{
    // the verdict's long form over its short one
    QFont bold = m_verdict->font();
    bold.setBold(true);
    const QFontMetrics vm(bold);
    int extra = std::max(0, vm.horizontalAdvance(verdictText(false)) -
                                vm.horizontalAdvance(verdictText(true)));
    for (QLabel *count : m_counts) {
        QFont font = count->font();
        font.setBold(count->styleSheet().contains(QLatin1String("bold"))); // corrupted, locked out
        const QFontMetrics fm(font);
        extra += fm.horizontalAdvance(count->toolTip()) -
                 fm.horizontalAdvance(count->toolTip().section(QLatin1Char(' '), 0, 0));
    }
    return extra;
}

QSize SummaryStrip::minimumSizeHint() const
{
    QSize size = QWidget::minimumSizeHint();
    if (!m_compact)
        size.rwidth() -= fullExtra();
    return size;
}

void SummaryStrip::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // the width the full counts need: the compact strip's minimum plus what the words add
    const int full = minimumSizeHint().width() + fullExtra();
    setCompact(width() < full);
}

QString SummaryStrip::verdictOf(const Core::Summary &m)
{
    if (m.safe()) {
        if (m.lockedOut == 0)
            return tr("✔ Safety held");
        // short: the strip's room goes to the final values; the tooltip says the rest
        return m.lockedOut == 1 ? tr("✔ Safety held · 1 lock-out")
                                : tr("✔ Safety held · %1 lock-outs").arg(qulonglong(m.lockedOut));
    }
    if (m.corrupted == 0) // a group half applied across storages (docs/SCENARIO.md section 12)
        return m.partial == 1
                   ? tr("✖ Safety violated: 1 update half applied")
                   : tr("✖ Safety violated: %1 updates half applied").arg(qulonglong(m.partial));
    return m.corrupted == 1 ? tr("✖ Safety violated: 1 write overwrote newer data")
                            : tr("✖ Safety violated: %1 writes overwrote newer data")
                                  .arg(qulonglong(m.corrupted));
}

QString SummaryStrip::verdict() const
{
    return verdictText(m_compact);
}

QString SummaryStrip::verdictText(bool compact) const
{
    // a narrow window (a 1024 px projector, compare mode's longer words): the short form, the
    // tooltip tells the rest; a badge is never cut
    if (compact && !m_compare)
        return m_doc->trace().summary.safe() ? tr("✔ Safety held") : tr("✖ Safety violated");
    if (compact) {
        const Comparison cmp = comparison(*m_doc, m_compareSource);
        const auto mark = [](const Core::Summary &m) { return m.safe() ? tr("✔") : tr("✖"); };
        return tr("Safety: %1 %2 · %3 %4")
            .arg(cmp.top.name, mark(cmp.top.trace->summary), cmp.bottom.name,
                 mark(cmp.bottom.trace->summary));
    }
    if (!m_compare)
        return verdictOf(m_doc->trace().summary);
    // both runs, each named: the story speaks of "with fencing" and "without fencing" too
    const auto shortVerdict = [](const Core::Summary &m) {
        if (m.safe())
            return tr("✔ held");
        if (m.corrupted == 0)
            return tr("✖ violated (half applied)");
        return m.corrupted == 1 ? tr("✖ violated (1 overwrite)")
                                : tr("✖ violated (%1 overwrites)").arg(qulonglong(m.corrupted));
    };
    const Comparison cmp = comparison(*m_doc, m_compareSource);
    if (cmp.bySource)
        return tr("Safety with %1: %2 · with %3: %4")
            .arg(cmp.top.name, shortVerdict(cmp.top.trace->summary), cmp.bottom.name,
                 shortVerdict(cmp.bottom.trace->summary));
    return tr("Safety with fencing: %1 · without: %2")
        .arg(shortVerdict(cmp.top.trace->summary), shortVerdict(cmp.bottom.trace->summary));
}

QString SummaryStrip::text() const
{
    QStringList parts{m_fencing->text()};
    for (int r = 0; r < 4; ++r)
        parts << m_counts[r]->toolTip();
    parts << m_finalsText.trimmed() << m_verdict->text();
    return parts.join(QStringLiteral(" | "));
}
