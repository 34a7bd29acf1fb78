#include "views/summarystrip.h"

#include "document/comparison.h"

#include "document/changethrottle.h"
#include "document/document.h"
#include "outcomemarker.h"
#include "views/contrast.h"

#include "runstate.h"
#include "tokensource.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>

#include <algorithm>
#include <vector>

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
        m_counts[r]->setToolTip(full); // showCounts() shows it, or its number alone
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

    // each storage's end as core tells it (Core::StorageLevel: restarts included), in the
    // token source's own form, or the version a compare-and-set storage compares
    QStringList finals;
    for (std::size_t i = 0; i < s.storages.size() && i < t.finals.size(); ++i) {
        const Core::StorageState &f = t.finals[i];
        const QString value =
            f.lastWrite == Core::kNone ? tr("(empty)") : QStringLiteral("'%1'").arg(f.value);
        const QString ends = tr("%1 ends with %2").arg(s.storages[i].name, value);
        if (i == 0)
            m_finalsEssential = ends;
        const Core::StorageLevel level(s, t, std::uint32_t(i));
        if (level.gauge() == Core::StorageGauge::Version)
            finals << tr("%1, version %2").arg(ends).arg(qulonglong(level.at(Core::kForever)));
        else if (t.fencing)
            finals << tr("%1, max_token %2")
                          .arg(ends, Core::formatToken(t.tokens, level.at(Core::kForever)));
        else
            finals << ends;
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
    fit();
}

void SummaryStrip::showCounts(bool compact)
{
    for (QLabel *count : m_counts) {
        const QString full = count->toolTip();
        count->setText(compact ? full.section(QLatin1Char(' '), 0, 0) : full);
    }
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
    const QString &essential = m_finalsEssential;
    m_finals->setText(elided == m_finalsText || elided.size() > essential.size() + 1 ? elided
                                                                                     : QString());
}

void SummaryStrip::fit()
{
    // The ways the strip can say it, roomiest first: the counts in words with the verdict long,
    // then shorter; the counts as numbers with the verdict long, shorter, short. It says it the
    // first way whose labels all fit whole at its width, each measured as the layout lays it
    // out: in the label's own font (the badges are bold), with the badges' padding, the markers
    // and the spacing between them. (The final values give way first: any width fits them.)
    const QStringList forms = verdictForms();
    struct Way
    {
        bool compact;
        qsizetype form;
    };
    std::vector<Way> ways;
    for (qsizetype i = 0; i < forms.size(); ++i)
        if (i + 1 < forms.size() || forms.size() == 1) // the short verdict: numbers, not words
            ways.push_back({false, i});
    for (qsizetype i = 0; i < forms.size(); ++i)
        ways.push_back({true, i});
    ensurePolished(); // (the style sheets' fonts and padding, before the strip is first shown)
    const auto needs = [&](const Way &w) {
        showCounts(w.compact);
        m_verdict->setText(forms[w.form]);
        layout()->invalidate();
        return layout()->minimumSize().width();
    };
    const int narrowest = needs(ways.back());
    Way chosen = ways.back();
    for (const Way &w : ways)
        if (needs(w) <= width()) {
            chosen = w;
            break;
        }
    needs(chosen);
    m_compact = chosen.compact;
    if (narrowest != m_narrowest) {
        m_narrowest = narrowest;
        updateGeometry();
    }
}

QSize SummaryStrip::minimumSizeHint() const
{
    QSize size = QWidget::minimumSizeHint();
    size.setWidth(m_narrowest);
    return size;
}

void SummaryStrip::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        fit();
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
    return m_verdict->text();
}

QString SummaryStrip::verdictText(bool compact) const
{
    const QStringList forms = verdictForms();
    return compact ? forms.back() : forms.front();
}

QStringList SummaryStrip::verdictForms() const
{
    QStringList forms;
    if (!m_compare) {
        const Core::Summary &m = m_doc->trace().summary;
        forms << verdictOf(m);
        if (!m.safe()) // how many, without what it means (the tooltip says it)
            forms << (m.corrupted == 0 ? tr("✖ Safety violated: half applied")
                      : m.corrupted == 1
                          ? tr("✖ Safety violated: 1 overwrite")
                          : tr("✖ Safety violated: %1 overwrites").arg(qulonglong(m.corrupted)));
        forms << (m.safe() ? tr("✔ Safety held") : tr("✖ Safety violated"));
    } else {
        // both runs, each named: the story speaks of "with fencing" and "without fencing" too
        const auto shortVerdict = [](const Core::Summary &m, bool counted) {
            if (m.safe())
                return tr("✔ held");
            if (!counted)
                return tr("✖ violated");
            if (m.corrupted == 0)
                return tr("✖ violated (half applied)");
            return m.corrupted == 1 ? tr("✖ violated (1 overwrite)")
                                    : tr("✖ violated (%1 overwrites)").arg(qulonglong(m.corrupted));
        };
        const Comparison cmp = comparison(*m_doc, m_compareSource);
        const Core::Summary &top = cmp.top.trace->summary;
        const Core::Summary &bottom = cmp.bottom.trace->summary;
        for (const bool counted : {true, false})
            forms << (cmp.bySource
                          ? tr("Safety with %1: %2 · with %3: %4")
                                .arg(cmp.top.name, shortVerdict(top, counted), cmp.bottom.name,
                                     shortVerdict(bottom, counted))
                          : tr("Safety with fencing: %1 · without: %2")
                                .arg(shortVerdict(top, counted), shortVerdict(bottom, counted)));
        const auto mark = [](const Core::Summary &m) { return m.safe() ? tr("✔") : tr("✖"); };
        forms << tr("Safety: %1 %2 · %3 %4")
                     .arg(cmp.top.name, mark(top), cmp.bottom.name, mark(bottom));
    }
    forms.removeDuplicates();
    return forms;
}

QString SummaryStrip::text() const
{
    QStringList parts{m_fencing->text()};
    for (int r = 0; r < 4; ++r)
        parts << m_counts[r]->toolTip();
    parts << m_finalsText.trimmed() << m_verdict->text();
    return parts.join(QStringLiteral(" | "));
}
