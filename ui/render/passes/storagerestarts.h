#pragma once

// A storage's restarts, for StorageLanesPass: the line across the lane, its words in the
// max_token row, and the region the hit test finds it by (storagerestarts.cpp).

#include "paintcontext.h"

#include "runstate.h"

namespace Render {

class StorageRestarts : public PaintContext
{
public:
    explicit StorageRestarts(const PaintContext &c) : PaintContext(c) {}

    // The lines of storage `s`'s restarts in view, across its lane.
    void paintRestarts(std::uint32_t s, const StorageLaneRects &r, const Core::Trace &t);
    // Their words in the max_token row `row`, taking their room in `labels` before any step's.
    void labelRestarts(std::uint32_t s, const QRectF &row, const Core::Trace &t,
                       const Core::StorageLevel &level, LabelSpans &labels);
    // The regions of the restarts in view on every storage lane of `panel`.
    void recordRestarts(const TimelinePanel &panel, const Core::Trace &t) const;

private:
    template <class Each>
    void restartsInView(std::uint32_t s, const Core::Trace &t, const Each &each) const;
};

} // namespace Render
