#include "engine/rules/template.h"

#include <cctype>

#include "engine/model/input_values.h"

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
      TemplatePart text;
      text.text = std::string(source.substr(i, open - i));
      text.offset = i;
      out->parts_.push_back(std::move(text));
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
    TemplatePart part;
    part.kind = TemplatePart::Kind::kValue;
    part.offset = open;
    if (!inner.empty() && inner.front() == '@') {
      part.kind = TemplatePart::Kind::kCapture;
      inner.remove_prefix(1);
    }
    std::size_t paren = inner.find('(');
    if (part.kind == TemplatePart::Kind::kValue && paren != std::string_view::npos &&
        inner.back() == ')') {
      part.kind = TemplatePart::Kind::kCall;
      std::string_view args = inner.substr(paren + 1, inner.size() - paren - 2);
      inner = inner.substr(0, paren);
      while (!args.empty()) {
        std::size_t comma = args.find(',');
        std::string_view arg = args.substr(0, comma);
        while (!arg.empty() && arg.front() == ' ') arg.remove_prefix(1);
        while (!arg.empty() && arg.back() == ' ') arg.remove_suffix(1);
        if (arg.size() < 2 || arg.front() != '@' || !IsName(arg.substr(1))) {
          *error = "function arguments must be @captures, got '" + std::string(arg) + "'";
          *error_offset = open;
          return false;
        }
        part.args.emplace_back(arg.substr(1));
        if (comma == std::string_view::npos) break;
        args.remove_prefix(comma + 1);
      }
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

bool Template::Expand(const QueryMatch& match, const ValueSource& values, std::string* out,
                      std::string* error, std::string* why) const {
  out->clear();
  for (const TemplatePart& p : parts_) {
    switch (p.kind) {
      case TemplatePart::Kind::kText:
        *out += p.text;
        break;
      case TemplatePart::Kind::kValue: {
        const Value* v = values.Find(p.text);
        if (v != nullptr && !v->error.empty()) {
          *error = "value '" + p.text + "': " + v->error;
          return false;
        }
        if (v != nullptr) *out += v->text;
        if (v != nullptr && why != nullptr) *why += v->why;
        break;
      }
      case TemplatePart::Kind::kCapture:
        if (const Capture* c = match.Find(p.text)) *out += c->text;
        break;
      case TemplatePart::Kind::kCall: {
        std::vector<std::string> args;
        for (const std::string& a : p.args) {
          const Capture* c = match.Find(a);
          args.push_back(c ? c->text : "");
        }
        std::optional<Value> v = values.Call(p.text, args);
        if (!v || !v->error.empty()) {
          *error = "value '" + p.text + "': " + (v ? v->error : "no such function");
          return false;
        }
        *out += v->text;
        if (why != nullptr) *why += v->why;
        break;
      }
    }
  }
  return InputValueFits(values, out, error);
}

bool Template::InputValueFits(const ValueSource& values, const std::string* out,
                              std::string* error) const {
  for (const TemplatePart& p : parts_) {
    if (p.kind != TemplatePart::Kind::kValue && p.kind != TemplatePart::Kind::kCall) continue;
    // The knob is the template's first value or call. A model quantity
    // offers only values its kernel takes; an input (a fact, a workload
    // entry) is the user's to compute with, so what the template makes of
    // it is checked here, before it is offered.
    if (p.kind != TemplatePart::Kind::kValue || !IsInputName(p.text)) return true;
    std::string problem = values.DomainProblem(p.text, *out);
    if (problem.empty()) return true;
    *error = "value '" + p.text + "': the template makes '" + *out + "' of it: " + problem;
    return false;
  }
  return true;
}

}  // namespace muh
