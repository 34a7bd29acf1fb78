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

} // namespace AnimationLimits
