// Finding the few bytes that matter in a file: the lexer looks only at
// quotes, brackets, backslashes, `#` and newlines (and counts indentation),
// and the word filter only at the edges of words. Where the target has
// SSE2 (every x86-64) these look at 16 bytes at a time; elsewhere, and for
// the last bytes of a buffer, at one byte at a time, with the same results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

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

// Bit i set when p[i] is one of `Cs`, for the `n` bytes at p (n <= 64);
// the bits from n up are clear.
template <char... Cs>
inline std::uint64_t BytesIn(const char* p, std::size_t n) {
  std::uint64_t bits = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i hit = _mm_setzero_si128();
    ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
    bits |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(hit))) << i;
  }
#endif
  for (; i < n; ++i) bits |= static_cast<std::uint64_t>(((p[i] == Cs) || ...)) << i;
  return bits;
}

// The offsets of the bytes of a text that are one of `Cs`, for a reader
// that moves forward: each 64-byte block is looked at once, whatever the
// reader skips within it, and its hits are kept as a bit mask.
template <char... Cs>
class ByteCursor {
 public:
  explicit ByteCursor(std::string_view text) : data_(text.data()), size_(text.size()) {}

  // The first offset from `from` on whose byte is one of Cs, or the size.
  std::size_t Next(std::size_t from) {
    if (from >= size_) return size_;
    std::size_t block = from & ~std::size_t{63};
    if (block != base_) Load(block);
    std::uint64_t hits = mask_ & (~std::uint64_t{0} << (from & 63));
    while (hits == 0) {
      if (size_ - base_ <= 64) return size_;
      Load(base_ + 64);
      hits = mask_;
    }
    return base_ + static_cast<std::size_t>(__builtin_ctzll(hits));
  }

 private:
  void Load(std::size_t base) {
    base_ = base;
    mask_ = BytesIn<Cs...>(data_ + base, size_ - base < 64 ? size_ - base : 64);
  }

  const char* data_;
  std::size_t size_;
  std::size_t base_ = ~std::size_t{0};  // the block in mask_: none yet
  std::uint64_t mask_ = 0;
};

// How many spaces start [p, end).
inline std::size_t LeadingSpaces(const char* p, const char* end) {
  const char* at = p;
#if defined(__SSE2__)
  for (; end - at >= 16; at += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    unsigned other =
        ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')))) & 0xffff;
    if (other != 0) return static_cast<std::size_t>(at - p) + __builtin_ctz(other);
  }
#endif
  while (at < end && *at == ' ') ++at;
  return static_cast<std::size_t>(at - p);
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
