# Golden, rule and CLI tests, run by CTest next to the unit tests.
find_program(BASH_EXECUTABLE bash REQUIRED)

# One golden test per case folder under fixtures/cases/ (see tests/run_case.sh).
file(GLOB _case_dirs LIST_DIRECTORIES true "${CMAKE_SOURCE_DIR}/fixtures/cases/*"
     "${CMAKE_SOURCE_DIR}/fixtures/cases/errors/*")
foreach(_dir IN LISTS _case_dirs)
  if(IS_DIRECTORY "${_dir}" AND (EXISTS "${_dir}/rules.yaml" OR EXISTS "${_dir}/rules.link"))
    file(RELATIVE_PATH _name "${CMAKE_SOURCE_DIR}/fixtures/cases" "${_dir}")
    add_test(NAME "golden/${_name}"
             COMMAND "${BASH_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/run_case.sh"
                     "$<TARGET_FILE:muhpatch>" "${_dir}")
  endif()
endforeach()

# End-to-end CLI tests: each tests/cli/*.sh gets the binary as $1.
file(GLOB _cli_tests "${CMAKE_SOURCE_DIR}/tests/cli/*.sh")
foreach(_t IN LISTS _cli_tests)
  get_filename_component(_name "${_t}" NAME_WE)
  add_test(NAME "cli/${_name}" COMMAND "${BASH_EXECUTABLE}" "${_t}" "$<TARGET_FILE:muhpatch>")
  # A CLI test that needs data the machine may lack (real_tree.sh: the real
  # enginex tree under ../shared) exits 77 and is reported as skipped.
  set_tests_properties("cli/${_name}" PROPERTIES SKIP_RETURN_CODE 77)
  # Under CTest a golden is only ever compared: the update mode (a script
  # run by hand with MUHPATCH_UPDATE_GOLDENS=1 copies its output over the
  # golden) would make the comparison pass whatever the output.
  set_tests_properties("cli/${_name}" PROPERTIES ENVIRONMENT "MUHPATCH_UPDATE_GOLDENS=0")
endforeach()
# Tests under `ulimit -v`, which AddressSanitizer cannot start under:
# .ci/sanitize runs `ctest -LE memory`.
set_tests_properties(cli/memory_limits PROPERTIES LABELS "memory;slow")
# The CLI scripts that take over about a second and a half on 2 cores:
# `ctest -LE slow` is the quick loop (unit tests marked slow carry
# doctest's test suite "slow", CMakeLists.txt).
foreach(_name IN ITEMS atomic_apply ci_outputs determinism fixture_e2e foreign_temp git_hunks
                       git_tracked_search hand_tuning inputs integrations kept_domain kill_apply
                       line_endings liveness_judge lock readme real_kernels real_shapes real_tree recovery_messages
                       rewrite_judge sarif small_outputs special_files tree_facts verify verify_edits
                       verify_shapes whole_tree_search)
  set_tests_properties("cli/${_name}" PROPERTIES LABELS slow)
endforeach()

# The CLI scripts whose time is the same runs of muhpatch again and again
# (each kill point of apply, each determinism rerun, each patch shape, each
# left site, each verify edit): under AddressSanitizer they took 1,700 of
# 5,100 seconds of test time (a run of 1c9f191), and add no code path the
# other tests lack. .ci/sanitize leaves them out (`ctest -LE repeats`);
# the release suite runs them.
foreach(_name IN ITEMS kill_apply determinism left_sites verify_shapes verify_edits)
  get_test_property("cli/${_name}" LABELS _labels)
  if(NOT _labels)
    set(_labels "")
  endif()
  list(APPEND _labels repeats)
  set_tests_properties("cli/${_name}" PROPERTIES LABELS "${_labels}")
endforeach()

# Rule tests: snippets each rule of rules/bi100.yaml must and must not rewrite.
add_test(NAME rules/bi100
         COMMAND muhpatch test "${CMAKE_SOURCE_DIR}/rules/bi100.yaml"
                 "${CMAKE_SOURCE_DIR}/tests/rules/bi100.tests.yaml")

# engine/'s layers depend downward only (tests/layering.py lists them).
find_program(PYTHON3_EXECUTABLE python3 REQUIRED)
add_test(NAME layering COMMAND "${PYTHON3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/layering.py")

# One golden test per way the fork evolves after a committed patch
# (fixtures/evolution/NAME/; see tests/run_evolution.sh).
file(GLOB _evolution_dirs LIST_DIRECTORIES true "${CMAKE_SOURCE_DIR}/fixtures/evolution/*")
foreach(_dir IN LISTS _evolution_dirs)
  if(IS_DIRECTORY "${_dir}" AND EXISTS "${_dir}/evolve.py")
    get_filename_component(_name "${_dir}" NAME)
    add_test(NAME "evolution/${_name}"
             COMMAND "${BASH_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/run_evolution.sh"
                     "$<TARGET_FILE:muhpatch>" "${_dir}")
  endif()
endforeach()

# Differential test of the hunks: random edit sets on small Python-like
# files, muhpatch's UnifiedDiff (through a small driver) against
# `git diff --no-index` with git's defaults.
add_executable(unified_diff_tool tests/diff_vs_git/unified_diff_tool.cc)
target_link_libraries(unified_diff_tool PRIVATE muhcore)
add_test(NAME diff_vs_git
         COMMAND "${PYTHON3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/diff_vs_git/diff_vs_git.py"
                 "$<TARGET_FILE:unified_diff_tool>")
set_tests_properties(diff_vs_git PROPERTIES SKIP_RETURN_CODE 77 LABELS slow)
