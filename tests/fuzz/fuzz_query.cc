// libFuzzer target: tree-sitter queries with our predicates, run over Python,
// and a differential check of our own matcher against libtree-sitter's.
//
// The input is QUERY '\0' PYTHON: the bytes before the first NUL are the
// query source, the bytes after it the Python source. Without a NUL the whole
// input is the query, run over a built-in sample of the code muhpatch
// rewrites. Query::Compile must succeed or fail with an offset inside the
// query; a compiled query is run over the parsed Python and every match must
// be well formed:
//   - each capture's name is one of the query's captures, its byte range lies
//     inside the source and its text is exactly those bytes;
//   - matches come ordered by their first byte;
//   - if anything matches, every group of RequiredLiterals() has an
//     alternative in the source (query.h: "a file lacking every alternative
//     of some group cannot match"; verify's whole-tree search skips files
//     on that promise).
// The parse tree's FirstProblem() must agree with HasError().
//
// Differential check: when Query::Compile (QueryEngine::kAuto) picked our own
// matcher (query_ast.h / pattern_match.h, !UsesTreeSitterMatcher()), the query
// is compiled again with QueryEngine::kTreeSitter and both run over the same
// tree. libtree-sitter must accept the query too, with the same capture
// names, and give the same matches: compared as sorted lists of matches,
// each the sorted list of its (capture name, begin, end). The one allowed
// compile failure is "impossible pattern structure" (ts_query_new checks
// each pattern against the grammar, our subset does not): without an
// alternation our matcher must then find nothing; with one, a possible
// branch may still match (an accepted difference, see muhpatch-rules(5),
// QUERIES). Any difference prints both lists and traps.
//
// Excerpt check: for a query that matches inside one top-level statement
// (Query::InsideOneStatement), the whole-tree search may parse only the
// statements holding its required literals (search/statement_excerpt.h).
// Over Python that parses without error, an excerpt that holds no statement
// must come with no match, and an excerpt that parses without error must
// give exactly the whole file's matches. (Where the whole file has a syntax
// error, the two may differ by design: the search then trusts the clean
// excerpt.)

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/query.h"
#include "engine/search/statement_excerpt.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

using muh_fuzz::Show;

// What the knobs look like in enginex-vllm (see fixtures/enginex-vllm).
constexpr std::string_view kSample = R"PY(import torch
import triton
import triton.language as tl

_PARTITION_SIZE = 512


def get_max_shared_memory_per_block_device_attribute(device: int) -> int:
    return 32 * 1024


class PagedAttention:
    @staticmethod
    def forward_decode(max_seq_len, num_seqs, num_heads):
        use_v1 = (max_seq_len <= 8192
                  and (max_num_partitions == 1 or num_seqs * num_heads > 512))
        if use_v1:
            ops.paged_attention_v1(out, query)
        else:
            raise NotImplementedError("paged_attention_v2")


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 64, 'PRE_LOAD_V': False}, num_stages=1,
                      num_warps=4),
    ],
    key=['IS_CAUSAL', 'dropout_p', 'BLOCK_DMODEL'],
)
@triton.jit
def attn_fwd(Q, K, V, BLOCK_M: tl.constexpr):
    pass


def context_attention_fwd(q, k):
    if triton.__version__ >= "2.1.0" and torch.cuda.get_device_capability()[0] < 8:
        BLOCK = 32
    else:
        BLOCK = 128
    NUM_WARPS = 8
    if numel <= 4096:
        config = {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 64}
)PY";

void CheckMatches(const muh::Query& q, std::string_view source,
                  const std::vector<muh::QueryMatch>& matches) {
  std::size_t prev_begin = 0;
  for (std::size_t m = 0; m < matches.size(); ++m) {
    const muh::QueryMatch& match = matches[m];
    for (const muh::Capture& c : match.captures) {
      FUZZ_CHECK(q.HasCapture(c.name),
                 "match " + std::to_string(m) + ": unknown capture @" + c.name);
      FUZZ_CHECK(c.begin <= c.end && c.end <= source.size(),
                 "capture @" + c.name + " has range [" + std::to_string(c.begin) + ", " +
                     std::to_string(c.end) + ") in a source of " + std::to_string(source.size()) +
                     " bytes");
      FUZZ_CHECK(c.text == source.substr(c.begin, c.end - c.begin),
                 "capture @" + c.name + " text " + Show(c.text) + " is not its byte range");
      FUZZ_CHECK(!c.node_type.empty(), "capture @" + c.name + " has no node type");
      FUZZ_CHECK(match.Find(c.name) != nullptr, "QueryMatch::Find misses @" + c.name);
      FUZZ_CHECK(match.Begin() <= c.begin, "QueryMatch::Begin is after a capture");
    }
    FUZZ_CHECK(m == 0 || prev_begin <= match.Begin(),
               "matches out of order at match " + std::to_string(m));
    prev_begin = match.Begin();
  }
  // Any match at all: RequiredLiterals() promises the file holds, for each
  // group, one of its strings. A predicate on a capture that a match may
  // lack, under `?` or `*` or in one branch of an alternation, holds
  // vacuously (as in tree-sitter), so it must not yield a group.
  if (matches.empty()) return;
  for (const std::vector<std::string>& group : q.RequiredLiterals()) {
    bool found = false;
    for (const std::string& lit : group)
      found = found || source.find(lit) != std::string_view::npos;
    std::string alternatives;
    for (const std::string& lit : group) alternatives += " " + Show(lit, 40);
    FUZZ_CHECK(found, "query matches, but the source lacks every required literal of a group:" +
                          alternatives);
  }
}

// A match as the differential check sees it: its sorted (name, begin, end).
using MatchKey = std::vector<std::tuple<std::string, std::size_t, std::size_t>>;

std::vector<MatchKey> Keys(const std::vector<muh::QueryMatch>& matches) {
  std::vector<MatchKey> keys;
  for (const muh::QueryMatch& m : matches) {
    MatchKey& k = keys.emplace_back();
    for (const muh::Capture& c : m.captures) k.emplace_back(c.name, c.begin, c.end);
    std::sort(k.begin(), k.end());
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::string ShowKeys(const std::vector<MatchKey>& keys, std::string_view source) {
  std::string out = std::to_string(keys.size()) + " match(es)\n";
  for (const MatchKey& k : keys) {
    out += "    {";
    for (std::size_t i = 0; i < k.size(); ++i) {
      const auto& [name, begin, end] = k[i];
      out += (i ? ", @" : "@") + name + " [" + std::to_string(begin) + "," + std::to_string(end) +
             ") " + Show(std::string(source.substr(begin, end - begin)), 40);
    }
    out += "}\n";
  }
  return out;
}

// `ours` ran with our matcher; libtree-sitter's must agree with it.
void CheckAgainstTreeSitter(const std::string& query_source, const std::string& python,
                            const muh::Query& q, const muh::SyntaxTree& tree,
                            const std::vector<muh::QueryMatch>& ours) {
  muh::QueryError ts_error;
  std::unique_ptr<muh::Query> ts =
      muh::Query::Compile(query_source, &ts_error, muh::QueryEngine::kTreeSitter);
  auto context = [&] {
    return "\n  query:  " + Show(query_source, 400) + "\n  python: " + Show(python, 400) + "\n";
  };
  if (!ts) {
    FUZZ_CHECK(ts_error.message == "query impossible pattern structure",
               "our matcher accepts a query libtree-sitter rejects: " + ts_error.message +
                   " at offset " + std::to_string(ts_error.offset) + context());
    // An impossible branch of an alternation leaves the others possible.
    if (query_source.find('[') != std::string::npos) return;
    FUZZ_CHECK(ours.empty(),
               "libtree-sitter finds the pattern structure impossible, ours matches:" + context() +
                   "  ours: " + ShowKeys(Keys(ours), python));
    return;
  }
  FUZZ_CHECK(ts->UsesTreeSitterMatcher(), "kTreeSitter did not use libtree-sitter");
  FUZZ_CHECK(ts->capture_names() == q.capture_names(),
             "capture names differ between our parser and libtree-sitter" + context());
  const std::vector<MatchKey> mine = Keys(ours);
  const std::vector<MatchKey> theirs = Keys(ts->Run(tree));
  FUZZ_CHECK(mine == theirs, "our matcher and libtree-sitter disagree" + context() +
                                 "  ours: " + ShowKeys(mine, python) +
                                 "  tree-sitter: " + ShowKeys(theirs, python));
}

void CheckExcerpt(const muh::Query& q, const std::string& python, const muh::SyntaxTree& tree,
                  const std::vector<muh::QueryMatch>& matches) {
  if (!q.InsideOneStatement() || tree.HasError()) return;
  const std::vector<muh::Query::LiteralGroup> groups = q.RequiredLiteralGroups();
  muh::LiteralNeed need;
  for (const muh::Query::LiteralGroup& g : groups) {
    auto& texts = need.emplace_back();
    for (const std::string& t : g.texts) texts.emplace_back(t);
  }
  const std::optional<muh::Excerpt> excerpt = muh::ExcerptHolding(tree, {need});
  if (!excerpt) return;
  FUZZ_CHECK(excerpt->text.size() == python.size(), "the excerpt moved bytes");
  if (excerpt->kept == 0) {
    FUZZ_CHECK(matches.empty(), "the excerpt holds no statement, yet the whole file matches: " +
                                    ShowKeys(Keys(matches), python));
    return;
  }
  static muh::PythonParser* parser = new muh::PythonParser();
  const muh::SyntaxTree part = parser->Parse(excerpt->text);
  if (part.HasError()) return;  // the search then parses the whole file
  const std::vector<MatchKey> whole = Keys(matches);
  const std::vector<MatchKey> cut = Keys(q.Run(part));
  FUZZ_CHECK(whole == cut, "the excerpt's matches differ from the whole file's\n  whole: " +
                               ShowKeys(whole, python) + "  excerpt: " + ShowKeys(cut, python));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string query_source(input.substr(0, nul));
  const std::string python(nul == std::string_view::npos ? kSample : input.substr(nul + 1));

  muh::QueryError error;
  std::unique_ptr<muh::Query> q = muh::Query::Compile(query_source, &error);
  if (!q) {
    FUZZ_CHECK(!error.message.empty(), "Compile failed without a message");
    FUZZ_CHECK(error.offset <= query_source.size(),
               "error offset " + std::to_string(error.offset) + " is past the query's end");
    return 0;
  }
  for (const std::string& name : q->capture_names()) {
    FUZZ_CHECK(q->HasCapture(name), "HasCapture misses its own capture @" + name);
  }

  static muh::PythonParser* parser = new muh::PythonParser();  // one parser per run, as in muhpatch
  const muh::SyntaxTree tree = parser->Parse(python);
  FUZZ_CHECK(tree.bytes().data() == python.data(), "the tree does not borrow the parsed bytes");
  const std::optional<muh::SyntaxProblem> problem = tree.FirstProblem();
  FUZZ_CHECK(problem.has_value() == tree.HasError(), "FirstProblem disagrees with HasError");
  if (problem) {
    FUZZ_CHECK(problem->offset <= python.size(), "FirstProblem's offset is past the source's end");
  }
  const std::vector<muh::QueryMatch> matches = q->Run(tree);
  CheckMatches(*q, python, matches);
  if (!q->UsesTreeSitterMatcher()) CheckAgainstTreeSitter(query_source, python, *q, tree, matches);
  CheckExcerpt(*q, python, tree, matches);
  return 0;
}
