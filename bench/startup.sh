#!/usr/bin/env bash
# Start-up time of the app on the default scenario: process start to the first painted frame
# of the timeline, offscreen, median of 7 runs. Usage: bench/startup.sh [path/to/fencescope]
set -euo pipefail
app=${1:-build/dev/app/fencescope}
times=()
for _ in 1 2 3 4 5 6 7; do
  t0=$(date +%s%N)
  out=$(QT_QPA_PLATFORM=offscreen FENCESCOPE_STARTUP_PROBE=1 FENCESCOPE_AUTOSAVE_DIR=$(mktemp -d) "$app" 2>/dev/null)
  t1=$(date +%s%N)
  times+=("$(( (t1 - t0) / 1000000 )) ms process (${out#first frame: })")
done
printf '%s\n' "${times[@]}" | sort -n | sed -n 4p | sed 's/^/median: /'
