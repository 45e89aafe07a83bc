#include "engine/model/constraint.h"

#include <fmt/format.h>

#include <cctype>
#include <limits>

#include "engine/python/py_literal.h"

namespace muh {

namespace {

struct Token {
  enum class Kind { kNumber, kName, kOp, kEnd } kind = Kind::kEnd;
  std::string text;
  std::size_t offset = 0;
};

struct Failure {
  std::string message;
  std::size_t offset;
};

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<Token> Tokens(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    Token t;
    t.offset = i;
    if (std::isdigit(static_cast<unsigned char>(c))) {
      // Numbers are Python's integer literals (a tier bound is Python text):
      // `1_024`, `0x40`, `0o100`, `0b1000000`.
      std::size_t j = i;
      std::optional<int64_t> v = ReadIntegerLiteral(s, &j);
      if (!v) {
        std::size_t e = i;
        while (e < s.size() && IsNameChar(s[e])) ++e;
        std::string_view text = s.substr(i, e - i);
        bool digits = text[0] != '0' && text.find_first_not_of("0123456789_") == text.npos;
        throw Failure{digits ? std::string("the number is too large")
                             : fmt::format("`{}` is no integer literal", text),
                      i};
      }
      t.kind = Token::Kind::kNumber;
      t.text = std::to_string(*v);
      i = j;
    } else if (IsNameChar(c)) {
      std::size_t j = i;
      while (j < s.size() && IsNameChar(s[j])) ++j;
      t.kind = Token::Kind::kName;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else {
      static const char* kOps[] = {"//", "==", "!=", "<=", ">=", "<", ">",
                                   "*",  "%",  "+",  "-",  "(",  ")"};
      for (const char* op : kOps) {
        if (s.substr(i).rfind(op, 0) == 0) {
          t.text = op;
          break;
        }
      }
      if (t.text.empty() && c == '=') {
        throw Failure{"'=' does not compare; write '==' (or '<=', '>=')", i};
      }
      if (t.text.empty()) {
        throw Failure{fmt::format("'{}' is not part of the constraint language (numbers, names, "
                                  "+ - * // %, comparisons, and/or/not, parentheses)",
                                  c),
                      i};
      }
      t.kind = Token::Kind::kOp;
      i += t.text.size();
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.offset = s.size();
  out.push_back(end);
  return out;
}

bool IsCompare(const std::string& op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  ConstraintExpr Whole() {
    ConstraintExpr e = Or();
    if (Peek().kind != Token::Kind::kEnd) throw Failure{Unexpected(Peek()), Peek().offset};
    return e;
  }

 private:
  const Token& Peek() const { return t_[i_]; }
  bool PeekWord(const char* w) const {
    return Peek().kind == Token::Kind::kName && Peek().text == w;
  }
  bool PeekOp(const char* op) const { return Peek().kind == Token::Kind::kOp && Peek().text == op; }
  static std::string Unexpected(const Token& t) {
    return t.kind == Token::Kind::kEnd ? "the constraint ends where a value was expected"
                                       : fmt::format("unexpected '{}'", t.text);
  }

  static ConstraintExpr Node(ConstraintExpr::Op op, std::vector<ConstraintExpr> kids) {
    ConstraintExpr e;
    e.op = op;
    e.kids = std::move(kids);
    return e;
  }

  ConstraintExpr Or() {
    ConstraintExpr e = And();
    while (PeekWord("or")) {
      ++i_;
      e = Node(ConstraintExpr::Op::kOr, {std::move(e), And()});
    }
    return e;
  }
  ConstraintExpr And() {
    ConstraintExpr e = Not();
    while (PeekWord("and")) {
      ++i_;
      e = Node(ConstraintExpr::Op::kAnd, {std::move(e), Not()});
    }
    return e;
  }
  // Hostile input must not exhaust the stack: nesting is bounded.
  void Deeper() {
    if (++depth_ > kMaxDepth) throw Failure{"the constraint nests too deeply", Peek().offset};
  }

  ConstraintExpr Not() {
    if (PeekWord("not")) {
      Deeper();
      ++i_;
      return Node(ConstraintExpr::Op::kNot, {Not()});
    }
    return Compare();
  }
  ConstraintExpr Compare() {
    ConstraintExpr first = Sum();
    if (Peek().kind != Token::Kind::kOp || !IsCompare(Peek().text)) return first;
    ConstraintExpr e = Node(ConstraintExpr::Op::kCompare, {std::move(first)});
    while (Peek().kind == Token::Kind::kOp && IsCompare(Peek().text)) {
      e.compares.push_back(t_[i_++].text);
      e.kids.push_back(Sum());
    }
    return e;
  }
  ConstraintExpr Sum() {
    ConstraintExpr e = Product();
    while (PeekOp("+") || PeekOp("-")) {
      auto op = t_[i_++].text == "+" ? ConstraintExpr::Op::kAdd : ConstraintExpr::Op::kSub;
      e = Node(op, {std::move(e), Product()});
    }
    return e;
  }
  ConstraintExpr Product() {
    ConstraintExpr e = Unary();
    while (PeekOp("*") || PeekOp("//") || PeekOp("%")) {
      const std::string& op = t_[i_++].text;
      auto kind = op == "*"    ? ConstraintExpr::Op::kMul
                  : op == "//" ? ConstraintExpr::Op::kFloorDiv
                               : ConstraintExpr::Op::kMod;
      e = Node(kind, {std::move(e), Unary()});
    }
    return e;
  }
  ConstraintExpr Unary() {
    if (PeekOp("-")) {
      Deeper();
      ++i_;
      return Node(ConstraintExpr::Op::kNeg, {Unary()});
    }
    return Primary();
  }
  ConstraintExpr Primary() {
    const Token& t = Peek();
    ConstraintExpr e;
    if (t.kind == Token::Kind::kNumber) {
      std::string digits;
      for (char c : t.text) {
        if (c != '_') digits += c;
      }
      try {
        e.number = std::stoll(digits);
      } catch (const std::exception&) {
        throw Failure{"the number is too large", t.offset};
      }
      ++i_;
      return e;
    }
    if (t.kind == Token::Kind::kName) {
      if (t.text == "and" || t.text == "or" || t.text == "not")
        throw Failure{Unexpected(t), t.offset};
      ++i_;
      if (t.text == "True" || t.text == "False") {
        e.number = t.text == "True" ? 1 : 0;
        return e;
      }
      e.op = ConstraintExpr::Op::kName;
      e.name = t.text;
      return e;
    }
    if (PeekOp("(")) {
      std::size_t open = t.offset;
      Deeper();
      ++i_;
      e = Or();
      if (!PeekOp(")")) throw Failure{"'(' is not closed", open};
      ++i_;
      return e;
    }
    throw Failure{Unexpected(t), t.offset};
  }

  static constexpr int kMaxDepth = 64;
  std::vector<Token> t_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

void CollectNames(const ConstraintExpr& e, std::vector<std::string>* out) {
  if (e.op == ConstraintExpr::Op::kName) {
    for (const std::string& n : *out) {
      if (n == e.name) return;
    }
    out->push_back(e.name);
  }
  for (const ConstraintExpr& k : e.kids) CollectNames(k, out);
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool Compares(const std::string& op, int64_t a, int64_t b) {
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == "<") return a < b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  return a >= b;
}

int64_t Checked(int64_t a, int64_t b, ConstraintExpr::Op op) {
  int64_t r = 0;
  bool overflow = op == ConstraintExpr::Op::kMul   ? __builtin_mul_overflow(a, b, &r)
                  : op == ConstraintExpr::Op::kAdd ? __builtin_add_overflow(a, b, &r)
                                                   : __builtin_sub_overflow(a, b, &r);
  if (overflow) throw Failure{"overflow", 0};
  return r;
}

int64_t Value(const ConstraintExpr& e, const NameValue& value) {
  using Op = ConstraintExpr::Op;
  switch (e.op) {
    case Op::kNumber:
      return e.number;
    case Op::kName: {
      std::optional<int64_t> v = value(e.name);
      if (!v) throw Failure{fmt::format("'{}' has no whole-number value", e.name), 0};
      return *v;
    }
    case Op::kNeg:
      return Checked(0, Value(e.kids[0], value), Op::kSub);
    case Op::kNot:
      return Value(e.kids[0], value) == 0 ? 1 : 0;
    case Op::kAnd:
      return Value(e.kids[0], value) != 0 && Value(e.kids[1], value) != 0 ? 1 : 0;
    case Op::kOr:
      return Value(e.kids[0], value) != 0 || Value(e.kids[1], value) != 0 ? 1 : 0;
    case Op::kCompare: {
      int64_t left = Value(e.kids[0], value);
      for (std::size_t i = 0; i < e.compares.size(); ++i) {
        int64_t right = Value(e.kids[i + 1], value);
        if (!Compares(e.compares[i], left, right)) return 0;
        left = right;
      }
      return 1;
    }
    default:
      break;
  }
  int64_t a = Value(e.kids[0], value);
  int64_t b = Value(e.kids[1], value);
  if ((e.op == Op::kFloorDiv || e.op == Op::kMod) && b == 0) throw Failure{"division by zero", 0};
  if (e.op == Op::kFloorDiv || e.op == Op::kMod) {
    if (a == std::numeric_limits<int64_t>::min() && b == -1) throw Failure{"overflow", 0};
    int64_t q = FloorDiv(a, b);
    return e.op == Op::kFloorDiv ? q : a - q * b;
  }
  return Checked(a, b, e.op);
}

}  // namespace

ConstraintParse ParseConstraint(std::string_view text, std::string reason) {
  ConstraintParse out;
  try {
    Constraint c;
    c.text = std::string(text);
    c.reason = std::move(reason);
    c.expr = Parser(Tokens(text)).Whole();
    out.constraint = std::move(c);
  } catch (const Failure& f) {
    out.error = f.message;
    out.offset = f.offset;
  }
  return out;
}

std::vector<std::string> ConstraintNames(const Constraint& c) {
  std::vector<std::string> names;
  CollectNames(c.expr, &names);
  return names;
}

ConstraintValue EvaluateConstraint(const Constraint& c, const NameValue& value) {
  ConstraintValue out;
  try {
    out.holds = Value(c.expr, value) != 0;
  } catch (const Failure& f) {
    out.error = f.message;
  }
  return out;
}

IntegerValue EvaluateInteger(const Constraint& c, const NameValue& value) {
  IntegerValue out;
  try {
    out.value = Value(c.expr, value);
  } catch (const Failure& f) {
    out.error = f.message;
  }
  return out;
}

}  // namespace muh
