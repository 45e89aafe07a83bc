// Finding the few bytes that matter in a file: the word filter looks only
// at the edges of words. Where the target has SSE2 (every x86-64) this
// looks at 16 bytes at a time; elsewhere, and for the last bytes of a
// buffer, at one byte at a time, with the same results.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace muh {

// Whether `c` can be part of a Python word: ASCII letters, digits, `_`, and
// any byte of a multi-byte UTF-8 character.
inline bool IsWordByte(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' ||
         u >= 0x80;
}

// Bit i set when p[i] is a word byte, for the `n` bytes at p (n <= 64);
// the bits from n up are clear.
inline std::uint64_t WordBytes(const char* p, std::size_t n) {
  std::uint64_t bits = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    // Signed compares: bytes from 0x80 are negative, and are word bytes.
    __m128i high = _mm_cmplt_epi8(v, _mm_setzero_si128());
    // OR 0x20 folds A-Z onto a-z and nothing else into a-z.
    __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
    __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                  _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1)));
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                  _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    __m128i under = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
    __m128i word = _mm_or_si128(_mm_or_si128(high, alpha), _mm_or_si128(digit, under));
    bits |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(word))) << i;
  }
#endif
  for (; i < n; ++i) bits |= static_cast<std::uint64_t>(IsWordByte(p[i])) << i;
  return bits;
}

}  // namespace muh
