#include "engine/base/word_filter.h"

#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace muh {

namespace {

// The words of `text`, split as the filter splits them.
std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> out;
  std::string w;
  for (char c : text + " ") {
    unsigned char u = static_cast<unsigned char>(c);
    bool word = (u >= '0' && u <= '9') || (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') ||
                u == '_' || u >= 0x80;
    if (word) {
      w += c;
    } else if (!w.empty()) {
      out.push_back(w);
      w.clear();
    }
  }
  return out;
}

}  // namespace

TEST_CASE("the word filter holds every word, wherever it ends") {
  std::mt19937 rng(5);
  for (int round = 0; round < 400; ++round) {
    // Words of 1 to 20 bytes across 64-byte blocks, the last one ending at
    // or near the text's end; held in a buffer exactly as long as the text.
    std::string text;
    std::size_t target = rng() % 200;
    while (text.size() < target) {
      text += std::string(1 + rng() % 20, "aZ_9\xc3"[rng() % 5]);
      text += " .(\n"[rng() % 4];
    }
    if (rng() % 2 == 0 && !text.empty()) text.pop_back();
    auto exact = std::make_unique<char[]>(text.size() + 1);
    std::copy(text.begin(), text.end(), exact.get());
    WordFilter filter(std::string_view(exact.get(), text.size()));
    for (const std::string& w : Words(text)) CHECK(filter.MayHold(w));
  }
}

TEST_CASE("the word filter rules out what the text lacks") {
  WordFilter filter("import os\nfrom vllm.utils import is_hip  # a comment\n");
  for (const char* w : {"import", "os", "from", "vllm", "utils", "is_hip", "a", "comment"}) {
    CHECK(filter.MayHold(w));
  }
  CHECK_FALSE(filter.MayHold(""));
  CHECK_FALSE(filter.MayHold("import_module"));
  CHECK_FALSE(filter.MayHold("__import__"));
  CHECK_FALSE(filter.MayHold("HAS_TRITON"));
}

TEST_CASE("a filter of few words is folded small, and still holds every word") {
  CHECK(WordFilter("import os\n").bits() == 512);
  // Thousands of distinct words keep the whole filter: folding would set
  // more than one bit in eight.
  std::string many;
  for (int i = 0; i < 3000; ++i)
    many += "name_" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  WordFilter big(many);
  CHECK(big.bits() == 16384);
  for (const std::string& w : Words(many)) CHECK(big.MayHold(w));
  // In between: a few hundred words fold part of the way, none lost.
  std::string some;
  for (int i = 0; i < 300; ++i) some += "k" + std::to_string(i * 7919) + "\n";
  WordFilter mid(some);
  CHECK(mid.bits() > 512);
  CHECK(mid.bits() < 16384);
  for (const std::string& w : Words(some)) CHECK(mid.MayHold(w));
  int false_hits = 0;
  for (int i = 0; i < 1000; ++i) false_hits += mid.MayHold("absent_" + std::to_string(i)) ? 1 : 0;
  CHECK(false_hits < 50);  // at most one bit in 8 set: about 1.6% expected
}

}  // namespace muh
