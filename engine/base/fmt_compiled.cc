// fmt's implementation, compiled once for the whole program.
//
// Debian ships fmt as headers and a shared library. muhpatch links its
// dependencies statically (CMakeLists.txt: MUHPATCH_STATIC), and fmt's
// header-only mode would compile the implementation again in every file
// that formats: about 3 s of CPU in each of some 60 files, half the build.
// Instead every file uses fmt's headers as a compiled library would, and
// this file holds the definitions: format-inl.h defines the library's
// functions, and the templates that fmt's headers declare but do not define
// are instantiated below for the character types they declare.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> char;
template auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
