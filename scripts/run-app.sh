#!/usr/bin/env bash
# Builds FenceScope and starts it on the built-in default scenario (or on FILE if given).
set -euo pipefail
cd "$(dirname "$0")/.."
FENCESCOPE_GUI_DEPS=1 bash scripts/deps.sh
cmake --preset dev -G Ninja >/dev/null
cmake --build --preset dev --target fencescope
exec ./build/dev/app/fencescope "$@"
