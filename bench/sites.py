#!/usr/bin/env python3
"""Site lists for comparing muhpatch with ast-grep.

  sites.py status < STATUS_JSON                -> "path:line rule-id" lines
      muhpatch's sites: one per row of `muhpatch status RULES TREE
      --include-dead --format json`, which lists every site each rule finds
      (live or dead, skipped by a precondition or not; a `tiers` rule's
      values and literal bounds, a `value-of` rule's values), with its line
      but no column.
  sites.py astgrep < AST_GREP_JSON_STREAM     -> "path:line:col rule-id" lines
      For ast-grep the site is the $SITE metavariable when the rule binds
      one (see astgrep/bi100.yml), else the matched node.
  sites.py same-text STATUS_JSON AST_GREP_JSON_STREAM
      Each status row's value now (`now`) must be the text of ast-grep's
      $SITE at the same file, line and rule (up to a `...` cut; an append-to
      row's "N entries" is skipped). Exit 1 and print what differs otherwise.
  sites.py muhpatch ROOT < VERIFY_STDERR      -> "path:line:col rule-id" lines
      The drift lines of `muhpatch verify` (its edits, or with grep, its
      moved-knob findings).
  sites.py edits ROOT SITES.txt < VERIFY_STDERR
      verify's edits, each prefixed "stray " unless it is one of SITES
      (ast-grep's path:line:col rule-id); an append-to insert ("would insert
      N lines") sits at the insertion point, so it is looked up per file and
      rule.
  sites.py literals RULES.yaml
      One literal per rule (the longest string its query compares a capture
      with by #eq?, a value-of rule's variable, or a pattern's longest
      word), unique, one per line: the `grep -rlF` floor's patterns.
  sites.py compare NAME_A A.txt NAME_B B.txt [--lines | --by-file | --files]
      Exit 0 when the two sorted lists are equal (with --lines, as a
      multiset of "path:line rule-id"; with --by-file, as a multiset of
      "path rule-id"; with --files, as a set of "path rule-id"; for sites
      whose reported position differs by design, see below); prints what
      differs otherwise.
  sites.py minus A.txt B.txt [--by-file]
      The lines of A that are not in B (with --by-file: whose "path rule-id"
      is not in B).

verify's whole-tree search reports a match outside a rule's files at the
match's first capture (e.g. the `def` name), not at the action capture, and
for a `value-of` or `tiers` rule its search query matches more than the
sites (every assignment of the variable in the function; each clause of the
chain, not the bounds), so those are compared as (file, rule) pairs.

Columns: muhpatch prints 1-based byte columns, ast-grep 0-based character
columns (converted to 1-based here). They agree on ASCII lines, which all
knob lines are.
"""
import json
import keyword
import re
import sys

def status_sites(stream):
    """`muhpatch status --format json` rows -> "path:line rule" (one per row)."""
    out = []
    for row in json.load(stream):
        path = row.get("file") or "?"
        if path.startswith("./"):
            path = path[2:]
        out.append(f"{path}:{row.get('line', 0)} {row['rule']}")
    return sorted(out)


def same_text(status_path, astgrep_path):
    """Each status row's `now` against the text of ast-grep's $SITE at the
    same file, line and rule. Rows whose `now` is a summary ("9 entries") or
    cut short ("...") are compared up to the cut. Returns the mismatches."""
    ag = {}
    with open(astgrep_path) as f:
        for line in f:
            if not line.strip():
                continue
            d = json.loads(line)
            node = d.get("metaVariables", {}).get("single", {}).get("SITE", d)
            path = d["file"][2:] if d["file"].startswith("./") else d["file"]
            key = (path, node["range"]["start"]["line"] + 1, d["ruleId"])
            ag.setdefault(key, []).append(" ".join(node["text"].split()))
    bad, n = [], 0
    with open(status_path) as f:
        rows = json.load(f)
    for row in rows:
        path = row["file"][2:] if row["file"].startswith("./") else row["file"]
        now = " ".join(str(row.get("now", "")).split())
        if re.fullmatch(r"\d+ entr(y|ies)", now):
            continue  # append-to: the list's entry count, not its text
        texts = ag.get((path, row.get("line"), row["rule"]), [])
        cut = now[:-3] if now.endswith("...") else None
        if any(t == now or (cut is not None and t.startswith(cut)) for t in texts):
            n += 1
        else:
            bad.append(f"{path}:{row.get('line')} {row['rule']}: muhpatch '{now}', ast-grep {texts}")
    return n, bad


def muhpatch_edits(root, stream):
    """verify's drift lines -> ("path:line:col rule", is an append-to insert)."""
    root = root.rstrip("/") + "/"
    pat = re.compile(r"^(.*?):(\d+):(\d+): error: drift: rule '([^']+)'(.*)$")
    out = set()
    for line in stream:
        m = pat.match(line)
        if not m:
            continue
        path = m.group(1)
        if path.startswith(root):
            path = path[len(root):]
        if path.startswith("./"):
            path = path[2:]
        out.add((f"{path}:{m.group(2)}:{m.group(3)} {m.group(4)}", " would insert " in m.group(5)))
    return sorted(out)


def muhpatch_sites(root, stream):
    return sorted({s for s, _ in muhpatch_edits(root, stream)})


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
        # Rules without a query: a value-of rule's variable, or a pattern's
        # words and strings (not its $metavariables).
        eqs += re.findall(r"\n    value-of:\s*\n      name: (\w+)", block)
        pattern = re.search(r"\n    pattern: (.*)", block)
        if pattern:
            eqs += [w for w in re.findall(r"(?<![$\w])[A-Za-z_]\w*", pattern.group(1))
                    if not keyword.iskeyword(w)]
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
            return sorted(re.sub(r"^(.*:\d+):\d+ ", r"\1 ", s) for s in items)
        if mode == "--files":
            return sorted({re.sub(r"^(.*?):\d+(?::\d+)? ", r"\1 ", s) for s in items})
        if mode == "--by-file":
            return sorted(re.sub(r"^(.*):\d+:\d+ ", r"\1 ", s) for s in items)
        return sorted(set(items))
    a, b = load(path_a), load(path_b)
    if a == b:
        print(f"same {len(a)} (file, rule) pairs" if mode == "--files" else f"same {len(a)} sites")
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
    if cmd == "status":
        for s in status_sites(sys.stdin):
            print(s)
    elif cmd == "same-text":
        n, bad = same_text(sys.argv[2], sys.argv[3])
        for s in bad:
            print(f"differs: {s}")
        if bad:
            sys.exit(1)
        print(f"same text at {n} sites")
    elif cmd == "edits":
        with open(sys.argv[3]) as f:
            sites = {l.strip() for l in f if l.strip()}
        by_file = {re.sub(r"^(.*):\d+:\d+ ", r"\1 ", s) for s in sites}
        for s, insert in muhpatch_edits(sys.argv[2], sys.stdin):
            ok = re.sub(r"^(.*):\d+:\d+ ", r"\1 ", s) in by_file if insert else s in sites
            print(("" if ok else "stray ") + s)
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
