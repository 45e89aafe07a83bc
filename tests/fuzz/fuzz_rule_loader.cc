// libFuzzer target: the rule file loader.
//
// The input is a rule file. It is loaded twice: with a ValuesFactory that
// returns null (only the file's `values:` table), and with one that builds
// the BI-V100 model from the built-in profile and the file's `workload:` and
// `search_spaces:`, as `muhpatch` does. Each load must return true exactly
// when it reported no error, every error must be located in the rule file,
// and a successful load must hand over what rule.h promises: every query
// compiled, every capture and value a rule mentions known to exist. Each
// rule's `with:` template is then expanded over a made-up match, which must
// either succeed or fail with a message.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/app/inputs.h"
#include "engine/base/diagnostic.h"
#include "engine/model/model_values.h"
#include "engine/query/query.h"
#include "engine/rules/finder.h"
#include "engine/rules/rule.h"
#include "engine/rules/rule_loader.h"
#include "engine/rules/template.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

constexpr const char* kPath = "rules.yaml";

void CheckErrors(const std::string& text, const std::vector<muh::Diagnostic>& errors) {
  std::size_t lines = 1;
  for (char c : text) lines += c == '\n';
  for (const muh::Diagnostic& d : errors) {
    FUZZ_CHECK(d.file == kPath, "error not located in the rule file: " + d.Format());
    FUZZ_CHECK(d.severity == muh::Severity::kError, "not an error: " + d.Format());
    FUZZ_CHECK(!d.message.empty(), "error without a message: " + d.Format());
    FUZZ_CHECK(d.line >= 0 && d.column >= 0, "negative location: " + d.Format());
    FUZZ_CHECK(static_cast<std::size_t>(d.line) <= lines,
               "error on line " + std::to_string(d.line) + " of a " + std::to_string(lines) +
                   "-line file: " + d.Format());
  }
}

bool KnownFunction(const muh::ValueSource& values, const std::string& name) {
  for (const std::string& f : values.Functions()) {
    if (f == name) return true;
  }
  return false;
}

void CheckQuery(const std::shared_ptr<const muh::SiteQuery>& q, const std::string& what) {
  FUZZ_CHECK(q != nullptr, what + " was not compiled");
}

// Every capture of the rule's query, with `text` as its source text.
muh::QueryMatch MadeUpMatch(const muh::SiteQuery& q, const std::string& text) {
  muh::QueryMatch m;
  std::size_t at = 0;
  for (const std::string& name : q.capture_names()) {
    muh::Capture c;
    c.name = name;
    c.begin = at;
    c.end = at + text.size();
    c.text = text;
    c.node_type = "integer";
    m.captures.push_back(c);
    at = c.end;
  }
  return m;
}

void CheckRules(const muh::RuleSet& rules) {
  FUZZ_CHECK(rules.path == kPath, "RuleSet::path is " + rules.path);
  FUZZ_CHECK(!rules.rules.empty(), "a loaded rule file has no rules");
  FUZZ_CHECK(rules.values != nullptr, "a loaded rule file has no value source");
  const muh::ValueSource& values = *rules.values;
  for (const muh::Rule& r : rules.rules) {
    const std::string who = "rule '" + r.id + "'";
    FUZZ_CHECK(r.finder != nullptr, who + " has no finder");
    const std::shared_ptr<const muh::SiteQuery>& query = r.finder->query();
    CheckQuery(query, who + ": query");
    FUZZ_CHECK(!r.files.empty(), who + " has no files");
    FUZZ_CHECK(r.files.size() == r.file_locs.size(), who + ": file_locs is not parallel to files");
    FUZZ_CHECK(r.expect >= 1, who + ": expect " + std::to_string(r.expect));
    FUZZ_CHECK(query->HasCapture(r.target), who + ": target @" + r.target + " is not a capture");
    if (r.action == muh::ActionKind::kReplace) {
      for (const muh::TemplatePart& p : r.with.parts()) {
        switch (p.kind) {
          case muh::TemplatePart::Kind::kText:
            break;
          case muh::TemplatePart::Kind::kValue: {
            const muh::Value* v = values.Find(p.text);
            FUZZ_CHECK(v != nullptr && !v->is_list,
                       who + ": value '" + p.text + "' unknown or a list");
            break;
          }
          case muh::TemplatePart::Kind::kCapture:
            FUZZ_CHECK(query->HasCapture(p.text),
                       who + ": template capture @" + p.text + " unknown");
            break;
          case muh::TemplatePart::Kind::kCall:
            FUZZ_CHECK(KnownFunction(values, p.text), who + ": function '" + p.text + "' unknown");
            for (const std::string& a : p.args) {
              FUZZ_CHECK(query->HasCapture(a), who + ": argument @" + a + " unknown");
            }
            break;
        }
      }
      for (const char* capture_text : {"64", "0"}) {
        std::string out, error, why;
        bool ok = r.with.Expand(MadeUpMatch(*query, capture_text), values, &out, &error, &why);
        FUZZ_CHECK(ok || !error.empty(), who + ": Expand failed without a message");
      }
    } else {
      FUZZ_CHECK(r.with.parts().empty(), who + ": a template on a rule that does not replace");
    }
    if (r.action == muh::ActionKind::kAppendEntries) {
      const muh::Value* v = values.Find(r.entries);
      FUZZ_CHECK(v != nullptr && v->is_list,
                 who + ": entries '" + r.entries + "' unknown or not a list");
    }
    if (r.done_when) CheckQuery(r.done_when, who + ": done-when");
    for (const muh::Precondition& p : r.preconditions) {
      CheckQuery(p.query, who + ": precondition '" + p.name + "'");
      FUZZ_CHECK(!p.files.empty(), who + ": precondition '" + p.name + "' has no files");
    }
  }
}

// Checks one load's result: errors iff false, errors located, rules sane.
void Check(const std::string& text, bool ok, const std::vector<muh::Diagnostic>& errors,
           const muh::RuleSet& rules) {
  FUZZ_CHECK(ok == errors.empty(), std::string("loading returned ") + (ok ? "true" : "false") +
                                       " with " + std::to_string(errors.size()) + " errors");
  CheckErrors(text, errors);
  if (ok) CheckRules(rules);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);

  {  // the file's own `values:` alone
    muh::RuleSet rules;
    std::vector<muh::Diagnostic> errors;
    const bool ok = muh::LoadRules(kPath, text, nullptr, &rules, &errors);
    Check(text, ok, errors, rules);
  }
  {  // as muhpatch loads it: the built-in BI-V100 profile, the model as values
    muh::InputOptions opts;
    opts.rules_path = kPath;
    muh::Inputs inputs;
    std::vector<muh::Diagnostic> errors;
    const bool ok = muh::LoadInputsFromText(opts, text, &inputs, &errors);
    Check(text, ok, errors, inputs.rules);
    if (inputs.model) {
      for (const std::string& name : inputs.model->Names()) {
        FUZZ_CHECK(inputs.model->Find(name) != nullptr,
                   "model lists '" + name + "' but cannot find it");
      }
    }
  }
  return 0;
}
