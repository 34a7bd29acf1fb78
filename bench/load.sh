#!/usr/bin/env bash
# Loading large scenario files through the CLI: `check` (read and validate) and
# `run --summary` (read, simulate, report) on generated schedules, and the lean QtCore reference
# run --summary is compared with (fencescope-loadreference: QJsonDocument, then the same
# summary-only simulation), best of 5 runs each (wall and CPU time each on its own best run).
# Usage: bench/load.sh [build dir] [action counts...]   (default: build/dev 1000000)
set -euo pipefail
build=${1:-build/dev}
shift || true
counts=("${@:-1000000}")
cli=$build/app/fencescope-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# best of 5 runs of "$@": wall-clock seconds, and CPU seconds (user + sys, what the process
# itself spent: on a shared machine, wall time also counts the other builds); the best wall time
# in milliseconds is left in $bestms
best() {
  local best="" bestcpu=""
  for _ in 1 2 3 4 5; do
    local t0 t1 cpu
    t0=$(date +%s%N)
    cpu=$( { TIMEFORMAT='%3U %3S'; time "$@" >/dev/null; } 2>&1 )
    t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000000 ))
    local cpums
    cpums=$(awk -v c="$cpu" 'BEGIN { split(c, a, " "); printf "%d", (a[1] + a[2]) * 1000 }')
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    if [ -z "$bestcpu" ] || [ "$cpums" -lt "$bestcpu" ]; then bestcpu=$cpums; fi
  done
  printf '%d.%03d s wall, %d.%03d s CPU' $((best / 1000)) $((best % 1000)) \
    $((bestcpu / 1000)) $((bestcpu % 1000))
  bestms=$best
}
for n in "${counts[@]}"; do
  file=$work/schedule-$n.json
  "$build/bench/fencescope-makeschedule" "$n" "$file"
  size=$(stat -c %s "$file")
  line="$n actions ($((size / 1000000)) MB): check"
  best "$cli" check "$file" >"$work/out"
  line+=" $(cat "$work/out"), run --summary"
  best "$cli" run --summary "$file" >"$work/out"
  line+=" $(cat "$work/out")"
  summaryms=$bestms
  best "$build/bench/fencescope-loadreference" "$file" >"$work/out"
  line+=", reference $(cat "$work/out")"
  ratio=$(awk -v a="$summaryms" -v b="$bestms" 'BEGIN { printf "%.3f", a / b }')
  echo "$line; run --summary ${ratio}x the reference"
done
