// How the model is served, from a vLLM serving command line
// (`vllm serve MODEL ...` or `python -m vllm.entrypoints.openai.api_server
// ...`), given as text: shell quoting, backslash-newline continuations and
// `#` comments are understood. Pure: text in, workload entries out.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/workload.h"

namespace muh {

// Something vLLM would refuse in a serving command line, at byte `offset`
// of it: muhpatch warns and reads nothing from that word.
struct ServeArgWarning {
  std::size_t offset = 0;
  std::string message;
};

// Sets tensor_parallel_size (-tp, --tensor-parallel-size), max_num_seqs
// (--max-num-seqs), max_batched_tokens (--max-num-batched-tokens),
// max_model_len (--max-model-len) and dtype (--dtype: float16/half,
// bfloat16, float32/float; auto leaves it), from `--opt VALUE` or
// `--opt=VALUE`; the last occurrence wins, as in argparse. Options are
// read as vLLM 0.6.3's argparse reads them (vllm_options.h): `_` for `-`
// in a `--` name, and an unambiguous prefix of an option is that option
// (`--max-num-batched-token`). A word that names no option of `vllm
// serve`, or more than one, is a warning with the likeliest option, as is
// `--config FILE` (its options are not read). Other arguments are not
// read. Entries are marked as from "serve args". On any error nothing is
// set and false is returned with one message per problem, each naming the
// option.
bool WorkloadFromServeArgs(std::string_view args, Workload* w, std::vector<std::string>* errors,
                           std::vector<ServeArgWarning>* warnings = nullptr);

// An assignment a command line starts with, as a shell reads it
// (`VLLM_ATTENTION_BACKEND=ROCM_FLASH vllm serve ...`, also after `env`):
// the variable, its value (quotes removed) and the byte where it starts.
struct EnvAssignment {
  std::string name;
  std::string value;
  std::size_t offset = 0;
};

// The assignments before the command's first word. False with `error` when
// the line cannot be split (an unterminated quote).
bool LeadingEnvAssignments(std::string_view args, std::vector<EnvAssignment>* out,
                           std::string* error);

// Splits a command line into words as a POSIX shell would (quotes,
// backslashes, continuations, comments), with the byte where each word
// starts when `starts` is given. False with `error` on an unterminated quote.
bool SplitShellWords(std::string_view text, std::vector<std::string>* words, std::string* error,
                     std::vector<std::size_t>* starts = nullptr);

}  // namespace muh
