#!/usr/bin/env bash
# Builds FenceScope and starts it on the built-in default scenario (or on FILE if given).
# FENCESCOPE_APP_BUILD=DIR starts the app of a build tree already configured in DIR instead of
# build/dev (CI's Xvfb check reuses the package's Release build; the build step there is then a
# no-op unless a source changed).
set -euo pipefail
cd "$(dirname "$0")/.."
# (the app's packages only: the tests' Chromium and PostgreSQL are scripts/test.sh's)
FENCESCOPE_GUI_DEPS=1 bash scripts/deps.sh app
if [ -n "${FENCESCOPE_APP_BUILD:-}" ]; then
  build=$FENCESCOPE_APP_BUILD
  [ -f "$build/CMakeCache.txt" ] || { echo "run-app: $build is not a configured build tree" >&2; exit 1; }
  cmake --build "$build" --target fencescope
else
  build=build/dev
  cmake --preset dev -G Ninja >/dev/null
  cmake --build --preset dev --target fencescope
fi
exec "$build/app/fencescope" "$@" # (a relative or an absolute folder)
