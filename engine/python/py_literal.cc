#include "engine/python/py_literal.h"

#include <cctype>
#include <cstdint>

#include "engine/base/text.h"

namespace muh {

std::optional<int64_t> ReadIntegerLiteral(std::string_view s, std::size_t* at) {
  std::size_t i = *at;
  int base = 10;
  if (i + 1 < s.size() && s[i] == '0') {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i + 1])));
    base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 10;
    if (base != 10) i += 2;
  }
  std::size_t start = i;
  int64_t v = 0;
  bool digit_before = base != 10;  // `0x_1f` is valid: `_` after the prefix
  int digits = 0;
  bool leading_zero = false, nonzero = false;
  while (i < s.size()) {
    char c = s[i];
    if (c == '_') {
      if (!digit_before || i + 1 >= s.size()) return std::nullopt;
      digit_before = false;
      ++i;
      continue;
    }
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : std::isxdigit(static_cast<unsigned char>(c))
                ? 10 + std::tolower(static_cast<unsigned char>(c)) - 'a'
                : -1;
    if (d < 0 || d >= base) {
      if (std::isalnum(static_cast<unsigned char>(c))) return std::nullopt;  // `0x2g`, `8e3`
      break;
    }
    if (digits == 0 && d == 0) leading_zero = true;
    if (d != 0) nonzero = true;
    if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v)) {
      return std::nullopt;
    }
    digit_before = true;
    ++digits;
    ++i;
  }
  if (digits == 0 || !digit_before || i == start) return std::nullopt;
  if (base == 10 && leading_zero && nonzero) return std::nullopt;  // `032`
  *at = i;
  return v;
}

namespace {

// Recursive-descent evaluator over a tiny, overflow-checked integer grammar.
class IntEval {
 public:
  explicit IntEval(std::string_view s) : s_(s) {}

  std::optional<int64_t> Run() {
    auto v = Or();
    Skip();
    if (!v || i_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void Skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  bool Eat(std::string_view tok) {
    Skip();
    if (s_.substr(i_, tok.size()) != tok) return false;
    i_ += tok.size();
    return true;
  }
  // Python's binary levels below `+`: `|`, then `^`, then `&`, then the
  // shifts (`1 << 4` is 16; a negative count is an error, no value).
  std::optional<int64_t> Or() {
    auto v = Xor();
    while (v && !Ahead("||") && Eat("|")) {
      auto r = Xor();
      if (!r) return std::nullopt;
      *v |= *r;
    }
    return v;
  }
  std::optional<int64_t> Xor() {
    auto v = And();
    while (v && Eat("^")) {
      auto r = And();
      if (!r) return std::nullopt;
      *v ^= *r;
    }
    return v;
  }
  std::optional<int64_t> And() {
    auto v = Shift();
    while (v && !Ahead("&&") && Eat("&")) {
      auto r = Shift();
      if (!r) return std::nullopt;
      *v &= *r;
    }
    return v;
  }
  std::optional<int64_t> Shift() {
    auto v = Sum();
    while (v) {
      bool left = Eat("<<");
      if (!left && !Eat(">>")) break;
      auto n = Sum();
      if (!n || *n < 0) return std::nullopt;
      if (left) {
        if (*v != 0 && (*n > 62 || __builtin_mul_overflow(*v, int64_t{1} << *n, &*v))) {
          return std::nullopt;
        }
      } else {
        v = *n > 63 ? (*v < 0 ? -1 : 0) : *v >> *n;  // floors, as Python's
      }
    }
    return v;
  }
  bool Ahead(std::string_view tok) {
    Skip();
    return s_.substr(i_, tok.size()) == tok;
  }
  std::optional<int64_t> Sum() {
    auto v = Product();
    while (v) {
      if (Eat("+")) {
        auto r = Product();
        if (!r || __builtin_add_overflow(*v, *r, &*v)) return std::nullopt;
      } else if (Eat("-")) {
        auto r = Product();
        if (!r || __builtin_sub_overflow(*v, *r, &*v)) return std::nullopt;
      } else {
        break;
      }
    }
    return v;
  }
  std::optional<int64_t> Product() {
    auto v = Unary();
    while (v) {
      Skip();
      if (s_.substr(i_, 2) == "**") break;
      if (Eat("//") || Eat("%")) {
        bool mod = s_[i_ - 1] == '%';
        auto r = Unary();
        if (!r || *r == 0) return std::nullopt;
        int64_t q = *v / *r;
        if ((*v % *r != 0) && ((*v < 0) != (*r < 0))) --q;  // floor division
        v = mod ? *v - q * *r : q;
      } else if (Eat("*")) {
        auto r = Unary();
        if (!r || __builtin_mul_overflow(*v, *r, &*v)) return std::nullopt;
      } else {
        break;
      }
    }
    return v;
  }
  // Python's u_expr: a sign binds looser than `**` (`-2 ** 2` is -4), and
  // an exponent may carry its own sign (`2 ** -1`).
  std::optional<int64_t> Unary() {
    Deeper deeper(this);
    if (!deeper.ok) return std::nullopt;
    if (Eat("-")) {
      auto v = Unary();
      if (!v || *v == INT64_MIN) return std::nullopt;
      return -*v;
    }
    if (Eat("+")) return Unary();
    if (Eat("~")) {  // -(x + 1)
      auto v = Unary();
      if (!v) return std::nullopt;
      return ~*v;
    }
    return Power();
  }
  std::optional<int64_t> Power() {
    auto base = Primary();
    if (base && Eat("**")) {
      auto e = Unary();
      if (!e || *e < 0 || *e > 62) return std::nullopt;  // a negative exponent gives a float
      int64_t r = 1;
      for (int64_t k = 0; k < *e; ++k) {
        if (__builtin_mul_overflow(r, *base, &r)) return std::nullopt;
      }
      return r;
    }
    return base;
  }
  std::optional<int64_t> Primary() {
    if (Eat("(")) {
      Deeper deeper(this);
      if (!deeper.ok) return std::nullopt;
      auto v = Or();
      if (!v || !Eat(")")) return std::nullopt;
      return v;
    }
    Skip();
    return Integer();
  }

  std::optional<int64_t> Integer() { return ReadIntegerLiteral(s_, &i_); }

  // Nesting past kMaxDepth (signs, parentheses) is no constant we read:
  // the evaluation gives up instead of exhausting the stack.
  static constexpr int kMaxDepth = 200;
  struct Deeper {
    explicit Deeper(IntEval* eval) : e(eval), ok(++eval->depth_ <= kMaxDepth) {}
    ~Deeper() { --e->depth_; }
    IntEval* e;
    bool ok;
  };
  int depth_ = 0;
  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<std::string> CanonicalLiteral(std::string_view text) {
  std::string_view t = Trim(text);
  if (t == "True" || t == "False" || t == "None") return std::string(t);
  if (t.size() >= 2 && (t.front() == '"' || t.front() == '\'') && t.back() == t.front()) {
    std::string_view inner = t.substr(1, t.size() - 2);
    if (inner.find_first_of("\\\"'") == std::string_view::npos)
      return "\"" + std::string(inner) + "\"";
    return std::nullopt;
  }
  if (auto v = IntEval(t).Run()) return std::to_string(*v);
  return std::nullopt;
}

bool SameValue(std::string_view a, std::string_view b) {
  if (a == b) return true;
  auto ca = CanonicalLiteral(a);
  auto cb = CanonicalLiteral(b);
  return ca && cb && *ca == *cb;
}

std::string DropEqualBranches(std::string_view text) {
  std::size_t if_at = text.find(" if ");
  std::size_t else_at = text.rfind(" else ");
  if (if_at == std::string_view::npos || else_at == std::string_view::npos || else_at < if_at) {
    return std::string(text);
  }
  std::string_view a = text.substr(0, if_at);
  std::string_view b = text.substr(else_at + 6);
  std::optional<std::string> va = CanonicalLiteral(a);
  std::optional<std::string> vb = CanonicalLiteral(b);
  if (!va || !vb || *va != *vb) return std::string(text);
  return std::string(a);
}

}  // namespace muh
