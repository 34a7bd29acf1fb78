// Compare mode: the title bar of each panel ("Fencing ON ...", "Fencing OFF ...").

#include "passes.h"

#include "paintcontext.h"

namespace Render {

namespace {

class PanelTitlePainter : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit PanelTitlePainter(const PaintContext &c) : PaintContext(c) {}

    void paintPanelTitle(const TimelinePanel &panel, const Core::Trace &t, int index)
    {
        const QRectF r = panel.title;
        // what the run is, not what happens in it: whole at every step (its counts are the
        // run's so far, from a run cut at the playhead)
        noteWhole(r);
        // fenced / unfenced: the fencing's colour; two token sources (same fencing): each run's
        // safety, so the run that went wrong stands out
        const bool good = m_o.bottomScenario ? t.summary.safe() : t.fencing;
        const QColor accent = good ? m_st.th.accepted : m_st.th.corrupted;
        m_p->fillRect(r, mix(accent, m_st.th.background, 0.82));
        m_p->fillRect(QRectF(r.left(), r.top(), 6 * m_st.f, r.height()), accent);
        m_p->setPen(QPen(accent, 1));
        m_p->drawLine(r.topLeft(), r.topRight());
        QString text = index == 0 ? m_o.compareTopLabel : m_o.compareBottomLabel;
        const QString brief = t.fencing ? QObject::tr("Fencing ON") : QObject::tr("Fencing OFF");
        if (text.isEmpty())
            text = t.fencing ? QObject::tr("Fencing ON: the storage checks every token")
                             : QObject::tr("Fencing OFF: the same schedule, tokens ignored");
        const Core::Summary &sum = t.summary;
        // Longest first; on a narrow picture the title gets shorter before the counts do, and
        // the corrupted count, the point of comparing, goes last.
        const QString counts[] = {
            QObject::tr("%1 accepted · %2 rejected · %3 corrupted · %4 locked out")
                .arg(sum.accepted)
                .arg(sum.rejected)
                .arg(sum.corrupted)
                .arg(sum.lockedOut),
            QObject::tr("%1 rejected · %2 corrupted").arg(sum.rejected).arg(sum.corrupted),
            QObject::tr("%1 corrupted").arg(sum.corrupted)};
        const Metrics &countMetrics = sum.corrupted ? m_st.fmBold : m_st.fmLabel;
        const QRectF inner = r.adjusted(14 * m_st.f, 0, -12 * m_st.f, 0);
        const double gap = 16 * m_st.f;
        QString title = text;
        QString count = counts[0];
        const auto fits = [&](const QString &a, const QString &b) {
            return m_st.fmBold.horizontalAdvance(a) + gap + countMetrics.horizontalAdvance(b) <=
                   inner.width();
        };
        if (!fits(title, count)) {
            title = brief;
            count = counts[2];
            for (const QString &c : counts)
                if (fits(brief, c)) {
                    count = c;
                    break;
                }
            // a custom label longer than the brief one: as much of it as fits
            const QString custom = index == 0 ? m_o.compareTopLabel : m_o.compareBottomLabel;
            if (!custom.isEmpty())
                title = m_st.fmBold.elidedText(
                    custom, Qt::ElideRight,
                    std::max(0.0, inner.width() - gap - countMetrics.horizontalAdvance(count)));
        }
        m_p->setFont(m_st.bold);
        m_p->setPen(m_st.th.foreground);
        m_p->drawText(inner, Qt::AlignLeft | Qt::AlignVCenter, title);
        m_p->setFont(sum.corrupted ? m_st.bold : m_st.label);
        m_p->setPen(sum.corrupted ? m_st.th.corruptedText : m_st.th.foreground);
        m_p->drawText(inner, Qt::AlignRight | Qt::AlignVCenter, count);
    }
};

} // namespace

bool PanelTitlePass::recordsRegions() const
{
    return false;
}

void PanelTitlePass::paint(const PaintContext &c, const TimelinePanel &panel, const Core::Trace &t,
                           int panelIndex)
{
    if (!panel.title.isEmpty())
        PanelTitlePainter(c).paintPanelTitle(panel, t, panelIndex);
}

} // namespace Render
