#!/usr/bin/env bash
# Loading large scenario files through the CLI: `check` (read and validate) and
# `run --summary` (read, simulate, report) on generated schedules, best of 5 runs each.
# Usage: bench/load.sh [build dir] [action counts...]   (default: build/dev 1000000)
set -euo pipefail
build=${1:-build/dev}
shift || true
counts=("${@:-1000000}")
cli=$build/app/fencescope-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
best() { # best of 5 wall-clock seconds of "$@"
  local best=""
  for _ in 1 2 3 4 5; do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  printf '%d.%03d s' $((best / 1000)) $((best % 1000))
}
for n in "${counts[@]}"; do
  file=$work/schedule-$n.json
  "$build/bench/fencescope-makeschedule" "$n" "$file"
  size=$(stat -c %s "$file")
  echo "$n actions ($((size / 1000000)) MB): check $(best "$cli" check "$file"), run --summary $(best "$cli" run --summary "$file")"
done
