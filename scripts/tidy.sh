#!/usr/bin/env bash
# clang-tidy (Debian's clang-tidy 14) with the checks of .clang-tidy, every warning an error.
#
#   bash scripts/tidy.sh            the C++ files the last change touched: those that differ from
#                                   HEAD's first parent (a merge brings its branch's files); a
#                                   header brings the .cpp of its name
#   bash scripts/tidy.sh --all      every file the build compiles (slow: about 7 s of CPU a file,
#                                   most of it Qt's headers, so the whole tree takes a quarter of
#                                   an hour on two cores: too slow for CI, a command to run
#                                   before a submission)
#   bash scripts/tidy.sh FILE...    those files
#
# It reads the compile commands of a build tree that was built (the moc files must be there):
# build/asan (scripts/sanitize.sh builds it), or FENCESCOPE_TIDY_BUILD=DIR (build/dev).
set -euo pipefail
cd "$(dirname "$0")/.."
FENCESCOPE_EXTRA_DEPS="clang-tidy-14 ${FENCESCOPE_EXTRA_DEPS:-}" bash scripts/deps.sh
build=${FENCESCOPE_TIDY_BUILD:-build/asan}
db="$build/compile_commands.json"
[ -f "$db" ] || { echo "tidy: no $db (build that tree first)" >&2; exit 2; }

# the translation units the build compiles, relative to here
compiled=$(grep -o '"file": *"[^"]*"' "$db" | sed 's/"file": *"//; s/"$//' | sed "s|^$PWD/||" | sort -u)

if [ "${1:-}" = --all ]; then
  wanted=$compiled
elif [ $# -gt 0 ]; then
  wanted=$(printf '%s\n' "$@")
else
  if base=$(git rev-parse -q --verify 'HEAD^1'); then
    changed=$(git diff --name-only --diff-filter=d "$base" HEAD -- '*.cpp' '*.h')
  else
    changed=$(git ls-files '*.cpp' '*.h') # a first commit: everything
  fi
  wanted=$(printf '%s\n' "$changed" | sed 's/\.h$/.cpp/' | sort -u)
fi
files=$(comm -12 <(printf '%s\n' "$wanted" | sort -u) <(printf '%s\n' "$compiled"))
if [ -z "$files" ]; then
  echo "tidy: no C++ file of the build to check"
  exit 0
fi
count=$(printf '%s\n' "$files" | wc -l)
echo "tidy: $count file(s), 2 at a time"
start=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -p: the build's flags; --quiet: no count of the warnings suppressed in Qt's headers
if ! printf '%s\n' "$files" | xargs -P 2 -n 1 clang-tidy-14 -p "$build" --quiet >"$log" 2>&1; then
  grep -E 'error:|warning:|note:|^ ' "$log" | grep -v 'warnings generated' >&2 || cat "$log" >&2
  echo "tidy: clang-tidy found problems (above)" >&2
  exit 1
fi
echo "tidy: clean after $(( $(date +%s) - start )) s"
