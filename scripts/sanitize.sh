#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (line tables only, -g1 in
# the preset: enough for their stack traces, and a quarter less compile time) and runs the whole test
# suite (GUI tests included, offscreen). Installs missing packages first. The preset compiles with
# clang 14: it compiles this unoptimised, instrumented code in about two thirds of GCC 12's CPU
# time (docs/PERFORMANCE.md, "Building: CI under 45 minutes").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
FENCESCOPE_EXTRA_DEPS="clang-14 libclang-rt-14-dev" bash scripts/deps.sh
cmake --preset asan -G Ninja >/dev/null
cmake --build --preset asan
# Qt keeps some allocations for the life of the process: leaks are not checked here.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export FENCESCOPE_QUICK=1 # property tests: 1,000 schedules each instead of 10,000 under ASan
QT_QPA_PLATFORM=offscreen ctest --preset asan -j2
