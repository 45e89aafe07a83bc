#include "engine/liveness/condition.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

namespace {

ConditionContext Context(const LivenessFacts& facts) {
  ConditionContext ctx;
  ctx.facts = &facts;
  ctx.flag = [](std::string_view name) -> std::optional<ConstantFlag> {
    if (name == "HAS_X") return ConstantFlag{"False", Evidence{"f.py", 3, "HAS_X = False"}};
    return std::nullopt;
  };
  return ctx;
}

}  // namespace

TEST_CASE("conditions are decided from flags, the platform and the capability") {
  LivenessFacts facts;
  facts.markers = VllmBackendMarkers();
  ConditionContext ctx = Context(facts);
  CHECK(EvaluateCondition("HAS_X", ctx).value == Tri::kFalse);
  CHECK(EvaluateCondition("HAS_X", ctx).evidence.at(0).line == 3);
  CHECK(EvaluateCondition("not HAS_X", ctx).value == Tri::kTrue);
  CHECK(EvaluateCondition("HAS_X and other()", ctx).value == Tri::kFalse);
  CHECK(EvaluateCondition("HAS_X or other()", ctx).value == Tri::kUnknown);
  CHECK(EvaluateCondition("is_hip()", ctx).value == Tri::kFalse);
  CHECK(EvaluateCondition("current_platform.is_cuda_alike()", ctx).value == Tri::kTrue);
  CHECK(EvaluateCondition("current_platform.is_tpu() or is_xpu()", ctx).value == Tri::kFalse);
  CHECK(EvaluateCondition("current_platform.has_device_capability(80)", ctx).value == Tri::kFalse);
  CHECK(EvaluateCondition("has_device_capability((7, 0))", ctx).value == Tri::kTrue);
  CHECK(EvaluateCondition("backend == _Backend.ROCM_FLASH", ctx).value == Tri::kFalse);
  CHECK(EvaluateCondition("backend != _Backend.IPEX", ctx).value == Tri::kTrue);
  CHECK(EvaluateCondition("cfg.device_type == \"neuron\"", ctx).value == Tri::kFalse);
  CHECK(EvaluateCondition("device == \"cpu\"", ctx).value == Tri::kUnknown);
  CHECK(EvaluateCondition("x > 3", ctx).value == Tri::kUnknown);
  CHECK(EvaluateCondition("(", ctx).value == Tri::kUnknown);
}

TEST_CASE("a lone name or attribute is decided as it is inside a longer condition") {
  LivenessFacts facts;
  ConditionContext ctx = Context(facts);
  // `(NAME)` is parsed; `NAME` alone is not, and must say the same.
  for (const char* name : {"HAS_X", "OTHER", "True", "False", "None", "not", "print", "_",
                           "self.HAS_X", "a.b.c", "x.None", "a.", "x.not"}) {
    ConditionResult alone = EvaluateCondition(name, ctx);
    ConditionResult parsed = EvaluateCondition(std::string("(") + name + ")", ctx);
    CHECK(alone.value == parsed.value);
    CHECK(alone.why == parsed.why);
    CHECK(alone.evidence == parsed.evidence);
  }
  CHECK(EvaluateCondition("HAS_X", ctx).why == "HAS_X is False");
  CHECK(EvaluateCondition("True", ctx).value == Tri::kTrue);
  ConditionContext no_flags;
  no_flags.facts = &facts;
  CHECK(EvaluateCondition("HAS_X", no_flags).value == Tri::kUnknown);
}

TEST_CASE("the branch of a conditional expression that holds an offset") {
  LivenessFacts facts;
  ConditionContext ctx = Context(facts);
  std::string text = "128 if has_device_capability(80) else 64";
  CHECK(BranchTaken(text, text.find("128"), ctx).value == Tri::kFalse);
  CHECK(BranchTaken(text, text.find("64"), ctx).value == Tri::kTrue);
  std::string unknown = "1 if big else 2";
  CHECK(BranchTaken(unknown, 0, ctx).value == Tri::kTrue);
}

}  // namespace muh
