#pragma once

// What an animation's options may be, in plain C++: fencescope-cli checks its options against
// them on QtCore alone, without the picture libraries its helper loads (app/CMakeLists.txt).

namespace AnimationLimits {

constexpr int kDefaultFps = 15;
constexpr int kMinFps = 1;
constexpr int kMaxFps = 60;
constexpr double kMinStepSeconds = 0.5;
constexpr double kMaxStepSeconds = 60;
constexpr int kMaxLoop = 65535; // the GIF's 16-bit loop count
constexpr double kDefaultWidth = 1280;
// An animation of more steps than this would run for half an hour or more: a range of the run
// is asked for instead. (A run with more events than kMaxEvents in its range is refused before
// its steps are told, which costs a sentence each.)
constexpr int kMaxSteps = 300;
constexpr int kMaxEvents = 5000;

} // namespace AnimationLimits
