#include "engine/rules/rule_loader.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>

#include "engine/base/edit_distance.h"
#include "engine/query/query_cache.h"

namespace muh {

namespace {

// ---- Step 1: the raw mirror of the YAML, every field with its location ----

struct RawScalar {
  bool present = false;
  std::string value;
  YAML::Mark mark;      // of the value
  YAML::Mark key_mark;  // of the key
};

struct RawPrecondition {
  YAML::Mark mark;
  RawScalar name, present, absent, required;
  std::vector<RawScalar> files;
};

struct RawRule {
  YAML::Mark mark;
  std::vector<std::string> misspelled;  // keys that unknown keys probably meant
  RawScalar id, description, query, replace, with, del, append_to, entries, expect, done_when;
  std::vector<RawScalar> files;
  std::vector<RawScalar> also_matches;
  RawScalar files_key;
  std::vector<RawPrecondition> preconditions;
};

// Largest cross product of a search space's dimensions (bi100's has 1,536).
constexpr long kMaxSearchCandidates = 100000;

const std::vector<std::string> kTopKeys = {"version", "values", "workload", "search_spaces",
                                           "rules"};
const std::vector<std::string> kSpaceKeys = {"kernel", "dims", "ignore", "max_new"};
const std::vector<std::string> kRuleKeys = {
    "id",        "description", "files",  "query",     "replace",       "with",        "delete",
    "append-to", "entries",     "expect", "done-when", "preconditions", "also-matches"};
const std::vector<std::string> kPreconditionKeys = {"name", "files", "present", "absent",
                                                    "required"};

class Loader {
 public:
  Loader(const std::string& path, const std::string& text, std::vector<Diagnostic>* errors)
      : path_(path), text_(text), errors_(errors) {}

  void Error(const YAML::Mark& m, const std::string& msg) {
    errors_->push_back(MakeError(path_, m.line + 1, m.column + 1, msg));
  }

  // Location of byte `offset` inside the scalar that starts at `mark`.
  RuleLoc OffsetLoc(const YAML::Mark& mark, std::size_t offset) const;
  std::size_t LeadingSpaces(std::size_t at) const;

  bool Scalar(const YAML::Node& key, const YAML::Node& value, RawScalar* out) {
    out->present = true;
    out->mark = value.Mark();
    out->key_mark = key.Mark();
    if (!value.IsScalar()) {
      Error(value.Mark(), fmt::format("'{}' must be a scalar", key.as<std::string>()));
      return false;
    }
    out->value = value.as<std::string>();
    return true;
  }

  void ScalarList(const YAML::Node& key, const YAML::Node& value, std::vector<RawScalar>* out) {
    if (value.IsSequence()) {
      if (value.size() == 0)
        Error(value.Mark(), fmt::format("'{}' is empty", key.as<std::string>()));
      for (const YAML::Node& item : value) {
        RawScalar s;
        if (Scalar(key, item, &s)) out->push_back(s);
      }
      return;
    }
    RawScalar s;
    if (Scalar(key, value, &s)) out->push_back(s);
  }

  // Reports unknown keys; returns the keys the typos most likely meant, so
  // that "rule has no 'query'" is not said on top of "did you mean 'query'".
  std::vector<std::string> CheckKeys(const YAML::Node& map, const std::vector<std::string>& allowed,
                                     const char* where) {
    std::vector<std::string> meant;
    for (const auto& kv : map) {
      std::string k = kv.first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
        meant.push_back(ClosestMatch(k, allowed));
        Error(kv.first.Mark(),
              fmt::format("unknown key '{}' in {}{}", k, where, DidYouMean(k, allowed)));
      }
    }
    return meant;
  }

  RawPrecondition ReadPrecondition(const YAML::Node& node);
  RawRule ReadRule(const YAML::Node& node);

  const std::string& path_;
  const std::string& text_;
  std::vector<Diagnostic>* errors_;
};

RuleLoc Loader::OffsetLoc(const YAML::Mark& mark, std::size_t offset) const {
  std::size_t pos = static_cast<std::size_t>(mark.pos);
  char indicator = pos < text_.size() ? text_[pos] : ' ';
  if (indicator == '|' || indicator == '>') {
    // Block scalar: line k of the value is line k of the block, each at the
    // block's indent. The indent is explicit (`|2`: the parent's indent plus
    // 2) or that of the first non-blank line.
    std::size_t header_end = text_.find('\n', pos);
    if (header_end == std::string::npos) return {mark.line + 1, mark.column + 1};
    std::size_t explicit_indent = 0;
    for (std::size_t i = pos + 1; i < header_end && text_[i] != ' ' && text_[i] != '#'; ++i) {
      if (text_[i] >= '1' && text_[i] <= '9')
        explicit_indent = static_cast<std::size_t>(text_[i] - '0');
    }
    std::size_t line_start = header_end + 1;
    std::size_t indent = 0;
    if (explicit_indent != 0) {
      // The parent's indent: the key's column on the header line, past any
      // `- ` sequence entries.
      std::size_t begin = text_.rfind('\n', pos);
      begin = begin == std::string::npos ? 0 : begin + 1;
      std::size_t k = begin;
      while (k < pos &&
             (text_[k] == ' ' || ((text_[k] == '-') && k + 1 < pos && text_[k + 1] == ' ')))
        ++k;
      indent = (k - begin) + explicit_indent;
    } else {
      for (std::size_t at = line_start; at < text_.size();) {
        std::size_t n = 0;
        while (at + n < text_.size() && text_[at + n] == ' ') ++n;
        if (at + n < text_.size() && text_[at + n] != '\n') {
          indent = n;
          break;
        }
        std::size_t nl = text_.find('\n', at);
        if (nl == std::string::npos) break;
        at = nl + 1;
      }
    }
    int line = mark.line + 2;
    std::size_t col = 0;
    std::size_t walked = 0;
    std::size_t i = line_start + std::min(indent, LeadingSpaces(line_start));
    for (; i < text_.size() && walked < offset; ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 0;
        ++walked;
        i += std::min(indent, LeadingSpaces(i + 1));  // the next line's block indent
        continue;
      }
      ++col;
      ++walked;
    }
    return {line, static_cast<int>(indent + col + 1)};
  }
  if (indicator == '"' || indicator == '\'') {
    // Flow-quoted on one line: walk the source, decoding escapes (`\x`,
    // `\xHH`, `\uHHHH`, `\UHHHHHHHH` in double quotes, `''` in single ones),
    // until `offset` bytes of the value are behind.
    std::size_t i = pos + 1;
    std::size_t walked = 0;
    while (i < text_.size() && text_[i] != '\n' && walked < offset) {
      char c = text_[i];
      if (indicator == '"' && c == '\\' && i + 1 < text_.size()) {
        char e = text_[i + 1];
        std::size_t hex = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        unsigned long cp = hex ? std::strtoul(text_.substr(i + 2, hex).c_str(), nullptr, 16) : 0;
        walked += hex == 0 ? 1 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        i += 2 + hex;
      } else if (indicator == '\'' && c == '\'' && i + 1 < text_.size() && text_[i + 1] == '\'') {
        ++walked;
        i += 2;
      } else {
        ++walked;
        ++i;
      }
    }
    return {mark.line + 1, static_cast<int>(i - (pos - static_cast<std::size_t>(mark.column))) + 1};
  }
  return {mark.line + 1, mark.column + 1 + static_cast<int>(offset)};
}

std::size_t Loader::LeadingSpaces(std::size_t at) const {
  std::size_t n = 0;
  while (at + n < text_.size() && text_[at + n] == ' ') ++n;
  return n;
}

RawPrecondition Loader::ReadPrecondition(const YAML::Node& node) {
  RawPrecondition p;
  p.mark = node.Mark();
  if (!node.IsMap()) {
    Error(node.Mark(), "a precondition must be a mapping");
    return p;
  }
  CheckKeys(node, kPreconditionKeys, "precondition");
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    if (k == "name")
      Scalar(kv.first, kv.second, &p.name);
    else if (k == "present")
      Scalar(kv.first, kv.second, &p.present);
    else if (k == "absent")
      Scalar(kv.first, kv.second, &p.absent);
    else if (k == "required")
      Scalar(kv.first, kv.second, &p.required);
    else if (k == "files")
      ScalarList(kv.first, kv.second, &p.files);
  }
  return p;
}

RawRule Loader::ReadRule(const YAML::Node& node) {
  RawRule r;
  r.mark = node.Mark();
  if (!node.IsMap()) {
    Error(node.Mark(), "a rule must be a mapping");
    return r;
  }
  r.misspelled = CheckKeys(node, kRuleKeys, "rule");
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    if (k == "id")
      Scalar(kv.first, kv.second, &r.id);
    else if (k == "description")
      Scalar(kv.first, kv.second, &r.description);
    else if (k == "query")
      Scalar(kv.first, kv.second, &r.query);
    else if (k == "replace")
      Scalar(kv.first, kv.second, &r.replace);
    else if (k == "with")
      Scalar(kv.first, kv.second, &r.with);
    else if (k == "delete")
      Scalar(kv.first, kv.second, &r.del);
    else if (k == "append-to")
      Scalar(kv.first, kv.second, &r.append_to);
    else if (k == "entries")
      Scalar(kv.first, kv.second, &r.entries);
    else if (k == "expect")
      Scalar(kv.first, kv.second, &r.expect);
    else if (k == "done-when")
      Scalar(kv.first, kv.second, &r.done_when);
    else if (k == "files") {
      r.files_key.present = true;
      r.files_key.key_mark = kv.first.Mark();
      r.files_key.mark = kv.second.Mark();
      ScalarList(kv.first, kv.second, &r.files);
    } else if (k == "also-matches") {
      ScalarList(kv.first, kv.second, &r.also_matches);
    } else if (k == "preconditions") {
      if (!kv.second.IsSequence()) {
        Error(kv.second.Mark(), "'preconditions' must be a list");
        continue;
      }
      for (const YAML::Node& p : kv.second) r.preconditions.push_back(ReadPrecondition(p));
    }
  }
  return r;
}

// ---- Step 2: checking raw rules into Rules ----

std::string PythonLiteral(const std::string& yaml_scalar) {
  if (yaml_scalar == "true" || yaml_scalar == "True") return "True";
  if (yaml_scalar == "false" || yaml_scalar == "False") return "False";
  bool numeric = !yaml_scalar.empty();
  for (std::size_t i = 0; i < yaml_scalar.size(); ++i) {
    char c = yaml_scalar[i];
    bool sign = i == 0 && c == '-';
    if (!sign && !std::isdigit(static_cast<unsigned char>(c)) && c != '.') numeric = false;
  }
  return numeric ? yaml_scalar : "\"" + yaml_scalar + "\"";
}

class Checker {
 public:
  Checker(Loader* loader, const ValueSource* values, QueryCache* queries)
      : l_(*loader), values_(values), queries_(queries) {}

  std::shared_ptr<const Query> CompileQuery(const RawScalar& s) {
    QueryError qe;
    std::shared_ptr<const Query> q = queries_->Get(s.value, &qe);
    if (!q) {
      RuleLoc at = l_.OffsetLoc(s.mark, qe.offset);
      l_.errors_->push_back(MakeError(l_.path_, at.line, at.column,
                                      fmt::format("{} at query offset {}", qe.message, qe.offset)));
      return nullptr;
    }
    return q;
  }

  bool CheckPath(const RawScalar& s) {
    if (s.value.empty() || s.value.front() == '/' || s.value == ".." ||
        s.value.rfind("../", 0) == 0 || s.value.find("/../") != std::string::npos ||
        (s.value.size() >= 3 && s.value.compare(s.value.size() - 3, 3, "/..") == 0)) {
      l_.Error(s.mark, fmt::format("'{}' must be a path inside the tree", s.value));
      return false;
    }
    return true;
  }

  bool CaptureExists(const Query& q, const std::string& name, const YAML::Mark& mark,
                     const char* key) {
    if (q.HasCapture(name)) return true;
    std::string list;
    for (const std::string& c : q.capture_names()) list += (list.empty() ? "@" : ", @") + c;
    l_.Error(mark, fmt::format("unknown capture '@{}' in '{}'{} (query captures: {})", name, key,
                               DidYouMean(name, q.capture_names()), list));
    return false;
  }

  // A mark at byte `offset` of scalar `s`, for messages about part of it.
  YAML::Mark PartMark(const RawScalar& s, std::size_t offset) const {
    RuleLoc loc = l_.OffsetLoc(s.mark, offset);
    YAML::Mark m = s.mark;
    m.line = loc.line - 1;
    m.column = loc.column - 1;
    return m;
  }

  void FunctionExists(const std::string& name, const YAML::Mark& mark) {
    std::vector<std::string> fns = values_->Functions();
    if (std::find(fns.begin(), fns.end(), name) != fns.end()) return;
    l_.Error(mark, fmt::format("unknown function '{}'{} (known: {})", name, DidYouMean(name, fns),
                               fns.empty() ? "none" : fmt::format("{}", fmt::join(fns, ", "))));
  }

  bool ValueExists(const std::string& name, const YAML::Mark& mark, bool want_list) {
    const Value* v = values_->Find(name);
    std::vector<std::string> names = values_->Names();
    if (v == nullptr) {
      std::string known;
      for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
      l_.Error(mark, fmt::format("unknown value '{}'{} (known: {})", name, DidYouMean(name, names),
                                 known.empty() ? "none" : known));
      return false;
    }
    if (v->is_list != want_list) {
      l_.Error(mark, fmt::format("value '{}' is {}", name, v->is_list ? "a list" : "not a list"));
      return false;
    }
    return true;
  }

  std::optional<Rule> Check(const RawRule& r, std::set<std::string>* ids);

 private:
  Loader& l_;
  const ValueSource* values_;
  QueryCache* queries_;
};

std::optional<Rule> Checker::Check(const RawRule& r, std::set<std::string>* ids) {
  std::size_t errors_before = l_.errors_->size();
  Rule rule;
  rule.loc = {r.mark.line + 1, r.mark.column + 1};
  if (!r.id.present) {
    l_.Error(r.mark, "rule has no 'id'");
  } else if (!ids->insert(r.id.value).second) {
    l_.Error(r.id.mark, fmt::format("duplicate rule id '{}'", r.id.value));
  }
  rule.id = r.id.value;
  rule.description = r.description.value;
  auto meant = [&](const char* key) {
    return std::find(r.misspelled.begin(), r.misspelled.end(), key) != r.misspelled.end();
  };
  if (r.files.empty() && !r.files_key.present && !meant("files")) {
    l_.Error(r.mark, fmt::format("rule '{}' has no 'files'", rule.id));
  }
  for (const RawScalar& f : r.files) {
    if (CheckPath(f)) {
      rule.files.push_back(f.value);
      rule.file_locs.push_back({f.mark.line + 1, f.mark.column + 1});
    }
  }
  rule.files_loc = {r.files_key.mark.line + 1, r.files_key.mark.column + 1};
  for (const RawScalar& f : r.also_matches) {
    if (CheckPath(f)) rule.also_matches.push_back(f.value);
  }
  if (!r.query.present) {
    if (!meant("query")) l_.Error(r.mark, fmt::format("rule '{}' has no 'query'", rule.id));
  } else {
    rule.query = CompileQuery(r.query);
  }
  int actions = int(r.replace.present) + int(r.del.present) + int(r.append_to.present);
  if (actions != 1) {
    l_.Error(r.mark, fmt::format("rule '{}' needs exactly one of 'replace', 'delete', 'append-to'",
                                 rule.id));
  }
  const RawScalar* target = r.replace.present ? &r.replace : r.del.present ? &r.del : &r.append_to;
  rule.action = r.replace.present ? ActionKind::kReplace
                : r.del.present   ? ActionKind::kDeleteLines
                                  : ActionKind::kAppendEntries;
  std::string target_name = target->value;
  if (!target_name.empty() && target_name.front() == '@') target_name.erase(0, 1);
  rule.target = target_name;
  const char* target_key = r.replace.present ? "replace" : r.del.present ? "delete" : "append-to";
  if (rule.query && target->present)
    CaptureExists(*rule.query, target_name, target->mark, target_key);
  if (rule.action == ActionKind::kReplace) {
    if (!r.with.present) {
      l_.Error(r.replace.key_mark, fmt::format("rule '{}' has 'replace' but no 'with'", rule.id));
    } else {
      std::string err;
      std::size_t off = 0;
      if (!Template::Parse(r.with.value, &rule.with, &err, &off)) {
        RuleLoc at = l_.OffsetLoc(r.with.mark, off);
        l_.errors_->push_back(MakeError(l_.path_, at.line, at.column, err));
      } else {
        for (const TemplatePart& p : rule.with.parts()) {
          YAML::Mark at = PartMark(r.with, p.offset);
          if (p.kind == TemplatePart::Kind::kCapture && rule.query) {
            CaptureExists(*rule.query, p.text, at, "with");
          } else if (p.kind == TemplatePart::Kind::kValue) {
            ValueExists(p.text, at, false);
          } else if (p.kind == TemplatePart::Kind::kCall) {
            FunctionExists(p.text, at);
            for (const std::string& a : p.args) {
              if (rule.query) CaptureExists(*rule.query, a, at, "with");
            }
          }
        }
      }
    }
  } else if (r.with.present) {
    l_.Error(r.with.key_mark, "'with' only goes with 'replace'");
  }
  if (rule.action == ActionKind::kAppendEntries) {
    if (!r.entries.present) {
      l_.Error(r.append_to.key_mark,
               fmt::format("rule '{}' has 'append-to' but no 'entries'", rule.id));
    } else if (ValueExists(r.entries.value, r.entries.mark, true)) {
      rule.entries = r.entries.value;
    }
  } else if (r.entries.present) {
    l_.Error(r.entries.key_mark, "'entries' only goes with 'append-to'");
  }
  if (r.expect.present) {
    try {
      rule.expect = std::stoi(r.expect.value);
      if (rule.expect < 1 || std::to_string(rule.expect) != r.expect.value) throw std::exception();
    } catch (...) {
      l_.Error(r.expect.mark, fmt::format("'expect' must be a whole number of at least 1, got '{}'",
                                          r.expect.value));
    }
  }
  if (r.done_when.present) rule.done_when = CompileQuery(r.done_when);
  for (const RawPrecondition& rp : r.preconditions) {
    Precondition p;
    p.loc = {rp.mark.line + 1, rp.mark.column + 1};
    p.name = rp.name.value;
    if (!rp.name.present) l_.Error(rp.mark, "precondition has no 'name'");
    if (rp.present.present == rp.absent.present) {
      l_.Error(rp.mark, "a precondition needs exactly one of 'present' or 'absent'");
      continue;
    }
    p.want_present = rp.present.present;
    p.query = CompileQuery(p.want_present ? rp.present : rp.absent);
    for (const RawScalar& f : rp.files) {
      if (CheckPath(f)) p.files.push_back(f.value);
    }
    if (rp.files.empty()) p.files = rule.files;
    if (rp.required.present) {
      if (rp.required.value == "true")
        p.required = true;
      else if (rp.required.value != "false")
        l_.Error(rp.required.mark, "'required' must be true or false");
    }
    rule.preconditions.push_back(std::move(p));
  }
  if (l_.errors_->size() != errors_before) return std::nullopt;
  return rule;
}

void ReadValues(Loader* l, const YAML::Node& node, TableValues* table) {
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'values' must be a mapping of names to values");
    return;
  }
  for (const auto& kv : node) {
    Value v;
    if (kv.second.IsScalar()) {
      v.text = kv.second.as<std::string>();
    } else if (kv.second.IsSequence()) {
      v.is_list = true;
      for (const YAML::Node& item : kv.second) {
        if (!item.IsMap()) {
          l->Error(item.Mark(), "each entry of a list value must be a mapping");
          continue;
        }
        ConfigEntry e;
        for (const auto& f : item) {
          if (!f.second.IsScalar()) {
            l->Error(f.second.Mark(), "entry fields must be scalars");
            continue;
          }
          e.fields.emplace_back(f.first.as<std::string>(),
                                PythonLiteral(f.second.as<std::string>()));
        }
        v.entries.push_back(std::move(e));
      }
    } else {
      l->Error(kv.second.Mark(), "a value must be a scalar or a list of mappings");
      continue;
    }
    table->Set(kv.first.as<std::string>(), std::move(v));
  }
}

void ReadWorkload(Loader* l, const YAML::Node& node, RuleSet* out) {
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'workload' must be a mapping of names to values");
    return;
  }
  for (const auto& kv : node) {
    if (!kv.second.IsScalar()) {
      l->Error(kv.second.Mark(), "a workload entry must be a scalar");
      continue;
    }
    out->workload.push_back({kv.first.as<std::string>(),
                             kv.second.as<std::string>(),
                             {kv.first.Mark().line + 1, kv.first.Mark().column + 1}});
  }
}

void ReadSearchSpaces(Loader* l, const YAML::Node& node, RuleSet* out) {
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'search_spaces' must be a mapping of names to spaces");
    return;
  }
  for (const auto& kv : node) {
    SearchSpace space;
    space.name = kv.first.as<std::string>();
    const YAML::Node& body = kv.second;
    if (!body.IsMap()) {
      l->Error(body.Mark(), "a search space must be a mapping");
      continue;
    }
    l->CheckKeys(body, kSpaceKeys, "search space");
    space.kernel =
        body["kernel"] && body["kernel"].IsScalar() ? body["kernel"].as<std::string>() : "";
    if (space.kernel != "attention") {
      l->Error(body["kernel"] ? body["kernel"].Mark() : body.Mark(),
               "search space 'kernel' must be 'attention' (the only cost model so far)");
    }
    if (YAML::Node m = body["max_new"]) {
      try {
        space.max_new = m.as<int>();
        if (space.max_new < 1) throw YAML::Exception(m.Mark(), "");
      } catch (const YAML::Exception&) {
        l->Error(m.Mark(), "'max_new' must be a whole number of at least 1");
      }
    }
    YAML::Node dims = body["dims"];
    if (!dims || !dims.IsMap() || dims.size() == 0) {
      l->Error(dims ? dims.Mark() : body.Mark(), "'dims' must map field names to lists of values");
      continue;
    }
    for (const auto& dim : dims) {
      std::vector<std::string> values;
      if (!dim.second.IsSequence() || dim.second.size() == 0) {
        l->Error(dim.second.Mark(), "a dimension must be a non-empty list of values");
        continue;
      }
      for (const YAML::Node& v : dim.second) {
        if (!v.IsScalar()) {
          l->Error(v.Mark(), "dimension values must be scalars");
          continue;
        }
        values.push_back(PythonLiteral(v.as<std::string>()));
      }
      space.dims.emplace_back(dim.first.as<std::string>(), std::move(values));
    }
    // The model walks the whole cross product; YAML aliases make a huge one
    // cheap to write (a fuzzer found 8 x 8 values taking seconds).
    double candidates = 1;
    for (const auto& d : space.dims) candidates *= static_cast<double>(d.second.size());
    if (candidates > kMaxSearchCandidates) {
      l->Error(dims.Mark(), fmt::format("search space '{}' has {:.0f} candidates, more than the "
                                        "{} the model enumerates; narrow its dimensions",
                                        space.name, candidates, kMaxSearchCandidates));
    }
    if (space.kernel == "attention") {
      // The attention cost model reads these as whole numbers.
      for (const auto& dim : dims) {
        std::string name = dim.first.as<std::string>();
        if (name != "BLOCK_M" && name != "BLOCK_N" && name != "num_stages" && name != "num_warps") {
          continue;
        }
        for (const YAML::Node& v : dim.second) {
          std::string t = v.IsScalar() ? v.as<std::string>() : "";
          bool ok = !t.empty() && t.size() <= 5 &&
                    std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                    std::stoi(t) >= 1 && std::stoi(t) <= 4096;
          if (!ok)
            l->Error(v.Mark(),
                     fmt::format("'{}' values must be whole numbers from 1 to 4096", name));
        }
      }
    }
    if (YAML::Node ign = body["ignore"]) {
      if (!ign.IsSequence()) {
        l->Error(ign.Mark(), "'ignore' must be a list of dimension names");
      } else {
        for (const YAML::Node& i : ign) {
          std::string name = i.as<std::string>();
          bool known = false;
          for (const auto& dim : space.dims) known = known || dim.first == name;
          if (!known) l->Error(i.Mark(), fmt::format("'ignore' names no dimension: '{}'", name));
          space.ignored.push_back(name);
        }
      }
    }
    out->search_spaces.push_back(std::move(space));
    out->search_space_locs.push_back({kv.first.Mark().line + 1, kv.first.Mark().column + 1});
  }
}

// Table values first, then the model's; a name in both is refused at load.
class CombinedValues : public ValueSource {
 public:
  CombinedValues(std::shared_ptr<const ValueSource> table, std::shared_ptr<const ValueSource> model)
      : table_(std::move(table)), model_(std::move(model)) {}
  const Value* Find(std::string_view name) const override {
    const Value* v = table_->Find(name);
    return v != nullptr ? v : model_->Find(name);
  }
  std::vector<std::string> Names() const override {
    std::vector<std::string> names = table_->Names();
    for (const std::string& n : model_->Names()) names.push_back(n);
    std::sort(names.begin(), names.end());
    return names;
  }
  std::optional<Value> Call(std::string_view name,
                            const std::vector<std::string>& args) const override {
    return model_->Call(name, args);
  }
  std::vector<std::string> Functions() const override { return model_->Functions(); }

 private:
  std::shared_ptr<const ValueSource> table_;
  std::shared_ptr<const ValueSource> model_;
};

}  // namespace

namespace {

bool LoadRulesOrThrow(const std::string& display_path, const std::string& text,
                      const ValuesFactory& make_values, RuleSet* out,
                      std::vector<Diagnostic>* errors) {
  std::size_t errors_before = errors->size();
  Loader loader(display_path, text, errors);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    loader.Error(e.mark, "malformed YAML: " + e.msg);
    return false;
  }
  out->path = display_path;
  out->rules.clear();
  out->table = std::make_shared<TableValues>();
  if (!root.IsMap()) {
    loader.Error(root.Mark(), "a rule file must be a mapping with 'version' and 'rules'");
    return false;
  }
  loader.CheckKeys(root, kTopKeys, "rule file");
  YAML::Node version = root["version"];
  if (!version || !version.IsScalar() || version.as<std::string>() != "1") {
    loader.Error(version ? version.Mark() : root.Mark(), "'version' must be 1");
  }
  if (YAML::Node v = root["values"]) ReadValues(&loader, v, out->table.get());
  if (YAML::Node v = root["workload"]) ReadWorkload(&loader, v, out);
  if (YAML::Node v = root["search_spaces"]) ReadSearchSpaces(&loader, v, out);
  // The model reads the workload and search spaces; build it only from
  // sections that checked out.
  if (errors->size() != errors_before) return false;
  std::shared_ptr<const ValueSource> model = make_values ? make_values(*out, errors) : nullptr;
  if (model) {
    for (const auto& kv : root["values"]) {
      std::string name = kv.first.as<std::string>();
      if (model->Find(name) != nullptr) {
        loader.Error(
            kv.first.Mark(),
            fmt::format("value '{}' would shadow the model's quantity of that name", name));
      }
    }
    out->values = std::make_shared<CombinedValues>(out->table, model);
  } else {
    out->values = out->table;
  }
  YAML::Node rules = root["rules"];
  if (!rules || !rules.IsSequence() || rules.size() == 0) {
    loader.Error(rules ? rules.Mark() : root.Mark(), "'rules' must be a non-empty list");
    return false;
  }
  std::vector<RawRule> raw;
  for (const YAML::Node& r : rules) raw.push_back(loader.ReadRule(r));
  QueryCache queries;
  std::vector<std::string> texts;
  for (const RawRule& r : raw) {
    for (const RawScalar* q : {&r.query, &r.done_when}) {
      if (q->present) texts.push_back(q->value);
    }
    for (const RawPrecondition& p : r.preconditions) {
      for (const RawScalar* q : {&p.present, &p.absent}) {
        if (q->present) texts.push_back(q->value);
      }
    }
  }
  queries.CompileAll(texts);
  Checker checker(&loader, out->values.get(), &queries);
  std::set<std::string> ids;
  for (const RawRule& r : raw) {
    std::optional<Rule> rule = checker.Check(r, &ids);
    if (rule) out->rules.push_back(std::move(*rule));
  }
  std::stable_sort(errors->begin() + static_cast<std::ptrdiff_t>(errors_before), errors->end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return a.line != b.line ? a.line < b.line : a.column < b.column;
                   });
  return errors->size() == errors_before;
}

}  // namespace

bool LoadRules(const std::string& display_path, const std::string& text,
               const ValuesFactory& make_values, RuleSet* out, std::vector<Diagnostic>* errors) {
  // yaml-cpp throws when a node has an unexpected shape (a list where a key
  // should be, say). Every such case is bad input, reported where it is.
  try {
    return LoadRulesOrThrow(display_path, text, make_values, out, errors);
  } catch (const YAML::Exception& e) {
    errors->push_back(MakeError(display_path, e.mark.line + 1, e.mark.column + 1,
                                "unexpected YAML structure: " + e.msg));
    return false;
  }
}

}  // namespace muh
