#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check_docs.py [--self-test] [ROOT] - the documents match the program,
and each fact has one home.

Pure checks of the source tree at ROOT (no build, no root):
  - README.md is at most 300 lines and keeps the two quick-start commands;
    its usage gallery uses only real options;
  - the man page (man/man8/switchstat.8) documents every option of
    src/opts.c's opt_table in OPTIONS (and no other), and in FIELDS every
    output field the code defines: CSV/JSON keys, table column headers,
    JSON "type" values, the built-in events' names and headers, and the
    Prometheus metric names;
  - every environment variable src/ reads (getenv; the test seam module
    src/*/testseam.* excluded) has an entry in the man page's ENVIRONMENT,
    every entry there is read by src/, and no test seam is documented: no
    SWITCHSTAT_TEST (the seams' variable, and the old per-seam
    SWITCHSTAT_TEST_* and SWITCHSTAT_COUNTER_TIMES) and no seam name of the
    seam module appears in the user's documents;
  - no block of more than 5 lines is repeated between two documents (the
    README files, docs/, the man page, switchstat_example.txt): the same 6
    lines after whitespace and markup are normalised, or the same run of
    WORDS words, however wrapped;
  - every document is reachable from README.md by links (markdown links or
    a path named in the text), transitively;
  - no history in the documents: no issue numbers, no dated logs.

Exit 0 when all hold, 1 with one line per problem.  --self-test copies
ROOT to a temporary folder and plants one fault at a time (a repeated
block, an undocumented getenv, a seam in the man page, an unreachable
document, an undocumented option, an undocumented key, a dated log line),
and checks that each is reported and that the unplanted copy passes.
"""
import os
import re
import shutil
import sys
import tempfile

MAN = "man/man8/switchstat.8"
EXAMPLE = "switchstat_example.txt"
README_MAX = 300
QUICK = ["./scripts/setup.sh && ./build/switchstat -i 1000 -d 5", "./scripts/test.sh"]
LINES = 6  # a repeated block: more than 5 lines
WORDS = 50  # ... or this many words in a row, however wrapped
SKIP_DIRS = {".git", "build", "node_modules", "pending"}
SEAM_PREFIXES = ("SWITCHSTAT_TEST", "SWITCHSTAT_COUNTER_TIMES")


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


# ---- roff --------------------------------------------------------------
def roff_text(src):
    """The man page's text, one output line per source line, without
    requests and font escapes (.B/.I keep their words)."""
    out = []
    for line in src.split("\n"):
        if line.startswith((".B ", ".I ", ".BR ", ".IR ")):
            line = line.split(" ", 1)[1]
        elif line.startswith((".", "'")):
            out.append("." + line[1:3].strip() if line[1:3] in ("SH", "TP", "PP", "nf", "fi") else "")
            if line.startswith(".SH"):
                out[-1] = ".SH " + line[4:].strip().strip('"')
            continue
        line = re.sub(r"\\f[BIRP]|\\f\(\w\w|\\&|\\c", "", line)
        line = line.replace("\\-", "-").replace("\\(em", "--").replace("\\e", "\\")
        line = line.replace("\\\\", "\\")
        out.append(line)
    return out


def man_sections(lines):
    """{SECTION: [lines]} of roff_text's lines"""
    secs, cur = {}, None
    for l in lines:
        if l.startswith(".SH "):
            cur = l[4:]
            secs[cur] = []
        elif cur:
            secs[cur].append(l)
    return secs


def tp_tags(lines):
    """the tag line after each .TP"""
    return [lines[i + 1] for i, l in enumerate(lines[:-1]) if l == ".TP"]


# ---- what the source defines --------------------------------------------
def c_sources(root):
    for dp, dns, fns in os.walk(os.path.join(root, "src")):
        dns[:] = sorted(dns)
        for n in sorted(fns):
            if n.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(dp, n), root)


def split_top(text):
    """the top-level comma-separated elements of a C initializer body"""
    out, depth, cur, q = [], 0, "", None
    i = 0
    while i < len(text):
        c = text[i]
        if q:
            cur += c
            if c == "\\":
                cur += text[i + 1]
                i += 1
            elif c == q:
                q = None
        elif c in "\"'":
            q = c
            cur += c
        elif c in "({[":
            depth += 1
            cur += c
        elif c in ")}]":
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def options(root):
    """[(short or None, long)] of opt_table in src/opts.c"""
    src = read(root, "src/opts.c")
    m = re.search(r"opt_table\[\]\s*=\s*\{(.*?)\n\};", src, re.S)
    if not m:
        return []
    opts = []
    for el in split_top(m.group(1)):
        el = re.sub(r"/\*.*?\*/", "", el, flags=re.S).strip()
        mm = re.match(r"(?:FLAG|NUM|WORD)\(\s*(?:'(.)'|0)\s*,\s*\"([^\"]+)\"", el)
        if mm:
            opts.append((mm.group(1), mm.group(2)))
            continue
        name = re.search(r"\.name\s*=\s*\"([^\"]+)\"", el)
        key = re.search(r"\.key\s*=\s*'(.)'", el)
        if name:
            opts.append((key.group(1) if key else None, name.group(1)))
    return opts


def macro_keys(src):
    """keys built in a macro from a parameter: .key = side "_pid" in
    #define M(..., side, ...) and M(..., "victim", ...) -> victim_pid"""
    keys = set()
    for dm in re.finditer(r"#define\s+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)", src):
        name, params, body = dm.group(1), [p.strip() for p in dm.group(2).split(",")], dm.group(3)
        for km in re.finditer(r"\.key\s*=\s*(\w+)\s+\"([a-z_]+)\"", body):
            if km.group(1) not in params:
                continue
            at = params.index(km.group(1))
            for call in re.finditer(r"\b%s\(" % name, src):
                if src[call.start() - 8:call.start()].strip().endswith("define"):
                    continue
                depth, j = 1, call.end()
                while depth and j < len(src):
                    depth += {"(": 1, ")": -1}.get(src[j], 0)
                    j += 1
                args = split_top(src[call.end():j - 1])
                if at < len(args) and re.fullmatch(r'"[a-z_]+"', args[at]):
                    keys.add(args[at].strip('"') + km.group(2))
    return keys


def fields(root):
    """(keys, heads, types, metrics) the code defines"""
    keys, heads, types, metrics = set(), set(), set(), set()
    for rel in c_sources(root):
        src = read(root, rel)
        table_only = os.path.basename(rel) == "selfstats.c"  # always a table
        for m in re.finditer(r"\.head\s*=\s*\"([^\"]+)\"", src):
            heads.add(m.group(1))
        if not table_only:
            keys |= set(re.findall(r"\.key\s*=\s*\"([a-z_]+)\"", src))
            keys |= macro_keys(src)
            types |= set(re.findall(r"ss_emit_begin\([^,]+,\s*\"(\w+)\"\)", src))
        for m in re.finditer(r"add_col\(\s*\w+,\s*(\"[^\"]*\"|NULL|[\w\[\]]+),\s*(\"[a-z_]+\"|[\w\[\]]+),"
                             r"\s*-?\d+,\s*(\w+)", src):
            if m.group(2).startswith('"'):
                keys.add(m.group(2).strip('"'))
            if m.group(1).startswith('"') and m.group(3) != "false":
                heads.add(m.group(1).strip('"'))
        # arrays of keys and headers: rate_key[] = { "switches_per_s", ... }
        for m in re.finditer(r"\w+_(head|key)\[\]\s*=\s*\{([^}]*)\}", src):
            (heads if m.group(1) == "head" else keys).update(re.findall(r"\"([^\"]+)\"", m.group(2)))
        # tables of { "key", "HEAD" or NULL, ... } (the --offcpu columns):
        # a NULL head is a CSV/JSON key, a head a table column
        for tab in re.findall(r"struct off_col \w+\[\]\s*=\s*\{(.*?)\n\};", src, re.S):
            for m in re.finditer(r"\{\s*\"([a-z_]+)\",\s*(NULL|\"([^\"]+)\")\s*,", tab):
                if m.group(2) == "NULL":
                    keys.add(m.group(1))
                else:
                    heads.add(m.group(3))
        if re.search(r"prom", rel):
            metrics |= set(re.findall(r"\"((?:switchstat|process)_[a-z_]+)\"", src))
    events = read(root, "src/model/events.c")
    for m in re.finditer(r"\{\s*\"([^\"]+)\",\s*\{[^}]*\},\s*\w+,[^\"]*?\"([^\"]+)\",\s*(?:NULL|\"\w+\")\s*\}",
                         events):
        keys.add(m.group(1))  # an event's name: its key with '-' as '_'
        heads.add(m.group(2))
    return keys, heads, types, metrics


def envs(root):
    """({user-facing variable: where read}, {seam variable: where}, seam names)"""
    user, seams, names = {}, {}, set()
    defines = {}
    for rel in c_sources(root):
        for m in re.finditer(r"#define\s+(\w+)\s+\"([A-Z_][A-Z0-9_]*)\"", read(root, rel)):
            defines[m.group(1)] = m.group(2)
    for rel in c_sources(root):
        src = read(root, rel)
        if os.path.basename(rel).startswith("testseam."):
            names |= set(re.findall(r"\{\s*\"([a-z][a-z0-9_]*)\"", src))
            continue
        for m in re.finditer(r"\bgetenv\(\s*([^)]*?)\s*\)", src):
            arg, found = m.group(1), []
            if arg.startswith('"'):
                found = [arg.strip('"')]
            elif arg in defines:
                found = [defines[arg]]
            else:
                arr = re.match(r"(\w+)\[", arg)
                am = arr and re.search(r"\b%s\[\]\s*=\s*\{([^}]*)\}" % arr.group(1), src)
                found = re.findall(r"\"([A-Z_][A-Z0-9_]*)\"", am.group(1)) if am else []
            if not found:
                user["?" + arg] = rel  # cannot tell which: reported
            for v in found:
                (seams if v.startswith(SEAM_PREFIXES) else user)[v] = rel
    return user, seams, names


# ---- documents -----------------------------------------------------------
def documents(root):
    """the user's and developers' documents, relative paths"""
    docs = ["README.md", MAN, EXAMPLE]
    for dp, dns, fns in os.walk(root):
        dns[:] = sorted(d for d in dns if d not in SKIP_DIRS and not d.startswith("."))
        rel = os.path.relpath(dp, root)
        for n in sorted(fns):
            p = os.path.normpath(os.path.join(rel, n))
            if p in docs:
                continue
            if n == "README.md" or (rel.split(os.sep)[0] == "docs" and n.endswith(".md")):
                docs.append(p)
    return [d for d in docs if os.path.exists(os.path.join(root, d))]


def plain_lines(root, rel):
    """(line number, normalised text) of a document's non-trivial lines"""
    text = read(root, rel)
    raw = roff_text(text) if rel == MAN else text.split("\n")
    out = []
    for i, l in enumerate(raw, 1):
        if rel == MAN and l.startswith("."):
            continue
        l = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", l)  # [text](link)
        l = re.sub(r"[`*|>#]", " ", l)
        l = re.sub(r"^\s*([-+]|\d+\.)\s+", "", l)
        l = " ".join(l.lower().split())
        if len(re.sub(r"\W", "", l)) >= 4:
            out.append((i, l))
    return out


def repeated_blocks(root, docs):
    problems = []
    seen = {}  # 6 lines -> (doc, line)
    words = {}  # WORDS words -> (doc, line)
    for d in docs:
        lines = plain_lines(root, d)
        found = set()
        for k in range(len(lines) - LINES + 1):
            key = "\n".join(l for _, l in lines[k:k + LINES])
            first = seen.setdefault(key, (d, lines[k][0]))
            if first[0] != d and (first[0], d) not in found:
                found.add((first[0], d))
                problems.append("repeated block: %s:%d and %s:%d have the same %d lines (%.60s...)"
                                % (first[0], first[1], d, lines[k][0], LINES, lines[k][1]))
        toks = [(n, w) for n, l in lines for w in l.split()]
        for k in range(len(toks) - WORDS + 1):
            key = " ".join(w for _, w in toks[k:k + WORDS])
            first = words.setdefault(key, (d, toks[k][0]))
            if first[0] != d and (first[0], d) not in found:
                found.add((first[0], d))
                problems.append("repeated text: %s:%d and %s:%d share %d words (%.60s...)"
                                % (first[0], first[1], d, toks[k][0], WORDS, key))
    return problems


def links(root, rel, docs):
    """the documents rel links to or names"""
    text = read(root, rel)
    here = os.path.dirname(rel)
    out = set()
    targets = re.findall(r"\]\(([^)#\s]+)", text)
    for d in docs:  # a path named in the text, from the root or from here
        for base in ("", here):
            name = os.path.relpath(d, base) if base else d
            if re.search(r"(?<![\w./-])%s(?![\w/-])" % re.escape(name), text):
                out.add(d)
    for t in targets:
        p = os.path.normpath(os.path.join(here, t))
        if os.path.isdir(os.path.join(root, p)):
            p = os.path.join(p, "README.md")
        if p in docs:
            out.add(p)
    return out


# ---- the checks ------------------------------------------------------------
def check(root):
    problems = []
    readme = read(root, "README.md")
    n = readme.count("\n")
    if n > README_MAX:
        problems.append("README.md: %d lines, more than %d" % (n, README_MAX))
    for q in QUICK:
        if q not in readme:
            problems.append("README.md: the quick start lacks `%s`" % q)

    man = roff_text(read(root, MAN))
    secs = man_sections(man)
    for s in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "FIELDS", "ENVIRONMENT",
              "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"):
        if s not in secs:
            problems.append("man page: no %s section" % s)
    opt_re = r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\w-])"

    # options: opt_table against OPTIONS' tags, both ways
    opts = options(root)
    if len(opts) < 20:
        problems.append("src/opts.c: found only %d options in opt_table" % len(opts))
    want = {("-" + s) for s, _ in opts if s} | {"--" + l for _, l in opts}
    have = set()
    for tag in tp_tags(secs.get("OPTIONS", [])):
        have |= set(re.findall(opt_re, tag))
    for o in sorted(want - have):
        problems.append("man OPTIONS: %s (src/opts.c) is not documented" % o)
    for o in sorted(have - want):
        problems.append("man OPTIONS: %s is not an option of src/opts.c" % o)
    # the README's gallery: only real options
    for cmd in re.findall(r"`(switchstat[^`]*)`", readme) + re.findall(r"\./build/(switchstat[^\n#]*)", readme):
        for tok in cmd.split()[1:]:
            bad = []
            if tok.startswith("--"):
                bad = [tok.split("=", 1)[0]] if tok.split("=", 1)[0] not in want else []
            elif re.fullmatch(r"-[A-Za-z]+", tok):
                bad = ["-" + c for c in tok[1:] if "-" + c not in want]
            for b in bad:
                problems.append("README.md: `%s` uses %s, not an option" % (cmd, b))

    # fields: every key, header, type, event and metric in FIELDS
    keys, heads, types, metrics = fields(root)
    if len(keys) < 40 or len(heads) < 30 or len(metrics) < 20 or len(types) < 5:
        problems.append("could not find the fields in src/ (%d keys, %d headers, %d types, %d metrics)"
                        % (len(keys), len(heads), len(types), len(metrics)))
    ftext = "\n".join(secs.get("FIELDS", []))
    for k in sorted(keys | types):
        if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(k), ftext):
            problems.append("man FIELDS: %s (an output key or type of src/) is not documented" % k)
    for h in sorted(heads):
        if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(h), ftext):
            problems.append("man FIELDS: column %s (src/) is not documented" % h)
    for m in sorted(metrics):
        if not re.search(r"(?<![\w-])%s(_total|_info)?(?![\w-])" % re.escape(m), ftext):
            problems.append("man FIELDS: metric %s (src/) is not documented" % m)

    # environment: what src/ reads, both ways; no seam
    user, seam_vars, seam_names = envs(root)
    documented = set()
    for tag in tp_tags(secs.get("ENVIRONMENT", [])):
        documented |= set(re.findall(r"[A-Z][A-Z0-9_]+", tag))
    for v, rel in sorted(user.items()):
        if v.startswith("?"):
            problems.append("%s: getenv(%s): cannot tell which variable it reads" % (rel, v[1:]))
        elif v not in documented:
            problems.append("man ENVIRONMENT: %s (read in %s) is not documented" % (v, rel))
    for v in sorted(documented - set(user)):
        problems.append("man ENVIRONMENT: %s is documented but src/ never reads it" % v)
    docs = documents(root)
    user_docs = [d for d in docs if not d.startswith(("tests/", "src/", "probes/", "scripts/"))]
    for d in user_docs:
        text = "\n".join(roff_text(read(root, d))) if d == MAN else read(root, d)
        for v in sorted(set(seam_vars) | {"SWITCHSTAT_TEST"}):
            if v in text:
                problems.append("%s: names the test seam %s (seams are for tests only)" % (d, v))
        for s in sorted(seam_names):
            if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(s), text):
                problems.append("%s: names the test seam '%s'" % (d, s))
        for m in re.finditer(r"(?i)\bissues? #?\d+|\b20\d\d-[01]\d-[0-3]\d\b", text):
            if d == MAN and text[:m.start()].count("\n") < 2:
                continue  # .TH's date
            problems.append("%s: history (%s): it lives in git" % (d, m.group(0)))

    problems += repeated_blocks(root, docs)

    # reachability from README.md
    reach, todo = {"README.md"}, ["README.md"]
    while todo:
        for d in links(root, todo.pop(), docs) - reach:
            reach.add(d)
            todo.append(d)
    for d in docs:
        if d not in reach:
            problems.append("%s: not reachable from README.md by links" % d)
    return problems


# ---- self test -------------------------------------------------------------
def plant(root, rel, old, new):
    p = os.path.join(root, rel)
    text = open(p, encoding="utf-8").read()
    if old not in text:
        raise SystemExit("self-test: cannot plant into %s" % rel)
    open(p, "w", encoding="utf-8").write(text.replace(old, new, 1))


def self_test(root):
    acc = read(root, "docs/accuracy.md").split("\n")
    # six prose lines of docs/accuracy.md, copied into deploy/README.md
    start = next(i for i in range(len(acc)) if all(len(l) > 50 for l in acc[i:i + 6]))
    block = "\n".join(acc[start:start + 6])
    plants = [
        ("a repeated block", "repeated block",
         lambda t: plant(t, "deploy/README.md", "## Kubernetes\n", block + "\n\n## Kubernetes\n")),
        ("an undocumented getenv", "SWITCHSTAT_PLANTED (read in",
         lambda t: plant(t, "src/output/colfit.c", "getenv(\"COLUMNS\")",
                         "getenv(\"SWITCHSTAT_PLANTED\") ?: getenv(\"COLUMNS\")")),
        ("a seam variable in the man page", "names the test seam SWITCHSTAT_TEST",
         lambda t: plant(t, MAN, ".SH FILES\n", ".PP\nSWITCHSTAT_TEST_NO_RAW=1 takes the regular path.\n.SH FILES\n")),
        ("an unreachable document", "docs/orphan.md: not reachable",
         lambda t: open(os.path.join(t, "docs/orphan.md"), "w").write("# orphan\n")),
        ("an undocumented option", "--planted (src/opts.c) is not documented",
         lambda t: plant(t, "src/opts.c", "FLAG(0, \"trace\",",
                         "FLAG(0, \"planted\", trace, \"x\"),\n\tFLAG(0, \"trace\",")),
        ("an undocumented key", "planted_key",
         lambda t: plant(t, "src/output/trace_fmt.c", "[COL_CPU] = {",
                         "[COL_CPU] = { .key = \"planted_key\" },\n\t[COL_CPU] = {")),
        ("a dated log", "history (2026-01-02)",
         lambda t: plant(t, "docs/overhead.md", "## The bench\n", "## The bench\n\nRun on 2026-01-02.\n")),
    ]
    ignore = shutil.ignore_patterns(".git", "build", "node_modules", "*.o")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "base")
        shutil.copytree(root, base, ignore=ignore, symlinks=True)
        clean = check(base)
        if clean:
            print("self-test: the unplanted copy fails:\n  " + "\n  ".join(clean))
            failed += 1
        for what, expect, do in plants:
            t = os.path.join(tmp, "t")
            shutil.rmtree(t, ignore_errors=True)
            shutil.copytree(base, t, symlinks=True)
            do(t)
            got = check(t)
            if any(expect in p for p in got):
                print("self-test: %s is reported: %s" % (what, next(p for p in got if expect in p)))
            else:
                print("self-test: %s is NOT reported (got: %s)" % (what, got))
                failed += 1
    return failed


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    if "--self-test" in argv:
        return 1 if self_test(root) else 0
    problems = check(root)
    for p in problems:
        print(p)
    if not problems:
        print("docs: options, fields, environment, no repeated block, all reachable")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
