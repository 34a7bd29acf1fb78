#!/usr/bin/env bash
# Installs what FenceScope needs on Debian/Ubuntu, if it is missing.
#   bash scripts/deps.sh app     what building and running the app needs (scripts/run-app.sh)
#   bash scripts/deps.sh [tests] that and what the tests need besides (scripts/test.sh): Chromium,
#                                PostgreSQL and the install test's validators
#   FENCESCOPE_GUI_DEPS=1   also what a real desktop session needs (the xcb platform plugin)
#   FENCESCOPE_X11_DEPS=1   also Xvfb, xdotool and ImageMagick (scripts/xvfb-check.sh)
#   FENCESCOPE_EXTRA_DEPS   further packages, space separated
set -euo pipefail
for_what=${1:-tests}
case $for_what in
  app|tests) ;;
  *) echo "deps.sh: '$for_what' is neither app nor tests" >&2; exit 2 ;;
esac
# Debian's qt6-charts-dev needs Qt6OpenGL's CMake files but does not pull in libqt6opengl6-dev.
packages=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
          libqt6test6 libgl-dev libsimdjson-dev libbenchmark-dev fonts-dejavu-core
          libxkbcommon-dev
          lld # links in a third of GNU ld's time (CMakeLists.txt, FENCESCOPE_LLD)
          # polling the room (docs/POLL.md): Qt 6.4's QHttpServer CMake package needs
          # Qt6WebSockets' but its Debian package does not pull it in
          qt6-httpserver-dev qt6-websockets-dev libqrencode-dev
          libgif-dev libavcodec-dev libavformat-dev libswscale-dev libavutil-dev # animations
          etcd-server) # Simulation > Run on etcd and the live tests (docs/LIVE.md)
if [ "$for_what" = tests ]; then
  packages+=(desktop-file-utils appstream shared-mime-info # the install test's validators
             postgresql libqt6sql6-psql # the live tests on PostgreSQL (--store postgres)
             chromium) # tst_pollbrowser opens the room's page in headless Chromium
fi
if [ "${FENCESCOPE_GUI_DEPS:-0}" = 1 ]; then
  packages+=(qt6-qpa-plugins libqt6svg6 qt6-wayland)
fi
if [ "${FENCESCOPE_X11_DEPS:-0}" = 1 ]; then
  packages+=(qt6-qpa-plugins xvfb xauth xdotool imagemagick x11-utils)
fi
# shellcheck disable=SC2206
packages+=(${FENCESCOPE_EXTRA_DEPS:-})
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    >/tmp/fencescope-deps.log 2>&1 || { tail -n 20 /tmp/fencescope-deps.log >&2; exit 1; }
fi
