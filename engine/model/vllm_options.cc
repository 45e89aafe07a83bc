#include "engine/model/vllm_options.h"

#include <algorithm>

namespace muh {

const std::vector<std::string>& VllmServeOptions() {
  // vllm/engine/arg_utils.py (EngineArgs, AsyncEngineArgs),
  // vllm/entrypoints/openai/cli_args.py and vllm/scripts.py of 0.6.3.
  static const std::vector<std::string> kOptions = [] {
    std::vector<std::string> v = {
        "--allow-credentials",
        "--allowed-headers",
        "--allowed-methods",
        "--allowed-origins",
        "--api-key",
        "--block-size",
        "--chat-template",
        "--code-revision",
        "--collect-detailed-traces",
        "--config",
        "--config-format",
        "--cpu-offload-gb",
        "--device",
        "--disable-async-output-proc",
        "--disable-custom-all-reduce",
        "--disable-fastapi-docs",
        "--disable-frontend-multiprocessing",
        "--disable-log-requests",
        "--disable-log-stats",
        "--disable-logprobs-during-spec-decoding",
        "--disable-sliding-window",
        "--distributed-executor-backend",
        "--download-dir",
        "--dtype",
        "--enable-auto-tool-choice",
        "--enable-chunked-prefill",
        "--enable-lora",
        "--enable-prefix-caching",
        "--enable-prompt-adapter",
        "--enforce-eager",
        "--fully-sharded-loras",
        "--gpu-memory-utilization",
        "--guided-decoding-backend",
        "--help",
        "--host",
        "--ignore-patterns",
        "--kv-cache-dtype",
        "--limit-mm-per-prompt",
        "--load-format",
        "--long-lora-scaling-factors",
        "--lora-dtype",
        "--lora-extra-vocab-size",
        "--lora-modules",
        "--max-context-len-to-capture",
        "--max-cpu-loras",
        "--max-log-len",
        "--max-logprobs",
        "--max-lora-rank",
        "--max-loras",
        "--max-model-len",
        "--max-num-batched-tokens",
        "--max-num-seqs",
        "--max-parallel-loading-workers",
        "--max-prompt-adapter-token",
        "--max-prompt-adapters",
        "--max-seq-len-to-capture",
        "--middleware",
        "--mm-processor-kwargs",
        "--model",
        "--model-loader-extra-config",
        "--multi-step-stream-outputs",
        "--ngram-prompt-lookup-max",
        "--ngram-prompt-lookup-min",
        "--num-gpu-blocks-override",
        "--num-lookahead-slots",
        "--num-scheduler-steps",
        "--num-speculative-tokens",
        "--otlp-traces-endpoint",
        "--override-neuron-config",
        "--pipeline-parallel-size",
        "--port",
        "--preemption-mode",
        "--prompt-adapters",
        "--qlora-adapter-name-or-path",
        "--quantization",
        "--quantization-param-path",
        "--ray-workers-use-nsight",
        "--response-role",
        "--return-tokens-as-token-ids",
        "--revision",
        "--root-path",
        "--rope-scaling",
        "--rope-theta",
        "--scheduler-delay-factor",
        "--scheduling-policy",
        "--seed",
        "--served-model-name",
        "--skip-tokenizer-init",
        "--spec-decoding-acceptance-method",
        "--speculative-disable-by-batch-size",
        "--speculative-disable-mqa-scorer",
        "--speculative-draft-tensor-parallel-size",
        "--speculative-max-model-len",
        "--speculative-model",
        "--speculative-model-quantization",
        "--ssl-ca-certs",
        "--ssl-cert-reqs",
        "--ssl-certfile",
        "--ssl-keyfile",
        "--swap-space",
        "--tensor-parallel-size",
        "--tokenizer",
        "--tokenizer-mode",
        "--tokenizer-pool-extra-config",
        "--tokenizer-pool-size",
        "--tokenizer-pool-type",
        "--tokenizer-revision",
        "--tool-call-parser",
        "--tool-parser-plugin",
        "--trust-remote-code",
        "--typical-acceptance-sampler-posterior-alpha",
        "--typical-acceptance-sampler-posterior-threshold",
        "--use-v2-block-manager",
        "--uvicorn-log-level",
        "--worker-use-ray",
        "-h",
        "-pp",
        "-q",
        "-spec-draft-tp",
        "-tp",
    };
    std::sort(v.begin(), v.end());
    return v;
  }();
  return kOptions;
}

OptionMatch MatchVllmOption(const std::string& name) {
  const std::vector<std::string>& options = VllmServeOptions();
  OptionMatch out;
  if (std::binary_search(options.begin(), options.end(), name)) {
    out.option = name;
    return out;
  }
  // argparse takes an abbreviation that only one option starts with.
  std::vector<std::string> starts;
  for (const std::string& o : options) {
    if (o.size() > name.size() && o.compare(0, name.size(), name) == 0) starts.push_back(o);
  }
  if (starts.size() == 1) {
    out.option = starts.front();
  } else if (starts.size() > 1) {
    out.ambiguous = std::move(starts);
  }
  return out;
}

}  // namespace muh
