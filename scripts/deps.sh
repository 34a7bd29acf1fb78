#!/usr/bin/env bash
# Installs what FenceScope needs to build, test and run on Debian/Ubuntu, if it is missing.
set -euo pipefail
packages=(cmake ninja-build g++ qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6test6 libgl-dev
          libbenchmark-dev fonts-dejavu-core libxkbcommon-dev)
if [ "${FENCESCOPE_GUI_DEPS:-0}" = 1 ]; then
  packages+=(qt6-qpa-plugins libqt6svg6)
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
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
