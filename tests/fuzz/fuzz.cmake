# libFuzzer targets: fuzz_rule_loader, fuzz_query, fuzz_edit_diff, fuzz_plan, fuzz_cli.
#
# Included from the top-level CMakeLists.txt when MUHPATCH_FUZZ=ON. Needs
# clang (libFuzzer and the sanitizer runtimes: Debian's clang-14 and
# libclang-rt-14-dev). Configure the whole project with the sanitizers so
# that muhcore is checked too, as .ci/sanitize does:
#
#   cmake -S . -B build-asan -DMUHPATCH_FUZZ=ON \
#     -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
#     -DCMAKE_C_FLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer' \
#     -DCMAKE_CXX_FLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer'
#
# Here the engine (muhcore) and the grammar (ts_python) also get libFuzzer's
# coverage instrumentation (-fsanitize=fuzzer-no-link), without which the
# fuzzers would see only their own few lines. That instrumentation needs no
# runtime of its own, so muhpatch and muhpatch_tests still link and run.
#
# Each target is also a CTest test that runs it once over its seed corpus
# (tests/fuzz/corpus/<target>/): a quick regression check, no fuzzing.

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "MUHPATCH_FUZZ=ON needs clang for C and C++ (libFuzzer); configure with "
                      "-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14")
endif()

target_compile_options(muhcore PRIVATE -fsanitize=fuzzer-no-link)
target_compile_options(ts_python PRIVATE -fsanitize=fuzzer-no-link)

set(MUHPATCH_FUZZ_TARGETS fuzz_rule_loader fuzz_query fuzz_edit_diff fuzz_plan fuzz_cli)
foreach(_fuzzer IN LISTS MUHPATCH_FUZZ_TARGETS)
  add_executable(${_fuzzer} "${CMAKE_CURRENT_LIST_DIR}/${_fuzzer}.cc")
  target_compile_options(${_fuzzer} PRIVATE ${MUHPATCH_WARNINGS} -fsanitize=fuzzer)
  target_link_options(${_fuzzer} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${_fuzzer} PRIVATE muhcore)
  if(NOT _fuzzer STREQUAL "fuzz_edit_diff")
    # Between muhcore and libtree-sitter's ts_query_new: reports a known heap
    # overflow that AddressSanitizer cannot see in the uninstrumented library
    # and ignores one known harmless leak; see ts_query_new_wrap.cc.
    target_sources(${_fuzzer} PRIVATE "${CMAKE_CURRENT_LIST_DIR}/ts_query_new_wrap.cc")
    target_link_options(${_fuzzer} PRIVATE "LINKER:--wrap=ts_query_new")
  endif()

  file(GLOB _seeds CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/corpus/${_fuzzer}/*")
  if(_seeds)
    add_test(NAME "fuzz/${_fuzzer}/seeds" COMMAND ${_fuzzer} ${_seeds})
  endif()
endforeach()
