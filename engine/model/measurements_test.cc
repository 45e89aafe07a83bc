#include "engine/model/measurements.h"

#include <doctest/doctest.h>

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
    ["prefix_block_below_sm80", {"head_dim": 128, "dtype": "bfloat16"}, 16, "ok", "", 12.0, 12.5],
    ["prefix_block_below_sm80", {"head_dim": 128, "dtype": "bfloat16"}, 32, "ok", "", 14.0, 14.2]
  ]
})json";

Measurements Parsed(const std::string& text) {
  Measurements m;
  std::string err;
  REQUIRE_MESSAGE(ParseMeasurements(text, &m, &err), err);
  return m;
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
                                                                             {"head_dim", "128"}});
  CHECK(m.knobs[5].row == 6);
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

TEST_CASE("a bad knob row is refused, naming the row") {
  Measurements m;
  std::string err;
  CHECK_FALSE(ParseMeasurements(
      R"({"format": "muhpatch-probe/1", "columns": {"knobs": ["knob", "point", "value",
          "status", "us"]}, "knobs": [["k", {}, 1, "ok", 2.0], ["k", [], 1, "ok", 2.0]]})",
      &m, &err));
  CHECK(err == "knobs row 2: 'point' must be an object of workload entries");
  CHECK_FALSE(ParseMeasurements(
      R"({"format": "muhpatch-probe/1", "columns": {"knobs": ["knob", "value"]}, "knobs": []})", &m,
      &err));
  CHECK(err == "columns.knobs has no 'point' column");
  CHECK_FALSE(ParseMeasurements(R"({"format": "muhpatch-probe/1"})", &m, &err));
  CHECK(err == "the document has no 'attention', 'moe' or 'knobs' rows");
}

TEST_CASE("measured beats modelled: the value, its row, the model's own choice beside it") {
  auto measured = std::make_shared<MeasuredKnobs>();
  measured->path = "m.json";
  measured->data = Parsed(kKnobs);
  Workload w = Workload::Defaults();
  std::string err;
  REQUIRE(w.Set("head_dim", "128", &err));
  REQUIRE(w.Set("dtype", "bfloat16", &err));
  ModelValues plain(Profile::BiV100(), w, {});
  ModelValues model(Profile::BiV100(), w, {}, measured);
  const Value* block = model.Find("prefix_block_below_sm80");
  REQUIRE(block != nullptr);
  CHECK(block->text == "16");
  CHECK(block->why.find("prefix_block_below_sm80 = 16  (measured)\n  measured: m.json, knobs "
                        "row 5: 16 ran in 12 us at dtype=bfloat16, head_dim=128, the fastest of "
                        "the 2 candidates measured there; 32: 14 us\n  the model's own "
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
