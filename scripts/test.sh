#!/usr/bin/env bash
# Builds FenceScope and runs every test (offscreen). Installs missing packages first.
# The tree is build/test (the `test` preset): every program and every test, at the dev preset's -O2
# but without debug information, which compiles and links faster (docs/PERFORMANCE.md, "Building"). The benchmarks are no tests: the dev preset builds them (fencescope-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake --preset test -G Ninja >/dev/null
cmake --build --preset test
QT_QPA_PLATFORM=offscreen ctest --preset test -j2
