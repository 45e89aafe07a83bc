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

}  // namespace muh
