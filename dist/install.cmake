# `cmake --install`: the binary, its man page (made from its own help with
# help2man, when installed), bash completion, and the rule files; and CPack's
# Debian package, whose Depends dpkg-shlibdeps derives from the binary.
include(GNUInstallDirs)

install(TARGETS muhpatch RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${CMAKE_SOURCE_DIR}/dist/muhpatch.bash"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" RENAME muhpatch)
install(FILES "${CMAKE_SOURCE_DIR}/rules/bi100.yaml" DESTINATION "${CMAKE_INSTALL_DATADIR}/muhpatch/rules")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/rules/examples/"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/muhpatch/rules/examples")

find_program(BASH_EXECUTABLE bash REQUIRED)
find_program(HELP2MAN_EXECUTABLE help2man)
if(HELP2MAN_EXECUTABLE)
  add_custom_command(
    OUTPUT "${CMAKE_BINARY_DIR}/muhpatch.1"
    COMMAND "${BASH_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/dist/man.sh" "$<TARGET_FILE:muhpatch>"
            "${CMAKE_BINARY_DIR}/muhpatch.1"
    DEPENDS muhpatch "${CMAKE_SOURCE_DIR}/dist/man.sh"
    COMMENT "Generating the man page with help2man")
  add_custom_target(man ALL DEPENDS "${CMAKE_BINARY_DIR}/muhpatch.1")
  install(FILES "${CMAKE_BINARY_DIR}/muhpatch.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
else()
  message(STATUS "help2man not found: no man page is built or installed (apt-get install help2man)")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME muhpatch)
set(CPACK_PACKAGE_VENDOR muhpatch)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "rewrite the tuning knobs of enginex-vllm from declared rules")
set(CPACK_PACKAGE_CONTACT "muhpatch maintainers <muhpatch@invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends: from the libraries the binary links (dpkg-shlibdeps).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
