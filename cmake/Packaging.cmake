# `cpack -G DEB` in a build tree (scripts/package.sh): a .deb of what cmake/Install.cmake
# installs, under /usr. dpkg-shlibdeps names the Qt runtime libraries the programs link; the
# plugins and fonts Qt loads at run time are named here, as no linker sees them.
set(CPACK_PACKAGE_NAME fencescope)
set(CPACK_PACKAGE_VENDOR "FenceScope contributors")
set(CPACK_PACKAGE_CONTACT "FenceScope contributors <fencescope@users.noreply.github.com>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/fencescope/FenceScope")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch fencing tokens stop a stale lock holder")
set(CPACK_PACKAGE_DESCRIPTION
    "FenceScope simulates a lock service with leases, clients that pause past their lease and \
storages that check fencing tokens, and shows on a timeline which stale writes are rejected \
and which would silently overwrite newer data. fencescope-cli prints run reports as JSON and \
draws the same pictures without a display.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# xcb/wayland/offscreen platform plugins, the SVG icon engine, a font for every label, and the
# room poll's HTTP server (QtHttpServer, which links QtWebSockets) and its QR code (libqrencode)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "qt6-qpa-plugins, libqt6svg6, fonts-dejavu-core, libqt6httpserver6, libqt6websockets6, libqrencode4")
# Simulation > Run on etcd and `fencescope-cli live` start a throwaway etcd (docs/LIVE.md);
# without it they say which package to install, and everything else runs
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "etcd-server")
# and with --store postgres (or Storages: PostgreSQL) a throwaway PostgreSQL, through Qt's driver
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "postgresql, libqt6sql6-psql")

include(CPack)
