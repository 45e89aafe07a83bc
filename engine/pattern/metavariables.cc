#include "engine/pattern/metavariables.h"

#include <cctype>

namespace muh {

namespace {

constexpr std::string_view kOnePrefix = "_muh_mv_";
constexpr std::string_view kSequencePrefix = "_muh_seq_";

bool NameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

}  // namespace

std::size_t Substituted::Original(std::size_t offset) const {
  const Piece* at = nullptr;
  for (const Piece& p : pieces) {
    if (p.begin > offset) break;
    at = &p;
  }
  if (at == nullptr) return offset;
  if (at->length != 0) return at->original;
  return at->original + (offset - at->begin);
}

const Metavariable* Substituted::Find(std::string_view placeholder) const {
  for (const Piece& p : pieces) {
    if (p.length == 0 || p.length != placeholder.size()) continue;
    if (std::string_view(text).substr(p.begin, p.length) != placeholder) continue;
    for (const Metavariable& m : metavariables) {
      if (m.offset == p.original) return &m;
    }
  }
  return nullptr;
}

bool Substituted::MentionsPlaceholder(std::string_view text) {
  return text.find("_muh_") != std::string_view::npos;
}

bool SubstituteMetavariables(std::string_view pattern, Substituted* out, std::size_t* error_offset,
                             std::string* error) {
  out->text.clear();
  out->metavariables.clear();
  out->pieces.clear();
  std::size_t copied_from = 0;
  auto copy_to = [&](std::size_t end) {
    if (end > copied_from) {
      out->pieces.push_back({out->text.size(), copied_from, 0});
      out->text.append(pattern.substr(copied_from, end - copied_from));
    }
  };
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '$') continue;
    Metavariable m;
    m.offset = i;
    std::size_t k = i + 1;
    if (pattern.substr(i, 3) == "$$$") {
      m.sequence = true;
      k = i + 3;
    }
    std::size_t name_end = k;
    while (name_end < pattern.size() && NameChar(pattern[name_end])) ++name_end;
    m.name = std::string(pattern.substr(k, name_end - k));
    if (!m.sequence && m.name.empty()) {
      *error_offset = i;
      *error = "'$' starts no metavariable: write $NAME for one node, $$$ for a run of them";
      return false;
    }
    if (std::isdigit(static_cast<unsigned char>(m.name.empty() ? 'a' : m.name[0])) != 0 ||
        (m.name.size() > 1 && m.name[0] == '_')) {
      *error_offset = i;
      *error = "a metavariable's name starts with a letter ('$_' alone is a node left uncaptured)";
      return false;
    }
    m.length = name_end - i;
    copy_to(i);
    std::string placeholder(m.sequence ? kSequencePrefix : kOnePrefix);
    placeholder += m.name == "_" ? "" : m.name;
    placeholder += "_";
    out->pieces.push_back({out->text.size(), i, placeholder.size()});
    out->text += placeholder;
    out->metavariables.push_back(std::move(m));
    copied_from = name_end;
    i = name_end - 1;
  }
  copy_to(pattern.size());
  return true;
}

}  // namespace muh
