#pragma once

// Work the window starts in the background (a sweep on every core, a search for a failure) runs
// at the lowest CPU priority, so the window keeps drawing at 60 frames a second while all cores
// compute, and the work still gets every cycle the window leaves. `work` runs on a thread of
// its own with nice 19 (Linux: the priority is per thread, and threads it starts inherit it);
// the calling thread, a QtConcurrent pool thread, waits and keeps its own priority.

#include <optional>
#include <thread>
#include <type_traits>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

template <typename Work> auto runAtLowPriority(Work &&work) -> std::invoke_result_t<Work>
{
    using Result = std::invoke_result_t<Work>;
    std::optional<Result> result;
    std::thread worker([&] {
#ifdef __linux__
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
#endif
        result.emplace(work());
    });
    worker.join();
    return std::move(*result);
}
