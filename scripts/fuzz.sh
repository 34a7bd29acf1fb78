#!/usr/bin/env bash
# Builds the libFuzzer target with clang and fuzzes the scenario loader + simulation for
# SECONDS (default 60). Crashing inputs are written to fuzz/crash-*; move them to
# fuzz/regressions/ so the test suite replays them forever.
# FENCESCOPE_FUZZ_RUNS=N runs exactly N inputs from a fixed seed instead (repeatable, for CI).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bash scripts/deps.sh
FENCESCOPE_EXTRA_DEPS="clang-14 libclang-rt-14-dev" bash scripts/deps.sh
cmake --preset fuzz -G Ninja >/dev/null
cmake --build --preset fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# one folder each, so equal names never collide
for src in fuzz/corpus resources/scenarios fuzz/regressions; do
  mkdir -p "$work/${src//\//-}"
  find "$src" -maxdepth 1 -type f ! -name .gitkeep -exec cp {} "$work/${src//\//-}/" \;
done
if [ -n "${FENCESCOPE_FUZZ_RUNS:-}" ]; then
  budget=(-seed=1 -runs="$FENCESCOPE_FUZZ_RUNS")
else
  budget=(-max_total_time="$seconds")
fi
./build/fuzz/fuzz/fuzz_scenario "${budget[@]}" -rss_limit_mb=4096 -timeout=10 \
  -dict=fuzz/scenario.dict -artifact_prefix=fuzz/ -print_final_stats=1 "$work"/* 2>&1 | tail -n 20
