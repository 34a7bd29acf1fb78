#!/usr/bin/env bash
# Installs FenceScope's .deb on a fresh, minimal Debian with no Qt (../shared/tools/fresh-machine,
# needs root) and checks that apt pulls in everything it needs to run:
#   bash scripts/deb-check.sh [PATH/TO/fencescope_*.deb]   (default: built by scripts/package.sh)
# Inside the fresh machine it runs itself again as `deb-check.sh --inside /src/shared/NAME.deb`
# (the clean clone of HEAD is at /src/project, FRESH_SHARED at /src/shared).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "deb-check: FAILED: $*" >&2; exit 1; }
ok() { echo "deb-check: ok: $*"; }

inside() {
  local deb=$1
  # a fresh machine: not one Qt library before the package comes
  if dpkg-query -W -f='${Package} ${Status}\n' 2>/dev/null | grep -E '^libqt6' | grep -q ' installed$'; then
    fail "Qt is installed before the package"
  fi
  ldconfig -p | grep -q 'libQt6' && fail "a Qt library is on the library path before the package"
  ok "no Qt before the install"

  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "$deb" >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log >&2; fail "apt-get install $deb"; }
  ok "apt-get install $(basename "$deb")"
  dpkg-query -W -f='${Status}' libqt6core6 | grep -q ' installed$' || fail "the Qt runtime was not pulled in"
  local dev
  dev=$(dpkg-query -W -f='${Package} ${Status}\n' | awk '$1 ~ /-dev(:|$)/ && $NF == "installed" {print $1}')
  [ -z "$dev" ] || fail "development packages installed: $dev"
  ok "Qt runtime pulled in, no -dev package"

  local version scenarios=/usr/share/fencescope/scenarios out
  version=$(dpkg-query -W -f='${Version}' fencescope)
  out=$(fencescope-cli --version) || fail "fencescope-cli --version exits $?"
  [ "$out" = "fencescope-cli $version" ] || fail "fencescope-cli --version printed '$out'"
  ok "$out"
  out=$(fencescope-cli check "$scenarios/default.json") || fail "fencescope-cli check exits $?"
  [[ "$out" == "$scenarios/default.json: ok ("* ]] || fail "fencescope-cli check printed '$out'"
  ok "fencescope-cli check: $out"
  out=$(fencescope-cli run "$scenarios/default.json") || fail "fencescope-cli run exits $?"
  # worked out in tests/cli/tst_cli.cpp: A's stale write is rejected, B's value stays
  grep -qF '"summary": { "accepted": 1, "rejected": 1, "corrupted": 0, "lockedOut": 0, "skipped": 0, "partial": 0 }' <<<"$out" \
    || fail "fencescope-cli run printed an unexpected report: $out"
  ok "fencescope-cli run: the stale write is rejected"
  fencescope-cli export "$scenarios/three-owners.json" -o /tmp/slide.png --compare \
    || fail "fencescope-cli export exits $? (fonts or the offscreen plugin missing?)"
  [ "$(head -c 8 /tmp/slide.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
    || fail "fencescope-cli export wrote no PNG"
  ok "fencescope-cli export draws a PNG without a display"
  # animations: giflib and FFmpeg's runtime libraries, with the H.264 and VP9 encoders, came along
  for ext in gif mp4 webm; do
    fencescope-cli animate "$scenarios/default.json" -o "/tmp/run.$ext" --width 480 --step-seconds 0.5 \
      || fail "fencescope-cli animate to .$ext exits $?"
  done
  [ "$(head -c 6 /tmp/run.gif)" = GIF89a ] || fail "fencescope-cli animate wrote no GIF"
  [ "$(dd if=/tmp/run.mp4 bs=1 skip=4 count=4 2>/dev/null)" = ftyp ] || fail "fencescope-cli animate wrote no MP4"
  [ "$(head -c 4 /tmp/run.webm | od -An -tx1 | tr -d ' \n')" = 1a45dfa3 ] || fail "fencescope-cli animate wrote no WebM"
  ok "fencescope-cli animate writes a GIF, an MP4 and a WebM"
  out=$(fencescope-cli live --help) || fail "fencescope-cli live --help exits $? (its helper missing?)"
  [[ "$out" == "usage: fencescope-cli live FILE"* ]] || fail "fencescope-cli live --help printed '$out'"
  ok "fencescope-cli live finds its helper"
  out=$(QT_QPA_PLATFORM=offscreen fencescope --version) || fail "fencescope --version exits $?"
  [ "$out" = "fencescope $version" ] || fail "fencescope --version printed '$out'"
  ok "$out (offscreen)"
  # the whole window starts and paints once: every library and plugin it loads is there
  out=$(FENCESCOPE_STARTUP_PROBE=1 QT_QPA_PLATFORM=offscreen timeout 120 fencescope \
        "$scenarios/three-owners.json" 2>/dev/null) || fail "fencescope did not start (exit $?)"
  [[ "$out" == "first frame:"* ]] || fail "fencescope printed '$out'"
  ok "fencescope opens a scenario and paints its window (offscreen)"
  for f in /usr/share/applications/io.github.fencescope.FenceScope.desktop \
           /usr/share/metainfo/io.github.fencescope.FenceScope.metainfo.xml \
           /usr/share/mime/packages/io.github.fencescope.FenceScope.xml \
           /usr/share/icons/hicolor/scalable/apps/io.github.fencescope.FenceScope.svg \
           /usr/share/icons/hicolor/48x48/apps/io.github.fencescope.FenceScope.png \
           /usr/share/man/man1/fencescope-cli.1; do
    [ -s "$f" ] || fail "$f is missing"
  done
  ok "desktop entry, metainfo, MIME type, icons and man page installed"
  echo "deb-check: all checks passed"
}

if [ "${1:-}" = --inside ]; then
  inside "$2"
  exit 0
fi

deb=${1:-}
if [ -z "$deb" ]; then
  deb=$(bash scripts/package.sh | tail -1)
fi
[ -f "$deb" ] || fail "no package at '$deb'"
shared=$(cd ../shared && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$shared" "$work/shared"
cp "$deb" "$work/shared/"
name=$(basename "$deb")
echo "deb-check: installing $name on a fresh machine"
FRESH_SHARED="$work/shared" bash "$shared/tools/fresh-machine" \
  bash scripts/deb-check.sh --inside "/src/shared/$name"
