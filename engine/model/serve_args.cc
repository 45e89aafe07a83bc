#include "engine/model/serve_args.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace muh {

namespace {

struct Option {
  const char* flag;
  const char* entry;
};

constexpr Option kOptions[] = {
    {"-tp", "tensor_parallel_size"},      {"--tensor-parallel-size", "tensor_parallel_size"},
    {"--max-num-seqs", "max_num_seqs"},   {"--max-num-batched-tokens", "max_batched_tokens"},
    {"--max-model-len", "max_model_len"}, {"--dtype", "dtype"},
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool ParseCount(const std::string& text, int64_t* out) {
  if (text.empty() || text.size() > 10 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  *out = std::stoll(text);
  return *out > 0 && *out <= (int64_t{1} << 30);
}

}  // namespace

bool SplitShellWords(std::string_view text, std::vector<std::string>* words, std::string* error) {
  std::string word;
  bool in_word = false;
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (IsSpace(c)) {
      if (in_word) words->push_back(std::move(word));
      word.clear();
      in_word = false;
      ++i;
    } else if (c == '#' && !in_word) {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '\\') {
      if (i + 1 < text.size() && text[i + 1] == '\n') {
        i += 2;  // continuation
        continue;
      }
      if (i + 2 < text.size() && text[i + 1] == '\r' && text[i + 2] == '\n') {
        i += 3;
        continue;
      }
      if (i + 1 < text.size()) word += text[i + 1];
      in_word = true;
      i += 2;
    } else if (c == '\'' || c == '"') {
      std::size_t close = i + 1;
      std::string quoted;
      while (close < text.size() && text[close] != c) {
        if (c == '"' && text[close] == '\\' && close + 1 < text.size() &&
            std::string_view("\"\\$`").find(text[close + 1]) != std::string_view::npos) {
          ++close;
        }
        quoted += text[close++];
      }
      if (close >= text.size()) {
        *error = fmt::format("unterminated {} quote at byte {}", c == '"' ? "double" : "single", i);
        return false;
      }
      word += quoted;
      in_word = true;
      i = close + 1;
    } else {
      word += c;
      in_word = true;
      ++i;
    }
  }
  if (in_word) words->push_back(std::move(word));
  return true;
}

bool WorkloadFromServeArgs(std::string_view args, Workload* w, std::vector<std::string>* errors) {
  std::size_t before = errors->size();
  std::vector<std::string> words;
  std::string err;
  if (!SplitShellWords(args, &words, &err)) {
    errors->push_back(err);
    return false;
  }
  std::vector<std::pair<std::string, int64_t>> set;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    for (const Option& o : kOptions) {
      std::string flag = o.flag;
      std::string value;
      bool has_value = false;
      if (word == flag) {
        has_value = i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0;
        if (has_value) value = words[++i];
      } else if (word.rfind(flag + "=", 0) == 0) {
        value = word.substr(flag.size() + 1);
        has_value = true;
      } else {
        continue;
      }
      if (!has_value) {
        errors->push_back(fmt::format("'{}' needs a value", flag));
        break;
      }
      if (std::string_view(o.entry) == "dtype") {
        if (value == "float16" || value == "half" || value == "bfloat16") {
          set.emplace_back("dtype", 2);
        } else if (value == "float32" || value == "float") {
          set.emplace_back("dtype", 4);
        } else if (value != "auto") {
          errors->push_back(
              fmt::format("'{}' must be auto, float16, half, bfloat16, float32 or float, got '{}'",
                          flag, value));
        }
        break;
      }
      int64_t n = 0;
      if (!ParseCount(value, &n)) {
        errors->push_back(
            fmt::format("'{}' expects a positive whole number, got '{}'", flag, value));
        break;
      }
      set.emplace_back(o.entry, n);
      break;
    }
  }
  if (errors->size() != before) return false;
  Workload out = *w;
  for (const auto& [name, value] : set) {
    if (!out.SetNumber(name, value, "serve args", &err)) errors->push_back(err);
  }
  if (errors->size() != before) return false;
  *w = std::move(out);
  return true;
}

}  // namespace muh
