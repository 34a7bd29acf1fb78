#pragma once

// The outcome in words next to a write's glyph on a storage lane ("rejected: token 1 < max 2";
// for a corruption, the written value and the lost one struck through), placed most important
// first where there is room (LabelSpans) and drawn as placed (PaintContext::placeLabel), per
// storage lane by StorageLanesPass after its glyphs.

#include "paintcontext.h"

#include "tokentext.h"

namespace Render {

class OutcomeLabels : public PaintContext
{
public:
    using PaintContext::PaintContext;
    explicit OutcomeLabels(const PaintContext &c) : PaintContext(c) {}

    QString outcomeText(const Core::Trace &t, const Core::Write &w, std::uint32_t storage) const
    {
        if (const Core::WriteVersion *v = versionOf(t, w, storage)) {
            switch (w.result) {
            case Core::WriteResult::Accepted:
                return QObject::tr("accepted, v%1").arg(v->version);
            case Core::WriteResult::Rejected:
                return QObject::tr("expected version %1, found %2")
                    .arg(v->expected)
                    .arg(v->version);
            case Core::WriteResult::LockedOut:
                return QObject::tr("LOCKED OUT: expected version %1, found %2")
                    .arg(v->expected)
                    .arg(v->version);
            case Core::WriteResult::Corrupted:
                return QObject::tr("CORRUPTED");
            }
        }
        const bool le = m_s.storages[storage].rule == Core::FenceRule::Le;
        const Core::StorageCheck check = m_s.storages[storage].check;
        if (t.fencing && w.tagged && !w.applied &&
            (check == Core::StorageCheck::Owner || check == Core::StorageCheck::Same)) {
            // section 15: the lock service said no, or the token is not the recorded one
            const QString why =
                check == Core::StorageCheck::Owner
                    ? QObject::tr("not its grant now")
                    : QObject::tr("%1 ≠ recorded %2")
                          .arg(tokenLabel(m_s, writeToken(t, w)), tokenShort(m_s, w.maxToken));
            return w.result == Core::WriteResult::LockedOut ? QObject::tr("LOCKED OUT: %1").arg(why)
                                                            : QObject::tr("rejected: %1").arg(why);
        }
        switch (w.result) {
        case Core::WriteResult::Accepted:
            return w.tagged ? QObject::tr("accepted, %1").arg(tokenLabel(m_s, writeToken(t, w)))
                            : QObject::tr("accepted");
        case Core::WriteResult::Rejected:
        case Core::WriteResult::LockedOut: {
            if (!w.tagged)
                return w.result == Core::WriteResult::Rejected
                           ? QObject::tr("rejected: no token")
                           : QObject::tr("LOCKED OUT: no token");
            const Core::Token token = writeToken(t, w);
            const QString cmp = le ? QObject::tr("%1 <= max %2")
                                         .arg(tokenLabel(m_s, token), tokenShort(m_s, w.maxToken))
                                   : QObject::tr("%1 < max %2")
                                         .arg(tokenLabel(m_s, token), tokenShort(m_s, w.maxToken));
            return w.result == Core::WriteResult::Rejected ? QObject::tr("rejected: %1").arg(cmp)
                                                           : QObject::tr("LOCKED OUT: %1").arg(cmp);
        }
        case Core::WriteResult::Corrupted:
            (void)t;
            return QObject::tr("CORRUPTED");
        }
        return {};
    }

    // What a write to a compare-and-set storage compared (Trace::writeVersions), or nullptr
    // for a token storage.
    const Core::WriteVersion *versionOf(const Core::Trace &t, const Core::Write &w,
                                        std::uint32_t storage) const
    {
        if (storage >= m_s.storages.size() ||
            m_s.storages[storage].check != Core::StorageCheck::Version ||
            t.writeVersions.size() != t.writes.size() || t.writes.empty())
            return nullptr;
        return &t.writeVersions[std::size_t(&w - t.writes.data())];
    }

    // One piece of an outcome label, in its own font.
    struct Segment
    {
        QString text;
        const QFont *font;
        const Metrics *fm;
        bool struck;
    };
    // An outcome label: the write it tells, where its glyph is, and where the next glyph is (a
    // label right of its glyph ends before that).
    struct OutcomeLabel
    {
        std::uint32_t write;
        double x;
        double nextX;
    };

    // The outcome in words next to its glyph (left of it near the right edge): "rejected:
    // token 1 < max 2", or for a corruption the written value and the lost one struck through.
    // Labels take their room most important first (corrupted, locked out, rejected, accepted;
    // in time order among equals): what the picture is about must never lose its words to a
    // routine acceptance that happened to be drawn first. A label with no room left for its
    // full text is shortened to its first word, or left out.
    void placeOutcomeLabels(const std::vector<OutcomeLabel> &all, LabelSpans &spans,
                            const StorageLaneRects &r, const Core::Trace &t, std::uint32_t s,
                            double gr)
    {
        std::vector<std::uint32_t> order(all.size());
        for (std::size_t k = 0; k < all.size(); ++k)
            order[k] = std::uint32_t(k);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return severity(t.writes[all[a].write].result) >
                   severity(t.writes[all[b].write].result);
        });
        for (const std::uint32_t k : order)
            placeOutcomeLabel(all[k], spans, r, t, s, gr);
    }

    void placeOutcomeLabel(const OutcomeLabel &outcome, LabelSpans &labels,
                           const StorageLaneRects &r, const Core::Trace &t, std::uint32_t s,
                           double gr)
    {
        const Core::Write &w = t.writes[outcome.write];
        const bool corrupt = w.result == Core::WriteResult::Corrupted;
        const bool accepted = w.result == Core::WriteResult::Accepted;
        std::vector<Segment> full;
        const QFont *mainFont = accepted ? &m_st.label : &m_st.bold;
        const Metrics *mainFm = accepted ? &m_st.fmLabel : &m_st.fmBold;
        full.push_back({outcomeText(t, w, s), mainFont, mainFm, false});
        if (corrupt) {
            full.back().text += QLatin1Char(' ') + quoted(Core::writeValue(m_s, w));
            if (w.overwrote != Core::kNone && t.tokens == Core::TokenSource::KafkaEpoch) {
                // a topic is append-only: the zombie's records land after the newer ones, as
                // duplicates; nothing is struck out
                full.push_back(
                    {QObject::tr(" appended after "), &m_st.label, &m_st.fmLabel, false});
                full.push_back({quoted(Core::writeValue(m_s, t.writes[w.overwrote])), &m_st.bold,
                                &m_st.fmBold, false});
            } else if (w.overwrote != Core::kNone) {
                full.push_back({QObject::tr(" overwrote "), &m_st.label, &m_st.fmLabel, false});
                full.push_back({quoted(Core::writeValue(m_s, t.writes[w.overwrote])), &m_st.bold,
                                &m_st.fmBold, true});
            }
        }
        const double pad = outcomePad(w);
        const auto widthOf = [&](const std::vector<Segment> &segs) {
            double total = pad;
            for (const Segment &sg : segs)
                total += sg.fm->horizontalAdvance(sg.text);
            return total;
        };
        // right of the glyph, up to the next glyph; else left of it
        const std::vector<Segment> *segs = &full;
        Label label;
        label.row = r.outcomes;
        label.x = outcome.x;
        label.side = Label::Side::RightOrLeft;
        label.gap = gr + 4;
        label.end = std::min(m_xmax - 2, outcome.nextX - gr - 4);
        label.spans = &labels;
        label.take = true;
        label.tells = X(w.arrivedAt);
        label.width = widthOf(full);
        label.draw = [&](const QRectF &box) { paintOutcomeLabel(*segs, box, w); };
        if (placeLabel(label))
            return;
        // short form: just the outcome's first word
        QString word = full.front().text.section(QLatin1Char(':'), 0, 0);
        word = word.section(QLatin1Char(','), 0, 0);
        const std::vector<Segment> shortForm{{word, mainFont, mainFm, false}};
        segs = &shortForm;
        label.width = widthOf(shortForm);
        placeLabel(label);
    }

    static double outcomePad(const Core::Write &w)
    {
        return w.result == Core::WriteResult::Corrupted ? 10 : 6;
    }

    // The words of an outcome in `box`, piece by piece.
    void paintOutcomeLabel(const std::vector<Segment> &segments, const QRectF &box,
                           const Core::Write &w)
    {
        const QColor color = m_st.th.outcomeText(w.result);
        const bool corrupt = w.result == Core::WriteResult::Corrupted;
        if (corrupt) {
            // a corruption is unmistakable: boxed, filled, bold
            m_p->setPen(QPen(m_st.th.corrupted, 1.5 * m_st.lw));
            m_p->setBrush(m_st.corruptFill);
            m_p->drawRoundedRect(box, 3, 3);
        } else {
            m_p->setPen(Qt::NoPen);
            m_p->setBrush(m_st.chip);
            m_p->drawRoundedRect(box, 3, 3);
        }
        double tx = box.left() + outcomePad(w) / 2;
        for (const Segment &sg : segments) {
            const double sw = sg.fm->horizontalAdvance(sg.text);
            m_p->setFont(*sg.font);
            m_p->setPen(corrupt ? textOn(m_st.corruptFill) : color);
            const QRectF tr(tx, box.top(), sw + 1, box.height());
            m_p->drawText(tr, Qt::AlignLeft | Qt::AlignVCenter, sg.text);
            if (sg.struck) {
                // the lost value, crossed out: this is the data the stale write destroyed
                m_p->setPen(QPen(m_st.th.corrupted.darker(130), 1.6 * m_st.lw));
                const double y = tr.center().y() + 0.5;
                m_p->drawLine(QPointF(tx - 1, y), QPointF(tx + sw + 1, y));
            }
            tx += sw;
        }
    }
};

} // namespace Render
