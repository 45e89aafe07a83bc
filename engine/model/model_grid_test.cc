// The model is total: over a grid of plausible profiles and served head
// dimensions, every quantity a rule can name has a value or an error that
// names the binding constraint (never "unknown value", never a crash), and
// every value passes the safety checks it claims.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "engine/model/knobs.h"
#include "engine/model/model_values.h"
#include "engine/model/moe_knobs.h"
#include "engine/model/tile_math.h"

namespace muh {

namespace {

SearchSpace Bi100Space() {
  SearchSpace s;
  s.name = "flash_attn_fwd";
  s.kernel = "attention";
  s.max_new = 8;
  s.ignored = {"waves_per_eu"};
  s.dims = {{"BLOCK_M", {"32", "64", "128", "256"}}, {"BLOCK_N", {"16", "32", "64", "128"}},
            {"waves_per_eu", {"2", "0", "1", "3"}},  {"PRE_LOAD_V", {"False", "True"}},
            {"num_stages", {"1", "2", "3"}},         {"num_warps", {"1", "2", "4", "8"}}};
  return s;
}

// An error names what binds: a resource, a limit, or the quantity it needs.
bool NamesConstraint(const std::string& error) {
  for (const char* word : {"shared memory", "register", "threads", "scores per thread",
                           "depends on", "num_stages", "tl.dot"}) {
    if (error.find(word) != std::string::npos) return true;
  }
  return false;
}

int64_t Int(const Value* v) { return std::stoll(v->text); }

}  // namespace

TEST_CASE("grid sweep: every profile yields a value or a located reason and safe values" *
          doctest::test_suite("slow")) {
  const int64_t smems[] = {16384, 24576, 32768, 49152, 101376, 233472};
  const int warps[] = {32, 64};
  const int cus[] = {8, 16, 132};
  const int stages[] = {1, 2, 3, 4};
  const char* ccs[] = {"7.0", "8.0", "9.0"};
  const char* head_dims[] = {"64", "128", "256"};
  const char* scalars[] = {"smem_limit_kib",          "partition_size",
                           "v1_max_context",          "v1_min_work",
                           "prefix_block_below_sm80", "prefix_num_warps_below_sm80",
                           "moe_block_m_large_tier",  "moe_default_block_m",
                           "moe_default_block_n",     "moe_default_block_k",
                           "moe_small_block_m",       "moe_small_block_n",
                           "moe_small_block_k"};
  int profiles = 0;
  std::map<std::string, int> no_value;
  for (int64_t smem : smems) {
    for (int warp : warps) {
      for (int cu : cus) {
        for (int st : stages) {
          for (const char* cc : ccs) {
            for (const char* dim : head_dims) {
              Profile p = Profile::BiV100();
              std::string err;
              for (const std::string& set :
                   {"smem_per_block=" + std::to_string(smem), "warp_size=" + std::to_string(warp),
                    "compute_units=" + std::to_string(cu), "max_stages=" + std::to_string(st),
                    std::string("compute_capability=") + cc}) {
                REQUIRE(p.ApplySet(set, &err));
              }
              Workload w = Workload::Defaults();
              REQUIRE(w.Set("head_dim", dim, &err));
              CAPTURE(smem);
              CAPTURE(warp);
              CAPTURE(cu);
              CAPTURE(st);
              std::string cc_text = cc, dim_text = dim;
              CAPTURE(cc_text);
              CAPTURE(dim_text);
              ++profiles;
              ModelValues m(p, w, {Bi100Space()});
              std::vector<std::pair<std::string, Value>> values;
              for (const char* q : scalars) {
                const Value* v = m.Find(q);
                REQUIRE_MESSAGE(v != nullptr, q);
                values.emplace_back(q, *v);
              }
              for (const char* bound : {"64", "1024"}) {
                std::optional<Value> v = m.Call("moe_block_m_for_numel", {bound});
                REQUIRE(v.has_value());
                values.emplace_back(std::string("moe_block_m_for_numel(") + bound + ")", *v);
              }
              const Value* list = m.Find("flash_attn_fwd");
              REQUIRE(list != nullptr);
              values.emplace_back("flash_attn_fwd", *list);
              for (const auto& qv : values) {
                // Not a structured binding: clang 14 cannot capture one in
                // doctest's CAPTURE.
                const std::string& q = qv.first;
                const Value& v = qv.second;
                CAPTURE(q);
                CAPTURE(v.error);
                bool has_value = v.is_list ? !v.entries.empty() : !v.text.empty();
                CHECK(v.error.empty() == has_value);
                if (!v.error.empty()) {
                  ++no_value[q];
                  CHECK(v.error.find("unknown") == std::string::npos);
                  CHECK(NamesConstraint(v.error));
                }
              }
              // Safety of what has a value.
              int64_t dmax = w.Get("head_dim");
              int64_t limit = std::stoll(DeriveStageLimit(p).value);
              CHECK(Int(m.Find("smem_limit_kib")) * 1024 == smem);
              CHECK(Int(m.Find("partition_size")) == 512);
              if (const Value* b = m.Find("prefix_block_below_sm80"); b->error.empty()) {
                int64_t block = Int(b);
                CHECK(AttentionTileSmem(dmax, block, block, 1, 2) <= smem);
                CHECK(AttentionTileSmem(dmax, block / 2, block / 2, 1, 4) <= smem);
                CHECK(block / 2 >= kMinDotSize);
                if (const Value* wn = m.Find("prefix_num_warps_below_sm80"); wn->error.empty()) {
                  int64_t threads = Int(wn) * warp;
                  int64_t regs = AttentionRegsPerThread(dmax, block, block, threads);
                  CHECK(threads <= 1024);
                  CHECK(regs <= 255);
                  CHECK(regs * threads <= 65536);
                }
              }
              for (const char* dict : {"default", "small"}) {
                const Value* bm = m.Find(std::string("moe_") + dict + "_block_m");
                const Value* bn = m.Find(std::string("moe_") + dict + "_block_n");
                const Value* bk = m.Find(std::string("moe_") + dict + "_block_k");
                if (!bm->error.empty() || !bn->error.empty()) continue;
                MoeTileFit f = FitMoeTile(p, w, Int(bm), Int(bn), Int(bk));
                CHECK(f.stages >= 1);
                CHECK(f.stages <= limit);
              }
              for (const auto& [q, v] : values) {
                if (q.rfind("moe_block_m", 0) != 0 || !v.error.empty()) continue;
                CHECK(FitMoeTile(p, w, std::stoll(v.text), 32, 32).stages >= 1);
              }
              for (const AutotuneCandidate& c : m.autotune().at("flash_attn_fwd").selected) {
                CHECK(AttentionTileSmem(dmax, c.block_m, c.block_n, c.stages, 2) <= smem);
                CHECK(c.stages <= limit);
                CHECK(c.threads <= 1024);
                CHECK(c.regs <= 255);
                CHECK(c.regs * c.threads <= 65536);
              }
            }
          }
        }
      }
    }
  }
  CHECK(profiles == 6 * 2 * 3 * 4 * 3 * 3);
  // The grid is not vacuous: most profiles have every value. Where shared
  // memory is small, the prefix-prefill tile at head_dim 256 is the one that
  // has none.
  CHECK(no_value["moe_default_block_n"] == 0);
  CHECK(no_value["moe_small_block_k"] == 0);
  CHECK(no_value["moe_block_m_large_tier"] == 0);
  CHECK(no_value["prefix_block_below_sm80"] > 0);
  CHECK(no_value["prefix_block_below_sm80"] < profiles / 2);
  // A BLOCK is chosen only when a warp count fits it.
  CHECK(no_value["prefix_num_warps_below_sm80"] == no_value["prefix_block_below_sm80"]);
}

}  // namespace muh
