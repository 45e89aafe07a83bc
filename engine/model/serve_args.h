// How the model is served, from a vLLM serving command line
// (`vllm serve MODEL ...` or `python -m vllm.entrypoints.openai.api_server
// ...`), given as text: shell quoting, backslash-newline continuations and
// `#` comments are understood. Pure: text in, workload entries out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/workload.h"

namespace muh {

// Sets tensor_parallel_size (-tp, --tensor-parallel-size), max_num_seqs
// (--max-num-seqs), max_batched_tokens (--max-num-batched-tokens),
// max_model_len (--max-model-len) and dtype (--dtype: float16/half,
// bfloat16, float32/float; auto leaves it), from `--opt VALUE` or
// `--opt=VALUE`; the last occurrence wins, as in argparse. Other arguments
// are not read. Entries are marked as from "serve args". On any error
// nothing is set and false is returned with one message per problem, each
// naming the option.
bool WorkloadFromServeArgs(std::string_view args, Workload* w, std::vector<std::string>* errors);

// Splits a command line into words as a POSIX shell would (quotes,
// backslashes, continuations, comments). False with `error` on an
// unterminated quote.
bool SplitShellWords(std::string_view text, std::vector<std::string>* words, std::string* error);

}  // namespace muh
