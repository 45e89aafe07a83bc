#include "engine/python/later_transforms.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

namespace {

// "KEY@LINE" for each transform of the first `value` after `anchor` in
// `source`, "?" marking one that repeats.
std::string Of(const std::string& source, const std::string& anchor, const std::string& value) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  REQUIRE(!tree.HasError());
  std::size_t at = source.find(value, source.find(anchor));
  REQUIRE(at != std::string::npos);
  std::string out;
  for (const SelfTransform& t : LaterTransforms(tree, at, at + value.size())) {
    out +=
        (out.empty() ? "" : " ") + t.Key() + "@" + std::to_string(t.line) + (t.repeats ? "?" : "");
  }
  return out;
}

}  // namespace

TEST_CASE("the statements that compute the assigned value from itself, after it") {
  std::string f =
      "def f(q):\n"
      "    BLOCK = 128 if cap else 64\n"
      "    if q:\n"
      "        BLOCK = BLOCK // 2\n"
      "    BLOCK += 16\n"
      "    BLOCK = min(BLOCK, q)\n"
      "    OTHER = BLOCK * 2\n"
      "    return BLOCK\n";
  // min() reads BLOCK: a transform with no operator muhpatch evaluates.
  CHECK(Of(f, "BLOCK =", "64") == "// 2@4 + 16@5  ?@6");
}

TEST_CASE("a dict key's value, through the dict display or the key") {
  std::string f =
      "def f(numel, fp8):\n"
      "    config = {'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 32}\n"
      "    if numel <= 64:\n"
      "        config['BLOCK_SIZE_M'] = 16\n"
      "    elif numel <= 1024:\n"
      "        config['BLOCK_SIZE_M'] = 32\n"
      "        if fp8:\n"
      "            config[\"BLOCK_SIZE_M\"] //= 2\n"
      "    for _ in range(2):\n"
      "        config['BLOCK_SIZE_N'] *= 2\n"
      "    return config\n";
  // Tier 1 is another branch than the halving: nothing follows it there.
  CHECK(Of(f, "<= 64", "16").empty());
  CHECK(Of(f, "<= 1024", "32") == "// 2@8");
  CHECK(Of(f, "config = ", "64") == "// 2@8");
  CHECK(Of(f, "config = ", "32") == "* 2@10?");
}

TEST_CASE("a key written with a prefix is the key its value names") {
  // A helper probe of 3cee5a3: config[f"BLOCK_SIZE_M"] //= 4 was taken for
  // another key; the kernel got 4.
  std::string f =
      "def f(m):\n"
      "    config = {'BLOCK_SIZE_M': 64}\n"
      "    if m:\n"
      "        config[f\"BLOCK_SIZE_M\"] //= 4\n"
      "    config[r'BLOCK_SIZE_M'] += 16\n"
      "    config[b'BLOCK_SIZE_M'] = 8\n"
      "    config['BLOCK_SIZE_N'] = 8\n"
      "    return config\n";
  // Not evaluated (the key's text differs), but no longer passed over:
  // each is a transform the gate refuses, naming its line.
  CHECK(Of(f, "config = ", "64") == " ?@4  ?@5");
  // A key whose value is not known may be it: a transform not evaluated.
  std::string g =
      "def f(k):\n"
      "    config = {'BLOCK_SIZE_M': 64, f'{k}': 8}\n"
      "    config['\\x42LOCK_SIZE_M'] = 2\n"
      "    return config\n";
  CHECK(Of(g, "config = ", "64") == " ?@2  ?@3");
}

TEST_CASE(
    "closed world: a computed value ends only in a statement, a positional argument, a test or a "
    "return") {
  // A helper probe of 3cee5a3: each line gave the kernel BLOCK_M 8 with
  // exit 0. Followed: the launch's keyword, a test, a size.
  const char* escapes[] = {
      "    k[(1,)](q, **{'BLOCK_M': BLOCK // 4})\n",
      "    k[(1,)](q, BLOCK_M=min({BLOCK // 4}))\n",
      "    k[(1,)](q, BLOCK_M=[*[BLOCK // 4]][0])\n",
      "    k[(1,)](q, BLOCK_M=next(b // 4 for b in [BLOCK]))\n",
      "    k[(1,)](q, BLOCK_M=int(f'{BLOCK // 4}'))\n",
      "    kw = dict(BLOCK_M=BLOCK)\n",
      "    _launch(q, blk=BLOCK)\n",
      "    ns = types.SimpleNamespace(**{'B': BLOCK})\n",
  };
  for (const char* line : escapes) {
    std::string f = std::string("def _launch(q, blk):\n    k[(1,)](q, BLOCK_M=blk // 4)\n\n") +
                    "def f(q):\n    BLOCK = 64\n" + line + "    return q\n";
    CHECK_MESSAGE(!Of(f, "BLOCK = ", "64").empty(), std::string(line));
  }
  const char* followed[] = {
      "    grid = (q, triton.cdiv(q, BLOCK))\n    k[grid](q, BLOCK_M=BLOCK)\n",
      "    if BLOCK // 2 > 8:\n        pass\n",
      "    _launch(q, blk=BLOCK)\n",  // its parameter, passed on whole
  };
  for (const char* line : followed) {
    std::string f = std::string("def _launch(q, blk):\n    k[(1,)](q, BLOCK_M=blk)\n\n") +
                    "def f(q):\n    BLOCK = 64\n" + line + "    return q\n";
    CHECK_MESSAGE(Of(f, "BLOCK = ", "64").empty(), std::string(line));
  }
}

TEST_CASE("applied as Python computes it") {
  auto make = [](std::string op, std::optional<int64_t> operand) {
    SelfTransform t;
    t.op = std::move(op);
    t.operand = operand;
    return t;
  };
  SelfTransform half = make("//", 2);
  CHECK(half.Apply(33) == 16);
  CHECK(half.Apply(-3) == -2);  // floor
  SelfTransform zero = make("//", 0);
  CHECK_FALSE(zero.Apply(4));
  SelfTransform shift = make("<<", 1);
  CHECK(shift.Apply(16) == 32);
  // One key for the shift and the product or floor division it is.
  CHECK(shift.Key() == "* 2");
  CHECK(make(">>", 1).Key() == "// 2");
  CHECK(make(">>", 3).Key() == "// 8");
  CHECK(make(">>", 1).Apply(-5) == -3);  // as -5 // 2
  CHECK(make("//", 2).Key() == "// 2");
  SelfTransform unknown = make("", std::nullopt);
  CHECK_FALSE(unknown.Apply(4));
  CHECK(unknown.Key() == " ?");
}

TEST_CASE("through an alias, a merge into the dict, or a caller that binds the result") {
  // Helper probe: each halved the written BLOCK_SIZE_M past the gate.
  std::string alias =
      "def f(q):\n"
      "    config = {'M': 64}\n"
      "    bm = config['M']\n"
      "    config['M'] = bm // 2\n"
      "    return config\n";
  CHECK(Of(alias, "config =", "64") == " ?@4");
  std::string merge =
      "def f(q):\n"
      "    config = {'M': 64}\n"
      "    config.update(OTHER=1)\n"
      "    config.update(M=config['M'] // 2)\n"
      "    config |= q\n"
      "    config.update(q)\n"
      "    return config\n";
  CHECK(Of(merge, "config =", "64") == " ?@4  ?@5  ?@6");
  std::string caller =
      "def f(q):\n"
      "    config = {'M': 64}\n"
      "    return config\n"
      "def g(q):\n"
      "    cfg = f(q)\n"
      "    cfg['M'] //= 2\n"
      "    return cfg\n"
      "def h(q):\n"
      "    c = g(q)\n"
      "    c['M'] += 16\n";
  CHECK(Of(caller, "config =", "64") == "// 2@6 + 16@10");
}

TEST_CASE("closed world: a later use the gate does not follow is a transform it cannot evaluate") {
  // Helper probe of 79d4d6a: each of these changed what the kernel got,
  // with exit 0. The dict's value: an alias of the whole dict, a helper
  // that takes it, a key computed at run time, .get, a copy, a decorator.
  const std::string head = "def f(q):\n    config = {'M': 64, 'N': 32}\n";
  CHECK(Of(head + "    c = config\n    c['M'] //= 2\n    return config\n", "config =", "64") ==
        "// 2@4");
  CHECK(Of("def _halve(d):\n    d['M'] //= 2\n" + head + "    _halve(config)\n    return config\n",
           "config =", "64") == "// 2@2");
  CHECK(Of(head + "    k = 'M'\n    config[k] //= 2\n", "config =", "64") == " ?@4");
  CHECK(Of(head + "    config['M'] = config.get('M') // 2\n", "config =", "64") == " ?@3");
  CHECK(Of(head + "    config = dict(config, M=1)\n", "config =", "64") == " ?@3");
  CHECK(Of(head + "    config = {**config, **q}\n", "config =", "64") == " ?@3");
  CHECK(Of(head + "    log(config)\n", "config =", "64") == " ?@3");
  CHECK(Of("@deco\n" + head + "    return config\n", "config =", "64") == " ?@1");
  // functools' caches return what the body returns.
  CHECK(Of("import functools\n@functools.lru_cache(maxsize=None)\n" + head + "    return config\n",
           "config =", "64")
            .empty());
  CHECK(Of("from functools import cache\n@cache\n" + head + "    return config\n", "config =", "64")
            .empty());
  CHECK(Of("from functools import cache as c\n@cache\n" + head + "    return config\n",
           "config =", "64") == " ?@2");
  // A `**splat` or the same key after the entry in the display.
  CHECK(Of("def f(q):\n    config = {'M': 64, **q}\n", "config =", "64") == " ?@2");
  // Followed: another key, the key passed whole or tested, the dict
  // returned, splatted into a launch, or passed to a function of the file.
  CHECK(Of("def k(x, cfg):\n    return launch[x](**cfg)\n" + head +
               "    config['N'] = 16\n    if config['M'] > 8:\n        run(config['M'], "
               "b=config.get('N'))\n    k(1, config)\n    return config\n",
           "config =", "64")
            .empty());
  // Splatted into any other call, it is not followed (3cee5a3's probe:
  // SimpleNamespace(**config), then vars(ns)).
  CHECK(Of("def k(x, cfg):\n    return launch(**cfg)\n" + head + "    k(1, config)\n",
           "config =", "64") == " ?@2");
  // The name's value: in arithmetic passed by keyword, a `:=` of it, an
  // alias halved; a size computed from it and passed by position is not
  // the knob (muhpatch-rules(5)).
  const std::string block = "def g(q):\n    BLOCK = 64\n";
  CHECK(Of(block + "    k[1](BLOCK_M=BLOCK // 2)\n", "BLOCK =", "64") == " ?@3");
  CHECK(Of(block + "    n = cdiv(q, (BLOCK := BLOCK // 2))\n", "BLOCK =", "64") == " ?@3");
  CHECK(Of(block + "    B = BLOCK\n    B //= 2\n    k[1](BLOCK_M=B)\n", "BLOCK =", "64") ==
        "// 2@4");
  CHECK(Of(block + "    pad = q * (BLOCK - 1)\n    k[1](pad, BLOCK_M=BLOCK)\n", "BLOCK =", "64")
            .empty());
}

TEST_CASE("closed world: a computed value, through calls, containers and names") {
  // A second helper probe (f93f1eb): each gave the kernel 8 or 4, exit 0.
  const std::string block = "def g(q):\n    BLOCK = 64\n";
  CHECK(Of(block + "    k[1](q,\n         BLOCK_M=int(BLOCK / 4))\n", "BLOCK =", "64") == " ?@4");
  CHECK(Of(block + "    k[1](BLOCK_M=_h(BLOCK))\n", "BLOCK =", "64") == " ?@3");
  // The store into the list is refused too, since 3cee5a3's probe.
  CHECK(Of(block + "    l = [BLOCK]\n    l[0] //= 4\n    k[1](BLOCK_M=l[0])\n", "BLOCK =", "64") ==
        " ?@4  ?@5");
  CHECK(Of(block + "    B2 = BLOCK // 4\n    k[1](BLOCK_M=B2)\n", "BLOCK =", "64") == " ?@4");
  // A name bound anew after it: a literal is checked as what the kernel
  // gets on that path.
  CHECK(Of(block + "    if q:\n        BLOCK = 8\n    k[1](BLOCK_M=BLOCK)\n", "BLOCK =", "64") ==
        "= 8@4");
  // Sizes and counts: a positional argument, a statement of its own.
  CHECK(Of(block + "    grid = (q, cdiv(q, BLOCK))\n    k[grid](BLOCK_M=BLOCK)\n", "BLOCK =", "64")
            .empty());
  const std::string head = "def f(q):\n    config = {'M': 64, 'N': 32}\n";
  // `**config` into a function of the file, the knob into another key, exec.
  CHECK(Of("def _fix(**kw):\n    kw['M'] //= 4\n    return kw\n" + head +
               "    return _fix(**config)\n",
           "config =", "64") == " ?@6");
  CHECK(Of(head + "    config['N'] = config['M'] // 4\n", "config =", "64") == " ?@3");
  CHECK(Of(head + "    exec(\"config['M'] = 8\")\n", "config =", "64") == " ?@3");
  // Reads only: logging, len, print, str.
  CHECK(Of(head + "    logger.debug('%s', config)\n    assert len(config) == 2\n    print(config)\n"
                  "    s = str(config)\n    return config\n",
           "config =", "64")
            .empty());
}

TEST_CASE("an annotated name without a value, and a decorated class, are no crash") {
  // The rewrite judge's `annotated` shape: `BLOCK: int` after the value.
  CHECK(Of("def g(q):\n    BLOCK: int = 64\n    BLOCK: int\n    k[1](BLOCK_M=BLOCK)\n",
           "BLOCK:", "64")
            .empty());
  // A helper probe's SIGSEGV: `m: int` has no right side.
  CHECK(Of("@dataclass\nclass Cfg:\n    m: int\n\n    def f(self):\n        knob = 128\n"
           "        return knob\n",
           "knob =", "128")
            .empty());
}

TEST_CASE("a value in a decision: the statements that compute the decision from itself") {
  std::string f =
      "def f(max_seq_len, n):\n"
      "    use_v1 = (max_seq_len <= 8192\n"
      "              and (n == 1 or n > 512))\n"
      "    use_v1 = use_v1 or max_seq_len < 32768\n"
      "    use_v1 |= n == 0\n"
      "    other = use_v1\n"
      "    if use_v1:\n"
      "        return 1\n";
  CHECK(Of(f, "use_v1 =", "8192") == " ?@4  ?@5");
  CHECK(Of(f, "use_v1 =", "512") == " ?@4  ?@5");
  // A new decision that does not read the first is the liveness analysis's
  // (an overwrite), and a test that is no assignment's decides nothing here.
  std::string g =
      "def g(max_seq_len):\n"
      "    use_v1 = max_seq_len <= 8192\n"
      "    use_v1 = True\n"
      "    if max_seq_len <= 4096:\n"
      "        return use_v1\n";
  CHECK(Of(g, "use_v1 =", "8192") == "");
  CHECK(Of(g, "if max", "4096") == "");
  // The test inside a call or a conditional still decides the name, and a
  // walrus recomputes it too (a review of 8dc525c).
  std::string h =
      "def h(max_seq_len):\n"
      "    use_v1 = bool(max_seq_len <= 8192)\n"
      "    v2 = True if (max_seq_len <= 4096) else False\n"
      "    if (use_v1 := use_v1 or max_seq_len < 32768):\n"
      "        pass\n"
      "    v2 = v2 and max_seq_len > 16\n"
      "    return use_v1, v2\n";
  CHECK(Of(h, "use_v1 =", "8192") == " ?@4");
  CHECK(Of(h, "v2 =", "4096") == " ?@6");
}

TEST_CASE("a read of the target next to a keyword is a read (`X if c else config['K']`)") {
  std::string f =
      "def f(x):\n"
      "    config = {'K': 64}\n"
      "    config['K'] = 16 if x else config['K']\n"
      "    BLOCK = 64\n"
      "    BLOCK = 32 if not BLOCK else BLOCK\n"
      "    return config, BLOCK\n";
  CHECK(Of(f, "config =", "64") == " ?@3  ?@6");  // @6: returned, to no caller seen
  CHECK(Of(f, "BLOCK =", "64") == " ?@5  ?@6");
}

TEST_CASE("a module constant: every later binding of its name in the module is followed") {
  std::string f =
      "import os\n"
      "_P = 256\n"
      "_P = 512\n"
      "_P *= 2\n"
      "_P, _X = 256, 1\n"
      "for _P in (1,):\n"
      "    pass\n"
      "xs = [_P for _P in range(3)]\n"
      "def set_it():\n"
      "    global _P\n"
      "    _P = 1\n"
      "def local():\n"
      "    _P = 2\n"
      "    return _P\n"
      "class K:\n"
      "    _P = 3\n"
      "from other import *\n";
  // The module's bindings after it, and set_it's global write, each a
  // statement not followed (` ?`); not the binding before it or a
  // comprehension's. (The `=` ones are the statements of the whole module
  // that assign the name alike, a def's local and a class attribute
  // included: values the gate checks too.) A star import after it may bind
  // it too.
  CHECK(Of(f, "_P = 512", "512") == "* 2@4  ?@4  ?@5  ?@6 = 1@11  ?@11 = 2@13 = 3@16  ?@17");
}

}  // namespace muh
