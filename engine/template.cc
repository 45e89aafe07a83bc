#include "engine/template.h"

#include <cctype>

namespace muh {

namespace {
bool IsName(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return false;
  }
  return true;
}
}  // namespace

bool Template::Parse(std::string_view source, Template* out, std::string* error,
                     std::size_t* error_offset) {
  out->parts_.clear();
  std::size_t i = 0;
  while (i < source.size()) {
    std::size_t open = source.find("{{", i);
    if (open == std::string_view::npos) open = source.size();
    if (open > i) {
      out->parts_.push_back({TemplatePart::Kind::kText, std::string(source.substr(i, open - i)), i});
    }
    if (open == source.size()) break;
    std::size_t close = source.find("}}", open + 2);
    if (close == std::string_view::npos) {
      *error = "unterminated '{{' in template";
      *error_offset = open;
      return false;
    }
    std::string_view inner = source.substr(open + 2, close - open - 2);
    while (!inner.empty() && inner.front() == ' ') inner.remove_prefix(1);
    while (!inner.empty() && inner.back() == ' ') inner.remove_suffix(1);
    TemplatePart part{TemplatePart::Kind::kValue, "", open};
    if (!inner.empty() && inner.front() == '@') {
      part.kind = TemplatePart::Kind::kCapture;
      inner.remove_prefix(1);
    }
    if (!IsName(inner)) {
      *error = "expected a value name or @capture inside '{{ }}', got '" + std::string(inner) + "'";
      *error_offset = open;
      return false;
    }
    part.text = std::string(inner);
    out->parts_.push_back(std::move(part));
    i = close + 2;
  }
  return true;
}

std::vector<const TemplatePart*> Template::References(TemplatePart::Kind kind) const {
  std::vector<const TemplatePart*> refs;
  for (const TemplatePart& p : parts_) {
    if (p.kind == kind) refs.push_back(&p);
  }
  return refs;
}

std::string Template::Expand(const QueryMatch& match, const ValueSource& values) const {
  std::string out;
  for (const TemplatePart& p : parts_) {
    switch (p.kind) {
      case TemplatePart::Kind::kText:
        out += p.text;
        break;
      case TemplatePart::Kind::kValue:
        if (const Value* v = values.Find(p.text)) out += v->text;
        break;
      case TemplatePart::Kind::kCapture:
        if (const Capture* c = match.Find(p.text)) out += c->text;
        break;
    }
  }
  return out;
}

}  // namespace muh
