// libFuzzer target: the planner, end to end over the pure core.
//
// The input is RULES '\0' PYTHON: the bytes before the first NUL are a rule
// file, the bytes after it one Python file. Without a NUL the whole input is
// the rule file, run over a built-in sample holding every knob of
// rules/bi100.yaml (as in fixtures/enginex-vllm).
//
// The rule file is loaded as `muhpatch` loads it (app/inputs.h:
// LoadInputsFromText, with the BI-V100 model from the built-in profile as
// values). The tree then
// holds the Python file at "a.py", at the knob paths of the fixtures, at
// every literal path the rules name (so a rule written for
// vllm/_custom_ops.py finds it there) and at one path each glob matches;
// globs resolve against that listing.
// As in ReadRuleFiles (workspace.h), a load error, a pattern that names no file or invalid
// UTF-8 ends the run before planning. Plan() must then:
//   - throw nothing;
//   - locate every diagnostic inside the file it names (the rule file or one
//     of the tree's files): line >= 1, column >= 1, within that line (or
//     one past its end);
//   - report each rule once, in order, and an error for each failed rule;
//   - give per file sorted, non-overlapping edits inside the old content,
//     whose application is the new content, which differs from the old one
//     (planner.h: "only files that change") and parses without a syntax error (the planner refuses
//     rewrites that break the syntax);
//   - render a diff that ParsePatch reads back, one file patch per changed
//     file, which applies forwards to the old content giving the new one and
//     backwards to the new content giving the old one;
//   - give the same result when run again (determinism).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/app/inputs.h"
#include "engine/base/diagnostic.h"
#include "engine/base/glob.h"
#include "engine/base/source_text.h"
#include "engine/model/model_values.h"
#include "engine/patch/patch_apply.h"
#include "engine/plan/edit.h"
#include "engine/plan/planner.h"
#include "engine/python/syntax_tree.h"
#include "engine/rules/rule.h"
#include "engine/rules/rule_loader.h"
#include "engine/rules/scope.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

using muh_fuzz::Show;

constexpr const char* kRulesPath = "rules.yaml";

// The knob files of fixtures/enginex-vllm that rules/bi100.yaml names.
const char* const kKnobPaths[] = {
    "a.py",
    "vllm/_custom_ops.py",
    "vllm/attention/backends/ipex_attn.py",
    "vllm/attention/ops/paged_attn.py",
    "vllm/attention/ops/prefix_prefill.py",
    "vllm/attention/ops/triton_flash_attention.py",
    "vllm/model_executor/layers/fused_moe/fused_moe.py",
};

// Every knob of rules/bi100.yaml in one file, in the style of
// fixtures/enginex-vllm (paged_attention_v2 implemented, so the paged-attn
// rules' precondition holds).
constexpr std::string_view kSample = R"PY(import torch
import triton
import triton.language as tl

_PARTITION_SIZE = 512


def paged_attention_v2(out, query, max_seq_len):
    torch.ops._C.paged_attention_v2(out, query, max_seq_len)


def get_max_shared_memory_per_block_device_attribute(device: int) -> int:
    # The BI-V100 gives each thread block 32 KiB of shared memory.
    return 32 * 1024


class PagedAttention:
    @staticmethod
    def forward_decode(query, max_seq_len, num_seqs, num_heads):
        max_num_partitions = ((max_seq_len + _PARTITION_SIZE - 1) //
                              _PARTITION_SIZE)
        use_v1 = (max_seq_len <= 8192
                  and (max_num_partitions == 1 or num_seqs * num_heads > 512))
        use_v1 = True
        if use_v1:
            ops.paged_attention_v1(query)
        else:
            ops.paged_attention_v2(query)


def context_attention_fwd(q, k, v):
    BLOCK = 128 if current_platform.has_device_capability(80) else 64
    NUM_WARPS = 8
    return BLOCK, NUM_WARPS


def get_default_config(M: int, E: int, topk: int) -> Dict[str, int]:
    config = {'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8}
    if M <= E:
        config = {'BLOCK_SIZE_M': 16, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 1}
    numel = M * topk
    if numel <= 64:
        config['BLOCK_SIZE_M'] = 32
    elif numel <= 1024:
        config['BLOCK_SIZE_M'] = 64
    else:
        config['BLOCK_SIZE_M'] = 256
    return config


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 256, "BLOCK_N": 64, "waves_per_eu": 2, "PRE_LOAD_V": False},
                      num_stages=1, num_warps=8),
        triton.Config(
            {
                "BLOCK_M": 128,
                "BLOCK_N": 128,
                "waves_per_eu": 1,
                "PRE_LOAD_V": False,
            },
            num_stages=1,
            num_warps=4,
        ),
    ],
    key=['IS_CAUSAL', 'dropout_p', 'BLOCK_DMODEL'],
)
@triton.jit
def attn_fwd(Q, K, V, BLOCK_M: tl.constexpr):
    pass
)PY";

// A path TreeIo::ListFiles(".py") could list: relative, '/'-separated, no
// empty, "." or ".." segment, ending in ".py". Others are never in a tree.
bool ListablePath(const std::string& p) {
  if (p.size() < 3 || p.compare(p.size() - 3, 3, ".py") != 0) return false;
  if (p.find('\0') != std::string::npos) return false;
  std::size_t begin = 0;
  while (begin <= p.size()) {
    std::size_t end = p.find('/', begin);
    if (end == std::string::npos) end = p.size();
    const std::string_view seg(p.data() + begin, end - begin);
    if (seg.empty() || seg == "." || seg == ".." || seg.front() == '.') return false;
    begin = end + 1;
  }
  return true;
}

// One path `glob` matches, when an easy one does: `**/` dropped, `*`, `?`
// and `**` as "x", a class as its first character.
std::string Instance(const std::string& glob) {
  std::string out;
  for (std::size_t i = 0; i < glob.size(); ++i) {
    const char c = glob[i];
    if (glob.compare(i, 3, "**/") == 0) {
      i += 2;
    } else if (c == '*' || c == '?') {
      out += 'x';
      while (i + 1 < glob.size() && glob[i + 1] == '*') ++i;
    } else if (c == '[') {
      std::size_t j = i + 1;
      if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) return "";
      if (j >= glob.size()) return "";
      out += glob[j];
      std::size_t close = glob.find(']', j + 1);
      if (close == std::string::npos) return "";
      i = close;
    } else {
      out += c;
    }
  }
  return out;
}

// The tree: the knob paths, every literal path the rules name and one path
// each glob matches (when Instance finds one), all holding the one file.
std::vector<std::string> TreePaths(const muh::RuleSet& rules) {
  std::set<std::string> paths(std::begin(kKnobPaths), std::end(kKnobPaths));
  auto add = [&](const std::vector<std::string>& patterns) {
    for (const std::string& p : patterns) {
      const std::string path = muh::IsGlob(p) ? Instance(p) : p;
      if (ListablePath(path) && (!muh::IsGlob(p) || muh::GlobMatch(p, path))) paths.insert(path);
    }
  };
  for (const muh::Rule& r : rules.rules) {
    add(r.files);
    add(r.also_matches);
    for (const muh::Precondition& pre : r.preconditions) add(pre.files);
  }
  return std::vector<std::string>(paths.begin(), paths.end());  // sorted bytewise
}

// Byte length of each line of `text`, terminator excluded (a CRLF line's
// CR counted in). Lines end at LF; with `lone_cr`, also at a CR that no LF
// follows, as positions in Python files count them (source_text.h).
std::vector<std::size_t> LineLengths(std::string_view text, bool lone_cr) {
  std::vector<std::size_t> out;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    bool ends = text[i] == '\n' ||
                (lone_cr && text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
    if (!ends) continue;
    out.push_back(i - begin);
    begin = i + 1;
  }
  out.push_back(text.size() - begin);
  return out;
}

void CheckLocated(const muh::Diagnostic& d, const std::string& rules_text,
                  const std::map<std::string, muh::SourceText>& files) {
  const std::string* text = nullptr;
  if (d.file == kRulesPath) {
    text = &rules_text;
  } else {
    auto it = files.find(d.file);
    FUZZ_CHECK(it != files.end(), "diagnostic names a file outside the run: " + d.Format());
    text = &it->second.bytes();
  }
  FUZZ_CHECK(!d.message.empty(), "diagnostic without a message: " + d.Format());
  FUZZ_CHECK(d.line >= 1 && d.column >= 1,
             "diagnostic not located at a line and column: " + d.Format());
  const std::vector<std::size_t> lines = LineLengths(*text, text != &rules_text);
  FUZZ_CHECK(static_cast<std::size_t>(d.line) <= lines.size(),
             "diagnostic on line " + std::to_string(d.line) + " of a " +
                 std::to_string(lines.size()) + "-line file: " + d.Format());
  FUZZ_CHECK(static_cast<std::size_t>(d.column) <= lines[d.line - 1] + 1,
             "diagnostic at column " + std::to_string(d.column) + " of a " +
                 std::to_string(lines[d.line - 1]) + "-byte line: " + d.Format());
}

bool SameEdits(const std::vector<muh::Edit>& a, const std::vector<muh::Edit>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].SameChange(b[i]) || a[i].rule_id != b[i].rule_id || a[i].why != b[i].why)
      return false;
  }
  return true;
}

std::string Messages(const muh::PlanResult& plan) {
  std::string out;
  for (const muh::Diagnostic& d : plan.diagnostics) out += "    " + d.Format() + "\n";
  return out;
}

void CheckSame(const muh::PlanResult& a, const muh::PlanResult& b) {
  FUZZ_CHECK(a.new_contents == b.new_contents, "a second plan rewrites differently");
  FUZZ_CHECK(a.edits.size() == b.edits.size(), "a second plan edits other files");
  for (const auto& [path, edits] : a.edits) {
    auto it = b.edits.find(path);
    FUZZ_CHECK(it != b.edits.end() && SameEdits(edits, it->second),
               "a second plan edits " + path + " differently");
  }
  FUZZ_CHECK(a.outcomes.size() == b.outcomes.size(), "a second plan has other outcomes");
  for (std::size_t i = 0; i < a.outcomes.size(); ++i) {
    const muh::RuleOutcome& x = a.outcomes[i];
    const muh::RuleOutcome& y = b.outcomes[i];
    FUZZ_CHECK(
        x.rule_id == y.rule_id && x.status == y.status && x.sites == y.sites && x.edits == y.edits,
        "a second plan's outcome of rule '" + x.rule_id + "' differs");
  }
  FUZZ_CHECK(Messages(a) == Messages(b), "a second plan reports differently:\n  first:\n" +
                                             Messages(a) + "  second:\n" + Messages(b));
}

void CheckPlan(const muh::RuleSet& rules, const std::string& rules_text,
               const std::map<std::string, muh::SourceText>& files, const muh::PlanResult& plan) {
  for (const muh::Diagnostic& d : plan.diagnostics) CheckLocated(d, rules_text, files);

  FUZZ_CHECK(plan.outcomes.size() == rules.rules.size(),
             std::to_string(plan.outcomes.size()) + " outcomes for " +
                 std::to_string(rules.rules.size()) + " rules");
  for (std::size_t i = 0; i < plan.outcomes.size(); ++i) {
    const muh::RuleOutcome& o = plan.outcomes[i];
    FUZZ_CHECK(o.rule_id == rules.rules[i].id, "outcome " + std::to_string(i) + " is for rule '" +
                                                   o.rule_id + "', not '" + rules.rules[i].id +
                                                   "'");
    FUZZ_CHECK(o.status != muh::RuleStatus::kFailed || !plan.ok(),
               "rule '" + o.rule_id + "' failed without an error");
    FUZZ_CHECK(o.sites >= 0 && o.edits >= 0, "negative counts for rule '" + o.rule_id + "'");
  }

  FUZZ_CHECK(plan.edits.size() == plan.new_contents.size(),
             "edits for " + std::to_string(plan.edits.size()) + " files, new contents for " +
                 std::to_string(plan.new_contents.size()));
  static muh::PythonParser* parser = new muh::PythonParser();
  for (const auto& [path, text] : plan.new_contents) {
    auto file = files.find(path);
    FUZZ_CHECK(file != files.end(), "new content for " + path + ", which is not in the run");
    const std::string& old = file->second.bytes();
    auto edits_it = plan.edits.find(path);
    FUZZ_CHECK(edits_it != plan.edits.end(), "new content for " + path + " without edits");
    const std::vector<muh::Edit>& edits = edits_it->second;
    FUZZ_CHECK(!edits.empty(), "an empty edit list for " + path);
    for (std::size_t i = 0; i < edits.size(); ++i) {
      const muh::Edit& e = edits[i];
      const std::string at = path + " edit " + std::to_string(i) + " [" + std::to_string(e.offset) +
                             ", +" + std::to_string(e.length) + ") by '" + e.rule_id + "'";
      FUZZ_CHECK(e.path == path, at + " names " + e.path);
      FUZZ_CHECK(e.offset <= old.size() && e.length <= old.size() - e.offset,
                 at + " lies outside the " + std::to_string(old.size()) + "-byte file");
      if (i > 0) {
        const muh::Edit& p = edits[i - 1];
        FUZZ_CHECK(p.End() <= e.offset, at + " overlaps or precedes the previous edit [" +
                                            std::to_string(p.offset) + ", +" +
                                            std::to_string(p.length) + ")");
        FUZZ_CHECK(!(p.length == 0 && e.length == 0 && p.offset == e.offset),
                   at + ": two insertions at one offset");
      }
    }
    FUZZ_CHECK(muh::ApplyEdits(old, edits) == text,
               "the new content of " + path + " is not its edits applied");
    FUZZ_CHECK(text != old,
               "new content for " + path + " equals the old content (" +
                   std::to_string(edits.size()) + " edits, first by '" + edits.front().rule_id +
                   "': [" + std::to_string(edits.front().offset) + ", +" +
                   std::to_string(edits.front().length) + ") -> " + Show(edits.front().text) + ")");
    const muh::SyntaxTree tree = parser->Parse(text);
    if (auto problem = tree.FirstProblem()) {
      FUZZ_CHECK(false, "planned rewrite of " + path + " has a " + problem->what + " at byte " +
                            std::to_string(problem->offset) + ":\n  old: " + Show(old, 600) +
                            "\n  new: " + Show(text, 600));
    }
    FUZZ_CHECK(!tree.HasError(),
               "planned rewrite of " + path + " has an error FirstProblem misses");
  }

  // The diff, read back and applied both ways.
  const std::string diff = muh::RenderDiff(files, plan.new_contents);
  std::vector<muh::FilePatch> patches;
  std::vector<muh::Diagnostic> errors;
  const bool parsed = muh::ParsePatch("plan.diff", diff, &patches, &errors);
  std::string shown_errors;
  for (const muh::Diagnostic& d : errors) shown_errors += "\n    " + d.Format();
  FUZZ_CHECK(parsed && errors.empty(), "ParsePatch refuses RenderDiff's output:" + shown_errors +
                                           "\n  diff: " + Show(diff, 1000));
  std::vector<std::string> changed;  // every file of new_contents, in path order
  for (const auto& [path, text] : plan.new_contents) changed.push_back(path);
  FUZZ_CHECK(patches.size() == changed.size(),
             std::to_string(patches.size()) + " file patches for " +
                 std::to_string(changed.size()) + " changed files");
  for (std::size_t i = 0; i < patches.size(); ++i) {
    const muh::FilePatch& fp = patches[i];
    const std::string& path = changed[i];
    FUZZ_CHECK(fp.path == path,
               "file patch for " + Show(fp.path) + " where " + path + " was expected");
    const std::string& old = files.at(path).bytes();
    const std::string& now = plan.new_contents.at(path);
    std::string out;
    muh::Diagnostic err;
    FUZZ_CHECK(muh::ApplyFilePatch("plan.diff", fp, old, false, &out, &err),
               "the diff of " + path + " does not apply forwards: " + err.Format() +
                   "\n  diff: " + Show(diff, 1000));
    FUZZ_CHECK(out == now, "the diff of " + path +
                               " applied forwards is not the new content\n  got:  " +
                               Show(out, 600) + "\n  want: " + Show(now, 600));
    FUZZ_CHECK(muh::ApplyFilePatch("plan.diff", fp, now, true, &out, &err),
               "the diff of " + path + " does not apply in reverse: " + err.Format() +
                   "\n  diff: " + Show(diff, 1000));
    FUZZ_CHECK(out == old, "the diff of " + path + " applied in reverse is not the old content");
  }
  (void)muh::PlanSummary(plan);
}

void Run(const std::string& rules_text, const std::string& python) {
  // As muhpatch loads it (inputs.h): built-in profile, then the rules with
  // the model as values.
  muh::InputOptions opts;
  opts.rules_path = kRulesPath;
  muh::Inputs inputs;
  std::vector<muh::Diagnostic> load_errors;
  if (!muh::LoadInputsFromText(opts, rules_text, &inputs, &load_errors)) return;
  const muh::RuleSet& rules = inputs.rules;
  FUZZ_CHECK(rules.values != nullptr, "a loaded rule file has no value source");

  if (muh::FindInvalidUtf8(python)) return;  // ReadRuleFiles refuses the file
  const std::vector<std::string> tree_paths = TreePaths(rules);
  std::vector<muh::Diagnostic> scope_errors;
  const std::vector<std::string> needed = muh::FilesNeeded(rules, tree_paths, &scope_errors);
  std::map<std::string, muh::SourceText> files;
  for (const std::string& path : needed) files.emplace(path, muh::SourceText(path, python));
  for (const muh::Diagnostic& d : scope_errors) CheckLocated(d, rules_text, files);
  if (!scope_errors.empty()) return;  // ReadRuleFiles stops there too

  const muh::PlanResult plan = muh::Plan(rules, files, tree_paths);
  if (std::getenv("FUZZ_PLAN_VERBOSE") != nullptr) {
    std::fprintf(stderr, "%s\n%s", muh::PlanSummary(plan).c_str(), Messages(plan).c_str());
    for (const auto& [path, text] : plan.new_contents) {
      std::fprintf(stderr, "  rewrites %s (%zu edits)\n", path.c_str(), plan.edits.at(path).size());
    }
  }
  CheckPlan(rules, rules_text, files, plan);
  CheckSame(plan, muh::Plan(rules, files, tree_paths));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string rules_text(input.substr(0, nul));
  const std::string python(nul == std::string_view::npos ? kSample : input.substr(nul + 1));
  try {
    Run(rules_text, python);
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, std::string("exception escaped: ") + e.what());
  } catch (...) {
    FUZZ_CHECK(false, "non-standard exception escaped");
  }
  return 0;
}
