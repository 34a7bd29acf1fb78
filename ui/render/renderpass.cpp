#include "renderpass.h"

#include "paintcontext.h"

#include <optional>

namespace Render {

void runPasses(const PaintContext &c, const std::vector<RenderPass *> &passes,
               const std::vector<const Core::Trace *> &traces)
{
    const TimelineLayout &l = c.layout();
    PaintRecorder *p = c.recorder();
    for (std::size_t i = 0; i < l.panels.size() && i < traces.size(); ++i) {
        if (!traces[i])
            continue;
        const TimelinePanel &panel = l.panels[i];
        const Core::Trace &t = *traces[i];
        // compare mode under another token source: the bottom panel's tokens in its own words
        // (and the top panel's, when it is not the painted scenario's run)
        const Core::Scenario *other =
            panel.bottom ? c.options().bottomScenario : c.options().topScenario;
        std::optional<PaintContext> otherWords;
        if (other)
            otherWords.emplace(c, *other);
        const PaintContext &pc = otherWords ? *otherWords : c;
        for (std::size_t k = 0; k < passes.size();) {
            if (passes[k]->where() == RenderPass::Where::Panel) {
                passes[k]->paint(pc, panel, t, int(i));
                ++k;
                continue;
            }
            std::size_t end = k;
            while (end < passes.size() && passes[end]->where() == RenderPass::Where::Lanes)
                ++end;
            p->save();
            p->setClipRect(pc.plotClip(panel), Qt::IntersectClip); // within a hidden future too
            PaintedRegions *regions = pc.regions();
            const QRectF regionClip = regions ? regions->clip() : QRectF();
            if (regions)
                regions->setClip(regionClip.intersected(pc.plotClip(panel)));
            for (std::size_t j = k; j < end; ++j)
                passes[j]->beginPanel(pc, panel, t);
            pc.inPinnedParts(panel, [&](const TimelinePanel &part, bool) {
                for (std::size_t j = k; j < end; ++j)
                    passes[j]->paint(pc, part, t, int(i));
            });
            p->restore();
            if (regions)
                regions->setClip(regionClip);
            k = end;
        }
    }
    for (RenderPass *pass : passes)
        pass->finish(c);
}

} // namespace Render
