# `cmake --install`: the binary, its man pages muhpatch(1) and
# muhpatch-rules(5), bash completion, and the rule files; and CPack's
# Debian package, whose Depends dpkg-shlibdeps derives from the binary.
include(GNUInstallDirs)

install(TARGETS muhpatch RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${CMAKE_SOURCE_DIR}/dist/muhpatch.bash"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" RENAME muhpatch)
install(FILES "${CMAKE_SOURCE_DIR}/rules/bi100.yaml" DESTINATION "${CMAKE_INSTALL_DATADIR}/muhpatch/rules")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/rules/examples/"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/muhpatch/rules/examples")

# The owner's probe (muhpatch(1), FILES): it measures the fused-MoE
# BLOCK_SIZE_M through the installed fork on the card; torch and the fork are
# the card's own. The two folders keep the layout run_kernels.py imports from.
install(FILES "${CMAKE_SOURCE_DIR}/bench/real_kernels/run_kernels.py"
              "${CMAKE_SOURCE_DIR}/bench/real_kernels/tree_kernels.py"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/muhpatch/probe/real_kernels")
install(FILES "${CMAKE_SOURCE_DIR}/bench/probe/probe.py" "${CMAKE_SOURCE_DIR}/bench/probe/kernels.py"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/muhpatch/probe/probe")

# The man pages are written by hand (tests/cli/man_pages.sh renders them
# with groff and checks that they name every command, option and rule key).
install(FILES "${CMAKE_SOURCE_DIR}/dist/muhpatch.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${CMAKE_SOURCE_DIR}/dist/muhpatch-rules.5" DESTINATION "${CMAKE_INSTALL_MANDIR}/man5")

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
