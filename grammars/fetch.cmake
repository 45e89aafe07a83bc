# Fetches the pinned tree-sitter-python tarball with `npm pack`, verifies its
# sha512 against grammars/tree-sitter-python.pin and extracts only the C
# sources we compile. Sets MUHPATCH_GRAMMAR_SRC to the extracted src/ folder.
#
# A tarball already present in MUHPATCH_GRAMMAR_CACHE (default: the build
# tree) is reused after the same check, so offline rebuilds work.

file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/tree-sitter-python.pin" _pin_lines REGEX "^[A-Z]+=")
foreach(_line IN LISTS _pin_lines)
  string(REGEX MATCH "^([A-Z]+)=(.*)$" _ "${_line}")
  set(_PIN_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
endforeach()

# Decodes a base64 string to lowercase hex (no padding support needed beyond
# the trailing '=' of an sha512 integrity value).
function(_muh_base64_to_hex in out)
  set(alphabet "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
  string(REGEX REPLACE "=+$" "" in "${in}")
  string(LENGTH "${in}" len)
  set(bits 0)
  set(nbits 0)
  set(hex "")
  math(EXPR last "${len} - 1")
  foreach(i RANGE 0 ${last})
    string(SUBSTRING "${in}" ${i} 1 ch)
    string(FIND "${alphabet}" "${ch}" v)
    if(v LESS 0)
      message(FATAL_ERROR "grammars: invalid base64 character '${ch}' in pinned integrity")
    endif()
    math(EXPR bits "((${bits} << 6) | ${v}) & 0xFFFF")
    math(EXPR nbits "${nbits} + 6")
    if(nbits GREATER_EQUAL 8)
      math(EXPR nbits "${nbits} - 8")
      math(EXPR byte "(${bits} >> ${nbits}) & 0xFF")
      math(EXPR hi "${byte} >> 4")
      math(EXPR lo "${byte} & 15")
      string(SUBSTRING "0123456789abcdef" ${hi} 1 h)
      string(SUBSTRING "0123456789abcdef" ${lo} 1 l)
      string(APPEND hex "${h}${l}")
    endif()
  endforeach()
  set(${out} "${hex}" PARENT_SCOPE)
endfunction()

string(REGEX REPLACE "^sha512-" "" _pin_b64 "${_PIN_INTEGRITY}")
_muh_base64_to_hex("${_pin_b64}" _pin_hex)

set(MUHPATCH_GRAMMAR_CACHE "${CMAKE_BINARY_DIR}/_grammar" CACHE PATH "Where the grammar tarball is fetched to")
set(_tarball "${MUHPATCH_GRAMMAR_CACHE}/${_PIN_PACKAGE}-${_PIN_VERSION}.tgz")
file(MAKE_DIRECTORY "${MUHPATCH_GRAMMAR_CACHE}")

if(NOT EXISTS "${_tarball}")
  find_program(NPM_EXECUTABLE npm REQUIRED)
  message(STATUS "grammars: npm pack ${_PIN_PACKAGE}@${_PIN_VERSION}")
  execute_process(
    COMMAND "${NPM_EXECUTABLE}" pack "${_PIN_PACKAGE}@${_PIN_VERSION}" --silent
    WORKING_DIRECTORY "${MUHPATCH_GRAMMAR_CACHE}"
    RESULT_VARIABLE _npm_rc
    OUTPUT_VARIABLE _npm_out
    ERROR_VARIABLE _npm_err)
  if(NOT _npm_rc EQUAL 0 OR NOT EXISTS "${_tarball}")
    message(FATAL_ERROR "grammars: npm pack ${_PIN_PACKAGE}@${_PIN_VERSION} failed (${_npm_rc}): ${_npm_err}")
  endif()
endif()

file(SHA512 "${_tarball}" _got_hex)
if(NOT _got_hex STREQUAL _pin_hex)
  file(REMOVE "${_tarball}")
  message(FATAL_ERROR "grammars: ${_tarball} does not match the pinned sha512\n  pinned: ${_pin_hex}\n  got:    ${_got_hex}\nThe tarball was removed.")
endif()

set(_extract "${MUHPATCH_GRAMMAR_CACHE}/extract-${_pin_hex}")
if(NOT EXISTS "${_extract}/package/src/parser.c")
  file(ARCHIVE_EXTRACT INPUT "${_tarball}" DESTINATION "${_extract}"
       PATTERNS package/src/parser.c package/src/scanner.c
                package/src/tree_sitter/parser.h package/src/tree_sitter/alloc.h
                package/src/tree_sitter/array.h)
endif()
set(MUHPATCH_GRAMMAR_SRC "${_extract}/package/src")
message(STATUS "grammars: ${_PIN_PACKAGE}@${_PIN_VERSION} verified (sha512 ${_pin_hex})")
