#!/usr/bin/env bash
# The classroom's screens in full: tests/ui/tst_projector.cpp for every built-in scenario at
# 1024x768, 1280x800, 1366x768 and 1920x1080 (CI checks 1280x800 in full and a sample of the
# others), a picture of every state it checked, and a contact sheet per size and scenario to
# look at (ImageMagick's montage). Prints how many states each size checked and the sheets'
# paths; exits 1 if any size failed. Each run keeps its settings in a directory of its own (see
# the test's initTestCase), so every scene of every lesson is walked at every size.
#   scripts/projector-matrix.sh [OUT]   (default build/projector-matrix; build/dev must be built)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-$PWD/build/projector-matrix}
test=build/dev/tests/tst_projector
[ -x "$test" ] || { echo "projector-matrix: build first (cmake --build --preset dev)" >&2; exit 2; }
command -v montage >/dev/null || FENCESCOPE_X11_DEPS=1 bash scripts/deps.sh
rm -rf "$out"; mkdir -p "$out"
status=0
for size in 1024x768 1280x800 1366x768 1920x1080; do
  shots=$out/$size
  if ! FENCESCOPE_SCREEN=$size FENCESCOPE_SHOTS=$shots FENCESCOPE_SCREENSHOTS=$out/failed-$size \
       "$test" >"$out/$size.log" 2>&1; then
    echo "projector-matrix: $size FAILED (see $out/$size.log, pictures in $out/failed-$size)"
    status=1
  fi
  # ("N states of 3 lessons": the same N at every size, each lesson walked scene by scene)
  grep -ho '[0-9]* states of .*' "$out/$size.log" | sed "s/^/projector-matrix: /"
  # one sheet per scenario: its states in the order they were checked
  for dir in "$shots"/*/; do
    [ -d "$dir" ] || continue
    preset=$(basename "$dir")
    montage -label '%t' -pointsize 12 -geometry "$(( ${size%x*} / 3 ))x+4+4" -tile 5x \
      "$dir"/*.png "$out/sheet-$size-$preset.png" 2>/dev/null && echo "$out/sheet-$size-$preset.png"
  done
done
exit $status
