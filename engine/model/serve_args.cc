#include "engine/model/serve_args.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <utility>

#include "engine/base/edit_distance.h"
#include "engine/model/vllm_options.h"

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

// A word argparse takes for an option: it starts with '-', and is neither
// "-", "--" nor a negative number (vLLM declares no option that looks like
// one).
bool IsOptionWord(const std::string& word) {
  if (word.size() < 2 || word[0] != '-' || word == "--") return false;
  return !(std::isdigit(static_cast<unsigned char>(word[1])) || word[1] == '.');
}

bool ParseCount(const std::string& text, int64_t* out) {
  if (text.empty() || text.size() > 10 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  *out = std::stoll(text);
  return *out > 0 && *out <= (int64_t{1} << 30);
}

}  // namespace

bool SplitShellWords(std::string_view text, std::vector<std::string>* words, std::string* error,
                     std::vector<std::size_t>* starts) {
  std::string word;
  bool in_word = false;
  std::size_t word_start = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (!in_word) word_start = i;  // where the word is, if this byte starts one
    if (IsSpace(c)) {
      if (in_word) {
        words->push_back(std::move(word));
        if (starts != nullptr) starts->push_back(word_start);
      }
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
  if (in_word) {
    words->push_back(std::move(word));
    if (starts != nullptr) starts->push_back(word_start);
  }
  return true;
}

bool LeadingEnvAssignments(std::string_view args, std::vector<EnvAssignment>* out,
                           std::string* error) {
  std::vector<std::string> words;
  std::vector<std::size_t> starts;
  if (!SplitShellWords(args, &words, error, &starts)) return false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (i == 0 && w == "env") continue;
    std::size_t eq = w.find('=');
    bool name =
        eq != std::string::npos && eq > 0 && !std::isdigit(static_cast<unsigned char>(w[0])) &&
        std::all_of(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(eq),
                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!name) break;  // the command
    out->push_back({w.substr(0, eq), w.substr(eq + 1), starts[i]});
  }
  return true;
}

bool WorkloadFromServeArgs(std::string_view args, Workload* w, std::vector<std::string>* errors,
                           std::vector<ServeArgWarning>* warnings) {
  std::size_t before = errors->size();
  std::vector<std::string> words;
  std::vector<std::size_t> starts;
  std::string err;
  if (!SplitShellWords(args, &words, &err, &starts)) {
    errors->push_back(err);
    return false;
  }
  auto warn = [&](std::size_t i, std::string message) {
    if (warnings != nullptr) warnings->push_back({i < starts.size() ? starts[i] : 0, message});
  };
  std::vector<std::pair<std::string, int64_t>> set;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (!IsOptionWord(word)) continue;
    std::size_t eq = word.find('=');
    std::string name = word.substr(0, eq);
    if (name.rfind("--", 0) == 0) std::replace(name.begin() + 2, name.end(), '_', '-');
    OptionMatch match = MatchVllmOption(name);
    if (!match.ambiguous.empty()) {
      warn(i, fmt::format("'{}' is ambiguous to vLLM 0.6.3: it could be {}; vLLM refuses it, and "
                          "nothing is read from it",
                          name, fmt::join(match.ambiguous, ", ")));
      continue;
    }
    if (match.option.empty()) {
      warn(i, fmt::format("'{}' is not an option of vLLM 0.6.3's `vllm serve`{}; vLLM refuses it, "
                          "and nothing is read from it",
                          name, DidYouMean(name, VllmServeOptions())));
      continue;
    }
    if (match.option == "--config") {
      warn(i,
           "'--config' loads options from a file that muhpatch does not read: give the "
           "options that size the kernels on the command line");
      continue;
    }
    for (const Option& o : kOptions) {
      std::string flag = o.flag;
      if (match.option != flag) continue;
      std::string value;
      bool has_value = false;
      if (eq == std::string::npos) {
        has_value = i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0;
        if (has_value) value = words[++i];
      } else {
        value = word.substr(eq + 1);
        has_value = true;
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
