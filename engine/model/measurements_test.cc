#include "engine/model/measurements.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <memory>

#include "engine/model/model_values.h"

namespace muh {

namespace {

// Knob rows only: the candidates of two knobs, at two points for one.
const char* kKnobs = R"json({
  "format": "muhpatch-probe/1",
  "device": "Iluvatar BI-V100",
  "columns": {"knobs": ["knob", "point", "value", "status", "reason", "us", "us_rep"]},
  "knobs": [
    ["moe_block_m_for_numel(1024)", {}, 16, "ok", "", 50.0, 49.0],
    ["moe_block_m_for_numel(1024)", {}, 32, "ok", "", 41.5, 42.0],
    ["moe_block_m_for_numel(1024)", {}, 64, "compile_error", "ptxas", null, null],
    ["moe_block_m_for_numel(1024)", {"max_batched_tokens": 8192}, 64, "ok", "", 30.0, 31.0],
    ["prefix_block_below_sm80", {"head_dim": 64, "dtype": "bfloat16"}, 32, "ok", "", 12.0, 12.5],
    ["prefix_block_below_sm80", {"head_dim": 64, "dtype": "bfloat16"}, 64, "ok", "", 14.0, 14.2]
  ]
})json";

Measurements Parsed(const std::string& text) {
  Measurements m;
  MeasurementsError err;
  REQUIRE_MESSAGE(ParseMeasurements(text, &m, &err), err.message);
  return m;
}

// The document of kKnobs's columns with `rows` as its knobs rows, one a line.
std::string KnobsDoc(const std::string& rows) {
  return "{\"format\": \"muhpatch-probe/1\",\n \"columns\": {\"knobs\": [\"knob\", \"point\", "
         "\"value\", \"status\", \"us\", \"us_rep\"]},\n \"knobs\": [\n" +
         rows + "]}";
}

// Why the one-row document of `row` is refused, with the row's place.
std::string Refused(const std::string& row) {
  Measurements m;
  MeasurementsError err;
  if (ParseMeasurements(KnobsDoc("  " + row + "\n"), &m, &err)) return "accepted";
  return fmt::format("{}:{}: {}", err.line, err.column, err.message);
}

}  // namespace

TEST_CASE("knob rows: each candidate with its point, value text and time") {
  Measurements m = Parsed(kKnobs);
  CHECK(m.device == "Iluvatar BI-V100");
  CHECK(m.attention.empty());
  REQUIRE(m.knobs.size() == 6);
  CHECK(m.knobs[0].value == "16");
  CHECK(m.knobs[0].us == 49.0);  // the faster of the two runs
  CHECK(m.knobs[2].us == 0);
  CHECK(m.knobs[3].point ==
        std::vector<std::pair<std::string, std::string>>{{"max_batched_tokens", "8192"}});
  CHECK(m.knobs[4].point == std::vector<std::pair<std::string, std::string>>{{"dtype", "bfloat16"},
                                                                             {"head_dim", "64"}});
  CHECK(m.knobs[5].row == 6);
  CHECK(m.knobs[0].line == 6);
  CHECK(m.knobs[0].column == 5);
  CHECK(m.knobs[5].line == 11);
}

TEST_CASE("the measured choice: the fastest that ran, at the most specific point that fits") {
  Measurements m = Parsed(kKnobs);
  auto any = [](const std::string&, const std::string&) { return true; };
  auto none = [](const std::string&, const std::string&) { return false; };
  std::optional<MeasuredChoice> c = ChooseMeasured(m, "moe_block_m_for_numel(1024)", none);
  REQUIRE(c);
  CHECK(c->fastest->value == "32");
  CHECK(c->candidates.size() == 3);
  CHECK(c->point == "any workload");
  c = ChooseMeasured(m, "moe_block_m_for_numel(1024)", any);
  REQUIRE(c);
  CHECK(c->fastest->value == "64");
  CHECK(c->point == "max_batched_tokens=8192");
  CHECK_FALSE(ChooseMeasured(m, "prefix_block_below_sm80", none));
  CHECK_FALSE(ChooseMeasured(m, "moe_small_block_m", any));
}

TEST_CASE("a bad knob row is refused, naming the row and where it starts") {
  Measurements m;
  MeasurementsError err;
  CHECK_FALSE(ParseMeasurements(
      KnobsDoc("  [\"k\", {}, 1, \"ok\", 2.0, null],\n    [\"k\", [], 1, \"ok\", 2.0, null]\n"), &m,
      &err));
  CHECK(err.message == "knobs row 2: 'point' must be an object of workload entries");
  CHECK(err.line == 5);
  CHECK(err.column == 5);
  CHECK_FALSE(ParseMeasurements(
      R"({"format": "muhpatch-probe/1", "columns": {"knobs": ["knob", "value"]}, "knobs": []})", &m,
      &err));
  CHECK(err.message == "columns.knobs has no 'point' column");
  CHECK(err.line == 0);
  CHECK_FALSE(ParseMeasurements(R"({"format": "muhpatch-probe/1"})", &m, &err));
  CHECK(err.message == "the document has no 'attention', 'moe' or 'knobs' rows");
}

TEST_CASE("an ok row's time is a positive number, its repeat a positive number or null") {
  CHECK(Refused(R"(["k", {}, 16, "ok", 2.5, null])") == "accepted");
  CHECK(Refused(R"(["k", {}, 16, "compile_error", null, null])") == "accepted");
  CHECK(Refused(R"(["k", {}, 16, "ok", 0, null])") ==
        "4:3: knobs row 1: an 'ok' row needs a positive time in 'us', got 0");
  CHECK(Refused(R"(["k", {}, 16, "ok", -3.0, null])") ==
        "4:3: knobs row 1: an 'ok' row needs a positive time in 'us', got -3.0");
  CHECK(Refused(R"(["k", {}, 16, "ok", "fast", null])") ==
        "4:3: knobs row 1: an 'ok' row needs a positive time in 'us', got \"fast\"");
  CHECK(Refused(R"(["k", {}, 16, "ok", 2.0, "x"])") ==
        "4:3: knobs row 1: 'us_rep' must be a positive time or null, got \"x\"");
  CHECK(Refused(R"([7, {}, 16, "ok", 2.0, null])") == "4:3: knobs row 1: 'knob' must be a string");
}

TEST_CASE("a row whose value is not the knob's type, or whose point lacks a key, is malformed") {
  KnobMeasurement k;
  k.knob = "moe_small_block_m";
  k.value = "abc";
  CHECK(ModelValues::MalformedRow(&k) ==
        "value 'abc' does not parse as an integer, the type of moe_small_block_m");
  k.value = "3.5";
  CHECK(ModelValues::MalformedRow(&k) ==
        "value '3.5' does not parse as an integer, the type of moe_small_block_m");
  k.value = "2 ** 5";
  CHECK(ModelValues::MalformedRow(&k).empty());
  CHECK(k.value == "32");
  k.knob = "moe_block_m_tier";
  CHECK(ModelValues::MalformedRow(&k) ==
        "point: moe_block_m_tier needs 'numel', the token-expert pairs its candidates were timed "
        "at");
  k.point = {{"numel", "many"}};
  CHECK(ModelValues::MalformedRow(&k) ==
        "point: 'numel' must be a whole number of token-expert pairs, got 'many'");
  k.point = {{"numel", "128"}};
  CHECK(ModelValues::MalformedRow(&k).empty());
}

TEST_CASE("rows for another workload or dtype are not used, and one line says so") {
  auto measured = std::make_shared<MeasuredKnobs>();
  measured->path = "m.json";
  measured->data = Parsed(KnobsDoc(
      R"(  ["moe_small_block_m", {"num_experts": 128, "topk": 8}, 16, "ok", 5.0, null],
  ["moe_small_block_m", {"num_experts": 128, "topk": 8}, 32, "ok", 4.0, null],
  ["prefix_block_below_sm80", {"dtype": "float32"}, 16, "ok", 5.0, null],
  ["prefix_block_below_sm80", {}, 32, "ok", 6.0, null]
)"));
  Workload w = Workload::Defaults();
  std::string err;
  REQUIRE(w.Set("num_experts", "8", &err));
  REQUIRE(w.Set("topk", "2", &err));
  ModelValues plain(Profile::BiV100(), w, {});
  ModelValues model(Profile::BiV100(), w, {}, measured);
  CHECK(model.Find("moe_small_block_m")->text == plain.Find("moe_small_block_m")->text);
  CHECK(model.Find("prefix_block_below_sm80")->text == "32");
  std::vector<Diagnostic> said = model.UnusedMeasurements();
  REQUIRE(said.size() == 2);
  CHECK(said[0].Format() ==
        "m.json:4:3: warning: knobs rows 1-2 (moe_small_block_m) are for num_experts 128, topk 8, "
        "the deployment for num_experts 8, topk 2: not used; no row fits the deployment, so the "
        "model decides moe_small_block_m");
  CHECK(said[1].Format() ==
        "m.json:6:3: note: knobs row 3 (prefix_block_below_sm80) is for dtype float32, the "
        "deployment for dtype float16/bfloat16: not used");
  CHECK(plain.UnusedMeasurements().empty());
}

TEST_CASE("measured beats modelled: the value, its row, the model's own choice beside it") {
  auto measured = std::make_shared<MeasuredKnobs>();
  measured->path = "m.json";
  measured->data = Parsed(kKnobs);
  Workload w = Workload::Defaults();
  std::string err;
  REQUIRE(w.Set("head_dim", "64", &err));
  REQUIRE(w.Set("dtype", "bfloat16", &err));
  ModelValues plain(Profile::BiV100(), w, {});
  ModelValues model(Profile::BiV100(), w, {}, measured);
  const Value* block = model.Find("prefix_block_below_sm80");
  REQUIRE(block != nullptr);
  CHECK(block->text == "32");
  CHECK(plain.Find("prefix_block_below_sm80")->text == "64");
  CHECK(block->why.find("prefix_block_below_sm80 = 32  (measured)\n  measured: m.json, knobs "
                        "row 5: 32 ran in 12 us at dtype=bfloat16, head_dim=64, the fastest of "
                        "the 2 candidates measured there; 64: 14 us\n  the model's own "
                        "choice: " +
                        plain.Find("prefix_block_below_sm80")->text) == 0);
  // The most specific point that fits: the default max_batched_tokens is 8192.
  std::optional<Value> tier = model.Call("moe_block_m_for_numel", {"1024"});
  REQUIRE(tier);
  CHECK(tier->text == "64");
  REQUIRE(w.Set("max_batched_tokens", "16384", &err));
  tier = ModelValues(Profile::BiV100(), w, {}, measured).Call("moe_block_m_for_numel", {"1024"});
  REQUIRE(tier);
  CHECK(tier->text == "32");
  CHECK(model.Measurable("moe_block_m_for_numel(64)"));
  CHECK(model.Measurable("moe_small_block_m"));
  CHECK_FALSE(model.Measurable("moe_block_m_for_numel"));
  CHECK_FALSE(model.Measurable("nonsense"));
  // Without data for a knob, the model decides.
  CHECK(model.Find("moe_small_block_m")->text == plain.Find("moe_small_block_m")->text);
}

}  // namespace muh

namespace muh {

TEST_CASE("a measured value outside its knob's domain falls to the next candidate, with a note") {
  auto measured = std::make_shared<MeasuredKnobs>();
  measured->path = "m.json";
  measured->data = Parsed(KnobsDoc(
      R"(  ["prefix_block_below_sm80", {}, 48, "ok", 3.0, null],
  ["prefix_block_below_sm80", {}, 128, "ok", 4.0, null],
  ["prefix_block_below_sm80", {}, 32, "ok", 6.0, null],
  ["moe_small_block_m", {}, 8, "ok", 1.0, null],
  ["moe_small_block_m", {}, 512, "ok", 2.0, null],
  ["moe_small_block_m", {}, 64, "ok", 9.0, null]
)"));
  Workload w = Workload::Defaults();
  std::string err;
  REQUIRE(w.Set("head_dim", "128", &err));
  ModelValues model(Profile::BiV100(), w, {}, measured);
  const Value* block = model.Find("prefix_block_below_sm80");
  CHECK(block->text == "32");
  CHECK(block->why.find("48: 3 us (refused: 48 is not a power of two (tl.arange)); 128: 4 us "
                        "(refused: 2*128*(128 + 2*128) = 98304 bytes > 32768)") !=
        std::string::npos);
  CHECK(model.Find("moe_small_block_m")->text == "64");
  CHECK(model.DomainProblem("moe_block_m_for_numel(64)", "48") ==
        "48 is not a power of two from 16 to 256, the BLOCK_SIZE_M values the fused-MoE kernel "
        "takes");
  CHECK(model.DomainProblem("moe_block_m_tier", "256").empty());
  CHECK(model.DomainProblem("moe_block_m_tier", "12345") != "");
  CHECK(model.DomainProblem("partition_size", "512").empty());
  CHECK(model.DomainProblem("partition_size", "1024") ==
        "the prebuilt paged_attention_v2_launcher takes 512 tokens per partition "
        "(prebuilt_partition_size), not 1024");
  CHECK(model.DomainProblem("moe_default_block_k", "8") ==
        "8 is not a power of two from 16 to 256, the block sizes the fused-MoE kernel's tl.dot "
        "takes");
  CHECK(model.DomainProblem("prefix_num_warps_below_sm80", "32") ==
        "32 is not a power of two from 1 to 16 (warp_size 64 threads a warp, at most "
        "max_threads_per_block)");
  CHECK(model.DomainProblem("v1_min_work", "0") == "0 is not a whole number of at least 1");
  // A value muhpatch cannot evaluate proves nothing: a name (the planner
  // passes a constant's value), a float, a call.
  CHECK(model.DomainProblem("moe_block_m_tier", "SMALL_TIER_BLOCK_M") ==
        "'SMALL_TIER_BLOCK_M' is no constant muhpatch can evaluate, so nothing shows the kernel "
        "takes it");
  CHECK(model.DomainProblem("moe_block_m_tier", "48.0") != "");
  CHECK(model.DomainProblem("moe_block_m_tier", "max(48, 16)") != "");
  CHECK(model.DomainProblem("moe_block_m_tier", "16.0") != "");
  std::vector<Diagnostic> said = model.RefusedMeasurements();
  REQUIRE(said.size() == 4);
  CHECK(said[0].Format() ==
        "m.json:4:3: note: knobs row 1: prefix_block_below_sm80 candidate 48 is refused: 48 is not "
        "a power of two (tl.arange); the fastest candidate the kernel takes counts instead");
  CHECK(said[3].line == 8);
}

}  // namespace muh
