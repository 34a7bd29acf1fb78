#!/usr/bin/env bash
# Builds FenceScope and runs every test (offscreen). Installs missing packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake --preset dev -G Ninja >/dev/null
cmake --build --preset dev
QT_QPA_PLATFORM=offscreen ctest --preset dev -j2
