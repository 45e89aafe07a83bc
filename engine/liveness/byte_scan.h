// Finding the few bytes that matter in a file: the lexer looks only at
// quotes, brackets, backslashes, `#` and newlines. Where the target has
// SSE2 (every x86-64) this looks at 16 bytes at a time; elsewhere, and for
// the last bytes of a buffer, at one byte at a time, with the same results.
#pragma once

#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace muh {

// The first byte of [p, end) that is one of `Cs`, or `end`.
template <char... Cs>
inline const char* FindAnyOf(const char* p, const char* end) {
#if defined(__SSE2__)
  for (; end - p >= 16; p += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hit = _mm_setzero_si128();
    ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) return p + __builtin_ctz(mask);
  }
#endif
  for (; p < end; ++p) {
    if (((*p == Cs) || ...)) return p;
  }
  return end;
}

}  // namespace muh
