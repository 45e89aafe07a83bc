// The classes of use that a "dead" verdict once missed, each beside a twin
// that differs by a word and gets the other verdict (fixtures/liveness/
// proof/). A use the analysis follows gives live; one it cannot account
// for gives unknown, naming it; only the twins with no use are dead.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/liveness/liveness.h"
#include "tests/fixture_testing.h"

namespace muh {

namespace {

namespace fs = std::filesystem;

class ProofTree {
 public:
  ProofTree() {
    fs::path root = fs::path(MUHPATCH_SOURCE_DIR) / "fixtures/liveness/proof";
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file() && e.path().extension() == ".py") {
        files_[fs::relative(e.path(), root).generic_string()] = testing::Slurp(e.path());
      }
    }
    std::vector<std::string> paths;
    for (const auto& [p, bytes] : files_) paths.push_back(p);
    LivenessFacts facts;
    facts.entry_module = "app.main";
    read_ = [this](const std::string& p) -> std::optional<std::string_view> {
      auto it = files_.find(p);
      if (it == files_.end()) return std::nullopt;
      return std::string_view(it->second);
    };
    analysis_ = std::make_unique<LivenessAnalysis>(LivenessAnalysis::Run(paths, read_, facts));
  }

  // The verdict at `value` inside the first `context` of app/`file`.
  SiteLiveness At(const std::string& file, const std::string& context, const std::string& value) {
    const std::string path = "app/" + file;
    const std::string& bytes = files_.at(path);
    std::size_t at = bytes.find(context);
    REQUIRE_MESSAGE(at != std::string::npos, path << ": no '" << context << "'");
    return analysis_->At(path, at + context.find(value));
  }

 private:
  std::map<std::string, std::string> files_;
  ReadFn read_;
  std::unique_ptr<LivenessAnalysis> analysis_;
};

std::string Describe(const SiteLiveness& s) {
  std::string out = std::string(LivenessName(s.state)) + ": " + s.reason;
  for (const Evidence& e : s.evidence) {
    out += "\n  " + e.path + ":" + std::to_string(e.line) + ": " + e.what;
  }
  return out;
}

ProofTree& Tree() {
  static ProofTree tree;
  return tree;
}

}  // namespace

TEST_CASE("proof: a function imported under an alias and called by it is live") {
  SiteLiveness warm = Tree().At("alias.py", "return 16", "16");
  INFO(Describe(warm));
  CHECK(warm.state == Liveness::kLive);
  CHECK(Describe(warm).find("app/main.py:5: from app.alias import warm as heat") !=
        std::string::npos);
  SiteLiveness cool = Tree().At("alias.py", "return 24", "24");
  INFO(Describe(cool));
  CHECK(cool.state == Liveness::kDead);
  CHECK(cool.reason == "nothing reached refers to cool");
}

TEST_CASE("proof: an import after a semicolon or on an if/try header line is followed") {
  CHECK(Tree().At("semi_case.py", "LANES = 4", "4").state == Liveness::kLive);
  CHECK(Tree().At("header_case.py", "DEPTH = 2", "2").state == Liveness::kLive);
  CHECK(Tree().At("try_case.py", "SPLIT = 8", "8").state == Liveness::kLive);
  // The twins: named in a comment only, and imported where `if False:` holds.
  SiteLiveness semi = Tree().At("semi_control.py", "LANES = 6", "6");
  INFO(Describe(semi));
  CHECK(semi.state == Liveness::kDead);
  SiteLiveness header = Tree().At("header_control.py", "DEPTH = 3", "3");
  INFO(Describe(header));
  CHECK(header.state == Liveness::kDead);
  CHECK(header.reason == "not imported when serving: imported only where False");
  // A docstring that names a module loads nothing.
  CHECK(Tree().At("unnamed.py", "ROWS = 5", "5").state == Liveness::kDead);
}

TEST_CASE("proof: a dict copied or popped on its way to a kernel is read") {
  SiteLiveness copy = Tree().At("copies.py", "\"TILE_N\": 32", "32");
  INFO(Describe(copy));
  CHECK(copy.state == Liveness::kLive);
  CHECK(Tree().At("copies.py", "\"TILE_W\": 8", "8").state == Liveness::kLive);
  SiteLiveness pop = Tree().At("pops.py", "\"TILE_K\": 16", "16");
  INFO(Describe(pop));
  CHECK(pop.state == Liveness::kLive);
  for (const char* twin : {"\"TILE_V\": 32", "\"TILE_X\": 8"}) {
    SiteLiveness s = Tree().At("copies.py", twin, twin[9] == '3' ? "32" : "8");
    INFO(Describe(s));
    CHECK(s.state == Liveness::kDead);
  }
  SiteLiveness popped_other = Tree().At("pops.py", "\"TILE_J\": 16", "16");
  INFO(Describe(popped_other));
  CHECK(popped_other.state == Liveness::kDead);
  CHECK(popped_other.reason == "no reached code reads key 'TILE_J'");
}

TEST_CASE("proof: a one-line 'if c: return config' before the overwrite reads it") {
  SiteLiveness early = Tree().At("early.py", "\"TILE_M\": 64", "64");
  INFO(Describe(early));
  CHECK(early.state != Liveness::kDead);
  // Its result goes to `early.pick(3)`, a use the flow does not model.
  CHECK(early.state == Liveness::kUnknown);
  CHECK(Describe(early).find("app/main.py:22: a use of pick") != std::string::npos);
  SiteLiveness twin = Tree().At("early.py", "\"TILE_P\": 64", "64");
  INFO(Describe(twin));
  CHECK(twin.state == Liveness::kDead);
  CHECK(twin.reason.find("overwritten") == 0);
}

TEST_CASE("proof: a caller registered by any decorator keeps its callees alive") {
  SiteLiveness rows = Tree().At("route.py", "return 128", "128");
  INFO(Describe(rows));
  CHECK(rows.state == Liveness::kUnknown);
  CHECK(Describe(rows).find("app/route.py:20: @router.get(\"/rows\")") != std::string::npos);
  SiteLiveness cols = Tree().At("route.py", "return 96", "96");
  INFO(Describe(cols));
  CHECK(cols.state == Liveness::kDead);
}

TEST_CASE("proof: import_module with a relative name and a package is followed") {
  SiteLiveness plug = Tree().At("plug_case.py", "WIDTH = 12", "12");
  INFO(Describe(plug));
  CHECK(plug.state == Liveness::kLive);
  CHECK(Describe(plug).find("importlib.import_module(\".plug_case\", package=\"app\")") !=
        std::string::npos);
  CHECK(Tree().At("plug_control.py", "WIDTH = 14", "14").state == Liveness::kDead);
}

TEST_CASE("proof: a flag rebound from another module decides nothing") {
  SiteLiveness wide = Tree().At("wide.py", "SPAN = 7", "7");
  INFO(Describe(wide));
  CHECK(wide.state == Liveness::kLive);
  SiteLiveness tall = Tree().At("tall.py", "SPAN = 9", "9");
  INFO(Describe(tall));
  CHECK(tall.state == Liveness::kDead);
  CHECK(tall.reason == "not imported when serving: imported only where USE_TALL is False");
}

}  // namespace muh
