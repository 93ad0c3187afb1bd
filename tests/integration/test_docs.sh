#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_docs.sh - the documentation matches the program (no root needed):
#  - man/man8/switchstat.8 renders with man -l, no groff warnings, and has
#    the bcc man page sections; it documents every option of switchstat -h;
#  - switchstat_example.txt ends with the USAGE message, equal to
#    `switchstat -h` byte for byte;
#  - README.md's Usage block uses only options of -h, and README.md names
#    every option of -h (its short or long form);
#  - README.md "## Output fields" and the man page name every CSV/JSON key
#    the code defines (src/output/output.c add_col, src/output/trace_fmt.c COL).
. "$(dirname "$0")/lib.sh"
command -v man >/dev/null || skip "needs man (man-db)"
command -v python3 >/dev/null || skip "needs python3"
[ -x "$SWITCHSTAT" ] || fail "no binary at $SWITCHSTAT"

MAN=$SRC/man/man8/switchstat.8
EXAMPLE=$SRC/switchstat_example.txt
[ -f "$MAN" ] || fail "missing $MAN"
[ -f "$EXAMPLE" ] || fail "missing $EXAMPLE"

"$SWITCHSTAT" -h >"$T/usage.txt" || fail "switchstat -h: exit $?"

# --- man page renders, no warnings, all sections -------------------------
MANWIDTH=80 man --warnings -l "$MAN" >"$T/man.txt" 2>"$T/man.err" ||
	fail "man -l: exit $?: $(cat "$T/man.err")"
[ -s "$T/man.err" ] && fail "man -l warnings: $(head -3 "$T/man.err")"
for s in NAME SYNOPSIS DESCRIPTION REQUIREMENTS OPTIONS EXAMPLES FIELDS \
	OVERHEAD SOURCE OS STABILITY "SEE ALSO"; do
	grep -q "^$s\$" "$T/man.txt" || fail "man page: no $s section"
done
info "man page renders ($(wc -l <"$T/man.txt") lines), all sections present"

# --- every option of -h is documented in OPTIONS, and nothing else -------
python3 - "$T/usage.txt" "$T/man.txt" <<'PY' || fail "man OPTIONS vs -h"
import re, sys
usage, man = (open(p).read() for p in sys.argv[1:3])
def opts(text):
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\w-])", text))
opt_text = usage.split("OPTIONS:", 1)[1].split("EXAMPLES:", 1)[0]
want = opts(opt_text)
sec = man.split("\nOPTIONS\n", 1)[1].split("\nEXAMPLES\n", 1)[0]
# option lines of the man page: "       -i MS, --interval MS"
have = set()
for line in sec.splitlines():
    if re.match(r"^ {7}-", line):
        have |= opts(line)
missing, extra = want - have, have - want
if missing or extra:
    sys.exit("man OPTIONS: missing %s, not in -h %s" % (sorted(missing), sorted(extra)))
print("  %d options of -h documented in the man page" % len(want))
PY

# --- example file ends with the usage message ---------------------------
python3 - "$EXAMPLE" "$T/usage.txt" <<'PY' || fail "switchstat_example.txt"
import sys
text, usage = (open(p).read() for p in sys.argv[1:3])
mark = "\n# switchstat -h\n"
if mark not in text:
    sys.exit("no '# switchstat -h' line")
tail = text.rsplit(mark, 1)[1]
if tail != usage:
    import difflib
    sys.stdout.writelines(difflib.unified_diff(
        usage.splitlines(True), tail.splitlines(True), "switchstat -h", "example"))
    sys.exit("USAGE message differs from switchstat -h")
print("  example file ends with the exact -h output (%d lines)" % usage.count("\n"))
PY

# --- README: its Usage block uses only real options, and names every one -
python3 - "$T/usage.txt" "$SRC/README.md" <<'PY' || fail "README vs -h"
import re, sys
usage, readme = (open(p).read() for p in sys.argv[1:3])
opt_text = usage.split("OPTIONS:", 1)[1].split("EXAMPLES:", 1)[0]
opts = []  # (short or None, long) per option line of -h
for line in opt_text.splitlines():
    m = re.match(r"\s+(?:(-\w), )?(--[\w-]+)", line)
    if m:
        opts.append(m.groups())
known = {o for pair in opts for o in pair if o}
if "\n## Usage\n" not in readme:
    sys.exit("README.md: no '## Usage' section")
sec = readme.split("\n## Usage\n", 1)[1].split("\n## ", 1)[0]
block = sec.split("```", 2)[1]
bad = []
for line in block.splitlines():
    cmd = line.split("#", 1)[0]
    if not cmd.strip().startswith("switchstat"):
        continue
    for tok in cmd.split()[1:]:
        if tok.startswith("--"):
            tok = tok.split("=", 1)[0]
        elif re.match(r"-[A-Za-z]+$", tok):
            for c in tok[1:]:  # a cluster: each letter an option
                if "-" + c not in known:
                    bad.append("Usage block: -%s in %r" % (c, line.strip()))
            continue
        else:
            continue
        if tok not in known:
            bad.append("Usage block: %s in %r" % (tok, line.strip()))
words = set(re.findall(r"(?<![\w-])--?[A-Za-z][\w-]*", readme))
for short, long in opts:
    if long in ("--help", "--version"):
        continue
    if long not in words and (short is None or short not in words):
        bad.append("README never mentions %s%s" % (short + "/" if short else "", long))
if bad:
    sys.exit("\n".join(bad))
print("  README: its Usage block uses only options of -h; all %d are in the README"
      % len(opts))
PY

# --- every output key is documented --------------------------------------
python3 - "$SRC" "$T/man.txt" <<'PY' || fail "output fields documentation"
import re, sys
src, man = sys.argv[1], open(sys.argv[2]).read()
keys = set(re.findall(r'add_col\(\s*out,\s*"[^"]*",\s*"([a-z_]+)"',
                      open(src + "/src/output/output.c").read()))
trace = set(re.findall(r'\[COL_\w+\]\s*=\s*\{\s*\.key\s*=\s*"([a-z_]+)"',
                       open(src + "/src/output/trace_fmt.c").read()))
if len(keys) < 10 or len(trace) < 10:
    sys.exit("could not find the column lists (%d, %d keys)" % (len(keys), len(trace)))
readme = open(src + "/README.md").read()
if "\n## Output fields\n" not in readme:
    sys.exit("README.md: no '## Output fields' section")
sec = readme.split("\n## Output fields\n", 1)[1].split("\n## ", 1)[0]
fields = man.split("\nFIELDS\n", 1)[1].split("\nOVERHEAD\n", 1)[0]
bad = []
for k in sorted(keys | trace | {"type", "scaled"}):
    if "`%s`" % k not in sec:
        bad.append("README: " + k)
    if k != "type" and not re.search(r"\b%s\b" % k, fields):
        bad.append("man FIELDS: " + k)
if bad:
    sys.exit("undocumented keys: " + ", ".join(bad))
print("  %d row keys and %d trace keys documented in README and man FIELDS"
      % (len(keys), len(trace)))
PY
pass "man page, example file and output fields match the program"
