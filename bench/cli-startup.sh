#!/usr/bin/env bash
# Why fencescope-cli is two programs: the start-up of `fencescope-cli check` on the default
# scenario, as built (QtCore alone), against the same command run by the picture helper, which
# links QtGui, QtSvg and FFmpeg's codec libraries (what one program for every command would
# load). Median of 21 runs each. Usage: bench/cli-startup.sh [build dir]
set -euo pipefail
build=${1:-build/dev}
scenario=$(mktemp --suffix=.json)
trap 'rm -f "$scenario"' EXIT
cp "$(dirname "$0")/../resources/scenarios/default.json" "$scenario"
median() {
  local times=()
  for _ in $(seq 21); do
    local t0 t1
    t0=${EPOCHREALTIME/./}
    "$@" >/dev/null
    t1=${EPOCHREALTIME/./}
    times+=("$(( (t1 - t0) / 100 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 11p | awk '{ printf "%.1f ms", $1 / 10 }'
}
libs() { ldd "$1" | wc -l; }
cli=$build/app/fencescope-cli
pictures=$build/libexec/fencescope/fencescope-cli-pictures
echo "fencescope-cli check:          $(median "$cli" check "$scenario") ($(libs "$cli") shared libraries)"
echo "the same, with the pictures':  $(median "$pictures" check "$scenario") ($(libs "$pictures") shared libraries)"
