// Huge pages and populating for big buffers (fastload/memoryhints.h).

#include "fastload/memoryhints.h"

#include <cstdint>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace Core {

void adviseHugePages(const void *data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t from = (begin + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t to = (begin + bytes) & ~(kHuge - 1);
    if (to > from)
        madvise(reinterpret_cast<void *>(from), to - from, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

void prepareMemory(const void *data, std::size_t bytes)
{
#ifdef __linux__
    constexpr std::uintptr_t kPage = 4096;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t end = begin + bytes;
    if (end - begin < 16 * kPage)
        return; // small lists: not worth a system call
    adviseHugePages(data, bytes);
#ifdef MADV_POPULATE_WRITE
    const std::uintptr_t from = (begin + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t to = end & ~(kPage - 1);
    if (to > from)
        madvise(reinterpret_cast<void *>(from), to - from, MADV_POPULATE_WRITE);
#endif
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace Core
