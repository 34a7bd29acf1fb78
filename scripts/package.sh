#!/usr/bin/env bash
# Builds the Debian package: a Release build in build/package (no tests, no benchmarks), then
# `cpack -G DEB` (cmake/Packaging.cmake). Installs missing packages first. Everything goes to
# stderr except the last line on stdout: the .deb's path.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  bash scripts/deps.sh
  # dpkg-shlibdeps (dpkg-dev) and file, which CPack uses to find the programs' libraries
  FENCESCOPE_EXTRA_DEPS="dpkg-dev file" bash scripts/deps.sh
  cmake -S . -B build/package -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DFENCESCOPE_BUILD_TESTS=OFF -DFENCESCOPE_BUILD_BENCH=OFF >/dev/null
  cmake --build build/package
  rm -f build/package/*.deb
  (cd build/package && cpack -G DEB)
} >&2
debs=(build/package/*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || { echo "package: no single .deb in build/package" >&2; exit 1; }
echo "$PWD/${debs[0]}"
