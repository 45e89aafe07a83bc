// The options `vllm serve` accepts in vLLM 0.6.3, as facts: every option
// string of the engine arguments, the OpenAI server's arguments and the
// serve command's own (`--config`), with argparse's `-h/--help`. Serve args
// are read as vLLM's argparse reads them (serve_args.h): an unambiguous
// prefix of one of these is that option, anything else is refused.
#pragma once

#include <string>
#include <vector>

namespace muh {

// Sorted.
const std::vector<std::string>& VllmServeOptions();

// How argparse (allow_abbrev, as vLLM leaves it) reads an option word,
// after vLLM's FlexibleArgumentParser has turned `_` into `-` in a `--`
// word's name: the option it names, or why none.
struct OptionMatch {
  std::string option;                  // the full option string, when found
  std::vector<std::string> ambiguous;  // every option it is a prefix of, when more than one
};
// `name` is the word before any `=`.
OptionMatch MatchVllmOption(const std::string& name);

}  // namespace muh
