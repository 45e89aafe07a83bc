#include "engine/base/word_filter.h"

#include <cstring>

#include "engine/base/byte_scan.h"

namespace muh {

namespace {

// head[k]: the first k bytes (in memory order) of an 8-byte load kept.
struct HeadMasks {
  std::uint64_t head[9];
  HeadMasks() {
    for (std::size_t k = 0; k <= 8; ++k) {
      unsigned char b[8] = {};
      std::memset(b, 0xff, k);
      std::memcpy(&head[k], b, 8);
    }
  }
};
const HeadMasks kMasks;

std::uint64_t Load8(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// The hash of an `n`-byte word from its first and last (up to) 8 bytes,
// zero-padded: `head` and `tail` are equal in a word of 8 bytes or fewer.
std::uint64_t Mix(std::uint64_t head, std::uint64_t tail, std::size_t n) {
  std::uint64_t h = (head ^ (tail << 1 | tail >> 63) ^ n) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

// The hash of the `n`-byte word at p, when 8 bytes can be read from p.
// Branch-free: whether a word is longer than 8 bytes is a coin toss.
std::uint64_t Hash(const char* p, std::size_t n) {
  std::uint64_t keep = kMasks.head[n < 8 ? n : 8];
  std::uint64_t head = Load8(p) & keep;
  std::size_t last8 = (n - 8) & (std::size_t{0} - (n >= 8));  // n - 8, or 0: no branch
  std::uint64_t tail = Load8(p + last8) & keep;
  return Mix(head, tail, n);
}

// The same for a word that may end less than 8 bytes before its buffer does.
std::uint64_t HashNearEnd(const char* p, std::size_t n) {
  if (n >= 8) return Mix(Load8(p), Load8(p + n - 8), n);
  unsigned char b[8] = {};
  std::memcpy(b, p, n);
  std::uint64_t head;
  std::memcpy(&head, b, 8);
  return Mix(head, head, n);
}

}  // namespace

constexpr std::size_t kFullBits = 16384;
constexpr std::size_t kLeastBits = 512;

WordFilter::WordFilter(std::string_view text) : bits_(kFullBits / 64), mask_(kFullBits - 1) {
  const char* data = text.data();
  const std::size_t size = text.size();
  auto add = [&](std::size_t begin, std::size_t end) {
    std::size_t n = end - begin;
    if (begin + 8 <= size) {
      Add(Hash(data + begin, n));
    } else {
      Add(HashNearEnd(data + begin, n));
    }
  };
  // Bit i of `edges` is set where byte i starts or ends a word (the byte
  // after its last): the bits alternate, start then end.
  bool in_word = false;
  std::uint64_t carry = 0;  // whether the byte before the block is a word byte
  std::size_t start = 0;
  for (std::size_t base = 0; base < size; base += 64) {
    std::size_t len = size - base < 64 ? size - base : 64;
    std::uint64_t word = WordBytes(data + base, len);
    std::uint64_t edges = word ^ (word << 1 | carry);
    carry = word >> 63;
    while (edges != 0) {
      std::size_t at = base + static_cast<std::size_t>(__builtin_ctzll(edges));
      edges &= edges - 1;
      if (!in_word) {
        start = at;
      } else {
        add(start, at);
      }
      in_word = !in_word;
    }
  }
  if (in_word) add(start, size);
  Fold();
}

void WordFilter::Fold() {
  // Bit i of a filter of 2m bits is bit i mod m of its fold: the same bits
  // are looked at, with the mask one bit shorter.
  while (bits_.size() * 64 > kLeastBits) {
    std::size_t half = bits_.size() / 2;
    std::size_t set = 0;
    for (std::size_t i = 0; i < half; ++i) {
      set += static_cast<std::size_t>(__builtin_popcountll(bits_[i] | bits_[half + i]));
    }
    if (set * 8 > half * 64) break;
    for (std::size_t i = 0; i < half; ++i) bits_[i] |= bits_[half + i];
    bits_.resize(half);
    mask_ = half * 64 - 1;
  }
  bits_.shrink_to_fit();
}

bool WordFilter::MayHold(std::string_view word) const {
  return !word.empty() && Has(HashNearEnd(word.data(), word.size()));
}

void WordFilter::Add(std::uint64_t hash) {
  std::uint64_t x = hash & mask_;
  std::uint64_t y = (hash >> 40) & mask_;
  bits_[x >> 6] |= std::uint64_t{1} << (x & 63);
  bits_[y >> 6] |= std::uint64_t{1} << (y & 63);
}

bool WordFilter::Has(std::uint64_t hash) const {
  std::uint64_t x = hash & mask_;
  std::uint64_t y = (hash >> 40) & mask_;
  return (bits_[x >> 6] >> (x & 63) & 1) != 0 && (bits_[y >> 6] >> (y & 63) & 1) != 0;
}

}  // namespace muh
