# What `cmake --install` puts where (GNUInstallDirs): the two programs and the CLI's picture and
# live helpers, the built-in scenarios and lessons, the desktop entry, icons, MIME type and
# AppStream metainfo, the CLI's man page and the licence.
# The generated files come from app/CMakeLists.txt.
include(GNUInstallDirs)

install(TARGETS fencescope fencescope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS fencescope-cli-pictures fencescope-live RUNTIME DESTINATION ${FENCESCOPE_HELPER_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/scenarios/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fencescope/scenarios
        FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/lessons/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fencescope/lessons
        FILES_MATCHING PATTERN "*.fencescope-lesson.json")

set(desktop ${PROJECT_SOURCE_DIR}/resources/desktop)
install(FILES ${desktop}/${FENCESCOPE_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${desktop}/${FENCESCOPE_APP_ID}.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)
install(FILES ${FENCESCOPE_GENERATED_DIR}/${FENCESCOPE_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${desktop}/${FENCESCOPE_APP_ID}.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size ${FENCESCOPE_ICON_SIZES})
  install(FILES ${FENCESCOPE_GENERATED_DIR}/icons/${size}x${size}/${FENCESCOPE_APP_ID}.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
endforeach()
install(FILES ${FENCESCOPE_GENERATED_DIR}/fencescope-cli.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/fencescope)
