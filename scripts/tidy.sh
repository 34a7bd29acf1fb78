#!/usr/bin/env bash
# clang-tidy (Debian's clang-tidy 14) with the checks of .clang-tidy, every warning an error.
#
#   bash scripts/tidy.sh               the C++ files the last change touched: those that differ
#                                      from HEAD's first parent (a merge brings its branch's files)
#   bash scripts/tidy.sh --since-clean the C++ files changed since the commit named in
#                                      .ci/tidy-clean, the last one at which --all ran clean (CI
#                                      runs this). No marker, a commit this clone does not have,
#                                      or a change to .clang-tidy since then: every file
#   bash scripts/tidy.sh --all         every source file the build compiles in the folders of
#                                      FENCESCOPE_TIDY_SCOPE (below; slow: several seconds of CPU
#                                      a file, most of it Qt's headers)
#   bash scripts/tidy.sh FILE...       those files
#
# A header brings the .cpp of its name and every .cpp that includes it by name; a header that
# only other headers include brings theirs, so some file the build compiles reads its lines (the
# checks report a header's lines in every file that includes it). A source the build compiles
# only inside a unity file (core's simulator group) brings that unity file. Files generated in
# the build tree (moc, rcc) are not checked.
#
# It reads the compile commands of a build tree that was built (the moc files must be there):
# build/asan (scripts/sanitize.sh builds it), or FENCESCOPE_TIDY_BUILD=DIR (build/dev).
set -euo pipefail
cd "$(dirname "$0")/.."
FENCESCOPE_EXTRA_DEPS="clang-tidy-14 ${FENCESCOPE_EXTRA_DEPS:-}" bash scripts/deps.sh
build=${FENCESCOPE_TIDY_BUILD:-build/asan}
db="$build/compile_commands.json"
[ -f "$db" ] || { echo "tidy: no $db (build that tree first)" >&2; exit 2; }
marker=.ci/tidy-clean

# the translation units the build compiles, relative to here
compiled=$(grep -o '"file": *"[^"]*"' "$db" | sed 's/"file": *"//; s/"$//' | sed "s|^$PWD/||" | sort -u)
# CMake's unity files (build/.../Unity/unity_*.cxx) include sources by absolute path: each such
# source, then the unity file that compiles it
unity=$(printf '%s\n' "$compiled" | grep -E '/Unity/unity_[^/]*$' || true)
unity_sources=$(for u in $unity; do
  sed -n 's|^#include "\(.*\)"$|\1|p' "$u" | sed "s|^$PWD/||; s|\$| $u|"
done)
# what is checked: sources of the repository, and the unity files (the rest of the build tree
# is what moc and rcc generated)
checkable=$(printf '%s\n' "$compiled" | grep -v "^$build/" || true; printf '%s\n' "$unity")
checkable=$(printf '%s\n' "$checkable" | grep -v '^$' | sort -u)
# The folders checked: the core, the CLI and tools, the benchmarks, the live lab, the poll and
# the widgets. tests/ is not checked yet: no run of --all over it has finished clean.
# FENCESCOPE_TIDY_SCOPE="core app ... tests" widens it.
scope=${FENCESCOPE_TIDY_SCOPE:-core app bench live poll ui}
scope_re="^($(printf '%s' "$scope" | tr -s ' ' '|'))/"
checkable=$(printf '%s\n' "$checkable" | grep -E "$scope_re|/Unity/unity_" || true)

# the files the build compiles that check the given files (one a line), as described above
units_of() {
  local f h b seen="" heads next found
  while read -r f; do
    [ -n "$f" ] || continue
    case "$f" in
      *.h)
        # the header's .cpp, then its includers; headers without a compiled includer go up one
        # more level, until some compiled file includes them or nothing does
        heads=$f
        while [ -n "$heads" ]; do
          next=""
          for h in $heads; do
            case " $seen " in *" $h "*) continue ;; esac
            seen="$seen $h"
            b=$(basename "$h")
            found=$(printf '%s\n' "${h%.h}.cpp"
              git grep -lE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]([^\">]*/)?${b//./\\.}[\">]" \
                -- '*.cpp' '*.h' || true)
            local cpps
            cpps=$(printf '%s\n' "$found" | grep '\.cpp$' | while read -r c; do units_of <<<"$c"; done)
            if [ -n "$cpps" ]; then
              printf '%s\n' "$cpps"
            else
              next="$next $(printf '%s\n' "$found" | grep '\.h$' | tr '\n' ' ')"
            fi
          done
          heads=$next
        done
        ;;
      *)
        if grep -qxF "$f" <<<"$checkable"; then
          echo "$f"
        else
          printf '%s\n' "$unity_sources" | awk -v f="$f" '$1 == f { print $2 }'
        fi
        ;;
    esac
  done
}

changed_since() { # the C++ files that differ between commit $1 and HEAD
  git diff --name-only --diff-filter=d "$1" HEAD -- '*.cpp' '*.h'
}

case "${1:-}" in
  --all)
    files=$checkable
    ;;
  --since-clean)
    clean=$(sed -n '1{s/[[:space:]]//g;p}' "$marker" 2>/dev/null || true)
    if [ -z "$clean" ] || ! git rev-parse -q --verify "$clean^{commit}" >/dev/null; then
      echo "tidy: $marker names no commit of this clone: every file"
      files=$checkable
    elif ! git diff --quiet "$clean" HEAD -- .clang-tidy; then
      echo "tidy: .clang-tidy changed since $clean: every file"
      files=$checkable
    else
      echo "tidy: the files changed since $clean ($marker)"
      files=$(changed_since "$clean" | units_of)
    fi
    ;;
  "")
    if base=$(git rev-parse -q --verify 'HEAD^1'); then
      files=$(changed_since "$base" | units_of)
    else
      files=$checkable # a first commit: everything
    fi
    ;;
  *)
    files=$(printf '%s\n' "$@" | units_of)
    ;;
esac
files=$(printf '%s\n' "$files" | grep -v '^$' | sort -u || true)
if [ -z "$files" ]; then
  echo "tidy: no C++ file of the build to check"
  exit 0
fi
count=$(printf '%s\n' "$files" | wc -l)
echo "tidy: $count file(s), 2 at a time"
start=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -p: the build's flags; --quiet: no count of the warnings suppressed in Qt's headers. A unity
# file includes its .cpp files on purpose.
tidy_one() {
  case "$1" in */Unity/unity_*) set -- --checks=-bugprone-suspicious-include "$1" ;; esac
  clang-tidy-14 -p "$build" --quiet "$@"
}
export -f tidy_one
export build
if ! printf '%s\n' "$files" | xargs -P 2 -n 1 bash -c 'tidy_one "$1"' tidy >"$log" 2>&1; then
  grep -E 'error:|warning:|note:|^ ' "$log" | grep -v 'warnings generated' >&2 || cat "$log" >&2
  echo "tidy: clang-tidy found problems (above)" >&2
  exit 1
fi
echo "tidy: clean after $(( $(date +%s) - start )) s"
