#!/usr/bin/env python3
"""Site lists for comparing muhpatch with ast-grep.

  sites.py probe-rules RULES.yaml > PROBE.yaml
      A copy of RULES in which every rule rewrites its action capture to the
      identifier `muhbench_site`, with preconditions and done-when removed.
      Same `files:`, same `query:`, same `expect:`. With it, every site a
      query matches becomes an edit, so `muhpatch verify PROBE TREE` (no
      --patch) reports each one as `PATH:LINE:COL: error: drift: rule 'ID'`.
      (With the real rules, sites whose value is already right, and rules
      skipped by a precondition, produce no edit and so no line.)
  sites.py muhpatch ROOT < VERIFY_STDERR     -> "path:line:col rule-id" lines
  sites.py astgrep < AST_GREP_JSON_STREAM     -> "path:line:col rule-id" lines
      For ast-grep the site is the $SITE metavariable when the rule binds
      one (see astgrep/bi100.yml), else the matched node.
  sites.py literals RULES.yaml
      One literal per rule (the longest string its query compares a capture
      with by #eq?), unique, one per line: the `grep -rlF` floor's patterns.
  sites.py compare NAME_A A.txt NAME_B B.txt [--lines | --by-file]
      Exit 0 when the two sorted lists are equal (with --lines, compared as
      path:line rule-id; with --by-file, as a multiset of "path rule-id",
      for matches whose reported position differs by design, see below);
      prints what differs otherwise.
  sites.py minus A.txt B.txt [--by-file]
      The lines of A that are not in B (with --by-file: whose "path rule-id"
      is not in B).

verify's whole-tree search reports a match outside a rule's files at the
match's first capture (e.g. the `def` name), not at the action capture, so
those are compared per file and rule.

Columns: muhpatch prints 1-based byte columns, ast-grep 0-based character
columns (converted to 1-based here). They agree on ASCII lines, which all
knob lines are.
"""
import json
import re
import sys

ACTION_KEYS = ("replace", "delete", "append-to")
DROP_KEYS = ("preconditions", "done-when", "with", "entries") + ACTION_KEYS


def probe_rules(text):
    out = []
    in_rules = False
    dropping = False
    for line in text.splitlines(keepends=True):
        if re.match(r"^rules:\s*$", line):
            in_rules = True
            out.append(line)
            continue
        if in_rules and re.match(r"^\S", line) and not line.startswith("#"):
            in_rules = False  # a later top-level key
        if not in_rules:
            out.append(line)
            continue
        m = re.match(r"^(    |  - )([a-z][a-z-]*):(.*)$", line.rstrip("\n"))
        if m:
            key, rest = m.group(2), m.group(3).strip()
            dropping = key in DROP_KEYS
            if key in ACTION_KEYS:
                cap = rest.split("#")[0].strip()
                out.append(f"    replace: {cap}\n")
                out.append('    with: "muhbench_site"\n')
            if not dropping:
                out.append(line)
            continue
        if dropping and (line.strip() == "" or line.startswith("     ") or line.lstrip().startswith("#")):
            continue  # the dropped key's continuation lines
        dropping = False
        out.append(line)
    return "".join(out)


def muhpatch_sites(root, stream):
    root = root.rstrip("/") + "/"
    pat = re.compile(r"^(.*?):(\d+):(\d+): error: drift: rule '([^']+)'")
    out = []
    for line in stream:
        m = pat.match(line)
        if not m:
            continue
        path = m.group(1)
        if path.startswith(root):
            path = path[len(root):]
        if path.startswith("./"):
            path = path[2:]
        out.append(f"{path}:{m.group(2)}:{m.group(3)} {m.group(4)}")
    return sorted(set(out))


def astgrep_sites(stream):
    out = []
    for line in stream:
        line = line.strip()
        if not line:
            continue
        d = json.loads(line)
        node = d.get("metaVariables", {}).get("single", {}).get("SITE", d)
        start = node["range"]["start"]
        path = d["file"][2:] if d["file"].startswith("./") else d["file"]
        out.append(f"{path}:{start['line'] + 1}:{start['column'] + 1} {d['ruleId']}")
    return sorted(set(out))


def literals(text):
    out = []
    for block in re.split(r"\n  - id: ", text)[1:]:
        query = re.split(r"\n    (?:preconditions|done-when|replace|delete|append-to|with):", block)[0]
        eqs = re.findall(r'#eq\? @[\w-]+ "([^"]+)"', query)
        if eqs:
            best = max(eqs, key=len)
            if best not in out:
                out.append(best)
    return out


def compare(name_a, path_a, name_b, path_b, mode):
    def load(p):
        with open(p) as f:
            items = [l.strip() for l in f if l.strip()]
        if mode == "--lines":
            items = [re.sub(r"^(.*:\d+):\d+ ", r"\1 ", s) for s in items]
        if mode == "--by-file":
            return sorted(re.sub(r"^(.*):\d+:\d+ ", r"\1 ", s) for s in items)
        return sorted(set(items))
    a, b = load(path_a), load(path_b)
    if a == b:
        print(f"same {len(a)} sites")
        return 0
    for s in sorted(set(a) - set(b)):
        print(f"only {name_a}: {s}")
    for s in sorted(set(b) - set(a)):
        print(f"only {name_b}: {s}")
    if set(a) == set(b):
        print(f"same sites, different counts: {len(a)} vs {len(b)}")
    return 1


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "probe-rules":
        with open(sys.argv[2]) as f:
            sys.stdout.write(probe_rules(f.read()))
    elif cmd == "muhpatch":
        for s in muhpatch_sites(sys.argv[2], sys.stdin):
            print(s)
    elif cmd == "astgrep":
        for s in astgrep_sites(sys.stdin):
            print(s)
    elif cmd == "literals":
        with open(sys.argv[2]) as f:
            print("\n".join(literals(f.read())))
    elif cmd == "compare":
        mode = sys.argv[6] if len(sys.argv) > 6 else ""
        sys.exit(compare(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], mode))
    elif cmd == "minus":
        key = (lambda l: re.sub(r"^(.*):\d+:\d+ ", r"\1 ", l)) if "--by-file" in sys.argv else (lambda l: l)
        with open(sys.argv[3]) as f:
            drop = {key(l.strip()) for l in f}
        with open(sys.argv[2]) as f:
            for l in f:
                if l.strip() and key(l.strip()) not in drop:
                    print(l.strip())
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
